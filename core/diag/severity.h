#pragma once

#include <vector>

#include "core/diag/diagnostic.h"
#include "core/formats/profile.h"
#include "core/model/model.h"

namespace rigscope::core {

// CHECKS.md §2: the profile a file gets under `auto`. SMD/VTA/SMDX: goldsrc when every corner
// has exactly 9 fields and every material ends in .bmp (and there is a mesh); else source.
// XMODEL/XANIM/NT/*_BIN: cod. A concrete requested profile is returned unchanged.
Profile resolveProfile(const Model& m, Profile requested) noexcept;

// Re-grades diagnostics with the catalog's severity for `profile` (CHECKS.md §4), removing the
// ones the profile turns off ("–"). Diagnostics with fixedSeverity keep theirs. With
// `guessed` (the profile came from `auto`), limit checks are capped at warning and say so.
void applyProfile(std::vector<Diagnostic>& diags, Profile profile, bool guessed = false);

} // namespace rigscope::core
