#pragma once

// `rigscope-cli compare PROJECT.qc COMPILED.mdl` (issue 30): what the QC compile predicts
// (core::compileQc) set against what studiomdl wrote (core::openInput's compiled model). Both
// sides are CompiledModelInfo, written with the keys of `info --json` (compiled_report.h); the
// differences name the field, both values and a verdict: `stale` when the compiled model is
// older than a file of the project or a companion's checksum is not the .mdl's (the prediction
// is not to blame), else `differs`. docs/cli.md "compare" describes the fields.

#include <array>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/formats/mdl/compiled_model.h"

namespace rigscope::core {

struct QcReport;

struct CompareOptions {
    Profile profile = Profile::Auto;
    // Leave file times out of the staleness test (a git checkout gives every file the time of
    // the checkout, so a source may look newer than the model built from it).
    bool ignoreTimestamps = false;
};

struct CompareDifference {
    std::string field; // "bones", "bodyparts[0].models[1].vertices", "sequences[2].fps", ...
    std::string predicted;
    std::string compiled;
    bool stale = false; // verdict `stale` (else `differs`)
    // Verdict `vphysics` (when not stale): the hull differs only on sides the collision model
    // sets, each by no more than IVP's merge distance (kVphysicsHullTolerance). vphysics.dll
    // picks which of the collision mesh's hull corners the .phy keeps by roundoff, and the
    // public IVP source built here does not pick the same ones (docs/compiled.md), so no
    // prediction can give them; not the prediction's fault, and not counted as one.
    bool vphysics = false;
};

// IVP's merge distance, 0.01 m, in inches (vphysics' 39.37 per metre).
inline constexpr float kVphysicsHullTolerance = 0.3937f;

// Hull sides (min x y z, max x y z) that the collision model's grown corners set in a
// prediction, beyond the bodies, hitboxes and bones.
using HullSides = std::array<bool, 6>;

// Whether `predicted`'s hull differs from `compiled`'s only where `fromCollision` says the
// collision model set the side, each side by at most kVphysicsHullTolerance, and somewhere by
// more than compare's 1e-3.
bool hullWithinVphysicsRounding(const CompiledModelInfo& predicted,
                                const CompiledModelInfo& compiled, const HullSides& fromCollision);

struct CompareReport {
    std::string qcPath, mdlPath;
    // False: a file could not be read as what it should be (`error` says why; exit code 2).
    bool ok = false;
    std::string error;
    CompiledModelInfo predicted;
    CompiledModelInfo compiled;
    // Why the compiled model is stale: "'ref.smd' is newer than the .mdl", "the .vvd's
    // checksum ... is not the .mdl's ...". Empty: not stale.
    std::vector<std::string> staleReasons;
    std::vector<CompareDifference> differences;
    // What could not be compared, and why: a Pathos model's vertices, triangles, materials and
    // skins are in its .vbm, which RigScope does not read.
    std::vector<std::string> notCompared;
    // The compiled model's reader diagnostics (checksums, truncation) and the QC's errors.
    std::vector<Diagnostic> diagnostics;
};

// The prediction of a QC report as a compiled model's figures: kept bones, bodyparts with each
// model's welded vertex and triangle counts, materials and skin families, sequences,
// attachments, hitboxes (given, else generated), $illumposition, $bbox, collision solids.
// `version`: the .mdl version of the studiomdl predicted (0: SDK 2013's, as 48/49). The one of
// version 44 welds a $staticprop's vertices after moving them onto its one bone, and joins LOD
// vertices with wider tolerances (0.05, 0.1 in UV, 60°) unless `narrowLodWeld`: some version
// 44 models were built by a studiomdl with SDK 2013's (compareQcToCompiled tells them by their
// .vvd).
// `hullFromCollision`, when given, receives the hull sides the collision model set.
CompiledModelInfo predictCompiled(const QcReport& r, std::int32_t version = 0,
                                  bool narrowLodWeld = false,
                                  HullSides* hullFromCollision = nullptr);

// The differences of two models' figures (no staleness: every verdict `differs`).
std::vector<CompareDifference> compareCompiled(const CompiledModelInfo& predicted,
                                               const CompiledModelInfo& compiled);

CompareReport compareQcToCompiled(const std::string& qcPath, const std::string& mdlPath,
                                  const CompareOptions& options);

// {"qc", "mdl", "stale": [...], "predicted": {...}, "compiled": {...}, "differences": [...]}
std::string compareJson(const CompareReport& r);
// One line per difference ("FIELD: predicted P, compiled C [stale]", "[vphysics]") and a
// summary line.
std::string compareText(const CompareReport& r);
// 0: no difference but stale or vphysics ones; 1: a difference the prediction is to blame for;
// 2: a file could not be read.
int compareExitCode(const CompareReport& r) noexcept;

} // namespace rigscope::core
