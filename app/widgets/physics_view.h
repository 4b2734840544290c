#pragma once

// The window's Physics view (issue 31 items 3 and 4): View menu actions: the toggle (P,
// persisted), Simulate Ragdoll (the drop test, the model posed from the solids at
// rest, phys.ragdoll-unstable findings into the Problems dock) and Back to Pose;
// the hulls over the model (render/physics_scene.h) for a QC project's predicted collision
// model or a compiled model's .phy; the selected bone's solid (mass, pieces, limits) and the
// physics budget in the status bar.

#include <memory>
#include <optional>

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>

#include "core/physics/drop_test.h"
#include "render/physics_scene.h"

class QAction;
class QLabel;
class QMainWindow;
class QSettings;

namespace rigscope::render {
class Viewport;
}

namespace rigscope::app {

class Document;
class DocumentManager;

class PhysicsView : public QObject {
    Q_OBJECT
public:
    PhysicsView(QMainWindow* window, QSettings& settings, DocumentManager* tabs,
                render::Viewport* viewport);
    ~PhysicsView() override;

    // The toggle, Simulate Ragdoll and Back to Pose (the window puts them in its View menu).
    QList<QAction*> actions() const { return {m_toggle, m_simulate, m_back}; }
    QAction* toggleAction() const { return m_toggle; }
    QAction* simulateAction() const { return m_simulate; }
    QAction* backToPoseAction() const { return m_back; }
    QLabel* statusLabel() const { return m_status; }

    bool isShown() const;
    void setShown(bool on);
    // The hulls drawn now (null when the view is off or the document has no collision model).
    render::PhysicsScene* scene() const { return m_scene; }
    // The collision model of the current document (empty without one).
    const render::PhysicsDrawModel& drawModel() const { return m_draw; }

    // Simulate Ragdoll: the drop test of the current document; false when it has no solid.
    bool simulate();
    const std::optional<core::DropResult>& lastDrop() const { return m_drop; }
    // Back to the document's own pose (the playhead's, or bind).
    void backToPose();

    // Rebuilds from the current document (after a load, a tab switch, a new scene).
    void refresh();

private:
    void follow(Document* doc);
    void rebuildScene();
    void applyPose();
    void updateStatus();
    int selectedJoint() const;

    QSettings& m_settings;
    DocumentManager* m_tabs;
    render::Viewport* m_viewport;
    QAction* m_toggle = nullptr;
    QAction* m_simulate = nullptr;
    QAction* m_back = nullptr;
    QLabel* m_status = nullptr;
    QPointer<render::PhysicsScene> m_scene;
    QPointer<QObject> m_sceneOwner; // the ModelScene the hulls were built for
    QObject* m_following = nullptr; // context of the current document's connections
    render::PhysicsDrawModel m_draw;
    std::optional<core::DropInput> m_input;
    std::optional<core::DropResult> m_drop;
    std::vector<Eigen::Affine3f> m_simPose; // the model posed by the drop test (empty: none)
};

} // namespace rigscope::app
