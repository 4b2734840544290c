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

// A QC face's eyes where studiomdl places them, looking at the document's target (issue 32).
void ViewportWidget::updateEyes()
{
    std::vector<render::EyeDrawing> eyes;
    const core::QcFlexRig* face = m_document ? m_document->qcFace() : nullptr;
    const core::QcEyeTarget& target = m_document ? m_document->eyeTarget() : core::QcEyeTarget{};
    for (std::size_t i = 0; face && i < face->eyes.size(); ++i) {
        const core::QcEyeState s = core::eyeState(face->eyes[i], target);
        render::EyeDrawing d;
        d.centre = QVector3D(s.centre.x(), s.centre.y(), s.centre.z());
        d.forward = QVector3D(s.forward.x(), s.forward.y(), s.forward.z());
        d.up = QVector3D(s.up.x(), s.up.y(), s.up.z());
        d.radius = s.radius;
        d.irisRadius = s.irisRadius;
        eyes.push_back(d);
    }
    std::optional<QVector3D> point;
    if (target.set && !eyes.empty()) {
        point = QVector3D(target.point.x(), target.point.y(), target.point.z());
    }
    if (!eyes.empty() || m_view->eyeScene()) {
        m_view->setEyes(eyes, point);
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
