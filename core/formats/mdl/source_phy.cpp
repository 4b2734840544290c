// Source .phy (the collision model studiomdl writes beside a .mdl): a 16-byte header, one
// binary block per solid (a "VPHY" compact-surface header, or the legacy bare IVP compact
// surface, then the IVP ledges: one convex piece each), and after the last solid a text
// section of key/value blocks (docs/compiled.md "`.phy`"). Every offset and count is checked
// against the file; what does not fit is reported at its byte offset and the walk stops there.
#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "core/formats/mdl/compiled_model.h"
#include "core/formats/mdl/source_mdl_internal.h"
#include "core/text/ascii.h"
#include "core/text/numbers.h"

namespace rigscope::core {

using mdl::Bytes;
using mdl::FileReader;

namespace {

constexpr std::uint32_t kVphy = 0x59485056; // "VPHY"
constexpr std::uint32_t kIvps = 0x53505649; // "IVPS"
constexpr std::int64_t kPhyHeaderSize = 16;
constexpr std::int64_t kVphyHeaderSize = 28;
constexpr std::int64_t kSurfaceHeaderSize = 48;
constexpr std::int64_t kLedgeSize = 16;
constexpr std::int64_t kTriangleSize = 16;
constexpr std::int64_t kPointSize = 16;
constexpr double kInchesPerMetre = 1.0 / 0.0254;

std::string hex(std::int64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v < 0 ? 0 : v));
    return buf;
}

SourceLoc at(std::int64_t off)
{
    return SourceLoc{0, 0, static_cast<std::uint64_t>(off < 0 ? 0 : off)};
}

// IVP stores metres with y down and z forward: model space is (x, z, -y) in inches.
Vec3 ivpToModel(const Bytes& b, std::int64_t off)
{
    const double x = b.f32(off), y = b.f32(off + 4), z = b.f32(off + 8);
    return {static_cast<float>(x * kInchesPerMetre), static_cast<float>(z * kInchesPerMetre),
            static_cast<float>(-y * kInchesPerMetre)};
}

// The ledges of one compact surface [surface, end): stored one after the other from the end of
// the surface header up to the first point array any of them names. A ledge is 16 bytes (its
// point array's offset from the ledge, the ledge tree node, flags with the children bits in
// bits 0-1, the triangle count), then 16 bytes per triangle (flags, three edges whose low 16
// bits are the start point's index into the point array). Points are 4 floats.
void readLedges(FileReader& f, std::int64_t surface, std::int64_t end, CompiledPhysicsSolid& s)
{
    const Bytes& b = f.b;
    std::int64_t p = surface + kSurfaceHeaderSize;
    std::int64_t pointsStart = end;
    while (p + kLedgeSize <= pointsStart) {
        const std::int64_t pointOffset = b.i32(p);
        const std::uint32_t flags = b.u32(p + 8);
        const std::int64_t triangles = b.i16(p + 12);
        const std::int64_t trianglesEnd = p + kLedgeSize + triangles * kTriangleSize;
        const std::int64_t points = p + pointOffset;
        if (triangles < 0 || trianglesEnd > pointsStart) {
            f.corrupt(p + 12, std::to_string(triangles) + " triangles of the convex piece at " +
                                  hex(p) + " run past its points (" + hex(pointsStart) + ")");
            return;
        }
        if (pointOffset <= 0 || points < trianglesEnd || points >= end) {
            f.corrupt(p, "the points of the convex piece at " + hex(p) + " (" + hex(points) +
                             ") are not between its triangles and the solid's end (" + hex(end) +
                             ")");
            return;
        }
        pointsStart = std::min(pointsStart, points);
        if ((flags & 3U) != 0) {
            ++s.hullLedges; // an inner node's hull, not a piece of its own
            p = trianglesEnd;
            continue;
        }
        CompiledConvexPiece piece;
        piece.offset = static_cast<std::uint64_t>(p);
        std::unordered_map<std::uint32_t, std::int32_t> local;
        for (std::int64_t t = 0; t < triangles; ++t) {
            const std::int64_t tri = p + kLedgeSize + t * kTriangleSize;
            std::array<std::int32_t, 3> corners{};
            for (std::int64_t e = 0; e < 3; ++e) {
                const std::uint32_t index = b.u16(tri + 4 + e * 4);
                const std::int64_t point = points + std::int64_t(index) * kPointSize;
                if (point + 12 > end) {
                    f.corrupt(tri + 4 + e * 4, "point " + std::to_string(index) + " at " +
                                                   hex(point) + " lies past the solid's end (" +
                                                   hex(end) + ")");
                    return;
                }
                const auto [it, inserted] =
                    local.try_emplace(index, static_cast<std::int32_t>(piece.vertices.size()));
                if (inserted) {
                    piece.vertices.push_back(ivpToModel(b, point));
                }
                corners[static_cast<std::size_t>(e)] = it->second;
            }
            piece.triangles.push_back(corners);
        }
        s.pieces.push_back(std::move(piece));
        p = trianglesEnd;
    }
}

// ---- the text section ----

struct TextToken {
    std::string text;
    std::int64_t offset = 0;
    bool quoted = false;
};

// Quoted strings, bare words, braces; `//` comments to the end of the line.
std::vector<TextToken> tokenize(std::string_view text, std::int64_t base)
{
    std::vector<TextToken> out;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            ++i;
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n') {
                ++i;
            }
        } else if (c == '{' || c == '}') {
            out.push_back({std::string(1, c), base + std::int64_t(i), false});
            ++i;
        } else if (c == '"') {
            const std::size_t close = text.find('"', i + 1);
            const std::size_t stop = close == std::string_view::npos ? text.size() : close;
            out.push_back(
                {std::string(text.substr(i + 1, stop - i - 1)), base + std::int64_t(i), true});
            i = stop + 1;
        } else {
            std::size_t j = i;
            while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' &&
                   text[j] != '\n' && text[j] != '"' && text[j] != '{' && text[j] != '}') {
                ++j;
            }
            out.push_back({std::string(text.substr(i, j - i)), base + std::int64_t(i), false});
            i = j;
        }
    }
    return out;
}

bool isBrace(const TextToken& t, char c)
{
    return !t.quoted && t.text.size() == 1 && t.text[0] == c;
}

void readText(FileReader& f, std::int64_t start, CompiledPhysics& out)
{
    const Bytes& b = f.b;
    if (start >= static_cast<std::int64_t>(b.size())) {
        return;
    }
    std::string_view text = b.view().substr(static_cast<std::size_t>(start));
    text = text.substr(0, text.find('\0'));
    const std::vector<TextToken> tokens = tokenize(text, start);
    std::size_t i = 0;
    while (i < tokens.size()) {
        const TextToken& name = tokens[i];
        if (isBrace(name, '{') || isBrace(name, '}') || i + 1 >= tokens.size() ||
            !isBrace(tokens[i + 1], '{')) {
            f.corrupt(name.offset, "the text section expects a block name and '{' here, not '" +
                                       name.text.substr(0, 40) + "'");
            return;
        }
        CompiledPhysicsBlock block;
        block.type = asciiLower(name.text);
        block.offset = static_cast<std::uint64_t>(name.offset);
        i += 2;
        bool closed = false;
        while (i < tokens.size()) {
            if (isBrace(tokens[i], '}')) {
                closed = true;
                ++i;
                break;
            }
            if (i + 1 >= tokens.size() || isBrace(tokens[i], '{') || isBrace(tokens[i + 1], '{') ||
                isBrace(tokens[i + 1], '}')) {
                f.corrupt(tokens[i].offset, "the key '" + tokens[i].text.substr(0, 40) +
                                                "' of the " + block.type + " block has no value");
                return;
            }
            block.values.push_back({tokens[i].text, tokens[i + 1].text});
            i += 2;
        }
        if (!closed) {
            f.corrupt(name.offset, "the " + block.type + " block is not closed");
            return;
        }
        out.blocks.push_back(std::move(block));
    }
}

float floatOf(const CompiledPhysicsBlock& block, std::string_view key, float fallback)
{
    float v = fallback;
    const std::string text = block.value(key);
    if (text.empty() || !parseFloat(text, v)) {
        return fallback;
    }
    return v;
}

std::int32_t intOf(const CompiledPhysicsBlock& block, std::string_view key, std::int32_t fallback)
{
    std::int32_t v = fallback;
    const std::string text = block.value(key);
    if (text.empty() || !parseInt(text, v)) {
        return fallback;
    }
    return v;
}

void applyText(FileReader& f, const std::vector<CompiledBone>& bones, CompiledPhysics& out)
{
    const auto solidIndex = [&](const CompiledPhysicsBlock& block, std::string_view key,
                                std::int32_t& index) {
        index = intOf(block, key, -1);
        if (index < 0 || static_cast<std::size_t>(index) >= out.solids.size()) {
            f.corrupt(static_cast<std::int64_t>(block.offset),
                      "the " + block.type + " block's " + std::string(key) + " " +
                          block.value(key, "(none)") + " names no solid (" +
                          std::to_string(out.solids.size()) + ")");
            return false;
        }
        return true;
    };
    for (const CompiledPhysicsBlock& block : out.blocks) {
        if (block.type == "solid") {
            std::int32_t index = -1;
            if (!solidIndex(block, "index", index)) {
                continue;
            }
            CompiledPhysicsSolid& s = out.solids[static_cast<std::size_t>(index)];
            s.name = block.value("name");
            s.parent = block.value("parent");
            s.surfaceProp = block.value("surfaceprop");
            s.mass = floatOf(block, "mass", 0);
            s.damping = floatOf(block, "damping", 0);
            s.rotDamping = floatOf(block, "rotdamping", 0);
            s.inertia = floatOf(block, "inertia", 1);
            s.volume = floatOf(block, "volume", 0);
            s.massBias = floatOf(block, "massbias", 1);
            s.bone = -1;
            for (std::size_t bi = 0; bi < bones.size(); ++bi) {
                if (asciiIEquals(bones[bi].name, s.name)) {
                    s.bone = static_cast<std::int32_t>(bi);
                    break;
                }
            }
        } else if (block.type == "ragdollconstraint") {
            CompiledRagdollConstraint c;
            if (!solidIndex(block, "parent", c.parent) || !solidIndex(block, "child", c.child)) {
                continue;
            }
            c.min = Vec3(floatOf(block, "xmin", 0), floatOf(block, "ymin", 0),
                         floatOf(block, "zmin", 0));
            c.max = Vec3(floatOf(block, "xmax", 0), floatOf(block, "ymax", 0),
                         floatOf(block, "zmax", 0));
            c.friction = Vec3(floatOf(block, "xfriction", 0), floatOf(block, "yfriction", 0),
                              floatOf(block, "zfriction", 0));
            out.constraints.push_back(c);
        } else if (block.type == "collisionrules") {
            for (const CompiledKeyValue& kv : block.values) {
                if (asciiIEquals(kv.key, "selfcollisions")) {
                    out.selfCollisions = kv.value != "0";
                } else if (asciiIEquals(kv.key, "collisionpair")) {
                    const std::size_t comma = kv.value.find(',');
                    std::int32_t a = -1, c = -1;
                    if (comma == std::string::npos ||
                        !parseInt(std::string_view(kv.value).substr(0, comma), a) ||
                        !parseInt(std::string_view(kv.value).substr(comma + 1), c)) {
                        f.corrupt(static_cast<std::int64_t>(block.offset),
                                  "collisionpair '" + kv.value.substr(0, 40) +
                                      "' is not two solid indices");
                        continue;
                    }
                    out.collisionPairs.push_back({a, c});
                }
            }
        } else if (block.type == "editparams") {
            out.rootName = block.value("rootname");
            out.totalMass = floatOf(block, "totalmass", 0);
            out.concave = intOf(block, "concave", 0) != 0;
        }
    }
}

} // namespace

std::string CompiledPhysicsBlock::value(std::string_view key, std::string_view fallback) const
{
    for (const CompiledKeyValue& kv : values) {
        if (asciiIEquals(kv.key, key)) {
            return kv.value;
        }
    }
    return std::string(fallback);
}

std::size_t CompiledPhysics::convexPieces() const noexcept
{
    std::size_t n = 0;
    for (const CompiledPhysicsSolid& s : solids) {
        n += s.pieces.size();
    }
    return n;
}

float CompiledPhysics::mass() const noexcept
{
    float m = 0;
    for (const CompiledPhysicsSolid& s : solids) {
        m += s.mass;
    }
    return m;
}

void readSourcePhy(const CompiledFile& phy, const std::vector<CompiledBone>& bones,
                   std::int32_t checksum, bool checkChecksum, CompiledPhysics& out,
                   std::vector<Diagnostic>& diagnostics)
{
    FileReader f(phy.bytes, phy.fileName);
    const Bytes& b = f.b;
    const auto finish = [&] {
        for (Diagnostic& d : f.sink.take()) {
            diagnostics.push_back(std::move(d));
        }
    };
    if (b.size() < static_cast<std::size_t>(kPhyHeaderSize)) {
        f.corrupt(0, "a .phy header is 16 bytes, the file has " + std::to_string(b.size()));
        finish();
        return;
    }
    out.present = true;
    out.headerSize = b.i32(0);
    out.id = b.i32(4);
    out.solidCount = b.i32(8);
    out.checksum = b.i32(12);
    if (checkChecksum && out.checksum != checksum) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "checksum 0x%08X, the .mdl has 0x%08X",
                      static_cast<unsigned>(out.checksum), static_cast<unsigned>(checksum));
        f.sink.error(ids::kCompiledChecksumMismatch, at(12), buf);
    }
    std::int64_t o = out.headerSize;
    if (o < kPhyHeaderSize || !b.has(o, 0)) {
        f.corrupt(0, "the header size " + std::to_string(out.headerSize) +
                         " is not between 16 and the file's " + std::to_string(b.size()) +
                         " bytes");
        finish();
        return;
    }
    // Every solid takes at least its 4-byte size.
    if (out.solidCount < 0 || !b.array(o, out.solidCount, 4)) {
        f.corrupt(8, std::to_string(out.solidCount) + " solids do not fit in the file (" +
                         std::to_string(b.size()) + " bytes)");
        finish();
        return;
    }
    bool whole = true;
    for (std::int32_t i = 0; i < out.solidCount; ++i) {
        const std::int64_t size = b.i32(o);
        const std::int64_t data = o + 4;
        if (size < 0 || !b.has(data, size)) {
            f.corrupt(o, "solid " + std::to_string(i) + " of " + std::to_string(size) +
                             " bytes at " + hex(data) + " runs past the end of the file (" +
                             std::to_string(b.size()) + " bytes)");
            whole = false;
            break;
        }
        CompiledPhysicsSolid s;
        s.index = i;
        s.offset = static_cast<std::uint64_t>(o);
        std::int64_t surface = data, surfaceEnd = data + size;
        if (size >= 4 && b.u32(data) == kVphy) {
            const std::int32_t modelType = b.i16(data + 6);
            const std::int64_t surfaceSize = b.i32(data + 8);
            surface = data + kVphyHeaderSize;
            if (size < kVphyHeaderSize || surfaceSize < 0 || surfaceSize > size - kVphyHeaderSize) {
                f.corrupt(data + 8, "solid " + std::to_string(i) + ": a surface of " +
                                        std::to_string(surfaceSize) + " bytes in a solid of " +
                                        std::to_string(size));
                surfaceEnd = surface; // nothing to walk
            } else {
                surfaceEnd = surface + surfaceSize;
            }
            if (modelType != 0) {
                f.sink.note(ids::kCompiledCorrupt, at(data + 6),
                            "solid " + std::to_string(i) + " is of model type " +
                                std::to_string(modelType) +
                                " (not a polygon soup); its pieces are not read");
                surfaceEnd = surface;
            }
        }
        if (surfaceEnd - surface >= kSurfaceHeaderSize) {
            if (b.u32(surface + 44) != kIvps) {
                f.corrupt(surface + 44,
                          "solid " + std::to_string(i) + " holds no IVP compact surface ('IVPS')");
            } else {
                readLedges(f, surface, surfaceEnd, s);
            }
        } else if (surfaceEnd > surface) {
            f.corrupt(surface, "solid " + std::to_string(i) + ": a compact surface of " +
                                   std::to_string(surfaceEnd - surface) +
                                   " bytes, its header alone is 48");
        }
        out.solids.push_back(std::move(s));
        o = data + size;
    }
    if (whole) {
        readText(f, o, out);
        applyText(f, bones, out);
    }
    finish();
}

} // namespace rigscope::core
