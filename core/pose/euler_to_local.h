#pragma once

#include <span>

#include "core/model/rotation.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// SMD / SMDX pose lines -> local transforms: local[i] = T(positions[i]) * R(rotations[i]), R the
// Euler convention of core/model/rotation.h (eulerToMatrix).
struct EulerToLocalJob {
    std::span<const Vec3> positions{}; // in: parent-relative (model space for roots)
    std::span<const Vec3> rotations{}; // in: Euler XYZ radians
    std::span<Xform> local{};          // out: same size
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept; // false, output untouched, if invalid
};

// DMX transforms -> local transforms: local[i] = T(positions[i]) * R(quaternions[i]), the
// quaternion (x, y, z, w) normalised in double.
struct QuaternionToLocalJob {
    std::span<const Vec3> positions{};   // in: parent-relative (model space for roots)
    std::span<const Vec4> quaternions{}; // in: (x, y, z, w)
    std::span<Xform> local{};            // out: same size
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept; // false, output untouched, if invalid
};

} // namespace rigscope::core
