// rigscope-test: TIMEOUT 300
// A realistic Source prop project (issue 18 "shown by"), generated: a large wooden crate with
// metal trim on its edges, a glass port ($translucent), a label decal ($alphatest), a rope on
// the lid, a sticker whose VMT names a texture that is not there, an old label whose VMT lies
// only at the top of materials/ and a second skin. QC with two $cdmaterials folders; VTFs from
// the test encoder (DXT1, DXT5, BGR888, BGRA8888).
//
// Counted by hand from the QC and the folders (materials/ below):
//   crate_wood   models/props/crate/crate_wood.vmt   found, texture found
//   metal_trim   models/shared/metal_trim.vmt        found (second $cdmaterials), texture found
//   glass        models/props/crate/glass.vmt        found, texture found
//   label        models/props/crate/label.vmt        found, texture found
//   sticker      models/props/crate/sticker.vmt      found, $basetexture missing
//   rope         -                                   missing
//   oldlabel     oldlabel.vmt (not under a cd)       missing
//   crate_wood_dark (skin 1)                         missing
// → material.missing 3, material.texture-missing 1.
//
// The project is written to Testing/Temporary/crate_project (kept: `rigscope` can open it).
#include <array>
#include <functional>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtTest/QtTest>

#include "render/model_scene.h"
#include "render/render_capture.h"
#include "tests/support/render_support.h"
#include "tests/support/test_support.h"
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

void writeVtf(const QString& path, const core::RgbaImage& image, core::VtfFormat format)
{
    const std::string vtf = test::encodeVtf(image, format);
    write(path, QByteArray(vtf.data(), qsizetype(vtf.size())));
}

core::RgbaImage image(std::uint32_t side, const std::function<QRgb(int, int)>& pixel)
{
    core::RgbaImage img;
    img.width = img.height = side;
    for (int y = 0; y < int(side); ++y) {
        for (int x = 0; x < int(side); ++x) {
            const QRgb p = pixel(x, y);
            img.pixels.insert(img.pixels.end(), {std::uint8_t(qRed(p)), std::uint8_t(qGreen(p)),
                                                 std::uint8_t(qBlue(p)), std::uint8_t(qAlpha(p))});
        }
    }
    return img;
}

// SMD triangles (Source link fields) for quads and boxes.
struct Smd {
    QByteArray text = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                      "triangles\n";
    // Quad from corner o along edges a and b (counter-clockwise seen from a x b), UVs 0..1.
    void quad(const char* material, QVector3D o, QVector3D a, QVector3D b)
    {
        const QVector3D n = QVector3D::crossProduct(a, b).normalized();
        const QVector3D p[4] = {o, o + a, o + a + b, o + b};
        const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        for (const auto& tri : {std::array{0, 1, 2}, std::array{0, 2, 3}}) {
            text += QByteArray(material) + '\n';
            for (const int k : tri) {
                text += QStringLiteral("0 %1 %2 %3 %4 %5 %6 %7 %8 1 0 1\n")
                            .arg(p[k].x())
                            .arg(p[k].y())
                            .arg(p[k].z())
                            .arg(n.x())
                            .arg(n.y())
                            .arg(n.z())
                            .arg(uv[k][0])
                            .arg(uv[k][1])
                            .toUtf8();
            }
        }
    }
    // Axis-aligned box min..max, faces outwards.
    void box(const char* material, QVector3D lo, QVector3D hi)
    {
        const QVector3D d = hi - lo;
        const QVector3D x(d.x(), 0, 0), y(0, d.y(), 0), z(0, 0, d.z());
        quad(material, lo, y, x);          // bottom (-Z)
        quad(material, lo + z, x, y);      // top (+Z)
        quad(material, lo, x, z);          // -Y
        quad(material, lo + y + x, -x, z); // +Y
        quad(material, lo + y, -y, z);     // -X
        quad(material, lo + x, y, z);      // +X
    }
};

QString writeCrateProject(const QString& root)
{
    QDir(root).removeRecursively();
    Smd smd;
    smd.box("crate_wood", {-20, -20, 0}, {20, 20, 40});
    // Trim on the 12 edges, 3 units thick.
    for (const float p : {-20.0f, 20.0f}) {
        for (const float q : {-20.0f, 20.0f}) {
            smd.box("metal_trim", {p - 1.5f, q - 1.5f, -0.5f}, {p + 1.5f, q + 1.5f, 40.5f});
        }
        for (const float z : {0.0f, 40.0f}) {
            smd.box("metal_trim", {-20.5f, p - 1.5f, z - 1.5f}, {20.5f, p + 1.5f, z + 1.5f});
            smd.box("metal_trim", {p - 1.5f, -20.5f, z - 1.5f}, {p + 1.5f, 20.5f, z + 1.5f});
        }
    }
    smd.quad("glass", {-8, -20.6f, 14}, {16, 0, 0}, {0, 0, 14});   // port on -Y
    smd.quad("label", {20.6f, -9, 12}, {0, 18, 0}, {0, 0, 16});    // decal on +X
    smd.quad("sticker", {-20.6f, 8, 10}, {0, -16, 0}, {0, 0, 12}); // on -X
    smd.quad("oldlabel", {8, 20.6f, 24}, {-16, 0, 0}, {0, 0, 10}); // on +Y
    smd.box("rope", {-12, -1, 40.5f}, {12, 1, 42});                // handle on the lid
    write(root + QStringLiteral("/modelsrc/crate/crate_ref.smd"), smd.text + "end\n");
    write(root + QStringLiteral("/modelsrc/crate/crate.qc"),
          "$modelname \"props/crate_large.mdl\"\n"
          "$cdmaterials \"models/props/crate/\"\n"
          "$cdmaterials \"models\\\\shared\"\n"
          "$body crate \"crate_ref.smd\"\n"
          "$texturegroup skinfamilies\n{\n    { \"crate_wood\" }\n    { \"crate_wood_dark\" }\n}\n"
          "$sequence idle \"crate_ref.smd\"\n");

    const QString mat = root + QStringLiteral("/materials/");
    write(mat + QStringLiteral("models/props/crate/crate_wood.vmt"),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/props/crate/crate_wood\"\n"
          "\t\"$surfaceprop\" \"Wood_Crate\"\n}\n");
    writeVtf(mat + QStringLiteral("models/props/crate/crate_wood.vtf"),
             image(128,
                   [](int x, int y) {
                       const int plank = y / 32;
                       const bool gap = y % 32 < 2;
                       const int grain = (x * 7 + plank * 40 + (y % 32) * 3) % 23;
                       return gap ? qRgb(40, 25, 12)
                                  : qRgb(150 + grain + plank * 6, 100 + grain / 2 + plank * 4,
                                         50 + grain / 3);
                   }),
             core::VtfFormat::Dxt1);
    write(
        mat + QStringLiteral("models/shared/metal_trim.vmt"),
        "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/shared/metal\"\n\t\"$phong\" 1\n}\n");
    writeVtf(mat + QStringLiteral("models/shared/metal.vtf"),
             image(64,
                   [](int x, int y) {
                       const bool rivet =
                           (x % 16 - 8) * (x % 16 - 8) + (y % 16 - 8) * (y % 16 - 8) < 8;
                       const int v = rivet ? 200 : 95 + (x + y) % 9;
                       return qRgb(v, v + 4, v + 10);
                   }),
             core::VtfFormat::Bgr888);
    write(mat + QStringLiteral("models/props/crate/glass.vmt"),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/props/crate/glass\"\n"
          "\t\"$translucent\" 1\n\t\"$nocull\" 1\n}\n");
    writeVtf(mat + QStringLiteral("models/props/crate/glass.vtf"),
             image(32, [](int x,
                          int y) { return qRgba(120 + x, 190 + y, 235, x + y < 12 ? 220 : 110); }),
             core::VtfFormat::Bgra8888);
    write(mat + QStringLiteral("models/props/crate/label.vmt"),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/props/crate/label\"\n"
          "\t\"$alphatest\" 1\n\t\"$alphatestreference\" \".5\"\n}\n");
    writeVtf(mat + QStringLiteral("models/props/crate/label.vtf"),
             image(64,
                   [](int x, int y) {
                       const bool inside = x > 6 && x < 58 && y > 10 && y < 54;
                       const bool stripe = y > 24 && y < 40;
                       return !inside  ? qRgba(0, 0, 0, 0)
                              : stripe ? qRgba(200, 30, 30, 255)
                                       : qRgba(235, 230, 210, 255);
                   }),
             core::VtfFormat::Dxt5);
    write(mat + QStringLiteral("models/props/crate/sticker.vmt"),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/props/crate/sticker\"\n}\n");
    write(mat + QStringLiteral("oldlabel.vmt"),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/props/crate/label\"\n}\n");
    return root + QStringLiteral("/modelsrc/crate/crate.qc");
}

} // namespace

class TstMaterialShowcase : public QObject {
    Q_OBJECT
private slots:
    void missingCountsAsCountedByHand();
    void texturedDiffersFromFlat();
};

void TstMaterialShowcase::missingCountsAsCountedByHand()
{
    const QString qc = writeCrateProject(test::outputDir() + QStringLiteral("/crate_project"));
    QProcess cli;
    cli.start(QStringLiteral(RIGSCOPE_CLI_PATH), {QStringLiteral("check"), qc});
    QVERIFY(cli.waitForFinished(60000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    QStringList missing, textureMissing;
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        if (!line.contains(QStringLiteral(": warning: "))) {
            continue; // the notes under each list the paths searched
        }
        if (line.contains(QStringLiteral("[material.missing]"))) {
            missing << line;
        } else if (line.contains(QStringLiteral("[material.texture-missing]"))) {
            textureMissing << line;
        }
    }
    QCOMPARE(missing.size(), 3);
    for (const char* name : {"'rope'", "'oldlabel'", "'crate_wood_dark'"}) {
        QVERIFY2(missing.filter(QString::fromLatin1(name)).size() == 1,
                 qPrintable(QString::fromLatin1(name) + QLatin1Char('\n') + out));
    }
    QCOMPARE(textureMissing.size(), 1);
    QVERIFY2(textureMissing[0].contains(QStringLiteral("sticker")), qPrintable(textureMissing[0]));
}

void TstMaterialShowcase::texturedDiffersFromFlat()
{
    const QString qc = writeCrateProject(test::outputDir() + QStringLiteral("/crate_project"));
    const QString smd = QFileInfo(qc).absolutePath() + QStringLiteral("/crate_ref.smd");
    const core::ReadResult r = test::readPath(smd);
    QVERIFY(r.hasModel);
    auto v = test::makeTestViewport();
    QVERIFY(v);
    render::DisplayFlags flags;
    flags.axes = flags.grid = flags.skeleton = false;
    v->setDisplay(flags);
    const std::vector<std::string> cds{"models/props/crate/", "models\\shared"}; // the QC's
    v->setModel(std::make_shared<const core::Model>(r.model),
                render::materialSourcesFor(smd, {}, &cds), true);
    v->frameAll();
    const QImage textured = render::captureViewport(*v);
    flags.textures = false;
    v->setDisplay(flags);
    const QImage flat = render::captureViewport(*v);
    textured.save(test::outputDir() + QStringLiteral("/TstMaterialShowcase_textured.png"));
    flat.save(test::outputDir() + QStringLiteral("/TstMaterialShowcase_flat.png"));
    int model = 0, differ = 0, checker = 0;
    for (int y = 0; y < textured.height(); ++y) {
        for (int x = 0; x < textured.width(); ++x) {
            const QRgb a = textured.pixel(x, y), b = flat.pixel(x, y);
            const int d = std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
                          std::abs(qBlue(a) - qBlue(b));
            model += test::isModelColour(b) ? 1 : 0;
            differ += d > 60 ? 1 : 0;
            checker += qRed(a) > 120 && qBlue(a) > 120 && qGreen(a) < 80 ? 1 : 0;
        }
    }
    // Most of the crate changes (wood, trim); the missing ones show the purple checkerboard.
    QVERIFY2(model > 8000 && differ > model / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(differ).arg(model)));
    QVERIFY2(checker > 100, qPrintable(QString::number(checker)));
}

QTEST_MAIN(TstMaterialShowcase)
#include "tst_material_showcase.moc"
