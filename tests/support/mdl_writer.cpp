// Test-only writer of compiled models (see mdl_writer.h). Layouts: docs/compiled.md.
#include "tests/support/mdl_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

#include <Eigen/Geometry>

namespace rigscope::test {

namespace {

using core::Vec2;
using core::Vec3;

// A growing little-endian buffer with deferred strings (offsets relative to a record).
class Buf {
public:
    std::size_t pos() const { return m_d.size(); }
    std::size_t reserve(std::size_t n)
    {
        const std::size_t at = m_d.size();
        m_d.append(n, '\0');
        return at;
    }
    void align(std::size_t a)
    {
        while (m_d.size() % a != 0) {
            m_d.push_back('\0');
        }
    }
    void u8(std::size_t off, std::uint8_t v) { m_d[off] = static_cast<char>(v); }
    void u16(std::size_t off, std::uint16_t v)
    {
        u8(off, static_cast<std::uint8_t>(v & 0xFF));
        u8(off + 1, static_cast<std::uint8_t>(v >> 8));
    }
    void i16(std::size_t off, std::int16_t v) { u16(off, static_cast<std::uint16_t>(v)); }
    void u32(std::size_t off, std::uint32_t v)
    {
        for (std::size_t i = 0; i < 4; ++i) {
            u8(off + i, static_cast<std::uint8_t>((v >> (8 * i)) & 0xFF));
        }
    }
    void i32(std::size_t off, std::int64_t v) { u32(off, static_cast<std::uint32_t>(v)); }
    void u64(std::size_t off, std::uint64_t v)
    {
        u32(off, static_cast<std::uint32_t>(v & 0xFFFFFFFFu));
        u32(off + 4, static_cast<std::uint32_t>(v >> 32));
    }
    void f32(std::size_t off, float f)
    {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        u32(off, bits);
    }
    void vec3(std::size_t off, const Vec3& v)
    {
        f32(off, v.x());
        f32(off + 4, v.y());
        f32(off + 8, v.z());
    }
    void chars(std::size_t off, const std::string& s, std::size_t max)
    {
        for (std::size_t i = 0; i < s.size() && i + 1 < max; ++i) {
            m_d[off + i] = s[i];
        }
    }
    // The string's offset from `record` goes into the int at `field` when strings are flushed.
    void str(std::size_t record, std::size_t field, std::string s)
    {
        m_strings.push_back({record, field, std::move(s)});
    }
    void flushStrings()
    {
        for (const auto& s : m_strings) {
            const std::size_t at = m_d.size();
            m_d += s.text;
            m_d.push_back('\0');
            i32(s.field, std::int64_t(at) - std::int64_t(s.record));
        }
        m_strings.clear();
    }
    std::string& data() { return m_d; }

private:
    struct Str {
        std::size_t record, field;
        std::string text;
    };
    std::string m_d;
    std::vector<Str> m_strings;
};

std::array<double, 4> quat(const Vec3& e)
{
    const double sr = std::sin(0.5 * double(e.x())), cr = std::cos(0.5 * double(e.x()));
    const double sp = std::sin(0.5 * double(e.y())), cp = std::cos(0.5 * double(e.y()));
    const double sy = std::sin(0.5 * double(e.z())), cy = std::cos(0.5 * double(e.z()));
    return {sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy};
}

std::uint16_t toHalf(float f)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const int exp = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
    const std::uint32_t mant = bits & 0x7FFFFFu;
    if (exp <= 0) {
        return static_cast<std::uint16_t>(sign); // tiny: zero (tests use normal values)
    }
    if (exp >= 31) {
        return static_cast<std::uint16_t>(sign | 0x7BFF);
    }
    std::uint32_t h = sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
    if (mant & 0x1000u) {
        ++h; // round half up
    }
    return static_cast<std::uint16_t>(h);
}

template <class T>
const T& at(const std::vector<std::vector<T>>& v, std::size_t f, std::size_t b, const T& fallback)
{
    if (v.empty()) {
        return fallback;
    }
    const auto& row = v[std::min(f, v.size() - 1)];
    return b < row.size() ? row[b] : fallback;
}

// mstudioanimvalue_t runs: literal values, then repeats of the last one.
std::vector<std::int16_t> rle(const std::vector<std::int16_t>& v)
{
    std::vector<std::int16_t> out;
    std::size_t i = 0;
    while (i < v.size()) {
        const std::size_t start = i;
        std::size_t valid = 1;
        ++i;
        while (i < v.size() && valid < 255 && v[i] != v[i - 1]) {
            ++valid;
            ++i;
        }
        std::size_t total = valid;
        while (i < v.size() && total < 255 && v[i] == v[i - 1]) {
            ++total;
            ++i;
        }
        const std::uint16_t header =
            static_cast<std::uint16_t>(valid | (total << 8)); // valid, total bytes
        out.push_back(static_cast<std::int16_t>(header));
        for (std::size_t k = 0; k < valid; ++k) {
            out.push_back(v[start + k]);
        }
    }
    return out;
}

std::int16_t quantise(float value, float scale)
{
    const double q = std::round(double(value) / double(scale));
    return static_cast<std::int16_t>(std::clamp(q, -32768.0, 32767.0));
}

// Quaternion48: x and y in 16 bits (offset 32768), z in 15 (offset 16384), w's sign on top.
void writeQuat48(Buf& b, std::size_t o, const std::array<double, 4>& q)
{
    b.u16(o, static_cast<std::uint16_t>(std::clamp(int(q[0] * 32768) + 32768, 0, 65535)));
    b.u16(o + 2, static_cast<std::uint16_t>(std::clamp(int(q[1] * 32768) + 32768, 0, 65535)));
    b.u16(o + 4, static_cast<std::uint16_t>(std::clamp(int(q[2] * 16384) + 16384, 0, 32767) |
                                            (q[3] < 0 ? 0x8000 : 0)));
}

// Writes the bone list for frames [f0, f1) of `seq` at the end of `b`; returns its offset.
std::size_t writeBoneList(Buf& b, const SourceMdlSpec& spec, const MdlSequence& seq, std::size_t f0,
                          std::size_t f1)
{
    b.align(4);
    const std::size_t start = b.pos();
    std::size_t prev = 0;
    bool first = true;
    const std::size_t nBones = spec.bones.size();
    for (std::size_t bone = 0; bone < nBones; ++bone) {
        const RotEncoding re =
            bone < seq.rotEncoding.size() ? seq.rotEncoding[bone] : RotEncoding::Rle;
        const PosEncoding pe =
            bone < seq.posEncoding.size() ? seq.posEncoding[bone] : PosEncoding::Rle;
        if (re == RotEncoding::Absent && pe == PosEncoding::Absent) {
            continue;
        }
        const MdlBone& mb = spec.bones[bone];
        const Vec3 zero = Vec3::Zero();
        const Vec3 baseRot = seq.delta ? zero : mb.rotation;
        const Vec3 basePos = seq.delta ? zero : mb.position;
        b.align(2);
        const std::size_t rec = b.reserve(4);
        if (!first) {
            b.i16(prev + 2, static_cast<std::int16_t>(rec - prev));
        }
        first = false;
        prev = rec;
        std::uint8_t flags = seq.delta ? 0x10 : 0;
        std::size_t rotPtr = 0, posPtr = 0;
        const Vec3 r0 = at(seq.rotations, f0, bone, mb.rotation);
        const Vec3 p0 = at(seq.positions, f0, bone, mb.position);
        if (re == RotEncoding::Quat48) {
            flags |= 0x02;
            writeQuat48(b, b.reserve(6), quat(r0));
        } else if (re == RotEncoding::Quat64) {
            flags |= 0x20;
            const auto q = quat(r0);
            const auto enc = [](double c) {
                return static_cast<std::uint64_t>(
                    std::clamp(int(c * 1048576) + 1048576, 0, 2097151));
            };
            const std::uint64_t v =
                enc(q[0]) | (enc(q[1]) << 21) | (enc(q[2]) << 42) | (q[3] < 0 ? (1ull << 63) : 0);
            b.u64(b.reserve(8), v);
        } else if (re == RotEncoding::Rle) {
            flags |= 0x08;
            rotPtr = b.reserve(6);
        }
        if (pe == PosEncoding::Rle) {
            flags |= 0x04;
            posPtr = b.reserve(6);
        } else if (pe == PosEncoding::Vec48) {
            flags |= 0x01;
            const std::size_t o = b.reserve(6);
            for (int c = 0; c < 3; ++c) {
                b.u16(o + 2 * std::size_t(c), toHalf(p0[c]));
            }
        }
        b.u8(rec, static_cast<std::uint8_t>(bone));
        b.u8(rec + 1, flags);
        const auto channels = [&](std::size_t ptr, bool rotation) {
            for (int c = 0; c < 3; ++c) {
                std::vector<std::int16_t> values;
                for (std::size_t f = f0; f < f1; ++f) {
                    const Vec3 v = rotation ? at(seq.rotations, f, bone, mb.rotation)
                                            : at(seq.positions, f, bone, mb.position);
                    const Vec3 base = rotation ? baseRot : basePos;
                    const Vec3 scale = rotation ? mb.rotationScale : mb.positionScale;
                    values.push_back(quantise(v[c] - base[c], scale[c]));
                }
                const std::vector<std::int16_t> enc = rle(values);
                const std::size_t o = b.reserve(2 * enc.size());
                for (std::size_t k = 0; k < enc.size(); ++k) {
                    b.i16(o + 2 * k, enc[k]);
                }
                b.i16(ptr + 2 * std::size_t(c), static_cast<std::int16_t>(o - ptr));
            }
        };
        if (rotPtr) {
            channels(rotPtr, true);
        }
        if (posPtr) {
            channels(posPtr, false);
        }
    }
    if (first) { // no bone at all: one empty record for bone 255 (ignored)
        const std::size_t rec = b.reserve(4);
        b.u8(rec, 255);
    }
    return start;
}

// Quaternion48S: the three components after the largest, 15 bits each scaled by 23168; the
// index of the first stored one in the top bits of words 0 and 1, the largest one's sign in
// the top bit of word 2.
void writeQuat48s(Buf& b, std::size_t o, const std::array<double, 4>& q)
{
    int largest = 0;
    for (int c = 1; c < 4; ++c) {
        if (std::abs(q[std::size_t(c)]) > std::abs(q[std::size_t(largest)])) {
            largest = c;
        }
    }
    const int first = (largest + 1) & 3;
    const auto enc = [&](int c) {
        return static_cast<std::uint16_t>(
            std::clamp(int(std::lround(q[std::size_t(c & 3)] * 23168.0)) + 16384, 0, 32767));
    };
    b.u16(o, static_cast<std::uint16_t>(enc(first) | ((first >> 1) << 15)));
    b.u16(o + 2, static_cast<std::uint16_t>(enc(first + 1) | ((first & 1) << 15)));
    b.u16(o + 4,
          static_cast<std::uint16_t>(enc(first + 2) | (q[std::size_t(largest)] < 0 ? 0x8000 : 0)));
}

// Writes frames [f0, f1) of `seq` frame-major at the end of `b`; returns its offset.
std::size_t writeFrameMajor(Buf& b, const SourceMdlSpec& spec, const MdlSequence& seq,
                            std::size_t f0, std::size_t f1)
{
    b.align(4);
    const std::size_t start = b.reserve(24);
    const std::size_t nBones = spec.bones.size();
    const std::size_t flagsAt = b.reserve(nBones);
    std::vector<std::uint8_t> flags(nBones, 0);
    std::size_t frameBytes = 0;
    for (std::size_t bone = 0; bone < nBones; ++bone) {
        const MdlBone& mb = spec.bones[bone];
        const RotEncoding re =
            bone < seq.rotEncoding.size() ? seq.rotEncoding[bone] : RotEncoding::Absent;
        const PosEncoding pe =
            bone < seq.posEncoding.size() ? seq.posEncoding[bone] : PosEncoding::Absent;
        bool rotMoves = false, posMoves = false;
        for (std::size_t f = f0 + 1; f < f1; ++f) {
            rotMoves = rotMoves || at(seq.rotations, f, bone, mb.rotation) !=
                                       at(seq.rotations, f0, bone, mb.rotation);
            posMoves = posMoves || at(seq.positions, f, bone, mb.position) !=
                                       at(seq.positions, f0, bone, mb.position);
        }
        std::uint8_t fl = 0;
        if (re == RotEncoding::Quat48) {
            fl |= rotMoves ? 0x08 : 0x02;
        } else if (re == RotEncoding::Quat48S) {
            fl |= rotMoves ? 0x80 : 0x40;
        }
        if (pe == PosEncoding::Vec48) {
            fl |= posMoves ? 0x04 : 0x01;
        } else if (pe == PosEncoding::Float3) {
            fl |= posMoves ? 0x10 : 0x20;
        }
        frameBytes += ((fl & 0x88) ? 6 : 0) + ((fl & 0x04) ? 6 : 0) + ((fl & 0x10) ? 12 : 0);
        flags[bone] = fl;
        b.u8(flagsAt + bone, fl);
    }
    // One bone's values of frame `f` that `mask` selects (constants or per-frame ones).
    const auto values = [&](std::size_t bone, std::size_t f, std::uint8_t mask) {
        const std::uint8_t fl = flags[bone] & mask;
        const MdlBone& mb = spec.bones[bone];
        const auto q = quat(at(seq.rotations, f, bone, mb.rotation));
        const Vec3 p = at(seq.positions, f, bone, mb.position);
        if (fl & 0x0A) {
            writeQuat48(b, b.reserve(6), q);
        }
        if (fl & 0xC0) {
            writeQuat48s(b, b.reserve(6), q);
        }
        if (fl & 0x05) {
            const std::size_t o = b.reserve(6);
            for (int c = 0; c < 3; ++c) {
                b.u16(o + 2 * std::size_t(c), toHalf(p[c]));
            }
        }
        if (fl & 0x30) {
            b.vec3(b.reserve(12), p);
        }
    };
    b.align(4);
    b.i32(start, std::int64_t(b.pos() - start));
    for (std::size_t bone = 0; bone < nBones; ++bone) {
        values(bone, f0, 0x63); // the constants
    }
    b.align(4);
    b.i32(start + 4, std::int64_t(b.pos() - start));
    b.i32(start + 8, std::int64_t(frameBytes));
    for (std::size_t f = f0; f < f1; ++f) {
        for (std::size_t bone = 0; bone < nBones; ++bone) {
            values(bone, f, 0x9C); // the per-frame values
        }
    }
    return start;
}

} // namespace

SourceMdlBytes writeSourceMdl(const SourceMdlSpec& spec)
{
    Buf b;
    Buf ani;
    const std::size_t nBones = spec.bones.size();
    const std::size_t h = b.reserve(408);
    b.chars(0, "IDST", 5);
    b.i32(4, spec.version);
    b.i32(8, spec.checksum);
    b.chars(12, spec.name, 64);
    b.vec3(92, spec.illumPosition);
    b.vec3(104, spec.hullMin);
    b.vec3(116, spec.hullMax);
    b.vec3(128, spec.hullMin);
    b.vec3(140, spec.hullMax);

    // bones
    b.i32(156, std::int64_t(nBones));
    b.i32(160, std::int64_t(b.pos()));
    for (const MdlBone& bone : spec.bones) {
        const std::size_t o = b.reserve(216);
        b.str(o, o, bone.name);
        b.i32(o + 4, bone.parent);
        for (std::size_t c = 0; c < 6; ++c) {
            b.i32(o + 8 + 4 * c, -1);
        }
        b.vec3(o + 32, bone.position);
        const auto q = quat(bone.rotation);
        for (std::size_t c = 0; c < 4; ++c) {
            b.f32(o + 44 + 4 * c, static_cast<float>(q[c]));
        }
        b.vec3(o + 60, bone.rotation);
        b.vec3(o + 72, bone.positionScale);
        b.vec3(o + 84, bone.rotationScale);
        b.f32(o + 96, 1);
        b.f32(o + 96 + 20, 1);
        b.f32(o + 96 + 40, 1);
        b.f32(o + 144 + 12, 1);
        b.str(o, o + 176, "");
    }
    // hitbox set
    if (!spec.hitboxes.empty()) {
        b.i32(172, 1);
        const std::size_t set = b.reserve(12);
        b.i32(176, std::int64_t(set));
        b.str(set, set, "default");
        b.i32(set + 4, std::int64_t(spec.hitboxes.size()));
        b.i32(set + 8, std::int64_t(b.pos() - set));
        for (const MdlHitbox& hb : spec.hitboxes) {
            const std::size_t o = b.reserve(68);
            b.i32(o, hb.bone);
            b.i32(o + 4, hb.group);
            b.vec3(o + 8, hb.min);
            b.vec3(o + 20, hb.max);
            if (!hb.name.empty()) {
                b.str(o, o + 32, hb.name);
            }
        }
    }
    // attachments
    b.i32(240, std::int64_t(spec.attachments.size()));
    b.i32(244, std::int64_t(b.pos()));
    for (const MdlAttachment& a : spec.attachments) {
        const std::size_t o = b.reserve(92);
        b.str(o, o, a.name);
        b.i32(o + 8, a.bone);
        b.f32(o + 12, 1);
        b.f32(o + 12 + 20, 1);
        b.f32(o + 12 + 40, 1);
        b.f32(o + 12 + 12, a.origin.x());
        b.f32(o + 12 + 28, a.origin.y());
        b.f32(o + 12 + 44, a.origin.z());
    }
    // materials, $cdmaterials, skins
    b.i32(204, std::int64_t(spec.materials.size()));
    b.i32(208, std::int64_t(b.pos()));
    for (const std::string& m : spec.materials) {
        const std::size_t o = b.reserve(64);
        b.str(o, o, m);
    }
    b.i32(212, std::int64_t(spec.cdMaterials.size()));
    b.i32(216, std::int64_t(b.pos()));
    for (const std::string& c : spec.cdMaterials) {
        b.str(0, b.reserve(4), c);
    }
    std::vector<std::vector<std::int16_t>> skins = spec.skins;
    if (skins.empty()) {
        std::vector<std::int16_t> row;
        for (std::size_t i = 0; i < spec.materials.size(); ++i) {
            row.push_back(static_cast<std::int16_t>(i));
        }
        skins.push_back(row);
    }
    b.i32(220, std::int64_t(skins[0].size()));
    b.i32(224, std::int64_t(skins.size()));
    b.i32(228, std::int64_t(b.pos()));
    for (const auto& row : skins) {
        for (const std::int16_t t : row) {
            b.i16(b.reserve(2), t);
        }
    }
    b.align(4);
    // bodyparts, models, meshes
    b.i32(232, std::int64_t(spec.bodyparts.size()));
    const std::size_t parts = b.reserve(16 * spec.bodyparts.size());
    b.i32(236, std::int64_t(parts));
    std::int64_t vertexBase = 0;
    std::int32_t base = 1;
    std::vector<std::pair<std::size_t, const MdlMesh*>> flexMeshes; // written after the tables
    for (std::size_t p = 0; p < spec.bodyparts.size(); ++p) {
        const MdlBodypart& part = spec.bodyparts[p];
        const std::size_t po = parts + 16 * p;
        b.str(po, po, part.name);
        b.i32(po + 4, std::int64_t(part.models.size()));
        b.i32(po + 8, base);
        base *= std::max<std::int32_t>(1, static_cast<std::int32_t>(part.models.size()));
        const std::size_t models = b.reserve(148 * part.models.size());
        b.i32(po + 12, std::int64_t(models - po));
        for (std::size_t m = 0; m < part.models.size(); ++m) {
            const MdlSubModel& sub = part.models[m];
            const std::size_t mo = models + 148 * m;
            b.chars(mo, sub.name, 64);
            b.f32(mo + 68, 10);
            b.i32(mo + 72, std::int64_t(sub.meshes.size()));
            std::int64_t verts = 0;
            for (const MdlMesh& me : sub.meshes) {
                verts += std::int64_t(me.vertices.size());
            }
            b.i32(mo + 80, verts);
            b.i32(mo + 84, vertexBase * 48);
            vertexBase += verts;
            const std::size_t meshes = b.reserve(116 * sub.meshes.size());
            b.i32(mo + 76, std::int64_t(meshes - mo));
            std::int64_t offset = 0;
            for (std::size_t k = 0; k < sub.meshes.size(); ++k) {
                const std::size_t me = meshes + 116 * k;
                b.i32(me, sub.meshes[k].material);
                b.i32(me + 4, std::int64_t(mo) - std::int64_t(me));
                b.i32(me + 8, std::int64_t(sub.meshes[k].vertices.size()));
                b.i32(me + 12, offset);
                b.i32(me + 32, std::int64_t(k));
                if (!sub.meshes[k].flexes.empty()) {
                    flexMeshes.emplace_back(me, &sub.meshes[k]);
                }
                for (std::size_t l = 0; l < 8; ++l) {
                    b.i32(me + 52 + 4 * l, std::int64_t(sub.meshes[k].vertices.size()));
                }
                offset += std::int64_t(sub.meshes[k].vertices.size());
            }
        }
    }
    // animations and sequences
    const std::size_t nSeq = spec.sequences.size();
    b.i32(180, std::int64_t(nSeq));
    const std::size_t descs = b.reserve(100 * nSeq);
    b.i32(184, std::int64_t(descs));
    bool anyAni = false;
    for (std::size_t s = 0; s < nSeq; ++s) {
        const MdlSequence& seq = spec.sequences[s];
        const std::size_t d = descs + 100 * s;
        b.i32(d, -std::int64_t(d));
        b.str(d, d + 4, "@" + seq.name);
        b.f32(d + 8, seq.fps);
        b.i32(d + 12, (seq.looping ? 1 : 0) | (seq.delta ? 4 : 0) | (seq.frameMajor ? 0x40 : 0));
        b.i32(d + 16, seq.frames);
        Buf& target = seq.inAniBlock ? ani : b;
        anyAni = anyAni || seq.inAniBlock;
        const auto place = [&](std::size_t f0, std::size_t f1, std::size_t blockField,
                               std::size_t indexField, std::int64_t relativeTo) {
            const std::size_t list = seq.frameMajor ? writeFrameMajor(target, spec, seq, f0, f1)
                                                    : writeBoneList(target, spec, seq, f0, f1);
            b.i32(blockField, seq.inAniBlock ? 1 : 0);
            b.i32(indexField, std::int64_t(list) - (seq.inAniBlock ? 0 : relativeTo));
        };
        const auto frames = static_cast<std::size_t>(std::max(seq.frames, 1));
        if (seq.sectionFrames > 0) {
            const auto sf = static_cast<std::size_t>(seq.sectionFrames);
            const std::size_t count = frames / sf + 2;
            const std::size_t table = b.reserve(8 * count);
            b.i32(d + 80, std::int64_t(table) - std::int64_t(d));
            b.i32(d + 84, seq.sectionFrames);
            for (std::size_t k = 0; k + 1 < count; ++k) {
                const std::size_t f0 = std::min(k * sf, frames - 1);
                place(f0, std::min(f0 + sf + 1, frames), table + 8 * k, table + 8 * k + 4,
                      std::int64_t(d));
            }
            place(frames - 1, frames, table + 8 * (count - 1), table + 8 * (count - 1) + 4,
                  std::int64_t(d));
        } else {
            place(0, frames, d + 52, d + 56, std::int64_t(d));
        }
        b.align(4);
    }
    if (anyAni) {
        b.i32(352, 2);
        const std::size_t table = b.reserve(16);
        b.i32(356, std::int64_t(table));
        b.i32(table + 8, 0);
        b.i32(table + 12, std::int64_t(ani.pos()));
        b.str(0, 348, "models/test.ani");
    }
    b.i32(188, std::int64_t(nSeq));
    const std::size_t seqs = b.reserve(212 * nSeq);
    b.i32(192, std::int64_t(seqs));
    for (std::size_t s = 0; s < nSeq; ++s) {
        const MdlSequence& seq = spec.sequences[s];
        const std::size_t o = seqs + 212 * s;
        b.i32(o, -std::int64_t(o));
        b.str(o, o + 4, seq.name);
        b.str(o, o + 8, seq.activity);
        b.i32(o + 12, (seq.looping ? 1 : 0) | (seq.delta ? 4 : 0));
        b.i32(o + 16, std::int64_t(s) + 1);
        b.i32(o + 20, seq.activityWeight);
        b.i32(o + 24, std::int64_t(seq.events.size()));
        const std::size_t events = b.reserve(80 * seq.events.size());
        b.i32(o + 28, std::int64_t(events - o));
        for (std::size_t e = 0; e < seq.events.size(); ++e) {
            const std::size_t eo = events + 80 * e;
            b.f32(eo, seq.events[e].cycle);
            b.i32(eo + 4, seq.events[e].event);
            b.chars(eo + 12, seq.events[e].options, 64);
            b.str(eo, eo + 76, seq.events[e].name);
        }
        b.i32(o + 56, 1);
        const std::size_t blend = b.reserve(4);
        b.i16(blend, static_cast<std::int16_t>(s));
        b.i32(o + 60, std::int64_t(blend - o));
        b.i32(o + 68, 1);
        b.i32(o + 72, 1);
        const std::size_t weights = b.reserve(4 * nBones);
        for (std::size_t k = 0; k < nBones; ++k) {
            b.f32(weights + 4 * k, 1);
        }
        b.i32(o + 156, std::int64_t(weights - o));
    }
    // pose parameters, flex
    b.i32(300, std::int64_t(spec.poseParameters.size()));
    b.i32(304, std::int64_t(b.pos()));
    for (const std::string& p : spec.poseParameters) {
        const std::size_t o = b.reserve(20);
        b.str(o, o, p);
        b.f32(o + 8, -45);
        b.f32(o + 12, 45);
    }
    const std::vector<std::string>& descNames =
        spec.flexDescs.empty() ? spec.flexControllers : spec.flexDescs;
    b.i32(260, std::int64_t(descNames.size()));
    b.i32(264, std::int64_t(b.pos()));
    for (const std::string& f : descNames) {
        const std::size_t o = b.reserve(4);
        b.str(o, o, f);
    }
    // flex rules (12: flex, op count, op offset from the rule; ops of 8 bytes)
    b.i32(276, std::int64_t(spec.flexRules.size()));
    const std::size_t rules = b.reserve(12 * spec.flexRules.size());
    b.i32(280, std::int64_t(rules));
    for (std::size_t r = 0; r < spec.flexRules.size(); ++r) {
        const std::size_t ro = rules + 12 * r;
        const MdlFlexRule& rule = spec.flexRules[r];
        b.i32(ro, rule.flex);
        b.i32(ro + 4, std::int64_t(rule.ops.size()));
        const std::size_t ops = b.reserve(8 * rule.ops.size());
        b.i32(ro + 8, std::int64_t(ops - ro));
        for (std::size_t k = 0; k < rule.ops.size(); ++k) {
            b.i32(ops + 8 * k, rule.ops[k].op);
            if (rule.ops[k].op == 1) {
                b.f32(ops + 8 * k + 4, rule.ops[k].value);
            } else {
                b.i32(ops + 8 * k + 4, rule.ops[k].index);
            }
        }
    }
    // IK chains (16: name, link type, links (28: bone, knee direction, unused)) and locks (32)
    b.i32(284, std::int64_t(spec.ikChains.size()));
    const std::size_t chains = b.reserve(16 * spec.ikChains.size());
    b.i32(288, std::int64_t(chains));
    for (std::size_t c = 0; c < spec.ikChains.size(); ++c) {
        const std::size_t co = chains + 16 * c;
        b.str(co, co, spec.ikChains[c].name);
        b.i32(co + 8, std::int64_t(spec.ikChains[c].bones.size()));
        const std::size_t links = b.reserve(28 * spec.ikChains[c].bones.size());
        b.i32(co + 12, std::int64_t(links - co));
        for (std::size_t k = 0; k < spec.ikChains[c].bones.size(); ++k) {
            b.i32(links + 28 * k, spec.ikChains[c].bones[k]);
            b.vec3(links + 28 * k + 4, Vec3(0, 0, 1));
        }
    }
    b.i32(320, std::int64_t(spec.ikLocks.size()));
    const std::size_t locks = b.reserve(32 * spec.ikLocks.size());
    b.i32(324, std::int64_t(locks));
    for (std::size_t k = 0; k < spec.ikLocks.size(); ++k) {
        b.i32(locks + 32 * k, spec.ikLocks[k]);
        b.f32(locks + 32 * k + 4, 1);
    }
    // vertex animations (60-byte flexes, 16 / 18-byte deltas of half floats)
    for (const auto& [me, mesh] : flexMeshes) {
        const std::size_t flexes = b.reserve(60 * mesh->flexes.size());
        b.i32(me + 16, std::int64_t(mesh->flexes.size()));
        b.i32(me + 20, std::int64_t(flexes) - std::int64_t(me));
        for (std::size_t x = 0; x < mesh->flexes.size(); ++x) {
            const MdlVertexAnimation& va = mesh->flexes[x];
            const std::size_t fo = flexes + 60 * x;
            b.i32(fo, va.desc);
            b.f32(fo + 8, 1);
            b.f32(fo + 12, 1);
            b.f32(fo + 16, 1);
            b.i32(fo + 20, std::int64_t(va.deltas.size()));
            b.i32(fo + 28, va.pair);
            b.u8(fo + 32, va.wrinkle ? 1 : 0);
            const std::size_t stride = va.wrinkle ? 18 : 16;
            const std::size_t deltas = b.reserve(stride * va.deltas.size());
            b.i32(fo + 24, std::int64_t(deltas - fo));
            for (std::size_t k = 0; k < va.deltas.size(); ++k) {
                const MdlFlexDelta& d = va.deltas[k];
                const std::size_t o = deltas + stride * k;
                b.u16(o, d.vertex);
                b.u8(o + 2, 255);
                b.u8(o + 3, d.side);
                for (std::size_t a = 0; a < 3; ++a) {
                    b.u16(o + 4 + 2 * a, toHalf(d.position[static_cast<Eigen::Index>(a)]));
                    b.u16(o + 10 + 2 * a, toHalf(d.normal[static_cast<Eigen::Index>(a)]));
                }
                if (va.wrinkle) {
                    b.u16(o + 16, toHalf(d.wrinkle));
                }
            }
        }
        b.align(4);
    }
    b.i32(268, std::int64_t(spec.flexControllers.size()));
    b.i32(272, std::int64_t(b.pos()));
    for (std::size_t c = 0; c < spec.flexControllers.size(); ++c) {
        const std::size_t o = b.reserve(20);
        b.str(o, o, "default");
        b.str(o, o + 4, spec.flexControllers[c]);
        const bool ranged = c < spec.flexControllerRanges.size();
        b.f32(o + 12, ranged ? spec.flexControllerRanges[c][0] : 0);
        b.f32(o + 16, ranged ? spec.flexControllerRanges[c][1] : 1);
    }
    b.str(0, 308, "metal");
    if (!spec.keyValues.empty()) {
        b.i32(316, std::int64_t(spec.keyValues.size()));
        const std::size_t kv = b.reserve(spec.keyValues.size() + 1);
        b.chars(kv, spec.keyValues, spec.keyValues.size() + 1);
        b.i32(312, std::int64_t(kv));
    }
    const std::size_t hdr2 = b.reserve(256);
    b.i32(400, std::int64_t(hdr2));
    b.flushStrings();
    b.align(4);
    b.i32(h + 76, std::int64_t(b.pos()));

    SourceMdlBytes out;
    out.mdl = std::move(b.data());
    out.ani = std::move(ani.data());

    // ---- .vvd ----
    std::vector<MdlVertex> all;
    std::int32_t maxLods = 1;
    for (const MdlBodypart& part : spec.bodyparts) {
        for (const MdlSubModel& sub : part.models) {
            maxLods = std::max(maxLods, sub.lods);
            for (const MdlMesh& me : sub.meshes) {
                all.insert(all.end(), me.vertices.begin(), me.vertices.end());
            }
        }
    }
    Buf v;
    v.reserve(64);
    v.chars(0, "IDSV", 5);
    v.i32(4, 4);
    v.i32(8, spec.vvdChecksum ? spec.vvdChecksum : spec.checksum);
    v.i32(12, maxLods);
    for (std::size_t l = 0; l < 8; ++l) {
        v.i32(16 + 4 * l, l < static_cast<std::size_t>(maxLods) ? std::int64_t(all.size()) : 0);
    }
    std::vector<std::size_t> order(all.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    if (spec.vvdFixups && all.size() >= 2) {
        const std::size_t half = all.size() / 2;
        std::rotate(order.begin(), order.begin() + std::ptrdiff_t(half), order.end());
        // stored: [half..n) then [0..half): fix-ups copy them back in order
        v.i32(48, 2);
        const std::size_t table = v.reserve(24);
        v.i32(52, std::int64_t(table));
        v.i32(table, 0);
        v.i32(table + 4, std::int64_t(all.size() - half));
        v.i32(table + 8, std::int64_t(half));
        v.i32(table + 12, 0);
        v.i32(table + 16, 0);
        v.i32(table + 20, std::int64_t(all.size() - half));
    }
    v.i32(56, std::int64_t(v.pos()));
    for (const std::size_t i : order) {
        const MdlVertex& x = all[i];
        const std::size_t o = v.reserve(48);
        for (std::size_t k = 0; k < 3; ++k) {
            v.f32(o + 4 * k, x.weights[k]);
            v.u8(o + 12 + k, x.bones[k]);
        }
        v.u8(o + 15, x.count);
        v.vec3(o + 16, x.position);
        v.vec3(o + 28, x.normal);
        v.f32(o + 40, x.uv.x());
        v.f32(o + 44, x.uv.y());
    }
    out.vvd = std::move(v.data());

    // ---- .vtx ----
    const std::size_t sgSize = spec.vtxTopology ? 33 : 25;
    const std::size_t stripSize = spec.vtxTopology ? 35 : 27;
    Buf x;
    x.reserve(36);
    x.i32(0, 7);
    x.i32(4, 24);
    x.u16(8, 53);
    x.u16(10, 9);
    x.i32(12, 3);
    x.i32(16, spec.vtxChecksum ? spec.vtxChecksum : spec.checksum);
    x.i32(20, maxLods);
    const std::size_t repl = x.reserve(8 * static_cast<std::size_t>(maxLods));
    x.i32(24, std::int64_t(repl));
    x.i32(28, std::int64_t(spec.bodyparts.size()));
    const std::size_t xparts = x.reserve(8 * spec.bodyparts.size());
    x.i32(32, std::int64_t(xparts));
    for (std::size_t p = 0; p < spec.bodyparts.size(); ++p) {
        const MdlBodypart& part = spec.bodyparts[p];
        const std::size_t po = xparts + 8 * p;
        x.i32(po, std::int64_t(part.models.size()));
        const std::size_t models = x.reserve(8 * part.models.size());
        x.i32(po + 4, std::int64_t(models - po));
        for (std::size_t m = 0; m < part.models.size(); ++m) {
            const MdlSubModel& sub = part.models[m];
            const std::size_t mo = models + 8 * m;
            x.i32(mo, sub.lods);
            const std::size_t lods = x.reserve(12 * static_cast<std::size_t>(sub.lods));
            x.i32(mo + 4, std::int64_t(lods - mo));
            for (std::size_t l = 0; l < static_cast<std::size_t>(sub.lods); ++l) {
                const std::size_t lo = lods + 12 * l;
                x.i32(lo, std::int64_t(sub.meshes.size()));
                x.f32(lo + 8, float(l) * 10.0f);
                const std::size_t meshes = x.reserve(9 * sub.meshes.size());
                x.i32(lo + 4, std::int64_t(meshes - lo));
                for (std::size_t k = 0; k < sub.meshes.size(); ++k) {
                    const MdlMesh& me = sub.meshes[k];
                    const std::size_t mh = meshes + 9 * k;
                    x.i32(mh, 1);
                    const std::size_t sg = x.reserve(sgSize);
                    x.i32(mh + 4, std::int64_t(sg - mh));
                    // vertices
                    x.i32(sg, std::int64_t(me.vertices.size()));
                    const std::size_t verts = x.reserve(9 * me.vertices.size());
                    x.i32(sg + 4, std::int64_t(verts - sg));
                    for (std::size_t i = 0; i < me.vertices.size(); ++i) {
                        const std::size_t vo = verts + 9 * i;
                        x.u8(vo, 0);
                        x.u8(vo + 1, 1);
                        x.u8(vo + 2, 2);
                        x.u8(vo + 3, me.vertices[i].count);
                        x.u16(vo + 4, static_cast<std::uint16_t>(i));
                    }
                    std::vector<std::uint16_t> indices;
                    const bool strip = !me.strip.empty();
                    if (strip) {
                        indices = me.strip;
                    } else {
                        const std::size_t keep =
                            me.triangles.empty()
                                ? 0
                                : std::max<std::size_t>(1, me.triangles.size() >> l);
                        for (std::size_t t = 0; t < keep; ++t) {
                            // Source winding: clockwise
                            indices.push_back(me.triangles[t][0]);
                            indices.push_back(me.triangles[t][2]);
                            indices.push_back(me.triangles[t][1]);
                        }
                    }
                    x.i32(sg + 8, std::int64_t(indices.size()));
                    const std::size_t idx = x.reserve(2 * indices.size());
                    x.i32(sg + 12, std::int64_t(idx - sg));
                    for (std::size_t i = 0; i < indices.size(); ++i) {
                        x.u16(idx + 2 * i, indices[i]);
                    }
                    x.i32(sg + 16, 1);
                    const std::size_t st = x.reserve(stripSize);
                    x.i32(sg + 20, std::int64_t(st - sg));
                    x.u8(sg + 24, 0x02);
                    x.i32(st, std::int64_t(indices.size()));
                    x.i32(st + 4, 0);
                    x.i32(st + 8, std::int64_t(me.vertices.size()));
                    x.i32(st + 12, 0);
                    x.i16(st + 16, 1);
                    x.u8(st + 18, strip ? 0x02 : 0x01);
                }
            }
        }
    }
    out.vtx = std::move(x.data());
    return out;
}

SourceMdlSpec sampleSourceSpec()
{
    SourceMdlSpec s;
    s.bones.push_back({"root", -1, Vec3(0, 0, 1), Vec3(0, 0, 0.5f)});
    s.bones.push_back({"arm", 0, Vec3(10, 0, 0), Vec3(0.1f, 0.2f, 0.3f)});
    s.materials = {"body", "body_red", "head"};
    s.cdMaterials = {"models\\test\\"};
    s.skins = {{0, 2}, {1, 2}};
    s.illumPosition = Vec3(-2, 1, 3);
    // bodypart "body": one model with a mesh of two triangles on material ref 0, 2 LODs
    MdlMesh quad;
    quad.material = 0;
    for (int i = 0; i < 4; ++i) {
        MdlVertex v;
        v.position = Vec3(float(i % 2), float(i / 2), 0);
        v.uv = Vec2(float(i % 2), float(i / 2));
        v.bones = {static_cast<std::uint8_t>(i < 2 ? 0 : 1), 0, 0};
        if (i == 3) {
            v.count = 2;
            v.bones = {1, 0, 0};
            v.weights = {0.75f, 0.25f, 0};
        }
        quad.vertices.push_back(v);
    }
    quad.triangles = {{0, 1, 2}, {1, 3, 2}};
    MdlMesh head;
    head.material = 1;
    for (int i = 0; i < 3; ++i) {
        MdlVertex v;
        v.position = Vec3(float(i), 0, 5);
        v.bones = {1, 0, 0};
        head.vertices.push_back(v);
    }
    head.triangles = {{0, 1, 2}};
    s.bodyparts.push_back({"body", {{"body_ref", {quad, head}, 2}}});
    // bodypart "hat": a blank choice and a one-triangle model
    MdlMesh hat;
    hat.material = 1;
    for (int i = 0; i < 3; ++i) {
        MdlVertex v;
        v.position = Vec3(float(i), 1, 6);
        v.bones = {1, 0, 0};
        hat.vertices.push_back(v);
    }
    hat.triangles = {{0, 2, 1}};
    s.bodyparts.push_back({"hat", {{"blank", {}, 1}, {"hat_ref", {hat}, 1}}});
    s.attachments.push_back({"tip", 1, Vec3(1, 2, 3)});
    s.hitboxes.push_back({0, 1, Vec3(-1, -1, -1), Vec3(1, 1, 1), "chest"});
    s.hitboxes.push_back({1, 2, Vec3(0, -1, -1), Vec3(10, 1, 1), ""});
    s.poseParameters = {"aim_yaw"};
    s.flexControllers = {"blink"};
    s.keyValues = "mdlkeyvalue\n{\n}\n";

    // idle: two frames, RLE everywhere; walk: raw encodings on the root, 5 frames;
    // wave: a delta sequence with sections.
    MdlSequence idle;
    idle.name = "idle";
    idle.activity = "ACT_IDLE";
    idle.looping = true;
    idle.frames = 2;
    idle.fps = 30;
    idle.positions = {{Vec3(0, 0, 1), Vec3(10, 0, 0)}, {Vec3(0, 0, 2), Vec3(10, 0, 0)}};
    idle.rotations = {{Vec3(0, 0, 0.5f), Vec3(0.1f, 0.2f, 0.3f)},
                      {Vec3(0, 0, 0.5f), Vec3(0.1f, 0.2f, 0.8f)}};
    idle.events.push_back({0.5f, 1004, "step", "AE_CL_PLAYSOUND"});
    MdlSequence walk;
    walk.name = "walk";
    walk.activity = "ACT_WALK";
    walk.frames = 5;
    walk.fps = 24;
    walk.rotEncoding = {RotEncoding::Quat48, RotEncoding::Quat64};
    walk.posEncoding = {PosEncoding::Vec48, PosEncoding::Absent};
    walk.positions = {{Vec3(1, 2, 3), Vec3(10, 0, 0)}};
    walk.rotations = {{Vec3(0.3f, -0.2f, 0.1f), Vec3(0.5f, 0.25f, -1.0f)}};
    MdlSequence wave;
    wave.name = "wave";
    wave.activity = "ACT_GESTURE";
    wave.delta = true;
    wave.frames = 7;
    wave.sectionFrames = 3;
    for (int f = 0; f < 7; ++f) {
        wave.positions.push_back({Vec3(0, 0, 0), Vec3(0, 0, float(f) * 0.5f)});
        wave.rotations.push_back({Vec3(0, 0, 0), Vec3(float(f) * 0.1f, 0, 0)});
    }
    wave.rotEncoding = {RotEncoding::Absent, RotEncoding::Rle};
    wave.posEncoding = {PosEncoding::Absent, PosEncoding::Rle};
    s.sequences = {idle, walk, wave};
    return s;
}

SourceMdlSpec keptApartSourceSpec()
{
    SourceMdlSpec s = sampleSourceSpec();
    MdlMesh mesh;
    for (int i = 0; i < 6; ++i) {
        const int k = i == 4 ? 1 : i == 5 ? 2 : i; // 4 copies 1; 5 (unused) lies above 2
        MdlVertex v;
        v.position = Vec3(float(k % 2), float(k / 2), i == 5 ? 1.0f : 0.0f);
        v.uv = Vec2(float(k % 2), float(k / 2));
        mesh.vertices.push_back(v);
    }
    mesh.triangles = {{0, 1, 2}, {4, 3, 2}};
    s.bodyparts = {{"body", {{"body_ref", {mesh}, 1}}}};
    return s;
}

std::string writeSourceMdlFiles(const std::string& dir, const std::string& stem,
                                const SourceMdlSpec& spec)
{
    const SourceMdlBytes b = writeSourceMdl(spec);
    const std::string base = dir + "/" + stem;
    for (const auto& [ext, bytes] : {std::pair<const char*, const std::string*>{".mdl", &b.mdl},
                                     {".vvd", &b.vvd},
                                     {".dx90.vtx", &b.vtx},
                                     {".ani", &b.ani}}) {
        if (bytes->empty() && std::string_view(ext) == ".ani") {
            continue;
        }
        std::FILE* f = std::fopen((base + ext).c_str(), "wb");
        const bool ok = f && std::fwrite(bytes->data(), 1, bytes->size(), f) == bytes->size();
        if (f) {
            std::fclose(f);
        }
        if (!ok) {
            return {};
        }
    }
    return base + ".mdl";
}

// ---- GoldSrc ----

namespace {

Eigen::Matrix3d rotation(const Vec3& e)
{
    return (Eigen::AngleAxisd(double(e.z()), Eigen::Vector3d::UnitZ()) *
            Eigen::AngleAxisd(double(e.y()), Eigen::Vector3d::UnitY()) *
            Eigen::AngleAxisd(double(e.x()), Eigen::Vector3d::UnitX()))
        .toRotationMatrix();
}

void writeGsTextures(Buf& b, const GoldsrcMdlSpec& spec)
{
    b.i32(180, std::int64_t(spec.textures.size()));
    const std::size_t tex = b.reserve(80 * spec.textures.size());
    b.i32(184, std::int64_t(tex));
    for (std::size_t i = 0; i < spec.textures.size(); ++i) {
        const GsTexture& t = spec.textures[i];
        const std::size_t o = tex + 80 * i;
        b.chars(o, t.name, 64);
        b.i32(o + 64, t.flags);
        b.i32(o + 68, t.width);
        b.i32(o + 72, t.height);
        if (spec.afterburner) {
            continue; // the pixels stay in the PNG file the name gives
        }
        const std::size_t px = b.reserve(std::size_t(t.width) * std::size_t(t.height) + 768);
        b.i32(o + 76, std::int64_t(px));
        if (i == 0) {
            b.i32(188, std::int64_t(px));
        }
        for (std::size_t k = 0; k < std::size_t(t.width) * std::size_t(t.height); ++k) {
            b.u8(px + k, t.fill);
        }
        const std::size_t pal = px + std::size_t(t.width) * std::size_t(t.height);
        for (std::size_t c = 0; c < 256; ++c) {
            b.u8(pal + 3 * c, static_cast<std::uint8_t>(c));
            b.u8(pal + 3 * c + 1, static_cast<std::uint8_t>(255 - c));
            b.u8(pal + 3 * c + 2, static_cast<std::uint8_t>(c / 2));
        }
    }
    std::vector<std::vector<std::int16_t>> skins = spec.skins;
    if (skins.empty()) {
        std::vector<std::int16_t> row;
        for (std::size_t i = 0; i < spec.textures.size(); ++i) {
            row.push_back(static_cast<std::int16_t>(i));
        }
        skins.push_back(row);
    }
    b.align(4);
    b.i32(192, std::int64_t(skins[0].size()));
    b.i32(196, std::int64_t(skins.size()));
    b.i32(200, std::int64_t(b.pos()));
    for (const auto& row : skins) {
        for (const std::int16_t t : row) {
            b.i16(b.reserve(2), t);
        }
    }
    b.align(4);
}

void writeGsAnimation(Buf& b, const GoldsrcMdlSpec& spec, const GsSequence& seq)
{
    const std::size_t nBones = spec.bones.size();
    const std::size_t recs = b.reserve(12 * nBones);
    for (std::size_t j = 0; j < nBones; ++j) {
        const GsBone& bone = spec.bones[j];
        for (int c = 0; c < 6; ++c) {
            std::vector<std::int16_t> values;
            bool any = false;
            for (std::size_t f = 0; f < static_cast<std::size_t>(std::max(seq.frames, 1)); ++f) {
                const Vec3 v = c < 3 ? at(seq.positions, f, j, bone.position)
                                     : at(seq.rotations, f, j, bone.rotation);
                const float def = c < 3 ? bone.position[c] : bone.rotation[c - 3];
                const float scale = c < 3 ? bone.positionScale[c] : bone.rotationScale[c - 3];
                values.push_back(quantise(v[c % 3] - def, scale));
                any = any || values.back() != 0;
            }
            if (!any) {
                continue;
            }
            const std::vector<std::int16_t> enc = rle(values);
            const std::size_t o = b.reserve(2 * enc.size());
            for (std::size_t k = 0; k < enc.size(); ++k) {
                b.i16(o + 2 * k, enc[k]);
            }
            const std::size_t rec = recs + 12 * j;
            b.u16(rec + 2 * std::size_t(c), static_cast<std::uint16_t>(o - rec));
        }
    }
    b.align(4);
}

} // namespace

GoldsrcMdlBytes writeGoldsrcMdl(const GoldsrcMdlSpec& spec)
{
    GoldsrcMdlBytes out;
    Buf b;
    b.reserve(244);
    b.chars(0, spec.afterburner ? "AFTB" : "IDST", 5);
    b.i32(4, 10);
    b.chars(8, spec.name, 64);
    if (spec.afterburner) {
        b.i32(136, 0x800);
    }
    b.vec3(88, Vec3(-1, -1, -1));
    b.vec3(100, Vec3(1, 1, 1));
    const std::size_t nBones = spec.bones.size();
    b.i32(140, std::int64_t(nBones));
    const std::size_t bones = b.reserve(112 * nBones);
    b.i32(144, std::int64_t(bones));
    std::vector<Eigen::Matrix3d> wr;
    std::vector<Eigen::Vector3d> wp;
    for (std::size_t i = 0; i < nBones; ++i) {
        const GsBone& bone = spec.bones[i];
        const std::size_t o = bones + 112 * i;
        b.chars(o, bone.name, 32);
        b.i32(o + 32, bone.parent);
        for (std::size_t c = 0; c < 6; ++c) {
            b.i32(o + 40 + 4 * c, -1);
        }
        b.vec3(o + 64, bone.position);
        b.vec3(o + 76, bone.rotation);
        b.vec3(o + 88, bone.positionScale);
        b.vec3(o + 100, bone.rotationScale);
        const Eigen::Matrix3d r = rotation(bone.rotation);
        const Eigen::Vector3d p = bone.position.cast<double>();
        if (bone.parent < 0) {
            wr.push_back(r);
            wp.push_back(p);
        } else {
            const auto pi = static_cast<std::size_t>(bone.parent);
            wr.push_back(wr[pi] * r);
            wp.push_back(wr[pi] * p + wp[pi]);
        }
    }
    b.i32(156, std::int64_t(spec.hitboxes.size()));
    const std::size_t hb = b.reserve(32 * spec.hitboxes.size());
    b.i32(160, std::int64_t(hb));
    for (std::size_t i = 0; i < spec.hitboxes.size(); ++i) {
        b.i32(hb + 32 * i, spec.hitboxes[i].bone);
        b.i32(hb + 32 * i + 4, spec.hitboxes[i].group);
        b.vec3(hb + 32 * i + 8, spec.hitboxes[i].min);
        b.vec3(hb + 32 * i + 20, spec.hitboxes[i].max);
    }
    b.i32(212, std::int64_t(spec.attachments.size()));
    const std::size_t att = b.reserve(88 * spec.attachments.size());
    b.i32(216, std::int64_t(att));
    for (std::size_t i = 0; i < spec.attachments.size(); ++i) {
        b.chars(att + 88 * i, spec.attachments[i].name, 32);
        b.i32(att + 88 * i + 36, spec.attachments[i].bone);
        b.vec3(att + 88 * i + 40, spec.attachments[i].origin);
    }
    // sequence groups
    std::int32_t groups = 1;
    for (const GsSequence& s : spec.sequences) {
        groups = std::max(groups, s.group + 1);
    }
    b.i32(172, groups);
    const std::size_t sg = b.reserve(104 * static_cast<std::size_t>(groups));
    b.i32(176, std::int64_t(sg));
    b.chars(sg, "default", 32);
    std::vector<Buf> groupFiles(static_cast<std::size_t>(groups));
    for (std::size_t g = 1; g < groupFiles.size(); ++g) {
        char name[16];
        std::snprintf(name, sizeof name, "test%02d.mdl", int(g));
        b.chars(sg + 104 * g, "seqgroup", 32);
        b.chars(sg + 104 * g + 32, name, 64);
        Buf& gf = groupFiles[g];
        gf.reserve(76);
        gf.chars(0, "IDSQ", 5);
        gf.i32(4, 10);
        gf.chars(8, name, 64);
    }
    // sequences
    b.i32(164, std::int64_t(spec.sequences.size()));
    const std::size_t seqs = b.reserve(176 * spec.sequences.size());
    b.i32(168, std::int64_t(seqs));
    for (std::size_t s = 0; s < spec.sequences.size(); ++s) {
        const GsSequence& seq = spec.sequences[s];
        const std::size_t o = seqs + 176 * s;
        b.chars(o, seq.name, 32);
        b.f32(o + 32, seq.fps);
        b.i32(o + 36, seq.looping ? 1 : 0);
        b.i32(o + 40, seq.activity);
        b.i32(o + 44, 1);
        b.i32(o + 48, std::int64_t(seq.events.size()));
        const std::size_t ev = b.reserve(76 * seq.events.size());
        b.i32(o + 52, std::int64_t(ev));
        for (std::size_t e = 0; e < seq.events.size(); ++e) {
            b.i32(ev + 76 * e, std::int64_t(std::lround(seq.events[e].cycle)));
            b.i32(ev + 76 * e + 4, seq.events[e].event);
            b.chars(ev + 76 * e + 12, seq.events[e].options, 64);
        }
        b.i32(o + 56, seq.frames);
        b.i32(o + 120, 1);
        b.i32(o + 156, seq.group);
        Buf& target = seq.group > 0 ? groupFiles[static_cast<std::size_t>(seq.group)] : b;
        target.align(4);
        b.i32(o + 124, std::int64_t(target.pos()));
        writeGsAnimation(target, spec, seq);
    }
    // textures
    if (!spec.texturesApart) {
        writeGsTextures(b, spec);
    } else {
        Buf t;
        t.reserve(244);
        t.chars(0, "IDST", 5);
        t.i32(4, 10);
        t.chars(8, "testt.mdl", 64);
        writeGsTextures(t, spec);
        t.i32(72, std::int64_t(t.pos()));
        out.textures = std::move(t.data());
    }
    // bodyparts
    b.i32(204, std::int64_t(spec.bodyparts.size()));
    const std::size_t parts = b.reserve(76 * spec.bodyparts.size());
    b.i32(208, std::int64_t(parts));
    std::int32_t base = 1;
    for (std::size_t p = 0; p < spec.bodyparts.size(); ++p) {
        const GsBodypart& part = spec.bodyparts[p];
        const std::size_t po = parts + 76 * p;
        b.chars(po, part.name, 64);
        b.i32(po + 64, std::int64_t(part.models.size()));
        b.i32(po + 68, base);
        base *= std::max<std::int32_t>(1, static_cast<std::int32_t>(part.models.size()));
        const std::size_t models = b.reserve(112 * part.models.size());
        b.i32(po + 72, std::int64_t(models));
        for (std::size_t m = 0; m < part.models.size(); ++m) {
            const GsModel& gm = part.models[m];
            const std::size_t mo = models + 112 * m;
            b.chars(mo, gm.name, 64);
            b.f32(mo + 68, 5);
            const std::size_t nv = gm.vertices.size();
            b.i32(mo + 80, std::int64_t(nv));
            b.i32(mo + 92, std::int64_t(nv));
            const std::size_t vinfo = b.reserve(nv);
            b.align(4);
            const std::size_t verts = b.reserve(12 * nv);
            const std::size_t ninfo = b.reserve(nv);
            b.align(4);
            const std::size_t norms = b.reserve(12 * nv);
            b.i32(mo + 84, std::int64_t(vinfo));
            b.i32(mo + 88, std::int64_t(verts));
            b.i32(mo + 96, std::int64_t(ninfo));
            b.i32(mo + 100, std::int64_t(norms));
            for (std::size_t v = 0; v < nv; ++v) {
                const GsVertex& gv = gm.vertices[v];
                const std::size_t bone = gv.bone;
                Eigen::Vector3d local = gv.position.cast<double>();
                Eigen::Vector3d n = gv.normal.cast<double>();
                if (bone < wr.size()) {
                    local = wr[bone].transpose() * (local - wp[bone]);
                    n = wr[bone].transpose() * n;
                }
                b.u8(vinfo + v, gv.bone);
                b.u8(ninfo + v, gv.bone);
                b.vec3(verts + 12 * v, local.cast<float>());
                b.vec3(norms + 12 * v, n.cast<float>());
            }
            b.i32(mo + 72, std::int64_t(gm.meshes.size()));
            const std::size_t meshes = b.reserve(20 * gm.meshes.size());
            b.i32(mo + 76, std::int64_t(meshes));
            for (std::size_t k = 0; k < gm.meshes.size(); ++k) {
                const GsMesh& me = gm.meshes[k];
                const std::size_t mh = meshes + 20 * k;
                b.i32(mh, std::int64_t(me.triangles.size()));
                b.i32(mh + 8, me.skinRef);
                b.i32(mh + 4, std::int64_t(b.pos()));
                for (std::size_t t = 0; t < me.triangles.size(); ++t) {
                    b.i16(b.reserve(2), static_cast<std::int16_t>(me.asFan ? -3 : 3));
                    // clockwise, as the tri commands wind: a, c, b
                    for (const std::size_t c : {std::size_t(0), std::size_t(2), std::size_t(1)}) {
                        const std::size_t o = b.reserve(8);
                        b.i16(o, static_cast<std::int16_t>(me.triangles[t][c]));
                        b.i16(o + 2, static_cast<std::int16_t>(me.triangles[t][c]));
                        const std::size_t uv = 3 * t + c;
                        b.i16(o + 4, uv < me.uvs.size() ? me.uvs[uv][0] : 0);
                        b.i16(o + 6, uv < me.uvs.size() ? me.uvs[uv][1] : 0);
                    }
                }
                b.i16(b.reserve(2), 0);
                b.align(4);
            }
        }
    }
    b.i32(72, std::int64_t(b.pos()));
    out.mdl = std::move(b.data());
    for (std::size_t g = 1; g < groupFiles.size(); ++g) {
        groupFiles[g].i32(72, std::int64_t(groupFiles[g].pos()));
        out.sequenceGroups.push_back(std::move(groupFiles[g].data()));
    }
    return out;
}

GoldsrcMdlSpec sampleGoldsrcSpec()
{
    GoldsrcMdlSpec s;
    s.bones.push_back({"Bip01", -1, Vec3(0, 0, 30), Vec3(0, 0, 1.5707964f)});
    s.bones.push_back({"Bip01 Head", 0, Vec3(5, 0, 0), Vec3(0.2f, 0, 0)});
    s.textures.push_back({"skin.bmp", 0, 4, 2, 3});
    s.textures.push_back({"chrome_eye.bmp", 0x0002 | 0x0040, 2, 2, 7});
    s.textures.push_back({"skin_dirty.bmp", 0, 4, 2, 9});
    s.skins = {{0, 1}, {2, 1}};
    GsModel body;
    body.name = "body_ref";
    body.vertices = {{Vec3(0, 0, 30), Vec3(0, 0, 1), 0},
                     {Vec3(1, 0, 30), Vec3(0, 0, 1), 0},
                     {Vec3(0, 1, 31), Vec3(0, 0, 1), 1},
                     {Vec3(1, 1, 32), Vec3(1, 0, 0), 1}};
    GsMesh skin;
    skin.skinRef = 0;
    skin.triangles = {{0, 1, 2}};
    skin.uvs = {{0, 0}, {4, 0}, {0, 2}};
    GsMesh eye;
    eye.skinRef = 1;
    eye.triangles = {{1, 3, 2}};
    eye.asFan = true;
    body.meshes = {skin, eye};
    s.bodyparts.push_back({"studio", {body}});
    s.hitboxes.push_back({1, 1, Vec3(-1, -1, -1), Vec3(1, 1, 1), ""});
    s.attachments.push_back({"mouth", 1, Vec3(1, 0, 0)});
    GsSequence idle;
    idle.name = "idle1";
    idle.frames = 3;
    idle.fps = 12;
    idle.looping = true;
    idle.events.push_back({2, 5004, "common/npc_step1.wav", ""});
    idle.positions = {{Vec3(0, 0, 30), Vec3(5, 0, 0)},
                      {Vec3(0, 0, 31), Vec3(5, 0, 0)},
                      {Vec3(0, 0, 32), Vec3(5, 0, 0)}};
    idle.rotations = {{Vec3(0, 0, 1.5707964f), Vec3(0.2f, 0, 0)},
                      {Vec3(0, 0, 1.5707964f), Vec3(0.3f, 0, 0)},
                      {Vec3(0, 0, 1.5707964f), Vec3(0.4f, 0, 0)}};
    GsSequence far = idle;
    far.name = "die";
    far.looping = false;
    far.group = 1;
    far.events.clear();
    s.sequences = {idle, far};
    return s;
}

// ---- .phy ----

PhyPiece phyBox(const Vec3& min, const Vec3& max)
{
    PhyPiece p;
    for (int i = 0; i < 8; ++i) {
        p.vertices.emplace_back((i & 1) != 0 ? max.x() : min.x(), (i & 2) != 0 ? max.y() : min.y(),
                                (i & 4) != 0 ? max.z() : min.z());
    }
    // Two triangles per face, counter-clockwise seen from outside.
    p.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                   {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    return p;
}

namespace {

std::string fixed6(float v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6f", double(v));
    return buf;
}

// One solid's IVP compact surface: header (48), the ledges (16 + 16 per triangle each), their
// point arrays (16 per point: metres on IVP's axes), one ledge-tree node.
std::string compactSurface(const PhySolid& solid)
{
    Buf b;
    const std::size_t head = b.reserve(48);
    std::vector<const PhyPiece*> ledges;
    std::vector<bool> hull;
    if (solid.hullLedge && !solid.pieces.empty()) {
        ledges.push_back(&solid.pieces.front());
        hull.push_back(true);
    }
    for (const PhyPiece& p : solid.pieces) {
        ledges.push_back(&p);
        hull.push_back(false);
    }
    std::vector<std::size_t> at;
    for (std::size_t l = 0; l < ledges.size(); ++l) {
        const PhyPiece& p = *ledges[l];
        at.push_back(b.reserve(16 + 16 * p.triangles.size()));
        const std::size_t o = at.back();
        const std::uint32_t sizeDiv16 = static_cast<std::uint32_t>(1 + p.triangles.size());
        b.u32(o + 8, (hull[l] ? 1u : 0u) | (1u << 2) | (sizeDiv16 << 8));
        b.i16(o + 12, static_cast<std::int16_t>(p.triangles.size()));
        for (std::size_t t = 0; t < p.triangles.size(); ++t) {
            const std::size_t tri = o + 16 + 16 * t;
            b.u32(tri, static_cast<std::uint32_t>(t & 0xFFF));
            for (std::size_t e = 0; e < 3; ++e) {
                b.u32(tri + 4 + 4 * e, p.triangles[t][e]);
            }
        }
    }
    for (std::size_t l = 0; l < ledges.size(); ++l) {
        const std::size_t points = b.reserve(16 * ledges[l]->vertices.size());
        b.i32(at[l], std::int64_t(points) - std::int64_t(at[l]));
        for (std::size_t v = 0; v < ledges[l]->vertices.size(); ++v) {
            const Vec3& m = ledges[l]->vertices[v];
            b.vec3(points + 16 * v, Vec3(m.x() * 0.0254f, -m.z() * 0.0254f, m.y() * 0.0254f));
        }
    }
    const std::size_t node = b.reserve(28);
    if (!at.empty()) {
        b.i32(node + 4, std::int64_t(at.front()) - std::int64_t(node));
    }
    b.u32(head + 28, static_cast<std::uint32_t>(b.pos() << 8));
    b.i32(head + 32, std::int64_t(node) - std::int64_t(head));
    b.chars(head + 44, "IVPS", 5);
    return b.data();
}

} // namespace

std::string phyText(const PhySpec& spec)
{
    std::string t;
    float total = 0;
    for (std::size_t i = 0; i < spec.solids.size(); ++i) {
        const PhySolid& s = spec.solids[i];
        total += s.mass;
        t += "solid {\n\"index\" \"" + std::to_string(i) + "\"\n\"name\" \"" + s.name + "\"\n";
        if (!s.parent.empty()) {
            t += "\"parent\" \"" + s.parent + "\"\n";
        }
        t += "\"mass\" \"" + fixed6(s.mass) + "\"\n\"surfaceprop\" \"" + s.surfaceProp +
             "\"\n\"damping\" \"0.000000\"\n\"rotdamping\" \"0.000000\"\n\"inertia\" "
             "\"1.000000\"\n\"volume\" \"" +
             fixed6(s.volume) + "\"\n}\n";
    }
    for (const PhyConstraint& c : spec.constraints) {
        t += "ragdollconstraint {\n\"parent\" \"" + std::to_string(c.parent) + "\"\n\"child\" \"" +
             std::to_string(c.child) + "\"\n";
        const char* axes[3] = {"x", "y", "z"};
        for (int a = 0; a < 3; ++a) {
            t += std::string("\"") + axes[a] + "min\" \"" + fixed6(c.min[a]) + "\"\n\"" + axes[a] +
                 "max\" \"" + fixed6(c.max[a]) + "\"\n\"" + axes[a] + "friction\" \"" +
                 fixed6(c.friction[a]) + "\"\n";
        }
        t += "}\n";
    }
    if (!spec.collisionPairs.empty() || !spec.selfCollisions) {
        t += "collisionrules {\n";
        if (!spec.selfCollisions) {
            t += "\"selfcollisions\" \"0\"\n";
        }
        for (const auto& p : spec.collisionPairs) {
            t +=
                "\"collisionpair\" \"" + std::to_string(p[0]) + "," + std::to_string(p[1]) + "\"\n";
        }
        t += "}\n";
    }
    t += "editparams {\n\"rootname\" \"" + spec.rootName + "\"\n\"totalmass\" \"" + fixed6(total) +
         "\"\n";
    if (spec.concave) {
        t += "\"concave\" \"1\"\n";
    }
    t += "}\n";
    return t;
}

std::string writePhy(const PhySpec& spec)
{
    Buf b;
    const std::size_t head = b.reserve(16);
    b.i32(head, 16);
    b.i32(head + 8, std::int64_t(spec.solids.size()));
    b.i32(head + 12, spec.checksum);
    for (const PhySolid& s : spec.solids) {
        const std::string surface = compactSurface(s);
        const std::size_t size = b.reserve(4);
        if (!spec.legacy) {
            const std::size_t v = b.reserve(28);
            b.chars(v, "VPHY", 5);
            b.i16(v + 4, 0x100);
            b.i32(v + 8, std::int64_t(surface.size()));
        }
        b.data() += surface;
        b.i32(size, std::int64_t(b.pos() - size - 4));
    }
    b.data() += spec.text.empty() ? phyText(spec) : spec.text;
    b.data().push_back('\0');
    return b.data();
}

} // namespace rigscope::test
