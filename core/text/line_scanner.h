#pragma once

// The text readers' way through a buffer: one line at a time, pointer in, pointer out. LF, CRLF
// and a bare CR each end a line, found in one pass (16 bytes a step where SSE2 is there), so
// files of any line ending take the same path. Lines never include their terminator. Nothing is
// copied and no column is kept: a reader asks for column(p) / offset(p) only when it reports.
// The scanner is a few pointers and counters, so saving it (a copy) and restoring it is how a
// reader steps back.
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rigscope::core {

// The first '\n' or '\r' in [p, e), or e.
inline const char* findLineEnd(const char* p, const char* const e) noexcept
{
#if defined(__SSE2__)
    const __m128i lf = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    while (e - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        if (m != 0) {
            return p + __builtin_ctz(static_cast<unsigned>(m));
        }
        p += 16;
    }
#endif
    while (p != e && *p != '\n' && *p != '\r') {
        ++p;
    }
    return p;
}

// Space, tab, form feed, vertical tab (never a line terminator).
inline bool isLineBlank(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

// The first byte at or after p that is not a blank, or e.
inline const char* skipLineBlanks(const char* p, const char* const e) noexcept
{
    while (p != e && isLineBlank(*p)) {
        ++p;
    }
    return p;
}

class LineScanner {
public:
    LineScanner() noexcept = default;
    explicit LineScanner(std::string_view text) noexcept
        : LineScanner(text.data(), text.data(), text.data() + text.size())
    {
    }
    // The lines of [from, end) in a buffer that starts at `base` (offsets count from base);
    // `from` is a line start and `lineBefore` the number of the line before it.
    LineScanner(const char* base, const char* from, const char* end,
                std::uint32_t lineBefore = 0) noexcept
        : m_base(base), m_pos(from), m_end(end), m_ls(from), m_le(from), m_line(lineBefore)
    {
    }

    // Moves to the next line; false (and nothing changes) at the end of the buffer.
    bool next() noexcept
    {
        if (m_pos == m_end) {
            return false;
        }
        m_ls = m_pos;
        const char* const t = findLineEnd(m_pos, m_end);
        m_le = t;
        if (t == m_end) {
            m_pos = t;
            m_terminated = false;
        } else if (*t == '\n') {
            m_pos = t + 1;
            ++m_lf;
        } else if (t + 1 != m_end && t[1] == '\n') {
            m_pos = t + 2;
            ++m_crlf;
        } else {
            m_pos = t + 1;
            ++m_cr;
        }
        ++m_line;
        return true;
    }

    // The current line (the last one next() returned) without its terminator.
    const char* begin() const noexcept { return m_ls; }
    const char* end() const noexcept { return m_le; }
    std::string_view line() const noexcept { return {m_ls, static_cast<std::size_t>(m_le - m_ls)}; }
    std::uint32_t lineNumber() const noexcept { return m_line; } // 1-based; 0 before any
    // Whether the current line ended with a terminator (false only for a last line without).
    bool terminated() const noexcept { return m_terminated; }

    // Where the next line starts, and whether there is one.
    const char* position() const noexcept { return m_pos; }
    bool atEnd() const noexcept { return m_pos == m_end; }
    const char* bufferEnd() const noexcept { return m_end; }
    const char* base() const noexcept { return m_base; }

    // For reports: column (1-based) of p in the current line, and p's offset in the buffer.
    std::uint32_t column(const char* p) const noexcept
    {
        return static_cast<std::uint32_t>(p - m_ls) + 1;
    }
    std::uint64_t offset(const char* p) const noexcept
    {
        return static_cast<std::uint64_t>(p - m_base);
    }

    // Moves to `pos` (a line start; `lineBefore` is the number of the line before it) after
    // text read elsewhere (a share read on another thread), adding that text's line endings.
    void skipTo(const char* pos, std::uint32_t lineBefore, std::uint64_t lf, std::uint64_t crlf,
                std::uint64_t cr) noexcept
    {
        m_pos = m_ls = m_le = pos;
        m_line = lineBefore;
        m_lf += lf;
        m_crlf += crlf;
        m_cr += cr;
    }

    // Line endings of the lines returned so far.
    std::uint64_t lfCount() const noexcept { return m_lf; }
    std::uint64_t crlfCount() const noexcept { return m_crlf; }
    std::uint64_t crCount() const noexcept { return m_cr; }

private:
    const char* m_base = nullptr;
    const char* m_pos = nullptr;
    const char* m_end = nullptr;
    const char* m_ls = nullptr;
    const char* m_le = nullptr;
    std::uint32_t m_line = 0;
    bool m_terminated = true;
    std::uint64_t m_lf = 0;
    std::uint64_t m_crlf = 0;
    std::uint64_t m_cr = 0;
};

} // namespace rigscope::core
