// BinarySMD reader (FORMATS.md §2): parse into raw per-file arrays with every table index
// checked, then build the model with the SMD reader's conventions (§1.5, §1.7).
#include "core/formats/smdx/smdx.h"

#include <algorithm>
#include <charconv>
#include <bit>
#include <cstdio>
#include <numeric>
#include <unordered_map>

#include "core/build/model_builder.h"
#include "core/io/file_buffer.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/smdx/smdx_cursor.h"
#include "core/text/names.h"

namespace rigscope::core {

namespace {

using detail::SmdxCursor;

constexpr std::string_view kMagic = "SMDX";

// Minimum encoded sizes, for the count checks (FORMATS.md §2.6).
constexpr std::size_t kMinBlock = 2;     // type + first count
constexpr std::size_t kMinNode = 3;      // id name parent
constexpr std::size_t kMinVector = 15;   // 3 x CA float32
constexpr std::size_t kMinUv = 10;       // 2 x CA float32
constexpr std::size_t kMinString = 1;    // fixstr header
constexpr std::size_t kMinKeyframe = 2;  // time bcount
constexpr std::size_t kMinBoneState = 3; // bone pos rot
constexpr std::size_t kMinTriangle = 16; // mat + 3 x (parent pos nrm uv lcount)
constexpr std::size_t kMinLink = 6;      // bone + CA float32
constexpr std::size_t kMinVertexFrame = 2;
constexpr std::size_t kMinVertexEntry = 3;

SourceLoc at(std::uint64_t offset)
{
    return {0, 0, offset};
}

std::string hexOffset(std::uint64_t v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%04llX", static_cast<unsigned long long>(v));
    return buf;
}

struct RawNode {
    std::int32_t id = 0;
    std::string name;
    std::int32_t parent = -1;
    std::uint64_t offset = 0;
};

// A vector table (FORMATS.md §2.2). When every entry is three float32 values (15 bytes each,
// as BinarySMD and our writer always write them) the table stays where it lies in the input and
// entries are decoded when looked up; otherwise (float64 entries) it is decoded once. On random
// data the table is as large as the model, so not copying it keeps peak memory near the model.
class VectorTable {
public:
    std::size_t size() const noexcept { return m_count; }
    Vec3 operator[](std::size_t i) const noexcept
    {
        if (!m_inPlace) {
            return m_values[i];
        }
        const auto* p = reinterpret_cast<const unsigned char*>(m_bytes.data()) + m_start + 15 * i;
        return {floatAt(p + 1), floatAt(p + 6), floatAt(p + 11)};
    }
    void setInPlace(std::string_view bytes, std::size_t start, std::size_t count)
    {
        m_bytes = bytes;
        m_start = start;
        m_count = count;
        m_inPlace = true;
    }
    std::vector<Vec3>& values() noexcept { return m_values; }
    void setDecoded() noexcept
    {
        m_inPlace = false;
        m_count = m_values.size();
    }

private:
    static float floatAt(const unsigned char* p) noexcept
    {
        const std::uint32_t bits = (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) |
                                   (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
        return std::bit_cast<float>(bits);
    }

    std::string_view m_bytes;
    std::size_t m_start = 0;
    std::size_t m_count = 0;
    bool m_inPlace = false;
    std::vector<Vec3> m_values;
};

// A keyframe as found: its bone states are decoded again from the input when the animation is
// built (buildModel), so they are never held twice.
struct RawFrame {
    std::int32_t time = 0;
    std::uint64_t offset = 0;
    std::size_t statesAt = 0;     // the first bone state
    std::uint32_t statesRead = 0; // bone states read whole, dropped ones included
    std::uint32_t table = 0;      // index into Raw::skeletonTables
};

struct RawCorner {
    std::int32_t parent = 0;
    Vec3 position = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    Vec2 uv = Vec2::Zero();
    std::uint32_t linkBegin = 0;
    std::uint32_t linkCount = 0;
    std::uint64_t offset = 0;
};

struct Pending {
    std::uint64_t offset = 0;
    std::string message;
    ElementRef element;
};

struct Raw {
    std::vector<RawNode> nodes;
    bool hasSkeleton = false;
    std::vector<VectorTable> skeletonTables; // one per skeleton block
    std::vector<RawFrame> frames;
    bool hasTriangles = false;
    std::uint64_t trianglesAt = 0;
    std::uint64_t vertexAnimationAt = 0;
    std::vector<std::string> materials;
    // Triangles are read straight into mesh arrays, unresolved: point parents and influence
    // joints hold bone ids, triangle materials index `materials`, link states say only whether
    // links were written. buildModel resolves them in place, so the model is never copied.
    Mesh mesh;
    bool hasVertexAnimation = false;
    std::vector<VertexFrame> vertexFrames;
    std::vector<Pending> corrupt; // index errors: the element was dropped, reading went on
    std::vector<Pending> writerBug;
};

struct Fatal {
    bool set = false;
    std::uint64_t offset = 0;
    std::string message;
};

// Back to `points` points (= corners), `triangles` triangles and `links` links.
void truncateMesh(Mesh& mesh, std::size_t points, std::size_t triangles, std::size_t links,
                  std::size_t offsets)
{
    mesh.pointPositions.resize(points);
    mesh.pointParents.resize(points);
    mesh.pointLinkState.resize(points);
    mesh.pointWhere.resize(points);
    mesh.influenceOffsets.resize(offsets);
    mesh.influenceJoints.resize(links);
    mesh.influenceWeights.resize(links);
    mesh.cornerPoints.resize(points);
    mesh.cornerNormals.resize(points);
    mesh.cornerUvs.resize(points);
    mesh.cornerWhere.resize(points);
    mesh.triangleMaterials.resize(triangles);
    mesh.triangleWhere.resize(triangles);
}

// Parses blocks into a Raw. Every failure stops at the value that failed; complete elements
// read before it are kept.
class Parser {
public:
    Parser(SmdxCursor& cursor, Raw& raw) : m_cursor(cursor), m_raw(raw) {}

    // block_count and the blocks; false on a fatal error (see fatal()).
    bool parseBlocks();
    const Fatal& fatal() const noexcept { return m_fatal; }

private:
    bool parseNodes();
    bool parseVectors(VectorTable& table);
    bool parseSkeleton();
    bool parseTriangles(bool& indexError);
    bool parseVertexAnimation(bool bugLayout, bool& indexError);
    bool parseTrianglesOrWriterBug(std::size_t block, std::uint64_t blockOffset);

    void setFatalFromCursor();
    std::string context() const;
    static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);
    void countItem(const char* kind) { item(kind, kNoIndex); }
    void item(const char* kind, std::size_t index, const char* sub = nullptr,
              std::size_t subIndex = 0)
    {
        m_item = kind;
        m_index = index;
        m_sub = sub;
        m_subIndex = subIndex;
    }

    SmdxCursor& m_cursor;
    Raw& m_raw;
    Fatal m_fatal;
    const char* m_block = nullptr;
    const char* m_item = nullptr;
    std::size_t m_index = 0;
    const char* m_sub = nullptr;
    std::size_t m_subIndex = 0;
};

std::string Parser::context() const
{
    std::string s;
    if (m_block) {
        s += " in ";
        s += m_block;
        s += " block";
    }
    if (m_item) {
        s += ", ";
        s += m_item;
        if (m_index != kNoIndex) {
            s += ' ';
            s += std::to_string(m_index);
        }
    }
    if (m_sub) {
        s += ", ";
        s += m_sub;
        s += ' ';
        s += std::to_string(m_subIndex);
    }
    return s;
}

void Parser::setFatalFromCursor()
{
    m_fatal = {true, m_cursor.error().offset, m_cursor.error().message + context()};
}

bool Parser::parseNodes()
{
    std::uint32_t count = 0;
    countItem("node count");
    if (!m_cursor.readCount(count, kMinNode)) {
        return false;
    }
    m_raw.nodes.reserve(m_raw.nodes.size() + count);
    for (std::uint32_t i = 0; i < count; ++i) {
        item("node", i);
        RawNode n;
        n.offset = m_cursor.pos();
        if (!m_cursor.readInt(n.id) || !m_cursor.readString(n.name) ||
            !m_cursor.readInt(n.parent)) {
            return false;
        }
        m_raw.nodes.push_back(std::move(n));
    }
    return true;
}

bool Parser::parseVectors(VectorTable& table)
{
    countItem("vector count");
    std::uint32_t count = 0;
    if (!m_cursor.readCount(count, kMinVector)) {
        return false;
    }
    // readCount saw count x 15 bytes left: check the tags in place before decoding anything.
    const std::size_t start = m_cursor.pos();
    const auto* p = reinterpret_cast<const unsigned char*>(m_cursor.bytes().data()) + start;
    bool inPlace = true;
    for (std::size_t i = 0; i < count && inPlace; ++i, p += kMinVector) {
        inPlace = p[0] == 0xCA && p[5] == 0xCA && p[10] == 0xCA;
    }
    if (inPlace) {
        table.setInPlace(m_cursor.bytes(), start, count);
        m_cursor.skipRaw(kMinVector * count);
        return true;
    }
    std::vector<Vec3>& values = table.values();
    values.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        item("vector", i);
        Vec3 v;
        if (!m_cursor.readFloat(v.x()) || !m_cursor.readFloat(v.y()) ||
            !m_cursor.readFloat(v.z())) {
            return false;
        }
        values.push_back(v);
    }
    table.setDecoded();
    return true;
}

bool Parser::parseSkeleton()
{
    m_raw.hasSkeleton = true;
    m_raw.skeletonTables.emplace_back();
    const auto tableIndex = static_cast<std::uint32_t>(m_raw.skeletonTables.size() - 1);
    if (!parseVectors(m_raw.skeletonTables.back())) {
        return false;
    }
    const auto n = static_cast<std::int64_t>(m_raw.skeletonTables.back().size());
    countItem("keyframe count");
    std::uint32_t kcount = 0;
    if (!m_cursor.readCount(kcount, kMinKeyframe)) {
        return false;
    }
    for (std::uint32_t k = 0; k < kcount; ++k) {
        item("keyframe", k);
        RawFrame frame;
        frame.offset = m_cursor.pos();
        frame.table = tableIndex;
        std::uint32_t bcount = 0;
        if (!m_cursor.readInt(frame.time) || !m_cursor.readCount(bcount, kMinBoneState)) {
            return false;
        }
        frame.statesAt = m_cursor.pos();
        m_raw.frames.push_back(frame);
        RawFrame& f = m_raw.frames.back();
        for (std::uint32_t b = 0; b < bcount; ++b) {
            item("keyframe", k, "bone state", b);
            std::int32_t bone = 0, pos = 0, rot = 0;
            const std::size_t posAt = m_cursor.pos();
            if (!m_cursor.readInt(bone) || !m_cursor.readInt(pos)) {
                return false;
            }
            const std::size_t rotAt = m_cursor.pos();
            if (!m_cursor.readInt(rot)) {
                return false;
            }
            ++f.statesRead;
            if (pos < 0 || pos >= n || rot < 0 || rot >= n) {
                const bool badPos = pos < 0 || pos >= n;
                m_raw.corrupt.push_back({badPos ? posAt : rotAt,
                                         std::string(badPos ? "position" : "rotation") + " index " +
                                             std::to_string(badPos ? pos : rot) +
                                             " outside the vector table (" + std::to_string(n) +
                                             " entries) in skeleton block, keyframe " +
                                             std::to_string(k) + " (time " +
                                             std::to_string(f.time) + "); bone state dropped",
                                         {ElementRef::Kind::Frame,
                                          static_cast<std::int32_t>(m_raw.frames.size() - 1)}});
            }
        }
    }
    return true;
}

bool Parser::parseTriangles(bool& indexError)
{
    m_raw.hasTriangles = true;
    countItem("material count");
    std::uint32_t mcount = 0;
    if (!m_cursor.readCount(mcount, kMinString)) {
        return false;
    }
    const auto materialBase = static_cast<std::uint32_t>(m_raw.materials.size());
    for (std::uint32_t i = 0; i < mcount; ++i) {
        item("material", i);
        std::string name;
        if (!m_cursor.readString(name)) {
            return false;
        }
        m_raw.materials.push_back(std::move(name));
    }
    VectorTable vectors;
    if (!parseVectors(vectors)) {
        return false;
    }
    countItem("uv count");
    std::uint32_t ucount = 0;
    if (!m_cursor.readCount(ucount, kMinUv)) {
        return false;
    }
    std::vector<Vec2> uvs;
    uvs.reserve(ucount);
    for (std::uint32_t i = 0; i < ucount; ++i) {
        item("uv", i);
        Vec2 uv;
        if (!m_cursor.readFloat(uv.x()) || !m_cursor.readFloat(uv.y())) {
            return false;
        }
        uvs.push_back(uv);
    }
    countItem("triangle count");
    std::uint32_t tcount = 0;
    if (!m_cursor.readCount(tcount, kMinTriangle)) {
        return false;
    }
    Mesh& mesh = m_raw.mesh;
    reserveTriangles(mesh, tcount);
    const auto nv = static_cast<std::int64_t>(vectors.size());
    const auto nu = static_cast<std::int64_t>(uvs.size());
    for (std::uint32_t t = 0; t < tcount; ++t) {
        item("triangle", t);
        struct {
            std::uint32_t material = 0;
            std::uint64_t offset = 0;
            RawCorner corners[3];
        } tri;
        tri.offset = m_cursor.pos();
        const std::size_t linkMark = mesh.influenceJoints.size();
        // A triangle that fails half-way or is dropped leaves no links behind (the CSR arrays
        // stay whole).
        struct LinkGuard {
            Mesh& mesh;
            std::size_t mark;
            bool armed = true;
            ~LinkGuard()
            {
                if (armed) {
                    mesh.influenceJoints.resize(mark);
                    mesh.influenceWeights.resize(mark);
                }
            }
        } guard{mesh, linkMark};
        std::int32_t mat = 0;
        if (!m_cursor.readInt(mat)) {
            return false;
        }
        std::uint64_t badAt = 0;
        std::string bad;
        if (mat < 0 || mat >= static_cast<std::int64_t>(mcount)) {
            badAt = tri.offset;
            bad = "material index " + std::to_string(mat) + " outside the material table (" +
                  std::to_string(mcount) + " entries)";
        }
        tri.material = materialBase + static_cast<std::uint32_t>(std::max(mat, 0));
        for (std::size_t c = 0; c < 3; ++c) {
            item("triangle", t, "corner", c);
            RawCorner& k = tri.corners[c];
            k.offset = m_cursor.pos();
            std::int32_t idx[3] = {0, 0, 0};
            std::size_t idxAt[3] = {0, 0, 0};
            if (!m_cursor.readInt(k.parent)) {
                return false;
            }
            for (std::size_t i = 0; i < 3; ++i) {
                idxAt[i] = m_cursor.pos();
                if (!m_cursor.readInt(idx[i])) {
                    return false;
                }
            }
            std::uint32_t lcount = 0;
            if (!m_cursor.readCount(lcount, kMinLink)) {
                return false;
            }
            k.linkBegin = static_cast<std::uint32_t>(mesh.influenceJoints.size());
            k.linkCount = lcount;
            for (std::uint32_t l = 0; l < lcount; ++l) {
                std::int32_t bone = 0;
                float w = 0;
                if (!m_cursor.readInt(bone) || !m_cursor.readFloat(w)) {
                    return false;
                }
                mesh.influenceJoints.push_back(bone);
                mesh.influenceWeights.push_back(w);
            }
            static constexpr const char* kWhat[3] = {"position", "normal", "uv"};
            for (std::size_t i = 0; i < 3 && bad.empty(); ++i) {
                const std::int64_t limit = i == 2 ? nu : nv;
                if (idx[i] < 0 || idx[i] >= limit) {
                    badAt = idxAt[i];
                    bad = std::string(kWhat[i]) + " index " + std::to_string(idx[i]) +
                          " outside the " + (i == 2 ? "uv" : "vector") + " table (" +
                          std::to_string(limit) + " entries) at corner " + std::to_string(c);
                }
            }
            if (bad.empty()) {
                k.position = vectors[static_cast<std::size_t>(idx[0])];
                k.normal = vectors[static_cast<std::size_t>(idx[1])];
                k.uv = uvs[static_cast<std::size_t>(idx[2])];
            }
        }
        if (!bad.empty()) {
            indexError = true;
            m_raw.corrupt.push_back(
                {badAt,
                 bad + " in triangles block, triangle " + std::to_string(t) + "; triangle dropped",
                 {}});
            continue;
        }
        guard.armed = false;
        if (mesh.influenceOffsets.empty()) {
            mesh.influenceOffsets.push_back(0);
        }
        for (const RawCorner& k : tri.corners) {
            const auto point = static_cast<std::uint32_t>(mesh.pointPositions.size());
            mesh.pointPositions.push_back(k.position);
            mesh.pointParents.push_back(k.parent); // a bone id until buildModel
            mesh.pointLinkState.push_back(k.linkCount > 0 ? LinkState::List : LinkState::Absent);
            mesh.pointWhere.push_back(at(k.offset));
            mesh.influenceOffsets.push_back(k.linkBegin + k.linkCount);
            mesh.cornerPoints.push_back(point);
            mesh.cornerNormals.push_back(k.normal);
            mesh.cornerUvs.push_back(k.uv);
            mesh.cornerWhere.push_back(at(k.offset));
        }
        mesh.triangleMaterials.push_back(tri.material); // into m_raw.materials until buildModel
        mesh.triangleWhere.push_back(at(tri.offset));
    }
    return true;
}

bool Parser::parseVertexAnimation(bool bugLayout, bool& indexError)
{
    m_raw.hasVertexAnimation = true;
    VectorTable vectors;
    if (!parseVectors(vectors)) {
        return false;
    }
    std::uint32_t fcount = 0;
    if (!bugLayout) {
        countItem("frame count");
        if (!m_cursor.readCount(fcount, kMinVertexFrame)) {
            return false;
        }
    }
    const auto nv = static_cast<std::int64_t>(vectors.size());
    for (std::uint32_t k = 0; bugLayout ? !m_cursor.atEnd() : k < fcount; ++k) {
        item("frame", k);
        VertexFrame f;
        f.where = at(m_cursor.pos());
        std::int32_t time = 0;
        std::uint32_t n = 0;
        if (!m_cursor.readInt(time) || !m_cursor.readCount(n, kMinVertexEntry)) {
            return false;
        }
        f.time = time;
        m_raw.vertexFrames.push_back(std::move(f));
        VertexFrame& vf = m_raw.vertexFrames.back();
        vf.ids.reserve(n);
        vf.positions.reserve(n);
        vf.normals.reserve(n);
        vf.lineWhere.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            item("frame", k, "vertex", i);
            const std::uint64_t off = m_cursor.pos();
            std::int32_t id = 0, pos = 0, nrm = 0;
            if (!m_cursor.readInt(id)) {
                return false;
            }
            const std::size_t posAt = m_cursor.pos();
            if (!m_cursor.readInt(pos)) {
                return false;
            }
            const std::size_t nrmAt = m_cursor.pos();
            if (!m_cursor.readInt(nrm)) {
                return false;
            }
            if (pos < 0 || pos >= nv || nrm < 0 || nrm >= nv) {
                const bool badPos = pos < 0 || pos >= nv;
                indexError = true;
                m_raw.corrupt.push_back(
                    {badPos ? posAt : nrmAt,
                     std::string(badPos ? "position" : "normal") + " index " +
                         std::to_string(badPos ? pos : nrm) + " outside the vector table (" +
                         std::to_string(nv) + " entries) in vertexanimation block, frame " +
                         std::to_string(k) + "; vertex " + std::to_string(id) + " dropped",
                     {ElementRef::Kind::Shape, static_cast<std::int32_t>(k)}});
                continue;
            }
            vf.ids.push_back(id);
            vf.positions.push_back(vectors[static_cast<std::size_t>(pos)]);
            vf.normals.push_back(vectors[static_cast<std::size_t>(nrm)]);
            vf.lineWhere.push_back(at(off));
        }
    }
    return true;
}

// FORMATS.md §2.4: a type-2 block that fails as triangles is retried as the upstream writer's
// vertexanimation layout (no fcount, frames until the end of the data).
bool Parser::parseTrianglesOrWriterBug(std::size_t block, std::uint64_t blockOffset)
{
    const SmdxCursor::State start = m_cursor.state();
    const std::size_t materials = m_raw.materials.size();
    const Mesh& mesh = m_raw.mesh;
    const std::size_t points = mesh.pointPositions.size();
    const std::size_t triangles = mesh.triangleMaterials.size();
    const std::size_t links = mesh.influenceJoints.size();
    const std::size_t offsets = mesh.influenceOffsets.size();
    const std::size_t corrupt = m_raw.corrupt.size();
    const std::size_t vframes = m_raw.vertexFrames.size();
    const bool hadTriangles = m_raw.hasTriangles;
    const bool hadVta = m_raw.hasVertexAnimation;
    auto rewind = [&] {
        m_cursor.restore(start);
        m_raw.materials.resize(materials);
        truncateMesh(m_raw.mesh, points, triangles, links, offsets);
        m_raw.corrupt.resize(corrupt);
        m_raw.vertexFrames.resize(vframes);
        m_raw.hasTriangles = hadTriangles;
        m_raw.hasVertexAnimation = hadVta;
    };

    bool indexError = false;
    if (parseTriangles(indexError) && !indexError) {
        return true;
    }
    rewind();
    m_block = "vertexanimation";
    bool bugIndexError = false;
    if (parseVertexAnimation(true, bugIndexError) && !bugIndexError && m_cursor.atEnd()) {
        m_raw.vertexAnimationAt = blockOffset;
        m_raw.writerBug.push_back(
            {blockOffset,
             "block " + std::to_string(block) +
                 " read as vertexanimation (BinarySMD writer bug: type 2 without a frame count)",
             {}});
        return true;
    }
    // Not the writer bug either: report the block as triangles.
    rewind();
    m_block = "triangles";
    indexError = false;
    return parseTriangles(indexError);
}

bool Parser::parseBlocks()
{
    m_block = nullptr;
    countItem("block count");
    std::uint32_t blockCount = 0;
    if (!m_cursor.readCount(blockCount, kMinBlock)) {
        setFatalFromCursor();
        return false;
    }
    for (std::uint32_t b = 0; b < blockCount; ++b) {
        m_block = nullptr;
        m_item = nullptr;
        m_sub = nullptr;
        const std::uint64_t blockOffset = m_cursor.pos();
        std::int32_t type = 0;
        if (!m_cursor.readByte(type)) {
            m_fatal = {true, m_cursor.error().offset,
                       m_cursor.error().message + " of block " + std::to_string(b) + " (" +
                           std::to_string(blockCount) + " blocks announced)"};
            return false;
        }
        bool ok = false;
        bool indexError = false;
        switch (type) {
        case 0:
            m_block = "nodes";
            ok = parseNodes();
            break;
        case 1:
            m_block = "skeleton";
            ok = parseSkeleton();
            break;
        case 2:
            m_block = "triangles";
            m_raw.trianglesAt = blockOffset;
            ok = parseTrianglesOrWriterBug(b, blockOffset);
            break;
        case 3:
            m_block = "vertexanimation";
            m_raw.vertexAnimationAt = blockOffset;
            ok = parseVertexAnimation(false, indexError);
            break;
        default:
            m_fatal = {true, blockOffset,
                       "unknown block type " + std::to_string(type) + " at @" +
                           hexOffset(blockOffset) + "; rest of file unreadable"};
            return false;
        }
        if (!ok) {
            setFatalFromCursor();
            return false;
        }
    }
    return true;
}

std::string describeHead(std::string_view bytes)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string s;
    for (std::size_t i = 0; i < bytes.size() && i < 4; ++i) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        if (!s.empty()) {
            s += ' ';
        }
        s += kDigits[b >> 4];
        s += kDigits[b & 15];
    }
    return s.empty() ? "nothing" : s;
}

// ---- build -------------------------------------------------------------------------------

void buildModel(std::string_view bytes, Raw& raw, Model& m, DiagnosticSink& sink,
                const ReadContext& ctx)
{
    Skeleton& s = m.skeleton;
    std::unordered_map<std::int32_t, JointIndex> byId;
    std::vector<std::int32_t> rawParents;
    for (RawNode& n : raw.nodes) {
        const SourceLoc loc = at(n.offset);
        if (n.id < 0) {
            sink.error(ids::kSkeletonNegativeId, loc,
                       "node id " + std::to_string(n.id) + " is negative; node skipped")
                .fixedSeverity = true;
            continue;
        }
        auto it = byId.find(n.id);
        if (it != byId.end()) {
            const auto j = static_cast<std::size_t>(it->second);
            const bool same = s.names[j] == n.name && rawParents[j] == n.parent;
            Diagnostic& d =
                sink.report(same ? Severity::Note : Severity::Error, ids::kSkeletonDuplicateId, loc,
                            "bone id " + std::to_string(n.id) +
                                " redefined; studiomdl keeps the last ('" + n.name + "')",
                            {ElementRef::Kind::Joint, it->second});
            d.fixedSeverity = same;
            d.related.push_back({ctx.fileName, s.where[j], "first defined here"});
            s.names[j] = std::move(n.name);
            s.where[j] = loc;
            rawParents[j] = n.parent;
            continue;
        }
        const JointIndex j = s.addJoint(std::move(n.name), kNoJoint, n.id, loc);
        byId.emplace(n.id, j);
        rawParents.push_back(n.parent);
    }
    for (std::size_t j = 0; j < s.size(); ++j) {
        const std::int32_t p = rawParents[j];
        if (p == -1) {
            continue;
        }
        auto it = byId.find(p);
        if (it == byId.end()) {
            sink.error(ids::kSkeletonUnknownParent, s.where[j],
                       "parent " + std::to_string(p) + " of bone '" + s.names[j] +
                           "' is not declared",
                       {ElementRef::Kind::Joint, static_cast<std::int32_t>(j)});
            continue;
        }
        s.parents[j] = it->second;
    }
    const std::size_t nj = s.size();

    // Skeleton frames: sorted by time, duplicates merged (later states win), carried forward.
    std::size_t distinctFrames = 0;
    if (raw.hasSkeleton) {
        Animation a;
        a.name = fileStem(ctx.fileName);
        a.kind = PoseKind::LocalEulerXYZ;
        a.jointCount = nj;
        // Frames are known: one allocation per key array instead of growth by doubling
        // (capped: a hostile frames x bones product grows as before).
        const std::size_t keys = std::min(raw.frames.size() * nj, std::size_t(1) << 22);
        a.positions.reserve(keys);
        a.rotations.reserve(keys);
        a.explicitKey.reserve(keys);
        a.times.reserve(raw.frames.size());
        a.frameWhere.reserve(raw.frames.size());
        SmdxCursor states(bytes);
        std::vector<std::size_t> order(raw.frames.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        for (std::size_t i = 1; i < raw.frames.size(); ++i) {
            const RawFrame& f = raw.frames[i];
            const RawFrame& prev = raw.frames[i - 1];
            const std::int32_t first = raw.frames.front().time;
            if (f.time < prev.time) {
                if (f.time < first) {
                    sink.error(ids::kSkeletonTimeOrder, at(f.offset),
                               "time " + std::to_string(f.time) + " precedes the first frame " +
                                   std::to_string(first));
                } else {
                    sink.warning(ids::kSkeletonTimeOrder, at(f.offset),
                                 "time " + std::to_string(f.time) + " follows time " +
                                     std::to_string(prev.time) + "; frames sorted by time")
                        .fixedSeverity = true;
                }
            }
        }
        std::stable_sort(order.begin(), order.end(), [&raw](std::size_t x, std::size_t y) {
            return raw.frames[x].time < raw.frames[y].time;
        });
        for (std::size_t o : order) {
            const RawFrame& f = raw.frames[o];
            if (!a.times.empty() && a.times.back() == static_cast<double>(f.time)) {
                sink.warning(ids::kSkeletonDuplicateFrame, at(f.offset),
                             "time " + std::to_string(f.time) +
                                 " repeated; studiomdl merges, BST adds a frame");
            } else {
                a.appendFrame(f.time, at(f.offset));
            }
            const std::size_t frame = a.times.size() - 1;
            // The states again, from the input: the parser checked every one of them.
            const VectorTable& vectors = raw.skeletonTables[f.table];
            states.seek(f.statesAt);
            for (std::uint32_t b = 0; b < f.statesRead; ++b) {
                const std::size_t stateAt = states.pos();
                std::int32_t bone = 0, pos = 0, rot = 0;
                states.readInt(bone);
                states.readInt(pos);
                states.readInt(rot);
                const auto n = static_cast<std::int64_t>(vectors.size());
                if (pos < 0 || pos >= n || rot < 0 || rot >= n) {
                    continue; // reported by the parser
                }
                auto it = byId.find(bone);
                if (it == byId.end()) {
                    sink.error(ids::kSkeletonUnknownBoneInFrame, at(stateAt),
                               "frame " + std::to_string(f.time) + " animates undeclared bone id " +
                                   std::to_string(bone),
                               {ElementRef::Kind::Frame, static_cast<std::int32_t>(frame)});
                    continue;
                }
                const std::size_t k = a.key(frame, static_cast<std::size_t>(it->second));
                a.positions[k] = vectors[static_cast<std::size_t>(pos)];
                a.rotations[k] = vectors[static_cast<std::size_t>(rot)];
                a.explicitKey[k] = 1;
            }
        }
        distinctFrames = a.times.size();
        m.animations.push_back(std::move(a));
    }

    // Triangles: one point per corner, read in place; resolve bone ids and materials.
    Mesh& mesh = m.mesh;
    mesh = std::move(raw.mesh);
    MaterialInterner materials;
    std::vector<std::uint32_t> materialOf(raw.materials.size(), UINT32_MAX);
    const std::size_t nt = mesh.triangleMaterials.size();
    std::uint32_t readBegin = 0;
    std::uint32_t write = 0;
    for (std::size_t t = 0; t < nt; ++t) {
        std::uint32_t& mat = mesh.triangleMaterials[t];
        if (materialOf[mat] == UINT32_MAX) {
            materialOf[mat] = materials.intern(mesh, raw.materials[mat], mesh.triangleWhere[t]);
        }
        mat = materialOf[mat];
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t p = 3 * t + c;
            const SourceLoc where = mesh.pointWhere[p];
            const ElementRef vertex{ElementRef::Kind::Vertex, static_cast<std::int32_t>(p)};
            JointIndex& parent = mesh.pointParents[p];
            if (auto it = byId.find(parent); it != byId.end()) {
                parent = it->second;
            } else {
                sink.error(ids::kWeightsUnknownBone, where,
                           "vertex weighted to undeclared bone id " + std::to_string(parent),
                           vertex);
                parent = nj > 0 ? 0 : kNoJoint;
            }
            const std::uint32_t readEnd = mesh.influenceOffsets[p + 1];
            const std::uint32_t begin = write;
            for (std::uint32_t i = readBegin; i < readEnd; ++i) {
                const std::int32_t bone = mesh.influenceJoints[i];
                auto it = byId.find(bone);
                if (it == byId.end()) {
                    sink.error(ids::kWeightsUnknownBone, where,
                               "vertex weighted to undeclared bone id " + std::to_string(bone),
                               vertex);
                    continue;
                }
                mesh.influenceJoints[write] = it->second;
                mesh.influenceWeights[write] = mesh.influenceWeights[i];
                ++write;
            }
            mesh.influenceOffsets[p] = begin;
            readBegin = readEnd;
            if (mesh.pointLinkState[p] == LinkState::List && write == begin) {
                mesh.pointLinkState[p] = LinkState::Zero; // links written, none known
            }
        }
    }
    if (!mesh.influenceOffsets.empty()) {
        mesh.influenceOffsets.back() = write;
    }
    mesh.influenceJoints.resize(write);
    mesh.influenceWeights.resize(write);

    m.vertexFrames = std::move(raw.vertexFrames);

    if (raw.hasVertexAnimation) {
        m.kind = ModelKind::Flex;
        if (raw.hasTriangles) {
            sink.warning(ids::kFlexHasTriangles, at(raw.trianglesAt),
                         "a triangles block inside a vertex animation file")
                .fixedSeverity = true;
        }
        if (raw.hasSkeleton && distinctFrames != m.vertexFrames.size()) {
            sink.warning(ids::kFlexFrameCountMismatch, at(raw.vertexAnimationAt),
                         "skeleton has " + std::to_string(distinctFrames) +
                             " frames, vertexanimation " + std::to_string(m.vertexFrames.size()))
                .fixedSeverity = true;
        }
        checkVertexFrameIds(m.vertexFrames, [&sink](std::string_view id, SourceLoc where,
                                                    std::string message, ElementRef e) {
            sink.error(id, where, std::move(message), e);
        });
    } else if (raw.hasTriangles) {
        m.kind = ModelKind::Reference;
    } else {
        m.kind = ModelKind::Animation;
    }

    orderSkeleton(m, sink);
    bindFromFirstFrame(m);
    deriveFlexShapes(m);
}

} // namespace

int sniffSmdx(std::string_view head) noexcept
{
    return head.substr(0, 4) == kMagic ? 100 : 0;
}

ReadResult readSmdx(std::string_view bytes, const ReadContext& ctx)
{
    ReadResult r;
    DiagnosticSink sink(ctx.fileName, true);
    if (bytes.empty()) {
        sink.error(ids::kSyntaxEmptyFile, {}, "file is empty");
        r.diagnostics = sink.take();
        return r;
    }
    SmdxCursor cursor(bytes);
    Raw raw;
    Fatal fatal;
    int version = 1;
    bool legacy = false;
    if (bytes.substr(0, 4) == kMagic) {
        cursor.skipRaw(4);
        std::int32_t v = 0;
        if (!cursor.readByte(v)) {
            fatal = {true, cursor.error().offset, cursor.error().message + " (version)"};
        } else {
            version = v;
            if (v != 1) {
                sink.error(ids::kSyntaxBadVersion, at(4),
                           "version " + std::to_string(v) + "; smdx accepts 1");
            }
            Parser p(cursor, raw);
            if (!p.parseBlocks()) {
                fatal = p.fatal();
            }
        }
    } else {
        // FORMATS.md §2.6: the pre-magic layout starts at block_count; it must parse to EOF.
        Parser p(cursor, raw);
        if (p.parseBlocks() && cursor.atEnd()) {
            legacy = true;
            sink.warning(ids::kSyntaxSmdxLegacy, {},
                         "no 'SMDX' magic; read as the pre-magic BinarySMD layout")
                .fixedSeverity = true;
        } else {
            sink.error(ids::kSyntaxSmdxCorrupt, {},
                       "bad magic: expected 53 4D 44 58 ('SMDX'), got " + describeHead(bytes));
            r.diagnostics = sink.take();
            return r;
        }
    }
    for (const Pending& pd : raw.writerBug) {
        sink.warning(ids::kSyntaxSmdxVtaWriterBug, at(pd.offset), pd.message, pd.element);
    }
    for (const Pending& pd : raw.corrupt) {
        sink.error(ids::kSyntaxSmdxCorrupt, at(pd.offset), pd.message, pd.element);
    }
    if (fatal.set) {
        // The bytes end before a value or a declared count is complete: the file is cut short
        // (syntax.truncated, an error under every profile); anything else is corrupt.
        // A count needing more bytes than are left is a cut file when the bytes it needs are
        // of the file's order (a hostile count asks for far more than any file holds).
        bool endsEarly = fatal.message.starts_with("truncated ");
        if (const std::size_t at = fatal.message.find(" needs at least ");
            at != std::string::npos) {
            std::uint64_t need = 0;
            const char* first = fatal.message.data() + at + 16;
            const auto [p, ec] =
                std::from_chars(first, fatal.message.data() + fatal.message.size(), need);
            endsEarly = ec == std::errc() && p != first &&
                        need <= 16 * static_cast<std::uint64_t>(bytes.size()) + 4096;
        }
        if (endsEarly) {
            sink.error(ids::kSyntaxTruncated, at(fatal.offset),
                       "file ends early (" + std::to_string(bytes.size()) +
                           " bytes): " + fatal.message);
        } else {
            sink.error(ids::kSyntaxSmdxCorrupt, at(fatal.offset), fatal.message);
        }
    } else if (!cursor.atEnd()) {
        sink.error(ids::kSyntaxSmdxCorrupt, at(cursor.pos()),
                   std::to_string(cursor.remaining()) + " trailing bytes after the last block");
    }
    if (cursor.nonMinimalCount() > 0) {
        sink.note(ids::kSyntaxSmdxNonMinimal, at(cursor.firstNonMinimalOffset()),
                  std::to_string(cursor.nonMinimalCount()) +
                      (cursor.nonMinimalCount() == 1 ? " integer" : " integers") +
                      " not in the shortest MessagePack encoding (first: " +
                      cursor.firstNonMinimal() + ")")
            .fixedSeverity = true;
    }

    r.model.format = "smdx";
    r.model.version = legacy ? 1 : version;
    buildModel(bytes, raw, r.model, sink, ctx);
    r.hasModel = true;
    r.diagnostics = sink.take();
    std::stable_sort(
        r.diagnostics.begin(), r.diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.where.offset < b.where.offset; });
    return r;
}

} // namespace rigscope::core
