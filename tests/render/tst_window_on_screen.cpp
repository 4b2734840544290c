// What the X server shows, not what Qt3D captures: the viewport of a main window built with the
// options the application uses (MSAA on) is read back from the screen. An ARGB viewport window
// rendered fine into captures but showed black on X servers without a compositor.
#include <QtCore/QSettings>
#include <QtGui/QScreen>
#include <QtTest/QtTest>

#include "app/document/document.h"
#include "app/widgets/main_window.h"
#include "app/widgets/viewport_widget.h"
#include "render/render_capture.h"
#include "render/render_setup.h"
#include "render/viewport.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

struct Counts {
    int model = 0;      // clearly coloured pixels (the sample's textures, bones, grid axes)
    int background = 0; // the background gradient's blue-grey
    int black = 0;
};

Counts classify(const QImage& image)
{
    Counts c;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            const int r = qRed(p), g = qGreen(p), b = qBlue(p);
            const int hi = std::max({r, g, b});
            if (hi < 8) {
                ++c.black;
            } else if (test::isModelColour(p)) {
                ++c.model;
            } else if (b >= r && hi >= 30 && hi <= 90) {
                ++c.background;
            }
        }
    }
    return c;
}

} // namespace

class TstWindowOnScreen : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    void viewportVisibleOnScreen()
    {
        QSettings settings(test::outputDir() + QStringLiteral("/tst_window_on_screen.ini"),
                           QSettings::IniFormat);
        settings.clear();
        app::MainWindow w(settings, render::ViewportOptions{}); // as the application: MSAA on
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({test::samplesDir() + QStringLiteral("/sample_ref.smd")});
        QTRY_VERIFY(w.document()->primaryModel());
        render::Viewport* vp = w.viewportWidget()->viewport();
        QVERIFY(QTest::qWaitForWindowExposed(vp));
        QTRY_VERIFY(vp->scene());
        // A capture renders a frame and waits for it, so the window has been drawn since.
        const QImage captured = render::captureViewport(*vp, false);
        QVERIFY(!captured.isNull());
        const Counts inCapture = classify(captured);
        QVERIFY2(inCapture.model > 2000, qPrintable(QString::number(inCapture.model)));

        // The screen may lag a frame behind: read it until the model shows (or give up).
        QScreen* screen = vp->screen();
        QVERIFY(screen);
        const QWidget* container = w.viewportWidget()->container();
        const QPoint origin = container->mapToGlobal(QPoint(0, 0));
        QImage shown;
        Counts onScreen;
        for (int attempt = 0; attempt < 50; ++attempt) {
            shown =
                screen
                    ->grabWindow(0, origin.x(), origin.y(), container->width(), container->height())
                    .toImage();
            onScreen = classify(shown);
            if (onScreen.model > 2000) {
                break;
            }
            vp->requestUpdate();
            QTest::qWait(100);
        }
        shown.save(test::outputDir() + QStringLiteral("/TstWindowOnScreen.png"));
        const int area = shown.width() * shown.height();
        QVERIFY2(onScreen.model > 2000, qPrintable(QStringLiteral("model %1, black %2 of %3")
                                                       .arg(onScreen.model)
                                                       .arg(onScreen.black)
                                                       .arg(area)));
        QVERIFY2(onScreen.background > area / 3, qPrintable(QString::number(onScreen.background)));
        QVERIFY2(onScreen.black < area / 20, qPrintable(QString::number(onScreen.black)));
    }
};

QTEST_MAIN(TstWindowOnScreen)
#include "tst_window_on_screen.moc"
