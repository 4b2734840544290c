#pragma once

// Bounded little-endian reads for the compiled-model readers. Every read outside the bytes
// yields zero; callers check ranges with has() / array() first and report what does not fit.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/model/types.h"

namespace rigscope::core::mdl {

class Bytes {
public:
    Bytes() = default;
    explicit Bytes(std::string_view d) noexcept : m_bytes(d) {}

    std::size_t size() const noexcept { return m_bytes.size(); }
    std::string_view view() const noexcept { return m_bytes; }

    // [off, off + len) lies inside the bytes (both given as signed 64-bit values).
    bool has(std::int64_t off, std::int64_t len) const noexcept
    {
        return off >= 0 && len >= 0 && static_cast<std::uint64_t>(off) <= m_bytes.size() &&
               static_cast<std::uint64_t>(len) <= m_bytes.size() - static_cast<std::uint64_t>(off);
    }
    // `count` records of `stride` bytes from `off` lie inside the bytes.
    bool array(std::int64_t off, std::int64_t count, std::int64_t stride) const noexcept
    {
        if (count < 0 || stride <= 0 || off < 0) {
            return false;
        }
        if (count == 0) {
            return static_cast<std::uint64_t>(off) <= m_bytes.size();
        }
        if (count > static_cast<std::int64_t>(m_bytes.size()) / stride + 1) {
            return false;
        }
        return has(off, count * stride);
    }

    std::uint8_t u8(std::int64_t off) const noexcept
    {
        return has(off, 1) ? static_cast<std::uint8_t>(m_bytes[static_cast<std::size_t>(off)]) : 0;
    }
    std::int8_t i8(std::int64_t off) const noexcept { return static_cast<std::int8_t>(u8(off)); }
    std::uint16_t u16(std::int64_t off) const noexcept
    {
        return static_cast<std::uint16_t>(u8(off) | (u8(off + 1) << 8));
    }
    std::int16_t i16(std::int64_t off) const noexcept
    {
        return static_cast<std::int16_t>(u16(off));
    }
    std::uint32_t u32(std::int64_t off) const noexcept
    {
        if (!has(off, 4)) {
            return 0;
        }
        std::uint32_t v = 0;
        for (int i = 3; i >= 0; --i) {
            v = (v << 8) | u8(off + i);
        }
        return v;
    }
    std::int32_t i32(std::int64_t off) const noexcept
    {
        return static_cast<std::int32_t>(u32(off));
    }
    std::uint64_t u64(std::int64_t off) const noexcept
    {
        return static_cast<std::uint64_t>(u32(off)) |
               (static_cast<std::uint64_t>(u32(off + 4)) << 32);
    }
    float f32(std::int64_t off) const noexcept
    {
        const std::uint32_t bits = u32(off);
        float f = 0;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
    Vec3 vec3(std::int64_t off) const noexcept { return {f32(off), f32(off + 4), f32(off + 8)}; }
    Vec4 vec4(std::int64_t off) const noexcept
    {
        return {f32(off), f32(off + 4), f32(off + 8), f32(off + 12)};
    }

    // A NUL-terminated string at `off`, at most `maxLen` bytes; empty when `off` is outside.
    std::string cstr(std::int64_t off, std::size_t maxLen = 1024) const
    {
        if (!has(off, 0) || static_cast<std::uint64_t>(off) >= m_bytes.size()) {
            return {};
        }
        const std::string_view rest = m_bytes.substr(static_cast<std::size_t>(off));
        const std::size_t limit = rest.size() < maxLen ? rest.size() : maxLen;
        const std::size_t end = rest.substr(0, limit).find('\0');
        return std::string(rest.substr(0, end == std::string_view::npos ? limit : end));
    }
    // A fixed-size char field (name[64]): up to the first NUL.
    std::string fixedString(std::int64_t off, std::size_t len) const
    {
        if (!has(off, static_cast<std::int64_t>(len))) {
            return {};
        }
        const std::string_view field = m_bytes.substr(static_cast<std::size_t>(off), len);
        return std::string(field.substr(0, field.find('\0')));
    }

private:
    std::string_view m_bytes;
};

} // namespace rigscope::core::mdl
