#pragma once

// Options every rigscope-cli verb takes (UX.md "Command line"): --verbose=LEVEL, --color=WHEN,
// --force-reader=FMT; and how diagnostics reach stderr under them.
#include <cstdio>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

#include "core/diag/diagnostic.h"

namespace rigscope::cli {

// What reaches stderr: quiet = nothing but usage and I/O errors; error / warning / info
// (notes too) = diagnostics of that severity and above; debug = info plus what the verb did.
enum class Verbosity { Quiet, Error, Warning, Info, Debug };

struct CommonOptions {
    Verbosity verbosity = Verbosity::Info;
    enum class When { Auto, Always, Never } colorWhen = When::Auto;
    bool color = false; // for stderr: always, or auto and stderr is a terminal (NO_COLOR unset)
    std::string forceReader; // a FormatInfo id; empty = by content
};

// Adds --verbose, --color and --force-reader to `p`.
void addCommonOptions(QCommandLineParser& p);
// Reads them after p.parse(); false (message printed to stderr) on a bad value: exit 2.
bool readCommonOptions(const QCommandLineParser& p, const char* verb, CommonOptions& out);

// --color for another stream (check's text report on stdout).
bool useColor(const CommonOptions& o, std::FILE* stream) noexcept;
// Whether a diagnostic of severity `s` is printed at this verbosity.
bool shows(const CommonOptions& o, core::Severity s) noexcept;
// `FILE:LINE:COL: severity: message [id]` plus related notes, coloured like GCC when asked.
std::string formatForTerminal(const core::Diagnostic& d, bool color);
// Prints the diagnostics that `shows` lets through to `to`.
void printDiagnostics(const std::vector<core::Diagnostic>& diags, const CommonOptions& o,
                      std::FILE* to = stderr);
// Colours the "error:" / "warning:" / "note:" word of formatted diagnostic lines in `text`
// (check's text output on stdout follows --color too).
std::string colorizeLines(const std::string& text);

} // namespace rigscope::cli
