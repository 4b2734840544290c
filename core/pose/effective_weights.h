#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/diag/profile.h"
#include "core/model/mesh.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

struct Link {
    JointIndex joint = kNoJoint;
    float weight = 0.0f;
    bool operator==(const Link&) const = default;
};

// One point's raw skinning, as the model stores it.
struct RawLinks {
    std::span<const JointIndex> joints{};
    std::span<const float> weights{};
    LinkState state = LinkState::List;
    JointIndex parent = kNoJoint; // the SMD parent-bone field; kNoJoint for CoD pool vertices
};

// CHECKS.md section 5. Each function clears `out` and fills it; `out` keeps its capacity, so a
// caller reusing one vector allocates only while it grows. `fallback` is the joint a rigid
// vertex binds to when the parent field is kNoJoint (CoD: bone 0); kNoJoint = no influence.
//
// Authored: links as written, duplicates merged (first occurrence keeps its place), NaN,
// negative and zero links left out, divided by the sum. No links, links 0, or nothing positive
// left: the parent field at 1.0.
void authoredLinks(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out);
// Raw links with duplicates summed into their first occurrence, in file order; nothing left out
// (negative, zero and NaN weights stay), whatever the link state. What the weight checks read.
void mergedLinks(const RawLinks& raw, std::vector<Link>& out);
// What the cull and the clip of compiledSourceLinks did, for the weight checks.
struct CompiledLinkStats {
    std::size_t afterCull = 0;  // links left after the cull, before the clip
    float droppedWeight = 0.0f; // share of the weight the clip dropped (0 when nothing was)
};
// Source / source256 studiomdl SortAndBalanceBones (ep1 mrmsupport.cpp), the one copy: merge,
// bubble sort (strictly greater swaps), cull trailing raw < cull (0.05) while more than one
// remains, clip to maxLinks (3), renormalise (t <= 0: 1/count; NaN passes through).
void compiledSourceLinks(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out,
                         float cull = 0.05f, std::size_t maxLinks = 3,
                         CompiledLinkStats* stats = nullptr);
// GoldSrc studiomdl: the parent field at 1.0, links never read.
void compiledGoldSrcLinks(const RawLinks& raw, JointIndex fallback, std::vector<Link>& out);

// Dispatches on view and profile: Compiled + goldsrc / source / source256 (Auto = source) use
// the compilers above; cod has no compiled view (authored).
void effectiveLinks(const RawLinks& raw, Profile profile, WeightView view, JointIndex fallback,
                    std::vector<Link>& out);

// Effective influences of every mesh point, CSR (offsets: points + 1). Computed once per model
// and profile, never per frame.
struct Influences {
    std::vector<std::uint32_t> offsets;
    std::vector<JointIndex> joints;
    std::vector<float> weights;
    std::size_t vertexCount() const noexcept { return offsets.empty() ? 0 : offsets.size() - 1; }
    std::size_t maxLinks() const noexcept;
};

RawLinks rawLinks(const Mesh& mesh, std::size_t point) noexcept;
// jointCount: skeleton size (rigid CoD vertices fall back to joint 0 when it is > 0).
Influences effectiveInfluences(const Mesh& mesh, std::size_t jointCount, Profile profile,
                               WeightView view);
// Per render vertex: vertexPoint[v] is the mesh point vertex v takes its skinning from.
Influences remapInfluences(const Influences& perPoint, std::span<const std::uint32_t> vertexPoint);

} // namespace rigscope::core
