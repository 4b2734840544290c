#include "core/text/text_cursor.h"

#include <algorithm>
#include <cstring>

namespace rigscope::core {

bool TextCursor::nextLine(std::string_view& line) noexcept
{
    if (m_pos >= m_text.size()) {
        return false;
    }
    m_prevPos = m_pos;
    const std::size_t start = m_pos;
    const char* base = m_text.data();
    const std::size_t n = m_text.size();
    // memchr (vectorised) for both terminators; the next '\r' is cached, so LF-only files
    // search for it once and CRLF files once per line.
    if (!m_crScanned || m_nextCr < start) {
        m_crScanned = true;
        const void* cr = std::memchr(base + start, '\r', n - start);
        m_nextCr = cr ? static_cast<std::size_t>(static_cast<const char*>(cr) - base) : n;
    }
    const void* nl = std::memchr(base + start, '\n', std::min(n, m_nextCr) - start);
    const std::size_t i =
        nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - base) : std::min(n, m_nextCr);
    line = std::string_view(base + start, i - start);
    if (i >= n) {
        lastLineTerminated = false;
        m_pos = n;
    } else if (base[i] == '\r') {
        if (i + 1 < n && base[i + 1] == '\n') {
            ++crlfCount;
            m_pos = i + 2;
        } else {
            ++crCount;
            m_pos = i + 1;
        }
    } else {
        ++lfCount;
        m_pos = i + 1;
    }
    ++m_line;
    m_lineStart = start;
    return true;
}

void TextCursor::unread() noexcept
{
    // Counts of line endings are only used for statistics; the re-read line is not counted
    // twice because callers unread at most once per line and statistics tolerate it.
    if (m_line > 0) {
        m_pos = m_prevPos;
        --m_line;
    }
}

SourceLoc TextCursor::lineLoc(std::string_view line) const noexcept
{
    std::size_t i = 0;
    while (i < line.size() && isBlank(line[i])) {
        ++i;
    }
    if (i == line.size()) {
        i = 0;
    }
    return {m_line, static_cast<std::uint32_t>(i + 1), m_lineStart + i};
}

std::size_t countNewlines(std::string_view text) noexcept
{
    constexpr std::uint64_t kOnes = 0x0101010101010101ull;
    constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
    const char* p = text.data();
    const char* const e = p + text.size();
    std::size_t n = 0;
    for (; e - p >= 8; p += 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        w ^= kOnes * '\n'; // '\n' bytes become zero
        const std::uint64_t t =
            ((w & kLow7) + kLow7) | w; // high bit set where the byte is not zero
        n += static_cast<std::size_t>((((~t & ~kLow7) >> 7) * kOnes) >> 56); // sum of the flags
    }
    for (; p != e; ++p) {
        n += *p == '\n';
    }
    return n;
}

std::string_view trim(std::string_view s) noexcept
{
    while (!s.empty() && (isBlank(s.front()) || s.front() == '\r' || s.front() == '\n')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (isBlank(s.back()) || s.back() == '\r' || s.back() == '\n')) {
        s.remove_suffix(1);
    }
    return s;
}

std::size_t Tokenizer::split(std::string_view line, std::string_view* out, std::size_t maxTokens,
                             bool commas, bool* more, bool* unterminated) noexcept
{
    std::size_t count = 0;
    std::size_t i = 0;
    const std::size_t n = line.size();
    if (more) {
        *more = false;
    }
    if (unterminated) {
        *unterminated = false;
    }
    auto sep = [commas](char c) { return isBlank(c) || (commas && c == ','); };
    while (i < n) {
        while (i < n && sep(line[i])) {
            ++i;
        }
        if (i >= n) {
            break;
        }
        std::size_t start = i;
        if (line[i] == '"') {
            ++i;
            while (i < n && line[i] != '"') {
                ++i;
            }
            if (i >= n) {
                if (unterminated) {
                    *unterminated = true;
                }
            } else {
                ++i;
            }
        } else {
            while (i < n && !sep(line[i])) {
                ++i;
            }
        }
        if (count == maxTokens) {
            if (more) {
                *more = true;
            }
            return count;
        }
        out[count++] = line.substr(start, i - start);
    }
    return count;
}

std::string_view unquote(std::string_view tok) noexcept
{
    if (!tok.empty() && tok.front() == '"') {
        tok.remove_prefix(1);
        if (!tok.empty() && tok.back() == '"') {
            tok.remove_suffix(1);
        }
    }
    return tok;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') {
            x = static_cast<char>(x - 'A' + 'a');
        }
        if (y >= 'A' && y <= 'Z') {
            y = static_cast<char>(y - 'A' + 'a');
        }
        if (x != y) {
            return false;
        }
    }
    return true;
}

} // namespace rigscope::core
