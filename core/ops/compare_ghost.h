#pragma once

// The compiled model placed over its source, as the window's Compare view draws it (the
// ghost). A header of its own: only the Compare dock and its tests include it.

#include "core/model/model.h"

namespace rigscope::core {

// studiomdl stores an animated model's `.vvd` points as its reference files have them (scaled,
// nothing else: RemapVerticesToGlobalBones, InitRemappedVertex) and its bind pose likewise
// (BuildRawTransforms without $origin, its angle or the 90 degrees, which go to the sequences
// only); a source shown as the compiled prediction is turned by $origin's angle and $upaxis, and
// a decompiled one (Crowbar) may hold the points turned and a root bone turning them back. So
// each of `compiled`'s points goes into its bones' space through the compiled bind pose and out
// through the bone of the same name (case ignored) in `source` at its bind pose: the ghost lies
// on the source wherever the two agree in the bones' space, which is what the engine draws. A
// bone the source lacks moves as its nearest parent that it has; with none, it stays. Normals
// turn likewise. Not for a $staticprop (MakeStaticProp bakes its turn into the points and keeps
// one bone).
void placeGhostOnSource(Model& compiled, const Skeleton& source);

} // namespace rigscope::core
