#pragma once

#include <QtGui/QColor>
#include <Qt3DRender/QMaterial>

namespace Qt3DRender {
class QAbstractTexture;
class QCullFace;
class QParameter;
class QRenderPass;
} // namespace Qt3DRender

namespace rigscope::render {

// Adds "over" blending to a pass: colour by the source alpha, alpha accumulated (overlays,
// labels).
void addOverBlend(Qt3DRender::QRenderPass* pass);

// How a material treats depth: normal scene geometry, or an overlay drawn on top of it.
enum class DepthMode { Scene, OnTop, NoWrite };

// Lit surface with a view-space key + fill light, two-sided (winding-agnostic: SMD is CCW,
// CoD clockwise), optional diffuse texture and a highlight tint. GLSL 1.50 core.
class ShadedMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    explicit ShadedMaterial(const QColor& base, Qt3DCore::QNode* parent = nullptr);
    void setBaseColor(const QColor& c);
    QColor baseColor() const;
    // nullptr = colour only. Set it before the material becomes a component: a texture
    // parameter added to a live material samples black (Qt 6.4, OpenGL renderer). `shown`
    // false: the flat colour until setTextureShown(true) (a texture whose pixels stream in).
    void setTexture(Qt3DRender::QAbstractTexture* texture, bool shown = true);
    void setTextureShown(bool shown);
    void setHighlight(const QColor& c, float amount);
    void setFlatShading(bool on);
    void setTexturesEnabled(bool on);
    void setHeatMap(bool on); // colour by the vertexHeat attribute instead of albedo

    // How a textured surface draws (VMT / $texrendermode): alpha test, blending, $color tint,
    // fullbright. Blending, once on, stays on for this material (render states are per pass).
    enum class Blend { Opaque, Alpha, Additive };
    struct Surface {
        bool alphaTest = false;
        float alphaReference = 0.5f;
        Blend blend = Blend::Opaque;
        QColor tint = Qt::white;
        bool fullbright = false;
        bool evenLight = false; // GoldSrc flatshade: lit evenly, the normal ignored
        // Back faces culled (a Source material without $nocull, as the engine draws it);
        // otherwise two-sided.
        bool cullBack = false;
    };
    void setSurface(const Surface& s);
    Blend blend() const { return m_blend; }

private:
    Qt3DRender::QParameter* m_base;
    Qt3DRender::QParameter* m_texture;
    Qt3DRender::QParameter* m_useTexture;
    Qt3DRender::QParameter* m_highlight;
    Qt3DRender::QParameter* m_flat;
    Qt3DRender::QParameter* m_heat;
    Qt3DRender::QParameter* m_alphaReference;
    Qt3DRender::QParameter* m_blendMode;
    Qt3DRender::QParameter* m_tint;
    Qt3DRender::QParameter* m_fullbright;
    Qt3DRender::QParameter* m_evenLight;
    Qt3DRender::QCullFace* m_cull = nullptr;
    Blend m_blend = Blend::Opaque;
    bool m_blendSet = false;
    bool m_hasTexture = false;
    bool m_texturesEnabled = true;
};

// Unlit per-vertex colour (attribute vertexColor, vec4) for lines, grid, gizmo and background.
class LineMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    explicit LineMaterial(DepthMode depth, Qt3DCore::QNode* parent = nullptr);
};

// Full-screen vertical gradient (vertex positions are clip-space x y; vertexColor per corner).
class BackgroundMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    explicit BackgroundMaterial(Qt3DCore::QNode* parent = nullptr);
};

// Uniform colour with a soft headlight, for joint spheres.
class SolidMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    SolidMaterial(const QColor& c, DepthMode depth, Qt3DCore::QNode* parent = nullptr);
    void setColor(const QColor& c);

private:
    Qt3DRender::QParameter* m_color;
};

} // namespace rigscope::render
