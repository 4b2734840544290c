#pragma once

// A scene: the files opened together (a reference, the animations and flex files attached to
// it), assembled once (issue 28). The window's Document and the CLI verbs build it with the
// same functions, so they choose the same reference, list the same animations and shapes, and
// pose with the same SceneEvaluator. docs/architecture.md "Scene pipeline".

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/pose/animation_binding.h"
#include "core/pose/scene_evaluator.h"

namespace rigscope::core {

struct QcReport;

// One opened file as the scene sees it.
struct SceneSource {
    std::string path;
    std::shared_ptr<const Model> model; // null: unreadable
    std::shared_ptr<const QcReport> qc; // a QC project: one animation per $sequence
    // Given by name (the command line, the files opened together in the window), not found by
    // searching a folder.
    bool named = true;
};

// The reference a scene shows (docs/cli.md "Which reference"): the first file whose model is a
// reference (it has triangles), else the first file with any model; -1 when none.
int chooseReference(const std::vector<SceneSource>& files);

// The one rule that pairs an animation, a flex file or an XANIM with its reference
// (docs/cli.md "Which reference"): per file, the index in `files` of its reference, -1 for a
// reference itself, a file that wants none (a QC, a compiled model) and one nothing fits.
// Candidates: the references of the file's own folder, then (for a named file) the named
// references of other folders. Among them: the one with the same file stem, else the one that
// shares most bones under the same parents, then by name alone (ties: the first). A named file
// attaches to a named reference by one shared bone name; a file found by searching a folder
// needs at least half of its bones under the same parents. XANIM parts pair with XMODELs by name.
std::vector<int> pairReferences(const std::vector<SceneSource>& files);

// An animation the scene can play: animations[index] of files[file], bound to the reference.
struct SceneAnimation {
    std::string name; // the sequence's name (QC, .mdl), else the file's name without extension
    int file = -1;
    int index = 0;
    AnimationBinding binding;
};

struct SceneFlexFile {
    int file = -1;
    std::size_t firstShape = 0; // its first shape in SceneEvaluator::shapeNames()
};

// What selecting a diagnostic's element means in the scene (indices of the reference model).
struct SceneElement {
    enum class Kind : std::uint8_t { None, Joint, Material, Triangle, Flex, Frame };
    Kind kind = Kind::None;
    int index = -1;
    int corner = -1; // Triangle: 0..2; Frame: the frame (index = the animation)
};

struct Scene {
    std::vector<SceneSource> files;
    int reference = -1;
    std::vector<SceneAnimation> animations;
    std::vector<SceneFlexFile> flexFiles;
    std::shared_ptr<SceneEvaluator> evaluator; // null without a reference
    std::vector<int> weightedVertexCounts;     // per reference joint: points it moves
    std::vector<int> materialTriangleCounts;   // per reference material

    const Model* referenceModel() const noexcept
    {
        return reference >= 0 ? files[static_cast<std::size_t>(reference)].model.get() : nullptr;
    }
    const Animation& animation(std::size_t i) const
    {
        const SceneAnimation& a = animations[i];
        return files[static_cast<std::size_t>(a.file)]
            .model->animations[static_cast<std::size_t>(a.index)];
    }
    // The scene element a diagnostic of files[file] points at (bones of other files match by
    // name; an SMD vertex is corner 3t+c, an XMODEL one a pool point). None when not shown.
    SceneElement elementFor(int file, const ElementRef& element) const;
};

// Assembles the scene of `files` (the reference chosen by chooseReference): its animations,
// flex shapes bound to the reference's points, counts, and the evaluator for `profile`.
Scene assembleScene(std::vector<SceneSource> files, Profile profile);

// The file name without its last extension ("walk.smd" -> "walk").
std::string animationNameOf(const std::string& path);

} // namespace rigscope::core
