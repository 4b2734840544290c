#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtGui/QAction>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QMenu>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QVBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QTreeView>

#include "app/document/document.h"
#include "app/widgets/budget_bar.h"
#include "app/widgets/problems_panel.h"
#include "core/diag/check_explanations.h"
#include "core/diag/diagnostic_ids.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using app::ProblemsModel;
using app::Selection;

namespace {

// tests/fixtures/app/problems_mix.smd under the source profile (auto):
//   7:1   note     skeleton.unreferenced-bone   → bone 4 ('d')
//   21-23, 27   warning weights.too-many-links (4; lines 25 and 26 repeat the vertices of
//                 21 and 23: one row per vertex)
//   37:1  error    weights.nan                   → vertex 12 (triangle 4, corner 0)
//   38:1  warning  weights.zero-sum              → vertex 13
//   38:1  note     weights.zero-link
//   39:25 error    weights.unknown-bone          → vertex 14
//   40:1  note     mesh.degenerate-triangle      → triangle 5
QString mixPath()
{
    return test::fixturesDir() + QStringLiteral("/app/problems_mix.smd");
}

int findRow(const QAbstractItemModel& m, const QString& id)
{
    for (int r = 0; r < m.rowCount(); ++r) {
        if (m.index(r, ProblemsModel::IdColumn).data().toString() == id) {
            return r;
        }
    }
    return -1;
}

} // namespace

class TstProblemsPanel : public QObject {
    Q_OBJECT

private slots:
    void modelRowsAndCounts()
    {
        app::Document doc;
        app::ProblemsPanel panel;
        QAbstractItemModelTester tester(panel.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setDocument(&doc);
        QCOMPARE(panel.model()->rowCount(), 0);
        QCOMPARE(panel.countsText(), QString());
        QSignalSpy changed(&doc, &app::Document::diagnosticsChanged);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.model()->rowCount(), 10);
        QCOMPARE(panel.proxy()->rowCount(), 10);
        QCOMPARE(panel.model()->count(core::Severity::Error), 2);
        QCOMPARE(panel.countsText(), QStringLiteral("2 errors · 5 warnings · 3 notes"));
        QCOMPARE(panel.countsLabel()->text(), panel.countsText());

        const int nan = findRow(*panel.model(), QStringLiteral("weights.nan"));
        QVERIFY(nan >= 0);
        auto cell = [&](int c) { return panel.model()->index(nan, c).data().toString(); };
        QCOMPARE(cell(ProblemsModel::SeverityColumn), QStringLiteral("error"));
        QCOMPARE(cell(ProblemsModel::MessageColumn),
                 QStringLiteral("weight on bone 'a' is nan; the vertex skins to NaN"));
        QCOMPARE(cell(ProblemsModel::LocationColumn), QStringLiteral("problems_mix.smd:37:1"));
        QCOMPARE(panel.model()->index(nan, 0).data(ProblemsModel::FamilyRole).toString(),
                 QStringLiteral("weights"));
        QVERIFY(panel.model()
                    ->index(nan, ProblemsModel::MessageColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Fix: Export again")));
    }

    void filtersChangeRowCounts()
    {
        app::Document doc;
        app::ProblemsPanel panel;
        QAbstractItemModelTester proxyTester(
            panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setDocument(&doc);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        auto* proxy = panel.proxy();

        panel.severityButton(core::Severity::Error)->click();
        QCOMPARE(proxy->rowCount(), 8);
        panel.severityButton(core::Severity::Warning)->click();
        QCOMPARE(proxy->rowCount(), 3);
        panel.severityButton(core::Severity::Note)->click();
        QCOMPARE(proxy->rowCount(), 0);
        // The header counts every problem, whatever is shown.
        QCOMPARE(panel.countsText(), QStringLiteral("2 errors · 5 warnings · 3 notes"));
        for (auto s : {core::Severity::Error, core::Severity::Warning, core::Severity::Note}) {
            panel.severityButton(s)->click();
        }
        QCOMPARE(proxy->rowCount(), 10);

        QComboBox* family = panel.familyBox();
        // "All families", then every family of the catalog (those added later too).
        QStringList families;
        for (const core::CatalogEntry& e : core::diagnosticCatalog()) {
            const QString f = QString::fromUtf8(e.id.data(), qsizetype(e.id.find('.')));
            if (!families.contains(f)) {
                families << f;
            }
        }
        QCOMPARE(family->count(), families.size() + 1);
        for (const QString& f : families) {
            QVERIFY2(family->findData(f) > 0, qPrintable(f));
        }
        family->setCurrentIndex(family->findData(QStringLiteral("weights")));
        QCOMPARE(proxy->rowCount(), 8);
        family->setCurrentIndex(family->findData(QStringLiteral("mesh")));
        QCOMPARE(proxy->rowCount(), 1);
        family->setCurrentIndex(family->findData(QStringLiteral("skeleton")));
        QCOMPARE(proxy->rowCount(), 1);
        family->setCurrentIndex(family->findData(QStringLiteral("cod")));
        QCOMPARE(proxy->rowCount(), 0);
        family->setCurrentIndex(0); // all
        QCOMPARE(proxy->rowCount(), 10);

        // Text matches id, message and location, case-insensitively.
        panel.searchBox()->setText(QStringLiteral("NaN"));
        QCOMPARE(proxy->rowCount(), 1);
        panel.searchBox()->setText(QStringLiteral("too-many"));
        QCOMPARE(proxy->rowCount(), 4);
        panel.searchBox()->setText(QStringLiteral(":38:"));
        QCOMPARE(proxy->rowCount(), 2);
        // Filters combine.
        panel.severityButton(core::Severity::Note)->click();
        QCOMPARE(proxy->rowCount(), 1);
        panel.searchBox()->clear();
        panel.severityButton(core::Severity::Note)->click();
        QCOMPARE(proxy->rowCount(), 10);
    }

    void sortOrder()
    {
        app::Document doc;
        app::ProblemsPanel panel;
        panel.setDocument(&doc);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        QTreeView* view = panel.view();
        auto* proxy = panel.proxy();
        auto text = [&](int row, int col) { return proxy->index(row, col).data().toString(); };

        // Default (issue 15): errors first, then warnings, then notes, each in file order.
        QCOMPARE(text(0, 0), QStringLiteral("error"));
        QCOMPARE(text(1, 0), QStringLiteral("error"));
        QCOMPARE(text(2, 0), QStringLiteral("warning"));
        QCOMPARE(text(7, 0), QStringLiteral("note"));
        QCOMPARE(text(0, ProblemsModel::IdColumn), QStringLiteral("weights.nan"));
        QCOMPARE(text(1, ProblemsModel::IdColumn), QStringLiteral("weights.unknown-bone"));

        // The other way round: notes first.
        view->sortByColumn(ProblemsModel::SeverityColumn, Qt::DescendingOrder);
        QCOMPARE(text(0, 0), QStringLiteral("note"));
        QCOMPARE(text(9, 0), QStringLiteral("error"));

        // File order (location ascending).
        view->sortByColumn(ProblemsModel::LocationColumn, Qt::AscendingOrder);
        QCOMPARE(text(0, ProblemsModel::IdColumn), QStringLiteral("skeleton.unreferenced-bone"));
        QCOMPARE(text(9, ProblemsModel::IdColumn), QStringLiteral("mesh.degenerate-triangle"));

        view->sortByColumn(ProblemsModel::IdColumn, Qt::AscendingOrder);
        QStringList ids;
        for (int r = 0; r < proxy->rowCount(); ++r) {
            ids << text(r, ProblemsModel::IdColumn);
        }
        QStringList sorted = ids;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(ids, sorted);
        QCOMPARE(ids.front(), QStringLiteral("mesh.degenerate-triangle"));

        // Location sorts numerically by line (39 before 40, 7 before 21).
        view->sortByColumn(ProblemsModel::LocationColumn, Qt::DescendingOrder);
        QCOMPARE(text(0, ProblemsModel::LocationColumn), QStringLiteral("problems_mix.smd:40:1"));
        QCOMPARE(text(1, ProblemsModel::LocationColumn), QStringLiteral("problems_mix.smd:39:25"));
        QCOMPARE(text(9, ProblemsModel::LocationColumn), QStringLiteral("problems_mix.smd:7:1"));
    }

    void activationSelectsElement()
    {
        app::Document doc;
        app::ProblemsPanel panel;
        panel.resize(900, 260);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setDocument(&doc);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        auto* proxy = panel.proxy();
        QSignalSpy activated(&panel, &app::ProblemsPanel::problemActivated);

        // Vertex 12 = corner 0 of triangle 4; the source line shows under the table.
        panel.activate(proxy->index(findRow(*proxy, QStringLiteral("weights.nan")), 0));
        QCOMPARE(doc.selection(), (Selection{Selection::Kind::Triangle, 4, 0}));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().at(2).toBool(), true);
        QCOMPARE(panel.sourceLabel()->text(),
                 QStringLiteral("problems_mix.smd:37:1  │ 3 0 -0.5 1.3 1 0 0 0 0 2 1 nan 3 1.0"));

        panel.activate(proxy->index(findRow(*proxy, QStringLiteral("weights.unknown-bone")), 0));
        QCOMPARE(doc.selection(), (Selection{Selection::Kind::Triangle, 4, 2}));
        panel.activate(
            proxy->index(findRow(*proxy, QStringLiteral("skeleton.unreferenced-bone")), 0));
        QCOMPARE(doc.selection(), (Selection{Selection::Kind::Joint, 4, -1}));
        QCOMPARE(doc.primaryModel()->skeleton.names[4], std::string("d"));

        // A double-click on a row does the same.
        const QModelIndex degenerate =
            proxy->index(findRow(*proxy, QStringLiteral("mesh.degenerate-triangle")),
                         ProblemsModel::MessageColumn);
        panel.view()->scrollTo(degenerate);
        const QRect rect = panel.view()->visualRect(degenerate);
        QVERIFY(rect.isValid());
        QSignalSpy clicked(panel.view(), &QAbstractItemView::doubleClicked);
        QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
        QTest::mouseDClick(panel.view()->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.last().at(0).value<QModelIndex>().row(), degenerate.row());
        QCOMPARE(doc.selection(), (Selection{Selection::Kind::Triangle, 5, -1}));
        QVERIFY(panel.sourceLabel()->text().endsWith(QStringLiteral("│ right.bmp")));

        // A problem without an element leaves the selection alone but still shows its line.
        const int zeroLink = findRow(*proxy, QStringLiteral("weights.zero-link"));
        const core::Diagnostic* d =
            panel.model()->diagnosticAt(proxy->mapToSource(proxy->index(zeroLink, 0)).row());
        QVERIFY(d);
        if (d->element.kind == core::ElementRef::Kind::None) {
            panel.activate(proxy->index(zeroLink, 0));
            QCOMPARE(activated.last().at(2).toBool(), false);
            QCOMPARE(doc.selection(), (Selection{Selection::Kind::Triangle, 5, -1}));
        }
    }

    void nextAndPreviousWrap()
    {
        app::Document doc;
        app::ProblemsPanel panel;
        panel.setDocument(&doc);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        // In file order: F8 from nothing goes to the first row (the unreferenced bone 'd').
        panel.view()->sortByColumn(ProblemsModel::LocationColumn, Qt::AscendingOrder);
        panel.next();
        QCOMPARE(panel.view()->currentIndex().row(), 0);
        QCOMPARE(doc.selection(), (Selection{Selection::Kind::Joint, 4, -1}));
        panel.next();
        QCOMPARE(panel.view()->currentIndex().row(), 1);
        // Shift+F8 twice wraps to the last row (the degenerate triangle).
        panel.previous();
        panel.previous();
        QCOMPARE(panel.view()->currentIndex().row(), 9);
        QCOMPARE(doc.selection(), (Selection{Selection::Kind::Triangle, 5, -1}));
        // Only shown rows are visited.
        panel.severityButton(core::Severity::Warning)->click();
        panel.severityButton(core::Severity::Note)->click();
        panel.next();
        QCOMPARE(panel.proxy()->rowCount(), 2);
        QCOMPARE(panel.view()->currentIndex().data().toString(), QStringLiteral("error"));
    }

    void reloadAndProfileUpdateProblems()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.smd"));
        QVERIFY(QFile::copy(mixPath(), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        app::Document doc;
        app::ProblemsPanel panel;
        QAbstractItemModelTester tester(panel.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(panel.model()->rowCount(), 10);
        QCOMPARE(doc.activeProfile(), core::Profile::Source);

        // Fix the NaN and the undeclared bone on disk, reload.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        bytes.replace("2 1 nan 3 1.0", "1 3 1.0").replace("1 9 1.0", "1 3 1.0");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        doc.reload();
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(panel.countsText(), QStringLiteral("0 errors · 5 warnings · 3 notes"));

        // goldsrc keeps one link per vertex and counts bones under vertices: different checks.
        QSignalSpy changed(&doc, &app::Document::diagnosticsChanged);
        doc.setProfile(core::Profile::GoldSrc);
        QVERIFY(doc.isChecking()); // in the background
        QTRY_COMPARE(changed.count(), 1);
        QVERIFY(!doc.isChecking());
        QCOMPARE(doc.activeProfile(), core::Profile::GoldSrc);
        QCOMPARE(doc.files().front().profile, core::Profile::GoldSrc);
        QCOMPARE(panel.model()->rowCount(), int(doc.files().front().diagnostics.size()));
        QCOMPARE(panel.countsText(), QStringLiteral("0 errors · 5 warnings · 1 note"));
        QCOMPARE(findRow(*panel.model(), QStringLiteral("weights.zero-link")), -1);
        const int unref = findRow(*panel.model(), QStringLiteral("skeleton.unreferenced-bone"));
        QCOMPARE(panel.model()->index(unref, 0).data().toString(), QStringLiteral("warning"));
        doc.setProfile(core::Profile::Auto);
        QTRY_COMPARE(panel.countsText(), QStringLiteral("0 errors · 5 warnings · 3 notes"));
    }

    // The window's vertex budget of a DMX body counts studiomdl's vertices, as info, check and
    // compare do (tests/fixtures/qc/dmx_weld: 8 of 9 corners; the meter said 7), for the file
    // and for its QC project.
    void dmxVertexBudget()
    {
        for (const QString& name : {QStringLiteral("weld.dmx"), QStringLiteral("weld.qc")}) {
            app::Document doc;
            doc.open({test::fixturesDir() + QStringLiteral("/qc/dmx_weld/") + name});
            QVERIFY(doc.waitForLoaded());
            QTRY_VERIFY(!doc.isChecking());
            const auto budget = doc.budget();
            const auto it = std::find_if(budget.begin(), budget.end(), [](const auto& b) {
                return b.name == std::string_view("vertices");
            });
            QVERIFY2(it != budget.end(), qPrintable(name));
            QCOMPARE(it->used, std::size_t(8));
        }
    }

    // The window's vertex budget is info's vertex count (tst_info_cli::verticesAreTheBudgets,
    // tst_open_compiled::verticesAreTheVvdsTheTrianglesUse): studiomdl's weld of the sample,
    // 126 (issue 30: info said 115, the bit-exact weld); for a compiled model the .vvd vertices
    // its triangles use, 5 of test::keptApartSourceSpec's 6 (the window welded them by value: 4).
    void vertexBudgetIsInfos_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("vertices");
        QTest::newRow("sample_ref.smd")
            << test::samplesDir() + QStringLiteral("/sample_ref.smd") << 126;
        QTest::newRow("apart.mdl") << QString() << 5;
    }
    void vertexBudgetIsInfos()
    {
        QFETCH(QString, file);
        QFETCH(int, vertices);
        QTemporaryDir dir;
        if (file.isEmpty()) {
            file = QString::fromStdString(test::writeSourceMdlFiles(
                dir.path().toStdString(), "apart", test::keptApartSourceSpec()));
            QVERIFY(!file.isEmpty());
        }
        app::Document doc;
        doc.open({file});
        QVERIFY(doc.waitForLoaded());
        QTRY_VERIFY(!doc.isChecking());
        const auto budget = doc.budget();
        const auto it = std::find_if(budget.begin(), budget.end(), [](const auto& b) {
            return b.name == std::string_view("vertices");
        });
        QVERIFY(it != budget.end());
        QCOMPARE(it->used, std::size_t(vertices));
    }

    void budgetAndLevels()
    {
        app::Document doc;
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        const auto budget = doc.budget();
        QCOMPARE(budget.size(), std::size_t(4));
        QCOMPARE(budget[0].name, std::string_view("bones"));
        QCOMPARE(budget[0].used, std::size_t(6));
        QCOMPARE(budget[0].limit, std::size_t(127));
        QCOMPARE(budget[1].used, std::size_t(3)); // left, right, top
        QCOMPARE(budget[1].limit, std::size_t(32));
        doc.setProfile(core::Profile::GoldSrc);
        QTRY_COMPARE(doc.budget()[1].limit, std::size_t(100));
        QCOMPARE(doc.budget()[2].limit, std::size_t(2048));

        using L = app::BudgetBar::Level;
        QCOMPARE(app::BudgetBar::levelFor(10, 0), L::NoLimit);
        QCOMPARE(app::BudgetBar::levelFor(74, 100), L::Ok);
        QCOMPARE(app::BudgetBar::levelFor(75, 100), L::Amber);
        QCOMPARE(app::BudgetBar::levelFor(100, 100), L::Amber);
        QCOMPARE(app::BudgetBar::levelFor(101, 100), L::Over);
        app::BudgetBar bar(QStringLiteral("bones"));
        bar.setMeter(131, 127, QStringLiteral("source"));
        QCOMPARE(bar.text(), QStringLiteral("bones 131/127"));
        QCOMPARE(bar.level(), L::Over);
        QVERIFY(bar.toolTip().contains(QStringLiteral("Over the limit by 4")));
        // Over a limit that is only a note for the profile (pathos vertices): amber, and said.
        QCOMPARE(app::BudgetBar::levelFor(101, 100, true), L::OverNote);
        QCOMPARE(app::BudgetBar::levelColor(L::OverNote), app::BudgetBar::levelColor(L::Amber));
        bar.setMeter(3484, 2047, QStringLiteral("pathos"), true);
        QCOMPARE(bar.level(), L::OverNote);
        QVERIFY(bar.toolTip().contains(QStringLiteral("Over by 1437: a note for pathos")));
        bar.setMeter(131, 127, QStringLiteral("source"));
        QCOMPARE(bar.level(), L::Over);
    }
    // F1 on a row (and the row's context menu) shows the id's explanation, the same text as
    // `rigscope-cli check --explain`; a window-wide F1 shortcut (the cheat-sheet) does not fire.
    void explainsTheCurrentRow()
    {
        app::Document doc;
        QWidget window;
        auto* panel = new app::ProblemsPanel(&window);
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(panel);
        QAction cheatSheet(&window);
        cheatSheet.setShortcut(QKeySequence(Qt::Key_F1));
        window.addAction(&cheatSheet);
        QSignalSpy cheatSheetSpy(&cheatSheet, &QAction::triggered);
        panel->setDocument(&doc);
        doc.open({mixPath()});
        QVERIFY(doc.waitForLoaded());
        window.resize(900, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QCOMPARE(panel->explanationDialog(), nullptr);

        const int nan = findRow(*panel->proxy(), QStringLiteral("weights.nan"));
        QVERIFY(nan >= 0);
        panel->view()->setFocus();
        panel->view()->setCurrentIndex(panel->proxy()->index(nan, 0));
        QTest::keyClick(panel->view(), Qt::Key_F1);
        QCOMPARE(cheatSheetSpy.count(), 0);
        QDialog* dialog = panel->explanationDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->windowTitle().startsWith(QStringLiteral("weights.nan")));
        const core::CheckExplanation* x = core::findExplanation("weights.nan");
        QVERIFY(x);
        const QString text = panel->explanationView()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("weights.nan")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("weight on bone 'a' is nan"))); // the problem itself
        QVERIFY(text.contains(QString::fromUtf8(x->summary.data(), qsizetype(x->summary.size()))));
        QVERIFY(text.contains(QStringLiteral("Why the compiler cares.")));
        QVERIFY(text.contains(QString::fromUtf8(x->fix.data(), qsizetype(x->fix.size()))));
        QVERIFY(text.contains(QStringLiteral("docs/checks.md#weights.nan")));
        QVERIFY(
            dialog->grab().save(test::outputDir() + QStringLiteral("/problem_explanation.png")));

        // Without a current row F1 is left to the window.
        dialog->close();
        panel->view()->setCurrentIndex({});
        QTest::keyClick(panel->view(), Qt::Key_F1);
        QCOMPARE(cheatSheetSpy.count(), 1);
        QVERIFY(!dialog->isVisible());

        // Context menu of another row: "Explain mesh.degenerate-triangle".
        const int degenerate = findRow(*panel->proxy(), QStringLiteral("mesh.degenerate-triangle"));
        QVERIFY(degenerate >= 0);
        std::unique_ptr<QMenu> menu(panel->contextMenu(panel->proxy()->index(degenerate, 2)));
        auto* explain = menu->findChild<QAction*>(QStringLiteral("explainProblem"));
        QVERIFY(explain);
        QCOMPARE(explain->text(), QStringLiteral("Explain mesh.degenerate-triangle"));
        explain->trigger();
        QVERIFY(dialog->isVisible());
        QVERIFY(panel->explanationView()->toPlainText().contains(
            QStringLiteral("a triangle has zero area")));
    }
};

QTEST_MAIN(TstProblemsPanel)
#include "tst_problems_panel.moc"
