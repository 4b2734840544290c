#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "render/texture_loader.h"
#include "tests/support/test_support.h"

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
