#pragma once

// An 8-bit indexed BMP (256-colour palette) as GoldSrc's studiomdl reads it: `convert X.mdl
// OUT.qc` writes each texture a GoldSrc .mdl holds as one, under the name its SMDs use, so that
// the decompiled project compiles (Grab_Skin, "%s not found") and reads back to the same pixels.
// No Debian library writes paletted BMPs (stb_image_write writes 24 / 32-bit ones only, and Qt
// is not in core), hence this small writer.

#include <cstdint>
#include <string>
#include <vector>

namespace rigscope::core {

// The file's bytes: BITMAPFILEHEADER, a 40-byte BITMAPINFOHEADER (1 plane, 8 bits, BI_RGB, all
// 256 colours used), the palette as 256 BGR0 quads, then the rows bottom-up, each padded with
// zeros to a multiple of 4 bytes, with nothing between the palette and the rows and nothing
// after them. That is what HL1 lbmlib.c LoadBMP accepts: biSize 40, biPlanes 1, biBitCount 8,
// biCompression BI_RGB, the palette read right after the headers, the pixels as the rest of the
// file up to bfSize (which must be exact), rows of (width + 3) & ~3 bytes turned top-down.
// `indices`: width x height palette indices, the top row first (a GoldSrc .mdl texture's
// order); `palette`: 256 RGB triples. Empty when a size does not fit (width or height outside
// 1..65535, which LoadBMP keeps in 16 bits, or the vectors' sizes).
std::string writeIndexedBmp(std::int32_t width, std::int32_t height,
                            const std::vector<std::uint8_t>& indices,
                            const std::vector<std::uint8_t>& palette);

} // namespace rigscope::core
