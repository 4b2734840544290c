#include "core/pose/animation_binding.h"

#include "core/pose/local_to_model.h"

namespace rigscope::core {

AnimationBinding bindAnimation(const Skeleton& reference, const Skeleton& animation, PoseKind kind)
{
    AnimationBinding b;
    b.kind = kind;
    b.animJointOfRef.assign(reference.size(), kNoJoint);
    b.refJointOfAnim.assign(animation.size(), kNoJoint);
    for (std::size_t a = 0; a < animation.size(); ++a) {
        const JointIndex r = reference.findByName(animation.names[a]);
        if (r == kNoJoint) {
            b.missingInReference.push_back(static_cast<JointIndex>(a));
            continue;
        }
        JointIndex& slot = b.animJointOfRef[static_cast<std::size_t>(r)];
        if (slot == kNoJoint) {
            slot = static_cast<JointIndex>(a);
            b.refJointOfAnim[a] = r;
        }
    }
    bool anyViaWorld = false;
    std::vector<std::uint8_t> viaWorld(reference.size(), 0);
    for (std::size_t r = 0; r < reference.size(); ++r) {
        const JointIndex a = b.animJointOfRef[r];
        if (a == kNoJoint) {
            b.missingInAnimation.push_back(static_cast<JointIndex>(r));
            continue;
        }
        const JointIndex pr = reference.parents[r];
        const JointIndex pa = animation.parents[static_cast<std::size_t>(a)];
        const bool same =
            pr == kNoJoint ? pa == kNoJoint
                           : b.animJointOfRef[static_cast<std::size_t>(pr)] == pa && pa != kNoJoint;
        viaWorld[r] = same ? 0 : 1;
        anyViaWorld = anyViaWorld || !same;
    }
    if (isParentRelative(kind) && anyViaWorld && parentsAreOrdered(animation.parents)) {
        b.viaWorld = std::move(viaWorld);
        b.animParents = animation.parents;
    }
    return b;
}

bool RetargetJob::validate() const noexcept
{
    const std::size_t n = parents.size();
    if (animJointOfRef.size() != n || bindLocal.size() != n) {
        return false;
    }
    if ((isParentRelative(kind) ? local.size() : model.size()) != n) {
        return false;
    }
    if (!viaWorld.empty() &&
        (viaWorld.size() != n || model.size() != n || animParents.size() != sampled.size() ||
         animModel.size() != sampled.size() || !parentsAreOrdered(animParents))) {
        return false;
    }
    for (JointIndex a : animJointOfRef) {
        if (a != kNoJoint && (a < 0 || static_cast<std::size_t>(a) >= sampled.size())) {
            return false;
        }
    }
    return parentsAreOrdered(parents);
}

bool RetargetJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    if (isParentRelative(kind) && !viaWorld.empty()) {
        runViaWorld();
        return true;
    }
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const JointIndex a = animJointOfRef[i];
        if (isParentRelative(kind)) {
            local[i] = a != kNoJoint ? sampled[static_cast<std::size_t>(a)] : bindLocal[i];
        } else if (a != kNoJoint) {
            model[i] = sampled[static_cast<std::size_t>(a)];
        } else if (parents[i] != kNoJoint) {
            model[i] = model[static_cast<std::size_t>(parents[i])] * bindLocal[i];
        } else {
            model[i] = bindLocal[i];
        }
    }
    return true;
}

// Euler keys where some bones hang under other parents in the animation: the animation's world
// transforms first, then the reference's in order (into `model`, which LocalToModelJob writes
// again the same), each re-parented bone's local taken from them.
void RetargetJob::runViaWorld() const noexcept
{
    for (std::size_t a = 0; a < sampled.size(); ++a) {
        const JointIndex p = animParents[a];
        animModel[a] =
            p == kNoJoint ? sampled[a] : animModel[static_cast<std::size_t>(p)] * sampled[a];
    }
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const JointIndex a = animJointOfRef[i];
        const JointIndex p = parents[i];
        if (a == kNoJoint) {
            local[i] = bindLocal[i];
        } else if (!viaWorld[i]) {
            local[i] = sampled[static_cast<std::size_t>(a)];
        } else if (p == kNoJoint) {
            local[i] = animModel[static_cast<std::size_t>(a)];
        } else {
            local[i] = model[static_cast<std::size_t>(p)].inverse(Eigen::Affine) *
                       animModel[static_cast<std::size_t>(a)];
        }
        model[i] = p == kNoJoint ? local[i] : model[static_cast<std::size_t>(p)] * local[i];
    }
}

} // namespace rigscope::core
