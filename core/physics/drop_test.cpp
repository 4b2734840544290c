#include "core/physics/drop_test.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <memory>
#include <numbers>

#include <btBulletDynamicsCommon.h>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/qc/qc_diagnostic.h"
#include "core/physics/convex_hull.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

constexpr double kMetresPerInch = 0.0254;
constexpr double kGravity = 600.0 * kMetresPerInch; // Source's sv_gravity 600 in/s^2
constexpr double kStep = 1.0 / 60.0;
constexpr btScalar kMargin = 0.002f; // metres (0.08 inch) around every hull
constexpr double kDegrees = 180.0 / std::numbers::pi;

btVector3 toBt(const Eigen::Vector3d& v)
{
    return {static_cast<btScalar>(v.x() * kMetresPerInch),
            static_cast<btScalar>(v.y() * kMetresPerInch),
            static_cast<btScalar>(v.z() * kMetresPerInch)};
}

Eigen::Vector3d fromBt(const btVector3& v)
{
    return Eigen::Vector3d(v.x(), v.y(), v.z()) / kMetresPerInch;
}

btTransform toBt(const Eigen::Affine3d& t)
{
    const Eigen::Matrix3d r = t.linear();
    btMatrix3x3 m(static_cast<btScalar>(r(0, 0)), static_cast<btScalar>(r(0, 1)),
                  static_cast<btScalar>(r(0, 2)), static_cast<btScalar>(r(1, 0)),
                  static_cast<btScalar>(r(1, 1)), static_cast<btScalar>(r(1, 2)),
                  static_cast<btScalar>(r(2, 0)), static_cast<btScalar>(r(2, 1)),
                  static_cast<btScalar>(r(2, 2)));
    return btTransform(m, toBt(Eigen::Vector3d(t.translation())));
}

Eigen::Affine3d fromBt(const btTransform& t)
{
    Eigen::Affine3d out = Eigen::Affine3d::Identity();
    const btMatrix3x3& m = t.getBasis();
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            out.linear()(r, c) = m[r][c];
        }
    }
    out.translation() = fromBt(t.getOrigin());
    return out;
}

// The pieces' bone frame may carry a scale or a shear (a general bind matrix): keep its
// rotation only, as the game's bone-to-world matrices are rigid.
Eigen::Affine3d rigid(const Eigen::Affine3d& t)
{
    Eigen::Affine3d out = Eigen::Affine3d::Identity();
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(t.linear(),
                                                Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d r = svd.matrixU() * svd.matrixV().transpose();
    if (r.determinant() < 0) {
        Eigen::Matrix3d u = svd.matrixU();
        u.col(2) *= -1;
        r = u * svd.matrixV().transpose();
    }
    out.linear() = r;
    out.translation() = t.translation();
    return out;
}

// Volume and centroid of a closed hull (tetrahedra from its first corner).
struct HullMass {
    double volume = 0;
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
};
HullMass hullMass(const ConvexHull& h)
{
    HullMass m;
    if (h.vertices.empty()) {
        return m;
    }
    const Eigen::Vector3d o = h.vertices.front();
    for (const auto& t : h.triangles) {
        const Eigen::Vector3d& a = h.vertices[t[0]];
        const Eigen::Vector3d& b = h.vertices[t[1]];
        const Eigen::Vector3d& c = h.vertices[t[2]];
        const double v = (a - o).dot((b - o).cross(c - o)) / 6.0;
        m.volume += v;
        m.centroid += v * (o + a + b + c) / 4.0;
    }
    if (std::abs(m.volume) > 1e-12) {
        m.centroid /= m.volume;
    } else {
        m.centroid = o;
    }
    m.volume = std::abs(m.volume);
    return m;
}

// Bullet's damping is the fraction of the speed lost per second; the game's is a rate.
btScalar dampingFactor(float rate)
{
    return static_cast<btScalar>(std::clamp(1.0 - std::exp(-std::max(0.0f, rate)), 0.0, 1.0));
}

struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies; // [0] the floor
    std::vector<std::unique_ptr<btTypedConstraint>> constraints;

    World() = default;
    World(const World&) = delete;
    World& operator=(const World&) = delete;
    ~World()
    {
        for (auto& c : constraints) {
            world.removeConstraint(c.get());
        }
        for (auto& b : bodies) {
            world.removeRigidBody(b.get());
        }
    }
};

struct SimBody {
    btRigidBody* rb = nullptr;
    btTransform boneInBody; // the bone frame relative to the body (centre of mass) frame
};

} // namespace

bool DropResult::unstable() const noexcept
{
    if (!ran) {
        return false;
    }
    return !rested || !penetrations.empty() ||
           std::any_of(joints.begin(), joints.end(), [](const DropJointResult& j) {
               return j.explodes || j.jitters || j.massRatioHigh;
           });
}

DropInput dropInput(const PhysicsModel& physics)
{
    DropInput in;
    in.selfCollisions = !physics.settings.noSelfCollisions;
    auto indexOf = [&](const std::string& name) {
        for (std::size_t i = 0; i < physics.solids.size(); ++i) {
            if (!name.empty() && asciiLower(physics.solids[i].name) == asciiLower(name)) {
                return static_cast<std::int32_t>(i);
            }
        }
        return std::int32_t{-1};
    };
    for (const PhysicsSolid& s : physics.solids) {
        DropBody b;
        b.name = s.name;
        b.parent = indexOf(s.parent);
        b.boneToModel = s.boneToModel;
        for (const PhysicsPiece& p : s.pieces) {
            b.pieces.push_back(p.hull.vertices);
        }
        b.mass = s.mass;
        b.damping = s.damping;
        b.rotDamping = s.rotDamping;
        b.inertia = s.inertia;
        in.bodies.push_back(std::move(b));
    }
    for (const PhysicsConstraint& c : physics.constraints) {
        in.joints.push_back({c.parent, c.child, c.min, c.max});
    }
    return in;
}

DropInput dropInput(const CompiledPhysics& physics, const std::vector<Eigen::Affine3d>& boneToModel)
{
    DropInput in;
    in.selfCollisions = physics.selfCollisions;
    auto indexOf = [&](const std::string& name) {
        for (std::size_t i = 0; i < physics.solids.size(); ++i) {
            if (!name.empty() && asciiLower(physics.solids[i].name) == asciiLower(name)) {
                return static_cast<std::int32_t>(i);
            }
        }
        return std::int32_t{-1};
    };
    for (std::size_t i = 0; i < physics.solids.size(); ++i) {
        const CompiledPhysicsSolid& s = physics.solids[i];
        DropBody b;
        b.name = s.name;
        b.parent = indexOf(s.parent);
        if (i < boneToModel.size()) {
            b.boneToModel = boneToModel[i];
        }
        for (const CompiledConvexPiece& p : s.pieces) {
            std::vector<Eigen::Vector3d> pts;
            pts.reserve(p.vertices.size());
            for (const Vec3& v : p.vertices) {
                pts.push_back(v.cast<double>());
            }
            b.pieces.push_back(std::move(pts));
        }
        b.mass = s.mass;
        b.damping = s.damping;
        b.rotDamping = s.rotDamping;
        b.inertia = s.inertia;
        in.bodies.push_back(std::move(b));
    }
    for (const CompiledRagdollConstraint& c : physics.constraints) {
        DropJoint j;
        j.parent = c.parent;
        j.child = c.child;
        for (int a = 0; a < 3; ++a) {
            j.min[static_cast<std::size_t>(a)] = c.min[a];
            j.max[static_cast<std::size_t>(a)] = c.max[a];
        }
        in.joints.push_back(j);
    }
    return in;
}

DropResult runDropTest(const DropInput& input, const DropOptions& options)
{
    DropResult r;
    const std::size_t n = input.bodies.size();
    if (n == 0) {
        r.skipped = "no solid";
        return r;
    }
    if (n > kMaxDropSolids) {
        r.skipped = std::to_string(n) + " solids (more than " + std::to_string(kMaxDropSolids) +
                    " are not simulated)";
        return r;
    }
    const std::int32_t maxSteps = std::clamp(options.maxSteps, 1, kMaxDropSteps);
    const std::int32_t restSteps = std::clamp(options.restSteps, 1, maxSteps);

    // The rigid bone frames and the floor under the lowest hull point.
    std::vector<Eigen::Affine3d> bone(n);
    double lowest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        bone[i] = rigid(input.bodies[i].boneToModel);
        for (const auto& piece : input.bodies[i].pieces) {
            for (const Eigen::Vector3d& p : piece) {
                lowest = std::min(lowest, (input.bodies[i].boneToModel * p).z());
            }
        }
    }
    if (!std::isfinite(lowest)) {
        lowest = 0;
        for (const Eigen::Affine3d& b : bone) {
            lowest = std::min(lowest, b.translation().z());
        }
    }
    r.floorZ = lowest - std::max(0.0, options.dropHeight);

    World w;
    // A resting face needs all its contact points in one step, not one new point per step
    // (a box landing flat would tip over its first corner and roll).
    w.config.setConvexConvexMultipointIterations(3, 3);
    w.config.setPlaneConvexMultipointIterations(3, 3);
    w.world.setGravity(btVector3(0, 0, static_cast<btScalar>(-kGravity)));
    btContactSolverInfo& info = w.world.getSolverInfo();
    info.m_numIterations = 30;
    info.m_splitImpulse = 1;

    constexpr int kFloorGroup = 1, kSolidGroup = 2;
    {
        auto plane = std::make_unique<btStaticPlaneShape>(
            btVector3(0, 0, 1), static_cast<btScalar>(r.floorZ * kMetresPerInch));
        btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, plane.get());
        ci.m_friction = 0.8f;
        auto floor = std::make_unique<btRigidBody>(ci);
        floor->setUserIndex(-1);
        w.world.addRigidBody(floor.get(), kFloorGroup, -1);
        w.shapes.push_back(std::move(plane));
        w.bodies.push_back(std::move(floor));
    }

    std::vector<SimBody> sim(n);
    std::vector<float> masses(n);
    for (std::size_t i = 0; i < n; ++i) {
        const DropBody& b = input.bodies[i];
        // Each piece as its own hull around its centroid, in the bone frame (metres).
        auto compound = std::make_unique<btCompoundShape>(true, static_cast<int>(b.pieces.size()));
        std::vector<btScalar> pieceMass;
        std::vector<double> volumes;
        struct Piece {
            std::vector<btVector3> points;
            Eigen::Vector3d centroid;
        };
        std::vector<Piece> pieces;
        double volume = 0;
        for (const auto& pts : b.pieces) {
            const std::optional<ConvexHull> hull = convexHull(pts);
            if (!hull) {
                continue;
            }
            const HullMass hm = hullMass(*hull);
            Piece p;
            p.centroid = hm.centroid;
            for (const Eigen::Vector3d& v : hull->vertices) {
                p.points.push_back(toBt(Eigen::Vector3d(v - hm.centroid)));
            }
            volumes.push_back(hm.volume);
            volume += hm.volume;
            pieces.push_back(std::move(p));
        }
        masses[i] = std::max(b.mass, 1e-3f); // Bullet takes 0 for a static body
        if (pieces.empty()) {
            auto sphere = std::make_unique<btSphereShape>(static_cast<btScalar>(kMetresPerInch));
            btTransform t;
            t.setIdentity();
            compound->addChildShape(t, sphere.get());
            pieceMass.push_back(masses[i]);
            w.shapes.push_back(std::move(sphere));
        }
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            auto hull = std::make_unique<btConvexHullShape>(
                &pieces[k].points.front().x(), static_cast<int>(pieces[k].points.size()),
                static_cast<int>(sizeof(btVector3)));
            hull->setMargin(kMargin);
            btTransform t;
            t.setIdentity();
            t.setOrigin(toBt(pieces[k].centroid));
            compound->addChildShape(t, hull.get());
            pieceMass.push_back(
                static_cast<btScalar>(volume > 0 ? masses[i] * volumes[k] / volume
                                                 : masses[i] / static_cast<double>(pieces.size())));
            w.shapes.push_back(std::move(hull));
        }
        // The body frame: the compound's principal axes at its centre of mass.
        btTransform principal;
        btVector3 inertia;
        compound->calculatePrincipalAxisTransform(pieceMass.data(), principal, inertia);
        auto shifted = std::make_unique<btCompoundShape>(true, compound->getNumChildShapes());
        for (int k = 0; k < compound->getNumChildShapes(); ++k) {
            shifted->addChildShape(principal.inverse() * compound->getChildTransform(k),
                                   compound->getChildShape(k));
        }
        inertia *= static_cast<btScalar>(std::max(b.inertia, 1e-3f));
        inertia.setMax(btVector3(1e-6f, 1e-6f, 1e-6f));
        btRigidBody::btRigidBodyConstructionInfo ci(masses[i], nullptr, shifted.get(), inertia);
        ci.m_friction = 0.8f;
        ci.m_restitution = 0.0f;
        ci.m_linearDamping = dampingFactor(b.damping);
        ci.m_angularDamping = dampingFactor(b.rotDamping);
        ci.m_startWorldTransform = toBt(bone[i]) * principal;
        auto rb = std::make_unique<btRigidBody>(ci);
        rb->setUserIndex(static_cast<int>(i));
        rb->setActivationState(DISABLE_DEACTIVATION);
        w.world.addRigidBody(rb.get(), kSolidGroup, input.selfCollisions ? -1 : kFloorGroup);
        sim[i].rb = rb.get();
        sim[i].boneInBody = principal.inverse();
        w.shapes.push_back(std::move(compound));
        w.shapes.push_back(std::move(shifted));
        w.bodies.push_back(std::move(rb));
    }

    // The constraints: linear locked at the child's origin, angular limits in its bind frame.
    struct SimJoint {
        std::int32_t parent, child;
        btTransform inParent, inChild; // the child bone frame in each body
        double tolerance = 1;
    };
    std::vector<SimJoint> joints;
    std::vector<std::vector<std::size_t>> adjacent(n);
    for (const DropJoint& j : input.joints) {
        if (j.parent < 0 || j.child < 0 || static_cast<std::size_t>(j.parent) >= n ||
            static_cast<std::size_t>(j.child) >= n || j.parent == j.child) {
            continue;
        }
        const auto p = static_cast<std::size_t>(j.parent), c = static_cast<std::size_t>(j.child);
        SimJoint sj{j.parent, j.child, {}, {}, 1};
        const btTransform childBone = toBt(bone[c]);
        sj.inParent = sim[p].rb->getWorldTransform().inverse() * childBone;
        sj.inChild = sim[c].rb->getWorldTransform().inverse() * childBone;
        sj.tolerance = std::max(options.explodeDistance,
                                0.1 * (bone[c].translation() - bone[p].translation()).norm());
        auto con = std::make_unique<btGeneric6DofSpring2Constraint>(*sim[p].rb, *sim[c].rb,
                                                                    sj.inParent, sj.inChild);
        for (int a = 0; a < 3; ++a) {
            con->setLimit(a, 0, 0);
        }
        for (std::size_t a = 0; a < 3; ++a) {
            double lo = j.min[a], hi = j.max[a];
            if (lo > hi || hi - lo >= 360.0) {
                lo = 1; // free
                hi = -1;
            } else {
                lo = std::clamp(lo, -180.0, 180.0) / kDegrees;
                hi = std::clamp(hi, -180.0, 180.0) / kDegrees;
                if (a == 1) { // XYZ order: the middle angle lives in -90..90
                    const double cap = 89.0 / kDegrees;
                    lo = std::clamp(lo, -cap, cap);
                    hi = std::clamp(hi, -cap, cap);
                }
            }
            con->setLimit(static_cast<int>(a) + 3, static_cast<btScalar>(lo),
                          static_cast<btScalar>(hi));
        }
        w.world.addConstraint(con.get(), true); // no collision between the pair
        w.constraints.push_back(std::move(con));
        adjacent[p].push_back(c);
        adjacent[c].push_back(p);
        joints.push_back(sj);
        DropJointResult jr;
        jr.parent = j.parent;
        jr.child = j.child;
        const double heavy = std::max(masses[p], masses[c]);
        const double light = std::min(masses[p], masses[c]);
        jr.massRatio = heavy / light;
        jr.massRatioHigh = jr.massRatio > options.massRatio;
        r.joints.push_back(jr);
    }

    // Step at a fixed 1/60 s until everything rested for restSteps steps or the cap.
    const double restLinear = options.restLinear * kMetresPerInch;
    const double restAngular = options.restAngular / kDegrees;
    std::int32_t quiet = 0;
    std::vector<std::deque<double>> relSpeed(joints.size());
    for (std::int32_t step = 1; step <= maxSteps; ++step) {
        w.world.stepSimulation(static_cast<btScalar>(kStep), 1, static_cast<btScalar>(kStep));
        r.steps = step;
        bool still = true;
        for (const SimBody& s : sim) {
            if (s.rb->getLinearVelocity().length() > restLinear ||
                s.rb->getAngularVelocity().length() > restAngular) {
                still = false;
            }
        }
        for (std::size_t k = 0; k < joints.size(); ++k) {
            const SimJoint& j = joints[k];
            const btRigidBody* p = sim[static_cast<std::size_t>(j.parent)].rb;
            const btRigidBody* c = sim[static_cast<std::size_t>(j.child)].rb;
            const btVector3 a = p->getWorldTransform() * j.inParent.getOrigin();
            const btVector3 b = c->getWorldTransform() * j.inChild.getOrigin();
            const double sep = static_cast<double>(a.distance(b)) / kMetresPerInch;
            r.joints[k].separation = sep;
            r.joints[k].maxSeparation = std::max(r.joints[k].maxSeparation, sep);
            relSpeed[k].push_back(
                static_cast<double>((c->getAngularVelocity() - p->getAngularVelocity()).length()));
            if (relSpeed[k].size() > static_cast<std::size_t>(restSteps)) {
                relSpeed[k].pop_front();
            }
        }
        quiet = still ? quiet + 1 : 0;
        if (quiet >= restSteps) {
            r.rested = true;
            r.restStep = step - restSteps + 1;
            break;
        }
    }
    r.ran = true;
    r.seconds = r.steps * kStep;

    r.lowestZ = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        DropSolidResult s;
        s.name = input.bodies[i].name;
        s.boneToModel = fromBt(sim[i].rb->getWorldTransform() * sim[i].boneInBody);
        s.linearSpeed =
            static_cast<double>(sim[i].rb->getLinearVelocity().length()) / kMetresPerInch;
        s.angularSpeed = static_cast<double>(sim[i].rb->getAngularVelocity().length()) * kDegrees;
        for (const auto& piece : input.bodies[i].pieces) {
            for (const Eigen::Vector3d& p : piece) {
                r.lowestZ = std::min(r.lowestZ, (s.boneToModel * p).z());
            }
        }
        r.solids.push_back(std::move(s));
    }
    if (!std::isfinite(r.lowestZ)) {
        r.lowestZ = r.floorZ;
    }
    for (std::size_t k = 0; k < joints.size(); ++k) {
        DropJointResult& j = r.joints[k];
        double sum = 0;
        for (double v : relSpeed[k]) {
            sum += v;
        }
        j.angularSpeed =
            relSpeed[k].empty() ? 0 : sum / static_cast<double>(relSpeed[k].size()) * kDegrees;
        j.explodes = j.separation > joints[k].tolerance;
        j.jitters = !r.rested && j.angularSpeed > 2 * options.restAngular;
    }

    // Contacts deeper than the tolerance between solids that are not joined.
    btDispatcher* d = w.world.getDispatcher();
    for (int m = 0; m < d->getNumManifolds(); ++m) {
        const btPersistentManifold* mf = d->getManifoldByIndexInternal(m);
        int a = mf->getBody0()->getUserIndex();
        int b = mf->getBody1()->getUserIndex();
        if (a < 0 || b < 0 || a == b) {
            continue;
        }
        if (a > b) {
            std::swap(a, b);
        }
        const auto& adj = adjacent[static_cast<std::size_t>(a)];
        if (std::find(adj.begin(), adj.end(), static_cast<std::size_t>(b)) != adj.end()) {
            continue;
        }
        double depth = 0;
        for (int c = 0; c < mf->getNumContacts(); ++c) {
            depth = std::max(depth, -static_cast<double>(mf->getContactPoint(c).getDistance()) /
                                        kMetresPerInch);
        }
        if (depth <= options.penetrationDepth) {
            continue;
        }
        auto it = std::find_if(r.penetrations.begin(), r.penetrations.end(),
                               [&](const DropPenetration& p) { return p.a == a && p.b == b; });
        if (it == r.penetrations.end()) {
            r.penetrations.push_back({a, b, depth});
        } else {
            it->depth = std::max(it->depth, depth);
        }
    }
    std::sort(r.penetrations.begin(), r.penetrations.end(),
              [](const DropPenetration& x, const DropPenetration& y) {
                  return x.a != y.a ? x.a < y.a : x.b < y.b;
              });
    return r;
}

namespace {

std::string num(double v, int digits = 1)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string bodyName(const DropInput& in, std::int32_t i)
{
    return i >= 0 && static_cast<std::size_t>(i) < in.bodies.size()
               ? "'" + in.bodies[static_cast<std::size_t>(i)].name + "'"
               : std::string("?");
}

} // namespace

std::vector<Diagnostic> dropTestDiagnostics(const DropInput& input, const DropResult& result,
                                            const QcWhere& at, const DropOptions& options)
{
    std::vector<Diagnostic> out;
    if (!result.ran) {
        return out;
    }
    auto add = [&](std::string message) {
        out.push_back(
            diagnosticAt(Severity::Warning, ids::kPhysRagdollUnstable, at, std::move(message)));
    };
    if (!result.rested) {
        std::size_t fastest = 0;
        for (std::size_t i = 1; i < result.solids.size(); ++i) {
            if (result.solids[i].angularSpeed + result.solids[i].linearSpeed >
                result.solids[fastest].angularSpeed + result.solids[fastest].linearSpeed) {
                fastest = i;
            }
        }
        const DropSolidResult& s = result.solids[fastest];
        add("in the drop test the ragdoll does not come to rest in " + num(result.seconds) +
            " s: solid '" + s.name + "' still moves at " + num(s.linearSpeed) + " in/s, " +
            num(s.angularSpeed) + " deg/s");
    }
    std::string exploded, jittered, heavy;
    std::size_t explodedCount = 0, jitterCount = 0, heavyCount = 0;
    for (const DropJointResult& j : result.joints) {
        const std::string pair =
            bodyName(input, j.child) + " (parent " + bodyName(input, j.parent) + ")";
        if (j.explodes && explodedCount++ < 3) {
            exploded += (exploded.empty() ? "" : ", ") + pair + " " + num(j.separation) + " in";
        }
        if (j.jitters && jitterCount++ < 3) {
            jittered +=
                (jittered.empty() ? "" : ", ") + pair + " " + num(j.angularSpeed, 0) + " deg/s";
        }
        if (j.massRatioHigh && heavyCount++ < 3) {
            heavy += (heavy.empty() ? "" : ", ") + pair + " 1:" + num(j.massRatio, 0);
        }
    }
    if (explodedCount > 0) {
        add("in the drop test " + std::to_string(explodedCount) +
            " joint(s) come apart (the child's origin leaves its pivot): " + exploded +
            "; the ragdoll stretches or flies apart in the game");
    }
    if (jitterCount > 0) {
        add("in the drop test " + std::to_string(jitterCount) +
            " joint(s) keep shaking instead of settling: " + jittered +
            "; check their $jointconstrain limits and the masses on both sides");
    }
    if (heavyCount > 0) {
        add("solids joined with masses too far apart (more than 1:" + num(options.massRatio, 0) +
            "): " + heavy +
            "; the solver cannot hold the lighter one (check $jointmassbias, "
            "$mass)");
    }
    if (!result.penetrations.empty()) {
        std::string pairs;
        for (std::size_t i = 0; i < result.penetrations.size() && i < 3; ++i) {
            const DropPenetration& p = result.penetrations[i];
            pairs += (pairs.empty() ? "" : ", ") + bodyName(input, p.a) + " and " +
                     bodyName(input, p.b) + " " + num(p.depth) + " in";
        }
        add("in the drop test " + std::to_string(result.penetrations.size()) +
            " pair(s) of solids that are not joined rest inside each other: " + pairs +
            "; their hulls overlap in the bind pose or the joint limits push them together");
    }
    return out;
}

} // namespace rigscope::core
