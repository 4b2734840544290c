// XMODEL_EXPORT v5/v6/v7 reader (FORMATS.md §3). The grammar lives in parseXmodelRecords so
// the *_BIN reader shares it.
#include <algorithm>
#include <initializer_list>
#include <cmath>
#include <iterator>
#include <optional>

#include <Eigen/Geometry>

#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_grammar.h"
#include "core/formats/cod/cod_parser.h"
#include "core/formats/cod/cod_record.h"
#include "core/formats/xbin/xbin_stream.h"
#include "core/formats/xmodel/xmodel.h"
#include "core/text/plural.h"

namespace rigscope::core {

namespace cod {

namespace {

Vec3 clockwiseFaceNormal(const Vec3& a, const Vec3& b, const Vec3& c) noexcept
{
    const Vec3 n = (c - a).cross(b - a);
    const float len = n.norm();
    if (!(len > 0.0f) || !std::isfinite(len)) {
        return Vec3(0.0f, 0.0f, 1.0f);
    }
    return n / len;
}

enum class Section : std::uint8_t { Start, BoneInfo, Transforms, Pool, Faces, Objects, Materials };
enum class Target : std::uint8_t { None, Bone, Vert };

struct BoneInfo {
    std::int32_t index = 0;
    std::int32_t parent = -1;
    std::string name;
    SourceLoc loc, parentLoc;
};

struct BoneXf {
    std::int32_t index = 0;
    Vec3 offset = Vec3::Zero();
    Mat3 axes = Mat3::Identity();
    Vec3 scale = Vec3::Ones();
    bool hasScale = false;
    SourceLoc loc;
};

// A pool vertex; its position and location are in parallel arrays (m_vPos, m_vWhere), which
// become the model's point arrays.
struct PoolVert {
    std::int32_t index = 0;
    std::int32_t declared = -1;
    std::uint32_t wStart = 0, wCount = 0;
    SourceLoc bonesLoc;
};

// A face corner; its point, normal, colour, first UV set and location are in parallel arrays
// (m_cPoint...), which become the model's corner arrays. UV sets after the first are in m_uvs.
struct CornerInfo {
    std::uint32_t uvStart = 0, uvCount = 0;
    std::uint8_t flags = 0;
};
enum CornerFlag : std::uint8_t { kHasNormal = 1, kHasColor = 2, kHasUv = 4, kOneLine = 8 };
constexpr std::uint32_t kBadCorner = static_cast<std::uint32_t>(-2); // unreadable: face dropped

struct Face {
    std::int32_t obj = 0, mat = 0;
    SourceLoc loc, objLoc, matLoc;
    std::uint32_t firstCorner = 0, cornerCount = 0;
    bool extraCorners = false;
};

struct Named {
    std::int32_t index = 0;
    SourceLoc loc;
};

class XmodelParser : public RecordParser<XmodelParser> {
public:
    using RecordParser::RecordParser;

private:
    friend class RecordParser<XmodelParser>;

    bool sawHeader() const noexcept { return m_sawModel; }

    // Shares (cod_parser.h) begin at a pool VERT or a TRI line after the first pool VERT line.
    enum ShareKind { PoolShare, FaceShare };
    struct ShareStart {
        Section section = Section::Pool;
        std::optional<std::int64_t> numVerts;
        int version = 6;
        std::array<bool, 5> warned{};
        bool operator==(const ShareStart&) const = default;
    };
    bool splitsAfter(const Record& r) const noexcept
    {
        return m_section == Section::Pool && (r.kw == Kw::Vert || r.kw == Kw::Vert32);
    }
    static const char* shareStart(const char* from, const char* end, int& kind) noexcept
    {
        const char* pool = guessLinePair(from, end, {"VERT ", "VERT32 "}, {"OFFSET "});
        const char* face = guessLinePair(from, end, {"TRI ", "TRI16 "}, {"VERT ", "VERT32 "});
        kind = face && (!pool || face < pool) ? FaceShare : PoolShare;
        return kind == FaceShare ? face : pool;
    }
    ShareStart startState(int kind) const noexcept
    {
        return {kind == FaceShare ? Section::Faces : Section::Pool, m_numVerts.value, m_version,
                m_warned};
    }
    void beginShare(const ShareStart& s, std::size_t bytes)
    {
        m_section = s.section;
        m_numVerts.value = s.numVerts;
        m_version = s.version;
        m_warned = s.warned;
        // a vertex takes at least 20 bytes ("VERT 1\nOFFSET 0 0 0\n"), a face 30
        reserveFor(s.section == Section::Pool ? bytes : 0, bytes, bytes + 1);
    }

    // Whether a share reads `r` exactly as reading in order would: pool and face lines that do
    // not look at records before the share, and no version 7 warning still to give. The first
    // record must be the one the share was guessed to start with.
    ShareRead shareReads(const Record& r) const noexcept
    {
        if (m_lastAt.line == 0) {
            const bool faces = m_section == Section::Faces;
            const bool starts =
                r.kw == (faces ? Kw::Tri : Kw::Vert) || r.kw == (faces ? Kw::Tri16 : Kw::Vert32);
            return starts ? ShareRead::Read : ShareRead::Fail;
        }
        return shareReadsLine(r) ? ShareRead::Read : ShareRead::Stop;
    }
    bool shareReadsLine(const Record& r) const noexcept
    {
        const bool v7 = m_version >= 7;
        switch (r.kw) {
        case Kw::Vert:
            return m_section != Section::Faces || !m_faces.empty();
        case Kw::Vert32:
            return (v7 || m_warned[1]) && (m_section != Section::Faces || !m_faces.empty());
        case Kw::Tri:
            return true;
        case Kw::Tri16:
            return v7 || m_warned[2];
        case Kw::Offset:
        case Kw::Bones:
            return true;
        case Kw::Bone:
            return r.argc == 2;
        case Kw::Normal:
        case Kw::Color:
            return !m_faces.empty();
        case Kw::Uv:
            return !m_faces.empty() && (v7 || m_warned[3] || (r.argc > 0 && r.args[0].text == "1"));
        default:
            return r.keyword == "NUMFACES";
        }
    }

    // Appends a share's pool vertices, weights, faces and corners (its lines counted from
    // `lineBase`) and takes on its state.
    void splice(XmodelParser& p, std::uint32_t lineBase)
    {
        auto fix = [lineBase](SourceLoc l) { return shifted(l, lineBase); };
        const auto weightBase = static_cast<std::uint32_t>(m_wBones.size());
        appendShare(m_verts, p.m_verts, [&](PoolVert v) {
            v.wStart += weightBase;
            v.bonesLoc = fix(v.bonesLoc);
            return v;
        });
        appendShare(m_vPos, p.m_vPos);
        appendShare(m_vWhere, p.m_vWhere, fix);
        appendShare(m_wBones, p.m_wBones);
        appendShare(m_wWeights, p.m_wWeights);
        appendShare(m_wLocs, p.m_wLocs, fix);
        const auto cornerBase = static_cast<std::uint32_t>(m_cPoint.size());
        const auto uvBase = static_cast<std::uint32_t>(m_uvs.size());
        appendShare(m_faces, p.m_faces, [&](Face f) {
            f.firstCorner += cornerBase;
            f.loc = fix(f.loc);
            f.objLoc = fix(f.objLoc);
            f.matLoc = fix(f.matLoc);
            return f;
        });
        appendShare(m_cInfo, p.m_cInfo, [uvBase](CornerInfo c) {
            c.uvStart += uvBase;
            return c;
        });
        appendShare(m_cWhere, p.m_cWhere, fix);
        appendShare(m_cPoint, p.m_cPoint);
        appendShare(m_cNormal, p.m_cNormal);
        appendShare(m_cColor, p.m_cColor);
        appendShare(m_cUv, p.m_cUv);
        appendShare(m_uvs, p.m_uvs);
        if (p.m_numFaces.value) {
            m_numFaces = {p.m_numFaces.value, fix(p.m_numFaces.loc)};
        }
        m_section = p.m_section;
        m_target = p.m_target;
        m_uvSets = std::max(m_uvSets, p.m_uvSets);
        m_sawOneLineCorner = m_sawOneLineCorner || p.m_sawOneLineCorner;
        for (std::size_t k = 0; k < m_warned.size(); ++k) {
            m_warned[k] = m_warned[k] || p.m_warned[k];
        }
    }
    bool m_sawModel = false;
    bool m_sawVersion = false;
    bool m_badVersion = false;
    bool m_sawOneLineCorner = false;
    int m_version = 6;
    Section m_section = Section::Start;
    Target m_target = Target::None;
    Count m_numBones, m_numVerts, m_numFaces, m_numObjects, m_numMaterials;
    std::vector<BoneInfo> m_bones;
    std::vector<BoneXf> m_xfs;
    std::vector<PoolVert> m_verts;
    std::vector<Vec3> m_vPos;
    std::vector<SourceLoc> m_vWhere;
    std::vector<std::int32_t> m_wBones;
    std::vector<float> m_wWeights;
    std::vector<SourceLoc> m_wLocs;
    std::vector<Face> m_faces;
    std::vector<CornerInfo> m_cInfo;
    std::vector<std::uint32_t> m_cPoint;
    std::vector<Vec3> m_cNormal;
    std::vector<Vec4> m_cColor;
    std::vector<Vec2> m_cUv;
    std::vector<SourceLoc> m_cWhere;
    std::vector<float> m_uvs; // UV sets after the first

    // Room for `verts` more pool vertices (one weight each) and `faces` more faces, at most what
    // `limit` bytes of input can hold (see reserveMore).
    void reserveFor(std::uint64_t verts, std::uint64_t faces, std::uint64_t limit)
    {
        // `n` items in each array, at most one per `minBytes` of input
        const auto more = [limit](std::uint64_t n, std::uint64_t minBytes, auto&... vs) {
            const auto k = static_cast<std::size_t>(std::min(n, limit / minBytes));
            (reserveMore(vs, k), ...);
        };
        more(verts, 20, m_verts, m_vPos, m_vWhere, m_wBones, m_wWeights, m_wLocs);
        more(faces, 30, m_faces);
        more(3 * faces, 30, m_cInfo, m_cPoint, m_cNormal, m_cColor, m_cUv, m_cWhere);
    }

    std::vector<std::pair<Named, std::string>> m_objects;
    std::vector<std::pair<Named, Material>> m_materials;
    std::array<bool, 5> m_warned{};
    // syntax.truncated (issue 15)
    bool m_truncatedXfs = false, m_truncatedFace = false;

    // Fields a complete line of this keyword has (text); a cut last line with fewer is cut.
    std::size_t expectedArgs(const Record& r) const noexcept
    {
        const std::string_view k = r.keyword;
        if (k == "BONE") {
            if (m_section == Section::Pool) {
                return 2;
            }
            return m_section == Section::Transforms ||
                           (m_numBones.value &&
                            static_cast<std::int64_t>(m_bones.size()) >= *m_numBones.value)
                       ? 1
                       : 3;
        }
        if (k == "MATERIAL") {
            return m_version >= 6 ? 4 : 2;
        }
        return keywordFields(k, Grammar::Xmodel);
    }

    // The file ends before its structure is complete (FORMATS.md §3.2 section order): one
    // syntax.truncated at the last line saying what is missing.
    void integrityAtEof()
    {
        struct Step {
            const Count* count;
            std::size_t have;
            const char* singular;
            const char* pluralForm;
            const char* keyword;
        };
        const Step steps[] = {
            {&m_numBones, m_bones.size(), "bone", "bones", "NUMBONES"},
            {&m_numVerts, m_verts.size(), "vertex", "vertices", "NUMVERTS"},
            {&m_numFaces, m_faces.size(), "face", "faces", "NUMFACES"},
            {&m_numObjects, m_objects.size(), "object", "objects", "NUMOBJECTS"},
            {&m_numMaterials, m_materials.size(), "material", "materials", "NUMMATERIALS"},
        };
        std::string what;
        std::size_t k = 0;
        for (; k < std::size(steps); ++k) {
            const Step& st = steps[k];
            if (!st.count->value) {
                break;
            }
            const std::size_t declared = countOf(*st.count);
            // bones: the info lines, then one transform block per bone
            if (k == 0 && st.have >= declared && m_xfs.size() < declared &&
                m_section <= Section::Transforms) {
                what = "after " + std::to_string(m_xfs.size()) + " of " + std::to_string(declared) +
                       " bone transform blocks";
                m_truncatedXfs = true;
                ++k;
                break;
            }
            if (st.have < declared && (k + 1 == std::size(steps) || !steps[k + 1].count->value)) {
                what = "after " + groupedCount(st.have) + " of " +
                       plural(declared, st.singular, st.pluralForm);
                m_truncatedCount = st.count;
                ++k;
                break;
            }
        }
        if (what.empty() && k == std::size(steps)) {
            // every count met: the last face or material may still be cut
            if (!m_faces.empty() && m_materials.empty() && m_section == Section::Faces) {
                const Face& f = m_faces.back();
                const std::uint8_t c =
                    f.cornerCount > 0 ? m_cInfo.back().flags : std::uint8_t{kOneLine};
                if (f.cornerCount < 3 || !(c & (kOneLine | kHasUv))) {
                    what = "inside face " + std::to_string(m_faces.size() - 1) + " (" +
                           std::to_string(f.cornerCount) + " of 3 corners)";
                    m_truncatedFace = true;
                }
            }
            // A material's parameter lines vary between exporters: a cut between whole
            // parameter lines cannot be told from a shorter material.
        } else if (what.empty()) {
            what = std::string("before ") + steps[k].keyword;
            ++k;
        }
        if (!what.empty()) {
            std::string later;
            for (; k < std::size(steps); ++k) {
                if (!steps[k].count->value) {
                    later += later.empty() ? "; no " : ", ";
                    later += steps[k].keyword;
                }
            }
            what += later;
        }
        reportTruncated(what);
    }
    std::uint32_t m_uvSets = 1;

    void versionFeature(std::size_t which, const Record& r)
    {
        if (m_version >= 7 || m_warned[which]) {
            return;
        }
        m_warned[which] = true;
        m_sink.warning(ids::kCodVersionFeature, r.loc,
                       "'" + std::string(r.keyword) + "' is a version 7 feature in a version " +
                           std::to_string(m_version) + " file");
    }

    bool inRange(std::int64_t i, const Count& c, const Record& r, std::size_t arg,
                 std::string_view kind, std::string_view countName)
    {
        const bool ok =
            i >= 0 && (!c.value || i < *c.value) && static_cast<std::uint64_t>(i) < m_limit;
        if (!ok) {
            m_sink.error(
                ids::kCodIndexRange, argLoc(r, arg),
                std::string(kind) + " index " + std::to_string(i) +
                    (i < 0 ? " < 0"
                           : " \u2265 " + std::string(countName) + " " +
                                 std::to_string(c.value ? *c.value
                                                        : static_cast<std::int64_t>(m_limit))));
        }
        return ok;
    }

    // The corner NORMAL / COLOR / UV lines belong to (SIZE_MAX when none).
    std::size_t currentCorner() const noexcept
    {
        if (m_faces.empty() || m_faces.back().cornerCount == 0 || m_cPoint.empty()) {
            return SIZE_MAX;
        }
        return m_cPoint.size() - 1;
    }

    void param(const Record& r, std::size_t n)
    {
        Material* mat = m_section == Section::Materials && !m_materials.empty()
                            ? &m_materials.back().second
                            : nullptr;
        if (!mat) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "'" + shownToken(r.keyword) + "' outside a material skipped");
            return;
        }
        if (!needArgs(r, n, m_sink, r.keyword)) {
            return;
        }
        MaterialParam p;
        p.key = r.keyword;
        p.values.resize(n);
        if (!argFloats(r, 0, n, p.values.data(), m_sink, r.keyword)) {
            return;
        }
        mat->params.push_back(std::move(p));
    }

    void dispatch(const Record& r)
    {
        switch (r.kw) {
        case Kw::Bone:
            bone(r);
            return;
        case Kw::Offset:
        case Kw::Scale:
        case Kw::X:
        case Kw::Y:
        case Kw::Z:
            vector3(r);
            return;
        case Kw::Vert32:
            versionFeature(1, r);
            [[fallthrough]];
        case Kw::Vert:
            if (m_section == Section::Faces) {
                corner(r);
            } else {
                poolVert(r);
            }
            return;
        case Kw::Tri16:
            versionFeature(2, r);
            [[fallthrough]];
        case Kw::Tri:
            tri(r);
            return;
        case Kw::Uv:
            uv(r);
            return;
        case Kw::Bones: {
            if (m_target != Target::Vert || m_verts.empty()) {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc, "'BONES' outside a vertex skipped");
                return;
            }
            std::int32_t v = 0;
            if (needArgs(r, 1, m_sink, "BONES") && argInt(r, 0, v, m_sink, "BONES")) {
                m_verts.back().declared = v;
                m_verts.back().bonesLoc = r.loc;
            }
            return;
        }
        case Kw::Normal: {
            const std::size_t c = currentCorner();
            if (c == SIZE_MAX) {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "'NORMAL' outside a face corner skipped");
                return;
            }
            float v[3];
            if (needArgs(r, 3, m_sink, "NORMAL") && argFloats(r, 0, 3, v, m_sink, "NORMAL")) {
                m_cNormal[c] = Vec3(v[0], v[1], v[2]);
                m_cInfo[c].flags |= kHasNormal;
            }
            return;
        }
        case Kw::Color: {
            if (m_section == Section::Materials) {
                param(r, 4);
                return;
            }
            const std::size_t c = currentCorner();
            if (c == SIZE_MAX) {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "'COLOR' outside a face corner skipped");
                return;
            }
            float v[4];
            if (needArgs(r, 4, m_sink, "COLOR") && argFloats(r, 0, 4, v, m_sink, "COLOR")) {
                m_cColor[c] = Vec4(v[0], v[1], v[2], v[3]);
                m_cInfo[c].flags |= kHasColor;
            }
            return;
        }
        default:
            break;
        }
        const std::string_view k = r.keyword;
        if (k == "MODEL") {
            m_sawModel = true;
        } else if (k == "VERSION") {
            std::int32_t v = 0;
            if (needArgs(r, 1, m_sink, "VERSION") && argInt(r, 0, v, m_sink, "VERSION")) {
                m_sawVersion = true;
                if (v < 5 || v > 7) {
                    m_sink.error(ids::kSyntaxBadVersion, argLoc(r, 0),
                                 "version " + std::to_string(v) + "; cod accepts 5, 6, 7");
                    m_badVersion = true;
                    m_version = 6;
                } else {
                    m_version = v;
                }
            }
        } else if (k == "NUMBONES") {
            readCount(r, m_numBones, "NUMBONES");
            m_section = Section::BoneInfo;
        } else if (k == "NUMCOSMETICBONES" || k == "NUMCOSMETICS") {
            versionFeature(0, r);
            m_sink.warning(ids::kCodUnsupported, r.loc,
                           "cosmetic bone count not kept; the bones read as regular bones");
        } else if (k == "NUMVERTS" || k == "NUMVERTS32") {
            if (k == "NUMVERTS32") {
                versionFeature(1, r);
            }
            readCount(r, m_numVerts, k);
            reserveFor(countOf(m_numVerts), 0, m_limit);
            m_section = Section::Pool;
            m_target = Target::None;
        } else if (k == "NUMFACES") {
            readCount(r, m_numFaces, "NUMFACES");
            reserveFor(0, countOf(m_numFaces), m_limit);
            m_section = Section::Faces;
            m_target = Target::None;
        } else if (k == "NUMOBJECTS") {
            readCount(r, m_numObjects, "NUMOBJECTS");
            m_section = Section::Objects;
        } else if (k == "OBJECT") {
            std::int32_t i = 0;
            if (needArgs(r, 2, m_sink, "OBJECT") && argInt(r, 0, i, m_sink, "object index") &&
                inRange(i, m_numObjects, r, 0, "object", "NUMOBJECTS")) {
                m_objects.push_back({{i, r.loc}, argName(r, 1, m_sink)});
            }
        } else if (k == "NUMMATERIALS") {
            readCount(r, m_numMaterials, "NUMMATERIALS");
            m_section = Section::Materials;
        } else if (k == "MATERIAL") {
            material(r);
        } else if (k == "TRANSPARENCY" || k == "AMBIENTCOLOR" || k == "INCANDESCENCE" ||
                   k == "SPECULARCOLOR" || k == "REFLECTIVECOLOR" || k == "COEFFS" || k == "GLOW" ||
                   k == "REFRACTIVE" || k == "REFLECTIVE" || k == "BLINN" || k == "PHONG") {
            param(r, keywordFields(k, Grammar::Xmodel));
        } else if (k == "NUMSBONES" || k == "NUMSWEIGHTS" || k == "QUATERNION" ||
                   k == "NUMIKPITCHLAYERS" || k == "IKPITCHLAYER" || k == "ROTATION" ||
                   k == "EXTRA") {
            m_sink.warning(ids::kCodUnsupported, r.loc,
                           "siege/IK data '" + std::string(k) + "' skipped");
        } else if (r.cut && isCutKeyword(k)) {
            m_cutAt = r.loc; // a keyword cut short at the end of the file
            m_cutWhat = "line ('" + shownToken(k) + "')";
        } else {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "unknown keyword '" + shownToken(k) + "' skipped");
        }
    }

    void bone(const Record& r)
    {
        if (r.argc == 3) {
            BoneInfo b;
            if (!argInt(r, 0, b.index, m_sink, "bone index") ||
                !argInt(r, 1, b.parent, m_sink, "bone parent")) {
                return;
            }
            if (!inRange(b.index, m_numBones, r, 0, "bone", "NUMBONES")) {
                return;
            }
            b.name = argName(r, 2, m_sink);
            b.loc = r.loc;
            b.parentLoc = argLoc(r, 1);
            m_bones.push_back(std::move(b));
            m_target = Target::None;
        } else if (r.argc == 1) {
            BoneXf x;
            if (!argInt(r, 0, x.index, m_sink, "bone index")) {
                m_target = Target::None;
                return;
            }
            m_section = Section::Transforms;
            x.loc = r.loc;
            m_xfs.push_back(x);
            m_target = Target::Bone;
        } else if (r.argc == 2) {
            if (m_target != Target::Vert || m_verts.empty()) {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "weight 'BONE' outside a vertex skipped");
                return;
            }
            std::int32_t b = 0;
            float w = 0;
            if (!argInt(r, 0, b, m_sink, "weight bone") || !argFloat(r, 1, w, m_sink, "weight")) {
                return;
            }
            m_wBones.push_back(b);
            m_wWeights.push_back(w);
            m_wLocs.push_back(r.loc);
            ++m_verts.back().wCount;
        } else {
            needArgs(r, 1, m_sink, "BONE");
        }
    }

    void vector3(const Record& r)
    {
        const std::string_view k = r.keyword;
        if (m_target == Target::None) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "'" + std::string(k) + "' outside a bone or vertex skipped");
            return;
        }
        float v[3];
        if (!needArgs(r, 3, m_sink, k) || !argFloats(r, 0, 3, v, m_sink, k)) {
            return;
        }
        const Vec3 vec(v[0], v[1], v[2]);
        if (m_target == Target::Vert) {
            if (k == "OFFSET") {
                m_vPos.back() = vec;
            } else {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "'" + std::string(k) + "' inside a vertex skipped");
            }
            return;
        }
        BoneXf& x = m_xfs.back();
        if (k == "OFFSET") {
            x.offset = vec;
        } else if (k == "SCALE") {
            x.scale = vec;
            x.hasScale = true;
        } else {
            const int col = k == "X" ? 0 : (k == "Y" ? 1 : 2);
            x.axes.col(col) = vec;
        }
    }

    void poolVert(const Record& r)
    {
        m_target = Target::None;
        std::int32_t i = 0;
        if (!needArgs(r, 1, m_sink, r.keyword) || !argInt(r, 0, i, m_sink, "vertex index")) {
            return;
        }
        if (!inRange(i, m_numVerts, r, 0, "vertex", "NUMVERTS")) {
            return;
        }
        PoolVert v;
        v.index = i;
        v.wStart = static_cast<std::uint32_t>(m_wBones.size());
        m_verts.push_back(v);
        m_vPos.push_back(Vec3::Zero());
        m_vWhere.push_back(r.loc);
        m_target = Target::Vert;
    }

    void tri(const Record& r)
    {
        m_section = Section::Faces;
        m_target = Target::None;
        Face f;
        if (!needArgs(r, 2, m_sink, r.keyword) || !argInt(r, 0, f.obj, m_sink, "object index") ||
            !argInt(r, 1, f.mat, m_sink, "material index")) {
            // Keep a face so its corners do not attach to the previous one; it is dropped later.
            f.obj = -1;
        }
        f.loc = r.loc;
        f.objLoc = argLoc(r, 0);
        f.matLoc = argLoc(r, 1);
        f.firstCorner = static_cast<std::uint32_t>(m_cPoint.size());
        m_faces.push_back(f);
    }

    void corner(const Record& r)
    {
        if (m_faces.empty()) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                           "corner 'VERT' before any 'TRI' skipped");
            return;
        }
        Face& f = m_faces.back();
        if (f.cornerCount >= 3) {
            f.extraCorners = true;
            return;
        }
        CornerInfo c;
        std::int32_t vert = 0;
        Vec3 normal = Vec3::Zero();
        Vec2 uv0 = Vec2::Zero();
        if (!needArgs(r, 1, m_sink, r.keyword) || !argInt(r, 0, vert, m_sink, "vertex index")) {
            vert = -2; // unreadable: the face is dropped
        } else if (r.argc >= 6) {
            // v5 one-line corner: VERT i nx ny nz u v
            float v[5];
            m_sawOneLineCorner = true;
            c.flags = kOneLine;
            if (argFloats(r, 1, 5, v, m_sink, "corner")) {
                normal = Vec3(v[0], v[1], v[2]);
                uv0 = Vec2(v[3], v[4]);
                c.uvCount = 1;
                c.flags |= kHasNormal | kHasUv;
            } else {
                vert = -2;
            }
        }
        m_cInfo.push_back(c);
        m_cPoint.push_back(static_cast<std::uint32_t>(vert));
        m_cNormal.push_back(normal);
        m_cColor.push_back(Vec4::Ones());
        m_cUv.push_back(uv0);
        m_cWhere.push_back(r.loc);
        ++f.cornerCount;
    }

    void uv(const Record& r)
    {
        const std::size_t ci = currentCorner();
        if (ci == SIZE_MAX) {
            m_sink.warning(ids::kSyntaxUnknownBlock, r.loc, "'UV' outside a face corner skipped");
            return;
        }
        std::int32_t n = 0;
        if (!needArgs(r, 1, m_sink, "UV") || !argInt(r, 0, n, m_sink, "UV count")) {
            return;
        }
        if (n == 0) {
            m_sink.note(ids::kCodUvCount, argLoc(r, 0), "'UV 0' read as one UV set (exporter bug)");
            n = 1;
        } else if (n < 0) {
            m_sink.error(ids::kCodUvCount, argLoc(r, 0), "UV count " + std::to_string(n) + " < 0");
            return;
        }
        if (n > 1) {
            versionFeature(3, r);
        }
        const std::size_t pairs = (r.argc - 1) / 2;
        std::size_t keep = static_cast<std::size_t>(n);
        if (pairs < keep) {
            Diagnostic& d = m_sink.error(ids::kCodUvCount, r.loc,
                                         "UV says " + plural(static_cast<std::size_t>(n), "set") +
                                             ", line has " + std::to_string(pairs));
            d.fixedSeverity = true;
            keep = pairs;
        }
        CornerInfo& c = m_cInfo[ci];
        c.uvStart = static_cast<std::uint32_t>(m_uvs.size());
        c.uvCount = 0;
        m_cUv[ci] = Vec2::Zero();
        for (std::size_t p = 0; p < keep; ++p) {
            float v[2];
            if (!argFloats(r, 1 + 2 * p, 2, v, m_sink, "UV")) {
                break;
            }
            if (p == 0) {
                m_cUv[ci] = Vec2(v[0], v[1]);
            } else {
                m_uvs.push_back(v[0]);
                m_uvs.push_back(v[1]);
            }
            ++c.uvCount;
        }
        c.flags |= kHasUv;
        m_uvSets = std::max<std::uint32_t>(
            m_uvSets, static_cast<std::uint32_t>(std::min<std::size_t>(static_cast<std::size_t>(n),
                                                                       pairs > 0 ? pairs : 1)));
    }

    void material(const Record& r)
    {
        std::int32_t i = 0;
        if (!needArgs(r, 2, m_sink, "MATERIAL") || !argInt(r, 0, i, m_sink, "material index") ||
            !inRange(i, m_numMaterials, r, 0, "material", "NUMMATERIALS")) {
            return;
        }
        Material mat;
        mat.where = r.loc;
        if (r.argc >= 4) {
            mat.name = argName(r, 1, m_sink);
            mat.type = argString(r, 2);
            mat.images = argString(r, 3);
        } else {
            mat.images = argString(r, 1); // v5: MATERIAL i "images"
        }
        m_section = Section::Materials;
        m_materials.emplace_back(Named{i, r.loc}, std::move(mat));
    }

    // finish(): the model from what was read.
    IdMap m_jointOf; // bone index -> joint
    std::size_t m_poolSize = 0;
    std::vector<std::uint8_t> m_defined; // pool slots read
    void finish();
    void finishVersion();
    void finishBones();
    void finishTransforms();
    void finishPool();
    void finishObjectsAndMaterials();
    void finishFaces();
    bool faceIsValid(const Face& f, std::int32_t t);
    void keepCorners(const Face& f, std::int32_t t);
};

// The model from what was read (one job a function, in this order: the pool needs the
// joints, the faces need the pool, the objects and the materials).
void XmodelParser::finish()
{
    finishVersion();
    finishBones();
    finishTransforms();
    finishPool();
    finishObjectsAndMaterials();
    finishFaces();
    orderSkeleton(m_model, m_sink);
}

// Kind, version (syntax.bad-version when missing) and the bind pose kind.
void XmodelParser::finishVersion()
{
    Model& m = m_model;
    m.kind = ModelKind::Reference;
    m.version = m_badVersion && m_sawOneLineCorner ? 5 : m_version;
    if (!m_sawVersion) {
        m_sink.error(ids::kSyntaxBadVersion, {1, 1, 0}, "version missing; cod accepts 5, 6, 7");
        m.version = m_sawOneLineCorner ? 5 : 6;
    }
    m.skeleton.bindKind = PoseKind::ModelMatrix;
}

// Joints in index order (the last duplicate wins), their parents and the root count.
void XmodelParser::finishBones()
{
    Skeleton& s = m_model.skeleton;
    const auto boneSlots = lastWins(
        m_bones, [](const BoneInfo& b) { return b.index; }, "bone",
        [this](std::size_t k) { return m_bones[k].loc; });
    countMismatch(m_numBones, "NUMBONES", boneSlots.size());
    for (std::size_t slot : boneSlots) {
        const BoneInfo& b = m_bones[slot];
        m_jointOf.set(b.index, s.addJoint(b.name, kNoJoint, b.index, b.loc));
    }
    std::size_t roots = 0;
    for (std::size_t j = 0; j < boneSlots.size(); ++j) {
        const BoneInfo& b = m_bones[boneSlots[j]];
        if (b.parent == -1) {
            ++roots;
            if (roots == 2) {
                const auto total =
                    std::count_if(boneSlots.begin(), boneSlots.end(),
                                  [this](std::size_t k) { return m_bones[k].parent == -1; });
                m_sink.error(ids::kCodRootCount, b.loc,
                             std::to_string(total) + " root bones; CoD requires exactly 1",
                             {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
            }
            continue;
        }
        const JointIndex parent = m_jointOf.find(b.parent);
        if (parent == kNoJoint) {
            m_sink.error(ids::kSkeletonUnknownParent, b.parentLoc,
                         "parent " + std::to_string(b.parent) + " of bone '" + b.name +
                             "' is not declared",
                         {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
            continue;
        }
        s.parents[j] = parent;
    }
    if (boneSlots.empty()) {
        m_sink.error(ids::kSkeletonNoBones, {1, 1, 0}, "file declares no bones");
    } else if (roots == 0) {
        m_sink.error(ids::kCodRootCount, m_bones[boneSlots[0]].loc,
                     "0 root bones; CoD requires exactly 1", {ElementRef::Kind::Joint, 0});
    }
}

// Each bone's transform block into the bind pose.
void XmodelParser::finishTransforms()
{
    Skeleton& s = m_model.skeleton;
    std::vector<std::uint8_t> hasXf(s.size(), 0);
    for (const BoneXf& x : m_xfs) {
        const JointIndex joint = m_jointOf.find(x.index);
        if (joint == kNoJoint) {
            m_sink.error(ids::kCodIndexRange, x.loc,
                         "bone index " + std::to_string(x.index) +
                             " has no 'BONE i parent \"name\"' line");
            continue;
        }
        const auto j = static_cast<std::size_t>(joint);
        if (hasXf[j]) {
            m_sink.warning(ids::kCodDuplicateIndex, x.loc,
                           "bone index " + std::to_string(x.index) +
                               " given twice; the last one wins",
                           {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
        }
        hasXf[j] = 1;
        s.bindPositions[j] = x.offset;
        s.bindAxes[j] = x.axes;
        s.bindScales[j] = x.scale;
        s.bindHasScale[j] = x.hasScale ? 1 : 0;
        s.bindWhere[j] = x.loc;
    }
    const std::size_t xfCount = static_cast<std::size_t>(std::count(hasXf.begin(), hasXf.end(), 1));
    if (xfCount != s.size() && !s.empty() && !m_truncatedXfs) {
        m_sink.error(ids::kCodCountMismatch, m_numBones.value ? m_numBones.loc : SourceLoc{1, 1, 0},
                     plural(s.size(), "bone") + ", " + std::to_string(xfCount) +
                         " transform blocks; the others keep identity");
    }
}

// The vertex pool with its weights (m_poolSize slots; m_defined marks the ones read). Read in
// index order 0..n-1 (as exporters write it), the parse arrays become the model's.
void XmodelParser::finishPool()
{
    Mesh& me = m_model.mesh;
    const auto vertSlots = lastWins(
        m_verts, [](const PoolVert& v) { return v.index; }, "vertex",
        [this](std::size_t k) { return m_vWhere[k]; });
    countMismatch(m_numVerts, "NUMVERTS", vertSlots.size());
    m_poolSize =
        vertSlots.empty() ? 0 : static_cast<std::size_t>(m_verts[vertSlots.back()].index) + 1;
    m_defined.assign(m_poolSize, 0);
    bool inOrder = vertSlots.size() == m_verts.size();
    for (std::size_t k = 0; inOrder && k < vertSlots.size(); ++k) {
        inOrder = vertSlots[k] == k && m_verts[k].index == static_cast<std::int32_t>(k);
    }
    if (inOrder) {
        me.pointPositions = std::move(m_vPos);
        me.pointWhere = std::move(m_vWhere);
    } else {
        me.pointPositions.assign(m_poolSize, Vec3::Zero());
        me.pointWhere.assign(m_poolSize, SourceLoc{});
        for (const std::size_t slot : vertSlots) {
            const auto p = static_cast<std::size_t>(m_verts[slot].index);
            me.pointPositions[p] = m_vPos[slot];
            me.pointWhere[p] = m_vWhere[slot];
        }
    }
    me.pointParents.assign(m_poolSize, kNoJoint);
    me.pointLinkState.assign(m_poolSize, LinkState::List);
    me.influenceOffsets.assign(m_poolSize == 0 ? 0 : 1, 0);
    me.influenceOffsets.reserve(m_poolSize + 1);
    me.influenceJoints.reserve(m_wBones.size());
    me.influenceWeights.reserve(m_wBones.size());
    std::size_t next = 0;
    for (std::size_t p = 0; p < m_poolSize; ++p) {
        if (next < vertSlots.size() &&
            static_cast<std::size_t>(m_verts[vertSlots[next]].index) == p) {
            const PoolVert& v = m_verts[vertSlots[next++]];
            m_defined[p] = 1;
            if (v.declared >= 0 && v.declared != static_cast<std::int64_t>(v.wCount)) {
                m_sink.error(ids::kCodCountMismatch, v.bonesLoc,
                             "BONES says " + std::to_string(v.declared) + ", file has " +
                                 std::to_string(v.wCount),
                             {ElementRef::Kind::Vertex, static_cast<std::int32_t>(p)});
            }
            for (std::uint32_t w = v.wStart; w < v.wStart + v.wCount; ++w) {
                const std::int32_t b = m_wBones[w];
                if (b < 0 || (m_numBones.value && b >= *m_numBones.value)) {
                    m_sink.error(
                        ids::kCodIndexRange, m_wLocs[w],
                        "weight bone index " + std::to_string(b) +
                            (b < 0 ? " < 0"
                                   : " \u2265 NUMBONES " + std::to_string(*m_numBones.value)),
                        {ElementRef::Kind::Vertex, static_cast<std::int32_t>(p)});
                    continue;
                }
                const JointIndex j = m_jointOf.find(b);
                if (j == kNoJoint) {
                    m_sink.error(ids::kWeightsUnknownBone, m_wLocs[w],
                                 "weight names bone " + std::to_string(b) +
                                     ", which is not declared",
                                 {ElementRef::Kind::Vertex, static_cast<std::int32_t>(p)});
                    continue;
                }
                me.influenceJoints.push_back(j);
                me.influenceWeights.push_back(m_wWeights[w]);
            }
        }
        me.influenceOffsets.push_back(static_cast<std::uint32_t>(me.influenceJoints.size()));
    }
    m_verts = {};
    m_vPos = {};
    m_vWhere = {};
    m_wBones = {};
    m_wWeights = {};
    m_wLocs = {};
}

// Objects and materials in index order (the faces index them).
void XmodelParser::finishObjectsAndMaterials()
{
    // The items read at their indices in `to` (the last duplicate wins).
    const auto place = [this](const auto& read, const Count& count, const char* kind,
                              const char* countName, auto& to) {
        const auto slots = lastWins(
            read, [](const auto& o) { return o.first.index; }, kind,
            [&read](std::size_t k) { return read[k].first.loc; });
        countMismatch(count, countName, slots.size());
        if (!slots.empty()) {
            to.resize(static_cast<std::size_t>(read[slots.back()].first.index) + 1);
            for (std::size_t slot : slots) {
                to[static_cast<std::size_t>(read[slot].first.index)] = read[slot].second;
            }
        }
    };
    place(m_objects, m_numObjects, "object", "NUMOBJECTS", m_model.mesh.objects);
    place(m_materials, m_numMaterials, "material", "NUMMATERIALS", m_model.mesh.materials);
}

// The face has three corners, an object, a material and pool vertices (cod.count-mismatch,
// cod.index-range otherwise).
bool XmodelParser::faceIsValid(const Face& f, std::int32_t t)
{
    const Mesh& me = m_model.mesh;
    if ((f.cornerCount != 3 || f.extraCorners) && !(m_truncatedFace && &f == &m_faces.back())) {
        m_sink.error(ids::kCodCountMismatch, f.loc,
                     "face has " + std::to_string(f.cornerCount + (f.extraCorners ? 1 : 0)) +
                         (f.extraCorners ? "+" : "") + " corners; needs 3" +
                         (f.extraCorners ? " (extra ignored)" : ""),
                     {ElementRef::Kind::Triangle, t});
        if (f.cornerCount != 3) {
            return false;
        }
    }
    bool ok = f.obj >= 0;
    if (f.obj < 0 || static_cast<std::size_t>(f.obj) >= me.objects.size()) {
        if (f.obj != -1) {
            m_sink.error(ids::kCodIndexRange, f.objLoc,
                         "object index " + std::to_string(f.obj) + " \u2265 NUMOBJECTS " +
                             std::to_string(me.objects.size()),
                         {ElementRef::Kind::Triangle, t});
        }
        ok = false;
    }
    if (ok && (f.mat < 0 || static_cast<std::size_t>(f.mat) >= me.materials.size())) {
        m_sink.error(ids::kCodIndexRange, f.matLoc,
                     "material index " + std::to_string(f.mat) + " \u2265 NUMMATERIALS " +
                         std::to_string(me.materials.size()),
                     {ElementRef::Kind::Triangle, t});
        ok = false;
    }
    for (std::uint32_t k = 0; ok && k < 3; ++k) {
        const std::uint32_t c = f.firstCorner + k;
        const auto vert = static_cast<std::int32_t>(m_cPoint[c]);
        if (m_cPoint[c] == kBadCorner) {
            ok = false;
        } else if (vert < 0 || static_cast<std::size_t>(vert) >= m_poolSize ||
                   !m_defined[static_cast<std::size_t>(vert)]) {
            m_sink.error(
                ids::kCodIndexRange, m_cWhere[c],
                "vertex index " + std::to_string(vert) +
                    (vert < 0 ? std::string(" < 0")
                     : (m_numVerts.value ? vert < *m_numVerts.value
                                         : static_cast<std::size_t>(vert) < m_poolSize)
                         ? std::string(" has no pool 'VERT' block")
                         : " \u2265 NUMVERTS " + std::to_string(m_numVerts.value.value_or(
                                                     static_cast<std::int64_t>(m_poolSize)))),
                {ElementRef::Kind::Triangle, t});
            ok = false;
        }
    }
    return ok;
}

// The three corners of a valid face moved down to corner 3t (cod.corner-incomplete for
// missing lines; a corner without NORMAL takes the face normal).
void XmodelParser::keepCorners(const Face& f, std::int32_t t)
{
    const Mesh& me = m_model.mesh;
    const std::uint32_t first = f.firstCorner;
    const auto to = 3 * static_cast<std::uint32_t>(t);
    const Vec3 fn = clockwiseFaceNormal(me.pointPositions[m_cPoint[first]],
                                        me.pointPositions[m_cPoint[first + 1]],
                                        me.pointPositions[m_cPoint[first + 2]]);
    for (std::uint32_t k = 0; k < 3; ++k) {
        const std::uint32_t c = first + k;
        const std::uint8_t flags = m_cInfo[c].flags;
        if (!(flags & kOneLine) &&
            (flags & (kHasNormal | kHasColor | kHasUv)) != (kHasNormal | kHasColor | kHasUv)) {
            std::string missing;
            for (auto [has, name] :
                 {std::pair{kHasNormal, "NORMAL"}, {kHasColor, "COLOR"}, {kHasUv, "UV"}}) {
                if (!(flags & has)) {
                    missing += missing.empty() ? "" : "/";
                    missing += name;
                }
            }
            m_sink.warning(ids::kCodCornerIncomplete, m_cWhere[c],
                           "corner " + std::to_string(k) + " of triangle " + std::to_string(t) +
                               " lacks " + missing + "; using the " +
                               (flags & kHasNormal ? "defaults" : "face normal and defaults"),
                           {ElementRef::Kind::Triangle, t});
        }
        if (!(flags & kHasNormal)) {
            m_cNormal[c] = fn;
        }
        if (to + k != c) {
            m_cPoint[to + k] = m_cPoint[c];
            m_cNormal[to + k] = m_cNormal[c];
            m_cColor[to + k] = m_cColor[c];
            m_cUv[to + k] = m_cUv[c];
            m_cWhere[to + k] = m_cWhere[c];
            m_cInfo[to + k] = m_cInfo[c];
        }
    }
}

// The faces and their corners; kept corners are moved down in place and the corner arrays
// become the model's.
void XmodelParser::finishFaces()
{
    Mesh& me = m_model.mesh;
    countMismatch(m_numFaces, "NUMFACES", m_faces.size());
    const bool anyColor = std::any_of(m_cInfo.begin(), m_cInfo.end(),
                                      [](const CornerInfo& c) { return c.flags & kHasColor; });
    me.uvSetCount = m_uvSets;
    me.triangleMaterials.reserve(m_faces.size());
    me.triangleObjects.reserve(m_faces.size());
    me.triangleWhere.reserve(m_faces.size());
    for (const Face& f : m_faces) {
        const auto t = static_cast<std::int32_t>(me.triangleMaterials.size());
        if (f.obj == -1 && f.cornerCount == 0) {
            continue; // unreadable TRI line (already reported)
        }
        if (!faceIsValid(f, t)) {
            continue;
        }
        keepCorners(f, t);
        me.triangleMaterials.push_back(static_cast<std::uint32_t>(f.mat));
        me.triangleObjects.push_back(static_cast<std::uint32_t>(f.obj));
        me.triangleWhere.push_back(f.loc);
    }
    const std::size_t corners = 3 * me.triangleMaterials.size();
    if (me.uvSetCount > 1) {
        me.cornerExtraUvs.reserve(corners * (me.uvSetCount - 1));
        for (std::size_t c = 0; c < corners; ++c) {
            for (std::uint32_t u = 1; u < me.uvSetCount; ++u) {
                const CornerInfo& ci = m_cInfo[c];
                me.cornerExtraUvs.push_back(u < ci.uvCount ? Vec2(m_uvs[ci.uvStart + 2 * (u - 1)],
                                                                  m_uvs[ci.uvStart + 2 * u - 1])
                                                           : Vec2::Zero());
            }
        }
    }
    auto take = [corners](auto& from, auto& to) {
        from.resize(corners);
        to = std::move(from);
    };
    take(m_cPoint, me.cornerPoints);
    take(m_cNormal, me.cornerNormals);
    take(m_cUv, me.cornerUvs);
    take(m_cWhere, me.cornerWhere);
    if (anyColor) {
        take(m_cColor, me.cornerColors);
    }
    m_faces = {};
    m_cInfo = {};
    m_cColor = {};
    m_uvs = {};
    m_defined = {};
}

} // namespace

template <class Source>
bool parseXmodelRecords(Source& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit)
{
    return XmodelParser(sink, m, indexLimit).run(in);
}
template bool parseXmodelRecords(TextRecordStream&, DiagnosticSink&, Model&, std::uint64_t);
template bool parseXmodelRecords(xbin::BinRecordStream&, DiagnosticSink&, Model&, std::uint64_t);

} // namespace cod

int sniffXmodel(std::string_view head) noexcept
{
    return cod::firstKeywordIs(head, {"MODEL"}) ? 90 : 0;
}

ReadResult readXmodel(std::string_view bytes, const ReadContext& ctx)
{
    return cod::readText<cod::XmodelParser>(bytes, ctx, "xmodel",
                                            "no 'MODEL' keyword; not an XMODEL_EXPORT file");
}

} // namespace rigscope::core
