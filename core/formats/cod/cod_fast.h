#pragma once

// Fast paths of the XMODEL_EXPORT / XANIM_EXPORT text readers (issue 7).
//
// Real files are almost entirely the plain, canonical grammar of FORMATS.md §3.2 / §4.1: upper-case
// keywords, plain numbers, indices counting up from 0, the blocks in the order the exporters
// write them. A fast path reads exactly that subset straight from the bytes into the final model
// arrays (reserved from NUMVERTS / NUMFACES / NUMFRAMES x NUMPARTS): no Record, no per-token
// allocation, no intermediate copies. At the first line or structure outside the subset (anything
// the general reader would diagnose, reorder or repair) it gives up and the caller reads the file
// again with the general path, so diagnostics of unusual files come from one place. When it
// succeeds its model and diagnostics are those of the general path (tests/formats/
// tst_cod_fastpath.cpp compares them).
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/build/parallel_shares.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/registry.h"
#include "core/io/file_buffer.h"
#include "core/text/line_scanner.h"
#include "core/text/numbers.h"
#include "core/text/text_cursor.h"
#include "core/formats/cod/cod_record.h"

namespace rigscope::core::cod {

// Each returns false, leaving `out` unspecified, when the file is outside the fast subset.
bool readXmodelFast(std::string_view bytes, const ReadContext& ctx, ReadResult& out);
bool readXanimFast(std::string_view bytes, const ReadContext& ctx, ReadResult& out);
// The general readers alone (what readXmodel / readXanim run when the fast path gives up, or
// with ReadContext::fastPaths = false).
ReadResult readXmodelGeneral(std::string_view bytes, const ReadContext& ctx);
ReadResult readXanimGeneral(std::string_view bytes, const ReadContext& ctx);

namespace fastchar {
inline constexpr std::uint8_t kBlank = 1, kComma = 2, kLineEnd = 4, kKeyword = 8;
// isBlank, ',', line terminators and the keyword characters [A-Z0-9], by byte.
struct Table {
    std::uint8_t c[256] = {};
    constexpr Table()
    {
        for (const char b : {' ', '\t', '\f', '\v'}) {
            c[static_cast<unsigned char>(b)] = kBlank;
        }
        c[static_cast<unsigned char>(',')] = kComma;
        c[static_cast<unsigned char>('\n')] = c[static_cast<unsigned char>('\r')] = kLineEnd;
        for (int i = 'A'; i <= 'Z'; ++i) {
            c[i] = kKeyword;
        }
        for (int i = '0'; i <= '9'; ++i) {
            c[i] = kKeyword;
        }
    }
};
inline constexpr Table kTable{};
inline std::uint8_t of(char ch) noexcept
{
    return kTable.c[static_cast<unsigned char>(ch)];
}
} // namespace fastchar

// Line and token scanning with the general TextRecordStream's rules (lines end at the first LF,
// or at a CR before it; blanks are isBlank; `//` and `;` comment lines before the first keyword
// are header comments), restricted to plain lines: every method returns false where the general
// path could read the line differently or would report something about it, except for the
// syntax.cod-comma note, which the scanner reports itself.
class FastScanner {
public:
    // `sink` gets syntax.cod-comma notes, as the general path words them.
    FastScanner(std::string_view text, DiagnosticSink& sink) noexcept
        : m_lines(text.data(), text.data(), text.data() + text.size()), m_sink(sink)
    {
        if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
            static_cast<unsigned char>(text[1]) == 0xBB &&
            static_cast<unsigned char>(text[2]) == 0xBF) {
            m_lines = LineScanner(text.data(), text.data() + 3, text.data() + text.size());
        }
    }

    // A share of a large block: [begin, end) of the file that starts at `base`. Offsets stay the
    // file's, line numbers count from 1 at `begin`; no byte order mark, and comment lines are
    // never header comments.
    FastScanner(const char* base, const char* begin, const char* end, DiagnosticSink& sink) noexcept
        : m_lines(base, begin, begin <= end ? end : begin), m_sink(sink), m_sawKeyword(true)
    {
    }

    enum class Next : std::uint8_t { Keyword, End, Unsupported };

    // Moves to the next keyword line, skipping blank and comment lines (comment lines before the
    // first keyword go to `header`). The keyword is [A-Z0-9]+ followed by a blank or the line end.
    Next nextKeyword(std::string_view& kw, SourceLoc& loc, std::vector<std::string>& header)
    {
        for (;;) {
            m_before = m_lines;
            if (!m_lines.next()) {
                return Next::End;
            }
            m_ls = m_lines.begin();
            m_le = m_lines.end();
            m_commaNoted = false;
            m_p = skipLineBlanks(m_ls, m_le);
            if (m_p == m_le) {
                continue;
            }
            const char c = *m_p;
            if (c == ';' || atComment(m_p)) {
                if (!m_sawKeyword) {
                    header.emplace_back(trim(m_lines.line()));
                }
                continue;
            }
            const char* k = m_p;
            std::uint64_t code = 0;
            while (m_p < m_le && (fastchar::of(*m_p) & fastchar::kKeyword)) {
                code = (code << 8) | static_cast<unsigned char>(*m_p);
                ++m_p;
            }
            m_code = code;
            if (m_p == k || !endsToken(m_p)) {
                return Next::Unsupported;
            }
            kw = std::string_view(k, static_cast<std::size_t>(m_p - k));
            loc = SourceLoc{m_lines.lineNumber(), m_lines.column(k), m_lines.offset(k)};
            m_sawKeyword = true;
            return Next::Keyword;
        }
    }

    // One argument each: separators first (blanks and commas, see sep()),
    // then a plain number (numbers.h scanFloat / scanInt, bit-identical to parseFloat / parseInt)
    // that ends at a separator or the line end.
    bool f(float& out)
    {
        sep();
        const char* q = scanFloat(m_p, m_le, out);
        if (q && endsToken(q)) {
            m_p = q;
            return true;
        }
        return token([&out](std::string_view t) { return parseFloat(t, out); });
    }
    bool f3(float* out) { return f(out[0]) && f(out[1]) && f(out[2]); }
    bool i(std::int32_t& out)
    {
        sep();
        const char* q = scanInt(m_p, m_le, out);
        if (q && endsToken(q)) {
            m_p = q;
            return true;
        }
        return token([&out](std::string_view t) { return parseInt(t, out); });
    }
    // A number as parseDouble reads its token (argDouble).
    bool d(double& out)
    {
        sep();
        return token([&out](std::string_view t) { return parseDouble(t, out); });
    }
    // An integer that must read the same as parseDouble of its token: "-0" (-0.0) is refused.
    bool intAsDouble(double& out)
    {
        std::int32_t v = 0;
        sep();
        const bool neg = m_p < m_le && *m_p == '-';
        if (!i(v) || (neg && v == 0)) {
            return false;
        }
        out = static_cast<double>(v);
        return true;
    }
    // A quoted string on this line (quotes not kept), ending at a separator or the line end.
    bool str(std::string_view& out)
    {
        sep();
        if (m_p >= m_le || *m_p != '"') {
            return false;
        }
        const char* q = m_p + 1;
        while (q < m_le && *q != '"') {
            ++q;
        }
        if (q >= m_le || !endsToken(q + 1)) {
            return false;
        }
        out = std::string_view(m_p + 1, static_cast<std::size_t>(q - m_p - 1));
        m_p = q + 1;
        return true;
    }
    // Another token follows on this line.
    bool more()
    {
        sep();
        return m_p < m_le && !atComment(m_p);
    }
    // The line ends here (after separators and a `//` comment).
    bool eol()
    {
        sep();
        return m_p >= m_le || atComment(m_p);
    }
    // The rest of the line holds only tokens the general path ignores (no quote or single slash).
    bool skipPlainRest()
    {
        while (m_p < m_le && !atComment(m_p)) {
            const char c = *m_p;
            if (c == '"' || c == '/') {
                return false;
            }
            if (c == ',') {
                sep();
            } else {
                ++m_p;
            }
        }
        return true;
    }

    std::uint32_t lines() const noexcept { return m_lines.lineNumber(); }
    // The keyword nextKeyword returned as keywordCode() spells it (meaningful up to 8 characters).
    std::uint64_t keywordCode() const noexcept { return m_code; }
    // Where the next line starts.
    const char* position() const noexcept { return m_lines.position(); }
    const char* base() const noexcept { return m_lines.base(); }
    // Where scanning stops (the end of the text, or of the share being read). Only ever set at a
    // line start, so no line or token is cut.
    const char* limit() const noexcept { return m_lines.bufferEnd(); }
    void setLimit(const char* e) noexcept
    {
        LineScanner cut(m_lines.base(), m_lines.position(), e, m_lines.lineNumber());
        cut.skipTo(m_lines.position(), m_lines.lineNumber(), m_lines.lfCount(), m_lines.crlfCount(),
                   m_lines.crCount());
        m_lines = cut;
    }
    // Puts back the keyword line nextKeyword just returned (the blank and comment lines before it
    // stay read).
    void unread() noexcept { m_lines = m_before; }
    // Continues after a share spliced in file order: at its position, with its lines and endings.
    void advancePast(const FastScanner& share) noexcept
    {
        const LineScanner& s = share.m_lines;
        m_lines.skipTo(s.position(), m_lines.lineNumber() + s.lineNumber(), s.lfCount(),
                       s.crlfCount(), s.crCount());
    }
    std::size_t bytesLeft() const noexcept
    {
        return static_cast<std::size_t>(m_lines.bufferEnd() - m_lines.position());
    }
    // Dominant line ending as TextRecordStream::dominantEnding (0 LF, 1 CRLF, 2 CR).
    int dominantEnding() const noexcept
    {
        const std::uint64_t lf = m_lines.lfCount(), crlf = m_lines.crlfCount(),
                            cr = m_lines.crCount();
        if (crlf >= lf && crlf >= cr && crlf > 0) {
            return 1;
        }
        if (cr > lf && cr > crlf) {
            return 2;
        }
        return 0;
    }

private:
    LineScanner m_lines;
    LineScanner m_before; // before the last nextKeyword's line (unread)
    DiagnosticSink& m_sink;
    const char* m_ls = nullptr; // the current line
    const char* m_le = nullptr;
    const char* m_p = nullptr; // the next byte to read in it
    bool m_commaNoted = false; // the current line has its syntax.cod-comma note
    bool m_sawKeyword = false;
    std::uint64_t m_code = 0; // the last keyword's characters, one a byte, the last lowest

    // A `//` comment (outside quotes) runs to the line end, as the general path cuts it.
    bool atComment(const char* q) const noexcept
    {
        return q + 1 < m_le && q[0] == '/' && q[1] == '/';
    }
    bool endsToken(const char* q) const noexcept
    {
        return q >= m_le || (fastchar::of(*q) & (fastchar::kBlank | fastchar::kComma)) ||
               atComment(q);
    }
    // The numbers the scanners leave (more than 15 digits, '+', exponents beyond +-22, nan, ...):
    // the general path's token (up to a blank or comma) through `parse`. A quote or slash in it
    // would change how the general path splits the line.
    template <typename Parse> bool token(Parse parse)
    {
        const char* t = m_p;
        while (!endsToken(t)) {
            if (*t == '"' || *t == '/') {
                return false;
            }
            ++t;
        }
        if (t == m_p || !parse(std::string_view(m_p, static_cast<std::size_t>(t - m_p)))) {
            return false;
        }
        m_p = t;
        return true;
    }
    // Skips blanks and commas. A comma followed by neither a blank nor the line end gets the
    // general path's syntax.cod-comma note (the first one of the line only).
    void sep()
    {
        while (m_p < m_le) {
            const std::uint8_t c = fastchar::of(*m_p);
            if (c & fastchar::kBlank) {
                ++m_p;
            } else if (c & fastchar::kComma) {
                if (m_p + 1 < m_le && !(fastchar::of(m_p[1]) & fastchar::kBlank) && !m_commaNoted) {
                    m_commaNoted = true;
                    m_sink.note(
                        ids::kSyntaxCodComma,
                        SourceLoc{m_lines.lineNumber(), m_lines.column(m_p), m_lines.offset(m_p)},
                        "comma without space; PyCoD-based tools fail to split it");
                }
                ++m_p;
            } else {
                break;
            }
        }
    }
};

// argName's rule: bytes >= 0x80 or control bytes (tab allowed) make syntax.non-ascii.
inline bool plainName(std::string_view s) noexcept
{
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x7F || (c < 0x20 && c != 0x09)) {
            return false;
        }
    }
    return true;
}

// Capacity for `count` items of at least `minBytes` bytes each in what is left of the file, so
// hostile counts never drive allocations.
inline std::size_t boundedCount(std::int64_t count, std::size_t bytesLeft,
                                std::size_t minBytes) noexcept
{
    if (count <= 0) {
        return 0;
    }
    const std::size_t most = bytesLeft / minBytes + 1;
    return static_cast<std::size_t>(count) < most ? static_cast<std::size_t>(count) : most;
}

// How many shares a block of `rest` bytes is read in: at most ReadContext::threads (0 = one per
// core), each of at least ReadContext::parallelMinBytes; below 2 the block is read in order.
std::size_t shareCount(const ReadContext& ctx, std::size_t rest) noexcept;

// The XMODEL / XANIM fast readers' shares: one share per setup (each with its `begin`), read
// on threads by the reader `make(setup, sink, model)` builds and runs; `readFirst()` reads the
// calling reader's own part; `take(reader, setup, sink)` splices a share that carries on where
// the text read so far ends (false refuses it and every later one). A kept share's reader and
// model are freed at once. Returns readInShares' count (-1: readFirst failed).
template <class Reader, class Setup, class Make, class ReadFirst, class Take>
int readShares(const std::vector<Setup>& setups, const DiagnosticSink& sink, Make&& make,
               ReadFirst&& readFirst, Take&& take)
{
    struct Share {
        Setup setup;
        Model model;
        std::unique_ptr<DiagnosticSink> sink;
        std::unique_ptr<Reader> reader;
        bool failed = false;
    };
    std::vector<Share> shares(setups.size());
    for (std::size_t k = 0; k < shares.size(); ++k) {
        shares[k].setup = setups[k];
        shares[k].sink = std::make_unique<DiagnosticSink>(sink.file());
    }
    return readInShares(
        shares, [&make](Share& sh) { sh.reader = make(sh.setup, *sh.sink, sh.model); }, readFirst,
        [&take](Share& sh) {
            if (!sh.reader || !take(*sh.reader, sh.setup, *sh.sink)) {
                return false;
            }
            sh.reader.reset();
            sh.model = Model{};
            return true;
        });
}

// Appends `src` to `dst` (through `fix`) and frees `src`: copied 1 MB at a time, each part's
// pages given back right after, so splicing a share never holds two copies of more than 1 MB.
template <class T, class F> void moveAppend(std::vector<T>& dst, std::vector<T>& src, F&& fix)
{
    if (dst.capacity() < dst.size() + src.size()) {
        dst.reserve(std::max(dst.size() + src.size(), 2 * dst.capacity()));
    }
    constexpr std::size_t kChunk = (std::size_t(1) << 20) / sizeof(T) + 1;
    for (std::size_t i = 0; i < src.size(); i += kChunk) {
        const std::size_t n = std::min(kChunk, src.size() - i);
        if constexpr (std::is_same_v<std::decay_t<F>, std::nullptr_t>) {
            dst.insert(dst.end(), src.begin() + static_cast<std::ptrdiff_t>(i),
                       src.begin() + static_cast<std::ptrdiff_t>(i + n));
        } else {
            for (std::size_t k = i; k < i + n; ++k) {
                dst.push_back(fix(src[k]));
            }
        }
        releasePages(src.data() + i, n * sizeof(T));
    }
    std::vector<T>().swap(src);
}
template <class T> void moveAppend(std::vector<T>& dst, std::vector<T>& src)
{
    moveAppend(dst, src, nullptr);
}

// Diagnostics a share reported, moved to `sink` with their lines counted from the file's start.
void spliceDiagnostics(DiagnosticSink& sink, DiagnosticSink& share, std::uint32_t lineBase);

// The start of the first line after the one `p` is in whose text starts with `a` (after blanks),
// where the next non-blank line starts with `b`: a guess at a record start in a large block, looked
// for in the next `look` lines. nullptr when there is none.
const char* guessLinePair(const char* p, const char* end, std::initializer_list<std::string_view> a,
                          std::initializer_list<std::string_view> b, int look = 40) noexcept;

// Reserves room for `n` items; large arrays get transparent huge pages (fewer page faults).
// Capacity never written is address space, not memory.
template <class V> void reserveBig(V& v, std::size_t n)
{
    v.reserve(n);
    adviseHugePages(v.data(), v.capacity() * sizeof(v[0]));
}

// The fast paths read whole files only (issue 15): the text must end with a line ending after
// a line that can end the file. Anything else (a file cut short) goes to the general path,
// which says what is missing (syntax.truncated).
inline bool endsLikeWholeFile(std::string_view bytes,
                              std::initializer_list<std::string_view> lastKeywords) noexcept
{
    if (bytes.empty() || (bytes.back() != '\n' && bytes.back() != '\r')) {
        return false;
    }
    // The last line that is neither blank nor a comment line.
    std::string_view last;
    for (std::size_t end = bytes.size(); last.empty();) {
        end = bytes.find_last_not_of(" \t\r\n", end == 0 ? 0 : end - 1);
        if (end == std::string_view::npos) {
            return false;
        }
        const std::size_t nl = bytes.find_last_of("\r\n", end);
        const std::size_t start = nl == std::string_view::npos ? 0 : nl + 1;
        last = bytes.substr(start, end + 1 - start);
        last.remove_prefix(std::min(last.find_first_not_of(" \t"), last.size()));
        if (last.starts_with("//") || last.starts_with(';')) {
            if (start == 0) {
                return false;
            }
            last = {};
            end = start;
        }
    }
    for (std::string_view k : lastKeywords) {
        if (last.size() >= k.size() && last.substr(0, k.size()) == k &&
            (last.size() == k.size() || last[k.size()] == ' ' || last[k.size()] == '\t')) {
            return true;
        }
    }
    return false;
}

} // namespace rigscope::core::cod
