#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// BinarySMD (FORMATS.md §2). msgpack-cxx stays inside core/formats/smdx/*.cpp.
int sniffSmdx(std::string_view head) noexcept;
ReadResult readSmdx(std::string_view bytes, const ReadContext& ctx);
WriteResult writeSmdx(const Model& m, const WriteContext& ctx);

} // namespace rigscope::core
