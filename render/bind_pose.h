#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "core/model/model.h"

namespace rigscope::render {

// Bind-pose joint matrices in model space (SMD, DMX: World = World(parent)·T(p)·R; CoD:
// [axes | offset]). Used for the skeleton overlay until posing goes through core/pose.
std::vector<Eigen::Affine3f> bindWorld(const core::Skeleton& s);

// Model-space joint matrices of frame `frame` of `anim` for skeleton `s` (joints matched by
// index; the animation must have been remapped to `s`). Falls back to the bind pose for joints
// the animation does not cover.
std::vector<Eigen::Affine3f> animatedWorld(const core::Skeleton& s, const core::Animation& anim,
                                           std::size_t frame);

} // namespace rigscope::render
