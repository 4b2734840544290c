#include "core/pose/jiggle_pose.h"

#include <algorithm>
#include <cmath>

namespace rigscope::core {

std::vector<JiggleJoint>
jiggleJoints(const Skeleton& skeleton,
             const std::vector<std::pair<std::string, JiggleParams>>& bones)
{
    std::vector<JiggleJoint> out;
    for (const auto& [name, params] : bones) {
        const JointIndex j = skeleton.findByName(name);
        if (j == kNoJoint || !(params.flags & (JiggleParams::Flexible | JiggleParams::Rigid |
                                               JiggleParams::BaseSpring | JiggleParams::Boing))) {
            continue;
        }
        // A bone named twice: the last $jigglebone wins, as studiomdl overwrites it.
        std::erase_if(out, [&](const JiggleJoint& k) { return k.joint == j; });
        out.push_back({j, params});
    }
    std::sort(out.begin(), out.end(),
              [](const JiggleJoint& a, const JiggleJoint& b) { return a.joint < b.joint; });
    return out;
}

JigglePlayer::JigglePlayer(std::vector<JiggleJoint> joints, std::vector<JointIndex> parents)
    : m_joints(std::move(joints)), m_parents(std::move(parents)), m_states(m_joints.size())
{
    std::erase_if(m_joints, [&](const JiggleJoint& k) {
        return k.joint < 0 || std::size_t(k.joint) >= m_parents.size();
    });
    m_states.assign(m_joints.size(), JiggleState{});
}

void JigglePlayer::reset()
{
    m_states.assign(m_joints.size(), JiggleState{});
    m_playhead = -1;
    m_last.clear();
}

void JigglePlayer::stepOnce(std::vector<Eigen::Affine3f>& world, double dt)
{
    const std::size_t n = std::min(world.size(), m_parents.size());
    // Which joints lie under the one being moved: a joint is under j when its parent chain
    // reaches j. Parents come before children, so one pass in order carries a joint's move to
    // everything below it.
    std::vector<std::uint8_t> under(n, 0);
    for (std::size_t k = 0; k < m_joints.size(); ++k) {
        const auto j = std::size_t(m_joints[k].joint);
        if (j >= n) {
            continue;
        }
        const Eigen::Affine3d goal = world[j].cast<double>();
        const Eigen::Affine3d moved = stepJiggle(m_joints[k].params, m_states[k], goal, dt);
        const Eigen::Affine3f delta = (moved * goal.inverse()).cast<float>();
        std::fill(under.begin(), under.end(), 0);
        under[j] = 1;
        world[j] = moved.cast<float>();
        for (std::size_t c = j + 1; c < n; ++c) {
            const JointIndex p = m_parents[c];
            if (p >= 0 && std::size_t(p) < n && under[std::size_t(p)]) {
                under[c] = 1;
                world[c] = delta * world[c];
            }
        }
    }
}

void JigglePlayer::step(std::vector<Eigen::Affine3f>& world, double dt)
{
    if (m_joints.empty() || !(dt >= 0.0)) {
        return;
    }
    // The first step (or one after a long gap) starts at rest: jiggle_sim resets on it.
    if (dt > 0.5) {
        stepOnce(world, dt);
        return;
    }
    const int steps = std::max(1, int(std::ceil(dt / kMaxStep - 1e-9)));
    std::vector<Eigen::Affine3f> goal = world;
    for (int i = 0; i < steps; ++i) {
        world = goal;
        stepOnce(world, dt / steps);
    }
}

std::vector<Eigen::Affine3f>
JigglePlayer::poseAt(double playhead, double fps,
                     const std::function<std::vector<Eigen::Affine3f>(double)>& poseAt)
{
    playhead = std::isfinite(playhead) ? std::max(playhead, 0.0) : 0.0;
    const double frameTime = 1.0 / (fps > 0.0 && std::isfinite(fps) ? fps : 30.0);
    if (m_playhead < 0 || playhead < m_playhead) {
        reset();
    }
    if (m_playhead == playhead && !m_last.empty()) {
        return m_last;
    }
    auto advance = [&](double to) {
        std::vector<Eigen::Affine3f> world = poseAt(to);
        if (world.empty()) {
            return false;
        }
        // The first pose starts the bones on their goals (a state's first step is at rest).
        step(world, m_playhead < 0 ? 1.0 : (to - m_playhead) * frameTime);
        m_last = std::move(world);
        m_playhead = to;
        return true;
    };
    // Whole frames up to the playhead, then its fraction.
    for (double f = m_playhead < 0 ? 0.0 : std::floor(m_playhead) + 1.0; f <= playhead; f += 1.0) {
        if (!advance(f)) {
            reset();
            return {};
        }
    }
    if (m_playhead < playhead && !advance(playhead)) {
        reset();
        return {};
    }
    return m_last;
}

} // namespace rigscope::core
