#pragma once
// Helpers for the render tests (header only: only render tests include it).

#include <algorithm>
#include <memory>

#include <QtCore/QSettings>
#include <QtGui/QImage>
#include <QtTest/QtTest>

#include "app/widgets/main_window.h"
#include "render/viewport.h"
#include "tests/support/test_support.h"

namespace rigscope::test {

// A 256 x 256 viewport without MSAA (baselines are llvmpipe images), shown and exposed; null
// when the window system never exposes it.
inline std::unique_ptr<render::Viewport> makeTestViewport()
{
    render::ViewportOptions o;
    o.msaa = false;
    auto v = std::make_unique<render::Viewport>(o);
    v->resize(256, 256);
    v->show();
    if (!QTest::qWaitForWindowExposed(v.get())) {
        return nullptr;
    }
    return v;
}

// Pixels clearly coloured (max channel > 110, saturation spread > 25): the sample's textures,
// bones and axes, never the background gradient's grey or black.
inline bool isModelColour(QRgb p)
{
    const int hi = std::max({qRed(p), qGreen(p), qBlue(p)});
    const int lo = std::min({qRed(p), qGreen(p), qBlue(p)});
    return hi > 110 && hi - lo > 25;
}

inline int modelPixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            n += isModelColour(image.pixel(x, y));
        }
    }
    return n;
}

// A main window on its own INI under the test output folder (cleared first), without MSAA,
// resized when `size` is valid, and shown (wait for exposure in the test).
struct TestWindow {
    QSettings settings;
    app::MainWindow w;
    explicit TestWindow(const QString& iniName, QSize size = {})
        : settings((clearIni(iniName), outputDir() + QLatin1Char('/') + iniName),
                   QSettings::IniFormat),
          w(settings, noMsaa())
    {
        if (size.isValid()) {
            w.resize(size);
        }
        w.show();
    }

private:
    static void clearIni(const QString& iniName)
    {
        QSettings(outputDir() + QLatin1Char('/') + iniName, QSettings::IniFormat).clear();
    }
    static render::ViewportOptions noMsaa()
    {
        render::ViewportOptions o;
        o.msaa = false;
        return o;
    }
};

} // namespace rigscope::test
