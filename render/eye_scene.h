#pragma once

// A QC face's eyes in the viewport (issue 32): each `eyeball` as studiomdl places it (a wire
// sphere of its diameter at its centre) with its iris (a disc on the sphere, facing where the
// eye looks), a line to the look-at target and a marker on the target. Drawn with the lines
// (depth-tested against the mesh).

#include <optional>
#include <vector>

#include <QtGui/QVector3D>
#include <Qt3DCore/QEntity>

namespace Qt3DRender {
class QLayer;
}

namespace rigscope::render {

class LineGeometry;

struct EyeDrawing {
    QVector3D centre;
    QVector3D forward{0, -1, 0}; // unit: where the iris faces
    QVector3D up{0, 0, 1};       // unit, perpendicular to forward
    float radius = 0.5f;
    float irisRadius = 0.25f;
};

class EyeScene : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    EyeScene(Qt3DRender::QLayer* linesLayer, Qt3DCore::QNode* parent = nullptr);
    // No eyes: nothing drawn. `target`: the look-at point (a cross marker in a box and a line
    // from each eye); `markerSize` the marker's half width in model units. Without a target,
    // `handle` draws the marker alone, dimmer, where the viewport lets it be grabbed.
    void setEyes(const std::vector<EyeDrawing>& eyes, std::optional<QVector3D> target,
                 float markerSize, std::optional<QVector3D> handle = {});
    std::size_t segmentCount() const { return m_segments; }
    const std::vector<EyeDrawing>& eyes() const { return m_drawn; } // as last set

private:
    std::vector<EyeDrawing> m_drawn;
    LineGeometry* m_lines;
    std::size_t m_segments = 0;
};

} // namespace rigscope::render
