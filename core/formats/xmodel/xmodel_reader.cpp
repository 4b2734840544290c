// XMODEL_EXPORT v5/v6/v7 reader (FORMATS.md §3). The grammar lives in parseXmodelRecords so
// the *_BIN reader shares it.
#include <algorithm>
#include <initializer_list>
#include <cmath>
#include <iterator>
#include <optional>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_fast.h"
#include "core/formats/cod/cod_grammar.h"
#include "core/formats/cod/cod_record.h"
#include "core/formats/xbin/xbin_stream.h"
#include "core/formats/xmodel/xmodel.h"
#include "core/text/numbers.h"
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

struct Count {
    std::optional<std::int64_t> value;
    SourceLoc loc;
};

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

struct PoolVert {
    std::int32_t index = 0;
    Vec3 pos = Vec3::Zero();
    std::uint32_t wStart = 0, wCount = 0;
    std::int64_t declared = -1;
    SourceLoc loc, bonesLoc;
};

struct Corner {
    std::int32_t vert = -1;
    SourceLoc loc;
    Vec3 normal = Vec3::Zero();
    Vec4 color = Vec4::Ones();
    std::uint32_t uvStart = 0, uvCount = 0;
    bool hasNormal = false, hasColor = false, hasUv = false, oneLine = false;
};

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

class XmodelParser {
public:
    XmodelParser(DiagnosticSink& sink, Model& m, std::uint64_t limit)
        : m_sink(sink), m_m(m), m_limit(limit)
    {
    }

    template <class Source> bool run(Source& in)
    {
        Record r;
        while (in.next(r)) {
            if (r.cut && r.argc < expectedArgs(r)) {
                // The last line, cut short ("BONE 5" of "BONE 5 4 \"hand\""): not read as
                // another record; syntax.truncated says where the file ends.
                m_cutAt = r.loc;
                m_cutWhat = "'" + shownToken(r.keyword) + "' line (" + std::to_string(r.argc) +
                            " of " + std::to_string(expectedArgs(r)) + " fields)";
                continue;
            }
            m_lastAt = r.loc;
            dispatch(r);
        }
        if (const SourceLoc cs = in.cutString(); cs.line != 0) {
            m_cutAt = cs;
            m_cutWhat = "line (quoted string not closed)";
        }
        if (!m_sawModel) {
            return false;
        }
        if (!in.stoppedOnError()) {
            integrityAtEof();
        }
        finish();
        return true;
    }

private:
    DiagnosticSink& m_sink;
    Model& m_m;
    std::uint64_t m_limit;
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
    std::vector<std::int32_t> m_wBones;
    std::vector<float> m_wWeights;
    std::vector<SourceLoc> m_wLocs;
    std::vector<Face> m_faces;
    std::vector<Corner> m_corners;
    std::vector<float> m_uvs;
    std::vector<std::pair<Named, std::string>> m_objects;
    std::vector<std::pair<Named, Material>> m_materials;
    bool m_warnedFeature[5] = {};
    // syntax.truncated (issue 15)
    SourceLoc m_lastAt, m_cutAt;
    std::string m_cutWhat;
    const Count* m_truncatedCount = nullptr; // its cod.count-mismatch is the truncation
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
        if (k == "VERSION" || k.starts_with("NUM") || k == "VERT" || k == "VERT32" ||
            k == "BONES" || k == "PHONG") {
            return 1;
        }
        if (k == "OFFSET" || k == "SCALE" || k == "X" || k == "Y" || k == "Z" || k == "NORMAL") {
            return 3;
        }
        if (k == "TRI" || k == "TRI16" || k == "COLOR" || k == "TRANSPARENCY" ||
            k == "AMBIENTCOLOR" || k == "INCANDESCENCE" || k == "SPECULARCOLOR" ||
            k == "REFLECTIVECOLOR") {
            return 4;
        }
        if (k == "UV") {
            return 3;
        }
        if (k == "OBJECT" || k == "COEFFS" || k == "GLOW" || k == "REFRACTIVE" ||
            k == "REFLECTIVE" || k == "BLINN") {
            return 2;
        }
        if (k == "MATERIAL") {
            return m_version >= 6 ? 4 : 2;
        }
        return 0;
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
            const auto declared =
                static_cast<std::size_t>(std::max<std::int64_t>(0, *st.count->value));
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
                const Corner* c = f.cornerCount > 0 ? &m_corners.back() : nullptr;
                if (f.cornerCount < 3 || (c && !c->oneLine && !c->hasUv)) {
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
        if (what.empty() && m_cutAt.line == 0) {
            return;
        }
        std::string msg = "file ends ";
        if (m_cutAt.line != 0) {
            msg += "in the middle of a " + m_cutWhat;
            msg += what.empty() ? "" : ", ";
        }
        msg += what;
        m_sink.error(ids::kSyntaxTruncated, m_cutAt.line != 0 ? m_cutAt : m_lastAt, std::move(msg));
    }
    std::uint32_t m_uvSets = 1;

    void versionFeature(int which, const Record& r)
    {
        if (m_version >= 7 || m_warnedFeature[which]) {
            return;
        }
        m_warnedFeature[which] = true;
        m_sink.warning(ids::kCodVersionFeature, r.loc,
                       "'" + std::string(r.keyword) + "' is a version 7 feature in a version " +
                           std::to_string(m_version) + " file");
    }

    void readCount(const Record& r, Count& c, std::string_view field)
    {
        std::int32_t v = 0;
        if (!needArgs(r, 1, m_sink, field) || !argInt(r, 0, v, m_sink, field)) {
            return;
        }
        c.value = v;
        c.loc = r.loc;
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

    Corner* currentCorner()
    {
        if (m_faces.empty() || m_faces.back().cornerCount == 0 || m_corners.empty()) {
            return nullptr;
        }
        return &m_corners.back();
    }

    Material* currentMaterial()
    {
        return m_materials.empty() ? nullptr : &m_materials.back().second;
    }

    void param(const Record& r, std::size_t n)
    {
        Material* mat = m_section == Section::Materials ? currentMaterial() : nullptr;
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
        case Kw::Vert:
            if (m_section == Section::Faces) {
                corner(r);
            } else {
                poolVert(r);
            }
            return;
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
            Corner* c = currentCorner();
            if (!c) {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "'NORMAL' outside a face corner skipped");
                return;
            }
            float v[3];
            if (needArgs(r, 3, m_sink, "NORMAL") && argFloats(r, 0, 3, v, m_sink, "NORMAL")) {
                c->normal = Vec3(v[0], v[1], v[2]);
                c->hasNormal = true;
            }
            return;
        }
        case Kw::Color: {
            if (m_section == Section::Materials) {
                param(r, 4);
                return;
            }
            Corner* c = currentCorner();
            if (!c) {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "'COLOR' outside a face corner skipped");
                return;
            }
            float v[4];
            if (needArgs(r, 4, m_sink, "COLOR") && argFloats(r, 0, 4, v, m_sink, "COLOR")) {
                c->color = Vec4(v[0], v[1], v[2], v[3]);
                c->hasColor = true;
            }
            return;
        }
        default:
            break;
        }
        const std::string_view k = r.keyword;
        const std::string_view kv = k; // compares check the length first
        if (kv == "MODEL") {
            m_sawModel = true;
        } else if (kv == "VERSION") {
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
        } else if (kv == "NUMBONES") {
            readCount(r, m_numBones, "NUMBONES");
            m_section = Section::BoneInfo;
        } else if (kv == "NUMCOSMETICBONES" || kv == "NUMCOSMETICS") {
            versionFeature(0, r);
            m_sink.warning(ids::kCodUnsupported, r.loc,
                           "cosmetic bone count not kept; the bones read as regular bones");
        } else if (kv == "BONE") {
            bone(r);
        } else if (kv == "OFFSET" || kv == "SCALE" || kv == "X" || kv == "Y" || kv == "Z") {
            vector3(r);
        } else if (kv == "NUMVERTS" || kv == "NUMVERTS32") {
            if (kv == "NUMVERTS32") {
                versionFeature(1, r);
            }
            readCount(r, m_numVerts, k);
            m_section = Section::Pool;
            m_target = Target::None;
        } else if (kv == "VERT" || kv == "VERT32") {
            if (kv == "VERT32") {
                versionFeature(1, r);
            }
            if (m_section == Section::Faces) {
                corner(r);
            } else {
                poolVert(r);
            }
        } else if (kv == "NUMFACES") {
            readCount(r, m_numFaces, "NUMFACES");
            m_section = Section::Faces;
            m_target = Target::None;
        } else if (kv == "TRI" || kv == "TRI16") {
            if (kv == "TRI16") {
                versionFeature(2, r);
            }
            tri(r);
        } else if (kv == "NUMOBJECTS") {
            readCount(r, m_numObjects, "NUMOBJECTS");
            m_section = Section::Objects;
        } else if (kv == "OBJECT") {
            std::int32_t i = 0;
            if (needArgs(r, 2, m_sink, "OBJECT") && argInt(r, 0, i, m_sink, "object index") &&
                inRange(i, m_numObjects, r, 0, "object", "NUMOBJECTS")) {
                m_objects.push_back({{i, r.loc}, argName(r, 1, m_sink)});
            }
        } else if (kv == "NUMMATERIALS") {
            readCount(r, m_numMaterials, "NUMMATERIALS");
            m_section = Section::Materials;
        } else if (kv == "MATERIAL") {
            material(r);
        } else if (kv == "TRANSPARENCY" || kv == "AMBIENTCOLOR" || kv == "INCANDESCENCE" ||
                   kv == "SPECULARCOLOR" || kv == "REFLECTIVECOLOR") {
            param(r, 4);
        } else if (kv == "COEFFS" || kv == "GLOW" || kv == "REFRACTIVE" || kv == "REFLECTIVE" ||
                   kv == "BLINN") {
            param(r, 2);
        } else if (kv == "PHONG") {
            param(r, 1);
        } else if (kv == "NUMSBONES" || kv == "NUMSWEIGHTS" || kv == "QUATERNION" ||
                   kv == "NUMIKPITCHLAYERS" || kv == "IKPITCHLAYER" || kv == "ROTATION" ||
                   kv == "EXTRA") {
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
        const std::string_view kv = k; // compares check the length first
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
            if (kv == "OFFSET") {
                m_verts.back().pos = vec;
            } else {
                m_sink.warning(ids::kSyntaxUnknownBlock, r.loc,
                               "'" + std::string(k) + "' inside a vertex skipped");
            }
            return;
        }
        BoneXf& x = m_xfs.back();
        if (kv == "OFFSET") {
            x.offset = vec;
        } else if (kv == "SCALE") {
            x.scale = vec;
            x.hasScale = true;
        } else {
            const int col = kv == "X" ? 0 : (kv == "Y" ? 1 : 2);
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
        v.loc = r.loc;
        v.wStart = static_cast<std::uint32_t>(m_wBones.size());
        m_verts.push_back(v);
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
        f.firstCorner = static_cast<std::uint32_t>(m_corners.size());
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
        Corner c;
        c.loc = r.loc;
        c.uvStart = static_cast<std::uint32_t>(m_uvs.size());
        if (!needArgs(r, 1, m_sink, r.keyword) || !argInt(r, 0, c.vert, m_sink, "vertex index")) {
            c.vert = -2; // unreadable: the face is dropped
        } else if (r.argc >= 6) {
            // v5 one-line corner: VERT i nx ny nz u v
            float v[5];
            m_sawOneLineCorner = true;
            c.oneLine = true;
            if (argFloats(r, 1, 5, v, m_sink, "corner")) {
                c.normal = Vec3(v[0], v[1], v[2]);
                c.hasNormal = true;
                m_uvs.push_back(v[3]);
                m_uvs.push_back(v[4]);
                c.uvCount = 1;
                c.hasUv = true;
            } else {
                c.vert = -2;
            }
        }
        m_corners.push_back(c);
        ++f.cornerCount;
    }

    void uv(const Record& r)
    {
        Corner* c = currentCorner();
        if (!c) {
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
        c->uvStart = static_cast<std::uint32_t>(m_uvs.size());
        c->uvCount = 0;
        for (std::size_t p = 0; p < keep; ++p) {
            float v[2];
            if (!argFloats(r, 1 + 2 * p, 2, v, m_sink, "UV")) {
                break;
            }
            m_uvs.push_back(v[0]);
            m_uvs.push_back(v[1]);
            ++c->uvCount;
        }
        c->hasUv = true;
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

    void countMismatch(const Count& c, std::string_view name, std::size_t have,
                       std::string_view what = "")
    {
        if (&c == m_truncatedCount) {
            return; // reported as syntax.truncated
        }
        if (c.value && *c.value != static_cast<std::int64_t>(have)) {
            m_sink.error(ids::kCodCountMismatch, c.loc,
                         std::string(name) + " says " + std::to_string(*c.value) + ", file has " +
                             std::to_string(have) + std::string(what));
        }
    }

    template <typename T, typename Index>
    std::vector<std::size_t> lastWins(const std::vector<T>& items, Index indexOf,
                                      std::string_view kind)
    {
        // Slots in index order; duplicates: the last one wins (cod.duplicate-index).
        std::unordered_map<std::int32_t, std::size_t> seen;
        std::vector<std::size_t> slots;
        for (std::size_t s = 0; s < items.size(); ++s) {
            auto [it, inserted] = seen.try_emplace(indexOf(items[s]), slots.size());
            if (inserted) {
                slots.push_back(s);
            } else {
                m_sink.warning(ids::kCodDuplicateIndex, locOf(items[s]),
                               std::string(kind) + " index " + std::to_string(indexOf(items[s])) +
                                   " given twice; the last one wins");
                slots[it->second] = s;
            }
        }
        std::sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) {
            return indexOf(items[a]) < indexOf(items[b]);
        });
        return slots;
    }

    static SourceLoc locOf(const BoneInfo& b) { return b.loc; }
    static SourceLoc locOf(const BoneXf& b) { return b.loc; }
    static SourceLoc locOf(const PoolVert& v) { return v.loc; }
    template <typename T> static SourceLoc locOf(const std::pair<Named, T>& p)
    {
        return p.first.loc;
    }

    // finish(): the model from what was read.
    std::unordered_map<std::int32_t, JointIndex> m_jointOf; // bone index -> joint
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
    void appendCorners(const Face& f, std::int32_t t, bool anyColor);
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
    orderSkeleton(m_m, m_sink);
}

// Kind, version (syntax.bad-version when missing) and the bind pose kind.
void XmodelParser::finishVersion()
{
    Model& m = m_m;
    m.kind = ModelKind::Reference;
    m.version = m_badVersion && m_sawOneLineCorner ? 5 : m_version;
    if (!m_sawVersion) {
        m_sink.error(ids::kSyntaxBadVersion, {1, 1, 0}, "version missing; cod accepts 5, 6, 7");
        m.version = m_sawOneLineCorner ? 5 : 6;
    }
    Skeleton& s = m.skeleton;
    s.bindKind = PoseKind::ModelMatrix;
}

// Joints in index order (the last duplicate wins), their parents and the root count.
void XmodelParser::finishBones()
{
    Skeleton& s = m_m.skeleton;
    const auto boneSlots = lastWins(
        m_bones, [](const BoneInfo& b) { return b.index; }, "bone");
    countMismatch(m_numBones, "NUMBONES", boneSlots.size());
    for (std::size_t slot : boneSlots) {
        const BoneInfo& b = m_bones[slot];
        m_jointOf[b.index] = s.addJoint(b.name, kNoJoint, b.index, b.loc);
    }
    std::size_t roots = 0;
    for (std::size_t j = 0; j < boneSlots.size(); ++j) {
        const BoneInfo& b = m_bones[boneSlots[j]];
        if (b.parent == -1) {
            ++roots;
            if (roots == 2) {
                std::size_t total = 0;
                for (std::size_t slot : boneSlots) {
                    total += m_bones[slot].parent == -1 ? 1u : 0u;
                }
                m_sink.error(ids::kCodRootCount, b.loc,
                             std::to_string(total) + " root bones; CoD requires exactly 1",
                             {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
            }
            continue;
        }
        auto it = m_jointOf.find(b.parent);
        if (it == m_jointOf.end()) {
            m_sink.error(ids::kSkeletonUnknownParent, b.parentLoc,
                         "parent " + std::to_string(b.parent) + " of bone '" + b.name +
                             "' is not declared",
                         {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
            continue;
        }
        s.parents[j] = it->second;
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
    Skeleton& s = m_m.skeleton;
    std::vector<std::uint8_t> hasXf(s.size(), 0);
    for (const BoneXf& x : m_xfs) {
        auto it = m_jointOf.find(x.index);
        if (it == m_jointOf.end()) {
            m_sink.error(ids::kCodIndexRange, x.loc,
                         "bone index " + std::to_string(x.index) +
                             " has no 'BONE i parent \"name\"' line");
            continue;
        }
        const auto j = static_cast<std::size_t>(it->second);
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

// The vertex pool with its weights (m_poolSize slots; m_defined marks the ones read).
void XmodelParser::finishPool()
{
    Mesh& me = m_m.mesh;
    const auto vertSlots = lastWins(
        m_verts, [](const PoolVert& v) { return v.index; }, "vertex");
    countMismatch(m_numVerts, "NUMVERTS", vertSlots.size());
    m_poolSize =
        vertSlots.empty() ? 0 : static_cast<std::size_t>(m_verts[vertSlots.back()].index) + 1;
    m_defined.assign(m_poolSize, 0);
    std::vector<JointIndex> js;
    std::vector<float> ws;
    std::size_t next = 0;
    // Exact room, so no growth copies sit next to the parse arrays; each parse array is
    // released once read (the model never depends on it).
    me.pointPositions.reserve(m_poolSize);
    me.pointParents.reserve(m_poolSize);
    me.pointLinkState.reserve(m_poolSize);
    me.pointWhere.reserve(m_poolSize);
    me.influenceOffsets.reserve(m_poolSize + 1);
    me.influenceJoints.reserve(m_wBones.size());
    me.influenceWeights.reserve(m_wBones.size());
    for (std::size_t p = 0; p < m_poolSize; ++p) {
        js.clear();
        ws.clear();
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
                auto it = m_jointOf.find(b);
                if (it == m_jointOf.end()) {
                    m_sink.error(ids::kWeightsUnknownBone, m_wLocs[w],
                                 "weight names bone " + std::to_string(b) +
                                     ", which is not declared",
                                 {ElementRef::Kind::Vertex, static_cast<std::int32_t>(p)});
                    continue;
                }
                js.push_back(it->second);
                ws.push_back(m_wWeights[w]);
            }
            appendPoint(me, v.pos, kNoJoint, LinkState::List, js.data(), ws.data(), js.size(),
                        v.loc);
        } else {
            appendPoint(me, Vec3::Zero(), kNoJoint, LinkState::List, nullptr, nullptr, 0, {});
        }
    }
    m_verts = {};
    m_wBones = {};
    m_wWeights = {};
    m_wLocs = {};
}

// Objects and materials in index order (the faces index them).
void XmodelParser::finishObjectsAndMaterials()
{
    Mesh& me = m_m.mesh;
    const auto objSlots = lastWins(
        m_objects, [](const auto& o) { return o.first.index; }, "object");
    countMismatch(m_numObjects, "NUMOBJECTS", objSlots.size());
    if (!objSlots.empty()) {
        me.objects.resize(static_cast<std::size_t>(m_objects[objSlots.back()].first.index) + 1);
        for (std::size_t slot : objSlots) {
            me.objects[static_cast<std::size_t>(m_objects[slot].first.index)] =
                m_objects[slot].second;
        }
    }
    const auto matSlots = lastWins(
        m_materials, [](const auto& o) { return o.first.index; }, "material");
    countMismatch(m_numMaterials, "NUMMATERIALS", matSlots.size());
    if (!matSlots.empty()) {
        me.materials.resize(static_cast<std::size_t>(m_materials[matSlots.back()].first.index) + 1);
        for (std::size_t slot : matSlots) {
            me.materials[static_cast<std::size_t>(m_materials[slot].first.index)] =
                m_materials[slot].second;
        }
    }
}

// The face has three corners, an object, a material and pool vertices (cod.count-mismatch,
// cod.index-range otherwise).
bool XmodelParser::faceIsValid(const Face& f, std::int32_t t)
{
    const Mesh& me = m_m.mesh;
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
        const Corner& c = m_corners[f.firstCorner + k];
        if (c.vert == -2) {
            ok = false;
        } else if (c.vert < 0 || static_cast<std::size_t>(c.vert) >= m_poolSize ||
                   !m_defined[static_cast<std::size_t>(c.vert)]) {
            m_sink.error(
                ids::kCodIndexRange, c.loc,
                "vertex index " + std::to_string(c.vert) +
                    (c.vert < 0 ? std::string(" < 0")
                     : (m_numVerts.value ? c.vert < *m_numVerts.value
                                         : static_cast<std::size_t>(c.vert) < m_poolSize)
                         ? std::string(" has no pool 'VERT' block")
                         : " \u2265 NUMVERTS " + std::to_string(m_numVerts.value.value_or(
                                                     static_cast<std::int64_t>(m_poolSize)))),
                {ElementRef::Kind::Triangle, t});
            ok = false;
        }
    }
    return ok;
}

// The three corners of a valid face (cod.corner-incomplete for missing lines).
void XmodelParser::appendCorners(const Face& f, std::int32_t t, bool anyColor)
{
    Mesh& me = m_m.mesh;
    const Corner* cs = &m_corners[f.firstCorner];
    const Vec3 fn = clockwiseFaceNormal(me.pointPositions[static_cast<std::size_t>(cs[0].vert)],
                                        me.pointPositions[static_cast<std::size_t>(cs[1].vert)],
                                        me.pointPositions[static_cast<std::size_t>(cs[2].vert)]);
    for (int k = 0; k < 3; ++k) {
        const Corner& c = cs[k];
        if (!c.oneLine && (!c.hasNormal || !c.hasColor || !c.hasUv)) {
            std::string missing;
            for (auto [has, name] :
                 {std::pair{c.hasNormal, "NORMAL"}, {c.hasColor, "COLOR"}, {c.hasUv, "UV"}}) {
                if (!has) {
                    missing += missing.empty() ? "" : "/";
                    missing += name;
                }
            }
            m_sink.warning(ids::kCodCornerIncomplete, c.loc,
                           "corner " + std::to_string(k) + " of triangle " + std::to_string(t) +
                               " lacks " + missing + "; using the " +
                               (c.hasNormal ? "defaults" : "face normal and defaults"),
                           {ElementRef::Kind::Triangle, t});
        }
        me.cornerPoints.push_back(static_cast<std::uint32_t>(c.vert));
        me.cornerNormals.push_back(c.hasNormal ? c.normal : fn);
        me.cornerWhere.push_back(c.loc);
        for (std::uint32_t u = 0; u < me.uvSetCount; ++u) {
            Vec2 uvv = Vec2::Zero();
            if (u < c.uvCount) {
                uvv = Vec2(m_uvs[c.uvStart + 2 * u], m_uvs[c.uvStart + 2 * u + 1]);
            }
            if (u == 0) {
                me.cornerUvs.push_back(uvv);
            } else {
                me.cornerExtraUvs.push_back(uvv);
            }
        }
        if (anyColor) {
            me.cornerColors.push_back(c.hasColor ? c.color : Vec4::Ones());
        }
    }
}

void XmodelParser::finishFaces()
{
    Mesh& me = m_m.mesh;
    countMismatch(m_numFaces, "NUMFACES", m_faces.size());
    bool anyColor = false;
    for (const Corner& c : m_corners) {
        anyColor = anyColor || c.hasColor;
    }
    me.uvSetCount = m_uvSets;
    {
        const std::size_t n = m_faces.size();
        me.cornerPoints.reserve(3 * n);
        me.cornerNormals.reserve(3 * n);
        me.cornerWhere.reserve(3 * n);
        me.cornerUvs.reserve(3 * n);
        me.cornerExtraUvs.reserve(3 * n * (me.uvSetCount - 1));
        me.cornerColors.reserve(anyColor ? 3 * n : 0);
        me.triangleMaterials.reserve(n);
        me.triangleObjects.reserve(n);
        me.triangleWhere.reserve(n);
    }
    for (const Face& f : m_faces) {
        const auto t = static_cast<std::int32_t>(me.triangleMaterials.size());
        if (f.obj == -1 && f.cornerCount == 0) {
            continue; // unreadable TRI line (already reported)
        }
        if (!faceIsValid(f, t)) {
            continue;
        }
        appendCorners(f, t, anyColor);
        me.triangleMaterials.push_back(static_cast<std::uint32_t>(f.mat));
        me.triangleObjects.push_back(static_cast<std::uint32_t>(f.obj));
        me.triangleWhere.push_back(f.loc);
    }
    m_faces = {};
    m_corners = {};
    m_uvs = {};
    m_defined = {};
}

} // namespace

template <class Source>
bool parseXmodelRecords(Source& in, DiagnosticSink& sink, Model& m, std::uint64_t indexLimit)
{
    XmodelParser p(sink, m, indexLimit);
    return p.run(in);
}
template bool parseXmodelRecords(TextRecordStream&, DiagnosticSink&, Model&, std::uint64_t);
template bool parseXmodelRecords(xbin::BinRecordStream&, DiagnosticSink&, Model&, std::uint64_t);

} // namespace cod

int sniffXmodel(std::string_view head) noexcept
{
    try {
        return cod::firstKeyword(head) == "MODEL" ? 90 : 0;
    } catch (...) {
        return 0;
    }
}

ReadResult readXmodel(std::string_view bytes, const ReadContext& ctx)
{
    if (ctx.fastPaths &&
        cod::endsLikeWholeFile(bytes,
                               {"MATERIAL", "COLOR", "TRANSPARENCY", "AMBIENTCOLOR",
                                "INCANDESCENCE", "COEFFS", "GLOW", "REFRACTIVE", "SPECULARCOLOR",
                                "REFLECTIVECOLOR", "REFLECTIVE", "BLINN", "PHONG"})) {
        ReadResult fast;
        if (cod::readXmodelFast(bytes, ctx, fast)) {
            return fast;
        }
    }
    return cod::readXmodelGeneral(bytes, ctx);
}

ReadResult cod::readXmodelGeneral(std::string_view bytes, const ReadContext& ctx)
{
    ReadResult r;
    DiagnosticSink sink(ctx.fileName);
    Model m;
    cod::TextRecordStream in(bytes, sink, &m.headerComments);
    const bool ok = cod::parseXmodelRecords(in, sink, m, bytes.size() + 1);
    if (!ok) {
        if (bytes.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos) {
            sink.error(ids::kSyntaxEmptyFile, {1, 1, 0}, "file is empty");
        } else {
            sink.error(ids::kSyntaxBadVersion, {1, 1, 0},
                       "no 'MODEL' keyword; not an XMODEL_EXPORT file");
        }
        r.diagnostics = sink.take();
        return r;
    }
    m.format = "xmodel";
    const int e = in.dominantEnding();
    m.lineEnding = e == 1 ? LineEnding::CRLF : (e == 2 ? LineEnding::CR : LineEnding::LF);
    r.model = std::move(m);
    r.hasModel = true;
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core
