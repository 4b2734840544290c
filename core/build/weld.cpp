#include "core/build/weld.h"

#include <algorithm>
#include <cstring>

namespace rigscope::core {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

std::uint32_t bits(float f) noexcept
{
    std::uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return u;
}

bool sameSkin(const Mesh& m, std::uint32_t a, std::uint32_t b) noexcept
{
    if (a == b) {
        return true;
    }
    if (m.pointParents[a] != m.pointParents[b] || m.pointLinkState[a] != m.pointLinkState[b] ||
        m.influenceCount(a) != m.influenceCount(b)) {
        return false;
    }
    const std::uint32_t oa = m.influenceOffsets.empty() ? 0 : m.influenceOffsets[a];
    const std::uint32_t ob = m.influenceOffsets.empty() ? 0 : m.influenceOffsets[b];
    for (std::uint32_t i = 0; i < m.influenceCount(a); ++i) {
        if (m.influenceJoints[oa + i] != m.influenceJoints[ob + i] ||
            bits(m.influenceWeights[oa + i]) != bits(m.influenceWeights[ob + i])) {
            return false;
        }
    }
    return true;
}

// A point's position and skin, hashed.
std::uint64_t pointHash(const Mesh& m, std::uint32_t p) noexcept
{
    std::uint64_t h = 1469598103934665603ull;
    const Vec3& pos = m.pointPositions[p];
    for (float f : {pos.x(), pos.y(), pos.z()}) {
        h = mix(h, bits(f));
    }
    h = mix(h, static_cast<std::uint32_t>(m.pointParents[p]));
    const std::uint32_t o = m.influenceOffsets.empty() ? 0 : m.influenceOffsets[p];
    for (std::uint32_t i = 0; i < m.influenceCount(p); ++i) {
        h = mix(h, static_cast<std::uint32_t>(m.influenceJoints[o + i]));
        h = mix(h, bits(m.influenceWeights[o + i]));
    }
    return h;
}

// A corner's hash: its point's (from `pointHashes` when given) with its normal and UV.
std::uint64_t cornerHash(const Mesh& m, std::uint32_t c,
                         const std::vector<std::uint64_t>& pointHashes) noexcept
{
    const std::uint32_t p = m.cornerPoints[c];
    std::uint64_t h = pointHashes.empty() ? pointHash(m, p) : pointHashes[p];
    const Vec3& n = m.cornerNormals[c];
    const Vec2& uv = m.cornerUvs[c];
    for (float f : {n.x(), n.y(), n.z(), uv.x(), uv.y()}) {
        h = mix(h, bits(f));
    }
    return finishHash(h);
}

bool sameCorner(const Mesh& m, std::uint32_t a, std::uint32_t b) noexcept
{
    const std::uint32_t pa = m.cornerPoints[a], pb = m.cornerPoints[b];
    auto eq3 = [](const Vec3& x, const Vec3& y) {
        return bits(x.x()) == bits(y.x()) && bits(x.y()) == bits(y.y()) &&
               bits(x.z()) == bits(y.z());
    };
    return eq3(m.cornerNormals[a], m.cornerNormals[b]) &&
           bits(m.cornerUvs[a].x()) == bits(m.cornerUvs[b].x()) &&
           bits(m.cornerUvs[a].y()) == bits(m.cornerUvs[b].y()) &&
           (pa == pb || (eq3(m.pointPositions[pa], m.pointPositions[pb]) && sameSkin(m, pa, pb)));
}

// Hashes every corner in order and hands (corner, hash) to `visit`, with the table slot of the
// corner kAhead corners later prefetched, so a table larger than the caches costs bandwidth,
// not latency. Corners sharing points (CoD's vertex pool, DMX) hash each point once.
template <class Visit> void forEachCornerHash(const Mesh& m, const WeldTable& table, Visit visit)
{
    const std::size_t nc = m.cornerPoints.size();
    std::vector<std::uint64_t> pointHashes;
    if (2 * m.pointPositions.size() <= nc) {
        const auto np = static_cast<std::uint32_t>(m.pointPositions.size());
        pointHashes.reserve(np);
        for (std::uint32_t p = 0; p < np; ++p) {
            pointHashes.push_back(pointHash(m, p));
        }
    }
    constexpr std::size_t kAhead = 16;
    std::uint64_t ahead[kAhead]; // hashes of corners c .. c + kAhead - 1, by c % kAhead
    for (std::size_t c = 0; c < std::min(nc, kAhead); ++c) {
        ahead[c] = cornerHash(m, static_cast<std::uint32_t>(c), pointHashes);
        table.prefetch(ahead[c]);
    }
    for (std::uint32_t c = 0; c < nc; ++c) {
        const std::uint64_t h = ahead[c % kAhead];
        if (c + kAhead < nc) {
            const std::uint64_t next =
                cornerHash(m, c + static_cast<std::uint32_t>(kAhead), pointHashes);
            ahead[c % kAhead] = next;
            table.prefetch(next);
        }
        visit(c, h);
    }
}

// Assigns a vertex id to every corner; returns the representative corner of each vertex.
std::vector<std::uint32_t> assign(const Mesh& m, std::vector<std::uint32_t>& cornerVertex)
{
    const std::size_t nc = m.cornerPoints.size();
    // Every array is written in order from empty: reserved, never zeroed first.
    cornerVertex.clear();
    cornerVertex.reserve(nc);
    adviseHugePages(cornerVertex.data(), nc * sizeof(std::uint32_t));
    std::vector<std::uint32_t> reps;
    reps.reserve(nc / 3 + 16);
    WeldTable table(nc);
    forEachCornerHash(m, table, [&](std::uint32_t c, std::uint64_t h) {
        bool created = false;
        const std::uint32_t v = table.findOrAdd(
            h, [&](std::uint32_t g) { return sameCorner(m, reps[g], c); }, created);
        if (created) {
            reps.push_back(c);
        }
        cornerVertex.push_back(v);
    });
    return reps;
}

} // namespace

WeldedMesh weldMesh(const Mesh& m)
{
    WeldedMesh w;
    const std::vector<std::uint32_t> reps = assign(m, w.cornerVertex);
    w.positions.reserve(reps.size());
    w.normals.reserve(reps.size());
    w.uvs.reserve(reps.size());
    w.vertexPoint.reserve(reps.size());
    for (std::uint32_t c : reps) {
        const std::uint32_t p = m.cornerPoints[c];
        w.positions.push_back(m.pointPositions[p]);
        w.normals.push_back(m.cornerNormals[c]);
        w.uvs.push_back(m.cornerUvs[c]);
        w.vertexPoint.push_back(p);
    }
    // Group triangles by material with a counting sort (stable).
    const std::size_t nt = m.triangleMaterials.size();
    const std::size_t nm = m.materials.size();
    std::vector<std::uint32_t> start(nm + 1, 0);
    for (std::uint32_t mat : m.triangleMaterials) {
        ++start[mat + 1];
    }
    for (std::size_t i = 0; i < nm; ++i) {
        start[i + 1] += start[i];
    }
    w.drawTriangle.assign(nt, 0);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t t = 0; t < nt; ++t) {
        w.drawTriangle[fill[m.triangleMaterials[t]]++] = t;
    }
    w.indices.reserve(nt * 3);
    for (std::uint32_t t : w.drawTriangle) {
        for (std::uint32_t k = 0; k < 3; ++k) {
            w.indices.push_back(w.cornerVertex[3 * t + k]);
        }
    }
    for (std::uint32_t mat = 0; mat < nm; ++mat) {
        if (start[mat + 1] > start[mat]) {
            w.materialRanges.push_back({mat, start[mat] * 3, (start[mat + 1] - start[mat]) * 3});
        }
    }
    return w;
}

} // namespace rigscope::core
