#pragma once

// GoldSrc texture flags (studio.h STUDIO_NF_*) by name, for the outline, `info` and the docs.

#include <cstdint>
#include <string>
#include <vector>

namespace rigscope::core {

// In bit order: "flatshade" 0x01, "chrome" 0x02, "fullbright" 0x04, "nomips" 0x08, "alpha"
// 0x10, "additive" 0x20, "masked" 0x40; any other bit as its value ("0x100").
std::vector<std::string> goldsrcTextureFlagNames(std::int32_t flags);

} // namespace rigscope::core
