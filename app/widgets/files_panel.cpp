#include "app/widgets/files_panel.h"

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtGui/QBrush>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "app/widgets/source_line.h"
#include "core/model/model.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

namespace {

using Kind = core::QcFileRef::Kind;

enum Role { ScriptRole = Qt::UserRole + 1, LineRole, ResolvedRole, KindRole };

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& text, const core::QcWhere& at)
{
    auto* item = new QTreeWidgetItem(parent);
    item->setText(0, text);
    item->setText(
        1,
        QStringLiteral("%1:%2").arg(QFileInfo(toQString(at.file)).fileName()).arg(at.where.line));
    item->setData(0, ScriptRole, toQString(at.file));
    item->setData(0, LineRole, int(at.where.line));
    item->setData(0, KindRole, -1);
    return item;
}

QTreeWidgetItem* addFileRow(QTreeWidgetItem* parent, const core::QcFileRef& f)
{
    QTreeWidgetItem* item = addRow(parent, toQString(f.path), f.at);
    const QString resolved = toQString(f.resolved);
    item->setData(0, ResolvedRole, resolved);
    item->setData(0, KindRole, int(f.kind));
    if (resolved.isEmpty()) {
        item->setForeground(0, QBrush(Qt::red));
        item->setToolTip(0, FilesPanel::tr("Not found (named by %1 at %2)")
                                .arg(toQString(f.command), item->text(1)));
    } else {
        item->setToolTip(0,
                         f.caseMismatch
                             ? FilesPanel::tr("%1 (found only with a different case)").arg(resolved)
                             : resolved);
    }
    return item;
}

QTreeWidgetItem* addGroup(QTreeWidgetItem* parent, const QString& text)
{
    auto* item = new QTreeWidgetItem(parent, {text});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    return item;
}

bool isMissing(const QTreeWidgetItem* item)
{
    return item->data(0, KindRole).toInt() >= 0 && item->data(0, ResolvedRole).toString().isEmpty();
}

// A parent row (bodygroup, sequence) goes red when one of its files is missing.
void markMissingParent(QTreeWidgetItem* item)
{
    for (int i = 0; i < item->childCount(); ++i) {
        if (isMissing(item->child(i))) {
            item->setForeground(0, QBrush(Qt::red));
            return;
        }
    }
}

} // namespace

QString scriptLine(const QString& path, int line)
{
    QFile f(path);
    if (line < 1 || !f.open(QIODevice::ReadOnly) || f.size() > (qint64(64) << 20)) {
        return {};
    }
    const QList<QByteArray> lines = f.readAll().split('\n');
    return line <= lines.size() ? QString::fromUtf8(lines[line - 1]).trimmed() : QString();
}

FilesPanel::FilesPanel(QWidget* parent)
    : QWidget(parent), m_tree(new QTreeWidget(this)), m_source(new QLabel(this))
{
    setObjectName(QStringLiteral("filesPanel"));
    m_tree->setObjectName(QStringLiteral("filesTree"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("File"), tr("Line")});
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setUniformRowHeights(true);
    styleSourceLine(m_source, QStringLiteral("filesSource"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_source);
    connect(m_tree, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item, int) { onActivated(item); });
    connect(m_tree, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* current) { showLine(current); });
    rebuild();
}

void FilesPanel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr); // tabs bind another document
    }
    m_document = document;
    connect(document, &Document::loaded, this, [this](bool) { rebuild(); });
    connect(document, &Document::loadFailed, this, [this](const QString&) { rebuild(); });
    rebuild();
}

void FilesPanel::rebuild()
{
    m_tree->clear();
    m_source->clear();
    m_firstBody.clear();
    if (!m_document) {
        return;
    }
    if (m_document->qcProject()) {
        buildProject();
        return;
    }
    m_tree->setHeaderLabels({tr("File"), tr("Kind")});
    for (const LoadedFile& f : m_document->files()) {
        auto* item = new QTreeWidgetItem(m_tree);
        item->setText(0, QFileInfo(f.path).fileName());
        item->setText(1, f.model ? toQString(core::kindName(f.model->kind)) : tr("failed"));
        item->setToolTip(0, f.path);
    }
    for (const LoadedFile& f : m_document->failedFiles()) {
        auto* item = new QTreeWidgetItem(m_tree);
        item->setText(0, QFileInfo(f.path).fileName());
        item->setText(1, tr("failed"));
        item->setForeground(0, QBrush(Qt::red));
        item->setToolTip(0, f.path);
    }
}

void FilesPanel::buildProject()
{
    const core::QcReport& qc = *m_document->qcProject();
    const core::QcProject& p = qc.project;
    m_tree->setHeaderLabels({tr("Project"), tr("Line")});
    auto* root = new QTreeWidgetItem(m_tree);
    root->setText(0, QFileInfo(toQString(qc.file)).fileName());
    root->setToolTip(0, toQString(qc.file));
    root->setData(0, ScriptRole, toQString(qc.file));
    root->setData(0, LineRole, 1);
    root->setData(0, KindRole, -1);
    auto fileRow = [&](QTreeWidgetItem* parent, std::int32_t ref) {
        if (ref >= 0 && std::size_t(ref) < p.files.size()) {
            addFileRow(parent, p.files[std::size_t(ref)]);
        }
    };
    for (const core::QcFileRef& f : p.files) {
        if (f.kind == Kind::Model && !f.resolved.empty()) {
            m_firstBody = toQString(f.resolved);
            break;
        }
    }
    if (!p.includes.empty()) {
        QTreeWidgetItem* inc = addGroup(root, tr("includes (%1)").arg(p.includes.size()));
        for (const core::QcFileRef& f : p.files) {
            if (f.kind == Kind::Include) {
                addFileRow(inc, f);
            }
        }
        markMissingParent(inc);
        inc->setExpanded(true);
    }
    QTreeWidgetItem* groups = addGroup(root, tr("bodygroups (%1)").arg(p.bodygroups.size()));
    for (const core::QcBodygroup& grp : p.bodygroups) {
        QTreeWidgetItem* g = addRow(groups, toQString(grp.name), grp.at);
        for (const core::QcBodyChoice& c : grp.choices) {
            if (c.blank) {
                addRow(g, tr("blank"), c.at);
            } else {
                fileRow(g, c.fileRef);
            }
        }
        for (std::int32_t flex : grp.flexFiles) {
            fileRow(g, flex);
        }
        markMissingParent(g);
        g->setExpanded(true);
    }
    groups->setExpanded(true);
    QTreeWidgetItem* seqs = addGroup(root, tr("sequences (%1)").arg(p.sequences.size()));
    for (const core::QcSequence& s : p.sequences) {
        QTreeWidgetItem* item = addRow(seqs, toQString(s.name), s.at);
        for (std::int32_t ref : s.fileRefs) {
            fileRow(item, ref);
        }
        markMissingParent(item);
    }
    markMissingParent(seqs);
    QTreeWidgetItem* other = addGroup(root, tr("other files"));
    for (std::size_t i = 0; i < p.files.size(); ++i) {
        const Kind k = p.files[i].kind;
        if (k == Kind::Lod || k == Kind::Collision || k == Kind::Other ||
            (k == Kind::Animation && p.files[i].command == "animation")) {
            fileRow(other, std::int32_t(i));
        }
    }
    if (other->childCount() == 0) {
        delete other;
    } else {
        markMissingParent(other);
    }
    root->setExpanded(true);
}

QStringList FilesPanel::filesToOpen(const QTreeWidgetItem* item) const
{
    const int kind = item ? item->data(0, KindRole).toInt() : -1;
    const QString resolved = item ? item->data(0, ResolvedRole).toString() : QString();
    if (kind < 0 || resolved.isEmpty()) {
        return {};
    }
    switch (Kind(kind)) {
    case Kind::Model:
    case Kind::Lod:
    case Kind::Collision:
        return {resolved};
    case Kind::Animation:
    case Kind::Flex:
        // Played on the project's first body (animations alone show only a skeleton).
        if (!m_firstBody.isEmpty() && m_firstBody != resolved) {
            return {m_firstBody, resolved};
        }
        return {resolved};
    case Kind::Include:
    case Kind::Other:
        break;
    }
    return {};
}

void FilesPanel::showLine(const QTreeWidgetItem* item)
{
    const QString script = item ? item->data(0, ScriptRole).toString() : QString();
    if (script.isEmpty()) {
        m_source->setText(item ? item->toolTip(0) : QString());
        return;
    }
    const int line = item->data(0, LineRole).toInt();
    QString text = QStringLiteral("%1:%2  │ %3")
                       .arg(QFileInfo(script).fileName())
                       .arg(line)
                       .arg(scriptLine(script, line));
    if (isMissing(item)) {
        text += tr("  (not found)");
    }
    m_source->setText(text);
    m_source->setToolTip(script);
}

void FilesPanel::onActivated(QTreeWidgetItem* item)
{
    if (!item) {
        return;
    }
    const QStringList open = filesToOpen(item);
    if (!open.isEmpty()) {
        emit openRequested(open);
        return;
    }
    showLine(item);
    if (!item->data(0, ScriptRole).toString().isEmpty()) {
        emit lineShown(m_source->text());
    }
}

} // namespace rigscope::app
