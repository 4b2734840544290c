#include "app/widgets/screenshot.h"

#include <QtCore/QBuffer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtGui/QGuiApplication>
#include <QtGui/QMatrix4x4>
#include <QtGui/QPainter>
#include <QtGui/QSurfaceFormat>
#include <QtGui/QVector2D>
#include <QtGui/QVector4D>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "app/document/document.h"
#include "core/materials/material_lookup.h"
#include "app/document/qc_document.h"
#include "app/qt_convert.h"
#include "core/ops/qc_ops.h"
#include "core/pose/pose_rig.h"
#include "render/convert.h"
#include "render/model_scene.h"
#include "render/orbit_camera.h"
#include "render/render_capture.h"
#include "render/startup_timing.h"
#include "render/texture_loader.h"
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

// zlib level 1 for --screenshot PNGs: on a 1280x720 render 24 ms instead of 45 ms for the
// default level, for a file about 1.5x as big (a render still compresses about 20:1).
constexpr int kPngQuality = 80;

// A frameless window of `size` for one render (no MSAA, no axes gizmo), shown at once: Qt3D
// starts up while the files load.
std::unique_ptr<render::Viewport> makeRenderWindow(QSize size, bool transparent)
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
    auto view = std::make_unique<render::Viewport>(vo);
    render::timingMark("viewport created");
    view->resize(size);
    view->setFlags(Qt::FramelessWindowHint | Qt::WindowDoesNotAcceptFocus);
    render::DisplayFlags flags;
    flags.axes = false;
    flags.grid = !transparent; // a transparent image shows only the model
    view->setDisplay(flags);
    view->show();
    render::timingMark("viewport shown");
    return view;
}

// Renders the document's primary model at its current pose in `view` (no grid when
// transparent). Skeleton-only models show their bones.
QImage renderDocument(render::Viewport& view, Document& doc, const QString& cam, bool transparent,
                      const QStringList& materialRoots = {}, bool textures = true)
{
    render::DisplayFlags flags;
    flags.axes = false;
    // Skeleton-only models show their bones; a DMX's attachments show with the skeleton.
    flags.skeleton = doc.primaryModel()->mesh.empty() || !doc.primaryModel()->attachments.empty();
    if (const core::QcReport* qc = doc.qcProject()) { // its attachments and hitboxes (issue 17)
        flags.skeleton =
            flags.skeleton || !qc->project.attachments.empty() || !qc->project.hitboxes.empty();
    }
    flags.grid = !transparent; // a transparent image shows only the model
    flags.textures = textures;
    view.setDisplay(flags);
    doc.setMaterialRoots(materialRoots); // the window's lookup: roots, the QC's $cdmaterials
    view.setModel(doc.primaryModel(), doc.materialSources(), true);
    render::timingMark("scene built");
    if (view.scene()) {
        view.scene()->setMarkers(documentMarkers(doc, view.scene()->model()));
        view.scene()->setEvaluator(doc.evaluator());
        view.scene()->setFlex(doc.flexSetting());
        view.scene()->setPose(doc.currentPose());
    }
    render::timingMark("scene posed");
    view.setPreset(cameraPresetNamed(cam));
    // --select BONE: that bone, selected and framed (a face, a hand); else the whole model.
    const Selection& sel = doc.selection();
    view.setSelectedJoint(sel.kind == Selection::Kind::Joint ? sel.index : -1);
    if (sel.kind == Selection::Kind::Joint) {
        view.frameSelection();
    } else {
        view.frameAll();
    }
    QImage image = render::captureViewport(view, transparent);
    render::timingMark("captured");
    return image;
}

// How a material draws, as render/materials.cpp's shaded material draws it: alpha test (texels
// under `alphaReference` cut out; 0 = none), fullbright (the texture unlit), even light (GoldSrc
// flatshade), the texture times `tint` ($color), back faces culled, and blending: translucent
// (over what lies behind, by the texel's alpha) or additive (colour times alpha, added).
struct RasterLook {
    enum class Blend : std::uint8_t { Opaque, Alpha, Additive };
    float alphaReference = 0;
    bool fullbright = false;
    bool evenLight = false;
    bool cullBack = false;
    Blend blend = Blend::Opaque;
    QColor tint = Qt::white;
};

// Software renderer for thumbnails: file managers call the thumbnailer many times, often in a
// sandbox with no display (GNOME Files runs it under bwrap), so it needs no OpenGL, opens no
// window and draws the rest pose with a z-buffer at 2× and a smooth downscale. The lighting
// follows render/materials.cpp's shaded material. Opaque triangles go first; blended ones after
// them, far to near, tested against the depth but not writing it, as the viewport draws them.
// The image is premultiplied, so blending onto the transparent background keeps what was
// blended visible: a translucent texel leaves its alpha, an additive one as much alpha as light.
class SoftwareRaster {
public:
    SoftwareRaster(QSize size, const QMatrix4x4& view, const QMatrix4x4& projection)
        : m_w(size.width()), m_h(size.height()), m_view(view), m_viewProjection(projection * view),
          m_image(size, QImage::Format_ARGB32_Premultiplied),
          m_depth(std::size_t(m_w) * std::size_t(m_h), std::numeric_limits<float>::infinity())
    {
        m_image.fill(Qt::transparent);
    }

    // One triangle (model-space positions and normals, UVs); texture may be null.
    void triangle(const QVector3D (&p)[3], const QVector3D (&n)[3], const QVector2D (&uv)[3],
                  const QColor& base, const QImage* texture, const RasterLook& look = {})
    {
        QVector3D s[3];
        float invW[3];
        for (int k = 0; k < 3; ++k) {
            const QVector4D c = m_viewProjection * QVector4D(p[k], 1.0f);
            if (!(c.w() > 1e-6f)) {
                return; // behind the eye: the framed camera never needs clipping
            }
            invW[k] = 1.0f / c.w();
            s[k] = QVector3D((c.x() * invW[k] * 0.5f + 0.5f) * float(m_w),
                             (0.5f - c.y() * invW[k] * 0.5f) * float(m_h), c.z() * invW[k]);
        }
        const float area = edge(s[0], s[1], s[2]);
        if (!(std::abs(area) > 1e-12f)) {
            return;
        }
        // Counter-clockwise in the view (front facing) is clockwise here: screen y runs down.
        if (look.cullBack && area > 0) {
            return;
        }
        // View-space normals and positions for the lighting.
        QVector3D vn[3];
        QVector3D vp[3];
        const QVector3D faceN = QVector3D::crossProduct(p[1] - p[0], p[2] - p[0]).normalized();
        for (int k = 0; k < 3; ++k) {
            const QVector3D nk = n[k].lengthSquared() > 1e-12f ? n[k] : faceN;
            vn[k] = m_view.mapVector(nk);
            vp[k] = m_view.map(p[k]);
        }
        const int x0 = std::max(0, int(std::floor(std::min({s[0].x(), s[1].x(), s[2].x()}))));
        const int x1 = std::min(m_w - 1, int(std::ceil(std::max({s[0].x(), s[1].x(), s[2].x()}))));
        const int y0 = std::max(0, int(std::floor(std::min({s[0].y(), s[1].y(), s[2].y()}))));
        const int y1 = std::min(m_h - 1, int(std::ceil(std::max({s[0].y(), s[1].y(), s[2].y()}))));
        for (int y = y0; y <= y1; ++y) {
            auto* row = reinterpret_cast<QRgb*>(m_image.scanLine(y));
            for (int x = x0; x <= x1; ++x) {
                const QVector3D q(float(x) + 0.5f, float(y) + 0.5f, 0.0f);
                float b[3] = {edge(s[1], s[2], q) / area, edge(s[2], s[0], q) / area,
                              edge(s[0], s[1], q) / area};
                if (b[0] < 0 || b[1] < 0 || b[2] < 0) {
                    continue;
                }
                const float z = b[0] * s[0].z() + b[1] * s[1].z() + b[2] * s[2].z();
                float& depth = m_depth[std::size_t(y) * std::size_t(m_w) + std::size_t(x)];
                if (!(z < depth)) {
                    continue;
                }
                // Perspective-correct interpolation.
                const float pw = b[0] * invW[0] + b[1] * invW[1] + b[2] * invW[2];
                for (int k = 0; k < 3; ++k) {
                    b[k] = b[k] * invW[k] / pw;
                }
                QColor albedo = base;
                float alpha = 1.0f;
                if (texture) {
                    const QVector2D t = b[0] * uv[0] + b[1] * uv[1] + b[2] * uv[2];
                    const float u = t.x() - std::floor(t.x());
                    const float v = t.y() - std::floor(t.y());
                    const int tx =
                        std::clamp(int(u * float(texture->width())), 0, texture->width() - 1);
                    const int ty = std::clamp(int((1.0f - v) * float(texture->height())), 0,
                                              texture->height() - 1);
                    const QRgb texel = texture->pixel(tx, ty);
                    if (look.alphaReference > 0 &&
                        float(qAlpha(texel)) < look.alphaReference * 255.0f) {
                        continue; // cut out: what lies behind shows
                    }
                    albedo = QColor::fromRgbF(qRed(texel) / 255.0f * look.tint.redF(),
                                              qGreen(texel) / 255.0f * look.tint.greenF(),
                                              qBlue(texel) / 255.0f * look.tint.blueF());
                    alpha = float(qAlpha(texel)) / 255.0f;
                }
                QRgb lit = 0;
                if (look.fullbright && texture) {
                    lit = qRgba(albedo.red(), albedo.green(), albedo.blue(), 255);
                } else if (look.evenLight) {
                    lit = qRgba(int(albedo.red() * 0.8f), int(albedo.green() * 0.8f),
                                int(albedo.blue() * 0.8f), 255);
                } else {
                    lit = shade(b[0] * vn[0] + b[1] * vn[1] + b[2] * vn[2],
                                b[0] * vp[0] + b[1] * vp[1] + b[2] * vp[2], albedo);
                }
                if (look.blend == RasterLook::Blend::Opaque) {
                    depth = z;
                    row[x] = lit;
                } else {
                    row[x] = blend(row[x], lit, alpha, look.blend);
                }
            }
        }
    }

    const QImage& image() const { return m_image; }
    // Distance from the eye of a triangle's centre, for drawing blended triangles far to near.
    float distance(const QVector3D (&p)[3]) const
    {
        return -m_view.map((p[0] + p[1] + p[2]) / 3.0f).z();
    }
    QPointF project(const QVector3D& p) const
    {
        const QVector4D c = m_viewProjection * QVector4D(p, 1.0f);
        const float w = c.w() > 1e-6f ? c.w() : 1e-6f;
        return {(c.x() / w * 0.5 + 0.5) * m_w, (0.5 - c.y() / w * 0.5) * m_h};
    }

private:
    // `lit` (opaque) blended onto the premultiplied `dst` with `alpha`: over it (translucent),
    // or colour times alpha added, which adds as much alpha as the brightest channel added
    // (additive light on a transparent background stays visible; on an opaque one it only adds).
    static QRgb blend(QRgb dst, QRgb lit, float alpha, RasterLook::Blend mode)
    {
        auto channel = [&](int d, int c) {
            const float v = mode == RasterLook::Blend::Additive
                                ? float(d) + float(c) * alpha
                                : float(c) * alpha + float(d) * (1.0f - alpha);
            return std::clamp(int(std::lround(v)), 0, 255);
        };
        const int r = channel(qRed(dst), qRed(lit));
        const int g = channel(qGreen(dst), qGreen(lit));
        const int b = channel(qBlue(dst), qBlue(lit));
        const float brightest = float(std::max({qRed(lit), qGreen(lit), qBlue(lit)}));
        const float a = mode == RasterLook::Blend::Additive
                            ? float(qAlpha(dst)) + brightest * alpha
                            : 255.0f * alpha + float(qAlpha(dst)) * (1.0f - alpha);
        const int ai = std::clamp(int(std::lround(a)), 0, 255);
        // Premultiplied: no channel above the alpha.
        return qRgba(std::min(r, ai), std::min(g, ai), std::min(b, ai), ai);
    }

    static float edge(const QVector3D& a, const QVector3D& b, const QVector3D& c)
    {
        return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
    }

    static QRgb shade(QVector3D n, const QVector3D& pos, const QColor& albedo)
    {
        n.normalize();
        const QVector3D v = (-pos).normalized();
        if (QVector3D::dotProduct(n, v) < 0) {
            n = -n;
        }
        static const QVector3D key = QVector3D(-0.45f, 0.65f, 0.65f).normalized();
        static const QVector3D fill = QVector3D(0.7f, -0.25f, 0.45f).normalized();
        static const QVector3D rim = QVector3D(0.0f, 0.3f, -1.0f).normalized();
        const float diffuse = 0.72f * std::max(QVector3D::dotProduct(n, key), 0.0f) +
                              0.28f * std::max(QVector3D::dotProduct(n, fill), 0.0f) + 0.2f;
        const float rimTerm =
            0.18f * std::pow(1.0f - std::max(QVector3D::dotProduct(n, v), 0.0f), 3.0f) +
            0.05f * std::max(QVector3D::dotProduct(n, rim), 0.0f);
        const QVector3D h = (key + v).normalized();
        const float spec = 0.12f * std::pow(std::max(QVector3D::dotProduct(n, h), 0.0f), 40.0f);
        auto channel = [&](float a) {
            return std::clamp(int(std::lround((a * diffuse + spec + rimTerm) * 255.0f)), 0, 255);
        };
        return qRgba(channel(albedo.redF()), channel(albedo.greenF()), channel(albedo.blueF()),
                     255);
    }

    int m_w;
    int m_h;
    QMatrix4x4 m_view;
    QMatrix4x4 m_viewProjection;
    QImage m_image;
    std::vector<float> m_depth;
};

// The iso view of the model's rest pose, drawn by SoftwareRaster at 2× and scaled to `size`.
// Skeleton-only models show their bones as lines with joint dots, VTAs their base vertices.
QImage renderThumbnail(const core::Model& m, const render::MaterialSources& sources, QSize size,
                       bool textures_ = true)
{
    const QSize big = size * 2;
    const std::vector<Eigen::Affine3f> joints = core::makePoseRig(m.skeleton).bindModel;
    core::Bounds b;
    auto grow = [&](const core::Vec3& p) { b.grow(p); };
    // A VTA has no triangles: its base frame's vertices make a point cloud.
    const std::vector<core::Vec3>* cloud =
        m.mesh.empty() && !m.vertexFrames.empty() && !m.vertexFrames[0].positions.empty()
            ? &m.vertexFrames[0].positions
            : nullptr;
    if (!m.mesh.empty()) {
        for (std::uint32_t c : m.mesh.cornerPoints) {
            if (c < m.mesh.pointPositions.size()) {
                grow(m.mesh.pointPositions[c]);
            }
        }
    } else if (cloud) {
        for (const auto& p : *cloud) {
            grow(p);
        }
    } else {
        for (const auto& j : joints) {
            grow(j.translation());
        }
    }
    render::OrbitCamera cam;
    cam.setPreset(render::CameraPreset::Iso);
    cam.frame(b, float(size.width()) / float(size.height()));
    QMatrix4x4 view;
    view.lookAt(cam.eye(), cam.target, cam.up());
    QMatrix4x4 projection;
    const float nearPlane = std::max(cam.distance * 0.01f, 1e-4f);
    projection.perspective(cam.fovDeg, float(size.width()) / float(size.height()), nearPlane,
                           cam.distance * 4.0f + 1.0f);
    SoftwareRaster raster(big, view, projection);

    const core::Mesh& mesh = m.mesh;
    if (!mesh.empty()) {
        std::unique_ptr<core::MaterialResolver> resolver;
        if (sources.sourceLookup()) {
            resolver = std::make_unique<core::MaterialResolver>(sources.query);
        }
        std::vector<QImage> textures;
        std::vector<QColor> colors;
        std::vector<RasterLook> looks;
        for (std::size_t i = 0; i < mesh.materials.size(); ++i) {
            const render::MaterialLook look =
                textures_ ? render::lookUpMaterial(mesh.materials[i], sources, resolver.get())
                          : render::MaterialLook{};
            QImage t = look.checkerboard ? render::checkerboardImage()
                       : look.texturePath.isEmpty()
                           ? QImage()
                           : render::loadTextureImage(look.texturePath, 512, look.masked);
            textures.push_back(t.isNull() ? t : t.convertToFormat(QImage::Format_ARGB32));
            colors.push_back(render::paletteColor(i));
            RasterLook l;
            l.alphaReference =
                look.alphaTest && !look.checkerboard ? std::max(0.001f, look.alphaReference) : 0.0f;
            l.fullbright = look.fullbright && !look.checkerboard;
            l.evenLight = look.flatShade;
            // As render/model_scene.cpp sets the viewport's surface.
            l.cullBack = look.source && look.found && !look.checkerboard && !look.noCull;
            l.blend = look.additive      ? RasterLook::Blend::Additive
                      : look.translucent ? RasterLook::Blend::Alpha
                                         : RasterLook::Blend::Opaque;
            l.tint = look.tint;
            looks.push_back(l);
        }
        const bool codUv = m.format.rfind("xmodel", 0) == 0;
        auto toQ = [](const core::Vec3& v) { return QVector3D(v.x(), v.y(), v.z()); };
        // Corners of triangle t; false when one is out of range or not finite.
        auto corners = [&](std::size_t t, QVector3D(&p)[3], QVector3D(&n)[3], QVector2D(&uv)[3]) {
            for (int k = 0; k < 3; ++k) {
                const std::size_t c = t * 3 + std::size_t(k);
                const std::uint32_t point =
                    c < mesh.cornerPoints.size() ? mesh.cornerPoints[c] : 0xffffffffu;
                if (point >= mesh.pointPositions.size() ||
                    !mesh.pointPositions[point].allFinite()) {
                    return false;
                }
                p[k] = toQ(mesh.pointPositions[point]);
                const core::Vec3 nc =
                    c < mesh.cornerNormals.size() && mesh.cornerNormals[c].allFinite()
                        ? mesh.cornerNormals[c]
                        : core::Vec3::Zero();
                n[k] = toQ(nc);
                core::Vec2 u = c < mesh.cornerUvs.size() && mesh.cornerUvs[c].allFinite()
                                   ? mesh.cornerUvs[c]
                                   : core::Vec2::Zero();
                if (codUv) {
                    u.y() = 1.0f - u.y();
                }
                uv[k] = QVector2D(u.x(), u.y());
            }
            return true;
        };
        auto draw = [&](std::size_t t, const QVector3D(&p)[3], const QVector3D(&n)[3],
                        const QVector2D(&uv)[3]) {
            const std::uint32_t mat = mesh.triangleMaterials[t];
            const bool known = mat < colors.size();
            const QImage* texture = known && !textures[mat].isNull() ? &textures[mat] : nullptr;
            raster.triangle(p, n, uv, known ? colors[mat] : render::paletteColor(0), texture,
                            known ? looks[mat] : RasterLook{});
        };
        std::vector<std::pair<float, std::size_t>> blended; // distance, triangle
        for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
            QVector3D p[3];
            QVector3D n[3];
            QVector2D uv[3];
            if (!corners(t, p, n, uv)) {
                continue;
            }
            const std::uint32_t mat = mesh.triangleMaterials[t];
            if (mat < looks.size() && looks[mat].blend != RasterLook::Blend::Opaque) {
                blended.emplace_back(raster.distance(p), t);
            } else {
                draw(t, p, n, uv);
            }
        }
        std::stable_sort(blended.begin(), blended.end(),
                         [](const auto& l, const auto& r) { return l.first > r.first; });
        for (const auto& [dist, t] : blended) {
            QVector3D p[3];
            QVector3D n[3];
            QVector2D uv[3];
            if (corners(t, p, n, uv)) {
                draw(t, p, n, uv);
            }
        }
    }
    QImage image = raster.image();
    if (cloud) {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(110, 140, 185));
        // Bigger dots when there are few vertices (a cube's eight corners).
        const qreal radius = std::max(1.5, big.width() / 160.0) * (cloud->size() < 200 ? 2.0 : 1.0);
        for (const auto& p : *cloud) {
            if (p.allFinite()) {
                painter.drawEllipse(raster.project(render::toQt(p)), radius, radius);
            }
        }
    } else if (mesh.empty() && !joints.empty()) {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        const qreal width = std::max(2.0, big.width() / 90.0);
        painter.setPen(QPen(QColor(120, 200, 255), width, Qt::SolidLine, Qt::RoundCap));
        for (std::size_t j = 0; j < joints.size(); ++j) {
            const core::JointIndex parent = m.skeleton.parents[j];
            if (parent >= 0) {
                painter.drawLine(raster.project(render::toQt(
                                     core::Vec3(joints[std::size_t(parent)].translation()))),
                                 raster.project(render::toQt(core::Vec3(joints[j].translation()))));
            }
        }
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(255, 209, 102));
        for (const auto& j : joints) {
            painter.drawEllipse(raster.project(render::toQt(core::Vec3(j.translation()))),
                                width * 0.9, width * 0.9);
        }
    }
    return image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
        .convertToFormat(QImage::Format_ARGB32);
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

QString applyStartOptions(Document& doc, const GuiOptions& o)
{
    if (const QString e = applyQcCommandLine(doc, o.bodygroups, o.skin, o.lod); !e.isEmpty()) {
        return e;
    }
    if (!o.anim.isEmpty()) {
        const int a = doc.findAnimation(o.anim);
        if (a < 0) {
            return QStringLiteral("no animation named '%1'").arg(o.anim);
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
            return QStringLiteral("no flex shape named '%1'").arg(name);
        }
        doc.setFlexWeight(shape, weight);
    }
    for (const GuiOptions::ControllerValue& c : o.flexControllers) {
        const core::CompiledModelInfo* program = doc.flexProgram();
        const auto find = [&](const QString& name) {
            for (std::size_t k = 0; program && k < program->flexControllers.size(); ++k) {
                if (QString::fromStdString(program->flexControllers[k].name)
                        .compare(name, Qt::CaseInsensitive) == 0) {
                    return int(k);
                }
            }
            return -1;
        };
        const int one = find(c.name);
        const int l = find(QStringLiteral("left_") + c.name);
        const int r = find(QStringLiteral("right_") + c.name);
        if (one >= 0 && !c.stereo) {
            doc.setControllerValue(one, c.left);
        } else if (l >= 0 && r >= 0) {
            doc.setControllerValue(l, c.left);
            doc.setControllerValue(r, c.stereo ? c.right : c.left);
        } else {
            return QStringLiteral("no flex controller named '%1'").arg(c.name);
        }
    }
    if (o.lookAt) {
        core::QcEyeTarget t;
        t.set = true;
        t.point = core::Vec3(o.lookAt->x(), o.lookAt->y(), o.lookAt->z());
        doc.setEyeTarget(t);
    }
    if (!o.select.isEmpty()) {
        const auto model = doc.primaryModel();
        const core::JointIndex j = model ? model->skeleton.findByName(toStd(o.select)) : -1;
        if (j < 0) {
            return QStringLiteral("no bone named '%1'").arg(o.select);
        }
        doc.setSelection({Selection::Kind::Joint, int(j), -1});
    }
    return {};
}

render::CameraPreset cameraPresetNamed(const QString& name)
{
    return name == u"front"                        ? render::CameraPreset::Front
           : (name == u"right" || name == u"side") ? render::CameraPreset::Right
           : name == u"top"                        ? render::CameraPreset::Top
                                                   : render::CameraPreset::Iso;
}

int runScreenshot(const GuiOptions& o, QString* error)
{
    Document doc;
    doc.setChecksEnabled(false); // the picture needs the model only
    doc.setForceReader(o.forceReader.toStdString());
    render::timingMark("load started");
    doc.open(o.files);
    const std::unique_ptr<render::Viewport> view = makeRenderWindow(o.size, o.noBackground);
    doc.waitForLoaded(600000);
    render::timingMark("loaded");
    if (!doc.primaryModel()) {
        *error = QStringLiteral("cannot load %1").arg(o.files.join(QStringLiteral(", ")));
        for (const auto& f : doc.files()) {
            if (!f.error.isEmpty()) {
                *error += QStringLiteral("\n%1: %2").arg(f.path, f.error);
            }
        }
        return 1;
    }
    if (const QString e = applyStartOptions(doc, o); !e.isEmpty()) {
        *error = e;
        return 2;
    }

    const QImage image =
        renderDocument(*view, doc, o.camera, o.noBackground, o.materials, !o.noTextures);
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
        image.save(&buffer, "PNG", kPngQuality);
        std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return 0;
    }
    if (!image.save(out, "PNG", kPngQuality)) {
        *error = QStringLiteral("cannot write %1").arg(out);
        return 2;
    }
    render::timingMark("png saved");
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
    doc.setChecksEnabled(false);
    doc.setForceReader(o.forceReader.toStdString());
    doc.setMaterialRoots(o.materials);
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
    const QImage image = renderThumbnail(*model, doc.materialSources(), o.size, !o.noTextures);
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
