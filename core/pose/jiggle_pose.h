#pragma once

// Jiggle bones on a whole pose (issue 32): the engine's integration (jiggle_sim.h) applied to
// a skeleton's model-space joint matrices, each jiggled bone carrying its descendants, and
// played through an animation from its first frame so that a frame's jiggled pose is the same
// whoever asks (the window's timeline, `pose --jiggle`). docs/jiggle.md.

#include <functional>
#include <vector>

#include <Eigen/Geometry>

#include "core/model/jiggle.h"
#include "core/model/model.h"
#include "core/pose/jiggle_sim.h"

namespace rigscope::core {

struct JiggleJoint {
    JointIndex joint = kNoJoint;
    JiggleParams params;
};

// The jiggle bones of `skeleton` named by `bones` (name, parameters), in skeleton order; names
// the skeleton lacks are left out.
std::vector<JiggleJoint>
jiggleJoints(const Skeleton& skeleton,
             const std::vector<std::pair<std::string, JiggleParams>>& bones);

class JigglePlayer {
public:
    // Steps are at most this long: a 30 fps animation is integrated at 60 Hz, as the game would
    // at 60 frames per second.
    static constexpr double kMaxStep = 1.0 / 60.0;

    JigglePlayer() = default;
    // `parents`: the skeleton's (a parent before its children, as every reader gives them).
    JigglePlayer(std::vector<JiggleJoint> joints, std::vector<JointIndex> parents);

    bool empty() const noexcept { return m_joints.empty(); }
    const std::vector<JiggleJoint>& joints() const noexcept { return m_joints; }
    // Back at rest: the next step starts every bone on its goal.
    void reset();
    // One step of `dt` seconds (split into steps of at most kMaxStep) toward the animated pose
    // `world`, which is replaced by the jiggled one.
    void step(std::vector<Eigen::Affine3f>& world, double dt);

    // The jiggled pose at `playhead` (a frame index, fractional while interpolating) of an
    // animation played from frame 0 at `fps`: `poseAt` gives the animated pose there. Steps on
    // from the playhead reached last when `playhead` is not behind it (playing, or stepping
    // forward), else starts again at frame 0 and plays the whole frames up to it. A whole frame
    // is thus the same whatever was asked before. Cost: one pose and one step per frame
    // played. Empty when `poseAt` gives nothing.
    std::vector<Eigen::Affine3f>
    poseAt(double playhead, double fps,
           const std::function<std::vector<Eigen::Affine3f>(double)>& poseAt);

private:
    void stepOnce(std::vector<Eigen::Affine3f>& world, double dt);

    std::vector<JiggleJoint> m_joints;
    std::vector<JointIndex> m_parents;
    std::vector<JiggleState> m_states;
    double m_playhead = -1; // where poseAt reached last (-1: nowhere)
    std::vector<Eigen::Affine3f> m_last;
};

} // namespace rigscope::core
