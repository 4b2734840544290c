// GoldSrc .mdl version 10 (Half-Life SDK engine/studio.h; docs/compiled.md §GoldSrc): bones,
// bone controllers, hitboxes, sequences and events, sequence groups (NAME01.mdl ...),
// bodyparts / models / meshes as triangle strips and fans (tri commands), skin families and
// the 8-bit paletted textures (in the model or in NAMEt.mdl). Offsets are from the start of
// the file that holds them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

#include <Eigen/Geometry>

#include "core/build/model_builder.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/mdl/goldsrc_flags.h"
#include "core/formats/mdl/source_mdl_internal.h"

namespace rigscope::core {

using mdl::Bytes;
using mdl::FileReader;

namespace {

constexpr std::uint32_t kIdst = 0x54534449;
constexpr std::uint32_t kAftb = 0x42544641;         // Afterburner's abstudiomdl (docs/compiled.md)
constexpr std::int32_t kNoEmbeddedTextures = 0x800; // STUDIO_NO_EMBEDDED_TEXTURES (Afterburner)
constexpr std::uint32_t kIdsq = 0x51534449;
constexpr std::int64_t kHeaderSize = 244;
constexpr std::int64_t kBoneSize = 112;
constexpr std::int64_t kBoneControllerSize = 24;
constexpr std::int64_t kHitboxSize = 32;
constexpr std::int64_t kSeqSize = 176;
constexpr std::int64_t kEventSize = 76;
constexpr std::int64_t kSeqGroupSize = 104;
constexpr std::int64_t kTextureSize = 80;
constexpr std::int64_t kBodypartSize = 76;
constexpr std::int64_t kModelSize = 112;
constexpr std::int64_t kMeshSize = 20;
constexpr std::int64_t kAttachmentSize = 88;

SourceLoc at(std::int64_t off)
{
    return SourceLoc{0, 0, static_cast<std::uint64_t>(off < 0 ? 0 : off)};
}

Eigen::Matrix3d eulerMatrix(const Vec3& e)
{
    return (Eigen::AngleAxisd(double(e.z()), Eigen::Vector3d::UnitZ()) *
            Eigen::AngleAxisd(double(e.y()), Eigen::Vector3d::UnitY()) *
            Eigen::AngleAxisd(double(e.x()), Eigen::Vector3d::UnitX()))
        .toRotationMatrix();
}

// `externalTextures`: the skin table names textures another file holds (Pathos .vbm).
// `onDisk`: an Afterburner model with STUDIO_NO_EMBEDDED_TEXTURES, whose texture records name
// PNG files under the game's textures/ folder and give their size, with no pixels (Xash3D's
// R_StudioLoadTextureFromDisk loads them by that name).
void readTextures(FileReader& f, CompiledModelInfo& info, bool externalTextures, bool onDisk)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(180);
    const std::int32_t index = b.i32(184);
    if (f.fits(180, 0, n, index, kTextureSize, "textures")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kTextureSize;
            CompiledTexture t;
            t.name = b.fixedString(o, 64);
            t.flags = b.i32(o + 64);
            t.width = b.i32(o + 68);
            t.height = b.i32(o + 72);
            const std::int32_t data = b.i32(o + 76);
            const std::int64_t pixels = std::int64_t(t.width) * t.height;
            if (t.width <= 0 || t.height <= 0 || t.width > 4096 || t.height > 4096) {
                f.corrupt(o + 68, "texture '" + t.name + "' is " + std::to_string(t.width) + " x " +
                                      std::to_string(t.height));
            } else if (onDisk) {
                // no pixels in the model: the viewer loads the file
            } else if (!b.has(data, pixels + 768)) {
                f.corrupt(o + 76,
                          "the pixels of texture '" + t.name + "' run past the end of the file");
            } else {
                const std::string_view px = b.view().substr(static_cast<std::size_t>(data),
                                                            static_cast<std::size_t>(pixels));
                const std::string_view pal =
                    b.view().substr(static_cast<std::size_t>(data + pixels), 768);
                t.indices.assign(px.begin(), px.end());
                t.palette.assign(pal.begin(), pal.end());
            }
            info.textures.push_back(std::move(t));
        }
    }
    mdl::readSkinTable(f, 192, externalTextures ? std::numeric_limits<std::int16_t>::max() : n,
                       "texture", info);
}

// The RLE value of `frame` at `ptr` (mstudioanimvalue_t runs); 0 and a report when broken.
bool animValue(const Bytes& b, std::int64_t ptr, std::int32_t frame, float& out)
{
    std::int64_t k = frame;
    while (true) {
        if (!b.has(ptr, 2)) {
            return false;
        }
        const std::int64_t valid = b.u8(ptr);
        const std::int64_t total = b.u8(ptr + 1);
        if (total == 0) {
            return false;
        }
        if (total > k) {
            const std::int64_t v = valid > k ? ptr + 2 * (k + 1) : ptr + 2 * valid;
            if (valid == 0 || !b.has(v, 2)) {
                return false;
            }
            out = static_cast<float>(b.i16(v));
            return true;
        }
        k -= total;
        ptr += 2 * (valid + 1);
    }
}

} // namespace

std::vector<std::string> goldsrcTextureFlagNames(std::int32_t flags)
{
    static constexpr const char* kNames[] = {"flatshade", "chrome",   "fullbright", "nomips",
                                             "alpha",     "additive", "masked"};
    std::vector<std::string> out;
    const auto bits = static_cast<std::uint32_t>(flags);
    for (std::uint32_t bit = 0; bit < 32; ++bit) {
        if ((bits & (1u << bit)) == 0) {
            continue;
        }
        if (bit < std::size(kNames)) {
            out.emplace_back(kNames[bit]);
        } else {
            char buf[16];
            std::snprintf(buf, sizeof buf, "0x%X", 1u << bit);
            out.emplace_back(buf);
        }
    }
    return out;
}

CompiledReadResult readGoldsrcMdl(const GoldsrcMdlFiles& files, const ReadContext& ctx,
                                  const CompiledReadOptions& options)
{
    CompiledReadResult r;
    CompiledModelInfo& info = r.info;
    info.engine = "goldsrc";
    FileReader f(files.mdl.bytes, files.mdl.fileName.empty() ? ctx.fileName : files.mdl.fileName);
    FileReader tex(files.textures.bytes, files.textures.fileName);
    std::vector<FileReader> groups;
    groups.reserve(files.sequenceGroups.size());
    for (const CompiledFile& g : files.sequenceGroups) {
        groups.emplace_back(g.bytes, g.fileName);
    }
    const auto finish = [&] {
        for (FileReader* x : {&f, &tex}) {
            for (Diagnostic& d : x->sink.take()) {
                r.diagnostics.push_back(std::move(d));
            }
        }
        for (FileReader& g : groups) {
            for (Diagnostic& d : g.sink.take()) {
                r.diagnostics.push_back(std::move(d));
            }
        }
    };
    const Bytes& b = f.b;
    const bool aftb = b.size() >= 8 && b.u32(0) == kAftb;
    if (b.size() < 8 || (b.u32(0) != kIdst && !aftb) || b.i32(4) != 10) {
        const bool magicOk = b.size() >= 8 && (b.u32(0) == kIdst || aftb);
        f.sink.error(ids::kCompiledBadVersion, at(magicOk ? 4 : 0),
                     magicOk ? "mdl version " + std::to_string(b.i32(4)) + ", expected 10 (GoldSrc)"
                             : std::string("not a GoldSrc model: the magic is not 'IDST'"));
        finish();
        return r;
    }
    info.version = 10;
    if (aftb) {
        info.variant = "afterburner";
    }
    if (b.size() < static_cast<std::size_t>(kHeaderSize)) {
        f.corrupt(0,
                  "a GoldSrc .mdl header is 244 bytes, the file has " + std::to_string(b.size()));
        finish();
        return r;
    }
    info.name = b.fixedString(8, 64);
    if (b.i32(72) != static_cast<std::int32_t>(b.size())) {
        f.corrupt(72, "the header says " + std::to_string(b.i32(72)) + " bytes, the file has " +
                          std::to_string(b.size()));
    }
    info.eyePosition = b.vec3(76);
    info.hullMin = b.vec3(88);
    info.hullMax = b.vec3(100);
    info.viewMin = b.vec3(112);
    info.viewMax = b.vec3(124);
    info.flags = b.i32(136);

    // bones
    std::int32_t n = b.i32(140);
    std::int32_t index = b.i32(144);
    if (f.fits(140, 0, n, index, kBoneSize, "bones")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kBoneSize;
            CompiledBone bone;
            bone.offset = static_cast<std::uint64_t>(o);
            bone.name = b.fixedString(o, 32);
            bone.parent = b.i32(o + 32);
            bone.flags = b.i32(o + 36);
            for (std::size_t c = 0; c < 6; ++c) {
                bone.controllers[c] = b.i32(o + 40 + 4 * std::int64_t(c));
            }
            bone.position = b.vec3(o + 64);
            bone.rotation = b.vec3(o + 76);
            bone.positionScale = b.vec3(o + 88);
            bone.rotationScale = b.vec3(o + 100);
            bone.quaternion = mdl::eulerToQuaternion(bone.rotation);
            if (bone.parent < -1 || bone.parent >= i) {
                f.corrupt(o + 32, "bone " + std::to_string(i) + " '" + bone.name + "' has parent " +
                                      std::to_string(bone.parent) +
                                      ", not an earlier bone; made a root");
                bone.parent = -1;
            }
            info.bones.push_back(std::move(bone));
        }
    }
    n = b.i32(148);
    index = b.i32(152);
    if (f.fits(148, 0, n, index, kBoneControllerSize, "bone controllers")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kBoneControllerSize;
            info.boneControllers.push_back({b.i32(o), b.i32(o + 4), b.f32(o + 8), b.f32(o + 12),
                                            b.i32(o + 16), b.i32(o + 20)});
        }
    }
    n = b.i32(156);
    index = b.i32(160);
    if (f.fits(156, 0, n, index, kHitboxSize, "hitboxes")) {
        CompiledHitboxSet set;
        set.name = "default";
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kHitboxSize;
            set.boxes.push_back({b.i32(o), b.i32(o + 4), b.vec3(o + 8), b.vec3(o + 20), {}});
        }
        info.hitboxSets.push_back(std::move(set));
    }
    n = b.i32(212);
    index = b.i32(216);
    if (f.fits(212, 0, n, index, kAttachmentSize, "attachments")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kAttachmentSize;
            CompiledAttachment a;
            a.name = b.fixedString(o, 32);
            a.bone = b.i32(o + 36);
            const Vec3 org = b.vec3(o + 40);
            a.local = {1, 0, 0, org.x(), 0, 1, 0, org.y(), 0, 0, 1, org.z()};
            info.attachments.push_back(std::move(a));
        }
    }

    // textures: in the model, or in NAMEt.mdl when the model has none. A Pathos model keeps its
    // meshes and textures in NAME.vbm; its .mdl holds a placeholder texture.
    const bool pathos = files.vbm.present && files.vbm.bytes.substr(0, 3) == "VBM";
    if (pathos) {
        f.sink.note(ids::kCompiledUnreadCompanion, at(0),
                    "a Pathos engine model: its meshes and textures are in " + files.vbm.fileName +
                        ", which RigScope does not read; bones, sequences, hitboxes and "
                        "attachments are shown");
    }
    if (b.i32(180) != 0) {
        readTextures(f, info, pathos, aftb && (info.flags & kNoEmbeddedTextures) != 0);
    } else {
        if (files.textures.present) {
            const Bytes& tb = tex.b;
            const bool texAftb = tb.size() >= 8 && tb.u32(0) == kAftb;
            if (tb.size() < static_cast<std::size_t>(kHeaderSize) ||
                (tb.u32(0) != kIdst && !texAftb) || tb.i32(4) != 10) {
                tex.sink.error(ids::kCompiledBadVersion, at(0),
                               "not a GoldSrc texture model (IDST version 10)");
            } else {
                readTextures(tex, info, pathos,
                             texAftb && (tb.i32(136) & kNoEmbeddedTextures) != 0);
            }
        } else if (!pathos && !info.bones.empty() && b.i32(204) > 0) {
            f.sink.error(ids::kCompiledMissingCompanion, {},
                         "the model has no textures and its texture file (NAMEt.mdl) is missing");
        } else if (b.i32(192) == 0) {
            // No texture at all (an empty source): HL1 SetSkinValues gives 1 family of 0
            // references and WriteTextures writes it in the model itself (Afterburner's
            // speaker_alarm); a model whose textures are apart has 0 of both here.
            mdl::readSkinTable(f, 192, 0, "texture", info);
        }
    }

    // sequence groups and sequences
    info.sequenceGroups = std::max(0, b.i32(172));
    n = b.i32(164);
    index = b.i32(168);
    std::vector<std::int32_t> animIndex;
    if (f.fits(164, 0, n, index, kSeqSize, "sequences")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kSeqSize;
            CompiledSequence s;
            s.name = b.fixedString(o, 32);
            s.fps = b.f32(o + 32);
            s.flags = b.i32(o + 36);
            s.looping = (s.flags & 1) != 0;
            s.activity = b.i32(o + 40);
            s.activityWeight = b.i32(o + 44);
            s.frames = std::max(0, b.i32(o + 56));
            s.bbMin = b.vec3(o + 96);
            s.bbMax = b.vec3(o + 108);
            s.blends = b.i32(o + 120);
            s.sequenceGroup = b.i32(o + 156);
            const std::int32_t nEvents = b.i32(o + 48);
            const std::int32_t eventIndex = b.i32(o + 52);
            if (f.fits(o + 48, 0, nEvents, eventIndex, kEventSize, "events")) {
                for (std::int32_t e = 0; e < nEvents; ++e) {
                    const std::int64_t eo = eventIndex + std::int64_t(e) * kEventSize;
                    CompiledEvent ev;
                    ev.cycle = static_cast<float>(b.i32(eo));
                    ev.event = b.i32(eo + 4);
                    ev.type = b.i32(eo + 8);
                    ev.options = b.fixedString(eo + 12, 64);
                    s.events.push_back(std::move(ev));
                }
            }
            animIndex.push_back(b.i32(o + 124));
            info.sequences.push_back(std::move(s));
        }
    }
    if (info.sequenceGroups > 1) {
        for (std::int32_t g = 1; g < info.sequenceGroups; ++g) {
            const std::size_t gi = static_cast<std::size_t>(g - 1);
            if (gi >= files.sequenceGroups.size() || !files.sequenceGroups[gi].present) {
                char name[16];
                std::snprintf(name, sizeof name, "%02d", g);
                f.sink.error(ids::kCompiledMissingCompanion, at(172),
                             std::string("sequence group ") + name + " (NAME" + name +
                                 ".mdl) is missing; its sequences are not read");
                continue;
            }
            const Bytes& gb = groups[gi].b;
            if (gb.size() < 8 || gb.u32(0) != kIdsq || gb.i32(4) != 10) {
                groups[gi].sink.error(ids::kCompiledBadVersion, at(0),
                                      "not a GoldSrc sequence group (IDSQ version 10)");
            }
        }
    }

    // bodyparts, models, meshes
    r.model.format = "mdl";
    r.model.version = 10;
    r.model.kind = ModelKind::Reference;
    Skeleton& skel = r.model.skeleton;
    std::vector<Eigen::Matrix3d> worldRot;
    std::vector<Eigen::Vector3d> worldPos;
    for (std::size_t i = 0; i < info.bones.size(); ++i) {
        const CompiledBone& bone = info.bones[i];
        const JointIndex j = skel.addJoint(bone.name, bone.parent, static_cast<std::int32_t>(i),
                                           at(static_cast<std::int64_t>(bone.offset)));
        skel.bindPositions[static_cast<std::size_t>(j)] = bone.position;
        skel.bindRotations[static_cast<std::size_t>(j)] = bone.rotation;
        skel.bindWhere[static_cast<std::size_t>(j)] =
            at(static_cast<std::int64_t>(bone.offset) + 64);
        const Eigen::Matrix3d local = eulerMatrix(bone.rotation);
        const Eigen::Vector3d p = bone.position.cast<double>();
        if (bone.parent < 0) {
            worldRot.push_back(local);
            worldPos.push_back(p);
        } else {
            const auto pi = static_cast<std::size_t>(bone.parent);
            worldRot.push_back(worldRot[pi] * local);
            worldPos.push_back(worldRot[pi] * p + worldPos[pi]);
        }
    }
    Mesh& mesh = r.model.mesh;
    for (const CompiledTexture& t : info.textures) {
        Material m;
        m.name = t.name;
        mesh.materials.push_back(std::move(m));
    }
    n = b.i32(204);
    index = b.i32(208);
    if (f.fits(204, 0, n, index, kBodypartSize, "bodyparts")) {
        for (std::int32_t p = 0; p < n; ++p) {
            const std::int64_t po = index + std::int64_t(p) * kBodypartSize;
            CompiledBodypart part;
            part.name = b.fixedString(po, 64);
            part.base = b.i32(po + 68);
            const std::int32_t nModels = b.i32(po + 64);
            const std::int32_t modelIndex = b.i32(po + 72);
            std::vector<std::int32_t> objects;
            if (f.fits(po + 64, 0, nModels, modelIndex, kModelSize, "models")) {
                for (std::int32_t m = 0; m < nModels; ++m) {
                    const std::int64_t mo = modelIndex + std::int64_t(m) * kModelSize;
                    CompiledSubModel sub;
                    sub.name = b.fixedString(mo, 64);
                    sub.radius = b.f32(mo + 68);
                    const std::int32_t nVerts = b.i32(mo + 80);
                    const std::int32_t vertInfo = b.i32(mo + 84);
                    const std::int32_t vertIndex = b.i32(mo + 88);
                    const std::int32_t nNorms = b.i32(mo + 92);
                    const std::int32_t normInfo = b.i32(mo + 96);
                    const std::int32_t normIndex = b.i32(mo + 100);
                    sub.vertices = std::max(0, nVerts);
                    const bool vertsOk = f.fits(mo + 80, 0, nVerts, vertIndex, 12, "vertices") &&
                                         f.fits(mo + 80, 0, nVerts, vertInfo, 1, "vertex bones");
                    const bool normsOk = f.fits(mo + 92, 0, nNorms, normIndex, 12, "normals") &&
                                         f.fits(mo + 92, 0, nNorms, normInfo, 1, "normal bones");
                    const std::int32_t nMeshes = b.i32(mo + 72);
                    const std::int32_t meshIndex = b.i32(mo + 76);
                    std::int32_t object = -1;
                    std::int32_t firstPoint = static_cast<std::int32_t>(mesh.pointCount());
                    if (vertsOk && normsOk &&
                        f.fits(mo + 72, 0, nMeshes, meshIndex, kMeshSize, "meshes")) {
                        // points: the vertices in model space (the file keeps them in their
                        // bone's space)
                        for (std::int32_t v = 0; v < nVerts; ++v) {
                            std::uint8_t bone = b.u8(vertInfo + v);
                            Vec3 pos = b.vec3(vertIndex + std::int64_t(v) * 12);
                            JointIndex joint = kNoJoint;
                            if (bone < info.bones.size()) {
                                joint = bone;
                                pos = (worldRot[bone] * pos.cast<double>() + worldPos[bone])
                                          .cast<float>();
                            } else {
                                f.corrupt(vertInfo + v, "vertex " + std::to_string(v) +
                                                            " names bone " + std::to_string(bone) +
                                                            " of " +
                                                            std::to_string(info.bones.size()));
                                bone = 0;
                            }
                            const float one = 1.0f;
                            appendPoint(mesh, pos, joint, LinkState::List, &joint, &one,
                                        joint == kNoJoint ? 0 : 1,
                                        at(vertIndex + std::int64_t(v) * 12));
                        }
                        for (std::int32_t k = 0; k < nMeshes; ++k) {
                            const std::int64_t me = meshIndex + std::int64_t(k) * kMeshSize;
                            CompiledMesh cm;
                            cm.material = b.i32(me + 8);
                            const std::int32_t triIndex = b.i32(me + 4);
                            std::int32_t material = 0;
                            const std::size_t family =
                                options.skin > 0 && std::size_t(options.skin) < info.skins.size()
                                    ? std::size_t(options.skin)
                                    : 0;
                            if (!info.skins.empty() && cm.material >= 0 &&
                                static_cast<std::size_t>(cm.material) < info.skins[family].size()) {
                                material =
                                    info.skins[family][static_cast<std::size_t>(cm.material)];
                            }
                            const CompiledTexture* texture =
                                static_cast<std::size_t>(material) < info.textures.size()
                                    ? &info.textures[static_cast<std::size_t>(material)]
                                    : nullptr;
                            const float tw =
                                texture && texture->width > 0 ? float(texture->width) : 1.0f;
                            const float th =
                                texture && texture->height > 0 ? float(texture->height) : 1.0f;
                            if (mesh.materials.empty()) {
                                mesh.materials.push_back(Material{});
                            }
                            // tri commands: count > 0 strip, < 0 fan, 0 end
                            std::int64_t c = triIndex;
                            std::int32_t tris = 0;
                            for (std::int32_t guard = 0;; ++guard) {
                                if (!b.has(c, 2) || guard > 1 << 20) {
                                    f.corrupt(c, "the triangle commands of model '" + sub.name +
                                                     "' run past the end of the file");
                                    break;
                                }
                                const std::int32_t count = b.i16(c);
                                c += 2;
                                if (count == 0) {
                                    break;
                                }
                                const bool fan = count < 0;
                                const std::int32_t nv = fan ? -count : count;
                                if (!b.has(c, std::int64_t(nv) * 8)) {
                                    f.corrupt(c - 2, "a triangle command of " + std::to_string(nv) +
                                                         " vertices runs past the end of the file");
                                    break;
                                }
                                const auto cornerOk = [&](std::int64_t vo) {
                                    return b.i16(vo) >= 0 && b.i16(vo) < nVerts &&
                                           b.i16(vo + 2) >= 0 && b.i16(vo + 2) < nNorms;
                                };
                                for (std::int32_t j = 2; j < nv; ++j) {
                                    std::int64_t idx[3];
                                    if (fan) {
                                        idx[0] = 0;
                                        idx[1] = j - 1;
                                        idx[2] = j;
                                    } else if (j % 2 == 1) {
                                        idx[0] = j - 1;
                                        idx[1] = j - 2;
                                        idx[2] = j;
                                    } else {
                                        idx[0] = j - 2;
                                        idx[1] = j - 1;
                                        idx[2] = j;
                                    }
                                    // The tri commands wind clockwise: reverse to the Model's
                                    // counter-clockwise order.
                                    std::swap(idx[1], idx[2]);
                                    bool ok = true;
                                    for (const std::int64_t x : idx) {
                                        ok = ok && cornerOk(c + 8 * x);
                                    }
                                    if (!ok) {
                                        f.corrupt(c, "a triangle command names a vertex or normal "
                                                     "outside model '" +
                                                         sub.name + "'");
                                        continue;
                                    }
                                    if (object < 0) {
                                        object = static_cast<std::int32_t>(mesh.objects.size());
                                        mesh.objects.push_back(part.name + "/" + sub.name);
                                    }
                                    for (const std::int64_t x : idx) {
                                        const std::int64_t vo = c + 8 * x;
                                        const std::int16_t vi = b.i16(vo);
                                        const std::int16_t ni = b.i16(vo + 2);
                                        const std::uint8_t nb = b.u8(normInfo + ni);
                                        Vec3 nrm = b.vec3(normIndex + std::int64_t(ni) * 12);
                                        if (nb < info.bones.size()) {
                                            nrm = (worldRot[nb] * nrm.cast<double>()).cast<float>();
                                        }
                                        mesh.cornerPoints.push_back(
                                            static_cast<std::uint32_t>(firstPoint + vi));
                                        mesh.cornerNormals.push_back(nrm);
                                        mesh.cornerUvs.push_back(
                                            Vec2(float(b.i16(vo + 4)) / tw,
                                                 1.0f - float(b.i16(vo + 6)) / th));
                                        mesh.cornerWhere.push_back(at(vo));
                                    }
                                    mesh.triangleMaterials.push_back(
                                        static_cast<std::uint32_t>(std::clamp<std::int32_t>(
                                            material, 0,
                                            static_cast<std::int32_t>(mesh.materials.size()) - 1)));
                                    mesh.triangleObjects.push_back(
                                        static_cast<std::uint32_t>(object));
                                    mesh.triangleWhere.push_back(at(c - 2));
                                    ++tris;
                                }
                                c += std::int64_t(nv) * 8;
                            }
                            cm.lodTriangles = {tris};
                            sub.triangles += tris;
                            sub.meshes.push_back(std::move(cm));
                        }
                    }
                    sub.lodTriangles = {sub.triangles};
                    sub.lodVertices = {sub.vertices};
                    objects.push_back(object);
                    part.models.push_back(std::move(sub));
                }
            }
            info.choiceObjects.push_back(std::move(objects));
            info.bodyparts.push_back(std::move(part));
        }
    }
    if (mesh.triangleMaterials.empty()) {
        mesh.triangleObjects.clear();
    }
    r.hasModel = true;

    // animations: blend 0 of each sequence
    info.sequenceAnimation.assign(info.sequences.size(), -1);
    const std::size_t nBones = info.bones.size();
    if (options.animations && nBones > 0) {
        for (std::size_t s = 0; s < info.sequences.size(); ++s) {
            const CompiledSequence& seq = info.sequences[s];
            FileReader* src = &f;
            if (seq.sequenceGroup > 0) {
                const auto gi = static_cast<std::size_t>(seq.sequenceGroup - 1);
                if (gi >= groups.size() || !files.sequenceGroups[gi].present) {
                    continue;
                }
                src = &groups[gi];
            } else if (seq.sequenceGroup < 0) {
                continue;
            }
            const Bytes& ab = src->b;
            const std::int64_t base = animIndex[s];
            if (!ab.array(base, std::int64_t(nBones), 12)) {
                src->corrupt(base, "the animation of sequence '" + seq.name +
                                       "' runs past the end of the file");
                continue;
            }
            std::int32_t frames = std::max(seq.frames, 1);
            const std::size_t cap = std::max<std::size_t>(1, options.maxAnimationKeys / nBones);
            if (static_cast<std::size_t>(frames) > cap) {
                frames = static_cast<std::int32_t>(cap);
            }
            Animation anim;
            anim.name = seq.name;
            anim.fps = seq.fps > 0 && std::isfinite(seq.fps) ? seq.fps : 30.0f;
            anim.fpsFromFile = seq.fps > 0;
            anim.jointCount = nBones;
            const std::size_t keys = static_cast<std::size_t>(frames) * nBones;
            anim.positions.resize(keys);
            anim.rotations.resize(keys);
            anim.explicitKey.assign(keys, 1);
            bool reported = false;
            for (std::int32_t fr = 0; fr < frames; ++fr) {
                anim.times.push_back(fr);
                anim.frameWhere.push_back(at(base));
                for (std::size_t j = 0; j < nBones; ++j) {
                    const CompiledBone& bone = info.bones[j];
                    const std::int64_t bo = base + std::int64_t(j) * 12;
                    float v[6];
                    for (int c = 0; c < 6; ++c) {
                        const float def = c < 3 ? bone.position[c] : bone.rotation[c - 3];
                        const float scale =
                            c < 3 ? bone.positionScale[c] : bone.rotationScale[c - 3];
                        v[c] = def;
                        const std::uint16_t off = ab.u16(bo + 2 * c);
                        float raw = 0;
                        if (off != 0) {
                            if (animValue(ab, bo + off, fr, raw)) {
                                v[c] = def + raw * scale;
                            } else if (!reported) {
                                reported = true;
                                src->corrupt(bo + 2 * c, "an animation value list of sequence '" +
                                                             seq.name + "' is broken");
                            }
                        }
                    }
                    const std::size_t k = static_cast<std::size_t>(fr) * nBones + j;
                    anim.positions[k] = Vec3(v[0], v[1], v[2]);
                    anim.rotations[k] = Vec3(v[3], v[4], v[5]);
                }
            }
            for (const CompiledEvent& e : seq.events) {
                Notetrack note;
                note.frame = e.cycle;
                note.text = std::to_string(e.event);
                if (!e.options.empty()) {
                    note.text += ' ';
                    note.text += e.options;
                }
                anim.notes.push_back(std::move(note));
            }
            if (!anim.notes.empty()) {
                anim.noteStyle = NoteStyle::Flat;
            }
            info.sequenceAnimation[s] = static_cast<std::int32_t>(r.model.animations.size());
            r.model.animations.push_back(std::move(anim));
        }
    }
    finish();
    return r;
}

} // namespace rigscope::core
