#pragma once

// Shared by the XMODEL / XANIM / NT_EXPORT text readers and the *_BIN reader: one record per
// text line or binary token, so the grammar (§3.4 overloaded keywords by token count and
// section) is interpreted once. Binary tokens produce the same argument counts as the text
// lines they stand for (BONE i p "n" = 3 args, BONE i = 1, BONE b w = 2, ...).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <cmath>

#include "core/diag/diagnostic.h"
#include "core/model/model.h"
#include "core/text/line_scanner.h"
#include "core/text/names.h" // shownToken, numberText: the readers' messages
#include "core/text/numbers.h"

namespace rigscope::core::cod {

// Keywords the grammars dispatch on in their hot loops, told from the text bytes by one
// compare (keywordCode); every other keyword is Kw::Other and compared as text.
enum class Kw : std::uint8_t {
    Other,
    Bone,
    Bones,
    Offset,
    Scale,
    X,
    Y,
    Z,
    Vert,
    Vert32,
    Tri,
    Tri16,
    Normal,
    Color,
    Uv,
    Part,
    Frame,
};

// A keyword of up to 8 characters as one number (its characters one a byte, the last lowest).
constexpr std::uint64_t keywordCode(std::string_view k) noexcept
{
    std::uint64_t code = 0;
    for (const char c : k) {
        code = (code << 8) | static_cast<unsigned char>(c);
    }
    return code;
}

// The Kw of an upper-cased keyword.
Kw keywordKind(std::string_view upper) noexcept;

struct Arg {
    std::string_view text; // text token (quotes kept) or binary string; binary numbers: empty
    double num = 0;        // binary numbers (already decoded)
    std::uint64_t at = 0;  // binary: offset into the stream (text: from text.data())
    bool hasNum = false;   // true for binary numeric arguments
    bool isString = false; // binary strings (always) / quoted text tokens
};

inline constexpr std::size_t kMaxArgs = 64;

struct Record {
    Kw kw = Kw::Other;
    std::string_view keyword; // upper-cased (the text's bytes, or `upper` when it had lower case)
    std::string upper;
    std::array<Arg, kMaxArgs> args;
    std::size_t argc = 0;
    bool moreArgs = false; // more tokens than kMaxArgs
    SourceLoc loc;         // first non-blank column / token offset
    bool binary = false;
    bool cut = false; // the file's last line, with no line ending: it may be cut short
    // Text: where argument locations are computed from (only when reporting).
    const char* base = nullptr;
    const char* lineStart = nullptr;
};

// The text grammars, for keywordFields.
enum class Grammar : std::uint8_t { Xmodel, Xanim, Nt };
// Fields a complete text line of `keyword` has in `g`, from one table of the CoD keywords (0 for
// a keyword `g` does not have; 1 for every NUM... count). XMODEL's BONE and MATERIAL and XANIM's
// PART and FRAME depend on the section: those grammars decide them. A cut last line with fewer
// fields is cut short (RecordParser).
std::size_t keywordFields(std::string_view keyword, Grammar g) noexcept;
// A cut last line's keyword ("NOTETR"): a proper prefix of a keyword of that table.
bool isCutKeyword(std::string_view keyword) noexcept;

// Text records on the line scanner: comments (`//` outside quotes, lines starting with `;`),
// blank lines, commas as separators (syntax.cod-comma for a comma without a following space),
// quoted strings (syntax.unterminated-string), keyword case (syntax.keyword-case). Comment lines
// before the first keyword go to `headerComments`. The grammars are templates over this and
// the *_BIN token stream (xbin_stream.h): no virtual call, no per-record allocation.
class TextRecordStream {
public:
    TextRecordStream(std::string_view text, DiagnosticSink& sink,
                     std::vector<std::string>* headerComments);
    // A share of a large block: the lines of [begin, end) of the text at `base` (offsets the
    // file's, line numbers from 1 at `begin`; never header comments).
    TextRecordStream(const char* base, const char* begin, const char* end, DiagnosticSink& sink)
        : m_lines(base, begin, end), m_sink(sink), m_header(nullptr), m_sawKeyword(true)
    {
    }
    bool next(Record& r);
    // Where the next line starts, and where reading stops (a line start; setLimit moves it).
    const char* position() const noexcept { return m_lines.position(); }
    const char* limit() const noexcept { return m_lines.bufferEnd(); }
    void setLimit(const char* e) noexcept
    {
        LineScanner cut(m_lines.base(), m_lines.position(), e, m_lines.lineNumber());
        cut.skipTo(m_lines.position(), m_lines.lineNumber(), m_lines.lfCount(), m_lines.crlfCount(),
                   m_lines.crCount());
        m_lines = cut;
    }
    std::uint32_t lineNumber() const noexcept { return m_lines.lineNumber(); }
    // The scanner, to step back over a record (a copy of a few pointers).
    const LineScanner& lines() const noexcept { return m_lines; }
    void setLines(const LineScanner& lines) noexcept { m_lines = lines; }
    // Continues after a share read elsewhere that began at position().
    void advancePast(const TextRecordStream& share) noexcept
    {
        const LineScanner& s = share.m_lines;
        m_lines.skipTo(s.position(), m_lines.lineNumber() + s.lineNumber(), s.lfCount(),
                       s.crlfCount(), s.crCount());
    }
    // Dominant line ending seen so far.
    LineEnding lineEnding() const noexcept;
    // The file's last line when it was cut inside a quoted string (dropped, not returned by
    // next); line 0 when none. Readers report it as syntax.truncated.
    SourceLoc cutString() const noexcept { return m_cutString; }
    static constexpr bool stoppedOnError() noexcept { return false; }

private:
    LineScanner m_lines;
    DiagnosticSink& m_sink;
    std::vector<std::string>* m_header;
    bool m_sawKeyword = false;
    SourceLoc m_cutString;
    bool lineRecord(Record& r, const char* first);
};

SourceLoc argLoc(const Record& r, std::size_t i) noexcept;

// Typed access with diagnostics (syntax.bad-number, syntax.short-line). Each returns false
// after reporting. Plain numbers are read inline; the rest (and the reports) out of line.
bool argFloatSlow(const Record& r, std::size_t i, float& out, DiagnosticSink& sink,
                  std::string_view field);
bool argIntSlow(const Record& r, std::size_t i, std::int32_t& out, DiagnosticSink& sink,
                std::string_view field);
inline bool argFloat(const Record& r, std::size_t i, float& out, DiagnosticSink& sink,
                     std::string_view field)
{
    if (i < r.argc && !r.args[i].isString && !r.args[i].hasNum) {
        const std::string_view t = r.args[i].text;
        if (!t.empty() && scanFloat(t.data(), t.data() + t.size(), out) == t.data() + t.size()) {
            return true;
        }
    }
    return argFloatSlow(r, i, out, sink, field);
}
inline bool argInt(const Record& r, std::size_t i, std::int32_t& out, DiagnosticSink& sink,
                   std::string_view field)
{
    if (i < r.argc && !r.args[i].isString && !r.args[i].hasNum) {
        const std::string_view t = r.args[i].text;
        if (!t.empty() && scanInt(t.data(), t.data() + t.size(), out) == t.data() + t.size()) {
            return true;
        }
    }
    return argIntSlow(r, i, out, sink, field);
}
bool argDouble(const Record& r, std::size_t i, double& out, DiagnosticSink& sink,
               std::string_view field);
std::string argString(const Record& r, std::size_t i);
// argString for a bone / part / material / object name: syntax.non-ascii (warning) when it holds
// bytes >= 0x80 (invalid UTF-8 included) or control bytes such as NUL, which C tools cut at.
std::string argName(const Record& r, std::size_t i, DiagnosticSink& sink);
bool shortLine(const Record& r, std::size_t n, DiagnosticSink& sink, std::string_view kind);
// At least `n` fields, else syntax.short-line.
inline bool needArgs(const Record& r, std::size_t n, DiagnosticSink& sink, std::string_view kind)
{
    return r.argc >= n || shortLine(r, n, sink, kind);
}
// Reads args [first, first+n) as floats into out; false after a diagnostic.
inline bool argFloats(const Record& r, std::size_t first, std::size_t n, float* out,
                      DiagnosticSink& sink, std::string_view field)
{
    for (std::size_t k = 0; k < n; ++k) {
        if (!argFloat(r, first + k, out[k], sink, field)) {
            return false;
        }
    }
    return true;
}

// The start of the first line after the one `p` is in whose text starts with `a` (after blanks),
// where the next non-blank line starts with `b`: a guess at a record start in a large block
// (where a share read on a thread begins), looked for in the next `look` lines. nullptr when
// there is none.
const char* guessLinePair(const char* p, const char* end, std::initializer_list<std::string_view> a,
                          std::initializer_list<std::string_view> b, int look = 40) noexcept;

// Whether the first keyword of a text file after blank and comment lines is one of `keywords`
// (upper case; the file's may be in any case).
bool firstKeywordIs(std::string_view head,
                    std::initializer_list<std::string_view> keywords) noexcept;

// Shared writer helpers.
struct BoneNumbering {
    std::vector<std::size_t> order;  // joints in written order
    std::vector<std::int32_t> index; // joint -> written index
};
// Source ids when they are a permutation of 0..n-1 (XMODEL order kept), else joint order.
BoneNumbering boneNumbering(const std::vector<std::int32_t>& sourceIds);
// Influences of a point as CoD weights: the raw list, or the SMD parent bone at weight 1
// when the point has no list (links absent or `0`).
void pointInfluences(const Mesh& me, std::size_t p, std::vector<std::int32_t>& joints,
                     std::vector<float>& weights);

// Text writer with the §6.2 number rules; counts NaN/Inf and unwritable name characters.
class TextOut {
public:
    explicit TextOut(int ending) // 0 LF, 1 CRLF, 2 CR
        : m_nl(ending == 1 ? "\r\n" : (ending == 2 ? "\r" : "\n"))
    {
    }
    std::string text;
    std::size_t nonFinite = 0;
    std::size_t badNames = 0;

    TextOut& kw(std::string_view k)
    {
        text += k;
        return *this;
    }
    TextOut& i(std::int64_t v)
    {
        text += ' ';
        appendInt(text, v);
        return *this;
    }
    TextOut& d(double v)
    {
        nonFinite += std::isfinite(v) ? 0u : 1u;
        text += ' ';
        appendNumber(text, v);
        return *this;
    }
    TextOut& f(float v)
    {
        nonFinite += std::isfinite(v) ? 0u : 1u;
        text += ' ';
        appendFloat(text, v);
        return *this;
    }
    TextOut& fs(const float* v, std::size_t n)
    {
        for (std::size_t k = 0; k < n; ++k) {
            f(v[k]);
        }
        return *this;
    }
    TextOut& s(std::string_view str)
    {
        text += " \"";
        for (char c : str) {
            if (c == '"' || c == '\r' || c == '\n') {
                ++badNames;
                text += '\'';
            } else {
                text += c;
            }
        }
        text += '"';
        return *this;
    }
    void nl() { text += m_nl; }

private:
    const char* m_nl;
};

// Header comment lines (as read: `//` or `;` kept, else `// ` added).
void comments(TextOut& o, const std::vector<std::string>& header);
// A writer's write.non-finite and write.bad-name reports for what `o` counted.
void finishDiagnostics(const TextOut& o, DiagnosticSink& sink);

} // namespace rigscope::core::cod
