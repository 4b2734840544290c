#include "core/pose/morph_job.h"

#include <algorithm>

namespace rigscope::core {

bool MorphJob::validate() const noexcept
{
    const std::size_t n = basePositions.size();
    if (outPositions.size() != n || outNormals.size() != baseNormals.size()) {
        return false;
    }
    if (!baseNormals.empty() && baseNormals.size() != n) {
        return false;
    }
    if (shapeOffsets.size() != shapeWeights.size() + 1) {
        return false;
    }
    if (deltaPositions.size() != targets.size()) {
        return false;
    }
    if (!deltaNormals.empty() && deltaNormals.size() != targets.size()) {
        return false;
    }
    if (shapeOffsets.front() != 0 || shapeOffsets.back() != targets.size()) {
        return false;
    }
    for (std::size_t s = 0; s + 1 < shapeOffsets.size(); ++s) {
        if (shapeOffsets[s] > shapeOffsets[s + 1]) {
            return false;
        }
    }
    return std::all_of(targets.begin(), targets.end(), [n](std::uint32_t t) { return t < n; });
}

bool MorphJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    std::copy(basePositions.begin(), basePositions.end(), outPositions.begin());
    std::copy(baseNormals.begin(), baseNormals.end(), outNormals.begin());
    const bool doNormals = !baseNormals.empty() && !deltaNormals.empty();
    for (std::size_t s = 0; s < shapeWeights.size(); ++s) {
        const float w = shapeWeights[s];
        if (w == 0.0f) {
            continue;
        }
        for (std::uint32_t k = shapeOffsets[s]; k < shapeOffsets[s + 1]; ++k) {
            outPositions[targets[k]] += w * deltaPositions[k];
            if (doNormals) {
                outNormals[targets[k]] += w * deltaNormals[k];
            }
        }
    }
    return true;
}

} // namespace rigscope::core
