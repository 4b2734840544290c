#include "app/widgets/outline_panel.h"

#include <algorithm>

#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QVBoxLayout>

#include "app/models/outline_model.h"

namespace rigscope::app {

OutlinePanel::OutlinePanel(QWidget* parent)
    : QWidget(parent), m_model(new OutlineModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTreeView(this)), m_search(new QLineEdit(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(OutlineModel::NameColumn);
    m_search->setPlaceholderText(tr("Search bones, materials, animations… (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(OutlineModel::NameColumn, QHeaderView::Interactive);
    m_view->setColumnWidth(OutlineModel::NameColumn, 170);
    m_view->setColumnWidth(OutlineModel::IdColumn, 34);
    m_view->setTextElideMode(Qt::ElideMiddle); // "ValveBiped…Finger12" keeps both ends
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(m_search);
    layout->addWidget(m_view);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        if (!text.isEmpty()) {
            m_view->expandAll();
        }
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &OutlinePanel::onCurrentChanged);
    connect(m_view, &QTreeView::activated, this, &OutlinePanel::onActivated);
}

void OutlinePanel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr); // tabs bind another document
    }
    m_document = document;
    m_model->setDocument(document);
    connect(document, &Document::selectionChanged, this, &OutlinePanel::onDocumentSelection);
    connect(document, &Document::loaded, this, &OutlinePanel::onLoaded);
}

void OutlinePanel::onLoaded()
{
    m_view->expand(m_proxy->mapFromSource(m_model->sectionIndex(OutlineModel::Nodes)));
    // Expand the first levels of the hierarchy so the tree is useful at a glance.
    const QModelIndex nodes = m_proxy->mapFromSource(m_model->sectionIndex(OutlineModel::Nodes));
    for (int r = 0; r < m_proxy->rowCount(nodes); ++r) {
        m_view->expand(m_proxy->index(r, 0, nodes));
    }
    m_view->expand(m_proxy->mapFromSource(m_model->sectionIndex(OutlineModel::Materials)));
    m_view->expand(m_proxy->mapFromSource(m_model->sectionIndex(OutlineModel::Animations)));
    // Names as wide as they need (120-280 px), but not so wide that the counts ("76 bones,
    // 3 roots") are cut off in a narrow dock.
    m_view->resizeColumnToContents(OutlineModel::NameColumn);
    QFont bold = m_view->font();
    bold.setBold(true); // section headers are bold
    const QFontMetrics fm(bold);
    int counts = 0;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QString text = m_proxy->index(r, OutlineModel::CountColumn).data().toString();
        counts = std::max(counts, fm.horizontalAdvance(text) + 16);
    }
    const int room =
        m_view->viewport()->width() - m_view->columnWidth(OutlineModel::IdColumn) - counts;
    m_view->setColumnWidth(
        OutlineModel::NameColumn,
        std::clamp(std::min(m_view->columnWidth(OutlineModel::NameColumn), room), 120, 280));
    fitIndentation();
    onDocumentSelection(m_document->selection());
}

void OutlinePanel::fitIndentation()
{
    // Deep hierarchies (100-bone rigs nest 20+ levels under Nodes) indent less, so the deepest
    // name keeps at least kNameRoom pixels of its column; the tooltip has the full path.
    constexpr int kNameRoom = 90;
    int depth = 0;
    if (auto m = m_document ? m_document->primaryModel() : nullptr) {
        std::vector<int> d(m->skeleton.size(), 0);
        for (std::size_t j = 0; j < d.size(); ++j) {
            const core::JointIndex p = m->skeleton.parents[j];
            d[j] = p >= 0 && std::size_t(p) < j ? d[std::size_t(p)] + 1 : 0;
            depth = std::max(depth, d[j]);
        }
    }
    const int levels = depth + 2; // the Nodes section and the root level
    const int column = m_view->columnWidth(OutlineModel::NameColumn);
    const int indent = std::clamp((column - kNameRoom) / std::max(levels, 1), 4, 18);
    m_view->setIndentation(indent);
    // Deeper than that: the name column widens (the tree scrolls sideways) rather than cut.
    m_view->setColumnWidth(OutlineModel::NameColumn, std::max(column, levels * indent + kNameRoom));
}

void OutlinePanel::onCurrentChanged(const QModelIndex& current)
{
    if (m_syncing || !m_document) {
        return;
    }
    const QModelIndex src = m_proxy->mapToSource(current);
    const Selection s = m_model->selectionFor(src);
    m_syncing = true;
    if (s.kind == Selection::Kind::Animation) {
        m_document->setCurrentAnimation(s.index);
    } else if (s.kind == Selection::Kind::Frame) {
        m_document->setCurrentAnimation(s.index);
        m_document->setCurrentFrame(s.corner);
    }
    m_document->setSelection(s);
    m_syncing = false;
}

void OutlinePanel::onActivated(const QModelIndex& index)
{
    onCurrentChanged(index);
}

void OutlinePanel::onDocumentSelection(const Selection& s)
{
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    const QModelIndex src = m_model->indexFor(s);
    const QModelIndex idx = m_proxy->mapFromSource(src);
    if (idx.isValid()) {
        m_view->setCurrentIndex(idx);
        m_view->scrollTo(idx);
    } else {
        m_view->selectionModel()->clearSelection();
    }
    m_syncing = false;
}

} // namespace rigscope::app
