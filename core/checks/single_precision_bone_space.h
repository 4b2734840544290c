#pragma once

// Points in their parent bone's space at the bind pose, computed in single precision as the
// GoldSrc compilers do: Afterburner's abstudiomdl, a 64-bit SSE build, and Valve's HL1 studiomdl,
// a 32-bit x87 build (docs/profiles.md "The weld in single precision").

#include <cstdint>
#include <vector>

#include "core/model/model.h"

namespace rigscope::core::checks {

// How the compiler's float expressions are evaluated: Sse rounds every product and sum to float
// (abstudiomdl); X87 evaluates each expression in double and rounds it to float where the code
// stores it (Valve's studiomdl.exe, precision control at 53 bits).
enum class FloatArithmetic : std::uint8_t { Sse, X87 };

// Each point of `m` in its parent bone's space as studiomdl's Build_Reference and
// Grab_Triangles compute it: every bone's Euler angles wrapped into [-pi, pi) and turned into
// degrees (Grab_Skeleton, Build_Reference), the rotation matrix built from those degrees with
// float sines and cosines (AngleMatrix, AngleIMatrix), chained to the parent (R_ConcatTransforms),
// and each point's offset from its bone turned by the inverse (VectorTransform), each float
// expression evaluated as `arithmetic` says, written over `out` (the model positions, one a
// point). Points of no bone keep theirs. The caller has checked that the bind pose is local Euler
// keys, a rotation and a position for each bone, and truncates to 0.01 (lookup_vertex).
void floatBoneSpacePoints(const Model& m, FloatArithmetic arithmetic, std::vector<Vec3>& out);

} // namespace rigscope::core::checks
