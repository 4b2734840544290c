// XMODEL_BIN / XANIM_BIN (FORMATS.md §5): *LZ4* container + 4-byte aligned token stream. The
// reader turns tokens into the same records as the text readers, so one grammar serves both.
#include "core/formats/xbin/xbin.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include <lz4.h>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_grammar.h"
#include "core/formats/xbin/xbin_tokens.h"
#include "core/formats/xbin/xbin_stream.h"
#include "core/formats/cod/cod_record.h"
#include "core/io/file_buffer.h"
#include "core/text/numbers.h"

namespace rigscope::core {

namespace xbin {

namespace {

using T = TokenType;

constexpr TokenInfo tok(std::string_view n, T t)
{
    return {n, t, codHash(n, static_cast<std::uint16_t>(t))};
}

constexpr std::array kTokens{
    tok("//", T::Comment),
    tok(";", T::Comment),
    tok("MODEL", T::Section),
    tok("ANIMATION", T::Section),
    tok("NOTETRACKS", T::Section),
    tok("VERSION", T::UShort),
    tok("NUMBONES", T::UShort),
    tok("BONE", T::UShort),
    tok("BONES", T::UShort),
    tok("NUMVERTS", T::UShort),
    tok("VERT", T::UShort),
    tok("NUMOBJECTS", T::UShort),
    tok("NUMMATERIALS", T::UShort),
    tok("NUMPARTS", T::UShort),
    tok("PART", T::UShort),
    tok("FRAMERATE", T::UShort),
    tok("NUMTRACKS", T::UShort),
    tok("NOTETRACK", T::UShort),
    tok("NUMKEYS", T::UShort),
    tok("FIRSTFRAME", T::UShort),
    tok("FRAME", T::UInt),
    tok("IKPITCHLAYER", T::UInt),
    tok("NUMVERTS32", T::Int),
    tok("VERT32", T::Int),
    tok("NUMFACES", T::Int),
    tok("NUMFRAMES", T::Int),
    tok("NUMCOSMETICBONES", T::Int),
    tok("NUMSBONES", T::Int),
    tok("NUMSWEIGHTS", T::Int),
    tok("NUMIKPITCHLAYERS", T::Int),
    tok("COLOR", T::Vector48Bit),
    tok("X", T::Vector316Bit),
    tok("Y", T::Vector316Bit),
    tok("Z", T::Vector316Bit),
    tok("NORMAL", T::Vector316Bit),
    tok("PHONG", T::Float),
    tok("COEFFS", T::Vector2),
    tok("GLOW", T::Vector2),
    tok("REFRACTIVE", T::Vector2),
    tok("REFLECTIVE", T::Vector2),
    tok("BLINN", T::Vector2),
    tok("OFFSET", T::Vector3),
    tok("SCALE", T::Vector3),
    tok("ROTATION", T::Vector3),
    tok("TRANSPARENCY", T::Vector4),
    tok("AMBIENTCOLOR", T::Vector4),
    tok("INCANDESCENCE", T::Vector4),
    tok("SPECULARCOLOR", T::Vector4),
    tok("REFLECTIVECOLOR", T::Vector4),
    tok("QUATERNION", T::Vector4),
    tok("EXTRA", T::Vector4),
    tok("BONE", T::BoneWeight),
    tok("UV", T::UVSet),
    tok("OBJECT", T::UShortString),
    tok("PART", T::UShortString),
    tok("MATERIAL", T::UShortStringX3),
    tok("FRAME", T::NoteFrame),
    tok("BONE", T::BoneInfo),
    tok("TRI", T::Tri),
    tok("TRI16", T::Tri16),
};

std::uint16_t hashOf(std::string_view name, T t)
{
    return codHash(name, static_cast<std::uint16_t>(t));
}

// ---- writer ------------------------------------------------------------------------------

class TokenOut {
public:
    std::string b;
    std::size_t clamped = 0;
    std::string firstClamp;

    void hash(std::string_view name, T t)
    {
        while (b.size() % 4 != 0) {
            b.push_back('\0');
        }
        put16(hashOf(name, t));
    }
    void put16(std::uint16_t v)
    {
        b.push_back(static_cast<char>(v & 0xFF));
        b.push_back(static_cast<char>(v >> 8));
    }
    void put32(std::uint32_t v)
    {
        put16(static_cast<std::uint16_t>(v & 0xFFFF));
        put16(static_cast<std::uint16_t>(v >> 16));
    }
    void putF(float f)
    {
        std::uint32_t v = 0;
        std::memcpy(&v, &f, 4);
        put32(v);
    }
    void pad2() { put16(0); }
    void cstring(std::string_view s)
    {
        for (char c : s) {
            if (c != '\0') {
                b.push_back(c);
            }
        }
        b.push_back('\0');
        while (b.size() % 4 != 0) {
            b.push_back('\0');
        }
    }
    // Round to nearest and clamp (write.quantise-clamp counts values that clamping changes).
    long quant(double v, long lo, long hi, const char* what)
    {
        double r = std::isfinite(v) ? std::round(v) : 0.0;
        if (!std::isfinite(v) || r < static_cast<double>(lo) || r > static_cast<double>(hi)) {
            r = std::isfinite(v) ? (r < static_cast<double>(lo) ? static_cast<double>(lo)
                                                                : static_cast<double>(hi))
                                 : 0.0;
            if (clamped++ == 0) {
                firstClamp = std::string(what) + " " + numberTextOf(v);
            }
        }
        return static_cast<long>(r);
    }
    static std::string numberTextOf(double v)
    {
        std::string s;
        appendFloat(s, static_cast<float>(v));
        return s;
    }

    void section(std::string_view n)
    {
        hash(n, T::Section);
        put16(0);
    }
    // Integer fields: a fractional value (frame rate, frame number) is a changed value too.
    void integral(double v, const char* what)
    {
        if (std::isfinite(v) && v != std::floor(v) && clamped++ == 0) {
            firstClamp = std::string(what) + " " + numberTextOf(v) + " rounded";
        }
    }
    void ushort(std::string_view n, double v)
    {
        integral(v, n.data());
        hash(n, T::UShort);
        put16(static_cast<std::uint16_t>(quant(v, 0, 65535, n.data())));
    }
    void uint(std::string_view n, double v)
    {
        integral(v, n.data());
        hash(n, T::UInt);
        pad2();
        put32(static_cast<std::uint32_t>(quant(v, 0, 4294967295L, n.data())));
    }
    void sint(std::string_view n, double v)
    {
        hash(n, T::Int);
        pad2();
        put32(static_cast<std::uint32_t>(
            static_cast<std::int32_t>(quant(v, INT32_MIN, INT32_MAX, n.data()))));
    }
    void vec48(std::string_view n, const float* v)
    {
        hash(n, T::Vector48Bit);
        pad2();
        for (int i = 0; i < 4; ++i) {
            b.push_back(static_cast<char>(static_cast<unsigned char>(
                quant(static_cast<double>(v[i]) * 255.0, 0, 255, "colour"))));
        }
    }
    void vec316(std::string_view n, const float* v)
    {
        hash(n, T::Vector316Bit);
        for (int i = 0; i < 3; ++i) {
            const long q = quant(static_cast<double>(v[i]) * 32767.0, -32767, 32767, n.data());
            put16(static_cast<std::uint16_t>(static_cast<std::int16_t>(q)));
        }
    }
    void floats(std::string_view n, T t, const float* v, std::size_t count)
    {
        hash(n, t);
        pad2();
        for (std::size_t i = 0; i < count; ++i) {
            putF(v[i]);
        }
    }
};

bool writeKind(const Model& m, bool anim, DiagnosticSink& sink)
{
    if (anim) {
        if (m.animations.empty() || m.animations.front().kind != PoseKind::ModelMatrix) {
            sink.error(
                ids::kWriteBadName, {1, 1, 0},
                m.animations.empty()
                    ? "model has no animation to write"
                    : "animation holds SMD-style keys; convert it with 'rigscope-cli convert'");
            return false;
        }
        return true;
    }
    if (m.skeleton.bindKind != PoseKind::ModelMatrix && !m.skeleton.empty()) {
        sink.error(
            ids::kWriteBadName, {1, 1, 0},
            "model holds SMD-style parent-relative bones; convert it with 'rigscope-cli convert'");
        return false;
    }
    return true;
}

void comments(TokenOut& o, const Model& m)
{
    for (const std::string& c : m.headerComments) {
        std::string_view t = c;
        bool semi = false;
        if (t.rfind("//", 0) == 0) {
            t.remove_prefix(2);
        } else if (t.rfind(';', 0) == 0) {
            t.remove_prefix(1);
            semi = true;
        }
        o.hash(semi ? ";" : "//", T::Comment);
        o.pad2();
        o.cstring(t);
    }
}

WriteResult finish(TokenOut& o, DiagnosticSink& sink)
{
    WriteResult res;
    if (o.clamped > 0) {
        sink.warning(ids::kWriteQuantiseClamp, {1, 1, 0},
                     std::to_string(o.clamped) + " values clamped when quantised (e.g. " +
                         o.firstClamp + ")");
    }
    if (o.b.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
        sink.error(ids::kSyntaxBinCorrupt, {1, 1, 0}, "token stream too large for one LZ4 block");
    } else {
        res.bytes = wrapContainer(o.b);
    }
    res.diagnostics = sink.take();
    return res;
}

std::string unwrap(std::string_view bytes, std::string& out, std::uint64_t& at)
{
    if (bytes.size() < 9 || bytes.substr(0, 5) != "*LZ4*") {
        at = 0;
        return bytes.size() < 9 && bytes.substr(0, std::min<std::size_t>(5, bytes.size())) ==
                                       std::string_view("*LZ4*").substr(
                                           0, std::min<std::size_t>(5, bytes.size()))
                   ? "truncated *LZ4* header (" + std::to_string(bytes.size()) + " bytes)"
                   : "bad magic; expected '*LZ4*'";
    }
    std::uint32_t size = 0;
    for (int i = 0; i < 4; ++i) {
        size |= static_cast<std::uint32_t>(
                    static_cast<unsigned char>(bytes[5 + static_cast<std::size_t>(i)]))
                << (8 * i);
    }
    const std::uint64_t compressed = bytes.size() - 9;
    const std::uint64_t limit = std::min<std::uint64_t>(1ull << 30, 255ull * compressed + 64ull);
    if (size == 0 || size > limit) {
        at = 5;
        return "uncompressed size " + std::to_string(size) + " outside 1.." +
               std::to_string(limit) + " for " + std::to_string(compressed) + " compressed bytes";
    }
    at = 9;
    if (compressed > static_cast<std::uint64_t>(INT32_MAX)) {
        return "compressed block too large";
    }
    out.assign(size, '\0');
    const int got = LZ4_decompress_safe(bytes.data() + 9, out.data(), static_cast<int>(compressed),
                                        static_cast<int>(size));
    if (got < 0 || static_cast<std::uint32_t>(got) != size) {
        return got < 0 ? "LZ4 data corrupt or cut short (" + std::to_string(compressed) +
                             " compressed bytes for " + std::to_string(size) + ")"
                       : "LZ4 data holds " + std::to_string(got) + " bytes; header says " +
                             std::to_string(size);
    }
    return {};
}

} // namespace

const TokenInfo* tokenByHash(std::uint16_t hash) noexcept
{
    for (const TokenInfo& t : kTokens) {
        if (t.hash == hash) {
            return &t;
        }
    }
    return nullptr;
}

const TokenInfo* tokenTable(std::size_t& count) noexcept
{
    count = kTokens.size();
    return kTokens.data();
}

std::string wrapContainer(std::string_view stream)
{
    if (stream.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
        return {};
    }
    const int srcSize = static_cast<int>(stream.size());
    const int bound = LZ4_compressBound(srcSize);
    std::string out(9 + static_cast<std::size_t>(bound), '\0');
    std::memcpy(out.data(), "*LZ4*", 5);
    const auto n = static_cast<std::uint32_t>(srcSize);
    for (std::size_t i = 0; i < 4; ++i) {
        out[5 + i] = static_cast<char>((n >> (8 * i)) & 0xFFu);
    }
    const int written = LZ4_compress_default(stream.data(), out.data() + 9, srcSize, bound);
    out.resize(9 + static_cast<std::size_t>(written > 0 ? written : 0));
    return out;
}

// The §5.1 container's token stream into `out`; else why not, and where.
bool unwrapContainer(std::string_view bytes, std::string& out)
{
    std::uint64_t at = 0;
    return unwrap(bytes, out, at).empty();
}

} // namespace xbin

int sniffXbin(std::string_view head) noexcept
{
    return head.size() >= 5 && head.substr(0, 5) == "*LZ4*" ? 90 : 0;
}

ReadResult readXbin(std::string_view bytes, const ReadContext& ctx)
{
    ReadResult r;
    DiagnosticSink sink(ctx.fileName, true);
    auto fail = [&](std::uint64_t at, std::string msg) {
        sink.error(ids::kSyntaxBinCorrupt, {0, 0, at}, std::move(msg));
        r.diagnostics = sink.take();
        return r;
    };
    if (bytes.empty()) {
        sink.error(ids::kSyntaxEmptyFile, {0, 0, 0}, "file is empty");
        r.diagnostics = sink.take();
        return r;
    }
    std::string data;
    std::uint64_t at = 0;
    if (std::string why = xbin::unwrap(bytes, data, at); !why.empty()) {
        return fail(at, std::move(why));
    }
    // Which stream is it? The first section token decides.
    std::string first;
    {
        xbin::BinRecordStream probe(data, nullptr, nullptr);
        cod::Record rec;
        if (probe.next(rec)) {
            first = rec.keyword;
        }
    }
    Model m;
    xbin::BinRecordStream in(data, &sink, &m.headerComments);
    bool ok = false;
    if (first == "MODEL") {
        ok = cod::parseXmodelRecords(in, sink, m, data.size() + 1);
        m.format = "xmodel_bin";
    } else if (first == "ANIMATION") {
        ok = cod::parseXanimRecords(in, sink, m, data.size() + 1);
        m.format = "xanim_bin";
    } else {
        cod::Record rec;
        while (in.next(rec)) {
        }
        if (!in.stopped()) {
            sink.error(ids::kSyntaxBinCorrupt, {0, 0, 0},
                       "no 'MODEL' or 'ANIMATION' token (offset into the decompressed stream)");
        }
    }
    if (!ok) {
        r.diagnostics = sink.take();
        return r;
    }
    const std::string ext = extensionLower(ctx.fileName);
    if ((ext == "xanim_bin" && m.format == "xmodel_bin") ||
        (ext == "xmodel_bin" && m.format == "xanim_bin")) {
        Diagnostic& d = sink.note(ids::kSyntaxExtMismatch, {0, 0, 0},
                                  std::string("content is ") +
                                      (m.format == "xmodel_bin" ? "a model" : "an animation") +
                                      " stream, extension says ." + ext + "; read by content");
        d.fixedSeverity = true;
    }
    m.lineEnding = LineEnding::CRLF;
    r.model = std::move(m);
    r.hasModel = true;
    r.diagnostics = sink.take();
    return r;
}

WriteResult writeXmodelBin(const Model& m, const WriteContext& ctx)
{
    using xbin::TokenType;
    DiagnosticSink sink(ctx.fileName);
    if (!xbin::writeKind(m, false, sink)) {
        WriteResult res;
        res.diagnostics = sink.take();
        return res;
    }
    const Skeleton& s = m.skeleton;
    const Mesh& me = m.mesh;
    xbin::TokenOut o;
    xbin::comments(o, m);
    o.section("MODEL");
    const bool cod = m.format == "xmodel" || m.format == "xmodel_bin";
    o.ushort("VERSION", cod && m.version >= 5 && m.version <= 7 ? m.version : 6);
    const cod::BoneNumbering bn = cod::boneNumbering(s.sourceIds);
    o.ushort("NUMBONES", static_cast<double>(s.size()));
    for (std::size_t j : bn.order) {
        o.hash("BONE", TokenType::BoneInfo);
        o.pad2();
        o.put32(static_cast<std::uint32_t>(bn.index[j]));
        const JointIndex p = s.parents[j];
        o.put32(
            static_cast<std::uint32_t>(p == kNoJoint ? -1 : bn.index[static_cast<std::size_t>(p)]));
        o.cstring(s.names[j]);
    }
    for (std::size_t j : bn.order) {
        o.ushort("BONE", bn.index[j]);
        o.floats("OFFSET", TokenType::Vector3, s.bindPositions[j].data(), 3);
        o.floats("SCALE", TokenType::Vector3, s.bindScales[j].data(), 3);
        for (int c = 0; c < 3; ++c) {
            const Vec3 col = s.bindAxes[j].col(c);
            o.vec316(c == 0 ? "X" : (c == 1 ? "Y" : "Z"), col.data());
        }
    }
    const std::size_t np = me.pointCount();
    const bool big = np > 65535;
    if (big) {
        o.sint("NUMVERTS32", static_cast<double>(np));
    } else {
        o.ushort("NUMVERTS", static_cast<double>(np));
    }
    std::vector<std::int32_t> js;
    std::vector<float> ws;
    for (std::size_t p = 0; p < np; ++p) {
        if (big) {
            o.sint("VERT32", static_cast<double>(p));
        } else {
            o.ushort("VERT", static_cast<double>(p));
        }
        o.floats("OFFSET", TokenType::Vector3, me.pointPositions[p].data(), 3);
        cod::pointInfluences(me, p, js, ws);
        o.ushort("BONES", static_cast<double>(js.size()));
        for (std::size_t k = 0; k < js.size(); ++k) {
            o.hash("BONE", TokenType::BoneWeight);
            o.put16(static_cast<std::uint16_t>(
                static_cast<std::int16_t>(bn.index[static_cast<std::size_t>(js[k])])));
            o.putF(ws[k]);
        }
    }
    const std::size_t nt = me.triangleCount();
    o.sint("NUMFACES", static_cast<double>(nt));
    for (std::size_t t = 0; t < nt; ++t) {
        const std::uint32_t obj = me.triangleObjects.empty() ? 0 : me.triangleObjects[t];
        const std::uint32_t mat = me.triangleMaterials[t];
        if (obj > 255 || mat > 255) {
            o.hash("TRI16", TokenType::Tri16);
            o.pad2();
            o.put16(static_cast<std::uint16_t>(std::min<std::uint32_t>(obj, 65535)));
            o.put16(static_cast<std::uint16_t>(std::min<std::uint32_t>(mat, 65535)));
        } else {
            o.hash("TRI", TokenType::Tri);
            o.b.push_back(static_cast<char>(obj));
            o.b.push_back(static_cast<char>(mat));
        }
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t c = 3 * t + k;
            if (big) {
                o.sint("VERT32", me.cornerPoints[c]);
            } else {
                o.ushort("VERT", me.cornerPoints[c]);
            }
            o.vec316("NORMAL", me.cornerNormals[c].data());
            const Vec4 col = me.cornerColors.empty() ? Vec4::Ones() : me.cornerColors[c];
            o.vec48("COLOR", col.data());
            o.hash("UV", TokenType::UVSet);
            o.put16(static_cast<std::uint16_t>(me.uvSetCount));
            o.putF(me.cornerUvs[c].x());
            o.putF(me.cornerUvs[c].y());
            for (std::uint32_t u = 1; u < me.uvSetCount; ++u) {
                const Vec2& e = me.cornerExtraUvs[c * (me.uvSetCount - 1) + (u - 1)];
                o.putF(e.x());
                o.putF(e.y());
            }
        }
    }
    const bool needObject = me.objects.empty() && nt > 0;
    o.ushort("NUMOBJECTS", needObject ? 1.0 : static_cast<double>(me.objects.size()));
    auto object = [&](std::size_t i, std::string_view name) {
        o.hash("OBJECT", TokenType::UShortString);
        o.put16(static_cast<std::uint16_t>(i));
        o.cstring(name);
    };
    if (needObject) {
        object(0, "default");
    }
    for (std::size_t i = 0; i < me.objects.size(); ++i) {
        object(i, me.objects[i]);
    }
    o.ushort("NUMMATERIALS", static_cast<double>(me.materials.size()));
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        const Material& mat = me.materials[i];
        o.hash("MATERIAL", TokenType::UShortStringX3);
        o.put16(static_cast<std::uint16_t>(i));
        o.cstring(mat.name);
        o.cstring(mat.type);
        o.cstring(mat.images);
        for (const MaterialParam& p : mat.params) {
            float v[4] = {0, 0, 0, 0};
            for (std::size_t k = 0; k < std::min<std::size_t>(4, p.values.size()); ++k) {
                v[k] = p.values[k];
            }
            if (p.key == "COLOR") {
                o.vec48("COLOR", v);
            } else if (p.key == "PHONG") {
                o.floats("PHONG", TokenType::Float, v, 1);
            } else if (p.key == "COEFFS" || p.key == "GLOW" || p.key == "REFRACTIVE" ||
                       p.key == "REFLECTIVE" || p.key == "BLINN") {
                o.floats(p.key, TokenType::Vector2, v, 2);
            } else if (p.key == "TRANSPARENCY" || p.key == "AMBIENTCOLOR" ||
                       p.key == "INCANDESCENCE" || p.key == "SPECULARCOLOR" ||
                       p.key == "REFLECTIVECOLOR") {
                o.floats(p.key, TokenType::Vector4, v, 4);
            } else {
                ++dropped;
            }
        }
    }
    if (dropped > 0) {
        sink.warning(ids::kCodUnsupported, {1, 1, 0},
                     std::to_string(dropped) + " unknown material parameters not written");
    }
    return xbin::finish(o, sink);
}

WriteResult writeXanimBin(const Model& m, const WriteContext& ctx)
{
    using xbin::TokenType;
    DiagnosticSink sink(ctx.fileName);
    if (!xbin::writeKind(m, true, sink)) {
        WriteResult res;
        res.diagnostics = sink.take();
        return res;
    }
    const Skeleton& s = m.skeleton;
    const Animation& a = m.animations.front();
    xbin::TokenOut o;
    xbin::comments(o, m);
    o.section("ANIMATION");
    o.ushort("VERSION", 3);
    const cod::BoneNumbering bn = cod::boneNumbering(s.sourceIds);
    o.ushort("NUMPARTS", static_cast<double>(s.size()));
    for (std::size_t j : bn.order) {
        o.hash("PART", TokenType::UShortString);
        o.put16(static_cast<std::uint16_t>(bn.index[j]));
        o.cstring(s.names[j]);
    }
    o.ushort("FRAMERATE", static_cast<double>(a.fps));
    o.sint("NUMFRAMES", static_cast<double>(a.frameCount()));
    const bool scales = !a.scales.empty();
    for (std::size_t f = 0; f < a.frameCount(); ++f) {
        o.uint("FRAME", a.times[f]);
        for (std::size_t j : bn.order) {
            const std::size_t k = a.key(f, j);
            o.ushort("PART", bn.index[j]);
            o.floats("OFFSET", TokenType::Vector3, a.positions[k].data(), 3);
            if (scales) {
                o.floats("SCALE", TokenType::Vector3, a.scales[k].data(), 3);
            }
            for (int c = 0; c < 3; ++c) {
                const Vec3 col = a.axes[k].col(c);
                o.vec316(c == 0 ? "X" : (c == 1 ? "Y" : "Z"), col.data());
            }
        }
    }
    auto note = [&](const Notetrack& n) {
        o.hash("FRAME", TokenType::NoteFrame);
        o.pad2();
        o.integral(n.frame, "note frame");
        o.put32(static_cast<std::uint32_t>(
            static_cast<std::int32_t>(o.quant(n.frame, INT32_MIN, INT32_MAX, "note frame"))));
        o.cstring(n.text);
    };
    if (a.noteStyle == NoteStyle::Flat) {
        o.ushort("NUMKEYS", static_cast<double>(a.notes.size()));
        for (const Notetrack& n : a.notes) {
            note(n);
        }
    } else {
        o.section("NOTETRACKS");
        for (std::size_t j : bn.order) {
            const std::int32_t part = bn.index[j];
            auto partOf = [&](const Notetrack& n) {
                return (n.part >= 0 && static_cast<std::size_t>(n.part) < s.size()) ? n.part : 0;
            };
            std::vector<std::int32_t> tracks;
            for (const Notetrack& n : a.notes) {
                if (partOf(n) == part &&
                    std::find(tracks.begin(), tracks.end(), n.track) == tracks.end()) {
                    tracks.push_back(n.track);
                }
            }
            o.ushort("PART", part);
            o.ushort("NUMTRACKS", static_cast<double>(tracks.size()));
            for (std::int32_t t : tracks) {
                std::size_t count = 0;
                for (const Notetrack& n : a.notes) {
                    count += (partOf(n) == part && n.track == t) ? 1u : 0u;
                }
                o.ushort("NOTETRACK", t);
                o.ushort("NUMKEYS", static_cast<double>(count));
                for (const Notetrack& n : a.notes) {
                    if (partOf(n) == part && n.track == t) {
                        note(n);
                    }
                }
            }
        }
    }
    return xbin::finish(o, sink);
}

} // namespace rigscope::core
