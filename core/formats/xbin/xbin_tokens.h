#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rigscope::core::xbin {

// Token data types of FORMATS.md §5.2 (the id seeds the hash).
enum class TokenType : std::uint16_t {
    Comment = 0,
    Section = 1,
    Short = 2,
    UShort = 3,
    UInt = 4,
    Int = 5,
    Vector48Bit = 6,
    Vector316Bit = 7,
    Float = 8,
    Vector2 = 9,
    Vector3 = 10,
    Vector4 = 11,
    BoneWeight = 12,
    UVSet = 13,
    UShortString = 14,
    UShortStringX3 = 15,
    NoteFrame = 16,
    BoneInfo = 17,
    Tri = 18,
    Tri16 = 19,
};

// §5.3: CRC-16 (poly 0x1021, MSB first) seeded with the type id.
constexpr std::uint16_t codHash(std::string_view name, std::uint16_t type) noexcept
{
    std::uint16_t r = type;
    for (char c : name) {
        r = static_cast<std::uint16_t>(
            r ^ (static_cast<std::uint16_t>(static_cast<unsigned char>(c)) << 8));
        for (int i = 0; i < 8; ++i) {
            const bool top = (r & 0x8000u) != 0;
            r = static_cast<std::uint16_t>(r << 1);
            if (top) {
                r = static_cast<std::uint16_t>(r ^ 0x1021u);
            }
        }
    }
    return r;
}

struct TokenInfo {
    std::string_view name;
    TokenType type;
    std::uint16_t hash;
};

// The §5.5 token table; nullptr for an unknown hash.
const TokenInfo* tokenByHash(std::uint16_t hash) noexcept;
const TokenInfo* tokenTable(std::size_t& count) noexcept;

// The §5.1 container around a raw token stream, and back (false on bad magic, size or data).
std::string wrapContainer(std::string_view stream);
bool unwrapContainer(std::string_view bytes, std::string& out);

} // namespace rigscope::core::xbin
