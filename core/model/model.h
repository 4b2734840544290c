#pragma once

#include <string>
#include <vector>

#include "core/model/animation.h"
#include "core/model/mesh.h"
#include "core/model/morph.h"
#include "core/model/skeleton.h"

namespace rigscope::core {

enum class ModelKind : std::uint8_t { Unknown, Reference, Animation, Flex };
enum class LineEnding : std::uint8_t { LF, CRLF, CR };

// DMX header line `<!-- dmx encoding ENC V format FMT W -->` (empty encoding for other formats).
struct DmxHeader {
    std::string encoding; // "binary", "keyvalues2"
    int encodingVersion = 0;
    std::string formatName; // "model", "tex", ...
    int formatVersion = 0;
};

// DMX DmeCombinationOperator control: a slider driving one raw flex shape (or two, left and
// right, when stereo). The GUI's Flex panel shows these when a model has them.
struct FlexController {
    std::string name;
    std::vector<std::string> rawControls; // delta-state names the control drives, in order
    bool stereo = false;
    bool eyelid = false;
    float min = 0.0f; // flexMin
    float max = 1.0f; // flexMax
    // controlValues holds (left, right, multilevel); kept as value = max(left, right) and
    // balance (0 = left only, 0.5 = both, 1 = right only), Valve's value / balance form.
    float value = 0.0f;
    float balance = 0.5f;
    std::vector<float> wrinkleScales; // one per raw control (wrinkleScales; 0 = no wrinkle)
    SourceLoc where;
    bool operator==(const FlexController& o) const noexcept
    {
        return name == o.name && rawControls == o.rawControls && stereo == o.stereo &&
               eyelid == o.eyelid && min == o.min && max == o.max;
    }
};

// DMX DmeCombinationDominationRule: while its dominator controls are on, the suppressed raw
// controls are scaled by (1 - the product of the dominators' values).
struct FlexDominationRule {
    std::vector<std::string> dominators;
    std::vector<std::string> suppressed;
    SourceLoc where;
    bool operator==(const FlexDominationRule& o) const noexcept
    {
        return dominators == o.dominators && suppressed == o.suppressed;
    }
};

// DMX DmeAttachment (a DmeDag whose shape is a DmeAttachment): a named point on a joint, as a
// QC `$attachment`. Position and rotation (Euler XYZ, radians) in the joint's space.
struct Attachment {
    std::string name;
    JointIndex joint = kNoJoint;
    Vec3 position = Vec3::Zero();
    Vec3 rotation = Vec3::Zero();
    bool rigid = false;        // isRigid
    bool worldAligned = false; // isWorldAligned
    SourceLoc where;
    bool operator==(const Attachment& o) const noexcept;
};

std::string_view kindName(ModelKind k) noexcept; // "reference", "animation", "flex", "unknown"

// A movable value: everything one file says, in contiguous arrays indexed by core indices.
// Errors remove content; they never break invariants (see verifyInvariants()).
struct Model {
    std::string format; // FormatInfo::id of the reader ("smd", "smdx", "xmodel", ...)
    int version = 1;    // as read (SMD 1/2/3, XMODEL 5/6/7, XANIM 3)
    ModelKind kind = ModelKind::Unknown;

    Skeleton skeleton;
    Mesh mesh;
    // SMD-family: one animation holding every frame of the skeleton block (frame 0 = bind
    // pose). XANIM: one animation of model-space part matrices. XMODEL: none.
    std::vector<Animation> animations;
    std::vector<VertexFrame> vertexFrames;          // VTA vertexanimation block
    std::vector<FlexShape> flexShapes;              // derived from vertexFrames by the builder
    std::vector<FlexController> flexControllers;    // DMX combination operator controls
    std::vector<FlexDominationRule> flexDominators; // DMX combination operator dominators
    // DMX stereo split per mesh point (the vertex data's balance: 0 = the left value moves it,
    // 1 = the right value); empty when the file has none (every point follows both).
    std::vector<float> pointBalance;
    std::vector<Attachment> attachments; // DMX DmeAttachment points
    DmxHeader dmx;                       // DMX only: the header line as read

    std::vector<std::string> headerComments; // comment lines before the first keyword
    LineEnding lineEnding = LineEnding::LF;

    bool operator==(const Model& o) const noexcept; // content only; locations ignored
};

// Checks every structural invariant (parents[i] < i, array lengths, indices in range, CSR
// offsets monotone, ...). Returns an empty string when the model is sound, else a description
// of the first violation. Tests run it on every model every reader returns.
std::string verifyInvariants(const Model& m);

// Axis-aligned bounds of the mesh points (or of the bind-pose joints when there is no mesh).
struct Bounds {
    Vec3 min = Vec3::Zero();
    Vec3 max = Vec3::Zero();
    bool valid = false;
    // The one bounds grower: a point with a NaN or infinite coordinate is left out.
    void grow(const Vec3& p) noexcept
    {
        if (!p.allFinite()) {
            return;
        }
        min = valid ? Vec3(min.cwiseMin(p)) : p;
        max = valid ? Vec3(max.cwiseMax(p)) : p;
        valid = true;
    }
    void grow(const Bounds& b) noexcept
    {
        if (b.valid) {
            grow(b.min);
            grow(b.max);
        }
    }
};
Bounds meshBounds(const Model& m);

} // namespace rigscope::core
