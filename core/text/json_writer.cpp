#include "core/text/json_writer.h"

#include <cmath>
#include <cstdio>

#include "core/text/numbers.h"

namespace rigscope::core {

void JsonWriter::newline()
{
    if (!m_pretty) {
        return;
    }
    m_out += '\n';
    m_out.append(m_first.size() * 2, ' ');
}

void JsonWriter::separator()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back()) {
            m_out += ',';
        }
        m_first.back() = false;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject()
{
    separator();
    m_out += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty) {
        newline();
    }
    m_out += '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    separator();
    m_out += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty) {
        newline();
    }
    m_out += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k)
{
    separator();
    escape(m_out, k);
    m_out += m_pretty ? ": " : ":";
    m_afterKey = true;
    return *this;
}

void JsonWriter::escape(std::string& out, std::string_view s)
{
    out += '"';
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        // Validate UTF-8 sequences; invalid bytes are written as Latin-1 code points.
        std::size_t len = 0;
        if (c < 0x80) {
            len = 1;
        } else if ((c & 0xE0) == 0xC0 && c >= 0xC2) {
            len = 2;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
        } else if ((c & 0xF8) == 0xF0 && c <= 0xF4) {
            len = 4;
        }
        bool valid = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; valid && k < len; ++k) {
            valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        }
        if (!valid) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
            ++i;
            continue;
        }
        if (len == 1) {
            switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
            }
        } else {
            out.append(s.substr(i, len));
        }
        i += len;
    }
    out += '"';
}

JsonWriter& JsonWriter::value(std::string_view s)
{
    separator();
    escape(m_out, s);
    return *this;
}

JsonWriter& JsonWriter::value(double d)
{
    separator();
    if (!std::isfinite(d)) {
        m_out += "null";
    } else {
        appendNumber(m_out, d);
    }
    return *this;
}

JsonWriter& JsonWriter::value(float f)
{
    separator();
    if (!std::isfinite(f)) {
        m_out += "null";
    } else {
        appendFloat(m_out, f);
    }
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i)
{
    separator();
    appendInt(m_out, i);
    return *this;
}

JsonWriter& JsonWriter::value(bool b)
{
    separator();
    m_out += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null()
{
    separator();
    m_out += "null";
    return *this;
}

} // namespace rigscope::core
