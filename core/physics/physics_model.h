#pragma once

// The physics model studiomdl builds from a QC's `$collisionmodel` / `$collisionjoints` (issue
// 31), predicted before the compile: the solids (one for a prop; one per bone for a ragdoll),
// the convex pieces of each solid, their volumes and masses, the per-solid damping / inertia
// and the ragdoll constraints, as the `.phy` will hold them. Every rule follows Source SDK 2013
// studiomdl `collisionmodel.cpp` (docs/physics.md cites them one by one); the hulls are
// computed with Qhull (convex_hull.h).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/formats/qc/qc_project.h"
#include "core/model/model.h"
#include "core/physics/convex_hull.h"

namespace rigscope::core {

class QcFileSystem;
struct QcCompiled;

// The collision block's settings after every `$command` of it was applied, in order.
struct PhysicsSettings {
    float totalMass = 1.0f; // `$mass`; studiomdl's default total is 1 kg
    bool totalMassSet = false;
    bool autoMass = false; // `$automass`: mass from volume and the surface property's density
    float inertia = 1.0f, damping = 0.0f, rotDamping = 0.0f, drag = -1.0f; // defaults
    bool concave = false;         // `$concave` (props: split into connected pieces)
    bool concavePerJoint = false; // `$concaveperjoint` (ragdolls: the same per bone)
    bool remove2d = false;        // `$remove2d`: flat pieces dropped instead of failing
    std::int32_t maxConvexPieces = 20;
    bool maxConvexPiecesSet = false;
    bool hullCountOverride = false;            // `$convexhullcountoverride`
    float weldPosition = 0.0f;                 // `$weldposition` (inches)
    float weldNormal = 0.999f;                 // `$weldnormal` (cosine)
    bool noSelfCollisions = false;             // `$noselfcollisions`
    std::string rootBone;                      // `$rootbone`
    bool animatedFriction = false;             // `$animatedfriction`
    std::vector<std::string> addConvexSources; // `$addconvexsrc` (not modelled: noted)
};

// One convex piece: the hull of one connected set of vertices (or of all of them).
struct PhysicsPiece {
    ConvexHull hull;
    std::size_t sourceVertices = 0; // the collision mesh vertices it was built from
};

struct PhysicsSolid {
    std::string name;           // the bone (ragdolls) or the collision file's base name (props)
    std::string parent;         // the parent solid's name (ragdolls), "" for the root
    JointIndex bone = kNoJoint; // in the collision mesh's skeleton (ragdolls)
    std::vector<PhysicsPiece> pieces;
    double volume = 0;      // sum of the pieces' volumes (cubic inches)
    double surfaceArea = 0; // sum of the pieces' areas
    float mass = 0;         // kg: totalMass * volume * massBias / sum(volume * massBias), >= 1
    float massBias = 1.0f, damping = 0, rotDamping = 0, inertia = 1.0f, drag = -1.0f;
    bool singleHullFallback = false; // studiomdl gave up the pieces and hulled everything
    // The pieces' frame in the model (the bone's bind pose, `$scale`d; identity for a prop):
    // where the solid stands before it moves (drop_test.h, the Physics view).
    Eigen::Affine3d boneToModel = Eigen::Affine3d::Identity();
};

// A ragdoll constraint as the `.phy` writes it: child solid to parent solid, per axis X, Y, Z.
struct PhysicsConstraint {
    std::int32_t parent = -1, child = -1; // solid indices
    std::array<float, 3> min{}, max{}, friction{};
};

// A `$jointconstrain` as written (for the joint-limit view).
struct PhysicsJointLimit {
    std::string bone;
    std::int32_t axis = 0; // 0 x, 1 y, 2 z
    enum class Type : std::uint8_t { Free, Fixed, Limit } type = Type::Limit;
    float min = 0, max = 0, friction = 1.0f; // degrees; friction as written (the .phy has /5)
    QcWhere at;
};

struct PhysicsModel {
    bool present = false; // the QC has a collision model
    bool built = false;   // its mesh was read and at least one solid came out
    bool jointed = false; // $collisionjoints
    std::string meshFile; // the collision mesh (resolved path), "" when missing
    PhysicsSettings settings;
    std::vector<PhysicsSolid> solids; // in the `.phy` order (parents before children)
    std::vector<PhysicsConstraint> constraints;
    std::vector<PhysicsJointLimit> jointLimits;
    float totalMass = 0; // what the masses were distributed from (after $automass)
    // phys.* findings, located in the QC (its options) or the collision mesh (its vertices).
    std::vector<Diagnostic> diagnostics;

    std::size_t convexPieces() const noexcept;
    float mass() const noexcept; // the solids' masses summed (what `info` prints)
};

// Builds the physics model of `project` from its collision mesh `mesh` (read from `meshFile`).
// `compiled` is the project's visible model (bones dropped by the compile, the visible bounds).
PhysicsModel buildPhysicsModel(const QcProject& project, const QcCompiled& compiled,
                               const Model& mesh, const std::string& meshFile);
// The same, reading the collision mesh through `fs` (nothing built when the QC has none or the
// file is missing or unreadable: the QC's own checks report that).
PhysicsModel buildPhysicsModel(const QcProject& project, const QcCompiled& compiled,
                               QcFileSystem& fs);

} // namespace rigscope::core
