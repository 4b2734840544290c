#pragma once

// The one place a scene is posed, morphed and skinned into vertex buffers (issue 28): the
// window's viewport and `rigscope-cli pose --vertices` both call SceneEvaluator::evaluate, so
// they draw and print the same vertices. Qt-free; docs/architecture.md "Scene pipeline".

#include <cstddef>
#include <memory>
#include <map>
#include <mutex>
#include <utility>
#include <span>
#include <string>
#include <vector>

#include "core/diag/profile.h"
#include "core/model/model.h"
#include "core/pose/effective_weights.h"
#include "core/pose/flex_binding.h"
#include "core/pose/flex_controls.h"
#include "core/pose/pose_rig.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// One file's flex shapes bound to the reference's points, and the file (its DMX domination
// rules and stereo split).
struct FlexSet {
    std::shared_ptr<const Model> model;
    FlexTargets targets;
};

// What the user set per shape (all shapes of every FlexSet, in order): left and right values.
// A NaN right value means mono: the left value for both sides.
struct FlexSetting {
    std::vector<float> left;
    std::vector<float> right;
    bool anyNonZero() const noexcept;
};

// One evaluated frame of the reference model.
struct SceneFrame {
    bool posed = false;              // false: rest pose (joints are the bind pose)
    std::vector<Xform> joints;       // model space, per reference joint
    std::vector<Vec3> positions;     // per mesh point: morphed, then skinned
    std::vector<Vec3> cornerNormals; // per corner: the file's normal, posed, unit (zero: none)
    // Weight-change view, posed: how far each point lies from where the other weight view
    // puts it (model units). Empty unless asked for.
    std::vector<float> displacement;
};

struct EvaluateOptions {
    WeightView weights = WeightView::Authored;
    bool displacement = false; // also skin with the other view and fill SceneFrame::displacement
    bool normals = true;       // fill SceneFrame::cornerNormals
    Profile profile = Profile::Auto; // whose compiled weights; Auto: the evaluator's
};

class SceneEvaluator {
public:
    SceneEvaluator(std::shared_ptr<const Model> reference, std::vector<FlexSet> flex,
                   Profile profile);

    const Model& reference() const noexcept { return *m_reference; }
    const PoseRig& rig() const noexcept { return m_rig; }
    // The profile whose compiled weights WeightView::Compiled uses unless told otherwise.
    Profile profile() const noexcept { return m_profile; }

    std::size_t shapeCount() const noexcept { return m_names.size(); }
    const std::vector<std::string>& shapeNames() const noexcept { return m_names; }
    const std::vector<FlexSet>& flexSets() const noexcept { return m_flex; }
    // The shape index of `name` (first match), or SIZE_MAX.
    std::size_t shapeIndex(const std::string& name) const noexcept;
    // Per shape, per side, after each file's DMX domination rules.
    std::vector<SideWeights> shapeWeights(const FlexSetting& setting) const;
    // Sum of weighted shape deltas per mesh point (the stereo split applied per point): empty
    // when every weight is zero.
    std::vector<Vec3> morphOffsets(const FlexSetting& setting) const;

    // The per-point influences of a weight view (cached per profile; thread-safe). Auto: the
    // evaluator's profile.
    const Influences& influences(WeightView view, Profile profile = Profile::Auto) const;

    // `joints`: model-space matrices per reference joint (empty: rest pose).
    void evaluate(std::span<const Xform> joints, const FlexSetting& flex,
                  const EvaluateOptions& options, SceneFrame& out) const;

private:
    // Shape deltas summed per point (positions; normals too when asked and the files have them).
    void morph(const FlexSetting& setting, std::vector<Vec3>& positions,
               std::vector<Vec3>* normals) const;

    std::shared_ptr<const Model> m_reference;
    std::vector<FlexSet> m_flex;
    std::vector<std::string> m_names;
    std::vector<std::size_t> m_firstShape; // per FlexSet
    PoseRig m_rig;
    Profile m_profile;
    mutable std::mutex m_cacheMutex;
    mutable std::map<std::pair<Profile, WeightView>, std::unique_ptr<const Influences>> m_cache;
};

} // namespace rigscope::core
