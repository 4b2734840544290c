#include "app/widgets/inspector_panel.h"

#include "app/widgets/problems_panel.h"

#include <cmath>

#include <QtCore/QFileInfo>
#include <QtCore/QLocale>
#include <QtGui/QImageReader>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

#include "app/qt_convert.h"
#include "core/io/file_buffer.h"
#include "core/model/rotation.h"
#include "core/materials/dds.h"
#include "core/materials/material_lookup.h"
#include "core/materials/vtf.h"
#include "app/document/frame_names.h"
#include "core/pose/pose_rig.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"
#include "core/text/ascii.h"

namespace rigscope::app {

namespace {

QString num(double v)
{
    return QString::number(v, 'g', 6);
}
QString vec(const core::Vec3& v)
{
    return QStringLiteral("%1  %2  %3").arg(num(v.x()), num(v.y()), num(v.z()));
}
QString deg(const core::Vec3& r)
{
    constexpr double k = 180.0 / 3.14159265358979;
    return QStringLiteral("%1°  %2°  %3°").arg(num(r.x() * k), num(r.y() * k), num(r.z() * k));
}

} // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent), m_tree(new QTreeWidget(this))
{
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setColumnWidth(0, 130);
    m_tree->header()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_tree);
}

void InspectorPanel::setDocument(Document* document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr); // tabs bind another document
    }
    m_document = document;
    connect(document, &Document::selectionChanged, this, &InspectorPanel::refresh);
    connect(document, &Document::loaded, this, &InspectorPanel::refresh);
    connect(document, &Document::diagnosticsChanged, this, &InspectorPanel::refresh);
    connect(document, &Document::checksStarted, this, &InspectorPanel::refresh);
    connect(document, &Document::frameChanged, this, &InspectorPanel::refresh);
    refresh();
}

QTreeWidgetItem* InspectorPanel::group(const QString& title)
{
    auto* g = new QTreeWidgetItem(m_tree, {title});
    QFont f = g->font(0);
    f.setBold(true);
    g->setFont(0, f);
    g->setFirstColumnSpanned(true);
    g->setExpanded(true);
    return g;
}

void InspectorPanel::row(QTreeWidgetItem* g, const QString& key, const QString& value)
{
    auto* item = new QTreeWidgetItem({key, value});
    item->setToolTip(1, value);
    if (g) {
        g->addChild(item);
    } else {
        m_tree->addTopLevelItem(item);
    }
}

void InspectorPanel::sourceRow(QTreeWidgetItem* g, const core::SourceLoc& where)
{
    // Text files give a line; binary ones (DMX, SMDX) a byte offset, as diagnostics name them.
    if (where.line > 0) {
        row(g, tr("Source line"), tr("line %1").arg(where.line));
    } else if (where.offset > 0) {
        row(g, tr("Source offset"),
            QStringLiteral("@0x%1").arg(
                QString::number(qulonglong(where.offset), 16).toUpper().rightJustified(4, u'0')));
    } else {
        row(g, tr("Source line"), tr("unknown"));
    }
}

QStringList InspectorPanel::lines() const
{
    QStringList out;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const auto* g = m_tree->topLevelItem(i);
        out << g->text(0);
        for (int k = 0; k < g->childCount(); ++k) {
            out << QStringLiteral("%1: %2").arg(g->child(k)->text(0), g->child(k)->text(1));
        }
    }
    return out;
}

void InspectorPanel::refresh()
{
    m_tree->clear();
    if (!m_document || !m_document->primaryModel()) {
        return;
    }
    const Selection& s = m_document->selection();
    switch (s.kind) {
    case Selection::Kind::Joint:
        showJoint(s.index);
        break;
    case Selection::Kind::Material:
        showMaterial(s.index);
        break;
    case Selection::Kind::Triangle:
        showTriangle(s.index, s.corner);
        break;
    default:
        showFile();
        break;
    }
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        m_tree->topLevelItem(i)->setExpanded(true);
    }
}

void InspectorPanel::showFile()
{
    const QLocale loc = QLocale::system();
    for (const auto& f : m_document->files()) {
        auto* g = group(QFileInfo(f.path).fileName());
        row(g, tr("Path"), f.path);
        if (!f.model) {
            row(g, tr("Error"), f.error);
            continue;
        }
        const core::Model& m = *f.model;
        row(g, tr("Format"), tr("%1 (version %2)").arg(toQString(m.format)).arg(m.version));
        row(g, tr("Kind"), toQString(core::kindName(m.kind)));
        row(g, tr("Size"), loc.formattedDataSize(f.bytes));
        row(g, tr("Load time"), tr("%1 ms").arg(f.loadMs, 0, 'f', 1));
        row(g, tr("Bones"), tr("%1 (%2 roots)").arg(m.skeleton.size()).arg(m.skeleton.rootCount()));
        if (!m.mesh.empty()) {
            row(g, tr("Triangles"), loc.toString(qlonglong(m.mesh.triangleCount())));
            row(g, tr("Points"), loc.toString(qlonglong(m.mesh.pointCount())));
            row(g, tr("Materials"),
                m_document->materialLookupState().notLookedUp
                    ? tr("%1 (not looked up: no game folder known)")
                          .arg(loc.toString(qlonglong(m.mesh.materials.size())))
                    : loc.toString(qlonglong(m.mesh.materials.size())));
        }
        if (!m.animations.empty()) {
            row(g, tr("Frames"), loc.toString(qlonglong(m.animations.front().frameCount())));
        }
        if (!m.flexShapes.empty()) {
            row(g, tr("Flex shapes"), loc.toString(qlonglong(m.flexShapes.size())));
        }
        const core::Bounds b = core::meshBounds(m);
        if (b.valid) {
            const core::Vec3 d = b.max - b.min;
            row(g, tr("Dimensions"),
                QStringLiteral("%1 × %2 × %3").arg(num(d.x()), num(d.y()), num(d.z())));
            row(g, tr("Bounds min"), vec(b.min));
            row(g, tr("Bounds max"), vec(b.max));
        }
        QStringList counts;
        for (const core::Severity s :
             {core::Severity::Error, core::Severity::Warning, core::Severity::Note}) {
            counts << severityCountText(int(core::countSeverity(f.diagnostics, s)), s);
        }
        row(g, tr("Diagnostics"),
            m_document->isChecking() ? tr("checking…") : counts.join(QStringLiteral(", ")));
    }
}

void InspectorPanel::showJoint(int joint)
{
    auto model = m_document->primaryModel();
    const core::Skeleton& s = model->skeleton;
    if (joint < 0 || std::size_t(joint) >= s.size()) {
        return;
    }
    const std::size_t j = std::size_t(joint);
    auto* g = group(tr("Bone"));
    row(g, tr("Name"), toQString(s.names[j]));
    row(g, tr("Id"), QString::number(s.sourceIds[j]));
    row(g, tr("Index"), QString::number(joint));
    const core::JointIndex p = s.parents[j];
    row(g, tr("Parent"),
        p >= 0 ? QStringLiteral("%1 (id %2)")
                     .arg(toQString(s.names[std::size_t(p)]))
                     .arg(s.sourceIds[std::size_t(p)])
               : tr("none (root)"));
    int children = 0;
    for (auto q : s.parents) {
        children += q == joint ? 1 : 0;
    }
    row(g, tr("Children"), QString::number(children));
    const auto& w = m_document->weightedVertexCounts();
    row(g, tr("Weighted verts"), QString::number(j < w.size() ? w[j] : 0));
    sourceRow(g, s.where[j]);

    auto* local = group(tr("Bind pose (local)"));
    if (s.bindKind == core::PoseKind::LocalEulerXYZ) {
        row(local, tr("Position"), vec(s.bindPositions[j]));
        row(local, tr("Rotation"), deg(s.bindRotations[j]));
        row(local, tr("Rotation (rad)"), vec(s.bindRotations[j]));
    } else if (s.bindKind == core::PoseKind::LocalQuaternion && j < s.bindQuaternions.size()) {
        // DMX: the quaternion as written, and its Euler angles (in double, gimbal-safe).
        const core::Vec4& q = s.bindQuaternions[j];
        const core::Vec3 e = core::quaternionToEuler(core::quaternionOf(q));
        row(local, tr("Position"), vec(s.bindPositions[j]));
        row(local, tr("Rotation"), deg(e));
        row(local, tr("Rotation (rad)"), vec(e));
        row(local, tr("Quaternion"),
            QStringLiteral("w %1  x %2  y %3  z %4")
                .arg(num(q.w()), num(q.x()), num(q.y()), num(q.z())));
    }
    const auto world = core::makePoseRig(s).bindModel;
    Eigen::Affine3f localM = world[j];
    if (p >= 0) {
        localM = world[std::size_t(p)].inverse() * world[j];
    }
    if (s.bindKind == core::PoseKind::ModelMatrix) {
        row(local, tr("Position"), vec(localM.translation()));
    }
    if (s.bindWhere.size() > j && s.bindWhere[j].line) {
        row(local, tr("Pose line"), tr("line %1").arg(s.bindWhere[j].line));
    }
    auto* modelG = group(tr("Bind pose (model)"));
    row(modelG, tr("Position"), vec(world[j].translation()));
    for (int a = 0; a < 3; ++a) {
        const QString axis[] = {tr("X axis"), tr("Y axis"), tr("Z axis")};
        row(modelG, axis[a], vec(world[j].linear().col(a)));
    }
    // The bone's collision solid (issue 31): a QC project's prediction or the .phy's.
    {
        const std::string bone = core::asciiLower(s.names[j]);
        auto solidRows = [&](float mass, std::size_t pieces, double volume, float damping,
                             float rotDamping) {
            auto* phys = group(tr("Physics solid"));
            row(phys, tr("Mass"), QStringLiteral("%1 kg").arg(mass, 0, 'f', 2));
            row(phys, tr("Convex pieces"), QString::number(pieces));
            row(phys, tr("Volume"), QStringLiteral("%1 in³").arg(volume, 0, 'f', 1));
            row(phys, tr("Damping"),
                QStringLiteral("%1 / %2 (rot)").arg(damping, 0, 'f', 2).arg(rotDamping, 0, 'f', 2));
        };
        if (const core::QcReport* qc = m_document->qcProject(); qc && qc->physics.jointed) {
            for (const core::PhysicsSolid& so : qc->physics.solids) {
                if (core::asciiLower(so.name) == bone) {
                    solidRows(so.mass, so.pieces.size(), so.volume, so.damping, so.rotDamping);
                }
            }
        } else if (const core::CompiledModelInfo* mdl = m_document->compiledModel();
                   mdl && mdl->physics.present) {
            for (const core::CompiledPhysicsSolid& so : mdl->physics.solids) {
                if (core::asciiLower(so.name) == bone) {
                    solidRows(so.mass, so.pieces.size(), so.volume, so.damping, so.rotDamping);
                }
            }
        }
    }
    // The current pose with its rotation, local (to the parent) and in model space: degrees as
    // SMD writes them (R = Rz·Ry·Rx) and the quaternion (w, x, y, z).
    const auto pose = m_document->currentPose();
    if (j < pose.size()) {
        const int a = m_document->currentAnimation();
        QString frame = QString::number(m_document->currentFrame());
        if (a >= 0) {
            frame = frameNumberText(
                m_document->animations()[std::size_t(a)].animation(m_document->files()),
                m_document->currentFrame());
        }
        auto rotationRows = [this](QTreeWidgetItem* into, const Eigen::Affine3f& m) {
            row(into, tr("Position"), vec(m.translation()));
            Eigen::Matrix3f r = m.linear();
            // Without scale: the rotation part only.
            for (int c = 0; c < 3; ++c) {
                const float n = r.col(c).norm();
                if (n > 1e-12f) {
                    r.col(c) /= n;
                }
            }
            row(into, tr("Rotation"), deg(core::matrixToEuler(r.cast<double>())));
            const Eigen::Quaternionf q(r);
            row(into, tr("Quaternion"),
                QStringLiteral("w %1  x %2  y %3  z %4")
                    .arg(num(q.w()), num(q.x()), num(q.y()), num(q.z())));
        };
        auto* posed = group(tr("Current pose, local (frame %1)").arg(frame));
        rotationRows(posed, p >= 0 && std::size_t(p) < pose.size()
                                ? Eigen::Affine3f(pose[std::size_t(p)].inverse() * pose[j])
                                : pose[j]);
        auto* posedModel = group(tr("Current pose, model (frame %1)").arg(frame));
        rotationRows(posedModel, pose[j]);
    }
}

void InspectorPanel::showMaterial(int material)
{
    auto model = m_document->primaryModel();
    if (material < 0 || std::size_t(material) >= model->mesh.materials.size()) {
        return;
    }
    const core::Material& m = model->mesh.materials[std::size_t(material)];
    auto* g = group(tr("Material"));
    row(g, tr("Name"), toQString(m.name));
    row(g, tr("Index"), QString::number(material));
    const auto counts = m_document->materialTriangleCounts();
    row(g, tr("Triangles"), QString::number(counts[std::size_t(material)]));
    if (!m.type.empty()) {
        row(g, tr("Type"), toQString(m.type));
    }
    if (!m.images.empty()) {
        row(g, tr("Images"), toQString(m.images));
    }
    const render::MaterialLook* look = m_materialLook ? m_materialLook(material) : nullptr;
    if (look && look->source) {
        if (look->found) {
            row(g, tr("VMT"), look->vmtPath);
            if (look->byNameAlone) {
                row(g, tr("Lookup"), tr("no QC: found by name alone under materials/"));
            }
            row(g, tr("Shader"), look->shader);
            QString base = look->baseTexture.isEmpty() ? tr("none") : look->baseTexture;
            if (!look->texturePath.isEmpty()) {
                base += QStringLiteral("  ") + look->texturePath;
            } else if (look->checkerboard) {
                base += tr("  (missing: checkerboard)");
            }
            row(g, tr("Base texture"), base);
            if (!look->texturePath.isEmpty()) {
                row(g, tr("Texture size"), textureSummary(look->texturePath));
            }
            QStringList flags;
            if (look->translucent) {
                flags << QStringLiteral("$translucent");
            }
            if (look->alphaTest) {
                flags << QStringLiteral("$alphatest %1").arg(double(look->alphaReference));
            }
            if (look->additive) {
                flags << QStringLiteral("$additive");
            }
            if (look->noCull) {
                flags << QStringLiteral("$nocull");
            }
            if (look->fullbright) {
                flags << QStringLiteral("$selfillum");
            }
            if (!flags.isEmpty()) {
                row(g, tr("Flags"), flags.join(QStringLiteral(", ")));
            }
        } else {
            row(g, tr("VMT"), tr("missing (the game draws the checkerboard)"));
            row(g, tr("Searched"), look->searched.join(QStringLiteral("; ")));
            row(g, tr("Lookup"),
                look->fromQc ? tr("under the QC's $cdmaterials in each root")
                             : tr("no QC: by name alone under each root's materials/"));
        }
    } else {
        const Document::MaterialLookupState& state = m_document->materialLookupState();
        if (state.notLookedUp) {
            // Neither found nor missing: nothing was searched (issue 27).
            row(g, tr("VMT"),
                tr("not looked up: no game folder holding materials/ is known "
                   "(Settings ▸ Materials, --materials)"));
            if (!state.offered.isEmpty()) {
                row(g, tr("Game folder nearby"), state.offered.join(QStringLiteral("; ")));
            }
        }
        const QString tex = m_texturePath ? m_texturePath(material) : QString();
        row(g, tr("Texture"),
            !tex.isEmpty()      ? tex
            : state.notLookedUp ? tr("none (drawn in a flat colour)")
                                : tr("missing"));
        if (!tex.isEmpty()) {
            row(g, tr("Texture size"), textureSummary(tex));
        }
    }
    row(g, tr("First use"), m.where.line ? tr("line %1").arg(m.where.line) : tr("unknown"));
}

QString InspectorPanel::textureSummary(const QString& path)
{
    // "512 x 512 DXT5, 10 mips" from the VTF header; other images: their pixel size.
    if (path.endsWith(QStringLiteral(".vtf"), Qt::CaseInsensitive)) {
        const core::FileReadResult head = core::readFileHead(path.toStdString(), 4096);
        std::int64_t mtime = 0;
        std::uint64_t size = 0;
        core::fileStamp(path.toStdString(), mtime, size);
        const core::VtfReadResult r = core::readVtfInfo(std::as_bytes(std::span(head.bytes)), size);
        if (!r.ok()) {
            return tr("unreadable: %1").arg(QString::fromStdString(r.error));
        }
        return QString::fromStdString(core::describeTexture(r.info)); // as `info --materials`
    }
    if (path.endsWith(QStringLiteral(".dds"), Qt::CaseInsensitive)) {
        const core::FileReadResult head = core::readFileHead(path.toStdString(), 256);
        const core::DdsReadResult r = core::readDdsInfo(std::as_bytes(std::span(head.bytes)));
        if (!r.ok()) {
            return tr("unreadable: %1").arg(QString::fromStdString(r.error));
        }
        return tr("%1 x %2 %3, DDS, %4 mips")
            .arg(r.width)
            .arg(r.height)
            .arg(QString::fromStdString(r.formatName))
            .arg(r.mipCount);
    }
    const QImageReader reader(path);
    const QSize s = reader.size();
    return tr("%1 x %2").arg(s.width()).arg(s.height());
}

void InspectorPanel::showTriangle(int triangle, int corner)
{
    auto model = m_document->primaryModel();
    const core::Mesh& mesh = model->mesh;
    if (triangle < 0 || std::size_t(triangle) >= mesh.triangleCount()) {
        return;
    }
    const std::size_t t = std::size_t(triangle);
    auto* g = group(tr("Triangle %1").arg(triangle));
    const std::uint32_t mat = mesh.triangleMaterials[t];
    row(g, tr("Material"),
        mat < mesh.materials.size() ? toQString(mesh.materials[mat].name) : QString());
    sourceRow(g, mesh.triangleWhere.size() > t ? mesh.triangleWhere[t] : core::SourceLoc{});
    for (int k = 0; k < 3; ++k) {
        const std::size_t c = t * 3 + std::size_t(k);
        const std::uint32_t p = mesh.cornerPoints[c];
        auto* cg = group(tr("Vertex %1%2").arg(k).arg(k == corner ? tr(" (nearest)") : QString()));
        row(cg, tr("Point"), QString::number(p));
        row(cg, tr("Position"), vec(mesh.pointPositions[p]));
        if (c < mesh.cornerNormals.size()) {
            row(cg, tr("Normal"), vec(mesh.cornerNormals[c]));
        }
        if (c < mesh.cornerUvs.size()) {
            row(cg, tr("UV"),
                QStringLiteral("%1  %2").arg(num(mesh.cornerUvs[c].x()),
                                             num(mesh.cornerUvs[c].y())));
        }
        QStringList weights;
        if (!mesh.influenceOffsets.empty()) {
            for (std::uint32_t i = mesh.influenceOffsets[p]; i < mesh.influenceOffsets[p + 1];
                 ++i) {
                const core::JointIndex j = mesh.influenceJoints[i];
                const QString name = j >= 0 && std::size_t(j) < model->skeleton.size()
                                         ? toQString(model->skeleton.names[std::size_t(j)])
                                         : QStringLiteral("?");
                weights << QStringLiteral("%1 %2").arg(name, num(mesh.influenceWeights[i]));
            }
        }
        if (weights.isEmpty() && p < mesh.pointParents.size() && mesh.pointParents[p] >= 0) {
            weights << tr("%1 1 (parent)")
                           .arg(
                               toQString(model->skeleton.names[std::size_t(mesh.pointParents[p])]));
        }
        row(cg, tr("Weights"), weights.join(QStringLiteral(", ")));
        if (corner == k) {
            cg->setForeground(0, QColor(255, 159, 28));
        }
    }
}

} // namespace rigscope::app
