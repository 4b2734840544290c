#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// XMODEL_BIN / XANIM_BIN (FORMATS.md §5): *LZ4* container + aligned token stream.
int sniffXbin(std::string_view head) noexcept;
ReadResult readXbin(std::string_view bytes, const ReadContext& ctx);
WriteResult writeXmodelBin(const Model& m, const WriteContext& ctx);
WriteResult writeXanimBin(const Model& m, const WriteContext& ctx);

} // namespace rigscope::core
