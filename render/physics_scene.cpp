#include "render/physics_scene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include <Qt3DCore/QTransform>
#include <Qt3DRender/QLayer>

#include "core/formats/mdl/compiled_model.h"
#include "core/physics/physics_model.h"
#include "core/pose/pose_rig.h"
#include "core/text/ascii.h"
#include "render/geometry.h"
#include "render/materials.h"

namespace rigscope::render {

namespace {

int jointByName(const core::Skeleton& skeleton, const std::string& name)
{
    const std::string lower = core::asciiLower(name);
    for (std::size_t i = 0; i < skeleton.names.size(); ++i) {
        if (core::asciiLower(skeleton.names[i]) == lower) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int solidByName(const PhysicsDrawModel& m, const std::string& name)
{
    const std::string lower = core::asciiLower(name);
    for (std::size_t i = 0; i < m.solids.size(); ++i) {
        if (!name.empty() && core::asciiLower(m.solids[i].name) == lower) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

QVector3D toQt(const Eigen::Vector3d& v)
{
    return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}

QMatrix4x4 toQt(const Eigen::Affine3d& t)
{
    QMatrix4x4 m;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            m(r, c) = static_cast<float>(t.matrix()(r, c));
        }
    }
    return m;
}

// Faces of one piece (model space at bind), flat normals, for TriangleGeometry.
std::vector<float> faceVertices(const PhysicsDrawPiece& p, const Eigen::Affine3d& toModel)
{
    std::vector<float> out;
    out.reserve(p.triangles.size() * 3 * TriangleGeometry::kStride);
    for (const auto& t : p.triangles) {
        if (t[0] >= p.vertices.size() || t[1] >= p.vertices.size() || t[2] >= p.vertices.size()) {
            continue;
        }
        const Eigen::Vector3d a = toModel * p.vertices[t[0]];
        const Eigen::Vector3d b = toModel * p.vertices[t[1]];
        const Eigen::Vector3d c = toModel * p.vertices[t[2]];
        Eigen::Vector3d n = (b - a).cross(c - a);
        n = n.norm() > 0 ? Eigen::Vector3d(n.normalized()) : Eigen::Vector3d::UnitZ();
        for (const Eigen::Vector3d* v : {&a, &b, &c}) {
            for (double x :
                 {v->x(), v->y(), v->z(), n.x(), n.y(), n.z(), 0.0, 0.0, 0.0, 0.0, 0.0}) {
                out.push_back(static_cast<float>(x));
            }
        }
    }
    return out;
}

// The hull's feature edges: those between triangles that do not lie in one plane (Qhull's
// triangulated facets would otherwise draw every diagonal).
void addEdges(LineList& lines, const PhysicsDrawPiece& p, const Eigen::Affine3d& toModel,
              const QColor& color)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Eigen::Vector3d>> edges;
    for (const auto& t : p.triangles) {
        if (t[0] >= p.vertices.size() || t[1] >= p.vertices.size() || t[2] >= p.vertices.size()) {
            continue;
        }
        const Eigen::Vector3d n = (p.vertices[t[1]] - p.vertices[t[0]])
                                      .cross(p.vertices[t[2]] - p.vertices[t[0]])
                                      .normalized();
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[static_cast<std::size_t>(k)];
            const std::uint32_t b = t[static_cast<std::size_t>((k + 1) % 3)];
            edges[{std::min(a, b), std::max(a, b)}].push_back(n);
        }
    }
    for (const auto& [e, normals] : edges) {
        const bool feature = normals.size() != 2 || !normals[0].allFinite() ||
                             !normals[1].allFinite() || normals[0].dot(normals[1]) < 0.999;
        if (feature) {
            lines.add(toQt(Eigen::Vector3d(toModel * p.vertices[e.first])),
                      toQt(Eigen::Vector3d(toModel * p.vertices[e.second])), color);
        }
    }
}

} // namespace

std::size_t PhysicsDrawModel::pieceCount() const
{
    std::size_t n = 0;
    for (const PhysicsDrawSolid& s : solids) {
        n += s.pieces.size();
    }
    return n;
}

PhysicsDrawModel physicsDrawModel(const core::PhysicsModel& physics, const core::Skeleton& skeleton)
{
    PhysicsDrawModel m;
    for (const core::PhysicsSolid& s : physics.solids) {
        PhysicsDrawSolid d;
        d.name = s.name;
        d.joint = physics.jointed ? jointByName(skeleton, s.name) : -1;
        d.boneToModel = s.boneToModel;
        d.mass = s.mass;
        for (const core::PhysicsPiece& p : s.pieces) {
            d.pieces.push_back({p.hull.vertices, p.hull.triangles});
        }
        m.solids.push_back(std::move(d));
    }
    for (std::size_t i = 0; i < physics.solids.size(); ++i) {
        m.solids[i].parent = solidByName(m, physics.solids[i].parent);
    }
    for (const core::PhysicsConstraint& c : physics.constraints) {
        if (c.child >= 0 && static_cast<std::size_t>(c.child) < m.solids.size()) {
            PhysicsDrawSolid& s = m.solids[static_cast<std::size_t>(c.child)];
            s.hasLimits = true;
            s.min = c.min;
            s.max = c.max;
        }
    }
    return m;
}

PhysicsDrawModel physicsDrawModel(const core::CompiledPhysics& physics,
                                  const core::Skeleton& skeleton)
{
    PhysicsDrawModel m;
    const core::PoseRig rig = core::makePoseRig(skeleton);
    for (const core::CompiledPhysicsSolid& s : physics.solids) {
        PhysicsDrawSolid d;
        d.name = s.name;
        d.joint = jointByName(skeleton, s.name);
        if (d.joint >= 0 && static_cast<std::size_t>(d.joint) < rig.bindModel.size()) {
            d.boneToModel = rig.bindModel[static_cast<std::size_t>(d.joint)].cast<double>();
        }
        d.mass = s.mass;
        for (const core::CompiledConvexPiece& p : s.pieces) {
            PhysicsDrawPiece piece;
            for (const core::Vec3& v : p.vertices) {
                piece.vertices.push_back(v.cast<double>());
            }
            for (const auto& t : p.triangles) {
                if (t[0] >= 0 && t[1] >= 0 && t[2] >= 0) {
                    piece.triangles.push_back({static_cast<std::uint32_t>(t[0]),
                                               static_cast<std::uint32_t>(t[1]),
                                               static_cast<std::uint32_t>(t[2])});
                }
            }
            d.pieces.push_back(std::move(piece));
        }
        m.solids.push_back(std::move(d));
    }
    for (std::size_t i = 0; i < physics.solids.size(); ++i) {
        m.solids[i].parent = solidByName(m, physics.solids[i].parent);
    }
    for (const core::CompiledRagdollConstraint& c : physics.constraints) {
        if (c.child >= 0 && static_cast<std::size_t>(c.child) < m.solids.size()) {
            PhysicsDrawSolid& s = m.solids[static_cast<std::size_t>(c.child)];
            s.hasLimits = true;
            for (int a = 0; a < 3; ++a) {
                s.min[static_cast<std::size_t>(a)] = c.min[a];
                s.max[static_cast<std::size_t>(a)] = c.max[a];
            }
        }
    }
    return m;
}

QColor physicsSolidColor(std::size_t solid, std::size_t piece)
{
    // Hues spread by the golden angle; pieces alternate lighter and darker.
    const double hue = std::fmod(0.08 + 0.618033988749895 * static_cast<double>(solid), 1.0);
    QColor c = QColor::fromHsvF(static_cast<float>(hue), 0.75f, 0.95f);
    if (piece > 0) {
        const int step = static_cast<int>((piece + 1) / 2) % 4;
        c = piece % 2 ? c.darker(100 + 22 * step) : c.lighter(100 + 15 * step);
    }
    return c;
}

QColor physicsAxisColor(int axis)
{
    switch (axis) {
    case 0:
        return {235, 70, 70};
    case 1:
        return {90, 215, 90};
    default:
        return {80, 130, 245};
    }
}

PhysicsScene::PhysicsScene(PhysicsDrawModel model, const SceneLayers& layers,
                           Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent), m_model(std::move(model))
{
    // The hulls are see-through: the model stays visible inside its collision model, as in
    // Valve's model viewer. Outward-wound (core::convexHull), so culling their back faces
    // leaves one layer of colour over the model.
    auto* faces = new Qt3DCore::QEntity(this);
    faces->addComponent(layers.translucent);
    auto* overlay = new Qt3DCore::QEntity(this);
    overlay->addComponent(layers.overlay);
    Eigen::AlignedBox3d box;
    for (std::size_t s = 0; s < m_model.solids.size(); ++s) {
        const PhysicsDrawSolid& solid = m_model.solids[s];
        m_delta.push_back(Eigen::Affine3d::Identity());
        // A transform is not shareable in Qt3D: one for the faces, one for the edges.
        auto* solidFaces = new Qt3DCore::QEntity(faces);
        auto* faceTransform = new Qt3DCore::QTransform(solidFaces);
        solidFaces->addComponent(faceTransform);
        auto* solidEdges = new Qt3DCore::QEntity(overlay);
        auto* edgeTransform = new Qt3DCore::QTransform(solidEdges);
        solidEdges->addComponent(edgeTransform);
        m_transforms.push_back(faceTransform);
        m_transforms.push_back(edgeTransform);
        LineList lines;
        for (std::size_t p = 0; p < solid.pieces.size(); ++p) {
            const QColor color = physicsSolidColor(s, p);
            auto* e = new Qt3DCore::QEntity(solidFaces);
            e->setObjectName(QStringLiteral("hull %1.%2").arg(s).arg(p));
            auto* geometry = new TriangleGeometry(e);
            geometry->setVertices(faceVertices(solid.pieces[p], solid.boneToModel));
            e->addComponent(geometry);
            QColor see = color;
            see.setAlphaF(kPhysicsHullOpacity);
            auto* material = new ShadedMaterial(see, e);
            ShadedMaterial::Surface surface;
            surface.blend = ShadedMaterial::Blend::Alpha;
            surface.cullBack = true;
            material->setSurface(surface);
            e->addComponent(material);
            m_hulls.push_back(e);
            addEdges(lines, solid.pieces[p], solid.boneToModel, color.darker(160));
            for (const Eigen::Vector3d& v : solid.pieces[p].vertices) {
                box.extend(solid.boneToModel * v);
            }
        }
        auto* edges = new LineGeometry(solidEdges);
        edges->setLines(lines);
        solidEdges->addComponent(edges);
        solidEdges->addComponent(new LineMaterial(DepthMode::OnTop, solidEdges));
    }
    m_size = box.isEmpty() ? 1.0f : static_cast<float>(box.diagonal().norm());
    auto* arcs = new Qt3DCore::QEntity(overlay);
    m_arcs = new LineGeometry(arcs);
    arcs->addComponent(m_arcs);
    arcs->addComponent(new LineMaterial(DepthMode::OnTop, arcs));
}

void PhysicsScene::setPose(const std::vector<Eigen::Affine3f>& world,
                           const std::vector<Eigen::Affine3f>& bind)
{
    for (std::size_t s = 0; s < m_model.solids.size(); ++s) {
        const int j = m_model.solids[s].joint;
        Eigen::Affine3d delta = Eigen::Affine3d::Identity();
        if (j >= 0 && static_cast<std::size_t>(j) < world.size() &&
            static_cast<std::size_t>(j) < bind.size()) {
            delta = world[static_cast<std::size_t>(j)].cast<double>() *
                    bind[static_cast<std::size_t>(j)].cast<double>().inverse();
        }
        m_delta[s] = delta;
        m_transforms[2 * s]->setMatrix(toQt(delta));
        m_transforms[2 * s + 1]->setMatrix(toQt(delta));
    }
    updateArcs();
}

void PhysicsScene::setSelectedJoint(int joint)
{
    m_selected = -1;
    for (std::size_t s = 0; s < m_model.solids.size(); ++s) {
        if (joint >= 0 && m_model.solids[s].joint == joint) {
            m_selected = static_cast<int>(s);
        }
    }
    updateArcs();
}

void PhysicsScene::updateArcs()
{
    LineList lines;
    m_arcSegments = 0;
    if (m_selected >= 0) {
        const auto s = static_cast<std::size_t>(m_selected);
        const PhysicsDrawSolid& solid = m_model.solids[s];
        if (solid.hasLimits) {
            // The constraint's frame: the child bone at its origin (as posed now).
            const Eigen::Affine3d frame = m_delta[s] * solid.boneToModel;
            const Eigen::Matrix3d r = frame.linear();
            const Eigen::Vector3d o = frame.translation();
            const double radius = 0.08 * m_size;
            constexpr double kDeg = std::numbers::pi / 180.0;
            for (int a = 0; a < 3; ++a) {
                const Eigen::Vector3d axis = r.col(a).normalized();
                const Eigen::Vector3d u = r.col((a + 1) % 3).normalized();
                const Eigen::Vector3d v = axis.cross(u);
                double lo = solid.min[static_cast<std::size_t>(a)];
                double hi = solid.max[static_cast<std::size_t>(a)];
                if (lo > hi || hi - lo >= 360) {
                    lo = -180;
                    hi = 180;
                }
                const QColor color = physicsAxisColor(a);
                const double rad = radius * (1.0 + 0.12 * a);
                auto at = [&](double deg) {
                    return toQt(Eigen::Vector3d(
                        o + rad * (std::cos(deg * kDeg) * u + std::sin(deg * kDeg) * v)));
                };
                // The limits' spokes and the arc between them (a locked axis: one spoke).
                lines.add(toQt(o), at(lo), color);
                ++m_arcSegments;
                if (hi > lo) {
                    lines.add(toQt(o), at(hi), color);
                    const int steps = std::max(2, static_cast<int>((hi - lo) / 5.0));
                    for (int k = 0; k < steps; ++k) {
                        lines.add(at(lo + (hi - lo) * k / steps),
                                  at(lo + (hi - lo) * (k + 1) / steps), color);
                    }
                    m_arcSegments += static_cast<std::size_t>(steps) + 1;
                }
            }
        }
    }
    m_arcs->setLines(lines);
}

} // namespace rigscope::render
