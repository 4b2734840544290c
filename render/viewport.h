#pragma once

#include <vector>

#include <memory>

#include <QtCore/QElapsedTimer>
#include <QtCore/QPoint>
#include <QtCore/QPointF>
#include <QtGui/QColor>
#include <Qt3DExtras/Qt3DWindow>

#include "render/eye_scene.h"
#include "render/model_scene.h"
#include "render/orbit_camera.h"

namespace Qt3DRender {
class QCamera;
class QClearBuffers;
class QLayer;
class QRenderCapture;
class QRenderCaptureReply;
class QViewport;
} // namespace Qt3DRender

namespace rigscope::render {

class LineGeometry;

// Settings ▸ Mouse (UX.md): which buttons orbit, pan and dolly, and how fast.
enum class MouseScheme { Hlam, F3d, Blender };
struct MouseOptions {
    MouseScheme scheme = MouseScheme::Hlam;
    bool invertX = false;
    bool invertY = false;
    float sensitivity = 1.0f; // orbit and pan speed
    float wheelSpeed = 1.0f;
    bool zoomToCursor = true; // the wheel dollies toward the point under the cursor
    bool operator==(const MouseOptions&) const = default;
};

// What each mouse input does under a scheme, as Viewport's mouse handlers implement it (the H
// sheet lists these, so it shows the scheme in use). Input and action are plain English.
struct MouseControl {
    const char* input;  // "LMB drag"
    const char* action; // "Orbit"
};
std::vector<MouseControl> mouseControls(MouseScheme scheme);

// Ctrl+U / Ctrl+I (HLAM): arc-ball turns around the target; free-look turns the camera where it
// stands; first-person turns likewise and the wheel / right drag walk along the view.
enum class CameraMode { ArcBall, FreeLook, FirstPerson };

struct ViewportOptions {
    bool msaa = true; // tests and --screenshot turn it off (deterministic llvmpipe pixels)
    bool interactive = true;
};

// What a click hit: a joint, or a triangle with its nearest corner (core indices).
struct PickResult {
    int joint = -1;
    int triangle = -1;
    int corner = -1; // 0..2 within the triangle
    QVector3D point;
    bool hit() const { return joint >= 0 || triangle >= 0; }
};

// The Qt3D window: frame graph (background, meshes, lines, overlay, axes gizmo, capture),
// the HLAM mouse scheme, camera presets and CPU picking. QtGui only; the app embeds it with
// QWidget::createWindowContainer.
class Viewport : public Qt3DExtras::Qt3DWindow {
    Q_OBJECT
public:
    explicit Viewport(const ViewportOptions& options = {}, QScreen* screen = nullptr);
    ~Viewport() override;

    // Replaces the displayed model (nullptr clears). Keeps the camera unless resetCamera.
    void setModel(std::shared_ptr<const core::Model> model, const MaterialSources& sources,
                  bool resetCamera);
    ModelScene* scene() const { return m_scene; }
    // A second model drawn as wires over the first (the Compare view's compiled model); null
    // removes it. It keeps its bind pose.
    void setGhostModel(std::shared_ptr<const core::Model> model);
    ModelScene* ghostScene() const { return m_ghost; }
    // The frame graph's layers (overlays such as the Physics view's hulls draw in them).
    const SceneLayers& layers() const { return m_layers; }

    void setDisplay(const DisplayFlags& flags);
    const DisplayFlags& display() const { return m_flags; }
    // Kept across model swaps (the scene gets it when built); see ModelScene.
    void setWeightProfile(core::Profile profile);
    core::Profile weightProfile() const { return m_weightProfile; }
    void setBackgroundVisible(bool on);
    void setClearColorForCapture(const QColor& c); // with the background hidden

    const OrbitCamera& camera3d() const { return m_camera; }
    void setCamera3d(const OrbitCamera& c);
    void setPreset(CameraPreset p);
    void setOrtho(bool on);
    // Frames the whole animation when bounds were set (setAnimationBounds), else the pose.
    void frameAll();
    void frameSelection();
    // What frame-all covers besides the current pose: the bounds of every frame of the current
    // animation, so root motion never leaves an empty view. Invalid = the pose only.
    void setAnimationBounds(const core::Bounds& b) { m_animationBounds = b; }
    const core::Bounds& animationBounds() const { return m_animationBounds; }
    // Follow root: the camera target moves with the root joint as the pose changes.
    void setFollowRoot(bool on);
    bool followRoot() const { return m_followRoot; }
    // Called by the owner after each setPose: moves the target by the root's motion when
    // following.
    void poseChanged();

    void setMouseOptions(const MouseOptions& o) { m_mouse = o; }
    const MouseOptions& mouseOptions() const { return m_mouse; }
    void setCameraMode(CameraMode mode);
    CameraMode cameraMode() const { return m_mode; }
    void cycleCameraMode(int delta); // +1 Ctrl+U, -1 Ctrl+I
    void setBackgroundColors(const QColor& top, const QColor& bottom);
    // Wheel dolly by `steps` notches at `pos` (zoom-to-cursor when the option is on).
    void zoomAt(const QPoint& pos, float steps);

    void setSelectedJoint(int joint);
    void setSelectedMaterial(int material);
    void setSelectedTriangle(int triangle, int corner);

    PickResult pick(const QPoint& pos) const;
    // Where a model-space point shows, in widget pixels (y down).
    QPointF screenPoint(const QVector3D& p) const;
    // The point under `pos` on the plane through `through` facing the camera (what a drag in
    // the view plane moves to).
    QVector3D viewPlanePoint(const QPoint& pos, const QVector3D& through) const;
    // The joint of the pose shown nearest `pos` within `maxPixels` (drawn or not), else -1.
    int jointAt(const QPoint& pos, float maxPixels) const;
    // A QC face's eyes and their look-at target (render/eye_scene.h); empty: none drawn.
    // `handle`: where the target marker sits when no target is set (the eyes look straight
    // ahead; dragging the marker sets one). A left drag that starts on the marker moves it in
    // the view plane (eyeTargetDragged), not the camera.
    void setEyes(const std::vector<EyeDrawing>& eyes, std::optional<QVector3D> target,
                 std::optional<QVector3D> handle = {});
    const EyeScene* eyeScene() const { return m_eyes; }
    std::optional<QVector3D> eyeHandle() const { return m_eyeHandle; }
    Qt3DRender::QRenderCapture* capture() const { return m_capture; }
    // Re-applies camera matrices and asks Qt3D for a frame.
    void refresh();

signals:
    void cameraModeChanged(rigscope::render::CameraMode mode);
    void picked(const rigscope::render::PickResult& result);
    void cameraChanged();
    void unhandledKey(int key, Qt::KeyboardModifiers modifiers);
    void fpsChanged(double fps);
    // A drag of the eyes' target marker: the target's new place (model space).
    void eyeTargetDragged(const QVector3D& point);
    // Ctrl+left drag from a joint (docs/viewer.md): the joint grabbed, then how far the cursor
    // moved it in the view plane since the press (model space), then the release.
    void boneDragStarted(int joint);
    void boneDragged(int joint, const QVector3D& delta);
    void boneDragFinished(int joint);

protected:
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void buildFrameGraph();
    void buildGrid();
    void buildGizmo();
    void applyCamera();
    void updateGizmoViewport();
    core::Bounds selectionBounds() const;
    void frameBounds(const core::Bounds& b);

    void updateBackground();
    bool rootPosition(QVector3D* out) const;

    ViewportOptions m_options;
    MouseOptions m_mouse;
    CameraMode m_mode = CameraMode::ArcBall;
    core::Bounds m_animationBounds;
    bool m_followRoot = false;
    bool m_hasRoot = false;
    QVector3D m_lastRoot;
    QColor m_backgroundTop{72, 77, 86};
    QColor m_backgroundBottom{30, 32, 37};
    LineGeometry* m_backgroundQuad = nullptr;
    DisplayFlags m_flags;
    core::Profile m_weightProfile = core::Profile::Source;
    OrbitCamera m_camera;
    Qt3DCore::QEntity* m_root = nullptr;
    Qt3DRender::QCamera* m_gizmoCamera = nullptr;
    Qt3DRender::QViewport* m_gizmoViewport = nullptr;
    Qt3DRender::QClearBuffers* m_clear = nullptr;
    Qt3DRender::QRenderCapture* m_capture = nullptr;
    SceneLayers m_layers;
    EyeScene* m_eyes = nullptr;
    Qt3DRender::QLayer* m_backgroundLayer = nullptr;
    Qt3DRender::QLayer* m_gizmoLayer = nullptr;
    Qt3DCore::QEntity* m_background = nullptr;
    Qt3DCore::QEntity* m_gridEntity = nullptr;
    LineGeometry* m_grid = nullptr;
    Qt3DCore::QEntity* m_gizmo = nullptr;
    ModelScene* m_scene = nullptr;
    ModelScene* m_ghost = nullptr;
    float m_gridExtent = 10.0f;

    Qt::MouseButton m_dragButton = Qt::NoButton;
    Qt::KeyboardModifiers m_dragModifiers;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_dragged = false;
    enum class Grab { None, EyeTarget, Bone } m_grab = Grab::None;
    int m_grabJoint = -1;
    QVector3D m_grabStart;
    std::optional<QVector3D> m_eyeHandle;
    int m_frames = 0;
    Qt3DRender::QRenderCaptureReply* m_firstFrame = nullptr; // the model's first frame drawn
    QElapsedTimer m_fpsTimer;
};

} // namespace rigscope::render

Q_DECLARE_METATYPE(rigscope::render::PickResult)
