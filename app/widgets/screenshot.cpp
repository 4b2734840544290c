#include "app/widgets/screenshot.h"

#include <QtCore/QBuffer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtGui/QGuiApplication>
#include <QtGui/QSurfaceFormat>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/document/document.h"
#include "render/render_capture.h"
#include "render/viewport.h"

namespace rigscope::app {

QString expandOutputTemplate(const QString& pattern, const QString& model, const QString& anim,
                             int frame)
{
    QString out = pattern;
    out.replace(QStringLiteral("{model}"), model);
    out.replace(QStringLiteral("{anim}"), anim.isEmpty() ? QStringLiteral("rest") : anim);
    const QRegularExpression re(QStringLiteral("\\{frame(?::0?(\\d+))?\\}"));
    auto m = re.match(out);
    while (m.hasMatch()) {
        const int width = m.captured(1).isEmpty() ? 0 : m.captured(1).toInt();
        out.replace(m.capturedStart(), m.capturedLength(),
                    QStringLiteral("%1").arg(frame, width, 10, QLatin1Char('0')));
        m = re.match(out);
    }
    return out;
}

namespace {

// Renders the document's primary model at its current pose in a frameless window of `size`
// (no MSAA, no axes gizmo; no grid when transparent). Skeleton-only models show their bones.
QImage renderDocument(Document& doc, QSize size, const QString& cam, bool transparent)
{
    if (transparent) {
        // An alpha channel lets the capture read transparency from one render instead of two
        // (over black and over white); without one (some X visuals) the capture still works.
        QSurfaceFormat format = QSurfaceFormat::defaultFormat();
        format.setAlphaBufferSize(8);
        QSurfaceFormat::setDefaultFormat(format);
    }
    render::ViewportOptions vo;
    vo.msaa = false;
    vo.interactive = false;
    render::Viewport view(vo);
    view.resize(size);
    view.setFlags(Qt::FramelessWindowHint | Qt::WindowDoesNotAcceptFocus);
    view.show();
    render::DisplayFlags flags;
    flags.axes = false;
    flags.skeleton = doc.primaryModel()->mesh.empty();
    flags.grid = !transparent; // a transparent image shows only the model
    view.setDisplay(flags);
    QStringList folders;
    const QDir dir = QFileInfo(doc.primary()->path).absoluteDir();
    folders << dir.absolutePath() << dir.filePath(QStringLiteral("textures"))
            << dir.filePath(QStringLiteral("../textures"));
    view.setModel(doc.primaryModel(), folders, true);
    if (view.scene()) {
        view.scene()->setMorphOffsets(doc.flexOffsets());
        view.scene()->setPose(doc.currentPose());
    }
    view.setPreset(cam == u"front"                       ? render::CameraPreset::Front
                   : (cam == u"right" || cam == u"side") ? render::CameraPreset::Right
                   : cam == u"top"                       ? render::CameraPreset::Top
                                                         : render::CameraPreset::Iso);
    view.frameAll();
    return render::captureViewport(view, transparent);
}

// The bounding box of the pixels with alpha above `threshold` (null when there are none).
QRect opaqueBounds(const QImage& image, int threshold)
{
    int left = image.width(), top = image.height(), right = -1, bottom = -1;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            if (qAlpha(row[x]) > threshold) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        }
    }
    return right < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

// Thickens one-pixel lines (a skeleton with no mesh) so they survive a small thumbnail: each
// pixel takes the most opaque of its 3×3 neighbourhood.
QImage embolden(const QImage& image)
{
    QImage out = image;
    const int w = image.width();
    const int h = image.height();
    for (int y = 0; y < h; ++y) {
        auto* o = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w; ++x) {
            QRgb best = o[x];
            for (int dy = std::max(y - 1, 0); dy <= std::min(y + 1, h - 1); ++dy) {
                const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(dy));
                for (int dx = std::max(x - 1, 0); dx <= std::min(x + 1, w - 1); ++dx) {
                    if (qAlpha(row[dx]) > qAlpha(best)) {
                        best = row[dx];
                    }
                }
            }
            o[x] = best;
        }
    }
    return out;
}

// Crops a transparent render to its content (plus a small margin) with the image's aspect
// ratio and scales it back up to the original size: the bounding-sphere framing of the camera
// leaves wide margins around long or flat models. Never zooms in more than 2×.
QImage tighten(const QImage& image, const QRect& content)
{
    const QSize target = image.size();
    const double margin = 0.04 * std::max(content.width(), content.height());
    double w = content.width() + 2 * margin;
    double h = content.height() + 2 * margin;
    const double aspect = double(target.width()) / double(target.height());
    if (w / h < aspect) {
        w = h * aspect;
    } else {
        h = w / aspect;
    }
    w = std::max(w, 0.5 * target.width());
    h = std::max(h, 0.5 * target.height());
    if (w >= target.width() && h >= target.height()) {
        return image;
    }
    const QPointF c = QRectF(content).center();
    const QRect crop(int(std::lround(c.x() - w / 2)), int(std::lround(c.y() - h / 2)),
                     int(std::lround(w)), int(std::lround(h)));
    // Areas outside the image come back transparent (QImage::copy fills them with 0).
    return image.copy(crop).scaled(target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

} // namespace

int runScreenshot(const GuiOptions& o, QString* error)
{
    Document doc;
    doc.open(o.files);
    doc.waitForLoaded(600000);
    if (!doc.primaryModel()) {
        *error = QStringLiteral("cannot load %1").arg(o.files.join(QStringLiteral(", ")));
        for (const auto& f : doc.files()) {
            if (!f.error.isEmpty()) {
                *error += QStringLiteral("\n%1: %2").arg(f.path, f.error);
            }
        }
        return 1;
    }
    if (!o.anim.isEmpty()) {
        const int a = doc.findAnimation(o.anim);
        if (a < 0) {
            *error = QStringLiteral("no animation named '%1'").arg(o.anim);
            return 2;
        }
        doc.setCurrentAnimation(a);
    } else if (o.frame && !doc.animations().empty()) {
        doc.setCurrentAnimation(0);
    }
    if (o.frame) {
        const int n = doc.frameCount();
        doc.setCurrentFrame(*o.frame < 0 ? n + *o.frame : *o.frame);
    }

    for (const auto& [name, weight] : o.flex) {
        const int shape = int(doc.flexNames().indexOf(name));
        if (shape < 0) {
            *error = QStringLiteral("no flex shape named '%1'").arg(name);
            return 2;
        }
        doc.setFlexWeight(shape, weight);
    }

    const QImage image = renderDocument(doc, o.size, o.camera, o.noBackground);
    if (image.isNull()) {
        *error = QStringLiteral("rendering failed (Qt3D needs an OpenGL display; try xvfb-run)");
        return 2;
    }
    const QString animName = doc.currentAnimation() >= 0
                                 ? doc.animations()[std::size_t(doc.currentAnimation())].name
                                 : QString();
    const QString out =
        expandOutputTemplate(o.screenshot, QFileInfo(doc.primary()->path).completeBaseName(),
                             animName, doc.currentFrame());
    if (out == u"-") {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return 0;
    }
    if (!image.save(out, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(out);
        return 2;
    }
    return 0;
}

int runThumbnail(const GuiOptions& o, QString* error)
{
    const QString in = o.files.value(0);
    const QFileInfo info(in);
    if (!info.isFile() || !info.isReadable()) {
        *error = QStringLiteral("cannot read %1").arg(in);
        return 2;
    }
    Document doc;
    doc.open({in});
    doc.waitForLoaded(600000);
    const auto model = doc.primaryModel();
    if (!model || (model->mesh.empty() && model->skeleton.size() == 0)) {
        *error = QStringLiteral("cannot load %1").arg(in);
        for (const auto& f : doc.files()) {
            if (!f.error.isEmpty()) {
                *error += QStringLiteral(": %1").arg(f.error);
            }
        }
        return 1;
    }
    QImage image = renderDocument(doc, o.size, o.camera, true);
    if (image.isNull()) {
        *error = QStringLiteral("rendering failed (Qt3D needs an OpenGL display; try xvfb-run)");
        return 2;
    }
    if (model->mesh.empty()) {
        image = embolden(image);
    }
    const QRect content = opaqueBounds(image, 8);
    if (content.isNull()) {
        *error = QStringLiteral("%1: nothing visible to draw").arg(in);
        return 1;
    }
    const QImage out = tighten(image, content);
    if (!out.save(o.screenshot, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(o.screenshot);
        return 2;
    }
    return 0;
}

} // namespace rigscope::app
