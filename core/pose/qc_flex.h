#pragma once

// A QC project's face as studiomdl compiles it (docs/flex.md): the flex controllers, the flex
// descriptors (the shapes' names, `localvar`s, eyelids, mouths), the `%` rules as programs of
// the compiled model's op codes, and which shape each descriptor moves. Evaluated as the engine
// runs it: controllers → rules → descriptors → eyelids (from the eyes' pitch) → shape weights.
// Pinned to studiomdl's Cmd_Model / Option_Flexcontroller / Option_Flexrule / Option_Flex /
// Option_Eyelid / Option_DmxEyelid (Source SDK 2013 and the L4D2-era studiomdl) and the engine's
// R_StudioEyeballPosition / R_StudioEyelidFACS, read, never copied.

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/diag/diagnostic.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/qc/qc_project.h"
#include "core/model/model.h"
#include "core/pose/flex_controls.h"

namespace rigscope::core {

// Where a `$model`'s shapes sit among the compiled model's shapes (QcCompiled::flexSources):
// a flexfile VTA (one shape per frame after the base, `times` the frames' numbers) or a DMX
// body's own delta states (named; `fileRef` the body's file).
struct QcFlexShapeSource {
    std::int32_t fileRef = -1;
    std::int32_t body = -1;
    bool dmx = false;
    std::size_t firstShape = 0;
    std::size_t count = 0;
    std::vector<double> times; // VTA: per shape, the frame's `time`
};

struct QcFlexRig {
    // controllers (name, type, range), descriptors and rules as a compiled model holds them,
    // so core::evaluateFlexRules runs them.
    CompiledModelInfo program;
    std::vector<QcWhere> controllerAt; // per controller
    std::vector<QcWhere> descAt;       // per descriptor: where it was declared
    std::vector<std::int32_t> ruleOf;  // per descriptor: its rule (the last), -1 = none
    std::vector<QcWhere> ruleAt;       // per program rule
    // A shape key: descriptor → shape, through studiomdl's ramp (target0..3). Stereo keys
    // move the shape's left side by `left` and its right side by `right`.
    struct Key {
        std::int32_t left = -1, right = -1; // descriptors; mono: both the same
        std::size_t shape = std::numeric_limits<std::size_t>::max(); // compiled model shape
        std::array<float, 4> targets{0.0f, 1.0f, 10.0f, 11.0f};
        std::string shapeName;
    };
    std::vector<Key> keys;
    // An eyeball (studiomdl's Option_Eyeball) with its lids (Option_Eyelid / Option_DmxEyelid).
    struct Eye {
        std::string name, bone;
        std::int32_t joint = -1;      // in the compiled skeleton
        Vec3 position = Vec3::Zero(); // model space at the reference pose
        float radius = 0.5f;
        float zOffset = 0.0f;   // tan(angle)
        float irisScale = 1.0f; // 1 / the pupil scale written
        std::int32_t upperLid = -1, lowerLid = -1;
        std::array<std::int32_t, 3> upperDescs{-1, -1, -1}, lowerDescs{-1, -1, -1};
        std::array<float, 3> upperTargets{}, lowerTargets{};
        QcWhere at;
    };
    std::vector<Eye> eyes;
    // A DMX body whose combination operator studiomdl turns into controllers and rules itself
    // (no `noautodmxrules`): those are not in `program` (the Flex dock drives them as DMX
    // controls).
    bool autoDmxRules = false;
    std::vector<Diagnostic> diagnostics; // flex.* findings, located in the scripts

    bool active() const noexcept
    {
        return !program.flexControllers.empty() || !program.flexRuleList.empty();
    }
    std::int32_t controllerIndex(const std::string& name) const; // case-insensitive, -1
    std::int32_t descIndex(const std::string& name) const;
};

// Builds the rig from the project and its compiled model (`model`: QcCompiled::model and
// `sources` QcCompiled::flexSources). `maxControllers`: the profile's limit (0 = none).
QcFlexRig buildQcFlexRig(const QcProject& project, const Model& model,
                         const std::vector<QcFlexShapeSource>& sources,
                         std::size_t maxControllers = 96);

// Where the eyes look: a point in model space. Without one they look straight ahead (−Y of
// the reference pose, where Source characters face), far away.
struct QcEyeTarget {
    bool set = false;
    Vec3 point = Vec3::Zero();
};

// One eye as the engine places it (R_StudioEyeballPosition): centre, look direction (the iris
// faces it) and up, carried by its bone. `boneDelta` is how the posed bone moved from the
// reference pose (posed[bone] * bind[bone]^-1; identity: the reference pose): the engine keeps
// the eye's centre and up in its bone's space, so both follow an animated head, and without a
// target the eye looks along the head's forward (−Y of the reference pose, turned with it).
struct QcEyeState {
    Vec3 centre = Vec3::Zero();
    Vec3 forward = Vec3(0, -1, 0);
    Vec3 up = Vec3(0, 0, 1);
    Vec3 headUp = Vec3(0, 0, 1); // the bone's up (model +Z at the reference pose): lid heights
    float radius = 0.5f;
    float irisRadius = 0.25f;
};
QcEyeState eyeState(const QcFlexRig::Eye& eye, const QcEyeTarget& target,
                    const Eigen::Affine3f& boneDelta = Eigen::Affine3f::Identity());
// Per eye of `eyes`, posed[joint] * inverseBind[joint] (identity when the pose is empty or the
// eye has no joint): the deltas eyeState and evaluateQcFlex take.
std::vector<Eigen::Affine3f> eyeBoneDeltas(const std::vector<QcFlexRig::Eye>& eyes,
                                           const std::vector<Eigen::Affine3f>& pose,
                                           const std::vector<Eigen::Affine3f>& inverseBind);

struct QcFlexState {
    std::vector<float> controllers;  // clamped into their ranges
    std::vector<float> descriptors;  // after the rules and the eyelids
    std::vector<SideWeights> shapes; // per compiled model shape
};
// `controllers` by index (NaN or missing: at rest, 0 clamped into the range); `shapeCount`
// the compiled model's shapes; `eyeDeltas` one per rig eye (eyeBoneDeltas; empty: the
// reference pose): the eyelids follow the eyes' pitch relative to the posed head.
QcFlexState evaluateQcFlex(const QcFlexRig& rig, const std::vector<float>& controllers,
                           std::size_t shapeCount, const QcEyeTarget& target = {},
                           const std::vector<Eigen::Affine3f>& eyeDeltas = {});

// "left_X" / "right_X" pairs of controllers (studiomdl's stereo convention): for each
// controller, the index of its other side (-1 when mono).
std::vector<std::int32_t> stereoPartners(const QcFlexRig& rig);

} // namespace rigscope::core
