#pragma once

#include <string_view>

namespace rigscope::core {

// NUL bytes, or more than 1 in 10 control bytes, in the first 4 KiB: not a text file.
bool looksBinary(std::string_view bytes) noexcept;
// What a compiled game file is, by its first bytes (a Source or GoldSrc .mdl, the .vvd or .ani of
// one, a VTF or DDS texture), in the words every program shows for it where such a file is
// taken for a model source (a QC's $body, --force-reader, a .vvd opened alone); empty for
// anything else.
std::string_view compiledFileReason(std::string_view bytes) noexcept;
// Why bytes no reader recognises are not read, in the words every program uses: "file is empty",
// compiledFileReason(), "not a model file: binary data" or "unrecognised file format".
std::string_view unknownFormatReason(std::string_view bytes) noexcept;

} // namespace rigscope::core
