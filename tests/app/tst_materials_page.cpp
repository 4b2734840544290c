// Settings ▸ Materials (issue 18): the roots list adds (absolute, once), removes the selection,
// persists under Materials/roots, restores to empty, and is a page of the Settings dialog.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>

#include <QtWidgets/QToolButton>

#include "app/document/document.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/materials_page.h"
#include "app/widgets/status_bar.h"
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

// project/modelsrc/hero/hero.smd (materials skin, eyes) beside project/game/materials/skin.vmt.
QString writeProject(const QTemporaryDir& dir)
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    for (const char* mat : {"skin", "eyes"}) {
        s += QByteArray(mat) + "\n";
        s += "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 0 0 1 0 0 1 0 1 1 0 1\n";
    }
    const QString model = dir.filePath(QStringLiteral("project/modelsrc/hero/hero.smd"));
    put(model, s + "end\n");
    put(dir.filePath(QStringLiteral("project/game/materials/skin.vmt")),
        "\"VertexLitGeneric\"\n{\n}\n");
    return model;
}

} // namespace

class TstMaterialsPage : public QObject {
    Q_OBJECT
private slots:
    // Issue 27: a model whose materials were not looked up says so (status bar, Inspector),
    // neither "missing" nor found; the game folder beside its sources is offered; the
    // materials/ folder itself works as a root, as `--materials` takes it.
    void notLookedUpAndOffered()
    {
        QTemporaryDir dir;
        const QString model = writeProject(dir);
        app::Document doc;
        doc.setChecksEnabled(false);
        doc.open({model});
        QVERIFY(doc.waitForLoaded());
        const app::Document::MaterialLookupState& state = doc.materialLookupState();
        QVERIFY(state.notLookedUp);
        QCOMPARE(state.offered,
                 QStringList{QDir(dir.filePath(QStringLiteral("project/game"))).absolutePath()});

        app::StatusBar bar(nullptr);
        bar.showDocument(doc, app::Units::Model);
        QVERIFY2(bar.summary()->text().contains(QStringLiteral("2 materials (not looked up)")),
                 qPrintable(bar.summary()->text()));
        QVERIFY(!bar.materialsOffer()->isHidden());
        QCOMPARE(bar.materialsOffer()->text(), QStringLiteral("Look up materials in game"));
        QSignalSpy offered(&bar, &app::StatusBar::materialRootOffered);
        bar.materialsOffer()->click();
        QCOMPARE(offered.count(), 1);
        QCOMPARE(offered.at(0).at(0).toString(), state.offered.front());

        app::InspectorPanel inspector;
        inspector.setDocument(&doc);
        doc.setSelection({app::Selection::Kind::Material, 1, -1});
        const QString text = inspector.lines().join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("VMT: not looked up")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Game folder nearby: ") + state.offered.front()),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("missing")), qPrintable(text));

        // The materials/ folder itself as a root: looked up, skin found, eyes missing.
        doc.setMaterialRoots({dir.filePath(QStringLiteral("project/game/materials"))});
        QVERIFY(!doc.materialLookupState().notLookedUp);
        QVERIFY(doc.materialLookupState().offered.isEmpty());
        const render::MaterialSources sources = doc.materialSources();
        QCOMPARE(sources.query.roots.size(), std::size_t(1));
        core::MaterialResolver resolver(sources.query);
        const auto& mats = doc.primaryModel()->mesh.materials;
        QVERIFY(render::lookUpMaterial(mats[0], sources, &resolver).found);
        const render::MaterialLook eyes = render::lookUpMaterial(mats[1], sources, &resolver);
        QVERIFY(!eyes.found);
        QVERIFY(eyes.checkerboard);
        QVERIFY(!eyes.notLookedUp);
        bar.showDocument(doc, app::Units::Model);
        QVERIFY(!bar.summary()->text().contains(QStringLiteral("not looked up")));
        QVERIFY(bar.materialsOffer()->isHidden());
    }

    void addRemovePersist()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        QSettings settings(ini, QSettings::IniFormat);
        app::MaterialsPage page;
        QCOMPARE(page.title(), QStringLiteral("Materials"));
        QVERIFY(page.roots().isEmpty());
        QVERIFY(!page.removeButton()->isEnabled());
        QVERIFY(page.addRoot(dir.path()));
        QVERIFY(!page.addRoot(dir.path() + QStringLiteral("/"))); // the same folder
        QVERIFY(page.addRoot(dir.filePath(QStringLiteral("absent"))));
        QVERIFY(!page.addRoot(QString()));
        QCOMPARE(page.roots(), (QStringList{dir.path(), dir.filePath(QStringLiteral("absent"))}));
        // A folder that does not exist is listed, marked.
        QVERIFY(!page.list()->item(1)->toolTip().isEmpty());
        QVERIFY(page.list()->item(0)->toolTip().isEmpty());
        page.save(settings);
        QCOMPARE(settings.value(QStringLiteral("Materials/roots")).toStringList(), page.roots());

        page.list()->item(1)->setSelected(true);
        QVERIFY(page.removeButton()->isEnabled());
        page.removeButton()->click();
        QCOMPARE(page.roots(), QStringList{dir.path()});

        app::MaterialsPage again; // loads what was saved
        again.load(settings);
        QCOMPARE(again.roots().size(), 2);
        again.restoreDefaults();
        QVERIFY(again.roots().isEmpty());
        again.save(settings);
        QVERIFY(settings.value(QStringLiteral("Materials/roots")).toStringList().isEmpty());
    }

    void inTheDialog()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        settings.setValue(QStringLiteral("Materials/roots"), QStringList{dir.path()});
        app::SettingsDialog dialog(settings);
        dialog.addPage(new app::MaterialsPage);
        auto* page = qobject_cast<app::MaterialsPage*>(dialog.page(QStringLiteral("Materials")));
        QVERIFY(page);
        QCOMPARE(page->roots(), QStringList{dir.path()}); // loaded when added
        page->restoreDefaults();
        dialog.apply();
        QVERIFY(settings.value(QStringLiteral("Materials/roots")).toStringList().isEmpty());
    }
};

QTEST_MAIN(TstMaterialsPage)
#include "tst_materials_page.moc"
