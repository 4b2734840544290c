#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/materials/vtf.h"

namespace rigscope::core {

// A DirectDraw Surface (CoD images, PROJECTS.md §3.4): its header, and the mip that was decoded.
struct DdsReadResult {
    std::uint32_t width = 0, height = 0, mipCount = 1;
    // The layout as a VTF format id (DXT1 / DXT3 / DXT5, BGRA8888, BGR888, BGR565, I8, ...), so
    // the VTF decoder (and libsquish for the blocks) decodes it; -1 when unsupported.
    std::int32_t format = -1;
    std::string formatName; // "DXT5", "BGRA8888", or what the file says when unsupported
    RgbaImage image;        // the chosen mip, first face / array slice
    std::uint32_t mip = 0;
    std::string error; // empty on success
    std::uint64_t errorOffset = 0;
    bool ok() const noexcept { return error.empty(); }
};

// Reads the header only (`bytes` may be the head of the file): size, format, mip count.
DdsReadResult readDdsInfo(std::span<const std::byte> bytes);
// Decodes the largest mip whose sides are at most `maxSide` (the smallest when none is). Every
// size is checked against the file before it is read; DXT blocks go through libsquish.
// Formats: DXT1 / DXT3 / DXT5 (FourCC or DX10 BC1-3), 32-bit RGBA / BGRA / BGRX, 24-bit BGR,
// 16-bit 565 / 5551 / 4444, L8, A8L8, A8.
DdsReadResult readDds(std::span<const std::byte> bytes, std::uint32_t maxSide = 2048);

} // namespace rigscope::core
