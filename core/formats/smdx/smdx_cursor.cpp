#include "core/formats/smdx/smdx_cursor.h"

#include <algorithm>
#include <cstring>

#include <msgpack.hpp>

namespace rigscope::core::detail {

namespace {

// Strings and bins point into the input instead of being copied into the zone.
bool referenceInput(msgpack::type::object_type, std::size_t, void*)
{
    return true;
}

std::string hexByte(unsigned char b)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string s = "0x";
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
    return s;
}

// What a value starting with `b` is, for "expected int, got str" messages.
std::string valueName(unsigned char b)
{
    if (b <= 0x7F || b >= 0xE0 || (b >= 0xCC && b <= 0xD3)) {
        return "int";
    }
    if ((b >= 0xA0 && b <= 0xBF) || (b >= 0xD9 && b <= 0xDB)) {
        return "str";
    }
    if ((b >= 0x90 && b <= 0x9F) || b == 0xDC || b == 0xDD) {
        return "array";
    }
    if ((b >= 0x80 && b <= 0x8F) || b == 0xDE || b == 0xDF) {
        return "map";
    }
    switch (b) {
    case 0xC0:
        return "nil";
    case 0xC2:
    case 0xC3:
        return "bool";
    case 0xC4:
    case 0xC5:
    case 0xC6:
        return "bin";
    case 0xCA:
        return "float32";
    case 0xCB:
        return "float64";
    case 0xC1:
        return "invalid byte 0xC1";
    default:
        return "ext";
    }
}

// Size of the shortest encoding the BinarySMD writer uses for `v` (FORMATS.md §2.1).
std::size_t minimalIntSize(std::int64_t v) noexcept
{
    if (v >= -32 && v <= 127) {
        return 1;
    }
    if (v > 0) {
        return v <= 0xFF ? 2 : v <= 0xFFFF ? 3 : 5;
    }
    return v >= -128 ? 2 : v >= -32768 ? 3 : 5;
}

std::uint64_t bigEndian(const char* p, std::size_t n) noexcept
{
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    }
    return v;
}

// The well-formed scalars that fill real files are decoded here, without msgpack-cxx's zone
// (a malloc and free per value); anything else, errors included, goes through msgpack-cxx,
// which stays the authority on what is malformed. Returns the encoded size, 0 to fall back.
std::size_t fastInt(const unsigned char* b, std::size_t left, std::int64_t& v) noexcept
{
    const unsigned tag = b[0];
    if (tag <= 0x7F) {
        v = tag;
        return 1;
    }
    if (tag >= 0xE0) {
        v = static_cast<std::int8_t>(tag);
        return 1;
    }
    auto be = [b](std::size_t n) {
        std::uint64_t x = 0;
        for (std::size_t i = 1; i <= n; ++i) {
            x = (x << 8) | b[i];
        }
        return x;
    };
    switch (tag) {
    case 0xCC:
        return left >= 2 ? (v = static_cast<std::int64_t>(be(1)), std::size_t{2}) : 0;
    case 0xCD:
        return left >= 3 ? (v = static_cast<std::int64_t>(be(2)), std::size_t{3}) : 0;
    case 0xCE:
        return left >= 5 ? (v = static_cast<std::int64_t>(be(4)), std::size_t{5}) : 0;
    case 0xD0:
        return left >= 2 ? (v = static_cast<std::int8_t>(be(1)), std::size_t{2}) : 0;
    case 0xD1:
        return left >= 3 ? (v = static_cast<std::int16_t>(be(2)), std::size_t{3}) : 0;
    case 0xD2:
        return left >= 5 ? (v = static_cast<std::int32_t>(be(4)), std::size_t{5}) : 0;
    case 0xD3:
        return left >= 9 ? (v = static_cast<std::int64_t>(be(8)), std::size_t{9}) : 0;
    default:
        return 0;
    }
}

// str / bin: the payload's offset from the tag and its length; 0 to fall back.
std::size_t fastString(const unsigned char* b, std::size_t left, std::size_t& length) noexcept
{
    const unsigned tag = b[0];
    std::size_t head = 0;
    if (tag >= 0xA0 && tag <= 0xBF) {
        head = 1;
        length = tag & 0x1F;
    } else if ((tag == 0xD9 || tag == 0xC4) && left >= 2) {
        head = 2;
        length = b[1];
    } else if ((tag == 0xDA || tag == 0xC5) && left >= 3) {
        head = 3;
        length = (std::size_t(b[1]) << 8) | b[2];
    } else if ((tag == 0xDB || tag == 0xC6) && left >= 5) {
        head = 5;
        length =
            (std::size_t(b[1]) << 24) | (std::size_t(b[2]) << 16) | (std::size_t(b[3]) << 8) | b[4];
    } else {
        return 0;
    }
    return length <= left - head ? head : 0;
}

} // namespace

struct SmdxCursor::Impl {
    msgpack::zone zone;

    // Unpacks one scalar at the cursor. On failure records the error and returns false; the
    // position stays put.
    bool next(SmdxCursor& c, msgpack::object& out, const char* what)
    {
        const std::size_t start = c.m_state.pos; // msgpack-cxx moves the offset even when it fails
        const std::string_view bytes = c.m_bytes;
        if (start >= bytes.size()) {
            c.fail(start, std::string("truncated ") + what + " (end of file)");
            return false;
        }
        const std::size_t left = bytes.size() - start;
        // Scalars only: no array, map or ext may allocate; strings are bounded by the input.
        const msgpack::unpack_limit limit(0, 0, left, left, 0, 1);
        std::size_t off = start;
        bool referenced = false;
        const auto first = static_cast<unsigned char>(bytes[start]);
        zone.clear();
        std::string why;
        try {
            out = msgpack::unpack(zone, bytes.data(), bytes.size(), off, referenced,
                                  &referenceInput, nullptr, limit);
            c.m_state.pos = off;
            return true;
        } catch (const msgpack::insufficient_bytes&) {
            why = std::string("truncated ") + what;
        } catch (const msgpack::size_overflow&) {
            why = std::string("expected ") + what + ", got " + valueName(first);
        } catch (const msgpack::unpack_error&) {
            why = std::string("expected ") + what + ", got " + valueName(first) + " (" +
                  hexByte(first) + ")";
        } catch (const msgpack::type_error&) {
            why = std::string("expected ") + what + ", got " + valueName(first);
        }
        c.fail(start, std::move(why));
        return false;
    }
};

SmdxCursor::SmdxCursor(std::string_view bytes) : m_bytes(bytes), m_impl(std::make_unique<Impl>()) {}

SmdxCursor::~SmdxCursor() = default;

void SmdxCursor::fail(std::uint64_t offset, std::string message)
{
    if (m_state.failed) {
        return;
    }
    m_state.failed = true;
    m_state.error = {offset, std::move(message)};
}

bool SmdxCursor::readInteger(std::int32_t& out, std::int64_t lo, std::int64_t hi, const char* what)
{
    if (m_state.failed) {
        return false;
    }
    const std::size_t start = m_state.pos;
    std::int64_t v = 0;
    const auto* b = reinterpret_cast<const unsigned char*>(m_bytes.data()) + start;
    if (std::size_t n = start < m_bytes.size() ? fastInt(b, m_bytes.size() - start, v) : 0) {
        m_state.pos = start + n;
        return checkInteger(v, lo, hi, what, start, out);
    }
    msgpack::object obj;
    if (!m_impl->next(*this, obj, what)) {
        return false;
    }
    if (obj.type == msgpack::type::POSITIVE_INTEGER) {
        if (obj.via.u64 > static_cast<std::uint64_t>(hi)) {
            fail(start, std::string(what) + " " + std::to_string(obj.via.u64) + " out of range");
            return false;
        }
        v = static_cast<std::int64_t>(obj.via.u64);
    } else if (obj.type == msgpack::type::NEGATIVE_INTEGER) {
        v = obj.via.i64;
    } else {
        fail(start, std::string("expected ") + what + ", got " +
                        valueName(static_cast<unsigned char>(m_bytes[start])));
        return false;
    }
    return checkInteger(v, lo, hi, what, start, out);
}

bool SmdxCursor::checkInteger(std::int64_t v, std::int64_t lo, std::int64_t hi, const char* what,
                              std::size_t start, std::int32_t& out)
{
    if (v < lo || v > hi) {
        fail(start, std::string(what) + " " + std::to_string(v) + " out of range");
        return false;
    }
    const std::size_t used = m_state.pos - start;
    const std::size_t shortest = minimalIntSize(v);
    if (used != shortest) {
        if (m_state.nonMinimal == 0) {
            m_state.firstNonMinimalOffset = start;
            m_state.firstNonMinimal = std::to_string(v) + " written in " + std::to_string(used) +
                                      " bytes, shortest is " + std::to_string(shortest);
        }
        ++m_state.nonMinimal;
    }
    out = static_cast<std::int32_t>(v);
    return true;
}

bool SmdxCursor::readCount(std::uint32_t& out, std::size_t minElementBytes)
{
    const std::size_t start = m_state.pos;
    std::int32_t v = 0;
    if (!readInteger(v, INT32_MIN, INT32_MAX, "count")) {
        return false;
    }
    if (v < 0) {
        fail(start, "negative count " + std::to_string(v));
        return false;
    }
    const auto need = static_cast<std::uint64_t>(v) * minElementBytes;
    if (need > remaining()) {
        fail(start, "count " + std::to_string(v) + " needs at least " + std::to_string(need) +
                        " bytes, " + std::to_string(remaining()) + " left");
        return false;
    }
    out = static_cast<std::uint32_t>(v);
    return true;
}

bool SmdxCursor::readFloat(float& out)
{
    if (m_state.failed) {
        return false;
    }
    const std::size_t start = m_state.pos;
    const std::size_t left = m_bytes.size() - std::min(start, m_bytes.size());
    if (left >= 5 && static_cast<unsigned char>(m_bytes[start]) == 0xCA) {
        const auto bits = static_cast<std::uint32_t>(bigEndian(m_bytes.data() + start + 1, 4));
        std::memcpy(&out, &bits, 4);
        m_state.pos = start + 5;
        return true;
    }
    msgpack::object obj;
    if (!m_impl->next(*this, obj, "float")) {
        return false;
    }
    const char* p = m_bytes.data() + start;
    const auto tag = static_cast<unsigned char>(p[0]);
    if (obj.type == msgpack::type::FLOAT32 && tag == 0xCA) {
        // The raw bits, not via double: keeps NaN payloads exact.
        const auto bits = static_cast<std::uint32_t>(bigEndian(p + 1, 4));
        std::memcpy(&out, &bits, 4);
        return true;
    }
    if (obj.type == msgpack::type::FLOAT64 && tag == 0xCB) {
        const std::uint64_t bits = bigEndian(p + 1, 8);
        double d = 0;
        std::memcpy(&d, &bits, 8);
        out = static_cast<float>(d);
        return true;
    }
    m_state.pos = start;
    fail(start, "expected float, got " + valueName(tag));
    return false;
}

bool SmdxCursor::readString(std::string& out)
{
    if (m_state.failed) {
        return false;
    }
    const std::size_t start = m_state.pos;
    std::size_t length = 0;
    const auto* b = reinterpret_cast<const unsigned char*>(m_bytes.data()) + start;
    if (std::size_t head =
            start < m_bytes.size() ? fastString(b, m_bytes.size() - start, length) : 0) {
        out.assign(m_bytes.data() + start + head, length);
        m_state.pos = start + head + length;
        return true;
    }
    msgpack::object obj;
    if (!m_impl->next(*this, obj, "string")) {
        return false;
    }
    if (obj.type == msgpack::type::STR) {
        out.assign(obj.via.str.ptr, obj.via.str.size);
        return true;
    }
    if (obj.type == msgpack::type::BIN) {
        out.assign(obj.via.bin.ptr, obj.via.bin.size);
        return true;
    }
    m_state.pos = start;
    fail(start, "expected string, got " + valueName(static_cast<unsigned char>(m_bytes[start])));
    return false;
}

} // namespace rigscope::core::detail
