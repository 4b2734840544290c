#pragma once

// How every rigscope-cli verb reads an input: by content (readAny), or with the reader that
// `--force-reader=FMT` names (UX.md "Command line").

#include <string>
#include <string_view>

#include "core/formats/registry.h"

namespace rigscope::core {

// A FormatInfo id ("smd", "vta", "smdx", "xmodel", "xanim", "nt", "xmodel_bin", "xanim_bin")
// or one of its extensions ("xmodel_export"); nullptr when none.
const FormatInfo* readerByName(std::string_view name) noexcept;
// "smd, vta, smdx, ...": the names --force-reader accepts.
std::string readerNames();

// `forceReader` empty: readAny. Otherwise that reader, whatever the content and extension.
ReadResult readInput(std::string_view bytes, const ReadContext& ctx,
                     const std::string& forceReader);
// False when the bytes are of no known format and no reader is forced ("unknown format").
bool isReadable(std::string_view bytes, const std::string& path, const std::string& forceReader);

} // namespace rigscope::core
