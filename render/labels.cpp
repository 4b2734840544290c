#include "render/labels.h"
#include "render/materials.h"

#include <algorithm>
#include <cmath>

#include <QtGui/QFont>
#include <QtGui/QFontMetrics>
#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtGui/QVector2D>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QPointSize>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTechnique>

namespace rigscope::render {

// x y z (anchor), dx dy (pixels, y down), r g b a.
class ScreenGeometry : public Qt3DRender::QGeometryRenderer {
public:
    ScreenGeometry(PrimitiveType type, Qt3DCore::QNode* parent)
        : Qt3DRender::QGeometryRenderer(parent)
    {
        auto* g = new Qt3DCore::QGeometry(this);
        m_buffer = new Qt3DCore::QBuffer(g);
        const struct {
            QString name;
            uint size, offset;
        } layout[] = {{Qt3DCore::QAttribute::defaultPositionAttributeName(), 3, 0},
                      {QStringLiteral("vertexOffset"), 2, 3},
                      {Qt3DCore::QAttribute::defaultColorAttributeName(), 4, 5}};
        for (const auto& l : layout) {
            auto* a = new Qt3DCore::QAttribute(g);
            a->setName(l.name);
            a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
            a->setVertexBaseType(Qt3DCore::QAttribute::Float);
            a->setVertexSize(l.size);
            a->setByteOffset(l.offset * sizeof(float));
            a->setByteStride(9 * sizeof(float));
            a->setBuffer(m_buffer);
            g->addAttribute(a);
            m_attributes.push_back(a);
        }
        setGeometry(g);
        setPrimitiveType(type);
        setEnabled(false);
    }
    void setData(const std::vector<float>& data)
    {
        m_buffer->setData(QByteArray(reinterpret_cast<const char*>(data.data()),
                                     qsizetype(data.size() * sizeof(float))));
        const auto count = uint(data.size() / 9);
        for (auto* a : m_attributes) {
            a->setCount(count);
        }
        setVertexCount(int(count));
        setEnabled(count > 0);
    }

private:
    Qt3DCore::QBuffer* m_buffer;
    std::vector<Qt3DCore::QAttribute*> m_attributes;
};

namespace {

constexpr char kScreenVert[] = R"(#version 150 core
in vec3 vertexPosition;
in vec2 vertexOffset;
in vec4 vertexColor;
out vec4 vColor;
uniform mat4 mvp;
uniform vec2 viewportSize;
void main()
{
    vec4 c = mvp * vec4(vertexPosition, 1.0);
    vec2 size = max(viewportSize, vec2(1.0));
    // Snap the anchor to a pixel so glyph pixels land on pixel centres.
    vec2 pix = floor((c.xy / c.w * 0.5 + 0.5) * size);
    pix += vec2(vertexOffset.x, -vertexOffset.y) + vec2(0.5);
    c.xy = (pix / size * 2.0 - 1.0) * c.w;
    c.z = -c.w * 0.999; // in front of everything in the overlay
    vColor = vertexColor;
    gl_Position = c;
}
)";

constexpr char kScreenFrag[] = R"(#version 150 core
in vec4 vColor;
out vec4 fragColor;
void main()
{
    fragColor = vColor;
}
)";

Qt3DRender::QMaterial* makeScreenMaterial(Qt3DRender::QParameter* viewport, Qt3DCore::QNode* parent)
{
    auto* material = new Qt3DRender::QMaterial(parent);
    auto* effect = new Qt3DRender::QEffect(material);
    auto* technique = new Qt3DRender::QTechnique;
    technique->graphicsApiFilter()->setApi(Qt3DRender::QGraphicsApiFilter::OpenGL);
    technique->graphicsApiFilter()->setProfile(Qt3DRender::QGraphicsApiFilter::CoreProfile);
    technique->graphicsApiFilter()->setMajorVersion(3);
    technique->graphicsApiFilter()->setMinorVersion(2);
    auto* pass = new Qt3DRender::QRenderPass;
    auto* program = new Qt3DRender::QShaderProgram;
    program->setVertexShaderCode(QByteArray(kScreenVert));
    program->setFragmentShaderCode(QByteArray(kScreenFrag));
    pass->setShaderProgram(program);
    auto* depth = new Qt3DRender::QDepthTest;
    depth->setDepthFunction(Qt3DRender::QDepthTest::Always);
    pass->addRenderState(depth);
    pass->addRenderState(new Qt3DRender::QNoDepthMask);
    auto* cull = new Qt3DRender::QCullFace;
    cull->setMode(Qt3DRender::QCullFace::NoCulling);
    pass->addRenderState(cull);
    auto* points = new Qt3DRender::QPointSize;
    points->setSizeMode(Qt3DRender::QPointSize::Fixed);
    points->setValue(1.0f);
    pass->addRenderState(points);
    addOverBlend(pass);
    technique->addRenderPass(pass);
    effect->addTechnique(technique);
    material->setEffect(effect);
    material->addParameter(viewport);
    return material;
}

QFont labelFont()
{
    QFont f;
    f.setPixelSize(11);
    f.setStyleHint(QFont::SansSerif);
    f.setHintingPreference(QFont::PreferFullHinting);
    return f;
}

constexpr int kPadX = 4;
constexpr int kHeight = 15;
constexpr float kOffsetX = 7.0f; // label box starts right of and above the anchor
constexpr float kOffsetY = -kHeight - 3.0f;

int labelWidth(const QString& text)
{
    return QFontMetrics(labelFont()).horizontalAdvance(text) + 2 * kPadX;
}

} // namespace

std::vector<QRectF> labelBoxes(const std::vector<Label>& labels)
{
    // Anchors closer than this (relative to the labels' extent) are one place.
    float extent = 0;
    for (const Label& l : labels) {
        extent = std::max(
            {extent, std::abs(l.anchor.x()), std::abs(l.anchor.y()), std::abs(l.anchor.z())});
    }
    const float same = std::max(extent * 1e-5f, 1e-6f);
    std::vector<QRectF> out;
    out.reserve(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        int row = 0;
        for (std::size_t k = 0; k < i; ++k) {
            row += labels[k].below == labels[i].below &&
                           (labels[k].anchor - labels[i].anchor).length() <= same
                       ? 1
                       : 0;
        }
        const float step = float(kHeight + 1);
        const float y = labels[i].below ? 3.0f + float(row) * step : kOffsetY - float(row) * step;
        out.emplace_back(kOffsetX, y, labelWidth(labels[i].text), kHeight);
    }
    return out;
}

LabelLayer::LabelLayer(Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent),
      m_viewport(new Qt3DRender::QParameter(QStringLiteral("viewportSize"), QVector2D(256, 256)))
{
    auto* bgEntity = new Qt3DCore::QEntity(this);
    m_background = new ScreenGeometry(Qt3DRender::QGeometryRenderer::Triangles, bgEntity);
    bgEntity->addComponent(m_background);
    bgEntity->addComponent(makeScreenMaterial(m_viewport, bgEntity));
    auto* textEntity = new Qt3DCore::QEntity(this);
    m_text = new ScreenGeometry(Qt3DRender::QGeometryRenderer::Points, textEntity);
    textEntity->addComponent(m_text);
    textEntity->addComponent(makeScreenMaterial(m_viewport, textEntity));
}

void LabelLayer::setViewportSize(const QSizeF& size)
{
    m_viewport->setValue(QVector2D(float(size.width()), float(size.height())));
}

const LabelLayer::Glyphs& LabelLayer::glyphs(const QString& text)
{
    auto it = m_cache.find(text);
    if (it != m_cache.end()) {
        return it->second;
    }
    const QFont font = labelFont();
    const QFontMetrics fm(font);
    Glyphs g;
    g.width = fm.horizontalAdvance(text) + 2 * kPadX;
    g.height = kHeight;
    QImage image(g.width, g.height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.setFont(font);
        p.setPen(Qt::white);
        p.drawText(QRect(0, 0, g.width, g.height), Qt::AlignCenter, text);
    }
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int a = qAlpha(row[x]);
            if (a > 20) {
                g.pixels.insert(g.pixels.end(), {float(x), float(y), float(a) / 255.0f});
            }
        }
    }
    return m_cache.emplace(text, std::move(g)).first->second;
}

void LabelLayer::setLabels(const std::vector<Label>& labels)
{
    std::vector<float> text;
    std::vector<float> background;
    const QColor bg(18, 20, 24, 200);
    const std::vector<QRectF> boxes = labelBoxes(labels);
    for (std::size_t k = 0; k < labels.size(); ++k) {
        const Label& l = labels[k];
        const Glyphs& g = glyphs(l.text);
        const QVector3D& p = l.anchor;
        const float ox = float(boxes[k].x()), oy = float(boxes[k].y());
        for (std::size_t i = 0; i < g.pixels.size(); i += 3) {
            text.insert(text.end(), {p.x(), p.y(), p.z(), ox + g.pixels[i], oy + g.pixels[i + 1],
                                     float(l.color.redF()), float(l.color.greenF()),
                                     float(l.color.blueF()), g.pixels[i + 2]});
        }
        const float x0 = ox, x1 = ox + float(g.width), y0 = oy, y1 = oy + float(g.height);
        const float quad[6][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y0}, {x1, y1}, {x0, y1}};
        for (const auto& c : quad) {
            background.insert(background.end(),
                              {p.x(), p.y(), p.z(), c[0], c[1], float(bg.redF()),
                               float(bg.greenF()), float(bg.blueF()), float(bg.alphaF())});
        }
    }
    m_text->setData(text);
    m_background->setData(background);
}

} // namespace rigscope::render
