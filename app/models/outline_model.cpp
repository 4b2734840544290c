#include "app/models/outline_model.h"

#include <QtCore/QFileInfo>
#include <QtGui/QFont>
#include <QtCore/QLocale>

#include "app/document/frame_names.h"
#include "app/qt_convert.h"
#include "core/formats/mdl/compiled_model.h"

namespace rigscope::app {

namespace {
constexpr int kKindShift = 56;
constexpr quintptr kAMask = 0xFFFFFF;
} // namespace

OutlineModel::OutlineModel(QObject* parent) : QAbstractItemModel(parent) {}

void OutlineModel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr);
    }
    m_document = document;
    if (m_document) {
        connect(m_document, &Document::loaded, this, &OutlineModel::rebuild);
        connect(m_document, &Document::animationChanged, this, [this] {
            const QModelIndex anims = sectionIndex(Animations);
            const int rows = rowCount(anims);
            if (rows > 0) {
                emit dataChanged(index(0, 0, anims), index(rows - 1, ColumnCount - 1, anims),
                                 {Qt::FontRole});
            }
        });
    }
    rebuild();
}

quintptr OutlineModel::pack(Node kind, quint32 a, quint32 b)
{
    return (quintptr(kind) << kKindShift) | ((quintptr(a) & kAMask) << 32) | quintptr(b);
}
OutlineModel::Node OutlineModel::kindOfId(quintptr id)
{
    return Node(id >> kKindShift);
}
quint32 OutlineModel::aOf(quintptr id)
{
    return quint32((id >> 32) & kAMask);
}
quint32 OutlineModel::bOf(quintptr id)
{
    return quint32(id & 0xFFFFFFFFu);
}

void OutlineModel::buildCompiledGroups(const core::CompiledModelInfo& c)
{
    const QLocale loc = QLocale::system();
    auto bone = [&c](std::int32_t b) {
        return b >= 0 && std::size_t(b) < c.bones.size() ? toQString(c.bones[std::size_t(b)].name)
                                                         : QStringLiteral("?");
    };
    InfoGroup parts{tr("Bodyparts"), loc.toString(qlonglong(c.bodyparts.size())), {}};
    for (const core::CompiledBodypart& bp : c.bodyparts) {
        for (const core::CompiledSubModel& m : bp.models) {
            parts.rows.push_back({toQString(bp.name) + QStringLiteral(" / ") +
                                      (m.name.empty() ? tr("(blank)") : toQString(m.name)),
                                  tr("%1 verts · %2 tris · %3 LODs")
                                      .arg(loc.toString(m.vertices), loc.toString(m.triangles))
                                      .arg(m.lodTriangles.size())});
        }
    }
    m_info.push_back(std::move(parts));
    InfoGroup skins{tr("Skin families"), loc.toString(qlonglong(c.skins.size())), {}};
    const auto names = c.skinMaterialNames();
    for (std::size_t f = 0; f < names.size(); ++f) {
        QStringList list;
        for (const std::string& n : names[f]) {
            list << toQString(n);
        }
        skins.rows.push_back({tr("skin %1").arg(f), list.join(QStringLiteral(", "))});
    }
    m_info.push_back(std::move(skins));
    InfoGroup seqs{tr("Sequences"), loc.toString(qlonglong(c.sequences.size())), {}};
    for (const core::CompiledSequence& s : c.sequences) {
        QString info = tr("%1 frames · %2 fps").arg(s.frames).arg(double(s.fps));
        if (!s.activityName.empty()) {
            info = toQString(s.activityName) + QStringLiteral(" · ") + info;
        }
        if (s.looping) {
            info += tr(" · loop");
        }
        if (s.delta) {
            info += tr(" · delta");
        }
        if (!s.events.empty()) {
            info += tr(" · %1 events").arg(s.events.size());
        }
        seqs.rows.push_back({toQString(s.name), info});
    }
    m_info.push_back(std::move(seqs));
    InfoGroup atts{tr("Attachments"), loc.toString(qlonglong(c.attachments.size())), {}};
    for (const core::CompiledAttachment& a : c.attachments) {
        atts.rows.push_back({toQString(a.name), tr("on %1").arg(bone(a.bone))});
    }
    m_info.push_back(std::move(atts));
    InfoGroup boxes{tr("Hitbox sets"), loc.toString(qlonglong(c.hitboxCount())), {}};
    for (const core::CompiledHitboxSet& set : c.hitboxSets) {
        for (const core::CompiledHitbox& h : set.boxes) {
            boxes.rows.push_back({toQString(set.name) + QStringLiteral(" / ") + bone(h.bone),
                                  tr("group %1").arg(h.group)});
        }
    }
    m_info.push_back(std::move(boxes));
    if (!c.poseParameters.empty()) {
        InfoGroup pp{tr("Pose parameters"), loc.toString(qlonglong(c.poseParameters.size())), {}};
        for (const core::CompiledPoseParameter& p : c.poseParameters) {
            pp.rows.push_back(
                {toQString(p.name), tr("%1 .. %2").arg(double(p.start)).arg(double(p.end))});
        }
        m_info.push_back(std::move(pp));
    }
    if (!c.flexControllers.empty()) {
        InfoGroup fc{tr("Flex controllers"), loc.toString(qlonglong(c.flexControllers.size())), {}};
        for (const core::CompiledFlexController& f : c.flexControllers) {
            fc.rows.push_back(
                {toQString(f.name),
                 toQString(f.type) + tr(" · %1 .. %2").arg(double(f.min)).arg(double(f.max))});
        }
        m_info.push_back(std::move(fc));
    }
}

void OutlineModel::rebuild()
{
    beginResetModel();
    m_model = m_document ? m_document->primaryModel() : nullptr;
    m_children.clear();
    m_roots.clear();
    m_rowInParent.clear();
    m_triangles.clear();
    m_flex.clear();
    m_info.clear();
    if (m_document && m_document->primary() && m_document->primary()->compiled) {
        buildCompiledGroups(*m_document->primary()->compiled);
    }
    if (m_model) {
        const core::Skeleton& s = m_model->skeleton;
        m_children.resize(s.size());
        m_rowInParent.resize(s.size());
        for (std::size_t j = 0; j < s.size(); ++j) {
            const core::JointIndex p = s.parents[j];
            auto& list = p >= 0 ? m_children[std::size_t(p)] : m_roots;
            m_rowInParent[j] = int(list.size());
            list.push_back(int(j));
        }
        m_triangles = m_document->materialTriangleCounts();
        const auto& files = m_document->files();
        for (std::size_t f = 0; f < files.size(); ++f) {
            if (!files[f].model) {
                continue;
            }
            for (std::size_t k = 0; k < files[f].model->flexShapes.size(); ++k) {
                m_flex.push_back({int(f), int(k)});
            }
        }
    }
    endResetModel();
}

QModelIndex OutlineModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) {
        return {};
    }
    if (!parent.isValid()) {
        return createIndex(row, column, pack(Node::Section, quint32(row)));
    }
    const quintptr pid = parent.internalId();
    switch (kindOfId(pid)) {
    case Node::Section:
        switch (Section(aOf(pid))) {
        case Nodes:
            return createIndex(row, column, pack(Node::Joint, quint32(m_roots[std::size_t(row)])));
        case Materials:
            return createIndex(row, column, pack(Node::Material, quint32(row)));
        case Animations:
            return createIndex(row, column, pack(Node::Animation, quint32(row)));
        case FlexShapes:
            return createIndex(row, column, pack(Node::Flex, quint32(row)));
        case Compiled:
            return createIndex(row, column, pack(Node::Group, quint32(row)));
        default:
            return {};
        }
    case Node::Group:
        return createIndex(row, column, pack(Node::Item, aOf(pid), quint32(row)));
    case Node::Joint:
        return createIndex(row, column,
                           pack(Node::Joint, quint32(m_children[aOf(pid)][std::size_t(row)])));
    case Node::Animation:
        return createIndex(row, column, pack(Node::Frame, aOf(pid), quint32(row)));
    default:
        return {};
    }
}

QModelIndex OutlineModel::parent(const QModelIndex& child) const
{
    if (!child.isValid()) {
        return {};
    }
    const quintptr id = child.internalId();
    switch (kindOfId(id)) {
    case Node::Section:
        return {};
    case Node::Joint: {
        const core::JointIndex p = m_model->skeleton.parents[aOf(id)];
        if (p < 0) {
            return createIndex(Nodes, 0, pack(Node::Section, Nodes));
        }
        return createIndex(m_rowInParent[std::size_t(p)], 0, pack(Node::Joint, quint32(p)));
    }
    case Node::Material:
        return createIndex(Materials, 0, pack(Node::Section, Materials));
    case Node::Animation:
        return createIndex(Animations, 0, pack(Node::Section, Animations));
    case Node::Flex:
        return createIndex(FlexShapes, 0, pack(Node::Section, FlexShapes));
    case Node::Frame:
        return createIndex(int(aOf(id)), 0, pack(Node::Animation, aOf(id)));
    case Node::Group:
        return createIndex(Compiled, 0, pack(Node::Section, Compiled));
    case Node::Item:
        return createIndex(int(aOf(id)), 0, pack(Node::Group, aOf(id)));
    }
    return {};
}

int OutlineModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) {
        return m_model ? (m_info.empty() ? int(Compiled) : int(SectionCount)) : 0;
    }
    if (parent.column() != 0) {
        return 0;
    }
    const quintptr id = parent.internalId();
    switch (kindOfId(id)) {
    case Node::Section:
        switch (Section(aOf(id))) {
        case Nodes:
            return int(m_roots.size());
        case Materials:
            return int(m_model->mesh.materials.size());
        case Animations:
            return m_document ? int(m_document->animations().size()) + 1 : 1;
        case FlexShapes:
            return int(m_flex.size());
        case Compiled:
            return int(m_info.size());
        default:
            return 0;
        }
    case Node::Group:
        return aOf(id) < m_info.size() ? int(m_info[aOf(id)].rows.size()) : 0;
    case Node::Joint:
        return int(m_children[aOf(id)].size());
    case Node::Animation: {
        const quint32 a = aOf(id);
        if (a == 0) {
            return 0;
        }
        const auto& d = m_document->animations()[a - 1];
        return int(d.animation(m_document->files()).frameCount());
    }
    default:
        return 0;
    }
}

int OutlineModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant OutlineModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case NameColumn:
        return tr("Name");
    case IdColumn:
        return tr("Id");
    case CountColumn:
        return tr("Info");
    default:
        return {};
    }
}

QVariant OutlineModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_model) {
        return {};
    }
    const quintptr id = index.internalId();
    const Node kind = kindOfId(id);
    const quint32 a = aOf(id);
    const int col = index.column();
    if (role == NodeKindRole) {
        return int(kind);
    }
    if (role == CoreIndexRole) {
        return kind == Node::Animation ? int(a) - 1 : int(a);
    }
    if (role == SubIndexRole) {
        return int(bOf(id));
    }
    const QLocale loc = QLocale::system();
    const core::Model& m = *m_model;
    if (role == Qt::DisplayRole) {
        switch (kind) {
        case Node::Section:
            if (col == NameColumn) {
                const QString names[] = {tr("Nodes"), tr("Materials"), tr("Animations"),
                                         tr("Flex shapes"), tr("Compiled model")};
                return names[a];
            }
            if (col == CountColumn) {
                switch (Section(a)) {
                case Nodes:
                    return (m.skeleton.size() == 1 ? tr("1 bone")
                                                   : tr("%1 bones").arg(m.skeleton.size())) +
                           QStringLiteral(", ") +
                           (m.skeleton.rootCount() == 1
                                ? tr("1 root")
                                : tr("%1 roots").arg(m.skeleton.rootCount()));
                case Materials:
                    return loc.toString(qlonglong(m.mesh.materials.size()));
                case Animations:
                    return loc.toString(qlonglong(m_document->animations().size()));
                case FlexShapes:
                    return loc.toString(qlonglong(m_flex.size()));
                case Compiled: {
                    const auto& c = *m_document->primary()->compiled;
                    return QStringLiteral("%1 v%2%3")
                        .arg(toQString(c.engine))
                        .arg(c.version)
                        .arg(c.variant == "afterburner" ? QStringLiteral(" (Afterburner)")
                                                        : QString());
                }
                default:
                    return {};
                }
            }
            return {};
        case Node::Group:
            if (a < m_info.size()) {
                return col == NameColumn    ? QVariant(m_info[a].name)
                       : col == CountColumn ? QVariant(m_info[a].info)
                                            : QVariant();
            }
            return {};
        case Node::Item:
            if (a < m_info.size() && bOf(id) < m_info[a].rows.size()) {
                const InfoRow& r = m_info[a].rows[bOf(id)];
                return col == NameColumn    ? QVariant(r.name)
                       : col == CountColumn ? QVariant(r.info)
                                            : QVariant();
            }
            return {};
        case Node::Joint:
            if (col == NameColumn) {
                return toQString(m.skeleton.names[a]);
            }
            if (col == IdColumn) {
                return m.skeleton.sourceIds[a];
            }
            if (col == CountColumn) {
                const auto& w = m_document->weightedVertexCounts();
                return tr("%1 verts").arg(loc.toString(a < w.size() ? w[a] : 0));
            }
            return {};
        case Node::Material:
            if (col == NameColumn) {
                return toQString(m.mesh.materials[a].name);
            }
            if (col == IdColumn) {
                return int(a);
            }
            if (col == CountColumn) {
                return tr("%1 tris").arg(loc.toString(a < m_triangles.size() ? m_triangles[a] : 0));
            }
            return {};
        case Node::Animation: {
            if (a == 0) {
                return col == NameColumn ? QVariant(tr("Rest pose")) : QVariant();
            }
            const auto& d = m_document->animations()[a - 1];
            const core::Animation& an = d.animation(m_document->files());
            if (col == NameColumn) {
                return d.name;
            }
            if (col == CountColumn) {
                return (an.frameCount() == 1 ? tr("%1 frame (%2) · %3 fps")
                                             : tr("%1 frames (%2) · %3 fps"))
                    .arg(an.frameCount())
                    .arg(frameRangeText(an))
                    .arg(double(an.fps));
            }
            return {};
        }
        case Node::Frame: {
            const auto& d = m_document->animations()[a - 1];
            const core::Animation& an = d.animation(m_document->files());
            const quint32 f = bOf(id);
            // The file's own frame number names the row; the index is secondary.
            if (col == NameColumn) {
                return tr("Frame %1").arg(frameNumberText(an, int(f)));
            }
            if (col == CountColumn && f < an.times.size()) {
                return tr("index %1").arg(f);
            }
            return {};
        }
        case Node::Flex: {
            const FlexRef r = m_flex[a];
            const auto& shape =
                m_document->files()[std::size_t(r.file)].model->flexShapes[std::size_t(r.shape)];
            if (col == NameColumn) {
                return shape.name.empty() ? tr("shape %1").arg(r.shape) : toQString(shape.name);
            }
            if (col == IdColumn) {
                return r.shape;
            }
            if (col == CountColumn) {
                return tr("%1 verts").arg(loc.toString(qlonglong(shape.ids.size())));
            }
            return {};
        }
        }
    }
    if (role == Qt::ToolTipRole && kind == Node::Joint) {
        const core::JointIndex p = m.skeleton.parents[a];
        // The full path from the root, so a name deep in the tree reads whole on hover.
        QStringList path;
        for (core::JointIndex j = core::JointIndex(a); j >= 0 && path.size() <= 1024;
             j = m.skeleton.parents[std::size_t(j)]) {
            path.prepend(toQString(m.skeleton.names[std::size_t(j)]));
        }
        return tr("%1 (id %2), parent %3, line %4\n%5")
            .arg(toQString(m.skeleton.names[a]))
            .arg(m.skeleton.sourceIds[a])
            .arg(p >= 0 ? toQString(m.skeleton.names[std::size_t(p)]) : tr("none"))
            .arg(m.skeleton.where[a].line)
            .arg(path.join(QStringLiteral(" › ")));
    }
    if (role == Qt::FontRole && kind == Node::Animation && m_document &&
        int(a) - 1 == m_document->currentAnimation()) {
        QFont f;
        f.setBold(true);
        return f; // the animation playing in the viewport
    }
    if (role == Qt::FontRole && kind == Node::Section) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

OutlineModel::Node OutlineModel::kindOf(const QModelIndex& index) const
{
    return index.isValid() ? kindOfId(index.internalId()) : Node::Section;
}

int OutlineModel::jointAt(const QModelIndex& index) const
{
    return index.isValid() && kindOf(index) == Node::Joint ? int(aOf(index.internalId())) : -1;
}

int OutlineModel::materialAt(const QModelIndex& index) const
{
    return index.isValid() && kindOf(index) == Node::Material ? int(aOf(index.internalId())) : -1;
}

QModelIndex OutlineModel::indexOfJoint(int joint, int column) const
{
    if (!m_model || joint < 0 || std::size_t(joint) >= m_rowInParent.size()) {
        return {};
    }
    return createIndex(m_rowInParent[std::size_t(joint)], column,
                       pack(Node::Joint, quint32(joint)));
}

QModelIndex OutlineModel::indexOfMaterial(int material, int column) const
{
    if (!m_model || material < 0 || std::size_t(material) >= m_model->mesh.materials.size()) {
        return {};
    }
    return createIndex(material, column, pack(Node::Material, quint32(material)));
}

QModelIndex OutlineModel::indexOfAnimation(int animation, int column) const
{
    if (!m_model || !m_document || animation < -1 ||
        animation >= int(m_document->animations().size())) {
        return {};
    }
    return createIndex(animation + 1, column, pack(Node::Animation, quint32(animation + 1)));
}

QModelIndex OutlineModel::sectionIndex(Section s) const
{
    return m_model ? createIndex(s, 0, pack(Node::Section, s)) : QModelIndex();
}

Selection OutlineModel::selectionFor(const QModelIndex& index) const
{
    if (!index.isValid()) {
        return {};
    }
    const quintptr id = index.internalId();
    switch (kindOfId(id)) {
    case Node::Joint:
        return {Selection::Kind::Joint, int(aOf(id)), -1};
    case Node::Material:
        return {Selection::Kind::Material, int(aOf(id)), -1};
    case Node::Animation:
        return {Selection::Kind::Animation, int(aOf(id)) - 1, -1};
    case Node::Frame:
        return {Selection::Kind::Frame, int(aOf(id)) - 1, int(bOf(id))};
    case Node::Flex:
        return {Selection::Kind::Flex, int(aOf(id)), -1};
    default:
        return {};
    }
}

QModelIndex OutlineModel::indexFor(const Selection& s) const
{
    switch (s.kind) {
    case Selection::Kind::Joint:
        return indexOfJoint(s.index);
    case Selection::Kind::Material:
        return indexOfMaterial(s.index);
    case Selection::Kind::Triangle: {
        if (!m_model || s.index < 0 || std::size_t(s.index) >= m_model->mesh.triangleCount()) {
            return {};
        }
        return indexOfMaterial(int(m_model->mesh.triangleMaterials[std::size_t(s.index)]));
    }
    case Selection::Kind::Animation:
        return indexOfAnimation(s.index);
    case Selection::Kind::Frame: {
        const QModelIndex parent = indexOfAnimation(s.index);
        return parent.isValid() ? index(s.corner, 0, parent) : QModelIndex();
    }
    case Selection::Kind::Flex:
        return s.index >= 0 && std::size_t(s.index) < m_flex.size()
                   ? createIndex(s.index, 0, pack(Node::Flex, quint32(s.index)))
                   : QModelIndex();
    default:
        return {};
    }
}

} // namespace rigscope::app
