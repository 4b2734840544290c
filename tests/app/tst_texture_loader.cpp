#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "render/texture_loader.h"
#include "tests/support/test_support.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;

namespace {

// A 2x2 TGA: bottom-left origin unless `topLeft`; pixels given top row first (BGR(A) order
// written by the helper).
QByteArray tga(int type, int bpp, bool topLeft, const QList<QRgb>& topRowFirst, bool rle)
{
    QByteArray h(18, '\0');
    h[2] = char(type);
    h[12] = 2;
    h[14] = 2;
    h[16] = char(bpp);
    h[17] = char(topLeft ? 0x20 : 0x00) | char(bpp == 32 ? 8 : 0);
    QList<QRgb> order = topRowFirst;
    if (!topLeft) { // file stores the bottom row first
        order = {topRowFirst[2], topRowFirst[3], topRowFirst[0], topRowFirst[1]};
    }
    QByteArray body;
    auto pixel = [&](QRgb c) {
        QByteArray p;
        p.append(char(qBlue(c))).append(char(qGreen(c))).append(char(qRed(c)));
        if (bpp == 32) {
            p.append(char(qAlpha(c)));
        }
        return p;
    };
    if (!rle) {
        for (QRgb c : order) {
            body += pixel(c);
        }
    } else {
        body.append(char(0x81)); // run of 2: first row both the same colour
        body += pixel(order[0]);
        body.append(char(0x01)); // 2 raw pixels
        body += pixel(order[2]);
        body += pixel(order[3]);
    }
    return h + body;
}

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return f.fileName();
}

} // namespace

class TstTextureLoader : public QObject {
    Q_OBJECT

private slots:
    void sampleBmpThroughQt()
    {
        const QImage img =
            render::loadTextureImage(test::samplesDir() + QStringLiteral("/skin.bmp"));
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(64, 64));
        QVERIFY(qRed(img.pixel(0, 0)) > 150); // the sample's skin colour, not black
    }
    void tgaUncompressedBottomUp()
    {
        QTemporaryDir dir;
        const QList<QRgb> px{qRgb(255, 0, 0), qRgb(0, 255, 0), qRgb(0, 0, 255),
                             qRgb(255, 255, 255)};
        const QImage img = render::loadTextureImage(
            write(dir, QStringLiteral("a.TGA"), tga(2, 24, false, px, false)));
        QCOMPARE(img.size(), QSize(2, 2));
        QCOMPARE(img.pixel(0, 0), px[0]); // top-left
        QCOMPARE(img.pixel(1, 0), px[1]);
        QCOMPARE(img.pixel(0, 1), px[2]);
        QCOMPARE(img.pixel(1, 1), px[3]);
    }

    void tgaTopLeft32WithAlpha()
    {
        QTemporaryDir dir;
        const QList<QRgb> px{qRgba(10, 20, 30, 40), qRgba(50, 60, 70, 80), qRgba(1, 2, 3, 255),
                             qRgba(4, 5, 6, 0)};
        const QImage img = render::loadTextureImage(
            write(dir, QStringLiteral("b.tga"), tga(2, 32, true, px, false)));
        QCOMPARE(img.pixel(0, 0), px[0]);
        QCOMPARE(img.pixel(1, 1), px[3]);
    }

    void tgaRle()
    {
        QTemporaryDir dir;
        const QList<QRgb> px{qRgb(9, 9, 9), qRgb(9, 9, 9), qRgb(200, 100, 50), qRgb(1, 2, 3)};
        const QImage img = render::loadTextureImage(
            write(dir, QStringLiteral("c.tga"), tga(10, 24, true, px, true)));
        QCOMPARE(img.size(), QSize(2, 2));
        QCOMPARE(img.pixel(1, 0), px[1]);
        QCOMPARE(img.pixel(0, 1), px[2]);
        QCOMPARE(img.pixel(1, 1), px[3]);
    }

    // Uncompressed with the TGA 2.0 footer: what Qt's own plugin reads.
    void tgaWithFooterThroughQt()
    {
        QTemporaryDir dir;
        const QList<QRgb> px{qRgba(255, 0, 0, 255), qRgba(0, 255, 0, 128), qRgba(0, 0, 255, 0),
                             qRgba(255, 255, 255, 255)};
        QByteArray bytes = tga(2, 32, false, px, false);
        bytes += QByteArray(8, '\0') + QByteArray("TRUEVISION-XFILE.", 18);
        const QImage img = render::loadTextureImage(write(dir, QStringLiteral("f.tga"), bytes));
        QCOMPARE(img.size(), QSize(2, 2));
        QCOMPARE(img.pixel(0, 0), px[0]);
        QCOMPARE(qAlpha(img.pixel(1, 0)), 128);
        QCOMPARE(qAlpha(img.pixel(0, 1)), 0);
        QCOMPARE(img.pixel(1, 1), px[3]);
    }

    void tgaGrey()
    {
        QTemporaryDir dir;
        QByteArray h(18, '\0');
        h[2] = 3;
        h[12] = 2;
        h[14] = 2;
        h[16] = 8;
        h[17] = 0x20; // top-left origin
        const QImage img = render::loadTextureImage(
            write(dir, QStringLiteral("g.tga"), h + QByteArray("\x10\x20\x30\x40", 4)));
        QCOMPARE(img.size(), QSize(2, 2));
        QCOMPARE(img.pixel(0, 0), qRgb(0x10, 0x10, 0x10));
        QCOMPARE(img.pixel(1, 1), qRgb(0x40, 0x40, 0x40));
    }

    // A header claiming 16384 x 16384 in a few bytes: refused before anything is allocated.
    void tgaSizeLieIsNull()
    {
        QTemporaryDir dir;
        QByteArray bytes = tga(10, 24, true, {0, 0, 0, 0}, true);
        bytes[12] = 0, bytes[13] = 0x40, bytes[14] = 0, bytes[15] = 0x40;
        QVERIFY(render::loadTextureImage(write(dir, QStringLiteral("h.tga"), bytes)).isNull());
    }

    // GoldSrc $texrendermode masked: palette index 255 is transparent, the others opaque.
    void maskedPaletteBmp()
    {
        QTemporaryDir dir;
        QImage img(4, 1, QImage::Format_Indexed8);
        QList<QRgb> table(256, qRgb(0, 0, 0));
        table[0] = qRgb(200, 10, 10);
        table[254] = qRgb(10, 200, 10);
        table[255] = qRgb(0, 0, 255);
        img.setColorTable(table);
        const uchar idx[4] = {0, 254, 255, 0};
        std::memcpy(img.scanLine(0), idx, 4);
        const QString path = dir.filePath(QStringLiteral("chrome.bmp"));
        QVERIFY(img.save(path, "BMP"));
        const QImage plain = render::loadTextureImage(path);
        QCOMPARE(qAlpha(plain.pixel(2, 0)), 255);
        const QImage masked = render::loadTextureImage(path, 2048, true);
        QCOMPARE(masked.size(), QSize(4, 1));
        QCOMPARE(qAlpha(masked.pixel(2, 0)), 0);
        QCOMPARE(masked.pixel(0, 0), qRgb(200, 10, 10));
        QCOMPARE(masked.pixel(1, 0), qRgb(10, 200, 10));
    }

    void ddsThroughLibsquish()
    {
        QTemporaryDir dir;
        core::RgbaImage rgba;
        rgba.width = rgba.height = 8;
        for (int i = 0; i < 64; ++i) {
            rgba.pixels.insert(rgba.pixels.end(), {30, 60, 240, 255});
        }
        const std::string dds = test::encodeDds(rgba, core::VtfFormat::Dxt1);
        const QString path =
            write(dir, QStringLiteral("body_c.DDS"), QByteArray(dds.data(), qsizetype(dds.size())));
        const QImage img = render::loadTextureImage(path, 4);
        QCOMPARE(img.size(), QSize(4, 4)); // mip 1: the cap
        const QRgb p = img.pixel(2, 2);
        QVERIFY2(std::abs(qRed(p) - 30) < 9 && std::abs(qGreen(p) - 60) < 9 && qBlue(p) > 230,
                 qPrintable(QString::number(p, 16)));
        // CoD: the colour map named by the material's images, found as .dds.
        QCOMPARE(render::findTexture("mtl_body", "color:body_c.tga", {dir.path()}), path);
    }

    void truncatedTgaIsNull()
    {
        QTemporaryDir dir;
        const QByteArray bytes = tga(2, 24, false, {0, 0, 0, 0}, false).left(20);
        QVERIFY(render::loadTextureImage(write(dir, QStringLiteral("d.tga"), bytes)).isNull());
    }

    void lookupIsCaseInsensitiveAndTriesExtensions()
    {
        QTemporaryDir dir;
        QTemporaryDir other;
        QImage img(4, 4, QImage::Format_RGB32);
        img.fill(Qt::red);
        QVERIFY(img.save(dir.filePath(QStringLiteral("Skin.BMP"))));
        QVERIFY(img.save(other.filePath(QStringLiteral("body.png"))));
        // The raw material name, any case.
        QCOMPARE(render::findTexture("skin.bmp", "", {dir.path()}),
                 dir.filePath(QStringLiteral("Skin.BMP")));
        // A name without a usable extension: base name + .tga/.bmp/.png, in the search path.
        QCOMPARE(render::findTexture("models/body.vmt", "", {dir.path(), other.path()}),
                 other.filePath(QStringLiteral("body.png")));
        // CoD images string with keys: the colour map.
        QCOMPARE(
            render::findTexture("mtl_body", "color:body.tga normal:body_n.tga", {other.path()}),
            other.filePath(QStringLiteral("body.png")));
        QVERIFY(render::findTexture("missing", "", {dir.path()}).isEmpty());
    }
};

QTEST_MAIN(TstTextureLoader)
#include "tst_texture_loader.moc"
