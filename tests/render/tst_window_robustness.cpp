// rigscope-test: LABELS slow TIMEOUT 900
// The window under bad input: a file that fails to load keeps the previous scene and shows its
// diagnostics; reloading while an animation plays is safe; every corpus file opened in turn in
// one window (run it under heaptrack or valgrind for leaks; see the issue notes).
#include <QtCore/QFile>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QDockWidget>

#include "app/widgets/main_window.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/timeline_panel.h"
#include "render/render_setup.h"
#include "tests/support/render_support.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString sample(const char* name)
{
    return test::samplesDir() + QLatin1Char('/') + QLatin1String(name);
}

} // namespace

class TstWindowRobustness : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    void failedLoadKeepsSceneAndShowsDiagnostics()
    {
        test::TestWindow win(QStringLiteral("tst_robust_fail.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({sample("sample_ref.smd")});
        QVERIFY(doc->waitForLoaded());
        const auto before = doc->primaryModel();
        QVERIFY(before);

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.smd"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly)); // empty: syntax.empty-file, no model at all
        f.close();
        QSignalSpy failed(doc, &app::Document::loadFailed);
        win.w.openFiles({bad});
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(doc->primaryModel(), before); // the previous scene stays
        QCOMPARE(doc->failedFiles().size(), std::size_t(1));
        QVERIFY(!doc->failedFiles().front().diagnostics.empty());
        auto* problems = win.w.findChild<app::ProblemsPanel*>();
        QVERIFY(problems);
        QVERIFY2(problems->countsText().contains(QStringLiteral("error")),
                 qPrintable(problems->countsText()));
        auto* dock = win.w.findChild<QDockWidget*>(QStringLiteral("problems"));
        QVERIFY(dock && dock->isVisible());

        win.w.openFiles({sample("sample_ref.smd")}); // a good load clears them
        QVERIFY(doc->waitForLoaded());
        QVERIFY(doc->failedFiles().empty());
    }

    void reloadWhilePlaying()
    {
        test::TestWindow win(QStringLiteral("tst_robust_reload.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        app::Document* doc = win.w.document();
        win.w.openFiles({sample("sample_ref.smd"), sample("sample_anim.smd")});
        QVERIFY(doc->waitForLoaded());
        auto* timeline = win.w.findChild<app::TimelinePanel*>();
        QVERIFY(timeline);
        timeline->setPlaying(true);
        QVERIFY(timeline->isPlaying());
        for (int i = 0; i < 6; ++i) {
            win.w.reload(true);
            QTest::qWait(40); // frames advance while the reload runs in the background
        }
        QVERIFY(doc->waitForLoaded());
        QTest::qWait(100);
        QVERIFY(doc->primaryModel());
        QCOMPARE(doc->animations().size(), std::size_t(1));
        QCOMPARE(doc->currentAnimation(), 0); // kept by name across reloads
        QVERIFY(doc->currentFrame() >= 0 && doc->currentFrame() < doc->frameCount());
        timeline->setPlaying(false);
    }

    // Settings are on disk as soon as they change: a crash loses nothing.
    void settingsWrittenOnChange()
    {
        const QString ini = test::outputDir() + QStringLiteral("/tst_robust_settings.ini");
        test::TestWindow win(QStringLiteral("tst_robust_settings.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        for (QAction* a : win.w.findChildren<QAction*>()) {
            if (a->text() == QStringLiteral("Grid")) {
                a->setChecked(!a->isChecked()); // an overlay toggle: stored
            }
        }
        auto* flex = win.w.findChild<QDockWidget*>(QStringLiteral("flex"));
        QVERIFY(flex);
        flex->setFloating(true); // a layout change
        {
            QSettings onDisk(ini, QSettings::IniFormat); // another reader, window still open
            QCOMPARE(onDisk.value(QStringLiteral("Viewport/grid")).toBool(), false);
        }
        QTRY_VERIFY(
            QSettings(ini, QSettings::IniFormat).contains(QStringLiteral("MainWindow/state")));
    }

    void everyCorpusFileInOneWindow()
    {
        const QString corpus = test::corpusDir();
        if (corpus.isEmpty()) {
            QSKIP("shared corpus not present");
        }
        test::TestWindow win(QStringLiteral("tst_robust_corpus.ini"), QSize(1100, 700));
        QVERIFY(QTest::qWaitForWindowExposed(&win.w));
        app::Document* doc = win.w.document();
        int loaded = 0, failed = 0;
        for (const QString& path : test::filesUnder(
                 corpus, {QStringLiteral("smd"), QStringLiteral("vta"), QStringLiteral("smdx")})) {
            QSignalSpy done(doc, &app::Document::loaded);
            QSignalSpy bad(doc, &app::Document::loadFailed);
            win.w.openFiles({path});
            QTRY_VERIFY_WITH_TIMEOUT(done.count() + bad.count() > 0, 60000);
            QCoreApplication::processEvents();
            if (bad.count() > 0 && done.count() == 0) {
                ++failed;
                QVERIFY2(!doc->failedFiles().empty(), qPrintable(path));
            } else {
                ++loaded;
                QVERIFY2(doc->primaryModel(), qPrintable(path));
            }
        }
        qInfo("%d corpus files loaded, %d failed to load (kept the previous scene)", loaded,
              failed);
        QCOMPARE(failed, 1); // the deliberately empty file
    }
};

QTEST_MAIN(TstWindowRobustness)
#include "tst_window_robustness.moc"
