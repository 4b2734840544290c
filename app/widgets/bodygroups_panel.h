#pragma once

#include <vector>

#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rigscope::app {

// Bodygroups dock (issue 17): for an open QC project, a choice per bodygroup (`blank`
// included) and the skin, which drive the viewport (Document::setQcView), above the project
// tree: the QC, its includes, bodygroups with their files, sequences and other files; missing
// files in red. Double-click: a file found opens beside the model (Document::attach for
// animations) or its QC line is shown in the status tip; `lineActivated` names the script line.
class BodygroupsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BodygroupsPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

    QTreeWidget* tree() const { return m_tree; }
    const std::vector<QComboBox*>& choiceBoxes() const { return m_choices; }
    QComboBox* skinBox() const { return m_skin; }

signals:
    // A tree row was activated: the script file and line that name it, and the file it
    // resolves to (empty when missing).
    void lineActivated(const QString& script, int line, const QString& resolved);

private:
    void rebuild();
    void onChoiceChanged();
    void onItemActivated(QTreeWidgetItem* item);

    Document* m_document = nullptr;
    QLabel* m_empty;
    QWidget* m_choicesBox;
    QFormLayout* m_form;
    std::vector<QComboBox*> m_choices;
    QComboBox* m_skin = nullptr;
    QTreeWidget* m_tree;
    bool m_updating = false;
};

} // namespace rigscope::app
