#include "core/ops/check.h"
#include "core/formats/content_sniff.h"
#include "core/ops/diagnostic_json.h"
#include "core/ops/read_input.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/scene.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <system_error>
#include <unordered_set>

#include "core/build/parallel_for.h"
#include "core/checks/materials.h"
#include "core/diag/check_explanations.h"
#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/formats/registry.h"
#include "core/io/file_buffer.h"
#include "core/ops/explain.h"
#include "core/ops/qc_ops.h"
#include "core/text/json_writer.h"
#include "core/text/plural.h"
#include "core/model/format_id.h"

namespace rigscope::core {

namespace {

namespace fs = std::filesystem;

bool isCodExtension(const std::string& path)
{
    const std::string e = extensionLower(path);
    return e == "xmodel_export" || e == "xanim_export" || e == "nt_export" || e == "xmodel_bin" ||
           e == "xanim_bin";
}

struct Loaded {
    std::string path;
    bool readable = false;
    std::string ioError;
    ReadResult result;
    std::shared_ptr<const CompiledModelInfo> compiled; // a .mdl: its $cdmaterials
    const Loaded* reference = nullptr;
    std::string referencePath;
    bool named = false; // given by name on the command line, not found by searching a folder
};

void load(Loaded& l, Profile requested, const std::string& forceReader)
{
    OpenedInput in = openInput(l.path, requested, forceReader);
    l.readable = in.readable;
    l.ioError = std::move(in.error);
    l.result = std::move(in.result);
    l.compiled = std::move(in.compiled);
}

// docs/cli.md "Which reference": core::pairReferences, the rule scenes use too.
void discoverReferences(std::vector<std::unique_ptr<Loaded>>& files)
{
    std::vector<SceneSource> sources;
    sources.reserve(files.size());
    for (const auto& f : files) {
        SceneSource s;
        s.path = f->path;
        if (f->readable && f->result.hasModel) {
            s.model = std::shared_ptr<const Model>(std::shared_ptr<void>(), &f->result.model);
        }
        s.named = f->named;
        sources.push_back(std::move(s));
    }
    const std::vector<int> pairs = pairReferences(sources);
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (pairs[i] >= 0) {
            files[i]->reference = files[static_cast<std::size_t>(pairs[i])].get();
            files[i]->referencePath = files[i]->reference->path;
        }
    }
}

Profile fileProfile(const Loaded& l, Profile requested)
{
    if (requested != Profile::Auto) {
        return requested;
    }
    if (l.reference) {
        return resolveProfile(l.reference->result.model, Profile::Auto);
    }
    if (l.readable && l.result.hasModel) {
        return resolveProfile(l.result.model, Profile::Auto);
    }
    return isCodExtension(l.path) ? Profile::Cod : Profile::Source;
}

void checkOne(Loaded& l, CheckedFile& out, const CheckOptions& opt)
{
    out.file = l.path;
    out.readable = l.readable;
    out.ioError = l.ioError;
    out.profile = fileProfile(l, opt.profile);
    out.guessed = opt.profile == Profile::Auto;
    if (!l.readable) {
        return;
    }
    const Loaded* ref = l.reference;
    const bool refUsable = ref && ref->result.hasModel;
    CheckedFile c = checkReadResult(l.path, l.result, refUsable ? &ref->result.model : nullptr,
                                    refUsable ? ref->path : std::string(),
                                    l.compiled ? compiledCheckOptions(opt, *l.compiled) : opt);
    c.ioError = out.ioError;
    out = std::move(c);
}

std::string plural(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string relatedLine(const Diagnostic& d, const RelatedNote& n)
{
    return formatLocation(n.file, n.where, d.binary && n.file == d.file) + " note: " + n.message +
           " [" + std::string(d.id) + "]";
}

// RFC 3986 path: keep unreserved characters and '/', percent-encode the rest.
std::string uriOf(const std::string& path)
{
    static const char* const kHex = "0123456789ABCDEF";
    std::string out;
    if (!path.empty() && path.front() == '/') {
        out = "file://";
    }
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                          c == '/';
        if (keep) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

std::string profileLabel(const CheckRun& run)
{
    if (run.requested != Profile::Auto) {
        return std::string(profileName(run.requested));
    }
    std::vector<std::string> names;
    for (const CheckedFile& f : run.files) {
        const std::string n(profileName(f.profile));
        if (f.readable && std::find(names.begin(), names.end(), n) == names.end()) {
            names.push_back(n);
        }
    }
    if (names.size() == 1) {
        return names.front();
    }
    std::sort(names.begin(), names.end());
    std::string s = "auto";
    for (std::size_t i = 0; i < names.size(); ++i) {
        s += (i == 0 ? ": " : ", ") + names[i];
    }
    return s;
}

} // namespace

MaterialQuery materialQueryFor(const std::string& modelFile, const CheckOptions& opt)
{
    MaterialQuery q;
    for (const std::string& r : opt.materialRoots) {
        appendRoots(q.roots, {{r, "--materials"}});
    }
    if (opt.discoverMaterialRoots) {
        appendRoots(q.roots, discoverMaterialRoots(modelFile));
    }
    q.cdMaterials = opt.cdMaterials;
    q.fromQc = opt.materialsFromQc;
    return q;
}

CheckOptions compiledCheckOptions(CheckOptions opt, const CompiledModelInfo& compiled)
{
    opt.cdMaterials = compiled.cdMaterials;
    opt.materialsFromQc = true;
    // An 'AFTB' model is abstudiomdl's: checked as its QC is (docs/profiles.md "afterburner").
    if (opt.profile == Profile::Auto && compiled.variant == "afterburner") {
        opt.profile = Profile::Afterburner;
    }
    return opt;
}

CheckedFile checkReadResult(const std::string& file, const ReadResult& r, const Model* reference,
                            const std::string& referenceFile, const CheckOptions& opt)
{
    return checkModel(file, r.hasModel ? &r.model : nullptr, r.diagnostics, reference,
                      referenceFile, opt);
}

CheckedFile checkModel(const std::string& file, const Model* model,
                       const std::vector<Diagnostic>& readerDiagnostics, const Model* reference,
                       const std::string& referenceFile, const CheckOptions& opt)
{
    static const Model kEmpty;
    struct {
        const Model& model;
        bool hasModel;
        const std::vector<Diagnostic>& diagnostics;
    } r{model ? *model : kEmpty, model != nullptr, readerDiagnostics};
    CheckedFile out;
    out.file = file;
    out.readable = true;
    out.guessed = opt.profile == Profile::Auto;
    if (opt.profile != Profile::Auto) {
        out.profile = opt.profile;
    } else if (reference) {
        out.profile = resolveProfile(*reference, Profile::Auto);
    } else if (r.hasModel) {
        out.profile = resolveProfile(r.model, Profile::Auto);
        // A v10 .mdl with its Pathos .vbm beside it (the reader's compiled.unread-companion)
        // is vbmcompiler's: checked as its QC is.
        if (formatFamily(r.model.format) == FormatFamily::Compiled &&
            std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& d) {
                return d.id == ids::kCompiledUnreadCompanion;
            })) {
            out.profile = Profile::Pathos;
        }
    } else {
        out.profile = isCodExtension(file) ? Profile::Cod : Profile::Source;
    }
    const Model& m = r.model;
    out.format = m.format;
    out.kind = r.hasModel ? m.kind : ModelKind::Unknown;
    out.reference = reference ? referenceFile : std::string();
    std::vector<Diagnostic> diags = r.diagnostics;
    if (r.hasModel) {
        DiagnosticSink sink(
            file, formatTraits(m.format).binary ||
                      (formatFamily(m.format) == FormatFamily::Dmx && m.dmx.encoding == "binary"));
        // The source checks predict what studiomdl will do; a compiled model is what it did:
        // the reader's compiled.* findings apply, and its materials are looked up under the
        // $cdmaterials it stores (compiledCheckOptions).
        const bool compiled = formatFamily(m.format) == FormatFamily::Compiled;
        if (!compiled) {
            runModelChecks(m, out.profile, sink, r.diagnostics);
        }
        if (reference && !compiled) {
            runSceneChecks({&m, file}, {reference, referenceFile}, out.profile, sink,
                           r.diagnostics);
        }
        if (m.kind != ModelKind::Animation && !m.mesh.empty() &&
            (!compiled || opt.materialsFromQc)) {
            runMaterialChecks(m, materialQueryFor(file, opt), out.profile, sink);
        }
        for (Diagnostic& d : sink.diagnostics()) {
            diags.push_back(std::move(d));
        }
        const Model* budgetModel = &m;
        const Model* flex = nullptr;
        if (m.kind == ModelKind::Flex && reference) {
            budgetModel = reference;
            flex = &m;
        } else if (!m.vertexFrames.empty() && !m.mesh.empty()) {
            flex = &m; // a DMX head carries its own shapes
        }
        out.budget = budgetMeters(*budgetModel, out.profile, flex);
    }
    gradeDiagnostics(diags, out.profile, out.guessed, opt.filter);
    std::stable_sort(diags.begin(), diags.end(), [&](const Diagnostic& a, const Diagnostic& b) {
        if ((a.file == file) != (b.file == file)) {
            return a.file == file; // the model's own lines first, then its materials'
        }
        const std::uint32_t la = a.where.line == 0 ? 1 : a.where.line;
        const std::uint32_t lb = b.where.line == 0 ? 1 : b.where.line;
        if (la != lb) {
            return la < lb;
        }
        return a.where.offset < b.where.offset;
    });
    if (opt.werror) {
        for (Diagnostic& d : diags) {
            if (d.severity == Severity::Warning) {
                d.severity = Severity::Error;
                d.fixedSeverity = true;
                out.warningsAsErrors += d.count();
            }
        }
    }
    out.objectNames.reserve(diags.size());
    for (const Diagnostic& d : diags) {
        out.objectNames.push_back(r.hasModel ? elementName(m, d.element) : std::string());
    }
    out.diagnostics = std::move(diags);
    return out;
}

std::vector<std::string> expandCheckInputs(const std::vector<std::string>& paths,
                                           std::vector<std::string>& errors)
{
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        std::error_code ec;
        const fs::file_status st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            errors.push_back("cannot open '" + p + "': No such file or directory");
            continue;
        }
        if (!fs::is_directory(st)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
        if (ec) {
            errors.push_back("cannot list '" + p + "': " + ec.message());
            continue;
        }
        for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) {
                errors.push_back("cannot list '" + p + "': " + ec.message());
                break;
            }
            std::error_code fe;
            if (it->is_regular_file(fe) && formatByExtension(it->path().string())) {
                found.push_back(it->path().string());
            }
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

CheckRun runCheck(const std::vector<std::string>& paths, const CheckOptions& options,
                  std::vector<ReadResult>* results)
{
    CheckRun run;
    run.requested = options.profile;
    std::vector<std::string> inputs = expandCheckInputs(paths, run.inputErrors);
    run.ioFailure = !run.inputErrors.empty();
    // QC projects (issue 17): the script and every file it names, checked in qc_ops.
    std::vector<std::string> qcInputs;
    std::erase_if(inputs, [&](const std::string& p) {
        return isQcPath(p) ? (qcInputs.push_back(p), true) : false;
    });

    std::vector<std::unique_ptr<Loaded>> files;
    files.reserve(inputs.size());
    for (const std::string& p : inputs) {
        files.push_back(std::make_unique<Loaded>());
        files.back()->path = p;
        files.back()->named = std::find(paths.begin(), paths.end(), p) != paths.end();
    }
    parallelFor(files.size(), options.jobs,
                [&](std::size_t i) { load(*files[i], options.profile, options.forceReader); });

    std::unique_ptr<Loaded> external; // --reference not among the inputs
    if (!options.reference.empty()) {
        const Loaded* ref = nullptr;
        for (auto& f : files) {
            if (f->path == options.reference || sameFile(f->path, options.reference)) {
                ref = f.get();
                break;
            }
        }
        if (!ref) {
            external = std::make_unique<Loaded>();
            external->path = options.reference;
            load(*external, options.profile, options.forceReader);
            if (!external->readable) {
                run.inputErrors.push_back(external->ioError);
                run.ioFailure = true;
            } else if (!external->result.hasModel) {
                run.inputErrors.push_back("'" + options.reference +
                                          "': no model to use as reference");
                run.ioFailure = true;
            }
            ref = external.get();
        }
        if (ref->readable && ref->result.hasModel) {
            for (auto& f : files) {
                if (f.get() != ref && f->readable && f->result.hasModel) {
                    f->reference = ref;
                    f->referencePath = ref->path;
                }
            }
        }
    } else {
        discoverReferences(files);
    }

    run.files.resize(files.size());
    parallelFor(files.size(), options.jobs,
                [&](std::size_t i) { checkOne(*files[i], run.files[i], options); });
    for (const std::string& qc : qcInputs) {
        for (CheckedFile& f : checkQcProject(qc, options)) {
            run.files.push_back(std::move(f));
        }
    }

    for (const CheckedFile& f : run.files) {
        if (!f.readable) {
            run.ioFailure = true;
            run.inputErrors.push_back(f.ioError);
            continue;
        }
        for (const Diagnostic& d : f.diagnostics) {
            switch (d.severity) {
            case Severity::Error:
                run.errors += d.count();
                break;
            case Severity::Warning:
                run.warnings += d.count();
                break;
            case Severity::Note:
                run.notes += d.count();
                break;
            }
        }
    }
    for (const CheckedFile& f : run.files) {
        run.warningsAsErrors += f.warningsAsErrors;
    }
    if (results != nullptr) {
        results->clear();
        results->reserve(files.size());
        for (auto& f : files) {
            results->push_back(std::move(f->result));
        }
    }
    return run;
}

std::string checkText(const CheckRun& run, const CheckOptions& options)
{
    std::string out;
    for (const CheckedFile& f : run.files) {
        std::map<std::string_view, std::size_t> printed;
        std::vector<std::pair<std::string_view, const Diagnostic*>> firstOmitted;
        std::map<std::string_view, std::size_t> omitted;
        for (const Diagnostic& d : f.diagnostics) {
            std::size_t& n = printed[d.id];
            // A summary row of a capped sink (Diagnostic::omitted) is never printed itself.
            if (d.omitted > 0 || (options.maxPerCheck != 0 && n >= options.maxPerCheck)) {
                std::size_t& o = omitted[d.id];
                if (o == 0) {
                    firstOmitted.emplace_back(d.id, &d);
                }
                o += d.count();
                continue;
            }
            ++n;
            out += formatDiagnostic(d);
            out += '\n';
            for (const RelatedNote& r : d.related) {
                out += relatedLine(d, r);
                out += '\n';
            }
        }
        for (const auto& [id, d] : firstOmitted) {
            out += formatLocation(d->file, d->where, d->binary) + " note: … and " +
                   groupedCount(omitted[id]) + " more [" + std::string(id) + "]\n";
        }
    }
    return out;
}

std::string checkSummary(const CheckRun& run)
{
    std::size_t files = 0;
    for (const CheckedFile& f : run.files) {
        files += f.readable ? 1 : 0;
    }
    std::string s = plural(run.errors, "error", "errors") + ", " +
                    plural(run.warnings, "warning", "warnings") + ", " +
                    plural(run.notes, "note", "notes") + " in " + plural(files, "file", "files") +
                    " (profile " + profileLabel(run) + ")";
    if (run.warningsAsErrors > 0) {
        s += " (" + plural(run.warningsAsErrors, "warning", "warnings") + " treated as errors)";
    }
    return s;
}

std::string checkJson(const CheckRun& run)
{
    JsonWriter w;
    w.beginObject();
    w.key("profile").value(profileLabel(run));
    w.key("summary").beginObject();
    w.key("errors")
        .value(run.errors)
        .key("warnings")
        .value(run.warnings)
        .key("notes")
        .value(run.notes);
    w.key("warningsAsErrors").value(run.warningsAsErrors);
    w.endObject();
    w.key("files").beginArray();
    for (const CheckedFile& f : run.files) {
        w.beginObject();
        w.key("file").value(f.file);
        if (!f.readable) {
            w.key("error").value(f.ioError);
            w.endObject();
            continue;
        }
        w.key("format").value(f.format);
        w.key("kind").value(kindName(f.kind));
        w.key("profile").value(profileName(f.profile));
        w.key("profileGuessed").value(f.guessed);
        w.key("reference");
        if (f.reference.empty()) {
            w.null();
        } else {
            w.value(f.reference);
        }
        w.key("budget").beginArray();
        for (const BudgetMeter& b : f.budget) {
            w.beginObject().key("name").value(b.name).key("used").value(b.used).key("limit");
            if (b.limit == 0) {
                w.null();
            } else {
                w.value(b.limit);
            }
            w.key("over").value(b.overIsNote ? "note" : "error");
            w.endObject();
        }
        w.endArray();
        writeDiagnosticsJson(w, f.diagnostics, f.profile, f.objectNames);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    std::string s = w.take();
    s += '\n';
    return s;
}

std::string checkSarif(const CheckRun& run)
{
    // Rules: the catalog entries the results use, in catalog order.
    std::unordered_set<std::string_view> used;
    for (const CheckedFile& f : run.files) {
        for (const Diagnostic& d : f.diagnostics) {
            used.insert(d.id);
        }
    }
    std::map<std::string_view, std::size_t> ruleIndex;
    std::vector<const CatalogEntry*> rules;
    for (const CatalogEntry& e : diagnosticCatalog()) {
        if (used.count(e.id)) {
            ruleIndex[e.id] = rules.size();
            rules.push_back(&e);
        }
    }
    const int defaultCol = profileColumn(run.requested);
    JsonWriter w;
    w.beginObject();
    w.key("$schema").value("https://json.schemastore.org/sarif-2.1.0.json");
    w.key("version").value("2.1.0");
    w.key("runs").beginArray().beginObject();
    w.key("tool").beginObject().key("driver").beginObject();
    w.key("name").value("rigscope");
    w.key("informationUri").value("https://github.com/rigscope/rigscope");
    w.key("semanticVersion").value("0.1.0");
    w.key("rules").beginArray();
    for (const CatalogEntry* e : rules) {
        w.beginObject();
        w.key("id").value(e->id);
        // The catalog's explanation (check_explanations.cpp); docs/checks.md has the same text
        // under an anchor named after the id.
        const CheckExplanation* x = findExplanation(e->id);
        w.key("shortDescription").beginObject().key("text");
        w.value(x ? x->summary : e->firesWhen).endObject();
        w.key("fullDescription").beginObject().key("text");
        w.value(x ? x->meaning : e->firesWhen).endObject();
        w.key("help").beginObject();
        w.key("text").value(explainText(e->id));
        w.key("markdown").value(explainMarkdown(e->id));
        w.endObject();
        w.key("helpUri").value(checkHelpUri(e->id));
        const CatalogSeverity s = e->severity[defaultCol];
        w.key("defaultConfiguration").beginObject().key("level");
        w.value(s == CatalogSeverity::Error     ? "error"
                : s == CatalogSeverity::Warning ? "warning"
                : s == CatalogSeverity::Note    ? "note"
                                                : "none");
        w.endObject();
        w.endObject();
    }
    w.endArray();
    w.endObject().endObject(); // driver, tool
    w.key("columnKind").value("utf16CodeUnits");
    w.key("results").beginArray();
    auto physical = [&w](const std::string& file, const SourceLoc& where, bool binary) {
        w.key("physicalLocation").beginObject();
        w.key("artifactLocation").beginObject().key("uri").value(uriOf(file)).endObject();
        w.key("region").beginObject();
        if (binary) {
            w.key("byteOffset").value(static_cast<std::uint64_t>(where.offset));
        } else {
            w.key("startLine").value(where.line == 0 ? 1u : where.line);
            w.key("startColumn").value(where.column == 0 ? 1u : where.column);
        }
        w.endObject();
        w.endObject();
    };
    for (const CheckedFile& f : run.files) {
        for (const Diagnostic& d : f.diagnostics) {
            w.beginObject();
            w.key("ruleId").value(d.id);
            const auto it = ruleIndex.find(d.id);
            if (it != ruleIndex.end()) {
                w.key("ruleIndex").value(it->second);
            }
            w.key("level").value(severityName(d.severity));
            w.key("message").beginObject().key("text").value(d.message).endObject();
            w.key("locations").beginArray().beginObject();
            physical(d.file, d.where, d.binary);
            w.endObject().endArray();
            if (!d.related.empty()) {
                w.key("relatedLocations").beginArray();
                for (std::size_t i = 0; i < d.related.size(); ++i) {
                    const RelatedNote& r = d.related[i];
                    w.beginObject();
                    w.key("id").value(i);
                    physical(r.file, r.where, d.binary && r.file == d.file);
                    w.key("message").beginObject().key("text").value(r.message).endObject();
                    w.endObject();
                }
                w.endArray();
            }
            w.key("properties")
                .beginObject()
                .key("profile")
                .value(profileName(f.profile))
                .endObject();
            w.endObject();
        }
    }
    w.endArray();
    w.endObject().endArray(); // run, runs
    w.endObject();
    std::string s = w.take();
    s += '\n';
    return s;
}

int checkExitCode(const CheckRun& run) noexcept
{
    if (run.ioFailure) {
        return 2;
    }
    return run.errors > 0 ? 1 : 0;
}

} // namespace rigscope::core
