#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"

namespace rigscope::core {

// One KeyValues entry (Valve's text format used by VMT and gameinfo.txt): a key with either a
// string value or a block of children. Keys and values are kept as written (no escapes: VMT
// paths use backslashes); compare keys with equalsNoCase().
struct KvNode {
    std::string key;
    std::string value;
    bool block = false;
    std::string condition; // "[$X360]" after the value or block, as written (without brackets)
    std::vector<KvNode> children;
    SourceLoc where;      // the key
    SourceLoc valueWhere; // the value (or the opening brace)

    // First child whose key matches (case-insensitive), or nullptr.
    const KvNode* find(std::string_view childKey) const noexcept;
};

struct KvDocument {
    std::vector<KvNode> roots; // top-level entries (a VMT has one: the shader block)
};

// Parses KeyValues text. Syntax errors are reported to `sink` under `syntaxId` at their line
// and column; parsing goes on after an error with what could be read. Nesting deeper than 64
// levels is an error (no recursion on hostile input).
KvDocument parseKeyValues(std::span<const std::byte> bytes, DiagnosticSink& sink,
                          std::string_view syntaxId);

bool equalsNoCase(std::string_view a, std::string_view b) noexcept;
std::string toLowerAscii(std::string_view s);

// Evaluates a KeyValues platform condition ("$X360", "!$WIN32", "$WIN32 || $POSIX") as the PC
// Windows build of the engine does. Unknown names are false.
bool kvConditionHolds(std::string_view condition) noexcept;

} // namespace rigscope::core
