// VTF reader (issue 18): every colour format of PROJECTS.md §3.3 in every version 7.0–7.5,
// written by tests/support/vtf_encoder and decoded back to known pixels; the mip cap, frames and
// cube maps; hostile headers and every truncation.
#include <QtTest/QtTest>

#include "core/materials/vtf.h"
#include "tests/support/test_support.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

// 8 x 8: four 4 x 4 quadrants of solid colours (DXT blocks hold them exactly), alpha varying
// per quadrant.
RgbaImage quadrants(std::uint32_t side = 8)
{
    RgbaImage img;
    img.width = img.height = side;
    img.pixels.resize(std::size_t(side) * side * 4);
    const std::uint8_t colours[4][4] = {
        {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 0}, {255, 255, 255, 136}};
    for (std::uint32_t y = 0; y < side; ++y) {
        for (std::uint32_t x = 0; x < side; ++x) {
            const int q = (y < side / 2 ? 0 : 2) + (x < side / 2 ? 0 : 1);
            std::memcpy(&img.pixels[(std::size_t(y) * side + x) * 4], colours[q], 4);
        }
    }
    return img;
}

struct Expect {
    bool rgb = true;   // colour channels kept
    bool alpha = true; // alpha kept
    int tolerance = 0;
};

Expect expectFor(VtfFormat f)
{
    switch (f) {
    case VtfFormat::Rgb888:
    case VtfFormat::Bgr888:
    case VtfFormat::Bgrx8888:
    case VtfFormat::Bgrx5551:
    case VtfFormat::Rgb565:
    case VtfFormat::Bgr565:
        return {true, false, 0};
    case VtfFormat::Rgb888Bluescreen:
    case VtfFormat::Bgr888Bluescreen:
        return {true, false, 0}; // alpha from the key colour, tested apart
    case VtfFormat::Dxt1:
        return {true, false, 8};
    case VtfFormat::Dxt1OneBitAlpha:
        return {true, false, 8};
    case VtfFormat::Dxt3:
        return {true, true, 17};
    case VtfFormat::Dxt5:
        return {true, true, 8};
    case VtfFormat::Bgra4444:
        return {true, true, 9};
    case VtfFormat::Bgra5551:
        return {true, false, 5};
    case VtfFormat::Rgba16161616F:
        return {true, true, 2};
    case VtfFormat::I8:
    case VtfFormat::Ia88:
    case VtfFormat::A8:
    case VtfFormat::Uv88:
        return {false, false, 0}; // channel layouts tested apart
    default:
        return {true, true, 0};
    }
}

const VtfFormat kColourFormats[] = {VtfFormat::Rgba8888,
                                    VtfFormat::Abgr8888,
                                    VtfFormat::Rgb888,
                                    VtfFormat::Bgr888,
                                    VtfFormat::Rgb565,
                                    VtfFormat::I8,
                                    VtfFormat::Ia88,
                                    VtfFormat::A8,
                                    VtfFormat::Rgb888Bluescreen,
                                    VtfFormat::Bgr888Bluescreen,
                                    VtfFormat::Argb8888,
                                    VtfFormat::Bgra8888,
                                    VtfFormat::Dxt1,
                                    VtfFormat::Dxt3,
                                    VtfFormat::Dxt5,
                                    VtfFormat::Bgrx8888,
                                    VtfFormat::Bgr565,
                                    VtfFormat::Bgrx5551,
                                    VtfFormat::Bgra4444,
                                    VtfFormat::Dxt1OneBitAlpha,
                                    VtfFormat::Bgra5551,
                                    VtfFormat::Uv88,
                                    VtfFormat::Rgba16161616F};

std::span<const std::byte> span(const std::string& s)
{
    return std::as_bytes(std::span(s));
}

const std::uint8_t* px(const RgbaImage& img, std::uint32_t x, std::uint32_t y)
{
    return &img.pixels[(std::size_t(y) * img.width + x) * 4];
}

} // namespace

class TstVtf : public QObject {
    Q_OBJECT
private slots:
    void everyFormatAndVersion_data();
    void everyFormatAndVersion();
    void greyAndTwoChannelLayouts();
    void bluescreenIsTransparent();
    void dxt1OneBitAlpha();
    void mipCap();
    void framesAndCubeMaps();
    void headerInfo();
    void hostileHeaders();
    void everyTruncation();
};

void TstVtf::everyFormatAndVersion_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("minor");
    for (VtfFormat f : kColourFormats) {
        for (int minor = 0; minor <= 5; ++minor) {
            QTest::addRow("%s-7.%d", vtfFormatName(std::int32_t(f)).data(), minor)
                << int(f) << minor;
        }
    }
}

void TstVtf::everyFormatAndVersion()
{
    QFETCH(int, format);
    QFETCH(int, minor);
    RgbaImage src = quadrants();
    const Expect e = expectFor(VtfFormat(format));
    if (!e.alpha) {
        for (std::size_t i = 3; i < src.pixels.size(); i += 4) {
            src.pixels[i] = 255; // DXT1 would make transparent pixels black
        }
    }
    test::VtfEncodeOptions o;
    o.versionMinor = std::uint32_t(minor);
    const std::string file = test::encodeVtf(src, VtfFormat(format), o);
    const VtfReadResult r = readVtf(span(file));
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.info.versionMinor, std::uint32_t(minor));
    QCOMPARE(r.info.format, format);
    QCOMPARE(r.info.mipCount, 4u); // 8, 4, 2, 1
    QCOMPARE(r.mip, 0u);
    QCOMPARE(r.image.width, 8u);
    QCOMPARE(r.image.height, 8u);
    for (std::uint32_t y = 0; y < 8; ++y) {
        for (std::uint32_t x = 0; x < 8; ++x) {
            const std::uint8_t* want = px(src, x, y);
            const std::uint8_t* got = px(r.image, x, y);
            for (int c = 0; c < 3 && e.rgb; ++c) {
                QVERIFY2(std::abs(int(got[c]) - int(want[c])) <= e.tolerance,
                         qPrintable(QStringLiteral("(%1,%2) channel %3: %4 vs %5")
                                        .arg(x)
                                        .arg(y)
                                        .arg(c)
                                        .arg(got[c])
                                        .arg(want[c])));
            }
            if (e.alpha) {
                QVERIFY2(std::abs(int(got[3]) - int(want[3])) <= e.tolerance,
                         qPrintable(QStringLiteral("(%1,%2) alpha: %3 vs %4")
                                        .arg(x)
                                        .arg(y)
                                        .arg(got[3])
                                        .arg(want[3])));
            } else if (VtfFormat(format) != VtfFormat::Rgb888Bluescreen &&
                       VtfFormat(format) != VtfFormat::Ia88 && VtfFormat(format) != VtfFormat::A8 &&
                       VtfFormat(format) != VtfFormat::Bgr888Bluescreen &&
                       VtfFormat(format) != VtfFormat::Bgra5551) {
                QCOMPARE(int(got[3]), 255);
            }
        }
    }
}

void TstVtf::greyAndTwoChannelLayouts()
{
    RgbaImage src;
    src.width = src.height = 4;
    for (int i = 0; i < 16; ++i) {
        const auto v = std::uint8_t(i * 16);
        src.pixels.insert(src.pixels.end(), {v, std::uint8_t(255 - v), 7, std::uint8_t(v + 3)});
    }
    auto decode = [&](VtfFormat f) {
        const VtfReadResult r = readVtf(span(test::encodeVtf(src, f)));
        return r.image;
    };
    const RgbaImage i8 = decode(VtfFormat::I8);
    const RgbaImage ia = decode(VtfFormat::Ia88);
    const RgbaImage a8 = decode(VtfFormat::A8);
    const RgbaImage uv = decode(VtfFormat::Uv88);
    for (std::uint32_t k = 0; k < 16; ++k) {
        const std::uint8_t* s = &src.pixels[k * 4];
        const std::uint8_t* p = &i8.pixels[k * 4];
        QCOMPARE(int(p[0]), int(s[0]));
        QCOMPARE(int(p[1]), int(s[0]));
        QCOMPARE(int(p[2]), int(s[0]));
        QCOMPARE(int(p[3]), 255);
        p = &ia.pixels[k * 4];
        QCOMPARE(int(p[1]), int(s[0]));
        QCOMPARE(int(p[3]), int(s[3]));
        p = &a8.pixels[k * 4];
        QCOMPARE(int(p[0]), 0);
        QCOMPARE(int(p[3]), int(s[3]));
        p = &uv.pixels[k * 4];
        QCOMPARE(int(p[0]), int(s[0]));
        QCOMPARE(int(p[1]), int(s[1]));
        QCOMPARE(int(p[2]), 0);
    }
}

void TstVtf::bluescreenIsTransparent()
{
    const RgbaImage src = quadrants(); // bottom-left quadrant is pure blue
    for (VtfFormat f : {VtfFormat::Rgb888Bluescreen, VtfFormat::Bgr888Bluescreen}) {
        const VtfReadResult r = readVtf(span(test::encodeVtf(src, f)));
        QVERIFY(r.ok());
        QCOMPARE(int(px(r.image, 0, 0)[3]), 255);
        QCOMPARE(int(px(r.image, 1, 6)[3]), 0);
        QCOMPARE(int(px(r.image, 7, 7)[3]), 255);
    }
}

void TstVtf::dxt1OneBitAlpha()
{
    // A block with transparent pixels keeps them transparent through libsquish's 3-colour mode.
    RgbaImage src = quadrants();
    for (std::uint32_t y = 0; y < 4; ++y) {
        for (std::uint32_t x = 0; x < 4; ++x) {
            src.pixels[(std::size_t(y) * 8 + x) * 4 + 3] = std::uint8_t((x + y) % 2 ? 0 : 255);
        }
    }
    const VtfReadResult r = readVtf(span(test::encodeVtf(src, VtfFormat::Dxt1OneBitAlpha)));
    QVERIFY(r.ok());
    QCOMPARE(int(px(r.image, 0, 0)[3]), 255);
    QCOMPARE(int(px(r.image, 1, 0)[3]), 0);
    QVERIFY(px(r.image, 0, 0)[0] > 240);
    QCOMPARE(int(px(r.image, 6, 6)[3]), 255);
}

void TstVtf::mipCap()
{
    const RgbaImage src = quadrants(64);
    const std::string file = test::encodeVtf(src, VtfFormat::Bgra8888);
    VtfReadResult r = readVtf(span(file), 16);
    QVERIFY(r.ok());
    QCOMPARE(r.mip, 2u);
    QCOMPARE(r.image.width, 16u);
    QCOMPARE(int(px(r.image, 2, 2)[0]), 255); // still the red quadrant
    QCOMPARE(int(px(r.image, 12, 2)[1]), 255);
    r = readVtf(span(file), 1);
    QCOMPARE(r.image.width, 1u);
    QCOMPARE(r.mip, 6u);
    test::VtfEncodeOptions one;
    one.mips = false;
    r = readVtf(span(test::encodeVtf(src, VtfFormat::Bgra8888, one)), 16);
    QVERIFY(r.ok()); // no smaller mip: the only one
    QCOMPARE(r.image.width, 64u);
}

void TstVtf::framesAndCubeMaps()
{
    const RgbaImage src = quadrants(16);
    for (std::uint32_t minor : {1u, 4u, 5u}) {
        test::VtfEncodeOptions o;
        o.versionMinor = minor;
        o.frames = 3;
        o.envMap = true;
        const VtfReadResult r = readVtf(span(test::encodeVtf(src, VtfFormat::Dxt5, o)), 8);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.info.frames, 3u);
        QCOMPARE(r.info.faces, minor < 5 ? 7u : 6u);
        QCOMPARE(r.image.width, 8u);
        QVERIFY(px(r.image, 0, 0)[0] > 200 && px(r.image, 7, 0)[1] > 200);
    }
}

void TstVtf::headerInfo()
{
    const std::string file = test::encodeVtf(quadrants(16), VtfFormat::Dxt1);
    const VtfReadResult r = readVtfInfo(span(file).first(200), file.size());
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.info.width, 16u);
    QCOMPARE(r.info.lowResFormat, std::int32_t(VtfFormat::Dxt1));
    QCOMPARE(vtfFormatName(r.info.format), std::string_view("DXT1"));
    QCOMPARE(vtfImageBytes(std::int32_t(VtfFormat::Dxt1), 1, 1), std::uint64_t(8));
    QCOMPARE(vtfImageBytes(std::int32_t(VtfFormat::Dxt5), 5, 9), std::uint64_t(2 * 3 * 16));
}

void TstVtf::hostileHeaders()
{
    const std::string good = test::encodeVtf(quadrants(), VtfFormat::Rgba8888);
    auto with = [&](std::size_t at, std::initializer_list<std::uint8_t> bytes) {
        std::string s = good;
        for (std::uint8_t b : bytes) {
            s[at++] = char(b);
        }
        return readVtf(span(s));
    };
    QVERIFY(!readVtf(span(std::string("VTX\0", 4) + good.substr(4))).ok());
    QCOMPARE(with(4, {8}).error, std::string("VTF version 8.5 not supported (7.0 to 7.5)"));
    QVERIFY(!with(16, {0xff, 0xff, 0xff, 0xff}).ok()); // 65535 x 65535: data far past the end
    QVERIFY(!with(16, {0, 0}).ok());                   // zero width
    QVERIFY(!with(24, {0xff, 0xff}).ok());             // 65535 frames
    QVERIFY(!with(24, {0, 0}).ok());                   // no frames
    QVERIFY(!with(56, {40}).ok());                     // 40 mips for 8 x 8
    QVERIFY(!with(52, {99}).ok());                     // unknown format
    QVERIFY(!with(52, {7}).ok());                      // P8: no palette in a VTF
    QVERIFY(!with(12, {0xff, 0xff, 0xff, 0x7f}).ok()); // header size past the end
    QVERIFY(!with(68, {0xff, 0xff, 0xff, 0xff}).ok()); // 2^32 resources
    // The high-res resource pointing past the end, or to where a whole mip chain does not fit.
    QVERIFY(!with(80 + 8 + 4, {0xf0, 0xff, 0xff, 0xff}).ok());
    QVERIFY(!with(80 + 8 + 4, {0xf0, 0x01, 0, 0}).ok());
    // Depth of 65535 (7.2+): every mip holds that many slices.
    QVERIFY(!with(63, {0xff, 0xff}).ok());
    const VtfReadResult r = with(16, {0xff, 0xff, 0xff, 0xff});
    QVERIFY(r.image.empty());
    QVERIFY2(r.error.find("file ends after") == 0, r.error.c_str());
}

void TstVtf::everyTruncation()
{
    for (VtfFormat f : {VtfFormat::Dxt5, VtfFormat::Bgr888}) {
        for (std::uint32_t minor : {0u, 2u, 5u}) {
            test::VtfEncodeOptions o;
            o.versionMinor = minor;
            const std::string file = test::encodeVtf(quadrants(), f, o);
            for (std::size_t n = 0; n < file.size(); ++n) {
                const VtfReadResult r = readVtf(span(file).first(n));
                QVERIFY2(!r.ok(), qPrintable(QStringLiteral("%1 bytes").arg(n)));
                QVERIFY(r.image.empty());
            }
            QVERIFY(readVtf(span(file)).ok());
        }
    }
}

QTEST_APPLESS_MAIN(TstVtf)
#include "tst_vtf.moc"
