#include "app/widgets/bodygroups_panel.h"

#include <algorithm>

#include <QtCore/QFileInfo>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

BodygroupsPanel::BodygroupsPanel(QWidget* parent)
    : QWidget(parent),
      m_empty(new QLabel(
          tr("Open a .qc project or a compiled .mdl to choose its bodygroups, skin and LOD."),
          this)),
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
    m_lod = nullptr;
    const core::QcReport* qc = m_document ? m_document->qcProject() : nullptr;
    const core::CompiledModelInfo* compiled = m_document ? m_document->compiledModel() : nullptr;
    m_empty->setVisible(!qc && !compiled);
    m_choicesBox->setVisible(qc || compiled);
    if (compiled) {
        rebuildCompiled(*compiled);
    }
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
    m_lod = nullptr;
    if (!p.lods.empty()) {
        m_lod = new QComboBox(m_choicesBox);
        m_lod->setObjectName(QStringLiteral("lod"));
        m_lod->addItem(tr("LOD 0 (as written)"));
        for (std::size_t i = 0; i < p.lods.size(); ++i) {
            const core::QcLod& lod = p.lods[i];
            m_lod->addItem(lod.shadow ? tr("shadow LOD")
                                      : tr("LOD %1 (threshold %2)").arg(i + 1).arg(lod.threshold));
        }
        m_lod->setCurrentIndex(std::clamp(view.lod, 0, int(p.lods.size())));
        connect(m_lod, &QComboBox::currentIndexChanged, this, [this](int) { onChoiceChanged(); });
        m_form->addRow(tr("LOD"), m_lod);
    }

    m_updating = false;
}

void BodygroupsPanel::rebuildCompiled(const core::CompiledModelInfo& info)
{
    // As Valve's model viewer: one model per bodypart ("Submodel"), the skin family, the LOD.
    const QcView& view = m_document->qcView();
    const auto follow = [this](QComboBox* box) {
        connect(box, &QComboBox::currentIndexChanged, this, [this](int) { onChoiceChanged(); });
    };
    for (std::size_t b = 0; b < info.bodyparts.size(); ++b) {
        const core::CompiledBodypart& part = info.bodyparts[b];
        auto* box = new QComboBox(m_choicesBox);
        box->setObjectName(QStringLiteral("bodygroup_%1").arg(toQString(part.name)));
        for (const core::CompiledSubModel& m : part.models) {
            const bool blank = m.meshes.empty() && m.vertices == 0;
            box->addItem(m.name.empty() && blank ? tr("blank") : toQString(m.name));
            box->setItemData(box->count() - 1,
                             tr("%1 triangles, %2 vertices").arg(m.triangles).arg(m.vertices),
                             Qt::ToolTipRole);
        }
        box->setCurrentIndex(b < view.choices.size() ? view.choices[b] : 0);
        follow(box);
        m_form->addRow(toQString(part.name), box);
        m_choices.push_back(box);
    }
    const std::vector<std::vector<std::string>> families = info.skinMaterialNames();
    m_skin = new QComboBox(m_choicesBox);
    m_skin->setObjectName(QStringLiteral("skin"));
    for (std::size_t s = 0; s < std::max<std::size_t>(1, families.size()); ++s) {
        // Named after its first material that differs from family 0's (else its first).
        QString label = tr("skin %1").arg(s);
        if (s < families.size() && !families[s].empty()) {
            std::size_t r = 0;
            while (r < families[s].size() && s > 0 && families[s][r] == families[0][r]) {
                ++r;
            }
            const std::string& name = families[s][r < families[s].size() ? r : 0];
            label += QStringLiteral(" (%1)").arg(QFileInfo(toQString(name)).fileName());
        }
        m_skin->addItem(label);
    }
    m_skin->setCurrentIndex(std::clamp(view.skin, 0, m_skin->count() - 1));
    follow(m_skin);
    m_form->addRow(tr("Skin"), m_skin);
    if (info.lods > 1) {
        m_lod = new QComboBox(m_choicesBox);
        m_lod->setObjectName(QStringLiteral("lod"));
        for (int l = 0; l < info.lods; ++l) {
            int tris = 0;
            for (const core::CompiledBodypart& part : info.bodyparts) {
                for (const core::CompiledSubModel& m : part.models) {
                    tris +=
                        std::size_t(l) < m.lodTriangles.size() ? m.lodTriangles[std::size_t(l)] : 0;
                }
            }
            m_lod->addItem(tr("LOD %1").arg(l));
            m_lod->setItemData(l, tr("%1 triangles over every model").arg(tris), Qt::ToolTipRole);
        }
        m_lod->setCurrentIndex(std::clamp(view.lod, 0, info.lods - 1));
        follow(m_lod);
        m_form->addRow(tr("LOD"), m_lod);
    }
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
    view.lod = m_lod ? std::max(0, m_lod->currentIndex()) : 0;
    m_document->setQcView(view);
}

} // namespace rigscope::app
