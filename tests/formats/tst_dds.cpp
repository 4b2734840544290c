// DDS reader (issue 18, CoD images): DXT1 / DXT3 / DXT5 by FourCC and by DX10 header, the masked
// layouts, written by tests/support/vtf_encoder and decoded back to known pixels; the mip cap;
// hostile headers and every truncation.
#include <QtTest/QtTest>

#include "core/materials/dds.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

// 8 x 8: four solid 4 x 4 quadrants (DXT blocks hold them exactly); alpha per quadrant.
RgbaImage quadrants(std::uint32_t w = 8, std::uint32_t h = 8)
{
    RgbaImage img;
    img.width = w;
    img.height = h;
    img.pixels.resize(std::size_t(w) * h * 4);
    const std::uint8_t colours[4][4] = {
        {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 136}};
    for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x) {
            const int q = (y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1);
            std::memcpy(&img.pixels[(std::size_t(y) * w + x) * 4], colours[q], 4);
        }
    }
    return img;
}

std::span<const std::byte> bytesOf(const std::string& s)
{
    return std::as_bytes(std::span(s.data(), s.size()));
}

std::array<int, 4> pixel(const RgbaImage& img, std::uint32_t x, std::uint32_t y)
{
    const std::uint8_t* p = &img.pixels[(std::size_t(y) * img.width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
}

} // namespace

class TstDds : public QObject {
    Q_OBJECT
private slots:
    void formats_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("dx10");
        QTest::addColumn<bool>("alpha");    // alpha kept (136 in the last quadrant)
        QTest::addColumn<int>("tolerance"); // per channel
        QTest::newRow("DXT1") << int(VtfFormat::Dxt1) << false << false << 8;
        QTest::newRow("DXT3") << int(VtfFormat::Dxt3) << false << true << 17;
        QTest::newRow("DXT5") << int(VtfFormat::Dxt5) << false << true << 8;
        QTest::newRow("BC1 (DX10)") << int(VtfFormat::Dxt1) << true << false << 8;
        QTest::newRow("BC3 (DX10)") << int(VtfFormat::Dxt5) << true << true << 8;
        QTest::newRow("BGRA8888") << int(VtfFormat::Bgra8888) << false << true << 0;
        QTest::newRow("BGRX8888") << int(VtfFormat::Bgrx8888) << false << false << 0;
        QTest::newRow("BGR888") << int(VtfFormat::Bgr888) << false << false << 0;
        QTest::newRow("BGR565") << int(VtfFormat::Bgr565) << false << false << 0;
    }
    void formats()
    {
        QFETCH(int, format);
        QFETCH(bool, dx10);
        QFETCH(bool, alpha);
        QFETCH(int, tolerance);
        test::DdsEncodeOptions o;
        o.dx10 = dx10;
        const std::string dds = test::encodeDds(quadrants(), VtfFormat(format), o);
        const DdsReadResult r = readDds(bytesOf(dds));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.format, format);
        QCOMPARE(r.formatName, std::string(vtfFormatName(format)));
        QCOMPARE(r.width, 8u);
        QCOMPARE(r.mipCount, 4u);
        QCOMPARE(r.image.width, 8u);
        const std::array<std::array<int, 4>, 4> want = {
            {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 136}}};
        const std::uint32_t at[4][2] = {{1, 1}, {6, 1}, {1, 6}, {6, 6}};
        for (int q = 0; q < 4; ++q) {
            const auto got = pixel(r.image, at[q][0], at[q][1]);
            for (int c = 0; c < 3; ++c) {
                QVERIFY2(std::abs(got[std::size_t(c)] - want[std::size_t(q)][std::size_t(c)]) <=
                             tolerance,
                         qPrintable(QStringLiteral("quadrant %1 channel %2: %3")
                                        .arg(q)
                                        .arg(c)
                                        .arg(got[std::size_t(c)])));
            }
            const int a = alpha ? want[std::size_t(q)][3] : 255;
            QVERIFY2(std::abs(got[3] - a) <= tolerance,
                     qPrintable(QStringLiteral("quadrant %1 alpha %2").arg(q).arg(got[3])));
        }
    }

    void greyI8()
    {
        RgbaImage img = quadrants();
        for (std::size_t i = 0; i < img.pixels.size(); i += 4) {
            img.pixels[i + 1] = img.pixels[i + 2] = img.pixels[i];
        }
        const DdsReadResult r = readDds(bytesOf(test::encodeDds(img, VtfFormat::I8)));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.formatName, std::string("I8"));
        QCOMPARE(pixel(r.image, 1, 1), (std::array<int, 4>{255, 255, 255, 255}));
        QCOMPARE(pixel(r.image, 6, 1), (std::array<int, 4>{0, 0, 0, 255}));
    }

    // The largest mip that fits: 64 x 32 capped at 16 is mip 2 (16 x 8), read at its offset.
    void mipCap()
    {
        const std::string dds = test::encodeDds(quadrants(64, 32), VtfFormat::Dxt5);
        const DdsReadResult r = readDds(bytesOf(dds), 16);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.mip, 2u);
        QCOMPARE(r.image.width, 16u);
        QCOMPARE(r.image.height, 8u);
        QCOMPARE(pixel(r.image, 12, 1)[1], 255); // green quadrant, top right
        const DdsReadResult full = readDds(bytesOf(dds), 4096);
        QCOMPARE(full.mip, 0u);
        QCOMPARE(full.image.width, 64u);
        // Without mips, the only level is decoded whatever the cap.
        test::DdsEncodeOptions one;
        one.mips = false;
        const DdsReadResult single =
            readDds(bytesOf(test::encodeDds(quadrants(64, 32), VtfFormat::Dxt1, one)), 16);
        QVERIFY(single.ok());
        QCOMPARE(single.image.width, 64u);
    }

    void info()
    {
        const std::string dds = test::encodeDds(quadrants(64, 32), VtfFormat::Dxt1);
        const DdsReadResult r = readDdsInfo(bytesOf(dds).first(128));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.width, 64u);
        QCOMPARE(r.height, 32u);
        QCOMPARE(r.mipCount, 7u);
        QVERIFY(r.image.empty());
    }

    void hostile()
    {
        const std::string good = test::encodeDds(quadrants(), VtfFormat::Dxt5);
        // Every truncation is an error, never a crash or a read past the end.
        for (std::size_t n = 0; n < good.size(); ++n) {
            const DdsReadResult r = readDds(bytesOf(good.substr(0, n)));
            if (n < 128 + 64) { // header + mip 0 (4 DXT5 blocks)
                QVERIFY2(!r.ok(), qPrintable(QString::number(n)));
            }
        }
        const DdsReadResult cut = readDds(bytesOf(good.substr(0, 150)));
        QCOMPARE(cut.error, std::string("file ends after 22 of 64 bytes of mip 0 (8 x 8)"));
        QCOMPARE(cut.errorOffset, 128u);
        QCOMPARE(readDds(bytesOf(good.substr(0, 100))).error,
                 std::string("file ends after 100 of 128 bytes of the DDS header"));

        auto patched = [&](std::size_t at, std::uint32_t v) {
            std::string s = good;
            std::memcpy(s.data() + at, &v, 4);
            return s;
        };
        QVERIFY(readDds(bytesOf("XXXX" + good.substr(4))).error.starts_with("not a DDS"));
        QCOMPARE(readDds(bytesOf(patched(16, 100000))).error,
                 std::string("DDS size 100000 x 8 is empty or over 16384 on a side"));
        QVERIFY(!readDds(bytesOf(patched(12, 0))).ok());
        QCOMPARE(readDds(bytesOf(patched(84, 0x32495441))).error, // "ATI2"
                 std::string("unsupported DDS pixel format: FourCC 'ATI2'"));
        // A huge claimed mip count with a small cap: mips past the file are an error.
        const DdsReadResult many = readDds(bytesOf(patched(28, 0xffffffffu)), 1);
        QVERIFY(!many.ok() || many.image.width <= 1);
        // 16384 x 16384 claimed in a small file: refused before any allocation.
        std::string big = patched(12, 16384);
        std::memcpy(big.data() + 16, "\0\x40\0\0", 4);
        const DdsReadResult b = readDds(bytesOf(big), 16384);
        QVERIFY(!b.ok());
        QVERIFY(b.error.starts_with("file ends after"));
        // DX10 header cut short.
        test::DdsEncodeOptions o;
        o.dx10 = true;
        const std::string dx10 = test::encodeDds(quadrants(), VtfFormat::Dxt1, o);
        QCOMPARE(readDds(bytesOf(dx10.substr(0, 140))).error,
                 std::string("file ends inside the DX10 header"));
    }
};

QTEST_MAIN(TstDds)
#include "tst_dds.moc"
