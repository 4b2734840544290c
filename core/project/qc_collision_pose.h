#pragma once

// The pose studiomdl gives a `$collisionmodel` (collisionmodel.cpp ConvertToWorldSpace:
// CalcBoneTransforms of g_panimation[0] at frame 0). A header of its own so that the compile's
// callers do not rebuild for it.

#include "core/model/animation.h"

namespace rigscope::core {

struct QcProject;
struct QcCompiled;

// The first animation studiomdl reads (g_panimation fills as it parses: a `$animation` its file,
// a `$sequence` each file it names that is no $animation), at its first frame, on the compiled
// skeleton and in its space (`$scale`, `$origin` and its angle, `$upaxis` as for the sequences).
// No frame when there is none, when that animation is a delta (`subtract`, `delta`: its frame 0
// after processAnimations is not modelled) or for a $staticprop (MakeStaticProp keeps one
// identity frame).
Animation qcCollisionPose(const QcProject& project, const QcCompiled& compiled);

} // namespace rigscope::core
