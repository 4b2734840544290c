#include "render/render_capture.h"

#include <algorithm>

#include <QtCore/QEventLoop>
#include <QtCore/QTimer>
#include <Qt3DRender/QRenderCapture>

#include "render/model_scene.h"
#include "render/startup_timing.h"
#include "render/viewport.h"

namespace rigscope::render {

namespace {

QImage captureOnce(Viewport& viewport, int timeoutMs)
{
    // Qt3D needs a couple of frames after a scene change before the capture reflects it.
    QImage image;
    for (int attempt = 0; attempt < 2; ++attempt) {
        viewport.refresh();
        auto* reply = viewport.capture()->requestCapture();
        QEventLoop loop;
        QTimer timer;
        timer.setSingleShot(true);
        QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
        QObject::connect(reply, &Qt3DRender::QRenderCaptureReply::completed, &loop,
                         &QEventLoop::quit);
        timer.start(timeoutMs);
        if (!reply->isComplete()) {
            loop.exec();
        }
        if (reply->isComplete()) {
            image = reply->image().convertToFormat(QImage::Format_ARGB32);
        }
        delete reply;
        timingMark(attempt == 0 ? "capture 1" : "capture 2");
    }
    return image;
}

} // namespace

QImage captureViewport(Viewport& viewport, bool transparentBackground, int timeoutMs,
                       bool waitForTextures)
{
    if (waitForTextures && viewport.scene()) {
        viewport.scene()->waitForTextures(timeoutMs);
    }
    if (!transparentBackground) {
        viewport.setBackgroundVisible(true);
        return captureOnce(viewport, timeoutMs);
    }
    viewport.setBackgroundVisible(false);
    QImage black = captureOnce(viewport, timeoutMs);
    if (black.isNull()) {
        viewport.setBackgroundVisible(true);
        return black;
    }
    bool hasAlpha = false;
    for (int y = 0; y < black.height() && !hasAlpha; ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(black.constScanLine(y));
        for (int x = 0; x < black.width(); ++x) {
            if (qAlpha(row[x]) < 255) {
                hasAlpha = true;
                break;
            }
        }
    }
    if (hasAlpha) {
        viewport.setBackgroundVisible(true);
        return black;
    }
    // No alpha channel: render over white too; alpha = 1 - (white - black).
    viewport.setClearColorForCapture(Qt::white);
    const QImage white = captureOnce(viewport, timeoutMs);
    viewport.setBackgroundVisible(true);
    if (white.size() != black.size()) {
        return black;
    }
    QImage out(black.size(), QImage::Format_ARGB32);
    for (int y = 0; y < out.height(); ++y) {
        const auto* b = reinterpret_cast<const QRgb*>(black.constScanLine(y));
        const auto* w = reinterpret_cast<const QRgb*>(white.constScanLine(y));
        auto* o = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            const int diff = ((qRed(w[x]) - qRed(b[x])) + (qGreen(w[x]) - qGreen(b[x])) +
                              (qBlue(w[x]) - qBlue(b[x]))) /
                             3;
            const int a = std::clamp(255 - diff, 0, 255);
            auto un = [a](int c) { return a > 0 ? std::clamp(c * 255 / a, 0, 255) : 0; };
            o[x] = qRgba(un(qRed(b[x])), un(qGreen(b[x])), un(qBlue(b[x])), a);
        }
    }
    return out;
}

} // namespace rigscope::render
