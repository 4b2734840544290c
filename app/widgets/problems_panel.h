#pragma once

#include <array>
#include <vector>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>
#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QWidget>

#include "app/document/document.h"

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

// The diagnostics of every file of a Document (CHECKS.md §1), one row each: severity, id,
// message, file:line. Reset whenever the Document's diagnostics change (load, reload, profile)
// and when its checks start (a load clears the old files' rows at once).
class ProblemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, IdColumn, MessageColumn, LocationColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // severity rank, id, message, (file, line, column)
        SeverityRole,                // int(core::Severity)
        FamilyRole,                  // "weights" for weights.too-many-links
        FileRole,                    // index into Document::files()
        DiagnosticRole,              // index into LoadedFile::diagnostics
    };
    struct Row {
        int file = -1;
        int index = -1;
    };

    explicit ProblemsModel(QObject* parent = nullptr);
    void setDocument(Document* document);
    void refresh();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    Row rowAt(int row) const;
    const core::Diagnostic* diagnosticAt(int row) const;
    int count(core::Severity s) const { return m_counts[std::size_t(s)]; }
    // "file.smd:19:1" (binary: "file.smdx:@0x1A2B"), with the file's base name.
    QString location(int row) const;
    // The file the diagnostic at `row` is in: its own (a QC project's rows name the script or
    // component file), else the document file it is filed under.
    QString path(int row) const;

private:
    Document* m_document = nullptr;
    std::vector<Row> m_rows;
    std::array<int, 3> m_counts{};
};

// Severity toggles, one family ("weights"; empty = all) and a case-insensitive text filter over
// id, message and location.
class ProblemsFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ProblemsFilter(QObject* parent = nullptr);
    void setSeverityVisible(core::Severity s, bool visible);
    bool isSeverityVisible(core::Severity s) const { return m_severities[std::size_t(s)]; }
    void setFamily(const QString& family);
    QString family() const { return m_family; }
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::array<bool, 3> m_severities{true, true, true};
    QString m_family;
    QString m_text;
};

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
