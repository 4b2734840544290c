#pragma once

// What vphysics makes of one convex piece of a collision model. studiomdl hands each piece's
// vertices to CPhysicsCollision::ConvexFromVerts (vphysics physics_collide.cpp), which hulls
// them and then calls RebuildConvexFromPlanes with a merge distance of 0.01 (IVP units, metres):
// the hull is cut again from its triangles' planes, nearly parallel planes kept once
// (IVP_Halfspacesoup::add_halfspace: normals within 1e-4 of each other, the plane nearer the
// origin stays), its corners recomputed as the crossings of three planes that lie inside all of
// them, and crossings nearer each other than the merge distance joined
// (IVP_SurfaceBuilder_Halfspacesoup::convert_halfspacesoup_to_points). Where two nearly
// coplanar faces met at a shallow ridge the corner moves out along the kept plane, so a `.phy`
// piece can reach a little past its source vertices (ItemPile_Adrenaline_Phys.dmx of the L4D2
// Community Update: 20 source corners, 12 in the .phy, one of them 0.013 inch further out).

#include <vector>

#include "core/physics/convex_hull.h"

namespace rigscope::core {

// The corners of the piece vphysics keeps for `hull` (model units, inches), in the order the
// plane crossings find them. Empty when no three planes cross inside the others (a degenerate
// hull): the caller keeps the hull's own vertices then.
std::vector<Vec3d> vphysicsRebuiltCorners(const ConvexHull& hull);

} // namespace rigscope::core
