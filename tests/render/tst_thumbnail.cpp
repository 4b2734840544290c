// rigscope-test: TIMEOUT 300
#include <QtCore/QFile>
#include <QtGui/QImage>
#include <QtTest/QtTest>

#include "app/document/command_line.h"
#include "app/widgets/screenshot.h"
#include "render/render_setup.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

// `rigscope --thumbnail IN OUT --size N`, parsed as main() parses it.
app::GuiOptions thumbnailOptions(const QString& in, const QString& out, int size)
{
    return app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("--thumbnail"), in,
                                     out, QStringLiteral("--size"), QString::number(size)});
}

int countOpaque(const QImage& image, int threshold = 8)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            n += qAlpha(row[x]) > threshold ? 1 : 0;
        }
    }
    return n;
}

} // namespace

class TstThumbnail : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { render::pinRenderer(); }

    void parsesThumbnailerCommandLine()
    {
        const app::GuiOptions o =
            thumbnailOptions(QStringLiteral("in.smd"), QStringLiteral("out.png"), 128);
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QVERIFY(o.thumbnail);
        QCOMPARE(o.files, QStringList{QStringLiteral("in.smd")});
        QCOMPARE(o.screenshot, QStringLiteral("out.png"));
        QCOMPARE(o.size, QSize(128, 128));
        QVERIFY(o.noBackground);

        // Default size, and usage errors (exit 2 in main()).
        const app::GuiOptions d =
            app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("--thumbnail"),
                                      QStringLiteral("a.smd"), QStringLiteral("b.png")});
        QCOMPARE(d.size, QSize(256, 256));
        QVERIFY(!app::parseGuiCommandLine({QStringLiteral("rigscope"),
                                           QStringLiteral("--thumbnail"), QStringLiteral("a.smd")})
                     .error.isEmpty());
        QVERIFY(
            !thumbnailOptions(QStringLiteral("a.smd"), QStringLiteral("b.png"), 4).error.isEmpty());
    }

    void sampleThumbnail()
    {
        const QString out = test::outputDir() + QStringLiteral("/thumb_sample_ref.png");
        QFile::remove(out);
        const app::GuiOptions o =
            thumbnailOptions(test::samplesDir() + QStringLiteral("/sample_ref.smd"), out, 128);
        QString error;
        QCOMPARE(app::runThumbnail(o, &error), 0);
        const QImage image = QImage(out).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.size(), QSize(128, 128));
        QVERIFY(image.hasAlphaChannel());
        // Transparent corners (no background, no grid), an opaque centre (the model, framed).
        for (const QPoint& p : {QPoint(0, 0), QPoint(127, 0), QPoint(0, 127), QPoint(127, 127)}) {
            QVERIFY2(qAlpha(image.pixel(p)) == 0,
                     qPrintable(QStringLiteral("corner %1,%2").arg(p.x()).arg(p.y())));
        }
        int opaqueCentre = 0;
        for (int y = 56; y < 72; ++y) {
            for (int x = 56; x < 72; ++x) {
                opaqueCentre += qAlpha(image.pixel(x, y)) == 255 ? 1 : 0;
            }
        }
        QVERIFY2(opaqueCentre > 200, qPrintable(QString::number(opaqueCentre)));
        // Framed: the model fills a good part of the image.
        QVERIFY(countOpaque(image) > 128 * 128 / 6);
    }

    void animationOnlyShowsSkeleton()
    {
        const QString out = test::outputDir() + QStringLiteral("/thumb_sample_anim.png");
        QFile::remove(out);
        const app::GuiOptions o =
            thumbnailOptions(test::samplesDir() + QStringLiteral("/sample_anim.smd"), out, 96);
        QString error;
        QCOMPARE(app::runThumbnail(o, &error), 0);
        const QImage image = QImage(out).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.size(), QSize(96, 96));
        QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
        QVERIFY2(countOpaque(image) > 40, qPrintable(QString::number(countOpaque(image))));
    }

    void vtaShowsBaseVertices()
    {
        const QString out = test::outputDir() + QStringLiteral("/thumb_sample_flex.png");
        QFile::remove(out);
        QString error;
        QCOMPARE(
            app::runThumbnail(
                thumbnailOptions(test::samplesDir() + QStringLiteral("/sample_flex.vta"), out, 96),
                &error),
            0);
        const QImage image = QImage(out).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.size(), QSize(96, 96));
        QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
        QVERIFY2(countOpaque(image) > 100, qPrintable(QString::number(countOpaque(image))));
    }

    void badFileExitsOne()
    {
        const QString bad = test::outputDir() + QStringLiteral("/thumb_bad.smd");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("this is not a model\n\x01\x02\x03\n");
        f.close();
        const QString out = test::outputDir() + QStringLiteral("/thumb_bad.png");
        QFile::remove(out);
        QString error;
        QCOMPARE(app::runThumbnail(thumbnailOptions(bad, out, 64), &error), 1);
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(out));

        // A missing input is an I/O failure (2), as is an unwritable output.
        QCOMPARE(app::runThumbnail(
                     thumbnailOptions(test::outputDir() + QStringLiteral("/does_not_exist.smd"),
                                      out, 64),
                     &error),
                 2);
        QCOMPARE(app::runThumbnail(
                     thumbnailOptions(test::samplesDir() + QStringLiteral("/sample_ref.smd"),
                                      test::outputDir() + QStringLiteral("/no/such/dir/t.png"), 64),
                     &error),
                 2);
    }
};

QTEST_MAIN(TstThumbnail)
#include "tst_thumbnail.moc"
