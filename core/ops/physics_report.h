#pragma once

// The predicted physics model of a QC (core/physics) as `info X.qc` and `physics X.qc` print
// it. The summary keys are those `info X.mdl` prints for a compiled `.phy`
// (compiled_report.cpp: solids, convexPieces, mass, constraints, bodies [name, pieces, mass,
// surfaceProp]), so the two can be compared.

#include <string>

#include "core/ops/qc_ops.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

// The surface property studiomdl writes for a solid: `$jointsurfaceprop BONE PROP`, else the
// last `$surfaceprop`, else "default".
std::string physicsSurfaceProp(const QcProject& project, const std::string& solid);

// `physics` of `info X.qc --json`: the summary (detailed = false), or with every solid's
// parent, volume, damping, inertia and pieces, the constraints and the settings (`physics`).
void writePhysicsJson(JsonWriter& w, const QcReport& r, bool detailed);

// `rigscope-cli physics X.qc --json`: one object (file, physics in detail, the phys.* checks).
std::string physicsJson(const QcReport& r, const std::vector<Diagnostic>& diagnostics);
// Its text form: solids, pieces, masses and joint limits.
std::string physicsText(const QcReport& r);

} // namespace rigscope::core
