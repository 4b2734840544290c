#include "tests/support/vtf_encoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <squish.h>

namespace rigscope::test {

namespace {

using core::VtfFormat;

void put16(std::string& s, std::uint32_t v)
{
    s.push_back(char(v & 0xff));
    s.push_back(char((v >> 8) & 0xff));
}

void put32(std::string& s, std::uint32_t v)
{
    put16(s, v & 0xffff);
    put16(s, v >> 16);
}

void set32(std::string& s, std::size_t at, std::uint32_t v)
{
    for (int k = 0; k < 4; ++k) {
        s[at + std::size_t(k)] = char((v >> (8 * k)) & 0xff);
    }
}

std::uint32_t bits(std::uint8_t v, int n)
{
    const std::uint32_t maxv = (1u << n) - 1;
    return (std::uint32_t(v) * maxv + 127) / 255;
}

std::uint16_t toHalf(float f)
{
    // Values in [0, 65504], enough for tests.
    if (!(f > 0)) {
        return 0;
    }
    int e = 0;
    const float m = std::frexp(f, &e); // f = m * 2^e, m in [0.5, 1)
    int exp = e - 1 + 15;
    if (exp <= 0) {
        return std::uint16_t(std::lround(std::ldexp(f, 24)));
    }
    const auto mant = std::uint32_t(std::lround((m * 2.0f - 1.0f) * 1024.0f));
    if (mant == 1024) {
        ++exp;
        return std::uint16_t(exp << 10);
    }
    return std::uint16_t((exp << 10) | mant);
}

core::RgbaImage half(const core::RgbaImage& in)
{
    core::RgbaImage out;
    out.width = std::max(1u, in.width / 2);
    out.height = std::max(1u, in.height / 2);
    out.pixels.resize(std::size_t(out.width) * out.height * 4);
    for (std::uint32_t y = 0; y < out.height; ++y) {
        for (std::uint32_t x = 0; x < out.width; ++x) {
            for (int c = 0; c < 4; ++c) {
                int sum = 0, n = 0;
                for (std::uint32_t dy = 0; dy < 2; ++dy) {
                    for (std::uint32_t dx = 0; dx < 2; ++dx) {
                        const std::uint32_t sx = std::min(in.width - 1, x * 2 + dx);
                        const std::uint32_t sy = std::min(in.height - 1, y * 2 + dy);
                        sum += in.pixels[(std::size_t(sy) * in.width + sx) * 4 + std::size_t(c)];
                        ++n;
                    }
                }
                out.pixels[(std::size_t(y) * out.width + x) * 4 + std::size_t(c)] =
                    std::uint8_t((sum + n / 2) / n);
            }
        }
    }
    return out;
}

} // namespace

std::string encodePixels(const core::RgbaImage& image, VtfFormat format)
{
    std::string out;
    const int w = int(image.width), h = int(image.height);
    if (format == VtfFormat::Dxt1 || format == VtfFormat::Dxt1OneBitAlpha ||
        format == VtfFormat::Dxt3 || format == VtfFormat::Dxt5) {
        int flags = format == VtfFormat::Dxt3   ? squish::kDxt3
                    : format == VtfFormat::Dxt5 ? squish::kDxt5
                                                : squish::kDxt1;
        flags |= squish::kColourRangeFit;
        if (format == VtfFormat::Dxt1OneBitAlpha) {
            flags |= squish::kWeightColourByAlpha;
        }
        out.resize(std::size_t(squish::GetStorageRequirements(w, h, flags)));
        squish::CompressImage(image.pixels.data(), w, h, out.data(), flags);
        return out;
    }
    for (std::size_t i = 0; i < std::size_t(w) * std::size_t(h); ++i) {
        const std::uint8_t* p = &image.pixels[i * 4];
        const std::uint8_t r = p[0], g = p[1], b = p[2], a = p[3];
        auto bytes = [&](std::initializer_list<std::uint8_t> v) {
            for (std::uint8_t c : v) {
                out.push_back(char(c));
            }
        };
        switch (format) {
        case VtfFormat::Rgba8888:
        case VtfFormat::Uvwq8888:
        case VtfFormat::Uvlx8888:
            bytes({r, g, b, a});
            break;
        case VtfFormat::Abgr8888:
            bytes({a, b, g, r});
            break;
        case VtfFormat::Argb8888:
            bytes({a, r, g, b});
            break;
        case VtfFormat::Bgra8888:
            bytes({b, g, r, a});
            break;
        case VtfFormat::Bgrx8888:
            bytes({b, g, r, 0});
            break;
        case VtfFormat::Rgb888:
        case VtfFormat::Rgb888Bluescreen:
            bytes({r, g, b});
            break;
        case VtfFormat::Bgr888:
        case VtfFormat::Bgr888Bluescreen:
            bytes({b, g, r});
            break;
        case VtfFormat::Rgb565:
            put16(out, bits(r, 5) | (bits(g, 6) << 5) | (bits(b, 5) << 11));
            break;
        case VtfFormat::Bgr565:
            put16(out, bits(b, 5) | (bits(g, 6) << 5) | (bits(r, 5) << 11));
            break;
        case VtfFormat::Bgrx5551:
            put16(out, bits(b, 5) | (bits(g, 5) << 5) | (bits(r, 5) << 10));
            break;
        case VtfFormat::Bgra5551:
            put16(out,
                  bits(b, 5) | (bits(g, 5) << 5) | (bits(r, 5) << 10) | (a >= 128 ? 0x8000u : 0u));
            break;
        case VtfFormat::Bgra4444:
            put16(out, bits(b, 4) | (bits(g, 4) << 4) | (bits(r, 4) << 8) | (bits(a, 4) << 12));
            break;
        case VtfFormat::I8:
            bytes({r});
            break;
        case VtfFormat::Ia88:
            bytes({r, a});
            break;
        case VtfFormat::A8:
            bytes({a});
            break;
        case VtfFormat::Uv88:
            bytes({r, g});
            break;
        case VtfFormat::Rgba16161616F: {
            // Inverse of the decoder's curve: sRGB to linear, then Reinhard undone.
            for (std::uint8_t c : {r, g, b}) {
                const float s = float(c) / 255.0f;
                float l = s <= 0.04045f ? s / 12.92f : std::pow((s + 0.055f) / 1.055f, 2.4f);
                l = std::min(l, 0.999f);
                put16(out, toHalf(l / (1.0f - l)));
            }
            put16(out, toHalf(float(a) / 255.0f));
            break;
        }
        case VtfFormat::Rgba16161616:
            for (std::uint8_t c : {r, g, b, a}) {
                put16(out, std::uint32_t(c) * 257u);
            }
            break;
        default:
            break;
        }
    }
    return out;
}

std::string solidVtf(int side, const std::array<std::uint8_t, 4>& rgba, VtfFormat format)
{
    core::RgbaImage image;
    image.width = image.height = static_cast<std::uint32_t>(side);
    for (int i = 0; i < side * side; ++i) {
        image.pixels.insert(image.pixels.end(), rgba.begin(), rgba.end());
    }
    return encodeVtf(image, format);
}

std::string encodeVtf(const core::RgbaImage& image, VtfFormat format,
                      const VtfEncodeOptions& options)
{
    const std::uint32_t minor = std::min(options.versionMinor, 5u);
    std::vector<core::RgbaImage> mips{image};
    while (options.mips && (mips.back().width > 1 || mips.back().height > 1)) {
        mips.push_back(half(mips.back()));
    }
    const std::uint32_t faces = options.envMap ? (minor < 5 ? 7u : 6u) : 1u;
    std::string thumb;
    if (options.thumbnail) {
        core::RgbaImage t = image;
        while (t.width > 16 || t.height > 16) {
            t = half(t);
        }
        thumb = encodePixels(t, VtfFormat::Dxt1);
    }
    std::uint32_t thumbW = 0, thumbH = 0;
    if (options.thumbnail) {
        core::RgbaImage t = image;
        while (t.width > 16 || t.height > 16) {
            t = half(t);
        }
        thumbW = t.width;
        thumbH = t.height;
    }
    const std::uint32_t resources = minor >= 3 ? (options.thumbnail ? 2u : 1u) : 0u;
    const std::uint32_t headerSize = minor >= 3 ? 80 + 8 * resources : (minor == 2 ? 80 : 64);
    std::string s;
    s.append("VTF\0", 4);
    put32(s, 7);
    put32(s, minor);
    put32(s, headerSize);
    put16(s, image.width);
    put16(s, image.height);
    put32(s, options.envMap ? 0x4000u : 0u);
    put16(s, options.frames);
    put16(s, 0); // first frame
    put32(s, 0); // pad
    for (int k = 0; k < 3; ++k) {
        const float refl = 0.5f;
        std::uint32_t u = 0;
        std::memcpy(&u, &refl, 4);
        put32(s, u);
    }
    put32(s, 0); // pad
    const float bump = 1.0f;
    std::uint32_t ub = 0;
    std::memcpy(&ub, &bump, 4);
    put32(s, ub);
    put32(s, std::uint32_t(format));
    s.push_back(char(mips.size()));
    put32(s, options.thumbnail ? std::uint32_t(VtfFormat::Dxt1) : 0xffffffffu);
    s.push_back(char(thumbW));
    s.push_back(char(thumbH));
    if (minor >= 2) {
        put16(s, 1); // depth
    }
    if (minor >= 3) {
        s.append(3, '\0');
        put32(s, resources);
        s.append(8, '\0');
    }
    std::size_t entries = s.size();
    if (minor >= 3) {
        s.append(std::size_t(resources) * 8, '\0');
    }
    s.resize(headerSize, '\0');
    const std::size_t thumbAt = s.size();
    s += thumb;
    const std::size_t dataAt = s.size();
    for (std::size_t m = mips.size(); m-- > 0;) {
        const std::string px = encodePixels(mips[m], format);
        for (std::uint32_t c = 0; c < options.frames * faces; ++c) {
            s += px;
        }
    }
    if (minor >= 3) {
        if (options.thumbnail) {
            s[entries] = 0x01;
            set32(s, entries + 4, std::uint32_t(thumbAt));
            entries += 8;
        }
        s[entries] = 0x30;
        set32(s, entries + 4, std::uint32_t(dataAt));
    }
    return s;
}

std::string encodeDds(const core::RgbaImage& image, VtfFormat format,
                      const DdsEncodeOptions& options)
{
    std::string s = "DDS ";
    const std::size_t header = s.size();
    s.resize(header + 124, '\0');
    set32(s, header + 0, 124);
    std::uint32_t mips = 1;
    if (options.mips) {
        for (std::uint32_t side = std::max(image.width, image.height); side > 1; side /= 2) {
            ++mips;
        }
    }
    set32(s, header + 4, 0x1 | 0x2 | 0x4 | 0x1000 | (mips > 1 ? 0x20000 : 0)); // caps ... mips
    set32(s, header + 8, image.height);
    set32(s, header + 12, image.width);
    set32(s, header + 24, mips);
    const std::size_t pf = header + 72;
    set32(s, pf, 32);
    auto masks = [&](std::uint32_t flags, std::uint32_t bitCount, std::uint32_t r, std::uint32_t g,
                     std::uint32_t b, std::uint32_t a) {
        set32(s, pf + 4, flags);
        set32(s, pf + 12, bitCount);
        set32(s, pf + 16, r);
        set32(s, pf + 20, g);
        set32(s, pf + 24, b);
        set32(s, pf + 28, a);
    };
    const bool dxt =
        format == VtfFormat::Dxt1 || format == VtfFormat::Dxt3 || format == VtfFormat::Dxt5;
    std::string dx10;
    if (dxt) {
        set32(s, pf + 4, 0x4);
        const char* cc = options.dx10                ? "DX10"
                         : format == VtfFormat::Dxt1 ? "DXT1"
                         : format == VtfFormat::Dxt3 ? "DXT3"
                                                     : "DXT5";
        s.replace(pf + 8, 4, cc, 4);
        if (options.dx10) {
            put32(dx10, format == VtfFormat::Dxt1 ? 71 : (format == VtfFormat::Dxt3 ? 74 : 77));
            put32(dx10, 3); // texture 2D
            put32(dx10, 0);
            put32(dx10, 1); // array size
            put32(dx10, 0);
        }
    } else if (format == VtfFormat::Bgra8888) {
        masks(0x41, 32, 0xff0000, 0xff00, 0xff, 0xff000000u);
    } else if (format == VtfFormat::Bgrx8888) {
        masks(0x40, 32, 0xff0000, 0xff00, 0xff, 0);
    } else if (format == VtfFormat::Bgr888) {
        masks(0x40, 24, 0xff0000, 0xff00, 0xff, 0);
    } else if (format == VtfFormat::Bgr565) {
        masks(0x40, 16, 0xf800, 0x07e0, 0x001f, 0);
    } else if (format == VtfFormat::I8) {
        masks(0x20000, 8, 0xff, 0, 0, 0);
    }
    set32(s, header + 104, 0x1000 | (mips > 1 ? 0x400008 : 0)); // caps
    s += dx10;
    core::RgbaImage level = image;
    for (std::uint32_t m = 0; m < mips; ++m) {
        s += encodePixels(level, format);
        level = half(level);
    }
    return s;
}

} // namespace rigscope::test
