#pragma once

// The pose studiomdl gives a `$collisionmodel` (collisionmodel.cpp ConvertToWorldSpace:
// CalcBoneTransforms of g_panimation[0] at frame 0), and the collision mesh posed by it: the one
// path `compare`, `physics X.qc` and the window's Physics view take. A header of its own so that
// the compile's callers do not rebuild for it.

#include <cstdint>
#include <vector>

#include <Eigen/Geometry>

#include "core/model/animation.h"
#include "core/model/model.h"

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

// `$upaxis` and the angle of `$origin X Y Z ANGLE` as one turn (what the compile gives the roots,
// studiomdl's g_defaultrotation less its own 90 degrees about Z).
Eigen::Quaternionf qcUpAxisTurn(const QcProject& project);

// Where a `$staticprop`'s `$origin X Y Z` puts its points, in the viewer's space (studiomdl's 90
// degrees about Z left out): MakeStaticProp transforms every source's points by one matrix, the
// turn g_defaultrotation with g_defaultadjust as its translation, so X Y Z is added after the turn
// in the compiled model's space, where an animated model's roots have it taken off before
// (BuildRawTransforms). (x, y, z) -> (y, -x, z). Zero for any other model.
Vec3 qcStaticPropOffset(const QcProject& project);

// A rigid transform in double (rotation, then translation).
struct RigidXf {
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    Eigen::Vector3d t = Eigen::Vector3d::Zero();
    RigidXf operator*(const RigidXf& b) const { return {q * b.q, q * b.t + t}; }
    Eigen::Vector3d apply(const Vec3& v) const { return q * v.cast<double>() + t; }
    Eigen::Vector3d applyInverse(const Vec3& v) const
    {
        return q.conjugate() * (v.cast<double>() - t);
    }
};

// World transforms of a skeleton's joints from local Euler keys (`rotations`, `positions` per
// joint); parents come before children in a merged skeleton, others are taken as roots.
std::vector<RigidXf> eulerWorld(const Skeleton& sk, const std::vector<Vec3>& rotations,
                                const std::vector<Vec3>& positions);

// Collision file `ref` of `project` (read as `file`) where studiomdl hulls it, in the space of
// `compiled.model` (`$origin` taken off, its angle and `$upaxis` on, studiomdl's own 90 degrees
// not) and divided by the file's `$scale` again (the physics builder scales): each point into
// its bones' space through the file's own bind pose, then out through qcCollisionPose (the
// merged bind pose without one). A $staticprop: the points turned by qcUpAxisTurn, then moved
// by qcStaticPropOffset, as its body is (MakeStaticProp transforms every source's points, the
// collision model's too). A GoldSrc model, `$assumeworldspace`, a point on a bone
// the compiled skeleton lacks or a file without an Euler bind pose: the points as written less
// `$origin`. `posed`: whether the first animation posed them.
Model qcCollisionMesh(const QcProject& project, const QcCompiled& compiled, const Model& file,
                      std::int32_t ref, bool* posed = nullptr);

} // namespace rigscope::core
