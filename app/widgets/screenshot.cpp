#include "app/widgets/screenshot.h"

#include <QtCore/QBuffer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtGui/QGuiApplication>

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

    render::ViewportOptions vo;
    vo.msaa = false;
    vo.interactive = false;
    render::Viewport view(vo);
    view.resize(o.size);
    view.setFlags(Qt::FramelessWindowHint);
    view.show();
    render::DisplayFlags flags;
    flags.axes = false;
    flags.skeleton = doc.primaryModel()->mesh.empty();
    flags.grid = !o.noBackground; // a transparent thumbnail shows only the model
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
    const QString cam = o.camera;
    view.setPreset(cam == u"front"                       ? render::CameraPreset::Front
                   : (cam == u"right" || cam == u"side") ? render::CameraPreset::Right
                   : cam == u"top"                       ? render::CameraPreset::Top
                                                         : render::CameraPreset::Iso);
    view.frameAll();
    const QImage image = render::captureViewport(view, o.noBackground);
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

} // namespace rigscope::app
