#include "render/model_scene.h"

#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <utility>

#include <QtCore/QFuture>
#include <QtCore/QCoreApplication>
#include <QtCore/QEventLoop>
#include <QtCore/QFutureWatcher>
#include <QtCore/QPromise>
#include <QtCore/QTimer>
#include <QtCore/QThread>
#include <QtCore/QThreadPool>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/QSphereMesh>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QAbstractTextureImage>
#include <Qt3DRender/QTextureImageData>
#include <Qt3DRender/QTextureImageDataGenerator>
#include <Qt3DRender/QTexture>

#include "render/convert.h"
#include "render/geometry.h"
#include "render/labels.h"
#include "render/materials.h"
#include "render/startup_timing.h"
#include "render/texture_loader.h"
#include "core/build/parallel_for.h"
#include "core/model/rotation.h"
#include "core/materials/material_lookup.h"

namespace rigscope::render {

namespace {

// Where a texture's pixels come from (empty path: pixels made here, kept by the generator).
struct TextureSource {
    QString path;
    int side = 0;
    bool masked = false;
};

// The pixels of one texture, handed to Qt3D's texture loader; `serial` tells versions apart.
// The decoded image is given to Qt3D once and not kept: Qt3D's OpenGL texture holds the pixels
// from then on (and drops its own copy after the upload), so keeping ours would hold every
// texture twice. Should Qt3D ask again (a texture made anew), the pixels come back through
// loadTextureImage: from the texture cache, or decoded again.
class ImageGenerator : public Qt3DRender::QTextureImageDataGenerator {
public:
    ImageGenerator(QImage image, TextureSource source, quint64 serial)
        : m_image(std::move(image)), m_source(std::move(source)), m_serial(serial)
    {
    }
    Qt3DRender::QTextureImageDataPtr operator()() override
    {
        QImage image;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            image = m_source.path.isEmpty() ? m_image : std::exchange(m_image, QImage());
        }
        if (image.isNull() && !m_source.path.isEmpty()) {
            image = loadTextureImage(m_source.path, m_source.side, m_source.masked);
        }
        if (image.isNull()) {
            return {};
        }
        if (image.format() != QImage::Format_RGBA8888 ||
            image.bytesPerLine() != qsizetype(image.width()) * 4) {
            image = image.convertToFormat(QImage::Format_RGBA8888); // packed rows, as GL reads
        }
        // What QTextureImageData::setImage sets, without its copy of the pixels: the data points
        // into the image, which the data's deleter keeps until Qt3D has uploaded and dropped it.
        auto* data = new Qt3DRender::QTextureImageData;
        data->setWidth(image.width());
        data->setHeight(image.height());
        data->setDepth(1);
        data->setFaces(1);
        data->setLayers(1);
        data->setMipLevels(1);
        data->setTarget(QOpenGLTexture::Target2D);
        data->setFormat(QOpenGLTexture::RGBA8_UNorm);
        data->setPixelFormat(QOpenGLTexture::RGBA);
        data->setPixelType(QOpenGLTexture::UInt8);
        data->setData(QByteArray::fromRawData(reinterpret_cast<const char*>(image.constBits()),
                                              image.sizeInBytes()),
                      4, false);
        return Qt3DRender::QTextureImageDataPtr(
            data, [image](Qt3DRender::QTextureImageData* d) { delete d; });
    }
    bool operator==(const Qt3DRender::QTextureImageDataGenerator& other) const override
    {
        const auto* o = functor_cast<ImageGenerator>(&other);
        return o && o->m_serial == m_serial;
    }
    QT3D_FUNCTOR(ImageGenerator)

private:
    std::mutex m_mutex;
    QImage m_image;
    TextureSource m_source;
    quint64 m_serial;
};

} // namespace

// A texture image whose pixels can be replaced while its material is on screen: textures stream
// in after the first frame. Uploaded as decoded, top row first (the shader flips v). It keeps
// only its generator, which lets the pixels go once Qt3D has them.
class StreamedImage : public Qt3DRender::QAbstractTextureImage {
public:
    StreamedImage(const QImage& image, Qt3DCore::QNode* parent)
        : Qt3DRender::QAbstractTextureImage(parent)
    {
        setImage(image);
    }
    // `source` empty: `image` is kept (small images made here: the stand-in, the checkerboard).
    void setImage(const QImage& image, TextureSource source = {})
    {
        static std::atomic<quint64> serials{0};
        m_generator = Qt3DRender::QTextureImageDataGeneratorPtr(new ImageGenerator(
            image.convertToFormat(QImage::Format_RGBA8888), std::move(source), ++serials));
        notifyDataGeneratorChanged();
    }

protected:
    Qt3DRender::QTextureImageDataGeneratorPtr dataGenerator() const override { return m_generator; }

private:
    Qt3DRender::QTextureImageDataGeneratorPtr m_generator;
};

namespace {

core::Vec3 finite(const core::Vec3& v)
{
    return {std::isfinite(v.x()) ? v.x() : 0.0f, std::isfinite(v.y()) ? v.y() : 0.0f,
            std::isfinite(v.z()) ? v.z() : 0.0f};
}

Qt3DRender::QTexture2D* makeTexture(Qt3DCore::QNode* parent, const QImage& image, bool nearest,
                                    StreamedImage** streamed = nullptr)
{
    auto* texture = new Qt3DRender::QTexture2D(parent);
    auto* pixels = new StreamedImage(image, texture);
    texture->addTextureImage(pixels);
    if (streamed) {
        *streamed = pixels;
    }
    texture->setGenerateMipMaps(!nearest);
    texture->setMinificationFilter(nearest ? Qt3DRender::QAbstractTexture::Nearest
                                           : Qt3DRender::QAbstractTexture::LinearMipMapLinear);
    texture->setMagnificationFilter(nearest ? Qt3DRender::QAbstractTexture::Nearest
                                            : Qt3DRender::QAbstractTexture::Linear);
    texture->wrapMode()->setX(Qt3DRender::QTextureWrapMode::Repeat);
    texture->wrapMode()->setY(Qt3DRender::QTextureWrapMode::Repeat);
    return texture;
}

// Texture decodes run on all cores but one: one is left to the GUI and render threads while
// textures stream in (2-core machines with llvmpipe included).
// The pool belongs to the application: at quit, decodes not started are dropped and the running
// ones finish before the texture cache goes away.
QThreadPool& texturePool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool(QCoreApplication::instance());
        p->setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
        if (QCoreApplication::instance()) {
            QObject::connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, p,
                             &QThreadPool::clear);
        }
        return p;
    }();
    return *pool;
}

const QColor kBoneColor(120, 200, 255, 235);
const QColor kBoneSelected(255, 92, 138, 255);
const QColor kJointColor(255, 209, 102, 255);
const QColor kWireColor(20, 22, 26, 110);
const QColor kWireOnlyColor(170, 190, 210, 255);
const QColor kNormalColor(120, 230, 140, 220);
const QColor kBoxColor(255, 255, 255, 120);
const QColor kSelectColor(255, 159, 28, 255);

} // namespace

QColor paletteColor(std::size_t i)
{
    static const QColor kPalette[] = {
        QColor(176, 190, 208), QColor(222, 170, 120), QColor(150, 196, 150), QColor(214, 140, 140),
        QColor(176, 158, 214), QColor(226, 210, 140), QColor(128, 196, 190), QColor(232, 164, 186),
        QColor(160, 176, 120), QColor(140, 170, 220),
    };
    return kPalette[i % std::size(kPalette)];
}

QColor weightRampColor(float w)
{
    if (!(w > 0.001f)) {
        return QColor::fromRgbF(0.32f, 0.34f, 0.4f);
    }
    w = std::min(w, 1.0f);
    auto mix = [](float a, float b, float t) { return a + (b - a) * t; };
    if (w < 0.5f) {
        const float t = w * 2.0f;
        return QColor::fromRgbF(mix(0.15f, 0.2f, t), mix(0.35f, 0.85f, t), mix(0.95f, 0.3f, t));
    }
    const float t = (w - 0.5f) * 2.0f;
    return QColor::fromRgbF(0.95f, mix(0.85f, 0.2f, t), mix(0.2f, 0.15f, t));
}

QColor influenceCountColor(int links, bool overLimit, bool problem)
{
    if (problem) {
        return QColor::fromRgbF(1.0f, 0.15f, 0.95f);
    }
    if (overLimit) {
        return QColor::fromRgbF(0.95f, 0.08f, 0.08f);
    }
    switch (links) {
    case 0:
        return QColor::fromRgbF(0.32f, 0.34f, 0.4f);
    case 1:
        return QColor::fromRgbF(0.25f, 0.45f, 0.9f);
    case 2:
        return QColor::fromRgbF(0.2f, 0.78f, 0.4f);
    case 3:
        return QColor::fromRgbF(0.95f, 0.85f, 0.2f);
    default:
        return QColor::fromRgbF(0.95f, 0.55f, 0.15f);
    }
}

ModelScene::ModelScene(std::shared_ptr<const core::Model> model, const MaterialSources& sources,
                       const SceneLayers& layers, Qt3DCore::QNode* parent,
                       const DisplayFlags& flags, core::Profile profile)
    : Qt3DCore::QEntity(parent), m_model(std::move(model)), m_flags(flags),
      m_profile(profile == core::Profile::Auto ? core::Profile::Source : profile)
{
    const core::Model& m = *m_model;
    m_evaluator = std::make_shared<const core::SceneEvaluator>(
        m_model, std::vector<core::FlexSet>{}, m_profile);
    m_world = m_evaluator->rig().bindModel;
    const core::Bounds b = core::meshBounds(m);
    m_size = b.valid ? (b.max - b.min).norm() : 1.0f;
    if (!(m_size > 1e-6f) || !std::isfinite(m_size)) {
        m_size = 1.0f; // matches OrbitCamera::frame's unit neighbourhood
        m_degenerate = true;
    }

    m_sceneRoot = new Qt3DCore::QEntity(this);
    m_sceneRoot->addComponent(layers.mesh);
    m_linesRoot = new Qt3DCore::QEntity(this);
    m_linesRoot->addComponent(layers.lines);
    m_overlayRoot = new Qt3DCore::QEntity(this);
    m_overlayRoot->addComponent(layers.overlay);

    // Meshes, one per material.
    m_meshRoot = new Qt3DCore::QEntity(m_sceneRoot);
    // Source materials: the same lookup as the checks (roots, a QC's $cdmaterials).
    std::unique_ptr<core::MaterialResolver> resolver;
    if (sources.sourceLookup()) {
        resolver = std::make_unique<core::MaterialResolver>(sources.query);
    }
    const std::size_t materialCount = m.mesh.materials.size();
    m_materialTris.resize(materialCount);
    for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
        const std::uint32_t mat = m.mesh.triangleMaterials[t];
        if (mat < materialCount) {
            m_materialTris[mat].push_back(std::uint32_t(t));
        }
    }
    // Textures stream in after the model is shown: each textured material starts with its flat
    // colour and a one-pixel stand-in texture already in place, and the decoded pixels (thread
    // pool, cached by path and time) replace the stand-in's when they come. Qt3D 6.4 samples
    // black from a texture parameter added to a material already on screen, so the parameter is
    // there from the start and only its image changes (docs/materials.md).
    m_streams.assign(materialCount, nullptr);
    for (std::size_t i = 0; i < materialCount; ++i) {
        const MaterialLook look = lookUpMaterial(m.mesh.materials[i], sources, resolver.get());
        auto* entity = new Qt3DCore::QEntity(m_meshRoot);
        auto* geometry = new TriangleGeometry(entity);
        m_colors.push_back(paletteColor(i));
        auto* material = new ShadedMaterial(m_colors.back(), entity);
        ShadedMaterial::Surface surface;
        surface.alphaTest = look.alphaTest;
        surface.alphaReference = look.alphaReference;
        surface.blend = look.additive      ? ShadedMaterial::Blend::Additive
                        : look.translucent ? ShadedMaterial::Blend::Alpha
                                           : ShadedMaterial::Blend::Opaque;
        surface.tint = look.tint;
        surface.fullbright = look.fullbright;
        surface.evenLight = look.flatShade;
        // The engine culls back faces unless the VMT says $nocull; image-file materials
        // (GoldSrc, CoD, no VMT) stay two-sided.
        surface.cullBack = look.source && look.found && !look.checkerboard && !look.noCull;
        material->setSurface(surface);
        if (look.checkerboard) {
            material->setTexture(makeTexture(entity, checkerboardImage(), true));
        } else if (!look.texturePath.isEmpty()) {
            QImage standIn(1, 1, QImage::Format_RGBA8888);
            standIn.fill(m_colors.back());
            material->setTexture(makeTexture(entity, standIn, false, &m_streams[i]), false);
        }
        m_looks.push_back(look);
        m_texturePaths.push_back(look.checkerboard ? QString() : look.texturePath);
        entity->addComponent(geometry);
        entity->addComponent(material);
        m_meshGeometry.push_back(geometry);
        m_materials.push_back(material);
    }
    // Decoding starts when the viewport has drawn its first frame (Viewport::setModel), when a
    // capture waits for the textures, or when textures are switched on.
    m_textureSide = textureSideFor(m_streams);
    m_texturesPending = int(std::count_if(m_streams.begin(), m_streams.end(),
                                          [](const StreamedImage* st) { return st != nullptr; }));

    m_wireEntity = new Qt3DCore::QEntity(m_linesRoot);
    m_wire = new LineGeometry(m_wireEntity);
    m_wireEntity->addComponent(m_wire);
    m_wireEntity->addComponent(new LineMaterial(DepthMode::NoWrite, m_wireEntity));

    m_normalsEntity = new Qt3DCore::QEntity(m_linesRoot);
    m_normals = new LineGeometry(m_normalsEntity);
    m_normalsEntity->addComponent(m_normals);
    m_normalsEntity->addComponent(new LineMaterial(DepthMode::Scene, m_normalsEntity));

    m_bboxEntity = new Qt3DCore::QEntity(m_linesRoot);
    m_bbox = new LineGeometry(m_bboxEntity);
    m_bboxEntity->addComponent(m_bbox);
    m_bboxEntity->addComponent(new LineMaterial(DepthMode::NoWrite, m_bboxEntity));

    // Skeleton overlay: links, then joints (drawn on top of everything).
    m_skeletonRoot = new Qt3DCore::QEntity(m_overlayRoot);
    auto* bonesEntity = new Qt3DCore::QEntity(m_skeletonRoot);
    m_bones = new LineGeometry(bonesEntity);
    bonesEntity->addComponent(m_bones);
    bonesEntity->addComponent(new LineMaterial(DepthMode::OnTop, bonesEntity));
    m_jointMesh = new Qt3DExtras::QSphereMesh(m_skeletonRoot);
    m_jointMesh->setRadius(1.0f); // scaled per joint to kJointPixels (applyJointScales)
    // Until a camera tells the pixel size: the old fixed radius.
    m_pixelScale.constant =
        (m_degenerate ? 0.03f : std::clamp(m_size * 0.0075f, 1e-4f, 1e6f)) / kJointPixels;
    m_jointMesh->setRings(8);
    m_jointMesh->setSlices(12);
    m_jointMaterial = new SolidMaterial(kJointColor, DepthMode::OnTop, m_skeletonRoot);
    m_jointSelectedMaterial = new SolidMaterial(kBoneSelected, DepthMode::OnTop, m_skeletonRoot);
    for (std::size_t j = 0; j < m.skeleton.size(); ++j) {
        auto* e = new Qt3DCore::QEntity(m_skeletonRoot);
        auto* t = new Qt3DCore::QTransform(e);
        e->addComponent(m_jointMesh);
        e->addComponent(m_jointMaterial);
        e->addComponent(t);
        m_joints.push_back(e);
        m_jointTransforms.push_back(t);
    }

    timingMark("scene: entities");
    m_boneLabels = new LabelLayer(m_overlayRoot);
    m_boxLabels = new LabelLayer(m_overlayRoot);

    m_selectionEntity = new Qt3DCore::QEntity(m_overlayRoot);
    m_selection = new LineGeometry(m_selectionEntity);
    m_selectionEntity->addComponent(m_selection);
    m_selectionEntity->addComponent(new LineMaterial(DepthMode::OnTop, m_selectionEntity));
    m_cornerMarker = new Qt3DCore::QEntity(m_overlayRoot);
    m_cornerTransform = new Qt3DCore::QTransform(m_cornerMarker);
    m_cornerMarker->addComponent(m_jointMesh);
    m_cornerMarker->addComponent(new SolidMaterial(kSelectColor, DepthMode::OnTop, m_cornerMarker));
    m_cornerMarker->addComponent(m_cornerTransform);

    for (auto* mat : m_materials) {
        mat->setTexturesEnabled(m_flags.textures);
        mat->setFlatShading(m_flags.flatShading);
        mat->setHeatMap(m_flags.heatMap != HeatMap::Off);
    }
    rebuild({});
    timingMark("scene: buffers");
    applyVisibility();
}

ModelScene::~ModelScene()
{
    for (QFuture<QImage>& f : m_decodes) {
        f.cancel(); // not started yet: never decoded
    }
}

bool ModelScene::waitForTextures(int timeoutMs)
{
    if (!m_decodesDeferred) {
        startTextureDecodes(); // else the viewport starts them after its first frame
    }
    if (texturesPending() == 0) {
        return true;
    }
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &ModelScene::texturesLoaded, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    loop.exec();
    return texturesPending() == 0;
}

// Decoded pixels are bounded as a whole: the side cap halves (down to 256) until every texture at
// the cap fits in kTextureBudget, so 200 materials of 2048 x 2048 take 512 x 512 mips.
int ModelScene::textureSideFor(const std::vector<StreamedImage*>& streams)
{
    const auto count = qint64(std::count_if(streams.begin(), streams.end(),
                                            [](const StreamedImage* s) { return s != nullptr; }));
    int side = kTextureMaxSide;
    while (side > 256 && count * side * side * 4 > kTextureBudget) {
        side /= 2;
    }
    return side;
}

void ModelScene::startTextureDecodes()
{
    if (m_decodesStarted || !m_flags.textures) {
        return;
    }
    m_decodesStarted = true;
    timingMark("scene: textures start");
    m_decodes.resize(m_streams.size());
    for (std::size_t i = 0; i < m_streams.size(); ++i) {
        if (m_streams[i]) {
            startDecode(i);
        }
    }
}

void ModelScene::startDecode(std::size_t material)
{
    auto promise = std::make_shared<QPromise<QImage>>();
    promise->start();
    if (!m_decodeOwner) {
        m_decodeOwner = std::make_unique<QObject>();
    }
    auto* watcher = new QFutureWatcher<QImage>(m_decodeOwner.get());
    connect(watcher, &QFutureWatcherBase::finished, m_decodeOwner.get(), [this, watcher, material] {
        const QFuture<QImage> f = watcher->future();
        textureDecoded(material, f.resultCount() > 0 ? f.result() : QImage());
        watcher->deleteLater();
    });
    watcher->setFuture(promise->future());
    m_decodes[material] = promise->future();
    texturePool().start([promise, path = m_looks[material].texturePath,
                         masked = m_looks[material].masked, side = m_textureSide] {
        waitWhileTextureDecodingHeld();
        if (!promise->isCanceled()) {
            promise->addResult(loadTextureImage(path, side, masked));
        }
        promise->finish();
    });
}

void ModelScene::textureDecoded(std::size_t material, const QImage& image)
{
    // A future keeps its result: dropped here, or every decoded image would stay in memory
    // until the last texture is in (beside Qt3D's), the peak the bench measured.
    m_decodes[material] = QFuture<QImage>();
    if (image.isNull()) {
        m_texturePaths[material].clear(); // unreadable: stays flat
    } else {
        m_streams[material]->setImage(
            image, {m_looks[material].texturePath, m_textureSide, m_looks[material].masked});
        m_materials[material]->setTextureShown(true);
    }
    if (--m_texturesPending == 0) {
        m_decodes.clear();
        timingMark("scene: textures");
        emit texturesLoaded();
    }
}

const core::Influences& ModelScene::influences(bool compiled) const
{
    return m_evaluator->influences(
        compiled ? core::WeightView::Compiled : core::WeightView::Authored, m_profile);
}

void ModelScene::setEvaluator(std::shared_ptr<const core::SceneEvaluator> evaluator)
{
    if (!evaluator || &evaluator->reference() != m_model.get() || evaluator == m_evaluator) {
        return;
    }
    m_evaluator = std::move(evaluator);
    reskin();
}

void ModelScene::setFlex(const core::FlexSetting& setting)
{
    if (!setting.anyNonZero() && !m_flex.anyNonZero()) {
        m_flex = setting;
        return;
    }
    m_flex = setting;
    reskin();
}

const core::WeightStats& ModelScene::stats() const
{
    if (!m_stats) {
        const core::Model& m = *m_model;
        m_stats = core::weightStats(m.mesh, m.skeleton.size(), m_profile);
    }
    return *m_stats;
}

void ModelScene::setWeightProfile(core::Profile profile)
{
    if (profile == core::Profile::Auto) {
        profile = core::Profile::Source;
    }
    if (profile == m_profile) {
        return;
    }
    m_profile = profile;
    m_stats.reset();
    if (m_posed || m_flags.heatMap != HeatMap::Off) {
        reskin(); // only skinning and the weight views use the weights
    }
}

void ModelScene::setProblemPoints(const std::vector<std::uint8_t>& mask)
{
    m_problemPoints = mask;
    if (m_flags.heatMap == HeatMap::InfluenceCount) {
        reskin();
    }
}

void ModelScene::reskin()
{
    rebuild(m_posed ? std::vector<Eigen::Affine3f>(m_world) : std::vector<Eigen::Affine3f>{});
}

void ModelScene::computeHeat()
{
    const std::size_t n = m_model->mesh.pointCount();
    m_heatColors.clear();
    switch (m_flags.heatMap) {
    case HeatMap::Off:
        return;
    case HeatMap::SelectedBone: {
        // The selected bone's weight in the skinning shown (authored, or compiled with Shift+K).
        const core::Influences& inf = influences(m_flags.compiledWeights);
        m_heatColors.assign(n, weightRampColor(0.0f));
        for (std::size_t p = 0; p < n && m_selJoint >= 0 && p + 1 < inf.offsets.size(); ++p) {
            float mine = 0;
            for (std::uint32_t k = inf.offsets[p]; k < inf.offsets[p + 1]; ++k) {
                mine += inf.joints[k] == m_selJoint ? inf.weights[k] : 0.0f;
            }
            m_heatColors[p] = weightRampColor(std::isfinite(mine) ? mine : 0.0f);
        }
        return;
    }
    case HeatMap::InfluenceCount: {
        const core::WeightStats& st = stats();
        m_heatColors.resize(n);
        for (std::size_t p = 0; p < n; ++p) {
            const bool problem = st.problem[p] != core::WeightProblem::None ||
                                 (p < m_problemPoints.size() && m_problemPoints[p]);
            m_heatColors[p] = influenceCountColor(st.linkCount[p], st.overLimit[p] != 0, problem);
        }
        return;
    }
    case HeatMap::WeightChange: {
        m_heatColors.resize(n);
        // Posed: displacement between authored and compiled skinning, scaled so the point that
        // moves most is red (nothing moves: all blue). Rest pose: the pose-free L1 change of
        // the weights (0..2, halved).
        float most = 0;
        for (const float d : m_displacement) {
            most = std::max(most, d);
        }
        const bool posed = m_displacement.size() == n && most > 1e-6f * std::max(m_size, 1.0f);
        const core::WeightStats* st = posed ? nullptr : &stats();
        for (std::size_t p = 0; p < n; ++p) {
            m_heatColors[p] =
                posed ? weightRampColor(m_displacement[p] / most) : weightRampColor(st->change[p]);
        }
        return;
    }
    }
}

void ModelScene::setPose(const std::vector<Eigen::Affine3f>& world)
{
    const bool posed = world.size() == m_model->skeleton.size() && !world.empty();
    if (posed == m_posed &&
        (!posed || std::equal(world.begin(), world.end(), m_world.begin(), m_world.end(),
                              [](const Eigen::Affine3f& a, const Eigen::Affine3f& b) {
                                  return a.matrix() == b.matrix();
                              }))) {
        return; // the buffers show this pose already
    }
    rebuild(world);
}

void ModelScene::rebuild(const std::vector<Eigen::Affine3f>& world)
{
    evaluate(world);
    fillMeshBuffers();
    rebuildWireAndNormals();
    rebuildBounds();
    rebuildSkeleton();
    rebuildSelection();
}

void ModelScene::evaluate(const std::vector<Eigen::Affine3f>& world)
{
    const core::Model& m = *m_model;
    const bool posed = world.size() == m.skeleton.size() && !world.empty();
    core::EvaluateOptions options;
    options.weights =
        m_flags.compiledWeights ? core::WeightView::Compiled : core::WeightView::Authored;
    options.displacement = posed && m_flags.heatMap == HeatMap::WeightChange;
    options.profile = m_profile;
    core::SceneFrame frame;
    m_evaluator->evaluate(posed ? std::span<const Eigen::Affine3f>(world)
                                : std::span<const Eigen::Affine3f>(),
                          m_flex, options, frame);
    m_posed = frame.posed;
    m_world = std::move(frame.joints);
    m_points = std::move(frame.positions);
    for (core::Vec3& p : m_points) {
        p = finite(p);
    }
    m_cornerNormals = std::move(frame.cornerNormals);
    m_displacement = std::move(frame.displacement);
}

// A corner's normal as drawn: the file's normal (posed), or the face's when the file has none
// usable.
core::Vec3 ModelScene::cornerNormal(std::size_t c, const core::Vec3& faceN) const
{
    const core::Vec3 n = c < m_cornerNormals.size() ? m_cornerNormals[c] : core::Vec3::Zero();
    return n.isZero(0) ? faceN : n;
}

// The triangle buffers of every material, from m_points.
void ModelScene::fillMeshBuffers()
{
    const core::Model& m = *m_model;
    const core::Mesh& mesh = m.mesh;
    const bool codUv = m.format.rfind("xmodel", 0) == 0;
    computeHeat();
    // Heat colours as floats per point, read by every corner (black: no heat map).
    std::vector<std::array<float, 3>> heat(m_heatColors.size());
    for (std::size_t i = 0; i < heat.size(); ++i) {
        const QColor& h = m_heatColors[i];
        heat[i] = {float(h.redF()), float(h.greenF()), float(h.blueF())};
    }
    // Writes the vertices of triangles [first, last) of material `mat` from `out`; returns how
    // many triangles it wrote (zero-area ones are left out: they draw nothing, and with
    // llvmpipe a zero-area triangle in the buffer made the whole material mesh disappear).
    auto fill = [&](std::size_t mat, std::size_t first, std::size_t last, float* out) {
        std::size_t written = 0;
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t t = m_materialTris[mat][i];
            core::Vec3 p[3];
            for (int k = 0; k < 3; ++k) {
                p[k] = m_points[mesh.cornerPoints[t * 3 + std::size_t(k)]];
            }
            core::Vec3 faceN = (p[1] - p[0]).cross(p[2] - p[0]);
            if (!(faceN.norm() > 0)) {
                continue;
            }
            faceN.normalize();
            for (int k = 0; k < 3; ++k) {
                const std::size_t c = t * 3 + std::size_t(k);
                const core::Vec3 n = cornerNormal(c, faceN);
                core::Vec2 uv = c < mesh.cornerUvs.size() ? mesh.cornerUvs[c] : core::Vec2::Zero();
                if (codUv) {
                    uv.y() = 1.0f - uv.y();
                }
                static constexpr std::array<float, 3> kNoHeat{0, 0, 0};
                const std::array<float, 3>& h = heat.empty() ? kNoHeat : heat[mesh.cornerPoints[c]];
                float* v = out + (written * 3 + std::size_t(k)) * TriangleGeometry::kStride;
                v[0] = p[k].x();
                v[1] = p[k].y();
                v[2] = p[k].z();
                v[3] = n.x();
                v[4] = n.y();
                v[5] = n.z();
                v[6] = std::isfinite(uv.x()) ? uv.x() : 0.0f;
                v[7] = std::isfinite(uv.y()) ? uv.y() : 0.0f;
                v[8] = h[0];
                v[9] = h[1];
                v[10] = h[2];
            }
            ++written;
        }
        return written;
    };
    // Straight into the buffers Qt3D gets (no second copy), in chunks of triangles on every
    // core for big meshes; chunks that skipped zero-area triangles are closed up afterwards.
    constexpr std::size_t kChunk = 16384;
    constexpr std::size_t kTriBytes = 3 * TriangleGeometry::kStride * sizeof(float);
    struct Chunk {
        std::size_t mat, first, last, written = 0;
    };
    std::vector<Chunk> chunks;
    std::vector<QByteArray> buffers(m_materialTris.size());
    for (std::size_t mat = 0; mat < m_materialTris.size(); ++mat) {
        const std::size_t n = m_materialTris[mat].size();
        buffers[mat] = QByteArray(qsizetype(n * kTriBytes), Qt::Uninitialized);
        for (std::size_t first = 0; first < n; first += kChunk) {
            chunks.push_back({mat, first, std::min(n, first + kChunk)});
        }
    }
    core::parallelFor(chunks.size(), 0, [&](std::size_t i) {
        Chunk& ch = chunks[i];
        auto* out = reinterpret_cast<float*>(buffers[ch.mat].data() + ch.first * kTriBytes);
        ch.written = fill(ch.mat, ch.first, ch.last, out);
    });
    std::vector<std::size_t> triangles(m_materialTris.size(), 0);
    for (const Chunk& ch : chunks) {
        char* data = buffers[ch.mat].data();
        std::size_t& at = triangles[ch.mat];
        if (at != ch.first) {
            std::memmove(data + at * kTriBytes, data + ch.first * kTriBytes,
                         ch.written * kTriBytes);
        }
        at += ch.written;
    }
    for (std::size_t mat = 0; mat < m_materialTris.size(); ++mat) {
        buffers[mat].truncate(qsizetype(triangles[mat] * kTriBytes));
        m_meshGeometry[mat]->setVertices(std::move(buffers[mat]));
    }
}

// Wire overlay and normals: the drawn (non-zero-area) triangles.
void ModelScene::rebuildWireAndNormals()
{
    const core::Mesh& mesh = m_model->mesh;
    LineList wire;
    LineList normals;
    const float normalLen = m_size * 0.02f;
    if (m_flags.normals || m_flags.wireframe || m_flags.wireOnly) {
        const QColor wc = m_flags.wireOnly ? kWireOnlyColor : kWireColor;
        for (std::size_t mat = 0; mat < m_materialTris.size(); ++mat) {
            for (std::uint32_t t : m_materialTris[mat]) {
                core::Vec3 p[3];
                for (int k = 0; k < 3; ++k) {
                    p[k] = m_points[mesh.cornerPoints[t * 3 + std::size_t(k)]];
                }
                core::Vec3 faceN = (p[1] - p[0]).cross(p[2] - p[0]);
                if (!(faceN.norm() > 0)) {
                    continue;
                }
                faceN.normalize();
                if (m_flags.normals) {
                    for (int k = 0; k < 3; ++k) {
                        const core::Vec3 n = cornerNormal(t * 3 + std::size_t(k), faceN);
                        normals.add(toQt(p[k]), toQt(p[k] + n * normalLen), kNormalColor,
                                    QColor(120, 230, 140, 40));
                    }
                }
                if (m_flags.wireframe || m_flags.wireOnly) {
                    wire.add(toQt(p[0]), toQt(p[1]), wc);
                    wire.add(toQt(p[1]), toQt(p[2]), wc);
                    wire.add(toQt(p[2]), toQt(p[0]), wc);
                }
            }
        }
    }
    m_wire->setLines(wire);
    m_normals->setLines(normals);
}

// The bounding box and, when shown, its dimensions.
void ModelScene::rebuildBounds()
{
    LineList box;
    const core::Bounds b = bounds();
    if (b.valid) {
        const QVector3D lo = toQt(b.min), hi = toQt(b.max);
        auto corner = [&](int i) {
            return QVector3D(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(),
                             i & 4 ? hi.z() : lo.z());
        };
        for (int i = 0; i < 8; ++i) {
            for (int axis : {1, 2, 4}) {
                if (!(i & axis)) {
                    box.add(corner(i), corner(i | axis), kBoxColor);
                }
            }
        }
    }
    m_bbox->setLines(box);
    std::vector<Label> dims;
    if (b.valid && m_flags.boundingBox) {
        const core::Vec3 d = b.max - b.min;
        const core::Vec3 mid = (b.min + b.max) * 0.5f;
        const QColor c(255, 255, 255);
        dims.push_back({toQt(core::Vec3(mid.x(), b.min.y(), b.min.z())),
                        QStringLiteral("X %1").arg(double(d.x()), 0, 'g', 4), c});
        dims.push_back({toQt(core::Vec3(b.max.x(), mid.y(), b.min.z())),
                        QStringLiteral("Y %1").arg(double(d.y()), 0, 'g', 4), c});
        dims.push_back({toQt(core::Vec3(b.max.x(), b.min.y(), mid.z())),
                        QStringLiteral("Z %1").arg(double(d.z()), 0, 'g', 4), c});
    }
    m_boxLabels->setLabels(dims);
}

core::Bounds ModelScene::bounds() const
{
    core::Bounds b;
    auto grow = [&](const core::Vec3& p) { b.grow(p); };
    if (!m_model->mesh.empty()) {
        for (std::uint32_t c : m_model->mesh.cornerPoints) {
            grow(m_points[c]);
        }
    } else {
        for (const auto& w : m_world) {
            grow(w.translation());
        }
    }
    return b;
}

void ModelScene::setMarkers(std::vector<SceneMarker> markers)
{
    m_markers = std::move(markers);
    rebuildSkeleton();
}

std::vector<SceneMarker> ModelScene::shownMarkers() const
{
    std::vector<SceneMarker> out = m_markers;
    for (const core::Attachment& a : m_model->attachments) {
        SceneMarker m;
        m.kind = SceneMarker::Kind::Axes;
        m.joint = a.joint;
        m.offset = a.position;
        m.rotation = core::eulerToMatrix(a.rotation);
        m.name = QString::fromStdString(a.name);
        out.push_back(std::move(m));
    }
    return out;
}

void ModelScene::appendMarkerLines(LineList& lines) const
{
    const std::size_t nj = m_world.size();
    for (const SceneMarker& mk : shownMarkers()) {
        if (mk.joint < 0 || std::size_t(mk.joint) >= nj) {
            continue;
        }
        const Eigen::Affine3f& w = m_world[std::size_t(mk.joint)];
        if (mk.kind == SceneMarker::Kind::Axes) {
            const core::Vec3 local =
                mk.absolute
                    ? core::Vec3(m_evaluator->rig().bindModel[std::size_t(mk.joint)].inverse() *
                                 mk.offset)
                    : mk.offset;
            const QVector3D o = toQt(core::Vec3(w * local));
            const float len = m_size * 0.04f;
            const QColor axis[3] = {QColor(255, 90, 90), QColor(110, 230, 90),
                                    QColor(90, 160, 255)};
            const core::Mat3 turn = w.linear() * mk.rotation;
            for (int a = 0; a < 3; ++a) {
                const core::Vec3 dir = turn.col(a).normalized();
                lines.add(o, o + toQt(core::Vec3(dir * len)), axis[a]);
            }
            continue;
        }
        if (mk.kind == SceneMarker::Kind::Jiggle) {
            appendJiggleLines(lines, mk);
            continue;
        }
        core::Vec3 c[8];
        for (int k = 0; k < 8; ++k) {
            const core::Vec3 p((k & 1) ? mk.max.x() : mk.min.x(), (k & 2) ? mk.max.y() : mk.min.y(),
                               (k & 4) ? mk.max.z() : mk.min.z());
            c[k] = w * p;
        }
        static constexpr int kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                              {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
        for (const auto& e : kEdges) {
            lines.add(toQt(c[e[0]]), toQt(c[e[1]]), mk.color);
        }
    }
}

void ModelScene::appendJiggleLines(LineList& lines, const SceneMarker& mk) const
{
    const auto j = std::size_t(mk.joint);
    const core::PoseRig& rig = m_evaluator->rig();
    const core::JointIndex parent = j < rig.parents.size() ? rig.parents[j] : core::kNoJoint;
    // Where the animation puts the bone: the limits are measured in that frame, not in the
    // jiggled one.
    const Eigen::Affine3f goal =
        parent >= 0 && std::size_t(parent) < m_world.size() && j < rig.bindLocal.size()
            ? m_world[std::size_t(parent)] * rig.bindLocal[j]
            : m_world[j];
    const core::JiggleParams& p = mk.jiggle;
    const float len = p.length > 0.0f ? p.length : m_size * 0.05f;
    const core::Vec3 o = goal.translation();
    const core::Vec3 left = goal.linear().col(0).normalized();
    const core::Vec3 up = goal.linear().col(1).normalized();
    const core::Vec3 fwd = goal.linear().col(2).normalized();
    const QColor tip(255, 120, 220), limit(255, 200, 90);
    // The tip as it jiggles, and where the animation wants it.
    const Eigen::Affine3f& now = m_world[j];
    lines.add(toQt(core::Vec3(now.translation())),
              toQt(core::Vec3(now.translation() + len * now.linear().col(2).normalized())), tip);
    lines.add(toQt(o), toQt(core::Vec3(o + len * fwd)), tip.darker(170));
    auto arc = [&](const core::Vec3& side, float lo, float hi) {
        constexpr int kSteps = 24;
        core::Vec3 prev = o + len * (std::cos(lo) * fwd + std::sin(lo) * side);
        lines.add(toQt(o), toQt(prev), limit);
        for (int k = 1; k <= kSteps; ++k) {
            const float a = lo + (hi - lo) * float(k) / kSteps;
            const core::Vec3 q = o + len * (std::cos(a) * fwd + std::sin(a) * side);
            lines.add(toQt(prev), toQt(q), limit);
            prev = q;
        }
        lines.add(toQt(prev), toQt(o), limit);
    };
    if (p.flags & core::JiggleParams::YawConstraint) {
        arc(left, p.minYaw, p.maxYaw);
    }
    if (p.flags & core::JiggleParams::PitchConstraint) {
        arc(up, p.minPitch, p.maxPitch);
    }
    if ((p.flags & core::JiggleParams::AngleConstraint) && p.angleLimit > 0.0f) {
        constexpr int kSteps = 32;
        const float r = len * std::sin(p.angleLimit), h = len * std::cos(p.angleLimit);
        core::Vec3 prev = o + h * fwd + r * left;
        for (int k = 1; k <= kSteps; ++k) {
            const float a = 2.0f * float(M_PI) * float(k) / kSteps;
            const core::Vec3 q = o + h * fwd + r * (std::cos(a) * left + std::sin(a) * up);
            if (k % 8 == 0) {
                lines.add(toQt(o), toQt(q), limit); // four lines down the cone
            }
            lines.add(toQt(prev), toQt(q), limit);
            prev = q;
        }
    }
}

void ModelScene::rebuildSkeleton()
{
    const core::Skeleton& s = m_model->skeleton;
    LineList lines;
    for (std::size_t j = 0; j < s.size(); ++j) {
        const QVector3D p = toQt(core::Vec3(m_world[j].translation()));
        m_jointTransforms[j]->setTranslation(p);
        const core::JointIndex parent = s.parents[j];
        if (parent >= 0) {
            const bool sel = int(j) == m_selJoint || parent == m_selJoint;
            const QVector3D q = toQt(core::Vec3(m_world[std::size_t(parent)].translation()));
            lines.add(q, p, sel ? kBoneSelected : kBoneColor);
        }
    }
    // Skeleton-only files (animations): every joint shows its orientation, so a lone root at
    // the origin is still visible.
    if (m_model->mesh.empty()) {
        const float len = m_degenerate ? 0.35f : m_size * 0.02f;
        const QColor dim[3] = {QColor(255, 80, 80, 140), QColor(110, 230, 90, 140),
                               QColor(80, 150, 255, 140)};
        for (std::size_t j = 0; j < s.size(); ++j) {
            const Eigen::Affine3f& w = m_world[j];
            const QVector3D o = toQt(core::Vec3(w.translation()));
            for (int a = 0; a < 3; ++a) {
                const core::Vec3 dir = w.linear().col(a).normalized();
                lines.add(o, o + toQt(core::Vec3(dir * len)), dim[a]);
            }
        }
    }
    if (m_selJoint >= 0 && std::size_t(m_selJoint) < s.size()) {
        const Eigen::Affine3f& w = m_world[std::size_t(m_selJoint)];
        const QVector3D o = toQt(core::Vec3(w.translation()));
        const float len = m_size * 0.06f;
        const QColor axisColors[3] = {QColor(255, 80, 80), QColor(110, 230, 90),
                                      QColor(80, 150, 255)};
        for (int a = 0; a < 3; ++a) {
            const core::Vec3 dir = w.linear().col(a).normalized();
            lines.add(o, o + toQt(core::Vec3(dir * len)), axisColors[a]);
        }
    }
    appendMarkerLines(lines);
    m_bones->setLines(lines);

    std::vector<Label> names;
    const bool skeletonShown = m_flags.skeleton && !s.empty();
    for (std::size_t j = 0; j < s.size() && skeletonShown; ++j) {
        const bool sel = int(j) == m_selJoint;
        if (m_flags.boneNames || sel) {
            names.push_back({toQt(core::Vec3(m_world[j].translation())),
                             QString::fromUtf8(s.names[j].c_str()),
                             sel ? QColor(255, 170, 190) : QColor(235, 238, 242)});
        }
    }
    // Attachment names with the bone names, else only those on the selected bone: a character's
    // two dozen attachments named at once piled up over the head and hands (issue 27).
    for (const SceneMarker& mk : shownMarkers()) {
        if (skeletonShown && mk.kind == SceneMarker::Kind::Axes && !mk.name.isEmpty() &&
            mk.joint >= 0 && std::size_t(mk.joint) < m_world.size() &&
            (m_flags.boneNames || mk.joint == m_selJoint)) {
            const Eigen::Affine3f& w = m_world[std::size_t(mk.joint)];
            const core::Vec3 local =
                mk.absolute
                    ? core::Vec3(m_evaluator->rig().bindModel[std::size_t(mk.joint)].inverse() *
                                 mk.offset)
                    : mk.offset;
            names.push_back({toQt(core::Vec3(w * local)), mk.name, QColor(255, 220, 120), true});
        }
    }
    m_labelTexts.clear();
    for (const Label& l : names) {
        m_labelTexts << l.text;
    }
    m_boneLabels->setLabels(names);
    applyJointScales();
}

float ModelScene::jointRadius(int j) const
{
    if (j < 0 || std::size_t(j) >= m_jointTransforms.size()) {
        return 0;
    }
    return m_jointTransforms[std::size_t(j)]->scale();
}

void ModelScene::setPixelScale(const PixelScale& scale)
{
    m_pixelScale = scale;
    applyJointScales();
}

void ModelScene::applyJointScales()
{
    for (std::size_t j = 0; j < m_jointTransforms.size(); ++j) {
        auto* t = m_jointTransforms[j];
        const float f = int(j) == m_selJoint ? 1.6f : 1.0f;
        t->setScale(std::max(m_pixelScale.at(t->translation()) * kJointPixels * f, 1e-7f));
    }
    if (m_cornerTransform) {
        m_cornerTransform->setScale(std::max(
            m_pixelScale.at(m_cornerTransform->translation()) * kJointPixels * 1.3f, 1e-7f));
    }
}

void ModelScene::setViewportSize(const QSizeF& size)
{
    m_boneLabels->setViewportSize(size);
    m_boxLabels->setViewportSize(size);
}

void ModelScene::rebuildSelection()
{
    const core::Mesh& mesh = m_model->mesh;
    LineList lines;
    bool corner = false;
    if (m_selTriangle >= 0 && std::size_t(m_selTriangle) < mesh.triangleCount()) {
        const std::size_t t = std::size_t(m_selTriangle);
        QVector3D p[3];
        for (int k = 0; k < 3; ++k) {
            p[k] = toQt(m_points[mesh.cornerPoints[t * 3 + std::size_t(k)]]);
        }
        for (int k = 0; k < 3; ++k) {
            lines.add(p[k], p[(k + 1) % 3], kSelectColor);
        }
        if (m_selCorner >= 0 && m_selCorner < 3) {
            m_cornerTransform->setTranslation(p[m_selCorner]);
            corner = true;
        }
    }
    m_selection->setLines(lines);
    m_cornerMarker->setEnabled(corner);
    applyJointScales();
}

void ModelScene::setDisplay(const DisplayFlags& flags)
{
    // The mesh buffers hold the wires, normals, heat colours and skinning; the skeleton its
    // lines and names.
    const bool rebuild =
        flags.wireframe != m_flags.wireframe || flags.wireOnly != m_flags.wireOnly ||
        flags.normals != m_flags.normals || flags.boundingBox != m_flags.boundingBox ||
        flags.heatMap != m_flags.heatMap || flags.compiledWeights != m_flags.compiledWeights;
    const bool skeleton =
        flags.boneNames != m_flags.boneNames || flags.skeleton != m_flags.skeleton;
    m_flags = flags;
    const bool texturesOn = flags.textures && !m_flags.textures;
    m_flags = flags;
    if (texturesOn) {
        startTextureDecodes(); // off from the start (--no-textures): decoded when first shown
    }
    for (auto* mat : m_materials) {
        mat->setTexturesEnabled(flags.textures);
        mat->setFlatShading(flags.flatShading);
        mat->setHeatMap(flags.heatMap != HeatMap::Off);
    }
    if (rebuild) {
        reskin();
    } else if (skeleton) {
        rebuildSkeleton();
    }
    applyVisibility();
}

void ModelScene::applyVisibility()
{
    m_meshRoot->setEnabled(m_flags.mesh && !m_flags.wireOnly);
    m_wireEntity->setEnabled(m_flags.wireframe || m_flags.wireOnly);
    m_normalsEntity->setEnabled(m_flags.normals);
    m_bboxEntity->setEnabled(m_flags.boundingBox);
    m_boxLabels->setEnabled(m_flags.boundingBox);
    m_skeletonRoot->setEnabled(m_flags.skeleton && !m_model->skeleton.empty());
}

void ModelScene::setSelectedJoint(int joint)
{
    const int old = m_selJoint;
    m_selJoint = joint;
    auto swap = [&](int j, bool selected) {
        if (j < 0 || std::size_t(j) >= m_joints.size()) {
            return;
        }
        auto* e = m_joints[std::size_t(j)];
        e->removeComponent(selected ? static_cast<Qt3DCore::QComponent*>(m_jointMaterial)
                                    : m_jointSelectedMaterial);
        e->addComponent(selected ? static_cast<Qt3DCore::QComponent*>(m_jointSelectedMaterial)
                                 : m_jointMaterial);
    };
    if (old != joint) {
        swap(old, false);
        swap(joint, true);
    }
    if (m_flags.heatMap == HeatMap::SelectedBone && old != joint) {
        reskin();
        applyJointScales();
        return;
    }
    rebuildSkeleton();
}

void ModelScene::setSelectedMaterial(int material)
{
    m_selMaterial = material;
    for (std::size_t i = 0; i < m_materials.size(); ++i) {
        m_materials[i]->setHighlight(kSelectColor, int(i) == material ? 0.3f : 0.0f);
    }
}

void ModelScene::setSelectedTriangle(int triangle, int corner)
{
    m_selTriangle = triangle;
    m_selCorner = corner;
    rebuildSelection();
}

const MaterialLook* ModelScene::materialLook(std::size_t material) const
{
    return material < m_looks.size() ? &m_looks[material] : nullptr;
}

bool ModelScene::looksDifferFrom(const MaterialSources& sources) const
{
    std::unique_ptr<core::MaterialResolver> resolver;
    if (sources.sourceLookup()) {
        resolver = std::make_unique<core::MaterialResolver>(sources.query);
    }
    const std::vector<core::Material>& materials = m_model->mesh.materials;
    for (std::size_t i = 0; i < materials.size() && i < m_looks.size(); ++i) {
        if (!(lookUpMaterial(materials[i], sources, resolver.get()) == m_looks[i])) {
            return true;
        }
    }
    return false;
}

QString ModelScene::texturePath(std::size_t material) const
{
    return material < m_texturePaths.size() ? m_texturePaths[material] : QString();
}

QColor ModelScene::materialColor(std::size_t material) const
{
    return material < m_colors.size() ? m_colors[material] : QColor();
}

ModelScene* SceneBuilder::build(std::shared_ptr<const core::Model> model,
                                const MaterialSources& sources, const SceneLayers& layers,
                                Qt3DCore::QNode* parent, const DisplayFlags& flags,
                                core::Profile profile)
{
    return new ModelScene(std::move(model), sources, layers, parent, flags, profile);
}

} // namespace rigscope::render
