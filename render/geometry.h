#pragma once

#include <vector>

#include <QtGui/QColor>
#include <QtGui/QVector3D>
#include <Qt3DRender/QGeometryRenderer>

namespace Qt3DCore {
class QAttribute;
class QBuffer;
} // namespace Qt3DCore

namespace rigscope::render {

// Builds interleaved line vertices: x y z r g b a per vertex, two vertices per segment.
class LineList {
public:
    void add(const QVector3D& a, const QVector3D& b, const QColor& c);
    void add(const QVector3D& a, const QVector3D& b, const QColor& ca, const QColor& cb);
    void clear() { m_data.clear(); }
    const std::vector<float>& data() const { return m_data; }
    std::size_t vertexCount() const { return m_data.size() / 7; }

private:
    std::vector<float> m_data;
};

// Lines (or points) from a LineList; the data is copied into a QByteArray (Qt3D reads it later
// on its own threads).
class LineGeometry : public Qt3DRender::QGeometryRenderer {
    Q_OBJECT
public:
    explicit LineGeometry(Qt3DCore::QNode* parent = nullptr);
    void setLines(const LineList& lines);

private:
    Qt3DCore::QBuffer* m_buffer;
    Qt3DCore::QAttribute* m_position;
    Qt3DCore::QAttribute* m_color;
};

// Non-indexed triangles: x y z nx ny nz u v r g b per vertex (r g b: heat-map colour, 0..1).
class TriangleGeometry : public Qt3DRender::QGeometryRenderer {
    Q_OBJECT
public:
    static constexpr int kStride = 11; // floats per vertex
    explicit TriangleGeometry(Qt3DCore::QNode* parent = nullptr);
    void setVertices(const std::vector<float>& interleaved);
    // The same, already as bytes (kStride floats per vertex), handed over without a copy.
    void setVertices(QByteArray interleaved);

private:
    Qt3DCore::QBuffer* m_buffer;
    Qt3DCore::QAttribute* m_position;
    Qt3DCore::QAttribute* m_normal;
    Qt3DCore::QAttribute* m_uv;
    Qt3DCore::QAttribute* m_heat;
};

} // namespace rigscope::render
