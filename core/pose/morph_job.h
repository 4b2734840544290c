#pragma once

#include <cstdint>
#include <span>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// Flex: out = base + sum over shapes of weight * sparse deltas, in bind space (run it before
// SkinJob). Shapes are CSR: shapeOffsets[s]..shapeOffsets[s+1] index targets / deltas. Shapes
// with weight 0 cost nothing; the base copy costs one pass over the vertices.
struct MorphJob {
    std::span<const Vec3> basePositions{};         // in: one per vertex
    std::span<const Vec3> baseNormals{};           // in: empty, or one per vertex
    std::span<const float> shapeWeights{};         // in: one per shape
    std::span<const std::uint32_t> shapeOffsets{}; // in: shapes + 1
    std::span<const std::uint32_t> targets{};      // in: vertex index per delta
    std::span<const Vec3> deltaPositions{};        // in: one per target
    std::span<const Vec3> deltaNormals{};          // in: empty, or one per target
    std::span<Vec3> outPositions{};                // out: one per vertex
    std::span<Vec3> outNormals{};                  // out: same size as baseNormals
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept; // false, output untouched, if invalid
};

} // namespace rigscope::core
