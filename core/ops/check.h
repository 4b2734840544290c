#pragma once

#include <string>
#include <vector>

#include "core/checks/registry.h"
#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/formats/registry.h"
#include "core/materials/material_lookup.h"

namespace rigscope::core {

// `rigscope-cli check` (CHECKS.md §1), shared with the GUI's headless mode.
struct CheckOptions {
    Profile profile = Profile::Auto;
    CheckFilter filter;           // --enable / --disable
    std::size_t maxPerCheck = 20; // text output: lines per id per file (0 = all)
    std::string reference;        // --reference; empty: discovered per folder
    bool werror = false;
    unsigned jobs = 0; // worker threads; 0 = hardware concurrency
    // material.* checks (issue 18): --materials DIR roots, then those found above each model
    std::vector<std::string> materialRoots;
    bool discoverMaterialRoots = true;
    // A QC project's $cdmaterials folders: materials are looked up under them, as the engine
    // does (materialsFromQc); without a QC, by name alone.
    std::vector<std::string> cdMaterials;
    bool materialsFromQc = false;
    std::string forceReader; // --force-reader: a FormatInfo id; empty = by content
};

struct CheckedFile {
    std::string file;      // as given (or as found under a given directory)
    bool readable = false; // false: I/O failure or unknown format
    std::string ioError;
    std::string format;
    ModelKind kind = ModelKind::Unknown;
    Profile profile = Profile::Source; // the profile it was checked with
    bool guessed = true;
    std::string reference;                // reference used for xref.* (empty: none)
    std::vector<Diagnostic> diagnostics;  // graded, in file order
    std::vector<std::string> objectNames; // per diagnostic: bone / material / shape name
    std::vector<BudgetMeter> budget;
    std::size_t warningsAsErrors = 0; // --werror promotions
};

struct CheckRun {
    std::vector<CheckedFile> files;
    std::vector<std::string> inputErrors; // paths that do not exist or cannot be listed
    std::size_t errors = 0, warnings = 0, notes = 0;
    std::size_t warningsAsErrors = 0; // --werror: included in `errors`
    bool ioFailure = false;
    Profile requested = Profile::Auto;
};

// The material roots for a model: opt.materialRoots, then those found above it (no QC: by name).
MaterialQuery materialQueryFor(const std::string& modelFile, const CheckOptions& opt);

struct CompiledModelInfo;
// `opt` for a compiled model: its materials are looked up under the $cdmaterials folders the
// .mdl stores, as the engine does (check, info and the window).
CheckOptions compiledCheckOptions(CheckOptions opt, const CompiledModelInfo& compiled);

// Files named, plus the model files found under named directories (recursive, sorted).
std::vector<std::string> expandCheckInputs(const std::vector<std::string>& paths,
                                           std::vector<std::string>& errors);

// One file of a document, already read (the GUI's entry point): reader diagnostics plus every
// check for the profile (`opt.profile`, or under auto the reference's / the file's own),
// graded, in file order, with budget meters. `reference` may be null.
CheckedFile checkReadResult(const std::string& file, const ReadResult& result,
                            const Model* reference, const std::string& referenceFile,
                            const CheckOptions& opt);
// The same for a model kept elsewhere (the GUI re-checks under another profile without
// copying it): `model` null = nothing readable; `readerDiagnostics` as the reader returned them.
CheckedFile checkModel(const std::string& file, const Model* model,
                       const std::vector<Diagnostic>& readerDiagnostics, const Model* reference,
                       const std::string& referenceFile, const CheckOptions& opt);

// Reads and checks every input (in parallel); files of one folder form a document with the
// reference given or found there (an animation / VTA gets the folder's reference with its stem,
// else the one sharing most of its bones, if it shares any: docs/cli.md "Which reference").
// `results`, when given, receives each file's ReadResult (moved out, in `files` order) so a
// caller (`info`) summarises the models it checked without reading them again.
CheckRun runCheck(const std::vector<std::string>& paths, const CheckOptions& options,
                  std::vector<ReadResult>* results = nullptr);

// Text: `FILE:LINE:COL: severity: message [id]`, related notes, and per id per file at most
// maxPerCheck lines followed by "note: … and N more [id]".
std::string checkText(const CheckRun& run, const CheckOptions& options);
// "2 errors, 14 warnings, 3 notes in 4 files (profile source)"
std::string checkSummary(const CheckRun& run);
std::string checkJson(const CheckRun& run);
std::string checkSarif(const CheckRun& run);
// 0 clean, 1 errors (warnings too with --werror), 2 I/O failure.
int checkExitCode(const CheckRun& run) noexcept;

} // namespace rigscope::core
