#pragma once

#include <string>
#include <vector>

#include "core/checks/materials.h"
#include "core/ops/check.h"
#include "core/text/json_writer.h"

namespace rigscope::core {

// `rigscope-cli info --materials` (issue 18): each material of a model as the engine would find
// it, from the lookup `check` uses (materialQueryFor: --materials roots, the roots found above
// the model, a QC's $cdmaterials). The Inspector's material rows show the same fields.
struct MaterialLookupReport {
    bool asked = false;        // --materials given
    bool sourceLookup = false; // a Source profile with at least one root (sourceMaterialLookup)
    Profile profile = Profile::Source;
    MaterialQuery query;
    std::vector<MaterialStatus> materials; // one per mesh material, in the model's order
};

MaterialLookupReport lookUpModelMaterials(const std::string& file, const Model& model,
                                          Profile profile, const CheckOptions& opt);
// Indented text lines, starting with "  material lookup: ...".
std::string materialLookupText(const MaterialLookupReport& r);
// The report as one JSON object (value position).
void writeMaterialLookupJson(JsonWriter& w, const MaterialLookupReport& r);

} // namespace rigscope::core
