#pragma once

#include <array>
#include <vector>

#include <QtCore/QAbstractTableModel>
#include <QtGui/QIcon>

#include "app/document/document.h"

namespace rigscope::app {

// The style's message-box icon for a severity (the table's first column, the panel's toggles).
QIcon severityIcon(core::Severity s);

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

} // namespace rigscope::app
