#pragma once

#include <cstddef>

#include "core/diag/profile.h"
#include "core/model/model.h"

namespace rigscope::core {

// Limits of the compilers (docs/profiles.md) for one concrete profile. 0 = no verified limit
// (nothing enforced).
struct Limits {
    std::size_t bones = 0;
    std::size_t boneNameLength = 0;
    std::size_t weightsPerVertex = 0;
    float weightCull = 0; // raw weights below this are culled (0 = no cull)
    std::size_t uniqueVertices = 0;
    std::size_t vertexSplit = 0; // $maxverts split warning (source256)
    std::size_t uniqueNormals = 0;
    // Over uniqueVertices / uniqueNormals is a note, not an error: vbmcompiler (pathos) stops
    // there only without -l or -s, and its .vbm has no such limit.
    bool vertexLimitIsNote = false;
    std::size_t triangles = 0;
    std::size_t materials = 0;
    std::size_t materialNameLength = 0;
    std::size_t framesPerAnimation = 0;
    std::size_t flexedVertices = 0;
};
// `model` refines the CoD limits (v7 lifts the 16-bit vertex and 8-bit material limits).
Limits limitsFor(Profile p, const Model* model = nullptr) noexcept;

} // namespace rigscope::core
