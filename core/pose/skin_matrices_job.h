#pragma once

#include <span>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// skin[j] = (model[j] * inverseBind[j]), top 3 rows. Run once per frame before SkinJob.
struct SkinMatricesJob {
    std::span<const Xform> model{};       // in: posed model space
    std::span<const Xform> inverseBind{}; // in: inverse of the bind model-space transforms
    std::span<SkinMatrix> skin{};         // out
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept;
};

} // namespace rigscope::core
