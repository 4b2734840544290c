#include "core/model/rotation.h"

#include <cmath>

#include "core/model/model.h"

namespace rigscope::core {

Mat3d eulerToMatrixD(const Vec3& r) noexcept
{
    const Eigen::Vector3d e = r.cast<double>();
    const double cx = std::cos(e.x()), sx = std::sin(e.x());
    const double cy = std::cos(e.y()), sy = std::sin(e.y());
    const double cz = std::cos(e.z()), sz = std::sin(e.z());
    Mat3d m;
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

Mat3 eulerToMatrix(const Vec3& radians) noexcept
{
    return eulerToMatrixD(radians).cast<float>();
}

Quatd eulerToQuaternion(const Vec3& radians) noexcept
{
    return Quatd(eulerToMatrixD(radians)).normalized();
}

Vec3 matrixToEuler(const Mat3d& r) noexcept
{
    // R(2,0) = -sin y; R(0,0), R(1,0) = cos y (cos z, sin z); R(2,1), R(2,2) = cos y (sin x, cos
    // x).
    const double cy = std::hypot(r(0, 0), r(1, 0));
    const double y = std::atan2(-r(2, 0), cy);
    double x = 0;
    double z = 0;
    if (cy > 1e-12) {
        x = std::atan2(r(2, 1), r(2, 2));
        z = std::atan2(r(1, 0), r(0, 0));
    } else if (r(2, 0) < 0) { // +90°: R(0,1) = sin(x - z), R(1,1) = cos(x - z)
        x = std::atan2(r(0, 1), r(1, 1));
    } else { // -90°: R(0,1) = -sin(x + z), R(1,1) = cos(x + z)
        x = std::atan2(-r(0, 1), r(1, 1));
    }
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

Vec3 quaternionToEuler(const Quatd& q) noexcept
{
    return matrixToEuler(q.normalized().toRotationMatrix());
}

Quatd quaternionOf(const Vec4& v) noexcept
{
    const Quatd q(static_cast<double>(v.w()), static_cast<double>(v.x()),
                  static_cast<double>(v.y()), static_cast<double>(v.z()));
    const double n = q.norm();
    if (!(n > 1e-30) || !std::isfinite(n)) {
        return Quatd::Identity();
    }
    return Quatd(q.coeffs() / n);
}

Vec4 xyzwOf(const Quatd& q) noexcept
{
    return {static_cast<float>(q.x()), static_cast<float>(q.y()), static_cast<float>(q.z()),
            static_cast<float>(q.w())};
}

Mat3d bindRotationD(const Skeleton& s, std::size_t j) noexcept
{
    switch (s.bindKind) {
    case PoseKind::ModelMatrix:
        return j < s.bindAxes.size() ? Mat3d(s.bindAxes[j].cast<double>()) : Mat3d::Identity();
    case PoseKind::LocalQuaternion:
        return j < s.bindQuaternions.size()
                   ? Mat3d(quaternionOf(s.bindQuaternions[j]).toRotationMatrix())
                   : Mat3d::Identity();
    case PoseKind::LocalEulerXYZ:
        break;
    }
    return j < s.bindRotations.size() ? eulerToMatrixD(s.bindRotations[j])
                                      : Mat3d(Mat3d::Identity());
}

Mat3d keyRotationD(const Animation& a, std::size_t k) noexcept
{
    switch (a.kind) {
    case PoseKind::ModelMatrix:
        return k < a.axes.size() ? Mat3d(a.axes[k].cast<double>()) : Mat3d::Identity();
    case PoseKind::LocalQuaternion:
        return k < a.quaternions.size() ? Mat3d(quaternionOf(a.quaternions[k]).toRotationMatrix())
                                        : Mat3d::Identity();
    case PoseKind::LocalEulerXYZ:
        break;
    }
    return k < a.rotations.size() ? eulerToMatrixD(a.rotations[k]) : Mat3d(Mat3d::Identity());
}

double angleBetween(const Mat3d& a, const Mat3d& b) noexcept
{
    const Quatd q(a.transpose() * b);
    return 2.0 * std::atan2(q.vec().norm(), std::fabs(q.w()));
}

void quaternionsToEuler(Skeleton& s)
{
    if (s.bindKind != PoseKind::LocalQuaternion) {
        return;
    }
    s.bindRotations.resize(s.size(), Vec3::Zero());
    for (std::size_t j = 0; j < s.size() && j < s.bindQuaternions.size(); ++j) {
        s.bindRotations[j] = quaternionToEuler(quaternionOf(s.bindQuaternions[j]));
    }
    s.bindQuaternions.clear();
    s.bindKind = PoseKind::LocalEulerXYZ;
}

void quaternionsToEuler(Animation& a)
{
    if (a.kind != PoseKind::LocalQuaternion) {
        return;
    }
    a.rotations.resize(a.quaternions.size());
    for (std::size_t k = 0; k < a.quaternions.size(); ++k) {
        a.rotations[k] = quaternionToEuler(quaternionOf(a.quaternions[k]));
    }
    a.quaternions.clear();
    a.kind = PoseKind::LocalEulerXYZ;
}

bool hasQuaternions(const Model& m) noexcept
{
    if (m.skeleton.bindKind == PoseKind::LocalQuaternion) {
        return true;
    }
    for (const Animation& a : m.animations) {
        if (a.kind == PoseKind::LocalQuaternion) {
            return true;
        }
    }
    return false;
}

void quaternionsToEuler(Model& m)
{
    quaternionsToEuler(m.skeleton);
    for (Animation& a : m.animations) {
        quaternionsToEuler(a);
    }
}

} // namespace rigscope::core
