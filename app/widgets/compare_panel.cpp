#include "app/widgets/compare_panel.h"

#include <algorithm>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "core/ops/compare_ghost.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"

namespace rigscope::app {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_table(new QTableWidget(0, 4, this)),
      m_ghost(new QCheckBox(tr("Show compiled model (wireframe over the source)"), this)),
      m_ignoreTimes(new QCheckBox(tr("Ignore file times (a checkout dates every file)"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Open a QC project whose compiled model exists, or use File ▸ Compare "
                          "with Compiled…"));
    layout->addWidget(m_summary);
    layout->addWidget(m_ghost);
    layout->addWidget(m_ignoreTimes);
    m_ignoreTimes->setToolTip(
        tr("Leave the files' modification times out of the staleness test, as `rigscope-cli "
           "compare --ignore-timestamps` does: only the companions' checksums then make the "
           "compiled model stale."));
    m_table->setHorizontalHeaderLabels(
        {tr("Field"), tr("Predicted"), tr("Compiled"), tr("Verdict")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
    m_ghost->setChecked(true);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ComparePanel::onRowSelected);
    connect(m_ghost, &QCheckBox::toggled, this, &ComparePanel::emitGhost);
    connect(m_ignoreTimes, &QCheckBox::toggled, this, [this]() {
        if (!m_mdlPath.isEmpty()) {
            compareWith(m_mdlPath);
        }
    });
}

void ComparePanel::setDocument(Document* document)
{
    m_document = document;
}

void ComparePanel::clear()
{
    m_report = {};
    m_mdlPath.clear();
    m_compiledModel.reset();
    m_table->setRowCount(0);
    emitGhost();
}

QString ComparePanel::findCompiled(const core::QcReport& qc)
{
    QString name = toQString(qc.project.modelName);
    name.replace(QLatin1Char('\\'), QLatin1Char('/'));
    if (name.isEmpty()) {
        return {};
    }
    if (!name.endsWith(QLatin1String(".mdl"), Qt::CaseInsensitive)) {
        name += QStringLiteral(".mdl");
    }
    // An empty file is no compiled model (Pathos keeps a 0-byte pine_tree.mdl beside its QC).
    const auto usable = [](const QString& path) {
        const QFileInfo fi(path);
        return fi.isFile() && fi.size() > 0;
    };
    QDir dir = QFileInfo(toQString(qc.file)).absoluteDir();
    for (int up = 0; up < 5; ++up) {
        const QString here = dir.filePath(QStringLiteral("models/") + name);
        if (usable(here)) {
            return here;
        }
        for (const QString& child : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString beside = dir.filePath(child + QStringLiteral("/models/") + name);
            if (usable(beside)) {
                return beside;
            }
        }
        if (usable(dir.filePath(QFileInfo(name).fileName())) && up == 0) {
            return dir.filePath(QFileInfo(name).fileName()); // compiled beside its QC
        }
        if (!dir.cdUp()) {
            break;
        }
    }
    return {};
}

// studiomdl's MakeStaticProp bakes its 90° turn about Z into a static prop's points (the bone
// table is `static_prop` alone, at rest): turned back, the ghost lies over the source instead of
// across it. An animated model keeps the turn in its root bone.
void ComparePanel::turnStaticPropBack(core::Model& model)
{
    for (core::Vec3& p : model.mesh.pointPositions) {
        p = core::Vec3(p.y(), -p.x(), p.z());
    }
    for (core::Vec3& n : model.mesh.cornerNormals) {
        n = core::Vec3(n.y(), -n.x(), n.z());
    }
}

bool ComparePanel::compareWith(const QString& mdlPath)
{
    m_table->setRowCount(0);
    const core::QcReport* qc = m_document ? m_document->qcProject() : nullptr;
    if (!qc) {
        m_summary->setText(tr("Compare needs an open QC project."));
        return false;
    }
    core::CompareOptions opt;
    opt.ignoreTimestamps = m_ignoreTimes->isChecked();
    m_report = core::compareQcToCompiled(qc->file, toStd(mdlPath), opt);
    m_mdlPath = mdlPath;
    if (!m_report.ok) {
        m_summary->setText(toQString(m_report.error));
        m_compiledModel.reset();
        emitGhost();
        return false;
    }
    core::OpenedInput in = core::openInput(toStd(mdlPath), core::Profile::Auto, {});
    if (in.readable && in.result.hasModel) {
        if (qc->project.staticProp && !core::goldSrcFamily(qc->project.profile)) {
            turnStaticPropBack(in.result.model);
        } else {
            // Through the bones' space onto the source as shown (core/ops/compare_ghost.h).
            core::placeGhostOnSource(in.result.model, qc->compiled.model.skeleton);
        }
    }
    m_compiledModel = in.readable && in.result.hasModel
                          ? std::make_shared<const core::Model>(std::move(in.result.model))
                          : nullptr;
    std::size_t stale = 0, vphysics = 0;
    m_table->setRowCount(int(m_report.differences.size()));
    for (std::size_t i = 0; i < m_report.differences.size(); ++i) {
        const core::CompareDifference& d = m_report.differences[i];
        const int r = int(i);
        m_table->setItem(r, 0, new QTableWidgetItem(toQString(d.field)));
        for (int c = 1; c <= 2; ++c) {
            auto* item = new QTableWidgetItem(toQString(c == 1 ? d.predicted : d.compiled));
            item->setToolTip(item->text());
            m_table->setItem(r, c, item);
        }
        m_table->setItem(r, 3,
                         new QTableWidgetItem(d.stale      ? tr("stale")
                                              : d.vphysics ? tr("vphysics")
                                                           : tr("differs")));
        stale += d.stale ? 1 : 0;
        vphysics += d.vphysics ? 1 : 0;
    }
    m_table->resizeColumnsToContents();
    for (int c = 0; c < 3; ++c) { // long lists (material names) stay readable in the tooltips
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), c == 0 ? 130 : 90));
    }
    QString text =
        m_report.differences.empty()
            ? tr("No difference: the prediction matches %1.").arg(QFileInfo(mdlPath).fileName())
            : tr("%n difference(s) with %1", nullptr, int(m_report.differences.size()))
                  .arg(QFileInfo(mdlPath).fileName());
    for (const std::string& s : m_report.notCompared) {
        text += QLatin1Char('\n') + tr("Not compared: %1").arg(toQString(s));
    }
    QStringList reasons;
    for (const std::string& s : m_report.staleReasons) {
        reasons << toQString(s);
    }
    if (stale > 0) {
        // The same reasons `compare` prints, one per line: why the model is called stale.
        text += QLatin1Char(' ') +
                tr("(%1 stale: the compiled model was not built from these sources as they are "
                   "now)")
                    .arg(stale);
        if (!reasons.isEmpty()) {
            text += QLatin1Char('\n') + tr("Stale: %1").arg(reasons.front());
            if (reasons.size() > 1) {
                text += QLatin1Char(' ') + tr("(and %n more)", nullptr, int(reasons.size() - 1));
            }
        }
    }
    if (vphysics > 0) {
        // As `compare` says it (core/ops/compare.h CompareDifference::vphysics).
        text += QLatin1Char(' ') +
                tr("(%1 vphysics: the collision model's hull sides, each within IVP's 1 cm merge "
                   "distance; vphysics keeps some of its corners by roundoff, which no "
                   "prediction gives)")
                    .arg(vphysics);
    }
    m_summary->setText(text);
    m_summary->setToolTip(reasons.join(QLatin1Char('\n')));
    emitGhost();
    return true;
}

void ComparePanel::emitGhost()
{
    emit ghostChanged(m_ghost->isChecked() ? m_compiledModel : nullptr);
}

Selection ComparePanel::selectionFor(int row) const
{
    if (!m_document || row < 0 || std::size_t(row) >= m_report.differences.size()) {
        return {};
    }
    const core::CompareDifference& d = m_report.differences[std::size_t(row)];
    const std::shared_ptr<const core::Model> model = m_document->primaryModel();
    const core::QcReport* qc = m_document->qcProject();
    if (!model) {
        return {};
    }
    static const QRegularExpression indexed(QStringLiteral("^([a-zA-Z]+)\\[(\\d+)\\]"));
    const QString field = toQString(d.field);
    const QRegularExpressionMatch m = indexed.match(field);
    const QString head = m.hasMatch() ? m.captured(1) : field.section(QLatin1Char('.'), 0, 0);
    const int index = m.hasMatch() ? m.captured(2).toInt() : -1;
    const auto jointNamed = [&](const std::string& name) {
        const core::Skeleton& s = model->skeleton;
        for (std::size_t j = 0; j < s.size(); ++j) {
            if (s.names[j] == name) {
                return int(j);
            }
        }
        return -1;
    };
    // The first name of a list ("a, b, c") found as a bone.
    const auto firstBone = [&](const std::string& list) {
        for (const QString& n : toQString(list).split(QStringLiteral(", "))) {
            const int j = jointNamed(toStd(n.trimmed()));
            if (j >= 0) {
                return j;
            }
        }
        return -1;
    };
    if (head == QLatin1String("bones") || head == QLatin1String("boneNames")) {
        // The first bone one side has and the other has not, else the first one listed.
        std::vector<std::string> predicted, compiled;
        for (const core::CompiledBone& b : m_report.predicted.bones) {
            predicted.push_back(b.name);
        }
        for (const core::CompiledBone& b : m_report.compiled.bones) {
            compiled.push_back(b.name);
        }
        const auto has = [](const std::vector<std::string>& v, const std::string& n) {
            return std::find(v.begin(), v.end(), n) != v.end();
        };
        for (const std::string& n : predicted) {
            if (!has(compiled, n) && jointNamed(n) >= 0) {
                return {Selection::Kind::Joint, jointNamed(n), -1};
            }
        }
        for (const std::string& n : compiled) {
            if (!has(predicted, n) && jointNamed(n) >= 0) {
                return {Selection::Kind::Joint, jointNamed(n), -1};
            }
        }
        int j = firstBone(d.predicted);
        if (j < 0) {
            j = firstBone(d.compiled);
        }
        return j >= 0 ? Selection{Selection::Kind::Joint, j, -1} : Selection{};
    }
    if (head == QLatin1String("sequences") && index >= 0) {
        const std::string& name = std::size_t(index) < m_report.predicted.sequences.size()
                                      ? m_report.predicted.sequences[std::size_t(index)].name
                                      : std::string();
        const auto& anims = m_document->animations();
        for (std::size_t a = 0; a < anims.size(); ++a) {
            if (toStd(anims[a].name) == name) {
                return {Selection::Kind::Animation, int(a), -1};
            }
        }
        return index < int(anims.size()) ? Selection{Selection::Kind::Animation, index, -1}
                                         : Selection{};
    }
    if ((head == QLatin1String("attachments") || head == QLatin1String("hitboxes")) && index >= 0) {
        const auto& c = m_report.predicted;
        std::int32_t bone = -1;
        if (head == QLatin1String("attachments") && std::size_t(index) < c.attachments.size()) {
            bone = c.attachments[std::size_t(index)].bone;
        } else {
            std::size_t k = 0;
            for (const core::CompiledHitboxSet& set : c.hitboxSets) {
                for (const core::CompiledHitbox& h : set.boxes) {
                    if (k++ == std::size_t(index)) {
                        bone = h.bone;
                    }
                }
            }
        }
        if (bone >= 0 && std::size_t(bone) < c.bones.size()) {
            const int j = jointNamed(c.bones[std::size_t(bone)].name);
            return j >= 0 ? Selection{Selection::Kind::Joint, j, -1} : Selection{};
        }
        return {};
    }
    if (head == QLatin1String("materialNames") || head == QLatin1String("skins") ||
        head == QLatin1String("materials")) {
        const auto& mats = model->mesh.materials;
        for (const QString& n : toQString(d.predicted).split(QStringLiteral(", "))) {
            for (std::size_t k = 0; k < mats.size(); ++k) {
                if (QString::compare(toQString(mats[k].name).section(QLatin1Char('/'), -1),
                                     n.trimmed(), Qt::CaseInsensitive) == 0) {
                    return {Selection::Kind::Material, int(k), -1};
                }
            }
        }
        return mats.empty() ? Selection{} : Selection{Selection::Kind::Material, 0, -1};
    }
    if (head == QLatin1String("bodyparts") && index >= 0 && qc) {
        // bodyparts[b].models[m]...: the first triangle of that choice's mesh object.
        static const QRegularExpression modelIndex(QStringLiteral("models\\[(\\d+)\\]"));
        const QRegularExpressionMatch mm = modelIndex.match(field);
        const std::size_t b = std::size_t(index);
        const std::size_t mi = mm.hasMatch() ? std::size_t(mm.captured(1).toInt()) : 0;
        const auto& choices = qc->compiled.choiceObjects;
        if (b < choices.size() && mi < choices[b].size() && choices[b][mi] >= 0) {
            const auto& objects = model->mesh.triangleObjects;
            for (std::size_t t = 0; t < objects.size(); ++t) {
                if (objects[t] == std::uint32_t(choices[b][mi])) {
                    return {Selection::Kind::Triangle, int(t), 0};
                }
            }
        }
        return {};
    }
    return {};
}

void ComparePanel::onRowSelected()
{
    const QList<QTableWidgetItem*> items = m_table->selectedItems();
    if (items.isEmpty() || !m_document) {
        return;
    }
    const Selection s = selectionFor(items.front()->row());
    if (s.kind == Selection::Kind::Animation) {
        m_document->setCurrentAnimation(s.index);
    }
    if (s.kind != Selection::Kind::None) {
        m_document->setSelection(s);
    }
}

} // namespace rigscope::app
