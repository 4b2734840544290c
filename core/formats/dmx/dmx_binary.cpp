// Binary DMX, encodings 1-5 and 9 (docs/dmx.md §2). Layout per version:
//   v1:   no string table; element type and name, attribute names and strings are C strings.
//   v2-3: string table (int16 count, int16 indices) for element types and attribute names.
//   v4:   int32 count, int16 indices; element names and single strings also from the table.
//   v5:   int32 count and indices.
//   v9:   v5 plus "prefix" attributes before the table; type ids 1-16, arrays at +32.
// Type ids 1-14 (element .. matrix) and arrays at +14 before v9; id 7 is an element id
// (16 bytes) in v1-2 and a time (int32 ticks of 1/10000 s) from v3. Every count is checked
// against the bytes left before anything is allocated.
#include <cstring>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx_document.h"
#include "core/text/plural.h"

namespace rigscope::core::dmx {

namespace {

std::string hexId(const char* p)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s(32, '0');
    for (std::size_t i = 0; i < 16; ++i) {
        const auto b = static_cast<unsigned char>(p[i]);
        s[2 * i] = kHex[b >> 4];
        s[2 * i + 1] = kHex[b & 15];
    }
    return s;
}

class Reader {
public:
    Reader(std::string_view b, std::size_t pos, DiagnosticSink& sink)
        : m_data(b), m_pos(pos), m_sink(sink)
    {
    }

    std::size_t pos() const noexcept { return m_pos; }
    std::size_t left() const noexcept { return m_pos < m_data.size() ? m_data.size() - m_pos : 0; }
    bool failed() const noexcept { return m_failed; }

    void fail(std::size_t at, std::string message, std::string_view id = ids::kDmxSyntax)
    {
        if (!m_failed) {
            m_failed = true;
            m_sink.error(id, {0, 0, at}, std::move(message));
        }
    }
    bool need(std::size_t n, const char* what)
    {
        if (m_failed) {
            return false;
        }
        if (left() < n) {
            fail(m_pos,
                 std::string("file ends inside ") + what + " (needs " + groupedCount(n) +
                     " bytes, " + groupedCount(left()) + " left)",
                 ids::kSyntaxTruncated); // cut short: an integrity error under every profile
            return false;
        }
        return true;
    }
    template <class T> bool read(T& out, const char* what)
    {
        if (!need(sizeof(T), what)) {
            return false;
        }
        std::memcpy(&out, m_data.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool cstring(std::string& out, const char* what)
    {
        if (m_failed) {
            return false;
        }
        const std::size_t end = m_data.find('\0', m_pos);
        if (end == std::string_view::npos) {
            fail(m_pos, std::string("file ends inside a string of ") + what, ids::kSyntaxTruncated);
            return false;
        }
        out.assign(m_data.data() + m_pos, end - m_pos);
        m_pos = end + 1;
        return true;
    }
    bool raw(std::size_t n, const char*& out, const char* what)
    {
        if (!need(n, what)) {
            return false;
        }
        out = m_data.data() + m_pos;
        m_pos += n;
        return true;
    }
    // A count read as int32 that must be >= 0 and fit in the bytes left at `minSize` each.
    bool count(std::int32_t& n, std::size_t minSize, const char* what)
    {
        const std::size_t at = m_pos;
        if (!read(n, what)) {
            return false;
        }
        if (n < 0) {
            fail(at, std::string("negative ") + what + " count " + std::to_string(n));
            return false;
        }
        if (minSize > 0 && static_cast<std::size_t>(n) > left() / minSize) {
            fail(at, std::string(what) + " count " + groupedCount(static_cast<std::uint64_t>(n)) +
                         " needs at least " +
                         groupedCount(static_cast<std::uint64_t>(n) * minSize) + " bytes; " +
                         groupedCount(left()) + " left");
            return false;
        }
        return true;
    }

private:
    std::string_view m_data;
    std::size_t m_pos;
    DiagnosticSink& m_sink;
    bool m_failed = false;
};

class BinaryParser {
public:
    BinaryParser(std::string_view b, std::size_t pos, int version, Document& doc,
                 DiagnosticSink& sink)
        : m_bytes(b), m_reader(b, pos, sink), m_version(version), m_doc(doc), m_sink(sink)
    {
        m_hasTable = version >= 2;
        m_wideIndex = version >= 5;
    }

    bool run()
    {
        if (m_version >= 9) {
            std::int32_t prefixCount = 0;
            if (!m_reader.count(prefixCount, 4, "prefix element")) {
                return false;
            }
            // Read and dropped: the table does not exist yet, so their strings are inline.
            Element prefix;
            m_inPrefix = true;
            for (std::int32_t i = 0; i < prefixCount && !m_reader.failed(); ++i) {
                readAttributes(prefix, false);
            }
            m_inPrefix = false;
        }
        if (m_hasTable && !readTable()) {
            return false;
        }
        std::int32_t elementCount = 0;
        const std::size_t headerMin =
            (m_hasTable ? indexSize() : 1) + (m_version >= 4 ? indexSize() : 1) + 16;
        if (!m_reader.count(elementCount, headerMin, "element")) {
            return false;
        }
        m_doc.elements.reserve(static_cast<std::size_t>(elementCount));
        for (std::int32_t i = 0; i < elementCount; ++i) {
            Element e;
            e.where = {0, 0, m_reader.pos()};
            if (m_hasTable ? !tableString(e.type, "element type")
                           : !m_reader.cstring(e.type, "element type")) {
                break;
            }
            if (m_version >= 4 ? !tableString(e.name, "element name")
                               : !m_reader.cstring(e.name, "element name")) {
                break;
            }
            const char* id = nullptr;
            if (!m_reader.raw(16, id, "element id")) {
                break;
            }
            e.id = hexId(id);
            m_doc.elements.push_back(std::move(e));
        }
        if (m_doc.elements.size() != static_cast<std::size_t>(elementCount)) {
            return !m_doc.elements.empty();
        }
        for (Element& e : m_doc.elements) {
            if (!readAttributes(e, true)) {
                break;
            }
        }
        if (!m_reader.failed() && m_reader.left() > 0) {
            // Trailing bytes are harmless to studiomdl; say so once.
            bool allZero = true;
            for (std::size_t p = m_reader.pos(); p < m_reader.pos() + m_reader.left(); ++p) {
                allZero = allZero && m_bytes[p] == '\0';
            }
            if (!allZero) {
                m_sink.warning(ids::kDmxSyntax, {0, 0, m_reader.pos()},
                               groupedCount(m_reader.left()) + " bytes after the last element");
            }
        }
        return true;
    }

private:
    std::size_t indexSize() const noexcept { return m_wideIndex ? 4 : 2; }

    bool readTable()
    {
        std::int32_t n = 0;
        const std::size_t at = m_reader.pos();
        if (m_version >= 4) {
            if (!m_reader.count(n, 1, "string table")) {
                return false;
            }
        } else {
            std::int16_t n16 = 0;
            if (!m_reader.read(n16, "string table count")) {
                return false;
            }
            n = n16;
            if (n < 0 || static_cast<std::size_t>(n) > m_reader.left()) {
                m_reader.fail(at, "string table count " + std::to_string(n) + " does not fit in " +
                                      groupedCount(m_reader.left()) + " bytes");
                return false;
            }
        }
        m_table.resize(static_cast<std::size_t>(n));
        for (auto& s : m_table) {
            if (!m_reader.cstring(s, "string table")) {
                return false;
            }
        }
        return true;
    }

    bool tableString(std::string& out, const char* what)
    {
        const std::size_t at = m_reader.pos();
        std::int64_t index = 0;
        if (m_wideIndex) {
            std::int32_t v = 0;
            if (!m_reader.read(v, what)) {
                return false;
            }
            index = v;
        } else {
            std::int16_t v = 0;
            if (!m_reader.read(v, what)) {
                return false;
            }
            index = v;
        }
        if (index == -1) {
            out.clear();
            return true;
        }
        if (index < 0 || static_cast<std::size_t>(index) >= m_table.size()) {
            m_reader.fail(at, std::string(what) + " string index " + std::to_string(index) +
                                  " outside the table of " + groupedCount(m_table.size()));
            return false;
        }
        out = m_table[static_cast<std::size_t>(index)];
        return true;
    }

    bool typeOf(std::uint8_t id, AttrType& type, bool& array) const noexcept
    {
        if (m_version >= 9) {
            array = id >= 32;
            const unsigned base = array ? id - 32u : id;
            if (base < 1 || base > 16) {
                return false;
            }
            type = static_cast<AttrType>(base);
            return true;
        }
        array = id >= 15;
        const unsigned base = array ? id - 14u : id;
        if (base < 1 || base > 14) {
            return false;
        }
        type = static_cast<AttrType>(base);
        if (type == AttrType::Time && m_version < 3) {
            type = AttrType::ObjectId;
        }
        return true;
    }

    static std::size_t fixedSize(AttrType t) noexcept
    {
        switch (t) {
        case AttrType::Element:
        case AttrType::Int:
        case AttrType::Float:
        case AttrType::Time:
        case AttrType::Color:
            return 4;
        case AttrType::Bool:
        case AttrType::UInt8:
            return 1;
        case AttrType::Vector2:
        case AttrType::UInt64:
            return 8;
        case AttrType::Vector3:
        case AttrType::QAngle:
            return 12;
        case AttrType::Vector4:
        case AttrType::Quaternion:
        case AttrType::ObjectId:
            return 16;
        case AttrType::Matrix:
            return 64;
        default:
            return 0; // String / Binary: variable
        }
    }

    bool readAttributes(Element& e, bool named)
    {
        std::int32_t n = 0;
        const std::size_t attrMin = (m_hasTable && named ? indexSize() : 1) + 2;
        if (!m_reader.count(n, attrMin, "attribute")) {
            return false;
        }
        e.attrs.reserve(static_cast<std::size_t>(n));
        for (std::int32_t i = 0; i < n; ++i) {
            Attribute a;
            a.where = {0, 0, m_reader.pos()};
            if (m_hasTable && named ? !tableString(a.name, "attribute name")
                                    : !m_reader.cstring(a.name, "attribute name")) {
                return false;
            }
            const std::size_t typeAt = m_reader.pos();
            std::uint8_t id = 0;
            if (!m_reader.read(id, "attribute type")) {
                return false;
            }
            if (!typeOf(id, a.type, a.array)) {
                m_reader.fail(typeAt, "attribute '" + a.name + "' of element '" + e.name +
                                          "' has unknown type id " + std::to_string(id) +
                                          " for binary " + std::to_string(m_version));
                return false;
            }
            if (!readValues(a)) {
                return false;
            }
            e.attrs.push_back(std::move(a));
        }
        return true;
    }

    bool readValues(Attribute& a)
    {
        std::int32_t n = 1;
        const std::size_t size = fixedSize(a.type);
        if (a.array) {
            const std::size_t minItem = size > 0 ? size : (a.type == AttrType::Binary ? 4 : 1);
            if (!m_reader.count(n, minItem, "array item")) {
                return false;
            }
        }
        const auto count = static_cast<std::size_t>(n);
        a.count = count;
        const char* p = nullptr;
        switch (a.type) {
        case AttrType::Element: {
            a.ints.reserve(count);
            for (std::size_t i = 0; i < count; ++i) {
                const std::size_t at = m_reader.pos();
                std::int32_t idx = 0;
                if (!m_reader.read(idx, "element reference")) {
                    return false;
                }
                if (idx == -2) { // a stub: an element of another file, by id text
                    std::string id;
                    if (!m_reader.cstring(id, "element reference id")) {
                        return false;
                    }
                    Diagnostic& d = m_sink.note(ids::kDmxBadReference, {0, 0, at},
                                                "attribute '" + a.name + "' refers to element " +
                                                    id + " of another file; read as null");
                    d.fixedSeverity = true;
                    idx = kNullElement;
                } else if (idx < -1 || idx >= static_cast<std::int64_t>(m_doc.elements.size())) {
                    m_sink.error(ids::kDmxBadReference, {0, 0, at},
                                 "attribute '" + a.name + "' refers to element " +
                                     std::to_string(idx) + " of " +
                                     groupedCount(m_doc.elements.size()));
                    idx = kNullElement;
                }
                a.ints.push_back(idx);
            }
            return true;
        }
        case AttrType::String: {
            a.strings.resize(count);
            for (auto& s : a.strings) {
                if (!a.array && m_version >= 4 && !m_inPrefix
                        ? !tableString(s, "string value")
                        : !m_reader.cstring(s, "string value")) {
                    return false;
                }
            }
            return true;
        }
        case AttrType::Binary: {
            a.strings.resize(count);
            for (auto& s : a.strings) {
                std::int32_t len = 0;
                if (!m_reader.count(len, 1, "binary value byte") ||
                    !m_reader.raw(static_cast<std::size_t>(len), p, "binary value")) {
                    return false;
                }
                s.assign(p, static_cast<std::size_t>(len));
            }
            return true;
        }
        default:
            break;
        }
        const std::size_t itemsAt = m_reader.pos();
        if (!m_reader.raw(count * size, p, "attribute values")) {
            return false;
        }
        if (a.array) {
            a.itemsAt = itemsAt;
            a.itemSize = static_cast<std::uint32_t>(size);
        }
        if (count == 0) {
            return true; // an empty array: nothing to copy (memcpy from a null pointer is
                         // undefined)
        }
        switch (a.type) {
        case AttrType::Int:
            a.ints.resize(count);
            std::memcpy(a.ints.data(), p, count * 4);
            break;
        case AttrType::Bool:
        case AttrType::UInt8:
            a.ints.resize(count);
            for (std::size_t i = 0; i < count; ++i) {
                const auto v = static_cast<unsigned char>(p[i]);
                a.ints[i] = a.type == AttrType::Bool ? (v != 0 ? 1 : 0) : v;
            }
            break;
        case AttrType::Color:
            a.ints.resize(4 * count);
            for (std::size_t i = 0; i < 4 * count; ++i) {
                a.ints[i] = static_cast<unsigned char>(p[i]);
            }
            break;
        case AttrType::Time:
            a.floats.resize(count);
            for (std::size_t i = 0; i < count; ++i) {
                std::int32_t ticks = 0;
                std::memcpy(&ticks, p + 4 * i, 4);
                a.floats[i] = static_cast<float>(static_cast<double>(ticks) / 10000.0);
            }
            break;
        case AttrType::UInt64:
            a.u64.resize(count);
            std::memcpy(a.u64.data(), p, count * 8);
            break;
        case AttrType::ObjectId:
            a.strings.resize(count);
            for (std::size_t i = 0; i < count; ++i) {
                a.strings[i] = hexId(p + 16 * i);
            }
            break;
        default: {
            const std::size_t w = floatWidth(a.type);
            a.floats.resize(w * count);
            std::memcpy(a.floats.data(), p, w * count * 4);
            break;
        }
        }
        return true;
    }

    std::string_view m_bytes;
    Reader m_reader;
    int m_version;
    Document& m_doc;
    DiagnosticSink& m_sink;
    bool m_hasTable = false;
    bool m_wideIndex = false;
    bool m_inPrefix = false;
    std::vector<std::string> m_table;
};

} // namespace

bool parseBinary(std::string_view bytes, std::size_t start, Document& doc, DiagnosticSink& sink)
{
    const int v = doc.header.encodingVersion;
    if (!(v >= 1 && v <= 5) && v != 9) {
        sink.error(ids::kDmxSyntax, {0, 0, 0},
                   "binary " + std::to_string(v) +
                       " is not a DMX encoding this reader knows (1-5, 9)");
        return false;
    }
    std::size_t pos = start;
    // The header line ends with a newline and a NUL.
    if (pos < bytes.size() && bytes[pos] == '\r') {
        ++pos;
    }
    if (pos + 2 > bytes.size() || bytes[pos] != '\n' || bytes[pos + 1] != '\0') {
        sink.error(ids::kDmxSyntax, {0, 0, pos},
                   "expected a newline and a NUL byte after the header");
        return false;
    }
    pos += 2;
    BinaryParser parser(bytes, pos, v, doc, sink);
    const bool ok = parser.run();
    if (doc.elements.empty() && !sink.hasErrors()) {
        sink.error(ids::kDmxSyntax, {0, 0, pos}, "the file holds no elements");
    }
    return ok && !doc.elements.empty();
}

} // namespace rigscope::core::dmx
