#include "app/widgets/problems_panel.h"

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtGui/QClipboard>
#include <QtGui/QKeyEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QStyle>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "app/widgets/source_line.h"
#include "core/checks/registry.h"
#include "core/diag/diagnostic_ids.h"
#include "core/ops/explain.h"

namespace rigscope::app {

namespace {

constexpr std::array kSeverities{core::Severity::Error, core::Severity::Warning,
                                 core::Severity::Note};

} // namespace

QString severityCountText(int n, core::Severity s)
{
    switch (s) {
    case core::Severity::Error:
        return n == 1 ? QObject::tr("1 error") : QObject::tr("%1 errors").arg(n);
    case core::Severity::Warning:
        return n == 1 ? QObject::tr("1 warning") : QObject::tr("%1 warnings").arg(n);
    case core::Severity::Note:
        break;
    }
    return n == 1 ? QObject::tr("1 note") : QObject::tr("%1 notes").arg(n);
}

// ---------------------------------------------------------------------------------------------
// ProblemsPanel

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QWidget(parent), m_model(new ProblemsModel(this)), m_proxy(new ProblemsFilter(this)),
      m_view(new QTreeView(this)), m_counts(new QLabel(this)), m_family(new QComboBox(this)),
      m_search(new QLineEdit(this)), m_source(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProblemsModel::SeverityColumn, Qt::AscendingOrder); // errors first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setColumnWidth(ProblemsModel::SeverityColumn, 90);
    m_view->setColumnWidth(ProblemsModel::IdColumn, 210);
    m_view->setColumnWidth(ProblemsModel::MessageColumn, 520);
    m_view->header()->setStretchLastSection(true);
    // At least 8 rows stay visible however the dock is laid out (issue 15).
    m_view->setMinimumHeight(minimumRowsHeight(8));

    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 2);
    header->setSpacing(4);
    QFont bold = m_counts->font();
    bold.setBold(true);
    m_counts->setFont(bold);
    m_counts->setObjectName(QStringLiteral("problemCounts"));
    // Room for the longest counts, so "· 1 note" is never cut by the buttons beside it.
    m_counts->setMinimumWidth(m_counts->fontMetrics().horizontalAdvance(
        QStringLiteral("0,000 errors · 0,000 warnings · 0,000 notes")));
    header->addWidget(m_counts);
    header->addStretch(1);
    const QString names[3] = {tr("Notes"), tr("Warnings"), tr("Errors")};
    for (core::Severity s : kSeverities) {
        auto* b = new QToolButton(this);
        b->setCheckable(true);
        b->setChecked(true);
        b->setIcon(severityIcon(s));
        b->setText(names[std::size_t(s)]);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setAutoRaise(true);
        b->setToolTip(tr("Show %1").arg(names[std::size_t(s)].toLower()));
        connect(b, &QToolButton::toggled, this,
                [this, s](bool on) { m_proxy->setSeverityVisible(s, on); });
        m_buttons[std::size_t(s)] = b;
        header->addWidget(b);
    }
    m_family->addItem(tr("All families"), QString());
    // Every family of the catalog, in catalog order (new families appear by themselves).
    QStringList families;
    for (const core::CatalogEntry& e : core::diagnosticCatalog()) {
        const QString f = toQString(core::checkFamily(e.id));
        if (!families.contains(f)) {
            families << f;
            m_family->addItem(f, f);
        }
    }
    m_family->setToolTip(tr("Show one check family (the part of the id before the dot)"));
    connect(m_family, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_proxy->setFamily(m_family->itemData(i).toString()); });
    header->addWidget(m_family);
    m_search->setPlaceholderText(tr("Filter problems…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);
    connect(m_search, &QLineEdit::textChanged, m_proxy, &ProblemsFilter::setText);
    header->addWidget(m_search);

    styleSourceLine(m_source, QStringLiteral("problemSource"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_source);

    connect(m_view, &QAbstractItemView::activated, this, &ProblemsPanel::activate);
    // F1 explains the current row (the window's F1 cheat-sheet yields while the table has
    // focus), and so does the context menu.
    m_view->installEventFilter(this);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_view->indexAt(pos);
        if (!index.isValid()) {
            return;
        }
        QMenu* menu = contextMenu(index);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showSource(current); });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProblemsPanel::refresh);
    refresh();
}

int ProblemsPanel::minimumRowsHeight(int rows) const
{
    const int row = std::max(m_view->fontMetrics().height() + 4,
                             m_view->style()->pixelMetric(QStyle::PM_SmallIconSize) + 4);
    return m_view->header()->sizeHint().height() + rows * row + 2 * m_view->frameWidth() + 2;
}

int ProblemsPanel::visibleRowCount() const
{
    const int n = m_proxy->rowCount();
    if (n == 0) {
        return 0;
    }
    const int row = std::max(m_view->sizeHintForRow(0), 1);
    return std::min(n, m_view->viewport()->height() / row);
}

void ProblemsPanel::setDocument(Document* document)
{
    // Each tab keeps its own filters (issue 27): severities, family and text.
    if (m_document && m_document != document) {
        Filters& f = m_filters[m_document];
        for (core::Severity s : kSeverities) {
            f.severities[std::size_t(s)] = m_buttons[std::size_t(s)]->isChecked();
        }
        f.family = m_family->currentIndex();
        f.text = m_search->text();
    }
    if (document && document != m_document && !m_filters.contains(document)) {
        connect(document, &QObject::destroyed, this,
                [this, document] { m_filters.remove(document); });
    }
    if (document != m_document) {
        const Filters f = m_filters.value(document);
        for (core::Severity s : kSeverities) {
            m_buttons[std::size_t(s)]->setChecked(f.severities[std::size_t(s)]);
        }
        m_family->setCurrentIndex(f.family);
        m_search->setText(f.text);
    }
    m_document = document;
    m_model->setDocument(document);
}

QString ProblemsPanel::countsText() const
{
    const int total = m_model->rowCount();
    if (total == 0) {
        return m_document && m_document->problemFileCount() > 0 ? tr("No problems") : QString();
    }
    QStringList parts;
    for (core::Severity s : kSeverities) {
        parts << severityCountText(m_model->count(s), s);
    }
    return parts.join(QStringLiteral(" · "));
}

void ProblemsPanel::refresh()
{
    m_lines.clear();
    const bool checking = m_document && m_document->isChecking();
    if (checking) {
        // Rows still shown are the previous profile's (a profile change): greyed until the new
        // ones arrive.
        m_counts->setText(tr("Checking (profile %1)…")
                              .arg(toQString(core::profileName(m_document->requestedProfile()))));
    } else {
        m_counts->setText(countsText());
    }
    m_view->setEnabled(!checking);
    m_source->clear();
}

QString ProblemsPanel::sourceLine(const QString& path, std::uint32_t line)
{
    if (path.isEmpty() || line == 0) {
        return {};
    }
    auto it = m_lines.find(path);
    if (it == m_lines.end()) {
        QStringList lines;
        QFile f(path);
        if (f.open(QIODevice::ReadOnly) && f.size() < (qint64(256) << 20)) {
            for (const QByteArray& l : f.readAll().split('\n')) {
                lines << QString::fromUtf8(l).remove(QLatin1Char('\r'));
            }
        }
        it = m_lines.insert(path, lines);
    }
    return line <= std::uint32_t(it->size()) ? it->at(qsizetype(line) - 1) : QString();
}

void ProblemsPanel::showSource(const QModelIndex& proxyIndex)
{
    const int row = m_proxy->mapToSource(proxyIndex).row();
    const core::Diagnostic* d = m_model->diagnosticAt(row);
    if (!d) {
        m_source->clear();
        return;
    }
    QString text = m_model->location(row);
    if (!d->binary) {
        QString line = sourceLine(m_model->path(row), d->where.line);
        line.replace(QLatin1Char('\t'), QLatin1Char(' '));
        if (line.size() > 400) {
            line = line.left(400) + QStringLiteral("…");
        }
        text += QStringLiteral("  │ ") + line;
    }
    m_source->setText(text);
    m_source->setToolTip(toQString(d->message));
}

void ProblemsPanel::activate(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid() || !m_document) {
        return;
    }
    const QModelIndex current = m_proxy->index(proxyIndex.row(), 0);
    if (m_view->currentIndex().row() != proxyIndex.row()) {
        m_view->setCurrentIndex(current);
    }
    m_view->scrollTo(current);
    showSource(current);
    const ProblemsModel::Row r = m_model->rowAt(m_proxy->mapToSource(current).row());
    const bool selected = m_document->selectDiagnostic(r.file, r.index);
    emit problemActivated(r.file, r.index, selected);
}

void ProblemsPanel::step(int delta)
{
    const int n = m_proxy->rowCount();
    if (n == 0) {
        return;
    }
    const QModelIndex cur = m_view->currentIndex();
    int row = cur.isValid() ? cur.row() + delta : (delta > 0 ? 0 : n - 1);
    row = (row % n + n) % n;
    activate(m_proxy->index(row, 0));
}

void ProblemsPanel::next()
{
    step(1);
}

void ProblemsPanel::previous()
{
    step(-1);
}

bool ProblemsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view &&
        (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_F1 && key->modifiers() == Qt::NoModifier &&
            m_view->currentIndex().isValid()) {
            event->accept();
            if (event->type() == QEvent::KeyPress) {
                explain(m_view->currentIndex());
            }
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QMenu* ProblemsPanel::contextMenu(const QModelIndex& proxyIndex)
{
    auto* menu = new QMenu(this);
    const int row = m_proxy->mapToSource(proxyIndex).row();
    const core::Diagnostic* d = m_model->diagnosticAt(row);
    if (!d) {
        return menu;
    }
    const QPersistentModelIndex index(proxyIndex);
    QAction* explainAction = menu->addAction(tr("Explain %1").arg(toQString(d->id)));
    explainAction->setObjectName(QStringLiteral("explainProblem"));
    explainAction->setShortcut(QKeySequence(Qt::Key_F1));
    connect(explainAction, &QAction::triggered, this, [this, index] { explain(index); });
    QAction* show = menu->addAction(tr("Show in Viewport"));
    connect(show, &QAction::triggered, this, [this, index] { activate(index); });
    const QString line = toQString(core::formatDiagnostic(*d));
    QAction* copy = menu->addAction(tr("Copy"));
    connect(copy, &QAction::triggered, this, [line] { QApplication::clipboard()->setText(line); });
    return menu;
}

void ProblemsPanel::explain(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid()) {
        return;
    }
    const core::Diagnostic* d = m_model->diagnosticAt(m_proxy->mapToSource(proxyIndex).row());
    if (!d) {
        return;
    }
    if (!m_explanation) {
        m_explanation = new QDialog(this);
        m_explanation->setObjectName(QStringLiteral("problemExplanation"));
        m_explanation->resize(640, 560);
        m_explanationText = new QTextBrowser(m_explanation);
        m_explanationText->setObjectName(QStringLiteral("problemExplanationText"));
        m_explanationText->setOpenExternalLinks(true);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_explanation);
        connect(buttons, &QDialogButtonBox::rejected, m_explanation, &QDialog::close);
        auto* layout = new QVBoxLayout(m_explanation);
        layout->addWidget(m_explanationText, 1);
        layout->addWidget(buttons);
    }
    // The same text as `rigscope-cli check --explain ID` and docs/checks.md, with this
    // problem's own message on top.
    const std::string id(d->id);
    QString md = QStringLiteral("## %1\n\n").arg(toQString(id));
    md += QStringLiteral("> %1\n\n").arg(toQString(core::formatDiagnostic(*d)).toHtmlEscaped());
    md += toQString(core::explainMarkdown(id));
    md += QStringLiteral("\n[%1](%1)\n").arg(toQString(core::checkHelpUri(id)));
    m_explanationText->setMarkdown(md);
    m_explanation->setWindowTitle(tr("%1 - RigScope").arg(toQString(id)));
    m_explanation->show();
    m_explanation->raise();
}

} // namespace rigscope::app
