#include "core/text/names.h"

#include "core/text/numbers.h"

namespace rigscope::core {

std::string shownToken(std::string_view tok)
{
    const bool cut = tok.size() > 40;
    std::string out(cut ? tok.substr(0, 40) : tok);
    for (char& ch : out) {
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) {
            ch = '?';
        }
    }
    if (cut) {
        out += "...";
    }
    return out;
}

std::string_view nameIssue(std::string_view name) noexcept
{
    bool high = false, control = false;
    for (char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        high = high || c >= 0x80;
        control = control || (c < 0x20 && c != 0x09) || c == 0x7F;
    }
    if (name.find('\0') != std::string_view::npos) {
        return "a NUL byte";
    }
    return control ? "control characters" : high ? "non-ASCII characters" : "";
}

std::string numberText(double v)
{
    std::string s;
    appendNumber(s, v);
    return s;
}

std::string fileStem(std::string_view fileName)
{
    const std::size_t slash = fileName.find_last_of("/\\");
    if (slash != std::string_view::npos) {
        fileName.remove_prefix(slash + 1);
    }
    const std::size_t dot = fileName.rfind('.');
    if (dot != std::string_view::npos && dot > 0) {
        fileName = fileName.substr(0, dot);
    }
    return std::string(fileName);
}

} // namespace rigscope::core
