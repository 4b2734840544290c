#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "core/pose/pose_types.h"

namespace rigscope::core {

// Linear blend skinning: p' = sum w * skin[j] * p / sum w, n' = normalise(sum w * linear(skin[j])
// * n). Each vertex's weights are divided by their sum, as studiomdl normalises compiled weights
// and Blender's armature deform does (docs/architecture.md "Weights"); a non-finite weight is
// skipped. Influences are CSR per vertex (any number of links; see effective_weights.h). A vertex
// with no usable influence is copied unchanged (identity). [begin, end) selects a vertex range so
// callers can split the work across threads; the default is every vertex.
struct SkinJob {
    std::span<const SkinMatrix> skin{};       // in: per joint
    std::span<const std::uint32_t> offsets{}; // in: vertices + 1, monotone
    std::span<const JointIndex> joints{};     // in: < skin.size()
    std::span<const float> weights{};         // in: same size as joints
    std::span<const Vec3> positions{};        // in: bind space (after morphs)
    std::span<const Vec3> normals{};          // in: empty, or one per vertex
    std::span<Vec3> outPositions{};           // out: one per vertex
    std::span<Vec3> outNormals{};             // out: same size as normals
    std::span<Mat3> outLinear{};              // out: empty, or per vertex the blended 3x3
    std::size_t begin = 0;
    std::size_t end = std::numeric_limits<std::size_t>::max(); // clamped to the vertex count
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept; // false, output untouched, if invalid
};

} // namespace rigscope::core
