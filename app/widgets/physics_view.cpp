#include "app/widgets/physics_view.h"

#include <functional>

#include <QtCore/QSettings>
#include <QtGui/QAction>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QStatusBar>

#include "app/document/document.h"
#include "app/document/document_manager.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/physics_report.h"
#include "core/ops/qc_ops.h"
#include "core/pose/pose_rig.h"
#include "render/viewport.h"

namespace rigscope::app {

namespace {

const QString kShownKey = QStringLiteral("Viewport/physics");

QString kg(double v)
{
    return QString::number(v, 'f', v < 10 ? 2 : 1) + QStringLiteral(" kg");
}

} // namespace

PhysicsView::PhysicsView(QMainWindow* window, QSettings& settings, DocumentManager* tabs,
                         render::Viewport* viewport)
    : QObject(window), m_settings(settings), m_tabs(tabs), m_viewport(viewport)
{
    m_toggle = new QAction(tr("Physics"), window);
    m_toggle->setObjectName(QStringLiteral("physicsView"));
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(QKeySequence(Qt::Key_P));
    m_toggle->setToolTip(tr("Draw the collision model's convex hulls over the model (P)"));
    m_toggle->setChecked(m_settings.value(kShownKey, false).toBool());
    connect(m_toggle, &QAction::toggled, this, [this](bool on) {
        m_settings.setValue(kShownKey, on);
        m_settings.sync();
        rebuildScene();
    });
    m_simulate = new QAction(tr("Simulate Ragdoll"), window);
    m_simulate->setObjectName(QStringLiteral("simulateRagdoll"));
    connect(m_simulate, &QAction::triggered, this, [this] { simulate(); });
    m_back = new QAction(tr("Back to Pose"), window);
    connect(m_back, &QAction::triggered, this, &PhysicsView::backToPose);

    m_status = new QLabel(window);
    m_status->setObjectName(QStringLiteral("physicsBudget"));
    m_status->hide();
    window->statusBar()->addPermanentWidget(m_status);

    connect(m_tabs, &DocumentManager::currentDocumentChanged, this,
            [this](Document* doc, Document*) { follow(doc); });
    follow(m_tabs->current());
}

PhysicsView::~PhysicsView() = default;

bool PhysicsView::isShown() const
{
    return m_toggle->isChecked();
}

void PhysicsView::setShown(bool on)
{
    m_toggle->setChecked(on);
}

void PhysicsView::follow(Document* doc)
{
    delete m_following;
    m_following = new QObject(this);
    if (doc) {
        // Queued: the viewport builds its scene and pose on the same signals first.
        connect(
            doc, &Document::loaded, m_following, [this] { refresh(); }, Qt::QueuedConnection);
        connect(
            doc, &Document::frameChanged, m_following,
            [this] {
                m_simPose.clear();
                applyPose();
            },
            Qt::QueuedConnection);
        connect(
            doc, &Document::selectionChanged, m_following,
            [this] {
                if (m_scene) {
                    m_scene->setSelectedJoint(selectedJoint());
                }
                updateStatus();
            },
            Qt::QueuedConnection);
    }
    // After the viewport shows the new current document.
    QMetaObject::invokeMethod(this, &PhysicsView::refresh, Qt::QueuedConnection);
}

void PhysicsView::refresh()
{
    m_draw = {};
    m_input.reset();
    m_drop.reset();
    m_simPose.clear();
    Document* doc = m_tabs->current();
    const render::ModelScene* shown = m_viewport->scene();
    if (doc && shown) {
        const core::Skeleton& skeleton = shown->model().skeleton;
        if (const core::QcReport* qc = doc->qcProject(); qc && qc->physics.built) {
            m_draw = render::physicsDrawModel(qc->physics, skeleton);
            m_input = core::dropInput(qc->physics);
        } else if (const core::CompiledModelInfo* mdl = doc->compiledModel();
                   mdl && mdl->physics.present && !mdl->physics.solids.empty()) {
            m_draw = render::physicsDrawModel(mdl->physics, skeleton);
            std::vector<Eigen::Affine3d> frames;
            for (const render::PhysicsDrawSolid& s : m_draw.solids) {
                frames.push_back(s.boneToModel);
            }
            m_input = core::dropInput(mdl->physics, frames);
        }
    }
    m_simulate->setEnabled(m_input && !m_input->bodies.empty());
    rebuildScene();
}

void PhysicsView::rebuildScene()
{
    delete m_scene;
    m_scene = nullptr;
    render::ModelScene* shown = m_viewport->scene();
    if (isShown() && shown && !m_draw.solids.empty()) {
        // Beside the model's scene (not under it): a scene rebuilt for new materials keeps them.
        auto* parent = qobject_cast<Qt3DCore::QNode*>(shown->parentNode());
        m_scene = new render::PhysicsScene(m_draw, m_viewport->layers(), parent);
        m_scene->setSelectedJoint(selectedJoint());
        applyPose();
    }
    updateStatus();
    m_viewport->refresh();
}

void PhysicsView::applyPose()
{
    render::ModelScene* shown = m_viewport->scene();
    if (!shown) {
        return;
    }
    if (!m_simPose.empty() && m_simPose.size() == shown->model().skeleton.size()) {
        shown->setPose(m_simPose);
    }
    if (m_scene) {
        const core::PoseRig rig = core::makePoseRig(shown->model().skeleton);
        m_scene->setPose(shown->jointWorld(), rig.bindModel);
    }
    m_viewport->refresh();
}

int PhysicsView::selectedJoint() const
{
    const Document* doc = m_tabs->current();
    return doc && doc->selection().kind == Selection::Kind::Joint ? doc->selection().index : -1;
}

void PhysicsView::updateStatus()
{
    if (m_draw.solids.empty()) {
        m_status->hide();
        return;
    }
    // The budget: solids against the game's ragdoll limit, pieces against $maxconvexpieces.
    std::int32_t maxPieces = 20;
    bool jointed = m_draw.solids.size() > 1 || m_draw.solids.front().joint >= 0;
    if (const Document* doc = m_tabs->current()) {
        if (const core::QcReport* qc = doc->qcProject(); qc && qc->physics.built) {
            maxPieces = qc->physics.settings.maxConvexPieces;
            jointed = qc->physics.jointed;
        }
    }
    std::size_t mostPieces = 0;
    double mass = 0;
    for (const render::PhysicsDrawSolid& s : m_draw.solids) {
        mostPieces = std::max(mostPieces, s.pieces.size());
        mass += s.mass;
    }
    QString text = jointed ? tr("Physics: %1/32 solids, %2 pieces (most %3/%4 in a solid), %5")
                                 .arg(m_draw.solids.size())
                                 .arg(m_draw.pieceCount())
                                 .arg(mostPieces)
                                 .arg(maxPieces)
                                 .arg(kg(mass))
                           : tr("Physics: 1 solid, %1/%2 pieces, %3")
                                 .arg(m_draw.pieceCount())
                                 .arg(maxPieces)
                                 .arg(kg(mass));
    const int joint = selectedJoint();
    for (const render::PhysicsDrawSolid& s : m_draw.solids) {
        if (joint >= 0 && s.joint == joint) {
            text += tr(" · %1: %2, %3 piece(s)")
                        .arg(QString::fromStdString(s.name), kg(s.mass))
                        .arg(s.pieces.size());
        }
    }
    if (m_drop && m_drop->ran) {
        text +=
            m_drop->unstable()
                ? tr(" · drop test: unstable")
                : tr(" · drop test: at rest after %1 s").arg(m_drop->restStep / 60.0, 0, 'f', 1);
    }
    m_status->setText(text);
    m_status->show();
}

bool PhysicsView::simulate()
{
    Document* doc = m_tabs->current();
    render::ModelScene* shown = m_viewport->scene();
    if (!doc || !shown || !m_input || m_input->bodies.empty()) {
        return false;
    }
    m_drop = core::runDropTest(*m_input);
    if (!m_drop->ran) {
        updateStatus();
        return false;
    }
    // The joints with a solid take its rest frame; the others follow their parents as bound.
    const core::Skeleton& skeleton = shown->model().skeleton;
    const core::PoseRig rig = core::makePoseRig(skeleton);
    const std::size_t n = skeleton.size();
    std::vector<int> solidOf(n, -1);
    int rootSolid = -1;
    for (std::size_t s = 0; s < m_draw.solids.size() && s < m_drop->solids.size(); ++s) {
        const int j = m_draw.solids[s].joint;
        if (j >= 0 && static_cast<std::size_t>(j) < n) {
            solidOf[static_cast<std::size_t>(j)] = static_cast<int>(s);
        }
        if (rootSolid < 0 && m_draw.solids[s].parent < 0) {
            rootSolid = static_cast<int>(s);
        }
    }
    auto delta = [&](int s) {
        const auto i = static_cast<std::size_t>(s);
        return Eigen::Affine3f(
            (m_drop->solids[i].boneToModel * m_draw.solids[i].boneToModel.inverse()).cast<float>());
    };
    std::vector<Eigen::Affine3f> world(n, Eigen::Affine3f::Identity());
    std::vector<std::uint8_t> done(n, 0);
    // Parents may come after children in a skeleton: resolve each joint up its chain.
    std::function<void(std::size_t)> place = [&](std::size_t j) {
        if (done[j]) {
            return;
        }
        done[j] = 1;
        const core::JointIndex parent = rig.parents[j];
        if (solidOf[j] >= 0) {
            world[j] = delta(solidOf[j]) * rig.bindModel[j];
        } else if (parent >= 0 && static_cast<std::size_t>(parent) < n) {
            place(static_cast<std::size_t>(parent));
            world[j] = world[static_cast<std::size_t>(parent)] * rig.bindLocal[j];
        } else {
            world[j] = (rootSolid >= 0 ? delta(rootSolid) : Eigen::Affine3f::Identity()) *
                       rig.bindModel[j];
        }
    };
    for (std::size_t j = 0; j < n; ++j) {
        place(j);
    }
    m_simPose = std::move(world);
    applyPose();
    // phys.ragdoll-unstable into the Problems dock, at the collision command.
    core::QcWhere at;
    if (const core::QcReport* qc = doc->qcProject()) {
        at = qc->project.collision.at;
    } else if (const LoadedFile* f = doc->primary()) {
        at.file = f->path.toStdString();
    }
    doc->setExtraDiagnostics(core::dropTestDiagnostics(*m_input, *m_drop, at));
    updateStatus();
    return true;
}

void PhysicsView::backToPose()
{
    m_simPose.clear();
    if (Document* doc = m_tabs->current(); doc && m_viewport->scene()) {
        m_viewport->scene()->setPose(doc->currentPose());
    }
    applyPose();
}

} // namespace rigscope::app
