#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/model/model.h"

namespace rigscope::core {

struct ReadContext {
    std::string fileName; // as given by the user; used in diagnostics
    Profile profile = Profile::Auto;
    // Tuning, for tests and benchmarks; results never depend on it. `threads`: threads a reader
    // may use for one large block (0 = one per core); a block is split only into shares of at
    // least `parallelMinBytes`. `fastPaths` = false reads every line through the general path.
    unsigned threads = 0;
    std::size_t parallelMinBytes = std::size_t(4) << 20;
    bool fastPaths = true;
};

// How a reader went about it (for benchmarks and tests; the model never depends on it).
struct ReadStats {
    std::uint64_t fastLines = 0;      // lines read by a fast path
    std::uint32_t parallelShares = 0; // shares of one block read on threads and kept (0 or >= 2)
};

struct ReadResult {
    Model model;
    bool hasModel = false; // false when nothing usable was read (empty file, bad magic)
    std::vector<Diagnostic> diagnostics;
    ReadStats stats;
    bool hasErrors() const noexcept { return countSeverity(diagnostics, Severity::Error) > 0; }
};

struct WriteContext {
    std::string fileName; // target name, for diagnostics
};

struct WriteResult {
    std::string bytes;
    std::vector<Diagnostic> diagnostics; // loss notes/warnings; an error means nothing usable
    bool ok() const noexcept { return countSeverity(diagnostics, Severity::Error) == 0; }
};

// One row per format. Formats are a table, not static registration.
struct FormatInfo {
    std::string_view id;                          // "smd"
    std::string_view name;                        // "Valve SMD"
    std::span<const std::string_view> extensions; // lower case, without dot
    int (*sniff)(std::string_view head) noexcept; // 0..100
    ReadResult (*read)(std::string_view bytes, const ReadContext& ctx);
    WriteResult (*write)(const Model& m, const WriteContext& ctx); // nullptr = read-only
};

std::span<const FormatInfo> formats() noexcept;
const FormatInfo* formatById(std::string_view id) noexcept;
const FormatInfo* formatByExtension(std::string_view fileName) noexcept;

// Content beats extension (FORMATS.md §0). `extensionMismatch` is set when the content chose a
// different format than the extension did. nullptr when nothing fits.
const FormatInfo* detectFormat(std::string_view bytes, std::string_view fileName,
                               bool* extensionMismatch = nullptr) noexcept;

// Reads with `format`; bytes that are no text given to a text reader come back as one error,
// "not a model file: binary data", not as the reader's complaints about them.
ReadResult readWith(const FormatInfo& format, std::string_view bytes, const ReadContext& ctx);
// Detects, reads (readWith) and adds syntax.ext-mismatch. Unknown format: hasModel false and an
// error.
ReadResult readAny(std::string_view bytes, const ReadContext& ctx);

} // namespace rigscope::core
