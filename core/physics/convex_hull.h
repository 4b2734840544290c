#pragma once

// The convex hull of a point set, computed by Qhull (Debian's libqhull_r, the reentrant C API):
// what vphysics' ConvexFromVerts builds for each convex piece of a collision model.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace rigscope::core {

using Vec3d = Eigen::Vector3d;

struct ConvexHull {
    std::vector<Vec3d> vertices;                         // the hull's corners
    std::vector<std::array<std::uint32_t, 3>> triangles; // into vertices, outward (CCW)
    double volume = 0;                                   // cubic units of the input
    double area = 0;                                     // surface area
};

// nullopt when the points span no volume (fewer than 4, all on one plane or line) or Qhull
// fails; never throws, never prints.
std::optional<ConvexHull> convexHull(std::span<const Vec3d> points);

} // namespace rigscope::core
