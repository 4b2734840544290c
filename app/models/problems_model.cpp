#include "app/models/problems_model.h"

#include <QtCore/QFileInfo>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>

#include "app/qt_convert.h"
#include "core/checks/registry.h"
#include "core/ops/explain.h"

namespace rigscope::app {

namespace {

QString familyOf(std::string_view id)
{
    const auto dot = id.find('.');
    return toQString(dot == std::string_view::npos ? id : id.substr(0, dot));
}

// File, then line and column (binary: offset), as one sortable number.
quint64 locationKey(int file, const core::Diagnostic& d)
{
    const quint64 pos =
        d.binary ? d.where.offset
                 : (quint64(d.where.line) << 20) | std::min<quint64>(d.where.column, 0xFFFFF);
    return (quint64(std::min(file, 0x3FF)) << 52) | (pos & ((1ull << 52) - 1));
}

} // namespace

QIcon severityIcon(core::Severity s)
{
    QStyle* style = QApplication::style();
    switch (s) {
    case core::Severity::Error:
        return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case core::Severity::Warning:
        return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case core::Severity::Note:
        break;
    }
    return style->standardIcon(QStyle::SP_MessageBoxInformation);
}

ProblemsModel::ProblemsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProblemsModel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr);
    }
    m_document = document;
    if (document) {
        connect(document, &Document::diagnosticsChanged, this, &ProblemsModel::refresh);
        // After a load the files' diagnostics are cleared until their checks come back.
        connect(document, &Document::checksStarted, this, &ProblemsModel::refresh);
    }
    refresh();
}

void ProblemsModel::refresh()
{
    beginResetModel();
    m_rows.clear();
    m_counts = {};
    if (m_document) {
        for (int f = 0; f < m_document->problemFileCount(); ++f) {
            const auto& diags = m_document->problemFile(f)->diagnostics;
            for (std::size_t i = 0; i < diags.size(); ++i) {
                m_rows.push_back({f, int(i)});
                // a `… and N more` row (a capped check sink) counts N
                m_counts[std::size_t(diags[i].severity)] += int(diags[i].count());
            }
        }
    }
    endResetModel();
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

ProblemsModel::Row ProblemsModel::rowAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? m_rows[std::size_t(row)] : Row{};
}

const core::Diagnostic* ProblemsModel::diagnosticAt(int row) const
{
    const Row r = rowAt(row);
    const LoadedFile* file = m_document ? m_document->problemFile(r.file) : nullptr;
    if (!file) {
        return nullptr;
    }
    const auto& diags = file->diagnostics;
    return std::size_t(r.index) < diags.size() ? &diags[std::size_t(r.index)] : nullptr;
}

QString ProblemsModel::path(int row) const
{
    const core::Diagnostic* d = diagnosticAt(row);
    if (!d) {
        return {};
    }
    return d->file.empty() ? m_document->problemFile(rowAt(row).file)->path : toQString(d->file);
}

QString ProblemsModel::location(int row) const
{
    const core::Diagnostic* d = diagnosticAt(row);
    if (!d) {
        return {};
    }
    const QString name = QFileInfo(path(row)).fileName();
    QString loc = toQString(core::formatLocation(toStd(name), d->where, d->binary));
    loc.chop(1); // the trailing ':'
    return loc;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    const core::Diagnostic* d = index.isValid() ? diagnosticAt(index.row()) : nullptr;
    if (!d) {
        return {};
    }
    const Row r = rowAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return toQString(core::severityName(d->severity));
        case IdColumn:
            return toQString(d->id);
        case MessageColumn:
            return toDisplayString(d->message);
        case LocationColumn:
            return location(index.row());
        default:
            return {};
        }
    case Qt::DecorationRole:
        return index.column() == SeverityColumn ? QVariant(severityIcon(d->severity)) : QVariant();
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << toDisplayString(core::formatDiagnostic(*d));
        const std::string_view fix = core::fixHint(d->id);
        if (!fix.empty()) {
            lines << tr("Fix: %1").arg(toQString(fix));
        }
        for (const core::RelatedNote& n : d->related) {
            lines << tr("%1 note: %2")
                         .arg(toQString(core::formatLocation(n.file, n.where, d->binary)),
                              toDisplayString(n.message));
        }
        lines << path(index.row());
        return lines.join(QLatin1Char('\n'));
    }
    case SortRole:
        switch (index.column()) {
        case SeverityColumn:
            // Errors first (ascending), then warnings, then notes; in file order within each.
            return QVariant::fromValue((quint64(2 - int(d->severity)) << 62) |
                                       (locationKey(r.file, *d) & ((1ull << 62) - 1)));
        case IdColumn:
            return toQString(d->id);
        case MessageColumn:
            return toQString(d->message);
        case LocationColumn:
            return QVariant::fromValue(locationKey(r.file, *d));
        default:
            return {};
        }
    case SeverityRole:
        return int(d->severity);
    case FamilyRole:
        return familyOf(d->id);
    case FileRole:
        return r.file;
    case DiagnosticRole:
        return r.index;
    default:
        return {};
    }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case IdColumn:
        return tr("Id");
    case MessageColumn:
        return tr("Message");
    case LocationColumn:
        return tr("Location");
    default:
        return {};
    }
}

} // namespace rigscope::app
