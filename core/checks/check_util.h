#pragma once

// Helpers shared by the check families (internal to core/checks).

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/build/scratch_slots.h"
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
// vertex) that makes the count exceed `limit` (UINT32_MAX when it never does). Under Source, a
// mesh that numbers its own vertices (Mesh::cornerVertices: a DMX's index triples, a compiled
// .mdl's .vvd vertices) is counted by those numbers. The one count of vertices: info,
// mesh.vertex-limit, the vertex budget (check, the window) and compare's prediction take it.
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

// The weld kept between checkVertexLimit and budgetMeters (weldStatsOnce), for one thread.
struct KeptWeld {
    bool valid = false;
    const Model* model = nullptr;
    Profile profile = Profile::Source;
    std::size_t vertexLimit = 0, normalLimit = 0;
    // The mesh arrays it was computed on: another model at the same address does not match.
    const void* corners = nullptr;
    const void* points = nullptr;
    std::size_t cornerCount = 0, pointCount = 0;
    WeldStats stats;

    bool sameModel(const Model& m, Profile p) const noexcept
    {
        return valid && model == &m && profile == p && corners == m.mesh.cornerPoints.data() &&
               points == m.mesh.pointPositions.data() && cornerCount == m.mesh.cornerCount() &&
               pointCount == m.mesh.pointCount();
    }
};
// The weld kept on this thread, moved out (and forgotten here) / in: runModelChecks runs the
// weld on a second thread on a large mesh and hands its weld to the calling thread.
KeptWeld takeKeptWeld() noexcept;
void keepWeld(KeptWeld&& k) noexcept;
// The corner count from which runModelChecks runs the weld block on a second thread (tests).
void setParallelChecksFrom(std::size_t corners) noexcept;

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
    // A point and its extra values as first() takes them (the batch form, sweep()).
    struct Probe {
        std::uint32_t point = 0;
        std::uint32_t extraCount = 0;
        std::array<std::uint32_t, 8> extra{}; // bits (-0 as 0)
        void add(float f) noexcept;
    };

    explicit VertexOnce(const Model& m);
    ~VertexOnce();
    VertexOnce(const VertexOnce&) = delete;
    VertexOnce& operator=(const VertexOnce&) = delete;
    bool first(std::size_t point, std::initializer_list<float> extra = {});
    // first() over items 0..n-1 in order: `fires(i, probe)` says whether item i is asked about
    // (and fills the probe); `onFirst(i)` runs, in item order, for each asked item whose vertex
    // comes first. The same answers as first() item by item (issue 27 item 10: a check firing on
    // every corner of a 100 MB mesh waited on a table miss per corner); the items are hashed a
    // few ahead and their slots prefetched. `fires` must not report: only onFirst does.
    // A VertexOnce serves either first() or one sweep(). The items asked about are hashed into
    // 1,024 partitions (by the hash's top bits, item order kept within each), each partition is
    // deduplicated in a table that stays in the caches, and onFirst then runs over the firsts in
    // item order: one table as large as the mesh, probed at random, cost a cache and TLB miss
    // per item (issue 27 item 10). Equal vertices hash alike, so they meet in one partition, in
    // item order: the first of each is the one first() would have said. Extras are asked of
    // `fires` again when two items' hash bits match, not stored.
    template <class Fires, class OnFirst>
    void sweep(std::size_t n, Fires&& fires, OnFirst&& onFirst)
    {
        assert(m_reps.empty() && m_swept == 0);
        constexpr unsigned kPartBits = 10;
        constexpr std::size_t kParts = std::size_t(1) << kPartBits;
        std::uint64_t hash = 0;
        const auto hashItem = [&](std::size_t i, Probe& probe) {
            probe.extraCount = 0;
            if (!fires(i, probe)) {
                return false;
            }
            hash = hashOf(probe.point, probe.extra.data(), probe.extraCount);
            return true;
        };
        std::vector<std::uint32_t> start(kParts + 1, 0);
        Probe probe;
        bool any = false;
        for (std::size_t i = 0; i < n; ++i) {
            if (hashItem(i, probe)) {
                ++start[(hash >> (64 - kPartBits)) + 1];
                any = true;
            }
        }
        if (!any) {
            return;
        }
        std::size_t largest = 0;
        for (std::size_t k = 0; k < kParts; ++k) {
            largest = std::max<std::size_t>(largest, start[k + 1]);
            start[k + 1] += start[k];
        }
        const std::size_t asked = start[kParts];
        // (low hash bits << 32 | item), by partition (the top bits), items ascending in one.
        std::vector<std::uint64_t> entries = takeScratchSlots(asked);
        entries.resize(asked);
        // A copy written close to the first (six corners of a welded grid point) is found here
        // while its data is in the caches, against the last item of its hash bits, and never
        // partitioned; the rest meet in their partition.
        std::vector<std::uint32_t> end(start.begin(), start.end() - 1);
        {
            constexpr std::size_t kRecent = 4096;
            std::vector<std::uint64_t> recentHash(kRecent, 0);
            std::vector<std::uint32_t> recentItem(kRecent, UINT32_MAX);
            Probe other;
            for (std::size_t i = 0; i < n; ++i) {
                if (!hashItem(i, probe)) {
                    continue;
                }
                const std::size_t r = hash & (kRecent - 1);
                if (recentItem[r] != UINT32_MAX && recentHash[r] == hash) {
                    other.extraCount = 0;
                    fires(recentItem[r], other);
                    if (sameProbe(other, probe)) {
                        continue;
                    }
                }
                recentHash[r] = hash;
                recentItem[r] = static_cast<std::uint32_t>(i);
                entries[end[hash >> (64 - kPartBits)]++] = hash << 32 | i;
            }
        }
        std::vector<std::uint64_t> firstBits((n + 63) / 64, 0);
        std::size_t cap = 16;
        while (cap < 2 * largest) {
            cap *= 2;
        }
        std::vector<std::uint32_t> table(cap); // entry index + 1 within the partition; 0: free
        Probe a, b;
        for (std::size_t k = 0; k < kParts; ++k) {
            const std::uint32_t from = start[k], to = end[k];
            if (from == to) {
                continue;
            }
            std::size_t mask = 16;
            while (mask < 2 * std::size_t(to - from)) {
                mask *= 2;
            }
            std::fill(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(mask), 0U);
            mask -= 1;
            for (std::uint32_t e = from; e < to; ++e) {
                const auto tag = static_cast<std::uint32_t>(entries[e] >> 32);
                const auto item = static_cast<std::uint32_t>(entries[e]);
                bool seen = false, probed = false;
                std::size_t s = tag & mask;
                for (; table[s] != 0; s = (s + 1) & mask) {
                    const std::uint64_t other = entries[from + table[s] - 1];
                    if (static_cast<std::uint32_t>(other >> 32) != tag) {
                        continue;
                    }
                    if (!probed) {
                        a.extraCount = 0;
                        fires(item, a);
                        probed = true;
                    }
                    b.extraCount = 0;
                    fires(static_cast<std::uint32_t>(other), b);
                    if (sameProbe(b, a)) {
                        seen = true;
                        break;
                    }
                }
                if (!seen) {
                    table[s] = e - from + 1;
                    firstBits[item / 64] |= std::uint64_t(1) << (item % 64);
                    ++m_swept;
                }
            }
        }
        giveScratchSlots(std::move(entries));
        for (std::size_t w = 0; w < firstBits.size(); ++w) {
            for (std::uint64_t bitsLeft = firstBits[w]; bitsLeft != 0; bitsLeft &= bitsLeft - 1) {
                onFirst(64 * w + static_cast<std::size_t>(__builtin_ctzll(bitsLeft)));
            }
        }
    }
    std::size_t size() const noexcept { return m_reps.size() + m_swept; } // distinct vertices seen

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
    bool samePoint(std::size_t rep, std::size_t point) const noexcept;
    bool sameProbe(const Probe& a, const Probe& b) const noexcept
    {
        return a.extraCount == b.extraCount &&
               std::equal(a.extra.begin(), a.extra.begin() + a.extraCount, b.extra.begin()) &&
               samePoint(a.point, b.point);
    }
    bool insert(std::uint64_t hash, const Probe& probe); // true: a new vertex
    bool insertMany(std::uint64_t hash, std::size_t point, const std::uint32_t* extra,
                    std::size_t extraCount);
    void reserve(std::size_t vertices);
    void grow();
    static constexpr std::uint64_t kEmptySlot = ~std::uint64_t(0);

    const Mesh& m_mesh;
    bool m_pool;
    std::vector<std::uint64_t> m_slots; // (hash >> 32) << 32 | rep; kEmpty when free
    std::vector<std::uint64_t> m_spare; // the table before the last grow (its memory reused)
    std::size_t m_mask = 0;
    std::vector<Rep> m_reps;
    std::vector<std::uint32_t> m_extra; // the reps' extra values (bits), in order
    bool m_owns = false;                // the arrays are this thread's scratch
    std::size_t m_maxReps = 0;          // at most one vertex per point or corner
    std::size_t m_swept = 0;            // vertices a sweep() found (it keeps no reps)
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
