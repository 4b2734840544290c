#include "core/pose/euler_to_local.h"

#include <cmath>

namespace rigscope::core {

Mat3 eulerXYZToMatrix(const Vec3& r) noexcept
{
    const float cx = std::cos(r.x()), sx = std::sin(r.x());
    const float cy = std::cos(r.y()), sy = std::sin(r.y());
    const float cz = std::cos(r.z()), sz = std::sin(r.z());
    Mat3 m;
    // Rz * Ry * Rx, written out.
    m(0, 0) = cz * cy;
    m(0, 1) = cz * sy * sx - sz * cx;
    m(0, 2) = cz * sy * cx + sz * sx;
    m(1, 0) = sz * cy;
    m(1, 1) = sz * sy * sx + cz * cx;
    m(1, 2) = sz * sy * cx - cz * sx;
    m(2, 0) = -sy;
    m(2, 1) = cy * sx;
    m(2, 2) = cy * cx;
    return m;
}

bool EulerToLocalJob::validate() const noexcept
{
    return positions.size() == rotations.size() && local.size() == positions.size();
}

bool EulerToLocalJob::run() const noexcept
{
    if (!validate()) {
        return false;
    }
    for (std::size_t i = 0; i < positions.size(); ++i) {
        Xform& x = local[i];
        x.linear() = eulerXYZToMatrix(rotations[i]);
        x.translation() = positions[i];
        x.makeAffine();
    }
    return true;
}

} // namespace rigscope::core
