#include "core/ops/convert.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "core/build/flex_match.h"
#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/xanim/xanim.h"
#include "core/diag/severity.h"
#include "core/io/file_buffer.h"
#include "core/model/rotation.h"
#include "core/ops/read_input.h"
#include "core/pose/effective_weights.h"
#include "core/text/numbers.h"
#include "core/text/plural.h"
#include "core/model/format_id.h"

namespace rigscope::core {

namespace {

using Affine = Eigen::Affine3d;

Affine affineOf(const Mat3d& linear, const Vec3& t)
{
    Affine a = Affine::Identity();
    a.linear() = linear;
    a.translation() = t.cast<double>();
    return a;
}

// Local transforms (Euler) from model-space matrices: local = parent^-1 * model, in double.
void localsFromModel(const std::vector<JointIndex>& parents, const Vec3* pos, const Mat3* axes,
                     std::size_t n, Vec3* outPos, Vec3* outRot)
{
    for (std::size_t j = 0; j < n; ++j) {
        const Affine w = affineOf(axes[j].cast<double>(), pos[j]);
        Affine local = w;
        const JointIndex p = parents[j];
        if (p != kNoJoint) {
            const Affine wp = affineOf(axes[static_cast<std::size_t>(p)].cast<double>(),
                                       pos[static_cast<std::size_t>(p)]);
            local = Affine(wp.matrix().inverse()) * w;
        }
        outPos[j] = local.translation().cast<float>();
        outRot[j] = matrixToEuler(local.linear());
    }
}

// Model-space matrices from Euler locals: model = parent * local (parents precede children),
// in double.
void modelFromLocals(const std::vector<JointIndex>& parents, const Vec3* pos, const Vec3* rot,
                     std::size_t n, Vec3* outPos, Mat3* outAxes)
{
    std::vector<Affine> world(n);
    for (std::size_t j = 0; j < n; ++j) {
        const Affine local = affineOf(eulerToMatrixD(rot[j]), pos[j]);
        const JointIndex p = parents[j];
        world[j] = (p == kNoJoint || static_cast<std::size_t>(p) >= j)
                       ? local
                       : world[static_cast<std::size_t>(p)] * local;
        outPos[j] = world[j].translation().cast<float>();
        outAxes[j] = world[j].linear().cast<float>();
    }
}

// What the output format cannot carry (write.data-dropped, issue 15: a conversion's loss is a
// write.* matter whatever the input format).
void loss(DiagnosticSink& sink, std::string message)
{
    Diagnostic& d = sink.note(ids::kWriteDataDropped, {1, 1, 0}, std::move(message));
    d.fixedSeverity = true;
}

// DMX -> SMD / VTA: an SMD holds the mesh, a VTA the flex shapes; one animation per SMD.
// DMX quaternions become Euler angles in double (core/model/rotation.h), gimbal-safe.
Model dmxToSmdFamily(const Model& in, bool vta, DiagnosticSink& sink)
{
    Model m = in;
    quaternionsToEuler(m);
    // A joint without a channel holds its bind pose: frame 0 says so (an SMD reader would take
    // a joint missing from the first frame as zero), later frames carry it forward.
    for (Animation& an : m.animations) {
        if (an.frameCount() > 0 && an.explicitKey.size() >= an.jointCount) {
            std::fill_n(an.explicitKey.begin(), an.jointCount, std::uint8_t{1});
        }
    }
    m.format = vta ? "vta" : "smd";
    m.dmx = {};
    if (!m.flexControllers.empty()) {
        loss(sink, std::to_string(m.flexControllers.size()) +
                       " flex controllers dropped; SMD / VTA have none (the QC's $flexcontroller "
                       "lines do that job)");
        m.flexControllers.clear();
    }
    if (!m.flexDominators.empty()) {
        loss(sink, std::to_string(m.flexDominators.size()) +
                       " flex domination rules dropped; SMD / VTA have none (the QC's "
                       "$flexcontroller and flex rule lines do that job)");
        m.flexDominators.clear();
    }
    if (!m.pointBalance.empty()) {
        loss(sink, "the stereo split (vertex balance) dropped; SMD / VTA have none (the QC's "
                   "flexpair split does that job)");
        m.pointBalance.clear();
    }
    if (!m.attachments.empty()) {
        loss(sink, plural(m.attachments.size(), "attachment") +
                       " dropped; SMD / VTA have none (the QC's $attachment lines do "
                       "that job)");
        m.attachments.clear();
    }
    const bool wrinkled = std::any_of(m.vertexFrames.begin(), m.vertexFrames.end(),
                                      [](const VertexFrame& f) { return !f.wrinkles.empty(); });
    if (wrinkled) {
        if (vta) {
            loss(sink, "per-vertex wrinkle deltas dropped; a VTA has none (studiomdl derives "
                       "them from $flexcontroller wrinkle scales)");
        }
        for (VertexFrame& f : m.vertexFrames) {
            f.wrinkles.clear();
        }
        for (FlexShape& s : m.flexShapes) {
            s.deltaWrinkles.clear();
        }
    }
    if (!vta) {
        if (!m.vertexFrames.empty()) {
            loss(sink, std::to_string(m.flexShapes.size()) +
                           " flex shapes dropped; convert to .vta for them");
            m.vertexFrames.clear();
            m.flexShapes.clear();
        }
        const std::size_t first = m.kind == ModelKind::Reference && m.animations.size() > 1 ? 1 : 0;
        if (m.kind == ModelKind::Reference && m.animations.size() > 1) {
            loss(sink, std::to_string(m.animations.size() - 1) +
                           " animation clips dropped; an SMD reference keeps its bind pose");
        } else if (m.animations.size() > first + 1) {
            loss(sink, std::to_string(m.animations.size() - 1) +
                           " animation clips after the first dropped; SMD holds one");
        }
        if (m.animations.size() > 1) {
            m.animations.resize(1);
        }
        return m;
    }
    if (m.vertexFrames.empty()) {
        loss(sink, "the DMX has no flex shapes; the VTA holds only its base frame");
    }
    if (!m.mesh.empty()) {
        loss(sink,
             "triangles not written; a VTA holds the flex shapes (convert to .smd for the mesh)");
    }
    m.mesh = Mesh{};
    m.kind = ModelKind::Flex;
    // One skeleton frame (the bind pose) per vertex-animation frame.
    Animation a;
    a.name = in.animations.empty() ? std::string() : in.animations.front().name;
    a.jointCount = m.skeleton.size();
    for (const VertexFrame& f : m.vertexFrames) {
        a.appendFrame(f.time, f.where);
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            const std::size_t k = a.key(a.frameCount() - 1, j);
            a.positions[k] = m.skeleton.bindPositions[j];
            a.rotations[k] = m.skeleton.bindRotations[j];
            a.explicitKey[k] = 1;
        }
    }
    for (VertexFrame& f : m.vertexFrames) {
        f.nameFromComment = !f.name.empty();
    }
    m.animations.clear();
    m.animations.push_back(std::move(a));
    return m;
}

bool isCod(const Model& m)
{
    return m.skeleton.bindKind == PoseKind::ModelMatrix ||
           (!m.animations.empty() && m.animations.front().kind == PoseKind::ModelMatrix);
}

std::string writerFor(const std::string& outName, const std::string& toFormat)
{
    std::string f = toFormat;
    if (f.empty()) {
        f = extensionLower(outName);
    }
    for (char& c : f) {
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (f == "xmodel_export" || f == "xmodel") {
        return "xmodel";
    }
    if (f == "xanim_export" || f == "xanim") {
        return "xanim";
    }
    if (f == "nt_export" || f == "nt") {
        return "nt";
    }
    if (f == "smd" || f == "vta" || f == "smdx" || f == "xmodel_bin" || f == "xanim_bin") {
        return f;
    }
    if (f == "dmx" || f == "dmx-binary") {
        return "dmx";
    }
    return {};
}

} // namespace

Model toSmdFamily(const Model& in, DiagnosticSink& sink)
{
    if (!isCod(in)) {
        return in;
    }
    Model m;
    m.format = "smd";
    m.version = 1;
    m.kind = in.kind;
    m.headerComments = in.headerComments;
    m.lineEnding = LineEnding::LF;
    const Skeleton& s = in.skeleton;
    const std::size_t n = s.size();
    for (std::size_t j = 0; j < n; ++j) {
        m.skeleton.addJoint(s.names[j], s.parents[j], static_cast<std::int32_t>(j), s.where[j]);
    }
    m.skeleton.bindKind = PoseKind::LocalEulerXYZ;
    std::size_t scaled = 0;
    for (std::size_t j = 0; j < n; ++j) {
        scaled += (s.bindHasScale[j] && !(s.bindScales[j] == Vec3::Ones())) ? 1u : 0u;
    }

    // Skeleton block: the bind pose (XMODEL) or every XANIM frame.
    Animation a;
    a.kind = PoseKind::LocalEulerXYZ;
    a.jointCount = n;
    if (!in.animations.empty() && in.animations.front().kind == PoseKind::ModelMatrix) {
        const Animation& src = in.animations.front();
        a.fps = src.fps;
        a.fpsFromFile = src.fpsFromFile;
        for (std::size_t f = 0; f < src.frameCount(); ++f) {
            a.appendFrame(src.times[f], src.frameWhere[f]);
            localsFromModel(m.skeleton.parents, &src.positions[f * n], &src.axes[f * n], n,
                            &a.positions[f * n], &a.rotations[f * n]);
            for (std::size_t j = 0; j < n; ++j) {
                a.explicitKey[f * n + j] = 1;
            }
        }
        for (const Vec3& sc : src.scales) {
            scaled += sc == Vec3::Ones() ? 0u : 1u;
        }
        if (!src.notes.empty()) {
            loss(sink, plural(src.notes.size(), "notetrack key") +
                           " dropped; SMD has no notetracks (write an .NT_EXPORT)");
        }
    } else {
        a.appendFrame(0, {});
        localsFromModel(m.skeleton.parents, s.bindPositions.data(), s.bindAxes.data(), n,
                        a.positions.data(), a.rotations.data());
        for (std::size_t j = 0; j < n; ++j) {
            a.explicitKey[j] = 1;
        }
    }
    m.animations.push_back(std::move(a));
    bindFromFirstFrame(m);
    if (scaled > 0) {
        Diagnostic& d =
            sink.warning(ids::kCodNonUnitScale, {1, 1, 0},
                         plural(scaled, "bone scale") + " other than 1 1 1 lost in SMD");
        d.fixedSeverity = true;
    }

    // Mesh: one point per corner, counter-clockwise (corners 1 and 2 swapped), v up.
    const Mesh& me = in.mesh;
    Mesh& out = m.mesh;
    out.materials.reserve(me.materials.size());
    std::size_t params = 0;
    for (const Material& mat : me.materials) {
        Material sm;
        sm.name = !mat.images.empty() && mat.images.find(':') == std::string::npos ? mat.images
                  : !mat.name.empty()                                              ? mat.name
                                                                                   : mat.images;
        sm.where = mat.where;
        params += mat.params.size();
        out.materials.push_back(std::move(sm));
    }
    std::size_t colours = 0;
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        for (std::size_t k : {std::size_t{0}, std::size_t{2}, std::size_t{1}}) {
            const std::size_t c = 3 * t + k;
            const std::size_t p = me.cornerPoints[c];
            const std::uint32_t links = me.influenceCount(p);
            const JointIndex* js = me.influenceJoints.data() + (links ? me.influenceOffsets[p] : 0);
            const float* ws = me.influenceWeights.data() + (links ? me.influenceOffsets[p] : 0);
            JointIndex parent = n > 0 ? 0 : kNoJoint;
            float best = -1;
            for (std::uint32_t i = 0; i < links; ++i) {
                if (ws[i] > best) {
                    best = ws[i];
                    parent = js[i];
                }
            }
            appendPoint(out, me.pointPositions[p], parent,
                        links == 0 ? LinkState::Zero : LinkState::List, js, ws, links,
                        me.pointWhere[p]);
            out.cornerPoints.push_back(static_cast<std::uint32_t>(out.cornerPoints.size()));
            out.cornerNormals.push_back(me.cornerNormals[c]);
            out.cornerUvs.push_back(Vec2(me.cornerUvs[c].x(), 1.0f - me.cornerUvs[c].y()));
            out.cornerWhere.push_back(me.cornerWhere[c]);
            if (!me.cornerColors.empty() && !(me.cornerColors[c] == Vec4::Ones())) {
                ++colours;
            }
        }
        out.triangleMaterials.push_back(me.triangleMaterials[t]);
        out.triangleWhere.push_back(me.triangleWhere[t]);
    }
    if (colours > 0) {
        loss(sink, plural(colours, "vertex colour") +
                       " other than white dropped; SMD has no vertex colours");
    }
    if (me.uvSetCount > 1) {
        loss(sink, plural(me.uvSetCount - 1, "extra UV set") + " dropped; SMD keeps one");
    }
    if (params > 0) {
        loss(sink,
             plural(params, "material shading parameter") + " dropped; SMD keeps a material name");
    }
    if (me.objects.size() > 1) {
        loss(sink, std::to_string(me.objects.size()) + " objects merged; SMD has no objects");
    }
    return m;
}

Model toCodFamily(const Model& in, bool animation, DiagnosticSink& sink)
{
    if (isCod(in)) {
        return in;
    }
    if (hasQuaternions(in)) {
        Model euler = in;
        quaternionsToEuler(euler);
        return toCodFamily(euler, animation, sink);
    }
    Model m;
    m.format = in.format;
    m.version = animation ? 3 : 6;
    m.kind = animation ? ModelKind::Animation : ModelKind::Reference;
    m.headerComments = in.headerComments;
    m.lineEnding = LineEnding::CRLF;
    const Skeleton& s = in.skeleton;
    const std::size_t n = s.size();
    for (std::size_t j = 0; j < n; ++j) {
        m.skeleton.addJoint(s.names[j], animation ? kNoJoint : s.parents[j],
                            static_cast<std::int32_t>(j), s.where[j]);
    }
    m.skeleton.bindKind = PoseKind::ModelMatrix;
    modelFromLocals(s.parents, s.bindPositions.data(), s.bindRotations.data(), n,
                    m.skeleton.bindPositions.data(), m.skeleton.bindAxes.data());
    if (animation) {
        Animation a;
        a.kind = PoseKind::ModelMatrix;
        a.jointCount = n;
        if (!in.animations.empty() && in.animations.front().jointCount == n) {
            const Animation& src = in.animations.front();
            a.fps = src.fps;
            a.fpsFromFile = src.fpsFromFile;
            for (std::size_t f = 0; f < src.frameCount(); ++f) {
                a.appendFrame(src.times[f], src.frameWhere[f]);
                modelFromLocals(s.parents, &src.positions[f * n], &src.rotations[f * n], n,
                                &a.positions[f * n], &a.axes[f * n]);
                for (std::size_t j = 0; j < n; ++j) {
                    a.explicitKey[f * n + j] = 1;
                }
            }
            if (!src.times.empty() && src.times.front() != std::floor(src.times.front())) {
                Diagnostic& d = sink.note(ids::kCodFractionalFrame, {1, 1, 0},
                                          "fractional SMD times kept as XANIM frames");
                d.fixedSeverity = true;
            }
        }
        m.animations.push_back(std::move(a));
        if (!in.mesh.empty()) {
            loss(sink, "triangles dropped; an XANIM holds bones only");
        }
        return m;
    }
    // Pool = the SMD points; corners back to clockwise, v down.
    const Mesh& me = in.mesh;
    Mesh& out = m.mesh;
    std::vector<JointIndex> js;
    std::vector<float> ws;
    for (std::size_t p = 0; p < me.pointCount(); ++p) {
        js.clear();
        ws.clear();
        if (me.pointLinkState[p] == LinkState::List) {
            for (std::uint32_t i = me.influenceOffsets[p]; i < me.influenceOffsets[p + 1]; ++i) {
                js.push_back(me.influenceJoints[i]);
                ws.push_back(me.influenceWeights[i]);
            }
        }
        if (js.empty() && me.pointParents[p] != kNoJoint) {
            js.push_back(me.pointParents[p]);
            ws.push_back(1.0f);
        }
        appendPoint(out, me.pointPositions[p], kNoJoint, LinkState::List, js.data(), ws.data(),
                    js.size(), me.pointWhere[p]);
    }
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        for (std::size_t k : {std::size_t{0}, std::size_t{2}, std::size_t{1}}) {
            const std::size_t c = 3 * t + k;
            out.cornerPoints.push_back(me.cornerPoints[c]);
            out.cornerNormals.push_back(me.cornerNormals[c]);
            out.cornerUvs.push_back(Vec2(me.cornerUvs[c].x(), 1.0f - me.cornerUvs[c].y()));
            out.cornerWhere.push_back(me.cornerWhere[c]);
        }
        out.triangleMaterials.push_back(me.triangleMaterials[t]);
        out.triangleObjects.push_back(0);
        out.triangleWhere.push_back(me.triangleWhere[t]);
    }
    if (me.uvSetCount > 1) {
        loss(sink, plural(me.uvSetCount - 1, "extra UV set") + " dropped");
    }
    if (!out.triangleMaterials.empty()) {
        out.objects.push_back("default");
    }
    for (const Material& mat : me.materials) {
        Material cm;
        cm.name = stemName(mat.name);
        cm.type = "Lambert";
        cm.images = mat.name;
        cm.where = mat.where;
        out.materials.push_back(std::move(cm));
    }
    if (in.animations.size() == 1 && in.animations.front().frameCount() > 1) {
        loss(sink,
             std::to_string(in.animations.front().frameCount() - 1) +
                 " animation frames dropped; an XMODEL keeps the first frame as its bind pose");
    }
    return m;
}

ConvertResult convertModel(const ReadResult& in, const std::string& inName,
                           const std::string& outName, const std::string& toFormat,
                           std::string& bytes)
{
    ConvertOptions opt;
    opt.toFormat = toFormat;
    return convertModel(in, inName, outName, opt, bytes);
}

namespace {

// --frames=A:B on every animation: the frames numbered A..B, numbers kept.
bool keepFrames(Model& m, const ConvertOptions& opt, std::string& error)
{
    if (m.animations.empty() || m.animations.front().frameCount() == 0) {
        error = "--frames: the input has no animation frames";
        return false;
    }
    for (Animation& a : m.animations) {
        const std::size_t jc = a.jointCount;
        std::vector<std::size_t> keep;
        for (std::size_t f = 0; f < a.times.size(); ++f) {
            const double t = a.times[f];
            if ((!opt.firstFrame || t >= *opt.firstFrame) &&
                (!opt.lastFrame || t <= *opt.lastFrame)) {
                keep.push_back(f);
            }
        }
        if (keep.empty()) {
            std::string range;
            appendNumber(range, a.times.front());
            range += "..";
            appendNumber(range, a.times.back());
            error = "--frames: no frame in the range (the file's frames are " + range + ")";
            return false;
        }
        auto pick = [&](auto& v, std::size_t per) {
            if (v.empty()) {
                return;
            }
            std::remove_reference_t<decltype(v)> out;
            out.reserve(keep.size() * per);
            for (std::size_t f : keep) {
                out.insert(out.end(), v.begin() + static_cast<std::ptrdiff_t>(f * per),
                           v.begin() + static_cast<std::ptrdiff_t>((f + 1) * per));
            }
            v = std::move(out);
        };
        pick(a.times, 1);
        pick(a.frameWhere, 1);
        pick(a.positions, jc);
        pick(a.rotations, jc);
        pick(a.quaternions, jc);
        pick(a.axes, jc);
        pick(a.scales, jc);
        pick(a.explicitKey, jc);
        const double first = a.times.front(), last = a.times.back();
        std::erase_if(a.notes,
                      [&](const Notetrack& n) { return n.frame < first || n.frame > last; });
    }
    return true;
}

// --weights=compiled: every point's influences become what the profile's compiler keeps
// (CHECKS.md §5), written as an explicit link list.
void bakeCompiledWeights(Model& m, Profile profile)
{
    Mesh& me = m.mesh;
    if (me.pointCount() == 0) {
        return;
    }
    Influences inf = effectiveInfluences(me, m.skeleton.size(), profile, WeightView::Compiled);
    me.influenceOffsets = std::move(inf.offsets);
    me.influenceJoints = std::move(inf.joints);
    me.influenceWeights = std::move(inf.weights);
    me.pointLinkState.assign(me.pointCount(), LinkState::List);
}

} // namespace

ConvertResult convertModel(const ReadResult& in, const std::string& inName,
                           const std::string& outName, const ConvertOptions& opt,
                           std::string& bytes)
{
    ConvertResult res;
    res.diagnostics = in.diagnostics;
    // Graded by the input's profile like `check`: no GoldSrc notes on a Source or CoD file.
    const Profile profile = resolveProfile(in.model, opt.profile);
    applyProfile(res.diagnostics, profile, opt.profile == Profile::Auto);
    res.inputFormat = in.model.format;
    const std::string& toFormat = opt.toFormat;
    const std::string target = writerFor(outName, toFormat);
    if (target.empty()) {
        res.exitCode = 2;
        res.error = "cannot write '" + outName +
                    "': unknown output format (use .smd .vta .smdx .dmx .xmodel_export "
                    ".xanim_export .xmodel_bin .xanim_bin .nt_export)";
        return res;
    }
    res.outputFormat = target;
    const FormatInfo* f = formatById(target);
    if (!f || !f->write) {
        res.exitCode = 2;
        res.error = "no writer for " + target;
        return res;
    }
    DiagnosticSink sink(inName);
    Model adjusted;
    const Model* input = &in.model;
    if (opt.hasFrames || opt.weights == WeightView::Compiled) {
        adjusted = in.model;
        if (opt.hasFrames && !keepFrames(adjusted, opt, res.error)) {
            res.exitCode = 2;
            return res;
        }
        if (opt.weights == WeightView::Compiled) {
            if (profile == Profile::Cod) {
                res.exitCode = 2;
                res.error =
                    "--weights=compiled: the cod profile has no compiled view (CHECKS.md §5)";
                return res;
            }
            bakeCompiledWeights(adjusted, profile);
        }
        input = &adjusted;
    }
    const Model& src = *input;
    Model converted;
    if ((formatFamily(src.format) == FormatFamily::Dmx ||
         formatFamily(src.format) == FormatFamily::Qc) &&
        (target == "smd" || target == "vta" || target == "smdx")) {
        converted = dmxToSmdFamily(src, target == "vta", sink);
    } else if (target == "dmx") {
        converted = toSmdFamily(src, sink);
    } else if (target == "smd" || target == "vta" || target == "smdx") {
        converted = toSmdFamily(src, sink);
        if (target == "smdx") {
            std::size_t named = 0;
            for (const VertexFrame& frame : converted.vertexFrames) {
                named += frame.nameFromComment ? 1 : 0;
            }
            if (named > 0) {
                loss(sink,
                     std::to_string(named) +
                         " flex shape names dropped; SMDX has none (shapes show as 'frame N')");
            }
        }
    } else if (target == "xmodel" || target == "xmodel_bin") {
        converted = toCodFamily(src, false, sink);
        if (converted.kind == ModelKind::Animation && converted.mesh.empty()) {
            loss(sink, "an animation written as a model keeps its parts as bones and no keys");
        }
    } else if (target == "xanim" || target == "xanim_bin") {
        const bool smdAnim = !isCod(src);
        converted = toCodFamily(src, true, sink);
        if (smdAnim && std::any_of(src.skeleton.parents.begin(), src.skeleton.parents.end(),
                                   [](JointIndex p) { return p != kNoJoint; })) {
            loss(sink,
                 "bone hierarchy dropped; XANIM parts have no parents (the model supplies them)");
        }
        if (!smdAnim && (converted.animations.empty() ||
                         converted.animations.front().kind != PoseKind::ModelMatrix)) {
            res.exitCode = 2;
            res.error = "'" + inName + "' holds no animation to write as XANIM";
            return res;
        }
    } else {
        converted = src; // nt: notes only
        if (converted.animations.empty()) {
            res.exitCode = 2;
            res.error = "'" + inName + "' holds no animation to write as NT_EXPORT";
            return res;
        }
    }
    // SMD-family and CoD text sources (BinarySMD too: its values are 32-bit floats).
    const FormatTraits from = formatTraits(src.format);
    const bool fromText =
        from.family == FormatFamily::Smd ||
        ((from.family == FormatFamily::CodModel || from.family == FormatFamily::CodAnim) &&
         !from.binary);
    if ((target == "xmodel_bin" || target == "xanim_bin") && fromText) {
        loss(sink, "text to binary is lossy: normals and axes are stored as 16-bit, colours as "
                   "8-bit values");
    }
    WriteContext wctx;
    wctx.fileName = outName;
    DmxWriteOptions dmxBinary;
    dmxBinary.binary = true;
    WriteResult w = target == "dmx" && toFormat == "dmx-binary"
                        ? writeDmxWith(converted, wctx, dmxBinary)
                        : f->write(converted, wctx);
    for (Diagnostic& d : sink.take()) {
        res.diagnostics.push_back(std::move(d));
    }
    for (Diagnostic& d : w.diagnostics) {
        res.diagnostics.push_back(std::move(d));
    }
    if (!w.ok() || w.bytes.empty()) {
        if (w.ok()) {
            res.error = "the " + std::string(f->name) + " writer produced nothing";
            res.exitCode = 2;
        } else {
            res.exitCode = 1;
        }
        return res;
    }
    bytes = std::move(w.bytes);
    res.exitCode = countSeverity(res.diagnostics, Severity::Error) > 0 ? 1 : 0;
    return res;
}

ConvertResult convertFile(const std::string& inPath, const std::string& outPath, bool force,
                          const std::string& toFormat)
{
    ConvertOptions opt;
    opt.force = force;
    opt.toFormat = toFormat;
    return convertFile(inPath, outPath, opt);
}

std::size_t mergeVtaShapes(Model& reference, const Model& vta, DiagnosticSink& sink)
{
    const FlexMatchResult fm = matchFlex(vta, reference, &sink);
    reference.flexShapes.clear();
    reference.vertexFrames.clear();
    for (std::size_t k = 0; k < fm.shapes.size(); ++k) {
        const FlexCornerShape& cs = fm.shapes[k];
        FlexShape s;
        s.name = cs.name.empty() ? "frame " + std::to_string(k + 1) : cs.name;
        s.ids.reserve(cs.corners.size());
        for (const std::uint32_t c : cs.corners) {
            s.ids.push_back(static_cast<std::int32_t>(c));
        }
        s.deltaPositions = cs.deltaPositions;
        s.deltaNormals = cs.deltaNormals;
        if (k + 1 < vta.vertexFrames.size()) {
            s.where = vta.vertexFrames[k + 1].where;
        }
        reference.flexShapes.push_back(std::move(s));
    }
    return reference.flexShapes.size();
}

namespace {

// --flex: reads the VTA and merges its shapes into `r.model` (an SMD-family or DMX
// reference, whose corners the DMX writer keeps as they are). False with `res` set on failure.
bool mergeFlexFile(ReadResult& r, const std::string& inPath, const std::string& outPath,
                   const ConvertOptions& opt, ConvertResult& res)
{
    const std::string target = writerFor(outPath, opt.toFormat);
    res.exitCode = 2;
    if (target != "dmx") {
        res.error = "--flex needs a .dmx output (only DMX holds a mesh and its flex shapes in "
                    "one file)";
        return false;
    }
    if (sameFile(opt.flexPath, outPath)) {
        res.error = "refusing to write over the input '" + opt.flexPath + "'";
        return false;
    }
    if (isCod(r.model) || r.model.mesh.empty()) {
        res.error =
            "--flex needs a reference with triangles (SMD, SMDX or DMX); '" + inPath + "' has none";
        return false;
    }
    if (!r.model.flexShapes.empty()) {
        res.error = "'" + inPath + "' already holds " + std::to_string(r.model.flexShapes.size()) +
                    " flex shapes; --flex would replace them";
        return false;
    }
    FileReadResult file = readFile(opt.flexPath);
    if (!file.ok()) {
        res.error = file.error;
        return false;
    }
    ReadContext ctx;
    ctx.fileName = opt.flexPath;
    ctx.profile = opt.profile;
    ReadResult vta = readInput(file.bytes, ctx, std::string());
    for (Diagnostic& d : vta.diagnostics) {
        r.diagnostics.push_back(std::move(d));
    }
    if (!vta.hasModel || vta.model.vertexFrames.size() < 2) {
        res.error = "'" + opt.flexPath + "' holds no flex shapes (a VTA with a base frame and " +
                    "at least one shape)";
        return false;
    }
    DiagnosticSink sink(opt.flexPath);
    mergeVtaShapes(r.model, vta.model, sink);
    for (Diagnostic& d : sink.take()) {
        r.diagnostics.push_back(std::move(d));
    }
    res.exitCode = 0;
    return true;
}

} // namespace

ConvertResult convertFile(const std::string& inPath, const std::string& outPath,
                          const ConvertOptions& opt)
{
    const bool force = opt.force;
    ConvertResult res;
    if (sameFile(inPath, outPath)) {
        res.exitCode = 2;
        res.error = "refusing to write over the input '" + inPath + "'";
        return res;
    }
    if (!force && fileExists(outPath)) {
        res.exitCode = 2;
        res.error = "'" + outPath + "' exists; pass --force to overwrite it";
        return res;
    }
    OpenedInput in = openInput(inPath, opt.profile, opt.forceReader); // a .qc: its compiled model
    if (!in.readable) {
        res.exitCode = 2;
        res.error = in.error;
        return res;
    }
    ReadResult r = std::move(in.result);
    if (in.qc && !r.model.animations.empty()) {
        // The compiled model is written at its bind pose; each sequence is its own file.
        DiagnosticSink sink(inPath);
        loss(sink, plural(r.model.animations.size(), "sequence") +
                       " not written; the compiled model keeps its bind pose (convert the "
                       "sequences' files)");
        Animation bind;
        bind.name = "bind";
        bind.kind = r.model.skeleton.bindKind;
        bind.jointCount = r.model.skeleton.size();
        bind.appendFrame(0, {});
        bind.positions = r.model.skeleton.bindPositions;
        if (bind.kind == PoseKind::LocalEulerXYZ) {
            bind.rotations = r.model.skeleton.bindRotations;
        } else if (bind.kind == PoseKind::LocalQuaternion) {
            bind.quaternions = r.model.skeleton.bindQuaternions;
        } else {
            bind.axes = r.model.skeleton.bindAxes;
        }
        bind.explicitKey.assign(bind.jointCount, 1);
        r.model.animations.clear();
        r.model.animations.push_back(std::move(bind));
        for (Diagnostic& d : sink.take()) {
            r.diagnostics.push_back(std::move(d));
        }
    }
    if (!r.hasModel) {
        res.diagnostics = std::move(r.diagnostics);
        res.exitCode = 2;
        res.error = "cannot read '" + inPath + "'";
        return res;
    }
    if (!opt.flexPath.empty() && !mergeFlexFile(r, inPath, outPath, opt, res)) {
        res.diagnostics = std::move(r.diagnostics);
        return res;
    }
    std::string bytes;
    res = convertModel(r, inPath, outPath, opt, bytes);
    if (bytes.empty()) {
        if (res.exitCode == 0) {
            res.exitCode = 1;
        }
        return res;
    }
    const std::string err =
        writeFileAtomic(outPath, bytes, force ? WriteMode::Overwrite : WriteMode::RefuseExisting);
    if (!err.empty()) {
        res.exitCode = 2;
        res.error = err;
        return res;
    }
    res.written = true;
    return res;
}

} // namespace rigscope::core
