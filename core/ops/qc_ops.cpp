#include "core/ops/qc_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

#include "core/checks/check_util.h"
#include "core/checks/materials.h"
#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/formats/qc/qc_diagnostic.h"
#include "core/ops/diagnostic_json.h"
#include "core/ops/material_report.h"
#include "core/ops/physics_report.h"
#include "core/text/ascii.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

namespace {

// jiggle.* findings that need the compiled skeleton (docs/jiggle.md): a $jigglebone on a bone
// studiomdl drops (no vertex on it or below it, nothing else keeps it), a warning; on a kept
// bone that moves no vertex, a note (Valve's own L4D2 survivors ship such jiggle bones: their
// braids carry no vertex). A chain of jiggle bones (a braid) is not flagged.
void jiggleSkeletonChecks(const QcProject& p, const QcCompiled& c, std::vector<Diagnostic>& out)
{
    if (p.jiggleBones.empty() || !c.hasModel) {
        return;
    }
    const Skeleton& s = c.model.skeleton;
    const Mesh& m = c.model.mesh;
    // Points each joint moves, itself or through a descendant.
    std::vector<std::size_t> moved(s.size(), 0);
    for (std::size_t pt = 0; pt + 1 < m.influenceOffsets.size(); ++pt) {
        for (std::uint32_t k = m.influenceOffsets[pt]; k < m.influenceOffsets[pt + 1]; ++k) {
            const JointIndex j = m.influenceJoints[k];
            if (j >= 0 && static_cast<std::size_t>(j) < s.size()) {
                ++moved[static_cast<std::size_t>(j)];
            }
        }
    }
    for (std::size_t j = s.size(); j-- > 0;) { // parents come before children
        const JointIndex parent = s.parents[j];
        if (parent >= 0) {
            moved[static_cast<std::size_t>(parent)] += moved[j];
        }
    }
    for (const QcJiggleBone& jb : p.jiggleBones) {
        const auto warn = [&](std::string_view id, std::string message) {
            out.push_back(
                diagnosticAt(id == ids::kJiggleMovesNothing ? Severity::Note : Severity::Warning,
                             id, jb.at, std::move(message)));
        };
        const JointIndex j = s.findByName(jb.bone);
        if (j == kNoJoint) {
            const bool dropped = std::any_of(
                c.droppedBones.begin(), c.droppedBones.end(),
                [&](const QcCompiled::DroppedBone& b) { return asciiIEquals(b.name, jb.bone); });
            if (dropped) {
                warn(ids::kJiggleDroppedBone,
                     "$jigglebone '" + jb.bone +
                         "': studiomdl drops this bone (no vertex is weighted to it or below "
                         "it), so nothing jiggles in the compiled model");
            }
            continue;
        }
        if (moved[static_cast<std::size_t>(j)] == 0 && !m.influenceOffsets.empty()) {
            warn(ids::kJiggleMovesNothing,
                 "$jigglebone '" + jb.bone +
                     "': no vertex is weighted to this bone or below it; its jiggle moves no "
                     "vertex itself (it may still carry attachments or bone-merged props)");
        }
    }
}

void finishReport(QcReport& r, QcFileSystem& fs)
{
    r.profile = r.project.profile;
    r.compiled = compileQc(r.project, fs);
    r.physics = buildPhysicsModel(r.project, r.compiled, fs);
    r.diagnostics = r.project.diagnostics;
    r.diagnostics.insert(r.diagnostics.end(), r.compiled.diagnostics.begin(),
                         r.compiled.diagnostics.end());
    jiggleSkeletonChecks(r.project, r.compiled, r.diagnostics);
    r.textures = lookUpQcTextures(r.project, r.compiled, fs, r.diagnostics);
    if (!goldSrcFamily(r.profile)) {
        r.flex = buildQcFlexRig(r.project, r.compiled.model, r.compiled.flexSources, 96);
        r.diagnostics.insert(r.diagnostics.end(), r.flex.diagnostics.begin(),
                             r.flex.diagnostics.end());
    }
    applyProfile(r.diagnostics, r.profile, false);
    // Script order: the QC first, then includes in the order they were read; by line within.
    std::vector<std::string> order{r.file};
    for (const QcFileRef& f : r.project.files) {
        if (f.kind == QcFileRef::Kind::Include && !f.resolved.empty()) {
            order.push_back(f.resolved);
        }
    }
    // Then the body files (qc.missing-texture) in the order their findings come.
    for (const Diagnostic& d : r.diagnostics) {
        if (d.id == ids::kQcMissingTexture &&
            std::find(order.begin(), order.end(), d.file) == order.end()) {
            order.push_back(d.file);
        }
    }
    auto rank = [&](const std::string& file) {
        const auto it = std::find(order.begin(), order.end(), file);
        return static_cast<std::size_t>(it - order.begin());
    };
    std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(),
                     [&](const Diagnostic& a, const Diagnostic& b) {
                         const std::size_t ra = rank(a.file), rb = rank(b.file);
                         if (ra != rb) {
                             return ra < rb;
                         }
                         return a.where.line < b.where.line;
                     });
    r.errors = countSeverity(r.diagnostics, Severity::Error);
    r.warnings = countSeverity(r.diagnostics, Severity::Warning);
    r.notes = countSeverity(r.diagnostics, Severity::Note);
}

void vec3(JsonWriter& w, const Vec3& v)
{
    w.beginArray().value(v.x()).value(v.y()).value(v.z()).endArray();
}

} // namespace

QcReport qcReport(const std::string& path, Profile requested, QcFileSystem& fs)
{
    QcReport r;
    r.file = path;
    QcLoadResult l = loadQcProject(path, requested, fs);
    r.readable = l.readable;
    r.ioError = l.ioError;
    if (!r.readable) {
        return r;
    }
    r.project = std::move(l.project);
    finishReport(r, fs);
    return r;
}

QcReport qcReportFromFile(const std::string& path, Profile requested)
{
    QcReport r;
    r.file = path;
    QcLoadResult l = loadQcProject(path, requested);
    r.readable = l.readable;
    r.ioError = l.ioError;
    if (!r.readable) {
        return r;
    }
    r.project = std::move(l.project);
    DiskQcFileSystem fs;
    finishReport(r, fs);
    return r;
}

void addCheckedFiles(QcInfo& info, std::vector<CheckedFile> files)
{
    info.checked = true;
    info.diagnostics.clear();
    info.budget.clear();
    for (CheckedFile& f : files) {
        if (f.format == "qc" && info.budget.empty()) {
            info.budget = f.budget;
        }
        for (Diagnostic& d : f.diagnostics) {
            if (d.file.empty()) {
                d.file = f.file;
            }
            info.diagnostics.push_back(std::move(d));
        }
    }
    info.errors = countSeverity(info.diagnostics, Severity::Error);
    info.warnings = countSeverity(info.diagnostics, Severity::Warning);
    info.notes = countSeverity(info.diagnostics, Severity::Note);
}

std::string qcInfoJson(const QcInfo& info)
{
    const QcReport& r = info.report;
    const MaterialLookupReport* materials = info.hasMaterials ? &info.materials : nullptr;
    JsonWriter w;
    w.beginObject();
    w.key("file").value(r.file);
    if (!r.readable) {
        w.key("error").value(r.ioError);
        w.endObject();
        return w.take() + "\n";
    }
    const QcProject& p = r.project;
    const Model& m = r.compiled.model;
    w.key("format").value("qc");
    w.key("kind").value("project");
    w.key("profile").value(profileName(r.profile));
    w.key("modelname").value(p.modelName);
    w.key("includes").beginArray();
    for (const QcPath& i : p.includes) {
        w.beginObject().key("path").value(i.path).key("file").value(i.at.file);
        w.key("line").value(i.at.where.line).endObject();
    }
    w.endArray();
    w.key("files").beginArray();
    for (const QcFileRef& f : p.files) {
        w.beginObject().key("path").value(f.path).key("resolved");
        if (f.resolved.empty()) {
            w.null();
        } else {
            w.value(f.resolved);
        }
        w.key("file").value(f.at.file).key("line").value(f.at.where.line);
        w.key("command").value(f.command).key("kind").value(qcFileKindName(f.kind));
        w.endObject();
    }
    w.endArray();
    w.key("bodygroups").beginArray();
    for (const QcBodygroup& g : p.bodygroups) {
        w.beginObject().key("name").value(g.name).key("command").value(g.command);
        w.key("file").value(g.at.file).key("line").value(g.at.where.line);
        w.key("choices").beginArray();
        for (const QcBodyChoice& c : g.choices) {
            w.value(c.blank ? std::string("blank") : c.path);
        }
        w.endArray().endObject();
    }
    w.endArray();
    w.key("jiggleBones").beginArray();
    for (const QcJiggleBone& j : p.jiggleBones) {
        w.beginObject().key("bone").value(j.bone).key("kinds").beginArray();
        for (const std::string& k : j.params.kinds()) {
            w.value(k);
        }
        w.endArray();
        w.key("length").value(j.params.length);
        w.key("file").value(j.at.file).key("line").value(j.at.where.line).endObject();
    }
    w.endArray();
    // The face (docs/flex.md): controllers and descriptors as studiomdl numbers them.
    w.key("flexControllers").beginArray();
    for (std::size_t c = 0; c < r.flex.program.flexControllers.size(); ++c) {
        const CompiledFlexController& fc = r.flex.program.flexControllers[c];
        w.beginObject().key("name").value(fc.name).key("type").value(fc.type);
        w.key("min").value(fc.min).key("max").value(fc.max);
        const QcWhere& at = r.flex.controllerAt[c];
        w.key("file").value(at.file).key("line").value(at.where.line).endObject();
    }
    w.endArray();
    w.key("flexDescriptors").beginArray();
    for (const std::string& d : r.flex.program.flexDescs) {
        w.value(d);
    }
    w.endArray();
    w.key("flexRules").beginArray();
    for (std::size_t k = 0; k < r.flex.program.flexRuleList.size(); ++k) {
        w.beginObject().key("expression").value(r.flex.program.flexRuleList[k].expression);
        w.key("file").value(r.flex.ruleAt[k].file).key("line").value(r.flex.ruleAt[k].where.line);
        w.endObject();
    }
    w.endArray();
    w.key("eyeballs").beginArray();
    for (const QcFlexRig::Eye& e : r.flex.eyes) {
        w.beginObject().key("name").value(e.name).key("bone").value(e.bone);
        w.key("position").beginArray();
        w.value(e.position.x()).value(e.position.y()).value(e.position.z()).endArray();
        w.key("radius").value(e.radius);
        w.key("file").value(e.at.file).key("line").value(e.at.where.line).endObject();
    }
    w.endArray();
    auto animOptions = [&](const QcAnimOptions& o) {
        w.key("fps").value(o.fps).key("loop").value(o.loop);
        w.key("delta").value(o.delta || !o.subtract.empty());
        if (!o.subtract.empty()) {
            w.key("subtract").value(o.subtract);
        }
        if (o.frameStart >= 0) {
            w.key("frames").beginArray().value(o.frameStart).value(o.frameEnd).endArray();
        }
        if (!o.activity.empty()) {
            w.key("activity").value(o.activity);
        }
    };
    w.key("sequences").beginArray();
    for (std::size_t i = 0; i < p.sequences.size(); ++i) {
        const QcSequence& s = p.sequences[i];
        w.beginObject().key("name").value(s.name);
        w.key("file").value(s.at.file).key("line").value(s.at.where.line);
        w.key("files").beginArray();
        for (const std::string& f : s.sources) {
            w.value(f);
        }
        w.endArray();
        animOptions(s.options);
        if (s.declared) {
            w.key("declared").value(true);
        }
        const std::int32_t a =
            i < r.compiled.sequenceAnimation.size() ? r.compiled.sequenceAnimation[i] : -1;
        w.key("frames_read")
            .value(a >= 0 ? m.animations[static_cast<std::size_t>(a)].frameCount()
                          : std::size_t{0});
        w.endObject();
    }
    w.endArray();
    w.key("animations").beginArray();
    for (const QcAnimation& a : p.animations) {
        w.beginObject().key("name").value(a.name).key("source").value(a.source);
        w.key("file").value(a.at.file).key("line").value(a.at.where.line);
        animOptions(a.options);
        w.endObject();
    }
    w.endArray();
    w.key("attachments").beginArray();
    for (const QcAttachment& a : p.attachments) {
        w.beginObject().key("name").value(a.name).key("bone").value(a.bone);
        w.key("file").value(a.at.file).key("line").value(a.at.where.line);
        w.key("offset");
        vec3(w, a.offset);
        w.key("absolute").value(a.absolute);
        w.endObject();
    }
    w.endArray();
    w.key("hitboxes").beginArray();
    for (const QcHitbox& h : p.hitboxes) {
        w.beginObject().key("group").value(h.group).key("bone").value(h.bone);
        w.key("file").value(h.at.file).key("line").value(h.at.where.line);
        w.key("min");
        vec3(w, h.min);
        w.key("max");
        vec3(w, h.max);
        if (!h.set.empty()) {
            w.key("set").value(h.set);
        }
        w.endObject();
    }
    w.endArray();
    w.key("skins").beginArray();
    for (const QcTextureGroup& g : p.textureGroups) {
        w.beginObject().key("name").value(g.name);
        w.key("file").value(g.at.file).key("line").value(g.at.where.line);
        w.key("rows").beginArray();
        for (const auto& row : g.rows) {
            w.beginArray();
            for (const std::string& s : row) {
                w.value(s);
            }
            w.endArray();
        }
        w.endArray().endObject();
    }
    w.endArray();
    w.key("cdmaterials").beginArray();
    for (const QcPath& c : p.cdMaterials) {
        w.value(c.path);
    }
    w.endArray();
    w.key("bones").value(m.skeleton.size());
    w.key("triangles").value(m.mesh.triangleCount());
    // The vertices studiomdl makes, as the vertex budget of `check X.qc` counts them (null
    // with --no-checks).
    w.key("vertices");
    const auto vertices = std::find_if(info.budget.begin(), info.budget.end(),
                                       [](const BudgetMeter& b) { return b.name == "vertices"; });
    if (vertices != info.budget.end()) {
        w.value(vertices->used);
    } else {
        w.null();
    }
    w.key("materials").beginArray();
    std::vector<std::size_t> per(m.mesh.materials.size(), 0);
    for (std::uint32_t t : m.mesh.triangleMaterials) {
        ++per[t];
    }
    for (std::size_t i = 0; i < m.mesh.materials.size(); ++i) {
        w.beginObject().key("name").value(m.mesh.materials[i].name);
        w.key("triangles").value(per[i]).endObject();
    }
    w.endArray();
    if (materials) {
        w.key("materialLookup");
        writeMaterialLookupJson(w, *materials);
    }
    w.key("flexShapes").value(m.flexShapes.size());
    if (r.physics.present) {
        w.key("physics");
        writePhysicsJson(w, r, false);
    }
    w.key("checks").value(info.checked);
    w.key("errors").value(info.errors);
    w.key("warnings").value(info.warnings);
    w.key("notes").value(info.notes);
    writeDiagnosticsJson(w, info.diagnostics, info.report.profile, {});
    w.endObject();
    return w.take() + "\n";
}

std::string qcInfoText(const QcInfo& info)
{
    const QcReport& r = info.report;
    const MaterialLookupReport* materials = info.hasMaterials ? &info.materials : nullptr;
    std::string s = r.file + ": QC project";
    if (!r.readable) {
        return s + ": " + r.ioError + "\n";
    }
    const QcProject& p = r.project;
    const Model& m = r.compiled.model;
    std::size_t missing = 0;
    for (const QcFileRef& f : p.files) {
        missing += f.resolved.empty() ? 1u : 0u;
    }
    s += " (profile " + std::string(profileName(r.profile)) + ")\n";
    s += "  model:       " + (p.modelName.empty() ? std::string("(no $modelname)") : p.modelName) +
         "\n";
    s += "  includes:    " + std::to_string(p.includes.size()) + "\n";
    s += "  files:       " + std::to_string(p.files.size()) + " (" + std::to_string(missing) +
         " missing)\n";
    s += "  bodygroups:  " + std::to_string(p.bodygroups.size()) + "\n";
    for (const QcBodygroup& g : p.bodygroups) {
        s += "    " + g.name + ":";
        for (const QcBodyChoice& c : g.choices) {
            s += " " + (c.blank ? std::string("blank") : c.path);
        }
        s += "\n";
    }
    s += "  sequences:   " + std::to_string(p.sequences.size()) + "\n";
    s += "  animations:  " + std::to_string(p.animations.size()) + "\n";
    s += "  attachments: " + std::to_string(p.attachments.size()) + "\n";
    s += "  hitboxes:    " + std::to_string(p.hitboxes.size()) + "\n";
    s += "  skins:       " + std::to_string(p.skinCount()) + "\n";
    s += "  merged:      " + std::to_string(m.skeleton.size()) + " bones, " +
         std::to_string(m.mesh.triangleCount()) + " triangles, " +
         std::to_string(m.mesh.materials.size()) + " materials, " +
         std::to_string(m.flexShapes.size()) + " flex shapes\n";
    for (const BudgetMeter& b : info.budget) {
        if (b.name == "vertices") { // what the vertex budget counts (qcInfoJson)
            s += "  vertices:    " + std::to_string(b.used) + "\n";
        }
    }
    if (r.physics.built) {
        char mass[32];
        std::snprintf(mass, sizeof mass, "%.2f", static_cast<double>(r.physics.mass()));
        s += "  physics:     " + std::to_string(r.physics.solids.size()) + " solid" +
             (r.physics.solids.size() == 1 ? "" : "s") + ", " +
             std::to_string(r.physics.convexPieces()) + " convex pieces, " + mass + " kg\n";
    }
    if (materials) {
        s += materialLookupText(*materials);
    }
    s += "  problems:    " + std::to_string(info.errors) + " errors, " +
         std::to_string(info.warnings) + " warnings, " + std::to_string(info.notes) + " notes" +
         (info.checked ? " (as check reports them)\n"
                       : " (--no-checks: the script's own, files not checked)\n");
    return s;
}

namespace {

// $texturegroup rows and $lod replacematerial lines name materials no mesh uses (the skins'
// and the LODs' replacements): each one the engine will not find is a material.missing at its
// row or line. Names a mesh uses are checked with that file, at its first use.
void checkSkinMaterials(const QcReport& r, const CheckOptions& opt, const std::string& qcPath,
                        std::vector<Diagnostic>& out)
{
    const bool lodMaterials =
        std::any_of(r.project.lods.begin(), r.project.lods.end(),
                    [](const QcLod& l) { return !l.replaceMaterials.empty(); });
    if ((r.project.textureGroups.empty() && !lodMaterials) ||
        !(opt.profile == Profile::Source || opt.profile == Profile::Source256)) {
        return;
    }
    const MaterialQuery query = materialQueryFor(qcPath, opt);
    if (query.roots.empty()) {
        return;
    }
    std::set<std::string> used;
    if (r.compiled.hasModel) {
        for (const Material& m : r.compiled.model.mesh.materials) {
            used.insert(normaliseMaterialPath(m.name));
        }
    }
    MaterialResolver resolver(query, maxTextureSide(opt.profile));
    // `what` names the material in the message ("skin material 'x' of $texturegroup ...").
    auto check = [&](const std::string& name, const QcWhere& at, const std::string& what) {
        const std::string key = normaliseMaterialPath(name);
        if (key.empty() || !used.insert(key).second) {
            return;
        }
        MaterialStatus st = resolver.resolve(name);
        if (st.found) { // its VMT's own problems (material.texture-missing, ...)
            for (Diagnostic& d : st.diagnostics) {
                out.push_back(std::move(d));
            }
            return;
        }
        Diagnostic d = diagnosticAt(
            Severity::Warning, ids::kMaterialMissing, at,
            what + " has no VMT: searched " + std::to_string(st.searched.size()) + " path" +
                (st.searched.size() == 1 ? "" : "s") + " ($cdmaterials x roots)");
        for (const std::string& s : st.searched) {
            d.related.push_back({s, {}, "searched"});
        }
        out.push_back(std::move(d));
    };
    for (const QcTextureGroup& g : r.project.textureGroups) {
        for (std::size_t row = 0; row < g.rows.size(); ++row) {
            const QcWhere& at = row < g.rowAt.size() ? g.rowAt[row] : g.at;
            for (const std::string& name : g.rows[row]) {
                check(name, at, "skin material '" + name + "' of $texturegroup \"" + g.name + "\"");
            }
        }
    }
    for (const QcLod& lod : r.project.lods) {
        for (const QcLod::Replace& rm : lod.replaceMaterials) {
            check(rm.to, rm.at,
                  "LOD material '" + rm.to + "' (replacematerial of " +
                      (lod.shadow ? std::string("$shadowlod")
                                  : "$lod " + std::to_string(lod.threshold)) +
                      ")");
        }
    }
}

// What the sequences' files are compared with (xref.*): the merged model with every merged bone,
// the ones studiomdl drops included. An animation keying a bone that no body weights is not
// wrong for it; the drop is reported once, on the body file (skeleton.unreferenced-bone).
// Its rest pose is put back in the files' own space: studiomdl loads every file at `$scale` and
// takes `$origin` off the roots of each sequence's frames as it does off the model's (Source
// studiomdl.cpp Load_Source / Cmd_Sequence copy g_defaultadjust, simplify.cpp BuildRawTransforms
// applies it; HL1 studiomdl.c Grab_Animation adjust_vertex), so a file's rest pose as written
// compares with the bodies' as written; the merged skeleton has both applied (addBone).
Model xrefReference(const QcCompiled& c, const QcProject& p)
{
    Model m;
    m.format = c.model.format;
    m.kind = c.model.kind;
    m.skeleton = c.mergedSkeleton;
    const bool scaled = std::isfinite(p.scale) && p.scale != 0.0f && p.scale != 1.0f;
    const bool moved = p.origin.allFinite() && !p.origin.isZero(0.0f);
    Skeleton& sk = m.skeleton;
    for (std::size_t j = 0; j < sk.size() && (scaled || moved); ++j) {
        Vec3& at = sk.bindPositions[j];
        if (sk.parents[j] == kNoJoint) {
            at += p.origin;
        }
        if (scaled) {
            at /= p.scale;
        }
    }
    m.mesh = c.model.mesh;
    // The bodies' points too (each at `$scale`, less $origin unless a $staticprop): a VTA is
    // matched to them as written (flex.unmatched-vertices; the CSS players' $scale 1.04 left
    // 98% of their VTA vertices unmatched).
    const bool shifted = moved && !(p.staticProp && !goldSrcFamily(p.profile));
    for (Vec3& at : m.mesh.pointPositions) {
        if (shifted) {
            at += p.origin;
        }
        if (scaled) {
            at /= p.scale;
        }
    }
    auto back = [&](JointIndex& j) {
        if (j != kNoJoint && static_cast<std::size_t>(j) < c.keptJoints.size()) {
            j = c.keptJoints[static_cast<std::size_t>(j)];
        }
    };
    std::for_each(m.mesh.pointParents.begin(), m.mesh.pointParents.end(), back);
    std::for_each(m.mesh.influenceJoints.begin(), m.mesh.influenceJoints.end(), back);
    return m;
}

// The merged reference's locations (a bone's rest pose line) are lines of the body file that
// declared the bone, not of the QC whose name the reference carries: point them there, or drop
// them where that file gave no line (a DMX).
void pointAtDeclaringFiles(const QcCompiled& c, const Model& reference, const std::string& qcPath,
                           const Skeleton& file, CheckedFile& f)
{
    for (Diagnostic& d : f.diagnostics) {
        const bool joint = d.element.kind == ElementRef::Kind::Joint && d.element.index >= 0 &&
                           static_cast<std::size_t>(d.element.index) < file.size();
        const JointIndex j = joint ? reference.skeleton.findByName(
                                         file.names[static_cast<std::size_t>(d.element.index)])
                                   : kNoJoint;
        for (std::size_t i = d.related.size(); i-- > 0;) {
            RelatedNote& rel = d.related[i];
            if (rel.file != qcPath) {
                continue;
            }
            if (j != kNoJoint && static_cast<std::size_t>(j) < c.mergedJointFile.size() &&
                rel.where.line > 0) {
                rel.file = c.mergedJointFile[static_cast<std::size_t>(j)];
            } else {
                d.related.erase(d.related.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
    }
}

// skeleton.unknown-parent in file `f` on a bone the compiled model does not have, which no
// vertex of this file uses (on it or below it): studiomdl reads the parent unchecked (SDK 2013
// studiomdl.cpp Grab_Nodes, HL1 studiomdl.c Grab_Nodes), and a bone reaches the model only
// through its bone table (SDK 2013 simplify.cpp BuildGlobalBonetable, boneref; HL1
// SimplifyModel, vertex bones); a sequence's bone the table lacks is skipped. The broken
// parent then reaches nothing: a note (tschumann/basis null.qc: 0 bones compiled).
void unknownParentsOfDroppedBones(const QcReport& r, const Model& model, CheckedFile& f)
{
    const Skeleton& sk = model.skeleton;
    const Skeleton& compiled = r.compiled.model.skeleton;
    std::vector<std::uint8_t> used(sk.size(), 0);
    const auto mark = [&](JointIndex j) {
        // At most size() steps up: a cycle (skeleton.cycle's to report) ends too.
        for (std::size_t step = 0; step < sk.size() && j >= 0 && j < JointIndex(sk.size());
             ++step) {
            used[static_cast<std::size_t>(j)] = 1;
            j = sk.parents[static_cast<std::size_t>(j)];
        }
    };
    std::for_each(model.mesh.pointParents.begin(), model.mesh.pointParents.end(), mark);
    std::for_each(model.mesh.influenceJoints.begin(), model.mesh.influenceJoints.end(), mark);
    for (Diagnostic& d : f.diagnostics) {
        const auto j = static_cast<std::size_t>(d.element.index);
        if (d.id != ids::kSkeletonUnknownParent || d.severity != Severity::Error ||
            d.element.kind != ElementRef::Kind::Joint || d.element.index < 0 || j >= sk.size() ||
            used[j] != 0) {
            continue;
        }
        const std::string& name = sk.names[j];
        if (std::any_of(compiled.names.begin(), compiled.names.end(),
                        [&](const std::string& n) { return asciiIEquals(n, name); })) {
            continue;
        }
        d.severity = Severity::Note;
        d.fixedSeverity = true;
        d.message += "; the compiled model has no bone '" + name +
                     "' (no vertex is on it or below it, no command keeps it), so studiomdl "
                     "never links it";
    }
}

// skeleton.unreferenced-bone for body file `f`, judged against the compiled model: the bones it
// declared first that studiomdl drops (QcCompiled::droppedBones). A bone this file leaves
// unweighted but another body weights is kept, so it is not reported.
void addDroppedBones(const QcReport& r, const Model& model, const CheckOptions& opt, CheckedFile& f)
{
    std::vector<std::string> names;
    const QcCompiled::DroppedBone* first = nullptr;
    for (const QcCompiled::DroppedBone& b : r.compiled.droppedBones) {
        if (b.file == f.file) {
            names.push_back(b.name);
            first = first ? first : &b;
        }
    }
    if (!first) {
        return;
    }
    const std::string n = std::to_string(names.size());
    const bool one = names.size() == 1;
    std::string qc = r.file;
    if (const auto slash = qc.find_last_of("/\\"); slash != std::string::npos) {
        qc.erase(0, slash + 1);
    }
    Diagnostic d;
    d.severity = Severity::Warning;
    d.id = ids::kSkeletonUnreferencedBone;
    d.file = f.file;
    d.where = first->where;
    d.element = {ElementRef::Kind::Joint, model.skeleton.findByName(first->name)};
    d.message = n + (one ? " bone carries" : " bones carry") + " no vertices in any body of " +
                checks::quoted(qc) +
                (goldSrcStudiomdl(f.profile)
                     ? (one ? " and is dropped by GoldSrc: " : " and are dropped by GoldSrc: ")
                     : (one ? " and nothing keeps it; " +
                                  std::string(checks::compilerName(f.profile)) + " drops it: "
                            : " and nothing keeps them; " +
                                  std::string(checks::compilerName(f.profile)) + " drops them: ")) +
                checks::nameList(names);
    std::vector<Diagnostic> add{std::move(d)};
    gradeDiagnostics(add, f.profile, f.guessed, opt.filter);
    for (Diagnostic& a : add) {
        if (opt.werror && a.severity == Severity::Warning) {
            a.severity = Severity::Error;
            a.fixedSeverity = true;
            ++f.warningsAsErrors;
        }
        std::size_t at = 0;
        while (at < f.diagnostics.size() && f.diagnostics[at].file == f.file &&
               f.diagnostics[at].where.line <= a.where.line) {
            ++at;
        }
        f.objectNames.insert(f.objectNames.begin() + static_cast<std::ptrdiff_t>(at), first->name);
        f.diagnostics.insert(f.diagnostics.begin() + static_cast<std::ptrdiff_t>(at), std::move(a));
    }
}

// material.missing and material.texture-missing once per material name for the whole project
// (the compiled model has one material of that name, whichever bodies and LODs use it): at its
// first use, the QC's skin rows first, then the files in the order the QC names them.
void onePerMaterial(std::vector<CheckedFile>& files)
{
    std::set<std::pair<std::string_view, std::string>> seen;
    for (CheckedFile& f : files) {
        for (std::size_t d = 0; d < f.diagnostics.size();) {
            const Diagnostic& diag = f.diagnostics[d];
            const bool material =
                diag.id == ids::kMaterialMissing || diag.id == ids::kMaterialTextureMissing;
            const std::string name =
                material && d < f.objectNames.size() ? normaliseMaterialPath(f.objectNames[d]) : "";
            if (name.empty() || seen.emplace(diag.id, name).second) {
                ++d;
                continue;
            }
            f.diagnostics.erase(f.diagnostics.begin() + static_cast<std::ptrdiff_t>(d));
            f.objectNames.erase(f.objectNames.begin() + static_cast<std::ptrdiff_t>(d));
        }
    }
}

// A later blend of a sequence against its first file (xref.blend-mismatch): HL1 relinks the
// later blends by the first file's bone numbers and plays them over its frames (studiomdl.c
// "relink animations", numframes from panim[0]); vbmcompiler compares them and stops
// (studiocompiler.cpp). The first difference, located in `later`, graded by `profile`.
struct BlendFile {
    const QcSequence* seq = nullptr;
    std::size_t index = 0;   // position among the sequence's files (0: its first)
    std::int32_t first = -1; // read of the sequence's first file
};

std::string blendParentName(const Skeleton& s, std::size_t j)
{
    const JointIndex p = s.parents[j];
    return p >= 0 && static_cast<std::size_t>(p) < s.size()
               ? "under '" + s.names[static_cast<std::size_t>(p)] + "'"
               : std::string("at the root");
}

// The frames of `a` inside the sequence's `frames A B` range, as each file is read.
std::vector<std::size_t> framesInRange(const Animation& a, const QcAnimOptions& o)
{
    std::vector<std::size_t> frames;
    for (std::size_t f = 0; f < a.times.size(); ++f) {
        const double t = a.times[f];
        if ((o.frameStart < 0 || t >= o.frameStart) && (o.frameEnd < 0 || t <= o.frameEnd)) {
            frames.push_back(f);
        }
    }
    return frames;
}

std::optional<Diagnostic> blendMismatch(const BlendFile& b, const QcCompiled::FileRead& first,
                                        const QcCompiled::FileRead& later, Profile profile)
{
    if (!first.result.hasModel || !later.result.hasModel) {
        return std::nullopt;
    }
    const Skeleton& fs = first.result.model.skeleton;
    const Skeleton& ls = later.result.model.skeleton;
    const std::string firstName = std::filesystem::path(first.path).filename().string();
    const std::string head =
        "blend " + std::to_string(b.index + 1) + " of sequence '" + b.seq->name + "' has ";
    const bool pathos = profile == Profile::Pathos;
    const std::string tracks =
        pathos ? "; vbmcompiler stops"
               : "; studiomdl plays a later blend's tracks by the first file's bone numbers";
    Diagnostic d;
    d.id = ids::kXrefBlendMismatch;
    d.severity = pathos ? Severity::Error : Severity::Warning;
    d.fixedSeverity = pathos; // vbmcompiler stops (studiocompiler.cpp)
    d.file = later.path;
    RelatedNote note{first.path, {}, "the sequence's first file"};
    const auto at = [&](std::size_t lj, std::size_t fj) {
        d.where = checks::jointLoc(ls, lj);
        note.where = checks::jointLoc(fs, fj);
        d.element = ElementRef{ElementRef::Kind::Joint, static_cast<std::int32_t>(lj)};
    };
    const std::size_t common = std::min(fs.size(), ls.size());
    for (std::size_t j = 0; j < common && d.message.empty(); ++j) {
        if (asciiLower(fs.names[j]) != asciiLower(ls.names[j])) {
            d.message = head + "bone " + std::to_string(j) + " '" + ls.names[j] +
                        "' where its first file " + firstName + " has '" + fs.names[j] + "'" +
                        tracks;
            at(j, j);
        } else if (asciiLower(blendParentName(fs, j)) != asciiLower(blendParentName(ls, j))) {
            d.message = head + "bone " + std::to_string(j) + " '" + ls.names[j] + "' " +
                        blendParentName(ls, j) + " where its first file " + firstName + " has it " +
                        blendParentName(fs, j) + tracks;
            at(j, j);
        }
    }
    if (d.message.empty() && fs.size() != ls.size() && common > 0) {
        d.message = head + std::to_string(ls.size()) + " bones, its first file " + firstName +
                    " has " + std::to_string(fs.size()) + tracks;
        at(ls.size() > fs.size() ? common : common - 1,
           fs.size() > ls.size() ? common : common - 1);
    }
    if (d.message.empty() && !first.result.model.animations.empty() &&
        !later.result.model.animations.empty()) {
        const Animation& fa = first.result.model.animations.front();
        const Animation& la = later.result.model.animations.front();
        const std::vector<std::size_t> ff = framesInRange(fa, b.seq->options);
        const std::vector<std::size_t> lf = framesInRange(la, b.seq->options);
        if (!ff.empty() && !lf.empty() && ff.size() != lf.size()) {
            d.message = head + std::to_string(lf.size()) + " frames, its first file " + firstName +
                        " has " + std::to_string(ff.size()) +
                        (pathos ? std::string("; vbmcompiler stops")
                                : std::string("; studiomdl plays every blend over the first "
                                              "file's frames"));
            const auto loc = [](const Animation& a, std::size_t f) {
                return f < a.frameWhere.size() ? a.frameWhere[f] : SourceLoc{};
            };
            const bool longer = lf.size() > ff.size();
            d.where = loc(la, longer ? lf[ff.size()] : lf.back());
            note.where = loc(fa, longer ? ff.back() : ff[lf.size()]);
        }
    }
    if (d.message.empty()) {
        return std::nullopt;
    }
    d.related.push_back(std::move(note));
    return d;
}

} // namespace

std::vector<std::string> qcMaterialFolders(const QcReport& r)
{
    std::vector<std::string> out;
    for (const QcPath& c : r.project.cdMaterials) {
        out.push_back(c.path);
    }
    const bool dmx = std::any_of(r.project.files.begin(), r.project.files.end(), [](const auto& f) {
        return (f.kind == QcFileRef::Kind::Model || f.kind == QcFileRef::Kind::Lod) &&
               asciiLower(f.path).ends_with(".dmx");
    });
    if (dmx) {
        out.emplace_back(); // DMX material names are paths from materials/
    }
    if (!out.empty()) {
        return out;
    }
    std::error_code ec;
    std::string full = std::filesystem::absolute(r.file, ec).generic_string();
    std::replace(full.begin(), full.end(), '\\', '/');
    const std::size_t models = asciiLower(full).find("models");
    if (models != std::string::npos) {
        const std::size_t slash = full.rfind('/');
        out.push_back(slash != std::string::npos && slash > models
                          ? full.substr(models, slash - models + 1)
                          : std::string());
    } else {
        std::string name = r.project.modelName;
        std::replace(name.begin(), name.end(), '\\', '/');
        const std::size_t dot = name.rfind('.');
        if (dot != std::string::npos && name.find('/', dot) == std::string::npos) {
            name.resize(dot);
        }
        out.push_back("models/" + name + "/");
    }
    return out;
}

std::vector<CheckedFile> checkQcProject(const std::string& path, const CheckOptions& opt)
{
    return checkQcReport(qcReportFromFile(path, opt.profile), opt);
}

std::vector<CheckedFile> checkQcReport(const QcReport& r, const CheckOptions& opt)
{
    const std::string& path = r.file;
    std::vector<CheckedFile> out;
    CheckedFile qc;
    qc.file = path;
    qc.readable = r.readable;
    qc.ioError = r.ioError;
    qc.format = "qc";
    qc.kind = ModelKind::Reference;
    if (!r.readable) {
        out.push_back(std::move(qc));
        return out;
    }
    CheckOptions fileOpt = opt;
    fileOpt.profile = opt.profile == Profile::Auto ? r.profile : opt.profile;
    // Materials are looked up as the engine will: under the compiled model's material folders.
    fileOpt.materialsFromQc = true;
    fileOpt.cdMaterials = qcMaterialFolders(r);
    qc.profile = fileOpt.profile;
    qc.guessed = opt.profile == Profile::Auto;
    std::vector<Diagnostic> diags = r.diagnostics;
    // The merged model's budgets (the bone limit applies to the merged skeleton), located at
    // $modelname: per-file checks below cover everything else with real locations.
    if (r.compiled.hasModel) {
        static const std::set<std::string_view> kMerged = {
            ids::kSkeletonBoneLimit, ids::kMeshMaterialLimit, ids::kMeshVertexLimit,
            ids::kMeshTriangleLimit};
        // vbmcompiler limits the vertices of each body file, not of the model
        // (geometrysmdparser.cpp), and so does GoldSrc's studiomdl (lookup_vertex and the
        // triangle table are per s_model_t, one per body file): the per-file checks below
        // say it.
        static const std::set<std::string_view> kMergedPerBody = {ids::kSkeletonBoneLimit,
                                                                  ids::kMeshMaterialLimit};
        const auto& merged0 = goldSrcFamily(fileOpt.profile) ? kMergedPerBody : kMerged;
        CheckedFile merged =
            checkModel(path, &r.compiled.model, {}, nullptr, std::string(), fileOpt);
        // The merged skeleton is the bone table. skeleton.bone-limit counts a GoldSrc-family
        // reference's weighted bones and their parents (HL1 SimplifyModel), which is that table
        // for goldsrc but misses the $attachment / $protected bones vbmcompiler keeps: the
        // table's own size is what CreateBoneTable stops on.
        const Limits lim = limitsFor(fileOpt.profile, &r.compiled.model);
        const std::size_t tableBones = r.compiled.model.skeleton.size();
        const bool limitSaid =
            std::any_of(merged.diagnostics.begin(), merged.diagnostics.end(),
                        [](const Diagnostic& d) { return d.id == ids::kSkeletonBoneLimit; });
        if (!limitSaid && lim.bones > 0 && tableBones > lim.bones) {
            Diagnostic d;
            d.severity = Severity::Error;
            d.id = ids::kSkeletonBoneLimit;
            d.message = std::to_string(tableBones) + " bones in the bone table; " +
                        std::string(profileName(fileOpt.profile)) + " allows at most " +
                        std::to_string(lim.bones);
            merged.diagnostics.push_back(std::move(d));
        }
        for (Diagnostic& d : merged.diagnostics) {
            if (merged0.count(d.id)) {
                d.file = path;
                d.where = r.project.modelNameAt.where.line ? r.project.modelNameAt.where
                                                           : SourceLoc{1, 1, 0};
                d.message = "merged model: " + d.message;
                d.related.clear();
                diags.push_back(std::move(d));
            }
        }
        qc.budget = merged.budget;
        // The merged skeleton is the compiled bone table (bones nothing keeps are dropped,
        // those $attachment, $protected or a hitbox keep are in): the meter counts it, not
        // only the weighted bones and their parents as it must for a lone SMD.
        for (BudgetMeter& b : qc.budget) {
            if (b.name == "bones") {
                b.used = r.compiled.model.skeleton.size();
            }
        }
    }
    checkSkinMaterials(r, fileOpt, path, diags);
    // phys.*: the collision model's findings located in the QC; those located in the collision
    // mesh go to that file's entry (below).
    std::vector<Diagnostic> meshPhys;
    for (const Diagnostic& d : r.physics.diagnostics) {
        (d.file == r.physics.meshFile ? meshPhys : diags).push_back(d);
    }
    gradeDiagnostics(diags, qc.profile, false, opt.filter);
    qc.diagnostics = std::move(diags);
    qc.objectNames.assign(qc.diagnostics.size(), std::string());
    // A qc.* finding's joint is one of the compiled bone table (qc.case-variant-bone's).
    const Skeleton& table = r.compiled.model.skeleton;
    for (std::size_t i = 0; i < qc.diagnostics.size(); ++i) {
        const Diagnostic& d = qc.diagnostics[i];
        if (d.id.starts_with("qc.") && d.element.kind == ElementRef::Kind::Joint &&
            d.element.index >= 0 && static_cast<std::size_t>(d.element.index) < table.size()) {
            qc.objectNames[i] = table.names[static_cast<std::size_t>(d.element.index)];
        }
    }
    const std::size_t qcIndex = out.size();
    out.push_back(std::move(qc));
    // vbmcompiler limits each body file's vertices, not the model's (above): the QC's meter
    // shows the largest body file.
    const bool verticesPerBodyFile = fileOpt.profile == Profile::Pathos;
    std::size_t bodyFileVertices = 0;
    // Every file of the project, once, with its own lines.
    Model xrefModel;
    const Model* reference = nullptr;
    if (r.compiled.hasModel) {
        xrefModel = xrefReference(r.compiled, r.project);
        reference = &xrefModel;
    }
    std::vector<bool> isSequenceFile(r.compiled.reads.size(), false);
    // Body files (judged against the compiled model below) and LOD files (their bones map onto
    // the bodies' table; a bone an LOD leaves unweighted is what LODs are for).
    std::vector<bool> isBody(r.compiled.reads.size(), false);
    std::vector<bool> isLod(r.compiled.reads.size(), false);
    for (std::size_t i = 0; i < r.project.files.size(); ++i) {
        const std::int32_t k = r.compiled.fileRead[i];
        if (k >= 0 && r.project.files[i].kind == QcFileRef::Kind::Lod) {
            isLod[static_cast<std::size_t>(k)] = true;
        }
    }
    for (const QcBodygroup& g : r.project.bodygroups) {
        for (const QcBodyChoice& c : g.choices) {
            if (!c.blank && c.fileRef >= 0 &&
                static_cast<std::size_t>(c.fileRef) < r.compiled.fileRead.size() &&
                r.compiled.fileRead[static_cast<std::size_t>(c.fileRef)] >= 0) {
                isBody[static_cast<std::size_t>(
                    r.compiled.fileRead[static_cast<std::size_t>(c.fileRef)])] = true;
            }
        }
    }
    CheckOptions bodyOpt = fileOpt;
    bodyOpt.filter.disable.emplace_back(ids::kSkeletonUnreferencedBone);
    // A file no body, LOD or flex file uses (a collision model, a sequence's animation):
    // studiomdl takes its skeleton and, for a collision model, its positions and bones (phys.*
    // judges those); its normals, UVs, materials and weights reach nothing.
    std::vector<bool> drawn(r.compiled.reads.size(), false);
    for (std::size_t i = 0; i < r.project.files.size(); ++i) {
        const std::int32_t k = r.compiled.fileRead[i];
        const QcFileRef::Kind kind = r.project.files[i].kind;
        if (k >= 0 && (kind == QcFileRef::Kind::Model || kind == QcFileRef::Kind::Lod ||
                       kind == QcFileRef::Kind::Flex)) {
            drawn[static_cast<std::size_t>(k)] = true;
        }
    }
    CheckOptions undrawnOpt = fileOpt;
    undrawnOpt.filter.disable.emplace_back("mesh.*");
    undrawnOpt.filter.disable.emplace_back("weights.*");
    // A file only the collision model reads: its materials reach no table either (the CSS
    // players' compiled models list none of gmod_physics.smd's 'phy'), where an animation's
    // do.
    std::vector<std::uint8_t> collisionOnly(r.compiled.reads.size(), 0);
    for (std::size_t i = 0; i < r.project.files.size(); ++i) {
        const std::int32_t k = r.compiled.fileRead[i];
        if (k >= 0 && r.project.files[i].kind == QcFileRef::Kind::Collision &&
            collisionOnly[static_cast<std::size_t>(k)] == 0) {
            collisionOnly[static_cast<std::size_t>(k)] = 1;
        }
    }
    for (std::size_t i = 0; i < r.project.files.size(); ++i) {
        const std::int32_t k = r.compiled.fileRead[i];
        if (k >= 0 && r.project.files[i].kind != QcFileRef::Kind::Collision) {
            collisionOnly[static_cast<std::size_t>(k)] = 2;
        }
    }
    for (const QcBodygroup& g : r.project.bodygroups) {
        for (const QcBodyChoice& c : g.choices) {
            if (!c.blank && c.fileRef >= 0 &&
                static_cast<std::size_t>(c.fileRef) < r.compiled.fileRead.size() &&
                r.compiled.fileRead[static_cast<std::size_t>(c.fileRef)] >= 0) {
                collisionOnly[static_cast<std::size_t>(
                    r.compiled.fileRead[static_cast<std::size_t>(c.fileRef)])] = 2;
            }
        }
    }
    CheckOptions collisionOpt = undrawnOpt;
    collisionOpt.filter.disable.emplace_back("material.*");
    for (std::size_t i = 0; i < r.project.files.size(); ++i) {
        const std::int32_t k = r.compiled.fileRead[i];
        const QcFileRef::Kind kind = r.project.files[i].kind;
        if (k >= 0 && (kind == QcFileRef::Kind::Animation || kind == QcFileRef::Kind::Flex)) {
            isSequenceFile[static_cast<std::size_t>(k)] = true;
        }
    }
    // Files that only delta sequences play hold differences from a pose, not a pose: their
    // frame 0 is not compared with the rest pose (xref.rest-pose-differs).
    constexpr std::uint8_t kUnused = 0, kDeltaOnly = 1, kPose = 2;
    std::vector<std::uint8_t> use(r.compiled.reads.size(), kUnused);
    auto mark = [&](std::int32_t ref, const QcAnimOptions& o) {
        const std::int32_t k =
            ref >= 0 && static_cast<std::size_t>(ref) < r.compiled.fileRead.size()
                ? r.compiled.fileRead[static_cast<std::size_t>(ref)]
                : -1;
        if (k >= 0) {
            std::uint8_t& u = use[static_cast<std::size_t>(k)];
            u = o.delta || !o.subtract.empty() ? std::max<std::uint8_t>(u, kDeltaOnly) : kPose;
        }
    };
    // An animation only subtracted from others (Crowbar writes one per decompiled delta
    // sequence): its frame is subtracted, never played, so it counts as delta-only too.
    std::set<std::string> subtracted;
    for (const QcSequence& seq : r.project.sequences) {
        if (!seq.options.subtract.empty()) {
            subtracted.insert(asciiLower(seq.options.subtract));
        }
    }
    for (const QcAnimation& a : r.project.animations) {
        if (!a.options.subtract.empty()) {
            subtracted.insert(asciiLower(a.options.subtract));
        }
    }
    // Files only a blend's later animations play (not any sequence's or $animation's first).
    constexpr std::uint8_t kLaterBlend = 1, kFirstFile = 2;
    std::vector<std::uint8_t> blendRole(r.compiled.reads.size(), 0);
    auto role = [&](std::int32_t ref, std::uint8_t what) {
        const std::int32_t k =
            ref >= 0 && static_cast<std::size_t>(ref) < r.compiled.fileRead.size()
                ? r.compiled.fileRead[static_cast<std::size_t>(ref)]
                : -1;
        if (k >= 0) {
            std::uint8_t& b = blendRole[static_cast<std::size_t>(k)];
            b = std::max(b, what);
        }
    };
    for (const QcSequence& seq : r.project.sequences) {
        for (std::size_t i = 0; i < seq.fileRefs.size(); ++i) {
            mark(seq.fileRefs[i], seq.options);
            role(seq.fileRefs[i], i == 0 ? kFirstFile : kLaterBlend);
        }
    }
    for (const QcAnimation& a : r.project.animations) {
        role(a.fileRef, kFirstFile);
    }
    // Per read: where it is a later file of a blend (xref.blend-mismatch, goldsrc and pathos).
    std::vector<std::vector<BlendFile>> laterBlends(r.compiled.reads.size());
    const auto readOf = [&](std::int32_t ref) {
        return ref >= 0 && static_cast<std::size_t>(ref) < r.compiled.fileRead.size()
                   ? r.compiled.fileRead[static_cast<std::size_t>(ref)]
                   : -1;
    };
    for (const QcSequence& seq : r.project.sequences) {
        const std::int32_t first = seq.fileRefs.empty() ? -1 : readOf(seq.fileRefs.front());
        for (std::size_t i = 1; i < seq.fileRefs.size() && first >= 0; ++i) {
            const std::int32_t k = readOf(seq.fileRefs[i]);
            if (k >= 0) {
                laterBlends[static_cast<std::size_t>(k)].push_back({&seq, i, first});
            }
        }
    }
    for (const QcAnimation& a : r.project.animations) {
        QcAnimOptions o = a.options;
        if (subtracted.count(asciiLower(a.name)) != 0) {
            o.delta = true;
        }
        mark(a.fileRef, o);
    }
    for (std::size_t k = 0; k < r.compiled.reads.size(); ++k) {
        const QcCompiled::FileRead& fr = r.compiled.reads[k];
        const bool xref = isSequenceFile[k] && reference;
        const bool undrawn = !drawn[k] && !isBody[k] && !isLod[k];
        CheckedFile f = checkReadResult(fr.path, fr.result, xref ? reference : nullptr,
                                        xref ? path : std::string(),
                                        isBody[k] || isLod[k]              ? bodyOpt
                                        : undrawn && collisionOnly[k] == 1 ? collisionOpt
                                        : undrawn                          ? undrawnOpt
                                                                           : fileOpt);
        if (isBody[k] && fr.result.hasModel && r.compiled.hasModel) {
            addDroppedBones(r, fr.result.model, fileOpt, f);
        }
        // Source studiomdl reads up to MAXSTUDIOSRCBONES (512) bones from a body or LOD file
        // and limits only its bone table ("Too many bones used in model" after
        // BuildGlobalBonetable and CollapseBones), which the merged model above is: a file's
        // own count is no error below 512 (Faceposable-CSS-Models: 181-bone references, 50
        // bones compiled).
        constexpr std::size_t kSourceFileBones = 512;
        if ((isBody[k] || isLod[k]) && r.compiled.hasModel && fr.result.hasModel &&
            !goldSrcFamily(f.profile) && f.profile != Profile::Cod &&
            fr.result.model.skeleton.size() <= kSourceFileBones) {
            for (std::size_t d = f.diagnostics.size(); d-- > 0;) {
                if (f.diagnostics[d].id == ids::kSkeletonBoneLimit) {
                    f.diagnostics.erase(f.diagnostics.begin() + static_cast<std::ptrdiff_t>(d));
                    if (d < f.objectNames.size()) {
                        f.objectNames.erase(f.objectNames.begin() + static_cast<std::ptrdiff_t>(d));
                    }
                }
            }
        }
        if (fr.result.hasModel && r.compiled.hasModel) {
            unknownParentsOfDroppedBones(r, fr.result.model, f);
        }
        if (xref && fr.result.hasModel) {
            pointAtDeclaringFiles(r.compiled, *reference, path, fr.result.model.skeleton, f);
        }
        if (use[k] == kDeltaOnly) {
            // A bone a delta leaves out of frame 0 is zero there, which adds (or subtracts)
            // nothing: no skeleton.missing-in-first-frame either.
            for (std::size_t d = f.diagnostics.size(); d-- > 0;) {
                if (f.diagnostics[d].id == ids::kXrefRestPoseDiffers ||
                    f.diagnostics[d].id == ids::kSkeletonMissingInFirstFrame) {
                    f.diagnostics.erase(f.diagnostics.begin() + static_cast<std::ptrdiff_t>(d));
                    if (d < f.objectNames.size()) {
                        f.objectNames.erase(f.objectNames.begin() + static_cast<std::ptrdiff_t>(d));
                    }
                }
            }
        }
        if (xref && !goldSrcStudiomdl(f.profile)) {
            // An animation bone the model lacks: Source studiomdl re-expresses the animation
            // through the world (the model's bones move as animated) and a QC command naming
            // the bone is qc.unknown-bone's to report, so nothing differs: a note.
            for (Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kXrefAnimBoneMissing && d.severity == Severity::Warning) {
                    d.severity = Severity::Note;
                    d.fixedSeverity = true;
                }
            }
        }
        if (xref && goldSrcStudiomdl(f.profile) && fr.result.hasModel) {
            // HL1 studiomdl.c SimplifyModel maps each animation bone to the model's by name
            // and skips one the model lacks; a bone the model has under another parent stops
            // the compile ("illegal parent bone replacement"). A missing bone with nothing of
            // the model below it (an exporter's toe or finger tip) is skipped, which changes
            // nothing: a note. One with model bones below it keeps the warning.
            const Skeleton& as = fr.result.model.skeleton;
            const auto below = [&](std::size_t j) {
                for (std::size_t c = 0; c < as.size(); ++c) {
                    if (reference->skeleton.findByName(as.names[c]) == kNoJoint) {
                        continue;
                    }
                    // At most size() steps: a cycle (skeleton.cycle's to report) ends too.
                    JointIndex q = as.parents[c];
                    for (std::size_t step = 0;
                         step < as.size() && q >= 0 && q < JointIndex(as.size()); ++step) {
                        if (static_cast<std::size_t>(q) == j) {
                            return true;
                        }
                        q = as.parents[static_cast<std::size_t>(q)];
                    }
                }
                return false;
            };
            for (Diagnostic& d : f.diagnostics) {
                if (d.id != ids::kXrefAnimBoneMissing || d.severity != Severity::Warning ||
                    d.element.kind != ElementRef::Kind::Joint || d.element.index < 0 ||
                    static_cast<std::size_t>(d.element.index) >= as.size() ||
                    below(static_cast<std::size_t>(d.element.index))) {
                    continue;
                }
                d.severity = Severity::Note;
                d.fixedSeverity = true;
                d.message += "; no bone of the model is below it";
            }
        }
        if (xref && blendRole[k] == kLaterBlend && goldSrcStudiomdl(f.profile)) {
            // HL1 SimplifyModel compares the bones of a sequence's first animation only; the
            // later blends are relinked by that file's bone numbers unchecked ("relink
            // animations"), so a hierarchy of their own does not stop the compile. (vbmcompiler
            // compares each blend with the first, bone by bone, and stops: pathos keeps it.)
            for (std::size_t d = f.diagnostics.size(); d-- > 0;) {
                if (f.diagnostics[d].id == ids::kXrefParentMismatch) {
                    f.diagnostics.erase(f.diagnostics.begin() + static_cast<std::ptrdiff_t>(d));
                    if (d < f.objectNames.size()) {
                        f.objectNames.erase(f.objectNames.begin() + static_cast<std::ptrdiff_t>(d));
                    }
                }
            }
        }
        if (goldSrcStudiomdl(f.profile) || f.profile == Profile::Pathos) {
            std::vector<Diagnostic> blend;
            for (const BlendFile& b : laterBlends[k]) {
                if (std::optional<Diagnostic> d = blendMismatch(
                        b, r.compiled.reads[static_cast<std::size_t>(b.first)], fr, f.profile)) {
                    blend.push_back(std::move(*d));
                }
            }
            gradeDiagnostics(blend, f.profile, f.guessed, opt.filter);
            const Skeleton& ls = fr.result.model.skeleton;
            for (Diagnostic& d : blend) {
                const std::int32_t j =
                    d.element.kind == ElementRef::Kind::Joint ? d.element.index : std::int32_t(-1);
                std::size_t pos = 0;
                while (pos < f.diagnostics.size() &&
                       f.diagnostics[pos].where.line <= d.where.line) {
                    ++pos;
                }
                f.diagnostics.insert(f.diagnostics.begin() + static_cast<std::ptrdiff_t>(pos),
                                     std::move(d));
                if (f.objectNames.size() + 1 == f.diagnostics.size()) {
                    f.objectNames.insert(f.objectNames.begin() + static_cast<std::ptrdiff_t>(pos),
                                         j >= 0 && static_cast<std::size_t>(j) < ls.size()
                                             ? ls.names[static_cast<std::size_t>(j)]
                                             : std::string());
                }
            }
        }
        if (isBody[k] && !isSequenceFile[k] && use[k] == kUnused && blendRole[k] == 0 &&
            goldSrcStudiomdl(f.profile) && fr.result.hasModel &&
            fr.result.model.mesh.triangleCount() == 0) {
            // A body file with neither bones nor triangles (Afterburner's speaker_alarm): HL1
            // studiomdl.c Grab_Triangles reads no vertex, SimplifyModel keeps no bone (none is
            // used) and WriteFile writes the submodel empty: the model is as empty as its
            // source and nothing is lost. Played by a sequence the file stays an error
            // (Grab_Animation finds no key).
            for (Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kSkeletonNoBones && d.severity == Severity::Error) {
                    d.severity = Severity::Note;
                    d.fixedSeverity = true;
                    d.message += " and no triangles: studiomdl writes its submodel empty, with "
                                 "no bone";
                }
            }
        }
        if (use[k] == kPose && !isBody[k] && !isLod[k] && fr.result.hasModel &&
            fr.result.model.kind == ModelKind::Reference) {
            // A reference file played as a sequence (a ragdoll sequence in the collision
            // model's pose): studiomdl plays its pose as written, so where it differs from the
            // model's rest pose is what the author meant, a note.
            for (Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kXrefRestPoseDiffers && d.severity == Severity::Warning) {
                    d.severity = Severity::Note;
                    d.fixedSeverity = true;
                    d.message += "; the sequence plays this pose";
                }
            }
        }
        if (isBody[k] && verticesPerBodyFile) {
            for (const BudgetMeter& b : f.budget) {
                bodyFileVertices =
                    b.name == "vertices" ? std::max(bodyFileVertices, b.used) : bodyFileVertices;
            }
        }
        out.push_back(std::move(f));
    }
    if (verticesPerBodyFile) {
        for (BudgetMeter& b : out[qcIndex].budget) {
            b.used = b.name == "vertices" ? bodyFileVertices : b.used;
        }
    }
    if (!meshPhys.empty()) {
        // The collision mesh is checked as a file of the project when nothing else read it.
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const CheckedFile& f) { return f.file == r.physics.meshFile; });
        if (it == out.end()) {
            CheckedFile f;
            f.file = r.physics.meshFile;
            f.readable = true;
            f.format = "smd";
            f.kind = ModelKind::Reference;
            f.profile = fileOpt.profile;
            f.guessed = opt.profile == Profile::Auto;
            out.push_back(std::move(f));
            it = out.end() - 1;
        }
        gradeDiagnostics(meshPhys, it->profile, it->guessed, opt.filter);
        for (Diagnostic& d : meshPhys) {
            std::size_t pos = 0;
            while (pos < it->diagnostics.size() &&
                   it->diagnostics[pos].where.line <= d.where.line) {
                ++pos;
            }
            it->diagnostics.insert(it->diagnostics.begin() + static_cast<std::ptrdiff_t>(pos),
                                   std::move(d));
            if (it->objectNames.size() + 1 == it->diagnostics.size()) {
                it->objectNames.insert(it->objectNames.begin() + static_cast<std::ptrdiff_t>(pos),
                                       std::string());
            }
        }
    }
    onePerMaterial(out);
    return out;
}

} // namespace rigscope::core
