#pragma once

// Writes small compiled models for the tests (issue 29): Source .mdl + .vvd + .vtx with the
// layouts of docs/compiled.md, and GoldSrc .mdl v10 (with T.mdl / 01.mdl splits). Our own
// writer of the binary layout, for tests only: it writes what the tests ask, not what
// studiomdl would choose.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/types.h"

namespace rigscope::test {

struct MdlBone {
    std::string name;
    std::int32_t parent = -1;
    core::Vec3 position = core::Vec3::Zero();
    core::Vec3 rotation = core::Vec3::Zero(); // RadianEuler; the quaternion is derived
    core::Vec3 positionScale = core::Vec3::Constant(1.0f / 256.0f);
    core::Vec3 rotationScale = core::Vec3::Constant(3.14159265f / 16384.0f);
};

struct MdlVertex {
    core::Vec3 position = core::Vec3::Zero();
    core::Vec3 normal = core::Vec3(0, 0, 1);
    core::Vec2 uv = core::Vec2::Zero();
    std::array<std::uint8_t, 3> bones{0, 0, 0};
    std::array<float, 3> weights{1, 0, 0};
    std::uint8_t count = 1;
};

// A vertex animation of a mesh: the flex descriptor it moves (and, stereo, its right-hand
// pair), the moved vertices (mesh-relative) with their deltas; written as half floats.
struct MdlFlexDelta {
    std::uint16_t vertex = 0;
    core::Vec3 position = core::Vec3::Zero(), normal = core::Vec3::Zero();
    std::uint8_t side = 0;
    float wrinkle = 0;
};
struct MdlVertexAnimation {
    std::int32_t desc = 0;
    std::int32_t pair = 0;
    bool wrinkle = false;
    std::vector<MdlFlexDelta> deltas;
};

struct MdlMesh {
    std::int32_t material = 0; // skin reference
    std::vector<MdlVertex> vertices;
    std::vector<std::array<std::uint16_t, 3>> triangles; // counter-clockwise, as in an SMD
    // When not empty: written as one triangle strip of these indices instead of a list.
    std::vector<std::uint16_t> strip;
    std::vector<MdlVertexAnimation> flexes;
};

struct MdlSubModel {
    std::string name;
    std::vector<MdlMesh> meshes;
    std::int32_t lods = 1; // LOD l keeps the first max(1, triangles >> l) triangles
};

struct MdlBodypart {
    std::string name;
    std::vector<MdlSubModel> models;
};

struct MdlAttachment {
    std::string name;
    std::int32_t bone = 0;
    core::Vec3 origin = core::Vec3::Zero();
};

struct MdlHitbox {
    std::int32_t bone = 0;
    std::int32_t group = 0;
    core::Vec3 min = core::Vec3::Zero(), max = core::Vec3::Ones();
    std::string name;
};

// Quat48S and Float3 exist only in frame-major animations (MdlSequence::frameMajor), where
// Quat48 / Quat48S / Vec48 / Float3 are stored once when the bone does not move in the
// section, else in every frame; Quat64 and Rle are not allowed there.
enum class RotEncoding : std::uint8_t { Absent, Quat48, Quat64, Rle, Quat48S };
enum class PosEncoding : std::uint8_t { Absent, Vec48, Rle, Float3 };

struct MdlEvent {
    float cycle = 0;
    std::int32_t event = 0;
    std::string options;
    std::string name;
};

struct MdlSequence {
    std::string name;
    std::string activity;
    std::int32_t activityWeight = 1;
    float fps = 30;
    std::int32_t frames = 1;
    bool looping = false;
    bool delta = false;
    std::int32_t sectionFrames = 0; // > 0: animation sections of that many frames
    // Per frame, per bone: the local pose (delta: the offset). Missing frames repeat the last.
    std::vector<std::vector<core::Vec3>> positions;
    std::vector<std::vector<core::Vec3>> rotations; // Euler XYZ radians
    // Per bone (missing = Rle / Rle): how the bone is stored. Raw encodings store frame 0 of
    // each section.
    std::vector<RotEncoding> rotEncoding;
    std::vector<PosEncoding> posEncoding;
    std::vector<MdlEvent> events;
    // Animation data in the .ani file (block 1) instead of the .mdl.
    bool inAniBlock = false;
    // CS:GO's frame-major encoding (STUDIO_FRAMEANIM) instead of per-bone records.
    bool frameMajor = false;
};

// A flex rule's program: op codes of studio.h (1 = constant `value`, else `index`).
struct MdlFlexOp {
    std::int32_t op = 1;
    std::int32_t index = 0;
    float value = 0;
};
struct MdlFlexRule {
    std::int32_t flex = 0;
    std::vector<MdlFlexOp> ops;
};
struct MdlIkChain {
    std::string name;
    std::vector<std::int32_t> bones;
};

struct SourceMdlSpec {
    std::int32_t version = 48;
    std::int32_t checksum = 0x12345678;
    std::string name = "test/model.mdl";
    core::Vec3 illumPosition = core::Vec3::Zero();
    core::Vec3 hullMin = core::Vec3(-1, -1, 0), hullMax = core::Vec3(1, 1, 2);
    std::vector<MdlBone> bones;
    std::vector<std::string> materials;
    std::vector<std::string> cdMaterials;
    std::vector<std::vector<std::int16_t>> skins; // families x references (empty: identity)
    std::vector<MdlBodypart> bodyparts;
    std::vector<MdlAttachment> attachments;
    std::vector<MdlHitbox> hitboxes; // one set "default"
    std::vector<MdlSequence> sequences;
    std::vector<std::string> poseParameters;
    std::vector<std::string> flexControllers;
    std::vector<std::array<float, 2>> flexControllerRanges; // min, max each (missing: 0, 1)
    std::vector<std::string> flexDescs;                     // empty: the flex controllers' names
    std::vector<MdlFlexRule> flexRules;
    std::vector<MdlIkChain> ikChains;
    std::vector<std::int32_t> ikLocks; // the chain of each lock
    std::string keyValues;
    bool vvdFixups = false;       // store the vertices out of order with fix-ups restoring them
    bool vtxTopology = false;     // 33 / 35-byte strip group / strip headers (version 49 files)
    std::int32_t vvdChecksum = 0; // 0: the model's
    std::int32_t vtxChecksum = 0;
};

struct SourceMdlBytes {
    std::string mdl, vvd, vtx, ani;
};

SourceMdlBytes writeSourceMdl(const SourceMdlSpec& spec);

// A two-bone, two-bodypart model with a skin family pair, an attachment, a hitbox, LODs and
// three sequences (every bone encoding): the tests' standard model.
SourceMdlSpec sampleSourceSpec();

// The standard model with one bodypart of one mesh whose .vvd keeps vertex 4 apart from vertex
// 1 though every value is equal (as studiomdl keeps a DMX's index triples apart) and holds
// vertex 5, which no triangle uses: 6 .vvd vertices, 5 that its two triangles use, 4 after a
// weld by value (issue 30).
SourceMdlSpec keptApartSourceSpec();

// Writes DIR/STEM.mdl, STEM.vvd, STEM.dx90.vtx (and STEM.ani when there is one); the .mdl's
// path, empty when a file could not be written.
std::string writeSourceMdlFiles(const std::string& dir, const std::string& stem,
                                const SourceMdlSpec& spec);

// ---- .phy (collision model) ----

struct PhyPiece {
    // Corners in model units (the solid's bone space) and counter-clockwise triangles.
    std::vector<core::Vec3> vertices;
    std::vector<std::array<std::uint16_t, 3>> triangles;
};
PhyPiece phyBox(const core::Vec3& min, const core::Vec3& max); // 8 corners, 12 triangles

struct PhySolid {
    std::string name, parent;
    std::string surfaceProp = "default";
    float mass = 1, volume = 1;
    std::vector<PhyPiece> pieces;
    // Write an inner ledge-tree node's hull (children flag set) before the pieces: a copy of
    // the first piece, which a reader must not count as a piece.
    bool hullLedge = false;
};

struct PhyConstraint {
    std::int32_t parent = 0, child = 1;
    core::Vec3 min = core::Vec3::Zero(), max = core::Vec3::Zero();
    core::Vec3 friction = core::Vec3::Zero();
};

struct PhySpec {
    std::int32_t checksum = 0x12345678;
    bool legacy = false; // the bare IVP compact surface, without the "VPHY" header
    std::vector<PhySolid> solids;
    std::vector<PhyConstraint> constraints;
    std::vector<std::array<std::int32_t, 2>> collisionPairs;
    bool selfCollisions = true;
    std::string rootName;
    bool concave = false;
    // When not empty: written as the text section instead of the one built from the above.
    std::string text;
};

std::string writePhy(const PhySpec& spec);
// The text section writePhy builds (studiomdl's layout: one pair a line).
std::string phyText(const PhySpec& spec);

// ---- GoldSrc ----

struct GsVertex {
    core::Vec3 position = core::Vec3::Zero();
    core::Vec3 normal = core::Vec3(0, 0, 1);
    std::uint8_t bone = 0;
};

struct GsMesh {
    std::int32_t skinRef = 0;
    std::vector<std::array<std::uint16_t, 3>> triangles; // counter-clockwise
    std::vector<std::array<std::int16_t, 2>> uvs;        // per triangle corner (s, t) texels
    bool asFan = false; // one fan command per triangle instead of strips
};

struct GsModel {
    std::string name;
    std::vector<GsVertex> vertices;
    std::vector<GsMesh> meshes;
};

struct GsBodypart {
    std::string name;
    std::vector<GsModel> models;
};

struct GsTexture {
    std::string name;
    std::int32_t flags = 0;
    std::int32_t width = 4, height = 4;
    std::uint8_t fill = 1; // every index
};

struct GsSequence {
    std::string name;
    float fps = 30;
    std::int32_t frames = 2;
    bool looping = false;
    std::int32_t activity = 1;
    std::int32_t group = 0; // 0: in the model, n: in NAME0n.mdl
    std::vector<MdlEvent> events;
    // Per frame, per bone: position and Euler rotation (stored as RLE values / scale).
    std::vector<std::vector<core::Vec3>> positions;
    std::vector<std::vector<core::Vec3>> rotations;
};

struct GsBone {
    std::string name;
    std::int32_t parent = -1;
    core::Vec3 position = core::Vec3::Zero();
    core::Vec3 rotation = core::Vec3::Zero();
    core::Vec3 positionScale = core::Vec3::Constant(1.0f / 64.0f);
    core::Vec3 rotationScale = core::Vec3::Constant(3.14159265f / 8192.0f);
};

struct GoldsrcMdlSpec {
    std::string name = "test.mdl";
    std::vector<GsBone> bones;
    std::vector<GsTexture> textures;
    std::vector<std::vector<std::int16_t>> skins; // empty: identity
    std::vector<GsBodypart> bodyparts;
    std::vector<GsSequence> sequences;
    std::vector<MdlHitbox> hitboxes;
    std::vector<MdlAttachment> attachments;
    bool texturesApart = false; // textures in NAMEt.mdl
    // Afterburner's abstudiomdl with -e: magic 'AFTB', header flag 0x800
    // (STUDIO_NO_EMBEDDED_TEXTURES), texture records with a name and size and no pixels.
    bool afterburner = false;
};

struct GoldsrcMdlBytes {
    std::string mdl;
    std::string textures;                    // NAMEt.mdl when texturesApart
    std::vector<std::string> sequenceGroups; // NAME01.mdl ...
};

GoldsrcMdlBytes writeGoldsrcMdl(const GoldsrcMdlSpec& spec);
GoldsrcMdlSpec sampleGoldsrcSpec();

} // namespace rigscope::test
