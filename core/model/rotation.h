#pragma once

// The one place rotations change representation. The SMD family writes Euler angles XYZ in
// radians with R = Rz(z) * Ry(y) * Rx(x) (column vectors: X is applied first); DMX writes
// quaternions (x, y, z, w); CoD writes axis columns. Every conversion runs in double, and the
// way back to Euler is gimbal-safe: near ±90° pitch only the sum (or difference) of the X and Z
// angles is defined, and it is read from the matrix elements that still carry it.

#include <Eigen/Geometry>

#include "core/model/types.h"

namespace rigscope::core {

struct Model;
struct Skeleton;
struct Animation;

using Mat3d = Eigen::Matrix3d;
using Quatd = Eigen::Quaterniond;

// Euler XYZ radians -> rotation.
Mat3d eulerToMatrixD(const Vec3& radians) noexcept;
Mat3 eulerToMatrix(const Vec3& radians) noexcept; // computed in double, rounded once
Quatd eulerToQuaternion(const Vec3& radians) noexcept;

// Rotation -> Euler XYZ radians (x, z in (-pi, pi], y in [-pi/2, pi/2]). At exactly ±90° pitch
// z is 0 and x carries the whole turn about the shared axis.
Vec3 matrixToEuler(const Mat3d& rotation) noexcept;
Vec3 quaternionToEuler(const Quatd& q) noexcept;

// A quaternion as a file writes it (x, y, z, w), normalised in double; identity when its length
// is zero or not finite. And back.
Quatd quaternionOf(const Vec4& xyzw) noexcept;
Vec4 xyzwOf(const Quatd& q) noexcept;

// The rotation of joint `j`'s bind pose, whatever the skeleton's kind: parent-relative for
// LocalEulerXYZ and LocalQuaternion, model space for ModelMatrix (the axes, not orthonormalised).
Mat3d bindRotationD(const Skeleton& s, std::size_t j) noexcept;
// The same for key `k` of an animation.
Mat3d keyRotationD(const Animation& a, std::size_t k) noexcept;

// Angle in radians of the rotation taking `a` to `b` (both orthonormal), accurate near zero.
double angleBetween(const Mat3d& a, const Mat3d& b) noexcept;

// Rewrites LocalQuaternion bind pose and animations as LocalEulerXYZ (in double, gimbal-safe),
// for writers and steps that speak Euler (SMD, SMDX, QC compile). Other kinds are untouched.
void quaternionsToEuler(Model& m);
bool hasQuaternions(const Model& m) noexcept;
void quaternionsToEuler(Skeleton& s);
void quaternionsToEuler(Animation& a);

} // namespace rigscope::core
