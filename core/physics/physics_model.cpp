#include "core/physics/physics_model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <unordered_map>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/qc/qc_diagnostic.h"
#include "core/formats/registry.h"
#include "core/pose/effective_weights.h"
#include "core/pose/pose_rig.h"
#include "core/project/qc_collision_pose.h"
#include "core/project/qc_compile.h"
#include "core/text/ascii.h"

namespace rigscope::core {

std::size_t PhysicsModel::convexPieces() const noexcept
{
    std::size_t n = 0;
    for (const PhysicsSolid& s : solids) {
        n += s.pieces.size();
    }
    return n;
}

float PhysicsModel::mass() const noexcept
{
    float m = 0;
    for (const PhysicsSolid& s : solids) {
        m += s.mass;
    }
    return m;
}

namespace {

// Whether the collision model's file is also a $body / $model choice's file (the same file on
// disk, else the same name as written): the render mesh reused for physics.
bool collisionIsABodyFile(const QcProject& project)
{
    const std::int32_t ref = project.collision.fileRef;
    if (ref < 0 || static_cast<std::size_t>(ref) >= project.files.size()) {
        return false;
    }
    const QcFileRef& col = project.files[static_cast<std::size_t>(ref)];
    for (const QcBodygroup& g : project.bodygroups) {
        for (const QcBodyChoice& ch : g.choices) {
            if (ch.blank || ch.fileRef < 0 ||
                static_cast<std::size_t>(ch.fileRef) >= project.files.size()) {
                continue;
            }
            const QcFileRef& body = project.files[static_cast<std::size_t>(ch.fileRef)];
            if (ch.fileRef == ref || (!col.resolved.empty() && body.resolved == col.resolved) ||
                (col.resolved.empty() && body.path == col.path)) {
                return true;
            }
        }
    }
    return false;
}

// studiomdl's Safe_atof / Safe_atoi: atof of the token, 0 when it is missing.
float argFloat(const QcCollisionOption& o, std::size_t i)
{
    return i < o.args.size() ? std::strtof(o.args[i].c_str(), nullptr) : 0.0f;
}
std::int32_t argInt(const QcCollisionOption& o, std::size_t i)
{
    return i < o.args.size()
               ? static_cast<std::int32_t>(std::strtol(o.args[i].c_str(), nullptr, 10))
               : 0;
}
std::string argText(const QcCollisionOption& o, std::size_t i)
{
    return i < o.args.size() ? o.args[i] : std::string();
}

std::string fmt(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// The file's base name without folders and extension (studiomdl Q_FileBase): a prop's solid.
std::string fileBase(const std::string& path)
{
    const std::size_t slash = path.find_last_of("/\\");
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = base.find_last_of('.');
    if (dot != std::string::npos && dot > 0) {
        base.resize(dot);
    }
    return base;
}

// One studiomdl source vertex per mesh corner: position (scaled), normal and its compiled bone
// links (SortAndBalanceBones), with its line for diagnostics.
struct SourceMesh {
    std::vector<Vec3d> position;
    std::vector<Vec3d> normal;
    std::vector<std::vector<JointIndex>> bones; // compiled links, weight > 0
    std::vector<SourceLoc> where;
    std::vector<std::array<std::uint32_t, 3>> faces; // corner indices
    std::vector<std::uint32_t> faceMaterial;
    std::uint32_t materialCount = 0;
};

SourceMesh sourceMesh(const Model& m, double scale)
{
    SourceMesh s;
    const Mesh& mesh = m.mesh;
    const Influences inf =
        effectiveInfluences(mesh, m.skeleton.size(), Profile::Source, WeightView::Compiled);
    const std::size_t corners = mesh.cornerCount();
    s.position.reserve(corners);
    for (std::size_t c = 0; c < corners; ++c) {
        const std::uint32_t p = mesh.cornerPoints[c];
        s.position.push_back(mesh.pointPositions[p].cast<double>() * scale);
        s.normal.push_back(c < mesh.cornerNormals.size()
                               ? Vec3d(mesh.cornerNormals[c].cast<double>())
                               : Vec3d(Vec3d::Zero()));
        std::vector<JointIndex> bones;
        if (p + 1 < inf.offsets.size()) {
            for (std::uint32_t k = inf.offsets[p]; k < inf.offsets[p + 1]; ++k) {
                if (inf.weights[k] > 0 &&
                    std::find(bones.begin(), bones.end(), inf.joints[k]) == bones.end()) {
                    bones.push_back(inf.joints[k]);
                }
            }
        }
        s.bones.push_back(std::move(bones));
        s.where.push_back(c < mesh.cornerWhere.size() ? mesh.cornerWhere[c] : SourceLoc{});
    }
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        s.faces.push_back({static_cast<std::uint32_t>(3 * t), static_cast<std::uint32_t>(3 * t + 1),
                           static_cast<std::uint32_t>(3 * t + 2)});
        s.faceMaterial.push_back(mesh.triangleMaterials[t]);
        s.materialCount = std::max(s.materialCount, mesh.triangleMaterials[t] + 1);
    }
    return s;
}

// studiomdl BuildVertWeldTable: each vertex maps to the first earlier one within the weld
// distance whose normal is within the weld cosine (itself when none). Grid-hashed, same result.
std::vector<std::uint32_t> weldTable(const SourceMesh& s, double eps, double normalEps)
{
    const std::size_t n = s.position.size();
    std::vector<std::uint32_t> weld(n);
    const double cell = std::max(eps, 1e-4);
    auto key = [cell](const Vec3d& p) {
        return std::array<long long, 3>{static_cast<long long>(std::floor(p.x() / cell)),
                                        static_cast<long long>(std::floor(p.y() / cell)),
                                        static_cast<long long>(std::floor(p.z() / cell))};
    };
    std::map<std::array<long long, 3>, std::vector<std::uint32_t>> grid;
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3d& p = s.position[i];
        const auto k = key(p);
        std::uint32_t best = static_cast<std::uint32_t>(i);
        for (long long dx = -1; dx <= 1; ++dx) {
            for (long long dy = -1; dy <= 1; ++dy) {
                for (long long dz = -1; dz <= 1; ++dz) {
                    const auto it = grid.find({k[0] + dx, k[1] + dy, k[2] + dz});
                    if (it == grid.end()) {
                        continue;
                    }
                    for (std::uint32_t j : it->second) {
                        if (j < best && (s.position[j] - p).norm() <= eps &&
                            s.normal[j].dot(s.normal[i]) > normalEps) {
                            best = j;
                        }
                    }
                }
            }
        }
        weld[i] = best;
        grid[k].push_back(static_cast<std::uint32_t>(i));
    }
    return weld;
}

// One island: the source vertices of one convex piece, in vertex order.
using Island = std::vector<std::uint32_t>;

// studiomdl BuildConvexListForFaceList: the connected sets of (welded) vertices of `faces`.
// A vertex welded to another is never a member itself; an island reached through a vertex that
// is itself welded away carries studiomdl's -1 mark and is lost, as there.
std::vector<Island> connectedIslands(const SourceMesh& s, const std::vector<std::uint32_t>& faces,
                                     const std::vector<std::uint32_t>& weld)
{
    const std::size_t n = s.position.size();
    std::vector<std::uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0U);
    auto find = [&](std::uint32_t x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    };
    std::vector<std::uint8_t> used(n, 0);
    for (std::uint32_t f : faces) {
        const auto& tri = s.faces[f];
        const std::uint32_t a = weld[tri[0]], b = weld[tri[1]], c = weld[tri[2]];
        used[a] = used[b] = used[c] = 1;
        parent[find(a)] = find(b);
        parent[find(b)] = find(c);
    }
    // Islands touching a vertex that is welded away (its id stays -1) vanish.
    std::vector<std::uint8_t> lost(n, 0);
    for (std::size_t v = 0; v < n; ++v) {
        if (used[v] && weld[v] != v) {
            lost[find(static_cast<std::uint32_t>(v))] = 1;
        }
    }
    std::unordered_map<std::uint32_t, std::size_t> islandOf;
    std::vector<Island> out;
    for (std::size_t v = 0; v < n; ++v) {
        if (!used[v] || weld[v] != v) {
            continue;
        }
        const std::uint32_t r = find(static_cast<std::uint32_t>(v));
        if (lost[r]) {
            continue;
        }
        auto [it, added] = islandOf.emplace(r, out.size());
        if (added) {
            out.emplace_back();
        }
        out[it->second].push_back(static_cast<std::uint32_t>(v));
    }
    return out;
}

// studiomdl BuildSingleConvexForFaceList: every vertex of `faces` in one list.
Island allVerticesOf(const SourceMesh& s, const std::vector<std::uint32_t>& faces)
{
    std::vector<std::uint8_t> used(s.position.size(), 0);
    for (std::uint32_t f : faces) {
        for (std::uint32_t v : s.faces[f]) {
            used[v] = 1;
        }
    }
    Island out;
    for (std::size_t v = 0; v < used.size(); ++v) {
        if (used[v]) {
            out.push_back(static_cast<std::uint32_t>(v));
        }
    }
    return out;
}

// studiomdl IsApproximatelyPlanar (the 2-dimensional test, 0.5 inch), point for point.
bool approximatelyPlanar(const std::vector<Vec3d>& v, double epsilon)
{
    if (v.size() < 4) {
        return true;
    }
    std::size_t v0 = 1, v1 = 2;
    Vec3d normal = Vec3d::Zero();
    while (v0 < v.size() && v1 < v.size()) {
        const Vec3d e0 = v[v0] - v[0];
        const Vec3d e1 = v[v1] - v[0];
        normal = e0.cross(e1);
        const double len = normal.norm();
        if (len > 0) {
            normal /= len;
        }
        if (len > 0.001) {
            break;
        }
        if (e0.norm() < 0.001) {
            ++v0;
            ++v1;
        } else {
            ++v1;
        }
    }
    double minDist = normal.dot(v[0]);
    double maxDist = minDist;
    for (const Vec3d& p : v) {
        const double d = p.dot(normal);
        if (d < minDist) {
            minDist = d;
        } else if (d > maxDist) {
            maxDist = d;
        }
        if (std::fabs(maxDist - minDist) > epsilon) {
            return false;
        }
    }
    return true;
}

constexpr double kEpsilon2d = 0.5; // studiomdl g_epsilon_2d, inches

struct BuiltPieces {
    std::vector<PhysicsPiece> pieces;
    bool valid = true;
    std::vector<std::size_t> flatIslands; // index into the islands list
};

// studiomdl BuildConvexesForLists: one hull per island of more than 2 vertices; a flat island is
// dropped with $remove2d, else it marks the whole set invalid (it is still hulled).
BuiltPieces buildConvexes(const std::vector<Island>& islands, const std::vector<Vec3d>& verts,
                          bool remove2d)
{
    BuiltPieces out;
    for (std::size_t i = 0; i < islands.size(); ++i) {
        const Island& isl = islands[i];
        if (isl.size() <= 2) {
            continue;
        }
        std::vector<Vec3d> pts;
        pts.reserve(isl.size());
        for (std::uint32_t v : isl) {
            pts.push_back(verts[v]);
        }
        if (approximatelyPlanar(pts, kEpsilon2d)) {
            if (remove2d) {
                continue;
            }
            out.valid = false;
            out.flatIslands.push_back(i);
        }
        if (auto hull = convexHull(pts)) {
            out.pieces.push_back({std::move(*hull), isl.size()});
        }
    }
    return out;
}

struct Builder {
    const QcProject& project;
    const QcCompiled& compiled;
    const Model& model;
    PhysicsModel out;
    SourceMesh src;
    std::vector<std::uint32_t> weld;
    // Welded by position alone: the mesh's geometric parts (phys.not-concave), hard edges or not.
    std::vector<std::uint32_t> weldByPosition;

    // Ragdoll state (studiomdl CJointedModel).
    std::vector<std::int32_t> boneMap; // per collision bone: the bone it maps to, -1 skipped
    struct Pending {
        std::string name, parent;
        JointIndex bone = kNoJoint;
        float damping, rotDamping, inertia, massBias = 1.0f, drag;
        bool hasData = false;
        PhysicsSolid solid;
    };
    std::vector<Pending> list; // the linked list, head first

    Builder(const QcProject& p, const QcCompiled& c, const Model& m)
        : project(p), compiled(c), model(m)
    {
    }

    JointIndex localBone(const std::string& name) const
    {
        const std::string lower = asciiLower(name);
        for (std::size_t i = 0; i < model.skeleton.size(); ++i) {
            if (asciiLower(model.skeleton.names[i]) == lower) {
                return static_cast<JointIndex>(i);
            }
        }
        return kNoJoint;
    }
    bool inCompiled(const std::string& name) const
    {
        if (!compiled.hasModel) {
            return true;
        }
        const std::string lower = asciiLower(name);
        for (const std::string& n : compiled.model.skeleton.names) {
            if (asciiLower(n) == lower) {
                return true;
            }
        }
        return false;
    }
    std::string boneName(JointIndex j) const
    {
        return j >= 0 && static_cast<std::size_t>(j) < model.skeleton.size()
                   ? model.skeleton.names[static_cast<std::size_t>(j)]
                   : std::string();
    }
    std::string parentName(JointIndex j) const
    {
        if (j < 0 || static_cast<std::size_t>(j) >= model.skeleton.size()) {
            return {};
        }
        return boneName(model.skeleton.parents[static_cast<std::size_t>(j)]);
    }
    Pending* findPending(const std::string& name)
    {
        const std::string lower = asciiLower(name);
        for (Pending& p : list) {
            if (asciiLower(p.name) == lower) {
                return &p;
            }
        }
        return nullptr;
    }
    // studiomdl InitCollisionModel: the solid of a bone, made (at the list's head) when new.
    Pending* initSolid(const std::string& name)
    {
        if (Pending* p = findPending(name)) {
            return p;
        }
        const JointIndex b = localBone(name);
        if (b == kNoJoint) {
            return nullptr;
        }
        Pending p;
        p.name = boneName(b);
        p.parent = parentName(b);
        p.bone = b;
        p.damping = out.settings.damping;
        p.rotDamping = out.settings.rotDamping;
        p.inertia = out.settings.inertia;
        p.drag = out.settings.drag;
        list.insert(list.begin(), std::move(p));
        return &list.front();
    }
    void mergeBones(JointIndex parent, JointIndex child)
    {
        if (parent < 0 || child < 0) {
            return;
        }
        std::int32_t map = parent;
        std::size_t safety = 0;
        while (boneMap[static_cast<std::size_t>(map)] != map) {
            map = boneMap[static_cast<std::size_t>(map)];
            if (++safety > boneMap.size() || map < 0) {
                break;
            }
        }
        boneMap[static_cast<std::size_t>(child)] = map;
    }

    void applyOptions();
    void buildSingleBody();
    void buildJointed();
    void finishJointed();
    void distributeMass();
    void checks();
};

void Builder::applyOptions()
{
    PhysicsSettings& s = out.settings;
    const QcCollision& col = project.collision;
    boneMap.resize(model.skeleton.size());
    std::iota(boneMap.begin(), boneMap.end(), 0);
    for (const QcCollisionOption& o : col.options) {
        const std::string& n = o.name;
        if (n == "mass") {
            s.totalMass = argFloat(o, 0);
            s.totalMassSet = true;
            s.autoMass = false;
            if (!(s.totalMass > 0)) {
                out.diagnostics.push_back(
                    diagnosticAt(Severity::Warning, ids::kPhysMassRange, o.at,
                                 "$mass " + argText(o, 0) +
                                     ": every solid gets studiomdl's minimum of 1 kg instead"));
            }
        } else if (n == "automass") {
            s.autoMass = true;
        } else if (n == "inertia") {
            s.inertia = argFloat(o, 0);
            if (!(s.inertia > 0)) {
                out.diagnostics.push_back(diagnosticAt(
                    Severity::Warning, ids::kPhysMassRange, o.at,
                    "$inertia " + argText(o, 0) + ": the solids get no rotational inertia"));
            }
        } else if (n == "damping") {
            s.damping = argFloat(o, 0);
        } else if (n == "rotdamping") {
            s.rotDamping = argFloat(o, 0);
        } else if (n == "drag") {
            s.drag = argFloat(o, 0);
        } else if (n == "rollingdrag" || n == "masscenter" || n == "jointcollide" ||
                   n == "assumeworldspace") {
            // read and ignored here (no effect on the solids, pieces or masses)
        } else if (n == "maxconvexpieces") {
            s.maxConvexPieces = argInt(o, 0);
            s.maxConvexPiecesSet = true;
        } else if (n == "remove2d") {
            s.remove2d = true;
        } else if (n == "concaveperjoint") {
            s.concavePerJoint = true;
        } else if (n == "weldposition") {
            s.weldPosition = argFloat(o, 0);
        } else if (n == "weldnormal") {
            s.weldNormal = argFloat(o, 0);
        } else if (n == "concave") {
            s.concave = true;
        } else if (n == "convexhullcountoverride") {
            s.hullCountOverride = true;
        } else if (n == "jointskip") {
            const JointIndex b = localBone(argText(o, 0));
            if (b != kNoJoint) {
                boneMap[static_cast<std::size_t>(b)] = -1;
            }
        } else if (n == "jointmerge") {
            mergeBones(localBone(argText(o, 0)), localBone(argText(o, 1)));
        } else if (n == "rootbone") {
            s.rootBone = argText(o, 0);
        } else if (n == "jointconstrain") {
            PhysicsJointLimit l;
            l.bone = argText(o, 0);
            l.at = o.at;
            const std::string axis = asciiLower(argText(o, 1));
            l.axis = axis.empty() ? -1 : axis[0] - 'x';
            const std::string type = asciiLower(argText(o, 2));
            l.min = argFloat(o, 3);
            l.max = argFloat(o, 4);
            l.friction = o.args.size() >= 6 ? argFloat(o, 5) : 1.0f;
            const JointIndex b = localBone(l.bone);
            if (b == kNoJoint) {
                Diagnostic d = diagnosticAt(Severity::Warning, ids::kPhysConstraintNoSolid, o.at,
                                            "$jointconstrain names '" + l.bone +
                                                "', a bone the collision mesh does not have: "
                                                "studiomdl ignores it");
                d.fixedSeverity = true;
                out.diagnostics.push_back(std::move(d));
                continue;
            }
            l.bone = boneName(b);
            if (l.axis < 0 || l.axis > 2 || l.min > l.max) {
                out.diagnostics.push_back(diagnosticAt(
                    Severity::Error, ids::kPhysConstraintRange, o.at,
                    l.axis < 0 || l.axis > 2
                        ? "$jointconstrain on '" + l.bone + "' names axis '" + argText(o, 1) +
                              "' (x, y or z): studiomdl stops (\"Can't build ragdoll\")"
                        : "$jointconstrain on '" + l.bone + "': min " + fmt(l.min) + " > max " +
                              fmt(l.max) + ": studiomdl stops (\"Can't build ragdoll\")"));
                continue;
            }
            if (type == "free") {
                l.type = PhysicsJointLimit::Type::Free;
            } else if (type == "fixed") {
                l.type = PhysicsJointLimit::Type::Fixed;
            } else if (type == "limit") {
                l.type = PhysicsJointLimit::Type::Limit;
            } else {
                Diagnostic d =
                    diagnosticAt(Severity::Warning, ids::kPhysConstraintRange, o.at,
                                 "$jointconstrain on '" + l.bone + "': type '" + argText(o, 2) +
                                     "' is not free, fixed or limit: studiomdl ignores it");
                d.fixedSeverity = true;
                out.diagnostics.push_back(std::move(d));
                continue;
            }
            if (l.type == PhysicsJointLimit::Type::Limit && (l.min < -180.0f || l.max > 180.0f)) {
                Diagnostic d = diagnosticAt(
                    Severity::Warning, ids::kPhysConstraintRange, o.at,
                    "$jointconstrain on '" + l.bone + "' " + "xyz"[l.axis] + ": limit " +
                        fmt(l.min) + ".." + fmt(l.max) +
                        " goes beyond -180..180 degrees: the joint turns further than meant "
                        "(use 'free' for a free axis)");
                d.fixedSeverity = true;
                out.diagnostics.push_back(std::move(d));
            }
            out.jointLimits.push_back(std::move(l));
        } else if (n == "jointinertia" || n == "jointdamping" || n == "jointrotdamping" ||
                   n == "jointmassbias") {
            Pending* p = initSolid(argText(o, 0));
            if (!p) {
                continue;
            }
            const float v = argFloat(o, 1);
            if (n == "jointinertia") {
                p->inertia = v;
            } else if (n == "jointdamping") {
                p->damping = v;
            } else if (n == "jointrotdamping") {
                p->rotDamping = v;
            } else {
                p->massBias = v;
            }
        } else if (n == "noselfcollisions") {
            s.noSelfCollisions = true;
        } else if (n == "animatedfriction") {
            s.animatedFriction = o.args.size() >= 5;
        } else if (n == "addconvexsrc") {
            s.addConvexSources.push_back(argText(o, 0));
        } else if (n == "jointcollidealltoall" || n == "jointnocollide") {
            // collision pairs only (later studiomdl builds)
        } else {
            out.diagnostics.push_back(
                diagnosticAt(Severity::Warning, ids::kPhysUnknownOption, o.at,
                             "$" + n +
                                 " is not a collision model command: studiomdl "
                                 "ignores it (\"Unknown command in collision "
                                 "series\")"));
        }
    }
}

void Builder::buildSingleBody()
{
    const PhysicsSettings& s = out.settings;
    std::vector<std::uint32_t> all(src.faces.size());
    std::iota(all.begin(), all.end(), 0U);
    PhysicsSolid solid;
    solid.name = fileBase(out.meshFile);
    std::size_t islandCount = 0;
    if (s.concave) {
        const std::vector<Island> islands = connectedIslands(src, all, weld);
        islandCount = islands.size();
        BuiltPieces built = buildConvexes(islands, src.position, s.remove2d);
        if (!built.flatIslands.empty()) {
            const Island& isl = islands[built.flatIslands.front()];
            Diagnostic d = diagnosticAt(
                Severity::Warning, ids::kPhysFlatPiece, {out.meshFile, src.where[isl.front()]},
                std::to_string(built.flatIslands.size()) +
                    " piece(s) of the collision mesh are flat (thinner than 0.5 "
                    "inch), e.g. the one at this vertex: studiomdl builds one hull "
                    "around the whole mesh instead (\"2-dimensional geometry\"); "
                    "check the smoothing groups or add $remove2d");
            out.diagnostics.push_back(std::move(d));
        }
        const auto count = static_cast<std::int32_t>(built.pieces.size());
        if (count > s.maxConvexPieces && !s.hullCountOverride) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Warning, ids::kPhysCostlyCollision, project.collision.at,
                "COSTLY COLLISION MODEL: " + std::to_string(count) + " convex pieces - " +
                    std::to_string(s.maxConvexPieces) +
                    " allowed: studiomdl builds one hull around the whole mesh instead" +
                    (s.maxConvexPiecesSet ? "" : " (raise the limit with $maxconvexpieces)")));
            built.valid = false;
        }
        if (built.valid) {
            solid.pieces = std::move(built.pieces);
        }
    }
    if (solid.pieces.empty()) {
        solid.singleHullFallback = s.concave;
        std::vector<Island> one{Island(src.position.size())};
        std::iota(one[0].begin(), one[0].end(), 0U);
        BuiltPieces built = buildConvexes(one, src.position, true);
        solid.pieces = std::move(built.pieces);
        if (!s.concave && !src.faces.empty()) {
            const std::vector<Island> islands = connectedIslands(src, all, weldByPosition);
            islandCount = islands.size();
            if (islands.size() > 1) {
                // The render mesh reused as the collision model (the same file as a $body):
                // a hull around the whole model is evidently what was asked for (momentum's
                // world-model guns, L4D2's forklift tire), so a note; separate parts in a
                // collision file of their own stay a warning.
                const bool bodyFile = collisionIsABodyFile(project);
                out.diagnostics.push_back(diagnosticAt(
                    bodyFile ? Severity::Note : Severity::Warning, ids::kPhysNotConcave,
                    project.collision.at,
                    "the collision mesh has " + std::to_string(islands.size()) +
                        " separate parts but no $concave: studiomdl wraps them in one convex "
                        "hull" +
                        (bodyFile ? std::string(" (it is a $body's file: one hull around the "
                                                "model, as usual for a render mesh reused)")
                                  : std::string())));
                out.diagnostics.back().fixedSeverity = bodyFile;
            }
        }
    }
    (void)islandCount;
    if (solid.pieces.empty()) {
        if (!src.position.empty()) {
            Diagnostic d =
                diagnosticAt(Severity::Error, ids::kPhysFlatPiece, project.collision.at,
                             "the whole collision mesh is flat (thinner than 0.5 inch) or spans "
                             "no volume: studiomdl writes no solid, the model has no collision");
            d.fixedSeverity = true;
            out.diagnostics.push_back(std::move(d));
        }
        return;
    }
    // studiomdl CreateCollide: a long thin body (longest side > 9 x the other two) gets
    // rotational damping 1 so it does not roll for ever.
    Vec3d lo = src.position.empty() ? Vec3d::Zero() : src.position.front();
    Vec3d hi = lo;
    for (const Vec3d& p : src.position) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    solid.damping = s.damping;
    solid.rotDamping = s.rotDamping;
    solid.inertia = s.inertia;
    solid.drag = s.drag;
    const Vec3d size = hi - lo;
    Eigen::Index largest = 0;
    size.maxCoeff(&largest);
    Vec3d rest = size;
    rest[largest] = 0;
    if (rest.norm() > 0 && size[largest] / rest.norm() > 9) {
        solid.rotDamping = 1.0f;
    }
    for (const PhysicsPiece& p : solid.pieces) {
        solid.volume += p.hull.volume;
        solid.surfaceArea += p.hull.area;
    }
    out.solids.push_back(std::move(solid));
}

void Builder::buildJointed()
{
    const PhysicsSettings& s = out.settings;
    // studiomdl Simplify: bones the compiled model drops are skipped; $rootbone merges into the
    // animation root.
    for (std::size_t b = 0; b < model.skeleton.size(); ++b) {
        if (!inCompiled(model.skeleton.names[b])) {
            boneMap[b] = -1;
        }
    }
    if (compiled.hasModel && !compiled.model.skeleton.empty()) {
        mergeBones(localBone(compiled.model.skeleton.names.front()), localBone(s.rootBone));
    }
    const PoseRig rig = makePoseRig(model.skeleton);
    const double scale = qcFileScale(project, project.collision.fileRef);
    auto remap = [&](JointIndex j) {
        return j >= 0 && static_cast<std::size_t>(j) < boneMap.size()
                   ? boneMap[static_cast<std::size_t>(j)]
                   : -1;
    };
    // Faces grouped by material in material order: studiomdl's meshes.
    std::vector<std::vector<std::uint32_t>> meshFaces(src.materialCount);
    for (std::size_t f = 0; f < src.faces.size(); ++f) {
        meshFaces[src.faceMaterial[f]].push_back(static_cast<std::uint32_t>(f));
    }
    std::erase_if(meshFaces, [](const auto& v) { return v.empty(); });
    for (std::size_t b = 0; b < model.skeleton.size(); ++b) {
        if (boneMap[b] != static_cast<std::int32_t>(b)) {
            continue;
        }
        // The vertices in the bone's space (studiomdl ConvertToBoneSpace).
        std::vector<Vec3d> boneVerts(src.position.size());
        const Eigen::Affine3d toBone = b < rig.inverseBind.size()
                                           ? rig.inverseBind[b].cast<double>()
                                           : Eigen::Affine3d::Identity();
        for (std::size_t v = 0; v < src.position.size(); ++v) {
            boneVerts[v] = toBone.linear() * src.position[v] + toBone.translation() * scale;
        }
        // studiomdl ProcessJointedModel, mesh by mesh: the faces with a vertex on the bone
        // accumulate, and each mesh's pass appends the islands (and hulls) found so far again:
        // with several materials, earlier pieces are built more than once, as studiomdl does.
        std::vector<std::uint32_t> faceList;
        std::vector<Island> islands;
        BuiltPieces all;
        bool valid = false;
        std::vector<std::size_t> flat;
        for (const auto& mesh : meshFaces) {
            for (std::uint32_t f : mesh) {
                for (std::uint32_t v : src.faces[f]) {
                    const auto& bones = src.bones[v];
                    if (std::any_of(bones.begin(), bones.end(), [&](JointIndex j) {
                            return remap(j) == static_cast<std::int32_t>(b);
                        })) {
                        faceList.push_back(f);
                        break;
                    }
                }
            }
            if (s.concavePerJoint) {
                const auto more = connectedIslands(src, faceList, weld);
                islands.insert(islands.end(), more.begin(), more.end());
            } else {
                islands.push_back(allVerticesOf(src, faceList));
            }
            BuiltPieces pass = buildConvexes(islands, boneVerts, s.remove2d);
            valid = pass.valid;
            flat = pass.flatIslands;
            for (PhysicsPiece& p : pass.pieces) {
                all.pieces.push_back(std::move(p));
            }
        }
        // A ragdoll bone that loses its solid loses data: an error.
        if (!flat.empty()) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Error, ids::kPhysFlatPiece,
                {out.meshFile, src.where[islands[flat.front()].front()]},
                "a piece of bone '" + boneName(static_cast<JointIndex>(b)) +
                    "' is flat (thinner than 0.5 inch): studiomdl drops the bone's pieces "
                    "(\"2-dimensional geometry\"); check the smoothing groups or add "
                    "$remove2d"));
            out.diagnostics.back().fixedSeverity = true;
        }
        const auto count = static_cast<std::int32_t>(all.pieces.size());
        if (count > s.maxConvexPieces) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Error, ids::kPhysCostlyCollision, project.collision.at,
                "COSTLY COLLISION MODEL: bone '" + boneName(static_cast<JointIndex>(b)) + "' has " +
                    std::to_string(count) + " convex pieces - " +
                    std::to_string(s.maxConvexPieces) + " allowed: studiomdl drops its solid"));
            out.diagnostics.back().fixedSeverity = true;
            valid = false;
        }
        if (!s.concavePerJoint && count == 1 && !faceList.empty()) {
            const auto parts = connectedIslands(src, faceList, weldByPosition);
            if (parts.size() > 1) {
                out.diagnostics.push_back(diagnosticAt(
                    Severity::Warning, ids::kPhysNotConcave, project.collision.at,
                    "bone '" + boneName(static_cast<JointIndex>(b)) + "' has " +
                        std::to_string(parts.size()) +
                        " separate parts but no $concaveperjoint: studiomdl wraps them in one "
                        "convex hull"));
            }
        }
        if (!valid) {
            all.pieces.clear();
        }
        if (all.pieces.empty()) {
            continue;
        }
        Pending* p = initSolid(boneName(static_cast<JointIndex>(b)));
        if (!p) {
            continue;
        }
        p->hasData = true;
        PhysicsSolid& solid = p->solid;
        solid.pieces = std::move(all.pieces);
        Eigen::Affine3d scaledToBone = toBone;
        scaledToBone.translation() *= scale;
        solid.boneToModel = scaledToBone.inverse();
        Vec3d lo = Vec3d::Constant(1e30), hi = Vec3d::Constant(-1e30);
        for (const Island& isl : islands) {
            for (std::uint32_t v : isl) {
                lo = lo.cwiseMin(boneVerts[v]);
                hi = hi.cwiseMax(boneVerts[v]);
            }
        }
        const Vec3d size = hi - lo;
        Eigen::Index largest = 0;
        size.maxCoeff(&largest);
        Vec3d rest = size;
        rest[largest] = 0;
        if (rest.norm() > 0 && size[largest] / rest.norm() > 9) {
            p->rotDamping = 1.0f;
        }
        // Unlink + append: the solid moves to the list's head.
        Pending moved = std::move(*p);
        list.erase(list.begin() + (p - list.data()));
        list.insert(list.begin(), std::move(moved));
    }
    // Solids without geometry are removed.
    std::erase_if(list, [](const Pending& p) { return !p.hasData; });
    finishJointed();
}

void Builder::finishJointed()
{
    // studiomdl FixBoneList: the parent is the parent bone as merged ($jointmerge / $rootbone).
    for (Pending& p : list) {
        const JointIndex b = localBone(p.name);
        p.parent.clear();
        if (b != kNoJoint) {
            const JointIndex parent = model.skeleton.parents[static_cast<std::size_t>(b)];
            if (parent >= 0 && parent != b) {
                const std::int32_t mapped = boneMap[static_cast<std::size_t>(parent)];
                p.parent = boneName(mapped >= 0 ? mapped : parent);
            }
        }
    }
    // studiomdl FixParent: up the skeleton to the first bone that has a solid.
    auto fixParent = [&](std::string name) {
        while (!name.empty()) {
            if (findPending(name)) {
                return name;
            }
            const JointIndex b = localBone(name);
            if (b == kNoJoint) {
                return std::string();
            }
            const JointIndex parent = model.skeleton.parents[static_cast<std::size_t>(b)];
            if (parent < 0) {
                break;
            }
            name = boneName(parent);
        }
        return std::string();
    };
    for (Pending& p : list) {
        p.parent = fixParent(p.parent);
    }
    // studiomdl SortCollisionList: bubble parents before children.
    bool swapped = true;
    std::size_t guard = 0;
    while (swapped && guard++ < list.size() * list.size() + 1) {
        swapped = false;
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (list[i].parent.empty() || asciiLower(list[i].parent) == asciiLower(list[i].name)) {
                continue;
            }
            std::size_t j = 0;
            for (; j < list.size(); ++j) {
                if (j != i && asciiLower(list[i].parent) == asciiLower(list[j].name)) {
                    break;
                }
            }
            if (j > i && j < list.size()) {
                std::swap(list[i], list[j]);
                swapped = true;
            }
        }
    }
    auto indexOf = [&](const std::string& name) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!name.empty() && asciiLower(list[i].name) == asciiLower(name)) {
                return static_cast<std::int32_t>(i);
            }
        }
        return std::int32_t{-1};
    };
    for (Pending& p : list) {
        PhysicsSolid solid = std::move(p.solid);
        solid.name = p.name;
        solid.parent = p.parent;
        solid.bone = p.bone;
        solid.damping = p.damping;
        solid.rotDamping = p.rotDamping;
        solid.inertia = p.inertia;
        solid.massBias = p.massBias;
        solid.drag = p.drag;
        for (const PhysicsPiece& piece : solid.pieces) {
            solid.volume += piece.hull.volume;
            solid.surfaceArea += piece.hull.area;
        }
        out.solids.push_back(std::move(solid));
    }
    // studiomdl BuildRagdollConstraint: one constraint per solid with a parent, every axis
    // locked (0..0) unless a $jointconstrain opens it; the first one written for an axis wins.
    for (std::size_t i = 0; i < out.solids.size(); ++i) {
        const PhysicsSolid& s = out.solids[i];
        if (s.parent.empty()) {
            continue;
        }
        PhysicsConstraint c;
        c.child = static_cast<std::int32_t>(i);
        c.parent = indexOf(s.parent);
        for (auto it = out.jointLimits.rbegin(); it != out.jointLimits.rend(); ++it) {
            if (indexOf(fixParent(it->bone)) != c.child) {
                continue;
            }
            const auto a = static_cast<std::size_t>(it->axis);
            switch (it->type) {
            case PhysicsJointLimit::Type::Limit:
                c.min[a] = it->min;
                c.max[a] = it->max;
                c.friction[a] = it->friction / 5.0f;
                break;
            case PhysicsJointLimit::Type::Fixed:
                c.min[a] = c.max[a] = c.friction[a] = 0;
                break;
            case PhysicsJointLimit::Type::Free:
                c.min[a] = -360;
                c.max[a] = 360;
                c.friction[a] = it->friction / 5.0f;
                break;
            }
        }
        if (c.parent != c.child) {
            out.constraints.push_back(c);
        }
    }
    // A $jointconstrain on a bone with no solid: studiomdl stops ("Rotation constraint on bone
    // ... which does not appear in collision model").
    for (const PhysicsJointLimit& l : out.jointLimits) {
        const std::string target = fixParent(l.bone);
        const std::int32_t idx = indexOf(target);
        if (idx < 0) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Error, ids::kPhysConstraintNoSolid, l.at,
                "$jointconstrain on '" + l.bone +
                    "', a bone with no solid (no collision vertex on it or above it): studiomdl "
                    "stops (\"Rotation constraint on bone which does not appear in collision "
                    "model\")"));
        } else if (!out.solids[static_cast<std::size_t>(idx)].parent.empty() &&
                   asciiLower(target) != asciiLower(l.bone)) {
            Diagnostic d =
                diagnosticAt(Severity::Warning, ids::kPhysConstraintNoSolid, l.at,
                             "$jointconstrain on '" + l.bone +
                                 "', a bone with no solid: studiomdl applies it to the joint "
                                 "of '" +
                                 target + "', the nearest parent with one");
            d.fixedSeverity = true;
            out.diagnostics.push_back(std::move(d));
        } else if (out.solids[static_cast<std::size_t>(idx)].parent.empty() &&
                   asciiLower(target) != asciiLower(out.settings.rootBone)) {
            out.diagnostics.push_back(
                diagnosticAt(Severity::Error, ids::kPhysConstraintNoSolid, l.at,
                             "$jointconstrain on '" + l.bone +
                                 "', the root solid, which has no parent to turn "
                                 "against: studiomdl stops (\"Rotation constraint "
                                 "on bone which has no parent\")"));
        }
    }
}

// studiomdl CollisionModel_Write: each solid's share of the total mass by volume * mass bias,
// at least 1 kg. $automass: the volume at the density of the "default" surface property.
void Builder::distributeMass()
{
    constexpr double kCubicMetersPerCubicInch = 0.0254 * 0.0254 * 0.0254;
    constexpr double kDefaultDensity = 2000.0; // kg/m^3, surfaceproperties "default"
    double total = out.settings.totalMass;
    if (out.settings.autoMass) {
        total = 0;
        for (const PhysicsSolid& s : out.solids) {
            total += s.volume * kCubicMetersPerCubicInch * kDefaultDensity;
        }
    }
    out.totalMass = static_cast<float>(total);
    double volume = 0;
    for (const PhysicsSolid& s : out.solids) {
        volume += s.volume * s.massBias;
    }
    if (volume <= 0) {
        volume = 1;
    }
    for (PhysicsSolid& s : out.solids) {
        s.mass = static_cast<float>(s.volume * s.massBias / volume * total);
        if (s.mass < 1.0f) {
            s.mass = 1.0f;
        }
    }
}

void Builder::checks()
{
    const QcWhere& colAt = project.collision.at;
    if (out.jointed) {
        // A ragdoll of more solids than the game's RAGDOLL_MAX_ELEMENTS (24) is never built.
        constexpr std::size_t kRagdollMax = 24;
        if (out.solids.size() > kRagdollMax) {
            out.diagnostics.push_back(
                diagnosticAt(Severity::Warning, ids::kPhysTooManySolids, colAt,
                             "the ragdoll has " + std::to_string(out.solids.size()) +
                                 " solids - 24 allowed: the game does not make it "
                                 "a ragdoll (RAGDOLL_MAX_ELEMENTS)"));
        }
        // Vertices weighted to several bones (their faces join every bone's hull) and to bones
        // the compiled model does not have (their geometry is lost).
        std::size_t multi = 0, unknown = 0;
        SourceLoc firstMulti, firstUnknown;
        std::string unknownBone;
        for (std::size_t v = 0; v < src.bones.size(); ++v) {
            const auto& bones = src.bones[v];
            if (bones.size() > 1 && multi++ == 0) {
                firstMulti = src.where[v];
            }
            for (JointIndex j : bones) {
                if (!inCompiled(boneName(j))) {
                    if (unknown++ == 0) {
                        firstUnknown = src.where[v];
                        unknownBone = boneName(j);
                    }
                    break;
                }
            }
        }
        if (multi) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Warning, ids::kPhysVertexMultipleBones, {out.meshFile, firstMulti},
                std::to_string(multi) + " collision vertices are weighted to more than one "
                                        "bone (the first here): their faces go into the "
                                        "hull of each of those bones"));
        }
        if (unknown) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Error, ids::kPhysVertexUnknownBone, {out.meshFile, firstUnknown},
                std::to_string(unknown) +
                    " collision vertices (the first here) are weighted "
                    "to '" +
                    unknownBone +
                    "', a bone the compiled model does not have: "
                    "studiomdl skips it and its geometry is lost"));
        }
    }
    // Masses the engine clamps (VPHYSICS_MAX_MASS = 50000 kg).
    for (const PhysicsSolid& s : out.solids) {
        if (s.mass > 5e4f) {
            out.diagnostics.push_back(
                diagnosticAt(Severity::Warning, ids::kPhysMassRange, colAt,
                             "solid '" + s.name + "' weighs " + fmt(s.mass) +
                                 " kg: the engine clamps masses to 50000 kg"));
            break;
        }
    }
    if (out.settings.totalMassSet && !out.settings.autoMass && out.settings.totalMass > 0 &&
        out.solids.size() > 1 && out.mass() > out.settings.totalMass * 1.1f &&
        out.mass() > out.settings.totalMass + 1.0f) {
        out.diagnostics.push_back(
            diagnosticAt(Severity::Warning, ids::kPhysMassRange, colAt,
                         "the solids weigh " + fmt(out.mass()) + " kg, not $mass " +
                             fmt(out.settings.totalMass) +
                             ": studiomdl raises every solid's share to at least 1 "
                             "kg"));
    }
    // A collision mesh far outside the visible one (wrong scale or an unapplied transform).
    if (compiled.hasModel && !compiled.model.mesh.empty() && !src.position.empty()) {
        Vec3d vlo = Vec3d::Constant(1e30), vhi = Vec3d::Constant(-1e30);
        for (const Vec3& p : compiled.model.mesh.pointPositions) {
            vlo = vlo.cwiseMin(p.cast<double>());
            vhi = vhi.cwiseMax(p.cast<double>());
        }
        Vec3d clo = Vec3d::Constant(1e30), chi = Vec3d::Constant(-1e30);
        for (const Vec3d& p : src.position) {
            clo = clo.cwiseMin(p);
            chi = chi.cwiseMax(p);
        }
        const double visibleSize = (vhi - vlo).maxCoeff();
        const double beyond = std::max((vlo - clo).maxCoeff(), (chi - vhi).maxCoeff());
        if (visibleSize > 0 && beyond > std::max(1.0, 0.5 * visibleSize)) {
            out.diagnostics.push_back(diagnosticAt(
                Severity::Warning, ids::kPhysMeshLarger, colAt,
                "the collision mesh reaches " + fmt(beyond) + " units beyond the visible model (" +
                    fmt(visibleSize) + " units across): check its scale and position"));
        }
    }
}

} // namespace

PhysicsModel buildPhysicsModel(const QcProject& project, const QcCompiled& compiled,
                               const Model& mesh, const std::string& meshFile)
{
    Builder b(project, compiled, mesh);
    b.out.present = project.collision.present;
    b.out.jointed = project.collision.jointed;
    b.out.meshFile = meshFile;
    if (!b.out.present) {
        return std::move(b.out);
    }
    b.applyOptions();
    const double scale = qcFileScale(project, project.collision.fileRef);
    b.src = sourceMesh(mesh, scale);
    b.weld = weldTable(b.src, b.out.settings.weldPosition, b.out.settings.weldNormal);
    b.weldByPosition =
        weldTable(b.src, std::max(0.001, static_cast<double>(b.out.settings.weldPosition)), -2.0);
    if (b.out.jointed) {
        b.buildJointed();
    } else {
        b.buildSingleBody();
    }
    b.distributeMass();
    b.checks();
    b.out.built = !b.out.solids.empty();
    return std::move(b.out);
}

PhysicsModel buildPhysicsModel(const QcProject& project, const QcCompiled& compiled,
                               QcFileSystem& fs)
{
    PhysicsModel none;
    none.present = project.collision.present;
    none.jointed = project.collision.jointed;
    const std::int32_t ref = project.collision.fileRef;
    if (!none.present || ref < 0 || static_cast<std::size_t>(ref) >= project.files.size()) {
        return none;
    }
    const QcFileRef& f = project.files[static_cast<std::size_t>(ref)];
    if (f.resolved.empty()) {
        return none;
    }
    std::string bytes, error;
    if (!fs.read(f.resolved, bytes, error)) {
        return none;
    }
    ReadContext ctx;
    ctx.fileName = f.resolved;
    const ReadResult r = readAny(bytes, ctx);
    if (!r.hasModel) {
        return none;
    }
    // A prop's mesh where studiomdl hulls it (qcCollisionMesh: posed by the first animation's
    // frame 0, in the compiled model's space), the one path `compare` takes too; a ragdoll's
    // solids stay in the file's space, each in its bone's frame.
    return buildPhysicsModel(
        project, compiled,
        none.jointed ? r.model : qcCollisionMesh(project, compiled, r.model, ref), f.resolved);
}

} // namespace rigscope::core
