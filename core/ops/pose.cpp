#include "core/ops/pose.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/formats/registry.h"
#include "core/io/file_buffer.h"
#include "core/model/frame_number.h"
#include "core/formats/content_sniff.h"
#include "core/ops/jiggle_bones.h"
#include "core/ops/read_input.h"
#include "core/pose/animation_binding.h"
#include "core/pose/flex_controls.h"
#include "core/pose/qc_flex.h"
#include "core/ops/qc_ops.h"
#include "core/pose/pose_rig.h"
#include "core/pose/sample.h"
#include "core/pose/scene_evaluator.h"
#include "core/text/ascii.h"
#include "core/text/json_writer.h"
#include "core/text/numbers.h"

namespace rigscope::core {

namespace {

AnimationBinding identityBinding(std::size_t joints, PoseKind kind)
{
    AnimationBinding b;
    b.kind = kind;
    for (std::size_t j = 0; j < joints; ++j) {
        b.animJointOfRef.push_back(static_cast<JointIndex>(j));
        b.refJointOfAnim.push_back(static_cast<JointIndex>(j));
    }
    return b;
}

std::string joinNames(const std::vector<std::string>& names, std::size_t max)
{
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < max; ++i) {
        s += i == 0 ? "'" : ", '";
        s += names[i];
        s += "'";
    }
    if (names.size() > max) {
        s += ", ...";
    }
    return s;
}

// Fixed notation, at most 6 decimals, trailing zeros and "-0" removed; locale-independent.
void appendShort(std::string& out, float v)
{
    if (!std::isfinite(v)) {
        appendFloat(out, v);
        return;
    }
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 6);
    if (ec != std::errc()) {
        out += '0';
        return;
    }
    std::string s(buf, ptr);
    while (!s.empty() && s.back() == '0') {
        s.pop_back();
    }
    if (!s.empty() && s.back() == '.') {
        s.pop_back();
    }
    if (s == "-0") {
        s = "0";
    }
    out += s;
}

std::string formatNumber(double v)
{
    std::string s;
    appendNumber(s, v);
    return s;
}

} // namespace

PoseReport poseFromModels(const Model& reference, const Model* animation, const PoseRequest& req,
                          const std::vector<const Model*>& flexModels, const QcFlexRig* face)
{
    PoseReport r;
    r.ok = true;
    r.file = req.file;
    const Skeleton& skel = reference.skeleton;
    const PoseRig rig = makePoseRig(skel);

    const Animation* anim = nullptr;
    AnimationBinding binding;
    if (!req.sequence.empty()) {
        const auto it =
            std::find_if(reference.animations.begin(), reference.animations.end(),
                         [&](const Animation& a) { return asciiIEquals(a.name, req.sequence); });
        if (it == reference.animations.end()) {
            r.ok = false;
            r.error = "'" + req.file + "' has no sequence '" + req.sequence + "'";
            return r;
        }
        anim = &*it;
        r.animFile = req.file;
        r.bySequence = true;
        binding = identityBinding(skel.size(), anim->kind);
        if (anim->jointCount != skel.size()) {
            anim = nullptr;
        }
    } else if (animation != nullptr && !animation->animations.empty()) {
        anim = &animation->animations.front();
        r.animFile = req.animFile;
        binding = bindAnimation(skel, animation->skeleton, anim->kind);
        if (anim->jointCount != animation->skeleton.size()) {
            anim = nullptr;
        }
    } else if (animation == nullptr && !reference.animations.empty() &&
               (reference.animations.front().frameCount() > 1 ||
                reference.kind == ModelKind::Animation)) {
        // a reference's single frame is its bind pose; more frames play as its own animation
        anim = &reference.animations.front();
        r.animFile = req.file;
        binding = identityBinding(skel.size(), anim->kind);
        if (anim->jointCount != skel.size()) {
            anim = nullptr;
        }
    } else if (animation != nullptr) {
        r.ok = false;
        r.error = "'" + req.animFile + "' has no animation";
        return r;
    }
    if (anim != nullptr && anim->frameCount() == 0) {
        anim = nullptr;
    }

    // frame: a 0-based index, or (--time) the file's own frame number
    const std::size_t frames = anim != nullptr ? anim->frameCount() : 1;
    double frame = req.frame < 0 ? static_cast<double>(frames) + req.frame : req.frame;
    if (req.byTime) {
        const std::optional<int> i =
            anim != nullptr ? frameIndexOfFileNumber(*anim, req.time) : std::optional<int>{};
        if (!i) {
            r.ok = false;
            r.error = "no frame numbered " + formatNumber(req.time) +
                      (anim != nullptr ? " (frames " + fileFrameRange(*anim) + ")"
                                       : std::string(" (bind pose: no animation)"));
            return r;
        }
        frame = *i;
    }
    if (!std::isfinite(frame) || frame < 0 || frame > static_cast<double>(frames - 1)) {
        r.ok = false;
        r.error = "frame " + formatNumber(req.frame) + " is out of range (" +
                  std::to_string(frames) + (frames == 1 ? " frame)" : " frames)");
        return r;
    }
    r.frame = frame;
    r.frameCount = anim != nullptr ? frames : 0;
    r.bindPose = anim == nullptr;
    FrameSample at;
    if (anim != nullptr) {
        r.animName = anim->name;
        at = frameAtIndex(*anim, frame);
        r.time = anim->times[at.frame0] +
                 static_cast<double>(at.t) * (anim->times[at.frame1] - anim->times[at.frame0]);
    }

    // missing bones (only for an attached animation; a file's own animation covers its bones)
    if (animation != nullptr && anim != nullptr) {
        const std::string refName = baseName(req.file);
        for (JointIndex a : binding.missingInReference) {
            const auto ai = static_cast<std::size_t>(a);
            const std::string& name = animation->skeleton.names[ai];
            r.missingInReference.push_back(name);
            Diagnostic d;
            d.file = req.animFile;
            d.where =
                ai < animation->skeleton.where.size() ? animation->skeleton.where[ai] : SourceLoc{};
            if (anim->kind == PoseKind::ModelMatrix) {
                d.severity = Severity::Warning;
                d.id = ids::kCodPartNotInModel;
                d.message = "part '" + name + "' animates no bone of '" + refName + "'";
                d.element = {ElementRef::Kind::Part, a};
            } else {
                d.severity = Severity::Warning;
                d.id = ids::kXrefAnimBoneMissing;
                d.message = "'" + name + "' is not in reference '" + refName + "'";
                d.element = {ElementRef::Kind::Joint, a};
            }
            r.diagnostics.push_back(std::move(d));
        }
        for (JointIndex j : binding.missingInAnimation) {
            r.missingInAnimation.push_back(skel.names[static_cast<std::size_t>(j)]);
        }
        if (!r.missingInAnimation.empty()) {
            Diagnostic d;
            d.severity = Severity::Note;
            d.id = ids::kXrefRefBoneMissing;
            d.file = req.animFile;
            d.where =
                animation->skeleton.where.empty() ? SourceLoc{} : animation->skeleton.where.front();
            d.message = std::to_string(r.missingInAnimation.size()) +
                        " reference bones not animated; they hold the rest pose (" +
                        joinNames(r.missingInAnimation, 8) + ")";
            r.diagnostics.push_back(std::move(d));
        }
    }

    PoseBuffers buffers;
    buffers.resize(skel.size(), anim != nullptr ? anim->jointCount : 0, 0, false, 0);
    if (!evaluatePose(rig, anim, anim != nullptr ? &binding : nullptr, at, req.mode, buffers)) {
        r.ok = false;
        r.error = "cannot pose '" + req.file + "': inconsistent skeleton or animation";
        return r;
    }
    if (req.jiggle && anim != nullptr && !req.jiggleJoints.empty()) {
        // Played from frame 0 as the window's timeline plays it (jiggle_pose.h).
        JigglePlayer player(req.jiggleJoints, skel.parents);
        PoseBuffers step;
        step.resize(skel.size(), anim->jointCount, 0, false, 0);
        const std::vector<Eigen::Affine3f> world =
            player.poseAt(frame, double(anim->fps), [&](double index) {
                if (!evaluatePose(rig, anim, &binding, frameAtIndex(*anim, index), req.mode,
                                  step)) {
                    return std::vector<Eigen::Affine3f>();
                }
                return std::vector<Eigen::Affine3f>(step.model.begin(), step.model.end());
            });
        for (std::size_t j = 0; j < world.size() && j < buffers.model.size(); ++j) {
            buffers.model[j] = world[j];
            const JointIndex p = skel.parents[j];
            buffers.local[j] =
                p >= 0 ? Xform(world[std::size_t(p)].inverse() * world[j]) : world[j];
        }
        r.jiggleBones = player.joints().size();
    }
    if (req.vertices || !req.flex.empty() || !req.flexControllers.empty()) {
        r.profile = resolveProfile(reference, req.profile);
        r.weights = req.weights;
        // The window's evaluator (core/pose/scene_evaluator.h): the same shapes, morph and
        // skinning as the viewport draws.
        auto unowned = [](const Model* m) {
            return std::shared_ptr<const Model>(std::shared_ptr<const Model>(), m);
        };
        std::vector<FlexSet> sets;
        for (const Model* v : flexModels) {
            if (v != nullptr && !v->flexShapes.empty() && !reference.mesh.empty()) {
                sets.push_back(
                    {unowned(v), bindFlexShapes(reference.mesh, *v, reference.mesh.cornerPoints)});
            }
        }
        const SceneEvaluator ev(unowned(&reference), std::move(sets), r.profile);
        const std::vector<std::string>& names = ev.shapeNames();
        r.flexNames = names;
        FlexSetting setting;
        setting.left.assign(names.size(), 0.0f);
        setting.right.assign(names.size(), std::numeric_limits<float>::quiet_NaN());
        auto controllerOf = [&flexModels](const std::string& name) -> const FlexController* {
            for (const Model* fm : flexModels) {
                if (fm == nullptr) {
                    continue;
                }
                for (const FlexController& c : fm->flexControllers) {
                    if (c.name == name) {
                        return &c;
                    }
                }
            }
            return nullptr;
        };
        for (const PoseRequest::FlexValue& fv : req.flex) {
            const std::size_t shape = ev.shapeIndex(fv.name);
            const FlexController* ctl = shape == SIZE_MAX ? controllerOf(fv.name) : nullptr;
            if (ctl != nullptr) {
                // A DMX control on Valve's 0..1 scale, both sides, level 0.5 (flex_controls.h).
                const std::vector<SideWeights> w = controlWeights(*ctl, fv.left, 0.5f, 0.5f);
                for (std::size_t k = 0; k < w.size(); ++k) {
                    if (const std::size_t s = ev.shapeIndex(ctl->rawControls[k]); s != SIZE_MAX) {
                        setting.left[s] = w[k].left;
                    }
                }
                continue;
            }
            if (shape == SIZE_MAX) {
                r.ok = false;
                r.error = "no flex shape '" + fv.name + "'" +
                          (names.empty() ? std::string(" (no VTA attached)")
                                         : " (shapes: " + joinNames(names, 12) + ")");
                return r;
            }
            setting.left[shape] = fv.left;
            setting.right[shape] = fv.right;
        }
        if (!req.flexControllers.empty()) {
            // A QC face: controllers → % rules → shapes (core/pose/qc_flex.h).
            if (face == nullptr || !face->active()) {
                r.ok = false;
                r.error = "--flex-controller needs a QC with flexcontroller commands";
                return r;
            }
            r.face = true;
            const auto nan = std::numeric_limits<float>::quiet_NaN();
            std::vector<float> values(face->program.flexControllers.size(), nan);
            for (const PoseRequest::FlexValue& fv : req.flexControllers) {
                const std::int32_t c = face->controllerIndex(fv.name);
                const std::int32_t l = face->controllerIndex("left_" + fv.name);
                const std::int32_t rr = face->controllerIndex("right_" + fv.name);
                if (c >= 0 && std::isnan(fv.right)) {
                    values[std::size_t(c)] = fv.left;
                } else if (l >= 0 && rr >= 0) {
                    values[std::size_t(l)] = fv.left;
                    values[std::size_t(rr)] = std::isnan(fv.right) ? fv.left : fv.right;
                } else {
                    r.ok = false;
                    r.error = "no flex controller '" + fv.name + "'" +
                              (c >= 0 ? " with two sides (no left_ / right_ pair)" : "");
                    return r;
                }
            }
            const QcFlexState st = evaluateQcFlex(*face, values, reference.flexShapes.size());
            for (std::size_t d = 0; d < st.descriptors.size(); ++d) {
                r.flexDescriptors.emplace_back(face->program.flexDescs[d], st.descriptors[d]);
            }
            for (std::size_t s = 0; s < st.shapes.size(); ++s) {
                const std::size_t e = ev.shapeIndex(reference.flexShapes[s].name);
                if (e == SIZE_MAX) {
                    continue;
                }
                setting.left[e] = st.shapes[s].left;
                setting.right[e] =
                    st.shapes[s].right == st.shapes[s].left ? nan : st.shapes[s].right;
            }
        }
        // Domination rules of the flex files (DMX), as the viewer applies them.
        const std::vector<SideWeights> sides = ev.shapeWeights(setting);
        r.flexWeights.resize(sides.size());
        r.flexWeightsLeft.assign(sides.size(), std::numeric_limits<float>::quiet_NaN());
        r.flexWeightsRight.assign(sides.size(), std::numeric_limits<float>::quiet_NaN());
        for (std::size_t s = 0; s < sides.size(); ++s) {
            r.flexWeights[s] = 0.5f * (sides[s].left + sides[s].right);
            if (sides[s].left != sides[s].right) {
                r.flexWeightsLeft[s] = sides[s].left;
                r.flexWeightsRight[s] = sides[s].right;
            }
        }
        if (req.vertices) {
            SceneFrame evaluated;
            EvaluateOptions eo;
            eo.weights = req.weights;
            ev.evaluate(anim != nullptr ? std::span<const Xform>(buffers.model)
                                        : std::span<const Xform>(),
                        setting, eo, evaluated);
            r.withVertices = true;
            r.vertices = std::move(evaluated.positions);
            // Per point: SMD points are corners; a CoD pool's points have no single normal.
            if (evaluated.cornerNormals.size() == r.vertices.size() &&
                reference.mesh.cornerPoints.size() == r.vertices.size()) {
                r.normals = std::move(evaluated.cornerNormals);
            }
        }
    }
    r.bones.reserve(skel.size());
    for (std::size_t j = 0; j < skel.size(); ++j) {
        BonePose b;
        b.name = skel.names[j];
        b.parent = skel.parents[j];
        b.animated = anim != nullptr && binding.animJointOfRef[j] != kNoJoint;
        b.position = buffers.model[j].translation();
        b.rotation = buffers.model[j].linear();
        b.localPosition = buffers.local[j].translation();
        b.localRotation = buffers.local[j].linear();
        r.bones.push_back(std::move(b));
    }
    return r;
}

namespace {

struct Loaded {
    ReadResult result;
    std::string error;               // I/O or unknown format
    std::vector<JiggleJoint> jiggle; // its jiggle bones (a QC project, a compiled model)
    std::shared_ptr<QcReport> qc;    // a QC project: its face
};

Loaded load(const std::string& path, Profile profile, const std::string& forceReader)
{
    Loaded l;
    OpenedInput in = openInput(path, profile, forceReader);
    if (!in.readable) {
        l.error = std::move(in.error);
        return l;
    }
    l.result = std::move(in.result);
    l.jiggle = jiggleJointsOf(l.result.model.skeleton, in.qc.get(), in.compiled.get());
    l.qc = std::move(in.qc);
    if (!l.result.hasModel) {
        l.error = "'" + path + "': nothing readable";
    }
    applyProfile(l.result.diagnostics, resolveProfile(l.result.model, profile),
                 profile == Profile::Auto);
    return l;
}

void keepErrors(const std::vector<Diagnostic>& from, PoseReport& r)
{
    for (const Diagnostic& d : from) {
        if (d.severity == Severity::Error) {
            r.diagnostics.push_back(d);
            ++r.errors;
        }
    }
}

} // namespace

PoseReport poseFromFiles(const PoseRequest& req)
{
    PoseReport r;
    r.file = req.file;
    Loaded ref = load(req.file, req.profile, req.forceReader);
    if (!ref.error.empty()) {
        r.error = ref.error;
        keepErrors(ref.result.diagnostics, r);
        return r;
    }
    PoseRequest request = req;
    if (request.jiggle && request.jiggleJoints.empty()) {
        request.jiggleJoints = ref.jiggle;
    }
    // Attached files: VTAs give flex shapes, the animation (one) is posed.
    std::vector<Loaded> flexFiles;
    for (const std::string& path : req.attachFiles) {
        Loaded l = load(path, req.profile, req.forceReader);
        if (!l.error.empty()) {
            r.error = l.error;
            keepErrors(ref.result.diagnostics, r);
            keepErrors(l.result.diagnostics, r);
            return r;
        }
        if (l.result.model.kind == ModelKind::Flex || !l.result.model.flexShapes.empty()) {
            flexFiles.push_back(std::move(l));
        } else if (request.animFile.empty()) {
            request.animFile = path;
        } else {
            r.error = "'" + path + "': one animation at a time ('" + request.animFile +
                      "' is posed already)";
            keepErrors(ref.result.diagnostics, r);
            return r;
        }
    }
    // --anim NAME: a sequence of the model when no file has that name.
    if (!request.animFile.empty() && request.sequence.empty() &&
        !std::filesystem::exists(std::filesystem::path(request.animFile))) {
        const std::vector<Animation>& own = ref.result.model.animations;
        const bool named = std::any_of(own.begin(), own.end(),
                                       [&](const Animation& a) { return !a.name.empty(); });
        if (named) {
            request.sequence = request.animFile;
            request.animFile.clear();
            if (std::none_of(own.begin(), own.end(), [&](const Animation& a) {
                    return asciiIEquals(a.name, request.sequence);
                })) {
                std::vector<std::string> names;
                for (const Animation& a : own) {
                    names.push_back(a.name);
                }
                r.error = "no file or sequence '" + request.sequence + "' (sequences of '" +
                          req.file + "': " + joinNames(names, 12) + ")";
                keepErrors(ref.result.diagnostics, r);
                return r;
            }
        }
    }
    Loaded anim;
    if (!request.animFile.empty()) {
        anim = load(request.animFile, req.profile, req.forceReader);
        if (!anim.error.empty()) {
            r.error = anim.error;
            keepErrors(ref.result.diagnostics, r);
            keepErrors(anim.result.diagnostics, r);
            return r;
        }
    }
    std::vector<const Model*> vtas;
    if (!ref.result.model.flexShapes.empty()) { // a DMX head carries its own shapes
        vtas.push_back(&ref.result.model);
    }
    for (const Loaded& l : flexFiles) {
        vtas.push_back(&l.result.model);
    }
    PoseReport out =
        poseFromModels(ref.result.model, request.animFile.empty() ? nullptr : &anim.result.model,
                       request, vtas, ref.qc ? &ref.qc->flex : nullptr);
    std::vector<Diagnostic> binding = std::move(out.diagnostics);
    out.diagnostics.clear();
    keepErrors(ref.result.diagnostics, out);
    keepErrors(anim.result.diagnostics, out);
    for (const Loaded& l : flexFiles) {
        keepErrors(l.result.diagnostics, out);
    }
    for (Diagnostic& d : binding) {
        out.diagnostics.push_back(std::move(d));
    }
    return out;
}

std::string poseText(const PoseReport& r)
{
    std::string s = "# " + r.file;
    if (r.bindPose) {
        s += ": bind pose\n";
    } else {
        // Named by the file's own frame number, as `info` and the timeline name it; the
        // 0-based index (`--frame`) in brackets.
        s += ": " +
             (r.bySequence           ? "sequence '" + r.animName + "'"
              : r.animFile == r.file ? std::string("own animation")
                                     : r.animFile) +
             ", frame " + formatNumber(r.time) + " (index " + formatNumber(r.frame) + " of " +
             std::to_string(r.frameCount) + ")\n";
    }
    if (r.jiggleBones > 0) {
        s += "# jiggle: " + std::to_string(r.jiggleBones) +
             " bones moved as the engine integrates them, played from frame 0\n";
    }
    for (std::size_t i = 0; i < r.flexNames.size(); ++i) {
        if (r.flexWeights[i] != 0.0f) {
            s += "# flex " + r.flexNames[i] + " = ";
            appendShort(s, r.flexWeights[i]);
            s += '\n';
        }
    }
    s += "# index name parent | model-space position | rotation (row-major)\n";
    for (std::size_t j = 0; j < r.bones.size(); ++j) {
        const BonePose& b = r.bones[j];
        s += std::to_string(j) + " \"" + b.name + "\" ";
        s += b.parent == kNoJoint ? std::string("-")
                                  : "\"" + r.bones[static_cast<std::size_t>(b.parent)].name + "\"";
        s += " | ";
        for (int i = 0; i < 3; ++i) {
            appendShort(s, b.position[i]);
            s += i < 2 ? " " : " | ";
        }
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col) {
                appendShort(s, b.rotation(row, col));
                s += col < 2 ? " " : (row < 2 ? "  " : "");
            }
        }
        if (!r.bindPose && !b.animated) {
            s += " (rest)";
        }
        s += '\n';
    }
    if (r.withVertices) {
        s += std::string("# vertices (") +
             (r.weights == WeightView::Compiled ? "compiled" : "authored") + " weights, profile " +
             std::string(profileName(r.profile)) + "): v index | skinned position" +
             (r.normals.empty() ? "" : " | normal") + "\n";
        for (std::size_t v = 0; v < r.vertices.size(); ++v) {
            s += "v " + std::to_string(v) + " | ";
            for (int i = 0; i < 3; ++i) {
                appendShort(s, r.vertices[v][i]);
                s += i < 2 ? " " : "";
            }
            if (v < r.normals.size()) {
                s += " | ";
                for (int i = 0; i < 3; ++i) {
                    appendShort(s, r.normals[v][i]);
                    s += i < 2 ? " " : "";
                }
            }
            s += '\n';
        }
    }
    return s;
}

std::string poseJson(const PoseReport& r)
{
    JsonWriter w;
    const bool object = r.face || r.withVertices;
    if (object) {
        w.beginObject();
        w.key("frame").value(r.frame);
        w.key("time").value(r.time);
    }
    if (r.face) {
        // Shape name → weight (a stereo shape whose sides differ: the mean; both sides in
        // flexWeightsStereo), and each descriptor's value.
        w.key("flexWeights").beginObject();
        for (std::size_t i = 0; i < r.flexNames.size(); ++i) {
            w.key(r.flexNames[i]).value(r.flexWeights[i]);
        }
        w.endObject();
        w.key("flexWeightsStereo").beginObject();
        for (std::size_t i = 0; i < r.flexNames.size(); ++i) {
            if (i < r.flexWeightsLeft.size() && !std::isnan(r.flexWeightsLeft[i])) {
                w.key(r.flexNames[i]).beginArray();
                w.value(r.flexWeightsLeft[i]).value(r.flexWeightsRight[i]).endArray();
            }
        }
        w.endObject();
        w.key("flexDescriptors").beginObject();
        for (const auto& [name, value] : r.flexDescriptors) {
            w.key(name).value(value);
        }
        w.endObject();
        if (!r.withVertices) {
            w.key("bones");
        }
    }
    if (r.withVertices) {
        w.key("weights").value(r.weights == WeightView::Compiled ? "compiled" : "authored");
        w.key("profile").value(profileName(r.profile));
        w.key("flex").beginObject();
        for (std::size_t i = 0; i < r.flexNames.size(); ++i) {
            w.key(r.flexNames[i]).value(r.flexWeights[i]);
        }
        w.endObject();
        w.key("vertices").beginArray();
        for (const Vec3& v : r.vertices) {
            w.beginArray().value(v.x()).value(v.y()).value(v.z()).endArray();
        }
        w.endArray();
        w.key("normals").beginArray();
        for (const Vec3& v : r.normals) {
            w.beginArray().value(v.x()).value(v.y()).value(v.z()).endArray();
        }
        w.endArray();
        w.key("bones");
    }
    w.beginArray();
    for (const BonePose& b : r.bones) {
        w.beginObject();
        w.key("name").value(b.name);
        w.key("parent");
        if (b.parent == kNoJoint) {
            w.null();
        } else {
            w.value(r.bones[static_cast<std::size_t>(b.parent)].name);
        }
        w.key("position").beginArray();
        for (int i = 0; i < 3; ++i) {
            w.value(b.position[i]);
        }
        w.endArray();
        w.key("rotation").beginArray();
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col) {
                w.value(b.rotation(row, col));
            }
        }
        w.endArray();
        w.key("localPosition").beginArray();
        for (int i = 0; i < 3; ++i) {
            w.value(b.localPosition[i]);
        }
        w.endArray();
        w.key("localRotation").beginArray();
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col) {
                w.value(b.localRotation(row, col));
            }
        }
        w.endArray();
        w.key("animated").value(b.animated);
        w.endObject();
    }
    w.endArray();
    if (object) {
        w.endObject();
    }
    std::string out = w.take();
    out += '\n';
    return out;
}

} // namespace rigscope::core
