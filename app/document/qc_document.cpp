#include "app/document/qc_document.h"

#include <QtCore/QFileInfo>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "app/qt_convert.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

QString qcSequenceNote(const core::QcReport& qc, int animation)
{
    const std::vector<std::int32_t>& map = qc.compiled.sequenceAnimation;
    const auto it = std::find(map.begin(), map.end(), animation);
    if (animation < 0 || it == map.end()) {
        return {};
    }
    const core::QcAnimOptions& o = qc.project.sequences[std::size_t(it - map.begin())].options;
    if (!o.subtract.empty()) {
        return QObject::tr(" · subtract %1 %2").arg(toQString(o.subtract)).arg(o.subtractFrame);
    }
    return o.delta ? QObject::tr(" · delta") : QString();
}

const core::CompiledSequence* compiledSequence(const core::CompiledModelInfo& compiled,
                                               int animation)
{
    const std::vector<std::int32_t>& map = compiled.sequenceAnimation;
    const auto it = std::find(map.begin(), map.end(), animation);
    const std::size_t s = std::size_t(it - map.begin());
    return animation >= 0 && it != map.end() && s < compiled.sequences.size()
               ? &compiled.sequences[s]
               : nullptr;
}

QString compiledEventText(const core::CompiledEvent& event, bool source)
{
    QString text = event.name.empty()
                       ? QObject::tr("event %1").arg(event.event)
                       : QObject::tr("%1 (event %2)").arg(toQString(event.name)).arg(event.event);
    if (!event.options.empty()) {
        text += QStringLiteral(": ") + toQString(event.options);
    }
    if (source) {
        text += QObject::tr(" · cycle %1").arg(double(event.cycle), 0, 'f', 2);
    }
    return text;
}

namespace {

// Hitbox groups (studiomdl's hit groups: 0 generic, 1 head, 2 chest, 3 stomach, 4-7 limbs).
QColor hitGroupColor(int group)
{
    static const QColor kGroup[] = {
        QColor(230, 230, 230), QColor(255, 70, 70),  QColor(255, 160, 40), QColor(250, 230, 60),
        QColor(80, 220, 90),   QColor(60, 200, 220), QColor(90, 120, 255), QColor(200, 90, 255)};
    return kGroup[std::size_t(std::abs(group)) % std::size(kGroup)];
}

} // namespace

std::vector<render::SceneMarker> qcMarkers(const core::QcReport& qc, const core::Model& shown)
{
    std::vector<render::SceneMarker> out;
    // The bone the compile linked the k-th command to, by its name in the compiled bone table:
    // GoldSrc links "tree" to TREE when TREE comes first (qc.case-variant-bone).
    const auto linked = [&](const std::vector<core::JointIndex>& joints, std::size_t k,
                            const std::string& written) {
        const core::Skeleton& table = qc.compiled.model.skeleton;
        const core::JointIndex j = k < joints.size() ? joints[k] : core::kNoJoint;
        return j >= 0 && std::size_t(j) < table.size()
                   ? shown.skeleton.findByName(table.names[std::size_t(j)])
                   : shown.skeleton.findByName(written);
    };
    for (const core::QcAttachment& a : qc.project.attachments) {
        render::SceneMarker m;
        m.kind = render::SceneMarker::Kind::Axes;
        // $staticprop links every attachment to static_prop, its offset kept (docs/qc.md).
        m.joint = qc.project.staticProp
                      ? shown.skeleton.findByName("static_prop")
                      : linked(qc.compiled.attachmentJoints,
                               std::size_t(&a - qc.project.attachments.data()), a.bone);
        m.offset = a.offset;
        m.absolute = a.absolute;
        m.name = toQString(a.name);
        if (m.joint >= 0) {
            out.push_back(std::move(m));
        }
    }
    for (const core::QcHitbox& h : qc.project.hitboxes) {
        render::SceneMarker m;
        m.kind = render::SceneMarker::Kind::Box;
        m.joint =
            linked(qc.compiled.hitboxJoints, std::size_t(&h - qc.project.hitboxes.data()), h.bone);
        m.min = h.min;
        m.max = h.max;
        m.color = hitGroupColor(h.group);
        if (m.joint >= 0) {
            out.push_back(std::move(m));
        }
    }
    return out;
}

std::vector<render::SceneMarker> compiledMarkers(const core::CompiledModelInfo& compiled,
                                                 const core::Model& shown)
{
    std::vector<render::SceneMarker> out;
    auto joint = [&](std::int32_t bone) {
        return bone >= 0 && std::size_t(bone) < compiled.bones.size()
                   ? shown.skeleton.findByName(compiled.bones[std::size_t(bone)].name)
                   : core::kNoJoint;
    };
    for (const core::CompiledAttachment& a : compiled.attachments) {
        render::SceneMarker m;
        m.kind = render::SceneMarker::Kind::Axes;
        m.joint = joint(a.bone);
        // The 3x4 matrix in the bone's space: rotation rows, the origin in the last column.
        const auto& l = a.local;
        m.offset = core::Vec3(l[3], l[7], l[11]);
        m.rotation << l[0], l[1], l[2], l[4], l[5], l[6], l[8], l[9], l[10];
        m.name = toQString(a.name);
        if (m.joint >= 0) {
            out.push_back(std::move(m));
        }
    }
    // The first hitbox set: the one the engine traces against by default.
    if (!compiled.hitboxSets.empty()) {
        for (const core::CompiledHitbox& h : compiled.hitboxSets.front().boxes) {
            render::SceneMarker m;
            m.kind = render::SceneMarker::Kind::Box;
            m.joint = joint(h.bone);
            m.min = h.min;
            m.max = h.max;
            m.color = hitGroupColor(h.group);
            if (m.joint >= 0) {
                out.push_back(std::move(m));
            }
        }
    }
    return out;
}

std::vector<render::SceneMarker> documentMarkers(const Document& doc, const core::Model& shown)
{
    std::vector<render::SceneMarker> out;
    if (const core::QcReport* qc = doc.qcProject()) { // attachments, hitboxes (issue 17)
        out = qcMarkers(*qc, shown);
    } else if (const LoadedFile* p = doc.primary(); p && p->compiled) { // issue 29
        out = compiledMarkers(*p->compiled, shown);
    }
    for (const core::JiggleJoint& j : doc.jiggleJoints()) {
        if (j.joint >= 0 && std::size_t(j.joint) < shown.skeleton.size()) {
            render::SceneMarker m;
            m.kind = render::SceneMarker::Kind::Jiggle;
            m.joint = j.joint;
            m.jiggle = j.params;
            out.push_back(std::move(m));
        }
    }
    return out;
}

namespace {

// applyQcCommandLine on a compiled model: bodypart names, skin families, .vtx LODs.
QString applyCompiledCommandLine(Document& doc, const core::CompiledModelInfo& info,
                                 const QList<QPair<QString, int>>& bodygroups, int skin, int lod)
{
    QcView view = doc.qcView();
    view.choices.resize(info.bodyparts.size(), 0);
    for (const auto& [name, choice] : bodygroups) {
        std::size_t b = 0;
        while (b < info.bodyparts.size() &&
               toQString(info.bodyparts[b].name).compare(name, Qt::CaseInsensitive) != 0) {
            ++b;
        }
        if (b == info.bodyparts.size()) {
            return QObject::tr("no bodypart named '%1'").arg(name);
        }
        if (choice >= int(info.bodyparts[b].models.size())) {
            return QObject::tr("bodypart '%1' has %2 models")
                .arg(name)
                .arg(info.bodyparts[b].models.size());
        }
        view.choices[b] = choice;
    }
    const int skins = std::max(1, int(info.skins.size()));
    if (skin >= 0) {
        if (skin >= skins) {
            return QObject::tr("the model has %1 skins").arg(skins);
        }
        view.skin = skin;
    }
    if (lod >= 0) {
        if (lod >= info.lods) {
            return QObject::tr("the model has %1 LODs").arg(info.lods);
        }
        view.lod = lod;
    }
    doc.setQcView(view);
    doc.waitForLoaded(600000);
    return {};
}

} // namespace

QString applyQcCommandLine(Document& doc, const QList<QPair<QString, int>>& bodygroups, int skin,
                           int lod)
{
    if (bodygroups.isEmpty() && skin < 0 && lod < 0) {
        return {};
    }
    const core::QcReport* qc = doc.qcProject();
    if (!qc && doc.compiledModel()) {
        return applyCompiledCommandLine(doc, *doc.compiledModel(), bodygroups, skin, lod);
    }
    if (!qc) {
        return QObject::tr("--bodygroup, --skin and --lod need a .qc project or a compiled model");
    }
    const core::QcProject& p = qc->project;
    QcView view = doc.qcView();
    view.choices.resize(p.bodygroups.size(), 0);
    for (const auto& [name, choice] : bodygroups) {
        std::size_t g = 0;
        while (g < p.bodygroups.size() &&
               toQString(p.bodygroups[g].name).compare(name, Qt::CaseInsensitive) != 0) {
            ++g;
        }
        if (g == p.bodygroups.size()) {
            return QObject::tr("no bodygroup named '%1'").arg(name);
        }
        if (choice >= int(p.bodygroups[g].choices.size())) {
            return QObject::tr("bodygroup '%1' has %2 choices")
                .arg(name)
                .arg(p.bodygroups[g].choices.size());
        }
        view.choices[g] = choice;
    }
    if (skin >= 0) {
        if (skin >= int(p.skinCount())) {
            return QObject::tr("the project has %1 skins").arg(p.skinCount());
        }
        view.skin = skin;
    }
    if (lod >= 0) {
        if (lod > int(p.lods.size())) {
            return QObject::tr("the project has %1 $lod blocks").arg(p.lods.size());
        }
        view.lod = lod;
    }
    doc.setQcView(view);
    doc.waitForLoaded(600000);
    return {};
}

} // namespace rigscope::app
