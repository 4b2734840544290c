// keyvalues2, the text encoding of DMX (docs/dmx.md §3): quoted tokens, `{ }` element bodies,
// `[ , ]` arrays. An attribute is `"name" "type" value`; a type that is not a value type names
// the class of an inline element. Elements refer to each other by id ("element" "id").
#include <charconv>
#include <cstring>
#include <unordered_map>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx_document.h"
#include "core/text/numbers.h"

namespace rigscope::core::dmx {

namespace {

constexpr int kMaxDepth = 256;

enum class Tok : std::uint8_t { End, String, Open, Close, OpenArr, CloseArr, Comma, Bad };
constexpr std::string_view kUnterminated = "unterminated string";

struct Token {
    Tok kind = Tok::End;
    std::string_view text; // String: the contents (escapes undone in `owned` when needed)
    SourceLoc where;
};

class Lexer {
public:
    Lexer(std::string_view b, std::size_t pos) : m_bytes(b), m_pos(pos)
    {
        // Line numbers count the header line.
        for (std::size_t i = 0; i < pos && i < b.size(); ++i) {
            if (b[i] == '\n') {
                ++m_line;
                m_lineStart = i + 1;
            }
        }
    }

    SourceLoc here() const noexcept
    {
        return {m_line, static_cast<std::uint32_t>(m_pos - m_lineStart + 1), m_pos};
    }

    Token next()
    {
        if (m_peeked) {
            m_peeked = false;
            return m_peek;
        }
        return lex();
    }
    bool hasPeeked() const noexcept { return m_peeked; }
    const Token& peek()
    {
        if (!m_peeked) {
            m_peek = lex();
            m_peeked = true;
        }
        return m_peek;
    }

    // The fast path for numeric arrays (docs/dmx.md §6), called just after the '[': reads
    // items `"n n n"` separated by commas where they stand, each number through the inline
    // scanners, straight into `a` (`width` numbers per item; ints when `integer`). Returns true
    // after consuming the closing ']'. Returns false before the first item it declines (a bare
    // word, an escape, a comment, a number the scanners leave to from_chars, a wrong count...),
    // with nothing of that item consumed: the token path then reads it and reports it.
    bool numericItems(Attribute& a, std::size_t width, bool integer)
    {
        // Items gather in the lexer's scratch arrays (grown once to the largest array of the
        // file) and are copied once into an exactly sized `a`, on success or not.
        m_fastInts.clear();
        m_fastFloats.clear();
        const bool done = scanNumericItems(a, width, integer);
        if (integer) {
            a.ints.insert(a.ints.end(), m_fastInts.begin(), m_fastInts.end());
        } else {
            a.floats.insert(a.floats.end(), m_fastFloats.begin(), m_fastFloats.end());
        }
        return done;
    }

private:
    bool scanNumericItems(Attribute& a, std::size_t width, bool integer)
    {
        const char* const base = m_bytes.data();
        const char* const e = base + m_bytes.size();
        const char* p = base + m_pos;
        std::uint32_t line = m_line;
        std::size_t lineStart = m_lineStart;
        float f[16];
        std::int32_t n = 0;
        for (;;) {
            // White space (counting lines) and at most one comma before the next item.
            bool comma = false;
            for (; p != e; ++p) {
                const char c = *p;
                if (c == '\n') {
                    ++line;
                    lineStart = static_cast<std::size_t>(p - base) + 1;
                } else if (c == ',' && !comma) {
                    comma = true;
                } else if (c != ' ' && c != '\t' && c != '\r') {
                    break;
                }
            }
            if (p == e || (*p != '"' && *p != ']') || (comma && *p == ']')) {
                return false; // the token path reports it (end of file, comment, bare word)
            }
            if (*p == ']' && !comma) {
                m_pos = static_cast<std::size_t>(p - base) + 1;
                m_line = line;
                m_lineStart = lineStart;
                return true;
            }
            // Commit to here: a declined item restarts at its opening quote.
            m_pos = static_cast<std::size_t>(p - base);
            m_line = line;
            m_lineStart = lineStart;
            const char* q = p + 1;
            for (std::size_t k = 0; k < width; ++k) {
                if (k > 0) {
                    if (q == e || *q != ' ') {
                        return false;
                    }
                    while (q != e && *q == ' ') {
                        ++q;
                    }
                }
                q = integer ? scanInt(q, e, n) : scanFloat(q, e, f[k]);
                if (q == nullptr) {
                    return false;
                }
            }
            if (q == e || *q != '"') {
                return false;
            }
            if (integer) {
                m_fastInts.push_back(n);
            } else {
                for (std::size_t k = 0; k < width; ++k) {
                    m_fastFloats.push_back(f[k]);
                }
            }
            ++a.count;
            p = q + 1;
            m_pos = static_cast<std::size_t>(p - base);
        }
    }

    Token lex()
    {
        const SourceLoc afterPrevious = here(); // where the file ends, if nothing follows
        for (;;) {
            while (m_pos < m_bytes.size()) {
                const char c = m_bytes[m_pos];
                if (c == '\n') {
                    ++m_line;
                    m_lineStart = ++m_pos;
                } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                    ++m_pos;
                } else {
                    break;
                }
            }
            if (m_pos + 1 < m_bytes.size() && m_bytes[m_pos] == '/' && m_bytes[m_pos + 1] == '/') {
                while (m_pos < m_bytes.size() && m_bytes[m_pos] != '\n') {
                    ++m_pos;
                }
                continue;
            }
            break;
        }
        Token t;
        t.where = here();
        if (m_pos >= m_bytes.size()) {
            t.where = afterPrevious; // the end: reported where the last token ends
            return t;
        }
        const char c = m_bytes[m_pos];
        switch (c) {
        case '{':
            ++m_pos;
            t.kind = Tok::Open;
            return t;
        case '}':
            ++m_pos;
            t.kind = Tok::Close;
            return t;
        case '[':
            ++m_pos;
            t.kind = Tok::OpenArr;
            return t;
        case ']':
            ++m_pos;
            t.kind = Tok::CloseArr;
            return t;
        case ',':
            ++m_pos;
            t.kind = Tok::Comma;
            return t;
        case '"':
            return quoted(t);
        default:
            break;
        }
        // Bare word up to white space or a delimiter.
        const std::size_t s = m_pos;
        while (m_pos < m_bytes.size()) {
            const char d = m_bytes[m_pos];
            if (d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == '{' || d == '}' ||
                d == '[' || d == ']' || d == ',' || d == '"') {
                break;
            }
            ++m_pos;
        }
        t.kind = Tok::String;
        t.text = m_bytes.substr(s, m_pos - s);
        return t;
    }

    Token quoted(Token& t)
    {
        const std::size_t s = ++m_pos;
        const char* base = m_bytes.data();
        const char* end = base + m_bytes.size();
        const char* p = base + s;
        bool escaped = false;
        for (;;) {
            const void* q = std::memchr(p, '"', static_cast<std::size_t>(end - p));
            if (!q) {
                t.kind = Tok::Bad;
                t.text = kUnterminated; // no closing quote before the end of the file
                m_pos = m_bytes.size();
                return t;
            }
            const char* qq = static_cast<const char*>(q);
            // Count the backslashes before the quote.
            std::size_t bs = 0;
            while (qq - static_cast<std::ptrdiff_t>(bs) - 1 >= p &&
                   *(qq - static_cast<std::ptrdiff_t>(bs) - 1) == '\\') {
                ++bs;
            }
            if (bs > 0) {
                escaped = true;
            }
            if (bs % 2 == 1) {
                p = qq + 1;
                continue;
            }
            const auto e = static_cast<std::size_t>(qq - base);
            // Strings may span lines; keep the line count right (memchr: most have no newline).
            const char* from = base + s;
            const auto len = e - s;
            escaped = escaped || std::memchr(from, '\\', len) != nullptr;
            for (const char* nl = static_cast<const char*>(std::memchr(from, '\n', len)); nl;
                 nl = static_cast<const char*>(
                     std::memchr(nl + 1, '\n', static_cast<std::size_t>(qq - nl - 1)))) {
                ++m_line;
                m_lineStart = static_cast<std::size_t>(nl - base) + 1;
            }
            m_pos = e + 1;
            t.kind = Tok::String;
            if (!escaped) {
                t.text = m_bytes.substr(s, e - s);
            } else {
                std::string& o = m_owned[m_ownedNext++ % 4];
                o.clear();
                for (std::size_t i = s; i < e; ++i) {
                    char ch = m_bytes[i];
                    if (ch == '\\' && i + 1 < e) {
                        const char n = m_bytes[++i];
                        ch = n == 'n' ? '\n' : n == 't' ? '\t' : n;
                    }
                    o.push_back(ch);
                }
                t.text = o;
            }
            return t;
        }
    }

    std::string_view m_bytes;
    std::size_t m_pos;
    std::uint32_t m_line = 1;
    std::size_t m_lineStart = 0;
    bool m_peeked = false;
    Token m_peek;
    std::string m_owned[4];
    std::size_t m_ownedNext = 0;
    std::vector<std::int32_t> m_fastInts;
    std::vector<float> m_fastFloats;
};

bool parseFloat(std::string_view s, float& v) noexcept
{
    if (!s.empty() && s.front() == '+') {
        s.remove_prefix(1);
    }
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Splits on spaces; false unless exactly `n` numbers.
bool parseFloats(std::string_view s, std::size_t n, float* out) noexcept
{
    std::size_t k = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) {
            ++i;
        }
        const std::size_t b = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') {
            ++i;
        }
        if (i > b) {
            if (k == n || !parseFloat(s.substr(b, i - b), out[k])) {
                return false;
            }
            ++k;
        }
    }
    return k == n;
}

bool parseInt(std::string_view s, std::int32_t& v) noexcept
{
    if (!s.empty() && s.front() == '+') {
        s.remove_prefix(1);
    }
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

struct PendingRef {
    std::size_t element;
    std::size_t attr;
};

class Kv2Parser {
public:
    Kv2Parser(std::string_view b, std::size_t pos, Document& doc, DiagnosticSink& sink)
        : m_lex(b, pos), m_doc(doc), m_sink(sink)
    {
    }

    bool run()
    {
        while (!m_failed) {
            Token t = m_lex.next();
            if (t.kind == Tok::End) {
                break;
            }
            if (t.kind != Tok::String) {
                syntax(t, "expected an element type");
                break;
            }
            element(std::string(t.text), t.where, 0);
        }
        resolve();
        if (m_doc.elements.empty() && !m_failed) {
            m_sink.error(ids::kDmxSyntax, m_lex.here(), "the file holds no elements");
        }
        return !m_doc.elements.empty();
    }

private:
    void syntax(const Token& t, const std::string& what)
    {
        if (m_failed) {
            return;
        }
        m_failed = true;
        std::string got;
        switch (t.kind) {
        case Tok::End:
            got = "the end of the file";
            break;
        case Tok::String:
            got = "'" + std::string(t.text.substr(0, 40)) + "'";
            break;
        case Tok::Open:
            got = "'{'";
            break;
        case Tok::Close:
            got = "'}'";
            break;
        case Tok::OpenArr:
            got = "'['";
            break;
        case Tok::CloseArr:
            got = "']'";
            break;
        case Tok::Comma:
            got = "','";
            break;
        case Tok::Bad:
            got = std::string(t.text);
            break;
        }
        // A file that ends inside an element is cut short: an integrity error under every
        // profile (syntax.truncated), as in every other reader.
        const bool cut = t.kind == Tok::End || (t.kind == Tok::Bad && t.text == kUnterminated);
        m_sink.error(cut ? ids::kSyntaxTruncated : ids::kDmxSyntax, t.where,
                     what + ", got " +
                         (t.kind == Tok::Bad && cut ? "a string the file ends in" : got));
    }

    // Parses `{ attributes }` of a new element of `type`; returns its index.
    std::int32_t element(std::string type, SourceLoc where, int depth)
    {
        if (depth > kMaxDepth) {
            m_failed = true;
            m_sink.error(ids::kDmxSyntax, where,
                         "elements nested deeper than " + std::to_string(kMaxDepth));
            return kNullElement;
        }
        Token open = m_lex.next();
        if (open.kind != Tok::Open) {
            syntax(open, "expected '{' after element type '" + type + "'");
            return kNullElement;
        }
        const std::size_t self = m_doc.elements.size();
        m_doc.elements.emplace_back();
        m_doc.elements[self].type = std::move(type);
        m_doc.elements[self].where = where;
        while (!m_failed) {
            Token name = m_lex.next();
            if (name.kind == Tok::Close) {
                break;
            }
            if (name.kind != Tok::String) {
                syntax(name, "expected an attribute name or '}'");
                break;
            }
            Token typeTok = m_lex.next();
            if (typeTok.kind != Tok::String) {
                syntax(typeTok, "expected the type of attribute '" + std::string(name.text) + "'");
                break;
            }
            attribute(self, std::string(name.text), typeTok, name.where, depth);
        }
        return static_cast<std::int32_t>(self);
    }

    void attribute(std::size_t self, std::string name, const Token& typeTok, SourceLoc where,
                   int depth)
    {
        std::string_view typeStr = typeTok.text;
        Attribute a;
        a.name = std::move(name);
        a.where = where;
        constexpr std::string_view kArray = "_array";
        if (typeStr.size() > kArray.size() &&
            typeStr.substr(typeStr.size() - kArray.size()) == kArray) {
            a.array = true;
            typeStr.remove_suffix(kArray.size());
        }
        if (!a.array && typeStr == "elementid") {
            Token v = m_lex.next();
            if (v.kind != Tok::String) {
                syntax(v, "expected the element id");
                return;
            }
            m_doc.elements[self].id = std::string(v.text);
            return;
        }
        a.type = typeFromName(typeStr);
        if (a.type == AttrType::Unknown) {
            if (!a.array && m_lex.peek().kind == Tok::Open) { // inline element
                a.type = AttrType::Element;
                a.count = 1;
                const std::int32_t child = element(std::string(typeStr), typeTok.where, depth + 1);
                a.ints.push_back(child);
                m_doc.elements[self].attrs.push_back(std::move(a));
                return;
            }
            m_failed = true;
            m_sink.error(ids::kDmxAttributeType, typeTok.where,
                         "attribute '" + a.name + "' has unknown type '" +
                             std::string(typeTok.text) + "'");
            return;
        }
        if (!a.array) {
            Token v = m_lex.next();
            if (v.kind != Tok::String) {
                syntax(v, "expected the value of attribute '" + a.name + "'");
                return;
            }
            value(a, v, self);
            if (a.name == "name" && a.type == AttrType::String) {
                m_doc.elements[self].name = a.strings.front();
                return;
            }
            m_doc.elements[self].attrs.push_back(std::move(a));
            return;
        }
        Token open = m_lex.next();
        if (open.kind != Tok::OpenArr) {
            syntax(open, "expected '[' for array attribute '" + a.name + "'");
            return;
        }
        const bool integer = a.type == AttrType::Int;
        const std::size_t width = integer ? 1 : floatWidth(a.type);
        if (width > 0 && !m_lex.hasPeeked() && m_lex.numericItems(a, width, integer)) {
            m_doc.elements[self].attrs.push_back(std::move(a));
            return;
        }
        while (!m_failed) {
            Token item = m_lex.next();
            if (item.kind == Tok::CloseArr) {
                break;
            }
            if (item.kind == Tok::Comma) {
                continue;
            }
            if (item.kind != Tok::String) {
                syntax(item, "expected an item of array '" + a.name + "' or ']'");
                return;
            }
            if (a.type == AttrType::Element) {
                if (item.text == "element") {
                    Token id = m_lex.next();
                    if (id.kind != Tok::String) {
                        syntax(id, "expected an element id");
                        return;
                    }
                    value(a, id, self);
                } else {
                    const std::int32_t child =
                        element(std::string(item.text), item.where, depth + 1);
                    a.ints.push_back(child);
                    a.strings.emplace_back();
                    ++a.count;
                }
                continue;
            }
            value(a, item, self);
        }
        if (a.type == AttrType::Element) {
            bool anyId = false;
            for (const std::string& id : a.strings) {
                anyId = anyId || !id.empty();
            }
            if (anyId) {
                m_pending.push_back({self, m_doc.elements[self].attrs.size()});
            } else {
                a.strings.clear();
            }
        }
        m_doc.elements[self].attrs.push_back(std::move(a));
    }

    void bad(const Attribute& a, const Token& v, std::string_view expected)
    {
        m_sink.error(ids::kDmxAttributeType, v.where,
                     "attribute '" + a.name + "' (" + std::string(typeName(a.type)) +
                         "): expected " + std::string(expected) + ", got '" +
                         std::string(v.text.substr(0, 60)) + "'");
    }

    // Appends one item of `a.type` parsed from the token.
    void value(Attribute& a, const Token& v, std::size_t self)
    {
        ++a.count;
        const std::string_view s = v.text;
        switch (a.type) {
        case AttrType::Element:
            // A reference by id, resolved once every element is known.
            a.ints.push_back(kNullElement);
            a.strings.emplace_back(s);
            if (!a.array) {
                m_pending.push_back({self, m_doc.elements[self].attrs.size()});
            }
            return;
        case AttrType::Int:
        case AttrType::UInt8: {
            std::int32_t x = 0;
            if (!parseInt(s, x)) {
                bad(a, v, "an integer");
            }
            a.ints.push_back(x);
            return;
        }
        case AttrType::Bool: {
            const bool t = s == "1" || s == "true";
            if (!t && s != "0" && s != "false") {
                bad(a, v, "0 or 1");
            }
            a.ints.push_back(t ? 1 : 0);
            return;
        }
        case AttrType::String:
        case AttrType::ObjectId:
            a.strings.emplace_back(s);
            return;
        case AttrType::Binary: {
            std::string out;
            std::size_t digits = 0;
            int hi = -1;
            for (char c : s) {
                int d = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
                if (d < 0) {
                    continue; // white space between bytes
                }
                ++digits;
                if (hi < 0) {
                    hi = d;
                } else {
                    out.push_back(static_cast<char>(hi * 16 + d));
                    hi = -1;
                }
            }
            if (digits % 2 != 0) {
                bad(a, v, "an even number of hex digits");
            }
            a.strings.push_back(std::move(out));
            return;
        }
        case AttrType::Color: {
            float c[4] = {0, 0, 0, 255};
            if (!parseFloats(s, 4, c) && !parseFloats(s, 3, c)) {
                bad(a, v, "3 or 4 numbers");
            }
            for (float x : c) {
                a.ints.push_back(static_cast<std::int32_t>(x));
            }
            return;
        }
        case AttrType::UInt64: {
            std::uint64_t x = 0;
            std::string_view d = s;
            int base = 10;
            if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
                d.remove_prefix(2);
                base = 16;
            }
            const auto r = std::from_chars(d.data(), d.data() + d.size(), x, base);
            if (r.ec != std::errc() || r.ptr != d.data() + d.size()) {
                bad(a, v, "an unsigned integer");
            }
            a.u64.push_back(x);
            return;
        }
        default: {
            const std::size_t w = floatWidth(a.type);
            float f[16] = {};
            if (!parseFloats(s, w, f)) {
                bad(a, v, w == 1 ? std::string("a number") : std::to_string(w) + " numbers");
                std::fill(f, f + 16, 0.0f);
                if (a.type == AttrType::Quaternion) {
                    f[3] = 1.0f;
                }
            }
            a.floats.insert(a.floats.end(), f, f + w);
            return;
        }
        }
    }

    void resolve()
    {
        std::unordered_map<std::string_view, std::int32_t> byId;
        byId.reserve(m_doc.elements.size());
        for (std::size_t i = 0; i < m_doc.elements.size(); ++i) {
            const std::string& id = m_doc.elements[i].id;
            if (!id.empty()) {
                byId.emplace(id, static_cast<std::int32_t>(i));
            }
        }
        for (const PendingRef& p : m_pending) {
            if (p.element >= m_doc.elements.size() ||
                p.attr >= m_doc.elements[p.element].attrs.size()) {
                continue;
            }
            Attribute& a = m_doc.elements[p.element].attrs[p.attr];
            for (std::size_t i = 0; i < a.strings.size() && i < a.ints.size(); ++i) {
                const std::string& id = a.strings[i];
                if (a.ints[i] != kNullElement || id.empty()) {
                    continue;
                }
                const auto it = byId.find(id);
                if (it == byId.end()) {
                    m_sink.error(ids::kDmxBadReference, a.where,
                                 "attribute '" + a.name + "' refers to element id '" + id +
                                     "', which no element has");
                    continue;
                }
                a.ints[i] = it->second;
            }
            a.strings.clear();
        }
    }

    Lexer m_lex;
    Document& m_doc;
    DiagnosticSink& m_sink;
    bool m_failed = false;
    std::vector<PendingRef> m_pending;
};

} // namespace

bool parseKeyValues2(std::string_view bytes, std::size_t start, Document& doc, DiagnosticSink& sink)
{
    Kv2Parser p(bytes, start, doc, sink);
    return p.run();
}

} // namespace rigscope::core::dmx
