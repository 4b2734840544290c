#include "core/pose/sample.h"

#include <algorithm>
#include <cmath>

#include "core/pose/euler_to_local.h"

namespace rigscope::core {

FrameSample frameAtIndex(const Animation& anim, double index) noexcept
{
    const std::size_t n = anim.frameCount();
    FrameSample s;
    if (n == 0 || !(index > 0.0)) {
        return s;
    }
    const double last = static_cast<double>(n - 1);
    if (index >= last) {
        s.frame0 = s.frame1 = n - 1;
        return s;
    }
    const double base = std::floor(index);
    s.frame0 = static_cast<std::size_t>(base);
    s.frame1 = s.frame0 + 1;
    s.t = static_cast<float>(index - base);
    return s;
}

FrameSample frameAtTime(const Animation& anim, double seconds) noexcept
{
    const std::size_t n = anim.frameCount();
    FrameSample s;
    if (n == 0) {
        return s;
    }
    const double x = anim.times.front() + seconds * static_cast<double>(anim.fps);
    if (!(x > anim.times.front())) {
        return s;
    }
    if (x >= anim.times.back()) {
        s.frame0 = s.frame1 = n - 1;
        return s;
    }
    // last frame whose time is <= x
    const auto it = std::upper_bound(anim.times.begin(), anim.times.end(), x);
    s.frame0 = static_cast<std::size_t>(it - anim.times.begin()) - 1;
    s.frame1 = s.frame0 + 1;
    const double blendStart = std::max(anim.times[s.frame0], anim.times[s.frame1] - 1.0);
    const double span = anim.times[s.frame1] - blendStart;
    s.t = span > 0.0 ? static_cast<float>(std::clamp((x - blendStart) / span, 0.0, 1.0)) : 0.0f;
    return s;
}

bool SampleJob::validate() const noexcept
{
    const std::size_t need = std::max(at.frame0, at.frame1) * jointCount + jointCount;
    if (out.size() != jointCount || positions.size() < need) {
        return false;
    }
    if (!(at.t >= 0.0f && at.t <= 1.0f)) {
        return false;
    }
    switch (kind) {
    case PoseKind::LocalEulerXYZ:
        return rotations.size() >= need;
    case PoseKind::LocalQuaternion:
        return quaternions.size() >= need;
    case PoseKind::ModelMatrix:
        break;
    }
    return axes.size() >= need;
}

bool SampleJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    const bool stepped = mode == Interpolation::Stepped || at.t == 0.0f || at.frame0 == at.frame1;
    const std::size_t f = stepped && at.t >= 1.0f ? at.frame1 : at.frame0;
    const std::size_t k0 = (stepped ? f : at.frame0) * jointCount;
    const std::size_t k1 = at.frame1 * jointCount;
    const float t = at.t;
    for (std::size_t j = 0; j < jointCount; ++j) {
        Xform& x = out[j];
        if (stepped) {
            x.translation() = positions[k0 + j];
            x.linear() =
                kind == PoseKind::LocalEulerXYZ ? eulerToMatrix(rotations[k0 + j])
                : kind == PoseKind::LocalQuaternion
                    ? Mat3(quaternionOf(quaternions[k0 + j]).toRotationMatrix().cast<float>())
                    : axes[k0 + j];
        } else {
            x.translation() = (1.0f - t) * positions[k0 + j] + t * positions[k1 + j];
            Mat3 a0, a1;
            if (kind == PoseKind::LocalQuaternion) {
                const Quatd q0 = quaternionOf(quaternions[k0 + j]);
                const Quatd q1 = quaternionOf(quaternions[k1 + j]);
                x.linear() = q0.slerp(static_cast<double>(t), q1).toRotationMatrix().cast<float>();
                x.makeAffine();
                continue;
            }
            if (kind == PoseKind::LocalEulerXYZ) {
                if (mode == Interpolation::Linear) {
                    x.linear() =
                        eulerToMatrix((1.0f - t) * rotations[k0 + j] + t * rotations[k1 + j]);
                    x.makeAffine();
                    continue;
                }
                a0 = eulerToMatrix(rotations[k0 + j]);
                a1 = eulerToMatrix(rotations[k1 + j]);
            } else {
                a0 = axes[k0 + j];
                a1 = axes[k1 + j];
                if (mode == Interpolation::Linear) {
                    x.linear() = (1.0f - t) * a0 + t * a1;
                    x.makeAffine();
                    continue;
                }
            }
            // Slerp: the rotation of each key (CoD matrices are taken as rotations here).
            const Eigen::Quaternionf q0(a0);
            const Eigen::Quaternionf q1(a1);
            x.linear() = q0.slerp(t, q1).toRotationMatrix();
        }
        x.makeAffine();
    }
    return true;
}

SampleJob makeSampleJob(const Animation& anim, FrameSample at, Interpolation mode,
                        std::span<Xform> out) noexcept
{
    SampleJob job;
    job.kind = anim.kind;
    job.jointCount = anim.jointCount;
    job.positions = anim.positions;
    job.rotations = anim.rotations;
    job.quaternions = anim.quaternions;
    job.axes = anim.axes;
    job.at = at;
    job.mode = mode;
    job.out = out;
    return job;
}

} // namespace rigscope::core
