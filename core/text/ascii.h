#pragma once

// ASCII-only case helpers for names in model files, QC scripts and paths: locale-free, so
// 'I' never becomes a dotless 'ı' and bytes above 0x7F are compared as they are.

#include <cstddef>
#include <string>
#include <string_view>

namespace rigscope::core {

constexpr char asciiLower(char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string asciiLower(std::string_view s)
{
    std::string out(s);
    for (char& c : out) {
        c = asciiLower(c);
    }
    return out;
}

constexpr bool asciiIEquals(std::string_view a, std::string_view b) noexcept
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (asciiLower(a[i]) != asciiLower(b[i])) {
            return false;
        }
    }
    return true;
}

constexpr bool asciiIEndsWith(std::string_view s, std::string_view suffix) noexcept
{
    return s.size() >= suffix.size() && asciiIEquals(s.substr(s.size() - suffix.size()), suffix);
}

} // namespace rigscope::core
