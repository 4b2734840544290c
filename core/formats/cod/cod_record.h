#pragma once

// Shared by the XMODEL / XANIM / NT_EXPORT text readers and the *_BIN reader: one record per
// text line or binary token, so the grammar (§3.4 overloaded keywords by token count and
// section) is interpreted once. Binary tokens produce the same argument counts as the text
// lines they stand for (BONE i p "n" = 3 args, BONE i = 1, BONE b w = 2, ...).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <cmath>

#include "core/diag/diagnostic.h"
#include "core/model/mesh.h"
#include "core/model/types.h"
#include "core/text/line_scanner.h"
#include "core/text/numbers.h"

namespace rigscope::core::cod {

struct Arg {
    std::string_view text; // text token (quotes kept) or binary string
    double num = 0;        // binary numbers (already decoded)
    bool hasNum = false;   // true for binary numeric arguments
    bool isString = false; // binary strings (always) / quoted text tokens
    SourceLoc loc;
};

inline constexpr std::size_t kMaxArgs = 64;

struct Record {
    std::string keyword; // upper-cased
    std::array<Arg, kMaxArgs> args;
    std::size_t argc = 0;
    bool moreArgs = false; // more tokens than kMaxArgs
    SourceLoc loc;         // first non-blank column / token offset
    SourceLoc keywordLoc;
    bool binary = false;
    bool cut = false; // the file's last line, with no line ending: it may be cut short
};

// A stream of records. `next` returns false at the end (or after a fatal binary error).
class RecordStream {
public:
    virtual ~RecordStream() = default;
    virtual bool next(Record& r) = 0;
    // The file's last line when it was cut inside a quoted string (dropped, not returned by
    // next); line 0 when none. Readers report it as syntax.truncated.
    virtual SourceLoc cutString() const noexcept { return {}; }
    // A binary stream that stopped at a corrupt token: what follows is unread, not missing.
    virtual bool stoppedOnError() const noexcept { return false; }
};

// A cut last line's keyword ("NOTETR"): a proper prefix of a keyword of the CoD grammar.
bool isCutKeyword(std::string_view keyword) noexcept;

// Text: comments (`//` outside quotes, lines starting with `;`), blank lines, commas as
// separators (syntax.cod-comma for a comma without a following space), quoted strings
// (syntax.unterminated-string), keyword case (syntax.keyword-case). Comment lines before the
// first keyword go to `headerComments`.
class TextRecordStream final : public RecordStream {
public:
    TextRecordStream(std::string_view text, DiagnosticSink& sink,
                     std::vector<std::string>* headerComments);
    bool next(Record& r) override;
    // Dominant line ending seen so far (0 LF, 1 CRLF, 2 CR).
    int dominantEnding() const noexcept;
    SourceLoc cutString() const noexcept override { return m_cutString; }

private:
    LineScanner m_lines;
    std::uint32_t m_line = 0;
    DiagnosticSink& m_sink;
    std::vector<std::string>* m_header;
    bool m_sawKeyword = false;
    SourceLoc m_cutString;
    std::array<std::string_view, kMaxArgs + 1> m_toks{}; // reused: lines are short, so
                                                         // clearing 65 views per line showed
};

// Typed access with diagnostics (syntax.bad-number, syntax.short-line). Each returns false
// after reporting.
bool argFloat(const Record& r, std::size_t i, float& out, DiagnosticSink& sink,
              std::string_view field);
bool argDouble(const Record& r, std::size_t i, double& out, DiagnosticSink& sink,
               std::string_view field);
bool argInt(const Record& r, std::size_t i, std::int32_t& out, DiagnosticSink& sink,
            std::string_view field);
std::string argString(const Record& r, std::size_t i);
// A keyword or token for a message: at most 40 bytes ("..." after), control bytes as '?'.
std::string shownToken(std::string_view s);
// argString for a bone / part / material / object name: syntax.non-ascii (warning) when it holds
// bytes >= 0x80 (invalid UTF-8 included) or control bytes such as NUL, which C tools cut at.
std::string argName(const Record& r, std::size_t i, DiagnosticSink& sink);
bool needArgs(const Record& r, std::size_t n, DiagnosticSink& sink, std::string_view kind);
// Reads args [first, first+n) as floats into out; false after a diagnostic.
bool argFloats(const Record& r, std::size_t first, std::size_t n, float* out, DiagnosticSink& sink,
               std::string_view field);

SourceLoc argLoc(const Record& r, std::size_t i) noexcept;

// First keyword of a text file after blank and comment lines, upper-cased ("" when none).
std::string firstKeyword(std::string_view head);

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
const char* newline(int lineEnding) noexcept; // 0 LF, 1 CRLF, 2 CR
void appendFloats(std::string& out, const float* v, std::size_t n);
std::string quoted(std::string_view s);
std::string numberText(double v); // integral values as integers

// Text writer with the §6.2 number rules; counts NaN/Inf and unwritable name characters.
class TextOut {
public:
    explicit TextOut(int ending) : m_nl(newline(ending)) {}
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

} // namespace rigscope::core::cod
