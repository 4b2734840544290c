// rigscope-test: TIMEOUT 300
// How materials draw (issue 18): GoldSrc $texrendermode from the QC (masked: palette index 255
// is transparent; additive; fullbright), textures found under $cdtexture; Source back faces
// culled as the engine does unless the VMT says $nocull; the software thumbnail drawing alpha
// test, translucency, additive, $color and culling as the viewport does. Projects written to
// temporary folders, opened in the window or thumbnailed, pixels counted.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QtTest>

#include <array>
#include <cstdint>

#include "app/document/command_line.h"
#include "app/document/document.h"
#include "app/widgets/screenshot.h"
#include "app/widgets/viewport_widget.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/decompile.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"
#include "render/texture_loader.h"
#include "render/model_scene.h"
#include "render/render_capture.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/render_support.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

// Vertical quads facing +X side by side along Y, one per material; `links` adds the Source
// link fields (else GoldSrc's 9 fields).
QByteArray quads(const QList<QByteArray>& materials, bool links)
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    float y0 = -2.0f * float(materials.size()) / 2.0f;
    for (const QByteArray& mat : materials) {
        const float y1 = y0 + 1.8f;
        auto v = [&](float y, float z, float u, float w) {
            s += QStringLiteral("0 0 %1 %2 1 0 0 %3 %4").arg(y).arg(z).arg(u).arg(w).toUtf8();
            s += links ? " 1 0 1\n" : "\n";
        };
        s += mat + '\n';
        v(y0, 0, 0, 0), v(y1, 0, 1, 0), v(y1, 2, 1, 1);
        s += mat + '\n';
        v(y0, 0, 0, 0), v(y1, 2, 1, 1), v(y0, 2, 0, 1);
        y0 += 2.0f;
    }
    return s + "end\n";
}

// An 8-bit palette BMP, 16 x 16: left half index 255 (blue), right half index 1 (red).
void writeMaskedBmp(const QString& path)
{
    QImage img(16, 16, QImage::Format_Indexed8);
    QList<QRgb> table(256, qRgb(0, 0, 0));
    table[1] = qRgb(230, 20, 20);
    table[255] = qRgb(0, 0, 255);
    img.setColorTable(table);
    for (int y = 0; y < 16; ++y) {
        for (int x = 0; x < 16; ++x) {
            img.scanLine(y)[x] = x < 8 ? 255 : 1;
        }
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    QVERIFY(img.save(path, "BMP"));
}

int countPixels(const QImage& img, bool (*pred)(QRgb))
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        for (int x = 0; x < img.width(); ++x) {
            n += pred(img.pixel(x, y)) ? 1 : 0;
        }
    }
    return n;
}

bool isRed(QRgb p)
{
    return qRed(p) > 150 && qGreen(p) < 80 && qBlue(p) < 80;
}
bool isBlue(QRgb p)
{
    return qBlue(p) > 150 && qRed(p) < 80 && qGreen(p) < 80;
}
bool isGreen(QRgb p)
{
    return qGreen(p) > 120 && qRed(p) < 90 && qBlue(p) < 90;
}

render::Viewport* openInWindow(test::TestWindow& win, const QString& path)
{
    app::MainWindow& w = win.w;
    if (!QTest::qWaitForWindowExposed(&w)) {
        return nullptr;
    }
    render::DisplayFlags flags;
    flags.axes = flags.grid = flags.skeleton = false;
    w.viewportWidget()->viewport()->setDisplay(flags);
    w.openFiles({path});
    if (!QTest::qWaitFor([&] { return w.viewportWidget()->viewport()->scene() != nullptr; },
                         10000)) {
        return nullptr;
    }
    return w.viewportWidget()->viewport();
}

} // namespace

class TstMaterialModes : public QObject {
    Q_OBJECT
private slots:
    void goldsrcTexRenderModes();
    void sourceNoCull();
    void goldsrcFlatShade();
    void thumbnailAlphaTest();
    void thumbnailTranslucent();
    void thumbnailAdditive();
    void thumbnailTint();
    void thumbnailCull();
    void profileChangeLooksMaterialsUpAgain();
    void qcTexturesAsCheckFindsThem();
    void decompiledGoldsrcTexturesReadBack();
};

void TstMaterialModes::goldsrcTexRenderModes()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("src/ref.smd")),
          quads({"grille.bmp", "glow.bmp", "lamp.bmp"}, false));
    write(dir.filePath(QStringLiteral("src/gate.qc")),
          "$modelname \"gate.mdl\"\n$cd \".\"\n$cdtexture \"..\\\\maps\"\n"
          "$texrendermode \"grille.bmp\" masked\n$texrendermode \"GLOW.bmp\" additive\n"
          "$texrendermode \"lamp.bmp\" fullbright\n"
          "$body body \"ref\"\n$sequence idle \"ref\"\n");
    writeMaskedBmp(dir.filePath(QStringLiteral("maps/grille.bmp"))); // only under $cdtexture
    writeMaskedBmp(dir.filePath(QStringLiteral("maps/glow.bmp")));
    writeMaskedBmp(dir.filePath(QStringLiteral("maps/lamp.bmp")));

    test::TestWindow win(QStringLiteral("tst_material_modes.ini"), QSize(900, 600));
    render::Viewport* view = openInWindow(win, dir.filePath(QStringLiteral("src/gate.qc")));
    QVERIFY(view);
    QTRY_VERIFY(win.w.document()->qcProject());
    const render::ModelScene* scene = view->scene();
    QCOMPARE(int(scene->model().mesh.materials.size()), 3);
    for (std::size_t i = 0; i < 3; ++i) {
        const render::MaterialLook* look = scene->materialLook(i);
        const std::string& name = scene->model().mesh.materials[i].name;
        QVERIFY2(!look->source, name.c_str());
        QVERIFY2(look->texturePath.endsWith(QStringLiteral("maps/") + QString::fromStdString(name)),
                 qPrintable(look->texturePath));
        QCOMPARE(look->masked, name == "grille.bmp");
        QCOMPARE(look->alphaTest, name == "grille.bmp");
        QCOMPARE(look->additive, name == "glow.bmp");
        QCOMPARE(look->fullbright, name == "lamp.bmp");
    }
    view->setPreset(render::CameraPreset::Right); // from +X
    view->frameAll();
    const QImage image = render::captureViewport(*view);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialModes_goldsrc.png"));
    // Three quads: masked (half blue cut out), additive (blue adds to the background, red
    // too), fullbright (both halves). Pure blue then appears on one quad only: the fullbright.
    const int red = countPixels(image, isRed);
    const int blue = countPixels(image, isBlue);
    QVERIFY2(red > 1500, qPrintable(QString::number(red)));
    QVERIFY2(blue > 300 && blue < red, qPrintable(QStringLiteral("%1 %2").arg(blue).arg(red)));
}

void TstMaterialModes::sourceNoCull()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("models/panel.smd")), quads({"culled", "twosided"}, true));
    write(dir.filePath(QStringLiteral("materials/culled.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"green\"\n}\n");
    write(dir.filePath(QStringLiteral("materials/twosided.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"green\"\n\t\"$nocull\" \"1\"\n}\n");
    const std::string vtf = test::solidVtf(8, {20, 220, 40, 255}, core::VtfFormat::Bgr888);
    write(dir.filePath(QStringLiteral("materials/green.vtf")),
          QByteArray(vtf.data(), qsizetype(vtf.size())));

    test::TestWindow win(QStringLiteral("tst_material_modes.ini"), QSize(900, 600));
    render::Viewport* view = openInWindow(win, dir.filePath(QStringLiteral("models/panel.smd")));
    QVERIFY(view);
    QVERIFY(view->scene()->materialLook(0)->found && !view->scene()->materialLook(0)->noCull);
    QVERIFY(view->scene()->materialLook(1)->noCull);
    view->setPreset(render::CameraPreset::Right); // from +X
    view->frameAll();
    QImage front = render::captureViewport(*view);
    const int both = countPixels(front, isGreen);
    view->setPreset(render::CameraPreset::Left); // from -X
    view->frameAll();
    QImage back = render::captureViewport(*view);
    back.save(test::outputDir() + QStringLiteral("/TstMaterialModes_back.png"));
    const int one = countPixels(back, isGreen);
    // From the front both quads; from behind only the $nocull one (about half as many).
    QVERIFY2(both > 3000, qPrintable(QString::number(both)));
    QVERIFY2(one > both / 3 && one < both * 2 / 3,
             qPrintable(QStringLiteral("%1 of %2").arg(one).arg(both)));
}

namespace {

// Two triangles of one material facing +X at different angles (0° and 31° about Y), side by side.
QByteArray fold(const char* material)
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    const auto tri = [&](const float(&p)[3][3], const float(&n)[3]) {
        s += QByteArray(material) + '\n';
        for (const auto& v : p) {
            s += QStringLiteral("0 %1 %2 %3 %4 %5 %6 0.5 0.5\n")
                     .arg(v[0])
                     .arg(v[1])
                     .arg(v[2])
                     .arg(n[0])
                     .arg(n[1])
                     .arg(n[2])
                     .toUtf8();
        }
    };
    tri({{0, -2, 0}, {0, -0.2f, 0}, {0, -0.2f, 2}}, {1, 0, 0});
    tri({{0, 0.2f, 0}, {0, 1.8f, 0}, {-1.2f, 1.8f, 2}}, {0.857f, 0, 0.514f});
    return s + "end\n";
}

// Mean colour of the pixels of a half that differ from the background's grey-blue.
QColor meanModelColour(const QImage& image, bool left)
{
    qint64 r = 0, g = 0, b = 0, n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = left ? 0 : image.width() / 2; x < (left ? image.width() / 2 : image.width());
             ++x) {
            const QRgb p = image.pixel(x, y);
            if (qRed(p) > 100 && qRed(p) - qBlue(p) > 40) { // the orange texture, lit
                r += qRed(p), g += qGreen(p), b += qBlue(p), ++n;
            }
        }
    }
    return n < 200 ? QColor() : QColor(int(r / n), int(g / n), int(b / n));
}

} // namespace

// $texrendermode flatshade: every face of the texture gets one light level (GoldSrc's
// STUDIO_NF_FLATSHADE), where the default lighting tells two differently turned faces apart.
void TstMaterialModes::goldsrcFlatShade()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("src/fold.smd")), fold("skin.bmp"));
    QImage skin(8, 8, QImage::Format_Indexed8);
    skin.setColorTable({qRgb(230, 140, 40)});
    skin.fill(0);
    QVERIFY(skin.save(dir.filePath(QStringLiteral("src/skin.bmp")), "BMP"));
    write(dir.filePath(QStringLiteral("src/lit.qc")),
          "$modelname \"lit.mdl\"\n$body body \"fold\"\n$sequence idle \"fold\"\n");
    write(dir.filePath(QStringLiteral("src/flat.qc")),
          "$modelname \"flat.mdl\"\n$texrendermode \"skin.bmp\" flatshade\n"
          "$body body \"fold\"\n$sequence idle \"fold\"\n");
    QColor faces[2][2];
    for (int flat = 0; flat < 2; ++flat) {
        test::TestWindow win(QStringLiteral("tst_material_modes.ini"), QSize(900, 600));
        render::Viewport* view = openInWindow(
            win, dir.filePath(flat ? QStringLiteral("src/flat.qc") : QStringLiteral("src/lit.qc")));
        QVERIFY(view);
        QTRY_VERIFY(win.w.document()->qcProject());
        QCOMPARE(view->scene()->materialLook(0)->flatShade, flat == 1);
        view->setPreset(render::CameraPreset::Right); // from +X
        view->frameAll();
        const QImage image = render::captureViewport(*view);
        image.save(test::outputDir() +
                   QStringLiteral("/TstMaterialModes_flatshade%1.png").arg(flat));
        faces[flat][0] = meanModelColour(image, true);
        faces[flat][1] = meanModelColour(image, false);
        QVERIFY(faces[flat][0].isValid() && faces[flat][1].isValid());
    }
    const auto diff = [](const QColor& a, const QColor& b) {
        return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
               std::abs(a.blue() - b.blue());
    };
    QVERIFY2(diff(faces[0][0], faces[0][1]) > 15,
             qPrintable(faces[0][0].name() + QLatin1Char(' ') + faces[0][1].name()));
    QVERIFY2(diff(faces[1][0], faces[1][1]) <= 3,
             qPrintable(faces[1][0].name() + QLatin1Char(' ') + faces[1][1].name()));
    // 0.8 of the texture's colour.
    QVERIFY2(std::abs(faces[1][0].red() - 184) <= 8 && std::abs(faces[1][0].green() - 112) <= 8,
             qPrintable(faces[1][0].name()));
}

// The software thumbnail cuts alpha-tested texels out as the viewport does: GoldSrc masked
// (palette index 255) leaves no blue; without $texrendermode the blue half is drawn.
void TstMaterialModes::thumbnailAlphaTest()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("src/ref.smd")), quads({"grille.bmp"}, false));
    writeMaskedBmp(dir.filePath(QStringLiteral("src/grille.bmp")));
    write(dir.filePath(QStringLiteral("src/plain.qc")),
          "$modelname \"plain.mdl\"\n$body body \"ref\"\n$sequence idle \"ref\"\n");
    write(dir.filePath(QStringLiteral("src/masked.qc")),
          "$modelname \"masked.mdl\"\n$texrendermode \"grille.bmp\" masked\n"
          "$body body \"ref\"\n$sequence idle \"ref\"\n");
    int counts[2][2] = {};
    for (int masked = 0; masked < 2; ++masked) {
        const QString out =
            dir.filePath(masked ? QStringLiteral("masked.png") : QStringLiteral("plain.png"));
        const app::GuiOptions o =
            app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("--thumbnail"),
                                      dir.filePath(masked ? QStringLiteral("src/masked.qc")
                                                          : QStringLiteral("src/plain.qc")),
                                      out, QStringLiteral("--size"), QStringLiteral("128")});
        QString error;
        QCOMPARE(app::runThumbnail(o, &error), 0);
        const QImage image = QImage(out).convertToFormat(QImage::Format_ARGB32);
        image.save(test::outputDir() + QStringLiteral("/TstMaterialModes_thumb%1.png").arg(masked));
        // Lit from the iso view: darker than the texture.
        counts[masked][0] = countPixels(
            image, [](QRgb p) { return qRed(p) > 80 && qGreen(p) < 50 && qBlue(p) < 50; });
        counts[masked][1] = countPixels(
            image, [](QRgb p) { return qBlue(p) > 80 && qRed(p) < 50 && qGreen(p) < 50; });
    }
    QVERIFY2(counts[0][0] > 300 && counts[0][1] > 300,
             qPrintable(QStringLiteral("%1 %2").arg(counts[0][0]).arg(counts[0][1])));
    QVERIFY2(counts[1][0] > 300 && counts[1][1] == 0,
             qPrintable(QStringLiteral("%1 %2").arg(counts[1][0]).arg(counts[1][1])));
}

namespace {

// One quad of `material` facing +X (toward the Front and Iso cameras), or -X when `away`, in
// the plane x = `x`, from y = `y0` to y0 + 1.8 and z = 0 to 2, UVs 0..1; Source link fields.
QByteArray quadAt(const char* material, float x, float y0, bool away = false)
{
    QByteArray s;
    const float nx = away ? -1.0f : 1.0f;
    const float y1 = y0 + 1.8f;
    auto v = [&](float y, float z, float u, float w) {
        s += QStringLiteral("0 %1 %2 %3 %4 0 0 %5 %6 1 0 1\n")
                 .arg(x)
                 .arg(y)
                 .arg(z)
                 .arg(nx)
                 .arg(u)
                 .arg(w)
                 .toUtf8();
    };
    // Counter-clockwise seen from +X; reversed when facing away.
    s += QByteArray(material) + '\n';
    if (away) {
        v(y0, 0, 0, 0), v(y1, 2, 1, 1), v(y1, 0, 1, 0);
    } else {
        v(y0, 0, 0, 0), v(y1, 0, 1, 0), v(y1, 2, 1, 1);
    }
    s += QByteArray(material) + '\n';
    if (away) {
        v(y0, 0, 0, 0), v(y0, 2, 0, 1), v(y1, 2, 1, 1);
    } else {
        v(y0, 0, 0, 0), v(y1, 2, 1, 1), v(y0, 2, 0, 1);
    }
    return s;
}

QByteArray smdOf(const QByteArray& triangles)
{
    return "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
           "triangles\n" +
           triangles + "end\n";
}

// An 8 x 8 VTF of one colour (BGRA8888: the alpha kept) at materials/<name>.vtf.
void writeVtf(const QString& root, const char* name, std::array<std::uint8_t, 4> rgba)
{
    core::RgbaImage img;
    img.width = img.height = 8;
    for (int i = 0; i < 64; ++i) {
        img.pixels.insert(img.pixels.end(), rgba.begin(), rgba.end());
    }
    const std::string vtf = test::encodeVtf(img, core::VtfFormat::Bgra8888);
    write(root + QStringLiteral("/materials/") + QLatin1String(name) + QStringLiteral(".vtf"),
          QByteArray(vtf.data(), qsizetype(vtf.size())));
}

void writeVmt(const QString& root, const char* name, const char* texture, const char* extra = "")
{
    write(root + QStringLiteral("/materials/") + QLatin1String(name) + QStringLiteral(".vmt"),
          QByteArray("\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"") + texture + "\"\n" + extra +
              "}\n");
}

// `rigscope --thumbnail SMD OUT --size 128 --materials ROOT`, read back as ARGB32 (and kept in
// the test output folder as <name>.png).
QImage thumbnail(const QString& smd, const QString& root, const QString& name)
{
    QTemporaryDir out;
    const QString png = out.filePath(QStringLiteral("t.png"));
    const app::GuiOptions o = app::parseGuiCommandLine(
        {QStringLiteral("rigscope"), QStringLiteral("--thumbnail"), smd, png,
         QStringLiteral("--size"), QStringLiteral("128"), QStringLiteral("--materials"), root});
    QString error;
    if (app::runThumbnail(o, &error) != 0) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    const QImage image = QImage(png).convertToFormat(QImage::Format_ARGB32);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialModes_") + name +
               QStringLiteral(".png"));
    return image;
}

template <typename Pred> int count(const QImage& img, Pred pred)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        for (int x = 0; x < img.width(); ++x) {
            n += pred(img.pixel(x, y)) ? 1 : 0;
        }
    }
    return n;
}

} // namespace

// $translucent: a half-transparent red quad in front of an opaque green one (and listed first
// in the SMD: the opaque one is drawn first all the same) lets the green through where they
// overlap and leaves its own alpha over the transparent background. Opaque, it hides the green.
void TstMaterialModes::thumbnailTranslucent()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    write(root + QStringLiteral("/models/pane.smd"),
          smdOf(quadAt("glass", 1.0f, -1.6f) + quadAt("wall", 0.0f, -0.6f)));
    writeVtf(root, "red", {230, 20, 20, 128});
    writeVtf(root, "green", {20, 220, 40, 255});
    writeVmt(root, "wall", "green");
    int mixed[2] = {};
    int halfAlpha[2] = {};
    for (int translucent = 0; translucent < 2; ++translucent) {
        writeVmt(root, "glass", "red", translucent ? "\t\"$translucent\" 1\n" : "");
        const QImage img = thumbnail(root + QStringLiteral("/models/pane.smd"), root,
                                     QStringLiteral("thumb_translucent%1").arg(translucent));
        QVERIFY(!img.isNull());
        // Red over green: both channels well lit, opaque.
        mixed[translucent] = count(img, [](QRgb p) {
            return qAlpha(p) == 255 && qRed(p) > 60 && qGreen(p) > 60 && qBlue(p) < 60;
        });
        halfAlpha[translucent] = count(img, [](QRgb p) {
            return qAlpha(p) > 90 && qAlpha(p) < 170 && qRed(p) > 100 && qGreen(p) < 60;
        });
    }
    const QString counts = QStringLiteral("mixed %1 / %2, half alpha %3 / %4")
                               .arg(mixed[0])
                               .arg(mixed[1])
                               .arg(halfAlpha[0])
                               .arg(halfAlpha[1]);
    // Opaque, only the anti-aliased edges are half transparent.
    QVERIFY2(mixed[0] < 20 && halfAlpha[0] * 8 < halfAlpha[1], qPrintable(counts));
    QVERIFY2(mixed[1] > 400 && halfAlpha[1] > 1000, qPrintable(counts));
}

// $additive: a blue quad in front of an opaque red one adds to it (magenta where they overlap,
// not the blue that hides the red without $additive); over the transparent background it
// stays visible, as alpha as strong as its light.
void TstMaterialModes::thumbnailAdditive()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    write(root + QStringLiteral("/models/glow.smd"),
          smdOf(quadAt("wall", 0.0f, -0.6f) + quadAt("glow", 1.0f, -1.6f)));
    writeVtf(root, "red", {230, 20, 20, 255});
    writeVtf(root, "blue", {20, 20, 230, 255});
    writeVmt(root, "wall", "red");
    int magenta[2] = {};
    int blueOnly[2] = {};
    int glowOverBackground = 0;
    for (int additive = 0; additive < 2; ++additive) {
        writeVmt(root, "glow", "blue", additive ? "\t\"$additive\" 1\n" : "");
        const QImage img = thumbnail(root + QStringLiteral("/models/glow.smd"), root,
                                     QStringLiteral("thumb_additive%1").arg(additive));
        QVERIFY(!img.isNull());
        magenta[additive] = count(img, [](QRgb p) {
            return qAlpha(p) == 255 && qRed(p) > 100 && qBlue(p) > 100 && qGreen(p) < 80;
        });
        blueOnly[additive] =
            count(img, [](QRgb p) { return qAlpha(p) == 255 && qBlue(p) > 100 && qRed(p) < 60; });
        if (additive) {
            glowOverBackground = count(img, [](QRgb p) {
                return qAlpha(p) > 60 && qAlpha(p) < 250 && qBlue(p) > 150 && qRed(p) < 60;
            });
        }
    }
    const QString counts = QStringLiteral("magenta %1 / %2, blue %3 / %4, glow %5")
                               .arg(magenta[0])
                               .arg(magenta[1])
                               .arg(blueOnly[0])
                               .arg(blueOnly[1])
                               .arg(glowOverBackground);
    QVERIFY2(magenta[0] < 20 && blueOnly[0] > 1000, qPrintable(counts));
    QVERIFY2(magenta[1] > 400 && blueOnly[1] < 20 && glowOverBackground > 200, qPrintable(counts));
}

// $color multiplies the texture, as the viewport's shader does: a white texture with
// $color [1 0.2 0.2] draws red, without it grey-white.
void TstMaterialModes::thumbnailTint()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    write(root + QStringLiteral("/models/card.smd"), smdOf(quadAt("card", 0.0f, -0.9f)));
    writeVtf(root, "white", {240, 240, 240, 255});
    int red[2] = {};
    int white[2] = {};
    for (int tinted = 0; tinted < 2; ++tinted) {
        writeVmt(root, "card", "white", tinted ? "\t\"$color\" \"[1 0.2 0.2]\"\n" : "");
        const QImage img = thumbnail(root + QStringLiteral("/models/card.smd"), root,
                                     QStringLiteral("thumb_tint%1").arg(tinted));
        QVERIFY(!img.isNull());
        red[tinted] = count(img, [](QRgb p) {
            return qAlpha(p) == 255 && qRed(p) > 120 && qGreen(p) < qRed(p) / 3 &&
                   qBlue(p) < qRed(p) / 3;
        });
        white[tinted] = count(img, [](QRgb p) {
            return qAlpha(p) == 255 && qRed(p) > 120 && qGreen(p) > 120 && qBlue(p) > 120;
        });
    }
    const QString counts = QStringLiteral("red %1 / %2, white %3 / %4")
                               .arg(red[0])
                               .arg(red[1])
                               .arg(white[0])
                               .arg(white[1]);
    QVERIFY2(red[0] == 0 && white[0] > 2000, qPrintable(counts));
    QVERIFY2(red[1] > 2000 && white[1] == 0, qPrintable(counts));
}

// Back faces of a found Source material are culled unless $nocull: of two quads, a green one
// facing the iso camera and a blue one facing away, the thumbnail shows the green one only;
// with $nocull both.
void TstMaterialModes::thumbnailCull()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    write(root + QStringLiteral("/models/cards.smd"),
          smdOf(quadAt("front", 0.0f, -2.0f) + quadAt("back", 0.0f, 0.2f, true)));
    writeVtf(root, "green", {20, 220, 40, 255});
    writeVtf(root, "blue", {20, 40, 220, 255});
    int green[2] = {};
    int blue[2] = {};
    for (int noCull = 0; noCull < 2; ++noCull) {
        const char* extra = noCull ? "\t\"$nocull\" 1\n" : "";
        writeVmt(root, "front", "green", extra);
        writeVmt(root, "back", "blue", extra);
        const QImage img = thumbnail(root + QStringLiteral("/models/cards.smd"), root,
                                     QStringLiteral("thumb_cull%1").arg(noCull));
        QVERIFY(!img.isNull());
        green[noCull] = count(img, [](QRgb p) {
            return qAlpha(p) == 255 && qGreen(p) > 60 && qGreen(p) > 2 * qRed(p) &&
                   qGreen(p) > 2 * qBlue(p);
        });
        blue[noCull] = count(img, [](QRgb p) {
            return qAlpha(p) == 255 && qBlue(p) > 60 && qBlue(p) > 2 * qRed(p) &&
                   qBlue(p) > 2 * qGreen(p);
        });
    }
    const QString counts = QStringLiteral("green %1 / %2, blue %3 / %4")
                               .arg(green[0])
                               .arg(green[1])
                               .arg(blue[0])
                               .arg(blue[1]);
    QVERIFY2(green[0] > 2000 && blue[0] == 0, qPrintable(counts));
    QVERIFY2(green[1] > 1000 && blue[1] > 1000, qPrintable(counts));
}

// The profile decides the lookup: a Source project's VMT textures show under the Source
// profile, not under GoldSrc (image files only), and again when Source comes back, without a
// reload.
void TstMaterialModes::profileChangeLooksMaterialsUpAgain()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("models/panel.smd")), quads({"panel"}, true));
    write(dir.filePath(QStringLiteral("materials/panel.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"green\"\n\t\"$nocull\" 1\n}\n");
    const std::string vtf = test::solidVtf(8, {20, 220, 40, 255}, core::VtfFormat::Bgr888);
    write(dir.filePath(QStringLiteral("materials/green.vtf")),
          QByteArray(vtf.data(), qsizetype(vtf.size())));

    test::TestWindow win(QStringLiteral("tst_material_modes.ini"), QSize(900, 600));
    render::Viewport* view = openInWindow(win, dir.filePath(QStringLiteral("models/panel.smd")));
    QVERIFY(view);
    QTRY_VERIFY(!win.w.document()->isChecking());
    QVERIFY(view->scene()->materialLook(0)->found);
    view->setPreset(render::CameraPreset::Right); // from +X
    view->frameAll();
    const int before = countPixels(render::captureViewport(*view), isGreen);
    QVERIFY2(before > 2000, qPrintable(QString::number(before)));

    win.w.setProfile(core::Profile::GoldSrc);
    // The scene is rebuilt with the GoldSrc lookup (no VMT). Its look, not its address, tells:
    // the new scene may be allocated where the old one was.
    QTRY_VERIFY(!win.w.document()->isChecking() && !view->scene()->materialLook(0)->source);
    QVERIFY(view->scene()->texturePath(0).isEmpty());
    const int goldsrc = countPixels(render::captureViewport(*view), isGreen);
    QVERIFY2(goldsrc < 50, qPrintable(QString::number(goldsrc)));

    win.w.setProfile(core::Profile::Source);
    QTRY_VERIFY(!win.w.document()->isChecking() && view->scene()->materialLook(0)->found);
    const int again = countPixels(render::captureViewport(*view), isGreen);
    QVERIFY2(again > before * 9 / 10, qPrintable(QString::number(again)));
}

// One truth (qc_textures.h): a QC's textures are drawn from the files `check` finds, studiomdl's
// way: an Afterburner name with a subfolder under $cdtexture whose case differs on disk is
// drawn; a texture in no $cdtexture folder (qc.missing-texture) is flat, even with a file of its
// name beside the QC (the viewer used to draw that one and miss the first).
void TstMaterialModes::qcTexturesAsCheckFindsThem()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("src/ref.smd")),
          quads({"mdl/w_raptor.png", "gone.png"}, false));
    write(dir.filePath(QStringLiteral("src/w.qc")),
          "$modelname \"w.mdl\"\n$cdtexture \"../textures\"\n$flags 2048\n"
          "$body body \"ref\"\n$sequence idle \"ref\"\n");
    QImage red(8, 8, QImage::Format_RGB32);
    red.fill(qRgb(230, 20, 20));
    QDir().mkpath(dir.filePath(QStringLiteral("textures/mdl")));
    QVERIFY(red.save(dir.filePath(QStringLiteral("textures/mdl/w_Raptor.PNG")), "PNG"));
    QVERIFY(red.save(dir.filePath(QStringLiteral("src/gone.png")), "PNG"));

    test::TestWindow win(QStringLiteral("tst_material_modes.ini"), QSize(900, 600));
    render::Viewport* view = openInWindow(win, dir.filePath(QStringLiteral("src/w.qc")));
    QVERIFY(view);
    QTRY_VERIFY(win.w.document()->qcProject());
    QCOMPARE(win.w.document()->qcProject()->textures.size(), std::size_t(2));
    QCOMPARE(win.w.document()->qcProject()->errors, std::size_t(1)); // gone.png
    const render::ModelScene* scene = view->scene();
    QCOMPARE(int(scene->model().mesh.materials.size()), 2);
    QVERIFY2(
        scene->materialLook(0)->texturePath.endsWith(QStringLiteral("textures/mdl/w_Raptor.PNG")),
        qPrintable(scene->materialLook(0)->texturePath));
    QCOMPARE(scene->materialLook(1)->texturePath, QString());
}

// `convert X.mdl OUT.qc` writes a GoldSrc model's textures as 8-bit BMP files
// (core/formats/bmp/bmp_writer.h); the viewer's reader (Qt's BMP plugin through
// loadTextureImage) reads each back as the .mdl's texture: an 8-bit image of its palette, and
// every pixel the colour of its index. tst_decompile reads them as studiomdl's LoadBMP does.
void TstMaterialModes::decompiledGoldsrcTexturesReadBack()
{
    QTemporaryDir dir;
    const test::GoldsrcMdlSpec spec = test::sampleGoldsrcSpec();
    const test::GoldsrcMdlBytes bytes = test::writeGoldsrcMdl(spec);
    const QString mdl = dir.filePath(QStringLiteral("test.mdl"));
    write(mdl, QByteArray::fromStdString(bytes.mdl));
    write(dir.filePath(QStringLiteral("test01.mdl")),
          QByteArray::fromStdString(bytes.sequenceGroups.at(0)));
    const QString qc = dir.filePath(QStringLiteral("out/test.qc"));
    QCOMPARE(core::decompileFile(mdl.toStdString(), qc.toStdString(), {}).exitCode, 0);
    const core::OpenedInput in = core::openInput(mdl.toStdString(), core::Profile::Auto, {});
    QVERIFY(in.compiled);
    QCOMPARE(in.compiled->textures.size(), std::size_t(3));
    for (const core::CompiledTexture& t : in.compiled->textures) {
        const QString path = dir.filePath(QStringLiteral("out/") + QString::fromStdString(t.name));
        const QImage indexed(path);
        QCOMPARE(indexed.format(), QImage::Format_Indexed8);
        QCOMPARE(indexed.size(), QSize(t.width, t.height));
        const QList<QRgb> table = indexed.colorTable();
        QCOMPARE(table.size(), qsizetype(256));
        const auto colour = [&t](std::size_t i) {
            return qRgb(t.palette[i * 3], t.palette[i * 3 + 1], t.palette[i * 3 + 2]);
        };
        for (std::size_t c = 0; c < 256; ++c) {
            QCOMPARE(table[qsizetype(c)], colour(c));
        }
        const QImage drawn = render::loadTextureImage(path);
        QCOMPARE(drawn.size(), indexed.size());
        for (int y = 0; y < t.height; ++y) {
            for (int x = 0; x < t.width; ++x) {
                const std::size_t i = t.indices[std::size_t(y * t.width + x)];
                QCOMPARE(indexed.pixelIndex(x, y), int(i));
                QCOMPARE(drawn.pixel(x, y) | 0xff000000u, colour(i));
            }
        }
    }
}

QTEST_MAIN(TstMaterialModes)
#include "tst_material_modes.moc"
