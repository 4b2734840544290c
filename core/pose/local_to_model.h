#pragma once

#include <span>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// True when every parents[i] is kNoJoint or in [0, i).
bool parentsAreOrdered(std::span<const JointIndex> parents) noexcept;

// One forward pass: model[i] = model[parent] * local[i]; roots: root * local[i]. `local` and
// `model` may be the same buffer (each local is read before it is overwritten).
struct LocalToModelJob {
    std::span<const JointIndex> parents{}; // in: parents[i] < i
    std::span<const Xform> local{};        // in
    const Xform* root = nullptr;           // in: identity when null
    std::span<Xform> model{};              // out
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept; // false, output untouched, if invalid
};

} // namespace rigscope::core
