#include "core/project/qc_compile.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/diag/diagnostic_ids.h"
#include "core/io/file_buffer.h"
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

Diagnostic located(Severity s, std::string_view id, const QcWhere& at, std::string message)
{
    Diagnostic d;
    d.severity = s;
    d.id = id;
    d.file = at.file;
    d.where = at.where;
    d.message = std::move(message);
    return d;
}

class Compiler {
public:
    Compiler(const QcProject& p, QcFileSystem& fs, const QcCompileOptions& o)
        : m_p(p), m_fs(fs), m_opt(o)
    {
    }
    QcCompiled run();

private:
    const ReadResult* readRef(std::int32_t ref);
    JointIndex addBone(const Skeleton& src, std::size_t j);
    void addMesh(const Model& src, std::uint32_t object, std::vector<JointIndex>& remap);
    void addSequence(std::size_t s);
    struct Source {
        std::int32_t ref = -1;
        QcAnimOptions options;
    };
    Source resolveSource(std::string_view name, std::int32_t ref, QcAnimOptions opt) const;
    bool mergedFrames(std::int32_t ref, std::int32_t start, std::int32_t end, Animation& out);
    void playOnBind(Animation& anim, const Animation* base, bool post) const;

    const QcProject& m_p;
    QcFileSystem& m_fs;
    const QcCompileOptions& m_opt;
    QcCompiled m_out;
    std::unordered_map<std::string, std::int32_t> m_readByPath;
    std::unordered_map<std::string, JointIndex> m_jointByName; // lower case
    std::vector<std::size_t> m_pointOffsetOfRef; // per files entry: first merged point
    bool m_kindSet = false;
};

const ReadResult* Compiler::readRef(std::int32_t ref)
{
    if (ref < 0 || static_cast<std::size_t>(ref) >= m_p.files.size()) {
        return nullptr;
    }
    const auto r = static_cast<std::size_t>(ref);
    if (m_out.fileRead[r] >= 0) {
        return &m_out.reads[static_cast<std::size_t>(m_out.fileRead[r])].result;
    }
    const QcFileRef& f = m_p.files[r];
    if (f.resolved.empty()) {
        return nullptr;
    }
    auto it = m_readByPath.find(f.resolved);
    if (it == m_readByPath.end()) {
        QcCompiled::FileRead fr;
        fr.path = f.resolved;
        std::string bytes, error;
        if (!m_fs.read(f.resolved, bytes, error)) {
            m_out.diagnostics.push_back(located(Severity::Error, ids::kQcUnreadFile, f.at,
                                                "'" + f.path + "' cannot be read: " + error));
        } else {
            ReadContext ctx;
            ctx.fileName = f.resolved;
            fr.result = readAny(bytes, ctx);
            if (!fr.result.hasModel) {
                std::string why = "no model in it";
                for (const Diagnostic& d : fr.result.diagnostics) {
                    if (d.severity == Severity::Error) {
                        why = d.message;
                        break;
                    }
                }
                m_out.diagnostics.push_back(located(Severity::Error, ids::kQcUnreadFile, f.at,
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
    const std::string key = asciiLower(src.names[j]);
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
    const auto i = static_cast<std::size_t>(idx);
    dst.bindPositions[i] = src.bindPositions[j] * m_p.scale;
    dst.bindRotations[i] = src.bindRotations[j];
    dst.bindAxes[i] = src.bindAxes[j];
    dst.bindScales[i] = src.bindScales[j];
    dst.bindHasScale[i] = src.bindHasScale[j];
    dst.bindWhere[i] = src.bindWhere[j];
    if (parent == kNoJoint) {
        dst.bindPositions[i] -= m_p.origin;
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
        d.pointPositions.push_back(s.pointPositions[p] * m_p.scale - m_p.origin);
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
    for (const QcAnimation& a : m_p.animations) {
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

// Frames [start, end] (-1: all) of file `ref`'s first animation on the merged skeleton:
// $scale applied, $origin taken off the roots, joints the file lacks at their bind pose.
bool Compiler::mergedFrames(std::int32_t ref, std::int32_t start, std::int32_t end, Animation& out)
{
    const ReadResult* r = readRef(ref);
    if (!r || r->model.animations.empty()) {
        return false;
    }
    const Model& src = r->model;
    const Animation& a = src.animations.front();
    if (a.kind != PoseKind::LocalEulerXYZ || a.rotations.size() != a.positions.size() ||
        a.frameCount() == 0) {
        return false;
    }
    const Skeleton& dst = m_out.model.skeleton;
    std::vector<std::int32_t> from(dst.size(), -1); // merged joint -> source joint, by name
    for (std::size_t j = 0; j < src.skeleton.size() && j < a.jointCount; ++j) {
        auto it = m_jointByName.find(asciiLower(src.skeleton.names[j]));
        if (it != m_jointByName.end()) {
            from[static_cast<std::size_t>(it->second)] = static_cast<std::int32_t>(j);
        }
    }
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
        for (std::size_t j = 0; j < dst.size(); ++j) {
            const std::size_t k = out.key(of, j);
            const std::int32_t sj = from[j];
            if (sj >= 0) {
                const std::size_t sk = a.key(f, static_cast<std::size_t>(sj));
                out.positions[k] = a.positions[sk] * m_p.scale;
                if (dst.parents[j] == kNoJoint) {
                    out.positions[k] -= m_p.origin;
                }
                out.rotations[k] = a.rotations[sk];
                out.explicitKey[k] = a.explicitKey[sk];
            } else {
                out.positions[k] = dst.bindPositions[j];
                out.rotations[k] = dst.bindRotations[j];
                out.explicitKey[k] = 0;
            }
        }
    }
    return true;
}

namespace {

// SMD rotations: Euler XYZ radians, R = Rz * Ry * Rx.
Eigen::Quaternionf quatFromEuler(const Vec3& e)
{
    return Eigen::Quaternionf(Eigen::AngleAxisf(e.z(), Vec3::UnitZ()) *
                              Eigen::AngleAxisf(e.y(), Vec3::UnitY()) *
                              Eigen::AngleAxisf(e.x(), Vec3::UnitX()));
}

Vec3 eulerFromQuat(const Eigen::Quaternionf& q)
{
    const Vec3 zyx = q.normalized().toRotationMatrix().eulerAngles(2, 1, 0);
    return {zyx.z(), zyx.y(), zyx.x()};
}

} // namespace

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

void Compiler::addSequence(std::size_t si)
{
    const QcSequence& seq = m_p.sequences[si];
    m_out.sequenceAnimation[si] = -1;
    if (seq.declared || seq.sources.empty()) {
        return;
    }
    const Source src = resolveSource(seq.sources.front(),
                                     seq.fileRefs.empty() ? -1 : seq.fileRefs.front(), seq.options);
    const QcAnimOptions& opt = src.options;
    Animation out;
    if (!mergedFrames(src.ref, opt.frameStart, opt.frameEnd, out)) {
        return;
    }
    out.name = seq.name;
    out.fps = opt.fps > 0 && std::isfinite(opt.fps) ? opt.fps : 30.0f;
    out.fpsFromFile = opt.fpsSet;
    if (!opt.subtract.empty()) {
        // The subtracted animation: an $animation, else a $sequence, by name.
        std::int32_t baseRef = -1;
        for (const QcSequence& other : m_p.sequences) {
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
    m_out.model.animations.push_back(std::move(out));
    m_out.sequenceAnimation[si] = static_cast<std::int32_t>(m_out.model.animations.size() - 1);
}

QcCompiled Compiler::run()
{
    m_out.fileRead.assign(m_p.files.size(), -1);
    m_out.model.format = "qc";
    m_out.model.kind = ModelKind::Reference;
    Mesh& mesh = m_out.model.mesh;
    std::vector<JointIndex> remap;
    // Bodies: every choice of every group, in order.
    m_out.choiceObjects.resize(m_p.bodygroups.size());
    for (std::size_t g = 0; g < m_p.bodygroups.size(); ++g) {
        const QcBodygroup& grp = m_p.bodygroups[g];
        for (std::size_t ci = 0; ci < grp.choices.size(); ++ci) {
            const QcBodyChoice& ch = grp.choices[ci];
            std::int32_t object = -1;
            const ReadResult* r = ch.blank ? nullptr : readRef(ch.fileRef);
            const std::int32_t wanted = g < m_opt.choices.size() ? m_opt.choices[g] : 0;
            if (r && !m_opt.allChoices && wanted != static_cast<std::int32_t>(ci)) {
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
                r = nullptr;
            }
            if (r && r->model.kind != ModelKind::Flex) {
                const Model& src = r->model;
                if (!m_kindSet) {
                    m_out.model.skeleton.bindKind = src.skeleton.bindKind;
                    m_kindSet = true;
                }
                if (src.skeleton.bindKind == m_out.model.skeleton.bindKind) {
                    object = static_cast<std::int32_t>(mesh.objects.size());
                    mesh.objects.push_back(grp.name + "/" + stemName(ch.path));
                    const std::size_t pointBase = mesh.pointPositions.size();
                    addMesh(src, static_cast<std::uint32_t>(object), remap);
                    m_out.hasModel = true;
                    // Flex: VTA vertex ids are the reference's points (SMD: corners).
                    if (&ch == &grp.choices.front()) {
                        for (std::int32_t fref : grp.flexFiles) {
                            const ReadResult* v = readRef(fref);
                            if (!v) {
                                continue;
                            }
                            for (const FlexShape& s : v->model.flexShapes) {
                                FlexShape c = s;
                                for (std::int32_t& id : c.ids) {
                                    id += static_cast<std::int32_t>(pointBase);
                                }
                                m_out.model.flexShapes.push_back(std::move(c));
                            }
                        }
                    }
                }
            }
            m_out.choiceObjects[g].push_back(object);
        }
    }
    // $definebone bones that no file has.
    for (const QcDefineBone& b : m_p.defineBones) {
        if (m_jointByName.count(asciiLower(b.name))) {
            continue;
        }
        JointIndex parent = kNoJoint;
        if (!b.parent.empty()) {
            auto it = m_jointByName.find(asciiLower(b.parent));
            parent = it == m_jointByName.end() ? kNoJoint : it->second;
        }
        Skeleton& s = m_out.model.skeleton;
        const JointIndex idx =
            s.addJoint(b.name, parent, static_cast<std::int32_t>(s.size()), b.at.where);
        constexpr float kDeg = 3.14159265358979f / 180.0f;
        s.bindPositions[static_cast<std::size_t>(idx)] =
            b.position * m_p.scale - (parent == kNoJoint ? m_p.origin : Vec3::Zero());
        s.bindRotations[static_cast<std::size_t>(idx)] = b.rotation * kDeg;
        m_jointByName.emplace(asciiLower(b.name), idx);
        m_out.hasModel = true;
    }
    if (mesh.pointPositions.empty()) {
        mesh.influenceOffsets.clear();
    }
    // Skin: the first $texturegroup row's materials become the chosen row's.
    if (m_opt.skin > 0 && !m_p.textureGroups.empty()) {
        const QcTextureGroup& tg = m_p.textureGroups.front();
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
    // Flex shapes need the model's vertex frames? No: shapes carry their own deltas.
    m_out.sequenceAnimation.assign(m_p.sequences.size(), -1);
    for (std::size_t s = 0; s < m_p.sequences.size(); ++s) {
        addSequence(s);
    }
    // Animations named by $animation only are read too (their files are part of the project).
    for (const QcAnimation& a : m_p.animations) {
        (void)readRef(a.fileRef);
    }
    for (std::size_t i = 0; i < m_p.files.size(); ++i) {
        const QcFileRef& f = m_p.files[i];
        if (f.kind == QcFileRef::Kind::Lod || f.kind == QcFileRef::Kind::Flex) {
            (void)readRef(static_cast<std::int32_t>(i));
        }
    }
    const Skeleton& skel = m_out.model.skeleton;
    auto jointOf = [&](const std::string& name) {
        auto it = m_jointByName.find(asciiLower(name));
        return it == m_jointByName.end() ? kNoJoint : it->second;
    };
    for (const QcAttachment& a : m_p.attachments) {
        m_out.attachmentJoints.push_back(jointOf(a.bone));
    }
    for (const QcHitbox& h : m_p.hitboxes) {
        m_out.hitboxJoints.push_back(jointOf(h.bone));
    }
    // qc.unknown-bone: only when a skeleton was merged (missing files are reported already).
    if (!skel.empty()) {
        for (const QcBoneRef& b : m_p.boneRefs) {
            if (jointOf(b.bone) == kNoJoint) {
                m_out.diagnostics.push_back(
                    located(Severity::Error, ids::kQcUnknownBone, b.at,
                            "$" + b.command + " names bone '" + b.bone + "', which no body has (" +
                                std::to_string(skel.size()) + " bones merged)"));
            }
        }
    }
    // qc.skin-material-unused: row 1 of each $texturegroup against the merged materials.
    if (!mesh.empty()) {
        std::vector<std::string> used;
        for (const Material& m : mesh.materials) {
            used.push_back(fileKey(m.name, true));
        }
        for (const QcTextureGroup& g : m_p.textureGroups) {
            if (g.rows.empty()) {
                continue;
            }
            for (const std::string& name : g.rows.front()) {
                if (std::find(used.begin(), used.end(), fileKey(name, true)) == used.end()) {
                    m_out.diagnostics.push_back(
                        located(Severity::Warning, ids::kQcSkinMaterialUnused, g.rowAt.front(),
                                "$texturegroup '" + g.name + "' names material '" + name +
                                    "', which no mesh uses (" +
                                    std::to_string(mesh.materials.size()) + " materials)"));
                }
            }
        }
    }
    // qc.lod-unknown-model: replacemodel / removemodel must name a body file.
    std::vector<std::string> bodies;
    for (const QcBodygroup& g : m_p.bodygroups) {
        for (const QcBodyChoice& c : g.choices) {
            if (!c.blank) {
                bodies.push_back(fileKey(c.path, false));
            }
        }
    }
    for (const QcLod& lod : m_p.lods) {
        for (const QcLod::Replace& r : lod.replaceModels) {
            if (std::find(bodies.begin(), bodies.end(), fileKey(r.from, false)) == bodies.end()) {
                m_out.diagnostics.push_back(located(
                    Severity::Error, ids::kQcLodUnknownModel, r.at,
                    "LOD replaces '" + r.from + "', which no $body / $model / $bodygroup uses"));
            }
        }
    }
    return std::move(m_out);
}

} // namespace

QcCompiled compileQc(const QcProject& project, QcFileSystem& fs, const QcCompileOptions& options)
{
    Compiler c(project, fs, options);
    return c.run();
}

} // namespace rigscope::core
