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
    for (std::size_t r = 0; r < reference.size(); ++r) {
        if (b.animJointOfRef[r] == kNoJoint) {
            b.missingInAnimation.push_back(static_cast<JointIndex>(r));
        }
    }
    return b;
}

bool RetargetJob::validate() const noexcept
{
    const std::size_t n = parents.size();
    if (animJointOfRef.size() != n || bindLocal.size() != n) {
        return false;
    }
    if ((kind == PoseKind::LocalEulerXYZ ? local.size() : model.size()) != n) {
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
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const JointIndex a = animJointOfRef[i];
        if (kind == PoseKind::LocalEulerXYZ) {
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

} // namespace rigscope::core
