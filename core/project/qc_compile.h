#pragma once

#include <string>
#include <vector>

#include "core/formats/qc/qc_reader.h"
#include "core/formats/registry.h"
#include "core/pose/qc_flex.h"

namespace rigscope::core {

// "The compiled model" of PROJECTS.md §1.4, as one document: every body / bodygroup choice
// merged on one skeleton by bone name (with the $definebone bones), $scale and $origin applied,
// one animation per $sequence on that skeleton, flex shapes from `flexfile` VTAs. Mesh
// `objects` hold one entry per choice ("group/choice"), so a viewer can show one choice per
// group (QcCompiled::choiceObjects).
struct QcCompiled {
    Model model;
    bool hasModel = false; // at least one reference file was read

    // Each distinct file read (resolved path), with what its reader returned.
    struct FileRead {
        std::string path;
        ReadResult result;
    };
    std::vector<FileRead> reads;
    std::vector<std::int32_t> fileRead; // per QcProject::files entry: into `reads`, -1 = not read

    // Per bodygroup, per choice: the mesh object, -1 for blank / missing / unreadable choices.
    std::vector<std::vector<std::int32_t>> choiceObjects;
    // Per sequence: the model animation, -1 when it has none (missing file, declared only).
    std::vector<std::int32_t> sequenceAnimation;
    // The later files of blend sequences (each sequence's second source on), merged as its
    // first, and the sequence each belongs to: not played on the timeline, but read, checked and
    // counted in the hull.
    std::vector<Animation> blendAnimations;
    std::vector<std::int32_t> blendSequence;
    // Per QcProject::attachments / hitboxes: the merged joint (kNoJoint when unknown).
    std::vector<JointIndex> attachmentJoints;
    std::vector<JointIndex> hitboxJoints;

    // Bones studiomdl leaves out of the compiled model (PROJECTS.md §1.4, Source SDK 2013
    // simplify.cpp TagUsedBones / BuildGlobalBonetable): no compiled vertex weight of any body
    // choice lies on them or on a descendant, and (Source) no non-rigid $attachment, $ikchain,
    // $bonemerge, eyeball, mouth or $definebone keeps them. GoldSrc keeps vertex bones only.
    // `model.skeleton` no longer has them; `mergedSkeleton` is the skeleton before the drop, and
    // `keptJoints[i]` the `mergedSkeleton` index of `model.skeleton` joint i.
    struct DroppedBone {
        std::string name;
        std::string file; // the file that first declared it (resolved path)
        SourceLoc where;  // its line there
    };
    std::vector<DroppedBone> droppedBones;
    Skeleton mergedSkeleton;
    std::vector<std::string> mergedJointFile; // per mergedSkeleton joint: the file declaring it
    std::vector<JointIndex> keptJoints;

    // Where each $model's shapes sit in `model.flexShapes` (its flexfile VTAs, a DMX body's
    // delta states), for the face rig (core/pose/qc_flex.h).
    std::vector<QcFlexShapeSource> flexSources;

    // qc.unknown-bone, qc.skin-material-unused, qc.lod-unknown-model, qc.unread-file.
    std::vector<Diagnostic> diagnostics;
};

// What to show of a project. `choices` holds one choice index per bodygroup (-1 = none, a
// missing entry = 0): the mesh keeps only those choices (what the game draws for one body
// value; the skeleton still merges every choice). Empty `choices` and `allChoices` keep every
// choice (checks and budgets). `skin` picks a $texturegroup row: the first row's materials are
// renamed to that row's.
struct QcCompileOptions {
    bool allChoices = true;
    std::vector<std::int32_t> choices;
    std::int32_t skin = 0;
    // The LOD shown: 0 the models as written, N the Nth `$lod` block's `replacemodel` files in
    // place of the ones they replace (`removemodel`: nothing). Ignored with `allChoices`.
    std::int32_t lod = 0;
};

// Every point's parent joint and every linked point's one link (weight 1) on joint 0: what
// studiomdl's MakeStaticProp leaves of a `$staticprop` mesh (simplify.cpp).
void rigidOnFirstJoint(Mesh& mesh);

// The `$scale` studiomdl applies to what the script reads at `at`: the last `$scale` read
// before it, 1 when none. studiomdl scales a file as it loads it (Option_Studio, Load_Source:
// scale_vertex) and a `$hbox` as it reads it (Cmd_Hitbox), so a `$scale` after a `$body` leaves
// that body as written.
float qcScaleAt(const QcProject& project, const QcWhere& at);
// The scale of file reference `ref`: that of the first reference to the same file (Load_Source
// loads a file once and hands the same source back).
float qcFileScale(const QcProject& project, std::int32_t ref);

// Reads every resolved file of the project through `fs` and core::readAny, and merges them.
QcCompiled compileQc(const QcProject& project, QcFileSystem& fs,
                     const QcCompileOptions& options = {});

} // namespace rigscope::core
