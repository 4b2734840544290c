#include "core/ops/physics_report.h"

#include <cstdio>
#include <limits>

#include "core/ops/diagnostic_json.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

std::string fixed(double v, int digits)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

const char* limitTypeName(PhysicsJointLimit::Type t)
{
    switch (t) {
    case PhysicsJointLimit::Type::Free:
        return "free";
    case PhysicsJointLimit::Type::Fixed:
        return "fixed";
    case PhysicsJointLimit::Type::Limit:
        break;
    }
    return "limit";
}

} // namespace

std::string physicsSurfaceProp(const QcProject& project, const std::string& solid)
{
    std::string prop = "default";
    std::string joint;
    const std::string lower = asciiLower(solid);
    for (const QcCommand& c : project.commands) {
        if (c.name == "surfaceprop" && !c.args.empty()) {
            prop = c.args.front();
        } else if (c.name == "jointsurfaceprop" && c.args.size() >= 2 &&
                   asciiLower(c.args[0]) == lower) {
            joint = c.args[1];
        }
    }
    return joint.empty() ? prop : joint;
}

void writePhysicsJson(JsonWriter& w, const QcReport& r, bool detailed)
{
    const PhysicsModel& ph = r.physics;
    w.beginObject();
    w.key("solids").value(static_cast<std::uint64_t>(ph.solids.size()));
    w.key("convexPieces").value(static_cast<std::uint64_t>(ph.convexPieces()));
    w.key("mass").value(ph.mass());
    w.key("constraints").value(static_cast<std::uint64_t>(ph.constraints.size()));
    w.key("bodies").beginArray();
    for (const PhysicsSolid& s : ph.solids) {
        w.beginObject().key("name").value(s.name).key("pieces");
        w.value(static_cast<std::uint64_t>(s.pieces.size())).key("mass").value(s.mass);
        w.key("surfaceProp").value(physicsSurfaceProp(r.project, s.name));
        if (detailed) {
            w.key("parent").value(s.parent);
            w.key("volume").value(s.volume);
            w.key("damping").value(s.damping).key("rotDamping").value(s.rotDamping);
            w.key("inertia").value(s.inertia).key("massBias").value(s.massBias);
            if (s.drag != -1.0f) {
                w.key("drag").value(s.drag);
            }
            w.key("singleHullFallback").value(s.singleHullFallback);
            // Its pieces' bounds in the model's space at bind (as the window draws them).
            Vec3d lo = Vec3d::Constant(std::numeric_limits<double>::infinity());
            Vec3d hi = -lo;
            for (const PhysicsPiece& p : s.pieces) {
                for (const Vec3d& v : p.hull.vertices) {
                    const Vec3d m = s.boneToModel * v;
                    lo = lo.cwiseMin(m);
                    hi = hi.cwiseMax(m);
                }
            }
            if (lo.x() <= hi.x()) {
                w.key("min").beginArray().value(lo.x()).value(lo.y()).value(lo.z()).endArray();
                w.key("max").beginArray().value(hi.x()).value(hi.y()).value(hi.z()).endArray();
            }
            w.key("pieceList").beginArray();
            for (const PhysicsPiece& p : s.pieces) {
                w.beginObject()
                    .key("vertices")
                    .value(static_cast<std::uint64_t>(p.hull.vertices.size()));
                w.key("sourceVertices").value(static_cast<std::uint64_t>(p.sourceVertices));
                w.key("volume").value(p.hull.volume).endObject();
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
    if (detailed) {
        w.key("jointed").value(ph.jointed);
        w.key("meshFile").value(ph.meshFile);
        w.key("totalMass").value(ph.totalMass);
        w.key("constraintList").beginArray();
        for (const PhysicsConstraint& c : ph.constraints) {
            w.beginObject().key("parent").value(static_cast<std::int64_t>(c.parent));
            w.key("child").value(static_cast<std::int64_t>(c.child));
            for (std::size_t a = 0; a < 3; ++a) {
                const std::string ax(1, "xyz"[a]);
                w.key(ax + "min").value(c.min[a]).key(ax + "max").value(c.max[a]);
                w.key(ax + "friction").value(c.friction[a]);
            }
            w.endObject();
        }
        w.endArray();
        w.key("jointLimits").beginArray();
        for (const PhysicsJointLimit& l : ph.jointLimits) {
            w.beginObject().key("bone").value(l.bone);
            w.key("axis").value(std::string(1, "xyz"[l.axis]));
            w.key("type").value(limitTypeName(l.type));
            w.key("min").value(l.min).key("max").value(l.max).key("friction").value(l.friction);
            w.key("line").value(static_cast<std::int64_t>(l.at.where.line)).endObject();
        }
        w.endArray();
        const PhysicsSettings& s = ph.settings;
        w.key("settings").beginObject();
        w.key("mass").value(s.totalMass).key("automass").value(s.autoMass);
        w.key("concave").value(s.concave).key("concavePerJoint").value(s.concavePerJoint);
        w.key("maxConvexPieces").value(static_cast<std::int64_t>(s.maxConvexPieces));
        w.key("remove2d").value(s.remove2d);
        w.key("weldPosition").value(s.weldPosition).key("weldNormal").value(s.weldNormal);
        w.key("rootBone").value(s.rootBone);
        w.key("noSelfCollisions").value(s.noSelfCollisions);
        w.endObject();
    }
    w.endObject();
}

DropReport dropReport(const QcReport& r, const DropOptions& options)
{
    DropReport d;
    d.options = options;
    if (!r.physics.built) {
        d.result.skipped = "no collision model was built";
        return d;
    }
    d.input = dropInput(r.physics);
    d.result = runDropTest(d.input, options);
    d.diagnostics = dropTestDiagnostics(d.input, d.result, r.project.collision.at, options);
    return d;
}

namespace {

void writeVec(JsonWriter& w, const Eigen::Vector3d& v)
{
    w.beginArray().value(v.x()).value(v.y()).value(v.z()).endArray();
}

std::string solidName(const DropReport& d, std::int32_t i)
{
    return i >= 0 && static_cast<std::size_t>(i) < d.input.bodies.size()
               ? d.input.bodies[static_cast<std::size_t>(i)].name
               : std::string();
}

} // namespace

void writeDropJson(JsonWriter& w, const DropReport& d)
{
    const DropResult& r = d.result;
    w.beginObject();
    w.key("ran").value(r.ran);
    if (!r.ran) {
        w.key("skipped").value(r.skipped).endObject();
        return;
    }
    w.key("steps").value(static_cast<std::int64_t>(r.steps));
    w.key("seconds").value(r.seconds);
    w.key("rested").value(r.rested);
    w.key("restStep").value(static_cast<std::int64_t>(r.restStep));
    w.key("unstable").value(r.unstable());
    w.key("floorZ").value(r.floorZ).key("lowestZ").value(r.lowestZ);
    w.key("solids").beginArray();
    for (const DropSolidResult& s : r.solids) {
        w.beginObject().key("name").value(s.name).key("origin");
        writeVec(w, s.boneToModel.translation());
        const Eigen::Quaterniond q(s.boneToModel.linear());
        w.key("rotation").beginArray().value(q.w()).value(q.x()).value(q.y()).value(q.z());
        w.endArray();
        w.key("linearSpeed").value(s.linearSpeed).key("angularSpeed").value(s.angularSpeed);
        w.endObject();
    }
    w.endArray();
    w.key("joints").beginArray();
    for (const DropJointResult& j : r.joints) {
        w.beginObject().key("child").value(solidName(d, j.child));
        w.key("parent").value(solidName(d, j.parent));
        w.key("separation").value(j.separation).key("maxSeparation").value(j.maxSeparation);
        w.key("angularSpeed").value(j.angularSpeed).key("massRatio").value(j.massRatio);
        w.key("explodes").value(j.explodes).key("jitters").value(j.jitters);
        w.key("massRatioHigh").value(j.massRatioHigh).endObject();
    }
    w.endArray();
    w.key("penetrations").beginArray();
    for (const DropPenetration& p : r.penetrations) {
        w.beginObject().key("a").value(solidName(d, p.a)).key("b").value(solidName(d, p.b));
        w.key("depth").value(p.depth).endObject();
    }
    w.endArray();
    w.endObject();
}

std::string dropText(const DropReport& d)
{
    const DropResult& r = d.result;
    if (!r.ran) {
        return "  drop test: not run (" + r.skipped + ")\n";
    }
    std::string s = "  drop test: " +
                    (r.rested ? "at rest after " + fixed(r.restStep / 60.0, 2) + " s"
                              : "not at rest after " + fixed(r.seconds, 2) + " s") +
                    " (" + std::to_string(r.steps) + " steps of 1/60 s), lowest point " +
                    fixed(r.lowestZ - r.floorZ, 2) + " in above the floor" +
                    (r.unstable() ? ", UNSTABLE" : "") + "\n";
    for (const DropSolidResult& so : r.solids) {
        const Eigen::Vector3d o = so.boneToModel.translation();
        s += "    " + so.name + " at (" + fixed(o.x(), 2) + ", " + fixed(o.y(), 2) + ", " +
             fixed(o.z(), 2) + "), " + fixed(so.linearSpeed, 2) + " in/s, " +
             fixed(so.angularSpeed, 2) + " deg/s\n";
    }
    for (const DropJointResult& j : r.joints) {
        if (j.explodes || j.jitters || j.massRatioHigh) {
            s += "    joint " + solidName(d, j.child) + " -> " + solidName(d, j.parent) + ": " +
                 fixed(j.separation, 2) + " in apart, " + fixed(j.angularSpeed, 1) +
                 " deg/s, mass ratio 1:" + fixed(j.massRatio, 1) + "\n";
        }
    }
    for (const DropPenetration& p : r.penetrations) {
        s += "    " + solidName(d, p.a) + " inside " + solidName(d, p.b) + " by " +
             fixed(p.depth, 2) + " in\n";
    }
    return s;
}

std::string physicsJson(const QcReport& r, const std::vector<Diagnostic>& diagnostics,
                        const DropReport* drop)
{
    JsonWriter w;
    w.beginObject();
    w.key("file").value(r.file);
    w.key("collisionModel").value(r.physics.present);
    w.key("physics");
    writePhysicsJson(w, r, true);
    if (drop) {
        w.key("drop");
        writeDropJson(w, *drop);
    }
    writeDiagnosticsJson(w, diagnostics, r.profile, {});
    w.endObject();
    return w.take() + "\n";
}

std::string physicsText(const QcReport& r)
{
    const PhysicsModel& ph = r.physics;
    std::string s = r.file + ": ";
    if (!ph.present) {
        return s + "no $collisionmodel or $collisionjoints\n";
    }
    if (!ph.built) {
        return s + (ph.meshFile.empty() ? "the collision mesh was not found or not read\n"
                                        : "no solid comes out of " + ph.meshFile + "\n");
    }
    s += std::string(ph.jointed ? "ragdoll" : "prop") + " collision model from " + ph.meshFile +
         "\n";
    s += "  " + std::to_string(ph.solids.size()) + " solid" + (ph.solids.size() == 1 ? "" : "s") +
         ", " + std::to_string(ph.convexPieces()) + " convex pieces, " + fixed(ph.mass(), 2) +
         " kg (total " + fixed(ph.totalMass, 2) + (ph.settings.autoMass ? ", $automass" : "") +
         ")\n";
    for (std::size_t i = 0; i < ph.solids.size(); ++i) {
        const PhysicsSolid& so = ph.solids[i];
        s += "  [" + std::to_string(i) + "] " + so.name;
        if (!so.parent.empty()) {
            s += " (parent " + so.parent + ")";
        }
        s += ": " + std::to_string(so.pieces.size()) + " piece" +
             (so.pieces.size() == 1 ? "" : "s") + ", " + fixed(so.volume, 2) + " in^3, " +
             fixed(so.mass, 2) + " kg";
        if (so.massBias != 1.0f) {
            s += ", mass bias " + fixed(so.massBias, 2);
        }
        s += ", damping " + fixed(so.damping, 2) + "/" + fixed(so.rotDamping, 2) + ", inertia " +
             fixed(so.inertia, 2) + (so.singleHullFallback ? ", one hull (fallback)" : "") + "\n";
    }
    for (const PhysicsConstraint& c : ph.constraints) {
        s += "  joint " + ph.solids[static_cast<std::size_t>(c.child)].name + " -> " +
             (c.parent >= 0 ? ph.solids[static_cast<std::size_t>(c.parent)].name
                            : std::string("?")) +
             ":";
        for (std::size_t a = 0; a < 3; ++a) {
            s += std::string(" ") + "xyz"[a] + " " + fixed(c.min[a], 0) + ".." + fixed(c.max[a], 0);
        }
        s += "\n";
    }
    return s;
}

} // namespace rigscope::core
