// rigscope-test: TIMEOUT 300
// Textured shading (issue 18): a small Source project written to a temporary folder (model,
// materials/*.vmt, a VTF from the test encoder) drawn from the front: the found material shows
// its VTF's colour, the missing one the engine's purple / black checkerboard, and with textures
// off neither.
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/materials/vtf.h"
#include "render/model_scene.h"
#include "render/render_capture.h"
#include "render/texture_loader.h"
#include "render/viewport.h"
#include "tests/support/render_support.h"
#include "tests/support/test_support.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;

namespace {

// The mesh alone: no axes, grid or skeleton over the pixels counted.
render::DisplayFlags meshOnly()
{
    render::DisplayFlags flags;
    flags.axes = false;
    flags.grid = false;
    flags.skeleton = false;
    return flags;
}

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// Two vertical quads in the YZ plane facing +X (the front view's side): one uses `green`
// (found), the other `absent` (no VMT).
QByteArray twoQuads()
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    auto quad = [&](const char* mat, float x0, float x1) {
        const float z0 = 0, z1 = 2;
        auto v = [&](float x, float z, float u, float w) {
            s += QStringLiteral("0 0 %1 %2 1 0 0 %3 %4\n").arg(x).arg(z).arg(u).arg(w).toUtf8();
        };
        s += QByteArray(mat) + '\n';
        v(x0, z0, 0, 0), v(x1, z0, 1, 0), v(x1, z1, 1, 1);
        s += QByteArray(mat) + '\n';
        v(x0, z0, 0, 0), v(x1, z1, 1, 1), v(x0, z1, 0, 1);
    };
    quad("green", -2.0f, -0.1f);
    quad("absent", 0.1f, 2.0f);
    return s + "end\n";
}

struct Counts {
    int green = 0, magenta = 0, black = 0;
};

Counts count(const QImage& img, int x0, int x1)
{
    Counts c;
    for (int y = 0; y < img.height(); ++y) {
        for (int x = x0; x < x1; ++x) {
            const QRgb p = img.pixel(x, y);
            if (qGreen(p) > 120 && qRed(p) < 90 && qBlue(p) < 90) {
                ++c.green;
            } else if (qRed(p) > 120 && qBlue(p) > 120 && qGreen(p) < 80) {
                ++c.magenta;
            } else if (qRed(p) < 12 && qGreen(p) < 12 && qBlue(p) < 12) {
                ++c.black;
            }
        }
    }
    return c;
}

} // namespace

class TstMaterialRender : public QObject {
    Q_OBJECT
private slots:
    void foundTexturedMissingCheckerboard();
    void texturesStreamInAfterTheFirstFrame();
    void imageTopAtVOne();
    void twoHundredMaterialsFirstFrameNotDelayed();
};

void TstMaterialRender::foundTexturedMissingCheckerboard()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("models/hero.smd")), twoQuads());
    write(dir.filePath(QStringLiteral("materials/Green.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"tex/green\"\n}\n");
    const std::string vtf = test::solidVtf(16, {20, 220, 40, 255}, core::VtfFormat::Dxt1);
    write(dir.filePath(QStringLiteral("materials/tex/green.vtf")),
          QByteArray(vtf.data(), qsizetype(vtf.size())));

    const core::ReadResult r = test::readPath(dir.filePath(QStringLiteral("models/hero.smd")));
    QVERIFY(r.hasModel);
    auto model = std::make_shared<const core::Model>(r.model);
    auto v = test::makeTestViewport();
    QVERIFY(v);
    render::DisplayFlags flags = meshOnly();
    v->setDisplay(flags);
    v->setModel(model, QStringList{dir.path()}, true);
    QVERIFY(v->scene());
    QVERIFY(v->scene()->materialLook(0)->found);
    QCOMPARE(v->scene()->materialLook(0)->shader, QStringLiteral("VertexLitGeneric"));
    QVERIFY(v->scene()->materialLook(1)->checkerboard);
    QVERIFY(!v->scene()->materialLook(1)->found);
    v->setPreset(render::CameraPreset::Right); // from +X
    v->frameAll();
    QImage image = render::captureViewport(*v);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialRender_textured.png"));
    // Which half holds which quad depends on the front camera's side: take both halves.
    const Counts left = count(image, 0, 128), right = count(image, 128, 256);
    const Counts& greenSide = left.green > right.green ? left : right;
    const Counts& checkSide = left.green > right.green ? right : left;
    QVERIFY2(greenSide.green > 3000, qPrintable(QString::number(greenSide.green)));
    QVERIFY2(checkSide.magenta > 1000, qPrintable(QString::number(checkSide.magenta)));
    QVERIFY2(checkSide.black > 300, qPrintable(QString::number(checkSide.black)));
    QVERIFY(checkSide.green < 50);

    flags.textures = false;
    v->setDisplay(flags);
    image = render::captureViewport(*v);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialRender_flat.png"));
    const Counts flat = count(image, 0, 256);
    QVERIFY2(flat.green < 50 && flat.magenta < 50, qPrintable(QString::number(flat.magenta)));
}

// The first frame does not wait for textures: with decoding held, the model shows in its flat
// colour (not black: the stand-in texture is in place, not sampled); once the decode is let go,
// the VTF's green replaces it on the material already on screen.
void TstMaterialRender::texturesStreamInAfterTheFirstFrame()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("models/hero.smd")), twoQuads());
    write(dir.filePath(QStringLiteral("materials/Green.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"tex/green\"\n}\n");
    const std::string vtf = test::solidVtf(64, {20, 220, 40, 255}, core::VtfFormat::Bgr888);
    write(dir.filePath(QStringLiteral("materials/tex/green.vtf")),
          QByteArray(vtf.data(), qsizetype(vtf.size())));
    const core::ReadResult r = test::readPath(dir.filePath(QStringLiteral("models/hero.smd")));
    QVERIFY(r.hasModel);
    auto model = std::make_shared<const core::Model>(r.model);
    auto v = test::makeTestViewport();
    QVERIFY(v);
    render::DisplayFlags flags = meshOnly();
    v->setDisplay(flags);

    render::holdTextureDecoding(true);
    v->setModel(model, QStringList{dir.path()}, true);
    v->setPreset(render::CameraPreset::Right); // from +X
    v->frameAll();
    QCOMPARE(v->scene()->texturesPending(), 1);
    QImage image = render::captureViewport(*v, false, 20000, false);
    const int pending = v->scene()->texturesPending();
    render::holdTextureDecoding(false);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialRender_first_frame.png"));
    QCOMPARE(pending, 1); // the frame above was drawn before the texture
    const Counts left = count(image, 0, 128), right = count(image, 128, 256);
    const Counts& quadSide = left.magenta > right.magenta ? right : left;
    // The flat palette colour of material 0 (light blue-grey), lit: many pixels, no green, no
    // black.
    QVERIFY2(quadSide.green < 50, qPrintable(QString::number(quadSide.green)));
    QVERIFY2(quadSide.black < 50, qPrintable(QString::number(quadSide.black)));
    const QColor flat = v->scene()->materialColor(0);
    int flatLike = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = (&quadSide == &left ? 0 : 128); x < (&quadSide == &left ? 128 : 256); ++x) {
            const QColor p = image.pixelColor(x, y);
            flatLike += std::abs(p.hueF() - flat.hueF()) < 0.06 && p.saturationF() > 0.08 &&
                        p.saturationF() < 0.4 && p.value() > 90;
        }
    }
    QVERIFY2(flatLike > 3000, qPrintable(QString::number(flatLike)));

    QVERIFY(v->scene()->waitForTextures(20000));
    QCOMPARE(v->scene()->texturesPending(), 0);
    image = render::captureViewport(*v, false, 20000, false);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialRender_streamed.png"));
    const Counts after =
        left.magenta > right.magenta ? count(image, 128, 256) : count(image, 0, 128);
    QVERIFY2(after.green > 3000, qPrintable(QString::number(after.green)));
    QVERIFY2(after.black < 50, qPrintable(QString::number(after.black)));
}

// SMD v runs up: the image's top row is drawn where v = 1 (the quad's top edge).
void TstMaterialRender::imageTopAtVOne()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("models/hero.smd")), twoQuads());
    write(dir.filePath(QStringLiteral("materials/Green.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"tex/split\"\n}\n");
    core::RgbaImage split;
    split.width = split.height = 16;
    for (int i = 0; i < 256; ++i) { // rows 0-7 (top) red, 8-15 blue
        split.pixels.insert(split.pixels.end(), {std::uint8_t(i < 128 ? 230 : 20), 20,
                                                 std::uint8_t(i < 128 ? 20 : 230), 255});
    }
    const std::string vtf = test::encodeVtf(split, core::VtfFormat::Bgra8888);
    write(dir.filePath(QStringLiteral("materials/tex/split.vtf")),
          QByteArray(vtf.data(), qsizetype(vtf.size())));
    const core::ReadResult r = test::readPath(dir.filePath(QStringLiteral("models/hero.smd")));
    QVERIFY(r.hasModel);
    auto v = test::makeTestViewport();
    QVERIFY(v);
    render::DisplayFlags flags = meshOnly();
    v->setDisplay(flags);
    v->setModel(std::make_shared<const core::Model>(r.model), QStringList{dir.path()}, true);
    v->setPreset(render::CameraPreset::Right); // from +X
    v->frameAll();
    const QImage image = render::captureViewport(*v);
    int redTop = 0, blueTop = 0, redBottom = 0, blueBottom = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            const bool red = qRed(p) > 120 && qBlue(p)<60, blue = qBlue(p)> 120 && qRed(p) < 60;
            (y < image.height() / 2 ? redTop : redBottom) += red;
            (y < image.height() / 2 ? blueTop : blueBottom) += blue;
        }
    }
    QVERIFY2(
        redTop > 1000 && blueBottom > 1000 && redBottom < 50 && blueTop < 50,
        qPrintable(
            QStringLiteral("%1 %2 %3 %4").arg(redTop).arg(blueTop).arg(redBottom).arg(blueBottom)));
}

// 200 materials, each a VMT and a 256 x 256 VTF: the first frame comes as soon as without
// textures (decoding held until it is drawn, so every texture is still to come), then every
// texture streams in.
void TstMaterialRender::twoHundredMaterialsFirstFrameNotDelayed()
{
    QTemporaryDir dir;
    QByteArray smd = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                     "triangles\n";
    const std::string vtf = test::solidVtf(256, {20, 220, 40, 255}, core::VtfFormat::Bgr888);
    for (int i = 0; i < 200; ++i) { // a 20 x 10 wall in the YZ plane facing +X
        const QByteArray name = "m" + QByteArray::number(i);
        const float y0 = float(i % 20), z0 = float(i / 20), y1 = y0 + 0.9f, z1 = z0 + 0.9f;
        auto v = [&](float y, float z, float u, float w) {
            smd += QStringLiteral("0 0 %1 %2 1 0 0 %3 %4\n").arg(y).arg(z).arg(u).arg(w).toUtf8();
        };
        smd += name + '\n';
        v(y0, z0, 0, 0), v(y1, z0, 1, 0), v(y1, z1, 1, 1);
        smd += name + '\n';
        v(y0, z0, 0, 0), v(y1, z1, 1, 1), v(y0, z1, 0, 1);
        write(dir.filePath(QStringLiteral("materials/") + QString::fromLatin1(name) +
                           QStringLiteral(".vmt")),
              "\"VertexLitGeneric\" { \"$basetexture\" \"tex/" + name + "\" }\n");
        write(dir.filePath(QStringLiteral("materials/tex/") + QString::fromLatin1(name) +
                           QStringLiteral(".vtf")),
              QByteArray(vtf.data(), qsizetype(vtf.size())));
    }
    write(dir.filePath(QStringLiteral("models/wall.smd")), smd + "end\n");
    const core::ReadResult r = test::readPath(dir.filePath(QStringLiteral("models/wall.smd")));
    QVERIFY(r.hasModel);
    auto model = std::make_shared<const core::Model>(r.model);
    QCOMPARE(model->mesh.materials.size(), std::size_t(200));
    auto v = test::makeTestViewport();
    QVERIFY(v);
    render::DisplayFlags flags = meshOnly();
    flags.textures = false;
    v->setDisplay(flags);
    const auto firstFrame = [&] {
        QElapsedTimer t;
        t.start();
        v->setModel(model, QStringList{dir.path()}, true);
        v->setPreset(render::CameraPreset::Right); // from +X
        v->frameAll();
        const QImage image = render::captureViewport(*v, false, 20000, false);
        return std::pair{double(t.elapsed()) / 1000.0, image};
    };
    firstFrame(); // warm-up: shaders compiled, the VMTs read once
    const double flat = firstFrame().first;

    flags.textures = true;
    v->setDisplay(flags);
    render::holdTextureDecoding(true);
    const auto [textured, first] = firstFrame();
    const int pending = v->scene()->texturesPending();
    render::holdTextureDecoding(false);
    qInfo("first frame, 200 materials: %.3f s without textures, %.3f s with (%d to come)", flat,
          textured, pending);
    QCOMPARE(pending, 200);
    QVERIFY2(textured <= 1.5 * flat + 0.3, qPrintable(QString::number(textured)));
    int greenBefore = 0;
    for (int y = 0; y < first.height(); ++y) {
        for (int x = 0; x < first.width(); ++x) {
            const QRgb p = first.pixel(x, y);
            greenBefore += qGreen(p) > 150 && qRed(p) < 60 && qBlue(p) < 80;
        }
    }
    QCOMPARE(greenBefore, 0);

    QElapsedTimer t;
    t.start();
    QVERIFY(v->scene()->waitForTextures(60000));
    qInfo("every texture in %.3f s after the first frame", double(t.elapsed()) / 1000.0);
    const QImage after = render::captureViewport(*v);
    after.save(test::outputDir() + QStringLiteral("/TstMaterialRender_200.png"));
    const Counts c = count(after, 0, after.width());
    QVERIFY2(c.green > 8000, qPrintable(QString::number(c.green)));
}

QTEST_MAIN(TstMaterialRender)
#include "tst_material_render.moc"
