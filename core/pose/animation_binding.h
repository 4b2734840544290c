#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/model/skeleton.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// How an animation's joints map onto a reference skeleton, by name (exact first, then ASCII
// case-insensitive; a duplicate name binds the first). Built once per attach, not per frame.
struct AnimationBinding {
    PoseKind kind = PoseKind::LocalEulerXYZ;
    std::vector<JointIndex> animJointOfRef;     // per reference joint; kNoJoint = not animated
    std::vector<JointIndex> refJointOfAnim;     // per animation joint; kNoJoint = not in reference
    std::vector<JointIndex> missingInReference; // animation joints with no reference bone
    std::vector<JointIndex> missingInAnimation; // reference joints the animation leaves alone
    // Parent-relative kinds: per reference joint, 1 when the animation hangs the bone under another
    // parent than the reference does (a Crowbar reference whose root bone was collapsed into the
    // pelvis, played with an animation that keeps it). Such a bone takes its motion through
    // the world, as studiomdl compiles it: local = world(reference parent)^-1 * world(bone in
    // the animation). Empty when every animated bone has the same parent in both.
    std::vector<std::uint8_t> viaWorld;
    std::vector<JointIndex> animParents; // the animation's parents (with viaWorld)
};

AnimationBinding bindAnimation(const Skeleton& reference, const Skeleton& animation, PoseKind kind);

// Puts one sampled animation frame onto the reference skeleton.
// - LocalEulerXYZ, LocalQuaternion: local[i] = sampled[animJoint] when animated, else bindLocal[i].
// `model` is
//   not written; run LocalToModelJob next.
// - ModelMatrix (XANIM parts, FORMATS.md 4.2): model[i] = sampled[animJoint] when animated,
//   else model[parent] * bindLocal[i] (the bone keeps its bind-local transform under its posed
//   parent). `local` is not written; run ModelToLocalJob next for L_b = W_parent^-1 * W_b.
struct RetargetJob {
    PoseKind kind = PoseKind::LocalEulerXYZ;
    std::span<const JointIndex> parents{};        // in: reference, parents[i] < i
    std::span<const JointIndex> animJointOfRef{}; // in: per reference joint
    std::span<const Xform> bindLocal{};           // in: per reference joint
    std::span<const Xform> sampled{};             // in: per animation joint (SampleJob output)
    std::span<const std::uint8_t> viaWorld{};     // in: per reference joint, or empty
    std::span<const JointIndex> animParents{};    // in: per animation joint (with viaWorld)
    std::span<Xform> animModel{};                 // scratch: per animation joint (with viaWorld)
    std::span<Xform> local{};                     // out (parent-relative kinds)
    std::span<Xform> model{};                     // out (matrix kind)
    [[nodiscard]] bool validate() const noexcept;
    bool run() const noexcept;

private:
    void runViaWorld() const noexcept;
};

} // namespace rigscope::core
