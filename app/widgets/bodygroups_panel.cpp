#include "app/widgets/bodygroups_panel.h"

#include <QtCore/QFileInfo>
#include <QtGui/QBrush>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

namespace {

enum Role { ScriptRole = Qt::UserRole + 1, LineRole, ResolvedRole };

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& text, const core::QcWhere& at,
                        const QString& resolved = {}, bool missing = false)
{
    auto* item = new QTreeWidgetItem(parent);
    item->setText(0, text);
    item->setText(
        1,
        QStringLiteral("%1:%2").arg(QFileInfo(toQString(at.file)).fileName()).arg(at.where.line));
    item->setData(0, ScriptRole, toQString(at.file));
    item->setData(0, LineRole, int(at.where.line));
    item->setData(0, ResolvedRole, resolved);
    if (missing) {
        item->setForeground(0, QBrush(Qt::red));
        item->setToolTip(0, QObject::tr("Not found"));
    } else if (!resolved.isEmpty()) {
        item->setToolTip(0, resolved);
    }
    return item;
}

} // namespace

BodygroupsPanel::BodygroupsPanel(QWidget* parent)
    : QWidget(parent),
      m_empty(new QLabel(tr("Open a .qc project to choose its bodygroups."), this)),
      m_choicesBox(new QWidget(this)), m_form(new QFormLayout(m_choicesBox)),
      m_tree(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("bodygroupsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    layout->addWidget(m_choicesBox);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Project"), tr("Line")});
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setObjectName(QStringLiteral("qcProjectTree"));
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item, int) { onItemActivated(item); });
    rebuild();
}

void BodygroupsPanel::setDocument(Document* document)
{
    m_document = document;
    connect(document, &Document::loaded, this, [this](bool) { rebuild(); });
    rebuild();
}

void BodygroupsPanel::rebuild()
{
    m_updating = true;
    while (m_form->rowCount() > 0) {
        m_form->removeRow(0);
    }
    m_choices.clear();
    m_skin = nullptr;
    m_tree->clear();
    const core::QcReport* qc = m_document ? m_document->qcProject() : nullptr;
    m_empty->setVisible(!qc);
    m_choicesBox->setVisible(qc != nullptr);
    m_tree->setVisible(qc != nullptr);
    if (!qc) {
        m_updating = false;
        return;
    }
    const core::QcProject& p = qc->project;
    const QcView& view = m_document->qcView();
    for (std::size_t g = 0; g < p.bodygroups.size(); ++g) {
        const core::QcBodygroup& grp = p.bodygroups[g];
        auto* box = new QComboBox(m_choicesBox);
        box->setObjectName(QStringLiteral("bodygroup_%1").arg(toQString(grp.name)));
        for (const core::QcBodyChoice& c : grp.choices) {
            box->addItem(c.blank ? tr("blank") : QFileInfo(toQString(c.path)).fileName());
        }
        const int current = g < view.choices.size() ? view.choices[g] : 0;
        box->setCurrentIndex(current);
        connect(box, &QComboBox::currentIndexChanged, this, [this](int) { onChoiceChanged(); });
        m_form->addRow(toQString(grp.name), box);
        m_choices.push_back(box);
    }
    m_skin = new QComboBox(m_choicesBox);
    m_skin->setObjectName(QStringLiteral("skin"));
    const std::size_t skins = p.skinCount();
    for (std::size_t s = 0; s < skins; ++s) {
        QString label = tr("skin %1").arg(s);
        if (!p.textureGroups.empty() && !p.textureGroups.front().rows[s].empty()) {
            label +=
                QStringLiteral(" (%1)").arg(toQString(p.textureGroups.front().rows[s].front()));
        }
        m_skin->addItem(label);
    }
    m_skin->setCurrentIndex(std::min(view.skin, int(skins) - 1));
    connect(m_skin, &QComboBox::currentIndexChanged, this, [this](int) { onChoiceChanged(); });
    m_form->addRow(tr("Skin"), m_skin);

    // The project tree: QC → includes, bodygroups → files, sequences, other files.
    auto* root = new QTreeWidgetItem(m_tree);
    root->setText(0, QFileInfo(toQString(qc->file)).fileName());
    root->setToolTip(0, toQString(qc->file));
    root->setData(0, ScriptRole, toQString(qc->file));
    root->setData(0, LineRole, 1);
    auto fileRow = [&](QTreeWidgetItem* parent, std::int32_t ref, const QString& label) {
        if (ref < 0 || std::size_t(ref) >= p.files.size()) {
            return;
        }
        const core::QcFileRef& f = p.files[std::size_t(ref)];
        addRow(parent, label.isEmpty() ? toQString(f.path) : label, f.at, toQString(f.resolved),
               f.resolved.empty());
    };
    if (!p.includes.empty()) {
        auto* inc = new QTreeWidgetItem(root, {tr("includes (%1)").arg(p.includes.size())});
        for (const core::QcFileRef& f : p.files) {
            if (f.kind == core::QcFileRef::Kind::Include) {
                addRow(inc, toQString(f.path), f.at, toQString(f.resolved), f.resolved.empty());
            }
        }
    }
    auto* groups = new QTreeWidgetItem(root, {tr("bodygroups (%1)").arg(p.bodygroups.size())});
    for (const core::QcBodygroup& grp : p.bodygroups) {
        QTreeWidgetItem* g = addRow(groups, toQString(grp.name), grp.at);
        for (const core::QcBodyChoice& c : grp.choices) {
            if (c.blank) {
                addRow(g, tr("blank"), c.at);
            } else {
                fileRow(g, c.fileRef, {});
            }
        }
        for (std::int32_t flex : grp.flexFiles) {
            fileRow(g, flex, {});
        }
        g->setExpanded(true);
    }
    groups->setExpanded(true);
    auto* seqs = new QTreeWidgetItem(root, {tr("sequences (%1)").arg(p.sequences.size())});
    for (const core::QcSequence& s : p.sequences) {
        QTreeWidgetItem* item = addRow(seqs, toQString(s.name), s.at);
        bool missing = false;
        for (std::size_t k = 0; k < s.fileRefs.size(); ++k) {
            const std::int32_t ref = s.fileRefs[k];
            if (ref >= 0) {
                fileRow(item, ref, {});
                missing = missing || p.files[std::size_t(ref)].resolved.empty();
            }
        }
        if (missing) {
            item->setForeground(0, QBrush(Qt::red));
        }
    }
    auto* other = new QTreeWidgetItem(root, {tr("other files")});
    for (std::size_t i = 0; i < p.files.size(); ++i) {
        const core::QcFileRef::Kind k = p.files[i].kind;
        if (k == core::QcFileRef::Kind::Lod || k == core::QcFileRef::Kind::Collision ||
            k == core::QcFileRef::Kind::Other ||
            (k == core::QcFileRef::Kind::Animation && p.files[i].command == "animation")) {
            fileRow(other, std::int32_t(i), {});
        }
    }
    if (other->childCount() == 0) {
        delete other;
    }
    root->setExpanded(true);
    m_updating = false;
}

void BodygroupsPanel::onChoiceChanged()
{
    if (m_updating || !m_document) {
        return;
    }
    QcView view;
    for (QComboBox* box : m_choices) {
        view.choices.push_back(box->currentIndex());
    }
    view.skin = m_skin ? std::max(0, m_skin->currentIndex()) : 0;
    m_document->setQcView(view);
}

void BodygroupsPanel::onItemActivated(QTreeWidgetItem* item)
{
    const QString script = item->data(0, ScriptRole).toString();
    if (script.isEmpty()) {
        return;
    }
    emit lineActivated(script, item->data(0, LineRole).toInt(),
                       item->data(0, ResolvedRole).toString());
}

} // namespace rigscope::app
