#include "app/document/playback.h"

#include <algorithm>
#include <cmath>

#include "core/pose/sample.h"

namespace rigscope::app {

bool Playback::setAnimation(int index)
{
    if (index == m_animation) {
        return false;
    }
    m_animation = index;
    m_frame = 0;
    m_phase = 0;
    return true;
}

bool Playback::setFrame(int frame, int frameCount)
{
    frame = std::clamp(frame, 0, std::max(frameCount, 1) - 1);
    if (frame == m_frame && m_phase == 0) {
        return false;
    }
    m_frame = frame;
    m_phase = 0;
    return true;
}

bool Playback::setPlayhead(double index, int frameCount)
{
    const double last = double(std::max(frameCount, 1) - 1);
    index = std::isfinite(index) ? std::clamp(index, 0.0, last) : 0.0;
    const double whole = std::floor(index);
    const int frame = int(whole);
    const double phase = m_interpolate ? index - whole : 0.0;
    if (frame == m_frame && phase == m_phase) {
        return false;
    }
    m_frame = frame;
    m_phase = phase;
    return true;
}

bool Playback::setInterpolate(bool on, bool& poseChanged)
{
    poseChanged = false;
    if (on == m_interpolate) {
        return false;
    }
    m_interpolate = on;
    if (!on && m_phase != 0) {
        m_phase = 0; // back on the frame the playhead was in
        poseChanged = true;
    }
    return true;
}

void Playback::restore(int animation, int frame)
{
    m_animation = animation;
    m_frame = animation >= 0 ? std::max(frame, 0) : 0;
    m_phase = 0;
}

std::vector<Eigen::Affine3f> Playback::pose(const core::PoseRig& rig, const core::Animation& anim,
                                            const core::AnimationBinding& binding)
{
    return poseAt(rig, anim, binding, playhead());
}

std::vector<Eigen::Affine3f> Playback::poseAt(const core::PoseRig& rig, const core::Animation& anim,
                                              const core::AnimationBinding& binding, double index)
{
    m_buffers.resize(rig.jointCount(), anim.jointCount, 0, false, 0);
    const core::FrameSample at = core::frameAtIndex(anim, index);
    const core::Interpolation mode =
        m_interpolate ? core::Interpolation::Slerp : core::Interpolation::Stepped;
    if (!core::evaluatePose(rig, &anim, &binding, at, mode, m_buffers)) {
        return {};
    }
    return {m_buffers.model.begin(), m_buffers.model.end()};
}

core::Bounds Playback::bounds(const core::PoseRig& rig, const core::Animation& anim,
                              const core::AnimationBinding& binding, int frameCount,
                              const core::Bounds& meshBounds)
{
    core::Bounds out;
    if (rig.jointCount() == 0) {
        return out;
    }
    auto grow = [](core::Bounds& b, const core::Vec3& p) { b.grow(p); };
    // How far the mesh reaches past the bind skeleton, per side.
    core::Bounds bind;
    for (const auto& x : rig.bindModel) {
        grow(bind, core::Vec3(x.translation()));
    }
    core::Vec3 padMin = core::Vec3::Zero(), padMax = core::Vec3::Zero();
    if (meshBounds.valid && bind.valid) {
        padMin = (bind.min - meshBounds.min).cwiseMax(0.0f);
        padMax = (meshBounds.max - bind.max).cwiseMax(0.0f);
    }
    core::PoseBuffers buffers;
    buffers.resize(rig.jointCount(), anim.jointCount, 0, false, 0);
    for (int f = 0; f < frameCount; ++f) {
        if (!core::evaluatePose(rig, &anim, &binding, core::frameAtIndex(anim, double(f)),
                                core::Interpolation::Stepped, buffers)) {
            continue;
        }
        for (const auto& x : buffers.model) {
            grow(out, core::Vec3(x.translation()));
        }
    }
    if (out.valid) {
        out.min -= padMin;
        out.max += padMax;
    }
    return out;
}

} // namespace rigscope::app
