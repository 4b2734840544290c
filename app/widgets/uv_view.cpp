#include "app/widgets/uv_view.h"

#include <algorithm>
#include <cmath>

#include <QtGui/QMouseEvent>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QWheelEvent>
#include <QtWidgets/QLabel>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "render/texture_loader.h"

namespace rigscope::app {

namespace {

const QColor kBackground(38, 40, 46);
const QColor kWire(235, 235, 240, 200);
const QColor kSelectFill(255, 159, 28, 150);
const QColor kSelectLine(255, 159, 28);
const QColor kUnitSquare(255, 255, 255);
const QColor kTileLine(255, 255, 255, 60);

} // namespace

UvView::UvView(QWidget* parent) : QWidget(parent), m_caption(new QLabel(this))
{
    setObjectName(QStringLiteral("uvView"));
    m_caption->setObjectName(QStringLiteral("uvCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_caption);
    layout->addStretch(1);
    setMinimumSize(160, 160);
    setMouseTracking(false);
    showMaterial(-1);
}

void UvView::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr);
    }
    m_document = document;
    auto follow = [this] {
        const Selection& s = m_document->selection();
        const auto* model = m_document->primaryModel().get();
        if (s.kind == Selection::Kind::Material) {
            showMaterial(s.index, -1);
        } else if (s.kind == Selection::Kind::Triangle && model &&
                   std::size_t(s.index) < model->mesh.triangleMaterials.size()) {
            showMaterial(int(model->mesh.triangleMaterials[std::size_t(s.index)]), s.index);
        } else {
            showMaterial(m_material, -1); // keep the material, drop the triangle
        }
    };
    connect(document, &Document::selectionChanged, this, follow);
    connect(document, &Document::loaded, this, [this](bool keepState) {
        const auto* model = m_document->primaryModel().get();
        const int count = model ? int(model->mesh.materials.size()) : 0;
        const int keep = keepState && m_material < count ? m_material : (count > 0 ? 0 : -1);
        m_material = -1; // a new model: its texture is read again
        showMaterial(keep, -1);
    });
    showMaterial(-1);
}

void UvView::showMaterial(int material, int triangle)
{
    const core::Model* model = m_document ? m_document->primaryModel().get() : nullptr;
    if (!model || material < 0 || std::size_t(material) >= model->mesh.materials.size()) {
        material = -1;
        triangle = -1;
    }
    const bool changed = material != m_material;
    m_material = material;
    m_triangle = triangle;
    m_uvs.clear();
    m_triangles.clear();
    m_outside = 0;
    if (changed) {
        m_texture = QImage();
    }
    if (material < 0) {
        m_caption->setText(tr("Select a material or a triangle to see its texture and UVs."));
        m_bounds = QRectF(0, 0, 1, 1);
        fit();
        return;
    }
    const core::Mesh& mesh = model->mesh;
    const bool codUv = model->format.rfind("xmodel", 0) == 0; // v down, as the viewport flips
    double minU = 0, minV = 0, maxU = 1, maxV = 1;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        if (int(mesh.triangleMaterials[t]) != material) {
            continue;
        }
        m_triangles.push_back(int(t));
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t c = t * 3 + k;
            core::Vec2 uv = c < mesh.cornerUvs.size() ? mesh.cornerUvs[c] : core::Vec2::Zero();
            if (!uv.allFinite()) {
                uv = core::Vec2::Zero();
            }
            const double u = uv.x(), v = codUv ? 1.0 - double(uv.y()) : double(uv.y());
            m_uvs.emplace_back(u, v);
            m_outside += (u < 0 || u > 1 || v < 0 || v > 1) ? 1 : 0;
            minU = std::min(minU, u), maxU = std::max(maxU, u);
            minV = std::min(minV, v), maxV = std::max(maxV, v);
        }
    }
    // Far-flung UVs (1e6) would shrink the texture to a dot: the view stops at ±64 tiles.
    m_bounds = QRectF(QPointF(std::max(minU, -64.0), std::max(minV, -64.0)),
                      QPointF(std::min(maxU, 65.0), std::min(maxV, 65.0)));
    if (changed || m_texture.isNull()) {
        const render::MaterialLook* look = m_look ? m_look(material) : nullptr;
        const QString path = m_texturePath ? m_texturePath(material) : QString();
        if (look && look->checkerboard) {
            m_texture = render::checkerboardImage();
        } else if (!path.isEmpty()) {
            m_texture = render::loadTextureImage(path, 1024, look && look->masked);
        }
    }
    const QString name = toQString(mesh.materials[std::size_t(material)].name);
    QString text = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    const QString path = m_texturePath ? m_texturePath(material) : QString();
    const render::MaterialLook* look = m_look ? m_look(material) : nullptr;
    if (look && look->checkerboard) {
        text += tr(" — missing: the checkerboard");
    } else if (!m_texture.isNull()) {
        text += QStringLiteral(" — %1 (%2 × %3)")
                    .arg(path.section(QLatin1Char('/'), -1).toHtmlEscaped())
                    .arg(m_texture.width())
                    .arg(m_texture.height());
    } else {
        text += tr(" — no texture");
    }
    text += QStringLiteral("<br>") + tr("%n triangle(s)", nullptr, int(m_triangles.size()));
    if (m_outside > 0) {
        text += tr(", %n UV corner(s) outside 0–1", nullptr, m_outside);
    }
    if (triangle >= 0) {
        text += tr(", triangle %1 selected").arg(triangle);
    }
    m_caption->setText(text);
    if (changed) {
        fit();
    } else {
        update();
    }
}

QRectF UvView::canvas() const
{
    const int top = m_caption->geometry().bottom() + 6;
    return QRectF(8, top, std::max(1, width() - 16), std::max(1, height() - top - 8));
}

void UvView::fit()
{
    m_zoom = 1.0;
    m_pan = QPointF();
    update();
}

QPointF UvView::toWidget(QPointF uv) const
{
    const QRectF area = canvas();
    const double w = std::max(m_bounds.width(), 1e-6), h = std::max(m_bounds.height(), 1e-6);
    const double scale = std::min(area.width() / w, area.height() / h) * m_zoom;
    const QPointF centre = area.center() + m_pan;
    const QPointF mid = m_bounds.center();
    return {centre.x() + (uv.x() - mid.x()) * scale, centre.y() - (uv.y() - mid.y()) * scale};
}

void UvView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), kBackground);
    if (m_material < 0) {
        return;
    }
    p.setClipRect(canvas());
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    // Every tile the UVs reach: the texture repeats there (dimmed), as the GPU repeats it.
    const int u0 = int(std::floor(m_bounds.left())), u1 = int(std::ceil(m_bounds.right()));
    const int v0 = int(std::floor(m_bounds.top())), v1 = int(std::ceil(m_bounds.bottom()));
    for (int tv = v0; tv < std::max(v1, v0 + 1); ++tv) {
        for (int tu = u0; tu < std::max(u1, u0 + 1); ++tu) {
            const QRectF tile =
                QRectF(toWidget(QPointF(tu, tv + 1)), toWidget(QPointF(tu + 1, tv))).normalized();
            if (!m_texture.isNull()) {
                p.drawImage(tile, m_texture);
            }
            if (tu != 0 || tv != 0) {
                p.fillRect(tile, QColor(0, 0, 0, 140));
                p.setPen(kTileLine);
                p.drawRect(tile);
            }
        }
    }
    p.setPen(QPen(kUnitSquare, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(toWidget(QPointF(0, 1)), toWidget(QPointF(1, 0))).normalized());

    p.setRenderHint(QPainter::Antialiasing, true);
    QPainterPath wires;
    for (std::size_t i = 0; i + 2 < m_uvs.size(); i += 3) {
        wires.moveTo(toWidget(m_uvs[i]));
        wires.lineTo(toWidget(m_uvs[i + 1]));
        wires.lineTo(toWidget(m_uvs[i + 2]));
        wires.closeSubpath();
    }
    p.setPen(QPen(kWire, 1.0));
    p.drawPath(wires);
    const auto sel = std::find(m_triangles.begin(), m_triangles.end(), m_triangle);
    if (sel != m_triangles.end()) {
        const std::size_t i = std::size_t(sel - m_triangles.begin()) * 3;
        QPolygonF tri;
        tri << toWidget(m_uvs[i]) << toWidget(m_uvs[i + 1]) << toWidget(m_uvs[i + 2]);
        p.setBrush(kSelectFill);
        p.setPen(QPen(kSelectLine, 2.0));
        p.drawPolygon(tri);
    }
}

void UvView::mousePressEvent(QMouseEvent* e)
{
    m_lastMouse = e->pos();
}

void UvView::mouseMoveEvent(QMouseEvent* e)
{
    const QPoint d = e->pos() - m_lastMouse;
    m_lastMouse = e->pos();
    if (e->buttons() & Qt::RightButton) { // RMB drag zooms (UX.md), up = closer
        m_zoom = std::clamp(m_zoom * std::pow(1.01, -d.y()), 0.05, 200.0);
    } else if (e->buttons() & (Qt::LeftButton | Qt::MiddleButton)) {
        m_pan += QPointF(d);
    }
    update();
}

void UvView::mouseDoubleClickEvent(QMouseEvent*)
{
    fit();
}

void UvView::wheelEvent(QWheelEvent* e)
{
    m_zoom = std::clamp(m_zoom * std::pow(1.0015, e->angleDelta().y()), 0.05, 200.0);
    update();
}

void UvView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    update();
}

} // namespace rigscope::app
