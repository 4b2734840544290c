#pragma once

#include <array>

#include <QtCore/QSortFilterProxyModel>

#include "core/diag/diagnostic.h"

namespace rigscope::app {

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

} // namespace rigscope::app
