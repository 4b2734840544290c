#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rigscope::core {

// VTF image formats (PROJECTS.md §3.3); the ids are the file's.
enum class VtfFormat : std::int32_t {
    Rgba8888 = 0,
    Abgr8888 = 1,
    Rgb888 = 2,
    Bgr888 = 3,
    Rgb565 = 4,
    I8 = 5,
    Ia88 = 6,
    P8 = 7,
    A8 = 8,
    Rgb888Bluescreen = 9,
    Bgr888Bluescreen = 10,
    Argb8888 = 11,
    Bgra8888 = 12,
    Dxt1 = 13,
    Dxt3 = 14,
    Dxt5 = 15,
    Bgrx8888 = 16,
    Bgr565 = 17,
    Bgrx5551 = 18,
    Bgra4444 = 19,
    Dxt1OneBitAlpha = 20,
    Bgra5551 = 21,
    Uv88 = 22,
    Uvwq8888 = 23,
    Rgba16161616F = 24,
    Rgba16161616 = 25,
    Uvlx8888 = 26,
};
std::string_view vtfFormatName(std::int32_t format) noexcept; // "DXT5"; "unknown" otherwise
// Bytes of one width × height image in `format`; 0 for formats we do not size (P8, unknown).
std::uint64_t vtfImageBytes(std::int32_t format, std::uint32_t width,
                            std::uint32_t height) noexcept;
bool vtfFormatDecodable(std::int32_t format) noexcept;

struct VtfInfo {
    std::uint32_t versionMajor = 0, versionMinor = 0;
    std::uint32_t headerSize = 0;
    std::uint32_t width = 0, height = 0, depth = 1;
    std::uint32_t flags = 0;
    std::uint32_t frames = 1, faces = 1, mipCount = 1;
    std::int32_t format = -1;
    std::int32_t lowResFormat = -1;
    std::uint32_t lowResWidth = 0, lowResHeight = 0;
    std::uint64_t highResOffset = 0; // where the high-res mips start
};

// A decoded picture: RGBA, 8 bits per channel, rows top to bottom.
struct RgbaImage {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> pixels; // width * height * 4
    bool empty() const noexcept { return pixels.empty(); }
};

struct VtfReadResult {
    VtfInfo info;
    RgbaImage image;       // the chosen mip, first frame, first face, first slice
    std::uint32_t mip = 0; // which mip was decoded (0 = full size)
    std::string error;     // empty on success: "file ends after 1,204 of 4,096 bytes of mip 0"
    std::uint64_t errorOffset = 0;
    bool ok() const noexcept { return error.empty(); }
};

// Reads the header only (sizes, format, where the data lies), every field checked. `bytes` may
// be the head of a file of `fileSize` bytes (0: bytes is the whole file).
VtfReadResult readVtfInfo(std::span<const std::byte> bytes, std::uint64_t fileSize = 0);
// Reads and decodes the largest mip whose sides are both at most `maxSide` (the smallest mip
// when none is). Every offset and size is checked against the file before it is read; DXT
// goes through libsquish; RGBA16161616F is tone-mapped to 8 bits.
VtfReadResult readVtf(std::span<const std::byte> bytes, std::uint32_t maxSide = 2048);

// Decodes one image of `format` (exactly vtfImageBytes(format, w, h) bytes) to RGBA8. False
// for formats we do not decode.
bool decodeVtfImage(std::int32_t format, std::span<const std::byte> data, std::uint32_t width,
                    std::uint32_t height, RgbaImage& out);

} // namespace rigscope::core
