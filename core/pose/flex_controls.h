#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace rigscope::core {

struct CompiledModelInfo;

// One raw control's (delta state's) weight per side. A mono control gives left == right.
struct SideWeights {
    float left = 0.0f;
    float right = 0.0f;
};

// What a DmeCombinationOperator control does with its input (docs/dmx.md §4), as Valve's
// CDmeCombinationOperator computes it (RebuildRawControlList's filter ramps and
// ComputeInternalControlValue):
// - one raw control: its weight is the value (0..1);
// - two raw controls: one slider over 0..1 with 0.5 neutral; below 0.5 the first moves
//   (1 at 0), above it the second (1 at 1);
// - three or more (or an eyelid control): `level` (the multilevel, 0..1) picks between the raw
//   controls, spaced evenly, and the value scales the result; an eyelid's first raw control
//   (the lower lid) takes 1 - its ramp;
// then a stereo control splits the weight by `balance` (0 left only, 0.5 both, 1 right only):
// left = w·min(1, 2(1 − balance)), right = w·min(1, 2·balance).
std::vector<SideWeights> controlWeights(const FlexController& c, float value, float balance,
                                        float level);

// The value a control rests at (Valve's GetDefaultValue): 0.5 for a two-shape control (not an
// eyelid), else 0. The level rests at 0.5.
float controlDefaultValue(const FlexController& c) noexcept;

// Valve's filter ramp of raw control `j` of `count` (x: the value or the level).
float controlRamp(std::size_t count, std::size_t j, bool eyelid, float x) noexcept;

// Domination rules (studiomdl turns each into STUDIO_DOMINATE, public/studio.cpp): each
// suppressed shape is scaled by 1 − the product of its dominators' weights, per side. `shapeOf`
// maps a raw control name to an index into `weights` (SIZE_MAX: not here). A dominator that is
// not here counts as 0 (the rule does nothing). The dominators' weights are read before any rule
// is applied.
void applyDomination(const std::vector<FlexDominationRule>& rules,
                     const std::function<std::size_t(const std::string&)>& shapeOf,
                     std::vector<SideWeights>& weights);

// A compiled Source model's flex controllers (issue 29): the weight of every flex descriptor
// from the controllers' values, each in its own min..max range (the Flex dock's sliders), by
// the model's flex rules as the engine's rule interpreter runs them (in file order, a rule
// reading the descriptors set before it): + - * / (÷ by ≤ 0.0001 gives 0), negate, max, min,
// the two halves of a two-way controller (value -1..0 → 1..0, 0..1 → 0..1), n-way (the
// value controller through the ramp, times the multiplier controller), combination,
// domination and the DMX eyelid rules (controllers remapped from their range). Descriptors
// without a rule stay 0; a rule that breaks (a short stack, an unknown code, an index out of
// range) gives 0. `controllers` shorter than the model's: the rest at controllerRest.
std::vector<float> evaluateFlexRules(const CompiledModelInfo& info,
                                     const std::vector<float>& controllers);

// Where a compiled controller rests: 0 clamped into its range.
float controllerRest(float min, float max) noexcept;

} // namespace rigscope::core
