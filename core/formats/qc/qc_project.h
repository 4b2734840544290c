#pragma once

// What a studiomdl script (.qc / .qci) says, command by command, each with its file and line.
// Filled by readQc() (qc_reader.h); files are resolved by core/project/qc_resolve.h.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/profile.h"
#include "core/model/jiggle.h"
#include "core/model/types.h"

namespace rigscope::core {

// A place in the project: the script file (QC or an included .qci) and the line.
struct QcWhere {
    std::string file;
    SourceLoc where;
};

// A path argument as written (variables expanded), e.g. `$cdmaterials "models\props\"`.
struct QcPath {
    std::string path;
    QcWhere at;
};

// Every command read, in order (includes and macros expanded), with its raw arguments.
struct QcCommand {
    std::string name;              // lower case, without '$' ("bodygroup")
    std::vector<std::string> args; // tokens on the command's line (block contents not included)
    bool hasBlock = false;
    bool known = true; // false: qc.unknown-command was noted
    QcWhere at;
};

// A file the script names. `resolved` is filled by resolution (empty = not found).
struct QcFileRef {
    enum class Kind : std::uint8_t { Model, Animation, Flex, Lod, Collision, Include, Other };
    Kind kind = Kind::Model;
    std::string path;      // as written (after variable expansion)
    std::string command;   // "body", "model", "studio", "sequence", "flexfile", "replacemodel", ...
    std::string searchDir; // the $cd / $pushd folder in force where it was named ("" = none)
    std::string scriptDir; // folder of the script file that named it
    QcWhere at;
    std::string resolved;      // path on disk, empty when missing
    bool caseMismatch = false; // found only by a case-insensitive match
};
std::string_view qcFileKindName(QcFileRef::Kind k) noexcept;

struct QcBodyChoice {
    std::string path; // "" for blank
    bool blank = false;
    std::int32_t fileRef = -1; // into QcProject::files
    QcWhere at;
};

// One `$body`, `$model` or `$bodygroup`.
struct QcBodygroup {
    std::string name;
    std::string command; // "body", "model", "bodygroup"
    std::vector<QcBodyChoice> choices;
    std::vector<std::int32_t> flexFiles; // `flexfile` / `vcafile` refs ($model blocks)
    QcWhere at;
};

// Options shared by `$sequence` and `$animation`.
struct QcAnimOptions {
    float fps = 30.0f;
    bool fpsSet = false;
    bool loop = false;
    std::int32_t frameStart = -1, frameEnd = -1; // `frames A B` / `frame A B` (-1 = all)
    bool delta = false, predelta = false, autoplay = false, hidden = false, snap = false;
    bool post = false;    // `post`: deltas applied after the pose (D = B^-1 * Q)
    std::string subtract; // `subtract ANIM FRAME`: the animation subtracted ("" = none)
    std::int32_t subtractFrame = 0;
    std::string activity; // ACT_… name
    std::int32_t activityWeight = 0;
};

struct QcSequence {
    std::string name;
    std::vector<std::string> sources;   // files or $animation names, as written
    std::vector<std::int32_t> fileRefs; // per source: into QcProject::files, -1 = an animation
    QcAnimOptions options;
    bool declared = false; // $declaresequence placeholder
    QcWhere at;
};

struct QcAnimation {
    std::string name;
    std::string source;
    std::int32_t fileRef = -1;
    QcAnimOptions options;
    QcWhere at;
};

struct QcAttachment {
    std::string name, bone;
    Vec3 offset = Vec3::Zero();
    Vec3 rotation = Vec3::Zero(); // `rotate p y r`, degrees
    bool absolute = false, rigid = false;
    QcWhere at;
};

struct QcHitbox {
    std::int32_t group = 0;
    std::string bone;
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();
    std::string name;
    std::string set; // the $hboxset in force ("" = default)
    QcWhere at;
};

struct QcIkChain {
    std::string name, bone;
    Vec3 knee = Vec3::Zero();
    QcWhere at;
};

// `$jigglebone NAME { is_flexible { ... } ... }`: the parameters studiomdl compiles (defaults,
// clamps and units as its Cmd_JiggleBone applies them).
struct QcJiggleBone {
    std::string bone;
    QcWhere at; // the bone name
    JiggleParams params;
};

struct QcDefineBone {
    std::string name, parent;
    Vec3 position = Vec3::Zero();
    Vec3 rotation = Vec3::Zero(); // degrees, as written
    QcWhere at;
};

// A `$texturegroup`: rows of materials; row 0 names the materials the meshes use.
struct QcTextureGroup {
    std::string name;
    std::vector<std::vector<std::string>> rows;
    std::vector<QcWhere> rowAt;
    QcWhere at;
};

struct QcLod {
    std::int32_t threshold = 0;
    bool shadow = false;
    struct Replace {
        std::string from, to;
        std::int32_t fileRef = -1; // `to`, into QcProject::files (-1 for removemodel)
        QcWhere at;
    };
    std::vector<Replace> replaceModels;
    std::vector<Replace> replaceMaterials; // replacematerial "old" "new" (`at`: the new name)
    // replacebone "from" "to" and bonetreecollapse "bone", as written (the bones are also
    // QcProject::boneRefs, checked there).
    std::vector<std::pair<std::string, std::string>> replaceBones;
    std::vector<std::string> boneTreeCollapses;
    QcWhere at;
};

// A bone named by a command ($attachment, $hbox, bonetreecollapse, ...): checked against the
// merged skeleton (qc.unknown-bone).
struct QcBoneRef {
    std::string bone;
    std::string command;
    QcWhere at;
};

// One `$command` inside a `$collisionmodel` / `$collisionjoints` block (`$mass 20`,
// `$jointconstrain "bip_head" x limit -30 30 1`), its arguments as written on its line.
struct QcCollisionOption {
    std::string name;              // lower case, without '$' ("jointconstrain")
    std::vector<std::string> args; // the tokens after it on its line, up to the next `$command`
    QcWhere at;
};

// The project's collision model: `$collisionmodel FILE { ... }` (one rigid solid) or
// `$collisionjoints FILE { ... }` (a ragdoll: one solid per bone). The last command wins, as in
// studiomdl; the options of every such block accumulate in order.
struct QcCollision {
    bool present = false;
    bool jointed = false;      // $collisionjoints
    std::int32_t fileRef = -1; // into QcProject::files
    std::vector<QcCollisionOption> options;
    QcWhere at;
};

// The face of a `$model` block (docs/qc.md "Faces"), as studiomdl's Cmd_Model reads it: flex
// controllers, flex keys (`flexfile` blocks), eyeballs, eyelids, `localvar`s, mouths and `%`
// rules. studiomdl keeps one list of each for the whole model; `seq` is the order it met them
// (flex descriptors are numbered in that order). `body` is the QcProject::bodygroups index of
// the `$model` that holds it.
struct QcFlexControllerDef {
    std::string type; // the first word: "eyes", "phoneme", ...
    std::string name;
    float min = 0.0f, max = 1.0f; // `range MIN MAX` before the name (0..1 without)
    std::int32_t body = -1;
    std::uint32_t seq = 0;
    QcWhere at; // the name
};

// `flex NAME frame N`, `flexpair NAME SPLIT frame N` or `defaultflex frame N` in a flexfile
// block: frame N of the VTA becomes the shape of descriptor NAME (a pair: NAMER and NAMEL).
struct QcFlexKey {
    std::string name; // "default" for defaultflex
    bool pair = false;
    bool isDefault = false;
    float split = 0.0f;
    std::int32_t frame = 0;
    float position = 1.0f; // `position P`: the descriptor value where the shape is whole
    float decay = 1.0f;
    std::int32_t fileRef = -1; // the flexfile (into QcProject::files), -1 = none yet
    std::int32_t body = -1;
    std::uint32_t seq = 0;
    QcWhere at; // the name (defaultflex: the keyword)
};

// `eyeball NAME BONE X Y Z MATERIAL DIAMETER ANGLE IRIS_MATERIAL IRIS_SCALE`: a sphere of the
// eye mesh (MATERIAL), its centre in model space at the reference pose.
struct QcEyeball {
    std::string name, bone;
    Vec3 position = Vec3::Zero();
    std::string material;
    float diameter = 1.0f;
    float angle = 0.0f; // degrees the iris turns off the look direction (Z angle offset)
    std::string irisMaterial;
    float irisScale = 1.0f; // the pupil scale as written
    std::int32_t body = -1;
    QcWhere at;
};

// `eyelid upper_right FILE lowerer F T neutral F T raiser F T split S eyeball NAME` (VTA
// frames) or `dmxeyelid upper FILE lowerer DELTA T neutral DELTA T raiser DELTA T
// righteyeball R lefteyeball L` (DMX delta states): the lid shapes of the eyes, driven by the
// lid's height, which the engine computes from the eye's pitch (docs/qc.md "Eyes").
struct QcEyelid {
    bool dmx = false;
    std::string type; // VTA: the descriptor ("upper_right"); DMX: "upper" or "lower"
    std::string file;
    std::int32_t fileRef = -1;
    std::array<std::string, 3> shapes;    // lowerer, neutral, raiser: DMX delta names
    std::array<std::int32_t, 3> frames{}; // VTA frames
    std::array<float, 3> targets{};       // lid heights, units above the eye centre
    std::array<bool, 3> given{};          // which of the three were written
    float split = 0.0f;
    std::string eyeball;                   // VTA: the eye it belongs to ("" = every eye)
    std::string rightEyeball, leftEyeball; // DMX
    std::int32_t body = -1;
    std::uint32_t seq = 0;
    QcWhere at;
};

// `localvar A B ...` (a descriptor with no shape) and `mouth N NAME BONE X Y Z`.
struct QcFlexDescriptorDef {
    std::string name;
    bool mouth = false;
    std::string bone; // mouth
    std::int32_t body = -1;
    std::uint32_t seq = 0;
    QcWhere at;
};

// One token of a `%` rule's expression, split as studiomdl's GetExprToken splits them.
struct QcFlexToken {
    enum class Kind : std::uint8_t {
        Number,
        Name,       // a controller
        Descriptor, // `%name`
        Add,
        Sub,
        Mul,
        Div,
        Open,
        Close,
        Comma,
        Max,
        Min,
        Other, // a character studiomdl reads as an (unknown) controller name
    };
    Kind kind = Kind::Other;
    std::string text;
    float value = 0.0f;
    QcWhere at;
};

// `%NAME = EXPRESSION`: the rule that sets descriptor NAME.
struct QcFlexRule {
    std::string target;
    std::vector<QcFlexToken> tokens;
    std::int32_t body = -1;
    std::uint32_t seq = 0;
    QcWhere at; // the `%NAME` token
};

struct QcFace {
    std::vector<QcFlexControllerDef> controllers;
    std::vector<QcFlexKey> keys;
    std::vector<QcEyeball> eyeballs;
    std::vector<QcEyelid> eyelids;
    std::vector<QcFlexDescriptorDef> descriptors; // localvar and mouth
    std::vector<QcFlexRule> rules;
    std::vector<std::int32_t> noAutoDmxRules; // bodies with `noautodmxrules`
    bool empty() const noexcept
    {
        return controllers.empty() && keys.empty() && eyeballs.empty() && eyelids.empty() &&
               descriptors.empty() && rules.empty();
    }
};

struct QcProject {
    std::string file;                  // the .qc as given
    Profile profile = Profile::Source; // GoldSrc when GoldSrc-only commands appear
    std::string modelName;
    QcWhere modelNameAt;
    std::vector<QcPath> includes;      // every $include, in order
    std::vector<QcPath> includeModels; // $includemodel (compiled .mdl, not resolvable)
    std::vector<QcCommand> commands;
    std::vector<QcFileRef> files;
    std::vector<QcBodygroup> bodygroups;
    std::vector<QcSequence> sequences;
    std::vector<QcAnimation> animations;
    std::vector<QcAttachment> attachments;
    std::vector<QcHitbox> hitboxes;
    std::vector<QcIkChain> ikChains;
    std::vector<QcDefineBone> defineBones;
    std::vector<QcBoneRef> boneRefs;
    std::vector<QcJiggleBone> jiggleBones;
    QcFace face;
    std::vector<QcLod> lods;
    QcCollision collision;
    // Material folders of `$cdmaterials` (Source; relative to materials/, as written, `\` kept)
    // and `$cdtexture` (GoldSrc), one entry per path argument.
    std::vector<QcPath> cdMaterials;
    std::vector<QcPath> cdTextures;
    std::vector<QcTextureGroup> textureGroups;                       // skins
    std::vector<std::pair<std::string, std::string>> texRenderModes; // GoldSrc: texture, mode
    float scale = 1.0f;
    bool scaleSet = false;
    Vec3 origin = Vec3::Zero();
    float originRotation = 0.0f; // degrees about Z
    std::string upAxis;          // "" = Z
    // `$staticprop` (Source): studiomdl collapses every bone into one, `static_prop` (docs/qc.md).
    bool staticProp = false;
    std::vector<Diagnostic> diagnostics; // reading and pre-processing, located in the scripts

    std::size_t skinCount() const noexcept
    {
        return textureGroups.empty() ? 1 : textureGroups.front().rows.size();
    }
};

} // namespace rigscope::core
