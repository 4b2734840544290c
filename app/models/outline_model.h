#pragma once

#include <QtCore/QAbstractItemModel>

#include "app/document/document.h"

namespace rigscope::app {

// The Outline tree: Nodes (bone hierarchy), Materials, Animations (rest pose, animations and
// their frames) and Flex shapes. internalId packs the node kind in the top byte and core
// indices below it (never pointers); child tables are built at reset.
class OutlineModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum class Node : quint8 { Section = 1, Joint, Material, Animation, Frame, Flex, Group, Item };
    // Compiled: a compiled model's own tables (issue 29), shown only for a .mdl.
    enum Section { Nodes = 0, Materials, Animations, FlexShapes, Compiled, SectionCount };
    enum Column { NameColumn = 0, IdColumn, CountColumn, ColumnCount };
    enum Role { NodeKindRole = Qt::UserRole + 1, CoreIndexRole, SubIndexRole };

    explicit OutlineModel(QObject* parent = nullptr);
    void setDocument(Document* document);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // Typed helpers.
    Node kindOf(const QModelIndex& index) const;
    int jointAt(const QModelIndex& index) const;    // -1 unless a joint row
    int materialAt(const QModelIndex& index) const; // -1 unless a material row
    QModelIndex indexOfJoint(int joint, int column = 0) const;
    QModelIndex indexOfMaterial(int material, int column = 0) const;
    QModelIndex indexOfAnimation(int animation, int column = 0) const; // -1 = rest pose
    QModelIndex sectionIndex(Section s) const;
    Selection selectionFor(const QModelIndex& index) const;
    QModelIndex indexFor(const Selection& s) const;

    struct FlexRef {
        int file = -1;
        int shape = -1;
    };
    const std::vector<FlexRef>& flexShapes() const { return m_flex; }

private:
    void rebuild();
    void buildCompiledGroups(const core::CompiledModelInfo& c);
    static quintptr pack(Node kind, quint32 a, quint32 b = 0);
    static Node kindOfId(quintptr id);
    static quint32 aOf(quintptr id);
    static quint32 bOf(quintptr id);

    Document* m_document = nullptr;
    std::shared_ptr<const core::Model> m_model;
    std::vector<std::vector<int>> m_children; // per joint
    std::vector<int> m_roots;
    std::vector<int> m_rowInParent; // per joint
    std::vector<int> m_triangles;   // per material
    std::vector<FlexRef> m_flex;
    // A compiled model's tables: bodyparts, LODs, sequences, attachments, hitbox sets, pose
    // parameters, flex controllers (empty for sources: the section is not shown).
    struct InfoRow {
        QString name, info;
    };
    struct InfoGroup {
        QString name, info;
        std::vector<InfoRow> rows;
    };
    std::vector<InfoGroup> m_info;
};

} // namespace rigscope::app
