#pragma once

#include "core/diag/diagnostic.h"
#include "core/model/model.h"

namespace rigscope::core {

// VTA -> reference matching (FORMATS.md §1.6 "Rec. matching"):
// 1. base ids exactly 0..3T-1 and each base position equal to its corner (max-abs <= 1e-4):
//    base id i maps to corner i;
// 2. otherwise each base vertex maps to every corner at the same position (<= 1e-4), else to
//    the nearest corner within 0.15 (a spatial hash grid, not O(n*m));
// 3. no corner within 0.15: the base vertex is unmatched.
inline constexpr float kFlexSamePosition = 1e-4f;
inline constexpr float kFlexMatchRadius = 0.15f;

// One shape as sparse per-corner deltas. For SMD references corner c is also point c.
struct FlexCornerShape {
    std::string name;
    std::vector<std::uint32_t> corners;
    std::vector<Vec3> deltaPositions;
    std::vector<Vec3> deltaNormals;
};

struct FlexMatchResult {
    bool direct = false; // rule 1 applied
    // CSR: base vertex i (index into vertexFrames[0]) -> baseCorners[baseOffsets[i]..[i+1]).
    std::vector<std::uint32_t> baseOffsets;
    std::vector<std::uint32_t> baseCorners;
    std::size_t unmatched = 0;
    std::size_t firstUnmatched = SIZE_MAX; // base vertex index
    std::vector<FlexCornerShape> shapes;   // one per vertexFrames[k], k >= 1
};

// Matches `vta`'s base frame to `reference`'s corners and spreads every shape's deltas onto the
// matched corners. With a sink, reports xref.vta-vertex-count (base count != corner count) and
// flex.unmatched-vertices, at the VTA's lines (the sink's file should be the VTA).
FlexMatchResult matchFlex(const Model& vta, const Model& reference, DiagnosticSink* sink = nullptr);

} // namespace rigscope::core
