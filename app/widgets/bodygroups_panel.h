#pragma once

#include <vector>

#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QComboBox;
class QFormLayout;
class QLabel;

namespace rigscope::app {

// Bodygroups dock (issue 17): for an open QC project, a choice per bodygroup (`blank`
// included) and the skin, which drive the viewport (Document::setQcView). The project's files
// are shown as a tree in the Files dock (FilesPanel).
class BodygroupsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BodygroupsPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

    const std::vector<QComboBox*>& choiceBoxes() const { return m_choices; }
    QComboBox* skinBox() const { return m_skin; }

private:
    void rebuild();
    void onChoiceChanged();

    Document* m_document = nullptr;
    QLabel* m_empty;
    QWidget* m_choicesBox;
    QFormLayout* m_form;
    std::vector<QComboBox*> m_choices;
    QComboBox* m_skin = nullptr;
    bool m_updating = false;
};

} // namespace rigscope::app
