#pragma once

// Compiled models (issue 29): what studiomdl wrote for the Source engine (.mdl 44-49 with its
// .vvd vertices and .vtx strips) and for GoldSrc (.mdl 10 with T.mdl / 01.mdl). The readers
// take the bytes of each file; they never open files (core/io does). Layouts: docs/compiled.md.

#include <array>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/registry.h"
#include "core/model/jiggle.h"

namespace rigscope::core {

// One input file: its bytes and the name diagnostics print. `present` false = not found.
struct CompiledFile {
    std::string_view bytes;
    std::string fileName;
    bool present = false;
};

struct CompiledBone {
    std::string name;
    std::int32_t parent = -1;
    std::array<std::int32_t, 6> controllers{-1, -1, -1, -1, -1, -1};
    Vec3 position = Vec3::Zero();
    Vec4 quaternion = Vec4(0, 0, 0, 1); // x, y, z, w as stored
    Vec3 rotation = Vec3::Zero();       // RadianEuler (x, y, z), GoldSrc: the value triple
    Vec3 positionScale = Vec3::Zero();
    Vec3 rotationScale = Vec3::Zero();
    std::array<float, 12> poseToBone{}; // 3x4 rows, Source only
    std::int32_t flags = 0;
    std::int32_t procType = 0;
    std::optional<JiggleParams> jiggle; // procType 5: what $jigglebone compiled to
    std::string surfaceProp;
    std::uint64_t offset = 0;
};

struct CompiledBoneController {
    std::int32_t bone = -1;
    std::int32_t type = 0;
    float start = 0, end = 0;
    std::int32_t rest = 0;
    std::int32_t inputField = 0; // GoldSrc: index
};

struct CompiledAttachment {
    std::string name;
    std::int32_t bone = -1;
    std::uint32_t flags = 0;
    std::array<float, 12> local{}; // 3x4 rows (GoldSrc: origin in 3, 7, 11)
};

struct CompiledHitbox {
    std::int32_t bone = -1;
    std::int32_t group = 0;
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();
    std::string name;
};

struct CompiledHitboxSet {
    std::string name;
    std::vector<CompiledHitbox> boxes;
};

struct CompiledMesh {
    std::int32_t material = 0; // skin reference
    std::int32_t vertices = 0;
    std::int32_t vertexOffset = 0;
    std::int32_t flexes = 0;
    std::vector<std::int32_t> lodVertices;  // Source: per LOD from the .mdl (8)
    std::vector<std::int32_t> lodTriangles; // per LOD from the .vtx
};

struct CompiledEyeball {
    std::string name;
    std::int32_t bone = -1;
    Vec3 origin = Vec3::Zero();
    float radius = 0;
    std::int32_t texture = 0;
};

struct CompiledSubModel {
    std::string name;
    float radius = 0;
    std::int32_t vertices = 0;              // the .mdl's count (LOD 0)
    std::int32_t vertexIndex = 0;           // byte offset of its first vertex in the .vvd data
    std::vector<std::int32_t> lodVertices;  // per LOD: distinct vertices the .vtx strips use
    std::vector<std::int32_t> lodTriangles; // per LOD: triangles of the .vtx strips
    std::int32_t triangles = 0;             // LOD 0 (GoldSrc: from the tri commands)
    std::vector<CompiledMesh> meshes;
    std::vector<CompiledEyeball> eyeballs;
};

struct CompiledBodypart {
    std::string name;
    std::int32_t base = 1;
    std::vector<CompiledSubModel> models;
};

struct CompiledEvent {
    float cycle = 0; // Source: 0..1; GoldSrc: the frame
    std::int32_t event = 0;
    std::int32_t type = 0;
    std::string options;
    std::string name; // Source v49 named events
};

struct CompiledSequence {
    std::string name;
    std::string activityName;
    std::int32_t activity = 0;
    std::int32_t activityWeight = 0;
    std::int32_t flags = 0;
    bool looping = false;
    bool delta = false;
    float fps = 0;
    std::int32_t frames = 0;
    Vec3 bbMin = Vec3::Zero(), bbMax = Vec3::Zero();
    std::int32_t blends = 0;
    std::array<std::int32_t, 2> groupSize{1, 1};
    std::vector<std::int32_t> animations; // Source: animdesc indices, groupSize[0] x [1]
    std::vector<CompiledEvent> events;
    std::string keyValues;
    std::int32_t sequenceGroup = 0; // GoldSrc
};

struct CompiledAnimation {
    std::string name;
    float fps = 0;
    std::int32_t flags = 0;
    std::int32_t frames = 0;
    std::int32_t animBlock = 0;
    std::int32_t animIndex = 0;
    std::int32_t sectionFrames = 0;
    // Flag 0x40 of version 49 files (CS:GO): the data is stored frame by frame (constants
    // once, then every frame's values) rather than bone by bone.
    bool frameEncoded = false;
    std::uint64_t offset = 0; // of the animdesc
};

struct CompiledPoseParameter {
    std::string name;
    std::int32_t flags = 0;
    float start = 0, end = 0, loop = 0;
};

struct CompiledFlexController {
    std::string type;
    std::string name;
    float min = 0, max = 1;
};

struct CompiledTexture {
    std::string name;
    std::int32_t flags = 0;
    // GoldSrc only: 8-bit indices (width x height) and the 256 x RGB palette. Empty when the
    // texture lives in NAMEt.mdl and that was not given.
    std::int32_t width = 0, height = 0;
    std::vector<std::uint8_t> indices;
    std::vector<std::uint8_t> palette;
};

struct CompiledIncludeModel {
    std::string label;
    std::string name;
};

// ---- .phy (collision model, docs/compiled.md "`.phy`") ----

// One convex piece of a solid (an IVP compact ledge): its corners in the space of the solid's
// bone, in model units (inches; the file stores metres on IVP's axes), and its triangles as
// indices into `vertices` (the file's order, counter-clockwise seen from outside).
struct CompiledConvexPiece {
    std::vector<Vec3> vertices;
    std::vector<std::array<std::int32_t, 3>> triangles;
    std::uint64_t offset = 0; // of the ledge in the .phy
};

// A key and its value as the text section writes them ("mass" "20.000000").
struct CompiledKeyValue {
    std::string key, value;
};

// A block of the text section: `solid`, `ragdollconstraint`, `collisionrules`, `editparams`,
// `animatedfriction`, ... with its pairs in file order.
struct CompiledPhysicsBlock {
    std::string type;
    std::vector<CompiledKeyValue> values;
    std::uint64_t offset = 0; // of the block's name in the .phy
    // The value of `key` (the first one), `fallback` when absent.
    std::string value(std::string_view key, std::string_view fallback = {}) const;
};

struct CompiledPhysicsSolid {
    std::int32_t index = 0; // order in the binary section
    std::vector<CompiledConvexPiece> pieces;
    // Ledges of the ledge tree's inner nodes (hulls around several pieces): counted, not kept.
    std::int32_t hullLedges = 0;
    std::uint64_t offset = 0; // of the solid's size field

    // From the text section's `solid` block with this index (defaults when it is missing).
    std::string name;   // a bone (ragdolls) or the collision mesh's name
    std::string parent; // the parent solid's name (ragdolls), empty for the root
    std::string surfaceProp;
    float mass = 0, damping = 0, rotDamping = 0, inertia = 1, volume = 0, massBias = 1;
    std::int32_t bone = -1; // the bone named `name` (-1: no bone of that name)
};

struct CompiledRagdollConstraint {
    std::int32_t parent = -1, child = -1;        // solid indices
    Vec3 min = Vec3::Zero(), max = Vec3::Zero(); // degrees, per axis
    Vec3 friction = Vec3::Zero();
};

struct CompiledPhysics {
    bool present = false; // a .phy was given and its header read
    std::int32_t headerSize = 0, id = 0, solidCount = 0, checksum = 0;
    std::vector<CompiledPhysicsSolid> solids;
    std::vector<CompiledRagdollConstraint> constraints;
    std::vector<std::array<std::int32_t, 2>> collisionPairs; // collisionrules "collisionpair"
    bool selfCollisions = true;                              // collisionrules "selfcollisions"
    std::string rootName;                                    // editparams
    float totalMass = 0;
    bool concave = false;
    std::vector<CompiledPhysicsBlock> blocks; // every text block as written

    std::size_t convexPieces() const noexcept;
    float mass() const noexcept; // the solids' masses summed
};

// ---- flex rules, vertex animations, IK (docs/compiled.md "Flex rules, vertex animations, IK")
// ----

// One operation of a flex rule's stack program (studio.h STUDIO_CONST = 1 ...
// STUDIO_DME_UPPER_EYELID = 21): `index` and `value` are the same 4 bytes read as an integer and as
// a float.
struct CompiledFlexOp {
    std::int32_t op = 0;
    std::int32_t index = 0;
    float value = 0;
};

struct CompiledFlexRule {
    std::int32_t flex = -1; // the flex descriptor it sets
    std::vector<CompiledFlexOp> ops;
    // The rule as a QC $flexrule would write it ("%smile = (smile * (1 - blink))"); empty
    // when the program does not decode (reported).
    std::string expression;
    std::uint64_t offset = 0;
};

// One moved vertex of a vertex animation: the .vvd vertex (a Model point), its position and
// normal deltas, wrinkle delta (wrinkle animations), speed and side (0 left .. 255 right).
struct CompiledVertexDelta {
    std::int32_t vertex = 0;
    Vec3 position = Vec3::Zero(), normal = Vec3::Zero();
    float wrinkle = 0;
    std::uint8_t speed = 0, side = 0;
};

// A vertex animation of one mesh (mstudioflex_t): the flex descriptor it moves (and its
// right-hand pair for stereo flexes, 0 = none), the descriptor's weight ramp and the deltas.
struct CompiledFlex {
    std::int32_t bodypart = 0, model = 0, mesh = 0;
    std::int32_t desc = -1, pair = 0;
    std::array<float, 4> targets{};
    std::int32_t type = 0; // 0 plain, 1 with wrinkle deltas
    std::vector<CompiledVertexDelta> deltas;
    std::uint64_t offset = 0;
};

struct CompiledIkChain {
    std::string name;
    std::int32_t linkType = 0;
    std::vector<std::int32_t> bones; // root to end
    std::vector<Vec3> kneeDirections;
    std::uint64_t offset = 0;
};

struct CompiledIkLock {
    std::int32_t chain = -1;
    float positionWeight = 0, localRotationWeight = 0;
    std::int32_t flags = 0;
};

// Everything of a compiled model the source-format Model has no place for (the CLI's
// `info --json` keys of issue 29, the outline, the Bodygroups dock).
struct CompiledModelInfo {
    std::string engine; // "source" or "goldsrc"
    // "afterburner": a GoldSrc layout under the magic 'AFTB' (abstudiomdl, docs/compiled.md
    // "Afterburner"); empty for Valve's own.
    std::string variant;
    std::int32_t version = 0;
    std::int32_t checksum = 0;
    std::string name; // the name stored in the header
    std::int32_t flags = 0;
    Vec3 eyePosition = Vec3::Zero();
    Vec3 illumPosition = Vec3::Zero();
    Vec3 hullMin = Vec3::Zero(), hullMax = Vec3::Zero();
    Vec3 viewMin = Vec3::Zero(), viewMax = Vec3::Zero();
    float mass = 0;
    std::string surfaceProp;
    std::string keyValues;
    std::int32_t illumPositionAttachment = 0; // studiohdr2: 1-based, 0 = none

    std::vector<CompiledBone> bones;
    std::vector<CompiledBoneController> boneControllers;
    std::vector<CompiledAttachment> attachments;
    std::vector<CompiledHitboxSet> hitboxSets;
    std::vector<CompiledTexture> textures; // materials, in file order
    std::vector<std::string> cdMaterials;
    std::int32_t skinReferences = 0;
    std::vector<std::vector<std::int32_t>> skins; // per family: texture per reference
    std::vector<CompiledBodypart> bodyparts;
    std::vector<CompiledAnimation> animations;
    std::vector<CompiledSequence> sequences;
    std::vector<CompiledPoseParameter> poseParameters;
    std::vector<std::string> flexDescs;
    std::vector<CompiledFlexController> flexControllers;
    std::int32_t flexRules = 0;
    std::int32_t ikChains = 0;
    std::int32_t ikLocks = 0;
    std::vector<CompiledIncludeModel> includeModels;
    std::string animBlockName;
    std::int32_t animBlocks = 0;
    std::int32_t sequenceGroups = 0; // GoldSrc

    // The .phy beside a Source model (`physics.present` false without one).
    CompiledPhysics physics;

    // Flex rules in file order, the meshes' vertex animations (also played through
    // Model::vertexFrames / flexShapes: one shape per flex descriptor they move), IK chains and
    // IK locks (`flexRules`, `ikChains`, `ikLocks` above are their counts in the header).
    std::vector<CompiledFlexRule> flexRuleList;
    std::vector<CompiledFlex> flexes;
    std::vector<CompiledIkChain> ikChainList;
    std::vector<CompiledIkLock> ikLockList;

    // Companions as read.
    std::int32_t lods = 1; // LODs of the .vtx (1 without one)
    std::array<std::int32_t, 8> vvdLodVertices{};
    std::int32_t vvdLods = 0;
    bool hasVvd = false, hasVtx = false;

    // Per bodypart, per model: the mesh object of Model::mesh (-1 = no triangles read).
    std::vector<std::vector<std::int32_t>> choiceObjects;
    // Per sequence: the Model animation decoded for it (-1 = none).
    std::vector<std::int32_t> sequenceAnimation;

    std::size_t hitboxCount() const noexcept;
    // `skins` as material names (one list per family).
    std::vector<std::vector<std::string>> skinMaterialNames() const;
};

struct CompiledReadOptions {
    std::int32_t lod = 0; // the .vtx LOD whose triangles fill Model::mesh
    // The skin family whose materials the triangles take (out of range: family 0), as the
    // engine's `skin` field picks a row of the skin table.
    std::int32_t skin = 0;
    bool animations = true; // decode sequences into Model::animations
    // A bound on decoded keys (frames x bones) per animation; longer ones are cut with a note.
    std::size_t maxAnimationKeys = std::size_t(1) << 24;
};

struct CompiledReadResult {
    Model model;
    CompiledModelInfo info;
    bool hasModel = false;
    std::vector<Diagnostic> diagnostics;
    bool hasErrors() const noexcept { return countSeverity(diagnostics, Severity::Error) > 0; }
};

// "IDST" with version 44..49 (Source) or 10 (GoldSrc), "AFTB" with version 10 (Afterburner's
// GoldSrc layout): 100; "IDSQ" (a GoldSrc sequence group): 90; else 0.
int sniffCompiledMdl(std::string_view head) noexcept;

struct SourceMdlFiles {
    CompiledFile mdl;
    CompiledFile vvd;
    CompiledFile vtx; // .dx90.vtx, else .dx80.vtx, else .sw.vtx, else .vtx
    CompiledFile phy; // collision solids and their text section (info.physics)
    CompiledFile ani; // $animblocksize data (animation blocks 1..n)
};
CompiledReadResult readSourceMdl(const SourceMdlFiles& files, const ReadContext& ctx,
                                 const CompiledReadOptions& options = {});

// The .phy alone: header, solids, convex pieces and the text section into `out`; the bones
// name the solids' bones (may be empty); `checksum` is the .mdl's (its mismatch is reported
// unless `checkChecksum` is false). Diagnostics are appended to `diagnostics`.
void readSourcePhy(const CompiledFile& phy, const std::vector<CompiledBone>& bones,
                   std::int32_t checksum, bool checkChecksum, CompiledPhysics& out,
                   std::vector<Diagnostic>& diagnostics);

struct GoldsrcMdlFiles {
    CompiledFile mdl;
    CompiledFile textures;                    // NAMEt.mdl
    std::vector<CompiledFile> sequenceGroups; // NAME01.mdl, NAME02.mdl, ... (index 0 = 01)
    // Pathos: NAME.vbm, which holds the meshes and textures; only its first bytes are looked at.
    CompiledFile vbm;
};
CompiledReadResult readGoldsrcMdl(const GoldsrcMdlFiles& files, const ReadContext& ctx,
                                  const CompiledReadOptions& options = {});

} // namespace rigscope::core
