#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/formats/qc/qc_project.h"

namespace rigscope::core {

// How the QC reader (and resolution) reach other files. The reader never touches the disk
// itself: DiskQcFileSystem (core/project/qc_resolve.h) goes through core/io/file_buffer, tests
// and fuzzers use MemoryQcFileSystem.
class QcFileSystem {
public:
    virtual ~QcFileSystem() = default;
    // Finds `relative` (either separator) under `dir` ("" = the working folder; ignored when
    // `relative` is absolute): the exact path first, else a case-insensitive match of each
    // component (`caseMismatch` set). Returns the path found, or "" when there is none.
    virtual std::string find(const std::string& dir, const std::string& relative,
                             bool& caseMismatch) = 0;
    // Reads a file found by find(); false (with `error`) when it cannot.
    virtual bool read(const std::string& path, std::string& bytes, std::string& error) = 0;
};

// Files held in memory, keyed by normalised path ("dir/a.qci").
class MemoryQcFileSystem final : public QcFileSystem {
public:
    std::map<std::string, std::string> files;
    std::string find(const std::string& dir, const std::string& relative,
                     bool& caseMismatch) override;
    bool read(const std::string& path, std::string& bytes, std::string& error) override;
};

// Hard limits against hostile scripts (issue 17 item 7). Hitting one is a located qc.limit
// error; reading goes on with what is left, or stops for the totals.
struct QcLimits {
    std::size_t maxTokenBytes = 64 * 1024; // one token, after variable expansion
    std::size_t maxTotalTokens = 1u << 18; // tokens read (per file and in all, macros expanded)
    std::uint32_t maxIncludeDepth = 32;
    std::uint32_t maxIncludes = 4096;            // $include files read in all
    std::uint64_t maxIncludeBytes = 64ull << 20; // bytes of included files in all
    std::uint32_t maxMacroDepth = 32;            // nested macro expansions
    std::uint32_t maxBlockDepth = 64;            // nested { }
};

struct QcReadOptions {
    std::string fileName;            // the .qc as given; used in diagnostics and for folders
    Profile profile = Profile::Auto; // Auto: GoldSrc when GoldSrc-only commands appear
    QcFileSystem* fs = nullptr;      // null: includes are reported missing
    QcLimits limits;
};

// Reads a studiomdl script: tokenizer, $include / $definevariable / $definemacro / $pushd /
// $popd / $cd, and every command of PROJECTS.md §1.3 with its file and line. Never throws on
// bad input; diagnostics go to QcProject::diagnostics. Files other than includes are listed in
// QcProject::files unresolved (see resolveQcFiles).
QcProject readQc(std::string_view bytes, const QcReadOptions& options);

// 0..100 for the registry's sniffers: a script whose first command is a studiomdl command.
int sniffQc(std::string_view head) noexcept;

// Path helpers shared with resolution: `\` becomes `/`, "." and "a/.." are folded.
std::string qcNormalisePath(std::string_view path);
std::string qcJoinPath(const std::string& dir, const std::string& relative);

} // namespace rigscope::core
