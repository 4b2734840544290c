#include "core/pose/flex_binding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace rigscope::core {

namespace {

constexpr float kSamePosition = 1e-4f;
constexpr float kMatchRadius = 0.15f;

float maxAbs(const Vec3& a, const Vec3& b) noexcept
{
    return (a - b).cwiseAbs().maxCoeff();
}

struct CellKey {
    std::int64_t x, y, z;
    bool operator==(const CellKey&) const = default;
};
struct CellHash {
    std::size_t operator()(const CellKey& k) const noexcept
    {
        const auto h = static_cast<std::uint64_t>(k.x) * 73856093u ^
                       static_cast<std::uint64_t>(k.y) * 19349663u ^
                       static_cast<std::uint64_t>(k.z) * 83492791u;
        return static_cast<std::size_t>(h);
    }
};

CellKey cellOf(const Vec3& p) noexcept
{
    const auto c = [](float v) {
        const double q = std::floor(static_cast<double>(v) / kMatchRadius);
        return std::isfinite(q) ? static_cast<std::int64_t>(q) : std::int64_t{0};
    };
    return {c(p.x()), c(p.y()), c(p.z())};
}

} // namespace

FlexTargets bindFlexShapes(const Mesh& reference, const Model& vta,
                           std::span<const std::uint32_t> cornerVertex)
{
    FlexTargets out;
    out.shapeOffsets.push_back(0);
    const std::size_t corners = reference.cornerCount();
    auto cornerPos = [&](std::size_t c) -> const Vec3& {
        return reference.pointPositions[reference.cornerPoints[c]];
    };
    auto vertexOf = [&](std::size_t c) -> std::uint32_t {
        return cornerVertex.empty() ? static_cast<std::uint32_t>(c) : cornerVertex[c];
    };
    if (vta.vertexFrames.empty()) {
        return out;
    }
    const VertexFrame& base = vta.vertexFrames.front();

    // base id -> corners (CSR)
    std::unordered_map<std::int32_t, std::size_t> baseIndex;
    for (std::size_t k = 0; k < base.ids.size(); ++k) {
        baseIndex.emplace(base.ids[k], k);
    }
    std::vector<std::uint32_t> matchOffsets{0};
    std::vector<std::uint32_t> matchCorners;
    bool direct = base.ids.size() == corners && corners > 0;
    for (std::size_t k = 0; direct && k < base.ids.size(); ++k) {
        direct = base.ids[k] == static_cast<std::int32_t>(k) &&
                 maxAbs(base.positions[k], cornerPos(k)) <= kSamePosition;
    }
    out.direct = direct;
    if (direct) {
        for (std::size_t k = 0; k < base.ids.size(); ++k) {
            matchCorners.push_back(static_cast<std::uint32_t>(k));
            matchOffsets.push_back(static_cast<std::uint32_t>(matchCorners.size()));
        }
    } else {
        std::unordered_map<CellKey, std::vector<std::uint32_t>, CellHash> grid;
        for (std::size_t c = 0; c < corners; ++c) {
            grid[cellOf(cornerPos(c))].push_back(static_cast<std::uint32_t>(c));
        }
        for (std::size_t k = 0; k < base.ids.size(); ++k) {
            const Vec3& p = base.positions[k];
            const CellKey center = cellOf(p);
            const std::size_t before = matchCorners.size();
            std::uint32_t nearest = std::numeric_limits<std::uint32_t>::max();
            float nearestDist = kMatchRadius;
            for (std::int64_t dx = -1; dx <= 1; ++dx) {
                for (std::int64_t dy = -1; dy <= 1; ++dy) {
                    for (std::int64_t dz = -1; dz <= 1; ++dz) {
                        const auto it = grid.find({center.x + dx, center.y + dy, center.z + dz});
                        if (it == grid.end()) {
                            continue;
                        }
                        for (std::uint32_t c : it->second) {
                            if (maxAbs(p, cornerPos(c)) <= kSamePosition) {
                                matchCorners.push_back(c);
                            }
                            const float d = (p - cornerPos(c)).norm();
                            if (d < nearestDist) {
                                nearestDist = d;
                                nearest = c;
                            }
                        }
                    }
                }
            }
            if (matchCorners.size() == before) {
                if (nearest != std::numeric_limits<std::uint32_t>::max()) {
                    matchCorners.push_back(nearest);
                } else {
                    ++out.unmatchedBase;
                }
            }
            matchOffsets.push_back(static_cast<std::uint32_t>(matchCorners.size()));
        }
    }

    // shapes: one delta per distinct target vertex (the first listing wins)
    std::size_t vertexCount = 0;
    for (std::uint32_t c : matchCorners) {
        vertexCount = std::max<std::size_t>(vertexCount, std::size_t{vertexOf(c)} + 1);
    }
    std::vector<std::uint32_t> stamp(vertexCount, std::numeric_limits<std::uint32_t>::max());
    for (std::size_t s = 0; s < vta.flexShapes.size(); ++s) {
        const FlexShape& shape = vta.flexShapes[s];
        out.names.push_back(shape.name);
        for (std::size_t k = 0; k < shape.ids.size(); ++k) {
            const auto it = baseIndex.find(shape.ids[k]);
            if (it == baseIndex.end()) {
                continue; // flex.vertex-id-out-of-range, reported by checks
            }
            for (std::uint32_t m = matchOffsets[it->second]; m < matchOffsets[it->second + 1];
                 ++m) {
                const std::uint32_t v = vertexOf(matchCorners[m]);
                if (stamp[v] == s) {
                    continue;
                }
                stamp[v] = static_cast<std::uint32_t>(s);
                out.targets.push_back(v);
                out.deltaPositions.push_back(shape.deltaPositions[k]);
                out.deltaNormals.push_back(k < shape.deltaNormals.size() ? shape.deltaNormals[k]
                                                                         : Vec3::Zero());
            }
        }
        out.shapeOffsets.push_back(static_cast<std::uint32_t>(out.targets.size()));
    }
    return out;
}

} // namespace rigscope::core
