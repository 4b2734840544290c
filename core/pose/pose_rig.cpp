#include "core/pose/pose_rig.h"

#include <algorithm>

#include "core/pose/euler_to_local.h"
#include "core/pose/local_to_model.h"
#include "core/pose/model_to_local.h"
#include "core/pose/morph_job.h"
#include "core/pose/skin_job.h"
#include "core/pose/skin_matrices_job.h"

namespace rigscope::core {

PoseRig makePoseRig(const Skeleton& skeleton)
{
    PoseRig rig;
    const std::size_t n = skeleton.size();
    rig.parents = skeleton.parents;
    rig.bindLocal.assign(n, Xform::Identity());
    rig.bindModel.assign(n, Xform::Identity());
    rig.inverseBind.assign(n, Xform::Identity());
    if (skeleton.bindKind == PoseKind::LocalQuaternion) {
        if (skeleton.bindPositions.size() == n && skeleton.bindQuaternions.size() == n) {
            QuaternionToLocalJob{skeleton.bindPositions, skeleton.bindQuaternions, rig.bindLocal}
                .run();
        }
        LocalToModelJob{.parents = rig.parents, .local = rig.bindLocal, .model = rig.bindModel}
            .run();
    } else if (skeleton.bindKind == PoseKind::LocalEulerXYZ) {
        if (skeleton.bindPositions.size() == n && skeleton.bindRotations.size() == n) {
            EulerToLocalJob{skeleton.bindPositions, skeleton.bindRotations, rig.bindLocal}.run();
        }
        LocalToModelJob{.parents = rig.parents, .local = rig.bindLocal, .model = rig.bindModel}
            .run();
    } else {
        if (skeleton.bindPositions.size() == n && skeleton.bindAxes.size() == n) {
            AxesToModelJob{skeleton.bindPositions, skeleton.bindAxes, rig.bindModel}.run();
        }
        ModelToLocalJob{rig.parents, rig.bindModel, rig.bindLocal}.run();
    }
    for (std::size_t j = 0; j < n; ++j) {
        rig.inverseBind[j] = rig.bindModel[j].inverse(Eigen::Affine);
    }
    return rig;
}

SkinTarget makeSkinTarget(const Mesh& mesh, std::size_t jointCount, const WeldedMesh& welded,
                          Profile profile, WeightView view)
{
    SkinTarget t;
    t.positions = welded.positions;
    t.normals = welded.normals;
    t.influences =
        remapInfluences(effectiveInfluences(mesh, jointCount, profile, view), welded.vertexPoint);
    return t;
}

SkinTarget makePointSkinTarget(const Mesh& mesh, std::size_t jointCount, Profile profile,
                               WeightView view)
{
    SkinTarget t;
    t.positions = mesh.pointPositions;
    bool pointsAreCorners =
        mesh.cornerCount() == mesh.pointCount() && mesh.cornerNormals.size() == mesh.cornerCount();
    for (std::size_t c = 0; pointsAreCorners && c < mesh.cornerCount(); ++c) {
        pointsAreCorners = mesh.cornerPoints[c] == c;
    }
    if (pointsAreCorners) {
        t.normals = mesh.cornerNormals;
    }
    t.influences = effectiveInfluences(mesh, jointCount, profile, view);
    return t;
}

bool evaluatePose(const PoseRig& rig, const Animation* anim, const AnimationBinding* binding,
                  FrameSample at, Interpolation mode, PoseBuffers& buffers) noexcept
{
    if (anim == nullptr || binding == nullptr || anim->frameCount() == 0) {
        if (buffers.local.size() != rig.jointCount() || buffers.model.size() != rig.jointCount()) {
            return false;
        }
        std::copy(rig.bindLocal.begin(), rig.bindLocal.end(), buffers.local.begin());
        std::copy(rig.bindModel.begin(), rig.bindModel.end(), buffers.model.begin());
        return true;
    }
    if (!makeSampleJob(*anim, at, mode, buffers.sampled).run()) {
        return false;
    }
    RetargetJob retarget{.kind = binding->kind,
                         .parents = rig.parents,
                         .animJointOfRef = binding->animJointOfRef,
                         .bindLocal = rig.bindLocal,
                         .sampled = buffers.sampled,
                         .viaWorld = binding->viaWorld,
                         .animParents = binding->animParents,
                         .animModel = buffers.animModel,
                         .local = buffers.local,
                         .model = buffers.model};
    if (!retarget.run()) {
        return false;
    }
    if (isParentRelative(binding->kind)) {
        return LocalToModelJob{
            .parents = rig.parents, .local = buffers.local, .model = buffers.model}
            .run();
    }
    return ModelToLocalJob{rig.parents, buffers.model, buffers.local}.run();
}

namespace {

bool flexActive(const FlexTargets* flex, const PoseBuffers& buffers) noexcept
{
    if (flex == nullptr || flex->shapeCount() == 0 ||
        buffers.flexWeights.size() != flex->shapeCount()) {
        return false;
    }
    return std::any_of(buffers.flexWeights.begin(), buffers.flexWeights.end(),
                       [](float w) { return w != 0.0f; });
}

} // namespace

bool prepareSkin(const PoseRig& rig, const SkinTarget& target, const FlexTargets* flex,
                 PoseBuffers& buffers) noexcept
{
    if (!SkinMatricesJob{buffers.model, rig.inverseBind, buffers.skin}.run()) {
        return false;
    }
    if (!flexActive(flex, buffers)) {
        return true;
    }
    MorphJob morph{.basePositions = target.positions,
                   .baseNormals = target.normals,
                   .shapeWeights = buffers.flexWeights,
                   .shapeOffsets = flex->shapeOffsets,
                   .targets = flex->targets,
                   .deltaPositions = flex->deltaPositions,
                   .deltaNormals = target.normals.empty()
                                       ? std::span<const Vec3>{}
                                       : std::span<const Vec3>(flex->deltaNormals),
                   .outPositions = buffers.morphedPositions,
                   .outNormals = buffers.morphedNormals};
    return morph.run();
}

bool skinRange(const SkinTarget& target, const FlexTargets* flex, PoseBuffers& buffers,
               std::size_t begin, std::size_t end) noexcept
{
    const bool morphed = flexActive(flex, buffers);
    SkinJob skin{.skin = buffers.skin,
                 .offsets = target.influences.offsets,
                 .joints = target.influences.joints,
                 .weights = target.influences.weights,
                 .positions = morphed ? std::span<const Vec3>(buffers.morphedPositions)
                                      : std::span<const Vec3>(target.positions),
                 .normals = morphed ? std::span<const Vec3>(buffers.morphedNormals)
                                    : std::span<const Vec3>(target.normals),
                 .outPositions = buffers.positions,
                 .outNormals = buffers.normals,
                 .begin = begin,
                 .end = end};
    return skin.run();
}

bool evaluateSkin(const PoseRig& rig, const SkinTarget& target, const FlexTargets* flex,
                  PoseBuffers& buffers) noexcept
{
    return prepareSkin(rig, target, flex, buffers) &&
           skinRange(target, flex, buffers, 0, target.vertexCount());
}

} // namespace rigscope::core
