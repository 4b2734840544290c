#include "render/bind_pose.h"

namespace rigscope::render {

namespace {

Eigen::Affine3f eulerLocal(const core::Vec3& p, const core::Vec3& r)
{
    Eigen::Affine3f l = Eigen::Affine3f::Identity();
    l.translate(p);
    l.rotate(Eigen::AngleAxisf(r.z(), Eigen::Vector3f::UnitZ()) *
             Eigen::AngleAxisf(r.y(), Eigen::Vector3f::UnitY()) *
             Eigen::AngleAxisf(r.x(), Eigen::Vector3f::UnitX()));
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
        const core::Vec3 r = i < s.bindRotations.size() ? s.bindRotations[i] : core::Vec3::Zero();
        const Eigen::Affine3f local = eulerLocal(p, r);
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
        if (k >= anim.positions.size() || k >= anim.rotations.size()) {
            continue;
        }
        const Eigen::Affine3f local = eulerLocal(anim.positions[k], anim.rotations[k]);
        const core::JointIndex parent = s.parents[i];
        world[i] = parent >= 0 && static_cast<std::size_t>(parent) < i
                       ? world[static_cast<std::size_t>(parent)] * local
                       : local;
    }
    return world;
}

} // namespace rigscope::render
