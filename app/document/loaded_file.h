#pragma once

// One file of a document (app/document/document.h): reading it through core::openInput and
// checking it as `rigscope-cli check` does. Runs on worker threads; nothing here touches a
// widget.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QtCore/QString>
#include <QtCore/QStringList>

#include "core/checks/registry.h"
#include "core/diag/profile.h"
#include "core/formats/dmx/dmx_eyes.h"
#include "core/formats/registry.h"

namespace rigscope::core {
struct QcReport;
struct CompiledModelInfo;
} // namespace rigscope::core

namespace rigscope::app {

// What of a QC project the document shows (issue 17): one choice per bodygroup (-1 = none)
// and the skin row. A compiled model (issue 29): one model per bodypart, the skin family and
// the .vtx LOD.
struct QcView {
    std::vector<int> choices;
    int skin = 0;
    int lod = 0; // 0: the models as written; N: the Nth $lod's replacement models (.vtx LOD N)
    bool operator==(const QcView&) const = default;
};

// One file of a document: the model as read plus its diagnostics.
struct LoadedFile {
    QString path;
    std::shared_ptr<const core::Model> model;        // null when the file could not be read
    std::vector<core::Diagnostic> readerDiagnostics; // as the reader returned them
    // Reader diagnostics plus every check (CHECKS.md) for `profile`, graded, in file order.
    // Empty while the Document's checks of this file run (Document::isChecking()).
    std::vector<core::Diagnostic> diagnostics;
    std::vector<core::BudgetMeter> budget; // CHECKS.md §3 meters (VTA: against the reference)
    // The profile it was checked with; while the first checks run, the one they will use.
    core::Profile profile = core::Profile::Source;
    bool guessed = true; // profile came from `auto`
    QString error;       // I/O or format failure
    // A QC project (issue 17): the script, its files and the compiled model shown as `model`.
    std::shared_ptr<const core::QcReport> qc;
    // A compiled model (.mdl, issue 29): its bodyparts, skins, sequences, hitboxes, ...
    std::shared_ptr<const core::CompiledModelInfo> compiled;
    // A DMX model's DmeEyeballs (issue 32; studiomdl ignores them, the window draws them).
    std::vector<core::DmxEyeball> dmxEyes;
    qint64 bytes = 0;
    double loadMs = 0;
};

// What the checks of one file need; the model is shared, so a check outlives a newer load.
struct CheckInput {
    QString path;
    std::shared_ptr<const core::Model> model;
    std::vector<core::Diagnostic> readerDiagnostics;
    std::shared_ptr<const core::QcReport> qc;                // a QC project: its $cdmaterials
    std::shared_ptr<const core::CompiledModelInfo> compiled; // a .mdl: its $cdmaterials
};

// What one file's checks give.
struct FileChecks {
    std::vector<core::Diagnostic> diagnostics;
    std::vector<core::BudgetMeter> budget;
    core::Profile profile = core::Profile::Source;
    bool guessed = true;
};

// Reads one file through core::openInput, as every CLI verb does (any supported format;
// `forceReader`, a reader id or extension as the CLI's --force-reader takes, reads it with that
// reader whatever its content; a QC project shows `qcView`). Runs on worker threads.
LoadedFile loadFile(const QString& path, const QcView& qcView = {},
                    const std::string& forceReader = {});
// The file a document shows: core::chooseReference (the first reference, else the first
// readable file; -1: none).
int primaryFileIndex(const std::vector<LoadedFile>& files);
// Runs the checks on every file (non-primary files against the primary): fills diagnostics,
// budget, profile. Thread-safe on its own files.
void checkFiles(std::vector<LoadedFile>& files, core::Profile profile,
                const QStringList& materialRoots = {});

// The checks of every input (non-primary files against the primary), one result per input
// (empty for an I/O failure). `canceled` is asked between files; a canceled run returns what it
// has.
std::vector<FileChecks> checkInputs(const std::vector<CheckInput>& inputs, core::Profile profile,
                                    const QStringList& materialRoots,
                                    const std::function<bool()>& canceled = {});
// The profile checkModel will use for files[i] (CheckedFile::profile), without checking.
core::Profile expectedProfile(const std::vector<LoadedFile>& files, std::size_t i,
                              core::Profile requested);

} // namespace rigscope::app
