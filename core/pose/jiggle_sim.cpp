#include "core/pose/jiggle_sim.h"

#include <algorithm>
#include <cmath>

namespace rigscope::core {

namespace {

using Vec = Eigen::Vector3d;
using JP = JiggleParams;

// The goal frame rotated by `angle` about its up axis (yaw) or its left axis (pitch): the axes
// of the limit the tip is pushed back onto.
Eigen::Matrix3d limitFrame(const Eigen::Matrix3d& goal, double angle, bool yaw)
{
    const Eigen::Matrix3d turn =
        Eigen::AngleAxisd(yaw ? angle : -angle, yaw ? Vec::UnitY() : Vec::UnitX())
            .toRotationMatrix();
    return goal * turn;
}

// One angular limit, yaw (toward the left axis) or pitch (toward the up axis): past it, the tip
// keeps only its parts along the limit frame's other two axes, and stops.
void holdLimit(JiggleState& s, const Eigen::Matrix3d& axes, const Vec& base, double lo, double hi,
               bool yaw)
{
    const Eigen::Index side = yaw ? 0 : 1, keep = yaw ? 1 : 0;
    const Vec along = s.tipPos - base;
    const double angle = std::atan2(axes.col(side).dot(along), axes.col(2).dot(along));
    if (angle >= lo && angle <= hi) {
        return;
    }
    const Eigen::Matrix3d lim = limitFrame(axes, angle < lo ? lo : hi, yaw);
    s.tipPos = base + lim.col(keep).dot(along) * lim.col(keep) + lim.col(2).dot(along) * lim.col(2);
    s.tipVel.setZero();
}

void stepTip(const JP& p, JiggleState& s, const Eigen::Matrix3d& axes, const Vec& base, double dt)
{
    const Vec left = axes.col(0), up = axes.col(1), forward = axes.col(2);
    const Vec goalTip = base + double(p.length) * forward;
    Vec accel(0, 0, -double(p.tipMass));
    if (p.flags & JP::Flexible) {
        const Vec error = goalTip - s.tipPos;
        const double yaw =
            double(p.yawStiffness) * left.dot(error) - double(p.yawDamping) * left.dot(s.tipVel);
        const double pitch =
            double(p.pitchStiffness) * up.dot(error) - double(p.pitchDamping) * up.dot(s.tipVel);
        accel += yaw * left + pitch * up;
        if (!(p.flags & JP::LengthConstraint)) {
            accel += (double(p.alongStiffness) * forward.dot(error) -
                      double(p.alongDamping) * forward.dot(s.tipVel)) *
                     forward;
        }
    }
    s.tipVel += accel * dt;
    s.tipPos += s.tipVel * dt;

    // Yaw, then pitch: measured in the goal frame; past a limit the tip is projected onto the
    // limit's plane and stops.
    if (p.flags & JP::YawConstraint) {
        holdLimit(s, axes, base, double(p.minYaw), double(p.maxYaw), true);
    }
    if (p.flags & JP::PitchConstraint) {
        holdLimit(s, axes, base, double(p.minPitch), double(p.maxPitch), false);
    }
    if (p.flags & JP::AngleConstraint) {
        const Vec dir = (s.tipPos - base).normalized();
        const double dot = std::clamp(dir.dot(forward), -1.0, 1.0);
        double between = std::acos(dot);
        if (dot < 0.0) {
            between = 2.0 * M_PI - between; // as the engine measures it
        }
        if (between > double(p.angleLimit)) {
            const double maxBetween = double(p.length) * std::sin(double(p.angleLimit));
            const Vec delta = (goalTip - s.tipPos).normalized();
            s.tipPos = goalTip - maxBetween * delta;
        }
    }
    if (p.flags & JP::LengthConstraint) {
        const Vec dir = (s.tipPos - base).normalized();
        s.tipPos = base + double(p.length) * dir;
        s.tipVel -= s.tipVel.dot(dir) * dir;
    }
}

void stepBase(const JP& p, JiggleState& s, const Eigen::Matrix3d& axes, const Vec& goalBase,
              double dt)
{
    const Vec left = axes.col(0), up = axes.col(1), forward = axes.col(2);
    Vec accel(0, 0, -double(p.baseMass));
    accel += double(p.baseStiffness) * (goalBase - s.basePos) - double(p.baseDamping) * s.baseVel;
    s.baseVel += accel * dt;
    s.basePos += s.baseVel * dt;
    const Vec error = s.basePos - goalBase;
    Vec local(left.dot(error), up.dot(error), forward.dot(error));
    local.x() = std::clamp(local.x(), double(p.baseMinLeft),
                           std::max(double(p.baseMinLeft), double(p.baseMaxLeft)));
    local.y() = std::clamp(local.y(), double(p.baseMinUp),
                           std::max(double(p.baseMinUp), double(p.baseMaxUp)));
    local.z() = std::clamp(local.z(), double(p.baseMinForward),
                           std::max(double(p.baseMinForward), double(p.baseMaxForward)));
    s.basePos = goalBase + local.x() * left + local.y() * up + local.z() * forward;
    s.baseVel = (s.basePos - s.baseLastPos) / dt;
    s.baseLastPos = s.basePos;
}

// is_boing (engine order: only without a base spring). The base's speed since the last step;
// a change of speed or direction past the impact thresholds (at least half a second after the
// last) restarts the boing along the reverse of the move. The bone's axes are then scaled,
// squash across the boing axis and stretch along it, by amplitude x cos(frequency x t) x
// (1 - damping rate x t)^4, the squash matrix built in the engine's "boing space" from the
// world-space axis and applied on the bone's side, as the engine multiplies them.
bool stepBoing(const JP& p, JiggleState& s, const Eigen::Matrix3d& axes, const Vec& base, double dt,
               Eigen::Matrix3d& out)
{
    Vec vel = base - s.lastBoingPos;
    s.lastBoingPos = base;
    double speed = vel.norm();
    if (speed < 0.00001) {
        vel = Vec::UnitZ();
        speed = 0.0;
    } else {
        vel /= speed;
        speed /= dt;
    }
    s.boingTime += dt;
    constexpr double kMinSpeed = 5.0, kMinReBoingTime = 0.5;
    if ((speed > kMinSpeed || s.boingSpeed > kMinSpeed) && s.boingTime > kMinReBoingTime &&
        (std::abs(s.boingSpeed - speed) > double(p.boingImpactSpeed) ||
         vel.dot(s.boingVelDir) < double(p.boingImpactAngle))) {
        s.boingTime = 0.0;
        s.boingDir = -vel;
    }
    s.boingVelDir = vel;
    s.boingSpeed = speed;
    double damping = 1.0 - double(p.boingDampingRate) * s.boingTime;
    if (damping < 0.01) {
        return false; // damped out: the goal
    }
    damping *= damping;
    damping *= damping;
    const double flex =
        double(p.boingAmplitude) * std::cos(double(p.boingFrequency) * s.boingTime) * damping;
    const Vec side = (std::abs(s.boingDir.x()) < 0.9 ? s.boingDir.cross(Vec::UnitX())
                                                     : s.boingDir.cross(Vec::UnitZ()))
                         .normalized();
    const Vec other = s.boingDir.cross(side);
    Eigen::Matrix3d toBoing;
    toBoing.row(0) = side;
    toBoing.row(1) = other;
    toBoing.row(2) = s.boingDir;
    const Eigen::Matrix3d squash = Vec(1.0 + flex, 1.0 + flex, 1.0 - flex).asDiagonal();
    out = axes * (toBoing * squash * toBoing.transpose());
    return true;
}

} // namespace

Eigen::Affine3d stepJiggle(const JiggleParams& p, JiggleState& s, const Eigen::Affine3d& goal,
                           double dt)
{
    const Eigen::Matrix3d axes = goal.linear();
    const Vec base = goal.translation();
    if (!s.started || dt > 0.5) {
        s.started = true;
        s.tipPos = base + double(p.length) * axes.col(2);
        s.tipVel.setZero();
        s.basePos = s.baseLastPos = base;
        s.baseVel.setZero();
        s.lastBoingPos = base;
        s.boingDir = Vec::UnitZ();
        s.boingVelDir.setZero();
        s.boingSpeed = s.boingTime = 0.0;
        return goal;
    }
    dt = std::max(dt, 0.001);
    Eigen::Affine3d out = goal;
    if (p.flags & (JP::Flexible | JP::Rigid)) {
        stepTip(p, s, axes, base, dt);
        const Vec forward = (s.tipPos - base).normalized();
        const Vec left = axes.col(1).cross(forward).normalized();
        const Vec up = forward.cross(left);
        out.linear().col(0) = left;
        out.linear().col(1) = up;
        out.linear().col(2) = forward;
    }
    if (p.flags & JP::BaseSpring) {
        stepBase(p, s, axes, base, dt);
        out.translation() = s.basePos;
    } else if (p.flags & JP::Boing) {
        Eigen::Matrix3d boing;
        out.linear() = stepBoing(p, s, axes, base, dt, boing) ? boing : axes;
        out.translation() = base;
    }
    return out;
}

} // namespace rigscope::core
