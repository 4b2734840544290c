#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// Valve SMD and VTA (FORMATS.md §1). One reader for both: the kind follows the content.
int sniffSmd(std::string_view head) noexcept;
ReadResult readSmd(std::string_view bytes, const ReadContext& ctx);

} // namespace rigscope::core
