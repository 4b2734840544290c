#pragma once

// What each diagnostic id means, in the project's words: `rigscope-cli check --explain ID`,
// `--list-checks`, F1 in the Problems dock, the SARIF rule help and docs/checks.md (generated:
// `cmake --build build -t checks_md`) all read this one table. tst_check_catalog fails when an
// id of diagnostic_ids.h has no row, a row has an empty field, or docs/checks.md is stale.
//
// Writing a row (core/diag/check_explanations.cpp), for an id `family.name`:
// - Rows of a new family go in ONE block at the END of the table, opened by a comment line
//   `// ---- <family>.* (issue N) ----`, like diagnostic_ids.h/.cpp.
// - Every field is plain UTF-8 text; `backticks` mark file content, options and ids (kept in
//   the terminal, code spans in Markdown). Paragraphs are separated by "\n\n"; no other
//   markup, no tables, no HTML, no trailing newline.
// - summary: ONE line, at most 90 characters, lower-case start, no final period: what is wrong
//   ("a bone id is declared twice with a different name or parent").
// - meaning: when it fires, precisely (thresholds, which lines), 1-3 sentences.
// - why: what the compiler or the next tool does with it: refuses, crashes, silently changes.
// - limits: the limit per profile and where it comes from (the SDK file, constant or observed
//   behaviour), or why no number applies ("no limit: any occurrence; same in every profile").
// - example: a few verbatim input lines that fire it, '\n' between lines (no indentation
//   markup; the renderers indent / fence it). Keep it under 8 lines.
// - fix: what the user does about it, imperative ("quote the bone name in the exporter").
// Severities per profile stay in the catalog rows of diagnostic_ids.cpp (CatalogEntry).

#include <span>
#include <string_view>

namespace rigscope::core {

struct CheckExplanation {
    std::string_view id;
    std::string_view summary; // one line: --list-checks, SARIF shortDescription
    std::string_view meaning; // when it fires: SARIF fullDescription
    std::string_view why;     // what the compiler refuses, crashes on or silently changes
    std::string_view limits;  // the limit and its source per profile
    std::string_view example; // verbatim input lines that fire it
    std::string_view fix;     // how to fix it
};

std::span<const CheckExplanation> checkExplanations() noexcept;
const CheckExplanation* findExplanation(std::string_view id) noexcept;

} // namespace rigscope::core
