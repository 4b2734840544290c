#pragma once

#include <cstdint>

namespace rigscope::core {

// Where an element was read from. Text: 1-based line and byte column (0 = unknown).
// Binary: `offset` is the 0-based byte offset and `line` is 0.
struct SourceLoc {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint64_t offset = 0;
    bool operator==(const SourceLoc&) const = default;
};

} // namespace rigscope::core
