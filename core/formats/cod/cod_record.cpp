#include "core/formats/cod/cod_record.h"

#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <Eigen/Geometry>

#include "core/diag/diagnostic_ids.h"
#include "core/text/numbers.h"
#include "core/text/text_cursor.h"
#include "core/text/plural.h"

namespace rigscope::core::cod {

namespace {

char upper(char c) noexcept
{
    return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

// Cuts a `//` comment outside quotes: the line's end, or where the comment starts. `comma` gets
// the first comma outside quotes followed by something other than a blank or `//` (in the
// whole line: syntax.cod-comma). Quotes toggle wherever they stand, as the exporters' readers do.
const char* cutComment(const char* p, const char* const e, const char*& comma) noexcept
{
    bool inQuote = false;
    for (; p != e; ++p) {
        const char c = *p;
        if (c == '"') {
            inQuote = !inQuote;
        } else if (inQuote || (c != '/' && c != ',')) {
            continue;
        } else if (c == '/' && p + 1 != e && p[1] == '/') {
            return p;
        } else if (c == ',' && !comma && p + 1 != e && !isBlank(p[1]) &&
                   !(p[1] == '/' && p + 2 != e && p[2] == '/')) {
            comma = p;
        }
    }
    return e;
}

// A line of at most 64 bytes without a quote, slash, comma or semicolon (nearly every line of
// a real file): its tokens from a bit mask of its non-blank bytes, one step a token, `count` of
// them (the keyword ends at `kwEnd`). False, nothing written, for any other line (the byte loop
// reads it) or within 64 bytes of the buffer's end.
bool plainTokens(const char* first, const char* le, const char* bufferEnd, Record& r,
                 std::size_t& count, const char*& kwEnd) noexcept
{
#if defined(__SSE2__)
    const auto len = static_cast<std::size_t>(le - first);
    if (len > 64 || bufferEnd - first < 64) {
        return false;
    }
    auto eq = [](__m128i v, char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
    std::uint64_t blank = 0, special = 0;
    for (std::size_t k = 0; k < len; k += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(first + k));
        const __m128i b = _mm_or_si128(_mm_or_si128(eq(v, ' '), eq(v, '\t')),
                                       _mm_or_si128(eq(v, '\f'), eq(v, '\v')));
        const __m128i sp = _mm_or_si128(_mm_or_si128(eq(v, '"'), eq(v, '/')),
                                        _mm_or_si128(eq(v, ','), eq(v, ';')));
        blank |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(b))) << k;
        special |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(sp))) << k;
    }
    const std::uint64_t inLine = len == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << len) - 1;
    if ((special & inLine) != 0) {
        return false;
    }
    const std::uint64_t word = ~blank & inLine;
    std::uint64_t starts = word & ~(word << 1);
    count = 0;
    while (starts != 0) {
        const auto b = static_cast<unsigned>(__builtin_ctzll(starts));
        starts &= starts - 1;
        const std::uint64_t after = ~word >> b;
        const unsigned e = after == 0 ? 64u : b + static_cast<unsigned>(__builtin_ctzll(after));
        if (count == 0) {
            kwEnd = first + e;
        } else {
            Arg& a = r.args[count - 1];
            a.text = std::string_view(first + b, e - b);
            a.hasNum = false;
            a.isString = false;
        }
        ++count;
    }
    return true;
#else
    (void)first, (void)le, (void)bufferEnd, (void)r, (void)count, (void)kwEnd;
    return false;
#endif
}

} // namespace

TextRecordStream::TextRecordStream(std::string_view text, DiagnosticSink& sink,
                                   std::vector<std::string>* headerComments)
    : m_sink(sink), m_header(headerComments)
{
    // A UTF-8 byte order mark is not part of the first keyword.
    const std::size_t bom = text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
                                    static_cast<unsigned char>(text[1]) == 0xBB &&
                                    static_cast<unsigned char>(text[2]) == 0xBF
                                ? 3
                                : 0;
    m_lines = LineScanner(text.data(), text.data() + bom, text.data() + text.size());
}

int TextRecordStream::dominantEnding() const noexcept
{
    const std::uint64_t lf = m_lines.lfCount(), crlf = m_lines.crlfCount(), cr = m_lines.crCount();
    if (crlf >= lf && crlf >= cr && crlf > 0) {
        return 1;
    }
    if (cr > lf && cr > crlf) {
        return 2;
    }
    return 0;
}

bool isCutKeyword(std::string_view keyword) noexcept
{
    static constexpr std::string_view kKeywords[] = {"MODEL",
                                                     "ANIMATION",
                                                     "VERSION",
                                                     "NUMBONES",
                                                     "BONE",
                                                     "BONES",
                                                     "OFFSET",
                                                     "SCALE",
                                                     "X",
                                                     "Y",
                                                     "Z",
                                                     "NUMVERTS",
                                                     "NUMVERTS32",
                                                     "VERT",
                                                     "VERT32",
                                                     "NUMFACES",
                                                     "TRI",
                                                     "TRI16",
                                                     "NORMAL",
                                                     "COLOR",
                                                     "UV",
                                                     "NUMOBJECTS",
                                                     "OBJECT",
                                                     "NUMMATERIALS",
                                                     "MATERIAL",
                                                     "TRANSPARENCY",
                                                     "AMBIENTCOLOR",
                                                     "INCANDESCENCE",
                                                     "COEFFS",
                                                     "GLOW",
                                                     "REFRACTIVE",
                                                     "SPECULARCOLOR",
                                                     "REFLECTIVECOLOR",
                                                     "REFLECTIVE",
                                                     "BLINN",
                                                     "PHONG",
                                                     "NUMPARTS",
                                                     "PART",
                                                     "FRAMERATE",
                                                     "NUMFRAMES",
                                                     "FRAME",
                                                     "NOTETRACKS",
                                                     "NUMTRACKS",
                                                     "NOTETRACK",
                                                     "NUMKEYS",
                                                     "FIRSTFRAME"};
    for (std::string_view k : kKeywords) {
        if (keyword.size() < k.size() && k.substr(0, keyword.size()) == keyword) {
            return true;
        }
    }
    return false;
}

Kw keywordKind(std::string_view k) noexcept
{
    if (k.size() > 6) {
        return Kw::Other;
    }
    switch (keywordCode(k)) {
    case keywordCode("BONE"):
        return Kw::Bone;
    case keywordCode("BONES"):
        return Kw::Bones;
    case keywordCode("OFFSET"):
        return Kw::Offset;
    case keywordCode("SCALE"):
        return Kw::Scale;
    case keywordCode("X"):
        return Kw::X;
    case keywordCode("Y"):
        return Kw::Y;
    case keywordCode("Z"):
        return Kw::Z;
    case keywordCode("VERT"):
        return Kw::Vert;
    case keywordCode("VERT32"):
        return Kw::Vert32;
    case keywordCode("TRI"):
        return Kw::Tri;
    case keywordCode("TRI16"):
        return Kw::Tri16;
    case keywordCode("NORMAL"):
        return Kw::Normal;
    case keywordCode("COLOR"):
        return Kw::Color;
    case keywordCode("UV"):
        return Kw::Uv;
    case keywordCode("PART"):
        return Kw::Part;
    case keywordCode("FRAME"):
        return Kw::Frame;
    default:
        return Kw::Other;
    }
}

bool TextRecordStream::next(Record& r)
{
    while (m_lines.next()) {
        const char* const first = skipLineBlanks(m_lines.begin(), m_lines.end());
        if (first != m_lines.end() && lineRecord(r, first)) {
            return true;
        }
    }
    return false;
}

// The record of a non-blank line; false for a comment line or a dropped one.
bool TextRecordStream::lineRecord(Record& r, const char* const first)
{
    const char* const ls = m_lines.begin();
    const char* const le = m_lines.end();
    const bool last = m_lines.atEnd() && !m_lines.terminated();
    const std::uint32_t line = m_lines.lineNumber();
    auto locOf = [&](const char* p) {
        return SourceLoc{line, m_lines.column(p), m_lines.offset(p)};
    };
    const char* comma = nullptr; // syntax.cod-comma
    std::size_t count = 0;
    bool unterminated = false;
    const char* kwEnd = nullptr;
    const char* firstTok = first;
    const char* lastTok = nullptr;
    r.moreArgs = false;
    if (!plainTokens(first, le, m_lines.bufferEnd(), r, count, kwEnd)) {
        const char* const ce = *first == ';' ? first : cutComment(first, le, comma);
        if (ce == first) {
            if (!m_sawKeyword && m_header) {
                m_header->emplace_back(trim(m_lines.line()));
            }
            return false;
        }
        // Tokens: runs of blanks and commas separate them; a token starting with a quote runs
        // to the closing quote (quotes kept).
        for (const char* p = first; p != ce;) {
            if (isBlank(*p) || *p == ',') {
                ++p;
                continue;
            }
            const char* const t = p;
            if (*p == '"') {
                const void* q = std::memchr(p + 1, '"', static_cast<std::size_t>(ce - p - 1));
                unterminated = q == nullptr;
                p = q ? static_cast<const char*>(q) + 1 : ce;
            } else {
                while (p != ce && !isBlank(*p) && *p != ',') {
                    ++p;
                }
            }
            if (count == kMaxArgs + 1) {
                r.moreArgs = true;
                break;
            }
            lastTok = t;
            if (count == 0) {
                firstTok = t;
                kwEnd = p;
            } else {
                Arg& a = r.args[count - 1];
                a.text = std::string_view(t, static_cast<std::size_t>(p - t));
                a.hasNum = false;
                a.isString = *t == '"';
            }
            ++count;
        }
    }
    if (count == 0) {
        return false;
    }
    if (unterminated && last) {
        m_cutString = locOf(firstTok);
        return false;
    }
    if (unterminated) {
        m_sink.warning(ids::kSyntaxUnterminatedString, locOf(lastTok),
                       "quoted string runs to the end of the line; line dropped");
        return false;
    }
    if (comma) {
        m_sink.note(ids::kSyntaxCodComma, locOf(comma),
                    "comma without space; PyCoD-based tools fail to split it");
    }
    const std::string_view kw(firstTok, static_cast<std::size_t>(kwEnd - firstTok));
    r.keyword = kw;
    bool lower = false;
    for (const char c : kw) {
        lower = lower || (c >= 'a' && c <= 'z');
    }
    r.loc = locOf(firstTok);
    if (lower) {
        r.upper.clear();
        for (const char c : kw) {
            r.upper.push_back(upper(c));
        }
        r.keyword = r.upper;
        m_sink.error(ids::kSyntaxKeywordCase, r.loc,
                     "'" + shownToken(kw) + "' must be '" + shownToken(r.keyword) + "' for cod");
    }
    r.kw = keywordKind(r.keyword);
    r.binary = false;
    r.argc = count - 1;
    r.cut = last;
    r.base = m_lines.base();
    r.lineStart = ls;
    m_sawKeyword = true;
    return true;
}

SourceLoc argLoc(const Record& r, std::size_t i) noexcept
{
    if (i >= r.argc) {
        return r.loc;
    }
    if (r.binary) {
        return {0, 0, r.args[i].at};
    }
    const char* p = r.args[i].text.data();
    return {r.loc.line, static_cast<std::uint32_t>(p - r.lineStart) + 1,
            static_cast<std::uint64_t>(p - r.base)};
}

bool shortLine(const Record& r, std::size_t n, DiagnosticSink& sink, std::string_view kind)
{
    sink.error(ids::kSyntaxShortLine, r.loc,
               std::string(kind) + " line has " + plural(r.argc + 1, "field") + "; needs " +
                   std::to_string(n + 1));
    return false;
}

namespace {

// A numeric argument: binary numbers as decoded, text through `parse` (syntax.bad-number,
// naming `type`, when it declines).
template <class T, class Parse>
bool argNumber(const Record& r, std::size_t i, T& out, DiagnosticSink& sink, std::string_view field,
               const char* type, Parse parse)
{
    if (i >= r.argc) {
        return false;
    }
    const Arg& a = r.args[i];
    if (a.hasNum) {
        out = static_cast<T>(a.num);
        return true;
    }
    if (!a.isString && parse(a.text, out)) {
        return true;
    }
    sink.error(ids::kSyntaxBadNumber, argLoc(r, i),
               std::string("expected ") + type + " for " + std::string(field) + ", got '" +
                   std::string(a.text) + "'");
    return false;
}

} // namespace

bool argFloatSlow(const Record& r, std::size_t i, float& out, DiagnosticSink& sink,
                  std::string_view field)
{
    return argNumber(r, i, out, sink, field, "float",
                     [](std::string_view t, float& v) { return parseFloat(t, v); });
}

bool argDouble(const Record& r, std::size_t i, double& out, DiagnosticSink& sink,
               std::string_view field)
{
    return argNumber(r, i, out, sink, field, "float",
                     [](std::string_view t, double& v) { return parseDouble(t, v); });
}

bool argIntSlow(const Record& r, std::size_t i, std::int32_t& out, DiagnosticSink& sink,
                std::string_view field)
{
    return argNumber(r, i, out, sink, field, "int",
                     [](std::string_view t, std::int32_t& v) { return parseInt(t, v); });
}

std::string shownToken(std::string_view s)
{
    std::string out(s.substr(0, 40));
    for (char& ch : out) {
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) {
            ch = '?';
        }
    }
    return s.size() > 40 ? out + "..." : out;
}

std::string argName(const Record& r, std::size_t i, DiagnosticSink& sink)
{
    std::string s = argString(r, i);
    bool high = false, control = false;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        high = high || c >= 0x80;
        control = control || (c < 0x20 && c != 0x09) || c == 0x7F;
    }
    if (high || control) {
        std::string shown = s.substr(0, 40);
        for (char& ch : shown) {
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) {
                ch = '?';
            }
        }
        sink.warning(ids::kSyntaxNonAscii, argLoc(r, i),
                     "name '" + shown + (s.size() > 40 ? "..." : "") + "' contains " +
                         (s.find('\0') != std::string::npos ? "a NUL byte"
                          : control                         ? "control characters"
                                                            : "non-ASCII characters"));
    }
    return s;
}

std::string argString(const Record& r, std::size_t i)
{
    if (i >= r.argc) {
        return {};
    }
    const Arg& a = r.args[i];
    if (a.hasNum) {
        return {};
    }
    return std::string(r.binary ? a.text : unquote(a.text));
}

std::string firstKeyword(std::string_view head)
{
    if (head.size() >= 3 && static_cast<unsigned char>(head[0]) == 0xEF) {
        head.remove_prefix(3);
    }
    TextCursor cur(head);
    std::string_view line;
    while (cur.nextLine(line)) {
        std::string_view t = trim(line);
        if (t.empty() || t.front() == ';' || t.substr(0, 2) == "//") {
            continue;
        }
        std::size_t e = 0;
        while (e < t.size() && !isBlank(t[e]) && t[e] != ',') {
            ++e;
        }
        std::string kw;
        for (char c : t.substr(0, e)) {
            kw.push_back(upper(c));
        }
        return kw;
    }
    return {};
}

BoneNumbering boneNumbering(const std::vector<std::int32_t>& sourceIds)
{
    BoneNumbering b;
    const std::size_t n = sourceIds.size();
    std::vector<std::size_t> at(n, SIZE_MAX);
    bool permutation = true;
    for (std::size_t j = 0; j < n && permutation; ++j) {
        const std::int32_t id = sourceIds[j];
        if (id < 0 || static_cast<std::size_t>(id) >= n ||
            at[static_cast<std::size_t>(id)] != SIZE_MAX) {
            permutation = false;
        } else {
            at[static_cast<std::size_t>(id)] = j;
        }
    }
    b.index.resize(n);
    b.order.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
        if (permutation) {
            b.order[j] = at[j];
            b.index[j] = sourceIds[j];
        } else {
            b.order[j] = j;
            b.index[j] = static_cast<std::int32_t>(j);
        }
    }
    return b;
}

void pointInfluences(const Mesh& me, std::size_t p, std::vector<std::int32_t>& joints,
                     std::vector<float>& weights)
{
    joints.clear();
    weights.clear();
    if (me.pointLinkState[p] == LinkState::List) {
        const std::uint32_t a = me.influenceOffsets.empty() ? 0 : me.influenceOffsets[p];
        const std::uint32_t e = me.influenceOffsets.empty() ? 0 : me.influenceOffsets[p + 1];
        for (std::uint32_t i = a; i < e; ++i) {
            joints.push_back(me.influenceJoints[i]);
            weights.push_back(me.influenceWeights[i]);
        }
        if (!joints.empty() || me.pointParents[p] == kNoJoint) {
            return;
        }
    }
    if (me.pointParents[p] != kNoJoint) {
        joints.push_back(me.pointParents[p]);
        weights.push_back(1.0f);
    }
}

const char* newline(int lineEnding) noexcept
{
    return lineEnding == 1 ? "\r\n" : (lineEnding == 2 ? "\r" : "\n");
}

void appendFloats(std::string& out, const float* v, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        out += ' ';
        appendFloat(out, v[i]);
    }
}

std::string numberText(double v)
{
    std::string s;
    appendNumber(s, v);
    return s;
}

std::string quoted(std::string_view s)
{
    std::string q;
    q.reserve(s.size() + 2);
    q += '"';
    q += s;
    q += '"';
    return q;
}

const char* guessLinePair(const char* p, const char* end, std::initializer_list<std::string_view> a,
                          std::initializer_list<std::string_view> b, int look) noexcept
{
    auto startsWith = [end](const char* q, std::initializer_list<std::string_view> words) {
        while (q < end && (*q == ' ' || *q == '\t')) {
            ++q;
        }
        for (const std::string_view w : words) {
            if (static_cast<std::size_t>(end - q) >= w.size() &&
                std::memcmp(q, w.data(), w.size()) == 0) {
                return true;
            }
        }
        return false;
    };
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) {
        return nullptr;
    }
    p = static_cast<const char*>(nl) + 1;
    const char* candidate = nullptr; // a line starting with `a`, before its next non-blank line
    for (int n = 0; n < look && p < end; ++n) {
        const char* ls = p;
        const void* e = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        p = e ? static_cast<const char*>(e) + 1 : end;
        const char* q = ls;
        while (q < p && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')) {
            ++q;
        }
        if (q == p) {
            continue; // blank
        }
        if (candidate && startsWith(ls, b)) {
            return candidate;
        }
        candidate = startsWith(ls, a) ? ls : nullptr;
    }
    return nullptr;
}

void finishDiagnostics(const TextOut& o, DiagnosticSink& sink)
{
    if (o.nonFinite > 0) {
        sink.warning(ids::kWriteNonFinite, {1, 1, 0},
                     std::to_string(o.nonFinite) +
                         " NaN/Inf values written as nan/inf; some tools reject them");
    }
    if (o.badNames > 0) {
        sink.error(ids::kWriteBadName, {1, 1, 0},
                   std::to_string(o.badNames) +
                       " quote or line-break characters in names replaced by '''");
    }
}

void comments(TextOut& o, const std::vector<std::string>& header)
{
    for (const std::string& c : header) {
        if (c.rfind("//", 0) == 0 || c.rfind(';', 0) == 0) {
            o.kw(c);
        } else {
            o.kw("// ").kw(c);
        }
        o.nl();
    }
}

} // namespace rigscope::core::cod
