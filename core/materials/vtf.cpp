#include "core/materials/vtf.h"
#include "core/text/plural.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <cmath>
#include <cstring>

#include <squish.h>

namespace rigscope::core {

namespace {

constexpr std::uint32_t kMaxSide = 32768; // VTF sides are uint16
constexpr std::uint32_t kFlagEnvMap = 0x4000;
constexpr std::uint64_t kMaxDecodedBytes = 1ull << 28; // 256 MB of RGBA at most

struct Reader {
    std::span<const std::byte> b;
    bool has(std::uint64_t offset, std::uint64_t n) const noexcept
    {
        return offset <= b.size() && n <= b.size() - offset;
    }
    std::uint8_t u8(std::uint64_t o) const noexcept { return std::uint8_t(b[o]); }
    std::uint16_t u16(std::uint64_t o) const noexcept
    {
        return std::uint16_t(u8(o) | (u8(o + 1) << 8));
    }
    std::uint32_t u32(std::uint64_t o) const noexcept
    {
        return std::uint32_t(u16(o)) | (std::uint32_t(u16(o + 2)) << 16);
    }
};

std::uint8_t expand(std::uint32_t v, int bits)
{
    const std::uint32_t maxv = (1u << bits) - 1;
    return std::uint8_t((v * 255 + maxv / 2) / maxv);
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h >> 15) & 1u;
    const std::uint32_t exp = (h >> 10) & 0x1fu;
    const std::uint32_t mant = h & 0x3ffu;
    float v = 0;
    if (exp == 0) {
        v = std::ldexp(float(mant), -24);
    } else if (exp == 31) {
        v = mant ? 0.0f : 65504.0f; // NaN draws black, infinity as the largest value
    } else {
        v = std::ldexp(float(mant | 0x400u), int(exp) - 25);
    }
    return sign ? -v : v;
}

// Linear HDR value to 8-bit sRGB: Reinhard curve, then the sRGB transfer function.
std::uint8_t toneMap(float v)
{
    if (!(v > 0.0f)) {
        return 0;
    }
    const float l = v / (1.0f + v);
    const float s = l <= 0.0031308f ? 12.92f * l : 1.055f * std::pow(l, 1.0f / 2.4f) - 0.055f;
    return std::uint8_t(std::lround(std::clamp(s, 0.0f, 1.0f) * 255.0f));
}

int bytesPerPixel(std::int32_t format) noexcept
{
    switch (VtfFormat(format)) {
    case VtfFormat::Rgba8888:
    case VtfFormat::Abgr8888:
    case VtfFormat::Argb8888:
    case VtfFormat::Bgra8888:
    case VtfFormat::Bgrx8888:
    case VtfFormat::Uvwq8888:
    case VtfFormat::Uvlx8888:
        return 4;
    case VtfFormat::Rgb888:
    case VtfFormat::Bgr888:
    case VtfFormat::Rgb888Bluescreen:
    case VtfFormat::Bgr888Bluescreen:
        return 3;
    case VtfFormat::Rgb565:
    case VtfFormat::Bgr565:
    case VtfFormat::Bgrx5551:
    case VtfFormat::Bgra4444:
    case VtfFormat::Bgra5551:
    case VtfFormat::Ia88:
    case VtfFormat::Uv88:
        return 2;
    case VtfFormat::I8:
    case VtfFormat::A8:
    case VtfFormat::P8:
        return 1;
    case VtfFormat::Rgba16161616F:
    case VtfFormat::Rgba16161616:
        return 8;
    default:
        return 0;
    }
}

int dxtBlockBytes(std::int32_t format) noexcept
{
    switch (VtfFormat(format)) {
    case VtfFormat::Dxt1:
    case VtfFormat::Dxt1OneBitAlpha:
        return 8;
    case VtfFormat::Dxt3:
    case VtfFormat::Dxt5:
        return 16;
    default:
        return 0;
    }
}

// a * b, or the largest value when it overflows (sizes are then compared with the file's).
std::uint64_t mulSat(std::uint64_t a, std::uint64_t b) noexcept
{
    std::uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::uint64_t>::max() : r;
}

std::uint64_t addSat(std::uint64_t a, std::uint64_t b) noexcept
{
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<std::uint64_t>::max() : r;
}

std::uint32_t mipSide(std::uint32_t side, std::uint32_t mip) noexcept
{
    return std::max<std::uint32_t>(1, side >> std::min<std::uint32_t>(mip, 31));
}

} // namespace

std::string_view vtfFormatName(std::int32_t format) noexcept
{
    static constexpr std::string_view kNames[] = {
        "RGBA8888",
        "ABGR8888",
        "RGB888",
        "BGR888",
        "RGB565",
        "I8",
        "IA88",
        "P8",
        "A8",
        "RGB888_BLUESCREEN",
        "BGR888_BLUESCREEN",
        "ARGB8888",
        "BGRA8888",
        "DXT1",
        "DXT3",
        "DXT5",
        "BGRX8888",
        "BGR565",
        "BGRX5551",
        "BGRA4444",
        "DXT1_ONEBITALPHA",
        "BGRA5551",
        "UV88",
        "UVWQ8888",
        "RGBA16161616F",
        "RGBA16161616",
        "UVLX8888",
    };
    if (format < 0 || std::size_t(format) >= std::size(kNames)) {
        return "unknown";
    }
    return kNames[format];
}

std::uint64_t vtfImageBytes(std::int32_t format, std::uint32_t width, std::uint32_t height) noexcept
{
    if (const int block = dxtBlockBytes(format)) {
        return std::uint64_t((width + 3) / 4) * ((height + 3) / 4) * std::uint64_t(block);
    }
    return std::uint64_t(width) * height * std::uint64_t(bytesPerPixel(format));
}

bool vtfFormatDecodable(std::int32_t format) noexcept
{
    return format != std::int32_t(VtfFormat::P8) && vtfImageBytes(format, 4, 4) > 0;
}

bool decodeVtfImage(std::int32_t format, std::span<const std::byte> data, std::uint32_t width,
                    std::uint32_t height, RgbaImage& out)
{
    const std::uint64_t need = vtfImageBytes(format, width, height);
    if (!vtfFormatDecodable(format) || need == 0 || data.size() < need || width == 0 ||
        height == 0 || std::uint64_t(width) * height * 4 > kMaxDecodedBytes) {
        return false;
    }
    out.width = width;
    out.height = height;
    out.pixels.assign(std::size_t(width) * height * 4, 0);
    std::uint8_t* dst = out.pixels.data();
    const auto* src = reinterpret_cast<const std::uint8_t*>(data.data());
    if (const int block = dxtBlockBytes(format)) {
        const int flags =
            block == 8 ? squish::kDxt1 : (format == 14 ? squish::kDxt3 : squish::kDxt5);
        squish::DecompressImage(dst, int(width), int(height), src, flags);
        return true;
    }
    const std::size_t n = std::size_t(width) * height;
    const int bpp = bytesPerPixel(format);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* p = src + i * std::size_t(bpp);
        std::uint8_t* o = dst + i * 4;
        std::uint8_t r = 0, g = 0, b = 0, a = 255;
        const std::uint32_t v16 = bpp == 2 ? std::uint32_t(p[0] | (p[1] << 8)) : 0;
        switch (VtfFormat(format)) {
        case VtfFormat::Rgba8888:
        case VtfFormat::Uvwq8888:
        case VtfFormat::Uvlx8888:
            r = p[0], g = p[1], b = p[2], a = p[3];
            break;
        case VtfFormat::Abgr8888:
            a = p[0], b = p[1], g = p[2], r = p[3];
            break;
        case VtfFormat::Argb8888:
            a = p[0], r = p[1], g = p[2], b = p[3];
            break;
        case VtfFormat::Bgra8888:
            b = p[0], g = p[1], r = p[2], a = p[3];
            break;
        case VtfFormat::Bgrx8888:
            b = p[0], g = p[1], r = p[2];
            break;
        case VtfFormat::Rgb888:
            r = p[0], g = p[1], b = p[2];
            break;
        case VtfFormat::Bgr888:
            b = p[0], g = p[1], r = p[2];
            break;
        case VtfFormat::Rgb888Bluescreen:
            r = p[0], g = p[1], b = p[2];
            a = (r == 0 && g == 0 && b == 255) ? 0 : 255;
            break;
        case VtfFormat::Bgr888Bluescreen:
            b = p[0], g = p[1], r = p[2];
            a = (r == 0 && g == 0 && b == 255) ? 0 : 255;
            break;
        case VtfFormat::Rgb565: // red in the low bits
            r = expand(v16 & 31u, 5), g = expand((v16 >> 5) & 63u, 6),
            b = expand((v16 >> 11) & 31u, 5);
            break;
        case VtfFormat::Bgr565: // blue in the low bits
            b = expand(v16 & 31u, 5), g = expand((v16 >> 5) & 63u, 6),
            r = expand((v16 >> 11) & 31u, 5);
            break;
        case VtfFormat::Bgrx5551:
            b = expand(v16 & 31u, 5), g = expand((v16 >> 5) & 31u, 5),
            r = expand((v16 >> 10) & 31u, 5);
            break;
        case VtfFormat::Bgra5551:
            b = expand(v16 & 31u, 5), g = expand((v16 >> 5) & 31u, 5),
            r = expand((v16 >> 10) & 31u, 5), a = (v16 >> 15) ? 255 : 0;
            break;
        case VtfFormat::Bgra4444:
            b = expand(v16 & 15u, 4), g = expand((v16 >> 4) & 15u, 4),
            r = expand((v16 >> 8) & 15u, 4), a = expand((v16 >> 12) & 15u, 4);
            break;
        case VtfFormat::I8:
            r = g = b = p[0];
            break;
        case VtfFormat::Ia88:
            r = g = b = p[0], a = p[1];
            break;
        case VtfFormat::A8:
            r = g = b = 0, a = p[0];
            break;
        case VtfFormat::Uv88:
            r = p[0], g = p[1], b = 0;
            break;
        case VtfFormat::Rgba16161616F: {
            std::uint16_t h[4];
            for (int k = 0; k < 4; ++k) {
                h[k] = std::uint16_t(p[2 * k] | (p[2 * k + 1] << 8));
            }
            r = toneMap(halfToFloat(h[0])), g = toneMap(halfToFloat(h[1])),
            b = toneMap(halfToFloat(h[2]));
            const float av = halfToFloat(h[3]);
            a = std::uint8_t(
                std::lround(std::clamp(std::isfinite(av) ? av : 1.0f, 0.0f, 1.0f) * 255.0f));
            break;
        }
        case VtfFormat::Rgba16161616:
            r = p[1], g = p[3], b = p[5], a = p[7]; // the high byte of each channel
            break;
        default:
            return false;
        }
        o[0] = r, o[1] = g, o[2] = b, o[3] = a;
    }
    return true;
}

VtfReadResult readVtfInfo(std::span<const std::byte> bytes, std::uint64_t fileSize)
{
    if (fileSize < bytes.size()) {
        fileSize = bytes.size();
    }
    VtfReadResult res;
    VtfInfo& info = res.info;
    const Reader rd{bytes};
    auto fail = [&](std::uint64_t offset, std::string message) {
        res.error = std::move(message);
        res.errorOffset = offset;
        return res;
    };
    if (!rd.has(0, 16)) {
        return fail(0, "file ends after " + std::to_string(bytes.size()) +
                           " bytes, inside the 16-byte VTF signature and version");
    }
    if (std::memcmp(bytes.data(), "VTF\0", 4) != 0) {
        return fail(0, "not a VTF file (no 'VTF' signature)");
    }
    info.versionMajor = rd.u32(4);
    info.versionMinor = rd.u32(8);
    if (info.versionMajor != 7 || info.versionMinor > 5) {
        return fail(4, "VTF version " + std::to_string(info.versionMajor) + "." +
                           std::to_string(info.versionMinor) + " not supported (7.0 to 7.5)");
    }
    const std::uint32_t minHeader =
        info.versionMinor >= 3 ? 80 : (info.versionMinor == 2 ? 65 : 63);
    if (!rd.has(0, minHeader)) {
        return fail(0, "file ends after " + groupedCount(bytes.size()) + " of the " +
                           std::to_string(minHeader) + " bytes of a VTF 7." +
                           std::to_string(info.versionMinor) + " header");
    }
    info.headerSize = rd.u32(12);
    if (info.headerSize < minHeader || info.headerSize > bytes.size()) { // the head holds it
        return fail(12, "header size " + groupedCount(info.headerSize) + " outside the file (" +
                            groupedCount(bytes.size()) + " bytes) or below " +
                            std::to_string(minHeader));
    }
    info.width = rd.u16(16);
    info.height = rd.u16(18);
    info.flags = rd.u32(20);
    info.frames = rd.u16(24);
    const std::uint16_t firstFrame = rd.u16(26);
    info.format = std::int32_t(rd.u32(52));
    info.mipCount = rd.u8(56);
    info.lowResFormat = std::int32_t(rd.u32(57));
    info.lowResWidth = rd.u8(61);
    info.lowResHeight = rd.u8(62);
    info.depth = info.versionMinor >= 2 ? rd.u16(63) : 1;
    if (info.depth == 0) {
        info.depth = 1; // written as 0 by some tools
    }
    if (info.width == 0 || info.height == 0) {
        return fail(16, "image of " + std::to_string(info.width) + " x " +
                            std::to_string(info.height) + " pixels");
    }
    if (info.frames == 0) {
        return fail(24, "no frames");
    }
    const auto maxMips =
        std::uint32_t(std::bit_width(std::max({info.width, info.height, info.depth})));
    if (info.mipCount == 0 || info.mipCount > maxMips) {
        return fail(56, std::to_string(info.mipCount) + " mip levels for a " +
                            std::to_string(info.width) + " x " + std::to_string(info.height) +
                            " image (1 to " + std::to_string(maxMips) + ")");
    }
    if (vtfImageBytes(info.format, 4, 4) == 0) {
        return fail(52, "image format " + std::to_string(info.format) + " (" +
                            std::string(vtfFormatName(info.format)) + ") not supported");
    }
    info.faces = 1;
    if (info.flags & kFlagEnvMap) {
        info.faces = (firstFrame != 0xffff && info.versionMinor < 5) ? 7 : 6;
    }

    // Where the high-res data lies: after the thumbnail (7.0–7.2) or as the resource says.
    std::uint64_t lowResBytes = 0;
    if (info.lowResFormat != -1 && info.lowResWidth > 0 && info.lowResHeight > 0) {
        lowResBytes = vtfImageBytes(info.lowResFormat, info.lowResWidth, info.lowResHeight);
    }
    if (info.versionMinor >= 3) {
        const std::uint32_t count = rd.u32(68);
        if (count > (info.headerSize - 80) / 8) {
            return fail(68, std::to_string(count) + " resources do not fit a " +
                                std::to_string(info.headerSize) + "-byte header");
        }
        bool found = false;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint64_t e = 80 + std::uint64_t(i) * 8;
            const std::uint8_t t0 = rd.u8(e), t1 = rd.u8(e + 1), t2 = rd.u8(e + 2);
            if (t0 == 0x30 && t1 == 0 && t2 == 0) {
                info.highResOffset = rd.u32(e + 4);
                found = true;
            }
        }
        if (!found) {
            return fail(68, "no high-resolution image resource among " + std::to_string(count) +
                                " resources");
        }
    } else {
        info.highResOffset = std::uint64_t(info.headerSize) + lowResBytes;
    }
    // The whole high-res block must be in the file.
    std::uint64_t total = 0;
    const std::uint64_t perMipCopies = std::uint64_t(info.frames) * info.faces;
    for (std::uint32_t m = 0; m < info.mipCount; ++m) {
        const std::uint64_t slices = mipSide(info.depth, m);
        total = addSat(total, mulSat(mulSat(vtfImageBytes(info.format, mipSide(info.width, m),
                                                          mipSide(info.height, m)),
                                            perMipCopies),
                                     slices));
    }
    if (info.highResOffset > fileSize || total > fileSize - info.highResOffset) {
        const std::uint64_t have =
            info.highResOffset > fileSize ? 0 : fileSize - info.highResOffset;
        return fail(info.highResOffset,
                    "file ends after " + groupedCount(have) + " of the " + groupedCount(total) +
                        " bytes of image data (" + std::to_string(info.mipCount) + " mips, " +
                        std::to_string(info.frames) + " frames, " + std::to_string(info.faces) +
                        " faces, " + std::string(vtfFormatName(info.format)) + ")");
    }
    return res;
}

VtfReadResult readVtf(std::span<const std::byte> bytes, std::uint32_t maxSide)
{
    VtfReadResult res = readVtfInfo(bytes);
    if (!res.ok()) {
        return res;
    }
    const VtfInfo& info = res.info;
    if (!vtfFormatDecodable(info.format)) {
        res.error = "image format " + std::string(vtfFormatName(info.format)) + " not decoded";
        res.errorOffset = 52;
        return res;
    }
    maxSide = std::clamp<std::uint32_t>(maxSide, 1, kMaxSide);
    std::uint32_t mip = 0;
    while (mip + 1 < info.mipCount &&
           (mipSide(info.width, mip) > maxSide || mipSide(info.height, mip) > maxSide)) {
        ++mip;
    }
    // Mips are stored smallest first: skip those smaller than the chosen one.
    std::uint64_t offset = info.highResOffset;
    const std::uint64_t copies = std::uint64_t(info.frames) * info.faces;
    for (std::uint32_t m = info.mipCount; m-- > mip + 1;) {
        offset += vtfImageBytes(info.format, mipSide(info.width, m), mipSide(info.height, m)) *
                  copies * mipSide(info.depth, m);
    }
    const std::uint32_t w = mipSide(info.width, mip);
    const std::uint32_t h = mipSide(info.height, mip);
    const std::uint64_t size = vtfImageBytes(info.format, w, h);
    if (offset > bytes.size() || size > bytes.size() - offset) { // checked in readVtfInfo too
        res.error = "file ends inside mip " + std::to_string(mip);
        res.errorOffset = offset;
        return res;
    }
    res.mip = mip;
    if (!decodeVtfImage(info.format, bytes.subspan(std::size_t(offset), std::size_t(size)), w, h,
                        res.image)) {
        res.error = "cannot decode " + std::string(vtfFormatName(info.format));
        res.errorOffset = offset;
    }
    return res;
}

} // namespace rigscope::core
