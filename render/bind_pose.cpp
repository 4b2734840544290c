#include "render/bind_pose.h"

#include "core/model/rotation.h"

namespace rigscope::render {

namespace {

// A parent-relative transform; the rotation (Euler or quaternion) converted in double.
Eigen::Affine3f localOf(const core::Vec3& p, const core::Mat3d& r)
{
    Eigen::Affine3f l = Eigen::Affine3f::Identity();
    l.linear() = r.cast<float>();
    l.translation() = p;
    return l;
}

Eigen::Affine3f modelMatrix(const core::Vec3& p, const core::Mat3& axes)
{
    Eigen::Affine3f w = Eigen::Affine3f::Identity();
    w.linear() = axes;
    w.translation() = p;
    return w;
}

} // namespace

std::vector<Eigen::Affine3f> bindWorld(const core::Skeleton& s)
{
    std::vector<Eigen::Affine3f> world(s.size(), Eigen::Affine3f::Identity());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.bindKind == core::PoseKind::ModelMatrix) {
            const core::Mat3 axes = i < s.bindAxes.size() ? s.bindAxes[i] : core::Mat3::Identity();
            const core::Vec3 p =
                i < s.bindPositions.size() ? s.bindPositions[i] : core::Vec3::Zero();
            world[i] = modelMatrix(p, axes);
            continue;
        }
        const core::Vec3 p = i < s.bindPositions.size() ? s.bindPositions[i] : core::Vec3::Zero();
        const Eigen::Affine3f local = localOf(p, core::bindRotationD(s, i));
        const core::JointIndex parent = s.parents[i];
        world[i] = parent >= 0 && static_cast<std::size_t>(parent) < i
                       ? world[static_cast<std::size_t>(parent)] * local
                       : local;
    }
    return world;
}

std::vector<Eigen::Affine3f> animatedWorld(const core::Skeleton& s, const core::Animation& anim,
                                           std::size_t frame)
{
    std::vector<Eigen::Affine3f> world = bindWorld(s);
    if (frame >= anim.frameCount() || anim.jointCount != s.size()) {
        return world;
    }
    for (std::size_t i = 0; i < s.size(); ++i) {
        const std::size_t k = anim.key(frame, i);
        if (anim.kind == core::PoseKind::ModelMatrix) {
            if (k < anim.positions.size() && k < anim.axes.size()) {
                world[i] = modelMatrix(anim.positions[k], anim.axes[k]);
            }
            continue;
        }
        const std::size_t rotations = anim.kind == core::PoseKind::LocalQuaternion
                                          ? anim.quaternions.size()
                                          : anim.rotations.size();
        if (k >= anim.positions.size() || k >= rotations) {
            continue;
        }
        const Eigen::Affine3f local = localOf(anim.positions[k], core::keyRotationD(anim, k));
        const core::JointIndex parent = s.parents[i];
        world[i] = parent >= 0 && static_cast<std::size_t>(parent) < i
                       ? world[static_cast<std::size_t>(parent)] * local
                       : local;
    }
    return world;
}

} // namespace rigscope::render
