#include "core/formats/cod/cod_record.h"

#include <cmath>
#include <cstring>

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

// A plain number through the inline scanners (bit-identical to parseFloat / parseInt where they
// accept); the rest goes to the parsers.
bool scanned(std::string_view t, float& out) noexcept
{
    const char* e = t.data() + t.size();
    return !t.empty() && scanFloat(t.data(), e, out) == e;
}
bool scanned(std::string_view t, std::int32_t& out) noexcept
{
    const char* e = t.data() + t.size();
    return !t.empty() && scanInt(t.data(), e, out) == e;
}

// Cuts a `//` comment outside quotes and returns the remaining line (from `first` on, the
// first non-blank byte); `comma` gets the first comma outside quotes followed by something
// other than a blank in what remains (syntax.cod-comma). One pass.
std::string_view cutComment(std::string_view line, std::size_t first, std::size_t& comma) noexcept
{
    bool inQuote = false;
    const std::size_t n = line.size();
    for (std::size_t i = first; i < n; ++i) {
        const char c = line[i];
        if (c == '"') {
            inQuote = !inQuote;
        } else if (inQuote) {
            continue;
        } else if (c == '/' && i + 1 < n && line[i + 1] == '/') {
            return line.substr(0, i);
        } else if (c == ',' && comma == std::string_view::npos && i + 1 < n &&
                   !isBlank(line[i + 1]) &&
                   !(line[i + 1] == '/' && i + 2 < n && line[i + 2] == '/')) {
            comma = i;
        }
    }
    return line;
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

bool TextRecordStream::next(Record& r)
{
    auto& toks = m_toks;
    while (m_lines.next()) {
        const std::string_view line = m_lines.line();
        const auto start = static_cast<std::size_t>(m_lines.offset(line.data()));
        const bool last = m_lines.atEnd() && !m_lines.terminated();
        m_line = m_lines.lineNumber();

        std::size_t first = 0;
        while (first < line.size() && isBlank(line[first])) {
            ++first;
        }
        if (first == line.size()) {
            continue;
        }
        std::string_view content = line;
        std::size_t comma = std::string_view::npos; // syntax.cod-comma
        bool comment = line[first] == ';';
        if (!comment) {
            content = cutComment(line, first, comma);
            comment = trim(content).empty();
        }
        if (comment) {
            if (!m_sawKeyword && m_header) {
                m_header->emplace_back(trim(line));
            }
            continue;
        }
        auto locOf = [&](std::string_view tok) {
            const auto col = static_cast<std::size_t>(tok.data() - line.data());
            return SourceLoc{m_line, static_cast<std::uint32_t>(col + 1), start + col};
        };
        bool more = false;
        bool unterminated = false;
        const std::size_t count =
            Tokenizer::split(content, toks.data(), toks.size(), true, &more, &unterminated);
        if (count == 0) {
            continue;
        }
        if (unterminated && last) {
            m_cutString = locOf(toks[0]);
            continue;
        }
        if (unterminated) {
            m_sink.warning(ids::kSyntaxUnterminatedString, locOf(toks[count - 1]),
                           "quoted string runs to the end of the line; line dropped");
            continue;
        }
        if (comma != std::string_view::npos) {
            m_sink.note(ids::kSyntaxCodComma, locOf(content.substr(comma, 1)),
                        "comma without space; PyCoD-based tools fail to split it");
        }
        const std::string_view kw = toks[0];
        r.keyword.clear();
        bool lower = false;
        for (char c : kw) {
            lower = lower || (c >= 'a' && c <= 'z');
            r.keyword.push_back(upper(c));
        }
        r.loc = locOf(kw);
        r.keywordLoc = r.loc;
        r.binary = false;
        if (lower) {
            m_sink.error(ids::kSyntaxKeywordCase, r.loc,
                         "'" + shownToken(kw) + "' must be '" + shownToken(r.keyword) +
                             "' for cod");
        }
        r.argc = count - 1;
        r.moreArgs = more;
        r.cut = last;
        for (std::size_t k = 1; k < count; ++k) {
            Arg& a = r.args[k - 1];
            a.text = toks[k];
            a.hasNum = false;
            a.num = 0;
            a.isString = !toks[k].empty() && toks[k].front() == '"';
            a.loc = locOf(toks[k]);
        }
        m_sawKeyword = true;
        return true;
    }
    return false;
}

SourceLoc argLoc(const Record& r, std::size_t i) noexcept
{
    return i < r.argc ? r.args[i].loc : r.loc;
}

bool needArgs(const Record& r, std::size_t n, DiagnosticSink& sink, std::string_view kind)
{
    if (r.argc >= n) {
        return true;
    }
    sink.error(ids::kSyntaxShortLine, r.loc,
               std::string(kind) + " line has " + plural(r.argc + 1, "field") + "; needs " +
                   std::to_string(n + 1));
    return false;
}

bool argFloat(const Record& r, std::size_t i, float& out, DiagnosticSink& sink,
              std::string_view field)
{
    if (i >= r.argc) {
        return false;
    }
    const Arg& a = r.args[i];
    if (a.hasNum) {
        out = static_cast<float>(a.num);
        return true;
    }
    if (!a.isString && (scanned(a.text, out) || parseFloat(a.text, out))) {
        return true;
    }
    sink.error(ids::kSyntaxBadNumber, a.loc,
               "expected float for " + std::string(field) + ", got '" + std::string(a.text) + "'");
    return false;
}

bool argDouble(const Record& r, std::size_t i, double& out, DiagnosticSink& sink,
               std::string_view field)
{
    if (i >= r.argc) {
        return false;
    }
    const Arg& a = r.args[i];
    if (a.hasNum) {
        out = a.num;
        return true;
    }
    if (!a.isString && parseDouble(a.text, out)) {
        return true;
    }
    sink.error(ids::kSyntaxBadNumber, a.loc,
               "expected float for " + std::string(field) + ", got '" + std::string(a.text) + "'");
    return false;
}

bool argInt(const Record& r, std::size_t i, std::int32_t& out, DiagnosticSink& sink,
            std::string_view field)
{
    if (i >= r.argc) {
        return false;
    }
    const Arg& a = r.args[i];
    if (a.hasNum) {
        out = static_cast<std::int32_t>(a.num);
        return true;
    }
    if (!a.isString && (scanned(a.text, out) || parseInt(a.text, out))) {
        return true;
    }
    sink.error(ids::kSyntaxBadNumber, a.loc,
               "expected int for " + std::string(field) + ", got '" + std::string(a.text) + "'");
    return false;
}

bool argFloats(const Record& r, std::size_t first, std::size_t n, float* out, DiagnosticSink& sink,
               std::string_view field)
{
    for (std::size_t k = 0; k < n; ++k) {
        if (!argFloat(r, first + k, out[k], sink, field)) {
            return false;
        }
    }
    return true;
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

} // namespace rigscope::core::cod
