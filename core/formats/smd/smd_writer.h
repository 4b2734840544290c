#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// Writes SMD (reference / animation) or VTA (when the model has vertexFrames), FORMATS.md §6.
WriteResult writeSmd(const Model& m, const WriteContext& ctx);

} // namespace rigscope::core
