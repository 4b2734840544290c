#pragma once

#include <QtWidgets/QWidget>

#include "app/document/document.h"
#include "render/viewport.h"

namespace rigscope::app {

// Embeds the Qt3D viewport (QWidget::createWindowContainer) and keeps it in sync with the
// Document: model swaps (camera kept on reload), pose per frame, selection both ways.
class ViewportWidget : public QWidget {
    Q_OBJECT
public:
    explicit ViewportWidget(const render::ViewportOptions& options = {}, QWidget* parent = nullptr);
    void setDocument(Document* document);
    render::Viewport* viewport() const { return m_view; }
    QWidget* container() const { return m_container; }
    // Image folders of the Settings' texture search path, searched after the model's own.
    void setTextureSearchPath(const QStringList& folders) { m_searchPath = folders; }
    // Looks the shown model's materials up again (the active profile or the roots changed) and
    // rebuilds the scene, keeping camera, pose and selection, when any would draw differently.
    void refreshMaterials();
    // The document's material sources (roots, $cdmaterials) plus the texture search path.
    render::MaterialSources materialSources() const;

private:
    void onLoaded(bool keepState);
    void updateEyes();
    void onFrameChanged();
    void onSelectionChanged(const Selection& s);
    void onPicked(const render::PickResult& r);

    Document* m_document = nullptr;
    render::Viewport* m_view;
    QWidget* m_container;
    QStringList m_searchPath;
    core::Vec3 m_dragBase = core::Vec3::Zero(); // the dragged bone's offset when the drag began
};

} // namespace rigscope::app
