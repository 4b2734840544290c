#include "core/formats/dmx/dmx_document.h"

#include <array>
#include <charconv>

namespace rigscope::core::dmx {

namespace {

constexpr std::array<std::string_view, 18> kTypeNames{
    "unknown", "element",    "int",    "float",   "bool",    "string",
    "binary",  "time",       "color",  "vector2", "vector3", "vector4",
    "qangle",  "quaternion", "matrix", "uint64",  "uint8",   "objectid",
};

bool isSpace(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

} // namespace

std::string_view typeName(AttrType t) noexcept
{
    const auto i = static_cast<std::size_t>(t);
    return i < kTypeNames.size() ? kTypeNames[i] : "unknown";
}

AttrType typeFromName(std::string_view name) noexcept
{
    for (std::size_t i = 1; i < kTypeNames.size(); ++i) {
        if (kTypeNames[i] == name) {
            return static_cast<AttrType>(i);
        }
    }
    // Spellings other writers use.
    if (name == "vmatrix") {
        return AttrType::Matrix;
    }
    if (name == "angle") {
        return AttrType::QAngle;
    }
    if (name == "void") {
        return AttrType::Binary;
    }
    return AttrType::Unknown;
}

std::size_t floatWidth(AttrType t) noexcept
{
    switch (t) {
    case AttrType::Float:
    case AttrType::Time:
        return 1;
    case AttrType::Vector2:
        return 2;
    case AttrType::Vector3:
    case AttrType::QAngle:
        return 3;
    case AttrType::Vector4:
    case AttrType::Quaternion:
        return 4;
    case AttrType::Matrix:
        return 16;
    default:
        return 0;
    }
}

const Attribute* Element::find(std::string_view n) const noexcept
{
    for (const Attribute& a : attrs) {
        if (a.name == n) {
            return &a;
        }
    }
    return nullptr;
}

std::size_t parseHeader(std::string_view bytes, DmxHeader& out) noexcept
{
    if (bytes.substr(0, 4) != "<!--") {
        return 0;
    }
    const std::size_t end = bytes.substr(0, 1024).find("-->");
    if (end == std::string_view::npos) {
        return 0;
    }
    std::string_view inner = bytes.substr(4, end - 4);
    std::array<std::string_view, 7> words{};
    std::size_t n = 0;
    std::size_t i = 0;
    while (i < inner.size()) {
        while (i < inner.size() && isSpace(inner[i])) {
            ++i;
        }
        const std::size_t s = i;
        while (i < inner.size() && !isSpace(inner[i])) {
            ++i;
        }
        if (i > s) {
            if (n == words.size()) {
                return 0;
            }
            words[n++] = inner.substr(s, i - s);
        }
    }
    if (n != 7 || words[0] != "dmx" || words[1] != "encoding" || words[4] != "format") {
        return 0;
    }
    auto num = [](std::string_view w, int& v) {
        const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
        return r.ec == std::errc() && r.ptr == w.data() + w.size() && v >= 0;
    };
    int ev = 0;
    int fv = 0;
    if (!num(words[3], ev) || !num(words[6], fv)) {
        return 0;
    }
    out.encoding = std::string(words[2]);
    out.encodingVersion = ev;
    out.formatName = std::string(words[5]);
    out.formatVersion = fv;
    return end + 3;
}

} // namespace rigscope::core::dmx
