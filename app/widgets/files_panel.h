#pragma once

#include <QtCore/QStringList>
#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rigscope::app {

// Files dock: the files of the current document, one row each (kind, failed ones in red).
// For a QC project (issue 17), the project as a tree: the QC → its includes, bodygroups → their
// files, sequences → their files, other files (LODs, collision, $animation); files the QC names
// but that are found nowhere in red. The current row's QC line is shown under the tree;
// double-click opens a found model file in a new tab (an animation or VTA with the project's
// first body file, so it plays on the mesh), and any other row shows its QC line.
class FilesPanel : public QWidget {
    Q_OBJECT
public:
    explicit FilesPanel(QWidget* parent = nullptr);
    void setDocument(Document* document);

    QTreeWidget* tree() const { return m_tree; }
    QLabel* sourceLabel() const { return m_source; }

    // What a double-click on `item` opens (empty: nothing, its QC line is shown instead).
    QStringList filesToOpen(const QTreeWidgetItem* item) const;

signals:
    void openRequested(const QStringList& paths);
    // A row without a file to open was activated: its script and line (for the status bar).
    void lineShown(const QString& text);

private:
    void rebuild();
    void buildProject();
    void showLine(const QTreeWidgetItem* item);
    void onActivated(QTreeWidgetItem* item);

    Document* m_document = nullptr;
    QTreeWidget* m_tree;
    QLabel* m_source;
    QString m_firstBody; // the project's first body file found (what animations play on)
};

// The script line `line` (1-based) of `path`, trimmed; empty when unreadable.
QString scriptLine(const QString& path, int line);

} // namespace rigscope::app
