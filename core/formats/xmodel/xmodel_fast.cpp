// XMODEL_EXPORT fast path (see cod_fast.h): the canonical v5-v7 layout of FORMATS.md §3.2 read
// straight into the Model. Subset, in this order:
//   MODEL, VERSION 5..7, NUMBONES n, BONE i p "name" x n (i = 0.., parent -1 or an earlier
//   bone, one root), BONE i blocks x n (i = 0..) with OFFSET / SCALE / X / Y / Z,
//   NUMVERTS v, VERT i (i = 0..) with OFFSET, BONES k and k weights BONE b w (b < NUMBONES),
//   NUMFACES f, TRI o m ... with three corners VERT i + NORMAL + COLOR + UV n u v ... (the same
//   n for every corner, n > 1 from version 7 on) (or the
//   one-line VERT i nx ny nz u v of version 5), NUMOBJECTS, OBJECT i "name" (i = 0..),
//   NUMMATERIALS, MATERIAL i "name" "type" "images" (version 5: MATERIAL i "images") (i = 0..)
//   with their parameter lines. Version 7 files may spell NUMVERTS32, VERT32, TRI16 and have a
//   NUMCOSMETICBONES line (cod.unsupported, as the general path words it).
// Every count must match, every index be in range. The diagnostics such a file can still get
// (syntax.cod-comma and those of orderSkeleton) are reported exactly as the general path
// reports them.
//
// Large files (issue 7): right after NUMVERTS the rest of the file (the vertex pool and the
// faces) is cut into shares at guessed record starts (a VERT line followed by OFFSET, or a TRI
// line followed by VERT). Share 0 is read here straight into the model; the others are read on
// threads by the same line logic into their own arrays (line numbers relative, offsets the
// file's), stopping at the first line that is not a pool or face record (NUMOBJECTS). They are
// spliced in file order while each share began where the text read so far ends, began the way
// reading in order would have gone on there (the same phase, the next pool index, the previous
// record complete) and was read without leaving the subset; the rest is read in order. So the
// model, its locations and the diagnostics are exactly those of one thread.
#include <algorithm>
#include <memory>
#include <thread>

#include "core/build/model_builder.h"
#include "core/build/parallel_shares.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_fast.h"
#include "core/formats/cod/cod_record.h"
#include "core/text/plural.h"

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
    Param4,      // TRANSPARENCY AMBIENTCOLOR INCANDESCENCE SPECULARCOLOR REFLECTIVECOLOR (COLOR)
    Param2,      // COEFFS GLOW REFRACTIVE REFLECTIVE BLINN
    Param1,      // PHONG
    NumCosmetic, // NUMCOSMETICBONES / NUMCOSMETICS (version 7): not kept, the general path's
                 // warning
    // Version 7 spellings: the same meaning, but cod.version-feature in a version 5 or 6 file.
    NumVerts32,
    Vert32,
    Tri16,
};

Kw keywordOf(std::string_view k, std::uint64_t code) noexcept
{
    if (k.size() <= 8) {
        switch (code) {
        case keywordCode("X"):
            return Kw::X;
        case keywordCode("Y"):
            return Kw::Y;
        case keywordCode("Z"):
            return Kw::Z;
        case keywordCode("UV"):
            return Kw::Uv;
        case keywordCode("TRI"):
            return Kw::Tri;
        case keywordCode("VERT"):
            return Kw::Vert;
        case keywordCode("BONE"):
            return Kw::Bone;
        case keywordCode("BONES"):
            return Kw::Bones;
        case keywordCode("TRI16"):
            return Kw::Tri16;
        case keywordCode("COLOR"):
            return Kw::Color;
        case keywordCode("MODEL"):
            return Kw::Model;
        case keywordCode("SCALE"):
            return Kw::Scale;
        case keywordCode("OFFSET"):
            return Kw::Offset;
        case keywordCode("NORMAL"):
            return Kw::Normal;
        case keywordCode("VERT32"):
            return Kw::Vert32;
        case keywordCode("OBJECT"):
            return Kw::Object;
        case keywordCode("VERSION"):
            return Kw::Version;
        case keywordCode("NUMVERTS"):
            return Kw::NumVerts;
        case keywordCode("NUMFACES"):
            return Kw::NumFaces;
        case keywordCode("NUMBONES"):
            return Kw::NumBones;
        case keywordCode("MATERIAL"):
            return Kw::Material;
        case keywordCode("GLOW"):
        case keywordCode("BLINN"):
        case keywordCode("COEFFS"):
            return Kw::Param2;
        case keywordCode("PHONG"):
            return Kw::Param1;
        default:
            return Kw::Other;
        }
    }
    switch (k.size()) {
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
               : k == "NUMCOSMETICS" ? Kw::NumCosmetic
                                     : Kw::Other;
    case 13:
        return k == "INCANDESCENCE" || k == "SPECULARCOLOR" ? Kw::Param4 : Kw::Other;
    case 15:
        return k == "REFLECTIVECOLOR" ? Kw::Param4 : Kw::Other;
    case 16:
        return k == "NUMCOSMETICBONES" ? Kw::NumCosmetic : Kw::Other;
    default:
        return Kw::Other;
    }
}

class XmodelFast {
public:
    XmodelFast(std::string_view bytes, const ReadContext& ctx, DiagnosticSink& sink, Model& m)
        : m_in(bytes, sink), m_ctx(&ctx), m_sink(sink), m_m(m), m_s(m.skeleton), m_me(m.mesh)
    {
    }

    bool run()
    {
        if (!readLines()) {
            return false;
        }
        if (!finish()) {
            COD_FAST_TRACE(SourceLoc{});
            return false;
        }
        return true;
    }

    int dominantEnding() const noexcept { return m_in.dominantEnding(); }
    std::uint32_t lines() const noexcept { return m_in.lines(); }
    std::uint32_t shares() const noexcept { return m_sharesKept; }

private:
    enum class Phase : std::uint8_t {
        Start,
        BoneInfo,
        Transforms,
        Pool,
        Faces,
        Objects,
        Materials
    };
    static constexpr std::uint8_t kHasNormal = 1, kHasColor = 2, kHasUv = 4;

    // What a share needs to know of the file before it (copied before the threads start).
    struct ShareSetup {
        const char* base = nullptr;
        const char* begin = nullptr;
        const char* stop = nullptr;
        Phase phase = Phase::Pool;
        int version = 6;
        std::int32_t numBones = 0, numVerts = 0;
    };

    // A share: reads the pool / face records of [setup.begin, setup.stop) into `m`.
    XmodelFast(const ShareSetup& setup, DiagnosticSink& sink, Model& m)
        : m_in(setup.base, setup.begin, setup.stop, sink), m_sink(sink), m_m(m), m_s(m.skeleton),
          m_me(m.mesh), m_share(true)
    {
        m_phase = m_phaseAtStart = setup.phase;
        m_sawModel = m_sawVersion = true;
        m_version = setup.version;
        m_numBones = setup.numBones;
        m_numVerts = setup.numVerts;
        m_splitTried = true;
    }

    FastScanner m_in;
    const ReadContext* m_ctx = nullptr; // nullptr in a share
    DiagnosticSink& m_sink;
    Model& m_m;
    Skeleton& m_s;
    Mesh& m_me;
    const bool m_share = false;
    bool m_splitTried = false; // the pool and faces were offered to threads
    std::uint32_t m_sharesKept = 0;
    // a share: its first pool index, the pool vertices it read before NUMFACES and where the
    // faces start (nullptr: no NUMFACES in it), whether it left the subset
    std::int32_t m_firstIndex = -1;
    std::size_t m_poolAtFaces = 0;
    const char* m_facesAt = nullptr;
    bool m_failed = false;
    Phase m_phaseAtStart = Phase::Start;
    Phase m_phase = Phase::Start;
    bool m_sawModel = false, m_sawVersion = false;
    int m_version = 6;
    std::int32_t m_numBones = -1, m_numVerts = -1, m_numFaces = -1, m_numObjects = -1,
                 m_numMaterials = -1;
    std::size_t m_roots = 0;
    std::size_t m_xfs = 0;        // transform blocks read
    bool m_inVert = false;        // a pool vertex is open
    std::int32_t m_declared = -1; // its BONES count
    // faces
    bool m_faceOpen = false;     // a face has been started (TRI) and not closed
    std::uint32_t m_corners = 0; // corners of the current face
    std::uint8_t m_has = 0;      // what the current corner has
    std::int32_t m_maxObj = -1, m_maxMat = -1;
    bool m_anyColor = false;    // a corner has a COLOR line (version 5 one-line corners have none)
    std::uint32_t m_uvSets = 0; // UV sets of every corner (0: no corner read yet)

    // Reads keyword lines up to the scanner's limit; false where the file leaves the subset.
    // The first time the pool starts, the rest of the file is offered to threads.
    bool readLines()
    {
        std::string_view kw;
        SourceLoc loc;
        for (;;) {
            const FastScanner::Next n = m_in.nextKeyword(kw, loc, m_m.headerComments);
            if (n == FastScanner::Next::End) {
                return true;
            }
            if (n == FastScanner::Next::Unsupported ||
                !line(keywordOf(kw, m_in.keywordCode()), kw, loc)) {
                COD_FAST_TRACE(loc);
                return false;
            }
            if (m_phase == Phase::Pool && !m_splitTried) {
                m_splitTried = true;
                if (!parallelRest()) {
                    return false;
                }
            }
        }
    }

    // Pool and face lines only; a share ends at its limit or before the first other keyword.
    static bool shareKeyword(Kw k) noexcept
    {
        switch (k) {
        case Kw::Vert:
        case Kw::Vert32:
        case Kw::Offset:
        case Kw::Bones:
        case Kw::Bone:
        case Kw::NumFaces:
        case Kw::Tri:
        case Kw::Tri16:
        case Kw::Normal:
        case Kw::Color:
        case Kw::Uv:
            return true;
        default:
            return false;
        }
    }

    // A share's whole work (on its thread). Arrays are reserved for what its bytes can hold:
    // capacity never written is address space, not memory.
    void runShare()
    {
        const std::size_t bytes = m_in.bytesLeft();
        if (m_phase == Phase::Pool) {
            reservePool(boundedCount(m_numVerts, bytes, 28));
        } else {
            reserveFaces(bytes / 140 + 1);
        }
        std::string_view kw;
        SourceLoc loc;
        for (;;) {
            const FastScanner::Next n = m_in.nextKeyword(kw, loc, m_m.headerComments);
            if (n == FastScanner::Next::End) {
                return;
            }
            if (n == FastScanner::Next::Unsupported) {
                m_failed = true;
                return;
            }
            const Kw k = keywordOf(kw, m_in.keywordCode());
            if (!shareKeyword(k)) {
                m_in.unread();
                return;
            }
            if (!line(k, kw, loc)) {
                m_failed = true;
                return;
            }
        }
    }

    void reservePool(std::size_t n)
    {
        reserveBig(m_me.pointPositions, n);
        reserveBig(m_me.pointWhere, n);
        reserveBig(m_me.influenceOffsets, n + 1);
        // Four weights a vertex, at most what the bytes left can hold ("BONE 0 1\n").
        const std::size_t w = std::min(4 * n, m_in.bytesLeft() / 9 + 1);
        reserveBig(m_me.influenceJoints, w);
        reserveBig(m_me.influenceWeights, w);
    }

    void reserveFaces(std::size_t n)
    {
        reserveBig(m_me.triangleMaterials, n);
        reserveBig(m_me.triangleObjects, n);
        reserveBig(m_me.triangleWhere, n);
        reserveBig(m_me.cornerPoints, 3 * n);
        reserveBig(m_me.cornerNormals, 3 * n);
        reserveBig(m_me.cornerUvs, 3 * n);
        reserveBig(m_me.cornerColors, 3 * n);
        reserveBig(m_me.cornerWhere, 3 * n);
    }

    // Called right after NUMVERTS: the pool and the faces that follow it in shares on threads
    // (see the top of this file). False where the file leaves the subset in share 0, which is
    // read here.
    bool parallelRest()
    {
        const char* const start = m_in.position();
        const char* const end = m_in.limit();
        const auto rest = static_cast<std::size_t>(end - start);
        const std::size_t count = shareCount(*m_ctx, rest);
        if (count < 2) {
            return true;
        }
        std::vector<ShareSetup> setups;
        for (std::size_t k = 1; k < count; ++k) {
            const char* from = start + k * (rest / count);
            const char* pool = guessLinePair(from, end, {"VERT ", "VERT32 "}, {"OFFSET "});
            const char* face = guessLinePair(from, end, {"TRI ", "TRI16 "}, {"VERT ", "VERT32 "});
            ShareSetup su;
            su.phase = face && (!pool || face < pool) ? Phase::Faces : Phase::Pool;
            su.begin = su.phase == Phase::Faces ? face : pool;
            if (su.begin && su.begin > (setups.empty() ? start : setups.back().begin)) {
                setups.push_back(su);
            }
        }
        if (setups.empty()) {
            return true;
        }
        for (std::size_t k = 0; k < setups.size(); ++k) {
            ShareSetup& su = setups[k];
            su.stop = k + 1 < setups.size() ? setups[k + 1].begin : end;
            su.base = m_in.base();
            su.version = m_version;
            su.numBones = m_numBones;
            su.numVerts = m_numVerts;
        }
        const int kept = readShares<XmodelFast>(
            setups, m_sink,
            [](const ShareSetup& su, DiagnosticSink& sink, Model& m) {
                std::unique_ptr<XmodelFast> r(new XmodelFast(su, sink, m));
                r->runShare();
                return r;
            },
            [&] {
                m_in.setLimit(setups[0].begin);
                const bool ok = readLines();
                m_in.setLimit(end);
                return ok;
            },
            [this](XmodelFast& r, const ShareSetup& su, DiagnosticSink& sink) {
                if (r.m_failed || m_in.position() != su.begin || !spliceable(r)) {
                    return false;
                }
                splice(r, sink);
                return true;
            });
        if (kept < 0) {
            return false;
        }
        m_sharesKept = static_cast<std::uint32_t>(kept);
        return true;
    }

    // Whether reading on from here in order would read the share's first line as the share did:
    // the same phase, the previous record complete, the next pool index; NUMFACES in the share
    // after exactly NUMVERTS vertices. Changes nothing.
    bool spliceable(const XmodelFast& t) const
    {
        if (t.m_phaseAtStart != m_phase) {
            return false;
        }
        if (m_phase == Phase::Pool) {
            const std::size_t have =
                m_me.influenceJoints.size() -
                (m_me.influenceOffsets.empty() ? 0 : m_me.influenceOffsets.back());
            if (m_inVert && m_declared >= 0 && static_cast<std::size_t>(m_declared) != have) {
                return false;
            }
            if (t.m_firstIndex < 0 ||
                static_cast<std::size_t>(t.m_firstIndex) != m_me.pointPositions.size()) {
                return false;
            }
            return !t.m_facesAt || m_me.pointPositions.size() + t.m_poolAtFaces ==
                                       static_cast<std::size_t>(m_numVerts);
        }
        if (t.m_uvSets != 0 && m_uvSets != 0 && t.m_uvSets != m_uvSets) {
            return false;
        }
        return !m_faceOpen || (m_corners == 3 && m_has == (kHasNormal | kHasColor | kHasUv));
    }

    // Appends a share read on a thread (spliceable) and goes on from where it ended, in the state
    // it ended in.
    void splice(XmodelFast& t, DiagnosticSink& tSink)
    {
        const std::uint32_t lineBase = m_in.lines();
        auto relocate = [lineBase](SourceLoc w) {
            w.line += lineBase;
            return w;
        };
        Mesh& m = m_me;
        Mesh& x = t.m_me;
        if (m_phase == Phase::Pool) {
            closeVert();
        } else {
            closeFace();
        }
        if (!x.pointPositions.empty()) {
            const auto linkBase = static_cast<std::uint32_t>(m.influenceJoints.size());
            moveAppend(m.pointPositions, x.pointPositions);
            moveAppend(m.pointWhere, x.pointWhere, relocate);
            if (m.influenceOffsets.empty()) {
                m.influenceOffsets.push_back(0);
            }
            for (std::size_t i = 1; i < x.influenceOffsets.size(); ++i) { // after its leading 0
                m.influenceOffsets.push_back(x.influenceOffsets[i] + linkBase);
            }
            std::vector<std::uint32_t>().swap(x.influenceOffsets);
            moveAppend(m.influenceJoints, x.influenceJoints);
            moveAppend(m.influenceWeights, x.influenceWeights);
        }
        if (t.m_facesAt) { // NUMFACES: as reading it here would have reserved
            m_numFaces = t.m_numFaces;
            reserveFaces(
                boundedCount(m_numFaces, static_cast<std::size_t>(m_in.limit() - t.m_facesAt), 29));
        }
        moveAppend(m.triangleObjects, x.triangleObjects);
        moveAppend(m.triangleMaterials, x.triangleMaterials);
        moveAppend(m.triangleWhere, x.triangleWhere, relocate);
        moveAppend(m.cornerPoints, x.cornerPoints);
        moveAppend(m.cornerNormals, x.cornerNormals);
        moveAppend(m.cornerColors, x.cornerColors);
        moveAppend(m.cornerUvs, x.cornerUvs);
        moveAppend(m.cornerExtraUvs, x.cornerExtraUvs);
        m_uvSets = m_uvSets != 0 ? m_uvSets : t.m_uvSets;
        moveAppend(m.cornerWhere, x.cornerWhere, relocate);
        spliceDiagnostics(m_sink, tSink, lineBase);
        m_anyColor = m_anyColor || t.m_anyColor;
        m_maxObj = std::max(m_maxObj, t.m_maxObj);
        m_maxMat = std::max(m_maxMat, t.m_maxMat);
        m_phase = t.m_phase;
        m_inVert = t.m_inVert;
        m_declared = t.m_declared;
        m_faceOpen = t.m_faceOpen;
        m_corners = t.m_corners;
        m_has = t.m_has;
        m_in.advancePast(t.m_in);
    }

    bool count(std::int32_t& out) { return out < 0 && m_in.i(out) && out >= 0 && m_in.eol(); }

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
            m_has |= kHasColor;
            m_anyColor = true;
            return true;
        }
        case Kw::Uv: {
            // UV n u v ...: every corner of the file with the same n (> 1 from version 7 on).
            std::int32_t n = 0;
            float v[2];
            if (m_phase != Phase::Faces || m_corners == 0 || !m_in.i(n) || n < 1 ||
                (n > 1 && m_version < 7) || !m_in.f(v[0]) || !m_in.f(v[1])) {
                return false;
            }
            const auto sets = static_cast<std::uint32_t>(n);
            if (m_uvSets == 0 && m_me.cornerPoints.size() == 1) { // the first corner read here
                m_uvSets = sets;
                m_me.cornerExtraUvs.resize(sets - 1, Vec2::Zero());
            }
            if (sets != m_uvSets) {
                return false;
            }
            m_me.cornerUvs.back() = Vec2(v[0], v[1]);
            const std::size_t extra = m_me.cornerExtraUvs.size() - (sets - 1);
            for (std::uint32_t u = 1; u < sets; ++u) {
                if (!m_in.f(v[0]) || !m_in.f(v[1])) {
                    return false;
                }
                m_me.cornerExtraUvs[extra + u - 1] = Vec2(v[0], v[1]);
            }
            if (!m_in.eol()) {
                return false;
            }
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
            return true;
        }
        case Kw::Scale: {
            float v[3];
            if (m_phase != Phase::Transforms || !m_in.f3(v) || !m_in.eol()) {
                return false;
            }
            m_s.bindScales[m_xfs - 1] = Vec3(v[0], v[1], v[2]);
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
            reservePool(boundedCount(m_numVerts, m_in.bytesLeft(), 7));
            return true;
        }
        case Kw::NumFaces: {
            if (m_phase != Phase::Pool || !closeVert() || !count(m_numFaces)) {
                return false;
            }
            if (m_share) { // the pool's size is checked when the share is spliced
                m_poolAtFaces = m_me.pointPositions.size();
                m_facesAt = m_in.position();
                m_phase = Phase::Faces;
                reserveFaces(m_in.bytesLeft() / 140 + 1);
                return true;
            }
            if (m_me.pointPositions.size() != static_cast<std::size_t>(m_numVerts)) {
                return false;
            }
            m_phase = Phase::Faces;
            reserveFaces(boundedCount(m_numFaces, m_in.bytesLeft(), 29));
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
                !m_in.str(name)) {
                return false;
            }
            Material mat;
            mat.where = loc;
            if (m_in.eol()) { // version 5: MATERIAL i "images"
                mat.images = std::string(name);
            } else if (m_in.str(type) && m_in.str(images) && m_in.eol() && plainName(name)) {
                mat.name = std::string(name);
                mat.type = std::string(type);
                mat.images = std::string(images);
            } else {
                return false;
            }
            m_me.materials.push_back(std::move(mat));
            return true;
        }
        case Kw::Param4:
            return param(kw, 4);
        case Kw::Param2:
            return param(kw, 2);
        case Kw::Param1:
            return param(kw, 1);
        case Kw::NumCosmetic: // before version 7 also cod.version-feature: the general path's
            if (m_version < 7 || !m_in.skipPlainRest()) {
                return false;
            }
            m_sink.warning(ids::kCodUnsupported, loc,
                           "cosmetic bone count not kept; the bones read as regular bones");
            return true;
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
            i >= m_numBones || !m_in.i(parent) || parent < -1 || parent >= i || !m_in.str(name) ||
            !m_in.eol() || !plainName(name)) {
            return false;
        }
        m_roots += parent == -1 ? 1u : 0u;
        m_s.addJoint(std::string(name), parent, i, loc);
        return true;
    }

    bool poolVert(const SourceLoc& loc)
    {
        std::int32_t i = 0;
        if (m_phase != Phase::Pool || !closeVert() || !m_in.i(i)) {
            return false;
        }
        if (m_share && m_firstIndex < 0) { // checked when the share is spliced
            if (i < 0) {
                return false;
            }
            m_firstIndex = i;
        }
        const std::int32_t first = m_share ? m_firstIndex : 0;
        if (i - first != static_cast<std::int32_t>(m_me.pointPositions.size()) || i >= m_numVerts ||
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
        m_faceOpen = true;
        return true;
    }

    // Ends the current face: three complete corners.
    bool closeFace()
    {
        if (!m_faceOpen) {
            return true;
        }
        m_faceOpen = false;
        return m_corners == 3 && closeCorner();
    }

    bool closeCorner()
    {
        if (m_has != (kHasNormal | kHasColor | kHasUv)) {
            return false; // cod.corner-incomplete
        }
        return true;
    }

    bool corner(const SourceLoc& loc)
    {
        std::int32_t v = 0;
        if (!m_faceOpen || m_corners >= 3 || (m_corners > 0 && !closeCorner()) || !m_in.i(v) ||
            v < 0 || v >= m_numVerts) {
            return false;
        }
        // Version 5 one-line corner: VERT i nx ny nz u v (complete without COLOR).
        float n[5] = {0, 0, 0, 0, 0};
        const bool oneLine = !m_in.eol();
        if (oneLine && (!m_in.f3(n) || !m_in.f(n[3]) || !m_in.f(n[4]) || !m_in.eol())) {
            return false;
        }
        if (oneLine && m_uvSets > 1) {
            return false;
        }
        m_uvSets = oneLine ? 1 : m_uvSets;
        ++m_corners;
        m_has = oneLine ? kHasNormal | kHasColor | kHasUv : 0;
        m_me.cornerPoints.push_back(static_cast<std::uint32_t>(v));
        m_me.cornerNormals.push_back(Vec3(n[0], n[1], n[2]));
        m_me.cornerColors.push_back(Vec4::Ones());
        m_me.cornerUvs.push_back(Vec2(n[3], n[4]));
        m_me.cornerExtraUvs.resize(m_me.cornerExtraUvs.size() + (m_uvSets > 1 ? m_uvSets - 1 : 0),
                                   Vec2::Zero());
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
        const std::size_t points = m_me.pointPositions.size();
        m_me.pointParents.assign(points, kNoJoint);
        m_me.pointLinkState.assign(points, LinkState::List);
        m_me.uvSetCount = std::max<std::uint32_t>(1, m_uvSets);
        if (!m_anyColor) {
            std::vector<Vec4>().swap(m_me.cornerColors); // as the general path: none without COLOR
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
    XmodelFast p(bytes, ctx, sink, out.model);
    if (!p.run()) {
        out = ReadResult{}; // free what was built before the general path runs
        return false;
    }
    const int e = p.dominantEnding();
    out.model.format = "xmodel";
    out.model.lineEnding = e == 1 ? LineEnding::CRLF : (e == 2 ? LineEnding::CR : LineEnding::LF);
    out.hasModel = true;
    out.stats.fastLines = p.lines();
    out.stats.parallelShares = p.shares();
    out.diagnostics = sink.take();
    return true;
}

} // namespace rigscope::core::cod
