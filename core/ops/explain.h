#pragma once

// The check catalog for people: `rigscope-cli check --list-checks` / `--explain ID`, the
// Problems dock's explanation, SARIF rule help and docs/checks.md. Everything is rendered from
// the catalog rows (diagnostic_ids.cpp) and the explanations (check_explanations.cpp).

#include <string>
#include <string_view>
#include <vector>

namespace rigscope::core {

// Where docs/checks.md is published; each id has an anchor named after it.
inline constexpr std::string_view kChecksDocUrl =
    "https://github.com/rigscope/rigscope/blob/main/docs/checks.md";
std::string checkHelpUri(std::string_view id); // kChecksDocUrl + "#" + id

std::string_view checkFamily(std::string_view id) noexcept; // "weights" for weights.nan

// "E/W/W/–"-style letters for goldsrc/source/source256/cod ("-" for off), or the words
// ("goldsrc error, source warning, …") when `words`.
std::string severityLetters(std::string_view id);
std::string severityWords(std::string_view id);

// `--explain ID`: what it means, why the compiler cares, limits, example, fix, the docs link.
// Lines are wrapped at 80 columns. Empty when the id is unknown.
std::string explainText(std::string_view id);
// The same as Markdown (SARIF help.markdown; one section of docs/checks.md without its
// heading). Empty when the id is unknown.
std::string explainMarkdown(std::string_view id);

// `--list-checks`: one line per id (id, family, severity per profile, summary).
std::string listChecksText();
// `--list-checks --format=json`: [{id, family, severity{goldsrc…}, summary, helpUri}].
std::string listChecksJson();
// docs/checks.md, whole (`--list-checks --format=markdown`).
std::string checksMarkdown();

// Known ids closest to an unknown one (edit distance, then shared family), best first.
std::vector<std::string_view> closestCheckIds(std::string_view unknown, std::size_t max = 3);

} // namespace rigscope::core
