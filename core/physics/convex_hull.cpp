#include "core/physics/convex_hull.h"

#include <cstdio>
#include <unordered_map>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace rigscope::core {

namespace {

// Qhull writes its errors to a stream; ours go nowhere (a hull that fails is `nullopt`).
struct NullStream {
    std::FILE* f = std::fopen("/dev/null", "w");
    NullStream() = default;
    NullStream(const NullStream&) = delete;
    NullStream& operator=(const NullStream&) = delete;
    ~NullStream()
    {
        if (f) {
            std::fclose(f);
        }
    }
};

} // namespace

std::optional<ConvexHull> convexHull(std::span<const Vec3d> points)
{
    if (points.size() < 4) {
        return std::nullopt;
    }
    std::vector<coordT> coords;
    coords.reserve(points.size() * 3);
    for (const Vec3d& p : points) {
        if (!p.allFinite()) {
            return std::nullopt;
        }
        coords.insert(coords.end(), {p.x(), p.y(), p.z()});
    }
    NullStream sink;
    qhT qhStorage;
    qhT* qh = &qhStorage;
    qh_zero(qh, sink.f);
    // Qt: triangulated facets; FA: area and volume.
    char options[] = "qhull Qt FA";
    const int exitCode = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False,
                                      options, nullptr, sink.f);
    std::optional<ConvexHull> out;
    if (exitCode == 0) {
        ConvexHull hull;
        if (!qh->hasAreaVolume) {
            qh_getarea(qh, qh->facet_list);
        }
        hull.volume = qh->totvol;
        hull.area = qh->totarea;
        std::unordered_map<const vertexT*, std::uint32_t> index;
        auto indexOf = [&](const vertexT* v) {
            auto [it, added] = index.emplace(v, static_cast<std::uint32_t>(hull.vertices.size()));
            if (added) {
                hull.vertices.emplace_back(v->point[0], v->point[1], v->point[2]);
            }
            return it->second;
        };
        for (facetT* f = qh->facet_list; f && f->next; f = f->next) {
            if (f->upperdelaunay || !f->vertices || qh_setsize(qh, f->vertices) != 3) {
                continue;
            }
            std::array<std::uint32_t, 3> t{};
            for (int i = 0; i < 3; ++i) {
                t[static_cast<std::size_t>(i)] =
                    indexOf(static_cast<const vertexT*>(f->vertices->e[i].p));
            }
            // Qhull's facet vertices are sorted; toporient says which way they turn: as
            // stored they wind clockwise seen from outside when it is set (a cube's 12 came out
            // inward with the opposite test), so those are turned.
            if (f->toporient) {
                std::swap(t[1], t[2]);
            }
            hull.triangles.push_back(t);
        }
        if (hull.volume > 0 && !hull.triangles.empty()) {
            out = std::move(hull);
        }
    }
    qh_freeqhull(qh, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(qh, &curlong, &totlong);
    return out;
}

} // namespace rigscope::core
