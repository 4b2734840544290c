#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/model/model.h"
#include "core/pose/jiggle_pose.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// What `rigscope-cli pose` reports (issue 5): each bone's model-space (and local) transform at
// one frame. Shared by CLI and GUI.
struct PoseRequest {
    std::string file;     // the reference (or any file with a skeleton)
    std::string animFile; // empty: the file's own animation, if any; else the bind pose
    // A sequence of `file` by name (a QC project's $sequence, a compiled model's sequence):
    // poseFromFiles takes `--anim NAME` as one when no file has that name.
    std::string sequence;
    // More files, attached like a drop on the reference: VTAs give flex shapes, an animation
    // is taken as animFile (one animation at most).
    std::vector<std::string> attachFiles;
    double frame = 0;    // 0-based index; negative counts from the end; fractions blend
    bool byTime = false; // pose the frame the file numbers `time` (`--time T`) instead
    double time = 0;
    Interpolation mode = Interpolation::Stepped;
    Profile profile = Profile::Auto;
    bool vertices = false;                     // also skin every vertex (`--vertices`)
    WeightView weights = WeightView::Authored; // `--weights=authored|compiled` (CHECKS.md §5)
    // `--flex NAME=V`, by shape name, or a DMX controller name (Valve's 0..1 control scale);
    // `--flex NAME=L:R` sets a shape's left and right sides apart (a DMX stereo shape moves each
    // point by its stereo split, as the Flex dock's balance does).
    struct FlexValue {
        std::string name;
        float left = 0.0f;
        float right = std::numeric_limits<float>::quiet_NaN(); // NaN: mono (left for both)
        FlexValue(std::string n, float l, float r = std::numeric_limits<float>::quiet_NaN())
            : name(std::move(n)), left(l), right(r)
        {
        }
    };
    std::vector<FlexValue> flex;
    // `--flex-controller NAME=V` (a QC's flexcontroller, in its range) or `NAME=L,R` (the
    // controllers left_NAME and right_NAME): run through the QC's % rules (docs/flex.md).
    std::vector<FlexValue> flexControllers;
    std::string forceReader; // `--force-reader`: a FormatInfo id
    // `--jiggle`: jiggle bones move as the engine integrates them, the animation played from
    // its first frame at its fps (core/pose/jiggle_pose.h; the window's timeline does the
    // same). `jiggleJoints`: the reference's ($jigglebone of a QC, a compiled model's
    // procedural bones); poseFromFiles fills it.
    bool jiggle = false;
    std::vector<JiggleJoint> jiggleJoints;
};

struct BonePose {
    std::string name;
    JointIndex parent = kNoJoint;
    bool animated = false;        // false: holds the bind pose (not in the animation)
    Vec3 position = Vec3::Zero(); // model space
    Mat3 rotation = Mat3::Identity();
    Vec3 localPosition = Vec3::Zero();
    Mat3 localRotation = Mat3::Identity();
};

struct PoseReport {
    bool ok = false; // false: I/O, unknown format or bad frame (exit 2)
    std::string error;
    std::string file;
    std::string animFile; // the file the animation came from ("" = bind pose)
    std::string animName;
    bool bySequence = false; // posed the reference's sequence `animName` (--anim NAME)
    bool bindPose = true;
    double frame = 0; // resolved 0-based index
    std::size_t frameCount = 0;
    double time = 0; // the frame's time as written (`time N` / `FRAME f`)
    std::vector<BonePose> bones;
    std::vector<std::string> missingInReference; // animation bones the reference lacks
    std::vector<std::string> missingInAnimation; // reference bones the animation leaves alone
    std::vector<Diagnostic> diagnostics;         // reader errors + binding warnings / notes
    std::size_t jiggleBones = 0;                 // --jiggle: the bones simulated
    std::size_t errors = 0;                      // reader errors (exit 1)
    // --vertices: one skinned vertex per mesh point (SMD point i = corner i; XMODEL pool
    // index), flex applied in bind space first; normals empty for a CoD pool.
    bool withVertices = false;
    Profile profile = Profile::Source; // the profile `compiled` weights followed
    WeightView weights = WeightView::Authored;
    std::vector<Vec3> vertices, normals;
    std::vector<std::string> flexNames;  // every attached shape
    std::vector<float> flexWeights;      // per shape (0 unless given); stereo: the mean
    std::vector<float> flexWeightsRight; // per shape: the right side (the left in flexWeights
                                         // is then the left side) when the sides differ, else NaN
    std::vector<float> flexWeightsLeft;
    // A QC face: each flex descriptor's value after the rules and eyelids (flexControllers set).
    std::vector<std::pair<std::string, float>> flexDescriptors;
    bool face = false; // --flex-controller given: the JSON is an object with flexWeights
};

// Poses `reference` with `animation` (null: the reference's own animation, else bind pose).
struct QcFlexRig;
PoseReport poseFromModels(const Model& reference, const Model* animation, const PoseRequest& req,
                          const std::vector<const Model*>& flexModels = {},
                          const QcFlexRig* face = nullptr);
// Reads the files (I/O errors and unknown formats give ok == false) and poses them.
PoseReport poseFromFiles(const PoseRequest& req);

// One line per bone: index, name, parent, model-space position and row-major rotation; with
// vertices, a `v INDEX x y z` line per vertex after them.
std::string poseText(const PoseReport& r);
// [{name, parent, position:[x,y,z], rotation:[9, row-major]}, ...]; parent is a name or null.
// Also localPosition / localRotation and animated. With vertices: one object
// {"frame", "time", "bones": [...], "vertices": [[x,y,z], ...], "normals": [...], "flex": {...}}.
std::string poseJson(const PoseReport& r);

} // namespace rigscope::core
