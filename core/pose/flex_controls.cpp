#include "core/pose/flex_controls.h"

#include <algorithm>
#include <cstdint>

namespace rigscope::core {

namespace {

struct Ramp {
    float a, b, c, d; // rises a..b, holds 1 over b..c, falls c..d
};

float remap(float x, float from0, float from1, float to0, float to1) noexcept
{
    return from1 == from0 ? to1 : to0 + (x - from0) / (from1 - from0) * (to1 - to0);
}

float applyRamp(const Ramp& r, float x) noexcept
{
    if (x <= r.a || x >= r.d) {
        return 0.0f;
    }
    if (x < r.b) {
        return remap(x, r.a, r.b, 0.0f, 1.0f);
    }
    if (x > r.c) {
        return remap(x, r.c, r.d, 1.0f, 0.0f);
    }
    return 1.0f;
}

Ramp rampOf(std::size_t count, std::size_t j, bool eyelid) noexcept
{
    if (eyelid || count <= 1) {
        return {0.0f, 1.0f, 10.0f, 11.0f};
    }
    if (count == 2) {
        return j == 0 ? Ramp{-11.0f, -10.0f, 0.0f, 0.5f} : Ramp{0.5f, 1.0f, 10.0f, 11.0f};
    }
    const float step = 1.0f / static_cast<float>(count - 1);
    if (j == 0) {
        return {-11.0f, -10.0f, 0.0f, step};
    }
    if (j + 1 == count) {
        return {1.0f - step, 1.0f, 10.0f, 11.0f};
    }
    const float peak = static_cast<float>(j) * step;
    return {peak - step, peak, peak, peak + step};
}

} // namespace

float controlRamp(std::size_t count, std::size_t j, bool eyelid, float x) noexcept
{
    return applyRamp(rampOf(count, j, eyelid), x);
}

float controlDefaultValue(const FlexController& c) noexcept
{
    return c.rawControls.size() == 2 && !c.eyelid ? 0.5f : 0.0f;
}

std::vector<SideWeights> controlWeights(const FlexController& c, float value, float balance,
                                        float level)
{
    const std::size_t n = c.rawControls.size();
    const bool multi = n >= 3 || c.eyelid;
    std::vector<SideWeights> out(n);
    const float b = std::clamp(balance, 0.0f, 1.0f);
    const float toLeft = std::min(1.0f, 2.0f * (1.0f - b));
    const float toRight = std::min(1.0f, 2.0f * b);
    for (std::size_t j = 0; j < n; ++j) {
        float w = 0.0f;
        if (multi) {
            const float r = controlRamp(n, j, c.eyelid, level);
            w = (c.eyelid && j == 0 ? 1.0f - r : r) * value;
        } else {
            w = controlRamp(n, j, false, value);
        }
        out[j] = c.stereo ? SideWeights{w * toLeft, w * toRight} : SideWeights{w, w};
    }
    return out;
}

void applyDomination(const std::vector<FlexDominationRule>& rules,
                     const std::function<std::size_t(const std::string&)>& shapeOf,
                     std::vector<SideWeights>& weights)
{
    const std::vector<SideWeights> before = weights;
    for (const FlexDominationRule& rule : rules) {
        float left = 1.0f;
        float right = 1.0f;
        for (const std::string& d : rule.dominators) {
            const std::size_t s = shapeOf(d);
            const SideWeights w = s < before.size() ? before[s] : SideWeights{};
            left *= w.left;
            right *= w.right;
        }
        for (const std::string& name : rule.suppressed) {
            const std::size_t s = shapeOf(name);
            if (s < weights.size()) {
                weights[s].left *= 1.0f - left;
                weights[s].right *= 1.0f - right;
            }
        }
    }
}

} // namespace rigscope::core
