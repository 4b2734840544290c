#include "app/widgets/bodygroups_panel.h"

#include <QtCore/QFileInfo>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

BodygroupsPanel::BodygroupsPanel(QWidget* parent)
    : QWidget(parent),
      m_empty(new QLabel(tr("Open a .qc project to choose its bodygroups."), this)),
      m_choicesBox(new QWidget(this)), m_form(new QFormLayout(m_choicesBox))
{
    setObjectName(QStringLiteral("bodygroupsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    layout->addWidget(m_choicesBox);
    layout->addStretch(1);
    rebuild();
}

void BodygroupsPanel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr); // tabs bind another document
    }
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
    const core::QcReport* qc = m_document ? m_document->qcProject() : nullptr;
    m_empty->setVisible(!qc);
    m_choicesBox->setVisible(qc != nullptr);
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

} // namespace rigscope::app
