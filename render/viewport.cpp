#include "render/viewport.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtCore/QLineF>
#include <QtCore/QTimer>
#include <QtGui/QKeyEvent>
#include <QtGui/QMouseEvent>
#include <QtGui/QSurfaceFormat>
#include <QtGui/QWheelEvent>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/QSphereMesh>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QViewport>

#include "render/convert.h"
#include "render/geometry.h"
#include "render/materials.h"
#include "render/startup_timing.h"

namespace rigscope::render {

namespace {

float niceStep(float size)
{
    const float raw = std::max(size / 10.0f, 1e-4f);
    const float p = std::pow(10.0f, std::floor(std::log10(raw)));
    for (float m : {1.0f, 2.0f, 5.0f}) {
        if (m * p >= raw) {
            return m * p;
        }
    }
    return 10.0f * p;
}

Qt3DRender::QLayer* makeLayer(Qt3DCore::QNode* parent)
{
    auto* layer = new Qt3DRender::QLayer(parent);
    layer->setRecursive(true);
    return layer;
}

Qt3DRender::QLayerFilter* layerFilter(Qt3DRender::QLayer* layer, Qt3DCore::QNode* parent)
{
    auto* f = new Qt3DRender::QLayerFilter(parent);
    f->addLayer(layer);
    return f;
}

} // namespace

Viewport::Viewport(const ViewportOptions& options, QScreen* screen)
    : Qt3DExtras::Qt3DWindow(screen), m_options(options)
{
    qRegisterMetaType<rigscope::render::PickResult>();
    QSurfaceFormat fmt = format();
    fmt.setSamples(options.msaa ? 4 : 0);
    // No alpha channel unless the default format asks for one (transparent --screenshot): an
    // ARGB window shows black on X servers without a compositor (Xvfb, plain X11) and lets the
    // desktop through where a compositor blends it. captureViewport makes transparency from
    // two renders when the surface has no alpha.
    fmt.setAlphaBufferSize(QSurfaceFormat::defaultFormat().alphaBufferSize());
    fmt.setDepthBufferSize(24);
    setFormat(fmt);

    renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
    m_root = new Qt3DCore::QEntity;
    m_layers.mesh = makeLayer(m_root);
    m_layers.translucent = makeLayer(m_root);
    m_layers.lines = makeLayer(m_root);
    m_layers.overlay = makeLayer(m_root);
    m_backgroundLayer = makeLayer(m_root);
    m_gizmoLayer = makeLayer(m_root);
    buildFrameGraph();

    // Background: a clip-space quad with a vertical gradient.
    m_background = new Qt3DCore::QEntity(m_root);
    {
        auto* g = new LineGeometry(m_background);
        m_backgroundQuad = g;
        updateBackground();
        g->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
        m_background->addComponent(g);
        m_background->addComponent(new BackgroundMaterial(m_background));
        m_background->addComponent(m_backgroundLayer);
    }

    m_gridEntity = new Qt3DCore::QEntity(m_root);
    m_grid = new LineGeometry(m_gridEntity);
    m_gridEntity->addComponent(m_grid);
    m_gridEntity->addComponent(new LineMaterial(DepthMode::NoWrite, m_gridEntity));
    m_gridEntity->addComponent(m_layers.lines);
    buildGrid();
    buildGizmo();

    auto* frameAction = new Qt3DLogic::QFrameAction(m_root);
    m_root->addComponent(frameAction);
    connect(frameAction, &Qt3DLogic::QFrameAction::triggered, this, [this](float) {
        ++m_frames;
        if (!m_fpsTimer.isValid()) {
            m_fpsTimer.start();
        } else if (m_fpsTimer.elapsed() >= 1000) {
            emit fpsChanged(m_frames * 1000.0 / double(m_fpsTimer.restart()));
            m_frames = 0;
        }
    });

    setRootEntity(m_root);
    applyCamera();
}

Viewport::~Viewport()
{
    delete m_firstFrame;
}

void Viewport::buildFrameGraph()
{
    auto* surface = new Qt3DRender::QRenderSurfaceSelector;
    surface->setSurface(this);
    auto* viewport = new Qt3DRender::QViewport(surface);
    viewport->setNormalizedRect(QRectF(0, 0, 1, 1));

    m_clear = new Qt3DRender::QClearBuffers(viewport);
    m_clear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
    m_clear->setClearColor(m_backgroundBottom);
    new Qt3DRender::QNoDraw(m_clear);

    auto* cam = camera();
    auto* bg = new Qt3DRender::QCameraSelector(viewport);
    bg->setCamera(cam);
    layerFilter(m_backgroundLayer, bg);

    auto* meshes = new Qt3DRender::QCameraSelector(viewport);
    meshes->setCamera(cam);
    layerFilter(m_layers.mesh, meshes);

    // After every opaque mesh, so what lies behind a see-through surface is already drawn.
    auto* translucent = new Qt3DRender::QCameraSelector(viewport);
    translucent->setCamera(cam);
    layerFilter(m_layers.translucent, translucent);

    auto* lines = new Qt3DRender::QCameraSelector(viewport);
    lines->setCamera(cam);
    layerFilter(m_layers.lines, lines);

    auto* overlay = new Qt3DRender::QCameraSelector(viewport);
    overlay->setCamera(cam);
    auto* overlayClear = new Qt3DRender::QClearBuffers(overlay);
    overlayClear->setBuffers(Qt3DRender::QClearBuffers::DepthBuffer);
    layerFilter(m_layers.overlay, overlayClear);

    // Last branch: the axes gizmo in a corner; the capture reads the whole surface after it.
    m_capture = new Qt3DRender::QRenderCapture(viewport);
    m_gizmoViewport = new Qt3DRender::QViewport(m_capture);
    m_gizmoCamera = new Qt3DRender::QCamera(m_root);
    auto* gizmoSel = new Qt3DRender::QCameraSelector(m_gizmoViewport);
    gizmoSel->setCamera(m_gizmoCamera);
    auto* gizmoClear = new Qt3DRender::QClearBuffers(gizmoSel);
    gizmoClear->setBuffers(Qt3DRender::QClearBuffers::DepthBuffer);
    layerFilter(m_gizmoLayer, gizmoClear);
    updateGizmoViewport();

    setActiveFrameGraph(surface);
}

void Viewport::buildGrid()
{
    const core::Bounds b = m_scene ? m_scene->bounds() : core::Bounds{};
    const float size = m_scene ? m_scene->size() : 10.0f;
    const float step = niceStep(size);
    const int half = std::max(10, int(std::ceil(size * 0.8f / step)));
    m_gridExtent = half * step;
    const float z = b.valid ? b.min.z() : 0.0f;
    const float cx = b.valid ? std::round(0.5f * (b.min.x() + b.max.x()) / step) * step : 0.0f;
    const float cy = b.valid ? std::round(0.5f * (b.min.y() + b.max.y()) / step) * step : 0.0f;
    LineList lines;
    auto faded = [](QColor c, float a) {
        c.setAlphaF(c.alphaF() * a);
        return c;
    };
    for (int i = -half; i <= half; ++i) {
        const float fade = 1.0f - float(std::abs(i)) / float(half + 1);
        const float x = cx + float(i) * step;
        const float y = cy + float(i) * step;
        const bool major = (i + int(std::lround(cx / step))) % 5 == 0;
        const bool majorY = (i + int(std::lround(cy / step))) % 5 == 0;
        QColor cX = std::abs(y) < step * 0.01f ? QColor(230, 90, 90, 150)
                                               : QColor(255, 255, 255, majorY ? 46 : 20);
        QColor cY = std::abs(x) < step * 0.01f ? QColor(110, 210, 110, 150)
                                               : QColor(255, 255, 255, major ? 46 : 20);
        const float e = m_gridExtent;
        // Lines along X (constant y) and along Y (constant x), faded towards the rim.
        lines.add({cx - e, y, z}, {cx, y, z}, faded(cX, 0), faded(cX, fade));
        lines.add({cx, y, z}, {cx + e, y, z}, faded(cX, fade), faded(cX, 0));
        lines.add({x, cy - e, z}, {x, cy, z}, faded(cY, 0), faded(cY, fade));
        lines.add({x, cy, z}, {x, cy + e, z}, faded(cY, fade), faded(cY, 0));
    }
    m_grid->setLines(lines);
}

void Viewport::buildGizmo()
{
    m_gizmo = new Qt3DCore::QEntity(m_root);
    m_gizmo->addComponent(m_gizmoLayer);
    auto* lines = new LineGeometry(m_gizmo);
    LineList l;
    const QColor colors[3] = {QColor(235, 85, 85), QColor(110, 210, 90), QColor(80, 150, 255)};
    const QVector3D axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int a = 0; a < 3; ++a) {
        l.add({0, 0, 0}, axes[a], colors[a]);
        auto* tip = new Qt3DCore::QEntity(m_gizmo);
        auto* mesh = new Qt3DExtras::QSphereMesh(tip);
        mesh->setRadius(0.13f);
        auto* t = new Qt3DCore::QTransform(tip);
        t->setTranslation(axes[a]);
        tip->addComponent(mesh);
        tip->addComponent(t);
        tip->addComponent(new SolidMaterial(colors[a], DepthMode::Scene, tip));
    }
    lines->setLines(l);
    auto* lineEntity = new Qt3DCore::QEntity(m_gizmo);
    lineEntity->addComponent(lines);
    lineEntity->addComponent(new LineMaterial(DepthMode::Scene, lineEntity));
}

void Viewport::updateGizmoViewport()
{
    if (!m_gizmoViewport) {
        return;
    }
    const float w = float(std::max(width(), 1));
    const float h = float(std::max(height(), 1));
    const float px = std::clamp(std::min(w, h) * 0.16f, 56.0f, 110.0f);
    m_gizmoViewport->setNormalizedRect(QRectF(8.0 / w, 1.0 - (px + 8.0) / h, px / w, px / h));
}

void Viewport::setModel(std::shared_ptr<const core::Model> model, const MaterialSources& sources,
                        bool resetCamera)
{
    int joint = -1;
    m_hasRoot = false; // follow-root starts again from the new model's root
    if (m_scene) {
        joint = m_scene->selectedJoint();
        delete m_scene;
        m_scene = nullptr;
    }
    if (model) {
        m_scene = SceneBuilder::build(std::move(model), sources, m_layers, m_root, m_flags,
                                      m_weightProfile);
        m_scene->setWeightProfile(m_weightProfile);
        m_scene->setDisplay(m_flags);
        connect(m_scene, &ModelScene::texturesLoaded, this, &Viewport::refresh);
        // Textures stream in once the model has been drawn: a capture tells when a frame with
        // the new scene is done (2 s at most, for a window that draws nothing).
        m_scene->deferTextureDecodes();
        delete m_firstFrame;
        m_firstFrame = m_capture->requestCapture();
        connect(m_firstFrame, &Qt3DRender::QRenderCaptureReply::completed, m_scene, [this] {
            timingMark("first frame");
            m_scene->startTextureDecodes();
        });
        QTimer::singleShot(2000, m_scene, &ModelScene::startTextureDecodes);
        timingMark("scene: display");
        if (joint >= 0 && std::size_t(joint) < m_scene->model().skeleton.size() && !resetCamera) {
            m_scene->setSelectedJoint(joint);
        }
    }
    buildGrid();
    if (resetCamera) {
        m_camera = OrbitCamera{};
        frameAll();
    } else {
        applyCamera();
    }
}

void Viewport::setGhostModel(std::shared_ptr<const core::Model> model)
{
    // A ghost appearing is framed with the model (it may lie far outside it); one replacing
    // another keeps the camera the user has.
    const bool appears = model && !m_ghost;
    delete m_ghost;
    m_ghost = nullptr;
    if (model) {
        DisplayFlags wires;
        wires.wireOnly = true;
        wires.skeleton = false;
        wires.textures = false;
        wires.grid = false;
        wires.axes = false;
        m_ghost =
            SceneBuilder::build(std::move(model), {}, m_layers, m_root, wires, m_weightProfile);
        m_ghost->setDisplay(wires);
    }
    refresh();
    if (appears) {
        frameAll();
    }
}

void Viewport::setWeightProfile(core::Profile profile)
{
    m_weightProfile = profile == core::Profile::Auto ? core::Profile::Source : profile;
    if (m_scene) {
        m_scene->setWeightProfile(m_weightProfile);
    }
    refresh();
}

void Viewport::setDisplay(const DisplayFlags& flags)
{
    m_flags = flags;
    if (m_scene) {
        m_scene->setDisplay(flags);
    }
    m_gridEntity->setEnabled(flags.grid);
    m_gizmo->setEnabled(flags.axes);
    refresh();
}

void Viewport::setBackgroundVisible(bool on)
{
    m_background->setEnabled(on);
    m_clear->setClearColor(on ? m_backgroundBottom : QColor(0, 0, 0, 0));
}

void Viewport::updateBackground()
{
    LineList quad;
    // Two triangles drawn as a triangle list: reuse the line layout (pos + colour).
    quad.add({-1, -1, 0}, {1, -1, 0}, m_backgroundBottom);
    quad.add({1, 1, 0}, {-1, -1, 0}, m_backgroundTop, m_backgroundBottom);
    quad.add({1, 1, 0}, {-1, 1, 0}, m_backgroundTop);
    m_backgroundQuad->setLines(quad);
}

void Viewport::setBackgroundColors(const QColor& top, const QColor& bottom)
{
    m_backgroundTop = top;
    m_backgroundBottom = bottom;
    updateBackground();
    if (m_background->isEnabled()) {
        m_clear->setClearColor(bottom);
    }
    refresh();
}

void Viewport::setCameraMode(CameraMode mode)
{
    if (mode == m_mode) {
        return;
    }
    m_mode = mode;
    emit cameraModeChanged(mode);
}

void Viewport::cycleCameraMode(int delta)
{
    setCameraMode(CameraMode(((int(m_mode) + delta) % 3 + 3) % 3));
}

bool Viewport::rootPosition(QVector3D* out) const
{
    if (!m_scene || m_scene->jointWorld().empty()) {
        return false;
    }
    *out = toQt(core::Vec3(m_scene->jointWorld().front().translation()));
    return true;
}

void Viewport::setFollowRoot(bool on)
{
    m_followRoot = on;
    m_hasRoot = rootPosition(&m_lastRoot);
    if (on && m_hasRoot) {
        m_camera.target = m_lastRoot;
        applyCamera();
    }
}

void Viewport::poseChanged()
{
    QVector3D root;
    const bool has = rootPosition(&root);
    if (m_followRoot && has && m_hasRoot) {
        m_camera.target += root - m_lastRoot;
        applyCamera();
    }
    m_hasRoot = has;
    m_lastRoot = root;
}

void Viewport::zoomAt(const QPoint& pos, float steps)
{
    const float factor = std::pow(0.88f, steps * m_mouse.wheelSpeed);
    if (m_mode == CameraMode::FirstPerson) {
        // Walk along the view: eye and target move together.
        m_camera.target -= m_camera.direction() * (m_camera.distance * (1.0f - factor));
        applyCamera();
        return;
    }
    if (m_mouse.zoomToCursor) {
        // Keep the point under the cursor (on the plane through the target) where it is.
        const float worldPerPixel =
            2.0f * m_camera.orthoHalfHeight() / float(std::max(height(), 1));
        const float dx = float(pos.x()) - 0.5f * float(width());
        const float dy = float(pos.y()) - 0.5f * float(height());
        const QVector3D offset = (m_camera.right() * dx - m_camera.up() * dy) * worldPerPixel;
        m_camera.target += offset * (1.0f - factor);
    }
    m_camera.dolly(factor);
    applyCamera();
}

void Viewport::setClearColorForCapture(const QColor& c)
{
    m_clear->setClearColor(c);
}

void Viewport::setCamera3d(const OrbitCamera& c)
{
    m_camera = c;
    applyCamera();
}

void Viewport::setPreset(CameraPreset p)
{
    m_camera.setPreset(p, m_scene ? frontYawDeg(m_scene->model()) : kValveFrontYawDeg);
    applyCamera();
}

void Viewport::setOrtho(bool on)
{
    m_camera.ortho = on;
    applyCamera();
}

void Viewport::frameBounds(const core::Bounds& b)
{
    m_camera.frame(b, float(std::max(width(), 1)) / float(std::max(height(), 1)));
    applyCamera();
}

void Viewport::frameAll()
{
    core::Bounds b = m_scene ? m_scene->bounds() : core::Bounds{};
    if (m_scene && m_animationBounds.valid) {
        b.grow(m_animationBounds);
    }
    if (m_ghost) {
        b.grow(m_ghost->bounds());
    }
    frameBounds(b);
}

core::Bounds Viewport::selectionBounds() const
{
    core::Bounds b;
    if (!m_scene) {
        return b;
    }
    auto grow = [&](const core::Vec3& p) { b.grow(p); };
    const int j = m_scene->selectedJoint();
    if (j >= 0 && std::size_t(j) < m_scene->jointWorld().size()) {
        const core::Vec3 p = m_scene->jointWorld()[std::size_t(j)].translation();
        const float r = m_scene->size() * 0.08f;
        grow(p - core::Vec3::Constant(r));
        grow(p + core::Vec3::Constant(r));
        return b;
    }
    const core::Mesh& mesh = m_scene->model().mesh;
    const auto& pts = m_scene->pointPositions();
    const int tri = m_scene->selectedTriangle();
    const int mat = m_scene->selectedMaterial();
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        if (int(t) == tri || (tri < 0 && mat >= 0 && int(mesh.triangleMaterials[t]) == mat)) {
            for (std::size_t k = 0; k < 3; ++k) {
                grow(pts[mesh.cornerPoints[3 * t + k]]);
            }
        }
    }
    if (b.valid && tri >= 0) {
        // Some context around a single triangle, but the triangle stays the subject: it spans
        // about half the view (a floor of 5% of the model made small triangles specks).
        const core::Vec3 c = (b.min + b.max) * 0.5f;
        const float r = std::max((b.max - b.min).norm() * 0.6f, m_scene->size() * 1e-4f);
        b.min = c - core::Vec3::Constant(r);
        b.max = c + core::Vec3::Constant(r);
    }
    return b;
}

void Viewport::frameSelection()
{
    const core::Bounds b = selectionBounds();
    if (b.valid) {
        frameBounds(b);
    } else {
        frameAll();
    }
}

void Viewport::setSelectedJoint(int joint)
{
    if (m_scene) {
        m_scene->setSelectedJoint(joint);
    }
}

void Viewport::setSelectedMaterial(int material)
{
    if (m_scene) {
        m_scene->setSelectedMaterial(material);
    }
}

void Viewport::setSelectedTriangle(int triangle, int corner)
{
    if (m_scene) {
        m_scene->setSelectedTriangle(triangle, corner);
    }
}

void Viewport::refresh()
{
    applyCamera();
}

void Viewport::applyCamera()
{
    auto* cam = camera();
    const float aspect = float(std::max(width(), 1)) / float(std::max(height(), 1));
    const float sceneR = std::max(m_scene ? m_scene->size() : 10.0f, m_gridExtent * 1.5f);
    const float d = m_camera.distance;
    if (m_camera.ortho) {
        const float back = d + sceneR * 2.0f;
        const float h = m_camera.orthoHalfHeight();
        cam->setProjectionType(Qt3DRender::QCameraLens::OrthographicProjection);
        cam->lens()->setOrthographicProjection(-h * aspect, h * aspect, -h, h, back * 0.01f,
                                               back + sceneR * 2.0f);
        cam->setPosition(m_camera.target + m_camera.direction() * back);
    } else {
        cam->lens()->setPerspectiveProjection(m_camera.fovDeg, aspect, std::max(d * 0.01f, 1e-5f),
                                              d + sceneR * 2.5f);
        cam->setPosition(m_camera.eye());
    }
    cam->setViewCenter(m_camera.target);
    cam->setUpVector(m_camera.up());
    if (m_scene) {
        m_scene->setViewportSize(QSizeF(std::max(width(), 1), std::max(height(), 1)));
        // Joint spheres keep their size on screen: one pixel's world size at each joint's depth.
        const float px = float(std::max(height(), 1));
        PixelScale ps;
        ps.eye = m_camera.ortho ? m_camera.target + m_camera.direction() * m_camera.distance
                                : m_camera.eye();
        ps.forward = -m_camera.direction();
        if (m_camera.ortho) {
            ps.constant = 2.0f * m_camera.orthoHalfHeight() / px;
        } else {
            ps.perDepth = 2.0f * std::tan(0.5f * m_camera.fovDeg * 3.14159265f / 180.0f) / px;
        }
        m_scene->setPixelScale(ps);
    }

    m_gizmoCamera->lens()->setOrthographicProjection(-1.45f, 1.45f, -1.45f, 1.45f, 0.1f, 20.0f);
    m_gizmoCamera->setPosition(m_camera.direction() * 5.0f);
    m_gizmoCamera->setViewCenter({0, 0, 0});
    m_gizmoCamera->setUpVector(m_camera.up());
    emit cameraChanged();
}

PickResult Viewport::pick(const QPoint& pos) const
{
    PickResult r;
    if (!m_scene) {
        return r;
    }
    auto* cam = const_cast<Viewport*>(this)->camera();
    const QMatrix4x4 view = cam->viewMatrix();
    const QMatrix4x4 proj = cam->projectionMatrix();
    const QRect vp(0, 0, std::max(width(), 1), std::max(height(), 1));
    const QVector3D win(float(pos.x()), float(vp.height() - pos.y()), 0.0f);

    if (m_flags.skeleton) {
        float best = 8.0f;
        const auto& world = m_scene->jointWorld();
        for (std::size_t j = 0; j < world.size(); ++j) {
            const QVector3D p = toQt(core::Vec3(world[j].translation()));
            const QVector3D s = p.project(view, proj, vp);
            if (s.z() < 0 || s.z() > 1) {
                continue;
            }
            const float dist = QVector2D(s.x() - win.x(), s.y() - win.y()).length();
            if (dist < best) {
                best = dist;
                r.joint = int(j);
                r.point = p;
            }
        }
        if (r.joint >= 0) {
            return r;
        }
    }
    if (!(m_flags.mesh || m_flags.wireOnly)) {
        return r;
    }
    const QVector3D nearP = QVector3D(win.x(), win.y(), 0.0f).unproject(view, proj, vp);
    const QVector3D farP = QVector3D(win.x(), win.y(), 1.0f).unproject(view, proj, vp);
    const core::Vec3 o = toEigen(nearP);
    const core::Vec3 dir = toEigen(farP - nearP).normalized();
    const core::Mesh& mesh = m_scene->model().mesh;
    const auto& pts = m_scene->pointPositions();
    float bestT = std::numeric_limits<float>::max();
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const core::Vec3& a = pts[mesh.cornerPoints[3 * t]];
        const core::Vec3& b = pts[mesh.cornerPoints[3 * t + 1]];
        const core::Vec3& c = pts[mesh.cornerPoints[3 * t + 2]];
        const core::Vec3 e1 = b - a, e2 = c - a;
        const core::Vec3 pv = dir.cross(e2);
        const float det = e1.dot(pv);
        if (std::abs(det) < 1e-12f) {
            continue;
        }
        const float inv = 1.0f / det;
        const core::Vec3 tv = o - a;
        const float u = tv.dot(pv) * inv;
        if (u < 0 || u > 1) {
            continue;
        }
        const core::Vec3 qv = tv.cross(e1);
        const float v = dir.dot(qv) * inv;
        if (v < 0 || u + v > 1) {
            continue;
        }
        const float dist = e2.dot(qv) * inv;
        if (dist > 0 && dist < bestT) {
            bestT = dist;
            r.triangle = int(t);
            const core::Vec3 hitP = o + dir * dist;
            r.point = toQt(hitP);
            float bestC = std::numeric_limits<float>::max();
            for (int k = 0; k < 3; ++k) {
                const float dc =
                    (pts[mesh.cornerPoints[3 * t + std::size_t(k)]] - hitP).squaredNorm();
                if (dc < bestC) {
                    bestC = dc;
                    r.corner = k;
                }
            }
        }
    }
    return r;
}

QPointF Viewport::screenPoint(const QVector3D& p) const
{
    auto* cam = const_cast<Viewport*>(this)->camera();
    const QRect vp(0, 0, std::max(width(), 1), std::max(height(), 1));
    const QVector3D s = p.project(cam->viewMatrix(), cam->projectionMatrix(), vp);
    return {s.x(), float(vp.height()) - s.y()};
}

QVector3D Viewport::viewPlanePoint(const QPoint& pos, const QVector3D& through) const
{
    auto* cam = const_cast<Viewport*>(this)->camera();
    const QMatrix4x4 view = cam->viewMatrix();
    const QMatrix4x4 proj = cam->projectionMatrix();
    const QRect vp(0, 0, std::max(width(), 1), std::max(height(), 1));
    const float wx = float(pos.x()), wy = float(vp.height() - pos.y());
    const QVector3D nearP = QVector3D(wx, wy, 0.0f).unproject(view, proj, vp);
    const QVector3D farP = QVector3D(wx, wy, 1.0f).unproject(view, proj, vp);
    const QVector3D dir = (farP - nearP).normalized();
    const QVector3D n = m_camera.direction().normalized(); // the plane faces the camera
    const float denom = QVector3D::dotProduct(dir, n);
    if (std::abs(denom) < 1e-6f) {
        return through;
    }
    const float t = QVector3D::dotProduct(through - nearP, n) / denom;
    return nearP + dir * t;
}

int Viewport::jointAt(const QPoint& pos, float maxPixels) const
{
    if (!m_scene) {
        return -1;
    }
    int best = -1;
    float bestD = maxPixels;
    const auto& world = m_scene->jointWorld();
    for (std::size_t j = 0; j < world.size(); ++j) {
        const QPointF s = screenPoint(toQt(core::Vec3(world[j].translation())));
        const float d = float(QLineF(s, QPointF(pos)).length());
        if (d < bestD) {
            bestD = d;
            best = int(j);
        }
    }
    return best;
}

void Viewport::mousePressEvent(QMouseEvent* e)
{
    m_dragButton = e->button();
    m_dragModifiers = e->modifiers();
    m_pressPos = m_lastPos = e->position().toPoint();
    m_dragged = false;
    m_grab = Grab::None;
    if (e->button() != Qt::LeftButton) {
        return;
    }
    // Ctrl+left on a joint: move the bone (its jiggle bones swing); a left press on the eyes'
    // target marker: move the target. Both in the view plane.
    if (m_dragModifiers.testFlag(Qt::ControlModifier)) {
        const int j = jointAt(m_pressPos, 14.0f);
        if (j >= 0) {
            m_grab = Grab::Bone;
            m_grabJoint = j;
            m_grabStart = toQt(core::Vec3(m_scene->jointWorld()[std::size_t(j)].translation()));
            emit boneDragStarted(j);
        }
    } else if (m_eyeHandle && m_eyes &&
               QLineF(screenPoint(*m_eyeHandle), QPointF(m_pressPos)).length() <= 12.0) {
        m_grab = Grab::EyeTarget;
        m_grabStart = *m_eyeHandle;
    }
}

std::vector<MouseControl> mouseControls(MouseScheme scheme)
{
    switch (scheme) {
    case MouseScheme::Blender:
        return {{"MMB drag", "Orbit"},
                {"Shift+MMB drag", "Pan (moves the orbit point)"},
                {"Ctrl+MMB drag / Wheel", "Dolly"},
                {"Alt+MMB click", "Recentre on the picked point"},
                {"LMB click", "Pick bone / triangle and its nearest vertex"},
                {"Ctrl+LMB drag a joint", "Move bone (jiggles swing)"}};
    case MouseScheme::F3d:
        return {{"LMB drag", "Orbit"},
                {"Shift+LMB / MMB / Mouse4 drag", "Pan (moves the orbit point)"},
                {"RMB drag / Wheel", "Dolly"},
                {"MMB click", "Recentre on the picked point"},
                {"LMB click", "Pick bone / triangle and its nearest vertex"},
                {"Ctrl+LMB drag a joint", "Move bone (jiggles swing)"}};
    case MouseScheme::Hlam:
        break;
    }
    return {{"LMB drag", "Orbit"},
            {"Shift+LMB / MMB / Mouse4 drag", "Pan (moves the orbit point)"},
            {"RMB drag / Wheel", "Dolly"},
            {"Double-click", "Recentre on the picked point"},
            {"LMB click", "Pick bone / triangle and its nearest vertex"},
            {"Ctrl+LMB drag a joint", "Move bone (jiggles swing)"}};
}

void Viewport::mouseMoveEvent(QMouseEvent* e)
{
    if (m_dragButton == Qt::NoButton) {
        return;
    }
    const QPoint p = e->position().toPoint();
    const QPoint d = p - m_lastPos;
    m_lastPos = p;
    if ((p - m_pressPos).manhattanLength() >= 4) {
        m_dragged = true;
    }
    if (!m_dragged) {
        return;
    }
    if (m_grab == Grab::EyeTarget) {
        emit eyeTargetDragged(viewPlanePoint(p, m_grabStart));
        return;
    }
    if (m_grab == Grab::Bone) {
        emit boneDragged(m_grabJoint, viewPlanePoint(p, m_grabStart) - m_grabStart);
        return;
    }
    const bool shift = m_dragModifiers.testFlag(Qt::ShiftModifier);
    const bool ctrl = m_dragModifiers.testFlag(Qt::ControlModifier);
    enum class Drag { None, Orbit, Pan, Dolly } drag = Drag::None;
    switch (m_mouse.scheme) {
    case MouseScheme::Hlam:
    case MouseScheme::F3d:
        if ((m_dragButton == Qt::LeftButton && shift) || m_dragButton == Qt::MiddleButton ||
            m_dragButton == Qt::BackButton) {
            drag = Drag::Pan;
        } else if (m_dragButton == Qt::LeftButton) {
            drag = Drag::Orbit;
        } else if (m_dragButton == Qt::RightButton) {
            drag = Drag::Dolly;
        }
        break;
    case MouseScheme::Blender:
        if (m_dragButton == Qt::MiddleButton) {
            drag = shift ? Drag::Pan : ctrl ? Drag::Dolly : Drag::Orbit;
        }
        break;
    }
    const float sx = (m_mouse.invertX ? -1.0f : 1.0f) * m_mouse.sensitivity;
    const float sy = (m_mouse.invertY ? -1.0f : 1.0f) * m_mouse.sensitivity;
    switch (drag) {
    case Drag::None:
        return;
    case Drag::Pan:
        m_camera.pan(float(d.x()) * sx, float(d.y()) * sy, float(height()));
        break;
    case Drag::Orbit:
        if (m_mode == CameraMode::ArcBall) {
            m_camera.orbit(-float(d.x()) * 0.4f * sx, float(d.y()) * 0.4f * sy);
        } else {
            // Free-look and first-person turn the camera where it stands.
            const QVector3D eye = m_camera.eye();
            m_camera.orbit(-float(d.x()) * 0.25f * sx, -float(d.y()) * 0.25f * sy);
            m_camera.target = eye - m_camera.direction() * m_camera.distance;
        }
        break;
    case Drag::Dolly:
        if (m_mode == CameraMode::FirstPerson) {
            m_camera.target -=
                m_camera.direction() * (m_camera.distance * float(d.y()) * 0.01f * sy);
        } else {
            m_camera.dolly(std::exp(float(d.y()) * 0.01f * sy));
        }
        break;
    }
    applyCamera();
}

void Viewport::mouseReleaseEvent(QMouseEvent* e)
{
    if (m_grab != Grab::None && e->button() == m_dragButton) {
        if (m_grab == Grab::Bone) {
            emit boneDragFinished(m_grabJoint);
        }
        m_grab = Grab::None;
        m_dragButton = Qt::NoButton;
        return;
    }
    if (e->button() == m_dragButton && !m_dragged && m_dragButton == Qt::LeftButton) {
        emit picked(pick(e->position().toPoint()));
    }
    // F3D: a middle click recentres; Blender: Alt + middle click.
    const bool recentre =
        e->button() == m_dragButton && !m_dragged && m_dragButton == Qt::MiddleButton &&
        (m_mouse.scheme == MouseScheme::F3d ||
         (m_mouse.scheme == MouseScheme::Blender && m_dragModifiers.testFlag(Qt::AltModifier)));
    if (recentre) {
        const PickResult r = pick(e->position().toPoint());
        if (r.hit()) {
            m_camera.target = r.point;
            applyCamera();
        }
    }
    m_dragButton = Qt::NoButton;
}

void Viewport::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (m_mouse.scheme != MouseScheme::Hlam) {
        return;
    }
    const PickResult r = pick(e->position().toPoint());
    if (r.hit()) {
        m_camera.target = r.point;
        applyCamera();
    }
}

void Viewport::wheelEvent(QWheelEvent* e)
{
    zoomAt(e->position().toPoint(), float(e->angleDelta().y()) / 120.0f);
}

void Viewport::keyPressEvent(QKeyEvent* e)
{
    const bool ctrl = e->modifiers().testFlag(Qt::ControlModifier);
    switch (e->key()) {
    case Qt::Key_1:
        setPreset(ctrl ? CameraPreset::Back : CameraPreset::Front);
        return;
    case Qt::Key_3:
        setPreset(ctrl ? CameraPreset::Left : CameraPreset::Right);
        return;
    case Qt::Key_7:
        setPreset(ctrl ? CameraPreset::Bottom : CameraPreset::Top);
        return;
    case Qt::Key_9:
        setPreset(CameraPreset::Iso);
        return;
    case Qt::Key_5:
        setOrtho(!m_camera.ortho);
        return;
    case Qt::Key_2:
        m_camera.orbit(0, -90);
        applyCamera();
        return;
    case Qt::Key_8:
        m_camera.orbit(0, 90);
        applyCamera();
        return;
    case Qt::Key_4:
        m_camera.orbit(90, 0);
        applyCamera();
        return;
    case Qt::Key_6:
        m_camera.orbit(-90, 0);
        applyCamera();
        return;
    case Qt::Key_F:
        frameSelection();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        m_camera = OrbitCamera{};
        frameAll();
        return;
    default:
        break;
    }
    emit unhandledKey(e->key(), e->modifiers());
}

void Viewport::resizeEvent(QResizeEvent* e)
{
    Qt3DExtras::Qt3DWindow::resizeEvent(e);
    updateGizmoViewport();
    applyCamera();
}

void Viewport::setEyes(const std::vector<EyeDrawing>& eyes, std::optional<QVector3D> target,
                       std::optional<QVector3D> handle)
{
    if (!m_eyes) {
        m_eyes = new EyeScene(m_layers.lines, m_root);
    }
    float marker = 1.0f;
    for (const EyeDrawing& e : eyes) {
        marker = std::max(marker, e.radius);
    }
    m_eyeHandle = eyes.empty() ? std::nullopt : target ? target : handle;
    m_eyes->setEyes(eyes, target, marker, target ? std::nullopt : handle);
    refresh();
}

} // namespace rigscope::render
