#pragma once

// The drop test (issue 31 item 4): the physics model's solids as rigid bodies in Bullet (Debian
// `libbullet-dev`), joined by the ragdoll constraints, dropped on a floor from a small height
// and stepped at a fixed 1/60 s until they rest or a step cap is reached. It reports where each
// solid came to rest (to pose the visible model), whether the ragdoll rested, joints that
// explode or jitter and solids that interpenetrate at rest: what `vcollide_wireframe` and a
// thrown ragdoll show in the game. Deterministic (one thread, fixed steps, the same order) and
// bounded (kMaxDropSolids, DropOptions::maxSteps). docs/physics.md "Drop test".
//
// Units: the input and the results are in model units (inches), Z up, as the solids are; the
// simulation runs in metres (1 inch = 0.0254 m) under Source's default gravity (sv_gravity
// 600 in/s^2).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/diag/diagnostic.h"
#include "core/formats/qc/qc_project.h"
#include "core/physics/physics_model.h"

namespace rigscope::core {

struct CompiledPhysics;

// More solids than this are not simulated (the game's ragdolls stop at 24 or 32).
inline constexpr std::size_t kMaxDropSolids = 64;
inline constexpr std::int32_t kMaxDropSteps = 3600; // 60 s of game time

// One rigid body: the convex pieces of a solid in its bone's frame, and where that frame is.
struct DropBody {
    std::string name;
    std::int32_t parent = -1; // body index, -1 for the root
    Eigen::Affine3d boneToModel = Eigen::Affine3d::Identity();
    std::vector<std::vector<Eigen::Vector3d>> pieces; // hull points, bone frame (inches)
    float mass = 1, damping = 0, rotDamping = 0, inertia = 1;
};

// A ragdoll constraint: the child's rotation relative to the parent, in the child bone's bind
// frame at the child's origin, per axis x, y, z (degrees; min > max = free, as -360..360).
struct DropJoint {
    std::int32_t parent = -1, child = -1;
    std::array<float, 3> min{}, max{};
};

struct DropInput {
    std::vector<DropBody> bodies;
    std::vector<DropJoint> joints;
    bool selfCollisions = true; // false: `$noselfcollisions` (solids collide with the floor only)
};

// The physics model a QC predicts, or a compiled `.phy` (with the compiled skeleton's bind pose
// per solid: `boneToModel[i]` for solid i, identity when unknown).
DropInput dropInput(const PhysicsModel& physics);
DropInput dropInput(const CompiledPhysics& physics,
                    const std::vector<Eigen::Affine3d>& boneToModel);

struct DropOptions {
    double dropHeight = 12.0;      // inches between the lowest hull point and the floor
    std::int32_t maxSteps = 1200;  // 20 s at 60 Hz (capped at kMaxDropSteps)
    std::int32_t restSteps = 30;   // "at rest" = below the thresholds this many steps in a row
    double restLinear = 2.0;       // inches / s
    double restAngular = 10.0;     // degrees / s
    double explodeDistance = 1.0;  // inches (or 10 % of the bone, the larger)
    double penetrationDepth = 0.5; // inches: deeper contacts between non-adjacent solids
    double massRatio = 100.0;      // heavier / lighter across one joint
};

struct DropSolidResult {
    std::string name;
    Eigen::Affine3d boneToModel = Eigen::Affine3d::Identity(); // at the last step
    double linearSpeed = 0, angularSpeed = 0; // inches / s, degrees / s (last step)
};

struct DropJointResult {
    std::int32_t parent = -1, child = -1;
    double separation = 0;      // inches, the child's origin from the parent's pivot (last step)
    double maxSeparation = 0;   // over the whole run
    double angularSpeed = 0;    // relative, degrees / s, averaged over the last restSteps steps
    bool explodes = false;      // separation beyond the tolerance at the end
    bool jitters = false;       // relative angular speed that does not decay
    double massRatio = 1;       // heavier / lighter
    bool massRatioHigh = false; // beyond DropOptions::massRatio
};

struct DropPenetration {
    std::int32_t a = -1, b = -1;
    double depth = 0; // inches
};

struct DropResult {
    bool ran = false;
    std::string skipped; // why it did not run ("" when it ran)
    std::int32_t steps = 0;
    double seconds = 0; // simulated
    bool rested = false;
    std::int32_t restStep = -1; // the step from which everything stayed at rest
    double floorZ = 0;          // model units: the floor plane z = floorZ
    double lowestZ = 0;         // the lowest hull point at the end
    std::vector<DropSolidResult> solids;
    std::vector<DropJointResult> joints;
    std::vector<DropPenetration> penetrations;

    bool unstable() const noexcept;
};

DropResult runDropTest(const DropInput& input, const DropOptions& options = {});

// phys.ragdoll-unstable findings of a drop test, located at `at` (the $collisionjoints or
// $collisionmodel line): one per kind (rest, explode, jitter, penetration, mass ratio).
std::vector<Diagnostic> dropTestDiagnostics(const DropInput& input, const DropResult& result,
                                            const QcWhere& at, const DropOptions& options = {});

} // namespace rigscope::core
