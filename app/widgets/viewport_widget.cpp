#include "app/widgets/viewport_widget.h"

#include "render/texture_loader.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtWidgets/QVBoxLayout>

#include "app/document/qc_document.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

ViewportWidget::ViewportWidget(const render::ViewportOptions& options, QWidget* parent)
    : QWidget(parent), m_view(new render::Viewport(options))
{
    m_container = QWidget::createWindowContainer(m_view, this);
    m_container->setFocusPolicy(Qt::StrongFocus);
    m_container->setMinimumSize(200, 150);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_container);
    connect(m_view, &render::Viewport::picked, this, &ViewportWidget::onPicked);
    // Dragging the eyes' target marker moves the document's target (the Flex dock's sliders
    // follow); Ctrl+dragging a joint moves the bone and swings its jiggle bones (issue 32).
    connect(m_view, &render::Viewport::eyeTargetDragged, this, [this](const QVector3D& p) {
        if (m_document) {
            core::QcEyeTarget t;
            t.set = true;
            t.point = core::Vec3(p.x(), p.y(), p.z());
            m_document->setEyeTarget(t);
        }
    });
    connect(m_view, &render::Viewport::boneDragStarted, this, [this](int joint) {
        if (!m_document) {
            return;
        }
        // Carry on from where an earlier drag of the same bone left it.
        const int moved = m_document->boneDragTarget(joint);
        m_dragBase = moved >= 0 && moved == m_document->boneDragJoint()
                         ? m_document->boneDragOffset()
                         : core::Vec3::Zero();
        m_document->setBoneDrag(joint, m_dragBase);
    });
    connect(m_view, &render::Viewport::boneDragged, this,
            [this](int joint, const QVector3D& delta) {
                if (m_document) {
                    m_document->setBoneDrag(joint, m_dragBase +
                                                       core::Vec3(delta.x(), delta.y(), delta.z()));
                }
            });
}

void ViewportWidget::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr);
    }
    m_document = document;
    connect(document, &Document::loaded, this, &ViewportWidget::onLoaded);
    connect(document, &Document::frameChanged, this, &ViewportWidget::onFrameChanged);
    connect(document, &Document::animationChanged, this, [this] {
        m_view->setAnimationBounds(m_document->animationBounds());
        onFrameChanged();
    });
    connect(document, &Document::selectionChanged, this, &ViewportWidget::onSelectionChanged);
    connect(document, &Document::eyeTargetChanged, this, &ViewportWidget::updateEyes);
    connect(document, &Document::flexChanged, this, [this] {
        if (auto* scene = m_view->scene()) {
            scene->setFlex(m_document->flexSetting());
            m_view->refresh();
        }
    });
}

render::MaterialSources ViewportWidget::materialSources() const
{
    render::MaterialSources s =
        m_document ? m_document->materialSources() : render::MaterialSources();
    s.folders += m_searchPath;
    s.folders.removeDuplicates();
    return s;
}

void ViewportWidget::onLoaded(bool keepState)
{
    // The profile the checks will use is known before they run: build the scene's weights for
    // it once (the window re-applies it when the checks finish, then a no-op).
    m_view->setWeightProfile(m_document->activeProfile());
    m_view->setAnimationBounds(m_document->animationBounds());
    m_view->setModel(m_document->primaryModel(), materialSources(), !keepState);
    if (auto* scene = m_view->scene()) {
        scene->setEvaluator(m_document->evaluator());
        scene->setFlex(m_document->flexSetting());
        scene->setMarkers(documentMarkers(*m_document, scene->model()));
    }
    updateEyes();
    onFrameChanged();
    onSelectionChanged(m_document->selection());
}

// A QC face's eyes (or a DMX's DmeEyeballs) where studiomdl places them, riding the posed head
// and looking at the document's target (issue 32).
void ViewportWidget::updateEyes()
{
    std::vector<render::EyeDrawing> eyes;
    static const std::vector<core::QcFlexRig::Eye> none;
    const std::vector<core::QcFlexRig::Eye>& all = m_document ? m_document->eyes() : none;
    const core::QcEyeTarget& target = m_document ? m_document->eyeTarget() : core::QcEyeTarget{};
    const std::vector<Eigen::Affine3f> noDeltas;
    const std::vector<Eigen::Affine3f>& deltas = m_document ? m_document->eyeDeltas() : noDeltas;
    QVector3D mid, ahead;
    float radius = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const core::QcEyeState s = core::eyeState(
            all[i], target, i < deltas.size() ? deltas[i] : Eigen::Affine3f::Identity());
        render::EyeDrawing d;
        d.centre = QVector3D(s.centre.x(), s.centre.y(), s.centre.z());
        d.forward = QVector3D(s.forward.x(), s.forward.y(), s.forward.z());
        d.up = QVector3D(s.up.x(), s.up.y(), s.up.z());
        d.radius = s.radius;
        d.irisRadius = s.irisRadius;
        eyes.push_back(d);
        mid += d.centre / float(all.size());
        ahead += d.forward;
        radius = std::max(radius, s.radius);
    }
    std::optional<QVector3D> point;
    std::optional<QVector3D> handle;
    if (target.set && !eyes.empty()) {
        point = QVector3D(target.point.x(), target.point.y(), target.point.z());
    } else if (!eyes.empty()) {
        // No target: the eyes look straight ahead; the marker waits ahead of them to be dragged.
        handle = mid + ahead.normalized() * std::max(30.0f * radius, 10.0f);
    }
    if (!eyes.empty() || m_view->eyeScene()) {
        m_view->setEyes(eyes, point, handle);
    }
}

void ViewportWidget::refreshMaterials()
{
    const render::ModelScene* scene = m_view->scene();
    if (scene && m_document && scene->sharedModel() == m_document->primaryModel() &&
        scene->looksDifferFrom(materialSources())) {
        onLoaded(true);
    }
}

void ViewportWidget::onFrameChanged()
{
    if (auto* scene = m_view->scene()) {
        scene->setPose(m_document->currentPose());
        updateEyes(); // they ride the posed head
        m_view->poseChanged();
        m_view->refresh();
    }
}

void ViewportWidget::onSelectionChanged(const Selection& s)
{
    using K = Selection::Kind;
    m_view->setSelectedJoint(s.kind == K::Joint ? s.index : -1);
    // A selected triangle shows alone, outlined: tinting its whole material in the same orange
    // hid the outline of a framed problem triangle (issue 15).
    m_view->setSelectedMaterial(s.kind == K::Material ? s.index : -1);
    m_view->setSelectedTriangle(s.kind == K::Triangle ? s.index : -1,
                                s.kind == K::Triangle ? s.corner : -1);
    m_view->refresh();
}

void ViewportWidget::onPicked(const render::PickResult& r)
{
    if (!m_document) {
        return;
    }
    if (r.joint >= 0) {
        m_document->setSelection({Selection::Kind::Joint, r.joint, -1});
    } else if (r.triangle >= 0) {
        m_document->setSelection({Selection::Kind::Triangle, r.triangle, r.corner});
    } else {
        m_document->setSelection({});
    }
}

} // namespace rigscope::app
