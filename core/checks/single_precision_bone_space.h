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
// float (VectorTransform), written over `out` (the model positions, one a point). Points of no
// bone keep theirs. The caller has checked that the bind pose is local Euler keys, a rotation
// and a position for each bone, and truncates to 0.01 (lookup_vertex).
void singlePrecisionBoneSpacePoints(const Model& m, std::vector<Vec3>& out);

} // namespace rigscope::core::checks
