// The Texture / UV view (issue 18, UX.md): the selected material's texture with its triangles'
// UVs over it (v up), the selected triangle filled, UVs outside 0-1 inside the view and counted,
// the checkerboard for a missing material; a selection in the document drives it.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>

#include "app/document/document.h"
#include "app/widgets/uv_view.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

// Triangle 0: (0,0) (1,0) (1,1); triangle 1: (0,0) (1,1) (-0.5,1.5), one corner outside 0-1.
QByteArray model()
{
    return "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
           "triangles\nskin\n"
           "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 1 1 0 0 0 1 1 1 1 0 1\n"
           "skin\n"
           "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 1 0 0 0 1 1 1 1 0 1\n0 0 2 0 0 0 1 -0.5 1.5 1 0 1\n"
           "end\n";
}

bool near(QRgb p, int r, int g, int b, int tol = 40)
{
    return std::abs(qRed(p) - r) <= tol && std::abs(qGreen(p) - g) <= tol &&
           std::abs(qBlue(p) - b) <= tol;
}

} // namespace

class TstUvView : public QObject {
    Q_OBJECT
private slots:
    void textureUvsAndSelection()
    {
        QTemporaryDir dir;
        const QString smd = dir.filePath(QStringLiteral("m.smd"));
        {
            QFile f(smd);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(model());
        }
        // Top half red, bottom half blue: v up puts red at v > 0.5.
        QImage tex(32, 32, QImage::Format_RGB32);
        for (int y = 0; y < 32; ++y) {
            for (int x = 0; x < 32; ++x) {
                tex.setPixel(x, y, y < 16 ? qRgb(220, 30, 30) : qRgb(30, 30, 220));
            }
        }
        const QString png = dir.filePath(QStringLiteral("skin.png"));
        QVERIFY(tex.save(png));

        app::Document doc;
        doc.setChecksEnabled(false);
        app::UvView view;
        render::MaterialLook look;
        look.texturePath = png;
        bool missing = false;
        view.setMaterialLookLookup([&](int) {
            look.checkerboard = missing;
            return &look;
        });
        view.setTexturePathLookup([&](int) { return missing ? QString() : png; });
        view.setDocument(&doc);
        view.resize(400, 460);
        view.show();
        doc.open({smd});
        QVERIFY(doc.waitForLoaded(20000));
        QTRY_COMPARE(view.material(), 0); // the first material once loaded
        QCOMPARE(int(view.uvs().size()), 6);
        QCOMPARE(view.outsideCount(), 1);
        QCOMPARE(view.texture().size(), QSize(32, 32));
        QVERIFY(view.caption()->text().contains(QStringLiteral("skin.png")));
        QVERIFY(view.caption()->text().contains(QStringLiteral("outside 0–1")));
        // The corner at (-0.5, 1.5) is inside the view.
        QVERIFY(view.rect().contains(view.toWidget(QPointF(-0.5, 1.5)).toPoint()));
        QVERIFY(view.uvBounds().contains(QPointF(-0.5, 1.5)));

        doc.setSelection({app::Selection::Kind::Triangle, 1, 0});
        QCOMPARE(view.selectedTriangle(), 1);
        QImage shot = view.grab().toImage();
        shot.save(test::outputDir() + QStringLiteral("/TstUvView.png"));
        auto at = [&](double u, double v) {
            return shot.pixel(view.toWidget(QPointF(u, v)).toPoint());
        };
        QVERIFY2(near(at(0.9, 0.75), 220, 30, 30), qPrintable(QString::number(at(0.9, 0.75), 16)));
        QVERIFY2(near(at(0.9, 0.2), 30, 30, 220), qPrintable(QString::number(at(0.9, 0.2), 16)));
        // Selected triangle 1: orange over the red texture (green channel raised).
        const QRgb sel = at(1.0 / 6.0, 2.5 / 3.0);
        QVERIFY2(qRed(sel) > 200 && qGreen(sel) > 70 && qBlue(sel) < 90,
                 qPrintable(QString::number(sel, 16)));
        // Outside 0-1 the tile is dimmed, not the bright texture.
        const QRgb dim = at(-0.2, 1.2);
        QVERIFY2(qRed(dim) < 160, qPrintable(QString::number(dim, 16)));
        // An edge: the diagonal (0,0)-(1,1) at (0.5, 0.5), shared with the selected triangle,
        // is drawn (light wire or orange outline), not the texture's red or blue.
        const QPoint mid = view.toWidget(QPointF(0.5, 0.5)).toPoint();
        bool wire = false;
        for (int dx = -1; dx <= 1; ++dx) {
            for (int dy = -1; dy <= 1; ++dy) {
                const QRgb p = shot.pixel(mid + QPoint(dx, dy));
                wire = wire || (qRed(p) > 180 && qGreen(p) > 140);
            }
        }
        QVERIFY(wire);

        // A material selection drops the triangle; a missing material shows the checkerboard.
        missing = true;
        view.showMaterial(-1);
        doc.setSelection({app::Selection::Kind::Material, 0, -1});
        QCOMPARE(view.selectedTriangle(), -1);
        QCOMPARE(view.texture().size(), QSize(64, 64));
        QCOMPARE(view.texture().pixel(1, 1), qRgb(255, 0, 255));
        QVERIFY(view.caption()->text().contains(QStringLiteral("checkerboard")));
    }
};

QTEST_MAIN(TstUvView)
#include "tst_uv_view.moc"
