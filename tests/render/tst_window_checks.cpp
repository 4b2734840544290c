// The window while the checks run in the background (issue 7): the model is drawn, the
// Problems dock, budget bars and profile label say "checking…", and they fill in afterwards; a
// profile change greys them until its results arrive.
#include <atomic>

#include <QtCore/QSemaphore>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeView>

#include "app/widgets/budget_bar.h"
#include "app/widgets/main_window.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/viewport_widget.h"
#include "app/widgets/window_grab.h"
#include "render/render_capture.h"
#include "render/render_setup.h"
#include "render/viewport.h"
#include "tests/support/render_support.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString sample(const char* name)
{
    return test::samplesDir() + QLatin1Char('/') + QLatin1String(name);
}

} // namespace

class TstWindowChecks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    void modelOnScreenWhileChecking()
    {
        QSemaphore gate;
        std::atomic<int> started{0};
        test::TestWindow win(QStringLiteral("tst_window_checks.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        app::Document* doc = w.document();
        doc->setCheckStartHook([&] {
            ++started;
            gate.acquire();
        });
        QSignalSpy loaded(doc, &app::Document::loaded);
        w.openFiles(
            {sample("sample_ref.smd"), sample("sample_anim.smd"), sample("sample_flex.vta")});
        QTRY_COMPARE(loaded.count(), 1);
        QTRY_COMPARE(started.load(), 1);

        // Drawn while the checks are held.
        auto* vp = w.viewportWidget()->viewport();
        QVERIFY(vp->scene());
        const QImage frame = render::captureViewport(*vp, false);
        QVERIFY2(test::modelPixels(frame) > 2000,
                 qPrintable(QString::number(test::modelPixels(frame))));
        const auto& bars = w.budgetBars();
        for (auto* bar : bars) {
            QVERIFY(bar->isChecking());
            QVERIFY2(bar->text().endsWith(QStringLiteral(" …")), qPrintable(bar->text()));
        }
        auto* profile = w.findChild<QLabel*>(QStringLiteral("profileLabel"));
        QVERIFY(profile);
        QCOMPARE(profile->text(), QStringLiteral("profile auto · checking…"));
        QVERIFY(w.problems()->countsLabel()->text().startsWith(QStringLiteral("Checking")));
        QCOMPARE(w.problems()->model()->rowCount(), 0);
        app::grabWindow(w).save(test::outputDir() +
                                QStringLiteral("/TstWindowChecks_checking.png"));

        gate.release(1000);
        QTRY_VERIFY(!doc->isChecking());
        QCoreApplication::processEvents();
        QCOMPARE(bars[0]->text(), QStringLiteral("bones 4/127"));
        QVERIFY(!bars[0]->isChecking());
        QVERIFY(!profile->text().contains(QStringLiteral("checking")));
        QCOMPARE(w.problems()->model()->rowCount(), 1); // sample_flex.vta's note
        QCOMPARE(w.problems()->countsLabel()->text(), w.problems()->countsText());
        QVERIFY(w.problems()->view()->isEnabled());
        app::grabWindow(w).save(test::outputDir() + QStringLiteral("/TstWindowChecks_checked.png"));

        // A profile change keeps the meters, greyed, until its own results arrive.
        gate.acquire(gate.available()); // hold the next run again
        w.setProfile(core::Profile::GoldSrc);
        QTRY_COMPARE(started.load(), 2);
        QCOMPARE(profile->text(), QStringLiteral("profile goldsrc · checking…"));
        QVERIFY(bars[1]->isChecking());
        QVERIFY(bars[1]->text().startsWith(QStringLiteral("materials 2/"))); // previous limit
        QVERIFY(!w.problems()->view()->isEnabled());
        gate.release(1000);
        QTRY_COMPARE(profile->text(), QStringLiteral("profile goldsrc"));
        QCOMPARE(bars[1]->text(), QStringLiteral("materials 2/100"));
        QVERIFY(!bars[1]->isChecking());
        QCOMPARE(vp->weightProfile(), core::Profile::GoldSrc);
    }
};

QTEST_MAIN(TstWindowChecks)
#include "tst_window_checks.moc"
