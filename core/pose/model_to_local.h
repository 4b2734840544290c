#pragma once

#include <span>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// CoD OFFSET + X/Y/Z lines -> model-space transforms W = [X Y Z | OFFSET] (axes are columns).
struct AxesToModelJob {
    std::span<const Vec3> positions{}; // in: model-space OFFSET
    std::span<const Mat3> axes{};      // in: columns = local X, Y, Z in model space
    std::span<Xform> model{};          // out: same size
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept;
};

// Model space -> parent-relative: local[i] = model[parent]^-1 * model[i] (general inverse, never
// orthonormalised); roots keep model[i]. `model` and `local` must not overlap.
struct ModelToLocalJob {
    std::span<const JointIndex> parents{}; // in: parents[i] < i
    std::span<const Xform> model{};        // in
    std::span<Xform> local{};              // out
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept;
};

} // namespace rigscope::core
