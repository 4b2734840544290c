#pragma once

#include <array>
#include <vector>

#include <QtCore/QHash>
#include <QtWidgets/QWidget>

#include "app/document/document.h"
#include "app/models/problems_filter.h"
#include "app/models/problems_model.h"

class QComboBox;
class QDialog;
class QLabel;
class QMenu;
class QTextBrowser;
class QLineEdit;
class QToolButton;
class QTreeView;

namespace rigscope::app {

// "1 error", "3 warnings", "0 notes".
QString severityCountText(int n, core::Severity s);

// Problems dock (UX.md): counts per severity in the header, severity toggles, family and text
// filters, a sortable table; activating a row (double-click, Enter, F8) selects the element in
// the Document and shows the offending source line under the table. While the Document's
// checks run the header says "Checking…" and the table is greyed.
class ProblemsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

    ProblemsModel* model() const { return m_model; }
    ProblemsFilter* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    QToolButton* severityButton(core::Severity s) const { return m_buttons[std::size_t(s)]; }
    QComboBox* familyBox() const { return m_family; }
    QLineEdit* searchBox() const { return m_search; }
    QLabel* countsLabel() const { return m_counts; }
    QLabel* sourceLabel() const { return m_source; }
    // "3 errors · 5 warnings · 2 notes" (of all problems, whatever the filters show).
    QString countsText() const;
    // Rows the table shows whole at its current height (at most the row count).
    int visibleRowCount() const;
    // Height of the table (header and frame included) that shows `rows` rows.
    int minimumRowsHeight(int rows) const;

    // Selects the element of the problem at `proxyIndex` (a row of proxy()), shows its source
    // line and emits problemActivated.
    void activate(const QModelIndex& proxyIndex);
    void next();     // F8: the row after the current one (wraps), activated
    void previous(); // Shift+F8

    // F1 on a row, or "Explain" in its context menu: the id's explanation (what it means, why
    // the compiler cares, limits, example, fix; core/ops/explain.h) in a non-modal dialog.
    void explain(const QModelIndex& proxyIndex);
    QDialog* explanationDialog() const { return m_explanation; }
    QTextBrowser* explanationView() const { return m_explanationText; }
    // The context menu of a row (Explain, Copy); the caller owns it.
    QMenu* contextMenu(const QModelIndex& proxyIndex);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    // `selected`: the Document selection now shows the problem's element.
    void problemActivated(int file, int index, bool selected);

private:
    void refresh();
    void showSource(const QModelIndex& proxyIndex);
    void step(int delta);
    QString sourceLine(const QString& path, std::uint32_t line);

    Document* m_document = nullptr;
    ProblemsModel* m_model;
    ProblemsFilter* m_proxy;
    QTreeView* m_view;
    QLabel* m_counts;
    std::array<QToolButton*, 3> m_buttons{};
    QComboBox* m_family;
    QLineEdit* m_search;
    QLabel* m_source;
    QDialog* m_explanation = nullptr; // created on first use
    QTextBrowser* m_explanationText = nullptr;
    QHash<QString, QStringList> m_lines; // file path -> lines (read on demand)
    struct Filters {
        std::array<bool, 3> severities{true, true, true};
        int family = 0;
        QString text;
    };
    QHash<const Document*, Filters> m_filters; // of the documents not shown (tabs)
};

} // namespace rigscope::app
