#pragma once

#include <cstddef>
#include <span>

#include "core/model/animation.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// Two frames and a blend factor: frame0 at t = 0, frame1 at t = 1.
struct FrameSample {
    std::size_t frame0 = 0;
    std::size_t frame1 = 0;
    float t = 0.0f;
};

// A fractional 0-based frame index, clamped to [0, frameCount - 1].
FrameSample frameAtIndex(const Animation& anim, double index) noexcept;
// Seconds since the first frame: file time = times[0] + seconds * fps. Across a `time` gap the
// previous pose is held and only the last unit before the next key blends (FORMATS.md 1.7).
FrameSample frameAtTime(const Animation& anim, double seconds) noexcept;

// Samples every joint of an animation. Euler and quaternion animations give local transforms
// (T * R), CoD animations model-space transforms [X Y Z | OFFSET]. Stepped uses frame0 when
// t < 1. Quaternion keys blend by slerp in Linear and Slerp modes alike.
struct SampleJob {
    PoseKind kind = PoseKind::LocalEulerXYZ;
    std::size_t jointCount = 0;
    std::span<const Vec3> positions{};   // in: keys[frame * jointCount + joint]
    std::span<const Vec3> rotations{};   // in: Euler kind
    std::span<const Vec4> quaternions{}; // in: quaternion kind (x, y, z, w)
    std::span<const Mat3> axes{};        // in: matrix kind
    FrameSample at;
    Interpolation mode = Interpolation::Stepped;
    std::span<Xform> out{}; // out: jointCount
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept;
};

SampleJob makeSampleJob(const Animation& anim, FrameSample at, Interpolation mode,
                        std::span<Xform> out) noexcept;

} // namespace rigscope::core
