// Window actions without a dock of their own: F11 full-screen viewport (and back, with the menu
// bar hidden in between), Z frame rate, Ctrl+Shift+C viewport image to the clipboard.
#include <QtGui/QClipboard>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QStatusBar>

#include "app/document/document.h"
#include "app/widgets/viewport_widget.h"
#include "render/render_setup.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

int visibleDocks(app::MainWindow& w)
{
    int n = 0;
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        n += d->isVisible();
    }
    return n;
}

// Shown, exposed and active: shortcuts go to the active window.
bool activate(app::MainWindow& w)
{
    if (!QTest::qWaitForWindowExposed(&w)) {
        return false;
    }
    w.activateWindow();
    return QTest::qWaitForWindowActive(&w);
}

QAction* actionNamed(app::MainWindow& w, const QString& text)
{
    for (QAction* a : w.actions()) {
        if (a->text() == text) {
            return a;
        }
    }
    return nullptr;
}

} // namespace

class TstWindowActions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    void fullScreenViewportAndBack()
    {
        test::TestWindow win(QStringLiteral("tst_window_actions.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(activate(w));
        const int docks = visibleDocks(w);
        QVERIFY(docks >= 4);
        QVERIFY(w.menuBar()->isVisible());

        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(w.isViewportFullScreen());
        QCOMPARE(visibleDocks(w), 0);
        QVERIFY(!w.menuBar()->isVisible());
        QVERIFY(!w.statusBar()->isVisible());
        QTRY_VERIFY(w.isFullScreen());
        QVERIFY(w.viewportWidget()->isVisible());

        // The keys still work with the menu bar hidden: F11 again restores the layout.
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(!w.isViewportFullScreen());
        QTRY_VERIFY(!w.isFullScreen());
        QCOMPARE(visibleDocks(w), docks);
        QVERIFY(w.menuBar()->isVisible());
        QVERIFY(w.statusBar()->isVisible());
    }

    void frameRateToggle()
    {
        test::TestWindow win(QStringLiteral("tst_window_actions_fps.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(activate(w));
        QAction* fps = actionNamed(w, QStringLiteral("Frame Rate"));
        QVERIFY(fps);
        QVERIFY(fps->isChecked());
        QTest::keyClick(&w, Qt::Key_Z);
        QVERIFY(!fps->isChecked());
        QCOMPARE(win.settings.value(QStringLiteral("Viewport/frameRate")).toBool(), false);
        QTest::keyClick(&w, Qt::Key_Z);
        QVERIFY(fps->isChecked());
    }

    void copyImageToClipboard()
    {
        test::TestWindow win(QStringLiteral("tst_window_actions_copy.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(activate(w));
        w.openFiles({test::samplesDir() + QStringLiteral("/sample_ref.smd")});
        QTRY_VERIFY(w.document()->primaryModel());
        QTRY_VERIFY(w.viewportWidget()->viewport()->scene());
        QApplication::clipboard()->clear();
        QTest::keyClick(&w, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(!QApplication::clipboard()->image().isNull());
        const QImage image = QApplication::clipboard()->image();
        const QSize view = w.viewportWidget()->viewport()->size() *
                           w.viewportWidget()->viewport()->devicePixelRatio();
        QCOMPARE(image.size(), view);
        const int model = test::modelPixels(image);
        QVERIFY2(model > 2000, qPrintable(QString::number(model)));
    }
};

QTEST_MAIN(TstWindowActions)
#include "tst_window_actions.moc"
