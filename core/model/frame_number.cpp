#include "core/model/frame_number.h"

#include <algorithm>

#include "core/text/numbers.h"

namespace rigscope::core {

double fileFrameNumber(const Animation& anim, int index) noexcept
{
    if (index >= 0 && static_cast<std::size_t>(index) < anim.times.size()) {
        return anim.times[static_cast<std::size_t>(index)];
    }
    return static_cast<double>(index);
}

std::optional<int> frameIndexOfFileNumber(const Animation& anim, double number) noexcept
{
    const auto it = std::lower_bound(anim.times.begin(), anim.times.end(), number);
    if (it == anim.times.end() || *it != number) {
        return std::nullopt;
    }
    return static_cast<int>(it - anim.times.begin());
}

std::string fileFrameText(const Animation& anim, int index)
{
    std::string s;
    appendNumber(s, fileFrameNumber(anim, index));
    return s;
}

std::string fileFrameLabel(const Animation& anim, int index)
{
    return "frame " + fileFrameText(anim, index);
}

std::string fileFrameRange(const Animation& anim)
{
    if (anim.times.empty()) {
        return {};
    }
    std::string s;
    appendNumber(s, anim.times.front());
    s += "..";
    appendNumber(s, anim.times.back());
    return s;
}

} // namespace rigscope::core
