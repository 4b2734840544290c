#pragma once

#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/formats/profile.h"
#include "core/model/model.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// What `rigscope-cli pose` reports (issue 5): each bone's model-space (and local) transform at
// one frame. Shared by CLI and GUI.
struct PoseRequest {
    std::string file;     // the reference (or any file with a skeleton)
    std::string animFile; // empty: the file's own animation, if any; else the bind pose
    double frame = 0;     // 0-based index; negative counts from the end; fractions blend
    Interpolation mode = Interpolation::Stepped;
    Profile profile = Profile::Auto;
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
    bool bindPose = true;
    double frame = 0; // resolved 0-based index
    std::size_t frameCount = 0;
    double time = 0; // the frame's time as written (`time N` / `FRAME f`)
    std::vector<BonePose> bones;
    std::vector<std::string> missingInReference; // animation bones the reference lacks
    std::vector<std::string> missingInAnimation; // reference bones the animation leaves alone
    std::vector<Diagnostic> diagnostics;         // reader errors + binding warnings / notes
    std::size_t errors = 0;                      // reader errors (exit 1)
};

// Poses `reference` with `animation` (null: the reference's own animation, else bind pose).
PoseReport poseFromModels(const Model& reference, const Model* animation, const PoseRequest& req);
// Reads the files (I/O errors and unknown formats give ok == false) and poses them.
PoseReport poseFromFiles(const PoseRequest& req);

// One line per bone: index, name, parent, model-space position and row-major rotation.
std::string poseText(const PoseReport& r);
// [{name, parent, position:[x,y,z], rotation:[9, row-major]}, ...]; parent is a name or null.
// Also localPosition / localRotation and animated.
std::string poseJson(const PoseReport& r);

} // namespace rigscope::core
