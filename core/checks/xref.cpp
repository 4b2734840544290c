// Checks across the files of one document (CHECKS.md §4.6, and the flex / cod ones that need
// the reference): `self` is the checked file, `ref` its reference.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/checks/check_util.h"
#include "core/checks/checks.h"
#include "core/io/file_buffer.h"
#include "core/model/rotation.h"

namespace rigscope::core::checks {

namespace {

bool usable(const SceneFile& self, const SceneFile& ref)
{
    return self.model && ref.model && self.model != ref.model;
}

std::string refName(const SceneFile& ref)
{
    return baseName(ref.file);
}

std::string parentName(const Skeleton& s, std::size_t j)
{
    return s.parents[j] == kNoJoint ? std::string()
                                    : s.names[static_cast<std::size_t>(s.parents[j])];
}

// Degrees between two bind rotations, as rotations (Euler, quaternion or axes alike), in double:
// the angle of the relative rotation from its quaternion, exact near zero where an acos of the
// matrix trace in float reads 0.03° of rounding as a difference.
double angleDeg(const Skeleton& a, std::size_t ja, const Skeleton& b, std::size_t jb)
{
    return angleBetween(bindRotationD(a, ja), bindRotationD(b, jb)) * 180.0 /
           3.14159265358979323846;
}

// Whether a place was recorded: a line in a text file, an offset in a binary one (a binary
// file's places have no line, and its first byte is its header, never a bone).
bool known(const SourceLoc& l)
{
    return l.line != 0 || l.offset != 0;
}

// The bind pose line of joint j, else its declaration, else `fallback`.
SourceLoc poseLoc(const Skeleton& s, std::size_t j, const SourceLoc& fallback)
{
    if (j < s.bindWhere.size() && known(s.bindWhere[j])) {
        return s.bindWhere[j];
    }
    const SourceLoc decl = jointLoc(s, j);
    return known(decl) ? decl : fallback;
}

// Parent-relative offset of joint j in the bind pose (CoD stores model-space offsets).
Vec3 localOffset(const Skeleton& s, std::size_t j)
{
    if (s.bindKind == PoseKind::ModelMatrix && s.parents[j] != kNoJoint) {
        return s.bindPositions[j] - s.bindPositions[static_cast<std::size_t>(s.parents[j])];
    }
    return s.bindPositions[j];
}

SourceLoc nodesLine(const Skeleton& s)
{
    const std::vector<std::size_t> order = jointsInFileOrder(s);
    if (order.empty()) {
        return {1, 1, 0};
    }
    SourceLoc l = jointLoc(s, order.front());
    if (l.line > 1) {
        l.line -= 1; // the `nodes` keyword precedes the first node line
        l.column = 1;
    }
    return l;
}

} // namespace

void checkXrefAnimBoneMissing(const SceneFile& self, const SceneFile& ref, const Profile& p,
                              DiagnosticSink& sink)
{
    if (!usable(self, ref) || self.model->kind != ModelKind::Animation) {
        return;
    }
    const Skeleton& s = self.model->skeleton;
    const Skeleton& r = ref.model->skeleton;
    for (std::size_t j : jointsInFileOrder(s)) {
        if (r.findByName(s.names[j]) != kNoJoint) {
            continue;
        }
        std::string msg = quoted(s.names[j]) + " is not in reference " + quoted(refName(ref));
        msg += goldSrcStudiomdl(p) ? "; goldsrc drops it"
               : p == Profile::Pathos
                   // studiocompiler.cpp RemapSequenceBones: a bone outside the bodies' table
                   // is skipped, its children keep their own tracks.
                   ? "; vbmcompiler skips it"
                   : "; studiomdl has no bone for it and moves its children by it";
        sink.warning(ids::kXrefAnimBoneMissing, jointLoc(s, j), std::move(msg),
                     {isXAnim(*self.model) ? K::Part : K::Joint, static_cast<std::int32_t>(j)});
    }
}

void checkXrefRefBoneMissing(const SceneFile& self, const SceneFile& ref, const Profile&,
                             DiagnosticSink& sink)
{
    if (!usable(self, ref) || self.model->kind != ModelKind::Animation) {
        return;
    }
    const Skeleton& s = self.model->skeleton;
    const Skeleton& r = ref.model->skeleton;
    std::vector<std::string> missing;
    for (std::size_t j : jointsInFileOrder(r)) {
        if (s.findByName(r.names[j]) == kNoJoint) {
            missing.push_back(r.names[j]);
        }
    }
    if (missing.empty()) {
        return;
    }
    sink.note(ids::kXrefRefBoneMissing, nodesLine(s),
              std::to_string(missing.size()) +
                  (missing.size() == 1
                       ? " reference bone not animated; it holds the rest pose: "
                       : " reference bones not animated; they hold the rest pose: ") +
                  nameList(missing));
}

namespace {

// The bones of `ref` in the GoldSrc bone table: those a vertex's parent field uses (and, under
// pathos, a link), with their parents (HL1 studiomdl.c SimplifyModel boneref; vbmcompiler
// studiocompiler.cpp MarkSubmodelUsedBones, less the $attachment and $protected bones a lone
// file cannot know). A reference without vertices: every bone.
std::vector<std::uint8_t> tableBones(const Model& ref, Profile p)
{
    const Skeleton& r = ref.skeleton;
    const Mesh& me = ref.mesh;
    std::vector<std::uint8_t> used(r.size(), me.pointCount() == 0 ? 1 : 0);
    auto keep = [&](JointIndex j) {
        // At most size() steps: a cycle (skeleton.cycle's to report) ends too.
        for (std::size_t step = 0;
             step <= r.size() && j >= 0 && static_cast<std::size_t>(j) < r.size() &&
             !used[static_cast<std::size_t>(j)];
             ++step) {
            used[static_cast<std::size_t>(j)] = 1;
            j = r.parents[static_cast<std::size_t>(j)];
        }
    };
    for (const JointIndex j : me.pointParents) {
        keep(j);
    }
    if (p == Profile::Pathos) {
        for (const JointIndex j : me.influenceJoints) {
            keep(j);
        }
    }
    return used;
}

// GoldSrc and vbmcompiler: each table bone the animation has must have the parent of the same
// name there ("ROOT" for none), or the compile stops (HL1 studiomdl.c SimplifyModel "illegal
// parent bone replacement in sequence"; vbmcompiler studiocompiler.cpp RemapSequenceBones).
// HL1 finds bones and compares parents with strcmp, vbmcompiler ignores case. A parent the
// animation adds or leaves out is a different name all the same.
void checkTableParents(const SceneFile& self, const SceneFile& ref, Profile p, DiagnosticSink& sink)
{
    const Skeleton& s = self.model->skeleton;
    const Skeleton& r = ref.model->skeleton;
    const bool exact = goldSrcStudiomdl(p);
    const std::vector<std::uint8_t> table = tableBones(*ref.model, p);
    auto same = [&](const std::string& a, const std::string& b) {
        return exact ? a == b : asciiLower(a) == asciiLower(b);
    };
    auto find = [&](const std::string& name) {
        for (std::size_t k = 0; k < r.size(); ++k) {
            if (table[k] && same(r.names[k], name)) {
                return static_cast<JointIndex>(k);
            }
        }
        return kNoJoint;
    };
    for (std::size_t j : jointsInFileOrder(s)) {
        const JointIndex rj = find(s.names[j]);
        if (rj == kNoJoint) {
            continue; // not in the table: skipped (xref.anim-bone-missing)
        }
        const auto rjs = static_cast<std::size_t>(rj);
        const std::string pa = parentName(s, j);
        const std::string q = parentName(r, rjs);
        if (same(pa, q)) {
            continue;
        }
        const std::string here = pa.empty() ? "no parent" : "parent " + quoted(pa);
        const std::string there = q.empty() ? "none" : quoted(q);
        Diagnostic& d = sink.error(ids::kXrefParentMismatch, jointLoc(s, j),
                                   quoted(s.names[j]) + " has " + here + " here, " + there +
                                       " in " + refName(ref) + "; " + std::string(compilerName(p)) +
                                       (exact ? " stops (illegal parent bone replacement)"
                                              : " stops (parent does not match the bone table)"),
                                   {K::Joint, static_cast<std::int32_t>(j)});
        d.related.push_back({ref.file, jointLoc(r, rjs), "reference declares parent here"});
    }
}

} // namespace

void checkXrefParentMismatch(const SceneFile& self, const SceneFile& ref, const Profile& profile,
                             DiagnosticSink& sink)
{
    if (!usable(self, ref) || isXAnim(*self.model)) {
        return; // XANIM parts carry no hierarchy
    }
    if (goldSrcFamily(profile)) {
        checkTableParents(self, ref, profile, sink);
        return;
    }
    const Skeleton& s = self.model->skeleton;
    const Skeleton& r = ref.model->skeleton;
    for (std::size_t j : jointsInFileOrder(s)) {
        const JointIndex rj = r.findByName(s.names[j]);
        if (rj == kNoJoint) {
            continue;
        }
        const auto rjs = static_cast<std::size_t>(rj);
        const std::string p = parentName(s, j);
        const std::string q = parentName(r, rjs);
        if (asciiLower(p) == asciiLower(q)) {
            continue;
        }
        // A parent one side lacks altogether is a trimmed skeleton (xref.*-bone-missing), not a
        // different hierarchy.
        if ((!q.empty() && s.findByName(q) == kNoJoint) ||
            (!p.empty() && r.findByName(p) == kNoJoint)) {
            continue;
        }
        const std::string here = p.empty() ? "no parent" : "parent " + quoted(p);
        const std::string there = q.empty() ? "none" : quoted(q);
        Diagnostic& d = sink.error(ids::kXrefParentMismatch, jointLoc(s, j),
                                   quoted(s.names[j]) + " has " + here + " here, " + there +
                                       " in " + refName(ref),
                                   {K::Joint, static_cast<std::int32_t>(j)});
        d.related.push_back({ref.file, jointLoc(r, rjs), "reference declares parent here"});
    }
}

void checkXrefRestPose(const SceneFile& self, const SceneFile& ref, const Profile& p,
                       DiagnosticSink& sink)
{
    if (!usable(self, ref)) {
        return;
    }
    const Model& m = *self.model;
    const Skeleton& s = m.skeleton;
    const Skeleton& r = ref.model->skeleton;
    const SourceLoc timeLine = (!m.animations.empty() && !m.animations.front().frameWhere.empty())
                                   ? m.animations.front().frameWhere.front()
                                   : SourceLoc{1, 1, 0};
    const bool comparable =
        s.bindKind == r.bindKind || (isParentRelative(s.bindKind) && isParentRelative(r.bindKind));
    if (m.kind == ModelKind::Reference && ref.model->kind == ModelKind::Reference && comparable) {
        // Two references of one document: the rest poses must agree.
        for (std::size_t j : jointsInFileOrder(s)) {
            const JointIndex rj = r.findByName(s.names[j]);
            if (rj == kNoJoint) {
                continue;
            }
            const auto rjs = static_cast<std::size_t>(rj);
            const double dpos = (s.bindPositions[j] - r.bindPositions[rjs]).norm();
            const double drot = angleDeg(s, j, r, rjs);
            // 0.01° is far above what a float file round trip moves a rotation (about 1e-5°:
            // Euler angles or a quaternion written shortest round trip, converted in double).
            if (!(dpos > 1e-3 || drot > 0.01)) {
                continue;
            }
            const SourceLoc at = poseLoc(s, j, timeLine);
            Diagnostic& d = sink.warning(ids::kXrefRestPoseDiffers, at,
                                         quoted(s.names[j]) + " rest differs: Δpos " + num(dpos) +
                                             ", Δrot " + num(drot, 2) + "°",
                                         {K::Joint, static_cast<std::int32_t>(j)});
            d.related.push_back({ref.file, poseLoc(r, rjs, {}), "reference pose here"});
        }
        return;
    }
    if (m.kind != ModelKind::Animation || m.animations.empty() ||
        m.animations.front().frameCount() == 0) {
        return;
    }
    // An animation's frame 0 against the reference: bone lengths only (poses are free to move).
    const Animation& a = m.animations.front();
    for (std::size_t j : jointsInFileOrder(s)) {
        const JointIndex rj = r.findByName(s.names[j]);
        if (rj == kNoJoint || r.parents[static_cast<std::size_t>(rj)] == kNoJoint) {
            continue;
        }
        const auto rjs = static_cast<std::size_t>(rj);
        double len = 0;
        if (a.kind == PoseKind::ModelMatrix) {
            // CoD: model-space offsets; the parent comes from the reference's hierarchy.
            const JointIndex pj = s.findByName(r.names[static_cast<std::size_t>(r.parents[rjs])]);
            if (pj == kNoJoint) {
                continue;
            }
            len = (a.positions[a.key(0, j)] - a.positions[a.key(0, static_cast<std::size_t>(pj))])
                      .norm();
        } else {
            if (s.parents[j] == kNoJoint) {
                continue;
            }
            len = a.positions[a.key(0, j)].norm();
        }
        const double refLen = localOffset(r, rjs).norm();
        if (!std::isfinite(len) || std::abs(len - refLen) <= std::max(0.01, 0.01 * refLen)) {
            continue;
        }
        Diagnostic& d = sink.note(ids::kXrefRestPoseDiffers, a.frameWhere.front(),
                                  quoted(s.names[j]) + " frame-0 bone length " + num(len) +
                                      ", reference " + num(refLen),
                                  {K::Joint, static_cast<std::int32_t>(j)});
        grade(d, p, Severity::Note);
    }
}

void checkXrefVtaVertexCount(const SceneFile& self, const SceneFile& ref, const Profile&,
                             DiagnosticSink& sink)
{
    if (!usable(self, ref) || self.model->vertexFrames.empty() || ref.model->mesh.empty()) {
        return;
    }
    const VertexFrame& base = self.model->vertexFrames.front();
    const std::size_t corners = ref.model->mesh.cornerCount();
    if (base.ids.size() == corners) {
        return;
    }
    sink.note(ids::kXrefVtaVertexCount, base.where,
              "VTA has " + groupedCount(base.ids.size()) + " vertices, reference " +
                  groupedCount(corners) + " corners; matched by position",
              {K::Frame, 0});
}

void checkFlexUnmatchedVertices(const SceneFile& self, const SceneFile& ref, const Profile&,
                                DiagnosticSink& sink)
{
    if (!usable(self, ref) || self.model->vertexFrames.empty() || ref.model->mesh.empty()) {
        return;
    }
    const FlexMatch match = matchFlexToReference(*self.model, *ref.model);
    if (match.unmatched == 0) {
        return;
    }
    const VertexFrame& base = self.model->vertexFrames.front();
    const std::size_t n = base.ids.size();
    const std::size_t i = match.firstUnmatched;
    const SourceLoc at = i < base.lineWhere.size() ? base.lineWhere[i] : base.where;
    sink.warning(ids::kFlexUnmatchedVertices, at,
                 groupedCount(match.unmatched) + " of " + groupedCount(n) + " VTA vertices (" +
                     num(100.0 * static_cast<double>(match.unmatched) / static_cast<double>(n), 1) +
                     "%) match no mesh vertex within 0.15; dropped",
                 {K::Vertex, base.ids[i]});
}

FlexedVertices flexedVertices(const Model& vta, const Model& reference, const FlexMatch& match,
                              Profile profile)
{
    FlexedVertices out;
    const Mesh& me = reference.mesh;
    out.perMaterial.assign(me.materials.size(), 0);
    if (vta.vertexFrames.empty()) {
        return out;
    }
    const Profile weldProfile =
        goldSrcFamily(profile) || profile == Profile::Cod ? Profile::Source : profile;
    const WeldStats w = weldStats(reference, weldProfile, 0, 0, true);
    std::unordered_map<std::int32_t, std::size_t> baseIndex;
    const VertexFrame& base = vta.vertexFrames.front();
    for (std::size_t i = 0; i < base.ids.size(); ++i) {
        baseIndex[base.ids[i]] = i;
    }
    std::vector<std::uint8_t> moved(base.ids.size(), 0);
    for (const FlexShape& s : vta.flexShapes) {
        for (std::size_t i = 0; i < s.ids.size(); ++i) {
            if (!deltaKept(s.deltaPositions[i], s.deltaNormals[i])) {
                continue;
            }
            auto it = baseIndex.find(s.ids[i]);
            if (it != baseIndex.end()) {
                moved[it->second] = 1;
            }
        }
    }
    std::vector<std::uint8_t> vertexSeen(w.vertices, 0);
    for (std::size_t i = 0; i < moved.size(); ++i) {
        if (!moved[i] || i >= match.corners.size()) {
            continue;
        }
        for (std::uint32_t c : match.corners[i]) {
            const std::uint32_t v = w.cornerVertex[c];
            if (vertexSeen[v]) {
                continue;
            }
            vertexSeen[v] = 1;
            ++out.perMaterial[me.triangleMaterials[c / 3]];
            out.flexedCorners.push_back(c);
            out.flexedBase.push_back(i);
        }
    }
    return out;
}

void checkFlexVertexLimit(const SceneFile& self, const SceneFile& ref, const Profile& p,
                          DiagnosticSink& sink)
{
    if (!usable(self, ref) || self.model->vertexFrames.empty() || ref.model->mesh.empty()) {
        return;
    }
    const Limits lim = limitsFor(goldSrcFamily(p) || p == Profile::Cod ? Profile::Source : p);
    const FlexMatch match = matchFlexToReference(*self.model, *ref.model);
    const FlexedVertices fv = flexedVertices(*self.model, *ref.model, match, p);
    const auto& mats = ref.model->mesh.materials;
    for (std::size_t i = 0; i < fv.perMaterial.size(); ++i) {
        if (fv.perMaterial[i] > lim.flexedVertices) {
            Diagnostic& d = sink.error(ids::kFlexVertexLimit, {1, 1, 0},
                                       "mesh " + quoted(mats[i].name) + " has " +
                                           groupedCount(fv.perMaterial[i]) + " flexed vertices; " +
                                           std::string(profileName(p)) + " allows " +
                                           groupedCount(lim.flexedVertices),
                                       {K::Material, static_cast<std::int32_t>(i)});
            d.related.push_back({ref.file, mats[i].where, "material used here"});
        }
    }
}

void checkFlexMultiBoneVertex(const SceneFile& self, const SceneFile& ref, const Profile& p,
                              DiagnosticSink& sink)
{
    if (!usable(self, ref) || self.model->vertexFrames.empty() || ref.model->mesh.empty()) {
        return;
    }
    const Profile cp = goldSrcFamily(p) || p == Profile::Cod ? Profile::Source : p;
    const FlexMatch match = matchFlexToReference(*self.model, *ref.model);
    const FlexedVertices fv = flexedVertices(*self.model, *ref.model, match, p);
    const Mesh& me = ref.model->mesh;
    std::vector<Link> links;
    std::size_t k = 0;
    std::size_t first = SIZE_MAX;
    for (std::size_t i = 0; i < fv.flexedCorners.size(); ++i) {
        compiledLinks(me, me.cornerPoints[fv.flexedCorners[i]], cp, links);
        if (links.size() > 1) {
            ++k;
            if (first == SIZE_MAX) {
                first = i;
            }
        }
    }
    if (k == 0) {
        return;
    }
    const VertexFrame& base = self.model->vertexFrames.front();
    const std::size_t bi = fv.flexedBase[first];
    sink.note(ids::kFlexMultiBoneVertex,
              bi < base.lineWhere.size() ? base.lineWhere[bi] : base.where,
              groupedCount(k) + (k == 1 ? " flexed vertex has" : " flexed vertices have") +
                  " several bones (studiomdl: SLOW path)",
              {K::Vertex, base.ids[bi]});
}

void checkCodPartNotInModel(const SceneFile& self, const SceneFile& ref, const Profile&,
                            DiagnosticSink& sink)
{
    if (!usable(self, ref) || !isXAnim(*self.model) || !isXModel(*ref.model)) {
        return;
    }
    const Skeleton& s = self.model->skeleton;
    for (std::size_t j : jointsInFileOrder(s)) {
        if (ref.model->skeleton.findByName(s.names[j]) == kNoJoint) {
            sink.warning(ids::kCodPartNotInModel, jointLoc(s, j),
                         "part " + quoted(s.names[j]) + " animates no bone of " +
                             quoted(refName(ref)),
                         {K::Part, static_cast<std::int32_t>(j)});
        }
    }
}

} // namespace rigscope::core::checks
