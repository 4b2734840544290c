#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/text/source_loc.h"

namespace rigscope::core {

using JointIndex = std::int32_t; // -1 = none
inline constexpr JointIndex kNoJoint = -1;

using Vec2 = Eigen::Vector2f;
using Vec3 = Eigen::Vector3f;
using Vec4 = Eigen::Vector4f;
using Mat3 = Eigen::Matrix3f;

// Bitwise float equality: -0 != 0, NaN == NaN (same bits). Used by Model::operator==.
bool sameBits(float a, float b) noexcept;
bool sameBits(const Vec2& a, const Vec2& b) noexcept;
bool sameBits(const Vec3& a, const Vec3& b) noexcept;
bool sameBits(const Vec4& a, const Vec4& b) noexcept;
bool sameBits(const Mat3& a, const Mat3& b) noexcept;

} // namespace rigscope::core
