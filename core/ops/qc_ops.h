#pragma once

#include <string>
#include <vector>

#include "core/ops/check.h"
#include "core/ops/material_report.h"
#include "core/project/qc_compile.h"
#include "core/project/qc_resolve.h"

namespace rigscope::core {

// A QC project read, resolved and compiled: what `info X.qc`, `check X.qc` and the GUI show.
struct QcReport {
    std::string file;
    bool readable = false;
    std::string ioError;
    QcProject project;
    QcCompiled compiled;
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

// `info X.qc`: one JSON object (issue 17 §6), and its text form.
// `materials` (info --materials): the merged model's material lookup, added when given.
std::string qcInfoJson(const QcReport& r, const MaterialLookupReport* materials = nullptr);
std::string qcInfoText(const QcReport& r, const MaterialLookupReport* materials = nullptr);

// `check X.qc`: the QC itself (qc.* diagnostics plus the merged model's budgets, located at
// $modelname), then every file of the project checked on its own (sequences against the
// merged model, for xref.*), each with its own file and lines.
std::vector<CheckedFile> checkQcProject(const std::string& path, const CheckOptions& opt);
// The same on a report already read (the viewer's): `r.file` names the QC.
std::vector<CheckedFile> checkQcReport(const QcReport& r, const CheckOptions& opt);

} // namespace rigscope::core
