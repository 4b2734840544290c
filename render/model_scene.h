#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include <Eigen/Geometry>
#include <QtCore/QFuture>
#include <QtCore/QStringList>
#include <QtGui/QImage>
#include <QtGui/QColor>
#include <QtGui/QVector3D>
#include <Qt3DCore/QEntity>

#include "core/diag/profile.h"
#include "core/model/model.h"
#include "core/model/jiggle.h"
#include "core/pose/effective_weights.h"
#include "core/pose/scene_evaluator.h"
#include "core/pose/weight_stats.h"
#include "render/texture_loader.h"

namespace Qt3DCore {
class QTransform;
}
namespace Qt3DRender {
class QLayer;
}
namespace Qt3DExtras {
class QSphereMesh;
}

namespace rigscope::render {

class LabelLayer;
class LineGeometry;
class LineList;
class ShadedMaterial;
class SolidMaterial;
class StreamedImage;
class TriangleGeometry;

// Mesh colouring by skinning weights (UX.md `K`: off → selected bone → influence count →
// weight change).
enum class HeatMap : std::uint8_t { Off, SelectedBone, InfluenceCount, WeightChange };

// What the viewport draws. Plain values; the app stores them in settings.
struct DisplayFlags {
    bool mesh = true;
    bool wireframe = false; // overlay on the shaded mesh
    bool wireOnly = false;  // no shading, wires only
    bool skeleton = true;
    bool boneNames = false;
    bool normals = false;
    bool textures = true;
    bool flatShading = false;
    HeatMap heatMap = HeatMap::Off;
    bool compiledWeights = false; // Shift+K: skin (and colour) with the profile's compiled weights
    bool boundingBox = false;
    bool grid = true;
    bool axes = true;
    bool operator==(const DisplayFlags&) const = default;
};

// Layers the viewport's frame graph draws in order: opaque meshes, see-through surfaces over
// them (depth-tested against the meshes, no depth writes), scene lines (depth-tested, no depth
// writes), then overlays on top of everything.
struct SceneLayers {
    Qt3DRender::QLayer* mesh = nullptr;
    Qt3DRender::QLayer* lines = nullptr;
    Qt3DRender::QLayer* overlay = nullptr;
    Qt3DRender::QLayer* translucent = nullptr; // drawn second, after the meshes
};

// Radius of an unselected joint sphere on screen, in pixels (selected: 1.6×; the picked
// corner's marker: 1.3×).
inline constexpr float kJointPixels = 4.0f;

// The world size of one screen pixel at a point: constant + perDepth × its depth along
// `forward` from `eye` (perspective: perDepth; orthographic: constant).
struct PixelScale {
    QVector3D eye;
    QVector3D forward{0, 0, -1};
    float perDepth = 0;
    float constant = 0;
    float at(const QVector3D& p) const
    {
        return constant + perDepth * std::max(QVector3D::dotProduct(p - eye, forward), 0.0f);
    }
};

// Largest texture side drawn (a larger VTF's smaller mip, other images scaled): bounds a
// texture's memory to 16 MB of pixels. A model's textures together are held to kTextureBudget
// bytes of decoded pixels at their caps: with many textures the cap is lower (down to 256).
inline constexpr int kTextureMaxSide = 2048;
inline constexpr qint64 kTextureBudget = qint64(512) << 20;

// Colour of material `i` when it has no texture (a soft, distinguishable palette).
QColor paletteColor(std::size_t i);

// Heat-map colours (before lighting). Ramp: 0 → slate, then blue → green → yellow → red.
QColor weightRampColor(float w);
// Influence-count view: 1 blue, 2 green, 3 yellow, 4+ orange; over the profile's limit red;
// problem points (unweighted, zero-sum, NaN, unknown bone) magenta.
QColor influenceCountColor(int links, bool overLimit, bool problem);

// Extra line markers on joints (QC projects, issue 17): an attachment as small named axes at
// `offset` in the joint's space (`absolute`: in model space at the bind pose), a hitbox as a
// wire box `min`..`max` in the joint's space, a jiggle bone (issue 32) as its tip axis and
// the limits of `jiggle` around the frame its animation gives it (its parent's pose times its
// bind transform): the yaw arc (left-forward plane), the pitch arc (up-forward plane) and the
// angle cone. Drawn with the skeleton, following the pose.
struct SceneMarker {
    enum class Kind : std::uint8_t { Axes, Box, Jiggle };
    Kind kind = Kind::Axes;
    int joint = -1;
    core::Vec3 offset = core::Vec3::Zero();
    bool absolute = false;
    core::Vec3 min = core::Vec3::Zero(), max = core::Vec3::Zero();
    core::Mat3 rotation = core::Mat3::Identity(); // the axes' turn in the joint's space
    QColor color;
    QString name;              // shown beside attachments
    core::JiggleParams jiggle; // Kind::Jiggle
};

// Qt3D entities for one core::Model: per-material shaded meshes, wireframe, normals, bounding
// box (scene layer) and the skeleton, selection markers (overlay layer, drawn on top).
// Built by SceneBuilder::build; render never mutates core. Skinning runs on the CPU.
class ModelScene : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    // Built for `flags` and the weights of `profile` (the buffers are made once).
    ModelScene(std::shared_ptr<const core::Model> model, const MaterialSources& sources,
               const struct SceneLayers& layers, Qt3DCore::QNode* parent = nullptr,
               const DisplayFlags& flags = {}, core::Profile profile = core::Profile::Source);
    ~ModelScene() override;

    const core::Model& model() const { return *m_model; }
    std::shared_ptr<const core::Model> sharedModel() const { return m_model; }

    // Model-space joint matrices; empty = bind pose. Skins the mesh (linear blend). The same
    // pose again (rest pose again) changes nothing.
    void setPose(const std::vector<Eigen::Affine3f>& world);
    // The flex shapes' values (core::SceneEvaluator morphs them, stereo split included).
    void setFlex(const core::FlexSetting& setting);
    // The document's evaluator for this model (its flex shapes): the one core path that poses,
    // morphs and skins (issue 28). Ignored when it evaluates another model; a scene starts
    // with an evaluator of its model alone.
    void setEvaluator(std::shared_ptr<const core::SceneEvaluator> evaluator);
    const core::SceneEvaluator& evaluator() const { return *m_evaluator; }
    void setDisplay(const DisplayFlags& flags);
    const DisplayFlags& display() const { return m_flags; }

    // Profile whose compiled weights Shift+K shows and whose link limit the influence-count
    // view uses (CHECKS.md §5).
    void setWeightProfile(core::Profile profile);
    core::Profile weightProfile() const { return m_profile; }
    // Extra problem points for the influence-count view (1 = problem), e.g. from
    // weights.unknown-bone diagnostics; the model alone cannot show dropped links.
    void setProblemPoints(const std::vector<std::uint8_t>& mask);
    const core::WeightStats& weightStats() const { return stats(); }
    // Weight-change view in a pose: the largest distance a point moves between authored and
    // compiled skinning (0 at rest pose or in other views).
    float maxDisplacement() const
    {
        float most = 0;
        for (const float d : m_displacement) {
            most = d > most ? d : most;
        }
        return most;
    }
    // Per-point heat-map colour of the current mode (empty when off).
    const std::vector<QColor>& heatColors() const { return m_heatColors; }

    void setMarkers(std::vector<SceneMarker> markers);
    const std::vector<SceneMarker>& markers() const { return m_markers; }
    // The markers drawn: those set, then the model's own attachments (DMX DmeAttachment) as
    // named axes at their position and rotation on their joint.
    std::vector<SceneMarker> shownMarkers() const;
    void setSelectedJoint(int joint); // -1 = none
    void setSelectedMaterial(int material);
    void setSelectedTriangle(int triangle, int corner);
    int selectedJoint() const { return m_selJoint; }
    int selectedMaterial() const { return m_selMaterial; }
    int selectedTriangle() const { return m_selTriangle; }
    void setViewportSize(const QSizeF& size);
    // Joint spheres and the picked-corner marker are sized in screen pixels (issue 15): they
    // keep their size when zooming and never hide a framed triangle.
    void setPixelScale(const PixelScale& scale);
    // World radius of joint `j`'s sphere as drawn now.
    float jointRadius(int j) const;

    // Current (posed) data, used for picking and framing.
    const std::vector<core::Vec3>& pointPositions() const { return m_points; }
    // The bone and attachment names drawn now.
    const QStringList& labelTexts() const { return m_labelTexts; }
    // Per corner: the normal drawn (unit; zero where the face's normal is used).
    const std::vector<core::Vec3>& cornerNormals() const { return m_cornerNormals; }
    const std::vector<Eigen::Affine3f>& jointWorld() const { return m_world; }
    core::Bounds bounds() const;
    float size() const { return m_size; } // bind-pose bounding box diagonal (> 0)

    // Textures not in place yet (0 when textures are off): they stream in after the model is
    // shown; texturesLoaded() is emitted when the last one is in place.
    int texturesPending() const { return m_flags.textures ? m_texturesPending : 0; }
    // Starts decoding the textures (once; nothing when textures are off): the viewport calls it
    // after the first frame, so that decoding never delays it.
    void startTextureDecodes();
    // The viewport will call startTextureDecodes() after its first frame: waitForTextures()
    // waits for that instead of starting them.
    void deferTextureDecodes() { m_decodesDeferred = true; }
    // Waits (running the event loop) until every texture is in place; false on timeout.
    bool waitForTextures(int timeoutMs = 30000);

    // The image drawn for a material (empty: flat colour, or the checkerboard).
    QString texturePath(std::size_t material) const;
    QColor materialColor(std::size_t material) const;
    // How a material was looked up (VMT, shader, texture, or missing and where it was searched).
    const MaterialLook* materialLook(std::size_t material) const;
    // True when `sources` would draw some material differently (another profile, other roots).
    bool looksDifferFrom(const MaterialSources& sources) const;

signals:
    void texturesLoaded();

private:
    static int textureSideFor(const std::vector<StreamedImage*>& streams);
    void startDecode(std::size_t material);
    void textureDecoded(std::size_t material, const QImage& image);
    // Builds the buffers for `world` (empty: bind pose), the current flags, morphs and weights.
    void rebuild(const std::vector<Eigen::Affine3f>& world);
    // Skinning weights (the evaluator's, cached there) and their statistics for m_profile, made
    // when first needed (a rest pose without weight views needs none).
    const core::Influences& influences(bool compiled) const;
    const core::WeightStats& stats() const;
    void computeHeat();
    void reskin();
    // Poses, morphs and skins through the evaluator into m_points / m_cornerNormals.
    void evaluate(const std::vector<Eigen::Affine3f>& world);
    core::Vec3 cornerNormal(std::size_t corner, const core::Vec3& faceN) const;
    void fillMeshBuffers();
    void rebuildWireAndNormals();
    void rebuildBounds();
    void rebuildSkeleton();
    void appendMarkerLines(LineList& lines) const;
    void appendJiggleLines(LineList& lines, const SceneMarker& marker) const;
    void rebuildSelection();
    void applyVisibility();
    void applyJointScales();

    std::shared_ptr<const core::Model> m_model;
    DisplayFlags m_flags;
    float m_size = 1.0f;
    std::shared_ptr<const core::SceneEvaluator> m_evaluator;
    core::FlexSetting m_flex;
    std::vector<Eigen::Affine3f> m_world;
    std::vector<core::Vec3> m_points;        // per mesh point, as drawn
    std::vector<core::Vec3> m_cornerNormals; // per corner, unit (zero: use the face's)
    std::vector<std::vector<std::uint32_t>> m_materialTris;
    core::Profile m_profile = core::Profile::Source;
    mutable std::optional<core::WeightStats> m_stats;
    std::vector<float> m_displacement; // per point, weight-change view in a pose (else empty)
    std::vector<std::uint8_t> m_problemPoints;
    std::vector<SceneMarker> m_markers;
    QStringList m_labelTexts;
    std::vector<QColor> m_heatColors;

    Qt3DCore::QEntity* m_sceneRoot;
    Qt3DCore::QEntity* m_linesRoot;
    Qt3DCore::QEntity* m_overlayRoot;
    Qt3DCore::QEntity* m_meshRoot;
    std::vector<TriangleGeometry*> m_meshGeometry;
    std::vector<ShadedMaterial*> m_materials;
    std::vector<QString> m_texturePaths;
    std::vector<MaterialLook> m_looks;
    std::vector<QColor> m_colors;
    std::vector<StreamedImage*> m_streams;  // per material: pixels still to come (else null)
    std::vector<QFuture<QImage>> m_decodes; // per material: its decode until it is in
    std::unique_ptr<QObject> m_decodeOwner; // the decodes' watchers
    int m_texturesPending = 0;              // textures still to come (decoding or not started)
    int m_textureSide = kTextureMaxSide;    // this model's cap (textureSideFor)
    bool m_decodesStarted = false;
    bool m_decodesDeferred = false;

    Qt3DCore::QEntity* m_wireEntity;
    LineGeometry* m_wire;
    Qt3DCore::QEntity* m_normalsEntity;
    LineGeometry* m_normals;
    Qt3DCore::QEntity* m_bboxEntity;
    LineGeometry* m_bbox;

    Qt3DCore::QEntity* m_skeletonRoot;
    LineGeometry* m_bones;
    Qt3DExtras::QSphereMesh* m_jointMesh;
    SolidMaterial* m_jointMaterial;
    SolidMaterial* m_jointSelectedMaterial;
    std::vector<Qt3DCore::QEntity*> m_joints;
    std::vector<Qt3DCore::QTransform*> m_jointTransforms;

    LabelLayer* m_boneLabels;
    LabelLayer* m_boxLabels;
    Qt3DCore::QEntity* m_selectionEntity;
    LineGeometry* m_selection;
    Qt3DCore::QEntity* m_cornerMarker;
    Qt3DCore::QTransform* m_cornerTransform = nullptr;

    PixelScale m_pixelScale;
    bool m_posed = false;
    bool m_degenerate = false; // bounds of zero size (a lone joint)
    int m_selJoint = -1;
    int m_selMaterial = -1;
    int m_selTriangle = -1;
    int m_selCorner = -1;
};

// HOUSE_STYLE §9 entry point.
struct SceneBuilder {
    static ModelScene* build(std::shared_ptr<const core::Model> model,
                             const MaterialSources& sources, const SceneLayers& layers,
                             Qt3DCore::QNode* parent, const DisplayFlags& flags = {},
                             core::Profile profile = core::Profile::Source);
};

} // namespace rigscope::render
