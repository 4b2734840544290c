#pragma once

#include "core/formats/registry.h"

namespace rigscope::core {

// Call of Duty XANIM_EXPORT v3 and NT_EXPORT (FORMATS.md §4).
int sniffXanim(std::string_view head) noexcept;
ReadResult readXanim(std::string_view bytes, const ReadContext& ctx);
WriteResult writeXanim(const Model& m, const WriteContext& ctx);

int sniffNtExport(std::string_view head) noexcept;
// An NT_EXPORT alone reads to a Model with one Animation holding only notes.
ReadResult readNtExport(std::string_view bytes, const ReadContext& ctx);
WriteResult writeNtExport(const Model& m, const WriteContext& ctx);

} // namespace rigscope::core
