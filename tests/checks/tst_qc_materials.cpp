// A QC project's materials are looked up as the engine will: under its $cdmaterials folders
// (issue 18), not by name alone; $texturegroup skins no mesh uses are checked at their row.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/diag/diagnostic_ids.h"
#include "core/ops/qc_ops.h"

using namespace rigscope::core;

namespace {

void put(const QTemporaryDir& dir, const QString& rel, const QByteArray& text)
{
    const QString path = dir.filePath(rel);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QByteArray triangle(const char* material, int x)
{
    QByteArray t = QByteArray(material) + "\n";
    for (int k = 0; k < 3; ++k) {
        t += "0 " + QByteArray::number(x + (k == 1 ? 1 : 0)) + " " +
             QByteArray::number(k == 2 ? 1 : 0) + " 0 0 0 1 0 0\n";
    }
    return t;
}

} // namespace

class TstQcMaterials : public QObject {
    Q_OBJECT
private slots:
    void cdMaterialsAndSkins()
    {
        QTemporaryDir dir;
        put(dir, QStringLiteral("hero.smd"),
            "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
            "triangles\n" +
                triangle("skin.bmp", 0) + triangle("eyes.bmp", 2) + "end\n");
        // skin is where $cdmaterials says; eyes only at the top of materials/ (found by name
        // alone, but not by the engine, which looks under models/hero/).
        put(dir, QStringLiteral("materials/models/hero/skin.vmt"), "\"VertexLitGeneric\"\n{\n}\n");
        put(dir, QStringLiteral("materials/eyes.vmt"), "\"VertexLitGeneric\"\n{\n}\n");
        put(dir, QStringLiteral("hero.qc"),
            "$modelname \"hero.mdl\"\n"
            "$cdmaterials \"models\\\\hero\\\\\"\n"
            "$body body \"hero.smd\"\n"
            "$texturegroup skinfamilies\n"
            "{\n"
            "    { \"skin\" }\n"
            "    { \"skin_blue\" }\n"
            "}\n"
            "$sequence idle \"hero.smd\"\n");
        CheckOptions opt;
        opt.profile = Profile::Source;
        opt.materialRoots = {dir.path().toStdString()};
        opt.discoverMaterialRoots = false;
        const std::vector<CheckedFile> files =
            checkQcProject(dir.filePath(QStringLiteral("hero.qc")).toStdString(), opt);
        QVERIFY(files.size() >= 2);
        QStringList missing;
        for (const CheckedFile& f : files) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kMaterialMissing) {
                    missing << QString::fromStdString(
                        QFileInfo(QString::fromStdString(d.file)).fileName().toStdString() + ":" +
                        std::to_string(d.where.line) + " " + d.message);
                }
            }
        }
        missing.sort();
        QCOMPARE(missing.size(), 2);
        // eyes: a mesh material, at its first use in the SMD (line 14), searched under the cd.
        QVERIFY2(missing[0].startsWith(QStringLiteral("hero.qc:7 skin material 'skin_blue' of "
                                                      "$texturegroup \"skinfamilies\" has no VMT")),
                 qPrintable(missing.join(QLatin1Char('\n'))));
        QVERIFY2(missing[1].startsWith(QStringLiteral("hero.smd:14 material 'eyes.bmp' has no "
                                                      "VMT: searched 1 path ($cdmaterials x "
                                                      "roots)")),
                 qPrintable(missing.join(QLatin1Char('\n'))));
    }

    void oneDiagnosticPerMaterialName()
    {
        // Two bodies and an LOD all use 'door' (once as 'door.001', as Blender names copies):
        // the compiled model has one material 'door', so it is missing once, at its first use.
        QTemporaryDir dir;
        const QByteArray head =
            "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
            "triangles\n";
        put(dir, QStringLiteral("door.smd"), head + triangle("door", 0) + "end\n");
        put(dir, QStringLiteral("handle.smd"),
            head + triangle("door.001", 0) + triangle("lock", 2) + "end\n");
        put(dir, QStringLiteral("door_lod1.smd"), head + triangle("door", 0) + "end\n");
        put(dir, QStringLiteral("materials/models/door/lock.vmt"), "\"VertexLitGeneric\"\n{\n}\n");
        put(dir, QStringLiteral("door.qc"),
            "$modelname \"door.mdl\"\n"
            "$cdmaterials \"models\\\\door\\\\\"\n"
            "$body body \"door.smd\"\n"
            "$bodygroup handle { blank studio \"handle.smd\" }\n"
            "$lod 10 { replacemodel \"door.smd\" \"door_lod1.smd\" }\n");
        CheckOptions opt;
        opt.profile = Profile::Source;
        opt.materialRoots = {dir.path().toStdString()};
        opt.discoverMaterialRoots = false;
        QStringList missing;
        for (const CheckedFile& f :
             checkQcProject(dir.filePath(QStringLiteral("door.qc")).toStdString(), opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kMaterialMissing) {
                    missing << QFileInfo(QString::fromStdString(d.file)).fileName() +
                                   QLatin1Char(':') + QString::number(d.where.line);
                }
            }
        }
        QCOMPARE(missing, QStringList{QStringLiteral("door.smd:10")});
    }

    // No $cdmaterials: studiomdl's SetSkinValues gives the model one folder of its own, the QC's
    // absolute path from its first "models" on (here "modelsrc/hero/"), else
    // models/<$modelname without extension>/. materials/ itself is not searched.
    void noCdMaterialsFolderOfItsOwn()
    {
        const QByteArray smd =
            "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
            "triangles\n" +
            triangle("skin", 0) + triangle("eyes", 2) + "end\n";
        const QByteArray vmt = "\"VertexLitGeneric\"\n{\n}\n";
        struct Case {
            QString qc, skinVmt;
            QByteArray modelName;
        };
        const Case cases[] = {
            {QStringLiteral("modelsrc/hero/hero.qc"),
             QStringLiteral("materials/modelsrc/hero/skin.vmt"), "hero.mdl"},
            {QStringLiteral("src/hero.qc"), QStringLiteral("materials/models/props/hero/skin.vmt"),
             "props/hero.mdl"},
        };
        for (const Case& c : cases) {
            QTemporaryDir dir;
            QVERIFY(!dir.path().contains(QStringLiteral("models"), Qt::CaseInsensitive));
            const QString folder = QFileInfo(c.qc).path() + QLatin1Char('/');
            put(dir, folder + QStringLiteral("hero.smd"), smd);
            put(dir, c.qc,
                "$modelname \"" + c.modelName +
                    "\"\n$body body \"hero.smd\"\n$sequence idle \"hero.smd\"\n");
            put(dir, c.skinVmt, vmt);
            put(dir, QStringLiteral("materials/eyes.vmt"), vmt); // not searched
            CheckOptions opt;
            opt.profile = Profile::Source;
            opt.materialRoots = {dir.path().toStdString()};
            opt.discoverMaterialRoots = false;
            QStringList missing;
            for (const CheckedFile& f : checkQcProject(dir.filePath(c.qc).toStdString(), opt)) {
                for (const Diagnostic& d : f.diagnostics) {
                    if (d.id == ids::kMaterialMissing) {
                        missing << QString::fromStdString(d.message);
                    }
                }
            }
            QCOMPARE(missing.size(), 1);
            QVERIFY2(missing[0].startsWith(QStringLiteral("material 'eyes' has no VMT")),
                     qPrintable(missing.join(QLatin1Char('\n'))));
        }
    }

    // A collision model's materials reach no material table (the CSS players' compiled models
    // list none of gmod_physics.smd's 'phy'): no material.missing for them. A body's missing
    // material is still reported.
    void collisionMaterialsAreNotLookedUp()
    {
        QTemporaryDir dir;
        const QByteArray head =
            "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
            "triangles\n";
        put(dir, QStringLiteral("box.smd"), head + triangle("box", 0) + "end\n");
        put(dir, QStringLiteral("box_phys.smd"), head + triangle("phy", 0) + "end\n");
        put(dir, QStringLiteral("box.qc"),
            "$modelname \"box.mdl\"\n"
            "$cdmaterials \"models\\\\box\\\\\"\n"
            "$body body \"box.smd\"\n"
            "$sequence idle \"box.smd\"\n"
            "$collisionmodel \"box_phys.smd\" {\n $mass 10\n}\n");
        CheckOptions opt;
        opt.profile = Profile::Source;
        opt.materialRoots = {dir.path().toStdString()};
        opt.discoverMaterialRoots = false;
        QStringList missing;
        for (const CheckedFile& f :
             checkQcProject(dir.filePath(QStringLiteral("box.qc")).toStdString(), opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kMaterialMissing) {
                    missing << QFileInfo(QString::fromStdString(d.file)).fileName();
                }
            }
        }
        QCOMPARE(missing, QStringList{QStringLiteral("box.smd")});
    }
};

QTEST_MAIN(TstQcMaterials)
#include "tst_qc_materials.moc"
