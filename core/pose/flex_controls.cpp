#include "core/pose/flex_controls.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/formats/mdl/compiled_model.h"

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

float controllerRest(float min, float max) noexcept
{
    return min <= max ? std::clamp(0.0f, min, max) : 0.0f;
}

namespace {

// The op codes of a rule program (studio.h; docs/compiled.md "Flex rules").
enum RuleOp : std::int32_t {
    kConst = 1,
    kFetchController = 2,
    kFetchDescriptor = 3,
    kAdd = 4,
    kSub = 5,
    kMul = 6,
    kDiv = 7,
    kNeg = 8,
    kMax = 13,
    kMin = 14,
    kTwoWayLow = 15,
    kTwoWayHigh = 16,
    kNWay = 17,
    kCombo = 18,
    kDominate = 19,
    kLowerEyelid = 20,
    kUpperEyelid = 21,
};

float clampedRemap(float x, float from0, float from1, float to0, float to1) noexcept
{
    if (from1 == from0) {
        return x >= from1 ? to1 : to0;
    }
    const float t = std::clamp((x - from0) / (from1 - from0), 0.0f, 1.0f);
    return to0 + t * (to1 - to0);
}

// One rule's program on the controller values `src` and the descriptor weights `dest` so far.
// False when it breaks.
bool runRule(const CompiledFlexRule& rule, const CompiledModelInfo& info,
             const std::vector<float>& src, const std::vector<float>& dest, float& out)
{
    constexpr std::size_t kMaxStack = 256;
    std::vector<float> stack;
    const auto controller = [&](float indexValue, std::size_t& c) {
        if (!std::isfinite(indexValue) || indexValue < 0 ||
            indexValue >= float(info.flexControllers.size())) {
            return false;
        }
        c = static_cast<std::size_t>(indexValue);
        return true;
    };
    // A controller's value remapped from its range to to0..to1 (the eyelid rules).
    const auto unit = [&](std::size_t c, float to0, float to1) {
        const CompiledFlexController& fc = info.flexControllers[c];
        return clampedRemap(src[c], fc.min, fc.max, to0, to1);
    };
    for (const CompiledFlexOp& op : rule.ops) {
        const std::size_t k = stack.size();
        std::size_t c = 0;
        switch (op.op) {
        case kConst:
            stack.push_back(op.value);
            break;
        case kFetchController:
        case kTwoWayLow:
        case kTwoWayHigh:
            if (!controller(float(op.index), c)) {
                return false;
            }
            stack.push_back(op.op == kFetchController ? src[c]
                            : op.op == kTwoWayLow ? clampedRemap(src[c], -1.0f, 0.0f, 1.0f, 0.0f)
                                                  : clampedRemap(src[c], 0.0f, 1.0f, 0.0f, 1.0f));
            break;
        case kFetchDescriptor:
            if (op.index < 0 || std::size_t(op.index) >= dest.size()) {
                return false;
            }
            stack.push_back(dest[std::size_t(op.index)]);
            break;
        case kAdd:
        case kSub:
        case kMul:
        case kDiv:
        case kMax:
        case kMin: {
            if (k < 2) {
                return false;
            }
            const float a = stack[k - 2], b = stack[k - 1];
            float r = 0;
            switch (op.op) {
            case kAdd:
                r = a + b;
                break;
            case kSub:
                r = a - b;
                break;
            case kMul:
                r = a * b;
                break;
            case kDiv:
                r = b > 0.0001f ? a / b : 0.0f;
                break;
            case kMax:
                r = std::max(a, b);
                break;
            default:
                r = std::min(a, b);
                break;
            }
            stack.pop_back();
            stack.back() = r;
            break;
        }
        case kNeg:
            if (k < 1) {
                return false;
            }
            stack.back() = -stack.back();
            break;
        case kNWay: {
            // Stack: ramp x y z w, the value controller's index; the op names the multiplier.
            std::size_t valueController = 0, multiplier = 0;
            if (k < 5 || !controller(stack[k - 1], valueController) ||
                !controller(float(op.index), multiplier)) {
                return false;
            }
            const float x = stack[k - 5], y = stack[k - 4], z = stack[k - 3], w = stack[k - 2];
            float v = src[valueController];
            if (v <= x || v >= w) {
                v = 0.0f;
            } else if (v < y) {
                v = clampedRemap(v, x, y, 0.0f, 1.0f);
            } else if (v > z) {
                v = clampedRemap(v, z, w, 1.0f, 0.0f);
            } else {
                v = 1.0f;
            }
            stack.resize(k - 4);
            stack.back() = v * src[multiplier];
            break;
        }
        case kCombo:
        case kDominate: {
            // Combination: the product of the top `index` values. Domination: the value below
            // them times 1 - that product.
            const std::int64_t m = op.index;
            const std::size_t need = op.op == kDominate ? std::size_t(m) + 1 : std::size_t(m);
            if (m < 1 || std::size_t(m) > k || need > k) {
                return false;
            }
            float product = 1.0f;
            for (std::size_t i = k - std::size_t(m); i < k; ++i) {
                product *= stack[i];
            }
            stack.resize(k - std::size_t(m));
            if (op.op == kCombo) {
                stack.push_back(product);
            } else {
                stack.back() *= 1.0f - product;
            }
            break;
        }
        case kLowerEyelid:
        case kUpperEyelid: {
            // Stack: the up/down controller, the blink controller (unused by the result, as in
            // the engine), the close-lid controller; the op names the close-lid-V controller.
            std::size_t closeLid = 0, closeLidV = 0;
            if (k < 3 || !controller(stack[k - 1], closeLid) ||
                !controller(float(op.index), closeLidV)) {
                return false;
            }
            std::size_t upDown = 0;
            const float eyeUpDown =
                stack[k - 3] >= 0 && controller(stack[k - 3], upDown) ? unit(upDown, -1, 1) : 0.0f;
            const float lid = unit(closeLid, 0, 1);
            const float lidV = unit(closeLidV, 0, 1);
            float r = 0;
            if (op.op == kLowerEyelid) {
                r = (eyeUpDown > 0 ? 1.0f - eyeUpDown : 1.0f) * (1.0f - lidV) * lid;
            } else {
                r = (eyeUpDown < 0 ? 1.0f + eyeUpDown : 1.0f) * lidV * lid;
            }
            stack.resize(k - 2);
            stack.back() = r;
            break;
        }
        default:
            return false;
        }
        if (stack.size() > kMaxStack) {
            return false;
        }
    }
    if (stack.empty()) {
        return false;
    }
    out = stack.front();
    return std::isfinite(out);
}

} // namespace

std::vector<float> evaluateFlexRules(const CompiledModelInfo& info,
                                     const std::vector<float>& controllers)
{
    std::vector<float> src(info.flexControllers.size());
    for (std::size_t c = 0; c < src.size(); ++c) {
        const CompiledFlexController& fc = info.flexControllers[c];
        src[c] = c < controllers.size() && std::isfinite(controllers[c])
                     ? controllers[c]
                     : controllerRest(fc.min, fc.max);
    }
    std::vector<float> dest(info.flexDescs.size(), 0.0f);
    for (const CompiledFlexRule& rule : info.flexRuleList) {
        if (rule.flex < 0 || std::size_t(rule.flex) >= dest.size()) {
            continue;
        }
        float value = 0;
        dest[std::size_t(rule.flex)] = runRule(rule, info, src, dest, value) ? value : 0.0f;
    }
    return dest;
}

} // namespace rigscope::core
