#include "core/materials/keyvalues.h"

#include <utility>

#include <cstdint>

namespace rigscope::core {

namespace {

constexpr std::size_t kMaxDepth = 64;

enum class TokKind { End, Open, Close, String, Condition };

struct Token {
    TokKind kind = TokKind::End;
    std::string text;
    SourceLoc where;
};

class Scanner {
public:
    Scanner(std::span<const std::byte> bytes, DiagnosticSink& sink, std::string_view id)
        : m_data(reinterpret_cast<const char*>(bytes.data()), bytes.size()), m_sink(sink), m_id(id)
    {
        // A UTF-8 byte order mark is not part of the first key.
        if (m_data.size() >= 3 && static_cast<unsigned char>(m_data[0]) == 0xEF &&
            static_cast<unsigned char>(m_data[1]) == 0xBB &&
            static_cast<unsigned char>(m_data[2]) == 0xBF) {
            m_pos = 3;
        }
    }

    Token next()
    {
        skipSpaceAndComments();
        Token t;
        t.where = here();
        if (m_pos >= m_data.size()) {
            return t;
        }
        const char c = m_data[m_pos];
        if (c == '{') {
            advance();
            t.kind = TokKind::Open;
            return t;
        }
        if (c == '}') {
            advance();
            t.kind = TokKind::Close;
            return t;
        }
        if (c == '"') {
            advance();
            t.kind = TokKind::String;
            const std::size_t start = m_pos;
            while (m_pos < m_data.size() && m_data[m_pos] != '"' && m_data[m_pos] != '\n') {
                advance();
            }
            t.text.assign(m_data.substr(start, m_pos - start));
            if (m_pos < m_data.size() && m_data[m_pos] == '"') {
                advance();
            } else {
                if (!t.text.empty() && t.text.back() == '\r') {
                    t.text.pop_back();
                }
                m_sink.error(m_id, t.where, "string not closed before the end of the line");
            }
            return t;
        }
        if (c == '[') {
            advance();
            t.kind = TokKind::Condition;
            const std::size_t start = m_pos;
            while (m_pos < m_data.size() && m_data[m_pos] != ']' && m_data[m_pos] != '\n') {
                advance();
            }
            t.text.assign(m_data.substr(start, m_pos - start));
            if (m_pos < m_data.size() && m_data[m_pos] == ']') {
                advance();
            } else {
                m_sink.error(m_id, t.where, "condition '[' not closed before the end of the line");
            }
            return t;
        }
        t.kind = TokKind::String;
        const std::size_t start = m_pos;
        while (m_pos < m_data.size()) {
            const char d = m_data[m_pos];
            if (d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == '{' || d == '}' ||
                d == '"') {
                break;
            }
            if (d == '/' && m_pos + 1 < m_data.size() && m_data[m_pos + 1] == '/') {
                break;
            }
            advance();
        }
        t.text.assign(m_data.substr(start, m_pos - start));
        return t;
    }

    SourceLoc here() const
    {
        return {m_line, std::uint32_t(m_pos - m_lineStart + 1), std::uint64_t(m_pos)};
    }

private:
    void advance()
    {
        if (m_data[m_pos] == '\n') {
            ++m_line;
            m_lineStart = m_pos + 1;
        }
        ++m_pos;
    }

    void skipSpaceAndComments()
    {
        while (m_pos < m_data.size()) {
            const char c = m_data[m_pos];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
                advance();
            } else if (c == '/' && m_pos + 1 < m_data.size() && m_data[m_pos + 1] == '/') {
                while (m_pos < m_data.size() && m_data[m_pos] != '\n') {
                    ++m_pos;
                }
            } else {
                break;
            }
        }
    }

    std::string_view m_data;
    DiagnosticSink& m_sink;
    std::string_view m_id;
    std::size_t m_pos = 0;
    std::size_t m_lineStart = 0;
    std::uint32_t m_line = 1;
};

std::string quoted(std::string_view s)
{
    std::string out = "'";
    out.append(s.substr(0, 64));
    if (s.size() > 64) {
        out += "...";
    }
    out += "'";
    return out;
}

} // namespace

const KvNode* KvNode::find(std::string_view childKey) const noexcept
{
    for (const KvNode& c : children) {
        if (equalsNoCase(c.key, childKey)) {
            return &c;
        }
    }
    return nullptr;
}

bool equalsNoCase(std::string_view a, std::string_view b) noexcept
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i];
        char y = b[i];
        if (x >= 'A' && x <= 'Z') {
            x = char(x - 'A' + 'a');
        }
        if (y >= 'A' && y <= 'Z') {
            y = char(y - 'A' + 'a');
        }
        if (x != y) {
            return false;
        }
    }
    return true;
}

std::string toLowerAscii(std::string_view s)
{
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = char(c - 'A' + 'a');
        }
    }
    return out;
}

bool kvConditionHolds(std::string_view condition) noexcept
{
    // Alternatives separated by "||"; each a conjunction of "&&"-separated terms.
    auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
            s.remove_prefix(1);
        }
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
            s.remove_suffix(1);
        }
        return s;
    };
    auto term = [&](std::string_view t) {
        t = trim(t);
        bool negate = false;
        while (!t.empty() && t.front() == '!') {
            negate = !negate;
            t = trim(t.substr(1));
        }
        const bool value = equalsNoCase(t, "$WIN32") || equalsNoCase(t, "$WINDOWS") ||
                           equalsNoCase(t, "$PC") || equalsNoCase(t, "$WIN64");
        return negate ? !value : value;
    };
    std::string_view rest = condition;
    while (true) {
        const std::size_t bar = rest.find("||");
        std::string_view alt = rest.substr(0, bar);
        bool all = true;
        while (true) {
            const std::size_t amp = alt.find("&&");
            all = all && term(alt.substr(0, amp));
            if (amp == std::string_view::npos) {
                break;
            }
            alt.remove_prefix(amp + 2);
        }
        if (all) {
            return true;
        }
        if (bar == std::string_view::npos) {
            return false;
        }
        rest.remove_prefix(bar + 2);
    }
}

KvDocument parseKeyValues(std::span<const std::byte> bytes, DiagnosticSink& sink,
                          std::string_view syntaxId)
{
    KvDocument doc;
    Scanner scan(bytes, sink, syntaxId);
    // Open blocks, innermost last. Pointers stay valid: a node's own vector is only appended to
    // once the node is closed.
    std::vector<KvNode*> open;
    auto current = [&]() -> std::vector<KvNode>& {
        return open.empty() ? doc.roots : open.back()->children;
    };
    bool haveKey = false;
    KvNode pending;
    std::string pendingCondition;
    while (true) {
        Token t = scan.next();
        if (t.kind == TokKind::End) {
            break;
        }
        if (!haveKey) {
            switch (t.kind) {
            case TokKind::String:
                pending = KvNode{};
                pending.key = std::move(t.text);
                pending.where = t.where;
                pendingCondition.clear();
                haveKey = true;
                break;
            case TokKind::Close:
                if (open.empty()) {
                    sink.error(syntaxId, t.where, "'}' without an open block");
                } else {
                    open.pop_back();
                }
                break;
            case TokKind::Open:
                sink.error(syntaxId, t.where, "'{' without a key before it");
                pending = KvNode{};
                pending.where = t.where;
                pendingCondition.clear();
                haveKey = true;
                [[fallthrough]];
            default:
                if (t.kind == TokKind::Condition) {
                    auto& list = current();
                    if (!list.empty() && list.back().condition.empty()) {
                        list.back().condition = std::move(t.text);
                    } else {
                        sink.error(syntaxId, t.where, "condition [" + t.text + "] after nothing");
                    }
                    break;
                }
                // '{' with no key: open an anonymous block.
                if (open.size() >= kMaxDepth) {
                    sink.error(syntaxId, t.where,
                               "blocks nested deeper than " + std::to_string(kMaxDepth) +
                                   " levels");
                    return doc;
                }
                pending.block = true;
                pending.valueWhere = t.where;
                current().push_back(std::exchange(pending, KvNode{}));
                open.push_back(&current().back());
                haveKey = false;
                break;
            }
            continue;
        }
        // A key is waiting for its value.
        switch (t.kind) {
        case TokKind::String:
            pending.value = std::move(t.text);
            pending.valueWhere = t.where;
            pending.condition = pendingCondition;
            current().push_back(std::exchange(pending, KvNode{}));
            haveKey = false;
            break;
        case TokKind::Condition:
            pendingCondition = std::move(t.text);
            break;
        case TokKind::Open:
            if (open.size() >= kMaxDepth) {
                sink.error(syntaxId, t.where,
                           "blocks nested deeper than " + std::to_string(kMaxDepth) + " levels");
                return doc;
            }
            pending.block = true;
            pending.valueWhere = t.where;
            pending.condition = pendingCondition;
            current().push_back(std::exchange(pending, KvNode{}));
            open.push_back(&current().back());
            haveKey = false;
            break;
        case TokKind::Close:
            sink.error(syntaxId, pending.where, "key " + quoted(pending.key) + " has no value");
            haveKey = false;
            if (open.empty()) {
                sink.error(syntaxId, t.where, "'}' without an open block");
            } else {
                open.pop_back();
            }
            break;
        case TokKind::End:
            break;
        }
    }
    if (haveKey) {
        sink.error(syntaxId, pending.where,
                   "file ends after key " + quoted(pending.key) + " without its value");
    }
    if (!open.empty()) {
        const KvNode* inner = open.back();
        sink.error(syntaxId, scan.here(),
                   "file ends inside block " + quoted(inner->key) + " opened at line " +
                       std::to_string(inner->where.line) + " (" + std::to_string(open.size()) +
                       " '}' missing)");
    }
    return doc;
}

} // namespace rigscope::core
