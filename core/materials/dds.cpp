#include "core/materials/dds.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace rigscope::core {

namespace {

constexpr std::size_t kHeaderBytes = 128; // "DDS " + 124-byte header
constexpr std::size_t kDx10Bytes = 20;
constexpr std::uint32_t kMaxSide = 16384;

// Pixel format flags (DDS_PIXELFORMAT.dwFlags).
constexpr std::uint32_t kAlphaPixels = 0x1;
constexpr std::uint32_t kAlpha = 0x2;
constexpr std::uint32_t kFourCc = 0x4;
constexpr std::uint32_t kRgb = 0x40;
constexpr std::uint32_t kLuminance = 0x20000;

std::uint32_t u32(std::span<const std::byte> b, std::size_t at)
{
    std::uint32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v; // DDS is little-endian, as every machine RigScope runs on
}

constexpr std::uint32_t fourCc(const char (&s)[5])
{
    return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
           std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}

std::string fourCcText(std::uint32_t v)
{
    std::string s;
    for (int k = 0; k < 4; ++k) {
        const char c = char((v >> (8 * k)) & 0xffu);
        s += (c >= 32 && c < 127) ? c : '?';
    }
    return s;
}

std::uint32_t mipSide(std::uint32_t side, std::uint32_t mip) noexcept
{
    return std::max<std::uint32_t>(1, side >> std::min<std::uint32_t>(mip, 31));
}

struct Masks {
    std::uint32_t bits, r, g, b, a;
};

// The VTF format with the same bytes as an uncompressed DDS pixel format; -1 when none.
std::int32_t formatFromMasks(std::uint32_t flags, const Masks& m)
{
    const bool alpha = (flags & kAlphaPixels) != 0;
    if (flags & kRgb) {
        if (m.bits == 32 && m.r == 0x00ff0000u && m.g == 0x0000ff00u && m.b == 0x000000ffu) {
            return std::int32_t(alpha && m.a == 0xff000000u ? VtfFormat::Bgra8888
                                                            : VtfFormat::Bgrx8888);
        }
        if (m.bits == 32 && m.r == 0x000000ffu && m.g == 0x0000ff00u && m.b == 0x00ff0000u) {
            return alpha && m.a == 0xff000000u ? std::int32_t(VtfFormat::Rgba8888) : -1;
        }
        if (m.bits == 24 && m.r == 0xff0000u && m.g == 0x00ff00u && m.b == 0x0000ffu) {
            return std::int32_t(VtfFormat::Bgr888);
        }
        if (m.bits == 16 && m.r == 0xf800u && m.g == 0x07e0u && m.b == 0x001fu) {
            return std::int32_t(VtfFormat::Bgr565);
        }
        if (m.bits == 16 && m.r == 0x7c00u && m.g == 0x03e0u && m.b == 0x001fu) {
            return std::int32_t(alpha && m.a == 0x8000u ? VtfFormat::Bgra5551
                                                        : VtfFormat::Bgrx5551);
        }
        if (m.bits == 16 && m.r == 0x0f00u && m.g == 0x00f0u && m.b == 0x000fu && alpha &&
            m.a == 0xf000u) {
            return std::int32_t(VtfFormat::Bgra4444);
        }
        return -1;
    }
    if (flags & kLuminance) {
        if (m.bits == 8 && m.r == 0xffu) {
            return std::int32_t(VtfFormat::I8);
        }
        if (m.bits == 16 && m.r == 0x00ffu && alpha && m.a == 0xff00u) {
            return std::int32_t(VtfFormat::Ia88);
        }
        return -1;
    }
    if ((flags & kAlpha) && m.bits == 8 && m.a == 0xffu) {
        return std::int32_t(VtfFormat::A8);
    }
    return -1;
}

// DXGI_FORMAT values of the DX10 header that hold colour we decode.
std::int32_t formatFromDxgi(std::uint32_t dxgi)
{
    switch (dxgi) {
    case 70: // BC1_TYPELESS
    case 71: // BC1_UNORM
    case 72: // BC1_UNORM_SRGB
        return std::int32_t(VtfFormat::Dxt1);
    case 73:
    case 74:
    case 75: // BC2
        return std::int32_t(VtfFormat::Dxt3);
    case 76:
    case 77:
    case 78: // BC3
        return std::int32_t(VtfFormat::Dxt5);
    case 27:
    case 28:
    case 29: // R8G8B8A8
        return std::int32_t(VtfFormat::Rgba8888);
    case 87:
    case 90:
    case 91: // B8G8R8A8
        return std::int32_t(VtfFormat::Bgra8888);
    case 88:
    case 92:
    case 93: // B8G8R8X8
        return std::int32_t(VtfFormat::Bgrx8888);
    case 85: // B5G6R5
        return std::int32_t(VtfFormat::Bgr565);
    case 86: // B5G5R5A1
        return std::int32_t(VtfFormat::Bgra5551);
    case 61: // R8_UNORM
        return std::int32_t(VtfFormat::I8);
    case 65: // A8_UNORM
        return std::int32_t(VtfFormat::A8);
    default:
        return -1;
    }
}

struct Layout {
    DdsReadResult r;
    std::size_t dataOffset = kHeaderBytes;
};

Layout readHeader(std::span<const std::byte> bytes)
{
    Layout l;
    DdsReadResult& r = l.r;
    if (bytes.size() < kHeaderBytes) {
        r.error = "file ends after " + std::to_string(bytes.size()) + " of " +
                  std::to_string(kHeaderBytes) + " bytes of the DDS header";
        r.errorOffset = bytes.size();
        return l;
    }
    if (std::memcmp(bytes.data(), "DDS ", 4) != 0) {
        r.error = "not a DDS file (no 'DDS ' signature)";
        return l;
    }
    if (u32(bytes, 4) != 124 || u32(bytes, 76) != 32) {
        r.error = "DDS header size " + std::to_string(u32(bytes, 4)) + " / pixel format size " +
                  std::to_string(u32(bytes, 76)) + " (expected 124 / 32)";
        r.errorOffset = 4;
        return l;
    }
    r.height = u32(bytes, 12);
    r.width = u32(bytes, 16);
    r.mipCount = std::max<std::uint32_t>(1, u32(bytes, 28));
    if (r.width == 0 || r.height == 0 || r.width > kMaxSide || r.height > kMaxSide) {
        r.error = "DDS size " + std::to_string(r.width) + " x " + std::to_string(r.height) +
                  " is empty or over " + std::to_string(kMaxSide) + " on a side";
        r.errorOffset = 12;
        return l;
    }
    r.mipCount = std::min<std::uint32_t>(r.mipCount, 32);
    const std::uint32_t pfFlags = u32(bytes, 80);
    const std::uint32_t cc = u32(bytes, 84);
    if (pfFlags & kFourCc) {
        if (cc == fourCc("DXT1")) {
            r.format = std::int32_t(VtfFormat::Dxt1);
        } else if (cc == fourCc("DXT2") || cc == fourCc("DXT3")) {
            r.format = std::int32_t(VtfFormat::Dxt3);
        } else if (cc == fourCc("DXT4") || cc == fourCc("DXT5")) {
            r.format = std::int32_t(VtfFormat::Dxt5);
        } else if (cc == fourCc("DX10")) {
            if (bytes.size() < kHeaderBytes + kDx10Bytes) {
                r.error = "file ends inside the DX10 header";
                r.errorOffset = bytes.size();
                return l;
            }
            const std::uint32_t dxgi = u32(bytes, kHeaderBytes);
            r.format = formatFromDxgi(dxgi);
            l.dataOffset = kHeaderBytes + kDx10Bytes;
            if (r.format < 0) {
                r.formatName = "DXGI format " + std::to_string(dxgi);
            }
        } else {
            r.formatName = "FourCC '" + fourCcText(cc) + "'";
        }
    } else {
        r.format = formatFromMasks(pfFlags, {u32(bytes, 88), u32(bytes, 92), u32(bytes, 96),
                                             u32(bytes, 100), u32(bytes, 104)});
        if (r.format < 0) {
            r.formatName = std::to_string(u32(bytes, 88)) + "-bit masked pixels";
        }
    }
    if (r.format >= 0) {
        r.formatName = std::string(vtfFormatName(r.format));
    } else {
        r.error = "unsupported DDS pixel format: " + r.formatName;
        r.errorOffset = 76;
    }
    return l;
}

} // namespace

DdsReadResult readDdsInfo(std::span<const std::byte> bytes)
{
    return readHeader(bytes).r;
}

DdsReadResult readDds(std::span<const std::byte> bytes, std::uint32_t maxSide)
{
    Layout l = readHeader(bytes);
    DdsReadResult& r = l.r;
    if (!r.ok()) {
        return std::move(r);
    }
    maxSide = std::clamp<std::uint32_t>(maxSide, 1, kMaxSide);
    std::uint32_t mip = 0;
    while (mip + 1 < r.mipCount &&
           (mipSide(r.width, mip) > maxSide || mipSide(r.height, mip) > maxSide)) {
        ++mip;
    }
    // Mips are stored from the largest down: skip those above the chosen one, each checked.
    std::uint64_t offset = l.dataOffset;
    for (std::uint32_t m = 0; m < mip; ++m) {
        offset += vtfImageBytes(r.format, mipSide(r.width, m), mipSide(r.height, m));
    }
    const std::uint32_t w = mipSide(r.width, mip), h = mipSide(r.height, mip);
    const std::uint64_t need = vtfImageBytes(r.format, w, h);
    if (offset > bytes.size() || bytes.size() - offset < need) {
        r.error = "file ends after " +
                  std::to_string(offset > bytes.size() ? 0 : bytes.size() - offset) + " of " +
                  std::to_string(need) + " bytes of mip " + std::to_string(mip) + " (" +
                  std::to_string(w) + " x " + std::to_string(h) + ")";
        r.errorOffset = std::min<std::uint64_t>(offset, bytes.size());
        return std::move(r);
    }
    if (!decodeVtfImage(r.format, bytes.subspan(std::size_t(offset), std::size_t(need)), w, h,
                        r.image)) {
        r.error =
            "cannot decode " + r.formatName + " " + std::to_string(w) + " x " + std::to_string(h);
        r.errorOffset = offset;
        return std::move(r);
    }
    r.mip = mip;
    return std::move(r);
}

} // namespace rigscope::core
