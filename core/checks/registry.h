#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/limits.h"
#include "core/diag/profile.h"
#include "core/model/model.h"

namespace rigscope::core {

// One model-level check: a plain function over one file (HOUSE_STYLE §6).
using ModelCheckFn = void (*)(const Model&, const Profile&, DiagnosticSink&);
struct ModelCheck {
    std::string_view name;
    ModelCheckFn run;
};
std::span<const ModelCheck> modelChecks() noexcept;

// A document: one file checked against the reference it belongs to (xref.*, flex with a
// reference, cod.part-not-in-model). The sink is the checked file's.
struct SceneFile {
    const Model* model = nullptr;
    std::string file; // as given; used in related notes
};
using SceneCheckFn = void (*)(const SceneFile& self, const SceneFile& reference, const Profile&,
                              DiagnosticSink&);
struct SceneCheck {
    std::string_view name;
    SceneCheckFn run;
};
std::span<const SceneCheck> sceneChecks() noexcept;

// Findings kept per id by the checks (issue 27 item 10): runModelChecks and runSceneChecks cap
// a sink that has no cap yet (DiagnosticSink::setMaxPerId); the rest are counted in one
// "… and N more" row per id and severity, so counts stay exact. Text output prints fewer
// (--max-per-check), JSON lists the counted rest under "omitted".
inline constexpr std::size_t kCheckMaxPerId = 1000;

// Runs every model-level check on `m` (profile must be concrete) into `sink`. Ids the reader
// already reported in `readerDiagnostics` are dropped from the checks' output, so no id is
// reported twice for one file.
void runModelChecks(const Model& m, Profile profile, DiagnosticSink& sink,
                    const std::vector<Diagnostic>& readerDiagnostics = {});
void runSceneChecks(const SceneFile& self, const SceneFile& reference, Profile profile,
                    DiagnosticSink& sink, const std::vector<Diagnostic>& readerDiagnostics = {});

// `--enable` / `--disable` patterns ("weights.*", "mesh.vertex-limit") and the profile
// grading of CHECKS.md §4. Disabled ids are removed; ids the profile turns off ("–") are kept
// only when enabled (with the check's own severity); `guessed` caps limit checks (auto).
struct CheckFilter {
    std::vector<std::string> enable;
    std::vector<std::string> disable;
};
bool matchesIdPattern(std::string_view id, std::string_view pattern) noexcept;
void gradeDiagnostics(std::vector<Diagnostic>& diags, Profile profile, bool guessed,
                      const CheckFilter& filter);

// Budget meters (CHECKS.md §3): used / limit for the profile; the GUI shows them.
struct BudgetMeter {
    std::string_view name; // "bones", "materials", "vertices", "flexed vertices"
    std::size_t used = 0;
    std::size_t limit = 0;   // 0 = no limit for this profile
    bool overIsNote = false; // over the limit is a note for this profile, not an error
};
// `flex` (optional) is a VTA attached to `m` (the reference), for the flexed-vertex meter.
std::vector<BudgetMeter> budgetMeters(const Model& m, Profile profile, const Model* flex = nullptr);

} // namespace rigscope::core

namespace rigscope::core {
// The catalog's "Fix" column for `id` (empty when it has none).
std::string_view fixHint(std::string_view id) noexcept;
} // namespace rigscope::core
