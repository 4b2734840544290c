#include "core/checks/check_util.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_map>

#include "core/build/flex_match.h"
#include "core/build/scratch_slots.h"
#include "core/build/weld.h"
#include "core/checks/single_precision_bone_space.h"
#include "core/text/numbers.h"
#include "core/text/plural.h"
#include "core/text/ascii.h"
#include "core/model/format_id.h"
#include "core/model/rotation.h"

namespace rigscope::core::checks {

std::string num(double v, int decimals)
{
    if (!std::isfinite(v)) {
        return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
    }
    const double scale = std::pow(10.0, decimals);
    double r = std::round(v * scale) / scale;
    if (r == 0.0) {
        r = 0.0; // no "-0"
    }
    std::string s;
    appendNumber(s, r);
    return s;
}

std::string quoted(std::string_view s)
{
    std::string out = "'";
    out += s;
    out += '\'';
    return out;
}

std::string nameList(const std::vector<std::string>& names, std::size_t max)
{
    std::string out;
    const std::size_t n = std::min(max, names.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) {
            out += ", ";
        }
        out += quoted(names[i]);
    }
    if (names.size() > n) {
        out += " and " + groupedCount(names.size() - n) + " more";
    }
    return out;
}

bool isOff(std::string_view id, Profile p) noexcept
{
    const CatalogEntry* e = findCatalogEntry(id);
    return e && e->severity[profileColumn(p)] == CatalogSeverity::Off;
}

void grade(Diagnostic& d, Profile p, Severity s)
{
    d.severity = s;
    if (!isOff(d.id, p)) {
        d.fixedSeverity = true;
    }
}

std::string_view compilerName(Profile p) noexcept
{
    switch (p) {
    case Profile::GoldSrc:
        return "GoldSrc studiomdl";
    case Profile::Pathos:
        return "vbmcompiler";
    case Profile::Afterburner:
        return "abstudiomdl";
    case Profile::Cod:
        return "the CoD tools";
    default:
        return "studiomdl";
    }
}

bool isSmdFamily(const Model& m) noexcept
{
    return formatFamily(m.format) == FormatFamily::Smd;
}

bool isXModel(const Model& m) noexcept
{
    return formatFamily(m.format) == FormatFamily::CodModel;
}

bool isXAnim(const Model& m) noexcept
{
    return formatFamily(m.format) == FormatFamily::CodAnim;
}

bool isCodFormat(const Model& m) noexcept
{
    return formatTraits(m.format).isCod();
}

std::vector<std::size_t> jointsInFileOrder(const Skeleton& s)
{
    std::vector<std::size_t> order(s.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (s.where.size() == s.size()) {
        std::stable_sort(order.begin(), order.end(), [&s](std::size_t a, std::size_t b) {
            const SourceLoc& x = s.where[a];
            const SourceLoc& y = s.where[b];
            if (x.line != y.line) {
                return x.line < y.line;
            }
            return x.offset < y.offset;
        });
    }
    return order;
}

SourceLoc jointLoc(const Skeleton& s, std::size_t j)
{
    return j < s.where.size() ? s.where[j] : SourceLoc{};
}

std::string boneName(const Skeleton& s, JointIndex j)
{
    if (j < 0 || static_cast<std::size_t>(j) >= s.size()) {
        return "#" + std::to_string(j);
    }
    return s.names[static_cast<std::size_t>(j)];
}

void mergedLinks(const Mesh& mesh, std::size_t point, std::vector<Link>& out)
{
    core::mergedLinks(rawLinks(mesh, point), out);
}

void compiledLinks(const Mesh& mesh, std::size_t point, Profile profile, std::vector<Link>& out,
                   std::size_t* culledCount, float* droppedWeight)
{
    const RawLinks raw = rawLinks(mesh, point);
    CompiledLinkStats stats;
    if (profile == Profile::Cod) {
        core::mergedLinks(raw, out);
        stats.afterCull = out.size();
    } else if (goldSrcStudiomdl(profile)) {
        compiledGoldSrcLinks(raw, kNoJoint, out);
        stats.afterCull = out.size();
    } else {
        // The profile's limits, looked up once per profile rather than per point (every check
        // that compiles the links of a whole mesh asks for each point).
        thread_local bool known = false;
        thread_local Profile lastProfile = Profile::Source;
        thread_local Limits lim;
        if (!known || lastProfile != profile) {
            lim = limitsFor(profile);
            lastProfile = profile;
            known = true;
        }
        compiledSourceLinks(raw, kNoJoint, out, lim.weightCull, lim.weightsPerVertex, &stats);
    }
    if (culledCount) {
        *culledCount = stats.afterCull;
    }
    if (droppedWeight) {
        *droppedWeight = stats.droppedWeight;
    }
}

namespace {

std::uint32_t bits(float f) noexcept
{
    if (f == 0.0f) {
        f = 0.0f; // -0 welds with 0
    }
    std::uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return u;
}

struct Key {
    std::array<std::uint32_t, 16> v{};
    std::uint32_t n = 0;
    void add(std::uint32_t x) noexcept { v[n++] = x; }
    bool operator==(const Key& o) const noexcept
    {
        return n == o.n && std::equal(v.begin(), v.begin() + n, o.v.begin());
    }
};

std::uint64_t keyHash(const Key& k) noexcept
{
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint32_t i = 0; i < k.n; ++i) {
        h ^= k.v[i];
        h *= 1099511628211ull;
    }
    return finishHash(h);
}

struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept
    {
        return static_cast<std::size_t>(keyHash(k));
    }
};

Vec3 unit(const Vec3& n) noexcept
{
    const float len = n.norm();
    return (len > 0 && std::isfinite(len)) ? Vec3(n / len) : Vec3::Zero();
}

constexpr float kCos2Deg = 0.99939083f;

bool sameNormal(const Vec3& a, const Vec3& b) noexcept
{
    if (a.isZero(0) && b.isZero(0)) {
        return true;
    }
    return a.dot(b) > kCos2Deg;
}

// studiomdl (Source) welds a corner with a vertex whose normal is within 2° of its own; a zero
// normal is within 2° of nothing (its dot product is 0), so each corner with one stays a vertex
// of its own (issue 30: public pairs whose SMDs have zero normals count every such corner).
bool sameSourceNormal(const Vec3& a, const Vec3& b) noexcept
{
    return a.dot(b) > kCos2Deg;
}

std::int32_t cell(float v, float size) noexcept
{
    if (!std::isfinite(v)) {
        return INT32_MIN;
    }
    return static_cast<std::int32_t>(std::floor(v / size));
}

// GoldSrc studiomdl's lookup_vertex: "assume 2 digits of accuracy", (int)(x * 100) / 100.0 on
// the bone-space position, so toward zero. The product is a float (rounded before the cut) in
// an SSE build; Valve's x87 build cuts the product unrounded (`x87`: in double, where a float
// times 100 is exact).
std::int64_t truncate2dp(float v, bool x87) noexcept
{
    const double h = x87 ? static_cast<double>(v) * 100.0 : static_cast<double>(v * 100.0f);
    if (!std::isfinite(h) || std::fabs(h) > 2e9) {
        return INT64_MIN;
    }
    return static_cast<std::int64_t>(static_cast<std::int32_t>(h));
}

// Each point in its parent bone's space at the bind pose, as GoldSrc's Grab_Triangles moves it
// (bonefixup: the inverse of the bone's world transform). Points of no bone, and models whose
// bind pose is not local Euler keys, keep their model position. The compilers compute in
// single precision, each its own way: abstudiomdl (Afterburner, a 64-bit build) rounds every
// operation, Valve's studiomdl (goldsrc, a 32-bit x87 build) every stored expression; on a point
// within float rounding of a 0.01 boundary the rules truncate apart (docs/profiles.md "The weld
// in single precision"). pathos keeps the computation in double.
std::vector<Vec3> boneSpacePoints(const Model& m, Profile profile)
{
    const Mesh& me = m.mesh;
    const Skeleton& sk = m.skeleton;
    std::vector<Vec3> out(me.pointPositions.begin(), me.pointPositions.end());
    if (sk.bindKind != PoseKind::LocalEulerXYZ || sk.bindRotations.size() != sk.size() ||
        sk.bindPositions.size() != sk.size()) {
        return out;
    }
    if (profile == Profile::Afterburner || profile == Profile::GoldSrc) {
        floatBoneSpacePoints(
            m, profile == Profile::GoldSrc ? FloatArithmetic::X87 : FloatArithmetic::Sse, out);
        return out;
    }
    std::vector<Quatd> rot(sk.size());
    std::vector<Eigen::Vector3d> pos(sk.size());
    for (std::size_t j = 0; j < sk.size(); ++j) {
        const Quatd q = eulerToQuaternion(sk.bindRotations[j]);
        const Eigen::Vector3d t = sk.bindPositions[j].cast<double>();
        const JointIndex parent = sk.parents[j];
        if (parent != kNoJoint && static_cast<std::size_t>(parent) < j) {
            rot[j] = rot[std::size_t(parent)] * q;
            pos[j] = rot[std::size_t(parent)] * t + pos[std::size_t(parent)];
        } else {
            rot[j] = q;
            pos[j] = t;
        }
    }
    for (std::size_t p = 0; p < out.size(); ++p) {
        const JointIndex b = me.pointParents[p];
        if (b != kNoJoint && static_cast<std::size_t>(b) < sk.size()) {
            out[p] = (rot[std::size_t(b)].conjugate() *
                      (me.pointPositions[p].cast<double>() - pos[std::size_t(b)]))
                         .cast<float>();
        }
    }
    return out;
}

} // namespace

WeldStats weldStats(const Model& m, Profile profile, std::size_t vertexLimit,
                    std::size_t normalLimit, bool wantCornerMap)
{
    WeldStats out;
    const Mesh& me = m.mesh;
    const std::size_t nc = me.cornerCount();
    if (wantCornerMap) {
        out.cornerVertex.reserve(nc); // written in corner order below: never zeroed first
    }
    if (profile == Profile::Cod || isXModel(m)) {
        // CoD: the VERT pool is what the binary indexes.
        out.vertices = me.pointCount();
        if (vertexLimit > 0 && out.vertices > vertexLimit) {
            out.vertexOverflow = static_cast<std::uint32_t>(vertexLimit);
        }
        if (wantCornerMap) {
            out.cornerVertex.assign(me.cornerPoints.begin(), me.cornerPoints.end());
        }
        return out;
    }
    if (goldSrcFamily(profile)) {
        const std::vector<Vec3> local = boneSpacePoints(m, profile);
        WeldTable verts(nc);
        std::vector<Key> vertKeys;
        // Normals: per (bone, material), greedy against representatives within 2°, found
        // through a grid of the unit vectors (cell > chord of 2°, so 27 cells cover it).
        std::unordered_map<Key, std::vector<std::uint32_t>, KeyHash> normalCells;
        std::vector<Vec3> reps;
        const float cellSize = 0.04f;
        for (std::size_t c = 0; c < nc; ++c) {
            const std::uint32_t p = me.cornerPoints[c];
            const Vec3& pos = local[p];
            const auto bone = static_cast<std::uint32_t>(me.pointParents[p]);
            Key k;
            for (float f : {pos.x(), pos.y(), pos.z()}) {
                const auto r =
                    static_cast<std::uint64_t>(truncate2dp(f, profile == Profile::GoldSrc));
                k.add(static_cast<std::uint32_t>(r));
                k.add(static_cast<std::uint32_t>(r >> 32));
            }
            k.add(bone);
            bool inserted = false;
            const std::uint32_t v = verts.findOrAdd(
                keyHash(k), [&](std::uint32_t g) { return vertKeys[g] == k; }, inserted);
            if (inserted) {
                vertKeys.push_back(k);
                if (vertexLimit > 0 && vertKeys.size() == vertexLimit + 1) {
                    out.vertexOverflow = static_cast<std::uint32_t>(c);
                }
            }
            if (wantCornerMap) {
                out.cornerVertex.push_back(v);
            }
            const Vec3 n = unit(me.cornerNormals[c]);
            const std::uint32_t mat = me.triangleMaterials[c / 3];
            const std::int32_t cx = cell(n.x(), cellSize), cy = cell(n.y(), cellSize),
                               cz = cell(n.z(), cellSize);
            bool found = false;
            for (int dx = -1; dx <= 1 && !found; ++dx) {
                for (int dy = -1; dy <= 1 && !found; ++dy) {
                    for (int dz = -1; dz <= 1 && !found; ++dz) {
                        Key ck;
                        ck.add(bone);
                        ck.add(mat);
                        ck.add(static_cast<std::uint32_t>(cx + dx));
                        ck.add(static_cast<std::uint32_t>(cy + dy));
                        ck.add(static_cast<std::uint32_t>(cz + dz));
                        auto cit = normalCells.find(ck);
                        if (cit == normalCells.end()) {
                            continue;
                        }
                        for (std::uint32_t r : cit->second) {
                            if (sameNormal(reps[r], n)) {
                                found = true;
                                break;
                            }
                        }
                    }
                }
            }
            if (!found) {
                Key ck;
                ck.add(bone);
                ck.add(mat);
                ck.add(static_cast<std::uint32_t>(cx));
                ck.add(static_cast<std::uint32_t>(cy));
                ck.add(static_cast<std::uint32_t>(cz));
                normalCells[ck].push_back(static_cast<std::uint32_t>(reps.size()));
                reps.push_back(n);
                if (normalLimit > 0 && reps.size() == normalLimit + 1) {
                    out.normalOverflow = static_cast<std::uint32_t>(c);
                }
            }
        }
        out.vertices = verts.groups();
        out.normals = reps.size();
        return out;
    }
    // Source: material, exact position, UV and compiled weights; a normal within 2° of the
    // first vertex of the same key welds with it. A vertex keeps its first corner and normal
    // only (not its key): the key is built again for that corner when a hash tag matches, so
    // the tables stay small (no 68-byte key per vertex) and are reserved once, never regrown.
    // A vertex is named by its first corner (the table's key): its normal is that corner's,
    // made unit again when a hash tag matches, so no array of the vertices' corners or normals
    // is written (issue 27 item 10: 15 MB of fresh pages on a 100 MB SMD). The corner map
    // numbers vertices in order of creation: only then a corner -> number table is kept.
    //
    // A file that numbers its own vertices (DMX: Mesh::cornerVertices, studiomdl's index
    // triples) is not welded by value: a corner is the vertex its number names. Only corners of
    // a part that has no numbers (UINT32_MAX: an SMD a QC compile merged with a DMX) are welded.
    std::size_t made = 0;                  // vertices made so far, numbered and welded
    std::vector<std::uint32_t> fileVertex; // the file's number -> ours (UINT32_MAX: not yet)
    const bool numbered = me.hasCornerVertices();
    const auto numberedVertex = [&](std::size_t c) {
        const std::uint32_t id = me.cornerVertices[c];
        if (id >= fileVertex.size()) {
            fileVertex.resize(std::max<std::size_t>(id + 1, 2 * fileVertex.size()), UINT32_MAX);
        }
        if (fileVertex[id] == UINT32_MAX) {
            fileVertex[id] = static_cast<std::uint32_t>(made++);
            if (vertexLimit > 0 && made == vertexLimit + 1) {
                out.vertexOverflow = static_cast<std::uint32_t>(c);
            }
        }
        if (wantCornerMap) {
            out.cornerVertex.push_back(fileVertex[id]);
        }
    };
    if (numbered && std::none_of(me.cornerVertices.begin(), me.cornerVertices.end(),
                                 [](std::uint32_t v) { return v == UINT32_MAX; })) {
        for (std::size_t c = 0; c < nc; ++c) {
            numberedVertex(c);
        }
        out.vertices = made;
        return out;
    }
    WeldTable table(nc);
    std::vector<std::uint32_t> numberOf; // first corner -> vertex number (corner map only)
    if (wantCornerMap) {
        numberOf.resize(nc);
    }
    std::vector<Link> links;
    const Limits lim = limitsFor(profile); // what compiledLinks would look up per corner
    const auto sourceKey = [&](std::size_t c, Key& k) {
        const std::uint32_t p = me.cornerPoints[c];
        const Vec3& pos = me.pointPositions[p];
        const Vec2& uv = me.cornerUvs[c];
        k.add(me.triangleMaterials[c / 3]);
        k.add(bits(pos.x()));
        k.add(bits(pos.y()));
        k.add(bits(pos.z()));
        k.add(bits(uv.x()));
        k.add(bits(uv.y()));
        compiledSourceLinks(rawLinks(me, p), kNoJoint, links, lim.weightCull, lim.weightsPerVertex);
        for (std::size_t i = 0; i < links.size() && i < 3; ++i) {
            k.add(static_cast<std::uint32_t>(links[i].joint));
            k.add(bits(links[i].weight));
        }
    };
    const auto sameRawCorner = [&me](std::size_t a, std::size_t b) {
        const std::uint32_t pa = me.cornerPoints[a], pb = me.cornerPoints[b];
        const Vec3 &xa = me.pointPositions[pa], &xb = me.pointPositions[pb];
        const Vec2 &ua = me.cornerUvs[a], &ub = me.cornerUvs[b];
        if (me.triangleMaterials[a / 3] != me.triangleMaterials[b / 3] ||
            bits(xa.x()) != bits(xb.x()) || bits(xa.y()) != bits(xb.y()) ||
            bits(xa.z()) != bits(xb.z()) || bits(ua.x()) != bits(ub.x()) ||
            bits(ua.y()) != bits(ub.y())) {
            return false;
        }
        if (pa == pb) {
            return true;
        }
        const RawLinks ra = rawLinks(me, pa), rb = rawLinks(me, pb);
        return ra.state == rb.state && ra.parent == rb.parent &&
               std::equal(ra.joints.begin(), ra.joints.end(), rb.joints.begin(), rb.joints.end()) &&
               std::equal(ra.weights.begin(), ra.weights.end(), rb.weights.begin(),
                          rb.weights.end(), [](float x, float y) { return bits(x) == bits(y); });
    };
    // The keys of the next corners are built ahead and their slots prefetched: on a mesh larger
    // than the caches the table costs bandwidth, not a miss per corner (the weld does the same).
    constexpr std::size_t kAhead = 8;
    Key ahead[kAhead];
    std::uint64_t aheadHash[kAhead];
    const auto prepare = [&](std::size_t c) {
        Key& k = ahead[c % kAhead];
        k.n = 0;
        sourceKey(c, k);
        aheadHash[c % kAhead] = keyHash(k);
        table.prefetch(aheadHash[c % kAhead]);
    };
    for (std::size_t c = 0; c < std::min(nc, kAhead); ++c) {
        prepare(c);
    }
    for (std::size_t c = 0; c < nc; ++c) {
        const Key k = ahead[c % kAhead];
        const std::uint64_t hash = aheadHash[c % kAhead];
        if (c + kAhead < nc) {
            prepare(c + kAhead);
        }
        if (numbered && me.cornerVertices[c] != UINT32_MAX) {
            numberedVertex(c);
            continue;
        }
        const Vec3 n = unit(me.cornerNormals[c]);
        bool created = false;
        const std::uint32_t first = table.findOrAddKey(
            hash, static_cast<std::uint32_t>(c),
            [&](std::uint32_t g) {
                if (!sameSourceNormal(unit(me.cornerNormals[g]), n)) {
                    return false;
                }
                // The same material, position, UV and raw links give the same key (the
                // compiled links are a function of the raw ones): no second cull and sort
                // for the copies of a vertex (six corners a point on a welded grid).
                if (sameRawCorner(g, c)) {
                    return true;
                }
                Key rk;
                sourceKey(g, rk);
                return rk == k;
            },
            created);
        if (created) {
            if (wantCornerMap) {
                numberOf[c] = static_cast<std::uint32_t>(made);
            }
            ++made;
            if (vertexLimit > 0 && made == vertexLimit + 1) {
                out.vertexOverflow = static_cast<std::uint32_t>(c);
            }
        }
        if (wantCornerMap) {
            out.cornerVertex.push_back(numberOf[first]);
        }
    }
    out.vertices = made;
    return out;
}

namespace {

thread_local KeptWeld t_keptWeld;

} // namespace

const WeldStats& weldStatsOnce(const Model& m, Profile profile, std::size_t vertexLimit,
                               std::size_t normalLimit)
{
    KeptWeld& k = t_keptWeld;
    if (k.sameModel(m, profile) && k.vertexLimit == vertexLimit && k.normalLimit == normalLimit) {
        return k.stats;
    }
    k.valid = false;
    k.stats = weldStats(m, profile, vertexLimit, normalLimit);
    k.model = &m;
    k.profile = profile;
    k.vertexLimit = vertexLimit;
    k.normalLimit = normalLimit;
    k.corners = m.mesh.cornerPoints.data();
    k.points = m.mesh.pointPositions.data();
    k.cornerCount = m.mesh.cornerCount();
    k.pointCount = m.mesh.pointCount();
    k.valid = true;
    return k.stats;
}

std::size_t weldedVertexCount(const Model& m, Profile profile)
{
    KeptWeld& k = t_keptWeld;
    const std::size_t n =
        k.sameModel(m, profile) ? k.stats.vertices : weldStats(m, profile, 0, 0).vertices;
    forgetWeldStats();
    return n;
}

KeptWeld takeKeptWeld() noexcept
{
    KeptWeld k = std::move(t_keptWeld);
    forgetWeldStats();
    return k;
}

void keepWeld(KeptWeld&& k) noexcept
{
    t_keptWeld = std::move(k);
}

void forgetWeldStats() noexcept
{
    t_keptWeld.valid = false;
    t_keptWeld.model = nullptr;
}

namespace {

// This thread's scratch for VertexOnce: the arrays of the last one that ended, emptied, their
// capacity kept. Only one VertexOnce at a time takes it (a second one alive starts empty).
template <class Rep> struct OnceScratch {
    std::vector<Rep> reps;
    std::vector<std::uint32_t> extra;
    bool taken = false;
    void release() noexcept
    {
        std::vector<Rep>().swap(reps);
        std::vector<std::uint32_t>().swap(extra);
    }
};

} // namespace

struct VertexOnceAccess {
    template <class V> static auto& scratch()
    {
        thread_local OnceScratch<typename V::Rep> s;
        return s;
    }
};

VertexOnce::VertexOnce(const Model& m)
    : m_mesh(m.mesh), m_pool(isXModel(m)),
      m_maxReps(std::max(m.mesh.pointCount(), m.mesh.cornerCount()))
{
    auto& s = VertexOnceAccess::scratch<VertexOnce>();
    if (!s.taken) {
        s.taken = true;
        m_reps.swap(s.reps);
        m_extra.swap(s.extra);
        m_reps.clear();
        m_extra.clear();
        m_owns = true;
    }
}

VertexOnce::~VertexOnce()
{
    giveScratchSlots(std::move(m_slots));
    giveScratchSlots(std::move(m_spare));
    if (m_owns) {
        auto& s = VertexOnceAccess::scratch<VertexOnce>();
        m_reps.clear();
        m_extra.clear();
        s.reps.swap(m_reps);
        s.extra.swap(m_extra);
        s.taken = false;
    }
}

void releaseVertexOnceScratch() noexcept
{
    auto& s = VertexOnceAccess::scratch<VertexOnce>();
    if (!s.taken) {
        s.release();
    }
}

namespace {

// One step of the vertex hash: 64 bits in, the full 128-bit product folded (every input bit
// reaches every output bit in a step; the table takes its index and tag from the top half).
__extension__ using Wide = unsigned __int128; // GCC and Clang on 64-bit targets

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept
{
    const Wide p = static_cast<Wide>(h ^ v) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
}

inline std::uint64_t pair(std::uint32_t lo, std::uint32_t hi) noexcept
{
    return std::uint64_t(hi) << 32 | lo;
}

} // namespace

void VertexOnce::Probe::add(float f) noexcept
{
    extra[extraCount++] = bits(f);
}

std::uint64_t VertexOnce::hashOf(std::size_t point, const std::uint32_t* extra,
                                 std::size_t extraCount) const noexcept
{
    std::uint64_t h = 0x243F6A8885A308D3ull ^ extraCount;
    if (m_pool) {
        h = mix(h, point);
    } else {
        const Vec3& p = m_mesh.pointPositions[point];
        const std::uint32_t count = m_mesh.influenceCount(point);
        h = mix(h, pair(bits(p.x()), bits(p.y())));
        h = mix(h, pair(bits(p.z()), static_cast<std::uint32_t>(m_mesh.pointParents[point])));
        h = mix(h, pair(static_cast<std::uint32_t>(m_mesh.pointLinkState[point]), count));
        const std::uint32_t o =
            m_mesh.influenceOffsets.empty() ? 0 : m_mesh.influenceOffsets[point];
        for (std::uint32_t i = 0; i < count; ++i) {
            h = mix(h, pair(static_cast<std::uint32_t>(m_mesh.influenceJoints[o + i]),
                            bits(m_mesh.influenceWeights[o + i])));
        }
    }
    std::size_t k = 0;
    for (; k + 1 < extraCount; k += 2) {
        h = mix(h, pair(extra[k], extra[k + 1]));
    }
    if (k < extraCount) {
        h = mix(h, extra[k]);
    }
    return finishHash(h);
}
bool VertexOnce::samePoint(std::size_t q, std::size_t point) const noexcept
{
    if (q == point) {
        return true;
    }
    if (m_pool) {
        return false;
    }
    const Vec3& a = m_mesh.pointPositions[point];
    const Vec3& b = m_mesh.pointPositions[q];
    if (bits(a.x()) != bits(b.x()) || bits(a.y()) != bits(b.y()) || bits(a.z()) != bits(b.z()) ||
        m_mesh.pointParents[point] != m_mesh.pointParents[q] ||
        m_mesh.pointLinkState[point] != m_mesh.pointLinkState[q]) {
        return false;
    }
    const std::uint32_t n = m_mesh.influenceCount(point);
    if (n != m_mesh.influenceCount(q)) {
        return false;
    }
    const std::uint32_t oa = m_mesh.influenceOffsets.empty() ? 0 : m_mesh.influenceOffsets[point];
    const std::uint32_t ob = m_mesh.influenceOffsets.empty() ? 0 : m_mesh.influenceOffsets[q];
    for (std::uint32_t i = 0; i < n; ++i) {
        if (m_mesh.influenceJoints[oa + i] != m_mesh.influenceJoints[ob + i] ||
            bits(m_mesh.influenceWeights[oa + i]) != bits(m_mesh.influenceWeights[ob + i])) {
            return false;
        }
    }
    return true;
}

bool VertexOnce::same(std::uint32_t g, std::size_t point, const std::uint32_t* extra,
                      std::size_t extraCount) const noexcept
{
    if (!samePoint(m_reps[g].point, point)) {
        return false;
    }
    const std::size_t from = m_reps[g].extra;
    const std::size_t to = g + 1 < m_reps.size() ? m_reps[g + 1].extra : m_extra.size();
    return to - from == extraCount &&
           std::equal(extra, extra + extraCount,
                      m_extra.begin() + static_cast<std::ptrdiff_t>(from));
}

void VertexOnce::reserve(std::size_t vertices)
{
    // The table and the reps sized once for what the caller counted: no doubling, no copy, and
    // no page faulted in twice (issue 27 item 10).
    vertices = std::min(vertices, m_maxReps);
    std::size_t cap = 1024;
    while (cap < 2 * vertices) {
        cap *= 2;
    }
    if (cap > m_slots.size()) {
        std::vector<std::uint64_t> old;
        old.swap(m_slots);
        m_slots = takeScratchSlots(cap);
        if (m_slots.capacity() < cap) {
            giveScratchSlots(std::move(m_slots));
            m_slots = std::vector<std::uint64_t>();
            m_slots.reserve(cap);
            adviseHugePages(m_slots.data(), cap * sizeof(std::uint64_t));
        }
        m_slots.assign(cap, kEmptySlot);
        m_mask = cap - 1;
        for (const std::uint64_t s : old) {
            if (s != kEmptySlot) {
                std::size_t i = static_cast<std::size_t>(s >> 32) & m_mask;
                while (m_slots[i] != kEmptySlot) {
                    i = (i + 1) & m_mask;
                }
                m_slots[i] = s;
            }
        }
        giveScratchSlots(std::move(old));
    }
    if (m_reps.capacity() < vertices) {
        m_reps.reserve(vertices);
        adviseHugePages(m_reps.data(), m_reps.capacity() * sizeof(Rep));
    }
}

void VertexOnce::grow()
{
    // Doubles the table and places every slot again (its index is taken from the hash bits the
    // slot holds, so nothing is hashed again): a handful of times over a whole run, never per
    // call. Equal vertices are one group, so the order groups are placed in does not matter.
    const std::size_t cap = m_slots.empty() ? 1024 : 2 * m_slots.size();
    if (m_spare.capacity() < cap) { // a kept table of this run, else a new one
        giveScratchSlots(std::move(m_spare));
        m_spare = takeScratchSlots(cap);
        if (m_spare.capacity() < cap) {
            std::vector<std::uint64_t>().swap(m_spare);
            m_spare.reserve(cap);
            adviseHugePages(m_spare.data(), cap * sizeof(std::uint64_t));
        }
    }
    m_spare.assign(cap, kEmptySlot);
    m_spare.swap(m_slots);
    m_mask = cap - 1;
    for (const std::uint64_t s : m_spare) {
        if (s != kEmptySlot) {
            std::size_t i = static_cast<std::size_t>(s >> 32) & m_mask;
            while (m_slots[i] != kEmptySlot) {
                i = (i + 1) & m_mask;
            }
            m_slots[i] = s;
        }
    }
    if (m_reps.size() >= 4096 && m_reps.capacity() < m_maxReps) {
        // Many vertices: room for every one the mesh can have, reserved once (untouched pages
        // cost nothing) rather than doubled, copied and faulted in again.
        const std::size_t perRep = (m_extra.size() + m_reps.size() - 1) / m_reps.size();
        m_reps.reserve(m_maxReps);
        m_extra.reserve(m_maxReps * perRep);
        adviseHugePages(m_reps.data(), m_reps.capacity() * sizeof(Rep));
        adviseHugePages(m_extra.data(), m_extra.capacity() * sizeof(std::uint32_t));
    }
}

bool VertexOnce::first(std::size_t point, std::initializer_list<float> extra)
{
    Probe probe;
    probe.point = static_cast<std::uint32_t>(point);
    // The extra values as bits (-0 as 0); corner checks pass at most a normal and a UV.
    std::vector<std::uint32_t> many;
    const std::uint32_t* ex = probe.extra.data();
    if (extra.size() > probe.extra.size()) {
        for (const float f : extra) {
            many.push_back(bits(f));
        }
        ex = many.data();
        const std::uint64_t h = hashOf(point, ex, many.size());
        // Rare (no check passes more than 8): the slow path, the same table.
        return insertMany(h, point, ex, many.size());
    }
    for (const float f : extra) {
        probe.add(f);
    }
    return insert(hashOf(point, ex, probe.extraCount), probe);
}

bool VertexOnce::insert(std::uint64_t h, const Probe& probe)
{
    return insertMany(h, probe.point, probe.extra.data(), probe.extraCount);
}

bool VertexOnce::insertMany(std::uint64_t h, std::size_t point, const std::uint32_t* ex,
                            std::size_t n)
{
    assert(m_swept == 0); // a VertexOnce serves first() or one sweep()
    if (2 * (m_reps.size() + 1) > m_slots.size()) {
        grow();
    }
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    for (std::size_t i = tag & m_mask;; i = (i + 1) & m_mask) {
        const std::uint64_t s = m_slots[i];
        if (s == kEmptySlot) {
            const auto g = static_cast<std::uint32_t>(m_reps.size());
            m_slots[i] = (std::uint64_t(tag) << 32) | g;
            m_reps.push_back(
                {static_cast<std::uint32_t>(point), static_cast<std::uint32_t>(m_extra.size())});
            m_extra.insert(m_extra.end(), ex, ex + n);
            return true;
        }
        if (static_cast<std::uint32_t>(s >> 32) == tag &&
            same(static_cast<std::uint32_t>(s), point, ex, n)) {
            return false;
        }
    }
}

bool deltaKept(const Vec3& dp, const Vec3& dn) noexcept
{
    return dp.squaredNorm() > 0.001f || dn.squaredNorm() > 0.001f;
}

FlexMatch matchFlexToReference(const Model& vta, const Model& reference)
{
    // The matching itself is core/build/flex_match (FORMATS.md §1.6), shared with the viewer.
    const FlexMatchResult r = matchFlex(vta, reference, nullptr);
    FlexMatch out;
    out.direct = r.direct;
    out.unmatched = r.unmatched;
    out.firstUnmatched = r.firstUnmatched;
    const std::size_t n = r.baseOffsets.empty() ? 0 : r.baseOffsets.size() - 1;
    out.corners.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.corners[i].assign(r.baseCorners.begin() + r.baseOffsets[i],
                              r.baseCorners.begin() + r.baseOffsets[i + 1]);
    }
    return out;
}

} // namespace rigscope::core::checks
