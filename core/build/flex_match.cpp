#include "core/build/flex_match.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/diag/diagnostic_ids.h"

namespace rigscope::core {

namespace {

using K = ElementRef::Kind;

bool samePosition(const Vec3& a, const Vec3& b) noexcept
{
    // NaN compares false: never the same position.
    return std::fabs(a.x() - b.x()) <= kFlexSamePosition &&
           std::fabs(a.y() - b.y()) <= kFlexSamePosition &&
           std::fabs(a.z() - b.z()) <= kFlexSamePosition;
}

// Uniform grid of cell size kFlexMatchRadius over the corner positions; a query visits the 27
// cells around a point, which holds every corner within the radius.
class CornerGrid {
public:
    explicit CornerGrid(const std::vector<Vec3>& positions)
    {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
        keyed.reserve(positions.size());
        for (std::size_t c = 0; c < positions.size(); ++c) {
            const Vec3& p = positions[c];
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || !std::isfinite(p.z())) {
                continue;
            }
            keyed.emplace_back(key(cell(p.x()), cell(p.y()), cell(p.z())),
                               static_cast<std::uint32_t>(c));
        }
        std::sort(keyed.begin(), keyed.end());
        m_sorted.reserve(keyed.size());
        m_ranges.reserve(keyed.size());
        for (std::size_t i = 0; i < keyed.size(); ++i) {
            if (i == 0 || keyed[i].first != keyed[i - 1].first) {
                m_ranges[keyed[i].first] = {static_cast<std::uint32_t>(i),
                                            static_cast<std::uint32_t>(i)};
            }
            m_ranges[keyed[i].first].second = static_cast<std::uint32_t>(i + 1);
            m_sorted.push_back(keyed[i].second);
        }
    }

    template <typename F> void visit(const Vec3& p, F&& fn) const
    {
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || !std::isfinite(p.z())) {
            return;
        }
        const std::int64_t cx = cell(p.x());
        const std::int64_t cy = cell(p.y());
        const std::int64_t cz = cell(p.z());
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    auto it = m_ranges.find(key(cx + dx, cy + dy, cz + dz));
                    if (it == m_ranges.end()) {
                        continue;
                    }
                    for (std::uint32_t i = it->second.first; i < it->second.second; ++i) {
                        fn(m_sorted[i]);
                    }
                }
            }
        }
    }

private:
    static constexpr std::int64_t kLimit = (1 << 20) - 2;

    static std::int64_t cell(float v) noexcept
    {
        const double q = std::floor(static_cast<double>(v) / static_cast<double>(kFlexMatchRadius));
        return static_cast<std::int64_t>(
            std::clamp(q, -static_cast<double>(kLimit), static_cast<double>(kLimit)));
    }
    static std::uint64_t key(std::int64_t x, std::int64_t y, std::int64_t z) noexcept
    {
        constexpr std::int64_t off = 1 << 20;
        constexpr std::uint64_t mask = (1u << 21) - 1;
        return (static_cast<std::uint64_t>(x + off) & mask) |
               ((static_cast<std::uint64_t>(y + off) & mask) << 21) |
               ((static_cast<std::uint64_t>(z + off) & mask) << 42);
    }

    std::vector<std::uint32_t> m_sorted;
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>> m_ranges;
};

bool matchDirect(const VertexFrame& base, const std::vector<Vec3>& corners)
{
    const std::size_t nc = corners.size();
    if (base.ids.size() != nc || nc == 0) {
        return false;
    }
    std::vector<std::uint8_t> seen(nc, 0);
    for (std::size_t i = 0; i < nc; ++i) {
        const std::int32_t id = base.ids[i];
        if (id < 0 || static_cast<std::size_t>(id) >= nc || seen[static_cast<std::size_t>(id)]) {
            return false;
        }
        seen[static_cast<std::size_t>(id)] = 1;
        if (!samePosition(base.positions[i], corners[static_cast<std::size_t>(id)])) {
            return false;
        }
    }
    return true;
}

std::string percent(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

} // namespace

FlexMatchResult matchFlex(const Model& vta, const Model& reference, DiagnosticSink* sink)
{
    FlexMatchResult out;
    if (vta.vertexFrames.empty()) {
        return out;
    }
    const VertexFrame& base = vta.vertexFrames.front();
    const Mesh& me = reference.mesh;
    const std::size_t nb = base.ids.size();
    std::vector<Vec3> corners(me.cornerCount());
    for (std::size_t c = 0; c < corners.size(); ++c) {
        corners[c] = me.pointPositions[me.cornerPoints[c]];
    }

    out.baseOffsets.reserve(nb + 1);
    out.baseOffsets.push_back(0);
    if (matchDirect(base, corners)) {
        out.direct = true;
        for (std::size_t i = 0; i < nb; ++i) {
            out.baseCorners.push_back(static_cast<std::uint32_t>(base.ids[i]));
            out.baseOffsets.push_back(static_cast<std::uint32_t>(out.baseCorners.size()));
        }
    } else {
        const CornerGrid grid(corners);
        const float r2 = kFlexMatchRadius * kFlexMatchRadius;
        for (std::size_t i = 0; i < nb; ++i) {
            const Vec3& p = base.positions[i];
            const std::size_t before = out.baseCorners.size();
            std::uint32_t nearest = UINT32_MAX;
            float best = r2;
            grid.visit(p, [&](std::uint32_t c) {
                if (samePosition(p, corners[c])) {
                    out.baseCorners.push_back(c);
                    return;
                }
                const float d2 = (corners[c] - p).squaredNorm();
                if (d2 <= best && (d2 < best || c < nearest)) {
                    best = d2;
                    nearest = c;
                }
            });
            if (out.baseCorners.size() > before) {
                std::sort(out.baseCorners.begin() + static_cast<std::ptrdiff_t>(before),
                          out.baseCorners.end());
            } else if (nearest != UINT32_MAX) {
                out.baseCorners.push_back(nearest);
            } else {
                if (out.unmatched == 0) {
                    out.firstUnmatched = i;
                }
                ++out.unmatched;
            }
            out.baseOffsets.push_back(static_cast<std::uint32_t>(out.baseCorners.size()));
        }
    }

    // Shapes: deltas against the base, spread onto every matched corner.
    std::unordered_map<std::int32_t, std::size_t> baseIndex;
    baseIndex.reserve(nb);
    for (std::size_t i = 0; i < nb; ++i) {
        baseIndex[base.ids[i]] = i; // duplicate ids: the last line wins (as deriveFlexShapes)
    }
    for (std::size_t k = 1; k < vta.vertexFrames.size(); ++k) {
        const VertexFrame& f = vta.vertexFrames[k];
        FlexCornerShape s;
        s.name = f.name.empty() ? "frame " + std::to_string(k) : f.name;
        for (std::size_t i = 0; i < f.ids.size(); ++i) {
            auto it = baseIndex.find(f.ids[i]);
            if (it == baseIndex.end()) {
                continue; // flex.vertex-id-out-of-range, reported by the reader
            }
            const std::size_t b = it->second;
            const Vec3 dp = f.positions[i] - base.positions[b];
            const Vec3 dn = f.normals[i] - base.normals[b];
            for (std::uint32_t j = out.baseOffsets[b]; j < out.baseOffsets[b + 1]; ++j) {
                s.corners.push_back(out.baseCorners[j]);
                s.deltaPositions.push_back(dp);
                s.deltaNormals.push_back(dn);
            }
        }
        out.shapes.push_back(std::move(s));
    }

    if (sink && !me.empty()) {
        if (nb != corners.size()) {
            sink->note(ids::kXrefVtaVertexCount, base.where,
                       "VTA has " + std::to_string(nb) + " vertices, reference " +
                           std::to_string(corners.size()) + " corners; matched by position",
                       {K::Frame, 0});
        }
        if (out.unmatched > 0) {
            const std::size_t i = out.firstUnmatched;
            sink->warning(
                ids::kFlexUnmatchedVertices,
                i < base.lineWhere.size() ? base.lineWhere[i] : base.where,
                std::to_string(out.unmatched) + " of " + std::to_string(nb) + " VTA vertices (" +
                    percent(100.0 * static_cast<double>(out.unmatched) / static_cast<double>(nb)) +
                    "%) match no mesh vertex within 0.15; dropped",
                {K::Vertex, base.ids[i]});
        }
    }
    return out;
}

} // namespace rigscope::core
