#pragma once

// Helpers shared by the check families (internal to core/checks).

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/checks/registry.h"
#include "core/pose/effective_weights.h"
#include "core/diag/diagnostic_ids.h"
#include "core/text/ascii.h"
#include "core/text/plural.h"

namespace rigscope::core::checks {

using K = ElementRef::Kind;

// Numbers in messages: '.' decimal point, at most `decimals` decimals, no trailing zeros.
std::string num(double v, int decimals = 4);
std::string quoted(std::string_view s); // 'name'
// "a, b, c and 4 more" (at most `max` names).
std::string nameList(const std::vector<std::string>& names, std::size_t max = 8);

// The message of a finding of `id`, built by `make` only when the sink keeps it: a capped sink
// (DiagnosticSink::setMaxPerId) only counts the rest, so their text would be thrown away.
template <class F> std::string text(const DiagnosticSink& sink, std::string_view id, F&& make)
{
    return sink.keeps(id) ? std::string(make()) : std::string();
}

// A check whose catalog row has two severities (e.g. W for all three corners, N for one):
// sets `s` and pins it, unless the profile turns the id off (then the normal grading, and
// --enable, decide).
void grade(Diagnostic& d, Profile p, Severity s);
bool isOff(std::string_view id, Profile p) noexcept;

// The compiler a profile models, as messages name it (issue 15: CoD files are not compiled by
// studiomdl): "GoldSrc studiomdl", "studiomdl", "the CoD tools".
std::string_view compilerName(Profile p) noexcept;

bool isSmdFamily(const Model& m) noexcept; // smd, vta, smdx
bool isXModel(const Model& m) noexcept;    // xmodel, xmodel_bin
bool isXAnim(const Model& m) noexcept;     // xanim, xanim_bin
bool isCodFormat(const Model& m) noexcept;

// Joints in the order the file declared them (by source line / offset).
std::vector<std::size_t> jointsInFileOrder(const Skeleton& s);
SourceLoc jointLoc(const Skeleton& s, std::size_t j);
std::string boneName(const Skeleton& s, JointIndex j);

// Links merged (duplicates summed into the first occurrence), file order otherwise
// (core/pose/effective_weights.h holds the one copy of each rule).
void mergedLinks(const Mesh& mesh, std::size_t point, std::vector<Link>& out);
// Compiled skinning for `profile`: goldsrc → parent field; source → compiledSourceLinks;
// cod → merged authored links. `culledCount` (optional) = links left after the cull, before
// the clip to the profile's maximum.
void compiledLinks(const Mesh& mesh, std::size_t point, Profile profile, std::vector<Link>& out,
                   std::size_t* culledCount = nullptr, float* droppedWeight = nullptr);

// Welded counts of CHECKS.md §3 for the profile; `overflow*` = the corner (or XMODEL pool
// vertex) that makes the count exceed `limit` (UINT32_MAX when it never does).
struct WeldStats {
    std::size_t vertices = 0;
    std::uint32_t vertexOverflow = UINT32_MAX;
    std::size_t normals = 0; // goldsrc only
    std::uint32_t normalOverflow = UINT32_MAX;
    std::vector<std::uint32_t> cornerVertex; // corner -> welded vertex (filled when asked)
};
WeldStats weldStats(const Model& m, Profile profile, std::size_t vertexLimit,
                    std::size_t normalLimit, bool wantCornerMap = false);
// One weld per model per check run (issue 27 item 10: it was computed twice, for
// mesh.vertex-limit and for the budget meter). runModelChecks forgets the last one first;
// checkVertexLimit welds through weldStatsOnce and keeps the result for this thread;
// budgetMeters takes the vertex count from it when it is the same model, profile and mesh
// arrays, and forgets it. Anything else welds afresh.
const WeldStats& weldStatsOnce(const Model& m, Profile profile, std::size_t vertexLimit,
                               std::size_t normalLimit);
std::size_t weldedVertexCount(const Model& m, Profile profile); // takes and forgets the kept weld
void forgetWeldStats() noexcept;

// One row per vertex (issue 27): an SMD writes a vertex once per triangle that uses it, and
// studiomdl welds the copies (same position, parent field, link state and links) into one. A
// per-vertex check asks first(point) for each point it fires on and reports only the first of
// a vertex; corner checks pass the corner's own attribute (normal, UV) as `extra`. XMODEL pool
// vertices are vertices already (every point is its own). Only points a check fires on are
// hashed, so a clean mesh costs nothing.
// Exact (every field compared bit for bit) and without an allocation per call: one flat
// open-addressing table of 64-bit slots (hash bits, vertex number) over the first points seen.
// Its arrays are taken from this thread's scratch and given back when it ends, so the checks
// of one run that each dedupe many vertices reuse the same memory rather than have the kernel
// fault in and clear fresh pages for each (issue 27 item 10): the tables through
// takeScratchSlots (core/build/scratch_slots.h), the rest here; releaseVertexOnceScratch()
// frees the latter (runModelChecks, at its end).
class VertexOnce {
public:
    explicit VertexOnce(const Model& m);
    ~VertexOnce();
    VertexOnce(const VertexOnce&) = delete;
    VertexOnce& operator=(const VertexOnce&) = delete;
    bool first(std::size_t point, std::initializer_list<float> extra = {});
    std::size_t size() const noexcept { return m_reps.size(); } // distinct vertices seen

private:
    struct Rep {
        std::uint32_t point = 0;
        std::uint32_t extra = 0; // into m_extra
    };
    friend struct VertexOnceAccess;
    std::uint64_t hashOf(std::size_t point, const std::uint32_t* extra,
                         std::size_t extraCount) const noexcept;
    bool same(std::uint32_t rep, std::size_t point, const std::uint32_t* extra,
              std::size_t extraCount) const noexcept;
    void grow();

    const Mesh& m_mesh;
    bool m_pool;
    std::vector<std::uint64_t> m_slots; // (hash >> 32) << 32 | rep; kEmpty when free
    std::vector<std::uint64_t> m_spare; // the table before the last grow (its memory reused)
    std::size_t m_mask = 0;
    std::vector<Rep> m_reps;
    std::vector<std::uint32_t> m_extra; // the reps' extra values (bits), in order
    bool m_owns = false;                // the arrays are this thread's scratch
    std::size_t m_maxReps = 0;          // at most one vertex per point or corner
};
void releaseVertexOnceScratch() noexcept;

// VTA base vertex → reference corners (FORMATS.md §1.6 matching).
struct FlexMatch {
    bool direct = false;                             // ids 0..3T-1 equal their corners
    std::vector<std::vector<std::uint32_t>> corners; // per base entry (vertexFrames[0] order)
    std::size_t unmatched = 0;
    std::size_t firstUnmatched = SIZE_MAX; // base entry index
};
FlexMatch matchFlexToReference(const Model& vta, const Model& reference);

// Welded (source rule) reference vertices moved by any kept delta of `vta`, per material.
struct FlexedVertices {
    std::vector<std::size_t> perMaterial;     // index = reference material
    std::vector<std::uint32_t> flexedCorners; // one corner per flexed welded vertex
    std::vector<std::size_t> flexedBase;      // matching base entry of that corner
};
FlexedVertices flexedVertices(const Model& vta, const Model& reference, const FlexMatch& match,
                              Profile profile);

// Delta kept by studiomdl (RemapVertexAnimations threshold).
bool deltaKept(const Vec3& dp, const Vec3& dn) noexcept;

} // namespace rigscope::core::checks
