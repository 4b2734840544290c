// rigscope-test: LABELS slow TIMEOUT 600
// Issue 15, the window: nothing silent carries over between launches; Problems lists errors
// first with 8 rows at least; the status message never covers the status widgets; the H sheet
// closes on Esc and a click; binary garbage and missing files; deep outlines; joint spheres in
// screen pixels; frame-all over a whole animation and follow root; the Settings dialog; camera
// modes and zoom to cursor.
#include <QtCore/QFile>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QSlider>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QTreeView>
#include <Qt3DRender/QCamera>

#include "app/document/frame_names.h"
#include "app/widgets/flex_panel.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/main_window.h"
#include "app/widgets/materials_page.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/settings_dialog.h"
#include "app/widgets/shortcut_sheet.h"
#include "app/widgets/timeline_panel.h"
#include "app/widgets/viewport_widget.h"
#include "app/widgets/window_grab.h"
#include "render/convert.h"
#include "render/render_capture.h"
#include "render/render_setup.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

QString sample(const char* name)
{
    return test::samplesDir() + QLatin1Char('/') + QLatin1String(name);
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A chain of `depth` + 1 bones (root, b1 … bN), one triangle on the last bone.
QByteArray chainSmd(int depth)
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\n";
    for (int i = 1; i <= depth; ++i) {
        s += QByteArray::number(i) + " \"chain_bone_" + QByteArray::number(i) + "\" " +
             QByteArray::number(i - 1) + "\n";
    }
    s += "end\nskeleton\ntime 0\n0 0 0 0 0 0 0\n";
    for (int i = 1; i <= depth; ++i) {
        s += QByteArray::number(i) + " 0 0 1 0 0 0\n";
    }
    s += "end\ntriangles\nmat\n";
    const QByteArray last = QByteArray::number(depth);
    s += last + " 0 0 0 0 0 1 0 0\n" + last + " 1 0 0 0 0 1 1 0\n" + last +
         " 0 1 0 0 0 1 0 1\nend\n";
    return s;
}

// A 10-unit box-ish strip on a root bone, and an animation that carries the root 1000 units
// along +Y over 11 frames (root motion).
QByteArray walkerRef()
{
    return "version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\ntime 0\n"
           "0 0 0 0 0 0 0\n1 0 0 10 0 0 0\nend\ntriangles\nmat\n"
           "0 -5 -5 0 0 0 1 0 0\n0 5 -5 0 0 0 1 1 0\n0 5 5 10 0 0 1 1 1\n"
           "mat\n"
           "0 -5 -5 0 0 0 1 0 0\n0 5 5 10 0 0 1 1 1\n0 -5 5 10 0 0 1 0 1\nend\n";
}

QByteArray walkerAnim()
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\n";
    for (int f = 0; f <= 10; ++f) {
        s += "time " + QByteArray::number(f) + "\n0 0 " + QByteArray::number(f * 100) +
             " 0 0 0 0\n1 0 0 10 0 0 0\n";
    }
    return s + "end\n";
}

// Screen position of a world point in the viewport (pixels, y down).
QPointF project(render::Viewport* vp, const QVector3D& p)
{
    auto* cam = vp->camera();
    const QVector3D w = p.project(cam->viewMatrix(), cam->projectionMatrix(),
                                  QRect(0, 0, vp->width(), vp->height()));
    return {w.x(), double(vp->height()) - w.y()};
}

bool activate(app::MainWindow& w)
{
    w.show();
    w.raise();
    w.activateWindow();
    return QTest::qWaitForWindowExposed(&w) && QTest::qWaitForWindowActive(&w);
}

} // namespace

class TstWindowUx : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    // Issue 15.3: the profile, the weight views and the look-changing toggles start fresh in
    // the next window on the same settings; overlays persist and show in the toolbar.
    void noSilentStateAcrossLaunches()
    {
        const QString ini = test::outputDir() + QStringLiteral("/tst_ux_launches.ini");
        QSettings(ini, QSettings::IniFormat).clear();
        render::ViewportOptions o;
        o.msaa = false;
        {
            QSettings settings(ini, QSettings::IniFormat);
            app::MainWindow w(settings, o);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.openFiles({sample("sample_ref.smd")});
            QVERIFY(w.document()->waitForLoaded());
            w.setProfile(core::Profile::GoldSrc);
            w.cycleHeatMap();
            w.cycleHeatMap();
            w.setCompiledWeights(true);
            for (QAction* a : w.findChildren<QAction*>()) {
                if (a->text() == QStringLiteral("Wire Only") ||
                    a->text() == QStringLiteral("Flat Shading")) {
                    a->setChecked(true);
                }
                if (a->text() == QStringLiteral("Grid")) {
                    a->setChecked(false); // an overlay: persists
                }
            }
            QCOMPARE(w.viewportWidget()->viewport()->display().heatMap,
                     render::HeatMap::InfluenceCount);
            w.close();
        }
        QSettings settings(ini, QSettings::IniFormat);
        app::MainWindow w(settings, o);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({sample("sample_ref.smd")});
        QVERIFY(w.document()->waitForLoaded());
        const render::DisplayFlags& f = w.viewportWidget()->viewport()->display();
        QCOMPARE(f.heatMap, render::HeatMap::Off);
        QVERIFY(!f.compiledWeights);
        QVERIFY(!f.wireOnly);
        QVERIFY(!f.flatShading);
        QVERIFY(!f.grid); // persisted, and visible at a glance: the toolbar's Grid is off
        QCOMPARE(w.document()->requestedProfile(), core::Profile::Auto);
        QCOMPARE(w.profileBox()->currentText(), QStringLiteral("auto"));
        QVERIFY(!w.heatLegend()->isVisible());
        bool gridOnToolbar = false;
        for (QToolBar* tb : w.findChildren<QToolBar*>()) {
            for (QAction* a : tb->actions()) {
                if (a->text() == QStringLiteral("Grid")) {
                    gridOnToolbar = true;
                    QVERIFY(!a->isChecked());
                }
            }
        }
        QVERIFY(gridOnToolbar);
        QTRY_VERIFY(w.findChild<QLabel*>(QStringLiteral("profileLabel"))
                        ->text()
                        .contains(QStringLiteral("(auto)")));
    }

    // Issue 15.5: errors first, at least 8 rows.
    void problemsErrorsFirstEightRows()
    {
        test::TestWindow win(QStringLiteral("tst_ux_problems.ini"), QSize(1280, 800));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        win.w.openFiles({test::fixturesDir() + QStringLiteral("/app/problems_mix.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        QCoreApplication::processEvents();
        app::ProblemsPanel* p = win.w.problems();
        // 11 rows since per-vertex checks report once per vertex (issue 27.4): more than the 8
        // the table must show.
        QTRY_VERIFY(p->proxy()->rowCount() >= 10);
        // Sorted: every error before every warning before every note.
        int last = 2;
        for (int r = 0; r < p->proxy()->rowCount(); ++r) {
            const int s = p->proxy()->index(r, 0).data(app::ProblemsModel::SeverityRole).toInt();
            QVERIFY2(s <= last, qPrintable(QString::number(r)));
            last = s;
        }
        QCOMPARE(p->proxy()->index(0, 0).data(app::ProblemsModel::SeverityRole).toInt(),
                 int(core::Severity::Error));
        QVERIFY2(p->visibleRowCount() >= 8, qPrintable(QString::number(p->visibleRowCount())));
        app::grabWindow(win.w).save(test::outputDir() +
                                    QStringLiteral("/TstWindowUx_problems.png"));
    }

    // Issue 15.5: a long message sits left of the status widgets, never over them.
    void statusMessageNeverOverlaps()
    {
        test::TestWindow win(QStringLiteral("tst_ux_status.ini"), QSize(1000, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        win.w.openFiles({sample("sample_ref.smd"), sample("sample_anim.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        win.w.setHeatMap(render::HeatMap::InfluenceCount); // the widest legend
        win.w.showMessage(QString(QStringLiteral("a very long message ")).repeated(30), 60000);
        QCoreApplication::processEvents();
        QStatusBar* bar = win.w.statusBar();
        QLabel* msg = win.w.messageLabel();
        QVERIFY(msg->isVisible());
        QVERIFY(!win.w.statusSummary()->isVisible());
        std::vector<QWidget*> shown;
        for (QWidget* c : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (c->isVisible() && c != static_cast<QWidget*>(msg) && c->width() > 0) {
                shown.push_back(c);
            }
        }
        QVERIFY(shown.size() >= 3);
        for (QWidget* c : shown) {
            QVERIFY2(!msg->geometry().intersects(c->geometry()), c->metaObject()->className());
            QVERIFY2(c->geometry().right() <= bar->width(), qPrintable(c->objectName()));
        }
        app::grabWindow(win.w).save(test::outputDir() + QStringLiteral("/TstWindowUx_status.png"));
    }

    // Issue 15.5: the H sheet closes on Esc (which does nothing else) and on a click anywhere,
    // the native viewport included.
    void sheetClosesOnEscAndClick()
    {
        test::TestWindow win(QStringLiteral("tst_ux_sheet.ini"), QSize(1100, 700));
        QVERIFY(activate(win.w));
        win.w.openFiles({sample("sample_ref.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        win.w.document()->setSelection({app::Selection::Kind::Joint, 1, -1});
        auto* vp = win.w.viewportWidget()->viewport();
        win.w.toggleShortcutSheet();
        QTRY_VERIFY(win.w.shortcutSheet()->isVisible());
        QTest::keyClick(win.w.viewportWidget()->container(), Qt::Key_Escape);
        QTRY_VERIFY(!win.w.shortcutSheet()->isVisible());
        QCOMPARE(win.w.document()->selection().kind, app::Selection::Kind::Joint); // kept
        win.w.toggleShortcutSheet();
        QTRY_VERIFY(win.w.shortcutSheet()->isVisible());
        QTest::mouseClick(vp, Qt::LeftButton, {}, QPoint(vp->width() / 2, vp->height() / 2));
        QTRY_VERIFY(!win.w.shortcutSheet()->isVisible());
        win.w.toggleShortcutSheet();
        QTRY_VERIFY(win.w.shortcutSheet()->isVisible());
        QTest::mouseClick(win.w.problems()->view()->viewport(), Qt::LeftButton);
        QTRY_VERIFY(!win.w.shortcutSheet()->isVisible());
    }

    // Issue 15.5: bytes that are no model never print as mojibake, and the failed load leaves
    // no legend, frame readout or fps box describing nothing.
    void binaryGarbageAndNoStaleStatus()
    {
        test::TestWindow win(QStringLiteral("tst_ux_garbage.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        win.w.setHeatMap(render::HeatMap::InfluenceCount);
        QTemporaryDir dir;
        QByteArray junk;
        for (int i = 0; i < 4096; ++i) {
            junk.append(char((i * 73 + 11) % 256));
        }
        const QString path = dir.filePath(QStringLiteral("garbage.smd"));
        QVERIFY(writeFile(path, "\x89PNG\r\n\x1a\n" + junk));
        QSignalSpy failed(win.w.document(), &app::Document::loadFailed);
        win.w.openFiles({path});
        QTRY_COMPARE(failed.count(), 1);
        QCoreApplication::processEvents();
        auto clean = [](const QString& s) {
            for (const QChar c : s) {
                const char16_t v = c.unicode();
                // Control characters, U+FFFD, and Latin-1 letters made of single bytes
                // ("‰PNG", "ÿØÿà"); the window's own '·' and '×' are fine.
                if (v == 0xFFFD || (v < 0x20 && v != u'\n' && v != u'\t') ||
                    (v >= 0x7F && v < 0x100 && v != 0xB7 && v != 0xD7)) {
                    return false;
                }
            }
            return true;
        };
        QVERIFY2(clean(win.w.statusSummary()->text()), qPrintable(win.w.statusSummary()->text()));
        QVERIFY2(
            win.w.statusSummary()->text().contains(QStringLiteral("not a model file: binary data")),
            qPrintable(win.w.statusSummary()->text()));
        app::ProblemsPanel* p = win.w.problems();
        QVERIFY(p->model()->rowCount() > 0);
        for (int r = 0; r < p->model()->rowCount(); ++r) {
            const QString m =
                p->model()->index(r, app::ProblemsModel::MessageColumn).data().toString();
            QVERIFY2(clean(m), qPrintable(m));
        }
        const QString log = win.w.findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(clean(log), qPrintable(log));
        QVERIFY(!win.w.heatLegend()->isVisible());
        for (QLabel* l : win.w.statusBar()->findChildren<QLabel*>()) {
            if (l->isVisible()) {
                QVERIFY2(!l->text().contains(QStringLiteral("fps")), qPrintable(l->text()));
                QVERIFY2(!l->text().contains(QStringLiteral("Influences")), qPrintable(l->text()));
            }
        }
        app::grabWindow(win.w).save(test::outputDir() + QStringLiteral("/TstWindowUx_garbage.png"));
    }

    // One truth: when the checks settle the profile (auto -> afterburner by `$flags 2048`), the
    // status bar's summary follows it: a GoldSrc-family model's textures are image files, never
    // "not looked up" as Source materials are before the profile is known (Afterburner's
    // Bicycle.qc said "1 material (not looked up)" while its PNG was drawn).
    void statusSummaryFollowsTheCheckedProfile()
    {
        test::TestWindow win(QStringLiteral("tst_ux_profile_status.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("bike_ref.smd")),
                          "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                          "0 0 0 0 0 0 0\nend\ntriangles\nbike.png\n"
                          "0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("bike.png")), QByteArray()));
        const QString qc = dir.filePath(QStringLiteral("bike.qc"));
        QVERIFY(writeFile(qc, "$modelname \"bike.mdl\"\n$cdtexture \".\"\n$flags 2048\n"
                              "$body studio \"bike_ref\"\n$sequence idle \"bike_ref\"\n"));
        win.w.openFiles({qc});
        QVERIFY(win.w.document()->waitForLoaded());
        QTRY_VERIFY(!win.w.document()->isChecking());
        QCoreApplication::processEvents();
        QCOMPARE(win.w.document()->activeProfile(), core::Profile::Afterburner);
        const QString summary = win.w.statusSummary()->text();
        QVERIFY2(summary.contains(QStringLiteral("1 material")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("not looked up")), qPrintable(summary));
    }

    // Issue 27: a compiled file the window does not open on its own (a GoldSrc sequence group:
    // its NAME.mdl reads it) and a texture are said to be what they are (with an id F1
    // explains), and the reasons of two failed files are joined in words, not by a "\\x0a".
    // (Compiled models themselves open since issue 29: tst_open_compiled.)
    void compiledFilesSaidWhatTheyAre()
    {
        test::TestWindow win(QStringLiteral("tst_ux_compiled.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        QTemporaryDir dir;
        QByteArray mdl("IDSQ");
        mdl += QByteArray("\x0a\0\0\0", 4) + QByteArray(400, '\0');
        QByteArray vtf("VTF");
        vtf += QByteArray("\0\x07\0\0\0\x05\0\0\0", 9) + QByteArray(200, '\0');
        const QString mdlPath = dir.filePath(QStringLiteral("hero01.mdl"));
        const QString vtfPath = dir.filePath(QStringLiteral("skin.vtf"));
        QVERIFY(writeFile(mdlPath, mdl));
        QVERIFY(writeFile(vtfPath, vtf));
        QSignalSpy failed(win.w.document(), &app::Document::loadFailed);
        win.w.openFiles({mdlPath, vtfPath});
        QTRY_COMPARE(failed.count(), 1);
        QCoreApplication::processEvents();
        const QString summary = win.w.statusSummary()->text();
        QVERIFY2(!summary.contains(QStringLiteral("\\x0a")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("hero01.mdl: the sequence group")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("open the model it belongs to")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("skin.vtf: a texture")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("binary data")), qPrintable(summary));
        const QString log = win.w.findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(!log.contains(QStringLiteral("\\x0a")), qPrintable(log));
        app::ProblemsPanel* p = win.w.problems();
        QTRY_COMPARE(p->model()->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(p->model()->index(r, app::ProblemsModel::IdColumn).data().toString(),
                     QStringLiteral("syntax.compiled-file"));
        }
        p->explain(p->proxy()->index(0, 0));
        const QString text = p->explanationView()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("compiled")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("`version`")), qPrintable(text));
        app::grabWindow(win.w).save(test::outputDir() +
                                    QStringLiteral("/TstWindowUx_compiled.png"));
    }

    // Issue 15.5: a missing file opens the Log and lists the I/O error in Problems.
    void missingFileShowsIoError()
    {
        test::TestWindow win(QStringLiteral("tst_ux_missing.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        QSignalSpy failed(win.w.document(), &app::Document::loadFailed);
        win.w.openFiles({QStringLiteral("/nonexistent/folder/missing.smd")});
        QTRY_COMPARE(failed.count(), 1);
        QCoreApplication::processEvents();
        auto* log = win.w.findChild<QDockWidget*>(QStringLiteral("log"));
        QVERIFY(log->isVisible() || !log->visibleRegion().isEmpty() ||
                win.w.tabifiedDockWidgets(log).size() > 0);
        QVERIFY(log->toggleViewAction()->isChecked());
        const QString text = win.w.findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("No such file")), qPrintable(text));
        app::ProblemsPanel* p = win.w.problems();
        QTRY_COMPARE(p->model()->rowCount(), 1);
        QCOMPARE(p->model()->index(0, app::ProblemsModel::IdColumn).data().toString(),
                 QStringLiteral("io.unreadable"));
        QVERIFY(p->model()
                    ->index(0, app::ProblemsModel::MessageColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("No such file")));
        QCOMPARE(p->countsText(), QStringLiteral("1 error · 0 warnings · 0 notes"));
    }

    // Issue 15.5: the deepest name of a 40-level chain keeps room in its column; its tooltip has
    // the full path.
    void deepOutlineNamesReadable()
    {
        test::TestWindow win(QStringLiteral("tst_ux_outline.ini"), QSize(1280, 800));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chain.smd"));
        QVERIFY(writeFile(path, chainSmd(40)));
        win.w.openFiles({path});
        QVERIFY(win.w.document()->waitForLoaded());
        QCoreApplication::processEvents();
        QTreeView* view = win.w.outline()->findChild<QTreeView*>();
        view->expandAll();
        QCoreApplication::processEvents();
        QModelIndex deepest;
        for (QModelIndex i = view->model()->index(0, 0); i.isValid(); i = view->indexBelow(i)) {
            if (i.data().toString() == QStringLiteral("chain_bone_40")) {
                deepest = i;
            }
        }
        QVERIFY(deepest.isValid());
        view->scrollTo(deepest);
        const QRect r = view->visualRect(deepest);
        const int nameWidth =
            view->fontMetrics().horizontalAdvance(QStringLiteral("chain_bone_40"));
        QVERIFY2(r.width() >= std::min(nameWidth, 60),
                 qPrintable(QStringLiteral("%1 px for the name").arg(r.width())));
        const QString tip = deepest.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("root › chain_bone_1 › chain_bone_2")),
                 qPrintable(tip));
        QVERIFY(tip.endsWith(QStringLiteral("chain_bone_39 › chain_bone_40")));
    }

    // Issue 15.4: joint spheres are kJointPixels on screen however far the camera is.
    void jointSpheresInScreenPixels()
    {
        test::TestWindow win(QStringLiteral("tst_ux_joints.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        win.w.openFiles({sample("sample_ref.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        auto* vp = win.w.viewportWidget()->viewport();
        auto* scene = vp->scene();
        QVERIFY(scene);
        for (float factor : {0.05f, 1.0f, 8.0f}) {
            render::OrbitCamera c = vp->camera3d();
            c.distance *= factor;
            vp->setCamera3d(c);
            const QVector3D p = render::toQt(core::Vec3(scene->jointWorld()[1].translation()));
            const float r = scene->jointRadius(1);
            const QPointF a = project(vp, p);
            const QPointF b = project(vp, p + c.up() * r);
            const double px = std::hypot(a.x() - b.x(), a.y() - b.y());
            QVERIFY2(std::abs(px - double(render::kJointPixels)) < 0.5,
                     qPrintable(QStringLiteral("%1 px at distance ×%2").arg(px).arg(factor)));
        }
    }

    // Issue 15.4: a framed triangle is not hidden: the selection outline shows, and no joint
    // sphere covers more than a few pixels of it.
    void framedTriangleVisible()
    {
        test::TestWindow win(QStringLiteral("tst_ux_frame_tri.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        win.w.openFiles({sample("sample_ref.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        auto* vp = win.w.viewportWidget()->viewport();
        const float before = vp->camera3d().distance;
        win.w.document()->setSelection({app::Selection::Kind::Triangle, 10, 0});
        vp->frameSelection();
        QVERIFY(vp->camera3d().distance < before);
        QCoreApplication::processEvents();
        // Its corners are on screen, and it spans a fair part of the view.
        const core::Mesh& mesh = vp->scene()->model().mesh;
        double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
        for (int k = 0; k < 3; ++k) {
            const QPointF s = project(
                vp, render::toQt(
                        vp->scene()->pointPositions()[mesh.cornerPoints[30 + std::size_t(k)]]));
            QVERIFY(s.x() >= 0 && s.x() <= vp->width() && s.y() >= 0 && s.y() <= vp->height());
            x0 = std::min(x0, s.x());
            x1 = std::max(x1, s.x());
            y0 = std::min(y0, s.y());
            y1 = std::max(y1, s.y());
        }
        QVERIFY2(std::max(x1 - x0, y1 - y0) > std::min(vp->width(), vp->height()) / 8,
                 qPrintable(QStringLiteral("%1 x %2").arg(x1 - x0).arg(y1 - y0)));
        const QImage img = render::captureViewport(*vp, false);
        QVERIFY(!img.isNull());
        img.save(test::outputDir() + QStringLiteral("/TstWindowUx_framed_triangle.png"));
        // Its orange outline shows (the material is not tinted the same orange any more).
        int outline = 0;
        for (int y = 0; y < img.height(); ++y) {
            for (int x = 0; x < img.width(); ++x) {
                const QRgb p = img.pixel(x, y);
                outline += qRed(p) > 230 && qGreen(p) > 130 && qGreen(p) < 185 && qBlue(p) < 70;
            }
        }
        QVERIFY2(outline > 40, qPrintable(QString::number(outline)));
        app::grabWindow(win.w).save(test::outputDir() +
                                    QStringLiteral("/TstWindowUx_framed_triangle_window.png"));
    }

    // Issue 15.4: frame-all covers every frame of an animation that walks away; follow root
    // keeps the root where it was on screen.
    void frameAllAndFollowRoot()
    {
        test::TestWindow win(QStringLiteral("tst_ux_walk.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        QTemporaryDir dir;
        const QString ref = dir.filePath(QStringLiteral("walker.smd"));
        const QString anim = dir.filePath(QStringLiteral("walker_anim.smd"));
        QVERIFY(writeFile(ref, walkerRef()));
        QVERIFY(writeFile(anim, walkerAnim()));
        app::Document* doc = win.w.document();
        win.w.openFiles({ref, anim});
        QVERIFY(doc->waitForLoaded());
        QCOMPARE(doc->animations().size(), std::size_t(1));
        doc->setCurrentAnimation(0);
        const core::Bounds b = doc->animationBounds();
        QVERIFY(b.valid);
        QVERIFY(b.max.y() >= 1000.0f && b.min.y() <= 0.0f);
        auto* vp = win.w.viewportWidget()->viewport();
        vp->frameAll();
        for (float y : {0.0f, 500.0f, 1000.0f}) {
            const QPointF s = project(vp, QVector3D(0, y, 0));
            QVERIFY2(s.x() >= 0 && s.x() <= vp->width() && s.y() >= 0 && s.y() <= vp->height(),
                     qPrintable(QStringLiteral("root at y=%1 off screen").arg(y)));
        }

        // Follow root: the root stays put on screen while the animation carries it.
        win.w.followRootAction()->setChecked(true);
        QVERIFY(vp->followRoot());
        const QVector3D t0 = vp->camera3d().target;
        doc->setCurrentFrame(10);
        QCoreApplication::processEvents();
        const QVector3D t1 = vp->camera3d().target;
        QVERIFY2(std::abs((t1 - t0).y() - 1000.0f) < 0.5f,
                 qPrintable(QString::number(double((t1 - t0).y()))));
        win.w.followRootAction()->setChecked(false);
        doc->setCurrentFrame(0);
        QCOMPARE(vp->camera3d().target, t1);
    }

    // Issue 15.6: Settings pages, Apply, Restore defaults; a feature adds its own page.
    void settingsDialog()
    {
        test::TestWindow win(QStringLiteral("tst_ux_settings.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        app::SettingsDialog* d = win.w.openSettings();
        QVERIFY(d->isVisible());
        QStringList titles;
        for (int i = 0; i < d->pageList()->count(); ++i) {
            titles << d->pageList()->item(i)->text();
        }
        QCOMPARE(titles, QStringList({QStringLiteral("Mouse"), QStringLiteral("Colours"),
                                      QStringLiteral("Units"), QStringLiteral("Materials")}));
        auto* mouse = static_cast<app::MousePage*>(d->page(QStringLiteral("Mouse")));
        mouse->schemeBox()->setCurrentIndex(int(render::MouseScheme::Blender));
        mouse->invertYBox()->setChecked(true);
        mouse->sensitivityBox()->setValue(2.5);
        auto* units = static_cast<app::UnitsPage*>(d->page(QStringLiteral("Units")));
        units->unitsBox()->setCurrentIndex(int(app::Units::Metres));
        d->apply();
        auto* vp = win.w.viewportWidget()->viewport();
        QCOMPARE(vp->mouseOptions().scheme, render::MouseScheme::Blender);
        QVERIFY(vp->mouseOptions().invertY);
        QCOMPARE(vp->mouseOptions().sensitivity, 2.5f);
        QCOMPARE(win.settings.value(QStringLiteral("Mouse/scheme")).toString(),
                 QStringLiteral("blender"));
        win.w.openFiles({sample("sample_ref.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        QTRY_VERIFY2(win.w.statusSummary()->text().contains(QStringLiteral(" m")),
                     qPrintable(win.w.statusSummary()->text()));
        // Issue 27: Add… starts beside the open model.
        QVERIFY(win.w.openSettings() == d);
        auto* materials = static_cast<app::MaterialsPage*>(d->page(QStringLiteral("Materials")));
        QCOMPARE(materials->startFolder(), QFileInfo(sample("sample_ref.smd")).absolutePath());

        // Restore defaults puts the widgets back; Apply stores them.
        d->restoreDefaults();
        QCOMPARE(mouse->schemeBox()->currentIndex(), int(render::MouseScheme::Hlam));
        QVERIFY(!mouse->invertYBox()->isChecked());
        QCOMPARE(vp->mouseOptions().scheme, render::MouseScheme::Blender); // not applied yet
        d->apply();
        QCOMPARE(vp->mouseOptions(), render::MouseOptions{});

        // A page from another feature, added as the Materials page of issue 18 is.
        struct ExtraPage : app::SettingsPage {
            QString title() const override { return QStringLiteral("Extra"); }
            void load(const QSettings& s) override
            {
                value = s.value(QStringLiteral("Extra/value")).toString();
            }
            void save(QSettings& s) const override
            {
                s.setValue(QStringLiteral("Extra/value"), QStringLiteral("/x"));
            }
            void restoreDefaults() override {}
            QString value;
        };
        d->addPage(new ExtraPage);
        QCOMPARE(d->pageList()->count(), 5);
        d->showPage(QStringLiteral("Extra"));
        QCOMPARE(d->pageList()->currentRow(), 4);
        d->apply();
        QCOMPARE(win.settings.value(QStringLiteral("Extra/value")).toString(),
                 QStringLiteral("/x"));
        d->grab().save(test::outputDir() + QStringLiteral("/TstWindowUx_settings.png"));
        d->close();
    }

    // Issue 15.6: Ctrl+U / Ctrl+I cycle the camera modes (menu checks follow); free-look turns
    // around the eye; the wheel zooms toward the cursor.
    void cameraModesAndZoomToCursor()
    {
        test::TestWindow win(QStringLiteral("tst_ux_camera.ini"), QSize(1100, 700));
        QVERIFY(activate(win.w));
        win.w.openFiles({sample("sample_ref.smd")});
        QVERIFY(win.w.document()->waitForLoaded());
        auto* vp = win.w.viewportWidget()->viewport();
        QCOMPARE(vp->cameraMode(), render::CameraMode::ArcBall);
        QTest::keyClick(vp, Qt::Key_U, Qt::ControlModifier);
        QTRY_COMPARE(vp->cameraMode(), render::CameraMode::FreeLook);
        QVERIFY(win.w.findChild<QAction*>(QStringLiteral("cameraMode1"))->isChecked());
        QTest::keyClick(vp, Qt::Key_U, Qt::ControlModifier);
        QTRY_COMPARE(vp->cameraMode(), render::CameraMode::FirstPerson);
        QTest::keyClick(vp, Qt::Key_I, Qt::ControlModifier);
        QTRY_COMPARE(vp->cameraMode(), render::CameraMode::FreeLook);

        // Free-look: a drag turns the view, the eye stays.
        const QVector3D eye = vp->camera3d().eye();
        const QPoint c(vp->width() / 2, vp->height() / 2);
        QTest::mousePress(vp, Qt::LeftButton, {}, c);
        QTest::mouseMove(vp, c + QPoint(10, 0));
        QTest::mouseMove(vp, c + QPoint(40, 0));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, c + QPoint(40, 0));
        QVERIFY((vp->camera3d().eye() - eye).length() < 1e-3f * vp->camera3d().distance);
        vp->setCameraMode(render::CameraMode::ArcBall);

        // Zoom to cursor: the point under the cursor stays under it.
        vp->frameAll();
        const QPoint corner(vp->width() / 4, vp->height() / 4);
        const render::OrbitCamera before = vp->camera3d();
        const float wpp = 2.0f * before.orthoHalfHeight() / float(vp->height());
        const QVector3D under =
            before.target + (before.right() * float(corner.x() - vp->width() / 2) -
                             before.up() * float(corner.y() - vp->height() / 2)) *
                                wpp;
        vp->zoomAt(corner, 3.0f);
        const QPointF s = project(vp, under);
        QVERIFY2(std::abs(s.x() - corner.x()) < 2.0 && std::abs(s.y() - corner.y()) < 2.0,
                 qPrintable(QStringLiteral("%1,%2").arg(s.x()).arg(s.y())));
        QVERIFY(vp->camera3d().distance < before.distance);
    }

    // Issue 15.6: one document per tab; Ctrl+Tab, Ctrl+W, Ctrl+Shift+T, middle-click,
    // Ctrl+Shift+W.
    void documentTabs()
    {
        test::TestWindow win(QStringLiteral("tst_ux_tabs.ini"), QSize(1280, 800));
        QVERIFY(activate(win.w));
        QTemporaryDir dir;
        const QString ref = dir.filePath(QStringLiteral("walker.smd"));
        const QString anim = dir.filePath(QStringLiteral("walker_anim.smd"));
        QVERIFY(writeFile(ref, walkerRef()));
        QVERIFY(writeFile(anim, walkerAnim()));
        app::MainWindow& w = win.w;
        w.openInNewTab({sample("sample_ref.smd"), sample("sample_anim.smd")});
        app::Document* first = w.document();
        QVERIFY(first->waitForLoaded());
        QCOMPARE(w.tabCount(), 1); // the empty tab took the files
        QVERIFY(!w.tabBar()->isVisible());
        first->setCurrentAnimation(0);
        first->setCurrentFrame(3);

        w.openInNewTab({ref, anim});
        app::Document* second = w.document();
        QVERIFY(second != first);
        QVERIFY(second->waitForLoaded());
        QCOMPARE(w.tabCount(), 2);
        QTRY_VERIFY(w.tabBar()->isVisible());
        QCOMPARE(w.tabBar()->tabText(1), QStringLiteral("walker.smd"));
        auto* vp = w.viewportWidget()->viewport();
        QCOMPARE(vp->scene()->sharedModel(), second->primaryModel());
        app::grabWindow(w).save(test::outputDir() + QStringLiteral("/TstWindowUx_two_tabs.png"));

        // Ctrl+Tab: back to the first, its model, animation and frame.
        const render::OrbitCamera firstCamera = vp->camera3d();
        QTest::keyClick(&w, Qt::Key_Tab, Qt::ControlModifier);
        QTRY_COMPARE(w.currentTab(), 0);
        QCOMPARE(w.document(), first);
        QCOMPARE(vp->scene()->sharedModel(), first->primaryModel());
        QCOMPARE(first->currentFrame(), 3);
        QVERIFY(w.findChild<app::TimelinePanel*>()->findChild<QLabel*>() != nullptr);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("sample_ref.smd")));
        Q_UNUSED(firstCamera);

        // Issue 27: the Problems and Flex filters belong to their tab.
        auto* flexFilter = w.findChild<QLineEdit*>(QStringLiteral("flexFilter"));
        QVERIFY(flexFilter);
        w.problems()->searchBox()->setText(QStringLiteral("weights"));
        w.problems()->severityButton(core::Severity::Note)->setChecked(false);
        flexFilter->setText(QStringLiteral("smile"));
        QTest::keyClick(&w, Qt::Key_Tab, Qt::ControlModifier);
        QTRY_COMPARE(w.currentTab(), 1);
        QCOMPARE(w.problems()->searchBox()->text(), QString());
        QVERIFY(w.problems()->severityButton(core::Severity::Note)->isChecked());
        QVERIFY(w.problems()->proxy()->isSeverityVisible(core::Severity::Note));
        QCOMPARE(flexFilter->text(), QString());
        QTest::keyClick(&w, Qt::Key_Tab, Qt::ControlModifier);
        QTRY_COMPARE(w.currentTab(), 0);
        QCOMPARE(w.problems()->searchBox()->text(), QStringLiteral("weights"));
        QVERIFY(!w.problems()->severityButton(core::Severity::Note)->isChecked());
        QVERIFY(!w.problems()->proxy()->isSeverityVisible(core::Severity::Note));
        QCOMPARE(flexFilter->text(), QStringLiteral("smile"));

        // Ctrl+W closes it; Ctrl+Shift+T brings it back in a new tab.
        QTest::keyClick(&w, Qt::Key_W, Qt::ControlModifier);
        QTRY_COMPARE(w.tabCount(), 1);
        QCOMPARE(w.document(), second);
        QTest::keyClick(&w, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(w.tabCount(), 2);
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(QFileInfo(w.document()->primary()->path).fileName(),
                 QStringLiteral("sample_ref.smd"));

        // Middle-click closes the tab under the cursor.
        const QRect r0 = w.tabBar()->tabRect(0);
        QTest::mouseClick(w.tabBar(), Qt::MiddleButton, {}, r0.center());
        QTRY_COMPARE(w.tabCount(), 1);
        QCOMPARE(QFileInfo(w.document()->primary()->path).fileName(),
                 QStringLiteral("sample_ref.smd"));

        // Ctrl+Shift+W: everything closed, one empty tab, nothing stale on screen; the empty
        // tab searches the window's material roots as every tab does (issue 28).
        w.setMaterialRoots({dir.path()});
        QTest::keyClick(&w, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(w.document()->files().empty());
        QCOMPARE(w.tabCount(), 1);
        QCOMPARE(w.document()->materialRoots(), w.materialRoots());
        QVERIFY(w.document()->materialRoots().contains(dir.path()));
        QVERIFY(vp->scene() == nullptr);
        QVERIFY(!w.heatLegend()->isVisible());
    }

    // Issue 15.6: a number box on every flex row, two-way with the slider and the document.
    void flexNumberBoxes()
    {
        test::TestWindow win(QStringLiteral("tst_ux_flex.ini"), QSize(1280, 800));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({sample("sample_ref.smd"), sample("sample_flex.vta")});
        QVERIFY(doc->waitForLoaded());
        QVERIFY(doc->flexNames().size() >= 2);
        auto* flex = win.w.findChild<app::FlexPanel*>();
        QVERIFY(flex);
        const auto boxes = flex->findChildren<QDoubleSpinBox*>(QStringLiteral("value"));
        QCOMPARE(boxes.size(), doc->flexNames().size());
        boxes[1]->setValue(0.35);
        QCOMPARE(doc->flexWeight(1), 0.35f);
        QSlider* slider = boxes[1]->parentWidget()->findChild<QSlider*>();
        QCOMPARE(slider->value(), int(0.35 * (slider->maximum() - slider->minimum()) + 0.5));
        doc->setFlexWeight(0, 0.8f);
        QCOMPARE(boxes[0]->value(), 0.8);
    }

    // Issue 15.6: the bone Inspector shows the current pose's rotation, in degrees and as a
    // quaternion, local and in model space, named by the file's frame number.
    void inspectorCurrentPoseRotation()
    {
        test::TestWindow win(QStringLiteral("tst_ux_inspector.ini"), QSize(1280, 800));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({sample("sample_ref.smd"), sample("sample_anim.smd")});
        QVERIFY(doc->waitForLoaded());
        doc->setCurrentAnimation(0);
        doc->setCurrentFrame(5);
        doc->setSelection({app::Selection::Kind::Joint, 1, -1});
        const QStringList lines = win.w.inspector()->lines();
        const QString all = lines.join(QLatin1Char('\n'));
        const core::Animation& anim = doc->animations()[0].animation(doc->files());
        const QString frame = app::frameNumberText(anim, 5);
        QVERIFY2(all.contains(QStringLiteral("Current pose, local (frame %1)").arg(frame)),
                 qPrintable(all));
        QVERIFY(all.contains(QStringLiteral("Current pose, model (frame %1)").arg(frame)));
        QCOMPARE(all.count(QStringLiteral("Quaternion")), 2);
        // The model-space quaternion is the pose's rotation.
        const auto pose = doc->currentPose();
        const Eigen::Quaternionf q(pose[1].linear());
        const QString expected = QStringLiteral("w %1").arg(QString::number(q.w(), 'g', 6));
        const QString alt = QStringLiteral("w %1").arg(QString::number(-q.w(), 'g', 6));
        const qsizetype at = all.lastIndexOf(QStringLiteral("Quaternion"));
        QVERIFY2(all.mid(at).contains(expected) || all.mid(at).contains(alt),
                 qPrintable(all.mid(at)));
        QVERIFY(all.contains(QStringLiteral("°")));
    }

    // Whole-window screenshots on real files (the session note describes them): a character
    // mid-animation, a framed problem triangle, a truncated file. Corpus only.
    void corpusScreenshots()
    {
        const QString corpus = test::corpusDir();
        if (corpus.isEmpty()) {
            QSKIP("shared corpus not present");
        }
        const QString body = corpus + QStringLiteral("/smd/pathos_security_body_reference.smd");
        const QString anim = corpus + QStringLiteral("/smd/pathos_wander_sit_loop_anim.smd");
        test::TestWindow win(QStringLiteral("tst_ux_corpus.ini"), QSize(1400, 880));
        QVERIFY(activate(win.w));
        app::MainWindow& w = win.w;
        app::Document* doc = w.document();
        w.openFiles({body, anim});
        QVERIFY(doc->waitForLoaded());
        qInfo("%zu bones, %zu animations", doc->primaryModel()->skeleton.size(),
              doc->animations().size());
        if (!doc->animations().empty()) {
            doc->setCurrentAnimation(0);
            doc->setCurrentFrame(doc->frameCount() / 2);
        }
        w.viewportWidget()->viewport()->frameAll();
        QCoreApplication::processEvents();
        QTest::qWait(200);
        app::grabWindow(w).save(test::outputDir() + QStringLiteral("/TstWindowUx_character.png"));

        // A problem row that points at a triangle, framed as F8 / double-click does.
        app::ProblemsPanel* p = w.problems();
        bool framed = false;
        for (int r = 0; r < p->proxy()->rowCount() && !framed; ++r) {
            p->activate(p->proxy()->index(r, 0));
            framed = doc->selection().kind == app::Selection::Kind::Triangle;
        }
        qInfo("framed a problem triangle: %s", framed ? "yes" : "no");
        QCoreApplication::processEvents();
        QTest::qWait(200);
        app::grabWindow(w).save(test::outputDir() +
                                QStringLiteral("/TstWindowUx_problem_triangle.png"));

        // The same file cut short.
        QTemporaryDir dir;
        const QString cut = dir.filePath(QStringLiteral("security_body_cut.smd"));
        QByteArray bytes = QByteArray::fromStdString(test::readBytes(body));
        bytes.truncate(bytes.size() * 6 / 10);
        QVERIFY(writeFile(cut, bytes));
        w.openInNewTab({cut});
        QVERIFY(w.document()->waitForLoaded());
        QCoreApplication::processEvents();
        QTest::qWait(200);
        app::grabWindow(w).save(test::outputDir() + QStringLiteral("/TstWindowUx_truncated.png"));
        QCOMPARE(w.tabCount(), 2);
    }
};

QTEST_MAIN(TstWindowUx)
#include "tst_window_ux.moc"
