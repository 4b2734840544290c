// QC projects in the viewer (issue 17): a .qc opens as the compiled model with one animation
// per sequence; the Bodygroups dock lists the project (missing files in red) and its choices
// and skin drive the shown model; --bodygroup / --skin on the command line.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QTreeWidget>

#include "app/document/command_line.h"
#include "app/document/document.h"
#include "app/document/qc_document.h"
#include "app/widgets/bodygroups_panel.h"
#include "core/ops/qc_ops.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString heroQc()
{
    return test::fixturesDir() + QStringLiteral("/qc/source/hero.qc");
}

int redRows(QTreeWidgetItem* item)
{
    int n = item->foreground(0).color() == Qt::red ? 1 : 0;
    for (int i = 0; i < item->childCount(); ++i) {
        n += redRows(item->child(i));
    }
    return n;
}

} // namespace

class TstQcDocument : public QObject {
    Q_OBJECT
private slots:
    void opensTheCompiledModel()
    {
        app::Document doc;
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(doc.qcProject());
        const auto m = doc.primaryModel();
        QVERIFY(m);
        QCOMPARE(m->format, std::string("qc"));
        QCOMPARE(m->skeleton.size(), std::size_t(5));
        QCOMPARE(m->mesh.triangleCount(), std::size_t(10)); // first choice of each group
        QCOMPARE(doc.animations().size(), std::size_t(4));
        QCOMPARE(doc.animations()[3].name, QStringLiteral("run"));
        doc.setCurrentAnimation(3);
        QCOMPARE(doc.frameCount(), 3);
        QCOMPARE(doc.flexNames().size(), 0); // the compiled model carries its shapes itself
    }

    void bodygroupsDrivesTheModel()
    {
        app::Document doc;
        app::BodygroupsPanel panel;
        panel.setDocument(&doc);
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(panel.choiceBoxes().size(), std::size_t(3));
        QComboBox* helmet = panel.choiceBoxes()[1];
        QCOMPARE(helmet->count(), 2);
        QCOMPARE(helmet->itemText(1), QStringLiteral("blank"));
        helmet->setCurrentIndex(1);
        QVERIFY(doc.isLoading());
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.qcView().choices, (std::vector<int>{0, 1, 0}));
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(8));
        QCOMPARE(doc.animations().size(), std::size_t(4)); // kept through the reload
        // The panel was rebuilt with the choice kept.
        QCOMPARE(panel.choiceBoxes()[1]->currentIndex(), 1);
        panel.skinBox()->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.primaryModel()->mesh.materials[0].name, std::string("hero_skin_red"));
        // Project tree: QC, includes, bodygroups, sequences; nothing missing.
        QCOMPARE(panel.tree()->topLevelItemCount(), 1);
        QCOMPARE(redRows(panel.tree()->topLevelItem(0)), 0);
    }

    void markers()
    {
        app::Document doc;
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        const auto marks = app::qcMarkers(*doc.qcProject(), *doc.primaryModel());
        QCOMPARE(marks.size(), std::size_t(2 + 3));
        QCOMPARE(marks[0].name, QStringLiteral("eyes"));
        QCOMPARE(marks[0].joint, doc.primaryModel()->skeleton.findByName("head"));
        QVERIFY(marks[1].absolute);
        QCOMPARE(marks[2].kind, render::SceneMarker::Kind::Box);
        QCOMPARE(marks[2].max.x(), 3.0f);
        QVERIFY(marks[2].color != marks[4].color); // head group 1, spine group 2
    }

    void missingFilesInRed()
    {
        QTemporaryDir tmp;
        const QDir src(test::fixturesDir() + QStringLiteral("/qc/source"));
        for (const QString& f : src.entryList(QDir::Files)) {
            if (f != QStringLiteral("walk.smd")) {
                QVERIFY(QFile::copy(src.filePath(f), tmp.filePath(f)));
            }
        }
        app::Document doc;
        app::BodygroupsPanel panel;
        panel.setDocument(&doc);
        doc.open({tmp.filePath(QStringLiteral("hero.qc"))});
        QVERIFY(doc.waitForLoaded());
        // walk.smd (named by $animation a_walk and by run), the LOD file: rows and their
        // sequence parents in red.
        QVERIFY(redRows(panel.tree()->topLevelItem(0)) >= 3);
        QSignalSpy spy(&panel, &app::BodygroupsPanel::lineActivated);
        QTreeWidgetItem* root = panel.tree()->topLevelItem(0);
        emit panel.tree()->itemActivated(root, 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(1).toInt(), 1);
    }

    void commandLine()
    {
        const app::GuiOptions o = app::parseGuiCommandLine(
            {QStringLiteral("rigscope"), QStringLiteral("--bodygroup"), QStringLiteral("helmet=1"),
             QStringLiteral("--skin"), QStringLiteral("1"), heroQc()});
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QCOMPARE(o.bodygroups.size(), 1);
        QCOMPARE(o.skin, 1);
        app::Document doc;
        doc.open(o.files);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(app::applyQcCommandLine(doc, o.bodygroups, o.skin), QString());
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(8));
        QVERIFY(!app::applyQcCommandLine(doc, {{QStringLiteral("nope"), 0}}, -1).isEmpty());
        QVERIFY(!app::applyQcCommandLine(doc, {{QStringLiteral("helmet"), 2}}, -1).isEmpty());
        QVERIFY(!app::applyQcCommandLine(doc, {}, 5).isEmpty());
    }
};

QTEST_MAIN(TstQcDocument)
#include "tst_qc_document.moc"
