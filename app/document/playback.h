#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "core/model/model.h"
#include "core/pose/animation_binding.h"
#include "core/pose/pose_buffers.h"
#include "core/pose/pose_rig.h"

namespace rigscope::app {

// A document's playhead: the animation shown (-1 = rest pose), its frame, the fraction towards
// the next frame while interpolating, and the pose there. Plain state: Document owns one and
// turns what its setters report into signals; the timeline's timer drives it through Document.
class Playback {
public:
    int animation() const { return m_animation; }
    int frame() const { return m_frame; }
    bool interpolate() const { return m_interpolate; }
    double playhead() const { return double(m_frame) + m_phase; }

    // Another animation (already checked by the caller), from its first frame. False when it
    // is the one shown.
    bool setAnimation(int index);
    // A whole frame, clamped to `frameCount`. True when the pose changed.
    bool setFrame(int frame, int frameCount);
    // A fractional frame index, clamped; the fraction counts only while interpolating. True
    // when the pose changed.
    bool setPlayhead(double index, int frameCount);
    // UX "Interpolate". `poseChanged` is set when turning it off moved the pose back onto the
    // frame the playhead was in. False when it was already so.
    bool setInterpolate(bool on, bool& poseChanged);
    // After a reload: the same animation (or the rest pose, -1) at `frame`, not interpolated
    // between frames.
    void restore(int animation, int frame);

    // Model-space joint matrices at the playhead; empty when the pose cannot be evaluated.
    std::vector<Eigen::Affine3f> pose(const core::PoseRig& rig, const core::Animation& anim,
                                      const core::AnimationBinding& binding);
    // The same at another playhead (a frame index, fractional while interpolating), leaving
    // the playhead where it is: what the jiggle bones step through.
    std::vector<Eigen::Affine3f> poseAt(const core::PoseRig& rig, const core::Animation& anim,
                                        const core::AnimationBinding& binding, double index);
    // Bounds of the joints over every frame of `anim`, padded by how far the mesh (`meshBounds`)
    // reaches past the bind skeleton: what frame-all covers when the animation carries the
    // model away.
    static core::Bounds bounds(const core::PoseRig& rig, const core::Animation& anim,
                               const core::AnimationBinding& binding, int frameCount,
                               const core::Bounds& meshBounds);

private:
    int m_animation = -1;
    int m_frame = 0;
    double m_phase = 0; // 0 <= m_phase < 1, only while m_interpolate
    bool m_interpolate = false;
    core::PoseBuffers m_buffers;
};

} // namespace rigscope::app
