#pragma once

// Jiggle bones as the Source engine integrates them (docs/jiggle.md; behaviour pinned to the
// public Source SDK 2013 public/jigglebones.cpp, read, not copied): the tip of a flexible or
// rigid bone is a point mass driven toward where the animation puts it (springs in the bone's
// left / up / forward axes, gravity from `tipMass` along world -Z), integrated with explicit
// Euler steps, then held by the yaw, pitch, angle and length constraints; a base spring moves
// the bone's origin within a box; without one, is_boing squashes and stretches the bone along
// the direction it was moving when it stopped or turned (an impact), a damped cosine.

#include <Eigen/Geometry>

#include "core/model/jiggle.h"

namespace rigscope::core {

struct JiggleState {
    bool started = false;
    Eigen::Vector3d tipPos = Eigen::Vector3d::Zero(), tipVel = Eigen::Vector3d::Zero();
    Eigen::Vector3d basePos = Eigen::Vector3d::Zero(), baseVel = Eigen::Vector3d::Zero();
    Eigen::Vector3d baseLastPos = Eigen::Vector3d::Zero();
    // is_boing: where the base was, the squash axis and the last move's direction and speed,
    // the time since the last impact.
    Eigen::Vector3d lastBoingPos = Eigen::Vector3d::Zero();
    Eigen::Vector3d boingDir = Eigen::Vector3d::UnitZ();
    Eigen::Vector3d boingVelDir = Eigen::Vector3d::Zero();
    double boingSpeed = 0.0, boingTime = 0.0;
};

// One step of `dt` seconds. `goal` is the bone's model-space transform from its animation (its
// columns: left = X, up = Y, forward = Z, and the origin); returns the jiggled transform. The
// first call (or one after a gap of more than half a second, as the engine resets) starts at
// rest on the goal. Steps shorter than 1 ms count as 1 ms, as in the engine.
Eigen::Affine3d stepJiggle(const JiggleParams& p, JiggleState& s, const Eigen::Affine3d& goal,
                           double dt);

} // namespace rigscope::core
