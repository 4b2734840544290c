// `rigscope-cli info --materials` (issue 18): per material, the VMT and shader, the base texture
// with its VTF header, or "missing" with the paths searched; a QC under its $cdmaterials, a
// model alone by name; --material-root changes the lookup and the counts as `check --materials`.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/test_support.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;

namespace {

void put(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

QByteArray model()
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    for (const char* mat : {"skin", "eyes", "Hair"}) {
        s += QByteArray(mat) + "\n";
        s += "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 0 0 1 0 0 1 0 1 1 0 1\n";
    }
    return s + "end\n";
}

QByteArray vtf16()
{
    core::RgbaImage img;
    img.width = img.height = 16;
    img.pixels.assign(16 * 16 * 4, 200);
    test::VtfEncodeOptions o;
    o.versionMinor = 4;
    const std::string s = test::encodeVtf(img, core::VtfFormat::Dxt1, o);
    return QByteArray(s.data(), qsizetype(s.size()));
}

// game/hero.qc ($cdmaterials models/hero), game/models/hero.smd, skin under the QC's folder
// with its texture, eyes only at the top of materials/, hair's VMT naming a missing texture.
void writeProject(const QTemporaryDir& dir)
{
    put(dir.filePath(QStringLiteral("game/models/hero.smd")), model());
    put(dir.filePath(QStringLiteral("game/hero.qc")),
        "$modelname \"hero.mdl\"\n$cdmaterials \"models/hero\"\n"
        "$body body \"models/hero.smd\"\n$sequence idle \"models/hero.smd\"\n");
    put(dir.filePath(QStringLiteral("game/materials/models/hero/skin.vmt")),
        "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/skin\"\n}\n");
    put(dir.filePath(QStringLiteral("game/materials/models/hero/skin.vtf")), vtf16());
    put(dir.filePath(QStringLiteral("game/materials/eyes.vmt")), "\"Eyes\"\n{\n}\n");
    put(dir.filePath(QStringLiteral("game/materials/models/hero/hair.vmt")),
        "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/nohair\"\n}\n");
}

QJsonObject parseObject(const QByteArray& out)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(out, &err);
    if (err.error != QJsonParseError::NoError) {
        return {};
    }
    return doc.isArray() ? doc.array().at(0).toObject() : doc.object();
}

QJsonObject material(const QJsonObject& lookup, const QString& name)
{
    for (const QJsonValue& v : lookup.value(QStringLiteral("materials")).toArray()) {
        if (v.toObject().value(QStringLiteral("name")).toString() == name) {
            return v.toObject();
        }
    }
    return {};
}

int warningsOf(const QByteArray& jsonOut) // info's object, or check's summary
{
    const QJsonObject o = parseObject(jsonOut);
    const QJsonObject summary = o.value(QStringLiteral("summary")).toObject();
    return (summary.isEmpty() ? o : summary).value(QStringLiteral("warnings")).toInt(-1);
}

} // namespace

class TstMaterialInfoCli : public QObject {
    Q_OBJECT
private slots:
    void qcUnderCdMaterials()
    {
        QTemporaryDir dir;
        writeProject(dir);
        const auto r = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                     QStringLiteral("--materials"),
                                     dir.filePath(QStringLiteral("game/hero.qc"))});
        const QJsonObject lookup =
            parseObject(r.out).value(QStringLiteral("materialLookup")).toObject();
        QVERIFY2(!lookup.isEmpty(), r.out.constData());
        QCOMPARE(lookup.value(QStringLiteral("fromQc")).toBool(), true);
        QCOMPARE(lookup.value(QStringLiteral("cdmaterials")).toArray().at(0).toString(),
                 QStringLiteral("models/hero"));
        QCOMPARE(lookup.value(QStringLiteral("roots")).toArray().size(), 1);

        const QJsonObject skin = material(lookup, QStringLiteral("skin"));
        QVERIFY(skin.value(QStringLiteral("found")).toBool());
        QVERIFY(skin.value(QStringLiteral("vmt"))
                    .toString()
                    .endsWith(QStringLiteral("game/materials/models/hero/skin.vmt")));
        QCOMPARE(skin.value(QStringLiteral("shader")).toString(),
                 QStringLiteral("VertexLitGeneric"));
        QCOMPARE(skin.value(QStringLiteral("baseTexture")).toString(),
                 QStringLiteral("models/hero/skin"));
        const QJsonObject tex = skin.value(QStringLiteral("texture")).toObject();
        QCOMPARE(tex.value(QStringLiteral("width")).toInt(), 16);
        QCOMPARE(tex.value(QStringLiteral("format")).toString(), QStringLiteral("DXT1"));
        QCOMPARE(tex.value(QStringLiteral("version")).toString(), QStringLiteral("7.4"));
        QCOMPARE(tex.value(QStringLiteral("mips")).toInt(), 5);

        // Only at the top of materials/: the engine, looking under models/hero/, misses it.
        const QJsonObject eyes = material(lookup, QStringLiteral("eyes"));
        QCOMPARE(eyes.value(QStringLiteral("found")).toBool(), false);
        const QJsonArray searched = eyes.value(QStringLiteral("searched")).toArray();
        QCOMPARE(searched.size(), 1);
        QVERIFY(searched.at(0).toString().endsWith(
            QStringLiteral("game/materials/models/hero/eyes.vmt")));

        const QJsonObject hair = material(lookup, QStringLiteral("Hair"));
        QVERIFY(hair.value(QStringLiteral("found")).toBool());
        QCOMPARE(hair.value(QStringLiteral("baseTextureMissing")).toBool(), true);
        QVERIFY(hair.value(QStringLiteral("texture")).isNull());

        // The text form says the same.
        const auto t = test::runCli({QStringLiteral("info"), QStringLiteral("--materials"),
                                     dir.filePath(QStringLiteral("game/hero.qc"))});
        QVERIFY2(t.out.contains("material lookup: 1 root, $cdmaterials models/hero\n"),
                 t.out.constData());
        QVERIFY(t.out.contains("      shader        VertexLitGeneric\n"));
        QVERIFY(t.out.contains("      texture size  16 x 16 DXT1, VTF 7.4, 5 mips\n"));
        QVERIFY(t.out.contains("    eyes\n      VMT           missing (the game draws the "
                               "checkerboard)\n      searched      "));
        QVERIFY(t.out.contains("models/hero/nohair  (missing: checkerboard)\n"));
    }

    // A model alone: by name under materials/ (the eyes are found there), and the counts are
    // check's, --material-root included.
    void modelByNameAndRootsCount()
    {
        QTemporaryDir dir;
        writeProject(dir);
        const QString smd = dir.filePath(QStringLiteral("game/models/hero.smd"));
        const auto r = test::runCli(
            {QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--materials"), smd});
        const QJsonObject info = parseObject(r.out);
        const QJsonObject lookup = info.value(QStringLiteral("materialLookup")).toObject();
        QCOMPARE(lookup.value(QStringLiteral("fromQc")).toBool(), false);
        const QJsonObject eyes = material(lookup, QStringLiteral("eyes"));
        QVERIFY(eyes.value(QStringLiteral("found")).toBool());
        QVERIFY(eyes.value(QStringLiteral("byNameAlone")).toBool());
        QCOMPARE(eyes.value(QStringLiteral("shader")).toString(), QStringLiteral("Eyes"));
        const auto c =
            test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"), smd});
        QCOMPARE(warningsOf(r.out), warningsOf(c.out));

        // An extra root whose VMT names a texture it lacks: one more warning, in both.
        put(dir.filePath(QStringLiteral("extra/materials/models/hero/Hair.vmt")),
            "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"x/absent\"\n}\n");
        put(dir.filePath(QStringLiteral("extra/materials/skin.vmt")),
            "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"x/absent2\"\n}\n");
        const QString extra = dir.filePath(QStringLiteral("extra"));
        const auto r2 = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                      QStringLiteral("--materials"),
                                      QStringLiteral("--material-root"), extra, smd});
        const auto c2 = test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"),
                                      QStringLiteral("--materials"), extra, smd});
        QCOMPARE(warningsOf(r2.out), warningsOf(c2.out));
        QCOMPARE(warningsOf(r2.out), warningsOf(r.out) + 1);
        const QJsonObject lookup2 =
            parseObject(r2.out).value(QStringLiteral("materialLookup")).toObject();
        QCOMPARE(lookup2.value(QStringLiteral("roots")).toArray().size(), 2);
        QVERIFY(material(lookup2, QStringLiteral("skin"))
                    .value(QStringLiteral("vmt"))
                    .toString()
                    .contains(QStringLiteral("extra/materials")));
    }

    void goldsrcHasNoSourceLookup()
    {
        QTemporaryDir dir;
        writeProject(dir);
        const auto t = test::runCli({QStringLiteral("info"), QStringLiteral("--materials"),
                                     QStringLiteral("--profile=goldsrc"),
                                     dir.filePath(QStringLiteral("game/models/hero.smd"))});
        QVERIFY2(t.out.contains("material lookup: none under the goldsrc profile"),
                 t.out.constData());
        // Without --materials, no lookup section.
        const auto plain = test::runCli(
            {QStringLiteral("info"), dir.filePath(QStringLiteral("game/models/hero.smd"))});
        QVERIFY(!plain.out.contains("material lookup"));
    }
};

QTEST_MAIN(TstMaterialInfoCli)
#include "tst_material_info_cli.moc"
