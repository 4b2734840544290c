#include "app/document/loaded_file.h"

#include <QtCore/QFile>
#include <QtCore/QFileInfo>

#include "app/qt_convert.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/check.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"
#include "core/ops/scene.h"
#include "render/startup_timing.h"

namespace rigscope::app {

LoadedFile loadFile(const QString& path, const QcView& qcView, const std::string& forceReader)
{
    LoadedFile f;
    f.path = QFileInfo(path).absoluteFilePath();
    core::OpenOptions options;
    options.forceReader = forceReader;
    options.diagnosticName = toStd(QFileInfo(path).fileName());
    // The window shows one choice per bodygroup, where `check` and `info` merge them all.
    options.qcView = core::OpenOptions::QcView{qcView.choices, qcView.skin, qcView.lod};
    core::OpenedInput in = core::openInput(toStd(f.path), options);
    f.bytes = qint64(in.bytes);
    f.loadMs = in.loadMs;
    f.qc = std::move(in.qc);
    f.compiled = std::move(in.compiled);
    if (!in.readable) {
        // The reason alone (the Files dock and the status bar name the file already).
        f.error = toQString(in.failure.message);
        // The failure is a problem of the file like any other: Problems lists it.
        f.readerDiagnostics.push_back(std::move(in.failure));
        return f;
    }
    f.readerDiagnostics = std::move(in.result.diagnostics);
    if (in.result.hasModel) {
        f.model = std::make_shared<const core::Model>(std::move(in.result.model));
        if (f.model->format == "dmx" && !f.qc) {
            QFile file(f.path);
            if (file.open(QIODevice::ReadOnly)) {
                const QByteArray bytes = file.readAll();
                f.dmxEyes = core::dmxEyeballs(
                    std::string_view(bytes.constData(), std::size_t(bytes.size())),
                    f.model->skeleton);
            }
        }
    } else if (f.qc) {
        f.error = QObject::tr("no body of the QC project could be read");
    } else {
        f.error = f.readerDiagnostics.empty() ? QStringLiteral("unreadable file")
                                              : toQString(f.readerDiagnostics.front().message);
    }
    render::timingMark("file read");
    return f;
}

namespace {

// The document's files as core's scene sees them: opened together, so all named.
template <class Files> std::vector<core::SceneSource> sceneSourcesOf(const Files& files)
{
    std::vector<core::SceneSource> scene;
    scene.reserve(files.size());
    for (const auto& f : files) {
        scene.push_back({toStd(f.path), f.model, {}});
    }
    return scene;
}

// core::chooseReference on the document's files.
template <class Files> int primaryOf(const Files& files)
{
    return core::chooseReference(sceneSourcesOf(files));
}

// A QC project's checks as `rigscope-cli check X.qc` gives them (the QC's own, the merged
// model's budgets at $modelname, every file of the project with its own lines), in one list
// filed under the QC. Their elements index the models `check` read (every bodygroup choice
// merged, or one component file), not the model shown, so they select nothing; but a joint the
// QC's own finding names (qc.case-variant-bone: the bone the line lands on) selects the bone of
// that name in `shown`.
core::CheckedFile checkedQcProject(const core::QcReport& qc, const core::Model* shown,
                                   const core::CheckOptions& opt)
{
    std::vector<core::CheckedFile> parts = core::checkQcReport(qc, opt);
    core::CheckedFile out = std::move(parts.front());
    for (std::size_t i = 0; i < out.diagnostics.size(); ++i) {
        const std::string name = i < out.objectNames.size() ? out.objectNames[i] : std::string();
        const core::JointIndex j =
            shown && !name.empty() ? shown->skeleton.findByName(name) : core::kNoJoint;
        out.diagnostics[i].element = j == core::kNoJoint
                                         ? core::ElementRef{}
                                         : core::ElementRef{core::ElementRef::Kind::Joint, j};
    }
    for (std::size_t k = 1; k < parts.size(); ++k) {
        for (core::Diagnostic& d : parts[k].diagnostics) {
            if (d.file.empty()) {
                d.file = parts[k].file;
            }
            d.element = {};
            out.diagnostics.push_back(std::move(d));
        }
    }
    return out;
}

} // namespace

int primaryFileIndex(const std::vector<LoadedFile>& files)
{
    return primaryOf(files);
}

std::vector<FileChecks> checkInputs(const std::vector<CheckInput>& files, core::Profile profile,
                                    const QStringList& materialRoots,
                                    const std::function<bool()>& canceled)
{
    std::vector<FileChecks> out(files.size());
    // Each file is checked against its own reference (core::pairReferences), as `check` does.
    const std::vector<int> pairs = core::pairReferences(sceneSourcesOf(files));
    core::CheckOptions opt;
    opt.profile = profile;
    for (const QString& r : materialRoots) {
        opt.materialRoots.push_back(toStd(r)); // the viewport's roots: one lookup
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (canceled && canceled()) {
            return out;
        }
        const CheckInput& f = files[i];
        if (!f.model && f.readerDiagnostics.empty()) {
            continue; // I/O failure: nothing to check
        }
        const CheckInput* ref = pairs[i] >= 0 ? &files[std::size_t(pairs[i])] : nullptr;
        const core::Model* reference = ref ? ref->model.get() : nullptr;
        // A QC project: what `rigscope-cli check X.qc` reports, in one list.
        core::CheckedFile c =
            f.qc
                ? checkedQcProject(*f.qc, f.model.get(), opt)
                : core::checkModel(toStd(f.path), f.model.get(), f.readerDiagnostics, reference,
                                   ref ? toStd(ref->path) : std::string(),
                                   f.compiled ? core::compiledCheckOptions(opt, *f.compiled) : opt);
        out[i] = {std::move(c.diagnostics), std::move(c.budget), c.profile, c.guessed};
    }
    return out;
}

void checkFiles(std::vector<LoadedFile>& files, core::Profile profile,
                const QStringList& materialRoots)
{
    std::vector<CheckInput> inputs;
    inputs.reserve(files.size());
    for (const LoadedFile& f : files) {
        inputs.push_back({f.path, f.model, f.readerDiagnostics, f.qc, f.compiled});
    }
    std::vector<FileChecks> checks = checkInputs(inputs, profile, materialRoots);
    for (std::size_t i = 0; i < files.size(); ++i) {
        LoadedFile& f = files[i];
        if (!f.model && f.readerDiagnostics.empty()) {
            continue;
        }
        f.diagnostics = std::move(checks[i].diagnostics);
        f.budget = std::move(checks[i].budget);
        f.profile = checks[i].profile;
        f.guessed = checks[i].guessed;
    }
}

core::Profile expectedProfile(const std::vector<LoadedFile>& files, std::size_t i,
                              core::Profile requested)
{
    if (requested != core::Profile::Auto) {
        return requested;
    }
    const int primary = primaryFileIndex(files);
    const LoadedFile* ref =
        primary >= 0 && std::size_t(primary) != i &&
                files[std::size_t(primary)].model->kind == core::ModelKind::Reference
            ? &files[std::size_t(primary)]
            : nullptr;
    if (ref) {
        return core::resolveProfile(*ref->model, core::Profile::Auto);
    }
    if (files[i].model) {
        return core::resolveProfile(*files[i].model, core::Profile::Auto);
    }
    return files[i].profile;
}

} // namespace rigscope::app
