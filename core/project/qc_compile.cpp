#include "core/project/qc_compile.h"
#include "core/project/qc_collision_pose.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/qc/qc_diagnostic.h"
#include "core/formats/qc/qc_reader.h"
#include "core/io/file_buffer.h"
#include "core/model/rotation.h"
#include "core/text/numbers.h"
#include "core/pose/effective_weights.h"
#include "core/pose/flex_binding.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

// "models\Body.SMD" -> "models/body": for comparing names of files and materials.
std::string fileKey(std::string_view path, bool dropFolder)
{
    std::string s = asciiLower(path);
    std::replace(s.begin(), s.end(), '\\', '/');
    if (dropFolder) {
        const auto slash = s.find_last_of('/');
        if (slash != std::string::npos) {
            s.erase(0, slash + 1);
        }
    }
    const auto slash = s.find_last_of('/');
    const auto dot = s.find_last_of('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
        s.resize(dot);
    }
    return s;
}

// A $definebone's rotation as the Euler XYZ radians of an SMD: studiomdl reads its three
// angles into a QAngle (pitch, yaw, roll: about Y, Z and X) for AngleMatrix (Cmd_DefineBone).
Vec3 defineBoneEuler(const QcDefineBone& b)
{
    constexpr float kDeg = 3.14159265358979f / 180.0f;
    return Vec3(b.rotation.z(), b.rotation.x(), b.rotation.y()) * kDeg;
}

// Joint j and those of its ancestors not marked in `seen`, root first: the order a walk down
// the hierarchy meets them in. The climb stops at a marked joint, at one not below `limit` and
// after parents.size() + 1 joints (a cycle in a hostile file).
std::vector<std::size_t> unseenAncestry(const std::vector<JointIndex>& parents, std::size_t j,
                                        const std::vector<std::uint8_t>& seen, std::size_t limit)
{
    std::vector<std::size_t> chain;
    for (JointIndex k = static_cast<JointIndex>(j);
         k != kNoJoint && static_cast<std::size_t>(k) < limit &&
         !seen[static_cast<std::size_t>(k)] && chain.size() <= parents.size();
         k = parents[static_cast<std::size_t>(k)]) {
        chain.push_back(static_cast<std::size_t>(k));
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

// The key bones merge by. HL1 studiomdl.c SimplifyModel builds the bone table with findNode,
// which compares names with strcmp, and maps each sequence's bones with it: names that differ
// only in case are two bones (abstudiomdl too: Afterburner's austria_tree_dead_snow.mdl keeps
// TREE and tree). Source's findGlobalBone compares with Q_stricmp: one bone.
std::string boneKey(Profile p, std::string_view name)
{
    return goldSrcStudiomdl(p) ? std::string(name) : asciiLower(name);
}

class Compiler {
public:
    // qc.lod-unknown-model. studiomdl's replacemodel first looks the name up among the loaded
    // sources from the $pushd / $cd folder in force (Cmd_ReplaceModel: "Unknown replace
    // model", the compile stops), then matches it against each model's name as written in its
    // $body / $model, extension stripped, case ignored (GetModelLODSource). A name that finds
    // the file but not the model's written name compiles, and the LOD keeps the full mesh.
    void lodUnknownModels()
    {
        const std::string qcDir = qcJoinPath(m_project.file, "..");
        const auto where = [&](std::int32_t ref, const std::string& written) {
            std::string dir = qcDir;
            if (ref >= 0 && static_cast<std::size_t>(ref) < m_project.files.size() &&
                !m_project.files[static_cast<std::size_t>(ref)].searchDir.empty()) {
                dir = m_project.files[static_cast<std::size_t>(ref)].searchDir;
            }
            return fileKey(qcJoinPath(dir, written), false);
        };
        struct Body {
            std::string written, found;
            const QcBodyChoice* choice;
        };
        std::vector<Body> bodies;
        for (const QcBodygroup& g : m_project.bodygroups) {
            for (const QcBodyChoice& c : g.choices) {
                if (!c.blank) {
                    bodies.push_back({fileKey(c.path, false), where(c.fileRef, c.path), &c});
                }
            }
        }
        for (const QcLod& lod : m_project.lods) {
            for (const QcLod::Replace& r : lod.replaceModels) {
                const std::string written = fileKey(r.from, false);
                if (std::any_of(bodies.begin(), bodies.end(),
                                [&](const Body& b) { return b.written == written; })) {
                    continue;
                }
                const std::string found = where(r.fileRef, r.from);
                const auto same = std::find_if(bodies.begin(), bodies.end(),
                                               [&](const Body& b) { return b.found == found; });
                if (r.fileRef < 0 || same == bodies.end()) {
                    m_out.diagnostics.push_back(
                        diagnosticAt(Severity::Error, ids::kQcLodUnknownModel, r.at,
                                     "LOD replaces '" + r.from +
                                         "', which no $body / $model / $bodygroup uses"));
                    continue;
                }
                Diagnostic d = diagnosticAt(
                    Severity::Warning, ids::kQcLodUnknownModel, r.at,
                    "LOD replaces '" + r.from + "', but its model is named '" + same->choice->path +
                        "': studiomdl matches LODs by the name as written, so this LOD keeps the "
                        "full mesh");
                d.fixedSeverity = true;
                d.related.push_back(
                    {same->choice->at.file, same->choice->at.where, "the model, named here"});
                m_out.diagnostics.push_back(std::move(d));
            }
        }
    }

    // qc.case-variant-bone. HL1 studiomdl.c SimplifyModel keeps bones whose names differ only
    // in case apart (findNode, strcmp) but links $controller and $attachment (stricmp), $hgroup
    // and $hbox (strcmpi) to the first bone of its table that matches without case: a line that
    // names a later one, spelt as that bone is, lands on the first (Afterburner's
    // japanese_books.mdl has its "Open book" hitbox on "open book", turned 90 degrees).
    template <typename JointOf> void caseVariantBones(const JointOf& jointOf)
    {
        if (!goldSrcStudiomdl(m_project.profile)) {
            return;
        }
        const Skeleton& skel = m_out.model.skeleton;
        for (const QcBoneRef& b : m_project.boneRefs) {
            const char* what = b.command == "hbox"         ? "hitbox"
                               : b.command == "attachment" ? "attachment"
                               : b.command == "controller" ? "bone controller"
                               : b.command == "hgroup"     ? "hit group"
                                                           : nullptr;
            const JointIndex got = what ? jointOf(b.bone) : kNoJoint;
            if (got == kNoJoint || skel.names[static_cast<std::size_t>(got)] == b.bone) {
                continue;
            }
            const std::string& first = skel.names[static_cast<std::size_t>(got)];
            const auto exact = std::find(skel.names.begin(), skel.names.end(), b.bone);
            std::string message;
            if (exact != skel.names.end()) {
                message = "$" + b.command + " names bone '" + b.bone + "' (bone " +
                          std::to_string(exact - skel.names.begin()) +
                          "), but studiomdl links it without case to the first bone of that "
                          "name, '" +
                          first + "' (bone " + std::to_string(got) + ")";
            } else {
                // The bone spelt as written was left out of the table (no vertex uses it or
                // a bone below it): the line links to the other spelling that was kept.
                const std::vector<std::string>& merged = m_out.mergedSkeleton.names;
                if (std::find(merged.begin(), merged.end(), b.bone) == merged.end()) {
                    continue;
                }
                message = "$" + b.command + " names bone '" + b.bone +
                          "', which studiomdl drops from the compiled model (no vertex of any "
                          "body is weighted to it or to a bone below it), but it links the line "
                          "without case to '" +
                          first + "' (bone " + std::to_string(got) + ")";
            }
            // The element is the bone it lands on, in the compiled bone table.
            Diagnostic d = diagnosticAt(Severity::Warning, ids::kQcCaseVariantBone, b.at,
                                        message + ": the " + what + " is on '" + first + "'");
            d.element = {ElementRef::Kind::Joint, got};
            m_out.diagnostics.push_back(std::move(d));
        }
    }

    Compiler(const QcProject& p, QcFileSystem& fs, const QcCompileOptions& o)
        : m_project(p), m_fs(fs), m_opt(o),
          // An animated model's points lose $origin with its roots (BuildRawTransforms); a
          // $staticprop's get it after the turn (qcStaticPropOffset).
          m_pointShift(p.staticProp && !goldSrcFamily(p.profile) ? Vec3::Zero() : p.origin)
    {
    }
    QcCompiled run();

private:
    const ReadResult* readRef(std::int32_t ref);
    JointIndex addBone(const Skeleton& src, std::size_t j);
    void addMesh(const Model& src, std::uint32_t object, std::vector<JointIndex>& remap);
    bool sequenceSource(const QcSequence& seq, std::size_t k, Animation& out);
    void addSequence(std::size_t s);
    struct Source {
        std::int32_t ref = -1;
        QcAnimOptions options;
    };
    Source resolveSource(std::string_view name, std::int32_t ref, QcAnimOptions opt) const;
    bool mergedFrames(std::int32_t ref, std::int32_t start, std::int32_t end, Animation& out);
    void playOnBind(Animation& anim, const Animation* base, bool post) const;
    void applyUpAxis();
    // The body files that take part in the bone table, in bodygroup order: not blank, with the
    // model's kind of bind pose, flex files only when `withFlex`. The pointers hold until the
    // next readRef of a file not read yet.
    std::vector<const ReadResult*> bodyFiles(bool withFlex);
    // Which of a file's own bones its compiled weights use.
    std::vector<std::uint8_t> weightedJoints(const Model& model) const;
    std::vector<std::uint8_t> usedBones();
    // Pathos: the merged joints in bone-table order, body by body (usedBones fills it).
    std::vector<std::size_t> m_tableOrder;
    void addBonesKeptFromOtherFiles();
    bool collapsesBones() const;
    std::vector<std::uint8_t> collapseFlags();
    bool boneMoves(const std::string& name);
    bool collapseTable(const std::vector<std::uint8_t>& inTable, std::vector<std::size_t>& order,
                       std::vector<std::uint8_t>& kept, std::vector<JointIndex>& parents,
                       std::vector<std::uint8_t>& predefined);
    void dropUnusedBones();
    void lodBoneRefUnknown(const QcBoneRef& b, bool dropped);
    void collapseToStaticProp();
    void addFlexShapes(const Model& body, const Model& shapes, std::size_t cornerBase);
    void addFlexRig(const Model& body, std::size_t pointBase);
    void addVertexFrames();
    const std::string& resolvedOf(std::int32_t ref) const;
    static constexpr std::int32_t kNoLod = -2;
    std::int32_t lodReplacement(const std::string& path) const;

    const QcProject& m_project;
    QcFileSystem& m_fs;
    const QcCompileOptions& m_opt;
    QcCompiled m_out;
    std::unordered_map<std::string, std::int32_t> m_readByPath;
    std::unordered_map<std::string, JointIndex> m_jointByName; // by boneKey
    std::vector<std::string> m_jointFile; // per merged joint: the file that first declared it
    std::string m_currentFile;            // the file addBone is reading from
    float m_currentScale = 1.0f;          // its $scale (qcFileScale)
    Vec3 m_pointShift;                    // taken off every body point
    std::unordered_map<std::string, std::size_t> m_droppedByName; // into droppedBones
    std::vector<std::size_t> m_pointOffsetOfRef; // per files entry: first merged point
    bool m_kindSet = false;
};

const ReadResult* Compiler::readRef(std::int32_t ref)
{
    if (ref < 0 || static_cast<std::size_t>(ref) >= m_project.files.size()) {
        return nullptr;
    }
    const auto r = static_cast<std::size_t>(ref);
    if (m_out.fileRead[r] >= 0) {
        return &m_out.reads[static_cast<std::size_t>(m_out.fileRead[r])].result;
    }
    const QcFileRef& f = m_project.files[r];
    if (f.resolved.empty()) {
        return nullptr;
    }
    auto it = m_readByPath.find(f.resolved);
    if (it == m_readByPath.end()) {
        QcCompiled::FileRead fr;
        fr.path = f.resolved;
        std::string bytes, error;
        if (!m_fs.read(f.resolved, bytes, error)) {
            m_out.diagnostics.push_back(diagnosticAt(Severity::Error, ids::kQcUnreadFile, f.at,
                                                     "'" + f.path + "' cannot be read: " + error));
        } else {
            // A GoldSrc-family project's files are read for its compiler: what HL1 studiomdl or
            // vbmcompiler keeps and drops is that compiler's (skeleton.unknown-parent in a null
            // model). Source stays `auto` per file: the project's `source` is often only the
            // default guess, and a DMX newer than SDK 2013 reads (L4D2) is then no error.
            ReadContext ctx;
            ctx.fileName = f.resolved;
            if (goldSrcFamily(m_project.profile)) {
                ctx.profile = m_project.profile;
            }
            fr.result = readAny(bytes, ctx);
            quaternionsToEuler(fr.result.model); // DMX: Euler in double, as the SMD it compiles as
            if (!fr.result.hasModel) {
                std::string why = "no model in it";
                for (const Diagnostic& d : fr.result.diagnostics) {
                    if (d.severity == Severity::Error) {
                        why = d.message;
                        break;
                    }
                }
                m_out.diagnostics.push_back(
                    diagnosticAt(Severity::Error, ids::kQcUnreadFile, f.at,
                                 "'" + f.path + "' cannot be read: " + why));
            }
        }
        m_out.reads.push_back(std::move(fr));
        it = m_readByPath.emplace(f.resolved, static_cast<std::int32_t>(m_out.reads.size() - 1))
                 .first;
    }
    m_out.fileRead[r] = it->second;
    const ReadResult& res = m_out.reads[static_cast<std::size_t>(it->second)].result;
    return res.hasModel ? &res : nullptr;
}

JointIndex Compiler::addBone(const Skeleton& src, std::size_t j)
{
    const std::string key = boneKey(m_project.profile, src.names[j]);
    auto it = m_jointByName.find(key);
    if (it != m_jointByName.end()) {
        return it->second;
    }
    Skeleton& dst = m_out.model.skeleton;
    JointIndex parent = kNoJoint;
    if (src.parents[j] != kNoJoint) {
        parent = addBone(src, static_cast<std::size_t>(src.parents[j]));
    }
    const JointIndex idx =
        dst.addJoint(src.names[j], parent, static_cast<std::int32_t>(dst.size()), src.where[j]);
    m_jointFile.push_back(m_currentFile);
    const auto i = static_cast<std::size_t>(idx);
    dst.bindPositions[i] = src.bindPositions[j] * m_currentScale;
    dst.bindRotations[i] = src.bindRotations[j];
    dst.bindAxes[i] = src.bindAxes[j];
    dst.bindScales[i] = src.bindScales[j];
    dst.bindHasScale[i] = src.bindHasScale[j];
    dst.bindWhere[i] = src.bindWhere[j];
    if (parent == kNoJoint) {
        dst.bindPositions[i] -= m_project.origin;
    }
    m_jointByName.emplace(key, idx);
    return idx;
}

void Compiler::addMesh(const Model& src, std::uint32_t object, std::vector<JointIndex>& remap)
{
    Mesh& d = m_out.model.mesh;
    const Mesh& s = src.mesh;
    remap.assign(src.skeleton.size(), kNoJoint);
    for (std::size_t j = 0; j < src.skeleton.size(); ++j) {
        remap[j] = addBone(src.skeleton, j);
    }
    const auto pointBase = static_cast<std::uint32_t>(d.pointPositions.size());
    if (d.influenceOffsets.empty()) {
        d.influenceOffsets.push_back(0);
    }
    const std::uint32_t inflBase = d.influenceOffsets.back();
    for (std::size_t p = 0; p < s.pointCount(); ++p) {
        d.pointPositions.push_back(s.pointPositions[p] * m_currentScale - m_pointShift);
        const JointIndex pp = s.pointParents[p];
        d.pointParents.push_back(pp == kNoJoint ? kNoJoint : remap[static_cast<std::size_t>(pp)]);
        d.pointLinkState.push_back(s.pointLinkState[p]);
        d.pointWhere.push_back(s.pointWhere[p]);
        d.influenceOffsets.push_back(inflBase +
                                     (s.influenceOffsets.empty() ? 0u : s.influenceOffsets[p + 1]));
    }
    for (std::size_t i = 0; i < s.influenceJoints.size(); ++i) {
        d.influenceJoints.push_back(remap[static_cast<std::size_t>(s.influenceJoints[i])]);
        d.influenceWeights.push_back(s.influenceWeights[i]);
    }
    std::vector<std::uint32_t> matRemap(s.materials.size());
    for (std::size_t m = 0; m < s.materials.size(); ++m) {
        std::uint32_t found = static_cast<std::uint32_t>(d.materials.size());
        for (std::size_t k = 0; k < d.materials.size(); ++k) {
            if (asciiLower(d.materials[k].name) == asciiLower(s.materials[m].name)) {
                found = static_cast<std::uint32_t>(k);
                break;
            }
        }
        if (found == d.materials.size()) {
            d.materials.push_back(s.materials[m]);
        }
        matRemap[m] = found;
    }
    // A file that numbers its vertices (DMX) keeps its numbers, after those of the files merged
    // before it (studiomdl keeps each source's vertices apart); corners of a file that does not
    // are welded by value (UINT32_MAX).
    if (s.hasCornerVertices() || d.hasCornerVertices()) {
        std::uint32_t vertexBase = 0;
        for (const std::uint32_t v : d.cornerVertices) {
            vertexBase = v != UINT32_MAX ? std::max(vertexBase, v + 1) : vertexBase;
        }
        d.cornerVertices.resize(d.cornerCount(), UINT32_MAX);
        for (std::size_t c = 0; c < s.cornerCount(); ++c) {
            d.cornerVertices.push_back(s.hasCornerVertices() && s.cornerVertices[c] != UINT32_MAX
                                           ? vertexBase + s.cornerVertices[c]
                                           : UINT32_MAX);
        }
    }
    for (std::size_t c = 0; c < s.cornerCount(); ++c) {
        d.cornerPoints.push_back(pointBase + s.cornerPoints[c]);
        d.cornerNormals.push_back(s.cornerNormals[c]);
        d.cornerUvs.push_back(s.cornerUvs[c]);
        d.cornerWhere.push_back(s.cornerWhere[c]);
    }
    for (std::size_t t = 0; t < s.triangleCount(); ++t) {
        d.triangleMaterials.push_back(matRemap[s.triangleMaterials[t]]);
        d.triangleObjects.push_back(object);
        d.triangleWhere.push_back(s.triangleWhere[t]);
    }
}

// A sequence's or $animation's source file and options: a name of an $animation stands for its
// file, its options filling what the sequence leaves unset.
Compiler::Source Compiler::resolveSource(std::string_view name, std::int32_t ref,
                                         QcAnimOptions opt) const
{
    if (ref >= 0) {
        return {ref, std::move(opt)};
    }
    for (const QcAnimation& a : m_project.animations) {
        if (asciiLower(a.name) != asciiLower(name)) {
            continue;
        }
        if (!opt.fpsSet) {
            opt.fps = a.options.fps;
            opt.fpsSet = a.options.fpsSet;
        }
        if (opt.frameStart < 0) {
            opt.frameStart = a.options.frameStart;
            opt.frameEnd = a.options.frameEnd;
        }
        opt.loop = opt.loop || a.options.loop;
        opt.delta = opt.delta || a.options.delta;
        opt.post = opt.post || a.options.post;
        if (opt.subtract.empty()) {
            opt.subtract = a.options.subtract;
            opt.subtractFrame = a.options.subtractFrame;
        }
        return {a.fileRef, std::move(opt)};
    }
    return {-1, std::move(opt)};
}

namespace {

// SMD rotations: the Euler convention of core/model/rotation.h, converted in double.
Eigen::Quaternionf quatFromEuler(const Vec3& e)
{
    return eulerToQuaternion(e).cast<float>();
}

Vec3 eulerFromQuat(const Eigen::Quaternionf& q)
{
    return quaternionToEuler(q.cast<double>());
}

// Frames [start, end] (-1: all) of `src`'s first animation on the merged skeleton `dst`
// (joints found by boneKey in `jointByName`): `scale` applied, $origin taken off the
// roots, joints the file lacks at their bind pose.
bool mergeFrames(const QcProject& project, const Skeleton& dst,
                 const std::unordered_map<std::string, JointIndex>& jointByName, const Model& src,
                 float scale, std::int32_t start, std::int32_t end, Animation& out)
{
    if (src.animations.empty()) {
        return false;
    }
    const Animation& a = src.animations.front();
    if (a.kind != PoseKind::LocalEulerXYZ || a.rotations.size() != a.positions.size() ||
        a.frameCount() == 0) {
        return false;
    }
    const Skeleton& sks = src.skeleton;
    std::vector<std::int32_t> from(dst.size(), -1); // merged joint -> source joint, by name
    for (std::size_t j = 0; j < sks.size() && j < a.jointCount; ++j) {
        auto it = jointByName.find(boneKey(project.profile, sks.names[j]));
        if (it != jointByName.end()) {
            from[static_cast<std::size_t>(it->second)] = static_cast<std::int32_t>(j);
        }
    }
    // Where the file's hierarchy differs from the merged one (a Crowbar reference whose
    // `ValveBiped.Bip01` root was collapsed into the pelvis, while the animation still has it,
    // with the spine under it), studiomdl re-expresses each bone's motion through the world:
    // local = world(merged parent)^-1 * world(bone in the file). Elsewhere the key is used as is.
    std::vector<std::uint8_t> viaWorld(dst.size(), 0);
    bool anyViaWorld = false;
    for (std::size_t j = 0; j < dst.size(); ++j) {
        const std::int32_t sj = from[j];
        if (sj < 0) {
            continue;
        }
        const JointIndex ps = sks.parents[static_cast<std::size_t>(sj)];
        const JointIndex pm = dst.parents[j];
        const bool same =
            pm == kNoJoint ? ps == kNoJoint : from[static_cast<std::size_t>(pm)] == ps && ps >= 0;
        viaWorld[j] = same ? 0 : 1;
        anyViaWorld = anyViaWorld || !same;
    }
    struct Xf {
        Eigen::Quaternionf q = Eigen::Quaternionf::Identity();
        Vec3 t = Vec3::Zero();
        Xf operator*(const Xf& b) const { return {q * b.q, q * b.t + t}; }
        Xf inverse() const
        {
            const Eigen::Quaternionf c = q.conjugate();
            return {c, -(c * t)};
        }
    };
    std::vector<Xf> srcWorld(anyViaWorld ? sks.size() : 0);
    std::vector<std::uint8_t> srcDone(srcWorld.size(), 0);
    std::vector<Xf> dstWorld(anyViaWorld ? dst.size() : 0);
    out.kind = PoseKind::LocalEulerXYZ;
    out.jointCount = dst.size();
    const std::size_t lastFrame = a.frameCount() - 1;
    std::size_t first = 0, last = lastFrame;
    if (start >= 0 && end >= start) {
        first = std::min(static_cast<std::size_t>(start), lastFrame);
        last = std::min(static_cast<std::size_t>(end), lastFrame);
    }
    for (std::size_t f = first; f <= last; ++f) {
        const std::size_t of = out.appendFrame(static_cast<double>(f - first), a.frameWhere[f]);
        // Local transforms in scaled, origin-free space.
        auto srcLocal = [&](std::size_t sj) {
            const std::size_t sk = a.key(f, sj);
            return Xf{quatFromEuler(a.rotations[sk]), a.positions[sk] * scale};
        };
        if (anyViaWorld) {
            std::fill(srcDone.begin(), srcDone.end(), 0);
            // Iterative: each joint after its parent chain, cycles cut at the file's size.
            for (std::size_t sj = 0; sj < sks.size() && sj < a.jointCount; ++sj) {
                for (const std::size_t c : unseenAncestry(sks.parents, sj, srcDone, a.jointCount)) {
                    const JointIndex p = sks.parents[c];
                    const bool hasParent = p != kNoJoint &&
                                           static_cast<std::size_t>(p) < a.jointCount &&
                                           srcDone[static_cast<std::size_t>(p)];
                    srcWorld[c] = hasParent ? srcWorld[static_cast<std::size_t>(p)] * srcLocal(c)
                                            : srcLocal(c);
                    srcDone[c] = 1;
                }
            }
        }
        for (std::size_t j = 0; j < dst.size(); ++j) {
            const std::size_t k = out.key(of, j);
            const std::int32_t sj = from[j];
            const JointIndex pm = dst.parents[j];
            Xf local;
            if (sj < 0) {
                local = {quatFromEuler(dst.bindRotations[j]),
                         dst.bindPositions[j] + (pm == kNoJoint ? project.origin : Vec3::Zero())};
                out.explicitKey[k] = 0;
            } else {
                const auto s = static_cast<std::size_t>(sj);
                out.explicitKey[k] = a.explicitKey[a.key(f, s)];
                if (viaWorld[j]) {
                    local = pm == kNoJoint
                                ? srcWorld[s]
                                : dstWorld[static_cast<std::size_t>(pm)].inverse() * srcWorld[s];
                } else {
                    local = srcLocal(s);
                }
            }
            if (anyViaWorld) {
                dstWorld[j] =
                    pm == kNoJoint ? local : dstWorld[static_cast<std::size_t>(pm)] * local;
            }
            if (sj >= 0 && !viaWorld[j]) {
                // The key as written (no round trip through a quaternion).
                const std::size_t sk = a.key(f, static_cast<std::size_t>(sj));
                out.rotations[k] = a.rotations[sk];
                out.positions[k] = a.positions[sk] * scale;
            } else if (sj < 0) {
                out.rotations[k] = dst.bindRotations[j];
                out.positions[k] = local.t;
            } else {
                out.rotations[k] = eulerFromQuat(local.q);
                out.positions[k] = local.t;
            }
            if (pm == kNoJoint) {
                out.positions[k] -= project.origin;
            }
        }
    }
    return true;
}

// `$upaxis` and the angle of `$origin X Y Z ANGLE` as one turn of the roots (applyUpAxis).
Eigen::Quaternionf upAxisTurn(const QcProject& project)
{
    constexpr float kQuarter = 1.57079632679f;
    constexpr float kDeg = 3.14159265358979f / 180.0f;
    const std::string& axis = project.upAxis;
    Eigen::Quaternionf r = Eigen::Quaternionf::Identity();
    if (axis == "y" || axis == "-y") {
        r = Eigen::AngleAxisf(axis == "y" ? kQuarter : -kQuarter, Vec3::UnitX());
    } else if (axis == "x" || axis == "-x") {
        r = Eigen::AngleAxisf(axis == "x" ? kQuarter : -kQuarter, Vec3::UnitY());
    }
    if (project.originRotation != 0.0f && std::isfinite(project.originRotation)) {
        r = Eigen::AngleAxisf(project.originRotation * kDeg, Vec3::UnitZ()) * r;
    }
    return r;
}

// Every root key of `a` turned by `r` (position and rotation).
void turnRootKeys(const Skeleton& sk, const Eigen::Quaternionf& r, Animation& a)
{
    const Mat3 m = r.toRotationMatrix();
    for (std::size_t f = 0; f < a.frameCount(); ++f) {
        for (std::size_t j = 0; j < sk.size() && j < a.jointCount; ++j) {
            if (sk.parents[j] == kNoJoint) {
                const std::size_t k = a.key(f, j);
                a.positions[k] = m * a.positions[k];
                a.rotations[k] = eulerFromQuat(r * quatFromEuler(a.rotations[k]));
            }
        }
    }
}

} // namespace

bool Compiler::mergedFrames(std::int32_t ref, std::int32_t start, std::int32_t end, Animation& out)
{
    const ReadResult* r = readRef(ref);
    return r && mergeFrames(m_project, m_out.model.skeleton, m_jointByName, r->model,
                            qcFileScale(m_project, ref), start, end, out);
}

// A delta animation as the viewer plays it alone: added to the reference (bind) pose the way the
// engine adds a delta layer. `base` (one frame) is subtracted first when given (`subtract ANIM
// FRAME`, as studiomdl makes delta animations); without it the frames already are deltas
// (`delta`). studiomdl's rotation delta is D = Q * B^-1 applied as D * pose, or with `post`
// D = B^-1 * Q applied as pose * D; positions subtract and add.
void Compiler::playOnBind(Animation& anim, const Animation* base, bool post) const
{
    const Skeleton& sk = m_out.model.skeleton;
    for (std::size_t f = 0; f < anim.frameCount(); ++f) {
        for (std::size_t j = 0; j < sk.size() && j < anim.jointCount; ++j) {
            const std::size_t k = anim.key(f, j);
            Eigen::Quaternionf d = quatFromEuler(anim.rotations[k]);
            Vec3 p = anim.positions[k];
            if (base) {
                const std::size_t bk = base->key(0, j);
                const Eigen::Quaternionf b = quatFromEuler(base->rotations[bk]);
                d = post ? b.conjugate() * d : d * b.conjugate();
                p -= base->positions[bk];
            }
            const Eigen::Quaternionf bind = quatFromEuler(sk.bindRotations[j]);
            anim.rotations[k] = eulerFromQuat(post ? bind * d : d * bind);
            anim.positions[k] = sk.bindPositions[j] + p;
        }
    }
}

// `$upaxis` and the angle of `$origin X Y Z ANGLE`: studiomdl turns every root by
// Rz(ANGLE) * Ry * Rx after taking $origin off (BuildRawTransforms: pos = R * (pos - origin),
// rot = R * rot). `$upaxis y` is 90° about X, `-y` -90° about X, `x` 90° about Y, `-x` -90°
// about Y, `z` (the default) none. studiomdl also turns every model 90° about Z; the viewer
// leaves that out, as it shows every file in its own frame. Everything in model space turns with
// the roots: points, normals, flex deltas, root bind poses and root animation keys.
void Compiler::applyUpAxis()
{
    const Eigen::Quaternionf r = upAxisTurn(m_project);
    if (r.isApprox(Eigen::Quaternionf::Identity())) {
        return;
    }
    const Mat3 m = r.toRotationMatrix();
    Model& model = m_out.model;
    for (std::vector<Vec3>* v : {&model.mesh.pointPositions, &model.mesh.cornerNormals}) {
        for (Vec3& p : *v) {
            p = m * p;
        }
    }
    for (FlexShape& f : model.flexShapes) {
        for (std::vector<Vec3>* v : {&f.deltaPositions, &f.deltaNormals}) {
            for (Vec3& p : *v) {
                p = m * p;
            }
        }
    }
    Skeleton& sk = model.skeleton;
    if (sk.bindKind != PoseKind::LocalEulerXYZ) {
        return;
    }
    auto turn = [&](Vec3& position, Vec3& rotation) {
        position = m * position;
        rotation = eulerFromQuat(r * quatFromEuler(rotation));
    };
    for (std::size_t j = 0; j < sk.size(); ++j) {
        if (sk.parents[j] == kNoJoint) {
            turn(sk.bindPositions[j], sk.bindRotations[j]);
        }
    }
    for (Animation& a : model.animations) {
        turnRootKeys(sk, r, a);
    }
    // A blend's later files too: each is an animation of its own with the same rotation
    // (Cmd_ImpliedAnimation: panim->rotation = g_defaultrotation).
    for (Animation& a : m_out.blendAnimations) {
        turnRootKeys(sk, r, a);
    }
}

// The file that replaces body file `path` in the LOD shown (QcCompileOptions::lod): a file
// ref, -1 for `removemodel`, kNoLod when the LOD keeps it (or LOD 0 is shown).
std::int32_t Compiler::lodReplacement(const std::string& path) const
{
    if (m_opt.lod <= 0 || static_cast<std::size_t>(m_opt.lod) > m_project.lods.size()) {
        return kNoLod;
    }
    const std::string key = fileKey(path, false);
    for (const QcLod::Replace& r :
         m_project.lods[static_cast<std::size_t>(m_opt.lod) - 1].replaceModels) {
        if (fileKey(r.from, false) == key) {
            return r.fileRef;
        }
    }
    return kNoLod;
}

const std::string& Compiler::resolvedOf(std::int32_t ref) const
{
    static const std::string kNone;
    return ref >= 0 && static_cast<std::size_t>(ref) < m_project.files.size()
               ? m_project.files[static_cast<std::size_t>(ref)].resolved
               : kNone;
}

std::vector<const ReadResult*> Compiler::bodyFiles(bool withFlex)
{
    // Every file is read before any pointer is taken: a read appends to m_out.reads, which
    // would leave the pointers taken before it dangling.
    for (const QcBodygroup& g : m_project.bodygroups) {
        for (const QcBodyChoice& ch : g.choices) {
            if (!ch.blank) {
                (void)readRef(ch.fileRef);
            }
        }
    }
    std::vector<const ReadResult*> out;
    for (const QcBodygroup& g : m_project.bodygroups) {
        for (const QcBodyChoice& ch : g.choices) {
            const ReadResult* r = ch.blank ? nullptr : readRef(ch.fileRef);
            if (r && (withFlex || r->model.kind != ModelKind::Flex) &&
                r->model.skeleton.bindKind == m_out.model.skeleton.bindKind) {
                out.push_back(r);
            }
        }
    }
    return out;
}

std::vector<std::uint8_t> Compiler::weightedJoints(const Model& model) const
{
    const std::size_t n = model.skeleton.size();
    const Influences inf =
        effectiveInfluences(model.mesh, n, m_project.profile, WeightView::Compiled);
    std::vector<std::uint8_t> weighted(n, 0);
    for (const JointIndex j : inf.joints) {
        if (j >= 0 && static_cast<std::size_t>(j) < n) {
            weighted[static_cast<std::size_t>(j)] = 1;
        }
    }
    return weighted;
}

// The merged joints studiomdl keeps (TagUsedBones): those under a compiled vertex weight of a
// body choice (LOD replacements and flex files are not bodies), with their ancestors in that
// file and in the merged tree. Source also keeps the bones of non-rigid $attachment (a rigid
// one keeps the nearest weighted ancestor, kept already), $ikchain, $bonemerge, eyeball and
// mouth, and every $definebone bone; GoldSrc (SimplifyModel) vertex bones only.
std::vector<std::uint8_t> Compiler::usedBones()
{
    const Skeleton& sk = m_out.model.skeleton;
    std::vector<std::uint8_t> used(sk.size(), 0);
    auto keep = [&](JointIndex j) {
        while (j != kNoJoint && !used[static_cast<std::size_t>(j)]) {
            used[static_cast<std::size_t>(j)] = 1;
            j = sk.parents[static_cast<std::size_t>(j)];
        }
    };
    auto keepName = [&](const std::string& name) {
        const auto it = m_jointByName.find(boneKey(m_project.profile, name));
        if (it != m_jointByName.end()) {
            keep(it->second);
        }
    };
    for (const ReadResult* r : bodyFiles(false)) {
        const Skeleton& src = r->model.skeleton;
        std::vector<std::uint8_t> weighted = weightedJoints(r->model);
        // vbmcompiler also keeps each vertex's parent-field bone, weighted or not
        // (studiocompiler.cpp MarkSubmodelUsedBones).
        if (m_project.profile == Profile::Pathos) {
            for (const JointIndex j : r->model.mesh.pointParents) {
                if (j >= 0 && static_cast<std::size_t>(j) < src.size()) {
                    weighted[static_cast<std::size_t>(j)] = 1;
                }
            }
        }
        // A DMX body's own attachments (DmeAttachment) keep their bones in Source.
        for (const Attachment& a : r->model.attachments) {
            if (!a.rigid && !goldSrcFamily(m_project.profile) && a.joint >= 0 &&
                static_cast<std::size_t>(a.joint) < src.size()) {
                weighted[static_cast<std::size_t>(a.joint)] = 1;
            }
        }
        // vbmcompiler counts the $attachment and $protected bones of each body file in it
        // (MarkSubmodelUsedBones), which places them in the table with that file.
        if (m_project.profile == Profile::Pathos) {
            for (std::size_t j = 0; j < src.size(); ++j) {
                for (const QcAttachment& a : m_project.attachments) {
                    weighted[j] = weighted[j] || asciiIEquals(a.bone, src.names[j]);
                }
                for (const QcBoneRef& b : m_project.boneRefs) {
                    weighted[j] = weighted[j] ||
                                  (b.command == "protected" && asciiIEquals(b.bone, src.names[j]));
                }
            }
        }
        std::vector<std::uint8_t> fileUsed(src.size(), 0);
        for (std::size_t j = 0; j < src.size(); ++j) {
            for (JointIndex k = weighted[j] ? static_cast<JointIndex>(j) : kNoJoint;
                 k != kNoJoint && !fileUsed[static_cast<std::size_t>(k)];
                 k = src.parents[static_cast<std::size_t>(k)]) {
                fileUsed[static_cast<std::size_t>(k)] = 1;
                keepName(src.names[static_cast<std::size_t>(k)]);
            }
        }
        // vbmcompiler's CreateBoneTable adds each body's used bones in its file's order,
        // body after body (harrison.mdl), and so does the HL1 SDK studiomdl (studiomdl.c
        // SimplifyModel, "union of all used bones"; malortie's man.mdl, built by it from
        // its sources, has the head body's Neck after the first body's arms). Retail
        // barney.mdl, built in 1998, has 'Bip01 R Hand', which only its gun bodies weight,
        // before 'Bip01 Head': the compiler of its day merged otherwise.
        for (std::size_t j = 0; j < src.size(); ++j) {
            const auto it = m_jointByName.find(boneKey(m_project.profile, src.names[j]));
            if (fileUsed[j] && it != m_jointByName.end()) {
                m_tableOrder.push_back(static_cast<std::size_t>(it->second));
            }
        }
    }
    if (m_project.profile == Profile::Afterburner) {
        // abstudiomdl keeps a bone a $hbox names when no vertex keeps it, after the bones the
        // vertices keep, in $hbox order, where Valve's SimplifyModel stops ("cannot find bone
        // %s for bbox"): Afterburner's waiter.mdl ends its table with Bone09, Bone11, Bone17 and
        // Bone19 as its $hbox lines name them, bones no vertex uses (docs/profiles.md
        // "afterburner"; its binary has "Hitbox %d references bone %s which is not contained in
        // target model %d").
        // The $hbox name is compared without case (as SimplifyModel's strcmpi): nothing to
        // keep when a bone of that name but for case is in the table already, else the first.
        for (const QcHitbox& h : m_project.hitboxes) {
            JointIndex first = kNoJoint;
            bool inTable = false;
            for (std::size_t j = 0; j < sk.size(); ++j) {
                if (asciiIEquals(sk.names[j], h.bone)) {
                    first = first == kNoJoint ? static_cast<JointIndex>(j) : first;
                    inTable = inTable || used[j] != 0;
                }
            }
            if (first != kNoJoint && !inTable) {
                keep(first);
                m_tableOrder.push_back(static_cast<std::size_t>(first));
            }
        }
    }
    if (goldSrcStudiomdl(m_project.profile)) {
        return used;
    }
    if (m_project.profile == Profile::Pathos) {
        // vbmcompiler keeps the bones $attachment and $protected name, with their parents
        // (studiocompiler.cpp MarkSubmodelUsedBones).
        for (const QcAttachment& a : m_project.attachments) {
            keepName(a.bone);
        }
        for (const QcBoneRef& b : m_project.boneRefs) {
            if (b.command == "protected") {
                keepName(b.bone);
            }
        }
        return used;
    }
    for (const QcAttachment& a : m_project.attachments) {
        if (!a.rigid) {
            keepName(a.bone);
        }
    }
    for (const QcIkChain& k : m_project.ikChains) {
        keepName(k.bone);
    }
    for (const QcBoneRef& b : m_project.boneRefs) {
        if (b.command == "bonemerge" || b.command == "eyeball" || b.command == "mouth") {
            keepName(b.bone);
        }
    }
    for (const QcDefineBone& b : m_project.defineBones) {
        keepName(b.name);
    }
    return used;
}

// Source: a bone that a non-rigid $attachment, an $ikchain, a $mouth or a $bonemerge names is
// kept from whichever file of the project has it, not only from the bodies (SDK 2013
// simplify.cpp TagUsedBones tags it in every loaded source, animations and the collision model
// included; BuildGlobalBonetable then adds it and its parents from that source, in load order).
// Fortress Forever's w_railgun attaches to a bone only its collision SMD has. GoldSrc and
// vbmcompiler build their bone table from the bodies alone ("unknown attachment link").
void Compiler::addBonesKeptFromOtherFiles()
{
    if (goldSrcFamily(m_project.profile) || m_out.model.skeleton.empty()) {
        return;
    }
    std::vector<std::string> wanted;
    for (const QcAttachment& a : m_project.attachments) {
        if (!a.rigid) {
            wanted.push_back(a.bone);
        }
    }
    for (const QcIkChain& k : m_project.ikChains) {
        wanted.push_back(k.bone);
    }
    for (const QcBoneRef& b : m_project.boneRefs) {
        if (b.command == "bonemerge" || b.command == "mouth") {
            wanted.push_back(b.bone);
        }
    }
    for (const std::string& name : wanted) {
        if (m_jointByName.count(boneKey(m_project.profile, name)) != 0) {
            continue;
        }
        for (std::size_t i = 0; i < m_project.files.size(); ++i) {
            const QcFileRef::Kind kind = m_project.files[i].kind;
            if (kind != QcFileRef::Kind::Animation && kind != QcFileRef::Kind::Collision &&
                kind != QcFileRef::Kind::Lod && kind != QcFileRef::Kind::Flex) {
                continue;
            }
            const auto ref = static_cast<std::int32_t>(i);
            const ReadResult* r = readRef(ref);
            if (!r || r->model.skeleton.bindKind != m_out.model.skeleton.bindKind) {
                continue;
            }
            const Skeleton& src = r->model.skeleton;
            const auto it =
                std::find_if(src.names.begin(), src.names.end(),
                             [&](const std::string& n) { return asciiIEquals(n, name); });
            if (it == src.names.end()) {
                continue;
            }
            m_currentFile = resolvedOf(ref);
            m_currentScale = qcFileScale(m_project, ref);
            (void)addBone(src, static_cast<std::size_t>(it - src.names.begin()));
            break;
        }
    }
}

// Takes the bones studiomdl drops out of the merged skeleton and puts the rest in the bone
// table's order ($definebone roots first). Dropped bones have no kept descendant, so
// no bind pose changes; a raw link on one (a weight the compile culls) moves to its nearest
// kept ancestor, as studiomdl maps a source bone missing from the bone table.
// Source studiomdl collapses bones (simplify.cpp CollapseBones) when the QC has $definebone
// (g_numimportbones) or $collapsebones, $collapsebonesaggressive or $alwayscollapse: each of
// those sets g_collapse_bones (Cmd_AlwaysCollapse too, not only for the bone it names).
bool Compiler::collapsesBones() const
{
    if (m_project.profile != Profile::Source && m_project.profile != Profile::Source256) {
        return false;
    }
    if (!m_project.defineBones.empty()) {
        return true;
    }
    return std::any_of(m_project.commands.begin(), m_project.commands.end(),
                       [](const QcCommand& c) {
                           return c.name == "collapsebones" ||
                                  c.name == "collapsebonesaggressive" || c.name == "alwayscollapse";
                       });
}

// Per merged joint, whether studiomdl's TagUsedBones gives it flags of its own: a body's
// vertices weight it, a non-rigid $attachment, an $ikchain, a $mouth or a $bonemerge names it,
// or it is the nearest vertex-weighted bone up the file's hierarchy from a rigid $attachment's.
std::vector<std::uint8_t> Compiler::collapseFlags()
{
    const Skeleton& sk = m_out.model.skeleton;
    std::vector<std::uint8_t> own(sk.size(), 0);
    auto jointOf = [&](const std::string& name) {
        const auto it = m_jointByName.find(boneKey(m_project.profile, name));
        return it == m_jointByName.end() ? kNoJoint : it->second;
    };
    auto mark = [&](const std::string& name) {
        const JointIndex j = jointOf(name);
        if (j != kNoJoint) {
            own[static_cast<std::size_t>(j)] = 1;
        }
    };
    for (const ReadResult* r : bodyFiles(false)) {
        const std::vector<std::uint8_t> used = weightedJoints(r->model);
        for (std::size_t j = 0; j < used.size(); ++j) {
            if (used[j]) {
                mark(r->model.skeleton.names[j]);
            }
        }
    }
    const std::vector<std::uint8_t> weighted = own;
    for (const ReadResult* r : bodyFiles(true)) {
        for (const Attachment& a : r->model.attachments) {
            if (!a.rigid && a.joint >= 0 &&
                static_cast<std::size_t>(a.joint) < r->model.skeleton.size()) {
                mark(r->model.skeleton.names[static_cast<std::size_t>(a.joint)]);
            }
        }
    }
    for (const QcAttachment& a : m_project.attachments) {
        if (!a.rigid) {
            mark(a.bone);
            continue;
        }
        for (JointIndex j = jointOf(a.bone); j != kNoJoint;
             j = sk.parents[static_cast<std::size_t>(j)]) {
            if (weighted[static_cast<std::size_t>(j)]) {
                own[static_cast<std::size_t>(j)] = 1;
                break;
            }
        }
    }
    for (const QcIkChain& k : m_project.ikChains) {
        mark(k.bone);
    }
    for (const QcBoneRef& b : m_project.boneRefs) {
        if (b.command == "bonemerge" || b.command == "mouth") {
            mark(b.bone);
        }
    }
    return own;
}

// Whether an animation of the project moves the bone (simplify.cpp BoneHasAnimation: a frame
// whose position or Euler rotation is more than 0.01 off the first frame's, AnimationDifferent).
bool Compiler::boneMoves(const std::string& name)
{
    std::vector<std::int32_t> refs;
    for (const QcSequence& s : m_project.sequences) {
        for (const std::int32_t r : s.fileRefs) {
            refs.push_back(r);
        }
    }
    for (const QcAnimation& a : m_project.animations) {
        refs.push_back(a.fileRef);
    }
    for (const std::int32_t ref : refs) {
        const ReadResult* r = ref >= 0 ? readRef(ref) : nullptr;
        if (!r || r->model.animations.empty()) {
            continue;
        }
        const Skeleton& src = r->model.skeleton;
        const Animation& an = r->model.animations.front();
        std::size_t j = 0;
        while (j < src.size() && !asciiIEquals(src.names[j], name)) {
            ++j;
        }
        if (j >= src.size() || j >= an.jointCount) {
            continue;
        }
        const auto off = [](const Vec3& a, const Vec3& b) {
            return (a - b).cwiseAbs().maxCoeff() > 0.01f;
        };
        for (std::size_t f = 1; f < an.frameCount(); ++f) {
            const std::size_t k0 = an.key(0, j), k = an.key(f, j);
            if (k < an.positions.size() && off(an.positions[k0], an.positions[k])) {
                return true;
            }
            if (k < an.rotations.size() && off(an.rotations[k0], an.rotations[k])) {
                return true;
            }
        }
    }
    return false;
}

// The bone table of a Source compile that collapses bones (simplify.cpp BuildGlobalBonetable,
// then CollapseBones): the $definebone bones first, in script order, each under the parent it
// names when that is an earlier $definebone bone (else a root); then the files' bones in merged
// order under their files' parents. Flags go up to every parent. CollapseBones then walks the
// table: a $definebone bone stays; another stays when it has flags and BoneShouldCollapse says
// no: it is not in an $alwayscollapse and is a root of the table as it stands, a bone an
// animation moves, a jiggle bone or an $ikchain's. A removed bone's children take its parent.
// Returns false when nothing would be kept.
bool Compiler::collapseTable(const std::vector<std::uint8_t>& inTable,
                             std::vector<std::size_t>& order, std::vector<std::uint8_t>& kept,
                             std::vector<JointIndex>& parents,
                             std::vector<std::uint8_t>& predefined)
{
    const Skeleton& sk = m_out.model.skeleton;
    const std::size_t n = sk.size();
    order.clear();
    kept.assign(n, 0);
    parents.assign(n, kNoJoint);
    predefined.assign(n, 0);
    for (const QcDefineBone& b : m_project.defineBones) {
        const auto it = m_jointByName.find(boneKey(m_project.profile, b.name));
        if (it == m_jointByName.end() || predefined[static_cast<std::size_t>(it->second)]) {
            continue;
        }
        const auto j = static_cast<std::size_t>(it->second);
        predefined[j] = 1;
        order.push_back(j);
        const auto p = m_jointByName.find(boneKey(m_project.profile, b.parent));
        if (!b.parent.empty() && p != m_jointByName.end() &&
            predefined[static_cast<std::size_t>(p->second)] && p->second != it->second) {
            parents[j] = p->second;
        }
    }
    std::vector<std::uint8_t> placed = predefined;
    for (std::size_t j = 0; j < n; ++j) {
        if (!inTable[j] || placed[j]) {
            continue;
        }
        for (const std::size_t k : unseenAncestry(sk.parents, j, placed, n)) {
            placed[k] = 1;
            order.push_back(k);
            parents[k] = sk.parents[k];
        }
    }
    // Flags of the table's bones, each with its children's.
    const std::vector<std::uint8_t> own = collapseFlags();
    std::vector<std::uint8_t> flags(n, 0);
    for (const std::size_t j : order) {
        if (!own[j]) {
            continue;
        }
        std::size_t guard = 0;
        for (JointIndex k = static_cast<JointIndex>(j); k != kNoJoint && guard++ <= n;
             k = parents[static_cast<std::size_t>(k)]) {
            flags[static_cast<std::size_t>(k)] = 1;
        }
    }
    bool anyAnimation = false;
    for (const QcSequence& s : m_project.sequences) {
        anyAnimation = anyAnimation || !s.fileRefs.empty();
    }
    anyAnimation = anyAnimation || !m_project.animations.empty();
    bool any = false;
    for (const std::size_t j : order) {
        if (predefined[j]) {
            kept[j] = 1;
            any = true;
            continue;
        }
        const std::string& name = sk.names[j];
        bool always = false, procedural = false, ik = false;
        for (const QcBoneRef& b : m_project.boneRefs) {
            always = always || (b.command == "alwayscollapse" && asciiIEquals(b.bone, name));
        }
        for (const QcJiggleBone& b : m_project.jiggleBones) {
            procedural = procedural || asciiIEquals(b.bone, name);
        }
        for (const QcIkChain& k : m_project.ikChains) {
            ik = ik || asciiIEquals(k.bone, name);
        }
        const bool moves = anyAnimation && (parents[j] == kNoJoint || boneMoves(name));
        if (flags[j] && !always && (moves || procedural || ik)) {
            kept[j] = 1;
            any = true;
            continue;
        }
        for (const std::size_t c : order) {
            if (parents[c] == static_cast<JointIndex>(j)) {
                parents[c] = parents[j];
            }
        }
    }
    return any;
}

// A $lod's bonetreecollapse or replacebone bone that the bone table lacks: SDK 2013
// UnifyLODs.cpp skips the line with a warning (ConvertSingleBoneTreeCollapseToReplaceBones:
// "Couldn't find bone %s for bonetreecollapse, skipping"; BuildBoneLODMapping: "Couldn't
// replace unknown bone", only under -verbose), so the compile goes on. $staticprop leaves one
// bone (MakeStaticProp runs first, in RemapBones) and a dropped bone has no vertex on it or
// below it (TagUsedBones tags every used bone's parents): nothing was to collapse, a note.
// Otherwise the LOD keeps bones its author meant to fold: a warning.
void Compiler::lodBoneRefUnknown(const QcBoneRef& b, bool dropped)
{
    const std::string skipped = b.command == "replacebone"
                                    ? "studiomdl skips the replacement (it warns only under "
                                      "-verbose)"
                                    : "studiomdl warns that it cannot find the bone and skips "
                                      "the line";
    const std::string head = b.command + " names bone '" + b.bone + "'";
    if (m_project.staticProp) {
        m_out.diagnostics.push_back(diagnosticAt(
            Severity::Note, ids::kQcIgnoredBone, b.at,
            head + "; $staticprop collapses every bone into one bone named 'static_prop', so " +
                skipped + ", which had nothing to collapse"));
    } else if (dropped && b.command == "bonetreecollapse") {
        m_out.diagnostics.push_back(diagnosticAt(
            Severity::Note, ids::kQcIgnoredBone, b.at,
            head +
                ", which studiomdl drops from the compiled model with every bone below it (no "
                "vertex of any body is weighted to them); " +
                skipped + ", which had nothing to collapse"));
    } else {
        Diagnostic d = diagnosticAt(
            Severity::Warning, ids::kQcUnknownBone, b.at,
            head +
                (dropped ? std::string(", which studiomdl drops from the compiled model")
                         : ", which no body has (" + std::to_string(m_out.model.skeleton.size()) +
                               " bones merged)") +
                "; " + skipped + ", so this LOD " +
                (b.command == "replacebone" ? "keeps that bone's vertices where they are"
                                            : "collapses nothing there"));
        d.fixedSeverity = true;
        m_out.diagnostics.push_back(std::move(d));
    }
}

void Compiler::dropUnusedBones()
{
    Skeleton& sk = m_out.model.skeleton;
    m_out.mergedSkeleton = sk;
    m_out.mergedJointFile = m_jointFile;
    const std::vector<std::uint8_t> used = usedBones();
    std::vector<std::size_t> collapsedOrder;
    std::vector<std::uint8_t> collapsedKept, predefined;
    std::vector<JointIndex> collapsedParents;
    if (collapsesBones() &&
        collapseTable(used, collapsedOrder, collapsedKept, collapsedParents, predefined)) {
        // Each kept bone keeps its place in the files' bind pose, re-expressed under its new
        // parent. studiomdl writes a $definebone bone where the command puts it and moves the
        // bone's vertices with it (RemapVerticesToGlobalBones: the source bind's inverse, then
        // the table's boneToPose); the prediction keeps both in the files' pose, which poses
        // the same (the ghost of a compiled model is placed back on it, placeGhostOnSource).
        const bool relative = isParentRelative(sk.bindKind);
        std::vector<Eigen::Matrix3d> worldRot(relative ? sk.size() : 0);
        std::vector<Eigen::Vector3d> worldPos(relative ? sk.size() : 0);
        std::vector<std::uint8_t> done(worldRot.size(), 0);
        auto world = [&](std::size_t j) {
            for (const std::size_t k : unseenAncestry(sk.parents, j, done, sk.size())) {
                const Eigen::Matrix3d r = eulerToMatrixD(sk.bindRotations[k]);
                const Eigen::Vector3d t = sk.bindPositions[k].cast<double>();
                const JointIndex pp = sk.parents[k];
                if (pp != kNoJoint && done[static_cast<std::size_t>(pp)]) {
                    const auto q = static_cast<std::size_t>(pp);
                    worldRot[k] = worldRot[q] * r;
                    worldPos[k] = worldRot[q] * t + worldPos[q];
                } else {
                    worldRot[k] = r;
                    worldPos[k] = t;
                }
                done[k] = 1;
            }
        };
        Skeleton kept;
        kept.bindKind = sk.bindKind;
        std::vector<JointIndex> remap(sk.size(), kNoJoint);
        m_jointByName.clear();
        for (const std::size_t j : collapsedOrder) {
            if (!collapsedKept[j]) {
                continue;
            }
            const JointIndex p = collapsedParents[j];
            const JointIndex parent = p == kNoJoint ? kNoJoint : remap[static_cast<std::size_t>(p)];
            const JointIndex idx = kept.addJoint(
                sk.names[j], parent, static_cast<std::int32_t>(kept.size()), sk.where[j]);
            const auto i = static_cast<std::size_t>(idx);
            kept.bindPositions[i] = sk.bindPositions[j];
            kept.bindRotations[i] = sk.bindRotations[j];
            kept.bindAxes[i] = sk.bindAxes[j];
            kept.bindScales[i] = sk.bindScales[j];
            kept.bindHasScale[i] = sk.bindHasScale[j];
            kept.bindWhere[i] = sk.bindWhere[j];
            if (relative && p != sk.parents[j]) {
                world(j);
                Eigen::Matrix3d r = worldRot[j];
                Eigen::Vector3d t = worldPos[j];
                if (p != kNoJoint) {
                    const auto q = static_cast<std::size_t>(p);
                    world(q);
                    r = worldRot[q].transpose() * worldRot[j];
                    t = worldRot[q].transpose() * (worldPos[j] - worldPos[q]);
                }
                kept.bindPositions[i] = t.cast<float>();
                kept.bindRotations[i] = matrixToEuler(r);
            }
            remap[j] = idx;
            m_out.keptJoints.push_back(static_cast<JointIndex>(j));
            m_jointByName.emplace(boneKey(m_project.profile, sk.names[j]), idx);
        }
        // A bone not kept: its vertices go to its nearest kept ancestor in the files'
        // hierarchy, else to bone 0 (MapSourcesToGlobalBonetable).
        for (std::size_t j = 0; j < sk.size(); ++j) {
            if (collapsedKept[j]) {
                continue;
            }
            JointIndex k = sk.parents[j];
            while (k != kNoJoint && !collapsedKept[static_cast<std::size_t>(k)]) {
                k = sk.parents[static_cast<std::size_t>(k)];
            }
            remap[j] = k != kNoJoint ? remap[static_cast<std::size_t>(k)] : JointIndex(0);
            m_droppedByName.emplace(asciiLower(sk.names[j]), m_out.droppedBones.size());
            m_out.droppedBones.push_back({sk.names[j], m_jointFile[j], sk.where[j]});
        }
        Mesh& mesh = m_out.model.mesh;
        auto map = [&](JointIndex& j) {
            if (j != kNoJoint && static_cast<std::size_t>(j) < remap.size()) {
                j = remap[static_cast<std::size_t>(j)];
            }
        };
        std::for_each(mesh.pointParents.begin(), mesh.pointParents.end(), map);
        std::for_each(mesh.influenceJoints.begin(), mesh.influenceJoints.end(), map);
        sk = std::move(kept);
        return;
    }
    // The bone table's order (Source): the $definebone bones first, in script order (each
    // after its parent), then the files' bones in merged order.
    std::vector<std::size_t> order;
    std::vector<std::uint8_t> placed(sk.size(), 0);
    auto place = [&](std::size_t j) {
        for (const std::size_t k : unseenAncestry(sk.parents, j, placed, sk.size())) {
            if (!placed[k]) {
                placed[k] = 1;
                order.push_back(k);
            }
        }
    };
    if (goldSrcFamily(m_project.profile)) {
        for (const std::size_t j : m_tableOrder) {
            place(j);
        }
    } else {
        // Only a chain of $definebone bones (a root, or under a bone an earlier $definebone
        // placed): one under a file's bone keeps its merged place (not verified on a compiled
        // model yet).
        for (const QcDefineBone& b : m_project.defineBones) {
            const auto it = m_jointByName.find(boneKey(m_project.profile, b.name));
            if (it == m_jointByName.end()) {
                continue;
            }
            const JointIndex parent = sk.parents[static_cast<std::size_t>(it->second)];
            if (parent == kNoJoint || placed[static_cast<std::size_t>(parent)]) {
                place(static_cast<std::size_t>(it->second));
            }
        }
    }
    for (std::size_t j = 0; j < sk.size(); ++j) {
        place(j);
    }
    bool identity = true;
    for (std::size_t i = 0; i < order.size() && identity; ++i) {
        identity = order[i] == i;
    }
    if (identity && std::find(used.begin(), used.end(), 0) == used.end()) {
        for (std::size_t j = 0; j < sk.size(); ++j) {
            m_out.keptJoints.push_back(static_cast<JointIndex>(j));
        }
        return;
    }
    Skeleton kept;
    kept.bindKind = sk.bindKind;
    std::vector<JointIndex> remap(sk.size(), kNoJoint);
    m_jointByName.clear();
    for (const std::size_t j : order) {
        const JointIndex parent =
            sk.parents[j] == kNoJoint ? kNoJoint : remap[static_cast<std::size_t>(sk.parents[j])];
        if (!used[j]) {
            remap[j] = parent != kNoJoint ? parent : (kept.empty() ? kNoJoint : 0);
            const std::string key = asciiLower(sk.names[j]);
            m_droppedByName.emplace(key, m_out.droppedBones.size());
            m_out.droppedBones.push_back({sk.names[j], m_jointFile[j], sk.where[j]});
            continue;
        }
        const JointIndex idx =
            kept.addJoint(sk.names[j], parent, static_cast<std::int32_t>(kept.size()), sk.where[j]);
        const auto i = static_cast<std::size_t>(idx);
        kept.bindPositions[i] = sk.bindPositions[j];
        kept.bindRotations[i] = sk.bindRotations[j];
        kept.bindAxes[i] = sk.bindAxes[j];
        kept.bindScales[i] = sk.bindScales[j];
        kept.bindHasScale[i] = sk.bindHasScale[j];
        kept.bindWhere[i] = sk.bindWhere[j];
        remap[j] = idx;
        m_out.keptJoints.push_back(static_cast<JointIndex>(j));
        m_jointByName.emplace(boneKey(m_project.profile, sk.names[j]), idx);
    }
    Mesh& mesh = m_out.model.mesh;
    auto map = [&](JointIndex& j) {
        if (j != kNoJoint && static_cast<std::size_t>(j) < remap.size()) {
            j = remap[static_cast<std::size_t>(j)];
        }
    };
    std::for_each(mesh.pointParents.begin(), mesh.pointParents.end(), map);
    std::for_each(mesh.influenceJoints.begin(), mesh.influenceJoints.end(), map);
    sk = std::move(kept);
}

// `$staticprop` (Source SDK 2013 simplify.cpp MakeStaticProp): bone 0 of every file becomes
// `static_prop` at the origin, every other bone a root no vertex uses (so the bone table keeps
// static_prop alone), every weight and attachment moves onto it, and points keep their model
// positions. `mergedSkeleton` keeps the bones as written (for the xref.* checks); none of them is
// reported as dropped: the author asked for the collapse.
void Compiler::collapseToStaticProp()
{
    Skeleton& sk = m_out.model.skeleton;
    m_out.mergedSkeleton = sk;
    m_out.mergedJointFile = m_jointFile;
    // No body bone (every body blank): MakeStaticProp renames bone 0 of every source, the
    // sequences' too, so `static_prop` is still the model's one bone when a sequence's file
    // has a bone; with none anywhere there is no bone 0 to rename.
    if (sk.empty()) {
        bool anyBone = false;
        for (const QcSequence& seq : m_project.sequences) {
            for (std::size_t k = 0; k < seq.sources.size() && !anyBone; ++k) {
                const Source src = resolveSource(
                    seq.sources[k], k < seq.fileRefs.size() ? seq.fileRefs[k] : std::int32_t(-1),
                    seq.options);
                const ReadResult* rr = src.ref >= 0 ? readRef(src.ref) : nullptr;
                anyBone = rr && rr->hasModel && !rr->model.skeleton.empty();
            }
        }
        if (!anyBone) {
            return;
        }
    }
    Skeleton one;
    one.bindKind = sk.bindKind;
    (void)one.addJoint("static_prop", kNoJoint, 0, sk.empty() ? SourceLoc{} : sk.where[0]);
    m_jointByName.clear();
    m_jointByName.emplace("static_prop", 0);
    m_out.keptJoints.assign(1, 0);
    // One link per linked point: rigid on static_prop (the links studiomdl sets to bone 0).
    rigidOnFirstJoint(m_out.model.mesh);
    // "throw away all vertex animations"
    m_out.model.flexShapes.clear();
    m_out.flexSources.clear();
    m_out.model.flexControllers.clear();
    m_out.model.flexDominators.clear();
    m_out.model.pointBalance.clear();
    sk = std::move(one);
}

// The shapes of `shapes` (a VTA, or the DMX `body` itself) matched onto `body`'s corners
// (FORMATS.md 1.6, as studiomdl and the viewer match them), as ids of the merged model's corners
// (`body`'s first corner is `cornerBase`), $scale applied to the deltas.
void Compiler::addFlexShapes(const Model& body, const Model& shapes, std::size_t cornerBase)
{
    const FlexTargets t = bindFlexShapes(body.mesh, shapes);
    for (std::size_t s = 0; s < t.shapeCount(); ++s) {
        FlexShape c;
        c.name = t.names[s];
        c.where = s < shapes.flexShapes.size() ? shapes.flexShapes[s].where : SourceLoc{};
        for (std::uint32_t k = t.shapeOffsets[s]; k < t.shapeOffsets[s + 1]; ++k) {
            c.ids.push_back(static_cast<std::int32_t>(cornerBase + t.targets[k]));
            c.deltaPositions.push_back(t.deltaPositions[k] * m_currentScale);
            c.deltaNormals.push_back(t.deltaNormals[k]);
        }
        m_out.model.flexShapes.push_back(std::move(c));
    }
}

// A DMX body's flex controllers and domination rules (the face rules of its shapes) and its
// stereo balance per point (`body`'s first point is `pointBase`; other points follow both
// sides, 0.5).
void Compiler::addFlexRig(const Model& body, std::size_t pointBase)
{
    Model& m = m_out.model;
    for (const FlexController& c : body.flexControllers) {
        const bool known = std::any_of(m.flexControllers.begin(), m.flexControllers.end(),
                                       [&](const FlexController& o) { return o.name == c.name; });
        if (!known) {
            m.flexControllers.push_back(c);
        }
    }
    m.flexDominators.insert(m.flexDominators.end(), body.flexDominators.begin(),
                            body.flexDominators.end());
    if (body.pointBalance.size() == body.mesh.pointCount() && !body.pointBalance.empty()) {
        m.pointBalance.resize(pointBase, 0.5f);
        m.pointBalance.insert(m.pointBalance.end(), body.pointBalance.begin(),
                              body.pointBalance.end());
    }
}

// The merged model's shapes as vertex frames (a base frame of every corner, one frame per
// shape), as a DMX reader gives them: what the viewer, `pose` and the writers bind shapes with.
void Compiler::addVertexFrames()
{
    Model& m = m_out.model;
    if (m.flexShapes.empty()) {
        return;
    }
    const Mesh& me = m.mesh;
    VertexFrame base;
    base.name = "base";
    const std::size_t nc = me.cornerCount();
    base.ids.reserve(nc);
    base.positions.reserve(nc);
    base.normals.reserve(nc);
    base.lineWhere.reserve(nc);
    for (std::size_t c = 0; c < nc; ++c) {
        base.ids.push_back(static_cast<std::int32_t>(c));
        base.positions.push_back(me.pointPositions[me.cornerPoints[c]]);
        base.normals.push_back(me.cornerNormals[c]);
        base.lineWhere.push_back(me.cornerWhere[c]);
    }
    m.vertexFrames.push_back(std::move(base));
    for (std::size_t s = 0; s < m.flexShapes.size(); ++s) {
        const FlexShape& shape = m.flexShapes[s];
        VertexFrame f;
        f.time = static_cast<double>(s + 1);
        f.name = shape.name;
        f.where = shape.where;
        for (std::size_t k = 0; k < shape.ids.size(); ++k) {
            const auto c = static_cast<std::size_t>(shape.ids[k]);
            f.ids.push_back(shape.ids[k]);
            f.positions.push_back(me.pointPositions[me.cornerPoints[c]] + shape.deltaPositions[k]);
            f.normals.push_back(me.cornerNormals[c] + shape.deltaNormals[k]);
            f.lineWhere.push_back(shape.where);
        }
        m.vertexFrames.push_back(std::move(f));
    }
}

// Source `k` of sequence `seq` (its first file, or a later blend file) on the merged skeleton, as
// studiomdl plays it: false when the file has no animation.
bool Compiler::sequenceSource(const QcSequence& seq, std::size_t k, Animation& out)
{
    const Source src = resolveSource(
        seq.sources[k], k < seq.fileRefs.size() ? seq.fileRefs[k] : std::int32_t(-1), seq.options);
    const QcAnimOptions& opt = src.options;
    if (!mergedFrames(src.ref, opt.frameStart, opt.frameEnd, out)) {
        return false;
    }
    out.name = seq.name;
    out.fps = opt.fps > 0 && std::isfinite(opt.fps) ? opt.fps : 30.0f;
    out.fpsFromFile = opt.fpsSet;
    if (m_project.staticProp && !goldSrcFamily(m_project.profile)) {
        // MakeStaticProp throws every animation away: one frame, static_prop at the origin.
        Animation still;
        still.name = out.name;
        still.fps = out.fps;
        still.fpsFromFile = out.fpsFromFile;
        still.jointCount = m_out.model.skeleton.size();
        still.appendFrame(0, out.frameWhere.empty() ? SourceLoc{} : out.frameWhere.front());
        out = std::move(still);
    } else if (!opt.subtract.empty()) {
        // The subtracted animation: an $animation, else a $sequence, by name.
        std::int32_t baseRef = -1;
        for (const QcSequence& other : m_project.sequences) {
            if (baseRef < 0 && asciiLower(other.name) == asciiLower(opt.subtract) &&
                !other.sources.empty()) {
                baseRef = resolveSource(other.sources.front(),
                                        other.fileRefs.empty() ? -1 : other.fileRefs.front(),
                                        other.options)
                              .ref;
            }
        }
        const Source base = resolveSource(opt.subtract, -1, {});
        if (base.ref >= 0) {
            baseRef = base.ref;
        }
        Animation frame;
        const std::int32_t f = std::max(opt.subtractFrame, 0);
        if (mergedFrames(baseRef, f, f, frame) && frame.frameCount() == 1) {
            playOnBind(out, &frame, opt.post);
        }
    } else if (opt.delta) {
        playOnBind(out, nullptr, opt.post);
    }
    return true;
}

void Compiler::addSequence(std::size_t si)
{
    const QcSequence& seq = m_project.sequences[si];
    m_out.sequenceAnimation[si] = -1;
    if (seq.declared || seq.sources.empty()) {
        return;
    }
    Animation out;
    if (sequenceSource(seq, 0, out)) {
        m_out.model.animations.push_back(std::move(out));
        m_out.sequenceAnimation[si] = static_cast<std::int32_t>(m_out.model.animations.size() - 1);
    }
    // A blend's later files: studiomdl loads each (ParseSequence: one animation per name, the
    // blend grid of them), so each is read (and checked) and its poses count for the hull
    // (CalcSequenceBoundingBoxes runs over every animation of the sequence).
    for (std::size_t k = 1; k < seq.sources.size(); ++k) {
        Animation blend;
        if (sequenceSource(seq, k, blend)) {
            m_out.blendAnimations.push_back(std::move(blend));
            m_out.blendSequence.push_back(static_cast<std::int32_t>(si));
        }
    }
}

QcCompiled Compiler::run()
{
    m_out.fileRead.assign(m_project.files.size(), -1);
    m_out.model.format = "qc";
    m_out.model.kind = ModelKind::Reference;
    Mesh& mesh = m_out.model.mesh;
    std::vector<JointIndex> remap;
    // Bodies: every choice of every group, in order.
    m_out.choiceObjects.resize(m_project.bodygroups.size());
    for (std::size_t g = 0; g < m_project.bodygroups.size(); ++g) {
        const QcBodygroup& grp = m_project.bodygroups[g];
        for (std::size_t ci = 0; ci < grp.choices.size(); ++ci) {
            const QcBodyChoice& ch = grp.choices[ci];
            std::int32_t object = -1;
            const ReadResult* r = ch.blank ? nullptr : readRef(ch.fileRef);
            const std::int32_t wanted = g < m_opt.choices.size() ? m_opt.choices[g] : 0;
            const bool shown = m_opt.allChoices || wanted == static_cast<std::int32_t>(ci);
            // An LOD shown: its `replacemodel` file stands for this one (`removemodel`: none).
            const std::int32_t lodRef = shown && !ch.blank ? lodReplacement(ch.path) : kNoLod;
            m_currentFile = ch.blank ? std::string() : resolvedOf(ch.fileRef);
            m_currentScale = ch.blank ? 1.0f : qcFileScale(m_project, ch.fileRef);
            if (r && (!shown || lodRef != kNoLod)) {
                // Not shown: its bones still belong to the compiled skeleton.
                if (!m_kindSet && r->model.kind != ModelKind::Flex) {
                    m_out.model.skeleton.bindKind = r->model.skeleton.bindKind;
                    m_kindSet = true;
                }
                if (r->model.skeleton.bindKind == m_out.model.skeleton.bindKind) {
                    for (std::size_t j = 0; j < r->model.skeleton.size(); ++j) {
                        (void)addBone(r->model.skeleton, j);
                    }
                }
                r = shown && lodRef >= 0 ? readRef(lodRef) : nullptr;
                m_currentFile = lodRef >= 0 ? resolvedOf(lodRef) : std::string();
                m_currentScale = lodRef >= 0 ? qcFileScale(m_project, lodRef) : 1.0f;
            }
            if (r && r->model.kind != ModelKind::Flex) {
                const Model& src = r->model;
                if (!m_kindSet) {
                    m_out.model.skeleton.bindKind = src.skeleton.bindKind;
                    m_kindSet = true;
                }
                if (src.skeleton.bindKind == m_out.model.skeleton.bindKind) {
                    object = static_cast<std::int32_t>(mesh.objects.size());
                    mesh.objects.push_back(
                        grp.name + "/" +
                        stemName(lodRef >= 0
                                     ? m_project.files[static_cast<std::size_t>(lodRef)].path
                                     : ch.path));
                    const std::size_t pointBase = mesh.pointPositions.size();
                    const std::size_t cornerBase = mesh.cornerPoints.size();
                    addMesh(src, static_cast<std::uint32_t>(object), remap);
                    m_out.hasModel = true;
                    // Flex: a DMX body's own delta states, and the `flexfile` VTAs of a $model,
                    // matched onto this body's corners as studiomdl matches them.
                    if (!src.flexShapes.empty() && !src.vertexFrames.empty()) {
                        QcFlexShapeSource fs;
                        fs.fileRef = ch.fileRef;
                        fs.body = static_cast<std::int32_t>(g);
                        fs.dmx = true;
                        fs.firstShape = m_out.model.flexShapes.size();
                        addFlexShapes(src, src, cornerBase);
                        fs.count = m_out.model.flexShapes.size() - fs.firstShape;
                        m_out.flexSources.push_back(std::move(fs));
                        addFlexRig(src, pointBase);
                    }
                    if (&ch == &grp.choices.front() && lodRef == kNoLod) {
                        for (std::int32_t fref : grp.flexFiles) {
                            if (const ReadResult* v = readRef(fref)) {
                                QcFlexShapeSource fs;
                                fs.fileRef = fref;
                                fs.body = static_cast<std::int32_t>(g);
                                fs.firstShape = m_out.model.flexShapes.size();
                                for (std::size_t k = 1; k < v->model.vertexFrames.size(); ++k) {
                                    fs.times.push_back(v->model.vertexFrames[k].time);
                                }
                                // readRef may have grown the read cache, moving `src`: the body
                                // is read already, so this returns its new place.
                                addFlexShapes(readRef(ch.fileRef)->model, v->model, cornerBase);
                                fs.count = m_out.model.flexShapes.size() - fs.firstShape;
                                m_out.flexSources.push_back(std::move(fs));
                            }
                        }
                    }
                }
            }
            m_out.choiceObjects[g].push_back(object);
        }
    }
    // $definebone bones that no file has.
    for (const QcDefineBone& b : m_project.defineBones) {
        if (m_jointByName.count(boneKey(m_project.profile, b.name))) {
            continue;
        }
        JointIndex parent = kNoJoint;
        if (!b.parent.empty()) {
            auto it = m_jointByName.find(boneKey(m_project.profile, b.parent));
            parent = it == m_jointByName.end() ? kNoJoint : it->second;
        }
        Skeleton& s = m_out.model.skeleton;
        const JointIndex idx =
            s.addJoint(b.name, parent, static_cast<std::int32_t>(s.size()), b.at.where);
        m_jointFile.push_back(b.at.file);
        // studiomdl takes its numbers as written, without $scale (Cmd_DefineBone): the
        // players of Faceposable-CSS-Models, $scale 1.04, have the pelvis at the $definebone's
        // z 40.10959, not 41.71.
        s.bindPositions[static_cast<std::size_t>(idx)] =
            b.position - (parent == kNoJoint ? m_project.origin : Vec3::Zero());
        s.bindRotations[static_cast<std::size_t>(idx)] = defineBoneEuler(b);
        m_jointByName.emplace(boneKey(m_project.profile, b.name), idx);
        m_out.hasModel = true;
    }
    if (mesh.pointPositions.empty()) {
        mesh.influenceOffsets.clear();
    }
    if (!m_out.model.pointBalance.empty()) {
        m_out.model.pointBalance.resize(mesh.pointCount(), 0.5f);
    }
    if (m_project.staticProp && !goldSrcFamily(m_project.profile)) {
        collapseToStaticProp();
    } else {
        addBonesKeptFromOtherFiles();
        dropUnusedBones();
    }
    // The LOD shown: its replacematerial lines put their materials in (before the skin, whose
    // rows name the LOD 0 materials).
    if (m_opt.lod > 0 && static_cast<std::size_t>(m_opt.lod) <= m_project.lods.size()) {
        for (const QcLod::Replace& r :
             m_project.lods[static_cast<std::size_t>(m_opt.lod) - 1].replaceMaterials) {
            for (Material& m : mesh.materials) {
                if (fileKey(m.name, true) == fileKey(r.from, true)) {
                    m.name = r.to;
                }
            }
        }
    }
    // Skin: the first $texturegroup row's materials become the chosen row's.
    if (m_opt.skin > 0 && !m_project.textureGroups.empty()) {
        const QcTextureGroup& tg = m_project.textureGroups.front();
        const auto row = static_cast<std::size_t>(m_opt.skin);
        if (row < tg.rows.size() && !tg.rows.empty()) {
            for (Material& m : mesh.materials) {
                const std::string key = fileKey(m.name, true);
                for (std::size_t k = 0; k < tg.rows[0].size() && k < tg.rows[row].size(); ++k) {
                    if (fileKey(tg.rows[0][k], true) == key) {
                        m.name = tg.rows[row][k];
                        break;
                    }
                }
            }
        }
    }
    m_out.sequenceAnimation.assign(m_project.sequences.size(), -1);
    for (std::size_t s = 0; s < m_project.sequences.size(); ++s) {
        addSequence(s);
    }
    applyUpAxis();
    // A $staticprop's $origin X Y Z goes on after the turn (qcStaticPropOffset).
    const Vec3 staticOffset = qcStaticPropOffset(m_project);
    if (!staticOffset.isZero(0.0f)) {
        for (Vec3& p : mesh.pointPositions) {
            p += staticOffset;
        }
    }
    addVertexFrames();
    // Animations named by $animation only are read too (their files are part of the project).
    for (const QcAnimation& a : m_project.animations) {
        (void)readRef(a.fileRef);
    }
    for (std::size_t i = 0; i < m_project.files.size(); ++i) {
        const QcFileRef& f = m_project.files[i];
        if (f.kind == QcFileRef::Kind::Lod || f.kind == QcFileRef::Kind::Flex ||
            f.kind == QcFileRef::Kind::Collision) {
            (void)readRef(static_cast<std::int32_t>(i));
        }
    }
    const Skeleton& skel = m_out.model.skeleton;
    // A QC command's bone: HL1 SimplifyModel links $attachment, $hbox and $hgroup with
    // stricmp / strcmpi, the first bone of the table that matches but for case (both of
    // Afterburner's austria_tree_dead_snow $hbox lines, "TREE" and "tree", are on TREE).
    auto jointOf = [&](const std::string& name) {
        if (goldSrcStudiomdl(m_project.profile)) {
            for (std::size_t j = 0; j < skel.size(); ++j) {
                if (asciiIEquals(skel.names[j], name)) {
                    return static_cast<JointIndex>(j);
                }
            }
            return kNoJoint;
        }
        auto it = m_jointByName.find(asciiLower(name));
        return it == m_jointByName.end() ? kNoJoint : it->second;
    };
    // Source links an attachment on a bone it dropped to the nearest kept bone up the files'
    // hierarchy (simplify.cpp LinkAttachments).
    auto attachmentJoint = [&](const std::string& name) {
        JointIndex j = jointOf(name);
        if (j != kNoJoint || goldSrcFamily(m_project.profile)) {
            return j;
        }
        const Skeleton& merged = m_out.mergedSkeleton;
        JointIndex k = kNoJoint;
        for (std::size_t i = 0; i < merged.size() && k == kNoJoint; ++i) {
            k = asciiIEquals(merged.names[i], name) ? static_cast<JointIndex>(i) : kNoJoint;
        }
        while (k != kNoJoint && j == kNoJoint) {
            k = merged.parents[static_cast<std::size_t>(k)];
            j = k == kNoJoint ? kNoJoint : jointOf(merged.names[static_cast<std::size_t>(k)]);
        }
        return j;
    };
    for (const QcAttachment& a : m_project.attachments) {
        m_out.attachmentJoints.push_back(m_project.staticProp &&
                                                 !goldSrcFamily(m_project.profile) && !skel.empty()
                                             ? JointIndex(0)
                                             : attachmentJoint(a.bone));
    }
    for (const QcHitbox& h : m_project.hitboxes) {
        m_out.hitboxJoints.push_back(jointOf(h.bone));
    }
    // qc.unknown-bone: only when a skeleton was merged (missing files are reported already).
    if (!skel.empty()) {
        for (const QcBoneRef& b : m_project.boneRefs) {
            // HL1 SimplifyModel stops on a $controller or $hgroup bone it cannot link
            // ("unknown bonecontroller link", "cannot find bone %s for hitgroup"); under the
            // other profiles they are read for nothing else.
            if (jointOf(b.bone) != kNoJoint ||
                ((b.command == "controller" || b.command == "hgroup") &&
                 !goldSrcStudiomdl(m_project.profile))) {
                continue;
            }
            const auto dropped = m_droppedByName.find(asciiLower(b.bone));
            if ((b.command == "bonetreecollapse" || b.command == "replacebone") &&
                !goldSrcFamily(m_project.profile)) {
                lodBoneRefUnknown(b, dropped != m_droppedByName.end());
                continue;
            }
            if (m_project.staticProp && !goldSrcFamily(m_project.profile)) {
                // MakeStaticProp links every $attachment to static_prop; the rest name bones
                // that no longer exist when studiomdl looks them up.
                if (b.command == "attachment" || b.command == "alwayscollapse" ||
                    b.command == "bonemerge" || b.command == "jigglebone") {
                    continue;
                }
                m_out.diagnostics.push_back(
                    diagnosticAt(Severity::Error, ids::kQcUnknownBone, b.at,
                                 "$" + b.command + " names bone '" + b.bone +
                                     "'; $staticprop collapses every bone into one bone named "
                                     "'static_prop', so studiomdl cannot find it"));
            } else if (dropped != m_droppedByName.end() && b.command != "protected" &&
                       b.command != "movement_bone") {
                // studiomdl only warns that these are unused; Source links an attachment on a
                // dropped bone to its nearest kept ancestor (simplify.cpp LinkAttachments).
                if (b.command == "alwayscollapse" || b.command == "jigglebone" ||
                    (b.command == "attachment" && !goldSrcFamily(m_project.profile))) {
                    continue;
                }
                // $bonemerge only tags the bone (Cmd_BoneMerge, TagUsedBones): one that the
                // collapse removes is merged onto nothing, and the compile goes on.
                if (b.command == "bonemerge") {
                    m_out.diagnostics.push_back(diagnosticAt(
                        Severity::Note, ids::kQcIgnoredBone, b.at,
                        "$bonemerge names bone '" + b.bone +
                            "', which studiomdl drops from the compiled model; it ignores the "
                            "$bonemerge"));
                    continue;
                }
                m_out.diagnostics.push_back(diagnosticAt(
                    Severity::Error, ids::kQcUnknownBone, b.at,
                    "$" + b.command + " names bone '" + b.bone +
                        "', which studiomdl drops from the compiled model: no vertex of any "
                        "body is weighted to it or to a bone below it" +
                        (goldSrcFamily(m_project.profile)
                             ? std::string()
                             : std::string(", and no $attachment, $ikchain or $bonemerge "
                                           "keeps it"))));
            } else if (b.command == "bonemerge" || b.command == "alwayscollapse" ||
                       b.command == "protected" || b.command == "movement_bone") {
                // studiomdl only compares these names with its bones (TagUsedBones,
                // BoneShouldCollapse): an absent one does nothing; vbmcompiler only warns of
                // an absent $protected or $movement_bone (studiocompiler.cpp CreateBoneTable).
                m_out.diagnostics.push_back(diagnosticAt(
                    Severity::Note, ids::kQcIgnoredBone, b.at,
                    "$" + b.command + " names bone '" + b.bone + "', which no body has (" +
                        std::to_string(skel.size()) + " bones merged); studiomdl ignores it"));
            } else {
                m_out.diagnostics.push_back(diagnosticAt(
                    Severity::Error, ids::kQcUnknownBone, b.at,
                    "$" + b.command + " names bone '" + b.bone + "', which no body has (" +
                        std::to_string(skel.size()) + " bones merged)" +
                        (!goldSrcFamily(m_project.profile) &&
                                 (b.command == "attachment" || b.command == "ikchain" ||
                                  b.command == "mouth")
                             ? std::string(", nor any other file of the project")
                             : std::string())));
            }
        }
    }
    caseVariantBones(jointOf);
    // qc.skin-material-unused: row 1 of each $texturegroup against the merged materials.
    if (!mesh.empty()) {
        std::vector<std::string> used;
        for (const Material& m : mesh.materials) {
            used.push_back(fileKey(m.name, true));
        }
        for (const QcTextureGroup& g : m_project.textureGroups) {
            if (g.rows.empty()) {
                continue;
            }
            for (const std::string& name : g.rows.front()) {
                if (std::find(used.begin(), used.end(), fileKey(name, true)) == used.end()) {
                    m_out.diagnostics.push_back(
                        diagnosticAt(Severity::Warning, ids::kQcSkinMaterialUnused, g.rowAt.front(),
                                     "$texturegroup '" + g.name + "' names material '" + name +
                                         "', which no mesh uses (" +
                                         std::to_string(mesh.materials.size()) + " materials)"));
                }
            }
        }
    }
    lodUnknownModels();
    return std::move(m_out);
}

} // namespace

float qcScaleAt(const QcProject& project, const QcWhere& at)
{
    float scale = 1.0f;
    for (const QcCommand& c : project.commands) {
        if (c.at.file == at.file && c.at.where.line >= at.where.line) {
            break;
        }
        float v = 0.0f;
        if (c.name == "scale" && !c.args.empty() && parseFloat(c.args[0], v)) {
            scale = v;
        }
    }
    return scale;
}

float qcFileScale(const QcProject& project, std::int32_t ref)
{
    if (ref < 0 || static_cast<std::size_t>(ref) >= project.files.size()) {
        return 1.0f;
    }
    const QcFileRef& f = project.files[static_cast<std::size_t>(ref)];
    for (const QcFileRef& g : project.files) {
        if (f.resolved.empty() ? g.path == f.path : g.resolved == f.resolved) {
            return qcScaleAt(project, g.at); // the first reference to the same file
        }
    }
    return qcScaleAt(project, f.at);
}

void rigidOnFirstJoint(Mesh& mesh)
{
    std::fill(mesh.pointParents.begin(), mesh.pointParents.end(), JointIndex(0));
    if (mesh.influenceOffsets.empty()) {
        return;
    }
    std::uint32_t n = 0;
    for (std::size_t p = 0; p < mesh.pointCount(); ++p) {
        const bool linked = mesh.influenceOffsets[p + 1] > mesh.influenceOffsets[p];
        mesh.influenceOffsets[p] = n;
        n += linked ? 1u : 0u;
    }
    mesh.influenceOffsets[mesh.pointCount()] = n;
    mesh.influenceJoints.assign(n, JointIndex(0));
    mesh.influenceWeights.assign(n, 1.0f);
}

QcCompiled compileQc(const QcProject& project, QcFileSystem& fs, const QcCompileOptions& options)
{
    Compiler c(project, fs, options);
    return c.run();
}

Eigen::Quaternionf qcUpAxisTurn(const QcProject& project)
{
    return upAxisTurn(project);
}

Vec3 qcStaticPropOffset(const QcProject& project)
{
    if (!project.staticProp || goldSrcFamily(project.profile)) {
        return Vec3::Zero();
    }
    const Vec3& o = project.origin;
    return {o.y(), -o.x(), o.z()};
}

Animation qcCollisionPose(const QcProject& project, const QcCompiled& compiled)
{
    Animation out;
    if (project.staticProp || goldSrcFamily(project.profile)) {
        return out;
    }
    std::int32_t ref = -1;
    const QcAnimOptions* options = nullptr;
    QcAnimOptions merged; // a $sequence's own options
    for (const QcCommand& c : project.commands) {
        if (c.name == "animation") {
            for (const QcAnimation& a : project.animations) {
                if (!options && a.fileRef >= 0 && a.at.file == c.at.file &&
                    a.at.where == c.at.where) {
                    ref = a.fileRef;
                    options = &a.options;
                }
            }
        } else if (c.name == "sequence") {
            for (const QcSequence& q : project.sequences) {
                if (!options && !q.declared && !q.fileRefs.empty() && q.fileRefs.front() >= 0 &&
                    q.at.file == c.at.file && q.at.where == c.at.where) {
                    ref = q.fileRefs.front();
                    merged = q.options;
                    options = &merged;
                }
            }
        }
        if (options) {
            break;
        }
    }
    if (!options || options->delta || !options->subtract.empty() || ref < 0 ||
        static_cast<std::size_t>(ref) >= compiled.fileRead.size()) {
        return out;
    }
    const std::int32_t read = compiled.fileRead[static_cast<std::size_t>(ref)];
    if (read < 0 || static_cast<std::size_t>(read) >= compiled.reads.size()) {
        return out;
    }
    // The compiled skeleton's roots turned back, as the sequences were merged before the turn.
    const Eigen::Quaternionf r = upAxisTurn(project);
    Skeleton sk = compiled.model.skeleton;
    if (sk.bindKind != PoseKind::LocalEulerXYZ) {
        return out;
    }
    const Eigen::Quaternionf back = r.conjugate();
    std::unordered_map<std::string, JointIndex> jointByName;
    for (std::size_t j = 0; j < sk.size(); ++j) {
        jointByName.emplace(boneKey(project.profile, sk.names[j]), static_cast<JointIndex>(j));
        if (sk.parents[j] == kNoJoint) {
            sk.bindPositions[j] = back.toRotationMatrix() * sk.bindPositions[j];
            sk.bindRotations[j] = eulerFromQuat(back * quatFromEuler(sk.bindRotations[j]));
        }
    }
    const std::int32_t f = std::max(options->frameStart, 0);
    Animation pose;
    if (mergeFrames(project, sk, jointByName,
                    compiled.reads[static_cast<std::size_t>(read)].result.model,
                    qcFileScale(project, ref), f, f, pose) &&
        pose.frameCount() == 1) {
        turnRootKeys(sk, r, pose);
        out = std::move(pose);
    }
    return out;
}

} // namespace rigscope::core
