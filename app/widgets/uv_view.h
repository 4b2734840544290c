#pragma once

#include <functional>
#include <vector>

#include <QtCore/QPointF>
#include <QtCore/QRectF>
#include <QtGui/QImage>
#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QLabel;

namespace rigscope::app {

// The Texture / UV view (UX.md, issue 18): the selected material's texture (as the viewport
// draws it: its image, the checkerboard, or none) with the UV layout of its triangles over it,
// the selected triangle filled. The view covers the unit square and every UV outside it (other
// tiles shown dimmed, with their count). Drag pans, RMB drag or the wheel zooms, double-click
// fits.
class UvView : public QWidget {
    Q_OBJECT
public:
    explicit UvView(QWidget* parent = nullptr);
    void setDocument(Document* document);
    // What the viewport draws for a material (the scene's look and texture path).
    void setMaterialLookLookup(std::function<const render::MaterialLook*(int)> lookup)
    {
        m_look = std::move(lookup);
    }
    void setTexturePathLookup(std::function<QString(int)> lookup)
    {
        m_texturePath = std::move(lookup);
    }

    // Shows `material` (-1: none) with `triangle` (a primary-model triangle, -1: none) filled.
    void showMaterial(int material, int triangle = -1);
    int material() const { return m_material; }
    int selectedTriangle() const { return m_triangle; }
    // UVs of the shown triangles, as drawn: u right, v up (0, 0 at the texture's lower left).
    const std::vector<QPointF>& uvs() const { return m_uvs; }
    int outsideCount() const { return m_outside; } // corners outside 0-1
    const QImage& texture() const { return m_texture; }
    // Widget position of a UV (after fit, pan and zoom).
    QPointF toWidget(QPointF uv) const;
    QRectF uvBounds() const { return m_bounds; } // the unit square and every UV
    void fit();
    QLabel* caption() const { return m_caption; }

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void refresh();
    QRectF canvas() const; // the drawing area below the caption

    Document* m_document = nullptr;
    std::function<const render::MaterialLook*(int)> m_look;
    std::function<QString(int)> m_texturePath;
    QLabel* m_caption;
    int m_material = -1;
    int m_triangle = -1;
    std::vector<QPointF> m_uvs;   // 3 per triangle of the material
    std::vector<int> m_triangles; // primary-model triangle of each
    int m_outside = 0;
    QImage m_texture;
    QRectF m_bounds{0, 0, 1, 1};
    double m_zoom = 1.0;
    QPointF m_pan; // widget pixels
    QPoint m_lastMouse;
};

} // namespace rigscope::app
