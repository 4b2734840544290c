#pragma once

#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"

namespace rigscope::core {

// Re-grades diagnostics with the catalog's severity for `profile` (CHECKS.md §4), removing the
// ones the profile turns off ("–"). Diagnostics with fixedSeverity keep theirs. With
// `guessed` (the profile came from `auto`), limit checks are capped at warning and say so.
void applyProfile(std::vector<Diagnostic>& diags, Profile profile, bool guessed = false);

} // namespace rigscope::core
