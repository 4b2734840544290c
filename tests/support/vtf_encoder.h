#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/materials/vtf.h"

namespace rigscope::test {

struct VtfEncodeOptions {
    std::uint32_t versionMinor = 5; // 7.0 … 7.5
    bool mips = true;               // the full chain down to 1 x 1 (else one level)
    std::uint32_t frames = 1;
    bool envMap = false;   // 6 faces (7 before 7.5 with firstFrame != 0xffff)
    bool thumbnail = true; // a 16 x 16 DXT1 low-res image
};

// Writes `image` as a VTF of `format` (test files only: every colour format of PROJECTS.md
// §3.3; DXT through libsquish). Mip m is a 2^m box-filtered copy; frames and faces repeat it.
std::string encodeVtf(const core::RgbaImage& image, core::VtfFormat format,
                      const VtfEncodeOptions& options = {});

// A `side` x `side` VTF of `format` in one colour (test materials: "green", "red"...).
std::string solidVtf(int side, const std::array<std::uint8_t, 4>& rgba, core::VtfFormat format);

// One pixel in `format`, as the decoder expects it.
std::string encodePixels(const core::RgbaImage& image, core::VtfFormat format);

struct DdsEncodeOptions {
    bool mips = true;  // the full chain down to 1 x 1
    bool dx10 = false; // DXT as a DX10 header with a DXGI BC format
};

// Writes `image` as a DDS (test files only): DXT1 / DXT3 / DXT5 (FourCC, or DX10), BGRA8888,
// BGRX8888, BGR888, BGR565 and I8 as masked pixels.
std::string encodeDds(const core::RgbaImage& image, core::VtfFormat format,
                      const DdsEncodeOptions& options = {});

} // namespace rigscope::test
