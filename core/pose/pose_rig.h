#pragma once

#include <vector>

#include "core/build/weld.h"
#include "core/diag/profile.h"
#include "core/model/model.h"
#include "core/pose/animation_binding.h"
#include "core/pose/effective_weights.h"
#include "core/pose/flex_binding.h"
#include "core/pose/pose_buffers.h"
#include "core/pose/sample.h"

namespace rigscope::core {

// What a reference skeleton needs per frame, derived once from its bind pose (as written).
struct PoseRig {
    std::vector<JointIndex> parents;
    std::vector<Xform> bindLocal;   // SMD: T * Rz*Ry*Rx; CoD: W_parent^-1 * W
    std::vector<Xform> bindModel;   // model space
    std::vector<Xform> inverseBind; // bindModel^-1 (general inverse)
    std::size_t jointCount() const noexcept { return parents.size(); }
};

PoseRig makePoseRig(const Skeleton& skeleton);

// The vertices that get skinned, with their effective influences (profile + view applied).
struct SkinTarget {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals; // empty when not skinned
    Influences influences;
    std::size_t vertexCount() const noexcept { return positions.size(); }
};

// Welded render vertices (WeldedMesh::vertexPoint gives each vertex its point's influences).
SkinTarget makeSkinTarget(const Mesh& mesh, std::size_t jointCount, const WeldedMesh& welded,
                          Profile profile, WeightView view);
// One vertex per mesh point. Normals come along when points are corners (SMD: point i is
// corner i); for a CoD pool they are left empty.
SkinTarget makePointSkinTarget(const Mesh& mesh, std::size_t jointCount, Profile profile,
                               WeightView view);

// Per-frame pose: sample `anim` (may be null: bind pose), retarget through `binding` and fill
// buffers.local and buffers.model. Allocates nothing. False if any job refused its input.
bool evaluatePose(const PoseRig& rig, const Animation* anim, const AnimationBinding* binding,
                  FrameSample at, Interpolation mode, PoseBuffers& buffers) noexcept;

// Per-frame skinning of buffers.model: skin matrices, flex (when `flex` has a non-zero weight in
// buffers.flexWeights) and linear blend skinning into buffers.positions / normals. The vertex
// range [begin, end) lets two threads share the skinning; the skin matrices and morphs are done
// by the call with begin == 0 only when `prepare` is true.
bool prepareSkin(const PoseRig& rig, const SkinTarget& target, const FlexTargets* flex,
                 PoseBuffers& buffers) noexcept;
bool skinRange(const SkinTarget& target, const FlexTargets* flex, PoseBuffers& buffers,
               std::size_t begin, std::size_t end) noexcept;
bool evaluateSkin(const PoseRig& rig, const SkinTarget& target, const FlexTargets* flex,
                  PoseBuffers& buffers) noexcept;

} // namespace rigscope::core
