#include "core/ops/compare.h"

#include <algorithm>
#include <array>
#include <limits>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/checks/check_util.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/mdl/compiled_files.h"
#include "core/io/file_buffer.h"
#include "core/model/rotation.h"
#include "core/ops/compiled_report.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"
#include "core/physics/physics_model.h"
#include "core/physics/vphysics_hull.h"
#include "core/project/qc_collision_pose.h"
#include "core/text/ascii.h"
#include "core/text/json_writer.h"
#include "core/text/numbers.h"

namespace rigscope::core {

namespace {

// Material names as studiomdl keeps them: lower case, `/` for `\`, no extension.
std::string materialKey(std::string_view name)
{
    std::string s = asciiLower(name);
    std::replace(s.begin(), s.end(), '\\', '/');
    const auto slash = s.find_last_of('/');
    const auto dot = s.find_last_of('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
        s.resize(dot);
    }
    return s;
}

// The numbers of a QC command's arguments (`$illumposition 0 0 12`), nothing when one is not a
// number or there are fewer than `n`.
bool commandVector(const QcProject& p, std::string_view name, std::size_t first, Vec3& out)
{
    bool found = false;
    for (const QcCommand& c : p.commands) {
        if (c.name != name || c.args.size() < first + 3) {
            continue;
        }
        Vec3 v;
        bool ok = true;
        for (std::size_t i = 0; i < 3; ++i) {
            char* end = nullptr;
            const std::string& a = c.args[first + i];
            v[static_cast<Eigen::Index>(i)] = std::strtof(a.c_str(), &end);
            ok = ok && end && *end == '\0' && !a.empty();
        }
        if (ok) {
            out = v; // the last one wins, as studiomdl reads them in order
            found = true;
        }
    }
    return found;
}

// The model a project file was read into (a reference, not flex), nullptr when none.
const Model* fileModel(const QcCompiled& q, std::int32_t ref)
{
    if (ref < 0 || static_cast<std::size_t>(ref) >= q.fileRead.size() ||
        q.fileRead[static_cast<std::size_t>(ref)] < 0) {
        return nullptr;
    }
    const ReadResult& r =
        q.reads[static_cast<std::size_t>(q.fileRead[static_cast<std::size_t>(ref)])].result;
    return r.hasModel && r.model.kind != ModelKind::Flex ? &r.model : nullptr;
}

// A copy of `m` whose every point is rigid on joint 0 (what MakeStaticProp leaves).
Model onOneBone(const Model& m)
{
    Model one = m;
    rigidOnFirstJoint(one.mesh);
    return one;
}

// The files the $lod blocks put in place of body file `path` (their refs).
std::vector<std::int32_t> lodFilesOf(const QcProject& p, const std::string& path)
{
    std::vector<std::int32_t> out;
    for (const QcLod& lod : p.lods) {
        for (const QcLod::Replace& r : lod.replaceModels) {
            if (r.fileRef >= 0 && materialKey(r.from) == materialKey(path)) {
                out.push_back(r.fileRef);
            }
        }
    }
    return out;
}

// One vertex of studiomdl's LOD vertex dictionary (UnifyLODs): position, normal and UV as the
// file's weld keeps them, the tangent studiomdl computes per welded vertex, and the weights on
// the model's bones (by name; every bone is one under $staticprop).
struct DictVertex {
    Vec3 pos = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    Vec2 uv = Vec2::Zero();
    std::array<float, 4> tangent{};
    std::vector<std::pair<std::int32_t, float>> weights; // sorted by bone
};

// A file's welded vertices grouped by material (its meshes), as studiomdl's s_source_t holds
// them after BuildIndividualMeshes and CalcModelTangentSpaces.
struct LodSource {
    std::map<std::string, std::vector<DictVertex>> meshes; // by material key
    std::vector<const DictVertex*> all;                    // every vertex, every mesh
};

// CalcTriangleTangentSpace: per axis, the derivatives of x, y, z along s and t (float, as
// studiomdl computes them), normalized.
void triangleTangents(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec2& t0,
                      const Vec2& t1, const Vec2& t2, Vec3& s, Vec3& t)
{
    s = Vec3::Zero();
    t = Vec3::Zero();
    for (int axis = 0; axis < 3; ++axis) {
        const Vec3 e1(p1[axis] - p0[axis], t1.x() - t0.x(), t1.y() - t0.y());
        const Vec3 e2(p2[axis] - p0[axis], t2.x() - t0.x(), t2.y() - t0.y());
        const Vec3 cross = e1.cross(e2);
        if (std::fabs(cross.x()) > 1e-12f) {
            s[axis] += -cross.y() / cross.x();
            t[axis] += -cross.z() / cross.x();
        }
    }
    const auto normalize = [](Vec3& v) {
        const float len = v.norm();
        if (len != 0.0f) {
            v /= len;
        }
    };
    normalize(s);
    normalize(t);
}

LodSource lodSource(const Model& m, Profile profile, bool staticProp,
                    std::map<std::string, std::int32_t>& boneIds)
{
    LodSource out;
    // studiomdl's weld (a DMX file's vertices are its own: Mesh::cornerVertices).
    const checks::WeldStats w = checks::weldStats(m, profile, 0, 0, true);
    const Mesh& me = m.mesh;
    std::vector<DictVertex> verts(w.vertices);
    std::vector<std::string> material(w.vertices);
    std::vector<std::uint8_t> done(w.vertices, 0);
    std::vector<Vec3> sSum(w.vertices, Vec3::Zero()), tSum(w.vertices, Vec3::Zero());
    std::vector<Link> links;
    for (std::size_t c = 0; c < w.cornerVertex.size(); ++c) {
        const std::uint32_t v = w.cornerVertex[c];
        if (v >= verts.size() || done[v]) {
            continue;
        }
        done[v] = 1; // the vertex's first corner carries its normal
        DictVertex& d = verts[v];
        const std::uint32_t pt = me.cornerPoints[c];
        material[v] = materialKey(me.materials[me.triangleMaterials[c / 3]].name);
        d.pos = me.pointPositions[pt];
        d.uv = me.cornerUvs[c];
        d.normal =
            me.cornerNormals[c].norm() > 0 ? Vec3(me.cornerNormals[c].normalized()) : Vec3::Zero();
        checks::compiledLinks(me, pt, profile, links);
        for (const Link& l : links) {
            std::int32_t id = 0;
            if (!staticProp) {
                const std::string name =
                    l.joint >= 0 && static_cast<std::size_t>(l.joint) < m.skeleton.size()
                        ? asciiLower(m.skeleton.names[static_cast<std::size_t>(l.joint)])
                        : std::string();
                id = boneIds.emplace(name, static_cast<std::int32_t>(boneIds.size())).first->second;
            }
            auto it = std::find_if(d.weights.begin(), d.weights.end(),
                                   [&](const auto& bw) { return bw.first == id; });
            if (it != d.weights.end()) {
                it->second += l.weight; // bones that became one (InitRemappedVertex)
            } else {
                d.weights.emplace_back(id, l.weight);
            }
        }
        std::sort(d.weights.begin(), d.weights.end());
    }
    // CalcModelTangentSpaces: every triangle of the mesh (degenerate ones too, the .vtx drops
    // them later) adds its s and t to its corners' vertices.
    for (std::size_t t = 0; 3 * t + 2 < w.cornerVertex.size(); ++t) {
        const std::uint32_t a = w.cornerVertex[3 * t], b = w.cornerVertex[3 * t + 1],
                            cc = w.cornerVertex[3 * t + 2];
        if (a >= verts.size() || b >= verts.size() || cc >= verts.size()) {
            continue;
        }
        Vec3 s, tv;
        triangleTangents(verts[a].pos, verts[b].pos, verts[cc].pos, verts[a].uv, verts[b].uv,
                         verts[cc].uv, s, tv);
        for (const std::uint32_t v : {a, b, cc}) {
            sSum[v] += s;
            tSum[v] += tv;
        }
    }
    for (std::size_t v = 0; v < verts.size(); ++v) {
        DictVertex& d = verts[v];
        Vec3 s = sSum[v], t = tSum[v];
        const bool leftHanded = s.cross(t).dot(d.normal) < 0.0f;
        if (!leftHanded) {
            t = d.normal.cross(s);
            s = t.cross(d.normal);
        } else {
            t = s.cross(d.normal);
            s = d.normal.cross(t);
        }
        if (s.norm() != 0.0f) {
            s.normalize();
        }
        d.tangent = {s.x(), s.y(), s.z(), leftHanded ? -1.0f : 1.0f};
    }
    for (std::size_t v = 0; v < verts.size(); ++v) {
        if (done[v]) {
            out.meshes[material[v]].push_back(std::move(verts[v]));
        }
    }
    for (const auto& [key, list] : out.meshes) {
        for (const DictVertex& d : list) {
            out.all.push_back(&d);
        }
    }
    return out;
}

// UnifyLODs.cpp's tolerances. SDK 2013's: 0.01 in position and UV, 10° between normals and
// between tangents (whose handedness must agree), 0.05 of weight error. The 2006 studiomdl's
// (episode1, version 44 models): 0.05, 0.1, 60° and 0.5.
struct LodTolerance {
    float position = 0.01f;
    float texcoord = 0.01f;
    float weight = 0.05f;
    float angleCos = static_cast<float>(std::cos(10.0 * 3.14159265358979323846 / 180.0));
};
LodTolerance lodToleranceOf(std::int32_t version)
{
    if (version == 44) {
        return {0.05f, 0.1f, 0.5f,
                static_cast<float>(std::cos(60.0 * 3.14159265358979323846 / 180.0))};
    }
    return {};
}

bool lodPositionNear(const Vec3& a, const Vec3& b, const LodTolerance& tol, float& err)
{
    err = (a - b).squaredNorm();
    return err <= tol.position * tol.position;
}
bool lodUvNear(const Vec2& a, const Vec2& b, const LodTolerance& tol, float& err)
{
    const float dx = std::fabs(b.x() - a.x()), dy = std::fabs(b.y() - a.y());
    err = dx * dx + dy * dy;
    return err <= tol.texcoord * tol.texcoord;
}
bool lodDirectionNear(const Vec3& a, const Vec3& b, const LodTolerance& tol, float& err)
{
    const Vec3 u = a.norm() > 0 ? Vec3(a.normalized()) : a;
    const Vec3 v = b.norm() > 0 ? Vec3(b.normalized()) : b;
    const float dot = u.dot(v);
    err = 1.0f - dot;
    return dot >= tol.angleCos;
}
bool lodTangentNear(const std::array<float, 4>& a, const std::array<float, 4>& b,
                    const LodTolerance& tol, float& err)
{
    if (a[3] != b[3]) {
        err = 2.0f;
        return false;
    }
    return lodDirectionNear(Vec3(a[0], a[1], a[2]), Vec3(b[0], b[1], b[2]), tol, err);
}
// CompareBoneWeightsFuzzy: at least one bone in common; the squared weight differences (a
// bone only one side has counts whole), over the square root of both bone counts.
bool lodWeightsNear(const DictVertex& a, const DictVertex& b, const LodTolerance& tol, float& err)
{
    std::size_t matching = 0;
    err = 0.0f;
    for (const std::pair<std::int32_t, float>& aw : a.weights) {
        const std::int32_t bone = aw.first;
        const float weight = aw.second;
        auto it = std::find_if(b.weights.begin(), b.weights.end(),
                               [&](const auto& bw) { return bw.first == bone; });
        if (it == b.weights.end()) {
            err += weight * weight;
        } else {
            ++matching;
            const float d = std::fabs(weight - it->second);
            err += d * d;
        }
    }
    if (matching == 0) {
        err = std::numeric_limits<float>::max();
        return false;
    }
    for (const std::pair<std::int32_t, float>& bw : b.weights) {
        if (std::none_of(a.weights.begin(), a.weights.end(),
                         [&](const auto& aw) { return aw.first == bw.first; })) {
            err += bw.second * bw.second;
        }
    }
    err /= std::sqrt(static_cast<float>(a.weights.size() + b.weights.size()));
    return err <= tol.weight;
}

// The dictionary's vertices by cell of the position tolerance, so a search looks at the 27
// cells around a position instead of every vertex; each cell lists its vertices in the order
// they were added.
class LodGrid {
public:
    explicit LodGrid(float cell) : size_(static_cast<double>(cell)) {}
    void add(const Vec3& p, std::uint32_t index)
    {
        cells_[key(cell(p.x()), cell(p.y()), cell(p.z()))].push_back(index);
    }
    // The vertices in [begin, end) near `p`, in dictionary order.
    void near(const Vec3& p, std::size_t begin, std::size_t end,
              std::vector<std::uint32_t>& out) const
    {
        out.clear();
        const std::int64_t cx = cell(p.x()), cy = cell(p.y()), cz = cell(p.z());
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    auto it = cells_.find(key(cx + dx, cy + dy, cz + dz));
                    if (it == cells_.end()) {
                        continue;
                    }
                    for (const std::uint32_t i : it->second) {
                        if (i >= begin && i < end) {
                            out.push_back(i);
                        }
                    }
                }
            }
        }
        std::sort(out.begin(), out.end());
    }

private:
    std::int64_t cell(float v) const
    {
        return static_cast<std::int64_t>(std::floor(double(v) / size_));
    }
    static std::uint64_t key(std::int64_t x, std::int64_t y, std::int64_t z)
    {
        return (static_cast<std::uint64_t>(x) * 73856093ULL) ^
               (static_cast<std::uint64_t>(y) * 19349663ULL) ^
               (static_cast<std::uint64_t>(z) * 83492791ULL);
    }
    double size_;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells_;
};

// FindVertexWithinVertexDictionary: the vertex of [begin, end) within every tolerance (weights
// and tangents unless ignored) whose errors are least, compared in the order position, UV,
// weights, normal, tangent; on a tie the later vertex wins. -1 when none.
std::ptrdiff_t lodFindNear(const DictVertex& find, const std::vector<DictVertex>& dict,
                           const LodGrid& grid, std::size_t begin, std::size_t end,
                           bool ignoreWeightsAndTangents, const LodTolerance& tol)
{
    thread_local std::vector<std::uint32_t> candidates;
    grid.near(find.pos, begin, end, candidates);
    std::ptrdiff_t best = -1;
    const float inf = std::numeric_limits<float>::max();
    std::array<float, 5> bestErr{inf, inf, ignoreWeightsAndTangents ? 0.0f : inf, inf,
                                 ignoreWeightsAndTangents ? 0.0f : inf};
    for (const std::uint32_t i : candidates) {
        const DictVertex& d = dict[i];
        std::array<float, 5> e{0, 0, 0, 0, 0};
        if (!lodPositionNear(find.pos, d.pos, tol, e[0]) || !lodUvNear(find.uv, d.uv, tol, e[1])) {
            continue;
        }
        if (!ignoreWeightsAndTangents && !lodWeightsNear(find, d, tol, e[2])) {
            continue;
        }
        if (!lodDirectionNear(find.normal, d.normal, tol, e[3])) {
            continue;
        }
        if (!ignoreWeightsAndTangents && !lodTangentNear(find.tangent, d.tangent, tol, e[4])) {
            continue;
        }
        // Lexicographic, the last field compared with >= (studiomdl's chain of ifs).
        bool better = false;
        for (std::size_t k = 0; k < 5; ++k) {
            if (bestErr[k] > e[k]) {
                better = true;
                break;
            }
            if (bestErr[k] != e[k]) {
                break;
            }
            if (k == 4) {
                better = true;
            }
        }
        if (better) {
            bestErr = e;
            best = static_cast<std::ptrdiff_t>(i);
        }
    }
    return best;
}

bool lodSameVertex(const DictVertex& a, const DictVertex& b)
{
    return a.pos == b.pos && a.weights == b.weights && a.uv == b.uv && a.normal == b.normal &&
           a.tangent == b.tangent;
}

// One $lod as it applies to one body file (studiomdl's GetLODSources): the file that replaces
// it (the body itself when no replacemodel names it) and the bones the LOD moves onto others.
struct LodStep {
    const Model* source = nullptr;
    std::vector<std::pair<std::string, std::string>> replace; // lower-case bone names
};

// The LODs of body file `path`, in order; a LOD that removes it is left out. Each bone
// replacement is chained to its end (FixupReplacedBones), bonetreecollapse replacing every
// bone below the named one with it (ConvertBoneTreeCollapsesToReplaceBones).
std::vector<LodStep> lodStepsOf(const QcProject& p, const QcCompiled& q, const std::string& path,
                                const Model& body)
{
    std::vector<LodStep> out;
    const Skeleton& s = q.mergedSkeleton;
    for (const QcLod& lod : p.lods) {
        LodStep st;
        st.source = &body;
        bool removed = false;
        for (const QcLod::Replace& r : lod.replaceModels) {
            if (materialKey(r.from) != materialKey(path)) {
                continue;
            }
            const Model* m = r.fileRef >= 0 ? fileModel(q, r.fileRef) : nullptr;
            removed = r.fileRef < 0 || m == nullptr;
            st.source = m;
        }
        if (removed) {
            continue;
        }
        std::map<std::string, std::string> map;
        std::vector<std::string> order;
        auto put = [&](const std::string& from, const std::string& to) {
            if (map.emplace(from, to).second) {
                order.push_back(from);
            } else {
                map[from] = to;
            }
        };
        for (const std::string& top : lod.boneTreeCollapses) {
            JointIndex t = kNoJoint; // findGlobalBone: names compare without case
            for (std::size_t j = 0; j < s.size() && t == kNoJoint; ++j) {
                if (asciiLower(s.names[j]) == asciiLower(top)) {
                    t = static_cast<JointIndex>(j);
                }
            }
            if (t == kNoJoint) {
                continue;
            }
            for (std::size_t j = 0; j < s.size(); ++j) {
                for (JointIndex a = s.parents[j]; a != kNoJoint;
                     a = s.parents[static_cast<std::size_t>(a)]) {
                    if (a == t) {
                        put(asciiLower(s.names[j]),
                            asciiLower(s.names[static_cast<std::size_t>(t)]));
                        break;
                    }
                }
            }
        }
        for (const auto& [from, to] : lod.replaceBones) {
            put(asciiLower(from), asciiLower(to));
        }
        for (const std::string& from : order) {
            std::string to = map[from];
            for (std::size_t hop = 0; hop < map.size(); ++hop) {
                auto next = map.find(to);
                if (next == map.end() || next->second == to) {
                    break;
                }
                to = next->second;
            }
            if (to != from) {
                st.replace.emplace_back(from, to);
            }
        }
        out.push_back(std::move(st));
    }
    return out;
}

// LOD 0's vertices by unit cell, for the nearest one to a position (ring after ring).
class LodRings {
public:
    explicit LodRings(const std::vector<const DictVertex*>& all)
    {
        // Cells of about one vertex each (at least a unit): a large model's search then ends
        // within a ring or two of cells rather than hundreds of unit cells.
        Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
        for (std::size_t i = 0; i < all.size(); ++i) {
            lo = i == 0 ? all[i]->pos : Vec3(lo.cwiseMin(all[i]->pos));
            hi = i == 0 ? all[i]->pos : Vec3(hi.cwiseMax(all[i]->pos));
        }
        const double extent = static_cast<double>((hi - lo).maxCoeff());
        if (!all.empty() && std::isfinite(extent)) {
            size_ = std::max(1.0, extent / std::cbrt(static_cast<double>(all.size())));
        }
        for (std::size_t i = 0; i < all.size(); ++i) {
            const std::array<std::int64_t, 3> c = cellOf(all[i]->pos);
            cells_[c].push_back(static_cast<std::uint32_t>(i));
            for (std::size_t k = 0; k < 3; ++k) {
                lo_[k] = i == 0 ? c[k] : std::min(lo_[k], c[k]);
                hi_[k] = i == 0 ? c[k] : std::max(hi_[k], c[k]);
            }
        }
    }
    double cellSize() const { return size_; }
    // Far enough that every cell is within the ring from anywhere inside the bounds.
    std::int64_t maxRing() const
    {
        return cells_.empty() ? -1
                              : std::max({hi_[0] - lo_[0], hi_[1] - lo_[1], hi_[2] - lo_[2]}) + 2;
    }
    // The vertices of the cells at Chebyshev distance `r` from the position's cell.
    void ring(const Vec3& p, std::int64_t r, std::vector<std::uint32_t>& out) const
    {
        out.clear();
        std::array<std::int64_t, 3> c = cellOf(p);
        for (std::size_t k = 0; k < 3; ++k) { // a position outside the bounds: from their edge
            c[k] = std::clamp(c[k], lo_[k], hi_[k]);
        }
        // Only the shell of the cube, and only where cells can be (inside the bounds): a far
        // ring of a large model costs its surface within the bounds, not its volume.
        auto take = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
            auto it = cells_.find({x, y, z});
            if (it != cells_.end()) {
                out.insert(out.end(), it->second.begin(), it->second.end());
            }
        };
        const std::int64_t x0 = std::max(c[0] - r, lo_[0]), x1 = std::min(c[0] + r, hi_[0]);
        const std::int64_t y0 = std::max(c[1] - r, lo_[1]), y1 = std::min(c[1] + r, hi_[1]);
        const std::int64_t z0 = std::max(c[2] - r, lo_[2]), z1 = std::min(c[2] + r, hi_[2]);
        for (std::int64_t x = x0; x <= x1; ++x) {
            for (std::int64_t y = y0; y <= y1; ++y) {
                if (std::abs(x - c[0]) == r || std::abs(y - c[1]) == r) {
                    for (std::int64_t z = z0; z <= z1; ++z) {
                        take(x, y, z);
                    }
                    continue;
                }
                if (c[2] - r >= z0) {
                    take(x, y, c[2] - r);
                }
                if (r > 0 && c[2] + r <= z1) {
                    take(x, y, c[2] + r);
                }
            }
        }
    }

private:
    std::array<std::int64_t, 3> cellOf(const Vec3& p) const
    {
        auto at = [&](float v) {
            const double c = std::floor(static_cast<double>(v) / size_);
            return std::isfinite(c) ? static_cast<std::int64_t>(std::clamp(c, -1e15, 1e15))
                                    : std::int64_t(0);
        };
        return {at(p.x()), at(p.y()), at(p.z())};
    }
    double size_ = 1.0;
    struct CellHash {
        std::size_t operator()(const std::array<std::int64_t, 3>& c) const noexcept
        {
            return std::hash<std::int64_t>{}(c[0] * 73856093 ^ c[1] * 19349663 ^ c[2] * 83492791);
        }
    };
    std::unordered_map<std::array<std::int64_t, 3>, std::vector<std::uint32_t>, CellHash> cells_;
    std::array<std::int64_t, 3> lo_{}, hi_{};
};

// The vertices of a body file and its LOD files together, as the .vvd holds them
// (studiomdl's UnifyLODs): per material of LOD 0, its vertices first; then each LOD's vertex
// of that material takes the LOD 0 vertex nearest it within 0.01 in position and UV and 10°
// of normal (the 2006 studiomdl's tolerances for version 44: LodTolerance) (all of that vertex: LOD
// weights are never used), or keeps its own position, UV, normal and tangent with the weights of
// the LOD 0 vertex nearest in position; then it takes the vertex of an earlier LOD within every
// tolerance (weights and tangent too), its weights then moved by the LOD's bone replacements, and
// is added unless one exactly like it is there. A LOD material that LOD 0 lacks adds nothing.
std::int32_t lodUnionVertices(const Model& body, const std::vector<LodStep>& steps, Profile profile,
                              bool staticProp, std::int32_t version)
{
    const LodTolerance tol = lodToleranceOf(version);
    std::map<std::string, std::int32_t> boneIds;
    const LodSource root = lodSource(body, profile, staticProp, boneIds);
    std::map<const Model*, LodSource> sources; // a LOD naming no file of its own is LOD 0's
    for (const LodStep& st : steps) {
        if (st.source != &body && sources.count(st.source) == 0) {
            sources.emplace(st.source, lodSource(*st.source, profile, staticProp, boneIds));
        }
    }
    // Each LOD's bone map (BuildBoneLODMapping), on the ids of the weights.
    std::vector<std::map<std::int32_t, std::int32_t>> remaps(steps.size());
    for (std::size_t i = 0; i < steps.size() && !staticProp; ++i) {
        for (const auto& [from, to] : steps[i].replace) {
            auto f = boneIds.find(from);
            if (f != boneIds.end()) {
                remaps[i][f->second] =
                    boneIds.emplace(to, static_cast<std::int32_t>(boneIds.size())).first->second;
            }
        }
    }
    const LodRings rootFar(root.all);
    std::vector<std::uint32_t> ringHits;
    std::size_t total = 0;
    for (const auto& [material, rootVerts] : root.meshes) {
        std::vector<DictVertex> dict = rootVerts;
        const std::size_t rootEnd = dict.size();
        LodGrid grid(tol.position);
        for (std::size_t i = 0; i < dict.size(); ++i) {
            grid.add(dict[i].pos, static_cast<std::uint32_t>(i));
        }
        std::vector<std::uint32_t> same;
        for (std::size_t step = 0; step < steps.size(); ++step) {
            const LodSource& src =
                steps[step].source == &body ? root : sources.at(steps[step].source);
            const std::map<std::int32_t, std::int32_t>& remap = remaps[step];
            auto mesh = src.meshes.find(material);
            if (mesh == src.meshes.end()) {
                continue;
            }
            const std::size_t prevCount = dict.size();
            for (const DictVertex& v : mesh->second) {
                DictVertex ideal;
                const std::ptrdiff_t r = lodFindNear(v, dict, grid, 0, rootEnd, true, tol);
                if (r >= 0) {
                    ideal = dict[static_cast<std::size_t>(r)];
                } else {
                    ideal = v;
                    // FindBoneWeightWithinModel: nearest in position, then UV, then normal,
                    // over every vertex of LOD 0; on a tie the later one. Rings of unit
                    // cells around the position, until no nearer vertex can be left.
                    const DictVertex* best = nullptr;
                    std::size_t bestIndex = 0;
                    std::array<float, 3> bestErr{};
                    for (std::int64_t ring = 0; ring <= rootFar.maxRing(); ++ring) {
                        if (best && static_cast<double>(ring - 1) * rootFar.cellSize() >
                                        std::sqrt(static_cast<double>(bestErr[0]))) {
                            break;
                        }
                        rootFar.ring(v.pos, ring, ringHits);
                        for (const std::uint32_t i : ringHits) {
                            const DictVertex* d = root.all[i];
                            std::array<float, 3> e{};
                            lodPositionNear(v.pos, d->pos, tol, e[0]);
                            lodUvNear(v.uv, d->uv, tol, e[1]);
                            lodDirectionNear(v.normal, d->normal, tol, e[2]);
                            if (!best || e < bestErr || (e == bestErr && i > bestIndex)) {
                                bestErr = e;
                                best = d;
                                bestIndex = i;
                            }
                        }
                    }
                    if (best) {
                        ideal.weights = best->weights;
                    }
                }
                const std::ptrdiff_t earlier =
                    lodFindNear(ideal, dict, grid, 0, prevCount, false, tol);
                if (earlier >= 0) {
                    ideal = dict[static_cast<std::size_t>(earlier)];
                }
                if (!remap.empty()) {
                    // RemapBoneWeights, then CollapseBoneWeights: bones that became one add.
                    std::map<std::int32_t, float> merged;
                    for (const std::pair<std::int32_t, float>& w : ideal.weights) {
                        auto it = remap.find(w.first);
                        merged[it == remap.end() ? w.first : it->second] += w.second;
                    }
                    ideal.weights.assign(merged.begin(), merged.end());
                }
                grid.near(ideal.pos, 0, dict.size(), same);
                if (std::none_of(same.begin(), same.end(),
                                 [&](std::uint32_t i) { return lodSameVertex(dict[i], ideal); })) {
                    grid.add(ideal.pos, static_cast<std::uint32_t>(dict.size()));
                    dict.push_back(std::move(ideal));
                }
            }
        }
        total += dict.size();
    }
    return static_cast<std::int32_t>(total);
}

std::string floatText(float v)
{
    std::string s;
    appendFloat(s, v);
    return s;
}

std::string vec3Text(const Vec3& v)
{
    return floatText(v.x()) + " " + floatText(v.y()) + " " + floatText(v.z());
}

bool near(float a, float b, float tolerance)
{
    return std::fabs(a - b) <= tolerance * std::max(1.0f, std::max(std::fabs(a), std::fabs(b)));
}

bool nearVec(const Vec3& a, const Vec3& b, float tolerance)
{
    return near(a.x(), b.x(), tolerance) && near(a.y(), b.y(), tolerance) &&
           near(a.z(), b.z(), tolerance);
}

std::string listText(const std::vector<std::string>& v)
{
    std::string s;
    for (const std::string& x : v) {
        s += (s.empty() ? "" : ", ") + x;
    }
    return s.empty() ? std::string("(none)") : s;
}

std::string boneOf(const CompiledModelInfo& c, std::int32_t bone)
{
    return bone >= 0 && static_cast<std::size_t>(bone) < c.bones.size()
               ? c.bones[static_cast<std::size_t>(bone)].name
               : std::string();
}

// studiomdl turns the whole model 90° about Z as it writes it (the viewer leaves that out):
// (x, y, z) -> (-y, x, z).
Vec3 compiledSpace(const Vec3& v)
{
    return Vec3(-v.y(), v.x(), v.z());
}

// The joints a sequence's animation leaves unturned: studiomdl turns the roots of each
// animation file by its rotation ($upaxis, $origin's angle and the 90 degrees about Z,
// BuildRawTransforms) and gives each bone the file lacks its rest pose (g_bonetable's pos / rot)
// under its parent's animated pose (TranslateAnimations). A root the file lacks, and each bone
// below it that it lacks too, thus stays where the reference put it, turned by nothing.
// A joint is lacking when no frame of `a` keys it (Animation::explicitKey, 0 where the merge
// filled in the bind pose).
std::vector<std::uint8_t> rootsLeftUnturned(const Skeleton& sk, const Animation& a)
{
    std::vector<std::uint8_t> out(sk.size(), 0);
    if (a.explicitKey.size() != a.frameCount() * a.jointCount || a.jointCount != sk.size()) {
        return out;
    }
    std::vector<std::uint8_t> lacking(sk.size(), 1);
    for (std::size_t f = 0; f < a.frameCount(); ++f) {
        for (std::size_t j = 0; j < sk.size(); ++j) {
            if (a.explicitKey[a.key(f, j)] != 0) {
                lacking[j] = 0;
            }
        }
    }
    // Parents before children in a compiled skeleton; a parent after its child (or a cycle)
    // leaves the child turned.
    for (std::size_t j = 0; j < sk.size(); ++j) {
        const JointIndex parent = sk.parents[j];
        out[j] = lacking[j] && (parent == kNoJoint || (static_cast<std::size_t>(parent) < j &&
                                                       out[static_cast<std::size_t>(parent)]));
    }
    return out;
}

struct BoxBounds {
    Vec3 min = Vec3::Zero(), max = Vec3::Zero(); // studiomdl's boxes start at the origin
    bool any = false;
    bool fromOrigin = true; // false under $skipboneinbbox: the box starts empty
    void add(const Vec3& v)
    {
        if (!any && !fromOrigin) {
            min = max = v;
        }
        min = min.cwiseMin(v);
        max = max.cwiseMax(v);
        any = true;
    }
};

// Whether a version 44 model's .vvd holds a LOD vertex of its own (not a LOD 0 vertex, nor a
// copy of one with moved weights: same position, normal and UV) within the 2006 studiomdl's
// LOD tolerances of a LOD 0 vertex of its material. Episode1's UnifyLODs
// (CalculateBoneWeightFromRootLod) would have made it that vertex, so a studiomdl with SDK
// 2013's tolerances built the model though it wrote version 44 (Half-Life 2's foliage as
// Portal ships it; Counter-Strike: Source's props fit the 2006 ones).
bool lodsJoinedNarrowly(const std::string& mdlPath, const Model& lod0, std::int32_t lods)
{
    if (lods <= 1) {
        return false;
    }
    const CompiledCompanions found = findCompiledCompanions(mdlPath);
    FileReadResult mdl = readFile(mdlPath), vvd, vtx;
    if (!mdl.ok() || found.vvd.empty() || found.vtx.empty()) {
        return false;
    }
    vvd = readFile(found.vvd);
    vtx = readFile(found.vtx);
    if (!vvd.ok() || !vtx.ok()) {
        return false;
    }
    SourceMdlFiles files;
    files.mdl = {mdl.bytes, mdlPath, true};
    files.vvd = {vvd.bytes, found.vvd, true};
    files.vtx = {vtx.bytes, found.vtx, true};
    ReadContext ctx;
    ctx.fileName = mdlPath;
    const Mesh& m0 = lod0.mesh;
    const LodTolerance wide = lodToleranceOf(44);
    const auto cellOf = [&](const Vec3& p) {
        const auto at = [&](float v) {
            const double c = std::floor(static_cast<double>(v) / double(wide.position));
            return std::isfinite(c) ? static_cast<std::int64_t>(std::clamp(c, -1e15, 1e15))
                                    : std::int64_t(0);
        };
        return std::array<std::int64_t, 3>{at(p.x()), at(p.y()), at(p.z())};
    };
    std::map<std::array<std::int64_t, 3>, std::vector<std::size_t>> cells; // LOD 0 corners
    std::vector<char> root(m0.pointCount(), 0);
    for (std::size_t c = 0; c < m0.cornerCount(); ++c) {
        const std::uint32_t p = m0.cornerPoints[c];
        if (!root[p]) {
            root[p] = 1;
            cells[cellOf(m0.pointPositions[p])].push_back(c);
        }
    }
    const auto materialName = [](const Mesh& m, std::size_t c) {
        const std::uint32_t mat = m.triangleMaterials[c / 3];
        return mat < m.materials.size() ? asciiLower(m.materials[mat].name) : std::string();
    };
    for (std::int32_t l = 1; l < lods; ++l) {
        CompiledReadOptions o;
        o.lod = l;
        o.animations = false;
        const CompiledReadResult lr = readSourceMdl(files, ctx, o);
        const Mesh& ml = lr.model.mesh;
        if (!lr.hasModel || ml.pointCount() != m0.pointCount()) {
            continue;
        }
        std::vector<char> seen(ml.pointCount(), 0);
        for (std::size_t c = 0; c < ml.cornerCount(); ++c) {
            const std::uint32_t p = ml.cornerPoints[c];
            if (root[p] || seen[p]) {
                continue;
            }
            seen[p] = 1;
            const Vec3& pos = ml.pointPositions[p];
            const std::string mat = materialName(ml, c);
            bool copy = false, near = false;
            const std::array<std::int64_t, 3> k = cellOf(pos);
            for (std::int64_t dx = -1; dx <= 1 && !copy; ++dx) {
                for (std::int64_t dy = -1; dy <= 1 && !copy; ++dy) {
                    for (std::int64_t dz = -1; dz <= 1 && !copy; ++dz) {
                        const auto it = cells.find({k[0] + dx, k[1] + dy, k[2] + dz});
                        if (it == cells.end()) {
                            continue;
                        }
                        for (const std::size_t r : it->second) {
                            if (materialName(m0, r) != mat) {
                                continue;
                            }
                            const Vec3& rp = m0.pointPositions[m0.cornerPoints[r]];
                            if (rp == pos && m0.cornerNormals[r] == ml.cornerNormals[c] &&
                                m0.cornerUvs[r] == ml.cornerUvs[c]) {
                                copy = true;
                                break;
                            }
                            float e = 0;
                            near = near || (lodPositionNear(pos, rp, wide, e) &&
                                            lodUvNear(ml.cornerUvs[c], m0.cornerUvs[r], wide, e) &&
                                            lodDirectionNear(ml.cornerNormals[c],
                                                             m0.cornerNormals[r], wide, e));
                        }
                    }
                }
            }
            if (near && !copy) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

CompiledModelInfo predictCompiled(const QcReport& r, std::int32_t version, bool narrowLodWeld,
                                  HullSides* hullFromCollision)
{
    if (hullFromCollision) {
        hullFromCollision->fill(false);
    }
    CompiledModelInfo c;
    const QcProject& p = r.project;
    const QcCompiled& q = r.compiled;
    const Model& m = q.model;
    const bool goldsrc = goldSrcFamily(r.profile);
    c.engine = goldsrc ? "goldsrc" : "source";
    c.name = p.modelName;
    for (const QcPath& d : p.cdMaterials) {
        c.cdMaterials.push_back(d.path);
    }
    for (std::size_t j = 0; j < m.skeleton.size(); ++j) {
        CompiledBone b;
        b.name = m.skeleton.names[j];
        b.parent = m.skeleton.parents[j];
        c.bones.push_back(std::move(b));
    }
    // Materials in the order the bodies first use them, as the bodies' triangles name them.
    std::vector<std::int32_t> textureOfMaterial(m.mesh.materials.size(), -1);
    std::map<std::string, std::int32_t> textureByKey;
    auto textureOf = [&](const std::string& name) {
        const std::string key = materialKey(name);
        const auto it = textureByKey.find(key);
        if (it != textureByKey.end()) {
            return it->second;
        }
        CompiledTexture t;
        // As written, as studiomdl stores it: compared through materialKey like the compiled
        // name (a folded name folded again lost `GLOVE_handpak.bmp.bmp`'s inner `.bmp`).
        t.name = name;
        c.textures.push_back(std::move(t));
        const auto idx = static_cast<std::int32_t>(c.textures.size() - 1);
        textureByKey.emplace(key, idx);
        return idx;
    };
    if (goldsrc) {
        for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
            const std::uint32_t mat = m.mesh.triangleMaterials[t];
            if (mat < textureOfMaterial.size() && textureOfMaterial[mat] < 0) {
                textureOfMaterial[mat] = textureOf(m.mesh.materials[mat].name);
            }
        }
    } else {
        // Source: every triangle of every file studiomdl loads names a material, animations
        // and LOD files included (Grab_Triangles: LookupTexture, UseTextureAsMaterial), in
        // the order the QC names the files, each file once (Load_Source's cache), the null
        // textures skipped; a collision model's new names are taken back (DoCollisionModel).
        // A $texturegroup names its textures where it stands (Cmd_TextureGroup).
        const QcTextureGroup* group = p.textureGroups.empty() ? nullptr : &p.textureGroups.front();
        bool groupDone = false;
        auto addGroup = [&] {
            if (group && !groupDone) {
                groupDone = true;
                for (const std::vector<std::string>& row : group->rows) {
                    for (const std::string& name : row) {
                        (void)textureOf(name);
                    }
                }
            }
        };
        std::vector<std::uint8_t> readDone(q.reads.size(), 0);
        for (std::size_t i = 0; i < p.files.size(); ++i) {
            const QcFileRef& f = p.files[i];
            const bool body = f.kind == QcFileRef::Kind::Model || f.kind == QcFileRef::Kind::Lod;
            if (!body && f.kind != QcFileRef::Kind::Animation &&
                f.kind != QcFileRef::Kind::Collision) {
                continue;
            }
            // A file named after the $texturegroup in the same script, or an animation named
            // in another one, is read after it.
            if (group &&
                (f.at.file == group->at.file ? f.at.where.line > group->at.where.line : !body)) {
                addGroup();
            }
            const std::int32_t read = i < q.fileRead.size() ? q.fileRead[i] : std::int32_t(-1);
            if (read < 0 || static_cast<std::size_t>(read) >= readDone.size() ||
                readDone[static_cast<std::size_t>(read)]) {
                continue;
            }
            readDone[static_cast<std::size_t>(read)] = 1;
            const Model* file = fileModel(q, static_cast<std::int32_t>(i));
            if (!file || (f.kind == QcFileRef::Kind::Collision && !c.textures.empty())) {
                continue;
            }
            std::vector<std::uint8_t> seen(file->mesh.materials.size(), 0);
            for (std::size_t t = 0; t < file->mesh.triangleCount(); ++t) {
                const std::uint32_t mat = file->mesh.triangleMaterials[t];
                if (mat >= seen.size() || seen[mat]) {
                    continue;
                }
                seen[mat] = 1;
                const std::string& name = file->mesh.materials[mat].name;
                const std::string lower = asciiLower(name);
                // Source 2006's Grab_Triangles (v44) skips only null.bmp / null.tga: its
                // models keep debug/debugempty (on 300 Spacebuild props of 2007).
                if (lower == "null.bmp" || lower == "null.tga" ||
                    (lower == "debug/debugempty" && version != 44)) {
                    continue;
                }
                (void)textureOf(name);
            }
        }
        addGroup();
    }
    c.skinReferences = static_cast<std::int32_t>(c.textures.size());
    // Skin families: row 0 of the $texturegroup names references; each row puts its materials
    // in their place.
    std::vector<std::int32_t> identity;
    for (std::int32_t i = 0; i < c.skinReferences; ++i) {
        identity.push_back(i);
    }
    c.skins.push_back(identity);
    if (!p.textureGroups.empty() && !p.textureGroups.front().rows.empty()) {
        const QcTextureGroup& g = p.textureGroups.front();
        c.skins.assign(g.rows.size(), identity);
        for (std::size_t row = 0; row < g.rows.size(); ++row) {
            for (std::size_t k = 0; k < g.rows[row].size() && k < g.rows[0].size(); ++k) {
                const auto it = textureByKey.find(materialKey(g.rows[0][k]));
                if (it == textureByKey.end()) {
                    continue;
                }
                c.skins[row][static_cast<std::size_t>(it->second)] = textureOf(g.rows[row][k]);
            }
        }
    }
    // Every family spans every material (the ones only a $texturegroup row names included).
    for (std::vector<std::int32_t>& family : c.skins) {
        for (auto i = static_cast<std::int32_t>(family.size());
             i < static_cast<std::int32_t>(c.textures.size()); ++i) {
            family.push_back(i);
        }
    }
    c.skinReferences = static_cast<std::int32_t>(c.textures.size());
    // Bodyparts: each choice's triangles and welded vertices (per material, as the .vvd holds
    // them).
    for (std::size_t g = 0; g < p.bodygroups.size(); ++g) {
        const QcBodygroup& grp = p.bodygroups[g];
        CompiledBodypart bp;
        bp.name = grp.name;
        for (std::size_t ci = 0; ci < grp.choices.size(); ++ci) {
            const QcBodyChoice& ch = grp.choices[ci];
            CompiledSubModel sm;
            sm.name = ch.blank ? std::string("blank") : ch.path; // the name as written
            const std::int32_t object = g < q.choiceObjects.size() && ci < q.choiceObjects[g].size()
                                            ? q.choiceObjects[g][ci]
                                            : -1;
            const Model* file = object >= 0 ? fileModel(q, ch.fileRef) : nullptr;
            if (file) {
                // studiomdl welds each file as it reads it, on the bones it names (before a
                // $staticprop collapse); a triangle two of whose corners weld into one vertex
                // is dropped (GoldSrc's keeps every triangle: its tri commands hold them). The
                // .vvd holds LOD 0's vertices and those its LOD files add.
                // The studiomdl of version 44 moved a $staticprop's vertices onto its one bone
                // before it welded them (SDK 2013's welds each file as read, MakeStaticProp
                // comes after: v1support.cpp lookup_index, simplify.cpp RemapBones).
                const bool weldOnOneBone = version == 44 && p.staticProp && !goldsrc;
                // A DMX file's vertices are its own (Mesh::cornerVertices), as for check and
                // info: checks::weldStats is the one count.
                const Model oneBone = weldOnOneBone ? onOneBone(*file) : Model();
                const checks::WeldStats w =
                    checks::weldStats(weldOnOneBone ? oneBone : *file, r.profile, 0, 0, true);
                // The .vtx is built by NvTriStrip (optimize.cpp Stripify), whose
                // NvStripifier::BuildStripifyInfo also drops a triangle whose corners are an
                // earlier triangle's in the same order (AlreadyExists; a turned copy stays).
                std::int32_t triangles = 0;
                std::set<std::array<std::uint32_t, 3>> stripped;
                for (std::size_t t = 0; 3 * t + 2 < w.cornerVertex.size(); ++t) {
                    const std::uint32_t a = w.cornerVertex[3 * t], b = w.cornerVertex[3 * t + 1],
                                        cc = w.cornerVertex[3 * t + 2];
                    triangles += goldsrc || (a != b && b != cc && a != cc &&
                                             stripped.insert({a, b, cc}).second)
                                     ? 1
                                     : 0;
                }
                sm.triangles = triangles;
                sm.vertices = static_cast<std::int32_t>(w.vertices);
                const std::vector<LodStep> steps = lodStepsOf(p, q, ch.path, *file);
                if (std::any_of(steps.begin(), steps.end(), [&](const LodStep& st) {
                        return st.source != file || !st.replace.empty();
                    })) {
                    sm.vertices = lodUnionVertices(*file, steps, r.profile, p.staticProp,
                                                   narrowLodWeld ? 0 : version);
                }
            }
            bp.models.push_back(std::move(sm));
        }
        c.bodyparts.push_back(std::move(bp));
    }
    // Sequences.
    for (std::size_t s = 0; s < p.sequences.size(); ++s) {
        const QcSequence& seq = p.sequences[s];
        CompiledSequence cs;
        cs.name = seq.name;
        cs.activityName = seq.options.activity;
        cs.fps = seq.options.fps;
        cs.looping = seq.options.loop;
        cs.delta = seq.options.delta || !seq.options.subtract.empty();
        const std::int32_t a = s < q.sequenceAnimation.size() ? q.sequenceAnimation[s] : -1;
        if (a >= 0 && static_cast<std::size_t>(a) < m.animations.size()) {
            cs.frames =
                static_cast<std::int32_t>(m.animations[static_cast<std::size_t>(a)].frameCount());
            cs.fps = m.animations[static_cast<std::size_t>(a)].fps;
        }
        c.sequences.push_back(std::move(cs));
    }
    // Attachments on their merged bones.
    for (std::size_t i = 0; i < p.attachments.size(); ++i) {
        CompiledAttachment a;
        // GoldSrc's $attachment starts with an index; its studiomdl keeps no name.
        a.name = goldsrc ? std::string() : p.attachments[i].name;
        a.bone = i < q.attachmentJoints.size() ? q.attachmentJoints[i] : -1;
        c.attachments.push_back(std::move(a));
    }
    // Hitboxes: as given, by set. Each $hboxset opens a set, empty if no $hbox follows
    // (studiomdl Cmd_HitboxSet); a $hbox before any opens "default" (Cmd_Hitbox).
    bool anyHboxset = false;
    if (std::any_of(p.hitboxes.begin(), p.hitboxes.end(),
                    [](const QcHitbox& h) { return h.set.empty(); })) {
        c.hitboxSets.push_back({"default", {}});
    }
    for (const QcCommand& cmd : p.commands) {
        if (cmd.name != "hboxset" || cmd.args.empty()) {
            continue;
        }
        anyHboxset = true;
        if (std::none_of(c.hitboxSets.begin(), c.hitboxSets.end(),
                         [&](const CompiledHitboxSet& s) { return s.name == cmd.args[0]; })) {
            c.hitboxSets.push_back({cmd.args[0], {}});
        }
    }
    for (std::size_t i = 0; i < p.hitboxes.size(); ++i) {
        const QcHitbox& h = p.hitboxes[i];
        const std::string set = h.set.empty() ? std::string("default") : h.set;
        auto it = std::find_if(c.hitboxSets.begin(), c.hitboxSets.end(),
                               [&](const CompiledHitboxSet& s) { return s.name == set; });
        if (it == c.hitboxSets.end()) {
            c.hitboxSets.push_back({set, {}});
            it = c.hitboxSets.end() - 1;
        }
        CompiledHitbox b;
        b.bone = i < q.hitboxJoints.size() ? q.hitboxJoints[i] : -1;
        b.group = h.group;
        b.min = h.min * qcScaleAt(p, h.at);
        b.max = h.max * qcScaleAt(p, h.at);
        b.name = h.name;
        it->boxes.push_back(std::move(b));
    }
    // The points of the model in its own space: the bodies' (the merged mesh) and, for
    // $staticprop, those of their LOD files too ($scale and $origin applied).
    const Skeleton& sk = m.skeleton;
    const bool staticProp = p.staticProp && !goldsrc;
    std::vector<std::uint8_t> usedPoint(m.mesh.pointCount(), 0);
    for (const std::uint32_t pt : m.mesh.cornerPoints) {
        usedPoint[pt] = 1;
    }
    std::vector<Vec3> lodPoints;
    // MakeStaticProp turns every source's points by g_defaultrotation ($origin's angle and
    // $upaxis with the 90 degrees compiledSpace adds) and then moves them by $origin X Y Z, as
    // the compile places the body.
    const Mat3 staticTurn = qcUpAxisTurn(p).toRotationMatrix();
    const Vec3 staticOffset = qcStaticPropOffset(p); // $origin X Y Z, after the turn
    if (staticProp) {
        for (const QcBodygroup& grp : p.bodygroups) {
            for (const QcBodyChoice& ch : grp.choices) {
                for (const std::int32_t ref :
                     ch.blank ? std::vector<std::int32_t>() : lodFilesOf(p, ch.path)) {
                    if (const Model* lod = fileModel(q, ref)) {
                        const float scale = qcFileScale(p, ref);
                        for (const std::uint32_t pt : lod->mesh.cornerPoints) {
                            lodPoints.push_back(
                                staticTurn * (lod->mesh.pointPositions[pt] * scale) + staticOffset);
                        }
                    }
                }
            }
        }
    }
    // The collision model of a prop grows the hull; a ragdoll's ($collisionjoints) does not
    // (collisionmodel.cpp CollisionModel_ExpandBBox returns for g_bJointed). It does so with
    // the corners vphysics keeps for each convex piece (ConvexFromVerts rebuilds a piece from
    // its planes, a little wider where nearly coplanar faces meet: vphysics_hull.h), in the
    // compiled model's space where studiomdl hulls them (ProcessSingleBody, ConvertToWorldSpace:
    // posed by the first animation's frame 0: qcCollisionMesh, as `physics X.qc` and the
    // window build it).
    std::vector<Vec3> collisionPoints; // compiled space
    for (std::size_t i = 0; i < p.files.size(); ++i) {
        if (p.files[i].kind != QcFileRef::Kind::Collision ||
            p.files[i].command == "collisionjoints") {
            continue;
        }
        const Model* file = fileModel(q, static_cast<std::int32_t>(i));
        if (!file) {
            continue;
        }
        const float scale = qcFileScale(p, static_cast<std::int32_t>(i));
        const Model col = qcCollisionMesh(p, q, *file, static_cast<std::int32_t>(i));
        const PhysicsModel phys = buildPhysicsModel(p, q, col, p.files[i].resolved);
        const std::size_t before = collisionPoints.size();
        for (const PhysicsSolid& solid : phys.jointed ? std::vector<PhysicsSolid>() : phys.solids) {
            for (const PhysicsPiece& piece : solid.pieces) {
                ConvexHull h = piece.hull;
                for (Vec3d& v : h.vertices) {
                    v = compiledSpace(v.cast<float>()).cast<double>();
                }
                std::vector<Vec3d> corners = vphysicsRebuiltCorners(h);
                for (const Vec3d& v : corners.empty() ? h.vertices : corners) {
                    collisionPoints.push_back(v.cast<float>());
                }
            }
        }
        if (collisionPoints.size() == before) { // no piece built: the points as they are
            for (const std::uint32_t pt : col.mesh.cornerPoints) {
                collisionPoints.push_back(compiledSpace(col.mesh.pointPositions[pt] * scale));
            }
        }
    }
    std::vector<Vec3> bindRot(sk.bindRotations.begin(), sk.bindRotations.end());
    std::vector<Vec3> bindPos(sk.bindPositions.begin(), sk.bindPositions.end());
    const std::vector<RigidXf> bind =
        staticProp ? std::vector<RigidXf>(sk.size()) : eulerWorld(sk, bindRot, bindPos);
    // No $hbox nor $hboxset (Source): one box per bone that vertices are linked to, in bone
    // order, around those vertices in the bone's space and its origin, kept when every side is
    // at least a unit long; $staticprop: one box on static_prop around every vertex of every
    // LOD.
    // A $hboxset with no $hbox leaves its set empty: studiomdl generates boxes only when no set
    // was opened at all (SetupHitBoxes).
    // Each bone's box also takes in its children's origins (SetupHitBoxes "add in all your
    // children as well"); the boxes, kept or not, are the bones' render bounds below.
    // $skipboneinbbox (g_bUseBoneInBBox false) starts each box empty rather than at the bone's
    // origin; a bone with neither a vertex nor a child then has no box and no render bounds
    // (TransformAABB of SetupHitBoxes' inverted 9999 / -9999 box widens nothing).
    BoxBounds empty;
    empty.fromOrigin = std::none_of(p.commands.begin(), p.commands.end(), [](const QcCommand& cmd) {
        return cmd.name == "skipboneinbbox";
    });
    std::vector<BoxBounds> boxes(sk.size(), empty);
    const bool generated =
        p.hitboxes.empty() && !anyHboxset && !goldsrc && !sk.empty() && m.mesh.pointCount() > 0;
    if (generated) {
        std::vector<Link> links;
        for (std::size_t pt = 0; pt < m.mesh.pointCount(); ++pt) {
            if (!usedPoint[pt]) {
                continue;
            }
            const Vec3& pos = m.mesh.pointPositions[pt];
            if (staticProp) {
                boxes[0].add(compiledSpace(pos));
                continue;
            }
            checks::compiledLinks(m.mesh, pt, r.profile, links);
            for (const Link& l : links) {
                if (l.joint >= 0 && static_cast<std::size_t>(l.joint) < sk.size()) {
                    const auto j = static_cast<std::size_t>(l.joint);
                    boxes[j].add(bind[j].applyInverse(pos).cast<float>());
                }
            }
        }
        for (const Vec3& pos : lodPoints) {
            boxes[0].add(compiledSpace(pos));
        }
        for (std::size_t k = 0; k < sk.size() && !staticProp; ++k) {
            const JointIndex parent = sk.parents[k];
            if (parent != kNoJoint && static_cast<std::size_t>(parent) < k) {
                boxes[static_cast<std::size_t>(parent)].add(sk.bindPositions[k]);
            }
        }
        CompiledHitboxSet set{"default", {}};
        for (std::size_t j = 0; j < boxes.size(); ++j) {
            // Kept when every side is longer than a unit, in studiomdl's float arithmetic
            // (`bmin < bmax - 1` on each axis).
            const Vec3 shrunk = boxes[j].max - Vec3::Ones();
            if (boxes[j].any && (staticProp || (boxes[j].min.array() < shrunk.array()).all())) {
                CompiledHitbox b;
                b.bone = static_cast<std::int32_t>(j);
                b.min = boxes[j].min;
                b.max = boxes[j].max;
                set.boxes.push_back(std::move(b));
            }
        }
        c.hitboxSets.push_back(std::move(set));
    }
    // The hull: $bbox as written, else sequence 0's box (CalcSequenceBoundingBoxes: every frame
    // of its animations; write.cpp takes g_sequence[0]'s box), in the compiled model's space:
    // each bone's render bounds (SetupFullBoneRenderBounds: its generated box, or the origin
    // when boxes are given, with every hitbox on it) turned with the bone, and every vertex
    // blended over its compiled links (the bind pose without a sequence).
    // With $bbox the hull is as written, and the light still at the centre of sequence 0's box
    // (simplify.cpp: illumposition is g_sequence[0]'s bmin..bmax halved; Cmd_BBox sets only
    // the header's hull): Faceposable-CSS-Models' players, $bbox -13 -13 0 13 13 72, have
    // their light at 0.30 0.02 37.33, not 0 0 36.
    Vec3 v;
    Vec3 illumCentre = Vec3::Zero();
    Vec3 bboxMin = Vec3::Zero(), bboxMax = Vec3::Zero();
    const bool bbox = commandVector(p, "bbox", 0, bboxMin);
    if (bbox) {
        (void)commandVector(p, "bbox", 3, bboxMax);
        illumCentre = (bboxMin + bboxMax) * 0.5f;
    }
    if (!goldsrc && !sk.empty()) {
        BoxBounds hull;
        bool first = true;
        auto grow = [&](const Vec3& cw) {
            if (first) {
                hull.min = hull.max = cw;
                first = false;
            }
            hull.add(cw);
        };
        const std::size_t renderBones =
            staticProp ? std::min<std::size_t>(1, sk.size()) : sk.size();
        std::vector<BoxBounds> render(renderBones);
        for (std::size_t j = 0; j < renderBones; ++j) {
            if (generated) {
                render[j] = boxes[j];
            }
            render[j].any = render[j].any || render[j].fromOrigin;
        }
        for (const CompiledHitboxSet& set : c.hitboxSets) {
            for (const CompiledHitbox& b : set.boxes) {
                if (b.bone >= 0 && static_cast<std::size_t>(b.bone) < renderBones) {
                    render[static_cast<std::size_t>(b.bone)].add(b.min);
                    render[static_cast<std::size_t>(b.bone)].add(b.max);
                }
            }
        }
        std::vector<Link> links;
        // Per joint: 1 where the animation played leaves it at the reference's rest pose
        // without the roots' turn (rootsLeftUnturned); posed in the compiled model's space by
        // the upright turn's inverse rather than compiledSpace.
        std::vector<std::uint8_t> unturned(sk.size(), 0);
        const Eigen::Matrix3d uprightInverse =
            qcUpAxisTurn(p).conjugate().toRotationMatrix().cast<double>();
        auto toCompiled = [&](std::size_t j, const Eigen::Vector3d& at) {
            return unturned[j] ? Eigen::Vector3d(uprightInverse * at)
                               : Eigen::Vector3d(-at.y(), at.x(), at.z()); // compiledSpace
        };
        auto addPose = [&](const std::vector<RigidXf>& world) {
            for (std::size_t j = 0; j < renderBones; ++j) {
                const BoxBounds& b = render[j];
                if (!b.any) {
                    continue;
                }
                for (int k = 0; k < 8; ++k) {
                    const Vec3 corner((k & 1) ? b.max.x() : b.min.x(),
                                      (k & 2) ? b.max.y() : b.min.y(),
                                      (k & 4) ? b.max.z() : b.min.z());
                    grow(staticProp ? corner
                                    : toCompiled(j, world[j].apply(corner)).cast<float>().eval());
                }
            }
            for (std::size_t pt = 0; pt < m.mesh.pointCount(); ++pt) {
                if (!usedPoint[pt]) {
                    continue;
                }
                const Vec3& pos = m.mesh.pointPositions[pt];
                if (staticProp) {
                    grow(compiledSpace(pos));
                    continue;
                }
                checks::compiledLinks(m.mesh, pt, r.profile, links);
                Eigen::Vector3d sum = Eigen::Vector3d::Zero(); // in the compiled model's space
                double total = 0;
                for (const Link& l : links) {
                    if (l.joint >= 0 && static_cast<std::size_t>(l.joint) < sk.size()) {
                        const auto k = static_cast<std::size_t>(l.joint);
                        sum +=
                            l.weight *
                            toCompiled(k, world[k].apply(bind[k].applyInverse(pos).cast<float>()));
                        total += l.weight;
                    }
                }
                grow(total > 0 ? (sum / total).cast<float>() : compiledSpace(pos));
            }
            for (const Vec3& pos : lodPoints) {
                grow(compiledSpace(pos));
            }
        };
        bool anyFrame = false;
        // Sequence 0's animations: its first and, for a blend, the others
        // (CalcSequenceBoundingBoxes takes every panim of the sequence).
        std::vector<const Animation*> played;
        const std::int32_t seq0 = q.sequenceAnimation.empty() ? -1 : q.sequenceAnimation.front();
        if (seq0 >= 0 && static_cast<std::size_t>(seq0) < m.animations.size()) {
            played.push_back(&m.animations[static_cast<std::size_t>(seq0)]);
        }
        for (std::size_t i = 0; i < q.blendAnimations.size() && i < q.blendSequence.size(); ++i) {
            if (q.blendSequence[i] == 0) {
                played.push_back(&q.blendAnimations[i]);
            }
        }
        // A bound on the work (frames x points) for large animation libraries.
        std::size_t budget = std::size_t(1) << 26;
        for (const Animation* ap : staticProp ? std::vector<const Animation*>() : played) {
            const Animation& a = *ap;
            if (a.kind == PoseKind::LocalEulerXYZ && a.jointCount == sk.size()) {
                unturned = rootsLeftUnturned(sk, a);
                std::vector<Vec3> rot(sk.size()), pos(sk.size());
                for (std::size_t f = 0; f < a.frameCount(); ++f) {
                    const std::size_t cost = m.mesh.pointCount() + sk.size();
                    if (cost > budget) {
                        break;
                    }
                    budget -= cost;
                    for (std::size_t j = 0; j < sk.size(); ++j) {
                        rot[j] = a.rotations[a.key(f, j)];
                        pos[j] = a.positions[a.key(f, j)];
                    }
                    addPose(eulerWorld(sk, rot, pos));
                    anyFrame = true;
                }
            }
        }
        std::fill(unturned.begin(), unturned.end(), std::uint8_t{0});
        if (!anyFrame) {
            addPose(bind);
        }
        // The light sits at the centre of that; the hull also holds the collision model, grown
        // by the 0.25 margin of its convex pieces.
        if (!bbox || !first) {
            illumCentre = (hull.min + hull.max) * 0.5f;
        }
        const BoxBounds beforeCollision = hull;
        const bool hadBounds = !first;
        for (const Vec3& cp : collisionPoints) {
            grow(cp - Vec3::Constant(0.25f));
            grow(cp + Vec3::Constant(0.25f));
        }
        if (hullFromCollision && !collisionPoints.empty() && !bbox) {
            for (std::size_t i = 0; i < 3; ++i) {
                const auto axis = static_cast<Eigen::Index>(i);
                (*hullFromCollision)[i] = !hadBounds || hull.min[axis] < beforeCollision.min[axis];
                (*hullFromCollision)[i + 3] =
                    !hadBounds || hull.max[axis] > beforeCollision.max[axis];
            }
        }
        if (!first && !bbox) {
            c.hullMin = hull.min;
            c.hullMax = hull.max;
        }
    }
    if (bbox) {
        c.hullMin = bboxMin;
        c.hullMax = bboxMax;
    }
    // $illumposition in the compiled model's space, else the hull's centre.
    if (commandVector(p, "illumposition", 0, v)) {
        c.illumPosition = goldsrc ? v : compiledSpace(v);
    } else if (!goldsrc) {
        c.illumPosition = illumCentre;
    }
    // Collision: one solid for $collisionmodel; a solid per weighted bone for $collisionjoints.
    for (const QcFileRef& f : p.files) {
        if (f.kind != QcFileRef::Kind::Collision) {
            continue;
        }
        c.physics.present = true;
        c.physics.solids.resize(1);
        if (f.command == "collisionjoints" && !goldsrc) {
            const auto i = static_cast<std::int32_t>(&f - p.files.data());
            if (const Model* col = fileModel(q, i)) {
                std::vector<std::uint8_t> used(col->skeleton.size(), 0);
                std::vector<Link> links;
                for (std::size_t pt = 0; pt < col->mesh.pointCount(); ++pt) {
                    checks::compiledLinks(col->mesh, pt, r.profile, links);
                    if (!links.empty() && links.front().joint >= 0 &&
                        static_cast<std::size_t>(links.front().joint) < used.size()) {
                        used[static_cast<std::size_t>(links.front().joint)] = 1;
                    }
                }
                const auto n = static_cast<std::size_t>(std::count(used.begin(), used.end(), 1));
                c.physics.solids.resize(std::max<std::size_t>(n, 1));
            }
        }
    }
    return c;
}

std::vector<CompareDifference> compareCompiled(const CompiledModelInfo& pr,
                                               const CompiledModelInfo& co)
{
    std::vector<CompareDifference> out;
    auto add = [&](std::string field, std::string a, std::string b) {
        out.push_back({std::move(field), std::move(a), std::move(b), false});
    };
    auto count = [&](const std::string& field, std::size_t a, std::size_t b) {
        if (a != b) {
            add(field, std::to_string(a), std::to_string(b));
        }
        return a == b;
    };
    // Bones: the count, then the names in order.
    count("bones", pr.bones.size(), co.bones.size());
    {
        std::vector<std::string> a, b;
        for (const CompiledBone& x : pr.bones) {
            a.push_back(x.name);
        }
        for (const CompiledBone& x : co.bones) {
            b.push_back(x.name);
        }
        bool same = a.size() == b.size();
        for (std::size_t i = 0; same && i < a.size(); ++i) {
            same = asciiLower(a[i]) == asciiLower(b[i]);
        }
        if (!same) {
            add("boneNames", listText(a), listText(b));
        }
    }
    // Bodyparts and their models.
    if (count("bodyparts", pr.bodyparts.size(), co.bodyparts.size())) {
        for (std::size_t i = 0; i < pr.bodyparts.size(); ++i) {
            const CompiledBodypart& a = pr.bodyparts[i];
            const CompiledBodypart& b = co.bodyparts[i];
            const std::string f = "bodyparts[" + std::to_string(i) + "]";
            if (asciiLower(a.name) != asciiLower(b.name)) {
                add(f + ".name", a.name, b.name);
            }
            if (!count(f + ".models", a.models.size(), b.models.size())) {
                continue;
            }
            for (std::size_t k = 0; k < a.models.size(); ++k) {
                const std::string g = f + ".models[" + std::to_string(k) + "]";
                count(g + ".vertices", static_cast<std::size_t>(a.models[k].vertices),
                      static_cast<std::size_t>(b.models[k].vertices));
                count(g + ".triangles", static_cast<std::size_t>(a.models[k].triangles),
                      static_cast<std::size_t>(b.models[k].triangles));
            }
        }
    }
    // Materials (as a set of folded names) and skin families.
    {
        std::vector<std::string> a, b;
        for (const CompiledTexture& t : pr.textures) {
            a.push_back(materialKey(t.name));
        }
        for (const CompiledTexture& t : co.textures) {
            b.push_back(materialKey(t.name));
        }
        std::vector<std::string> sa = a, sb = b;
        std::sort(sa.begin(), sa.end());
        std::sort(sb.begin(), sb.end());
        if (sa != sb) {
            add("materialNames", listText(a), listText(b));
        }
        if (count("skins", pr.skins.size(), co.skins.size())) {
            const auto na = pr.skinMaterialNames();
            const auto nb = co.skinMaterialNames();
            for (std::size_t i = 0; i < na.size() && i < nb.size(); ++i) {
                // studiomdl keeps only the references some family changes; compare those.
                std::vector<std::string> fa, fb;
                for (const std::string& s : na[i]) {
                    fa.push_back(materialKey(s));
                }
                for (const std::string& s : nb[i]) {
                    fb.push_back(materialKey(s));
                }
                const std::size_t w = std::min(fa.size(), fb.size());
                fa.resize(w);
                fb.resize(w);
                if (fa != fb) {
                    add("skins[" + std::to_string(i) + "]", listText(fa), listText(fb));
                }
            }
        }
    }
    // Sequences.
    if (count("sequences", pr.sequences.size(), co.sequences.size())) {
        for (std::size_t i = 0; i < pr.sequences.size(); ++i) {
            const CompiledSequence& a = pr.sequences[i];
            const CompiledSequence& b = co.sequences[i];
            const std::string f = "sequences[" + std::to_string(i) + "]";
            if (asciiLower(a.name) != asciiLower(b.name)) {
                add(f + ".name", a.name, b.name);
            }
            count(f + ".frames", static_cast<std::size_t>(a.frames),
                  static_cast<std::size_t>(b.frames));
            if (!near(a.fps, b.fps, 1e-4f)) {
                add(f + ".fps", floatText(a.fps), floatText(b.fps));
            }
            if (a.looping != b.looping) {
                add(f + ".looping", a.looping ? "true" : "false", b.looping ? "true" : "false");
            }
            if (a.delta != b.delta) {
                add(f + ".delta", a.delta ? "true" : "false", b.delta ? "true" : "false");
            }
        }
    }
    // Attachments.
    if (count("attachments", pr.attachments.size(), co.attachments.size())) {
        for (std::size_t i = 0; i < pr.attachments.size(); ++i) {
            const std::string f = "attachments[" + std::to_string(i) + "]";
            const CompiledAttachment& a = pr.attachments[i];
            const CompiledAttachment& b = co.attachments[i];
            if (asciiLower(a.name) != asciiLower(b.name)) {
                add(f + ".name", a.name, b.name);
            }
            if (asciiLower(boneOf(pr, a.bone)) != asciiLower(boneOf(co, b.bone))) {
                add(f + ".bone", boneOf(pr, a.bone), boneOf(co, b.bone));
            }
        }
    }
    // Hitboxes (GoldSrc's generated ones are not predicted).
    if ((!pr.hitboxSets.empty() || pr.engine != "goldsrc") &&
        count("hitboxes", pr.hitboxCount(), co.hitboxCount())) {
        std::size_t n = 0;
        for (std::size_t s = 0; s < pr.hitboxSets.size() && s < co.hitboxSets.size(); ++s) {
            const auto& sa = pr.hitboxSets[s].boxes;
            const auto& sb = co.hitboxSets[s].boxes;
            for (std::size_t i = 0; i < sa.size() && i < sb.size(); ++i, ++n) {
                const std::string f = "hitboxes[" + std::to_string(n) + "]";
                if (asciiLower(boneOf(pr, sa[i].bone)) != asciiLower(boneOf(co, sb[i].bone))) {
                    add(f + ".bone", boneOf(pr, sa[i].bone), boneOf(co, sb[i].bone));
                }
                if (sa[i].group != sb[i].group) {
                    add(f + ".group", std::to_string(sa[i].group), std::to_string(sb[i].group));
                }
                if (!nearVec(sa[i].min, sb[i].min, 1e-3f) ||
                    !nearVec(sa[i].max, sb[i].max, 1e-3f)) {
                    add(f + ".box", vec3Text(sa[i].min) + " .. " + vec3Text(sa[i].max),
                        vec3Text(sb[i].min) + " .. " + vec3Text(sb[i].max));
                }
            }
        }
    }
    if (pr.engine == "goldsrc") {
        // GoldSrc's hull and illumination point are not predicted.
    } else if (!nearVec(pr.illumPosition, co.illumPosition, 1e-3f)) {
        add("illumPosition", vec3Text(pr.illumPosition), vec3Text(co.illumPosition));
    }
    if (pr.engine != "goldsrc" &&
        (!nearVec(pr.hullMin, co.hullMin, 1e-3f) || !nearVec(pr.hullMax, co.hullMax, 1e-3f))) {
        add("hull", vec3Text(pr.hullMin) + " .. " + vec3Text(pr.hullMax),
            vec3Text(co.hullMin) + " .. " + vec3Text(co.hullMax));
    }
    if (pr.physics.present && co.physics.present) {
        count("physics.solids", pr.physics.solids.size(), co.physics.solids.size());
    } else if (pr.physics.present != co.physics.present) {
        add("physics", pr.physics.present ? "a collision model" : "none",
            co.physics.present ? "a .phy" : "none");
    }
    return out;
}

bool hullWithinVphysicsRounding(const CompiledModelInfo& predicted,
                                const CompiledModelInfo& compiled, const HullSides& fromCollision)
{
    bool any = false;
    for (std::size_t i = 0; i < 6; ++i) {
        const float a = i < 3 ? predicted.hullMin[static_cast<Eigen::Index>(i)]
                              : predicted.hullMax[static_cast<Eigen::Index>(i - 3)];
        const float b = i < 3 ? compiled.hullMin[static_cast<Eigen::Index>(i)]
                              : compiled.hullMax[static_cast<Eigen::Index>(i - 3)];
        if (near(a, b, 1e-3f)) {
            continue;
        }
        if (!fromCollision[i] || !(std::abs(a - b) <= kVphysicsHullTolerance)) {
            return false;
        }
        any = true;
    }
    return any;
}

namespace {

// studiomdl writes each model's source file name as the QC wrote it (cut to 63 characters)
// into the .mdl. A compiled model whose names are not the QC's was built from other sources:
// a stale model, not a wrong prediction.
void sourceNamesDiffer(const CompiledModelInfo& predicted, const CompiledModelInfo& compiled,
                       std::vector<std::string>& reasons)
{
    const auto key = [](std::string_view name) {
        std::string k = asciiLower(name.substr(0, std::min<std::size_t>(name.size(), 63)));
        std::replace(k.begin(), k.end(), '\\', '/');
        return k;
    };
    const std::size_t parts = std::min(predicted.bodyparts.size(), compiled.bodyparts.size());
    for (std::size_t b = 0; b < parts; ++b) {
        const auto& pm = predicted.bodyparts[b].models;
        const auto& cm = compiled.bodyparts[b].models;
        for (std::size_t m = 0; m < std::min(pm.size(), cm.size()); ++m) {
            if (pm[m].name.empty() || cm[m].name.empty() || key(pm[m].name) == key(cm[m].name)) {
                continue;
            }
            reasons.push_back("bodypart " + std::to_string(b) + " model " + std::to_string(m) +
                              " was compiled from '" + cm[m].name + "'; the QC names '" +
                              pm[m].name + "'");
        }
    }
}

// A compiled model built with another $origin than its QC's. studiomdl takes $origin off every
// root bone of every animation as the QC gives it, after $scale (BuildRawTransforms; a DMX is
// scaled as Load_DMX reads it), then turns the roots. Where the first sequence's frame 0 has
// every root bone shifted alike from the prediction (half-float precision aside), with the
// same rotations, the model was built with the $origin that shift implies.
void originDiffers(const QcReport& qc, const ReadResult& compiled, const CompiledModelInfo& info,
                   std::vector<std::string>& reasons)
{
    const QcCompiled& q = qc.compiled;
    if (q.sequenceAnimation.empty() || info.sequenceAnimation.empty() ||
        q.sequenceAnimation.front() < 0 || info.sequenceAnimation.front() < 0 ||
        static_cast<std::size_t>(q.sequenceAnimation.front()) >= q.model.animations.size() ||
        static_cast<std::size_t>(info.sequenceAnimation.front()) >=
            compiled.model.animations.size() ||
        qc.project.staticProp) {
        return;
    }
    const Animation& pa = q.model.animations[static_cast<std::size_t>(q.sequenceAnimation.front())];
    const Animation& ca =
        compiled.model.animations[static_cast<std::size_t>(info.sequenceAnimation.front())];
    const Skeleton& ps = q.model.skeleton;
    const Skeleton& cs = compiled.model.skeleton;
    if (pa.kind != PoseKind::LocalEulerXYZ || ca.kind != PoseKind::LocalEulerXYZ ||
        pa.frameCount() == 0 || ca.frameCount() == 0 || pa.jointCount != ps.size() ||
        ca.jointCount != cs.size()) {
        return;
    }
    std::unordered_map<std::string, std::size_t> predicted;
    for (std::size_t j = 0; j < ps.size(); ++j) {
        predicted.emplace(asciiLower(ps.names[j]), j);
    }
    std::vector<Vec3> shifts;
    for (std::size_t j = 0; j < cs.size(); ++j) {
        if (cs.parents[j] != kNoJoint) {
            continue;
        }
        const auto it = predicted.find(asciiLower(cs.names[j]));
        if (it == predicted.end() || ps.parents[it->second] != kNoJoint) {
            return;
        }
        const Vec3 pr = pa.rotations[pa.key(0, it->second)];
        const Vec3 cr = ca.rotations[ca.key(0, j)];
        // The prediction's roots are before studiomdl's own 90 degrees about Z.
        const Eigen::Quaterniond qa = Eigen::Quaterniond(Eigen::AngleAxisd(
                                          3.14159265358979323846 / 2, Eigen::Vector3d::UnitZ())) *
                                      eulerToQuaternion(pr);
        const Eigen::Quaterniond qb = eulerToQuaternion(cr);
        if (std::fabs(qa.dot(qb)) < 0.9999) { // about 1.6 degrees: not a shift alone
            return;
        }
        shifts.push_back(ca.positions[ca.key(0, j)] -
                         compiledSpace(pa.positions[pa.key(0, it->second)]));
    }
    if (shifts.empty() || shifts.front().norm() < 0.05f) {
        return;
    }
    for (const Vec3& d : shifts) {
        // Half floats (Vector48) keep 11 bits: 0.004 near 8.
        if ((d - shifts.front()).norm() > 0.02f) {
            return;
        }
    }
    Vec3 mean = Vec3::Zero();
    for (const Vec3& d : shifts) {
        mean += d;
    }
    mean /= static_cast<float>(shifts.size());
    const auto rounded = [](const Vec3& v) {
        return Vec3(std::round(v.x() * 100.0f) / 100.0f, std::round(v.y() * 100.0f) / 100.0f,
                    std::round(v.z() * 100.0f) / 100.0f);
    };
    std::string text =
        "sequence '" + (info.sequences.empty() ? std::string() : info.sequences[0].name) +
        "' has all " + std::to_string(shifts.size()) + " root bones " + vec3Text(rounded(mean)) +
        " (compiled space) from where the QC's $origin puts them at frame 0";
    if (qc.project.originRotation == 0.0f && qc.project.upAxis.empty()) {
        // Without a turn of the roots the shift is the QC's origin less the compiled one, in
        // the compiled model's space ((x, y, z) -> (-y, x, z)).
        const Vec3 origin = qc.project.origin - Vec3(mean.y(), -mean.x(), mean.z());
        text += ", as $origin " + vec3Text(rounded(origin)) + " would";
    }
    reasons.push_back(text + ": built with another $origin (studiomdl takes it off every root "
                             "bone as written, after $scale: BuildRawTransforms)");
}

} // namespace

CompareReport compareQcToCompiled(const std::string& qcPath, const std::string& mdlPath,
                                  const CompareOptions& options)
{
    CompareReport r;
    r.qcPath = qcPath;
    r.mdlPath = mdlPath;
    const QcReport qc = qcReportFromFile(qcPath, options.profile);
    if (!qc.readable) {
        r.error = "cannot open '" + qcPath + "': " + qc.ioError;
        return r;
    }
    OpenOptions oo;
    oo.profile = options.profile;
    const OpenedInput in = openInput(mdlPath, oo);
    if (!in.readable) {
        r.error = in.error;
        return r;
    }
    if (!in.compiled) {
        r.error = "'" + mdlPath + "' is not a compiled model";
        return r;
    }
    r.ok = true;
    r.compiled = *in.compiled;
    // Predicted as the studiomdl of the compiled model's version would build it.
    HullSides hullSides{};
    r.predicted = predictCompiled(qc, r.compiled.version,
                                  r.compiled.version == 44 &&
                                      lodsJoinedNarrowly(mdlPath, in.result.model, r.compiled.lods),
                                  &hullSides);
    for (const Diagnostic& d : qc.diagnostics) {
        if (d.severity == Severity::Error) {
            r.diagnostics.push_back(d);
        }
    }
    // Stale: a companion whose checksum is not the .mdl's, a project file newer than the .mdl.
    for (const Diagnostic& d : in.result.diagnostics) {
        r.diagnostics.push_back(d);
        if (d.id == ids::kCompiledChecksumMismatch) {
            r.staleReasons.push_back(d.message);
        }
    }
    if (!options.ignoreTimestamps) {
        namespace fs = std::filesystem;
        std::error_code ec;
        const auto built = fs::last_write_time(fs::path(mdlPath), ec);
        if (!ec) {
            std::vector<std::string> sources{qcPath};
            for (const QcFileRef& f : qc.project.files) {
                if (!f.resolved.empty()) {
                    sources.push_back(f.resolved);
                }
            }
            const fs::path qcDir = fs::path(qcPath).parent_path();
            for (const QcPath& inc : qc.project.includes) {
                const fs::path dir =
                    inc.at.file.empty() ? qcDir : fs::path(inc.at.file).parent_path();
                sources.push_back((dir / fs::path(inc.path)).string());
            }
            std::sort(sources.begin(), sources.end());
            sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
            for (const std::string& s : sources) {
                std::error_code e2;
                const auto t = fs::last_write_time(fs::path(s), e2);
                if (!e2 && t > built) {
                    r.staleReasons.push_back("'" + s + "' is newer than '" + mdlPath + "'");
                }
            }
        }
    }
    sourceNamesDiffer(r.predicted, r.compiled, r.staleReasons);
    originDiffers(qc, in.result, r.compiled, r.staleReasons);
    r.differences = compareCompiled(r.predicted, r.compiled);
    const bool geometryUnread =
        std::any_of(in.result.diagnostics.begin(), in.result.diagnostics.end(),
                    [](const Diagnostic& d) { return d.id == ids::kCompiledUnreadCompanion; });
    if (geometryUnread) {
        // A Pathos .mdl holds no meshes and a placeholder texture: its .vbm has them.
        std::erase_if(r.differences, [](const CompareDifference& d) {
            const std::string_view f = d.field;
            return f == "materialNames" || f.starts_with("skins") ||
                   (f.starts_with("bodyparts[") &&
                    (f.ends_with(".vertices") || f.ends_with(".triangles")));
        });
        r.notCompared.push_back("vertices, triangles, materials and skins: the compiled model "
                                "keeps them in its .vbm, which RigScope does not read");
    }
    const bool vphysicsHull = hullWithinVphysicsRounding(r.predicted, r.compiled, hullSides);
    for (CompareDifference& d : r.differences) {
        d.stale = !r.staleReasons.empty();
        d.vphysics = !d.stale && d.field == "hull" && vphysicsHull;
    }
    return r;
}

std::string compareJson(const CompareReport& r)
{
    JsonWriter w;
    w.beginObject();
    w.key("qc").value(r.qcPath);
    w.key("mdl").value(r.mdlPath);
    if (!r.ok) {
        w.key("error").value(r.error);
        w.endObject();
        return w.take() + "\n";
    }
    w.key("stale").beginArray();
    for (const std::string& s : r.staleReasons) {
        w.value(s);
    }
    w.endArray();
    w.key("notCompared").beginArray();
    for (const std::string& s : r.notCompared) {
        w.value(s);
    }
    w.endArray();
    w.key("predicted").beginObject();
    w.key("bones").value(static_cast<std::uint64_t>(r.predicted.bones.size()));
    writeCompiledJson(w, r.predicted);
    w.endObject();
    w.key("compiled").beginObject();
    w.key("bones").value(static_cast<std::uint64_t>(r.compiled.bones.size()));
    writeCompiledJson(w, r.compiled);
    w.endObject();
    w.key("differences").beginArray();
    for (const CompareDifference& d : r.differences) {
        w.beginObject();
        w.key("field").value(d.field);
        w.key("predicted").value(d.predicted);
        w.key("compiled").value(d.compiled);
        w.key("verdict").value(d.stale ? "stale" : (d.vphysics ? "vphysics" : "differs"));
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.take() + "\n";
}

std::string compareText(const CompareReport& r)
{
    if (!r.ok) {
        return std::string();
    }
    std::string o;
    for (const std::string& s : r.staleReasons) {
        o += "stale: " + s + "\n";
    }
    for (const std::string& s : r.notCompared) {
        o += "not compared: " + s + "\n";
    }
    std::size_t stale = 0, vphysics = 0;
    for (const CompareDifference& d : r.differences) {
        o += d.field + ": predicted " + d.predicted + ", compiled " + d.compiled +
             (d.stale ? " [stale]" : (d.vphysics ? " [vphysics]" : "")) + "\n";
        stale += d.stale ? 1 : 0;
        vphysics += d.vphysics ? 1 : 0;
    }
    const std::size_t n = r.differences.size();
    if (n == 0) {
        o += "no difference: the prediction matches '" + r.mdlPath + "'\n";
    } else {
        o += std::to_string(n) + " difference" + (n == 1 ? "" : "s");
        if (stale > 0) {
            o += " (" + (stale == n ? std::string("all") : std::to_string(stale)) +
                 " stale: the compiled model was not built from these sources as they are "
                 "now; see the reasons above)";
        }
        if (vphysics > 0) {
            o += " (" + (vphysics == n ? std::string("all") : std::to_string(vphysics)) +
                 " vphysics: the collision model's hull sides, each within IVP's 1 cm merge "
                 "distance; vphysics keeps some of its corners by roundoff, which no prediction "
                 "gives)";
        }
        o += "\n";
    }
    return o;
}

int compareExitCode(const CompareReport& r) noexcept
{
    if (!r.ok) {
        return 2;
    }
    for (const CompareDifference& d : r.differences) {
        if (!d.stale && !d.vphysics) {
            return 1;
        }
    }
    return 0;
}

} // namespace rigscope::core
