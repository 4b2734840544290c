#include "core/formats/bmp/bmp_writer.h"

namespace rigscope::core {

namespace {

void put16(std::string& out, std::uint32_t v)
{
    out.push_back(static_cast<char>(v & 0xffu));
    out.push_back(static_cast<char>((v >> 8) & 0xffu));
}

void put32(std::string& out, std::uint32_t v)
{
    put16(out, v & 0xffffu);
    put16(out, v >> 16);
}

} // namespace

std::string writeIndexedBmp(std::int32_t width, std::int32_t height,
                            const std::vector<std::uint8_t>& indices,
                            const std::vector<std::uint8_t>& palette)
{
    if (width < 1 || height < 1 || width > 0xffff || height > 0xffff || palette.size() != 768 ||
        indices.size() != std::size_t(width) * std::size_t(height)) {
        return {};
    }
    const auto w = static_cast<std::uint32_t>(width);
    const auto h = static_cast<std::uint32_t>(height);
    const std::uint32_t stride = (w + 3u) & ~3u;
    constexpr std::uint32_t kHeaders = 14 + 40;
    constexpr std::uint32_t kPalette = 256 * 4;
    const std::uint32_t size = kHeaders + kPalette + stride * h;
    std::string out;
    out.reserve(size);
    // BITMAPFILEHEADER
    out += "BM";
    put32(out, size);                // bfSize: LoadBMP reads the pixels up to it
    put32(out, 0);                   // bfReserved1, bfReserved2 (LoadBMP wants both 0)
    put32(out, kHeaders + kPalette); // bfOffBits
    // BITMAPINFOHEADER
    put32(out, 40);
    put32(out, w);
    put32(out, h); // positive: bottom-up, the order LoadBMP turns over
    put16(out, 1); // biPlanes
    put16(out, 8); // biBitCount
    put32(out, 0); // biCompression BI_RGB
    put32(out, stride * h);
    put32(out, 0);   // biXPelsPerMeter
    put32(out, 0);   // biYPelsPerMeter
    put32(out, 256); // biClrUsed
    put32(out, 0);   // biClrImportant
    for (std::size_t c = 0; c < 256; ++c) {
        out.push_back(static_cast<char>(palette[c * 3 + 2]));
        out.push_back(static_cast<char>(palette[c * 3 + 1]));
        out.push_back(static_cast<char>(palette[c * 3]));
        out.push_back('\0');
    }
    for (std::uint32_t row = h; row-- > 0;) {
        const auto* first = indices.data() + std::size_t(row) * w;
        out.append(reinterpret_cast<const char*>(first), w);
        out.append(stride - w, '\0');
    }
    return out;
}

} // namespace rigscope::core
