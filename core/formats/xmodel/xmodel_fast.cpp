// XMODEL_EXPORT fast path (see cod_fast.h): the canonical v5-v7 layout of FORMATS.md §3.2 read
// straight into the Model. Subset, in this order:
//   MODEL, VERSION 5..7, NUMBONES n, BONE i p "name" x n (i = 0.., parent -1 or an earlier
//   bone, one root), BONE i blocks x n (i = 0..) with OFFSET / SCALE 1 1 1 / X / Y / Z,
//   NUMVERTS v, VERT i (i = 0..) with OFFSET, BONES k and k weights BONE b w (b < NUMBONES),
//   NUMFACES f, TRI o m ... with three corners VERT i + NORMAL + COLOR + UV 1 u v,
//   NUMOBJECTS, OBJECT i "name" (i = 0..), NUMMATERIALS, MATERIAL i "name" "type" "images"
//   (i = 0..) with their parameter lines. Version 7 files may spell NUMVERTS32, VERT32, TRI16.
// Every count must match, every index be in range. The diagnostics such a file can still get
// (cod.bone-matrix, cod.color-range and those of orderSkeleton) are reported exactly as the
// general path reports them.
#include <algorithm>

#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/xmodel/cod_fast.h"
#include "core/formats/xmodel/cod_record.h"

// Define COD_FAST_TRACE(loc) to print where a file leaves the fast path (loc.line 0: at the end).
#ifndef COD_FAST_TRACE
#define COD_FAST_TRACE(loc) (void)0
#endif

namespace rigscope::core::cod {

namespace {

enum class Kw : std::uint8_t {
    Other,
    Model,
    Version,
    NumBones,
    Bone,
    Offset,
    Scale,
    X,
    Y,
    Z,
    NumVerts,
    Vert,
    Bones,
    NumFaces,
    Tri,
    Normal,
    Color,
    Uv,
    NumObjects,
    Object,
    NumMaterials,
    Material,
    Param4, // TRANSPARENCY AMBIENTCOLOR INCANDESCENCE SPECULARCOLOR REFLECTIVECOLOR (COLOR)
    Param2, // COEFFS GLOW REFRACTIVE REFLECTIVE BLINN
    Param1, // PHONG
    // Version 7 spellings: the same meaning, but cod.version-feature in a version 5 or 6 file.
    NumVerts32,
    Vert32,
    Tri16,
};

Kw keywordOf(std::string_view k) noexcept
{
    switch (k.size()) {
    case 1:
        return k[0] == 'X' ? Kw::X : k[0] == 'Y' ? Kw::Y : k[0] == 'Z' ? Kw::Z : Kw::Other;
    case 2:
        return k == "UV" ? Kw::Uv : Kw::Other;
    case 3:
        return k == "TRI" ? Kw::Tri : Kw::Other;
    case 4:
        return k == "VERT" ? Kw::Vert : k == "BONE" ? Kw::Bone : k == "GLOW" ? Kw::Param2 : Kw::Other;
    case 5:
        return k == "BONES"   ? Kw::Bones
               : k == "TRI16" ? Kw::Tri16
               : k == "COLOR" ? Kw::Color
               : k == "MODEL" ? Kw::Model
               : k == "SCALE" ? Kw::Scale
               : k == "BLINN" ? Kw::Param2
               : k == "PHONG" ? Kw::Param1
                              : Kw::Other;
    case 6:
        return k == "OFFSET"   ? Kw::Offset
               : k == "NORMAL" ? Kw::Normal
               : k == "VERT32" ? Kw::Vert32
               : k == "OBJECT" ? Kw::Object
               : k == "COEFFS" ? Kw::Param2
                               : Kw::Other;
    case 7:
        return k == "VERSION" ? Kw::Version : Kw::Other;
    case 8:
        return k == "NUMVERTS"   ? Kw::NumVerts
               : k == "NUMFACES" ? Kw::NumFaces
               : k == "NUMBONES" ? Kw::NumBones
               : k == "MATERIAL" ? Kw::Material
                                 : Kw::Other;
    case 10:
        return k == "NUMOBJECTS"   ? Kw::NumObjects
               : k == "NUMVERTS32" ? Kw::NumVerts32
               : k == "REFRACTIVE" ? Kw::Param2
               : k == "REFLECTIVE" ? Kw::Param2
                                   : Kw::Other;
    case 12:
        return k == "NUMMATERIALS"   ? Kw::NumMaterials
               : k == "TRANSPARENCY" ? Kw::Param4
               : k == "AMBIENTCOLOR" ? Kw::Param4
                                     : Kw::Other;
    case 13:
        return k == "INCANDESCENCE" || k == "SPECULARCOLOR" ? Kw::Param4 : Kw::Other;
    case 15:
        return k == "REFLECTIVECOLOR" ? Kw::Param4 : Kw::Other;
    default:
        return Kw::Other;
    }
}

class XmodelFast {
public:
    XmodelFast(std::string_view bytes, DiagnosticSink& sink, Model& m)
        : m_in(bytes, sink), m_sink(sink), m_m(m), m_s(m.skeleton), m_me(m.mesh)
    {
    }

    bool run()
    {
        std::string_view kw;
        SourceLoc loc;
        for (;;) {
            const FastScanner::Next n = m_in.nextKeyword(kw, loc, m_m.headerComments);
            if (n == FastScanner::Next::End) {
                break;
            }
            if (n == FastScanner::Next::Unsupported || !line(keywordOf(kw), kw, loc)) {
                COD_FAST_TRACE(loc);
                return false;
            }
        }
        if (!finish()) {
            COD_FAST_TRACE(SourceLoc{});
            return false;
        }
        return true;
    }

    int dominantEnding() const noexcept { return m_in.dominantEnding(); }
    std::uint32_t lines() const noexcept { return m_in.lines(); }

private:
    enum class Phase : std::uint8_t { Start, BoneInfo, Transforms, Pool, Faces, Objects, Materials };
    static constexpr std::uint8_t kHasNormal = 1, kHasColor = 2, kHasUv = 4;

    FastScanner m_in;
    DiagnosticSink& m_sink;
    Model& m_m;
    Skeleton& m_s;
    Mesh& m_me;
    Phase m_phase = Phase::Start;
    bool m_sawModel = false, m_sawVersion = false;
    int m_version = 6;
    std::int32_t m_numBones = -1, m_numVerts = -1, m_numFaces = -1, m_numObjects = -1,
                 m_numMaterials = -1;
    std::size_t m_roots = 0;
    std::size_t m_xfs = 0;             // transform blocks read
    std::vector<SourceLoc> m_xLoc;     // per bone: its X line
    bool m_inVert = false;             // a pool vertex is open
    std::int32_t m_declared = -1;      // its BONES count
    // faces
    std::uint32_t m_corners = 0;       // corners of the current face
    std::uint8_t m_has = 0;            // what the current corner has
    SourceLoc m_colorLoc;              // its COLOR line
    std::int32_t m_maxObj = -1, m_maxMat = -1;
    std::size_t m_colourOut = 0;
    Vec4 m_firstBad = Vec4::Zero();
    SourceLoc m_firstBadLoc;
    std::int32_t m_firstBadVert = -1;

    bool count(std::int32_t& out)
    {
        return out < 0 && m_in.i(out) && out >= 0 && m_in.eol();
    }

    bool line(Kw k, std::string_view kw, const SourceLoc& loc)
    {
        if (k >= Kw::NumVerts32) {
            if (m_version < 7) {
                return false;
            }
            k = k == Kw::NumVerts32 ? Kw::NumVerts : (k == Kw::Vert32 ? Kw::Vert : Kw::Tri);
        }
        switch (k) {
        case Kw::Offset: {
            float v[3];
            if (!m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            if (m_phase == Phase::Pool && m_inVert) {
                m_me.pointPositions.back() = Vec3(v[0], v[1], v[2]);
                return true;
            }
            if (m_phase == Phase::Transforms) {
                m_s.bindPositions[m_xfs - 1] = Vec3(v[0], v[1], v[2]);
                return true;
            }
            return false;
        }
        case Kw::Bone:
            return bone(loc);
        case Kw::Vert:
            return m_phase == Phase::Faces ? corner(loc) : poolVert(loc);
        case Kw::Bones:
            if (m_phase != Phase::Pool || !m_inVert || !m_in.i(m_declared) || !m_in.eol()) {
                return false;
            }
            return true;
        case Kw::Normal: {
            float v[3];
            if (m_phase != Phase::Faces || m_corners == 0 || !m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            m_me.cornerNormals.back() = Vec3(v[0], v[1], v[2]);
            m_has |= kHasNormal;
            return true;
        }
        case Kw::Color: {
            if (m_phase == Phase::Materials) {
                return param(kw, 4);
            }
            float v[4];
            if (m_phase != Phase::Faces || m_corners == 0 || !m_in.f3(v) || !m_in.f(v[3]) ||
                !m_in.eol()) {
                return false;
            }
            m_me.cornerColors.back() = Vec4(v[0], v[1], v[2], v[3]);
            m_colorLoc = loc;
            m_has |= kHasColor;
            return true;
        }
        case Kw::Uv: {
            std::int32_t n = 0;
            float v[2];
            if (m_phase != Phase::Faces || m_corners == 0 || !m_in.i(n) || n != 1 ||
                !m_in.f(v[0]) || !m_in.f(v[1]) || !m_in.eol()) {
                return false;
            }
            m_me.cornerUvs.back() = Vec2(v[0], v[1]);
            m_has |= kHasUv;
            return true;
        }
        case Kw::Tri:
            return tri(loc);
        case Kw::X:
        case Kw::Y:
        case Kw::Z: {
            float v[3];
            if (m_phase != Phase::Transforms || !m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            const int col = k == Kw::X ? 0 : (k == Kw::Y ? 1 : 2);
            m_s.bindAxes[m_xfs - 1].col(col) = Vec3(v[0], v[1], v[2]);
            if (col == 0) {
                m_xLoc[m_xfs - 1] = loc;
            }
            return true;
        }
        case Kw::Scale: {
            float v[3];
            if (m_phase != Phase::Transforms || !m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            const Vec3 s(v[0], v[1], v[2]);
            if (!(s == Vec3::Ones())) {
                return false; // cod.non-unit-scale: the general path words it
            }
            m_s.bindScales[m_xfs - 1] = s;
            m_s.bindHasScale[m_xfs - 1] = 1;
            return true;
        }
        case Kw::Model:
            if (m_phase != Phase::Start || !m_in.eol()) {
                return false;
            }
            m_sawModel = true;
            return true;
        case Kw::Version: {
            std::int32_t v = 0;
            if (m_phase != Phase::Start || m_sawVersion || !m_in.i(v) || !m_in.eol() || v < 5 ||
                v > 7) {
                return false;
            }
            m_sawVersion = true;
            m_version = v;
            return true;
        }
        case Kw::NumBones:
            if (m_phase != Phase::Start || !m_sawModel || !m_sawVersion || !count(m_numBones)) {
                return false;
            }
            m_phase = Phase::BoneInfo;
            reserveBones(boundedCount(m_numBones, m_in.bytesLeft(), 8));
            return true;
        case Kw::NumVerts: {
            if (m_phase != Phase::Transforms || m_xfs != m_s.size() || !count(m_numVerts)) {
                return false;
            }
            m_phase = Phase::Pool;
            const std::size_t n = boundedCount(m_numVerts, m_in.bytesLeft(), 7);
            reserveBig(m_me.pointPositions, n);
            reserveBig(m_me.pointWhere, n);
            reserveBig(m_me.influenceOffsets, n + 1);
            // Four weights a vertex, at most what the bytes left can hold ("BONE 0 1\n").
            const std::size_t w = std::min(4 * n, m_in.bytesLeft() / 9 + 1);
            reserveBig(m_me.influenceJoints, w);
            reserveBig(m_me.influenceWeights, w);
            return true;
        }
        case Kw::NumFaces: {
            if (m_phase != Phase::Pool || !closeVert() || !count(m_numFaces) ||
                m_me.pointPositions.size() != static_cast<std::size_t>(m_numVerts)) {
                return false;
            }
            m_phase = Phase::Faces;
            const std::size_t n = boundedCount(m_numFaces, m_in.bytesLeft(), 29);
            reserveBig(m_me.triangleMaterials, n);
            reserveBig(m_me.triangleObjects, n);
            reserveBig(m_me.triangleWhere, n);
            reserveBig(m_me.cornerPoints, 3 * n);
            reserveBig(m_me.cornerNormals, 3 * n);
            reserveBig(m_me.cornerUvs, 3 * n);
            reserveBig(m_me.cornerColors, 3 * n);
            reserveBig(m_me.cornerWhere, 3 * n);
            return true;
        }
        case Kw::NumObjects:
            if (m_phase != Phase::Faces || !closeFace() || !count(m_numObjects) ||
                m_me.triangleMaterials.size() != static_cast<std::size_t>(m_numFaces)) {
                return false;
            }
            m_phase = Phase::Objects;
            return true;
        case Kw::Object: {
            std::int32_t i = 0;
            std::string_view name;
            if (m_phase != Phase::Objects || !m_in.i(i) ||
                i != static_cast<std::int32_t>(m_me.objects.size()) || i >= m_numObjects ||
                !m_in.str(name) || !m_in.eol() || !plainName(name)) {
                return false;
            }
            m_me.objects.emplace_back(name);
            return true;
        }
        case Kw::NumMaterials:
            if (m_phase != Phase::Objects ||
                m_me.objects.size() != static_cast<std::size_t>(m_numObjects) ||
                !count(m_numMaterials)) {
                return false;
            }
            m_phase = Phase::Materials;
            return true;
        case Kw::Material: {
            std::int32_t i = 0;
            std::string_view name, type, images;
            if (m_phase != Phase::Materials || !m_in.i(i) ||
                i != static_cast<std::int32_t>(m_me.materials.size()) || i >= m_numMaterials ||
                !m_in.str(name) || !m_in.str(type) || !m_in.str(images) || !m_in.eol() ||
                !plainName(name)) {
                return false;
            }
            Material mat;
            mat.where = loc;
            mat.name = std::string(name);
            mat.type = std::string(type);
            mat.images = std::string(images);
            m_me.materials.push_back(std::move(mat));
            return true;
        }
        case Kw::Param4:
            return param(kw, 4);
        case Kw::Param2:
            return param(kw, 2);
        case Kw::Param1:
            return param(kw, 1);
        case Kw::Other:
        case Kw::NumVerts32:
        case Kw::Vert32:
        case Kw::Tri16:
            return false;
        }
        return false;
    }

    void reserveBones(std::size_t n)
    {
        m_s.names.reserve(n);
        m_s.parents.reserve(n);
        m_s.sourceIds.reserve(n);
        m_s.where.reserve(n);
        m_s.bindPositions.reserve(n);
        m_s.bindRotations.reserve(n);
        m_s.bindAxes.reserve(n);
        m_s.bindScales.reserve(n);
        m_s.bindHasScale.reserve(n);
        m_s.bindWhere.reserve(n);
    }

    bool bone(const SourceLoc& loc)
    {
        std::int32_t i = 0;
        if (!m_in.i(i)) {
            return false;
        }
        if (m_phase == Phase::Pool) { // weight: BONE b w
            float w = 0;
            if (!m_inVert || i < 0 || i >= m_numBones || !m_in.f(w) || !m_in.eol()) {
                return false;
            }
            m_me.influenceJoints.push_back(i);
            m_me.influenceWeights.push_back(w);
            return true;
        }
        if (!m_in.more()) { // BONE i: a transform block
            if (!m_in.eol()) {
                return false;
            }
            if (m_phase == Phase::BoneInfo) {
                if (m_s.size() != static_cast<std::size_t>(m_numBones) || m_roots != 1) {
                    return false;
                }
                m_phase = Phase::Transforms;
                m_xLoc.assign(m_s.size(), SourceLoc{});
            }
            if (m_phase != Phase::Transforms || i != static_cast<std::int32_t>(m_xfs) ||
                m_xfs >= m_s.size()) {
                return false;
            }
            m_s.bindWhere[m_xfs++] = loc;
            return true;
        }
        // BONE i parent "name"
        std::int32_t parent = 0;
        std::string_view name;
        if (m_phase != Phase::BoneInfo || i != static_cast<std::int32_t>(m_s.size()) ||
            i >= m_numBones || !m_in.i(parent) || parent < -1 || parent >= i ||
            !m_in.str(name) || !m_in.eol() || !plainName(name)) {
            return false;
        }
        m_roots += parent == -1 ? 1u : 0u;
        m_s.addJoint(std::string(name), parent, i, loc);
        return true;
    }

    bool poolVert(const SourceLoc& loc)
    {
        std::int32_t i = 0;
        if (m_phase != Phase::Pool || !closeVert() || !m_in.i(i) ||
            i != static_cast<std::int32_t>(m_me.pointPositions.size()) || i >= m_numVerts ||
            !m_in.eol()) {
            return false;
        }
        if (m_me.influenceOffsets.empty()) {
            m_me.influenceOffsets.push_back(0);
        }
        m_me.pointPositions.push_back(Vec3::Zero());
        m_me.pointWhere.push_back(loc);
        m_inVert = true;
        m_declared = -1;
        return true;
    }

    // Ends the open pool vertex: its BONES count must match its weights.
    bool closeVert()
    {
        if (!m_inVert) {
            return true;
        }
        m_inVert = false;
        const std::size_t have = m_me.influenceJoints.size() - m_me.influenceOffsets.back();
        if (m_declared >= 0 && static_cast<std::size_t>(m_declared) != have) {
            return false;
        }
        m_me.influenceOffsets.push_back(static_cast<std::uint32_t>(m_me.influenceJoints.size()));
        return true;
    }

    bool tri(const SourceLoc& loc)
    {
        std::int32_t o = 0, mt = 0;
        if (m_phase != Phase::Faces || !closeFace() || !m_in.i(o) || !m_in.i(mt) || o < 0 ||
            mt < 0 || !m_in.skipPlainRest()) {
            return false;
        }
        m_maxObj = std::max(m_maxObj, o);
        m_maxMat = std::max(m_maxMat, mt);
        m_me.triangleObjects.push_back(static_cast<std::uint32_t>(o));
        m_me.triangleMaterials.push_back(static_cast<std::uint32_t>(mt));
        m_me.triangleWhere.push_back(loc);
        m_corners = 0;
        return true;
    }

    // Ends the current face: three complete corners.
    bool closeFace()
    {
        if (m_me.triangleWhere.empty()) {
            return true;
        }
        return m_corners == 3 && closeCorner();
    }

    bool closeCorner()
    {
        if (m_has != (kHasNormal | kHasColor | kHasUv)) {
            return false; // cod.corner-incomplete
        }
        const Vec4& c = m_me.cornerColors.back();
        if (!((c.array() >= 0.0f).all() && (c.array() <= 1.0f).all()) && m_colourOut++ == 0) {
            m_firstBad = c;
            m_firstBadLoc = m_colorLoc;
            m_firstBadVert = static_cast<std::int32_t>(m_me.cornerPoints.back());
        }
        return true;
    }

    bool corner(const SourceLoc& loc)
    {
        std::int32_t v = 0;
        if (m_me.triangleWhere.empty() || m_corners >= 3 || (m_corners > 0 && !closeCorner()) ||
            !m_in.i(v) || v < 0 || v >= m_numVerts || !m_in.eol()) {
            return false;
        }
        ++m_corners;
        m_has = 0;
        m_me.cornerPoints.push_back(static_cast<std::uint32_t>(v));
        m_me.cornerNormals.push_back(Vec3::Zero());
        m_me.cornerColors.push_back(Vec4::Ones());
        m_me.cornerUvs.push_back(Vec2::Zero());
        m_me.cornerWhere.push_back(loc);
        return true;
    }

    bool param(std::string_view kw, std::size_t n)
    {
        if (m_phase != Phase::Materials || m_me.materials.empty()) {
            return false;
        }
        MaterialParam p;
        p.values.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            if (!m_in.f(p.values[k])) {
                return false;
            }
        }
        if (!m_in.eol()) {
            return false;
        }
        p.key = std::string(kw);
        m_me.materials.back().params.push_back(std::move(p));
        return true;
    }

    bool finish()
    {
        if (m_phase != Phase::Materials ||
            m_me.materials.size() != static_cast<std::size_t>(m_numMaterials) ||
            m_maxObj >= static_cast<std::int32_t>(m_me.objects.size()) ||
            m_maxMat >= static_cast<std::int32_t>(m_me.materials.size())) {
            return false;
        }
        Model& m = m_m;
        m.kind = ModelKind::Reference;
        m.version = m_version;
        m_s.bindKind = PoseKind::ModelMatrix;
        for (std::size_t j = 0; j < m_s.size(); ++j) {
            float det = 0;
            if (!isOrthonormal(m_s.bindAxes[j], det)) {
                std::string d;
                appendFloat(d, det);
                m_sink.warning(ids::kCodBoneMatrix, m_xLoc[j].line ? m_xLoc[j] : m_s.bindWhere[j],
                               "bone '" + m_s.names[j] + "' rotation not orthonormal (det " + d + ")",
                               {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
            }
        }
        const std::size_t points = m_me.pointPositions.size();
        m_me.pointParents.assign(points, kNoJoint);
        m_me.pointLinkState.assign(points, LinkState::List);
        m_me.uvSetCount = 1;
        if (m_colourOut > 0) {
            std::string e;
            appendFloats(e, m_firstBad.data(), 4);
            m_sink.note(ids::kCodColorRange, m_firstBadLoc,
                        std::to_string(m_colourOut) + " vertex colours outside 0..1 (e.g." + e + ")",
                        {ElementRef::Kind::Vertex, m_firstBadVert});
        }
        orderSkeleton(m, m_sink);
        return true;
    }
};

} // namespace

bool readXmodelFast(std::string_view bytes, const ReadContext& ctx, ReadResult& out)
{
    out = ReadResult{};
    DiagnosticSink sink(ctx.fileName);
    XmodelFast p(bytes, sink, out.model);
    if (!p.run()) {
        out = ReadResult{}; // free what was built before the general path runs
        return false;
    }
    const int e = p.dominantEnding();
    out.model.format = "xmodel";
    out.model.lineEnding = e == 1 ? LineEnding::CRLF : (e == 2 ? LineEnding::CR : LineEnding::LF);
    out.hasModel = true;
    out.stats.fastLines = p.lines();
    out.diagnostics = sink.take();
    return true;
}

} // namespace rigscope::core::cod
