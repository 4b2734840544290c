#include "core/formats/cod/cod_record.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Every keyword of the CoD text grammars, grouped by the fields a complete line has in
// XMODEL_EXPORT, XANIM_EXPORT and NT_EXPORT (0 where the grammar has no such keyword or decides
// by section: XMODEL's BONE and MATERIAL, XANIM's PART and FRAME).
struct KeywordGroup {
    std::array<std::uint8_t, 3> fields; // indexed by Grammar
    std::initializer_list<std::string_view> keywords;
};
const KeywordGroup kKeywords[] = {
    {{0, 0, 0}, {"MODEL", "ANIMATION", "BONE", "MATERIAL", "PART", "NOTETRACKS"}},
    {{1, 1, 0}, {"VERSION"}},
    {{1, 1, 1},
     {"NUMBONES", "NUMVERTS", "NUMVERTS32", "NUMFACES", "NUMOBJECTS", "NUMMATERIALS", "NUMPARTS",
      "NUMFRAMES", "NUMTRACKS", "NUMKEYS"}},
    {{1, 0, 0}, {"BONES", "VERT", "VERT32", "PHONG"}},
    {{2, 0, 0}, {"OBJECT", "COEFFS", "GLOW", "REFRACTIVE", "REFLECTIVE", "BLINN"}},
    {{3, 3, 0}, {"OFFSET", "SCALE", "X", "Y", "Z"}},
    {{3, 0, 0}, {"NORMAL", "UV"}},
    {{4, 0, 0},
     {"TRI", "TRI16", "COLOR", "TRANSPARENCY", "AMBIENTCOLOR", "INCANDESCENCE", "SPECULARCOLOR",
      "REFLECTIVECOLOR"}},
    {{0, 1, 0}, {"FRAMERATE", "NOTETRACK"}},
    {{0, 0, 2}, {"FRAME"}},
    {{0, 0, 1}, {"FIRSTFRAME"}},
};

// The group of the first keyword `match` accepts; nullptr when none does.
template <class Match> const KeywordGroup* findKeyword(Match match) noexcept
{
    for (const KeywordGroup& group : kKeywords) {
        for (const std::string_view k : group.keywords) {
            if (match(k)) {
                return &group;
            }
        }
    }
    return nullptr;
}

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

TextRecordStream::TextRecordStream(std::string_view text, DiagnosticSink& sink,
                                   std::vector<std::string>* headerComments)
    : m_sink(sink), m_header(headerComments)
{
    // A UTF-8 byte order mark is not part of the first keyword.
    const std::size_t bom = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    m_lines = LineScanner(text.data(), text.data() + bom, text.data() + text.size());
}

LineEnding TextRecordStream::lineEnding() const noexcept
{
    const std::uint64_t lf = m_lines.lfCount(), crlf = m_lines.crlfCount(), cr = m_lines.crCount();
    if (crlf >= lf && crlf >= cr && crlf > 0) {
        return LineEnding::CRLF;
    }
    if (cr > lf && cr > crlf) {
        return LineEnding::CR;
    }
    return LineEnding::LF;
}

std::size_t keywordFields(std::string_view keyword, Grammar g) noexcept
{
    if (keyword.starts_with("NUM")) {
        return 1; // every count line, listed or not (NUMCOSMETICBONES, NUMSBONES...)
    }
    const KeywordGroup* group = findKeyword([keyword](std::string_view k) { return k == keyword; });
    return group ? group->fields[static_cast<std::size_t>(g)] : 0;
}

bool isCutKeyword(std::string_view keyword) noexcept
{
    return findKeyword([keyword](std::string_view k) {
               return keyword.size() < k.size() && k.starts_with(keyword);
           }) != nullptr;
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

bool argFloatSlow(const Record& r, std::size_t i, float& out, DiagnosticSink& sink,
                  std::string_view field)
{
    return argNumber(r, i, out, sink, field, "float", parseFloat);
}

bool argDouble(const Record& r, std::size_t i, double& out, DiagnosticSink& sink,
               std::string_view field)
{
    return argNumber(r, i, out, sink, field, "float", parseDouble);
}

bool argIntSlow(const Record& r, std::size_t i, std::int32_t& out, DiagnosticSink& sink,
                std::string_view field)
{
    return argNumber(r, i, out, sink, field, "int", parseInt);
}

std::string argName(const Record& r, std::size_t i, DiagnosticSink& sink)
{
    std::string s = argString(r, i);
    if (const std::string_view issue = nameIssue(s); !issue.empty()) {
        sink.warning(ids::kSyntaxNonAscii, argLoc(r, i),
                     "name '" + shownToken(s) + "' contains " + std::string(issue));
    }
    return s;
}

std::string argString(const Record& r, std::size_t i)
{
    if (i >= r.argc || r.args[i].hasNum) {
        return {};
    }
    return std::string(r.binary ? r.args[i].text : unquote(r.args[i].text));
}

bool firstKeywordIs(std::string_view head,
                    std::initializer_list<std::string_view> keywords) noexcept
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
        const std::string_view kw = t.substr(0, std::min(t.find_first_of(" \t\f\v,"), t.size()));
        for (const std::string_view k : keywords) {
            if (kw.size() == k.size() && std::equal(kw.begin(), kw.end(), k.begin(),
                                                    [](char c, char u) { return upper(c) == u; })) {
                return true;
            }
        }
        return false;
    }
    return false;
}

BoneNumbering boneNumbering(const std::vector<std::int32_t>& sourceIds)
{
    const std::size_t n = sourceIds.size();
    BoneNumbering b{std::vector<std::size_t>(n, SIZE_MAX), sourceIds};
    for (std::size_t j = 0; j < n; ++j) {
        const std::int32_t id = sourceIds[j];
        if (id < 0 || static_cast<std::size_t>(id) >= n ||
            b.order[static_cast<std::size_t>(id)] != SIZE_MAX) {
            // not a permutation: joint order
            std::iota(b.order.begin(), b.order.end(), std::size_t{0});
            std::iota(b.index.begin(), b.index.end(), 0);
            return b;
        }
        b.order[static_cast<std::size_t>(id)] = j;
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
    }
    if (joints.empty() && me.pointParents[p] != kNoJoint) {
        joints.push_back(me.pointParents[p]);
        weights.push_back(1.0f);
    }
}

const char* guessLinePair(const char* p, const char* end, std::initializer_list<std::string_view> a,
                          std::initializer_list<std::string_view> b, int look) noexcept
{
    auto startsWith = [end](const char* q, std::initializer_list<std::string_view> words) {
        while (q < end && (*q == ' ' || *q == '\t')) {
            ++q;
        }
        const std::string_view rest(q, static_cast<std::size_t>(end - q));
        return std::any_of(words.begin(), words.end(),
                           [rest](std::string_view w) { return rest.starts_with(w); });
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
