// Source .mdl (versions 44-49) with its .vvd and .vtx: the header walk, the skeleton and every
// table of studiohdr_t (docs/compiled.md). Offsets are relative to the record that holds them,
// as studio.h defines them; every offset and count is checked against the file before use.
#include <algorithm>
#include <cstdio>

#include "core/build/model_builder.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/mdl/source_mdl_internal.h"
#include "core/formats/mdl/vvd_vertices.h"

namespace rigscope::core {

namespace mdl {

bool FileReader::fits(std::int64_t field, std::int64_t base, std::int64_t count, std::int64_t index,
                      std::int64_t stride, std::string_view what)
{
    if (count == 0) {
        return true;
    }
    if (count < 0) {
        corrupt(field, "negative " + std::string(what) + " count " + std::to_string(count));
        return false;
    }
    if (!b.array(base + index, count, stride)) {
        char buf[160];
        std::snprintf(
            buf, sizeof buf, "%lld %.*s at 0x%llX run past the end of the file (%zu bytes)",
            static_cast<long long>(count), static_cast<int>(what.size()), what.data(),
            static_cast<unsigned long long>(base + index < 0 ? 0 : base + index), b.size());
        corrupt(field, buf);
        return false;
    }
    return true;
}

void readSkinTable(FileReader& f, std::int64_t field, std::int64_t textures, std::string_view noun,
                   CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t refs = b.i32(field);
    const std::int32_t families = b.i32(field + 4);
    const std::int32_t skinIndex = b.i32(field + 8);
    if (refs < 0 || families < 0) {
        f.corrupt(field, "negative skin table size " + std::to_string(refs) + " x " +
                             std::to_string(families));
        return;
    }
    if (!f.fits(field, 0, std::int64_t(refs) * families, skinIndex, 2, "skin references")) {
        return;
    }
    info.skinReferences = refs;
    info.skins.clear();
    std::int64_t bad = 0, firstBad = 0;
    std::string firstMessage;
    for (std::int32_t fam = 0; fam < families; ++fam) {
        std::vector<std::int32_t> row;
        for (std::int32_t r = 0; r < refs; ++r) {
            const std::int64_t o = skinIndex + 2 * (std::int64_t(fam) * refs + r);
            std::int32_t t = b.i16(o);
            if (t < 0 || t >= textures) {
                if (bad++ == 0) {
                    firstBad = o;
                    firstMessage = "skin family " + std::to_string(fam) + " names " +
                                   std::string(noun) + " " + std::to_string(t) + " of " +
                                   std::to_string(textures);
                }
                t = 0;
            }
            row.push_back(t);
        }
        info.skins.push_back(std::move(row));
    }
    if (bad > 0) {
        f.corrupt(firstBad,
                  firstMessage +
                      (bad > 1 ? " (" + std::to_string(bad) + " such references)" : std::string()));
    }
}

} // namespace mdl

using mdl::Bytes;
using mdl::FileReader;
using mdl::readSkinTable;

namespace {

constexpr std::uint32_t kIdst = 0x54534449; // "IDST"
constexpr std::uint32_t kIdsq = 0x51534449; // "IDSQ"
constexpr std::uint32_t kIdsv = 0x56534449; // "IDSV"
constexpr std::int64_t kHeaderSize = 408;
constexpr std::int64_t kBoneSize = 216;
constexpr std::int64_t kBoneControllerSize = 56;
constexpr std::int64_t kHitboxSetSize = 12;
constexpr std::int64_t kHitboxSize = 68;
constexpr std::int64_t kAttachmentSize = 92;
constexpr std::int64_t kTextureSize = 64;
constexpr std::int64_t kBodypartSize = 16;
constexpr std::int64_t kModelSize = 148;
constexpr std::int64_t kMeshSize = 116;
constexpr std::int64_t kEyeballSize = 172;
constexpr std::int64_t kAnimDescSize = 100;
constexpr std::int64_t kSeqDescSize = 212;
constexpr std::int64_t kEventSize = 80;
constexpr std::int64_t kPoseParamSize = 20;
constexpr std::int64_t kFlexControllerSize = 20;
constexpr std::int64_t kIncludeModelSize = 8;
constexpr std::int64_t kVertexSize = 48;
constexpr std::int32_t kMaxLods = 8;

std::string hex32(std::int32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(v));
    return buf;
}

SourceLoc at(std::int64_t off)
{
    return SourceLoc{0, 0, static_cast<std::uint64_t>(off < 0 ? 0 : off)};
}

// ---- .mdl header tables ----

constexpr std::int32_t kProcJiggle = 5;

// mstudiojigglebone_t at `at` (its offset is relative to the bone at `bone`): the flags, then 29
// floats in the order studiomdl writes them (docs/jiggle.md, checked against Valve's own L4D2
// survivors and the QC they were compiled from), and the 5 boing floats when flagged.
std::optional<JiggleParams> readJiggle(FileReader& f, std::int64_t bone, std::int64_t at,
                                       const std::string& name)
{
    const Bytes& b = f.b;
    constexpr std::int64_t kSize = 4 + 29 * 4;
    if (at <= bone || !b.has(at, kSize)) {
        f.corrupt(bone + 168, "jiggle bone '" + name + "' points its parameters outside the file");
        return std::nullopt;
    }
    using JP = JiggleParams;
    JiggleParams p;
    p.flags = b.u32(at);
    float JP::*const fields[] = {&JP::length,
                                 &JP::tipMass,
                                 &JP::yawStiffness,
                                 &JP::yawDamping,
                                 &JP::pitchStiffness,
                                 &JP::pitchDamping,
                                 &JP::alongStiffness,
                                 &JP::alongDamping,
                                 &JP::angleLimit,
                                 &JP::minYaw,
                                 &JP::maxYaw,
                                 &JP::yawFriction,
                                 &JP::yawBounce,
                                 &JP::minPitch,
                                 &JP::maxPitch,
                                 &JP::pitchFriction,
                                 &JP::pitchBounce,
                                 &JP::baseMass,
                                 &JP::baseStiffness,
                                 &JP::baseDamping,
                                 &JP::baseMinLeft,
                                 &JP::baseMaxLeft,
                                 &JP::baseLeftFriction,
                                 &JP::baseMinUp,
                                 &JP::baseMaxUp,
                                 &JP::baseUpFriction,
                                 &JP::baseMinForward,
                                 &JP::baseMaxForward,
                                 &JP::baseForwardFriction};
    for (std::size_t k = 0; k < std::size(fields); ++k) {
        p.*fields[k] = b.f32(at + 4 + 4 * std::int64_t(k));
    }
    if ((p.flags & JP::Boing) && b.has(at + kSize, 20)) {
        float JP::*const boing[] = {&JP::boingImpactSpeed, &JP::boingImpactAngle,
                                    &JP::boingDampingRate, &JP::boingFrequency,
                                    &JP::boingAmplitude};
        for (std::size_t k = 0; k < std::size(boing); ++k) {
            p.*boing[k] = b.f32(at + kSize + 4 * std::int64_t(k));
        }
    }
    return p;
}

void readBones(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(156);
    const std::int32_t index = b.i32(160);
    if (!f.fits(156, 0, n, index, kBoneSize, "bones")) {
        return;
    }
    info.bones.reserve(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kBoneSize;
        CompiledBone bone;
        bone.offset = static_cast<std::uint64_t>(o);
        bone.name = f.name(o, b.i32(o));
        bone.parent = b.i32(o + 4);
        for (std::size_t c = 0; c < 6; ++c) {
            bone.controllers[c] = b.i32(o + 8 + 4 * std::int64_t(c));
        }
        bone.position = b.vec3(o + 32);
        bone.quaternion = b.vec4(o + 44);
        bone.rotation = b.vec3(o + 60);
        bone.positionScale = b.vec3(o + 72);
        bone.rotationScale = b.vec3(o + 84);
        for (std::size_t k = 0; k < 12; ++k) {
            bone.poseToBone[k] = b.f32(o + 96 + 4 * std::int64_t(k));
        }
        bone.flags = b.i32(o + 160);
        bone.procType = b.i32(o + 164);
        if (bone.procType == kProcJiggle) {
            bone.jiggle = readJiggle(f, o, o + std::int64_t(b.i32(o + 168)), bone.name);
        }
        bone.surfaceProp = f.name(o, b.i32(o + 176));
        if (bone.parent < -1 || bone.parent >= i) {
            f.corrupt(o + 4, "bone " + std::to_string(i) + " '" + bone.name + "' has parent " +
                                 std::to_string(bone.parent) +
                                 ", not an earlier bone; made a root");
            bone.parent = -1;
        }
        info.bones.push_back(std::move(bone));
    }
}

void readBoneControllers(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(164);
    const std::int32_t index = b.i32(168);
    if (!f.fits(164, 0, n, index, kBoneControllerSize, "bone controllers")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kBoneControllerSize;
        info.boneControllers.push_back(
            {b.i32(o), b.i32(o + 4), b.f32(o + 8), b.f32(o + 12), b.i32(o + 16), b.i32(o + 20)});
    }
}

void readHitboxSets(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(172);
    const std::int32_t index = b.i32(176);
    if (!f.fits(172, 0, n, index, kHitboxSetSize, "hitbox sets")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kHitboxSetSize;
        CompiledHitboxSet set;
        set.name = f.name(o, b.i32(o));
        const std::int32_t count = b.i32(o + 4);
        const std::int32_t boxIndex = b.i32(o + 8);
        if (f.fits(o + 4, o, count, boxIndex, kHitboxSize, "hitboxes")) {
            for (std::int32_t k = 0; k < count; ++k) {
                const std::int64_t h = o + boxIndex + std::int64_t(k) * kHitboxSize;
                CompiledHitbox box;
                box.bone = b.i32(h);
                box.group = b.i32(h + 4);
                box.min = b.vec3(h + 8);
                box.max = b.vec3(h + 20);
                box.name = f.name(h, b.i32(h + 32));
                if (box.bone < 0 || static_cast<std::size_t>(box.bone) >= info.bones.size()) {
                    f.corrupt(h, "hitbox " + std::to_string(k) + " of set '" + set.name +
                                     "' names bone " + std::to_string(box.bone) + " of " +
                                     std::to_string(info.bones.size()));
                }
                set.boxes.push_back(std::move(box));
            }
        }
        info.hitboxSets.push_back(std::move(set));
    }
}

void readAttachments(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(240);
    const std::int32_t index = b.i32(244);
    if (!f.fits(240, 0, n, index, kAttachmentSize, "attachments")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kAttachmentSize;
        CompiledAttachment a;
        a.name = f.name(o, b.i32(o));
        a.flags = b.u32(o + 4);
        a.bone = b.i32(o + 8);
        for (std::size_t k = 0; k < 12; ++k) {
            a.local[k] = b.f32(o + 12 + 4 * std::int64_t(k));
        }
        if (a.bone < 0 || static_cast<std::size_t>(a.bone) >= info.bones.size()) {
            f.corrupt(o + 8, "attachment '" + a.name + "' names bone " + std::to_string(a.bone) +
                                 " of " + std::to_string(info.bones.size()));
        }
        info.attachments.push_back(std::move(a));
    }
}

void readMaterials(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(204);
    const std::int32_t index = b.i32(208);
    if (f.fits(204, 0, n, index, kTextureSize, "materials")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kTextureSize;
            CompiledTexture t;
            t.name = f.name(o, b.i32(o));
            t.flags = b.i32(o + 4);
            info.textures.push_back(std::move(t));
        }
    }
    const std::int32_t nCd = b.i32(212);
    const std::int32_t cdIndex = b.i32(216);
    if (f.fits(212, 0, nCd, cdIndex, 4, "$cdmaterials folders")) {
        for (std::int32_t i = 0; i < nCd; ++i) {
            info.cdMaterials.push_back(f.name(0, b.i32(cdIndex + 4 * std::int64_t(i))));
        }
    }
    readSkinTable(f, 220, static_cast<std::int64_t>(info.textures.size()), "material", info);
}

void readPoseAndFlex(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    std::int32_t n = b.i32(300);
    std::int32_t index = b.i32(304);
    if (f.fits(300, 0, n, index, kPoseParamSize, "pose parameters")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kPoseParamSize;
            info.poseParameters.push_back(
                {f.name(o, b.i32(o)), b.i32(o + 4), b.f32(o + 8), b.f32(o + 12), b.f32(o + 16)});
        }
    }
    n = b.i32(260);
    index = b.i32(264);
    if (f.fits(260, 0, n, index, 4, "flex descriptors")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * 4;
            info.flexDescs.push_back(f.name(o, b.i32(o)));
        }
    }
    n = b.i32(268);
    index = b.i32(272);
    if (f.fits(268, 0, n, index, kFlexControllerSize, "flex controllers")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kFlexControllerSize;
            info.flexControllers.push_back(
                {f.name(o, b.i32(o)), f.name(o, b.i32(o + 4)), b.f32(o + 12), b.f32(o + 16)});
        }
    }
    info.flexRules = std::max(0, b.i32(276));
    info.ikChains = std::max(0, b.i32(284));
    info.ikLocks = std::max(0, b.i32(320));
    n = b.i32(336);
    index = b.i32(340);
    if (f.fits(336, 0, n, index, kIncludeModelSize, "include models")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kIncludeModelSize;
            info.includeModels.push_back({f.name(o, b.i32(o)), f.name(o, b.i32(o + 4))});
        }
    }
}

void readAnimDescs(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(180);
    const std::int32_t index = b.i32(184);
    if (!f.fits(180, 0, n, index, kAnimDescSize, "animations")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kAnimDescSize;
        CompiledAnimation a;
        a.offset = static_cast<std::uint64_t>(o);
        a.name = f.name(o, b.i32(o + 4));
        a.fps = b.f32(o + 8);
        a.flags = b.i32(o + 12);
        a.frames = b.i32(o + 16);
        a.animBlock = b.i32(o + 52);
        a.animIndex = b.i32(o + 56);
        a.sectionFrames = b.i32(o + 84);
        a.frameEncoded = (a.flags & 0x0040) != 0;
        if (a.frames < 0) {
            f.corrupt(o + 16,
                      "animation '" + a.name + "' has " + std::to_string(a.frames) + " frames");
            a.frames = 0;
        }
        info.animations.push_back(std::move(a));
    }
}

// studiohdr_t flags: STUDIOHDR_FLAGS_STATIC_PROP ($staticprop).
constexpr std::int32_t kStaticPropFlag = 0x0010;

void readSequences(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(188);
    const std::int32_t index = b.i32(192);
    if (!f.fits(188, 0, n, index, kSeqDescSize, "sequences")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kSeqDescSize;
        CompiledSequence s;
        s.name = f.name(o, b.i32(o + 4));
        s.activityName = f.name(o, b.i32(o + 8));
        s.flags = b.i32(o + 12);
        s.looping = (s.flags & 0x0001) != 0;
        s.delta = (s.flags & 0x0004) != 0;
        s.activity = b.i32(o + 16);
        s.activityWeight = b.i32(o + 20);
        s.bbMin = b.vec3(o + 32);
        s.bbMax = b.vec3(o + 44);
        s.blends = b.i32(o + 56);
        s.groupSize = {b.i32(o + 68), b.i32(o + 72)};
        const std::int32_t nEvents = b.i32(o + 24);
        const std::int32_t eventIndex = b.i32(o + 28);
        if (f.fits(o + 24, o, nEvents, eventIndex, kEventSize, "events")) {
            for (std::int32_t e = 0; e < nEvents; ++e) {
                const std::int64_t eo = o + eventIndex + std::int64_t(e) * kEventSize;
                CompiledEvent ev;
                ev.cycle = b.f32(eo);
                ev.event = b.i32(eo + 4);
                ev.type = b.i32(eo + 8);
                ev.options = b.fixedString(eo + 12, 64);
                ev.name = f.name(eo, b.i32(eo + 76));
                s.events.push_back(std::move(ev));
            }
        }
        const std::int64_t blends = std::int64_t(s.groupSize[0]) * s.groupSize[1];
        if (blends == 0) {
            // No animation of its own (L4D / CS:GO models take them from $includemodel).
        } else if (s.groupSize[0] < 1 || s.groupSize[1] < 1 || blends > 1024) {
            f.corrupt(o + 68, "sequence '" + s.name + "' has a blend grid of " +
                                  std::to_string(s.groupSize[0]) + " x " +
                                  std::to_string(s.groupSize[1]));
        } else if (f.fits(o + 60, o, blends, b.i32(o + 60), 2, "blend animations")) {
            for (std::int64_t k = 0; k < blends; ++k) {
                const std::int32_t a = b.i16(o + b.i32(o + 60) + 2 * k);
                if (a >= 0 && static_cast<std::size_t>(a) >= info.animations.size() &&
                    (info.flags & kStaticPropFlag)) {
                    // $staticprop keeps one animation, the bind pose, and leaves the sequences
                    // naming the others (SDK 2013 simplify.cpp MakeStaticProp); a static prop
                    // plays no sequence.
                    continue;
                }
                if (a < 0 || static_cast<std::size_t>(a) >= info.animations.size()) {
                    f.corrupt(o + 60, "sequence '" + s.name + "' names animation " +
                                          std::to_string(a) + " of " +
                                          std::to_string(info.animations.size()));
                    continue;
                }
                s.animations.push_back(a);
            }
        }
        if (!s.animations.empty()) {
            const CompiledAnimation& a = info.animations[static_cast<std::size_t>(s.animations[0])];
            s.fps = a.fps;
            s.frames = a.frames;
        }
        const std::int32_t kvSize = b.i32(o + 176);
        if (kvSize > 0 && b.has(o + b.i32(o + 172), kvSize)) {
            s.keyValues = b.fixedString(o + b.i32(o + 172), static_cast<std::size_t>(kvSize));
        }
        info.sequences.push_back(std::move(s));
    }
}

// ---- bodyparts / models / meshes of the .mdl ----

void readBodyparts(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(232);
    const std::int32_t index = b.i32(236);
    if (!f.fits(232, 0, n, index, kBodypartSize, "bodyparts")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kBodypartSize;
        CompiledBodypart part;
        part.name = f.name(o, b.i32(o));
        part.base = b.i32(o + 8);
        const std::int32_t nModels = b.i32(o + 4);
        const std::int32_t modelIndex = b.i32(o + 12);
        if (f.fits(o + 4, o, nModels, modelIndex, kModelSize, "models")) {
            for (std::int32_t m = 0; m < nModels; ++m) {
                const std::int64_t mo = o + modelIndex + std::int64_t(m) * kModelSize;
                CompiledSubModel sub;
                sub.name = b.fixedString(mo, 64);
                sub.radius = b.f32(mo + 68);
                sub.vertices = b.i32(mo + 80);
                sub.vertexIndex = b.i32(mo + 84);
                const std::int32_t nMeshes = b.i32(mo + 72);
                const std::int32_t meshIndex = b.i32(mo + 76);
                if (f.fits(mo + 72, mo, nMeshes, meshIndex, kMeshSize, "meshes")) {
                    for (std::int32_t k = 0; k < nMeshes; ++k) {
                        const std::int64_t me = mo + meshIndex + std::int64_t(k) * kMeshSize;
                        CompiledMesh mesh;
                        mesh.material = b.i32(me);
                        mesh.vertices = b.i32(me + 8);
                        mesh.vertexOffset = b.i32(me + 12);
                        mesh.flexes = b.i32(me + 16);
                        for (std::int32_t l = 0; l < kMaxLods; ++l) {
                            mesh.lodVertices.push_back(b.i32(me + 52 + 4 * l));
                        }
                        sub.meshes.push_back(std::move(mesh));
                    }
                }
                const std::int32_t nEyes = b.i32(mo + 100);
                const std::int32_t eyeIndex = b.i32(mo + 104);
                if (f.fits(mo + 100, mo, nEyes, eyeIndex, kEyeballSize, "eyeballs")) {
                    for (std::int32_t k = 0; k < nEyes; ++k) {
                        const std::int64_t eo = mo + eyeIndex + std::int64_t(k) * kEyeballSize;
                        sub.eyeballs.push_back({f.name(eo, b.i32(eo)), b.i32(eo + 4),
                                                b.vec3(eo + 8), b.f32(eo + 24), b.i32(eo + 52)});
                    }
                }
                part.models.push_back(std::move(sub));
            }
        }
        info.bodyparts.push_back(std::move(part));
    }
}

// ---- .vvd ----

struct VvdVertex {
    float weights[3];
    std::uint8_t bones[3];
    std::uint8_t count;
    Vec3 position, normal;
    Vec2 uv;
    std::uint64_t offset;
};

// The LOD 0 vertex list of the .vvd, fix-ups applied (docs/compiled.md §VVD).
std::vector<VvdVertex> readVvd(FileReader& f, std::int32_t checksum, CompiledModelInfo& info)
{
    std::vector<VvdVertex> out;
    const Bytes& b = f.b;
    if (b.size() < 64) {
        f.corrupt(0, "a .vvd header is 64 bytes, the file has " + std::to_string(b.size()));
        return out;
    }
    if (b.u32(0) != kIdsv) {
        f.sink.error(ids::kCompiledBadVersion, at(0), "not a .vvd file: the magic is not 'IDSV'");
        return out;
    }
    if (b.i32(4) != 4) {
        f.sink.error(ids::kCompiledBadVersion, at(4),
                     "vvd version " + std::to_string(b.i32(4)) + ", expected 4");
        return out;
    }
    if (b.i32(8) != checksum) {
        f.sink.error(ids::kCompiledChecksumMismatch, at(8),
                     "checksum " + hex32(b.i32(8)) + ", the .mdl has " + hex32(checksum));
    }
    info.vvdLods = b.i32(12);
    for (std::int32_t l = 0; l < kMaxLods; ++l) {
        info.vvdLodVertices[static_cast<std::size_t>(l)] = b.i32(16 + 4 * l);
    }
    const std::int32_t total = b.i32(16);
    const std::int32_t nFixups = b.i32(48);
    const std::int32_t fixupStart = b.i32(52);
    const std::int32_t dataStart = b.i32(56);
    if (!f.fits(16, 0, total, dataStart, kVertexSize, "vertices")) {
        return out;
    }
    const auto vertexAt = [&b](std::int64_t o) {
        VvdVertex v{};
        for (int k = 0; k < 3; ++k) {
            v.weights[k] = b.f32(o + 4 * k);
            v.bones[k] = b.u8(o + 12 + k);
        }
        v.count = b.u8(o + 15);
        v.position = b.vec3(o + 16);
        v.normal = b.vec3(o + 28);
        v.uv = Vec2(b.f32(o + 40), b.f32(o + 44));
        v.offset = static_cast<std::uint64_t>(o);
        return v;
    };
    out.reserve(static_cast<std::size_t>(total));
    if (nFixups <= 0) {
        for (std::int32_t i = 0; i < total; ++i) {
            out.push_back(vertexAt(dataStart + std::int64_t(i) * kVertexSize));
        }
        return out;
    }
    if (!f.fits(48, 0, nFixups, fixupStart, 12, "vertex fix-ups")) {
        return out;
    }
    for (std::int32_t k = 0; k < nFixups; ++k) {
        const std::int64_t fo = fixupStart + std::int64_t(k) * 12;
        const std::int32_t lod = b.i32(fo);
        const std::int32_t source = b.i32(fo + 4);
        const std::int32_t count = b.i32(fo + 8);
        if (lod < 0) {
            continue; // a fix-up for no LOD: the engine's `lod >= rootLOD` skips it too
        }
        if (source < 0 || count < 0 || std::int64_t(source) + count > total ||
            std::int64_t(out.size()) + count > total) {
            f.corrupt(fo, "fix-up " + std::to_string(k) + " copies " + std::to_string(count) +
                              " vertices from " + std::to_string(source) + " of " +
                              std::to_string(total));
            continue;
        }
        for (std::int32_t i = 0; i < count; ++i) {
            out.push_back(vertexAt(dataStart + (std::int64_t(source) + i) * kVertexSize));
        }
    }
    if (out.size() != static_cast<std::size_t>(total)) {
        f.corrupt(48, "the fix-ups give " + std::to_string(out.size()) +
                          " vertices, the header says " + std::to_string(total));
    }
    return out;
}

} // namespace

std::vector<VvdSurface> vvdSurfaces(std::string_view vvdBytes)
{
    FileReader f(vvdBytes, std::string());
    CompiledModelInfo scratch;
    // The file's own checksum: a mismatch with the .mdl is the compiled read's to report.
    const std::vector<VvdVertex> vertices = readVvd(f, f.b.size() >= 12 ? f.b.i32(8) : 0, scratch);
    std::vector<VvdSurface> out;
    out.reserve(vertices.size());
    for (const VvdVertex& v : vertices) {
        out.push_back({v.normal, v.uv});
    }
    return out;
}

namespace {

// ---- .vtx ----

struct VtxLayout {
    std::int64_t stripGroupSize = 25;
    std::int64_t stripSize = 27;
};

struct VtxTriangle {
    std::int32_t bodypart, model, mesh;
    std::uint32_t vertex[3]; // .vvd vertex indices (model start + mesh offset + id)
    std::uint64_t offset;
};

// Walks every body part, model, LOD, mesh, strip group and strip. `emit` (may be null) gets
// the triangles of `wantLod`. Counts go into info when `record`. Returns false on the first
// structural problem (reported only when `report`).
struct VtxWalk {
    FileReader& f;
    CompiledModelInfo& info;
    VtxLayout layout;
    bool report = false;
    std::int32_t wantLod = 0;
    std::vector<VtxTriangle>* emit = nullptr;
    std::size_t vertexCount = 0;
    bool badIndex = false;

    bool fail(std::int64_t field, std::string message)
    {
        if (report) {
            f.corrupt(field, std::move(message));
        }
        return false;
    }
    bool fits(std::int64_t field, std::int64_t base, std::int64_t count, std::int64_t index,
              std::int64_t stride, std::string_view what)
    {
        if (count < 0 || !f.b.array(base + index, count, stride)) {
            return fail(
                field, std::to_string(count) + " " + std::string(what) + " at 0x" + [&] {
                    char buf[24];
                    std::snprintf(
                        buf, sizeof buf, "%llX",
                        static_cast<unsigned long long>(base + index < 0 ? 0 : base + index));
                    return std::string(buf);
                }() + " run past the end of the file");
        }
        return true;
    }

    bool run()
    {
        const Bytes& b = f.b;
        const std::int32_t nParts = b.i32(28);
        const std::int32_t partIndex = b.i32(32);
        if (!fits(28, 0, nParts, partIndex, 8, "body parts")) {
            return false;
        }
        if (static_cast<std::size_t>(nParts) != info.bodyparts.size()) {
            return fail(28, "the .vtx has " + std::to_string(nParts) + " body parts, the .mdl " +
                                std::to_string(info.bodyparts.size()));
        }
        bool ok = true;
        for (std::int32_t p = 0; p < nParts; ++p) {
            const std::int64_t po = partIndex + std::int64_t(p) * 8;
            CompiledBodypart& part = info.bodyparts[static_cast<std::size_t>(p)];
            const std::int32_t nModels = b.i32(po);
            const std::int32_t modelIndex = b.i32(po + 4);
            if (!fits(po, po, nModels, modelIndex, 8, "models")) {
                ok = false;
                continue;
            }
            if (static_cast<std::size_t>(nModels) != part.models.size()) {
                ok = fail(po, "body part " + std::to_string(p) + " has " + std::to_string(nModels) +
                                  " models in the .vtx, " + std::to_string(part.models.size()) +
                                  " in the .mdl");
                continue;
            }
            for (std::int32_t m = 0; m < nModels; ++m) {
                ok = model(p, m, po + modelIndex + std::int64_t(m) * 8,
                           part.models[static_cast<std::size_t>(m)]) &&
                     ok;
            }
        }
        return ok;
    }

    bool model(std::int32_t p, std::int32_t m, std::int64_t mo, CompiledSubModel& sub)
    {
        const Bytes& b = f.b;
        const std::int32_t nLods = b.i32(mo);
        const std::int32_t lodIndex = b.i32(mo + 4);
        if (nLods > kMaxLods || !fits(mo, mo, nLods, lodIndex, 12, "LODs")) {
            return nLods > kMaxLods ? fail(mo, std::to_string(nLods) + " LODs, at most 8") : false;
        }
        if (report) {
            sub.lodVertices.assign(static_cast<std::size_t>(nLods), 0);
            sub.lodTriangles.assign(static_cast<std::size_t>(nLods), 0);
            info.lods = std::max(info.lods, nLods);
        }
        bool ok = true;
        const std::int64_t modelStart = sub.vertexIndex / kVertexSize;
        for (std::int32_t l = 0; l < nLods; ++l) {
            const std::int64_t lo = mo + lodIndex + std::int64_t(l) * 12;
            const std::int32_t nMeshes = b.i32(lo);
            const std::int32_t meshIndex = b.i32(lo + 4);
            if (!fits(lo, lo, nMeshes, meshIndex, 9, "meshes")) {
                ok = false;
                continue;
            }
            if (static_cast<std::size_t>(nMeshes) != sub.meshes.size()) {
                ok = fail(lo, "model '" + sub.name + "' LOD " + std::to_string(l) + " has " +
                                  std::to_string(nMeshes) + " meshes, the .mdl " +
                                  std::to_string(sub.meshes.size()));
                continue;
            }
            std::vector<std::uint8_t> used;
            for (std::int32_t k = 0; k < nMeshes; ++k) {
                const std::int64_t me = lo + meshIndex + std::int64_t(k) * 9;
                CompiledMesh& mesh = sub.meshes[static_cast<std::size_t>(k)];
                const std::int64_t meshStart = modelStart + mesh.vertexOffset;
                std::int32_t tris = 0;
                ok = meshGroups(p, m, k, l, me, meshStart, tris, used) && ok;
                if (report) {
                    if (mesh.lodTriangles.size() < static_cast<std::size_t>(nLods)) {
                        mesh.lodTriangles.resize(static_cast<std::size_t>(nLods), 0);
                    }
                    mesh.lodTriangles[static_cast<std::size_t>(l)] = tris;
                    sub.lodTriangles[static_cast<std::size_t>(l)] += tris;
                }
            }
            if (report) {
                sub.lodVertices[static_cast<std::size_t>(l)] =
                    static_cast<std::int32_t>(std::count(used.begin(), used.end(), 1));
            }
        }
        if (report && !sub.lodTriangles.empty()) {
            sub.triangles = sub.lodTriangles[0];
        }
        return ok;
    }

    bool meshGroups(std::int32_t p, std::int32_t m, std::int32_t k, std::int32_t l, std::int64_t me,
                    std::int64_t meshStart, std::int32_t& tris, std::vector<std::uint8_t>& used)
    {
        const Bytes& b = f.b;
        const std::int32_t nGroups = b.i32(me);
        const std::int32_t groupIndex = b.i32(me + 4);
        if (!fits(me, me, nGroups, groupIndex, layout.stripGroupSize, "strip groups")) {
            return false;
        }
        bool ok = true;
        for (std::int32_t g = 0; g < nGroups; ++g) {
            const std::int64_t go = me + groupIndex + std::int64_t(g) * layout.stripGroupSize;
            const std::int32_t nVerts = b.i32(go);
            const std::int32_t vertIndex = b.i32(go + 4);
            const std::int32_t nIndices = b.i32(go + 8);
            const std::int32_t indexIndex = b.i32(go + 12);
            const std::int32_t nStrips = b.i32(go + 16);
            const std::int32_t stripIndex = b.i32(go + 20);
            if (!fits(go, go, nVerts, vertIndex, 9, "strip vertices") ||
                !fits(go + 8, go, nIndices, indexIndex, 2, "strip indices") ||
                !fits(go + 16, go, nStrips, stripIndex, layout.stripSize, "strips")) {
                ok = false;
                continue;
            }
            // The .vvd vertex of strip-group vertex v, or -1 when out of range.
            const auto vvdIndex = [&](std::int64_t v) -> std::int64_t {
                if (v < 0 || v >= nVerts) {
                    return -1;
                }
                const std::int64_t id = meshStart + b.u16(go + vertIndex + v * 9 + 4);
                return id;
            };
            for (std::int32_t s = 0; s < nStrips; ++s) {
                const std::int64_t so = go + stripIndex + std::int64_t(s) * layout.stripSize;
                const std::int32_t sIndices = b.i32(so);
                const std::int32_t sIndexOffset = b.i32(so + 4);
                const std::uint8_t flags = b.u8(so + 18);
                if (sIndices < 0 || sIndexOffset < 0 ||
                    std::int64_t(sIndexOffset) + sIndices > nIndices) {
                    ok = fail(so, "strip " + std::to_string(s) + " uses indices " +
                                      std::to_string(sIndexOffset) + " + " +
                                      std::to_string(sIndices) + " of " + std::to_string(nIndices));
                    continue;
                }
                const std::int64_t base = go + indexIndex + 2 * std::int64_t(sIndexOffset);
                const auto corner = [&](std::int64_t i) { return vvdIndex(b.u16(base + 2 * i)); };
                const auto add = [&](std::int64_t a, std::int64_t c, std::int64_t d) {
                    const std::int64_t v[3] = {corner(a), corner(c), corner(d)};
                    for (const std::int64_t x : v) {
                        if (x < 0 || static_cast<std::uint64_t>(x) >= vertexCount) {
                            // Without a .vvd there is nothing to check against (reported
                            // once as missing); else report the first bad index only.
                            if (vertexCount > 0 && !badIndex) {
                                badIndex = true;
                                ok = fail(base + 2 * a, "a strip index names vertex " +
                                                            std::to_string(x) + " of " +
                                                            std::to_string(vertexCount));
                            }
                            ok = ok && vertexCount == 0;
                            if (vertexCount == 0 && report) {
                                ++tris; // still counted for the .vtx's own numbers
                            }
                            return;
                        }
                    }
                    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
                        return; // degenerate (strip joints)
                    }
                    ++tris;
                    if (report) {
                        for (const std::int64_t x : v) {
                            if (used.size() <= static_cast<std::size_t>(x)) {
                                used.resize(static_cast<std::size_t>(x) + 1, 0);
                            }
                            used[static_cast<std::size_t>(x)] = 1;
                        }
                    }
                    if (emit && l == wantLod) {
                        // Source draws clockwise faces; SMD (and the Model) counter-clockwise.
                        emit->push_back(
                            {p,
                             m,
                             k,
                             {static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[2]),
                              static_cast<std::uint32_t>(v[1])},
                             static_cast<std::uint64_t>(base + 2 * a)});
                    }
                };
                if (flags & 0x02) { // triangle strip
                    for (std::int64_t i = 0; i + 2 < sIndices; ++i) {
                        if (i % 2 == 0) {
                            add(i, i + 1, i + 2);
                        } else {
                            add(i + 1, i, i + 2);
                        }
                    }
                } else { // triangle list
                    for (std::int64_t i = 0; i + 2 < sIndices; i += 3) {
                        add(i, i + 1, i + 2);
                    }
                }
            }
        }
        return ok;
    }
};

// ---- the Model ----

void buildSkeleton(const CompiledModelInfo& info, Model& model)
{
    Skeleton& s = model.skeleton;
    for (std::size_t i = 0; i < info.bones.size(); ++i) {
        const CompiledBone& bone = info.bones[i];
        const JointIndex j = s.addJoint(bone.name, bone.parent, static_cast<std::int32_t>(i),
                                        at(static_cast<std::int64_t>(bone.offset)));
        s.bindPositions[static_cast<std::size_t>(j)] = bone.position;
        s.bindRotations[static_cast<std::size_t>(j)] = bone.rotation;
        s.bindWhere[static_cast<std::size_t>(j)] = at(static_cast<std::int64_t>(bone.offset) + 32);
    }
}

void buildMesh(const CompiledModelInfo& info, const std::vector<VvdVertex>& vertices,
               const std::vector<VtxTriangle>& tris, std::int32_t skin, Model& model,
               FileReader& vvd, CompiledModelInfo& out)
{
    const std::vector<std::int32_t>* family =
        info.skins.empty()
            ? nullptr
            : &info.skins[skin >= 0 && std::size_t(skin) < info.skins.size() ? std::size_t(skin)
                                                                             : 0];
    Mesh& mesh = model.mesh;
    for (const CompiledTexture& t : info.textures) {
        Material mat;
        mat.name = t.name;
        mesh.materials.push_back(std::move(mat));
    }
    if (mesh.materials.empty() && !tris.empty()) {
        mesh.materials.push_back(Material{});
    }
    const std::size_t nBones = info.bones.size();
    bool badBone = false;
    for (const VvdVertex& v : vertices) {
        JointIndex joints[3];
        float weights[3];
        std::size_t n = 0;
        for (std::size_t k = 0; k < std::min<std::size_t>(v.count, 3); ++k) {
            if (v.bones[k] >= nBones) {
                if (!badBone) {
                    vvd.corrupt(static_cast<std::int64_t>(v.offset) + 12,
                                "a vertex names bone " + std::to_string(v.bones[k]) + " of " +
                                    std::to_string(nBones));
                    badBone = true;
                }
                continue;
            }
            joints[n] = static_cast<JointIndex>(v.bones[k]);
            weights[n] = v.weights[k];
            ++n;
        }
        appendPoint(mesh, v.position, n > 0 ? joints[0] : kNoJoint, LinkState::List, joints,
                    weights, n, at(static_cast<std::int64_t>(v.offset)));
    }
    // Objects: one per bodypart / model choice that has triangles.
    out.choiceObjects.clear();
    for (const CompiledBodypart& part : info.bodyparts) {
        out.choiceObjects.emplace_back(part.models.size(), -1);
    }
    for (const VtxTriangle& t : tris) {
        std::int32_t& obj = out.choiceObjects[static_cast<std::size_t>(t.bodypart)]
                                             [static_cast<std::size_t>(t.model)];
        if (obj < 0) {
            obj = static_cast<std::int32_t>(mesh.objects.size());
            const CompiledBodypart& part = info.bodyparts[static_cast<std::size_t>(t.bodypart)];
            mesh.objects.push_back(part.name + "/" +
                                   part.models[static_cast<std::size_t>(t.model)].name);
        }
        const CompiledMesh& cm = info.bodyparts[static_cast<std::size_t>(t.bodypart)]
                                     .models[static_cast<std::size_t>(t.model)]
                                     .meshes[static_cast<std::size_t>(t.mesh)];
        std::uint32_t material = 0;
        if (family && cm.material >= 0 && static_cast<std::size_t>(cm.material) < family->size()) {
            material = static_cast<std::uint32_t>((*family)[static_cast<std::size_t>(cm.material)]);
        } else if (cm.material >= 0 &&
                   static_cast<std::size_t>(cm.material) < mesh.materials.size()) {
            material = static_cast<std::uint32_t>(cm.material);
        }
        if (material >= mesh.materials.size()) {
            material = 0; // the skin table outlived its textures (reported there)
        }
        for (const std::uint32_t v : t.vertex) {
            const VvdVertex& src = vertices[v];
            mesh.cornerPoints.push_back(v);
            // The corner's compiled vertex is its .vvd vertex, whatever its values: studiomdl
            // keeps apart vertices a weld by value would join (a DMX's index triples), so the
            // one count of vertices (checks::weldStats) counts the .vvd vertices used.
            mesh.cornerVertices.push_back(v);
            mesh.cornerNormals.push_back(src.normal);
            mesh.cornerUvs.push_back(src.uv);
            mesh.cornerWhere.push_back(at(static_cast<std::int64_t>(t.offset)));
        }
        mesh.triangleMaterials.push_back(material);
        mesh.triangleObjects.push_back(static_cast<std::uint32_t>(obj));
        mesh.triangleWhere.push_back(at(static_cast<std::int64_t>(t.offset)));
    }
    if (mesh.triangleMaterials.empty()) {
        mesh.triangleObjects.clear();
    }
}

} // namespace

int sniffCompiledMdl(std::string_view head) noexcept
{
    const Bytes b(head);
    if (b.size() < 8) {
        return 0;
    }
    const std::uint32_t magic = b.u32(0);
    const std::int32_t version = b.i32(4);
    if (magic == kIdst && ((version >= 44 && version <= 49) || version == 10)) {
        return 100;
    }
    if (magic == 0x42544641 && version == 10) { // "AFTB": Afterburner's GoldSrc layout
        return 100;
    }
    if (magic == kIdsq && version == 10) {
        return 90;
    }
    return 0;
}

std::size_t CompiledModelInfo::hitboxCount() const noexcept
{
    std::size_t n = 0;
    for (const CompiledHitboxSet& s : hitboxSets) {
        n += s.boxes.size();
    }
    return n;
}

std::vector<std::vector<std::string>> CompiledModelInfo::skinMaterialNames() const
{
    std::vector<std::vector<std::string>> out;
    for (const std::vector<std::int32_t>& row : skins) {
        std::vector<std::string> names;
        for (const std::int32_t t : row) {
            names.push_back(t >= 0 && static_cast<std::size_t>(t) < textures.size()
                                ? textures[static_cast<std::size_t>(t)].name
                                : std::string());
        }
        out.push_back(std::move(names));
    }
    return out;
}

CompiledReadResult readSourceMdl(const SourceMdlFiles& files, const ReadContext& ctx,
                                 const CompiledReadOptions& options)
{
    CompiledReadResult r;
    CompiledModelInfo& info = r.info;
    info.engine = "source";
    FileReader f(files.mdl.bytes, files.mdl.fileName.empty() ? ctx.fileName : files.mdl.fileName);
    const Bytes& b = f.b;
    const auto finish = [&](const std::vector<FileReader*>& readers) {
        for (FileReader* x : readers) {
            for (Diagnostic& d : x->sink.take()) {
                r.diagnostics.push_back(std::move(d));
            }
        }
    };
    if (b.size() < 8 || b.u32(0) != kIdst) {
        f.sink.error(ids::kCompiledBadVersion, at(0),
                     b.size() < 8
                         ? "a .mdl header is 408 bytes, the file has " + std::to_string(b.size())
                         : "not a compiled model: the magic is not 'IDST'");
        finish({&f});
        return r;
    }
    info.version = b.i32(4);
    if (info.version < 44 || info.version > 49) {
        f.sink.error(ids::kCompiledBadVersion, at(4),
                     "mdl version " + std::to_string(info.version) +
                         ", expected 44 to 49 (Source) or 10 (GoldSrc)");
        finish({&f});
        return r;
    }
    if (b.size() < static_cast<std::size_t>(kHeaderSize)) {
        f.corrupt(0, "a .mdl header is 408 bytes, the file has " + std::to_string(b.size()));
        finish({&f});
        return r;
    }
    info.checksum = b.i32(8);
    info.name = b.fixedString(12, 64);
    const std::int32_t length = b.i32(76);
    if (length != static_cast<std::int32_t>(b.size())) {
        f.corrupt(76, "the header says " + std::to_string(length) + " bytes, the file has " +
                          std::to_string(b.size()));
    }
    info.eyePosition = b.vec3(80);
    info.illumPosition = b.vec3(92);
    info.hullMin = b.vec3(104);
    info.hullMax = b.vec3(116);
    info.viewMin = b.vec3(128);
    info.viewMax = b.vec3(140);
    info.flags = b.i32(152);
    info.surfaceProp = f.name(0, b.i32(308));
    const std::int32_t kvSize = b.i32(316);
    if (kvSize > 0 && b.has(b.i32(312), kvSize)) {
        info.keyValues = b.fixedString(b.i32(312), static_cast<std::size_t>(kvSize));
    }
    info.mass = b.f32(328);
    info.animBlockName = f.name(0, b.i32(348));
    info.animBlocks = std::max(0, b.i32(352));
    const std::int32_t hdr2 = b.i32(400);
    if (hdr2 != 0 && b.has(hdr2, 24)) {
        info.illumPositionAttachment = b.i32(hdr2 + 8);
        const std::int32_t nameIndex = b.i32(hdr2 + 20);
        if (nameIndex != 0) {
            info.name = f.name(hdr2, nameIndex);
        }
    }

    readBones(f, info);
    readBoneControllers(f, info);
    readHitboxSets(f, info);
    readAttachments(f, info);
    readMaterials(f, info);
    readPoseAndFlex(f, info);
    readAnimDescs(f, info);
    readSequences(f, info);
    readBodyparts(f, info);
    mdl::readFlexRules(f, info);
    mdl::readIk(f, info);
    mdl::readVertexAnimations(f, info);

    r.model.format = "mdl";
    r.model.version = info.version;
    r.model.kind = ModelKind::Reference;
    buildSkeleton(info, r.model);
    r.hasModel = true;

    // Vertices in the .mdl: then the .vvd and .vtx are needed.
    std::int64_t mdlVertices = 0;
    for (const CompiledBodypart& p : info.bodyparts) {
        for (const CompiledSubModel& m : p.models) {
            mdlVertices += std::max(0, m.vertices);
        }
    }
    FileReader vvd(files.vvd.bytes, files.vvd.fileName);
    FileReader vtx(files.vtx.bytes, files.vtx.fileName);
    std::vector<VvdVertex> vertices;
    if (files.vvd.present) {
        info.hasVvd = true;
        vertices = readVvd(vvd, info.checksum, info);
    } else if (mdlVertices > 0) {
        f.sink.error(ids::kCompiledMissingCompanion, {},
                     "no .vvd beside the model (" + std::to_string(mdlVertices) + " vertices)");
    }
    std::vector<VtxTriangle> tris;
    if (files.vtx.present) {
        info.hasVtx = true;
        const Bytes& vb = vtx.b;
        if (vb.size() < 36) {
            vtx.corrupt(0, "a .vtx header is 36 bytes, the file has " + std::to_string(vb.size()));
        } else if (vb.i32(0) != 7) {
            vtx.sink.error(ids::kCompiledBadVersion, at(0),
                           "vtx version " + std::to_string(vb.i32(0)) + ", expected 7");
        } else {
            if (vb.i32(16) != info.checksum) {
                vtx.sink.error(ids::kCompiledChecksumMismatch, at(16),
                               "checksum " + hex32(vb.i32(16)) + ", the .mdl has " +
                                   hex32(info.checksum));
            }
            // Strip headers grew by 8 bytes (topology) in version 49 files: try the layout
            // the version suggests, then the other; report with the one that fits best.
            const VtxLayout small{25, 27}, large{33, 35};
            VtxLayout first = info.version >= 49 ? large : small;
            VtxLayout second = info.version >= 49 ? small : large;
            VtxWalk probe{vtx, info, first};
            probe.vertexCount = vertices.size();
            VtxLayout use = first;
            if (!probe.run()) {
                VtxWalk probe2{vtx, info, second};
                probe2.vertexCount = vertices.size();
                if (probe2.run()) {
                    use = second;
                }
            }
            VtxWalk walk{vtx, info, use, true, options.lod, &tris};
            walk.vertexCount = vertices.size();
            walk.run();
        }
    } else if (mdlVertices > 0) {
        f.sink.error(ids::kCompiledMissingCompanion, {},
                     "no .vtx beside the model (" + std::to_string(mdlVertices) + " vertices)");
    }
    std::vector<Diagnostic> phyDiagnostics; // reported after the .vvd's and the .vtx's
    if (files.phy.present) {
        readSourcePhy(files.phy, info.bones, info.checksum, true, info.physics, phyDiagnostics);
    }
    buildMesh(info, vertices, tris, options.skin, r.model, vvd, info);
    mdl::buildFlexShapes(info, r.model);

    if (options.animations) {
        mdl::AnimSources src;
        src.mdl = &f;
        src.ani = Bytes(files.ani.bytes);
        src.aniName = files.ani.fileName;
        src.animBlockIndex = b.i32(356);
        src.animBlocks = info.animBlocks;
        mdl::decodeSourceAnimations(src, r, options);
    } else {
        info.sequenceAnimation.assign(info.sequences.size(), -1);
    }
    finish({&f, &vvd, &vtx});
    for (Diagnostic& d : phyDiagnostics) {
        r.diagnostics.push_back(std::move(d));
    }
    return r;
}

} // namespace rigscope::core
