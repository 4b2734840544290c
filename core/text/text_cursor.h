#pragma once

#include <cstdint>
#include <string_view>

#include "core/text/source_loc.h"

namespace rigscope::core {

// Walks a text buffer line by line. Accepts LF, CRLF and bare CR. Lines never include their
// terminator. Tokens never cross lines. Tracks counts of each ending for syntax.line-ending.
class TextCursor {
public:
    explicit TextCursor(std::string_view text) noexcept : m_text(text) {}

    // Fetches the next line into `line`; false at end of buffer.
    bool nextLine(std::string_view& line) noexcept;
    std::uint32_t lineNumber() const noexcept { return m_line; } // of the last line returned
    std::uint64_t lineOffset() const noexcept { return m_lineStart; }
    bool atEnd() const noexcept { return m_pos >= m_text.size(); }
    // Rewinds so that the last returned line is returned again by nextLine().
    void unread() noexcept;
    // Byte offset of the next line's start.
    std::size_t position() const noexcept { return m_pos; }
    // Moves past `lines` complete lines a reader's fast path consumed itself, ending at `pos`
    // (a line start), with their endings (`lf` + `crlf` == `lines`). unread() cannot go back
    // over them.
    void skipTo(std::size_t pos, std::uint32_t lines, std::uint64_t lf, std::uint64_t crlf) noexcept
    {
        m_pos = m_prevPos = pos;
        m_line += lines;
        lfCount += lf;
        crlfCount += crlf;
    }

    std::uint64_t lfCount = 0, crlfCount = 0, crCount = 0;
    bool lastLineTerminated = true;

    // Column (1-based) of `tok`, which must view into `line`.
    static std::uint32_t columnOf(std::string_view line, std::string_view tok) noexcept
    {
        return static_cast<std::uint32_t>(tok.data() - line.data()) + 1;
    }
    SourceLoc loc(std::string_view line, std::string_view tok) const noexcept
    {
        return {m_line, columnOf(line, tok),
                m_lineStart + static_cast<std::uint64_t>(tok.data() - line.data())};
    }
    SourceLoc lineLoc(std::string_view line) const noexcept; // first non-blank column

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_prevPos = 0;
    bool m_crScanned = false;
    std::size_t m_nextCr = 0; // position of the next '\r' at or after the line start (or size)
    std::uint32_t m_line = 0;
    std::uint64_t m_lineStart = 0;
};

inline bool isBlank(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}
std::string_view trim(std::string_view s) noexcept;

// Splits on runs of blanks (and optionally commas), with "…" strings as one token (quotes
// kept). Returns the number of tokens written (at most maxTokens); `more` tells whether more
// tokens followed. `unterminated` is set when a quote is not closed.
struct Tokenizer {
    static std::size_t split(std::string_view line, std::string_view* out, std::size_t maxTokens,
                             bool commas, bool* more = nullptr,
                             bool* unterminated = nullptr) noexcept;
};

// Number of '\n' bytes, eight at a time.
std::size_t countNewlines(std::string_view text) noexcept;

// Removes surrounding quotes when present.
std::string_view unquote(std::string_view tok) noexcept;
bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept;

} // namespace rigscope::core
