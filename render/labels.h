#pragma once

#include <unordered_map>
#include <vector>

#include <QtCore/QRectF>
#include <QtCore/QString>
#include <QtGui/QColor>
#include <QtGui/QVector3D>
#include <Qt3DCore/QEntity>

namespace Qt3DRender {
class QParameter;
} // namespace Qt3DRender

namespace rigscope::render {

class ScreenGeometry;

struct Label {
    QVector3D anchor;
    QString text;
    QColor color = QColor(235, 238, 242);
    // Bone names sit above and right of their anchor, attachment names below and right, so an
    // attachment on a bone never covers the bone's name (issue 27).
    bool below = false;
};

// Where each label's box goes, in pixels from its projected anchor (y down), and its size:
// labels on the same side of anchors that coincide are stacked, one row each.
std::vector<QRectF> labelBoxes(const std::vector<Label>& labels);

// Screen-aligned text labels drawn on top (bone names, bounding-box dimensions). Each label is
// rasterised once with QPainter; its covered pixels become GL points at fixed pixel offsets from
// the projected anchor (no textures), over a rounded background made of triangles.
class LabelLayer : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    explicit LabelLayer(Qt3DCore::QNode* parent = nullptr);
    void setLabels(const std::vector<Label>& labels);
    void setViewportSize(const QSizeF& size);

private:
    struct Glyphs {
        std::vector<float> pixels; // dx dy alpha per covered pixel
        int width = 0;
        int height = 0;
    };
    const Glyphs& glyphs(const QString& text);

    std::unordered_map<QString, Glyphs> m_cache;
    Qt3DRender::QParameter* m_viewport;
    ScreenGeometry* m_text;
    ScreenGeometry* m_background;
};

} // namespace rigscope::render
