// BinarySMD writer: exactly FORMATS.md §2.1-2.3 (minimal ints, CA floats, strings by byte
// length, dedup tables in first-appearance order with bitwise equality), VTA as type 3 with
// fcount. Byte-identical to the upstream writer on the corpus file.
#include "core/formats/smdx/smdx.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "core/diag/diagnostic_ids.h"
#include "core/model/rotation.h"
#include "core/model/format_id.h"

namespace rigscope::core {

namespace {

class Out {
public:
    std::string bytes;

    void raw(std::string_view s) { bytes += s; }
    void u8(unsigned v) { bytes += static_cast<char>(v & 0xFF); }
    void be(std::uint32_t v, int n)
    {
        for (int i = n - 1; i >= 0; --i) {
            u8(v >> (8 * i));
        }
    }
    // A tag of a 1/2/4-byte family (tag8, tag8 + 1, tag8 + 2), then the value in that many bytes.
    void sized(unsigned tag8, std::uint32_t v, int width)
    {
        u8(tag8 + (width == 4 ? 2u : static_cast<unsigned>(width - 1)));
        be(v, width);
    }
    // Fixint, else the shortest uint (CC-CE) or int (D0-D2).
    void integer(std::int64_t v)
    {
        if (v >= -32 && v <= 127) {
            u8(static_cast<unsigned>(v & 0xFF));
        } else if (v > 0) {
            sized(0xCC, static_cast<std::uint32_t>(v), v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : 4);
        } else {
            sized(0xD0, static_cast<std::uint32_t>(v), v >= -128 ? 1 : v >= -32768 ? 2 : 4);
        }
    }
    void count(std::size_t n) { integer(static_cast<std::int64_t>(n)); }
    void real(float f)
    {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        u8(0xCA);
        be(bits, 4);
    }
    void vectors(const std::vector<Vec3>& values)
    {
        count(values.size());
        for (const Vec3& v : values) {
            real(v.x());
            real(v.y());
            real(v.z());
        }
    }
    // Fixstr, else str8/16/32 (D9-DB).
    void string(std::string_view s)
    {
        const std::size_t n = s.size();
        if (n < 32) {
            u8(0xA0 | static_cast<unsigned>(n));
        } else {
            sized(0xD9, static_cast<std::uint32_t>(n), n < 256 ? 1 : n < 65536 ? 2 : 4);
        }
        raw(s);
    }
};

// Bit pattern for dedup: -0 != 0 (Java Float.compare), every NaN is one value.
std::uint32_t dedupBits(float f) noexcept
{
    if (std::isnan(f)) {
        return 0x7FC00000u;
    }
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    return bits;
}

template <std::size_t N> struct BitsKey {
    std::uint32_t v[N];
    bool operator==(const BitsKey& o) const noexcept { return std::memcmp(v, o.v, sizeof v) == 0; }
};

template <std::size_t N> struct BitsHash {
    std::size_t operator()(const BitsKey<N>& k) const noexcept
    {
        std::uint64_t h = 1469598103934665603ull;
        for (std::size_t i = 0; i < N; ++i) {
            h = (h ^ k.v[i]) * 1099511628211ull;
        }
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

// A dedup table in first-appearance order.
template <typename V, std::size_t N> class Table {
public:
    std::uint32_t add(const V& v)
    {
        BitsKey<N> key{};
        for (std::size_t i = 0; i < N; ++i) {
            key.v[i] = dedupBits(v[static_cast<Eigen::Index>(i)]);
        }
        auto [it, inserted] = m_index.try_emplace(key, static_cast<std::uint32_t>(m_values.size()));
        if (inserted) {
            m_values.push_back(v);
        }
        return it->second;
    }
    const std::vector<V>& values() const noexcept { return m_values; }

private:
    std::unordered_map<BitsKey<N>, std::uint32_t, BitsHash<N>> m_index;
    std::vector<V> m_values;
};

class StringTable {
public:
    std::uint32_t add(const std::string& s)
    {
        auto [it, inserted] = m_index.try_emplace(s, static_cast<std::uint32_t>(m_values.size()));
        if (inserted) {
            m_values.push_back(s);
        }
        return it->second;
    }
    const std::vector<std::string>& values() const noexcept { return m_values; }

private:
    std::unordered_map<std::string, std::uint32_t> m_index;
    std::vector<std::string> m_values;
};

std::int64_t timeValue(double t)
{
    if (!(t >= static_cast<double>(std::numeric_limits<std::int32_t>::min()) &&
          t <= static_cast<double>(std::numeric_limits<std::int32_t>::max()))) {
        return 0;
    }
    return static_cast<std::int64_t>(std::llround(t));
}

std::int32_t boneId(const Skeleton& s, JointIndex j)
{
    if (j < 0 || static_cast<std::size_t>(j) >= s.size()) {
        return 0; // no bone (CoD pool points): BST writes 0 as well
    }
    return s.sourceIds[static_cast<std::size_t>(j)];
}

void writeNodes(Out& out, const Skeleton& s)
{
    out.u8(0);
    out.count(s.size());
    for (std::size_t j = 0; j < s.size(); ++j) {
        out.integer(s.sourceIds[j]);
        out.string(s.names[j]);
        out.integer(s.parents[j] == kNoJoint ? -1 : boneId(s, s.parents[j]));
    }
}

void writeSkeleton(Out& out, const Skeleton& s, const Animation& a)
{
    Table<Vec3, 3> vectors;
    struct State {
        std::int32_t bone;
        std::uint32_t pos, rot;
    };
    std::vector<std::vector<State>> frames(a.frameCount());
    for (std::size_t f = 0; f < a.frameCount(); ++f) {
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            const std::size_t k = a.key(f, j);
            if (!a.explicitKey[k]) {
                continue;
            }
            const std::uint32_t pos = vectors.add(a.positions[k]);
            const std::uint32_t rot = vectors.add(a.rotations[k]);
            frames[f].push_back({boneId(s, static_cast<JointIndex>(j)), pos, rot});
        }
    }
    out.u8(1);
    out.vectors(vectors.values());
    out.count(frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        out.integer(timeValue(a.times[f]));
        out.count(frames[f].size());
        for (const State& st : frames[f]) {
            out.integer(st.bone);
            out.count(st.pos);
            out.count(st.rot);
        }
    }
}

void writeTriangles(Out& out, const Skeleton& s, const Mesh& mesh)
{
    StringTable materials;
    Table<Vec3, 3> vectors;
    Table<Vec2, 2> uvs;
    struct Corner {
        std::uint32_t point, pos, nrm, uv;
    };
    std::vector<std::uint32_t> triMaterial(mesh.triangleCount());
    std::vector<Corner> corners(mesh.cornerCount());
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        triMaterial[t] = materials.add(mesh.materials[mesh.triangleMaterials[t]].name);
    }
    for (std::size_t c = 0; c < mesh.cornerCount(); ++c) {
        const std::uint32_t p = mesh.cornerPoints[c];
        corners[c].point = p;
        corners[c].pos = vectors.add(mesh.pointPositions[p]);
        corners[c].nrm = vectors.add(mesh.cornerNormals[c]);
        corners[c].uv = uvs.add(mesh.cornerUvs[c]);
    }
    out.u8(2);
    out.count(materials.values().size());
    for (const std::string& m : materials.values()) {
        out.string(m);
    }
    out.vectors(vectors.values());
    out.count(uvs.values().size());
    for (const Vec2& uv : uvs.values()) {
        out.real(uv.x());
        out.real(uv.y());
    }
    out.count(mesh.triangleCount());
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        out.count(triMaterial[t]);
        for (std::size_t c = 3 * t; c < 3 * t + 3; ++c) {
            const Corner& k = corners[c];
            out.integer(boneId(s, mesh.pointParents[k.point]));
            out.count(k.pos);
            out.count(k.nrm);
            out.count(k.uv);
            // Links absent or `0` are both lcount 0 (FORMATS.md §2.3).
            const std::uint32_t n = mesh.influenceCount(k.point);
            out.count(n);
            const std::uint32_t first = n > 0 ? mesh.influenceOffsets[k.point] : 0;
            for (std::uint32_t l = first; l < first + n; ++l) {
                out.integer(boneId(s, mesh.influenceJoints[l]));
                out.real(mesh.influenceWeights[l]);
            }
        }
    }
}

void writeVertexAnimation(Out& out, const std::vector<VertexFrame>& frames)
{
    Table<Vec3, 3> vectors;
    std::vector<std::vector<std::uint32_t>> indices(frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const VertexFrame& vf = frames[f];
        indices[f].reserve(2 * vf.ids.size());
        for (std::size_t i = 0; i < vf.ids.size(); ++i) {
            indices[f].push_back(vectors.add(vf.positions[i]));
            indices[f].push_back(vectors.add(vf.normals[i]));
        }
    }
    out.u8(3);
    out.vectors(vectors.values());
    out.count(frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const VertexFrame& vf = frames[f];
        out.integer(timeValue(vf.time));
        out.count(vf.ids.size());
        for (std::size_t i = 0; i < vf.ids.size(); ++i) {
            out.integer(vf.ids[i]);
            out.count(indices[f][2 * i]);
            out.count(indices[f][2 * i + 1]);
        }
    }
}

} // namespace

WriteResult writeSmdx(const Model& m, const WriteContext& ctx)
{
    if (hasQuaternions(m)) { // DMX rotations: Euler angles in double, gimbal-safe
        Model euler = m;
        quaternionsToEuler(euler);
        return writeSmdx(euler, ctx);
    }
    WriteResult r;
    DiagnosticSink sink(ctx.fileName);
    const bool smdFamily = m.format.empty() || formatFamily(m.format) == FormatFamily::Smd;
    if (smdFamily && m.version != 1) {
        sink.note(ids::kWriteVersionDropped, {1, 1, 0},
                  "source version " + std::to_string(m.version) +
                      " cannot be stored in SMDX; written as version 1");
    }
    const Animation* anim = nullptr;
    if (!m.animations.empty() && m.animations.front().kind == PoseKind::LocalEulerXYZ &&
        m.animations.front().jointCount == m.skeleton.size()) {
        anim = &m.animations.front();
    }
    const bool triangles = m.mesh.triangleCount() > 0 || m.kind == ModelKind::Reference;
    const bool vertexAnimation = !m.vertexFrames.empty() || m.kind == ModelKind::Flex;

    Out out;
    out.raw("SMDX");
    out.u8(1);
    out.count(1u + (anim ? 1u : 0u) + (triangles ? 1u : 0u) + (vertexAnimation ? 1u : 0u));
    writeNodes(out, m.skeleton);
    if (anim) {
        writeSkeleton(out, m.skeleton, *anim);
    }
    if (triangles) {
        writeTriangles(out, m.skeleton, m.mesh);
    }
    if (vertexAnimation) {
        writeVertexAnimation(out, m.vertexFrames);
    }
    r.bytes = std::move(out.bytes);
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core
