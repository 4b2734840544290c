// Source bone animation: every sequence's first animation (blend 0, 0) decoded into a
// Model animation of parent-relative positions and Euler XYZ rotations (docs/compiled.md
// §Animations). Encodings: Quaternion48, Quaternion64, Vector48, RLE mstudioanimvalue_t
// channels (Euler angles and positions, scaled by the bone's rotscale / posscale), delta
// animations, sections and .ani animation blocks, and CS:GO's frame-major encoding
// (STUDIO_FRAMEANIM: Quaternion48S, constants and per-frame values).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/formats/mdl/source_mdl_internal.h"

namespace rigscope::core::mdl {

Vec3 quaternionToEuler(double x, double y, double z, double w) noexcept
{
    const double n = std::sqrt(x * x + y * y + z * z + w * w);
    if (!(n > 0.0) || !std::isfinite(n)) {
        return Vec3::Zero();
    }
    x /= n;
    y /= n;
    z /= n;
    w /= n;
    const double m00 = 1 - 2 * (y * y + z * z);
    const double m10 = 2 * (x * y + z * w);
    const double m20 = 2 * (x * z - y * w);
    const double m21 = 2 * (y * z + x * w);
    const double m22 = 1 - 2 * (x * x + y * y);
    const double m11 = 1 - 2 * (x * x + z * z);
    const double m12 = 2 * (y * z - x * w);
    const double sb = std::clamp(-m20, -1.0, 1.0);
    const double b = std::asin(sb);
    double a = 0;
    double c = 0;
    if (std::sqrt(m21 * m21 + m22 * m22) > 1e-9) {
        a = std::atan2(m21, m22);
        c = std::atan2(m10, m00);
    } else { // pitch at +-90 degrees: roll and yaw share an axis; put it all in roll
        a = std::atan2(-m12, m11);
    }
    return Vec3(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c));
}

Vec4 eulerToQuaternion(const Vec3& e) noexcept
{
    const double sr = std::sin(0.5 * double(e.x())), cr = std::cos(0.5 * double(e.x()));
    const double sp = std::sin(0.5 * double(e.y())), cp = std::cos(0.5 * double(e.y()));
    const double sy = std::sin(0.5 * double(e.z())), cy = std::cos(0.5 * double(e.z()));
    return Vec4(static_cast<float>(sr * cp * cy - cr * sp * sy),
                static_cast<float>(cr * sp * cy + sr * cp * sy),
                static_cast<float>(cr * cp * sy - sr * sp * cy),
                static_cast<float>(cr * cp * cy + sr * sp * sy));
}

float halfToFloat(std::uint16_t h) noexcept
{
    const std::uint32_t sign = (h >> 15) & 1u;
    const std::uint32_t exp = (h >> 10) & 0x1Fu;
    const std::uint32_t mant = h & 0x3FFu;
    float v = 0;
    if (exp == 0) {
        v = std::ldexp(static_cast<float>(mant), -24);
    } else if (exp == 31) {
        v = 65504.0f; // Valve's float16 has no infinities: the largest value
    } else {
        v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
    }
    return sign ? -v : v;
}

namespace {

constexpr std::uint8_t kRawPos = 0x01;
constexpr std::uint8_t kRawRot = 0x02;
constexpr std::uint8_t kAnimPos = 0x04;
constexpr std::uint8_t kAnimRot = 0x08;
constexpr std::uint8_t kDeltaBone = 0x10;
constexpr std::uint8_t kRawRot2 = 0x20;
constexpr std::int32_t kStudioDelta = 0x0004;
// Per-bone flags of a frame-major animation: which values are constant (stored once) and
// which are stored in every frame, and how.
constexpr std::uint8_t kFrameRawPos = 0x01;      // constant Vector48
constexpr std::uint8_t kFrameRawRot = 0x02;      // constant Quaternion48
constexpr std::uint8_t kFrameAnimPos = 0x04;     // per-frame Vector48
constexpr std::uint8_t kFrameAnimRot = 0x08;     // per-frame Quaternion48
constexpr std::uint8_t kFrameFullAnimPos = 0x10; // per-frame Vector (three floats)
constexpr std::uint8_t kFrameConstPos2 = 0x20;   // constant Vector
constexpr std::uint8_t kFrameConstRot2 = 0x40;   // constant Quaternion48S
constexpr std::uint8_t kFrameAnimRot2 = 0x80;    // per-frame Quaternion48S

// Quaternion48: x and y in 16 bits, z in 15, the sign of w in the top bit.
Vec3 quaternion48(const Bytes& b, std::int64_t at)
{
    const std::uint64_t v =
        static_cast<std::uint64_t>(b.u32(at)) | (static_cast<std::uint64_t>(b.u16(at + 4)) << 32);
    const double x = (double(v & 0xFFFF) - 32768.0) / 32768.0;
    const double y = (double((v >> 16) & 0xFFFF) - 32768.0) / 32768.0;
    const double z = (double((v >> 32) & 0x7FFF) - 16384.0) / 16384.0;
    double w = std::sqrt(std::max(0.0, 1 - x * x - y * y - z * z));
    if ((v >> 47) & 1) {
        w = -w;
    }
    return quaternionToEuler(x, y, z, w);
}

// Quaternion48S ("smallest three"): three components in 15 bits each, scaled to +-1/sqrt(2);
// the top bits of the first two words give the index of the first stored component, the top
// bit of the third the sign of the fourth, which is rebuilt from the unit length.
Vec3 quaternion48s(const Bytes& b, std::int64_t at)
{
    constexpr double kShift = 16384.0;
    constexpr double kScale = 23168.0;
    const std::uint16_t w0 = b.u16(at), w1 = b.u16(at + 2), w2 = b.u16(at + 4);
    const int first = ((w0 >> 15) << 1) | (w1 >> 15);
    double q[4] = {0, 0, 0, 0};
    q[first] = (double(w0 & 0x7FFF) - kShift) / kScale;
    q[(first + 1) & 3] = (double(w1 & 0x7FFF) - kShift) / kScale;
    q[(first + 2) & 3] = (double(w2 & 0x7FFF) - kShift) / kScale;
    const double rest = 1 - q[first] * q[first] - q[(first + 1) & 3] * q[(first + 1) & 3] -
                        q[(first + 2) & 3] * q[(first + 2) & 3];
    q[(first + 3) & 3] = std::sqrt(std::max(0.0, rest)) * ((w2 >> 15) ? -1.0 : 1.0);
    return quaternionToEuler(q[0], q[1], q[2], q[3]);
}

Vec3 vector48(const Bytes& b, std::int64_t at)
{
    return Vec3(halfToFloat(b.u16(at)), halfToFloat(b.u16(at + 2)), halfToFloat(b.u16(at + 4)));
}

struct Decoder {
    AnimSources& src;
    const CompiledModelInfo& info;
    bool reported = false;
    bool wantedAni = false; // a frame lives in an animation block and no .ani was given

    void bad(const Bytes& where, std::int64_t off, const std::string& what)
    {
        if (reported) {
            return;
        }
        reported = true;
        if (&where == &src.mdl->b) {
            src.mdl->corrupt(off, what);
        } else {
            src.mdl->sink.error(ids::kCompiledCorrupt,
                                SourceLoc{0, 0, static_cast<std::uint64_t>(off < 0 ? 0 : off)},
                                what + " (in " + src.aniName + ")");
        }
    }

    // One RLE channel at `ptr` (mstudioanimvalue_t list): the raw value of `frame`.
    float channel(const Bytes& b, std::int64_t ptr, std::int32_t frame)
    {
        std::int64_t k = frame;
        while (true) {
            if (!b.has(ptr, 2)) {
                bad(b, ptr, "an animation value list runs past the end of the file");
                return 0;
            }
            const std::int64_t valid = b.u8(ptr);
            const std::int64_t total = b.u8(ptr + 1);
            if (total == 0) {
                bad(b, ptr, "an animation value list ends before frame " + std::to_string(frame));
                return 0;
            }
            if (total > k) {
                const std::int64_t at = valid > k ? ptr + 2 * (k + 1) : ptr + 2 * valid;
                if (valid == 0 || !b.has(at, 2)) {
                    bad(b, ptr, "an animation value run has no values");
                    return 0;
                }
                return static_cast<float>(b.i16(at));
            }
            k -= total;
            ptr += 2 * (valid + 1);
        }
    }

    Vec3 channels(const Bytes& b, std::int64_t valuePtr, std::int32_t frame, const Vec3& scale)
    {
        Vec3 out = Vec3::Zero();
        for (int c = 0; c < 3; ++c) {
            const std::int16_t offset = b.i16(valuePtr + 2 * c);
            if (offset > 0) {
                out[c] = channel(b, valuePtr + offset, frame) * scale[c];
            }
        }
        return out;
    }

    // The bytes and offset of the bone list for `frame` of animation `a`, and the frame within
    // its section; false when the data is elsewhere or missing.
    bool locate(const CompiledAnimation& a, std::int32_t frame, const Bytes*& bytes,
                std::int64_t& offset, std::int32_t& local)
    {
        std::int32_t block = a.animBlock;
        std::int64_t index = a.animIndex;
        local = frame;
        const Bytes& b = src.mdl->b;
        const std::int64_t desc = static_cast<std::int64_t>(a.offset);
        if (a.sectionFrames > 0) {
            std::int32_t section = 0;
            if (a.frames > a.sectionFrames && frame == a.frames - 1) {
                local = 0;
                section = a.frames / a.sectionFrames + 1;
            } else {
                section = frame / a.sectionFrames;
                local = frame - section * a.sectionFrames;
            }
            const std::int64_t sections = std::int64_t(a.frames) / a.sectionFrames + 2;
            const std::int64_t table = desc + b.i32(desc + 80);
            if (!b.array(table, sections, 8)) {
                bad(b, desc + 80,
                    "the section table of animation '" + a.name +
                        "' runs past the end of the file");
                return false;
            }
            block = b.i32(table + 8 * std::int64_t(section));
            index = b.i32(table + 8 * std::int64_t(section) + 4);
        }
        if (block < 0) {
            return false;
        }
        if (block == 0) {
            bytes = &b;
            offset = desc + index;
            return true;
        }
        if (block >= src.animBlocks || src.ani.size() == 0) {
            if (block < src.animBlocks) {
                wantedAni = true;
            } else {
                bad(b, desc + 52,
                    "animation '" + a.name + "' names animation block " + std::to_string(block) +
                        " of " + std::to_string(src.animBlocks));
            }
            return false;
        }
        const std::int64_t entry = src.animBlockIndex + 8 * std::int64_t(block);
        if (!b.has(entry, 8)) {
            bad(b, 356, "the animation block table runs past the end of the file");
            return false;
        }
        bytes = &src.ani;
        offset = b.i32(entry) + index;
        return true;
    }

    // One frame of a frame-major animation at `p`: a header (constants offset, frame data
    // offset, bytes per frame, 3 unused ints), a flag byte per bone, the constant values, then
    // every frame's values. Both lists go bone by bone, the rotation before the position.
    void frameMajor(const CompiledAnimation& a, const Bytes& b, std::int64_t p, std::int32_t local,
                    Vec3* pos, Vec3* rot, std::uint8_t* explicitKey)
    {
        const std::size_t nBones = info.bones.size();
        const auto count = static_cast<std::int64_t>(nBones);
        if (!b.has(p, 24 + count)) {
            bad(b, p, "the frame data of animation '" + a.name + "' runs past the end of the file");
            return;
        }
        const std::int64_t frameBytes = b.i32(p + 8);
        std::int64_t constant = p + b.i32(p);
        std::int64_t frame = p + b.i32(p + 4) + frameBytes * local;
        if (frameBytes < 0) {
            bad(b, p + 8, "animation '" + a.name + "' has a negative frame size");
            return;
        }
        // The offset of `n` bytes read from `at` onwards, or -1 (and a finding) past the end.
        auto take = [&](std::int64_t& at, std::int64_t n) {
            if (!b.has(at, n)) {
                bad(b, at, "the values of animation '" + a.name + "' run past the end of the file");
                return std::int64_t(-1);
            }
            const std::int64_t here = at;
            at += n;
            return here;
        };
        for (std::size_t j = 0; j < nBones; ++j) {
            const std::uint8_t flags = b.u8(p + 24 + static_cast<std::int64_t>(j));
            if (flags == 0) {
                continue;
            }
            std::int64_t at = -1;
            if ((flags & kFrameRawRot) && (at = take(constant, 6)) >= 0) {
                rot[j] = quaternion48(b, at);
            }
            if ((flags & kFrameConstRot2) && (at = take(constant, 6)) >= 0) {
                rot[j] = quaternion48s(b, at);
            }
            if ((flags & kFrameRawPos) && (at = take(constant, 6)) >= 0) {
                pos[j] = vector48(b, at);
            }
            if ((flags & kFrameConstPos2) && (at = take(constant, 12)) >= 0) {
                pos[j] = Vec3(b.f32(at), b.f32(at + 4), b.f32(at + 8));
            }
            if ((flags & kFrameAnimRot) && (at = take(frame, 6)) >= 0) {
                rot[j] = quaternion48(b, at);
            }
            if ((flags & kFrameAnimRot2) && (at = take(frame, 6)) >= 0) {
                rot[j] = quaternion48s(b, at);
            }
            if ((flags & kFrameAnimPos) && (at = take(frame, 6)) >= 0) {
                pos[j] = vector48(b, at);
            }
            if ((flags & kFrameFullAnimPos) && (at = take(frame, 12)) >= 0) {
                pos[j] = Vec3(b.f32(at), b.f32(at + 4), b.f32(at + 8));
            }
            explicitKey[j] = 1;
            if (reported) {
                return;
            }
        }
    }

    // Decodes one frame into positions / rotations (already holding the defaults).
    void frame(const CompiledAnimation& a, std::int32_t f, Vec3* pos, Vec3* rot,
               std::uint8_t* explicitKey)
    {
        const Bytes* bytes = nullptr;
        std::int64_t p = 0;
        std::int32_t local = 0;
        if (!locate(a, f, bytes, p, local)) {
            return;
        }
        const Bytes& b = *bytes;
        if (a.frameEncoded) {
            frameMajor(a, b, p, local, pos, rot, explicitKey);
            return;
        }
        const std::size_t nBones = info.bones.size();
        for (std::size_t guard = 0; guard <= nBones + 1; ++guard) {
            if (!b.has(p, 4)) {
                bad(b, p,
                    "the bone list of animation '" + a.name + "' runs past the end of the file");
                return;
            }
            const std::uint8_t bone = b.u8(p);
            const std::uint8_t flags = b.u8(p + 1);
            const std::int16_t next = b.i16(p + 2);
            const std::int64_t data = p + 4;
            if (bone == 0xFF && flags == 0) {
                // studiomdl's empty list (an animation of no bone): nothing to read
            } else if (bone < nBones) {
                const CompiledBone& cb = info.bones[bone];
                const bool delta = (flags & kDeltaBone) != 0;
                if (flags & kRawRot) {
                    rot[bone] = quaternion48(b, data);
                } else if (flags & kRawRot2) {
                    const std::uint64_t v = b.u64(data);
                    const double x = (double(v & 0x1FFFFF) - 1048576.0) / 1048576.5;
                    const double y = (double((v >> 21) & 0x1FFFFF) - 1048576.0) / 1048576.5;
                    const double z = (double((v >> 42) & 0x1FFFFF) - 1048576.0) / 1048576.5;
                    double w = std::sqrt(std::max(0.0, 1 - x * x - y * y - z * z));
                    if ((v >> 63) & 1) {
                        w = -w;
                    }
                    rot[bone] = quaternionToEuler(x, y, z, w);
                } else if (flags & kAnimRot) {
                    Vec3 e = channels(b, data, local, cb.rotationScale);
                    if (!delta) {
                        e += cb.rotation;
                    }
                    rot[bone] = e;
                } else {
                    rot[bone] = delta ? Vec3::Zero() : cb.rotation;
                }
                if (flags & kRawPos) {
                    const std::int64_t at =
                        data + ((flags & kRawRot) ? 6 : 0) + ((flags & kRawRot2) ? 8 : 0);
                    pos[bone] = vector48(b, at);
                } else if (flags & kAnimPos) {
                    Vec3 v =
                        channels(b, data + ((flags & kAnimRot) ? 6 : 0), local, cb.positionScale);
                    if (!delta) {
                        v += cb.position;
                    }
                    pos[bone] = v;
                } else {
                    pos[bone] = delta ? Vec3::Zero() : cb.position;
                }
                explicitKey[bone] = 1;
            } else {
                bad(b, p,
                    "animation '" + a.name + "' animates bone " + std::to_string(bone) + " of " +
                        std::to_string(nBones));
            }
            if (next == 0) {
                return;
            }
            p += next;
        }
        bad(b, p, "the bone list of animation '" + a.name + "' loops");
    }
};

} // namespace

void decodeSourceAnimations(AnimSources& src, CompiledReadResult& r,
                            const CompiledReadOptions& options)
{
    const CompiledModelInfo& info = r.info;
    r.info.sequenceAnimation.assign(info.sequences.size(), -1);
    const std::size_t nBones = info.bones.size();
    if (nBones == 0) {
        return;
    }
    Decoder dec{src, info};
    std::size_t withoutAni = 0;
    std::size_t animated = 0;
    for (std::size_t s = 0; s < info.sequences.size(); ++s) {
        const CompiledSequence& seq = info.sequences[s];
        if (seq.animations.empty()) {
            continue;
        }
        const CompiledAnimation& a = info.animations[static_cast<std::size_t>(seq.animations[0])];
        std::int32_t frames = std::max(a.frames, 1);
        const std::size_t cap = std::max<std::size_t>(1, options.maxAnimationKeys / nBones);
        if (static_cast<std::size_t>(frames) > cap) {
            src.mdl->sink.warning(ids::kCompiledCorrupt, SourceLoc{0, 0, a.offset + 16},
                                  "animation '" + a.name + "' has " + std::to_string(frames) +
                                      " frames; the first " + std::to_string(cap) + " are read");
            frames = static_cast<std::int32_t>(cap);
        }
        const bool delta = (a.flags & kStudioDelta) != 0;
        Animation anim;
        anim.name = seq.name;
        anim.kind = PoseKind::LocalEulerXYZ;
        anim.fps = a.fps > 0 && std::isfinite(a.fps) ? a.fps : 30.0f;
        anim.fpsFromFile = a.fps > 0;
        anim.jointCount = nBones;
        const std::size_t keys = static_cast<std::size_t>(frames) * nBones;
        anim.times.reserve(static_cast<std::size_t>(frames));
        anim.positions.resize(keys);
        anim.rotations.resize(keys);
        anim.explicitKey.assign(keys, 0);
        ++animated;
        dec.wantedAni = false;
        for (std::int32_t f = 0; f < frames; ++f) {
            anim.times.push_back(f);
            anim.frameWhere.push_back(SourceLoc{0, 0, a.offset});
            const std::size_t k0 = static_cast<std::size_t>(f) * nBones;
            for (std::size_t j = 0; j < nBones; ++j) {
                anim.positions[k0 + j] = delta ? Vec3::Zero() : info.bones[j].position;
                anim.rotations[k0 + j] = delta ? Vec3::Zero() : info.bones[j].rotation;
            }
            dec.frame(a, f, &anim.positions[k0], &anim.rotations[k0], &anim.explicitKey[k0]);
        }
        withoutAni += dec.wantedAni ? 1 : 0;
        for (const CompiledEvent& e : seq.events) {
            Notetrack n;
            n.frame = std::round(double(e.cycle) * std::max(0, frames - 1));
            n.text = e.name.empty() ? std::to_string(e.event) : e.name;
            if (!e.options.empty()) {
                n.text += ' ';
                n.text += e.options;
            }
            anim.notes.push_back(std::move(n));
        }
        if (!anim.notes.empty()) {
            anim.noteStyle = NoteStyle::Flat;
        }
        r.info.sequenceAnimation[s] = static_cast<std::int32_t>(r.model.animations.size());
        r.model.animations.push_back(std::move(anim));
    }
    if (withoutAni > 0) {
        // Located at the header's animation block name (offset 348), the file it wants.
        const std::string wanted = info.animBlockName.empty() ? std::string("a .ani file")
                                                              : "'" + info.animBlockName + "'";
        src.mdl->sink.error(ids::kCompiledMissingCompanion, SourceLoc{0, 0, 348},
                            "no .ani beside the model: " + std::to_string(withoutAni) + " of " +
                                std::to_string(animated) + " sequences keep their frames in " +
                                wanted + " and stay at the rest pose");
    }
}

} // namespace rigscope::core::mdl
