#include "core/physics/vphysics_hull.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <Eigen/Dense>

namespace rigscope::core {

namespace {

constexpr double kMetresPerInch = 0.0254;     // vphysics ConvertPositionToIVP
constexpr double kTolerance = 1e-4;           // HALFSPACESOUP_TOLERANCE (0.01 * 10 mm)
constexpr double kMergeMetres = 0.01;         // ConvexFromVerts' merge distance
constexpr double kMinTwiceAreaMetres2 = 1e-6; // RebuildConvexFromPlanes skips smaller
constexpr double kSingular = 1e-10;           // P_DOUBLE_EPS of the 3x3 inversion
constexpr std::size_t kMostPlanes = 512;      // a bound on the cubic work

// A half-space as IVP keeps it: inward unit normal n and offset h, inside where n.p + h >= 0.
struct Plane {
    Vec3d n;
    double h = 0;
};

} // namespace

std::vector<Vec3d> vphysicsRebuiltCorners(const ConvexHull& hull)
{
    const double inchesPerMetre = 1.0 / kMetresPerInch;
    const double minTwiceArea = kMinTwiceAreaMetres2 * inchesPerMetre * inchesPerMetre;
    const double insideSlack = kTolerance * inchesPerMetre;
    const double merge = kMergeMetres * inchesPerMetre;
    // A point inside: the normals are turned to face it whichever way the triangles wind.
    Vec3d centre = Vec3d::Zero();
    for (const Vec3d& v : hull.vertices) {
        centre += v;
    }
    centre /= static_cast<double>(std::max<std::size_t>(hull.vertices.size(), 1));
    std::vector<Plane> planes;
    for (const auto& t : hull.triangles) {
        const Vec3d& a = hull.vertices[t[0]];
        Vec3d outward = (hull.vertices[t[1]] - a).cross(hull.vertices[t[2]] - a);
        if (outward.dot(a - centre) < 0) {
            outward = -outward;
        }
        const double len = outward.norm();
        if (!(len > minTwiceArea)) {
            continue;
        }
        Plane p{-outward / len, 0};
        p.h = -p.n.dot(a);
        // A plane almost parallel to one already kept: the one nearer the origin stays.
        bool drop = false;
        std::vector<std::size_t> replaced;
        for (std::size_t i = 0; i < planes.size(); ++i) {
            if (p.n.dot(planes[i].n) > 1.0 - kTolerance) {
                if (planes[i].h < p.h) {
                    drop = true;
                    break;
                }
                replaced.push_back(i);
            }
        }
        if (drop) {
            continue;
        }
        planes.push_back(p);
        for (auto it = replaced.rbegin(); it != replaced.rend(); ++it) {
            planes.erase(planes.begin() + static_cast<std::ptrdiff_t>(*it));
        }
    }
    std::vector<Vec3d> corners;
    if (planes.size() < 4 || planes.size() > kMostPlanes) {
        return corners;
    }
    for (std::size_t i = 0; i < planes.size(); ++i) {
        for (std::size_t j = i + 1; j < planes.size(); ++j) {
            for (std::size_t k = j + 1; k < planes.size(); ++k) {
                Eigen::Matrix3d m;
                m.row(0) = planes[i].n.transpose();
                m.row(1) = planes[j].n.transpose();
                m.row(2) = planes[k].n.transpose();
                if (std::fabs(m.determinant()) < kSingular) {
                    continue;
                }
                const Vec3d p = m.inverse() * Vec3d(-planes[i].h, -planes[j].h, -planes[k].h);
                bool inside = true;
                for (const Plane& q : planes) {
                    if (q.n.dot(p) + q.h < -insideSlack) {
                        inside = false;
                        break;
                    }
                }
                if (!inside) {
                    continue;
                }
                bool near = false;
                for (const Vec3d& c : corners) {
                    if ((c - p).squaredNorm() < merge * merge) {
                        near = true;
                        break;
                    }
                }
                if (!near) {
                    corners.push_back(p);
                }
            }
        }
    }
    return corners;
}

} // namespace rigscope::core
