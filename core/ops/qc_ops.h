#pragma once

#include <string>
#include <vector>

#include "core/ops/check.h"
#include "core/ops/material_report.h"
#include "core/physics/physics_model.h"
#include "core/project/qc_compile.h"
#include "core/project/qc_resolve.h"
#include "core/project/qc_textures.h"

namespace rigscope::core {

// A QC project read, resolved and compiled: what `info X.qc`, `check X.qc` and the GUI show.
struct QcReport {
    std::string file;
    bool readable = false;
    std::string ioError;
    QcProject project;
    QcCompiled compiled;
    // The collision model studiomdl will build ($collisionmodel / $collisionjoints); its phys.*
    // findings are checks (checkQcReport), not part of `diagnostics`.
    PhysicsModel physics;
    // The face (core/pose/qc_flex.h): controllers, rules, shape keys and eyes; its flex.*
    // findings are in `diagnostics`.
    QcFlexRig flex;
    // GoldSrc / Afterburner: the textures studiomdl reads and where they are (qc_textures.h);
    // the viewer draws these files.
    std::vector<QcTexture> textures;
    Profile profile = Profile::Source; // resolved
    // Reading, resolution and project checks (qc.*), graded for the profile, in script order.
    std::vector<Diagnostic> diagnostics;
    std::size_t errors = 0, warnings = 0, notes = 0;
};

QcReport qcReportFromFile(const std::string& path, Profile requested);
// The same through any file system (tests).
QcReport qcReport(const std::string& path, Profile requested, QcFileSystem& fs);

// The folders under materials/ where the compiled model's materials are looked up, in order, as
// studiomdl's SetSkinValues sets them: the QC's $cdmaterials; then "" (materials/ itself) when a
// body or LOD file is a DMX, whose material names are paths; with neither, one folder of the
// model's own: the QC's absolute path from its first "models" (any case) on, without the file
// name, else models/<$modelname without its extension>/.
std::vector<std::string> qcMaterialFolders(const QcReport& r);

// `info X.qc` (issue 17 §6): the project and what `check X.qc` reports for it with the same
// options (one truth: the same counts and diagnostics), or with `--no-checks` the script's own
// findings (the reading, resolution and qc.* checks: QcReport::diagnostics).
struct QcInfo {
    QcReport report;
    bool checked = false;
    std::size_t errors = 0, warnings = 0, notes = 0;
    std::vector<Diagnostic> diagnostics; // every file's, graded, in `check`'s order
    // The QC's budget meters as `check X.qc` gives them (bones, materials, vertices: one count,
    // checks::weldStats); empty with --no-checks.
    std::vector<BudgetMeter> budget;
    bool hasMaterials = false; // --materials: the merged model's material lookup
    MaterialLookupReport materials;
};
// The totals of `check X.qc` (checkQcReport's files), for QcInfo.
void addCheckedFiles(QcInfo& info, std::vector<CheckedFile> files);

// `info X.qc`: one JSON object, and its text form.
std::string qcInfoJson(const QcInfo& info);
std::string qcInfoText(const QcInfo& info);

// `check X.qc`: the QC itself (qc.* diagnostics plus the merged model's budgets, located at
// $modelname), then every file of the project checked on its own (sequences against the
// merged model, for xref.*), each with its own file and lines.
std::vector<CheckedFile> checkQcProject(const std::string& path, const CheckOptions& opt);
// The same on a report already read (the viewer's): `r.file` names the QC.
std::vector<CheckedFile> checkQcReport(const QcReport& r, const CheckOptions& opt);

} // namespace rigscope::core
