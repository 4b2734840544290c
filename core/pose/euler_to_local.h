#pragma once

#include <span>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// SMD rotation: Euler XYZ in radians, R = Rz(z) * Ry(y) * Rx(x) (column vectors, X first).
Mat3 eulerXYZToMatrix(const Vec3& radians) noexcept;

// SMD / SMDX pose lines -> local transforms: local[i] = T(positions[i]) * R(rotations[i]).
struct EulerToLocalJob {
    std::span<const Vec3> positions{}; // in: parent-relative (model space for roots)
    std::span<const Vec3> rotations{}; // in: Euler XYZ radians
    std::span<Xform> local{};          // out: same size
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept; // false, output untouched, if invalid
};

} // namespace rigscope::core
