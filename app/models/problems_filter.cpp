#include "app/models/problems_filter.h"

#include "app/models/problems_model.h"

namespace rigscope::app {

ProblemsFilter::ProblemsFilter(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(ProblemsModel::SortRole);
}

void ProblemsFilter::setSeverityVisible(core::Severity s, bool visible)
{
    if (m_severities[std::size_t(s)] == visible) {
        return;
    }
    m_severities[std::size_t(s)] = visible;
    invalidateFilter();
}

void ProblemsFilter::setFamily(const QString& family)
{
    if (family == m_family) {
        return;
    }
    m_family = family;
    invalidateFilter();
}

void ProblemsFilter::setText(const QString& text)
{
    const QString t = text.trimmed();
    if (t == m_text) {
        return;
    }
    m_text = t;
    invalidateFilter();
}

bool ProblemsFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* m = sourceModel();
    const QModelIndex first = m->index(sourceRow, 0, sourceParent);
    const int severity = first.data(ProblemsModel::SeverityRole).toInt();
    if (severity < 0 || severity > 2 || !m_severities[std::size_t(severity)]) {
        return false;
    }
    if (!m_family.isEmpty() && first.data(ProblemsModel::FamilyRole).toString() != m_family) {
        return false;
    }
    if (m_text.isEmpty()) {
        return true;
    }
    for (int c = ProblemsModel::IdColumn; c < ProblemsModel::ColumnCount; ++c) {
        if (m->index(sourceRow, c, sourceParent)
                .data()
                .toString()
                .contains(m_text, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

} // namespace rigscope::app
