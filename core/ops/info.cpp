#include "core/ops/info.h"

#include "core/ops/compiled_report.h"
#include "core/ops/diagnostic_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/checks/check_util.h"
#include "core/ops/check.h"
#include "core/formats/content_sniff.h"
#include "core/ops/read_input.h"
#include "core/text/plural.h"
#include "core/diag/severity.h"
#include "core/io/file_buffer.h"
#include "core/text/json_writer.h"
#include "core/text/numbers.h"
#include "core/model/format_id.h"

namespace rigscope::core {

InfoReport infoFromResult(const std::string& file, const ReadResult& r, Profile requested)
{
    InfoReport out;
    out.file = file;
    out.readable = true;
    const Model& m = r.model;
    const FormatInfo* f = formatById(m.format);
    out.format = m.format;
    out.formatName = f ? std::string(f->name)
                     : formatFamily(m.format) == FormatFamily::Compiled
                         ? std::string("Compiled model (studiomdl)")
                         : std::string();
    out.kind = std::string(kindName(m.kind));
    out.version = m.version;
    out.profile = resolveProfile(m, requested);
    out.profileGuessed = requested == Profile::Auto;
    out.diagnostics = r.diagnostics;
    applyProfile(out.diagnostics, out.profile, out.profileGuessed);
    for (const Diagnostic& d : out.diagnostics) {
        out.objectNames.push_back(r.hasModel ? elementName(m, d.element) : std::string());
    }
    out.errors = countSeverity(out.diagnostics, Severity::Error);
    out.warnings = countSeverity(out.diagnostics, Severity::Warning);
    out.notes = countSeverity(out.diagnostics, Severity::Note);
    if (!r.hasModel) {
        out.kind = "unknown";
        return out;
    }
    out.dmx = m.dmx;
    out.flexControllers = m.flexControllers.size();
    const auto join = [](const std::vector<std::string>& v) {
        std::string j;
        for (const std::string& x : v) {
            j += (j.empty() ? "" : ", ") + x;
        }
        return j;
    };
    for (const FlexController& c : m.flexControllers) {
        const bool wrinkle = std::any_of(c.wrinkleScales.begin(), c.wrinkleScales.end(),
                                         [](float w) { return w != 0.0f; });
        std::string tags = c.stereo ? "stereo" : "";
        for (const char* t : {c.eyelid ? "eyelid" : "", wrinkle ? "wrinkle" : ""}) {
            if (*t != '\0') {
                tags += (tags.empty() ? "" : ", ") + std::string(t);
            }
        }
        out.flexControllerLines.push_back(c.name + (tags.empty() ? "" : " (" + tags + ")") + ": " +
                                          join(c.rawControls));
    }
    for (const FlexDominationRule& d : m.flexDominators) {
        out.flexDominators.push_back(join(d.dominators) +
                                     (d.dominators.size() == 1 ? " suppresses " : " suppress ") +
                                     join(d.suppressed));
    }
    for (const Attachment& a : m.attachments) {
        InfoReport::AttachmentInfo ai;
        ai.name = a.name;
        if (a.joint >= 0 && static_cast<std::size_t>(a.joint) < m.skeleton.size()) {
            ai.bone = m.skeleton.names[static_cast<std::size_t>(a.joint)];
        }
        ai.position = a.position;
        ai.rotation = a.rotation * (180.0f / 3.14159265358979f);
        ai.rigid = a.rigid;
        ai.worldAligned = a.worldAligned;
        out.attachments.push_back(std::move(ai));
    }
    out.bones = m.skeleton.size();
    out.roots = m.skeleton.rootCount();
    if (!m.animations.empty()) {
        const Animation& a = m.animations.front();
        out.frames = a.frameCount();
        out.fps = a.fps;
        out.fpsFromFile = a.fpsFromFile;
        if (!a.times.empty()) {
            out.firstTime = a.times.front();
            out.lastTime = a.times.back();
        }
        for (const Animation& an : m.animations) {
            out.notetracks.insert(out.notetracks.end(), an.notes.begin(), an.notes.end());
        }
    }
    out.triangles = m.mesh.triangleCount();
    out.corners = m.mesh.cornerCount();
    // The one count of vertices (issue 30): the profile's compiler weld, as check's vertex
    // budget, mesh.vertex-limit, compare and the window count them (checks::weldStats; a file
    // that numbers its own vertices, a DMX, by its numbers). Not the viewport's bit-exact weld,
    // which ignores the material: sample_ref.smd 126, not 115.
    out.vertices = checks::weldStats(m, out.profile, 0, 0).vertices;
    std::vector<std::size_t> perMaterial(m.mesh.materials.size(), 0);
    for (std::uint32_t mat : m.mesh.triangleMaterials) {
        ++perMaterial[mat];
    }
    for (std::size_t i = 0; i < m.mesh.materials.size(); ++i) {
        out.materials.push_back({m.mesh.materials[i].name, perMaterial[i]});
    }
    for (const FlexShape& s : m.flexShapes) {
        if (!s.deltaWrinkles.empty()) {
            InfoReport::WrinkleShape w;
            w.shape = s.name;
            w.values = s.deltaWrinkles.size();
            for (const float v : s.deltaWrinkles) {
                w.maxAbs = std::max(w.maxAbs, std::abs(v));
            }
            out.wrinkles.push_back(std::move(w));
        }
        out.flexShapes.push_back(s.name);
    }
    out.bounds = meshBounds(m);
    // Bone tree, depth-first (parents precede children, so one pass computes depths).
    const Skeleton& s = m.skeleton;
    std::vector<int> depth(s.size(), 0);
    std::vector<std::vector<std::size_t>> children(s.size());
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.parents[i] == kNoJoint) {
            roots.push_back(i);
        } else {
            children[static_cast<std::size_t>(s.parents[i])].push_back(i);
            depth[i] = depth[static_cast<std::size_t>(s.parents[i])] + 1;
        }
    }
    std::vector<std::size_t> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        const std::size_t j = stack.back();
        stack.pop_back();
        out.boneTree.push_back(std::string(static_cast<std::size_t>(depth[j]) * 2, ' ') +
                               s.names[j] + " (" + std::to_string(s.sourceIds[j]) + ")");
        for (auto it = children[j].rbegin(); it != children[j].rend(); ++it) {
            stack.push_back(*it);
        }
    }
    return out;
}

namespace {

// infoFromFile plus, with options.materials, the material lookup of the model read.
InfoReport infoFromFileWith(const std::string& path, const InfoOptions& options,
                            const CheckOptions& opt)
{
    // The file is mapped only while it is read (the model holds no view into it): freed before
    // welding.
    const OpenedInput in = openInput(path, options.profile, options.forceReader);
    if (!in.readable) {
        InfoReport out;
        out.file = path;
        out.ioError = in.error;
        return out;
    }
    const ReadResult& r = in.result;
    InfoReport out = infoFromResult(path, r, options.profile);
    out.compiled = in.compiled;
    if (options.materials && r.hasModel) {
        out.materialLookup =
            lookUpModelMaterials(path, r.model, out.profile,
                                 in.compiled ? compiledCheckOptions(opt, *in.compiled) : opt);
    }
    return out;
}

} // namespace

InfoReport infoFromFile(const std::string& path, Profile requested, const std::string& forceReader)
{
    InfoOptions options;
    options.profile = requested;
    options.forceReader = forceReader;
    return infoFromFileWith(path, options, CheckOptions{});
}

CheckOptions checkOptionsFor(const InfoOptions& options)
{
    CheckOptions opt;
    opt.profile = options.profile;
    opt.reference = options.reference;
    opt.forceReader = options.forceReader;
    opt.materialRoots = options.materialRoots;
    return opt;
}

QcInfo qcInfoFromFile(const std::string& path, const InfoOptions& options)
{
    QcInfo info;
    const CheckOptions opt = checkOptionsFor(options);
    info.report = qcReportFromFile(path, opt.profile);
    const QcReport& r = info.report;
    if (!r.readable) {
        return info;
    }
    if (options.checks) {
        addCheckedFiles(info, checkQcReport(r, opt));
    } else {
        info.diagnostics = r.diagnostics;
        info.errors = r.errors;
        info.warnings = r.warnings;
        info.notes = r.notes;
    }
    if (options.materials) {
        // As `check X.qc` looks them up: under the compiled model's material folders.
        CheckOptions c = opt;
        c.materialsFromQc = true;
        c.cdMaterials = qcMaterialFolders(r);
        info.materials = lookUpModelMaterials(path, r.compiled.model, r.profile, c);
        info.hasMaterials = true;
    }
    return info;
}

std::vector<InfoReport> infoFromFiles(const std::vector<std::string>& paths,
                                      const InfoOptions& options)
{
    std::vector<InfoReport> out;
    const CheckOptions opt = checkOptionsFor(options);
    if (!options.checks) {
        for (const std::string& p : paths) {
            out.push_back(infoFromFileWith(p, options, opt));
        }
        return out;
    }
    // `info` describes files: a folder is not expanded as `check` expands it, it is an input
    // that cannot be read ("'x' is a directory", openInput's words).
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!std::filesystem::is_directory(p, ec)) {
            files.push_back(p);
        }
    }
    std::vector<ReadResult> results;
    CheckRun run = runCheck(files, opt, &results);
    // One report per input, in the order given (a folder: its files in place).
    std::vector<bool> used(run.files.size(), false);
    for (const std::string& p : paths) {
        bool any = false;
        for (std::size_t i = 0; i < run.files.size(); ++i) {
            CheckedFile& f = run.files[i];
            if (used[i] || !(f.file == p || f.file.starts_with(p + "/"))) {
                continue;
            }
            used[i] = any = true;
            InfoReport r;
            if (!f.readable) {
                r.file = f.file;
                r.ioError = f.ioError;
                out.push_back(std::move(r));
                continue;
            }
            r = infoFromResult(f.file, results[i], f.profile);
            if (formatFamily(results[i].model.format) ==
                FormatFamily::Compiled) { // its bodyparts, skins, sequences, ...
                r.compiled = openInput(f.file, options.profile, options.forceReader).compiled;
            }
            if (options.materials && results[i].hasModel) {
                r.materialLookup =
                    lookUpModelMaterials(f.file, results[i].model, f.profile,
                                         r.compiled ? compiledCheckOptions(opt, *r.compiled) : opt);
            }
            r.profileGuessed = f.guessed;
            r.checked = true;
            r.reference = f.reference;
            r.diagnostics = std::move(f.diagnostics);
            r.objectNames = std::move(f.objectNames);
            r.errors = countSeverity(r.diagnostics, Severity::Error);
            r.warnings = countSeverity(r.diagnostics, Severity::Warning);
            r.notes = countSeverity(r.diagnostics, Severity::Note);
            out.push_back(std::move(r));
        }
        if (!any) { // a folder, or a path that does not exist: why, as every verb says it
            InfoReport r;
            r.file = p;
            const OpenedInput in = openInput(p, options.profile, options.forceReader);
            r.ioError = in.readable ? "'" + p + "': no model in it" : in.error;
            out.push_back(std::move(r));
        }
    }
    return out;
}

std::string vecText(const Vec3& v)
{
    std::string s;
    appendFloat(s, v.x());
    s += ' ';
    appendFloat(s, v.y());
    s += ' ';
    appendFloat(s, v.z());
    return s;
}

std::string infoText(const InfoReport& r, bool verbose)
{
    std::string o;
    o += r.file + "\n";
    if (!r.readable) {
        o += "  error: " + r.ioError + "\n";
        return o;
    }
    auto line = [&o](const char* k, const std::string& v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "  %-12s", k);
        o += buf;
        o += v;
        o += '\n';
    };
    if (r.format.empty()) {
        line("format", "unknown (nothing read)"); // the reason is among the diagnostics
    } else {
        line("format",
             r.formatName + " (" + r.format + ", version " + std::to_string(r.version) + ")");
    }
    line("kind", r.kind);
    if (!r.dmx.encoding.empty()) {
        line("encoding", r.dmx.encoding + " " + std::to_string(r.dmx.encodingVersion) +
                             ", format " + r.dmx.formatName + " " +
                             std::to_string(r.dmx.formatVersion));
    }
    line("profile", std::string(profileName(r.profile)) + (r.profileGuessed ? " (auto)" : ""));
    line("bones", groupedCount(r.bones) + " (" + groupedCount(r.roots) +
                      (r.roots == 1 ? " root)" : " roots)"));
    if (r.frames > 0) {
        // Frames are named by the file's own numbers (SMD `time`, XANIM `FRAME`), as the
        // timeline and `pose` name them.
        std::string fr = groupedCount(r.frames);
        std::string t0, t1, fps;
        appendNumber(t0, r.firstTime);
        appendNumber(t1, r.lastTime);
        appendNumber(fps, r.fps);
        fr += r.frames == 1 ? " (frame " + t0 : " (frames " + t0 + ".." + t1;
        fr += ", " + fps + " fps" + (r.fpsFromFile ? ")" : " default)");
        line("frames", fr);
    }
    if (r.triangles > 0) {
        std::string tris = groupedCount(r.triangles);
        if (r.compiled) { // every bodygroup choice is read; the game draws body 0
            const std::int64_t body = defaultBodyTriangles(*r.compiled);
            if (body != static_cast<std::int64_t>(r.triangles)) {
                tris += " in every bodygroup choice, " + groupedCount(std::size_t(body)) +
                        " in the default body";
            }
        }
        line("triangles", tris);
        line("vertices",
             groupedCount(r.vertices) + " unique of " + groupedCount(r.corners) + " corners");
    }
    if (!r.materials.empty()) {
        line("materials", groupedCount(r.materials.size()));
        for (const auto& m : r.materials) {
            o += "    " + m.name + "  (" + plural(m.triangles, "triangle") + ")\n";
        }
    }
    if (r.materialLookup.asked) {
        o += materialLookupText(r.materialLookup);
    }
    if (!r.flexShapes.empty()) {
        line("flex shapes", groupedCount(r.flexShapes.size()));
        for (const auto& s : r.flexShapes) {
            o += "    " + s + "\n";
        }
    }
    if (!r.flexControllerLines.empty()) {
        line("controllers", groupedCount(r.flexControllerLines.size()));
        for (const auto& s : r.flexControllerLines) {
            o += "    " + s + "\n";
        }
    }
    if (!r.flexDominators.empty()) {
        line("dominators", groupedCount(r.flexDominators.size()));
        for (const auto& s : r.flexDominators) {
            o += "    " + s + "\n";
        }
    }
    if (!r.wrinkles.empty()) {
        line("wrinkles", plural(r.wrinkles.size(), "shape"));
        for (const auto& w : r.wrinkles) {
            std::string mx;
            appendFloat(mx, w.maxAbs);
            o += "    " + w.shape + ": " + groupedCount(w.values) + " values, max " + mx + "\n";
        }
    }
    if (!r.attachments.empty()) {
        line("attachments", groupedCount(r.attachments.size()));
        for (const auto& a : r.attachments) {
            o += "    " + a.name + " on " + (a.bone.empty() ? "(no bone)" : a.bone) + " at " +
                 vecText(a.position) + " rotated " + vecText(a.rotation) +
                 (a.rigid ? " rigid" : "") + (a.worldAligned ? " world-aligned" : "") + "\n";
        }
    }
    if (!r.notetracks.empty()) {
        line("notetracks", groupedCount(r.notetracks.size()));
        for (const auto& n : r.notetracks) {
            std::string f;
            appendNumber(f, n.frame);
            o += "    frame " + f + " " + n.text + "\n";
        }
    }
    if (r.bounds.valid) {
        line("bounds", "min " + vecText(r.bounds.min) + "  max " + vecText(r.bounds.max));
        line("size", vecText(r.bounds.max - r.bounds.min));
    }
    if (r.compiled) {
        o += compiledText(*r.compiled, verbose);
    }
    line("diagnostics",
         plural(r.errors, "error") + ", " + plural(r.warnings, "warning") + ", " +
             plural(r.notes, "note") +
             (r.checked ? " (checks of profile " + std::string(profileName(r.profile)) +
                              (r.reference.empty() ? ")" : ", reference " + r.reference + ")")
                        : " (--no-checks: reader only, checks not run)"));
    if (verbose && !r.boneTree.empty()) {
        o += "  bone tree\n";
        for (const auto& b : r.boneTree) {
            o += "    " + b + "\n";
        }
    }
    return o;
}

std::string infoJson(const std::vector<InfoReport>& reports)
{
    JsonWriter w;
    w.beginArray();
    for (const InfoReport& r : reports) {
        w.beginObject();
        w.key("file").value(r.file);
        if (!r.readable) {
            w.key("error").value(r.ioError);
            w.endObject();
            continue;
        }
        w.key("format").value(r.format);
        w.key("kind").value(r.kind);
        w.key("version").value(r.version);
        if (!r.dmx.encoding.empty()) {
            w.key("encoding").value(r.dmx.encoding);
            w.key("encodingVersion").value(r.dmx.encodingVersion);
            w.key("formatName").value(r.dmx.formatName);
            w.key("formatVersion").value(r.dmx.formatVersion);
            w.key("flexControllers").value(r.flexControllers);
            w.key("flexDominationRules").value(r.flexDominators.size());
        }
        w.key("profile").value(profileName(r.profile));
        w.key("bones").value(r.bones);
        w.key("roots").value(r.roots);
        w.key("frames").value(r.frames);
        w.key("fps").value(r.fps);
        w.key("triangles").value(r.triangles);
        w.key("corners").value(r.corners);
        w.key("vertices").value(r.vertices);
        w.key("materials").beginArray();
        for (const auto& m : r.materials) {
            w.beginObject()
                .key("name")
                .value(m.name)
                .key("triangles")
                .value(m.triangles)
                .endObject();
        }
        w.endArray();
        if (r.materialLookup.asked) {
            w.key("materialLookup");
            writeMaterialLookupJson(w, r.materialLookup);
        }
        w.key("flexShapes").beginArray();
        for (const auto& s : r.flexShapes) {
            w.value(s);
        }
        w.endArray();
        if (!r.dmx.encoding.empty()) {
            w.key("wrinkles").beginArray();
            for (const auto& wr : r.wrinkles) {
                w.beginObject().key("shape").value(wr.shape).key("values").value(wr.values);
                w.key("maxAbs").value(wr.maxAbs).endObject();
            }
            w.endArray();
            w.key("attachments").beginArray();
            for (const auto& a : r.attachments) {
                w.beginObject().key("name").value(a.name).key("bone").value(a.bone);
                w.key("position").beginArray();
                for (int k = 0; k < 3; ++k) {
                    w.value(a.position[k]);
                }
                w.endArray().key("rotation").beginArray();
                for (int k = 0; k < 3; ++k) {
                    w.value(a.rotation[k]);
                }
                w.endArray().key("rigid").value(a.rigid).key("worldAligned").value(a.worldAligned);
                w.endObject();
            }
            w.endArray();
        }
        w.key("notetracks").beginArray();
        for (const auto& n : r.notetracks) {
            w.beginObject().key("frame").value(n.frame).key("text").value(n.text);
            w.key("part").value(n.part).key("track").value(n.track).endObject();
        }
        w.endArray();
        w.key("bounds");
        if (r.bounds.valid) {
            w.beginObject();
            w.key("min")
                .beginArray()
                .value(r.bounds.min.x())
                .value(r.bounds.min.y())
                .value(r.bounds.min.z())
                .endArray();
            w.key("max")
                .beginArray()
                .value(r.bounds.max.x())
                .value(r.bounds.max.y())
                .value(r.bounds.max.z())
                .endArray();
            w.endObject();
        } else {
            w.null();
        }
        if (r.compiled) { // issue 29: the compiled model's own keys
            writeCompiledJson(w, *r.compiled);
        }
        w.key("firstFrame").value(r.firstTime);
        w.key("lastFrame").value(r.lastTime);
        w.key("checks").value(r.checked);
        if (!r.reference.empty()) {
            w.key("reference").value(r.reference);
        }
        w.key("errors").value(r.errors);
        w.key("warnings").value(r.warnings);
        w.key("notes").value(r.notes);
        writeDiagnosticsJson(w, r.diagnostics, r.profile, r.objectNames);
        w.endObject();
    }
    w.endArray();
    std::string s = w.take();
    s += '\n';
    return s;
}

} // namespace rigscope::core
