#pragma once

#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/materials/material_lookup.h"
#include "core/model/model.h"

namespace rigscope::core {

// Largest texture side a profile's engine loads (material.texture-size).
std::uint32_t maxTextureSide(Profile profile) noexcept;
// Whether Source materials are looked up at all: a Source profile (or auto) and at least one
// root. The checks, `info --materials` and the viewer all ask this.
bool sourceMaterialLookup(const MaterialQuery& query, Profile profile) noexcept;

// The material.* checks (PROJECTS.md §4) for the material names a model uses plus `extraNames`
// (LOD models and $texturegroup skins of a QC): one material.missing per name (normalised,
// at the model's first use of it), the VMT's syntax errors and texture problems once per VMT.
// Source profiles only; nothing without roots. Returns what was found per name, in order.
std::vector<MaterialStatus> runMaterialChecks(const Model& model, const MaterialQuery& query,
                                              Profile profile, DiagnosticSink& sink,
                                              const std::vector<std::string>& extraNames = {});

} // namespace rigscope::core
