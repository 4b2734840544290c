#pragma once

// The predicted physics model of a QC (core/physics) as `info X.qc` and `physics X.qc` print
// it. The summary keys are those `info X.mdl` prints for a compiled `.phy`
// (compiled_report.cpp: solids, convexPieces, mass, constraints, bodies [name, pieces, mass,
// surfaceProp]), so the two can be compared.

#include <string>

#include "core/ops/qc_ops.h"
#include "core/physics/drop_test.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

// The surface property studiomdl writes for a solid: `$jointsurfaceprop BONE PROP`, else the
// last `$surfaceprop`, else "default".
std::string physicsSurfaceProp(const QcProject& project, const std::string& solid);

// `physics` of `info X.qc --json`: the summary (detailed = false), or with every solid's
// parent, volume, damping, inertia and pieces, the constraints and the settings (`physics`).
void writePhysicsJson(JsonWriter& w, const QcReport& r, bool detailed);

// The drop test of a physics model (`physics X.qc --drop`, the window's Simulate ragdoll).
struct DropReport {
    DropInput input;
    DropOptions options;
    DropResult result;
    std::vector<Diagnostic> diagnostics; // phys.ragdoll-unstable, at the collision command
};
DropReport dropReport(const QcReport& r, const DropOptions& options = {});
// `drop` of `physics X.qc --json --drop` (docs/cli.md), and its text form.
void writeDropJson(JsonWriter& w, const DropReport& d);
std::string dropText(const DropReport& d);

// `rigscope-cli physics X.qc --json`: one object (file, physics in detail, the phys.* checks,
// with `drop` the drop test).
std::string physicsJson(const QcReport& r, const std::vector<Diagnostic>& diagnostics,
                        const DropReport* drop = nullptr);
// Its text form: solids, pieces, masses and joint limits.
std::string physicsText(const QcReport& r);

} // namespace rigscope::core
