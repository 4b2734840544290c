#include "app/widgets/window_grab.h"

#include <QtGui/QPainter>

#include "app/widgets/main_window.h"
#include "app/widgets/viewport_widget.h"
#include "render/render_capture.h"

namespace rigscope::app {

QImage grabWindow(MainWindow& window)
{
    QImage image = window.grab().toImage().convertToFormat(QImage::Format_ARGB32);
    auto* vw = window.viewportWidget();
    const QImage view = render::captureViewport(*vw->viewport());
    if (!view.isNull()) {
        const qreal dpr = image.devicePixelRatio();
        const QPoint topLeft = vw->container()->mapTo(&window, QPoint(0, 0));
        QPainter p(&image);
        p.drawImage(QRectF(QPointF(topLeft) * dpr, QSizeF(vw->container()->size()) * dpr), view);
    }
    return image;
}

} // namespace rigscope::app
