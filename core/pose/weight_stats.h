#pragma once

#include <cstdint>
#include <vector>

#include "core/diag/profile.h"
#include "core/model/mesh.h"

namespace rigscope::core {

// Per-point facts behind the viewer's weight views (UX.md `K`, CHECKS.md §5).
enum class WeightProblem : std::uint8_t {
    None,
    Unweighted, // no positive link and no bone to fall back to
    ZeroSum,    // links written, none positive (weights.zero-sum)
    NonFinite,  // a NaN or infinite weight (weights.nan)
};

struct WeightStats {
    // Links as written: duplicates merged, only positive finite weights counted. Rigid points
    // (9 fields, `links 0`) count 1 when they have a bone.
    std::vector<std::uint8_t> linkCount;
    // Links the profile's compiler would still have to drop: after the weight cull (source:
    // raw < 0.05, the heaviest always survives), the count is above `limit`.
    std::vector<std::uint8_t> overLimit;
    // L1 distance between the authored and compiled weight vectors, 0..2 (CHECKS.md §5
    // "weight change"; pose-free).
    std::vector<float> change;
    std::vector<WeightProblem> problem;
    std::size_t limit = 0; // weights per vertex the profile keeps; 0 = no limit (cod)
};

// `jointCount`: skeleton size (unresolved joints are ignored, as in effectiveInfluences).
WeightStats weightStats(const Mesh& mesh, std::size_t jointCount, Profile profile);

} // namespace rigscope::core
