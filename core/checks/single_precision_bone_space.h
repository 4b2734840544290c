#pragma once

// Points in their parent bone's space at the bind pose, computed in single precision as
// Afterburner's abstudiomdl does (docs/profiles.md "afterburner": the weld).

#include <vector>

#include "core/model/model.h"

namespace rigscope::core::checks {

// Each point of `m` in its parent bone's space as abstudiomdl's Build_Reference and
// Grab_Triangles compute it: every bone's Euler angles wrapped into [-pi, pi) and turned into
// degrees (Grab_Skeleton, Build_Reference), the rotation matrix built from those degrees with
// float sines and cosines and float products (AngleMatrix, AngleIMatrix), chained to the parent
// in float (R_ConcatTransforms), and each point's offset from its bone turned by the inverse in
// float (VectorTransform). Points of no bone, and skeletons whose bind pose is not local Euler
// keys, keep their model position. The caller truncates to 0.01 (lookup_vertex).
std::vector<Vec3> singlePrecisionBoneSpacePoints(const Model& m);

} // namespace rigscope::core::checks
