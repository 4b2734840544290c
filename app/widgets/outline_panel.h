#pragma once

#include <QtWidgets/QWidget>

#include "app/document/document.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace rigscope::app {

class OutlineModel;

// Outline dock: search box (Ctrl+F filters all sections) over the Outline tree. Selecting a
// row selects in the Document; Document selection changes select the row.
class OutlinePanel : public QWidget {
    Q_OBJECT
public:
    explicit OutlinePanel(QWidget* parent = nullptr);
    void setDocument(Document* document);
    OutlineModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QLineEdit* searchBox() const { return m_search; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

private:
    void onCurrentChanged(const QModelIndex& current);
    void onDocumentSelection(const Selection& s);
    void onActivated(const QModelIndex& index);
    void onLoaded();
    void fitIndentation();

    Document* m_document = nullptr;
    OutlineModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_search;
    bool m_syncing = false;
};

} // namespace rigscope::app
