#pragma once

#include <Eigen/Geometry>
#include <QtGui/QColor>
#include <QtGui/QMatrix4x4>
#include <QtGui/QVector3D>

#include "core/model/types.h"

// Eigen <-> Qt math conversions (HOUSE_STYLE §3). Header-only, no state.
namespace rigscope::render {

inline QVector3D toQt(const core::Vec3& v)
{
    return {v.x(), v.y(), v.z()};
}
inline core::Vec3 toEigen(const QVector3D& v)
{
    return {v.x(), v.y(), v.z()};
}

inline QMatrix4x4 toQt(const Eigen::Affine3f& a)
{
    const Eigen::Matrix4f& m = a.matrix();
    return QMatrix4x4(m(0, 0), m(0, 1), m(0, 2), m(0, 3), m(1, 0), m(1, 1), m(1, 2), m(1, 3),
                      m(2, 0), m(2, 1), m(2, 2), m(2, 3), m(3, 0), m(3, 1), m(3, 2), m(3, 3));
}

} // namespace rigscope::render
