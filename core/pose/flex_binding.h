#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace rigscope::core {

// A VTA's shapes mapped from VTA id space onto the vertices the caller skins, as MorphJob
// wants them (CSR per shape). Built once per attach.
struct FlexTargets {
    std::vector<std::string> names;          // one per shape
    std::vector<std::uint32_t> shapeOffsets; // shapes + 1
    std::vector<std::uint32_t> targets;      // vertex index per delta
    std::vector<Vec3> deltaPositions;
    std::vector<Vec3> deltaNormals;
    bool direct = false;           // ids were 3t+c and matched their corners exactly
    std::size_t unmatchedBase = 0; // base vertices with no corner within 0.15
    std::size_t shapeCount() const noexcept { return names.size(); }
};

// FORMATS.md 1.6 matching: ids 0..3T-1 whose base positions equal their corners (max-abs
// <= 1e-4) map directly; otherwise each base id maps to every corner at the same position, or
// failing that the nearest corner within 0.15. cornerVertex maps a mesh corner to the vertex
// being skinned (empty: corner c is vertex c, as for SMD points).
FlexTargets bindFlexShapes(const Mesh& reference, const Model& vta,
                           std::span<const std::uint32_t> cornerVertex = {});

} // namespace rigscope::core
