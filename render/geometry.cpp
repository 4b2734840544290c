#include "render/geometry.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>

namespace rigscope::render {

namespace {

Qt3DCore::QAttribute* makeAttribute(const QString& name, Qt3DCore::QBuffer* buffer, uint size,
                                    uint offsetFloats, uint strideFloats, Qt3DCore::QGeometry* g)
{
    auto* a = new Qt3DCore::QAttribute(g);
    a->setName(name);
    a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
    a->setVertexBaseType(Qt3DCore::QAttribute::Float);
    a->setVertexSize(size);
    a->setByteOffset(offsetFloats * sizeof(float));
    a->setByteStride(strideFloats * sizeof(float));
    a->setBuffer(buffer);
    a->setCount(0);
    g->addAttribute(a);
    return a;
}

QByteArray bytesOf(const std::vector<float>& v)
{
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
}

} // namespace

void LineList::add(const QVector3D& a, const QVector3D& b, const QColor& c)
{
    add(a, b, c, c);
}

void LineList::add(const QVector3D& a, const QVector3D& b, const QColor& ca, const QColor& cb)
{
    for (const auto& [p, c] : {std::pair{a, ca}, std::pair{b, cb}}) {
        m_data.insert(m_data.end(), {p.x(), p.y(), p.z(), float(c.redF()), float(c.greenF()),
                                     float(c.blueF()), float(c.alphaF())});
    }
}

LineGeometry::LineGeometry(Qt3DCore::QNode* parent) : Qt3DRender::QGeometryRenderer(parent)
{
    auto* g = new Qt3DCore::QGeometry(this);
    m_buffer = new Qt3DCore::QBuffer(g);
    m_position =
        makeAttribute(Qt3DCore::QAttribute::defaultPositionAttributeName(), m_buffer, 3, 0, 7, g);
    m_color =
        makeAttribute(Qt3DCore::QAttribute::defaultColorAttributeName(), m_buffer, 4, 3, 7, g);
    setGeometry(g);
    setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
    setVertexCount(0);
}

void LineGeometry::setLines(const LineList& lines)
{
    const auto count = uint(lines.vertexCount());
    m_buffer->setData(bytesOf(lines.data()));
    m_position->setCount(count);
    m_color->setCount(count);
    setVertexCount(int(count));
    setEnabled(count > 0);
}

TriangleGeometry::TriangleGeometry(Qt3DCore::QNode* parent) : Qt3DRender::QGeometryRenderer(parent)
{
    auto* g = new Qt3DCore::QGeometry(this);
    m_buffer = new Qt3DCore::QBuffer(g);
    const uint n = kStride;
    m_position =
        makeAttribute(Qt3DCore::QAttribute::defaultPositionAttributeName(), m_buffer, 3, 0, n, g);
    m_normal =
        makeAttribute(Qt3DCore::QAttribute::defaultNormalAttributeName(), m_buffer, 3, 3, n, g);
    m_uv = makeAttribute(Qt3DCore::QAttribute::defaultTextureCoordinateAttributeName(), m_buffer, 2,
                         6, n, g);
    m_heat = makeAttribute(QStringLiteral("vertexHeat"), m_buffer, 3, 8, n, g);
    setGeometry(g);
    setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
    setVertexCount(0);
}

void TriangleGeometry::setVertices(const std::vector<float>& interleaved)
{
    setVertices(bytesOf(interleaved));
}

void TriangleGeometry::setVertices(QByteArray interleaved)
{
    const auto count = uint(std::size_t(interleaved.size()) / (kStride * sizeof(float)));
    m_buffer->setData(std::move(interleaved));
    m_position->setCount(count);
    m_normal->setCount(count);
    m_uv->setCount(count);
    m_heat->setCount(count);
    setVertexCount(int(count));
    setEnabled(count > 0);
}

} // namespace rigscope::render
