// Material roots a new user can give (issue 27, item 6): the materials/ folder itself stands for
// the game folder holding it, on the command line and in the window alike (one function of
// core/materials); a game folder beside the model sources is found to be offered.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/materials/material_lookup.h"
#include "core/ops/check.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

void put(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

// project/modelsrc/hero/hero.smd (materials skin, eyes) beside project/game/materials/ with
// skin.vmt only.
void writeProject(const QTemporaryDir& dir)
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    for (const char* mat : {"skin", "eyes"}) {
        s += QByteArray(mat) + "\n";
        s += "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 0 0 1 0 0 1 0 1 1 0 1\n";
    }
    put(dir.filePath(QStringLiteral("project/modelsrc/hero/hero.smd")), s + "end\n");
    put(dir.filePath(QStringLiteral("project/game/Materials/skin.vmt")),
        "\"VertexLitGeneric\"\n{\n}\n");
}

std::string path(const QTemporaryDir& dir, const char* rel)
{
    return dir.filePath(QString::fromLatin1(rel)).toStdString();
}

int missingMaterials(const QByteArray& json)
{
    int n = 0;
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    const QJsonArray files =
        doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("files")).toArray();
    for (const QJsonValue& f : files) {
        for (const QJsonValue& d : f.toObject().value(QStringLiteral("diagnostics")).toArray()) {
            n += d.toObject().value(QStringLiteral("id")).toString() ==
                         QStringLiteral("material.missing")
                     ? 1
                     : 0;
        }
    }
    return n;
}

} // namespace

class TstMaterialRoots : public QObject {
    Q_OBJECT
private slots:
    void materialsFolderStandsForItsGameFolder()
    {
        QTemporaryDir dir;
        writeProject(dir);
        const std::string game = path(dir, "project/game");
        QCOMPARE(core::materialRootFolder(game), game);
        // The materials/ folder itself, in any case, with or without a trailing slash.
        QCOMPARE(core::materialRootFolder(game + "/Materials"), game);
        QCOMPARE(core::materialRootFolder(game + "/Materials/"), game);
        // A folder of another name, or a materials/ that holds a materials/ of its own, stays.
        const std::string src = path(dir, "project/modelsrc");
        QCOMPARE(core::materialRootFolder(src), src);
        put(dir.filePath(QStringLiteral("other/materials/materials/a.vmt")), "x");
        const std::string nested = path(dir, "other/materials");
        QCOMPARE(core::materialRootFolder(nested), nested);

        // Both spellings find the same VMT, by one lookup.
        for (const std::string& root : {game, game + "/Materials"}) {
            core::CheckOptions opt;
            opt.materialRoots = {root};
            opt.discoverMaterialRoots = false;
            const core::MaterialQuery q =
                core::materialQueryFor(path(dir, "project/modelsrc/hero/hero.smd"), opt);
            QCOMPARE(q.roots.size(), std::size_t(1));
            QCOMPARE(q.roots[0].path, game);
            core::MaterialResolver resolver(q);
            QVERIFY(resolver.resolve("skin").found);
            QVERIFY(!resolver.resolve("eyes").found);
        }
    }

    void cliAcceptsTheMaterialsFolder()
    {
        QTemporaryDir dir;
        writeProject(dir);
        const QString model = dir.filePath(QStringLiteral("project/modelsrc/hero/hero.smd"));
        for (const QString& root : {dir.filePath(QStringLiteral("project/game")),
                                    dir.filePath(QStringLiteral("project/game/Materials"))}) {
            const auto r = test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"),
                                         QStringLiteral("--materials"), root, model});
            QVERIFY2(!r.out.isEmpty(), r.err.constData());
            QCOMPARE(missingMaterials(r.out), 1); // eyes; skin found under either spelling
        }
    }

    void gameFolderBesideTheSourcesIsOffered()
    {
        QTemporaryDir dir;
        writeProject(dir);
        put(dir.filePath(QStringLiteral("project/docs/readme.txt")), "x");
        const std::string model = path(dir, "project/modelsrc/hero/hero.smd");
        QVERIFY(core::discoverMaterialRoots(model).empty()); // nothing above the model
        const std::vector<std::string> near = core::nearbyMaterialRoots(model);
        QCOMPARE(near.size(), std::size_t(1));
        QCOMPARE(near[0], path(dir, "project/game"));
        // Too far up: nothing offered.
        QVERIFY(core::nearbyMaterialRoots(model, 1).empty());
        // A folder of the model's own that holds materials/ is offered too.
        put(dir.filePath(QStringLiteral("project/modelsrc/hero/pack/materials/a.vmt")), "x");
        QCOMPARE(core::nearbyMaterialRoots(model),
                 std::vector<std::string>{path(dir, "project/modelsrc/hero/pack")});
    }
};

QTEST_GUILESS_MAIN(TstMaterialRoots)
#include "tst_material_roots.moc"
