#pragma once

// The Physics view (issue 31 item 3): the collision model's convex hulls drawn over the model,
// one colour per solid and a lighter or darker shade per piece with their edges on top, the
// selected bone's joint limits as arcs (x red, y green, z blue, as the axes). The hulls follow
// the pose: each solid moves with its joint (a drop test's rest pose too).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <QtGui/QColor>
#include <Qt3DCore/QEntity>

#include "render/model_scene.h"

namespace Qt3DCore {
class QTransform;
}

namespace rigscope::core {
struct PhysicsModel;
struct CompiledPhysics;
} // namespace rigscope::core

namespace rigscope::render {

class LineGeometry;

struct PhysicsDrawPiece {
    std::vector<Eigen::Vector3d> vertices;               // the solid's bone frame
    std::vector<std::array<std::uint32_t, 3>> triangles; // into vertices
};

struct PhysicsDrawSolid {
    std::string name;
    int joint = -1;  // the displayed model's joint it moves with (-1: stays put)
    int parent = -1; // solid index
    Eigen::Affine3d boneToModel = Eigen::Affine3d::Identity(); // the pieces' frame at bind
    std::vector<PhysicsDrawPiece> pieces;
    float mass = 0;
    // The joint's limits to its parent, degrees per axis (min > max: free); none for the root.
    bool hasLimits = false;
    std::array<float, 3> min{}, max{};
};

struct PhysicsDrawModel {
    std::vector<PhysicsDrawSolid> solids;
    std::size_t pieceCount() const;
};

// From a QC's predicted model or a compiled .phy; joints are found by name in `skeleton`.
PhysicsDrawModel physicsDrawModel(const core::PhysicsModel& physics,
                                  const core::Skeleton& skeleton);
PhysicsDrawModel physicsDrawModel(const core::CompiledPhysics& physics,
                                  const core::Skeleton& skeleton);

// How opaque a hull's faces are drawn (the model shows through; the edges are drawn whole).
inline constexpr float kPhysicsHullOpacity = 0.6f;
// Solid `solid`'s colour, `piece` shading it lighter / darker in turn.
QColor physicsSolidColor(std::size_t solid, std::size_t piece = 0);
// The arcs' colours: x red, y green, z blue (the axes gizmo's).
QColor physicsAxisColor(int axis);

class PhysicsScene : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    PhysicsScene(PhysicsDrawModel model, const SceneLayers& layers,
                 Qt3DCore::QNode* parent = nullptr);

    const PhysicsDrawModel& drawModel() const { return m_model; }
    // One entity per convex piece (its faces).
    const std::vector<Qt3DCore::QEntity*>& hullEntities() const { return m_hulls; }
    // Model-space joint matrices now and at bind (the displayed model's): each solid moves by
    // world * bind^-1 of its joint. Empty `world`: the bind pose.
    void setPose(const std::vector<Eigen::Affine3f>& world,
                 const std::vector<Eigen::Affine3f>& bind);
    // The solid of `joint` shows its limits (-1 or a joint without a solid: none).
    void setSelectedJoint(int joint);
    int selectedSolid() const { return m_selected; }
    // The segments of the limit arcs drawn now (0 without a selection).
    std::size_t arcSegments() const { return m_arcSegments; }

private:
    void updateArcs();

    PhysicsDrawModel m_model;
    std::vector<Qt3DCore::QEntity*> m_hulls;
    std::vector<Qt3DCore::QTransform*> m_transforms; // per solid: faces, edges
    std::vector<Eigen::Affine3d> m_delta;            // per solid: now * bind^-1
    LineGeometry* m_arcs = nullptr;
    int m_selected = -1;
    std::size_t m_arcSegments = 0;
    float m_size = 1;
};

} // namespace rigscope::render
