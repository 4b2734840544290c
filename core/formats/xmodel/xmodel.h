#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// Call of Duty XMODEL_EXPORT v5/v6/v7 (FORMATS.md §3).
int sniffXmodel(std::string_view head) noexcept;
ReadResult readXmodel(std::string_view bytes, const ReadContext& ctx);
WriteResult writeXmodel(const Model& m, const WriteContext& ctx);

} // namespace rigscope::core
