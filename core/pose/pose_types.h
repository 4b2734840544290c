#pragma once

#include <cstdint>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/model/types.h"

namespace rigscope::core {

// A bone transform (local or model space). Eigen::Affine3f keeps a general 3x3 linear part, so
// non-orthonormal CoD matrices survive model -> local -> model.
using Xform = Eigen::Affine3f;
// model[j] * inverseBind[j], the top 3 rows: what the skinning loop blends.
using SkinMatrix = Eigen::Matrix<float, 3, 4>;

// How a fractional frame is sampled. Stepped is the default (what the file says, no blending).
enum class Interpolation : std::uint8_t {
    Stepped, // the frame at or before the time
    Linear,  // positions and Euler angles (or CoD matrix entries) blended linearly
    Slerp,   // positions blended linearly, rotations by quaternion slerp
};

// Which skinning weights are used: the file's (normalised) or what the profile's compiler keeps
// (CHECKS.md section 5).
enum class WeightView : std::uint8_t { Authored, Compiled };

} // namespace rigscope::core
