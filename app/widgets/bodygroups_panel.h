#pragma once

#include <vector>

#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QComboBox;
class QFormLayout;
class QLabel;

namespace rigscope::app {

// Bodygroups dock (issue 17): for an open QC project, a choice per bodygroup (`blank`
// included), the skin and the $lod, which drive the viewport (Document::setQcView). The
// project's files are shown as a tree in the Files dock (FilesPanel). A compiled model (issue
// 29): a model per bodypart, the skin family and the .vtx LOD, through the same view.
class BodygroupsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BodygroupsPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

    const std::vector<QComboBox*>& choiceBoxes() const { return m_choices; }
    QComboBox* skinBox() const { return m_skin; }
    QComboBox* lodBox() const { return m_lod; } // null without a $lod (compiled: one LOD)

private:
    void rebuild();
    void rebuildCompiled(const core::CompiledModelInfo& info);
    void onChoiceChanged();

    Document* m_document = nullptr;
    QLabel* m_empty;
    QWidget* m_choicesBox;
    QFormLayout* m_form;
    std::vector<QComboBox*> m_choices;
    QComboBox* m_skin = nullptr;
    QComboBox* m_lod = nullptr;
    bool m_updating = false;
};

} // namespace rigscope::app
