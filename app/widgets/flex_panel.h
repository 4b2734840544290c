#pragma once

#include <QtCore/QHash>
#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QLineEdit;
class QVBoxLayout;

namespace rigscope::app {

// Flex dock: one slider per VTA shape (0–1), value readout, Solo and Reset; a filter box and
// Reset all. Double-click on a slider resets it. Values live in the Document (kept by name on
// reload). A DMX's combination controls and a compiled model's flex controllers (over their
// range, through the model's flex rules) come first, above the shapes they drive; so do a QC
// face's controllers (right_X / left_X on one row) and its eyes' look-at target (issue 32).
class FlexPanel : public QWidget {
    Q_OBJECT
public:
    explicit FlexPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void addCompiledControllers(const core::CompiledModelInfo& info);
    void addEyeTarget(const core::QcFlexRig& face);
    void syncValues();
    void applyFilter();

    Document* m_document = nullptr;
    QLineEdit* m_filter;
    QWidget* m_rows;
    QVBoxLayout* m_rowsLayout;
    bool m_syncing = false;
    QHash<const Document*, QString> m_filters; // the filter of each tab's document
};

} // namespace rigscope::app
