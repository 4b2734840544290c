#include "render/materials.h"

#include <algorithm>

#include <QtGui/QVector4D>
#include <Qt3DRender/QAbstractTexture>
#include <Qt3DRender/QBlendEquation>
#include <Qt3DRender/QBlendEquationArguments>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QRenderState>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTechnique>

namespace rigscope::render {

void addOverBlend(Qt3DRender::QRenderPass* pass)
{
    auto* eq = new Qt3DRender::QBlendEquation;
    eq->setBlendFunction(Qt3DRender::QBlendEquation::Add);
    auto* args = new Qt3DRender::QBlendEquationArguments;
    args->setSourceRgb(Qt3DRender::QBlendEquationArguments::SourceAlpha);
    args->setDestinationRgb(Qt3DRender::QBlendEquationArguments::OneMinusSourceAlpha);
    args->setSourceAlpha(Qt3DRender::QBlendEquationArguments::One);
    args->setDestinationAlpha(Qt3DRender::QBlendEquationArguments::OneMinusSourceAlpha);
    pass->addRenderState(eq);
    pass->addRenderState(args);
}

namespace {

constexpr char kShadedVert[] = R"(#version 150 core
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
in vec3 vertexHeat;
out vec3 vNormal;
out vec3 vPos;
out vec2 vUv;
out vec3 vHeat;
uniform mat4 modelView;
uniform mat3 modelViewNormal;
uniform mat4 mvp;
void main()
{
    vNormal = modelViewNormal * vertexNormal;
    vPos = (modelView * vec4(vertexPosition, 1.0)).xyz;
    vUv = vertexTexCoord;
    vHeat = vertexHeat;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
)";

constexpr char kShadedFrag[] = R"(#version 150 core
in vec3 vNormal;
in vec3 vPos;
in vec2 vUv;
in vec3 vHeat;
out vec4 fragColor;
uniform mat4 projectionMatrix;
uniform float heatMap;
uniform vec4 baseColor;
uniform sampler2D diffuseTexture;
uniform float useTexture;
uniform vec4 highlight;
uniform float flatShading;
uniform float alphaReference;
uniform float blendMode;
uniform vec4 tint;
uniform float fullbright;
uniform float evenLight;
void main()
{
    vec3 faceN = normalize(cross(dFdx(vPos), dFdy(vPos)));
    vec3 n = (flatShading > 0.5 || dot(vNormal, vNormal) < 1e-12) ? faceN : normalize(vNormal);
    vec3 v = projectionMatrix[3][3] > 0.5 ? vec3(0.0, 0.0, 1.0) : normalize(-vPos);
    if (dot(n, v) < 0.0)
        n = -n;
    vec3 albedo = baseColor.rgb;
    float alpha = baseColor.a; // untextured: the colour's own alpha (the physics hulls)
    if (useTexture > 0.5) {
        // Images are uploaded top row first; SMD v runs up.
        vec4 t = texture(diffuseTexture, vec2(vUv.x, 1.0 - vUv.y));
        albedo = t.rgb * tint.rgb;
        alpha = t.a;
        if (alphaReference > 0.0 && alpha < alphaReference)
            discard; // $alphatest
    }
    if (heatMap > 0.5)
        albedo = vHeat; // weight views: colours computed on the CPU (render/model_scene.cpp)
    vec3 key = normalize(vec3(-0.45, 0.65, 0.65));
    vec3 fill = normalize(vec3(0.7, -0.25, 0.45));
    vec3 rim = normalize(vec3(0.0, 0.3, -1.0));
    float diffuse = 0.72 * max(dot(n, key), 0.0) + 0.28 * max(dot(n, fill), 0.0) + 0.2;
    float rimTerm = 0.18 * pow(1.0 - max(dot(n, v), 0.0), 3.0) + 0.05 * max(dot(n, rim), 0.0);
    vec3 h = normalize(key + v);
    float spec = 0.12 * pow(max(dot(n, h), 0.0), 40.0);
    vec3 c = albedo * diffuse + vec3(spec + rimTerm);
    if (evenLight > 0.5 && heatMap < 0.5)
        c = albedo * 0.8; // GoldSrc flatshade: one light level whatever the normal
    if (fullbright > 0.5 && useTexture > 0.5 && heatMap < 0.5)
        c = albedo;
    c = mix(c, highlight.rgb, highlight.a);
    // blendMode: 0 opaque, 1 translucent (alpha blend), 2 additive (colour times alpha, added)
    fragColor = vec4(blendMode > 1.5 ? c * alpha : c, blendMode > 0.5 ? alpha : 1.0);
}
)";

constexpr char kLineVert[] = R"(#version 150 core
in vec3 vertexPosition;
in vec4 vertexColor;
out vec4 vColor;
uniform mat4 mvp;
void main()
{
    vColor = vertexColor;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
)";

constexpr char kLineFrag[] = R"(#version 150 core
in vec4 vColor;
out vec4 fragColor;
void main()
{
    fragColor = vColor;
}
)";

constexpr char kBackgroundVert[] = R"(#version 150 core
in vec3 vertexPosition;
in vec4 vertexColor;
out vec4 vColor;
void main()
{
    vColor = vertexColor;
    gl_Position = vec4(vertexPosition.xy, 0.9999, 1.0);
}
)";

constexpr char kSolidVert[] = R"(#version 150 core
in vec3 vertexPosition;
in vec3 vertexNormal;
out vec3 vNormal;
uniform mat3 modelViewNormal;
uniform mat4 mvp;
void main()
{
    vNormal = modelViewNormal * vertexNormal;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
)";

constexpr char kSolidFrag[] = R"(#version 150 core
in vec3 vNormal;
out vec4 fragColor;
uniform vec4 solidColor;
void main()
{
    float d = 0.55 + 0.45 * max(normalize(vNormal).z, 0.0);
    fragColor = vec4(solidColor.rgb * d, solidColor.a);
}
)";

Qt3DRender::QEffect* makeEffect(const char* vert, const char* frag, DepthMode depth, bool blend,
                                Qt3DCore::QNode* parent)
{
    auto* effect = new Qt3DRender::QEffect(parent);
    auto* technique = new Qt3DRender::QTechnique;
    technique->graphicsApiFilter()->setApi(Qt3DRender::QGraphicsApiFilter::OpenGL);
    technique->graphicsApiFilter()->setProfile(Qt3DRender::QGraphicsApiFilter::CoreProfile);
    technique->graphicsApiFilter()->setMajorVersion(3);
    technique->graphicsApiFilter()->setMinorVersion(2);
    auto* key = new Qt3DRender::QFilterKey;
    key->setName(QStringLiteral("renderingStyle"));
    key->setValue(QStringLiteral("forward"));
    technique->addFilterKey(key);

    auto* pass = new Qt3DRender::QRenderPass;
    auto* program = new Qt3DRender::QShaderProgram;
    program->setVertexShaderCode(QByteArray(vert));
    program->setFragmentShaderCode(QByteArray(frag));
    pass->setShaderProgram(program);

    auto* cull = new Qt3DRender::QCullFace;
    cull->setMode(Qt3DRender::QCullFace::NoCulling);
    pass->addRenderState(cull);
    auto* test = new Qt3DRender::QDepthTest;
    test->setDepthFunction(depth == DepthMode::OnTop ? Qt3DRender::QDepthTest::Always
                                                     : Qt3DRender::QDepthTest::LessOrEqual);
    pass->addRenderState(test);
    if (depth != DepthMode::Scene) {
        pass->addRenderState(new Qt3DRender::QNoDepthMask);
    }
    if (blend) {
        addOverBlend(pass);
    }
    technique->addRenderPass(pass);
    effect->addTechnique(technique);
    return effect;
}

QVector4D rgba(const QColor& c)
{
    return {float(c.redF()), float(c.greenF()), float(c.blueF()), float(c.alphaF())};
}

} // namespace

ShadedMaterial::ShadedMaterial(const QColor& base, Qt3DCore::QNode* parent)
    : Qt3DRender::QMaterial(parent),
      m_base(new Qt3DRender::QParameter(QStringLiteral("baseColor"), rgba(base))),
      m_texture(new Qt3DRender::QParameter(QStringLiteral("diffuseTexture"), QVariant())),
      m_useTexture(new Qt3DRender::QParameter(QStringLiteral("useTexture"), 0.0f)),
      m_highlight(
          new Qt3DRender::QParameter(QStringLiteral("highlight"), QVector4D(1, 0.6f, 0.1f, 0))),
      m_flat(new Qt3DRender::QParameter(QStringLiteral("flatShading"), 0.0f)),
      m_heat(new Qt3DRender::QParameter(QStringLiteral("heatMap"), 0.0f)),
      m_alphaReference(new Qt3DRender::QParameter(QStringLiteral("alphaReference"), 0.0f)),
      m_blendMode(new Qt3DRender::QParameter(QStringLiteral("blendMode"), 0.0f)),
      m_tint(new Qt3DRender::QParameter(QStringLiteral("tint"), QVector4D(1, 1, 1, 1))),
      m_fullbright(new Qt3DRender::QParameter(QStringLiteral("fullbright"), 0.0f)),
      m_evenLight(new Qt3DRender::QParameter(QStringLiteral("evenLight"), 0.0f))
{
    setEffect(makeEffect(kShadedVert, kShadedFrag, DepthMode::Scene, false, this));
    for (Qt3DRender::QRenderState* st :
         effect()->techniques().first()->renderPasses().first()->renderStates()) {
        if (auto* cull = qobject_cast<Qt3DRender::QCullFace*>(st)) {
            m_cull = cull;
        }
    }
    addParameter(m_alphaReference);
    addParameter(m_blendMode);
    addParameter(m_tint);
    addParameter(m_fullbright);
    addParameter(m_evenLight);
    addParameter(m_base);
    addParameter(m_useTexture);
    addParameter(m_highlight);
    addParameter(m_flat);
    addParameter(m_heat);
}

void ShadedMaterial::setSurface(const Surface& s)
{
    m_alphaReference->setValue(s.alphaTest ? std::max(0.001f, s.alphaReference) : 0.0f);
    m_tint->setValue(rgba(s.tint));
    m_fullbright->setValue(s.fullbright ? 1.0f : 0.0f);
    m_evenLight->setValue(s.evenLight ? 1.0f : 0.0f);
    if (m_cull) {
        // SMD front faces wind counter-clockwise around their normal, as OpenGL's do.
        m_cull->setMode(s.cullBack ? Qt3DRender::QCullFace::Back
                                   : Qt3DRender::QCullFace::NoCulling);
    }
    m_blend = s.blend;
    m_blendMode->setValue(s.blend == Blend::Opaque ? 0.0f
                                                   : (s.blend == Blend::Alpha ? 1.0f : 2.0f));
    if (s.blend == Blend::Opaque || m_blendSet) {
        return;
    }
    m_blendSet = true;
    Qt3DRender::QRenderPass* pass = effect()->techniques().first()->renderPasses().first();
    auto* eq = new Qt3DRender::QBlendEquation;
    eq->setBlendFunction(Qt3DRender::QBlendEquation::Add);
    auto* args = new Qt3DRender::QBlendEquationArguments;
    if (s.blend == Blend::Additive) {
        args->setSourceRgb(Qt3DRender::QBlendEquationArguments::One);
        args->setDestinationRgb(Qt3DRender::QBlendEquationArguments::One);
    } else {
        args->setSourceRgb(Qt3DRender::QBlendEquationArguments::SourceAlpha);
        args->setDestinationRgb(Qt3DRender::QBlendEquationArguments::OneMinusSourceAlpha);
    }
    args->setSourceAlpha(Qt3DRender::QBlendEquationArguments::Zero);
    args->setDestinationAlpha(Qt3DRender::QBlendEquationArguments::One);
    pass->addRenderState(eq);
    pass->addRenderState(args);
    pass->addRenderState(new Qt3DRender::QNoDepthMask);
}

void ShadedMaterial::setHeatMap(bool on)
{
    m_heat->setValue(on ? 1.0f : 0.0f);
}

void ShadedMaterial::setBaseColor(const QColor& c)
{
    m_base->setValue(rgba(c));
}

QColor ShadedMaterial::baseColor() const
{
    const auto v = m_base->value().value<QVector4D>();
    return QColor::fromRgbF(v.x(), v.y(), v.z(), v.w());
}

void ShadedMaterial::setTexture(Qt3DRender::QAbstractTexture* texture, bool shown)
{
    m_hasTexture = texture != nullptr && shown;
    if (texture) {
        m_texture->setValue(QVariant::fromValue(texture));
        if (!parameters().contains(m_texture)) {
            addParameter(m_texture);
        }
    }
    m_useTexture->setValue(m_hasTexture && m_texturesEnabled ? 1.0f : 0.0f);
}

void ShadedMaterial::setTextureShown(bool shown)
{
    m_hasTexture = shown && parameters().contains(m_texture);
    m_useTexture->setValue(m_hasTexture && m_texturesEnabled ? 1.0f : 0.0f);
}

void ShadedMaterial::setTexturesEnabled(bool on)
{
    m_texturesEnabled = on;
    m_useTexture->setValue(m_hasTexture && m_texturesEnabled ? 1.0f : 0.0f);
}

void ShadedMaterial::setHighlight(const QColor& c, float amount)
{
    QVector4D v = rgba(c);
    v.setW(amount);
    m_highlight->setValue(v);
}

void ShadedMaterial::setFlatShading(bool on)
{
    m_flat->setValue(on ? 1.0f : 0.0f);
}

LineMaterial::LineMaterial(DepthMode depth, Qt3DCore::QNode* parent) : Qt3DRender::QMaterial(parent)
{
    setEffect(makeEffect(kLineVert, kLineFrag, depth, true, this));
}

BackgroundMaterial::BackgroundMaterial(Qt3DCore::QNode* parent) : Qt3DRender::QMaterial(parent)
{
    setEffect(makeEffect(kBackgroundVert, kLineFrag, DepthMode::NoWrite, false, this));
}

SolidMaterial::SolidMaterial(const QColor& c, DepthMode depth, Qt3DCore::QNode* parent)
    : Qt3DRender::QMaterial(parent),
      m_color(new Qt3DRender::QParameter(QStringLiteral("solidColor"), rgba(c)))
{
    setEffect(makeEffect(kSolidVert, kSolidFrag, depth, true, this));
    addParameter(m_color);
}

void SolidMaterial::setColor(const QColor& c)
{
    m_color->setValue(rgba(c));
}

} // namespace rigscope::render
