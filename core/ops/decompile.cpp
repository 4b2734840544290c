#include "core/ops/decompile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <set>

#include <Eigen/Geometry>

#include "core/build/model_builder.h"
#include "core/checks/check_util.h"
#include "core/formats/bmp/bmp_writer.h"
#include "core/formats/mdl/compiled_files.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/mdl/vvd_vertices.h"
#include "core/formats/smd/smd_writer.h"
#include "core/io/file_buffer.h"
#include "core/io/make_directory.h"
#include "core/model/format_id.h"
#include "core/model/rotation.h"
#include "core/ops/decompile_textures.h"
#include "core/text/ascii.h"
#include "core/text/numbers.h"
#include "core/text/plural.h"

namespace rigscope::core {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr std::int32_t kStaticPropFlag = 0x10; // STUDIOHDR_FLAGS_STATIC_PROP

std::string num(float v)
{
    if (std::fabs(v) < 1e-6f) {
        return "0"; // no "-0"
    }
    return formatFloat(v);
}

std::string num(double v)
{
    return num(static_cast<float>(v));
}

std::string vec(const Vec3& v)
{
    return num(v.x()) + " " + num(v.y()) + " " + num(v.z());
}

std::string quoted(std::string_view s)
{
    std::string out = "\"";
    for (const char c : s) {
        out.push_back(c == '"' || c == '\n' || c == '\r' ? '\'' : c);
    }
    out.push_back('"');
    return out;
}

// A file name from a compiled name: path separators and characters a QC or a file system
// dislikes become '_'.
std::string safeName(std::string_view s)
{
    std::string out;
    for (const char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        out.push_back(ok ? c : '_');
    }
    if (out.empty() || out == "." || out == "..") {
        out = "unnamed";
    }
    return out;
}

// True when `path` ('/'-separated) names a file inside the QC's folder that a file system
// takes as written: relative, no empty, "." or ".." part, no drive and no character Windows
// refuses. A texture's file is written under its exact name (the SMDs name it), or not at all.
bool projectFilePath(std::string_view path)
{
    if (path.empty() || path.front() == '/' || path.back() == '/') {
        return false;
    }
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        if (part.empty() || part == "." || part == ".." || part.back() == ' ' ||
            part.back() == '.') {
            return false;
        }
        start = end + 1;
    }
    return std::none_of(path.begin(), path.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || std::strchr("<>:\"|?*", c) != nullptr;
    });
}

// The file a compiled model's source name is written to, relative to the QC: the name as
// studiomdl stored it (folders kept, '\\' as '/') where that is a file inside the project's
// folder, so that the recompile stores the same name; else a flat safe name (an absolute path,
// a drive, "..", a character a file system refuses; for GoldSrc, whose studiomdl appends
// ".smd" to every name, a dot, which RigScope's reader takes for an extension). `kept` says
// which.
std::string sourceFileStem(std::string_view name, bool goldsrc, bool& kept)
{
    std::string path(name);
    std::replace(path.begin(), path.end(), '\\', '/');
    const auto fileChar = [goldsrc](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-' || c == ' ' || c == '(' || c == ')' || c == '[' || c == ']' ||
               c == '+' || c == ',' || c == '&' || c == '!' || c == '~' || (c == '.' && !goldsrc);
    };
    kept = !path.empty() && path.front() != '/' && path.back() != '/';
    std::size_t start = 0;
    while (kept && start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part(path.data() + start, end - start);
        kept = !part.empty() && part.front() != '.' && part.front() != ' ' && part.back() != ' ' &&
               part.back() != '.' && std::all_of(part.begin(), part.end(), fileChar);
        start = end + 1;
    }
    if (kept) {
        return path;
    }
    std::string flat = safeName(path);
    for (char& c : flat) {
        c = c == '.' && goldsrc ? '_' : c;
    }
    if (flat.front() == '.') {
        flat.front() = '_';
    }
    return flat;
}

std::string withoutSmd(std::string s)
{
    if (s.size() > 4 && extensionLower(s) == "smd") {
        s.resize(s.size() - 4);
    }
    return s;
}

// True when the file name (after the last '/') holds a '.'.
bool hasDotInName(const std::string& path)
{
    const std::size_t slash = path.find_last_of('/');
    return path.find('.', slash == std::string::npos ? 0 : slash + 1) != std::string::npos;
}

std::string stemOf(const std::string& path)
{
    std::size_t slash = path.find_last_of("/\\");
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string folderOf(const std::string& path)
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// File names unique in the project (case-insensitive, as on Windows).
class Names {
public:
    std::string take(const std::string& want, const std::string& ext)
    {
        std::string lower;
        for (int n = 1;; ++n) {
            std::string name = n == 1 ? want + ext : want + "_" + std::to_string(n) + ext;
            lower = name;
            for (char& c : lower) {
                c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
            }
            if (m_used.insert(lower).second) {
                return name;
            }
        }
    }

private:
    std::set<std::string> m_used;
};

// The space the decompiled files are written in: the compiled model's (the compiled pairs
// show studiomdl keeps the sources' points and bones as they are). Kept as a transform for
// `$upaxis` / `$origin` projects, whose turn the .mdl does not record.
struct SourceSpace {
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    Vec3 point(const Vec3& v) const { return (q * v.cast<double>()).cast<float>(); }
};

struct Xf {
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    Eigen::Vector3d t = Eigen::Vector3d::Zero();
    Xf operator*(const Xf& b) const { return {q * b.q, q * b.t + t}; }
};

// The skeleton every decompiled SMD shares: the compiled bones, roots in source space.
struct Bones {
    Skeleton skeleton;
    std::vector<Xf> world;   // compiled bind, compiled space
    std::size_t renamed = 0; // bones without a name or with another's (a QC cannot tell them)
};

Bones bonesOf(const CompiledModelInfo& info)
{
    Bones b;
    Skeleton& s = b.skeleton;
    s.bindKind = PoseKind::LocalEulerXYZ;
    b.world.resize(info.bones.size());
    // Names that differ only in case are one bone to Source's studiomdl (findGlobalBone,
    // Q_stricmp) and two to GoldSrc's (SimplifyModel's findNode, strcmp; Afterburner's
    // austria_tree_dead_snow keeps TREE and tree).
    const bool goldsrc = info.engine == "goldsrc";
    const auto key = [goldsrc](const std::string& n) { return goldsrc ? n : asciiLower(n); };
    std::set<std::string> taken;
    for (std::size_t i = 0; i < info.bones.size(); ++i) {
        const CompiledBone& bone = info.bones[i];
        const bool parentOk = bone.parent >= 0 && static_cast<std::size_t>(bone.parent) < i;
        std::string name = bone.name;
        if (name.empty() || !taken.insert(key(name)).second) {
            for (int n = 1; !taken
                                 .insert(key(name = "bone_" + std::to_string(i) +
                                                    (n == 1 ? "" : "_" + std::to_string(n))))
                                 .second;
                 ++n) {
            }
            ++b.renamed;
        }
        const JointIndex j =
            s.addJoint(name, parentOk ? bone.parent : kNoJoint, static_cast<std::int32_t>(i), {});
        const std::size_t ju = static_cast<std::size_t>(j);
        Vec3 p = bone.position, r = bone.rotation;
        const Xf local{eulerToQuaternion(r), p.cast<double>()};
        b.world[i] = parentOk ? b.world[static_cast<std::size_t>(bone.parent)] * local : local;
        s.bindPositions[ju] = p;
        s.bindRotations[ju] = r;
    }
    // A GoldSrc model of no bone (a null model: its source's bone held no vertex, so
    // SimplifyModel kept none) gets one unused bone, so that the SMDs have a skeleton: HL1
    // studiomdl crashes on a file with none and builds the same empty model from this one.
    if (goldsrc && info.bones.empty()) {
        const JointIndex j = s.addJoint("root", kNoJoint, 0, {});
        s.bindPositions[static_cast<std::size_t>(j)] = Vec3::Zero();
        s.bindRotations[static_cast<std::size_t>(j)] = Vec3::Zero();
        b.world.emplace_back();
    }
    return b;
}

// The $texturegroup columns in the order that gives the compiled texture numbers back. The
// compiler numbers a texture the group names for the first time as it meets it, row by row and
// column by column (HL1 Cmd_TextureGroup's lookup_texture; the textures of row 0 the bodies
// numbered already): within a row, the columns whose texture is new come in the order of their
// compiled numbers (Half-Life's scientist.mdl numbers full_back_gore before full_front_gore,
// though the skin table has the front column first). Other columns keep their place; an order
// no column order can give leaves the columns as they are.
std::vector<std::size_t>
texturegroupColumnOrder(const std::vector<std::vector<std::int32_t>>& skins,
                        std::vector<std::size_t> columns)
{
    const std::size_t n = columns.size();
    const auto at = [&skins](std::size_t row, std::size_t c) {
        return c < skins[row].size() ? skins[row][c] : std::int32_t(-1);
    };
    std::vector<std::vector<std::size_t>> after(n); // after[a]: the columns that follow a
    std::vector<std::size_t> before(n, 0);
    std::set<std::int32_t> seen;
    for (std::size_t k = 0; k < n; ++k) {
        seen.insert(at(0, columns[k]));
    }
    for (std::size_t row = 1; row < skins.size(); ++row) {
        std::vector<std::pair<std::int32_t, std::size_t>> fresh; // (texture, column slot)
        for (std::size_t k = 0; k < n; ++k) {
            const std::int32_t t = at(row, columns[k]);
            if (t >= 0 && !seen.count(t) &&
                std::none_of(fresh.begin(), fresh.end(),
                             [t](const auto& f) { return f.first == t; })) {
                fresh.emplace_back(t, k);
            }
        }
        std::sort(fresh.begin(), fresh.end());
        for (std::size_t i = 1; i < fresh.size(); ++i) {
            after[fresh[i - 1].second].push_back(fresh[i].second);
            ++before[fresh[i].second];
        }
        for (const auto& f : fresh) {
            seen.insert(f.first);
        }
    }
    std::vector<std::size_t> order;
    std::vector<char> placed(n, 0);
    while (order.size() < n) {
        std::size_t next = n;
        for (std::size_t k = 0; k < n && next == n; ++k) {
            if (!placed[k] && before[k] == 0) {
                next = k;
            }
        }
        if (next == n) {
            return columns; // a cycle: no column order gives the compiled numbers
        }
        placed[next] = 1;
        order.push_back(columns[next]);
        for (const std::size_t b : after[next]) {
            --before[b];
        }
    }
    return order;
}

Animation bindFrame(const Skeleton& s)
{
    Animation a;
    a.kind = PoseKind::LocalEulerXYZ;
    a.jointCount = s.size();
    a.appendFrame(0, {});
    a.positions = s.bindPositions;
    a.rotations = s.bindRotations;
    a.explicitKey.assign(s.size(), 1);
    return a;
}

Model smdModel(const Skeleton& s, ModelKind kind)
{
    Model m;
    m.format = "smd";
    m.version = 1;
    m.kind = kind;
    m.lineEnding = LineEnding::LF;
    m.skeleton = s;
    return m;
}

std::string smdBytes(const Model& m, const std::string& name, std::vector<std::string>& notes)
{
    WriteContext ctx;
    ctx.fileName = name;
    WriteResult w = writeSmd(m, ctx);
    for (const Diagnostic& d : w.diagnostics) {
        if (d.severity == Severity::Error) {
            notes.push_back(name + ": " + d.message);
        }
    }
    return std::move(w.bytes);
}

// One reference SMD: the triangles of mesh object `object` of `src` (a compiled read), one
// point per vertex they use, in source space; `corners` gets, per triangle corner written, the
// corner of `src` it came from.
// A .vvd vertex no .vtx triangle uses, with the material of its .mdl mesh.
struct LoneVertex {
    std::uint32_t point = 0;
    std::uint32_t material = 0;
    VvdSurface surface;
};

Model referenceOf(const Model& src, std::int32_t object, const Skeleton& s,
                  const SourceSpace& space, bool flipV, std::vector<std::uint32_t>* corners,
                  bool byMaterial = false, const std::vector<LoneVertex>& lone = {})
{
    Model m = smdModel(s, ModelKind::Reference);
    m.animations.push_back(bindFrame(s));
    const Mesh& me = src.mesh;
    Mesh& out = m.mesh;
    std::map<std::uint32_t, std::uint32_t> materialOf;
    std::vector<std::int32_t> pointOf(me.pointCount(), -1);
    // GoldSrc's studiomdl numbers textures in the order the body SMDs first use them: written
    // by texture, the triangles give the compiled numbering back.
    std::vector<std::size_t> order(me.triangleCount());
    for (std::size_t t = 0; t < order.size(); ++t) {
        order[t] = t;
    }
    if (byMaterial) {
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return me.triangleMaterials[a] < me.triangleMaterials[b];
        });
    }
    const auto materialFor = [&](std::uint32_t srcMat) {
        auto it = materialOf.find(srcMat);
        if (it == materialOf.end()) {
            Material mat;
            mat.name = srcMat < me.materials.size() ? me.materials[srcMat].name : "default";
            if (mat.name.empty()) {
                mat.name = "default";
            }
            out.materials.push_back(std::move(mat));
            it = materialOf.emplace(srcMat, static_cast<std::uint32_t>(out.materials.size() - 1))
                     .first;
        }
        return it->second;
    };
    const auto pointFor = [&](std::uint32_t p) {
        if (pointOf[p] < 0) {
            const std::uint32_t links = me.influenceCount(p);
            const std::uint32_t first = links ? me.influenceOffsets[p] : 0;
            pointOf[p] = static_cast<std::int32_t>(out.pointCount());
            appendPoint(out, space.point(me.pointPositions[p]),
                        links == 0 ? (s.empty() ? kNoJoint : 0) : me.influenceJoints[first],
                        LinkState::List, me.influenceJoints.data() + first,
                        me.influenceWeights.data() + first, links, {});
        }
        return static_cast<std::uint32_t>(pointOf[p]);
    };
    const auto addSurface = [&](const Vec3& normal, const Vec2& uv) {
        out.cornerNormals.push_back(space.point(normal));
        out.cornerUvs.push_back(flipV ? Vec2(uv.x(), 1.0f - uv.y()) : uv);
        out.cornerWhere.push_back({});
    };
    for (const std::size_t t : order) {
        if (object >= 0 && (me.triangleObjects.size() != me.triangleCount() ||
                            me.triangleObjects[t] != static_cast<std::uint32_t>(object))) {
            continue;
        }
        const std::uint32_t material = materialFor(me.triangleMaterials[t]);
        for (std::size_t c = 3 * t; c < 3 * t + 3; ++c) {
            out.cornerPoints.push_back(pointFor(me.cornerPoints[c]));
            addSurface(me.cornerNormals[c], me.cornerUvs[c]);
            if (corners) {
                corners->push_back(static_cast<std::uint32_t>(c));
            }
        }
        out.triangleMaterials.push_back(material);
        out.triangleWhere.push_back({});
    }
    // studiomdl drops a triangle two of whose corners weld into one vertex, but the third
    // vertex it made for it stays in the .vvd (no face, so a zero tangent): written as a
    // triangle of that one vertex, which the recompile drops the same way. A zero normal
    // welds with nothing (three corners would be three vertices and a kept triangle): its
    // other two corners are then a copy of a written corner of the material, twice.
    std::map<std::uint32_t, std::size_t> cornerOfMaterial; // a corner with a normal
    for (std::size_t c = 0; c < out.cornerCount(); ++c) {
        if (!out.cornerNormals[c].isZero(0)) {
            cornerOfMaterial.emplace(out.triangleMaterials[c / 3], c);
        }
    }
    for (const LoneVertex& v : lone) {
        const std::uint32_t material = materialFor(v.material);
        const std::uint32_t p = pointFor(v.point);
        out.cornerPoints.push_back(p);
        addSurface(v.surface.normal, v.surface.uv);
        const auto other = cornerOfMaterial.find(material);
        for (int k = 1; k < 3; ++k) {
            if (v.surface.normal.isZero(0) && other != cornerOfMaterial.end()) {
                const std::size_t c = other->second;
                const std::uint32_t q = out.cornerPoints[c];
                const Vec3 n = out.cornerNormals[c];
                const Vec2 uv = out.cornerUvs[c];
                out.cornerPoints.push_back(q);
                out.cornerNormals.push_back(n);
                out.cornerUvs.push_back(uv);
                out.cornerWhere.push_back({});
            } else {
                out.cornerPoints.push_back(p);
                addSurface(v.surface.normal, v.surface.uv);
            }
        }
        out.triangleMaterials.push_back(material);
        out.triangleWhere.push_back({});
    }
    return m;
}

// Points of a written reference that studiomdl's weld would join though the .vvd holds them
// apart (lookup_index: material, exact position and UV, weights, normals within 2°): a DMX
// source keeps its indices apart, equal or not, and the SMD of another compile may have held
// them a float step apart. Each point after the first of its weld gets its u a float step or
// a few off (u is compared exactly, and nothing else reads it), so the recompile keeps it
// apart too: else NvTriStrip would also drop the triangle copies they made. `largest` is the
// largest change of u.
struct KeptApart {
    std::size_t points = 0;
    float largest = 0;
};

float uStepped(float u, std::uint32_t steps)
{
    // Below 2^-10 a float step is too small to write well: steps of 2^-33 there.
    constexpr float kSmall = 1.0f / 1024.0f, kSmallStep = 1.0f / 8589934592.0f;
    for (std::uint32_t k = 0; k < steps; ++k) {
        u = std::fabs(u) < kSmall ? u + kSmallStep
                                  : std::nextafter(u, std::numeric_limits<float>::infinity());
    }
    return u;
}

KeptApart keepWeldedApart(Model& m)
{
    KeptApart out;
    Mesh& me = m.mesh;
    std::vector<float> original;
    std::set<std::uint32_t> moved;
    for (int pass = 0; pass < 8; ++pass) {
        const checks::WeldStats w = checks::weldStats(m, Profile::Source, 0, 0, true);
        std::vector<std::uint32_t> first(w.vertices, UINT32_MAX), others(w.vertices, 0);
        std::map<std::uint32_t, std::uint32_t> steps; // point -> its place after the first
        for (std::size_t c = 0; c < me.cornerCount() && c < w.cornerVertex.size(); ++c) {
            const std::uint32_t v = w.cornerVertex[c], p = me.cornerPoints[c];
            if (first[v] == UINT32_MAX) {
                first[v] = p;
            } else if (first[v] != p && steps.find(p) == steps.end()) {
                steps.emplace(p, ++others[v]);
            }
        }
        if (steps.empty()) {
            break;
        }
        if (original.empty()) {
            original.resize(me.cornerCount());
            for (std::size_t c = 0; c < me.cornerCount(); ++c) {
                original[c] = me.cornerUvs[c].x();
            }
        }
        for (std::size_t c = 0; c < me.cornerCount(); ++c) {
            const auto it = steps.find(me.cornerPoints[c]);
            if (it != steps.end()) {
                me.cornerUvs[c].x() = uStepped(me.cornerUvs[c].x(), it->second);
                moved.insert(it->first);
                out.largest = std::max(out.largest, std::fabs(me.cornerUvs[c].x() - original[c]));
            }
        }
    }
    out.points = moved.size();
    return out;
}

// What studiomdl's UnifyLODs left of a LOD's bone replacements (`replacebone`, and
// `bonetreecollapse`, which is replacebone for every bone below one). A LOD vertex within
// tolerance of a LOD 0 vertex becomes that vertex, weights and all, and then its weights move
// by the replacements; where they changed the .vvd holds a vertex of its own, LOD 0's position,
// normal and UV with the moved weights. Such a twin says where each replaced bone went.
struct LodBones {
    // Per point of the LOD read: its LOD 0 twin (the vertex with LOD 0's weights), or itself.
    std::vector<std::uint32_t> twin;
    std::vector<std::pair<JointIndex, JointIndex>> replace; // bone -> the bone it became
    std::size_t own = 0; // the LOD's vertices that are neither LOD 0's nor a twin of one
};

using Weights = std::vector<std::pair<JointIndex, float>>;

Weights weightsOf(const Mesh& m, std::uint32_t p)
{
    Weights w;
    if (m.influenceOffsets.empty()) {
        return w;
    }
    for (std::uint32_t i = m.influenceOffsets[p]; i < m.influenceOffsets[p + 1]; ++i) {
        if (m.influenceWeights[i] > 0.0f && m.influenceJoints[i] >= 0) {
            w.emplace_back(m.influenceJoints[i], m.influenceWeights[i]);
        }
    }
    return w;
}

float weightOn(const Weights& w, JointIndex j)
{
    float sum = 0.0f;
    for (const auto& [bone, weight] : w) {
        sum += bone == j ? weight : 0.0f;
    }
    return sum;
}

// A corner's vertex as the .vvd holds it: the bits of its position, normal and UV.
using VertexKey = std::array<std::uint32_t, 8>;
VertexKey keyOf(const Mesh& m, std::size_t c)
{
    const auto bitsOf = [](float f) {
        std::uint32_t u = 0;
        std::memcpy(&u, &f, 4);
        return u;
    };
    const Vec3& p = m.pointPositions[m.cornerPoints[c]];
    const Vec3& n = m.cornerNormals[c];
    const Vec2& uv = m.cornerUvs[c];
    return VertexKey{bitsOf(p.x()), bitsOf(p.y()), bitsOf(p.z()),  bitsOf(n.x()),
                     bitsOf(n.y()), bitsOf(n.z()), bitsOf(uv.x()), bitsOf(uv.y())};
}

LodBones lodBonesOf(const Model& lod0, const Model& lod, const Skeleton& s)
{
    const Mesh& m0 = lod0.mesh;
    const Mesh& ml = lod.mesh;
    LodBones out;
    out.twin.resize(ml.pointCount());
    for (std::uint32_t p = 0; p < ml.pointCount(); ++p) {
        out.twin[p] = p;
    }
    // Both reads number the points as the .vvd does: the same point is the same vertex.
    if (m0.pointCount() != ml.pointCount()) {
        return out;
    }
    // LOD 0's vertices by position, normal and UV; equal ones (kept apart: keepWeldedApart)
    // each take the LOD's copies of that key in turn.
    std::map<VertexKey, std::vector<std::uint32_t>> root;
    std::map<VertexKey, std::size_t> taken;
    std::vector<char> rootPoint(m0.pointCount(), 0);
    std::set<JointIndex> used0, usedL;
    for (std::size_t c = 0; c < m0.cornerCount(); ++c) {
        const std::uint32_t p = m0.cornerPoints[c];
        if (!rootPoint[p]) {
            root[keyOf(m0, c)].push_back(p);
            rootPoint[p] = 1;
            for (const auto& [bone, weight] : weightsOf(m0, p)) {
                used0.insert(bone);
            }
        }
    }
    std::vector<char> seen(ml.pointCount(), 0);
    for (std::size_t c = 0; c < ml.cornerCount(); ++c) {
        const std::uint32_t p = ml.cornerPoints[c];
        if (!seen[p]) {
            seen[p] = 1;
            for (const auto& [bone, weight] : weightsOf(ml, p)) {
                usedL.insert(bone);
            }
        }
        if (rootPoint[p] || out.twin[p] != p) {
            continue;
        }
        const VertexKey key = keyOf(ml, c);
        const auto it = root.find(key);
        if (it != root.end()) {
            out.twin[p] = it->second[taken[key]++ % it->second.size()];
        }
    }
    for (std::uint32_t p = 0; p < ml.pointCount(); ++p) {
        out.own += seen[p] && !rootPoint[p] && out.twin[p] == p ? 1u : 0u;
    }
    std::set<JointIndex> replaced; // bones LOD 0's vertices use and the LOD's none
    std::set_difference(used0.begin(), used0.end(), usedL.begin(), usedL.end(),
                        std::inserter(replaced, replaced.end()));
    if (replaced.empty()) {
        return out;
    }
    // Each twin votes, for each replaced bone its LOD 0 vertex weighs, for the bone that
    // gained that weight.
    std::map<JointIndex, std::map<JointIndex, std::size_t>> votes;
    for (std::uint32_t p = 0; p < ml.pointCount(); ++p) {
        if (!seen[p] || out.twin[p] == p) {
            continue;
        }
        const Weights u = weightsOf(m0, out.twin[p]);
        const Weights v = weightsOf(ml, p);
        std::vector<std::pair<JointIndex, float>> gone;
        for (const auto& [bone, weight] : u) {
            if (replaced.count(bone) != 0) {
                gone.emplace_back(bone, weight);
            }
        }
        if (gone.empty()) {
            continue;
        }
        std::vector<std::pair<JointIndex, float>> gained;
        for (const auto& [bone, weight] : v) {
            const float d = weight - weightOn(u, bone);
            if (d > 1e-4f) {
                gained.emplace_back(bone, d);
            }
        }
        if (gained.empty()) {
            continue;
        }
        for (const auto& [bone, weight] : gone) {
            JointIndex to = kNoJoint;
            if (gained.size() == 1) {
                to = gained.front().first;
            } else if (gone.size() == 1) {
                to = std::max_element(
                         gained.begin(), gained.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; })
                         ->first;
            } else {
                std::size_t fits = 0;
                for (const auto& [t, d] : gained) {
                    if (std::fabs(d - weight) < 2e-3f) {
                        to = t;
                        ++fits;
                    }
                }
                to = fits == 1 ? to : kNoJoint;
            }
            if (to != kNoJoint) {
                ++votes[bone][to];
            }
        }
    }
    for (const JointIndex b : replaced) {
        JointIndex to = kNoJoint;
        const auto it = votes.find(b);
        if (it != votes.end()) {
            std::size_t best = 0;
            for (const auto& [t, n] : it->second) {
                if (n > best) {
                    best = n;
                    to = t;
                }
            }
        } else {
            // No vertex tells: the nearest ancestor the LOD uses, as bonetreecollapse would.
            for (JointIndex a = static_cast<std::size_t>(b) < s.size()
                                    ? s.parents[static_cast<std::size_t>(b)]
                                    : kNoJoint;
                 a != kNoJoint; a = s.parents[static_cast<std::size_t>(a)]) {
                if (usedL.count(a) != 0) {
                    to = a;
                    break;
                }
            }
        }
        if (to != kNoJoint && to != b) {
            out.replace.emplace_back(b, to);
        }
    }
    return out;
}

// The LOD vertices whose weights one bone map per LOD cannot give. studiomdl's UnifyLODs
// (CreateLODVertsInDictionary) gives a LOD vertex the weights of the LOD 0 vertex it matches
// or lies nearest (CalculateBoneWeightFromRootLod), or of an earlier LOD's vertex it matches
// (CalculateIdealVert), then moves them by the LOD's bone map (BuildBoneLODMapping): a bone
// the LOD's triangles still use is not in that map, so it keeps at least its weight. A vertex
// first used by a LOD with the position, normal and UV of vertices used before it, but which
// lacks (or weighs less) a bone each of them has and its LOD still uses, came from a compiler
// that kept the LOD files' own weights. `lods` are read as `lod0` is: the same points.
std::size_t lodWeightsNoMapGives(const Model& lod0, const std::vector<Model>& lods)
{
    const Mesh& m0 = lod0.mesh;
    std::vector<char> used(m0.pointCount(), 0);
    std::map<VertexKey, std::vector<std::uint32_t>> before; // points used so far, by key
    for (std::size_t c = 0; c < m0.cornerCount(); ++c) {
        const std::uint32_t p = m0.cornerPoints[c];
        if (!used[p]) {
            used[p] = 1;
            before[keyOf(m0, c)].push_back(p);
        }
    }
    std::size_t count = 0;
    for (const Model& lod : lods) {
        const Mesh& ml = lod.mesh;
        if (ml.pointCount() != m0.pointCount()) {
            continue;
        }
        std::set<JointIndex> bones; // the bones this LOD's vertices use
        std::vector<char> seen(ml.pointCount(), 0);
        std::vector<std::pair<std::uint32_t, VertexKey>> fresh;
        for (std::size_t c = 0; c < ml.cornerCount(); ++c) {
            const std::uint32_t p = ml.cornerPoints[c];
            if (seen[p]) {
                continue;
            }
            seen[p] = 1;
            for (const auto& [bone, weight] : weightsOf(ml, p)) {
                bones.insert(bone);
            }
            if (!used[p]) {
                fresh.emplace_back(p, keyOf(ml, c));
            }
        }
        for (const auto& [p, key] : fresh) {
            const auto it = before.find(key);
            if (it == before.end()) {
                continue;
            }
            const Weights w = weightsOf(ml, p);
            const bool given =
                std::any_of(it->second.begin(), it->second.end(), [&](std::uint32_t q) {
                    const Weights from = weightsOf(m0, q);
                    return std::all_of(from.begin(), from.end(), [&](const auto& bw) {
                        return bones.count(bw.first) == 0 ||
                               weightOn(w, bw.first) >= weightOn(from, bw.first) - 1e-4f;
                    });
                });
            count += given ? 0u : 1u;
        }
        for (const auto& [p, key] : fresh) {
            used[p] = 1;
            before[key].push_back(p);
        }
    }
    return count;
}

// The VTA of one reference: frame 0 every corner of the SMD, then one frame per flex shape of
// `src` (vertexFrames 1..) that moves any of them.
Model vtaOf(const Model& src, const Model& ref, const std::vector<std::uint32_t>& corners,
            const SourceSpace& space, std::vector<std::string>& shapeNames)
{
    Model m = smdModel(ref.skeleton, ModelKind::Flex);
    std::map<std::uint32_t, std::int32_t> local;
    for (std::size_t i = 0; i < corners.size(); ++i) {
        local.emplace(corners[i], static_cast<std::int32_t>(i));
    }
    VertexFrame base;
    base.time = 0;
    for (std::size_t i = 0; i < corners.size(); ++i) {
        base.ids.push_back(static_cast<std::int32_t>(i));
        base.positions.push_back(ref.mesh.pointPositions[ref.mesh.cornerPoints[i]]);
        base.normals.push_back(ref.mesh.cornerNormals[i]);
    }
    m.vertexFrames.push_back(std::move(base));
    for (std::size_t k = 1; k < src.vertexFrames.size(); ++k) {
        const VertexFrame& f = src.vertexFrames[k];
        VertexFrame out;
        for (std::size_t i = 0; i < f.ids.size(); ++i) {
            const auto it = local.find(static_cast<std::uint32_t>(f.ids[i]));
            if (it == local.end()) {
                continue;
            }
            out.ids.push_back(it->second);
            out.positions.push_back(space.point(f.positions[i]));
            out.normals.push_back(space.point(f.normals[i]));
        }
        if (out.ids.empty()) {
            continue;
        }
        out.time = static_cast<double>(m.vertexFrames.size());
        out.name = f.name;
        out.nameFromComment = true;
        shapeNames.push_back(f.name);
        m.vertexFrames.push_back(std::move(out));
    }
    Animation a;
    a.kind = PoseKind::LocalEulerXYZ;
    a.jointCount = m.skeleton.size();
    for (const VertexFrame& f : m.vertexFrames) {
        a.appendFrame(f.time, {});
        const std::size_t k0 = a.key(a.frameCount() - 1, 0);
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            a.positions[k0 + j] = m.skeleton.bindPositions[j];
            a.rotations[k0 + j] = m.skeleton.bindRotations[j];
            a.explicitKey[k0 + j] = 1;
        }
    }
    m.animations.push_back(std::move(a));
    return m;
}

// The collision model: every convex piece of every solid, in source space, weighted to its
// solid's bone. Pieces keep their own corners, so none welds into another.
// The order a piece's triangles are written in. studiomdl tests each island for "2-dimensional
// geometry" along the normal of its first three points (IsApproximatelyPlanar, 0.5 inch; SDK
// 2013's ProcessSingleBody then drops a flat whole mesh, the 2006 one kept its bounding hull):
// a piece thinner than that but wider goes first with the triangle across which it spreads
// most, so that a recompile keeps the hull the .phy has. Else the stored order.
std::vector<std::size_t> flatSafeOrder(const CompiledConvexPiece& piece)
{
    std::vector<std::size_t> order(piece.triangles.size());
    for (std::size_t t = 0; t < order.size(); ++t) {
        order[t] = t;
    }
    const auto spread = [&](std::size_t t) {
        const auto& tri = piece.triangles[t];
        for (const std::int32_t v : tri) {
            if (v < 0 || static_cast<std::size_t>(v) >= piece.vertices.size()) {
                return 0.0;
            }
        }
        const Eigen::Vector3d a = piece.vertices[std::size_t(tri[0])].cast<double>();
        Eigen::Vector3d n = (piece.vertices[std::size_t(tri[1])].cast<double>() - a)
                                .cross(piece.vertices[std::size_t(tri[2])].cast<double>() - a);
        if (n.norm() <= 0.001) {
            return 0.0;
        }
        n.normalize();
        double lo = n.dot(a), hi = lo;
        for (const Vec3& v : piece.vertices) {
            const double d = n.dot(v.cast<double>());
            lo = std::min(lo, d);
            hi = std::max(hi, d);
        }
        return hi - lo;
    };
    constexpr double kFlat = 0.5; // studiomdl's g_epsilon_2d, with a margin below
    if (order.empty() || spread(0) > kFlat + 0.01) {
        return order;
    }
    std::size_t best = 0;
    for (std::size_t t = 1; t < order.size(); ++t) {
        if (spread(t) > spread(best)) {
            best = t;
        }
    }
    std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best),
                order.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    return order;
}

Model physicsOf(const CompiledModelInfo& info, const Bones& bones, const SourceSpace& space)
{
    Model m = smdModel(bones.skeleton, ModelKind::Reference);
    m.animations.push_back(bindFrame(bones.skeleton));
    Mesh& out = m.mesh;
    Material mat;
    mat.name = "phy";
    out.materials.push_back(mat);
    for (const CompiledPhysicsSolid& solid : info.physics.solids) {
        const JointIndex bone =
            solid.bone >= 0 && static_cast<std::size_t>(solid.bone) < info.bones.size()
                ? solid.bone
                : (info.bones.empty() ? kNoJoint : 0);
        const Xf w = bone == kNoJoint ? Xf{} : bones.world[static_cast<std::size_t>(bone)];
        const float one = 1.0f;
        for (const CompiledConvexPiece& piece : solid.pieces) {
            // One normal per corner: from the piece's centre out. studiomdl welds collision
            // vertices by position and normal, so a piece stays one island and a piece
            // touching another stays apart from it.
            Eigen::Vector3d centre = Eigen::Vector3d::Zero();
            for (const Vec3& v : piece.vertices) {
                centre += w.q * v.cast<double>() + w.t;
            }
            if (!piece.vertices.empty()) {
                centre /= static_cast<double>(piece.vertices.size());
            }
            const Vec3 c = space.point(centre.cast<float>());
            for (const std::size_t t : flatSafeOrder(piece)) {
                const auto& tri = piece.triangles[t];
                Vec3 p[3];
                bool ok = true;
                for (int k = 0; k < 3; ++k) {
                    const std::int32_t v = tri[static_cast<std::size_t>(k)];
                    if (v < 0 || static_cast<std::size_t>(v) >= piece.vertices.size()) {
                        ok = false;
                        break;
                    }
                    const Eigen::Vector3d world =
                        w.q * piece.vertices[static_cast<std::size_t>(v)].cast<double>() + w.t;
                    p[k] = space.point(world.cast<float>());
                }
                if (!ok) {
                    continue;
                }
                for (const Vec3& q : p) {
                    const Vec3 d = q - c;
                    appendPoint(out, q, bone, bone == kNoJoint ? LinkState::Zero : LinkState::List,
                                &bone, &one, bone == kNoJoint ? 0 : 1, {});
                    out.cornerPoints.push_back(static_cast<std::uint32_t>(out.pointCount() - 1));
                    out.cornerNormals.push_back(d.norm() > 0 ? Vec3(d.normalized())
                                                             : Vec3(0, 0, 1));
                    out.cornerUvs.push_back(Vec2::Zero());
                    out.cornerWhere.push_back({});
                }
                out.triangleMaterials.push_back(0);
                out.triangleWhere.push_back({});
            }
        }
    }
    return m;
}

std::string degrees(float radians)
{
    return num(static_cast<double>(radians) * 180.0 / kPi);
}

void writeJiggle(std::string& q, const std::string& bone, const JiggleParams& p)
{
    using JP = JiggleParams;
    q += "$jigglebone " + quoted(bone) + "\n{\n";
    auto tip = [&](const char* group) {
        q += std::string("\t") + group + "\n\t{\n";
        q += "\t\tlength " + num(p.length) + "\n";
        q += "\t\ttip_mass " + num(p.tipMass) + "\n";
        if (group == std::string_view("is_flexible")) {
            q += "\t\tyaw_stiffness " + num(p.yawStiffness) + "\n";
            q += "\t\tyaw_damping " + num(p.yawDamping) + "\n";
            q += "\t\tpitch_stiffness " + num(p.pitchStiffness) + "\n";
            q += "\t\tpitch_damping " + num(p.pitchDamping) + "\n";
            if (!(p.flags & JP::LengthConstraint)) {
                q += "\t\tallow_length_flex\n";
                q += "\t\talong_stiffness " + num(p.alongStiffness) + "\n";
                q += "\t\talong_damping " + num(p.alongDamping) + "\n";
            }
        }
        if (p.flags & JP::AngleConstraint) {
            q += "\t\tangle_constraint " + degrees(p.angleLimit) + "\n";
        }
        if (p.flags & JP::YawConstraint) {
            q += "\t\tyaw_constraint " + degrees(p.minYaw) + " " + degrees(p.maxYaw) + "\n";
            q += "\t\tyaw_friction " + num(p.yawFriction) + "\n";
            q += "\t\tyaw_bounce " + num(p.yawBounce) + "\n";
        }
        if (p.flags & JP::PitchConstraint) {
            q += "\t\tpitch_constraint " + degrees(p.minPitch) + " " + degrees(p.maxPitch) + "\n";
            q += "\t\tpitch_friction " + num(p.pitchFriction) + "\n";
            q += "\t\tpitch_bounce " + num(p.pitchBounce) + "\n";
        }
        q += "\t}\n";
    };
    if (p.flags & JP::Flexible) {
        tip("is_flexible");
    }
    if (p.flags & JP::Rigid) {
        tip("is_rigid");
    }
    if (p.flags & JP::BaseSpring) {
        q += "\thas_base_spring\n\t{\n";
        q += "\t\tstiffness " + num(p.baseStiffness) + "\n";
        q += "\t\tdamping " + num(p.baseDamping) + "\n";
        q += "\t\tbase_mass " + num(p.baseMass) + "\n";
        q += "\t\tleft_constraint " + num(p.baseMinLeft) + " " + num(p.baseMaxLeft) + "\n";
        q += "\t\tleft_friction " + num(p.baseLeftFriction) + "\n";
        q += "\t\tup_constraint " + num(p.baseMinUp) + " " + num(p.baseMaxUp) + "\n";
        q += "\t\tup_friction " + num(p.baseUpFriction) + "\n";
        q += "\t\tforward_constraint " + num(p.baseMinForward) + " " + num(p.baseMaxForward) + "\n";
        q += "\t\tforward_friction " + num(p.baseForwardFriction) + "\n";
        q += "\t}\n";
    }
    if (p.flags & JP::Boing) {
        q += "\tis_boing\n\t{\n";
        q += "\t\timpact_speed " + num(p.boingImpactSpeed) + "\n";
        q += "\t\timpact_angle " + num(p.boingImpactAngle) + "\n";
        q += "\t\tdamping_rate " + num(p.boingDampingRate) + "\n";
        q += "\t\tfrequency " + num(p.boingFrequency) + "\n";
        q += "\t\tamplitude " + num(p.boingAmplitude) + "\n";
        q += "\t}\n";
    }
    q += "}\n";
}

// `mdlkeyvalue { ... }` as stored: the inside of its braces for $keyvalues, up to the brace
// that closes them or the end (DayHard's candelabro_2 stores `mdlkeyvalue { prop_data {...}`
// without its last '}': cut at the last '}', its block lost its own), inner braces left
// open closed.
std::string keyValuesBody(const std::string& kv)
{
    const std::size_t open = kv.find('{');
    if (open == std::string::npos) {
        return kv;
    }
    int depth = 1;
    std::size_t i = open + 1;
    for (; i < kv.size(); ++i) {
        depth += kv[i] == '{' ? 1 : kv[i] == '}' ? -1 : 0;
        if (depth == 0) {
            break;
        }
    }
    std::string body = kv.substr(open + 1, i - open - 1);
    for (; depth > 1; --depth) {
        body += "\n}";
    }
    return body;
}

const char* goldsrcRenderMode(std::int32_t flags)
{
    if (flags & 0x40) {
        return "masked";
    }
    if (flags & 0x20) {
        return "additive";
    }
    if (flags & 0x02) {
        return "chrome";
    }
    if (flags & 0x04) {
        return "fullbright";
    }
    if (flags & 0x01) {
        return "flatshade";
    }
    return nullptr;
}

} // namespace

// The bone table GoldSrc's studiomdl builds from the written bodies (SimplifyModel, "union of
// all used bones"): model by model in $body order, each model's bones that a vertex uses (or a
// used bone's ancestor) in the order of its SMD's nodes, each name at its first use. The
// decompiled SMDs list the compiled bones in compiled order, so a compiled model built that way
// gives 0, 1, 2, ... back. Bones no model uses are not in it.
std::vector<JointIndex> goldsrcUnionOrder(const Model& read, const CompiledModelInfo& info,
                                          const Skeleton& sk)
{
    const Mesh& me = read.mesh;
    std::vector<JointIndex> order;
    std::vector<char> placed(sk.size(), 0);
    if (me.triangleObjects.size() != me.triangleCount()) {
        return order;
    }
    for (const std::vector<std::int32_t>& objects : info.choiceObjects) {
        for (const std::int32_t obj : objects) {
            if (obj < 0) {
                continue;
            }
            std::vector<char> used(sk.size(), 0);
            for (std::size_t t = 0; t < me.triangleCount(); ++t) {
                if (me.triangleObjects[t] != static_cast<std::uint32_t>(obj)) {
                    continue;
                }
                for (std::size_t c = 3 * t; c < 3 * t + 3; ++c) {
                    JointIndex b = me.pointParents[me.cornerPoints[c]];
                    while (b != kNoJoint && static_cast<std::size_t>(b) < sk.size() &&
                           !used[static_cast<std::size_t>(b)]) {
                        used[static_cast<std::size_t>(b)] = 1;
                        b = sk.parents[static_cast<std::size_t>(b)];
                    }
                }
            }
            for (std::size_t b = 0; b < sk.size(); ++b) {
                if (used[b] && !placed[b]) {
                    placed[b] = 1;
                    order.push_back(static_cast<JointIndex>(b));
                }
            }
        }
    }
    return order;
}

// GoldSrc's studiomdl keeps each point in its bone's space truncated to 0.01 (lookup_vertex,
// "(int)(x * 100) / 100.0"): the compiled value is the low end of a cell the source's point was
// anywhere in. Moved to the middle of that cell, a point lies at most 0.005 per axis from the
// source's, and a recompile truncates it back to the same value whatever the rounding of its
// transforms (at the low end, 0.39 read back as 0.38999998 became 0.38).
// `sharedCells` (when given) gets how many points share their model, bone and cell with an
// earlier point: GoldSrc's lookup_vertex would have made them one vertex.
Model snappedToCells(const Model& read, const Bones& bones, std::size_t* sharedCells = nullptr)
{
    Model m = read;
    Mesh& me = m.mesh;
    std::vector<std::uint32_t> objectOf(me.pointCount(), 0);
    for (std::size_t c = 0; c < me.cornerCount(); ++c) {
        if (me.triangleObjects.size() == me.triangleCount()) {
            objectOf[me.cornerPoints[c]] = me.triangleObjects[c / 3];
        }
    }
    std::set<std::array<std::int64_t, 5>> cells;
    for (std::size_t p = 0; p < me.pointCount(); ++p) {
        const JointIndex b = me.pointParents[p];
        if (b == kNoJoint || static_cast<std::size_t>(b) >= bones.world.size()) {
            continue;
        }
        const Xf& w = bones.world[static_cast<std::size_t>(b)];
        Eigen::Vector3d local = w.q.conjugate() * (me.pointPositions[p].cast<double>() - w.t);
        std::array<std::int64_t, 5> cell{objectOf[p], b, 0, 0, 0};
        for (int a = 0; a < 3; ++a) {
            const double k = std::round(local[a] * 100.0);
            local[a] = k == 0 ? 0.0 : (k + (k > 0 ? 0.5 : -0.5)) / 100.0;
            cell[std::size_t(a) + 2] = static_cast<std::int64_t>(std::clamp(k, -1e15, 1e15));
        }
        me.pointPositions[p] = (w.q * local + w.t).cast<float>();
        if (sharedCells && !cells.insert(cell).second) {
            ++*sharedCells;
        }
    }
    return m;
}

DecompiledProject decompileModel(const Model& read, const CompiledModelInfo& info,
                                 const std::vector<Model>& lodModels,
                                 const std::vector<float>& lodSwitchPoints,
                                 const std::string& qcName,
                                 const std::vector<VvdSurface>& vvdVertices,
                                 const DiskTextures& diskTextures)
{
    DecompiledProject out;
    std::vector<std::string>& notes = out.notes;
    const bool goldsrc = info.engine == "goldsrc";
    const bool staticProp = !goldsrc && (info.flags & kStaticPropFlag) != 0;
    SourceSpace space;
    // $illumposition and $eyeposition: studiomdl reads them turned 90° about Z ((x, y, z) ->
    // (-y, x, z)); the points, bones and boxes keep the sources' frame.
    const auto qcPoint = [goldsrc](const Vec3& v) {
        return goldsrc ? v : Vec3(v.y(), -v.x(), v.z());
    };
    // A $staticprop's points (and its collision model) are turned the same way as studiomdl
    // collapses its bones; its one bone stays as compiled.
    if (staticProp) {
        space.q = Eigen::Quaterniond(Eigen::AngleAxisd(-kPi / 2, Eigen::Vector3d::UnitZ()));
    }
    const Bones bones = bonesOf(info);
    const Skeleton& sk = bones.skeleton;
    std::size_t sharedCells = 0;
    const Model snapped = goldsrc ? snappedToCells(read, bones, &sharedCells) : Model();
    if (sharedCells > 0) {
        notes.push_back(plural(sharedCells, "vertex", "vertices") +
                        " in the same 0.01 cell of the same bone's space as another vertex of "
                        "their model: GoldSrc's studiomdl (lookup_vertex) makes such vertices "
                        "one, so no source gives them back (a compiler other than Valve's built "
                        "this model)");
    }
    const Model& model = goldsrc ? snapped : read;
    if (goldsrc) {
        // A compiled bone order the bodies cannot give back: a recompile orders the bones by
        // first use, so compare finds the names in another order.
        const std::vector<JointIndex> order = goldsrcUnionOrder(read, info, sk);
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (order[k] == static_cast<JointIndex>(k)) {
                continue;
            }
            const auto at = std::find(order.begin(), order.end(), static_cast<JointIndex>(k));
            if (at == order.end()) {
                break; // a bone no body uses: said elsewhere (studiomdl drops it)
            }
            const std::size_t before = static_cast<std::size_t>(at - order.begin()) - 1;
            notes.push_back(
                "bone '" + sk.names[k] + "' is compiled at index " + std::to_string(k) +
                " though the bodies before the first one using it use later bones: GoldSrc's "
                "studiomdl numbers bones by first use, body by body in $body order "
                "(SimplifyModel), so a recompile puts it after '" +
                sk.names[static_cast<std::size_t>(order[before])] +
                "' and compare finds the bone names in another order (a compiler other than the "
                "SDK's built this model)");
            break;
        }
    }
    if (bones.renamed > 0) {
        notes.push_back(plural(bones.renamed, "bone") +
                        " without a name or with another bone's written as 'bone_N' (N its "
                        "index): a QC names bones, so compare finds the names differ");
    }
    Names names;
    names.take(stemOf(qcName), ".qc");
    std::string body; // the QC after its comment block
    auto line = [&](const std::string& s) { body += s + "\n"; };

    line("$modelname " + quoted(info.name));
    if (staticProp) {
        line("$staticprop");
    }
    if (!goldsrc) {
        if (!info.surfaceProp.empty()) {
            line("$surfaceprop " + quoted(info.surfaceProp));
        }
        for (const std::string& d : info.cdMaterials) {
            line("$cdmaterials " + quoted(d));
        }
    } else {
        line("$cd \".\"");
        if (diskTextures.folders.empty()) {
            line("$cdtexture \".\"");
        }
        for (const std::string& f : diskTextures.folders) {
            line("$cdtexture " + quoted(f));
        }
        line("$scale 1.0");
        // GoldSrc's studiomdl sets the header's flags from $flags alone (Cmd_Flags, WriteModel's
        // phdr->flags = gflags); abstudiomdl's 2048 keeps the textures on disk.
        if (info.flags != 0) {
            line("$flags " + std::to_string(info.flags));
        }
    }
    body += "\n";

    // Bones: every compiled bone is defined, so the recompile keeps them in this order even
    // where no vertex uses them (a static prop has its one collapsed bone).
    if (!staticProp && !goldsrc && !sk.empty()) {
        for (std::size_t j = 0; j < sk.size(); ++j) {
            const JointIndex p = sk.parents[j];
            // Its angles as studiomdl reads them, a QAngle: pitch, yaw, roll (Euler Y, Z, X;
            // Cmd_DefineBone), as Crowbar writes them.
            const Vec3 e = sk.bindRotations[j] * static_cast<float>(180.0 / kPi);
            const Vec3 r(e.y(), e.z(), e.x());
            line("$definebone " + quoted(sk.names[j]) + " " +
                 quoted(p == kNoJoint ? std::string() : sk.names[static_cast<std::size_t>(p)]) +
                 " " + vec(sk.bindPositions[j]) + " " + vec(r) + " 0 0 0 0 0 0");
        }
        body += "\n";
    }

    // Bodies, per bodypart and model, and their LODs.
    std::map<std::int32_t, std::string> objectFile; // LOD 0 object -> SMD name
    struct LodRow {
        std::vector<std::pair<std::string, std::string>> replace; // LOD 0 file -> LOD file
        std::vector<std::pair<JointIndex, JointIndex>> replaceBones;
    };
    std::vector<LodRow> lodRows(lodModels.size());
    // Each LOD with LOD 0's weights on the vertices it took from LOD 0, and the bone
    // replacements that moved them (studiomdl takes a LOD's weights from LOD 0 only).
    std::size_t ownLodVertices = 0;
    std::vector<Model> lodWritten;
    lodWritten.reserve(lodModels.size());
    for (std::size_t l = 0; l < lodModels.size(); ++l) {
        lodWritten.push_back(lodModels[l]);
        if (goldsrc) {
            continue;
        }
        LodBones lb = lodBonesOf(model, lodModels[l], sk);
        if (staticProp) { // one bone: nothing replaced, but the LOD's own vertices count
            ownLodVertices += lb.own;
            continue;
        }
        for (std::uint32_t& p : lodWritten.back().mesh.cornerPoints) {
            p = lb.twin[p];
        }
        lodRows[l].replaceBones = std::move(lb.replace);
        ownLodVertices += lb.own;
    }
    if (!goldsrc && !staticProp && !lodModels.empty()) {
        const std::size_t n = lodWeightsNoMapGives(model, lodModels);
        if (n > 0) {
            notes.push_back(
                plural(n, "LOD vertex", "LOD vertices") +
                " whose weights no LOD 0 vertex gives: each has the position, normal and UV of a "
                "vertex an earlier LOD uses, yet lacks a bone of it (or weighs it less) that its "
                "own LOD still uses. studiomdl takes a LOD vertex's weights from LOD 0 and moves "
                "them by one bone map per LOD (UnifyLODs: CalculateBoneWeightFromRootLod, "
                "BuildBoneLODMapping), so a compiler that kept the LOD files' own weights built "
                "this model and a recompile joins LOD vertices it kept apart");
        }
    }
    if (ownLodVertices > 0) {
        notes.push_back(plural(ownLodVertices, "LOD vertex", "LOD vertices") +
                        " of their own (not LOD 0's): their tangents, which decide whether a "
                        "later LOD's vertex joins them, come from the written LOD triangles, not "
                        "the original files' (the .vtx keeps no triangle studiomdl's LOD weld made "
                        "degenerate, nor a corner's UV before the weld moved it onto LOD 0's)");
    }
    // The .vvd vertices of a model no .vtx triangle uses. Only without LODs (a LOD's vertices
    // are LOD 0's unused ones) and flexes (a VTA maps written corners to compiled ones).
    std::vector<bool> usedPoints;
    if (!goldsrc && lodModels.empty() && info.lods <= 1 && model.vertexFrames.size() <= 1 &&
        vvdVertices.size() == model.mesh.pointCount()) {
        usedPoints.assign(model.mesh.pointCount(), false);
        for (const std::uint32_t p : model.mesh.cornerPoints) {
            usedPoints[p] = true;
        }
    }
    const std::vector<std::int32_t>* family = info.skins.empty() ? nullptr : &info.skins.front();
    const auto loneVertices = [&](const CompiledSubModel& sub) {
        std::vector<LoneVertex> lone;
        if (usedPoints.empty()) {
            return lone;
        }
        const std::int64_t first = sub.vertexIndex / 48; // bytes of the .vvd's vertex data
        for (const CompiledMesh& cm : sub.meshes) {
            std::uint32_t material = 0; // as the compiled read gives its triangles (buildMesh)
            if (family && cm.material >= 0 &&
                static_cast<std::size_t>(cm.material) < family->size()) {
                material = static_cast<std::uint32_t>((*family)[std::size_t(cm.material)]);
            } else if (cm.material >= 0) {
                material = static_cast<std::uint32_t>(cm.material);
            }
            if (material >= model.mesh.materials.size()) {
                material = 0;
            }
            for (std::int64_t v = first + cm.vertexOffset;
                 v < first + cm.vertexOffset + cm.vertices; ++v) {
                if (v >= 0 && static_cast<std::size_t>(v) < usedPoints.size() &&
                    !usedPoints[static_cast<std::size_t>(v)]) {
                    lone.push_back({static_cast<std::uint32_t>(v), material,
                                    vvdVertices[static_cast<std::size_t>(v)]});
                }
            }
        }
        return lone;
    };
    std::size_t flexedModels = 0;
    KeptApart apart; // over every body
    std::vector<Model> noLods;
    std::map<std::string, std::pair<std::string, std::string>> sameSource; // name -> file, bytes
    std::vector<std::string> renamed; // compiled names no project file can have
    std::size_t unread = 0;           // models with vertices whose meshes did not read
    for (std::size_t b = 0; b < info.bodyparts.size(); ++b) {
        const CompiledBodypart& part = info.bodyparts[b];
        std::vector<std::string> choices;
        bool flexModel = false;
        std::string flexBlock;
        for (std::size_t mi = 0; mi < part.models.size(); ++mi) {
            const CompiledSubModel& sub = part.models[mi];
            const std::int32_t obj =
                b < info.choiceObjects.size() && mi < info.choiceObjects[b].size()
                    ? info.choiceObjects[b][mi]
                    : -1;
            if (obj < 0 && goldsrc && sub.vertices == 0 && !sub.name.empty() &&
                !asciiIEquals(sub.name, "blank")) {
                // A GoldSrc model named after its file but without a vertex: its SMD had no
                // triangle (Grab_Triangles reads none, WriteFile writes the model empty;
                // Afterburner's speaker_alarm, alarm_ref). An SMD without triangles gives it
                // back; "blank" would name it "blank".
                bool kept = false;
                const std::string file =
                    names.take(sourceFileStem(withoutSmd(sub.name), goldsrc, kept), ".smd");
                Model empty = smdModel(sk, ModelKind::Reference);
                empty.animations.push_back(bindFrame(sk));
                out.files.push_back({file, smdBytes(empty, file, notes)});
                choices.push_back(withoutSmd(file));
                continue;
            }
            if (obj < 0) {
                unread += sub.vertices > 0 ? 1u : 0u;
                choices.emplace_back(); // blank
                continue;
            }
            // Named as studiomdl stored it where that can be a file of the project (a
            // recompile then stores the same name); one file for models with the same name and
            // triangles (GoldSrc bodyparts that name one SMD).
            bool kept = false;
            const std::string compiledStem = withoutSmd(sub.name);
            const std::string stem = sourceFileStem(compiledStem, goldsrc, kept);
            std::vector<std::uint32_t> corners;
            Model ref =
                referenceOf(model, obj, sk, space, !goldsrc, &corners, goldsrc, loneVertices(sub));
            if (!goldsrc) {
                const KeptApart a = keepWeldedApart(ref);
                apart.points += a.points;
                apart.largest = std::max(apart.largest, a.largest);
                // The LODs' corners on such a vertex get its u, so that studiomdl's UnifyLODs
                // (the LOD 0 vertex nearest in position, then UV) finds it again.
                std::map<std::uint32_t, float> u;
                for (std::size_t i = 0; a.points > 0 && i < corners.size(); ++i) {
                    if (ref.mesh.cornerUvs[i].x() != model.mesh.cornerUvs[corners[i]].x()) {
                        u.emplace(model.mesh.cornerPoints[corners[i]], ref.mesh.cornerUvs[i].x());
                    }
                }
                for (Model& lm : u.empty() ? noLods : lodWritten) {
                    for (std::size_t c = 0; c < lm.mesh.cornerCount(); ++c) {
                        const auto it = u.find(lm.mesh.cornerPoints[c]);
                        if (it != u.end()) {
                            lm.mesh.cornerUvs[c].x() = it->second;
                        }
                    }
                }
            }
            std::string bytes = smdBytes(ref, stem + ".smd", notes);
            std::string file;
            const auto same = sameSource.find(asciiLower(compiledStem));
            if (same != sameSource.end() && same->second.second == bytes) {
                file = same->second.first;
            } else {
                file = names.take(stem, ".smd");
                sameSource.emplace(asciiLower(compiledStem), std::make_pair(file, bytes));
                out.files.push_back({file, std::move(bytes)});
            }
            // The QC names it without ".smd" only where the compiled name has no extension
            // (a DMX source's "x.dmx" is written as "x.dmx.smd" and named so).
            const std::size_t dot = compiledStem.find_last_of("./\\");
            // Nor where the written name keeps a dot of a flattened folder ("XSI_4.2_ModTool"):
            // studiomdl's Load_Source would take what follows it for the extension.
            const bool bare = compiledStem.size() == sub.name.size() &&
                              (dot == std::string::npos || compiledStem[dot] != '.') &&
                              !hasDotInName(withoutSmd(file));
            choices.push_back(goldsrc || bare ? withoutSmd(file) : file);
            std::string asCompiled = sub.name;
            std::replace(asCompiled.begin(), asCompiled.end(), '\\', '/');
            if (asciiLower(choices.back()) != asciiLower(asCompiled)) {
                renamed.push_back(sub.name);
            }
            objectFile[obj] = file;
            // Flex shapes of this model: a VTA, the $model block's flexfile.
            if (!goldsrc && model.vertexFrames.size() > 1) {
                std::vector<std::string> shapeNames;
                const Model vta = vtaOf(model, ref, corners, space, shapeNames);
                if (!shapeNames.empty()) {
                    const std::string vtaName = names.take(withoutSmd(stem), ".vta");
                    out.files.push_back({vtaName, smdBytes(vta, vtaName, notes)});
                    flexModel = true;
                    ++flexedModels;
                    flexBlock +=
                        "\tflexfile " + quoted(vtaName) + "\n\t{\n\t\tdefaultflex frame 0\n";
                    for (std::size_t k = 0; k < shapeNames.size(); ++k) {
                        flexBlock += "\t\tflex " + quoted(shapeNames[k]) + " frame " +
                                     std::to_string(k + 1) + "\n";
                    }
                    // Descriptors no vertex animation moves (rule targets such as eyelid
                    // poses) still need a name the % rules can set: the base frame.
                    std::set<std::string> shaped(shapeNames.begin(), shapeNames.end());
                    for (const std::string& d : info.flexDescs) {
                        if (shaped.insert(d).second) {
                            flexBlock += "\t\tflex " + quoted(d) + " frame 0\n";
                        }
                    }
                    flexBlock += "\t}\n";
                }
            }
            // LODs 1..n of this model.
            for (std::size_t l = 0; l < lodModels.size(); ++l) {
                const Model& lm = lodWritten[l];
                // The LOD read numbers its objects as LOD 0 does only when every model has
                // triangles at both; look the object up by name.
                std::int32_t lobj = -1;
                const std::string objName = part.name + "/" + sub.name;
                for (std::size_t o = 0; o < lm.mesh.objects.size(); ++o) {
                    if (lm.mesh.objects[o] == objName) {
                        lobj = static_cast<std::int32_t>(o);
                        break;
                    }
                }
                if (lobj < 0) {
                    lodRows[l].replace.emplace_back(choices.back(), std::string());
                    continue;
                }
                const std::string lodName =
                    names.take(stem + "_lod" + std::to_string(l + 1), ".smd");
                const Model lref = referenceOf(lm, lobj, sk, space, !goldsrc, nullptr);
                out.files.push_back({lodName, smdBytes(lref, lodName, notes)});
                lodRows[l].replace.emplace_back(choices.back(), lodName);
            }
        }
        if (flexModel && part.models.size() == 1) {
            line("$model " + quoted(part.name) + " " + quoted(choices.front()));
            line("{");
            body += flexBlock;
            for (const CompiledFlexController& c : info.flexControllers) {
                line("\tflexcontroller " + c.type + " range " + num(c.min) + " " + num(c.max) +
                     " " + quoted(c.name));
            }
            for (const CompiledFlexRule& r : info.flexRuleList) {
                if (!r.expression.empty()) {
                    line("\t" + r.expression);
                }
            }
            line("}");
        } else {
            if (flexModel) {
                notes.push_back("bodypart '" + part.name +
                                "' has flex shapes on one of several models; studiomdl takes "
                                "flexes only in a $model block (VTA written, not named in the QC)");
            }
            if (goldsrc && choices.size() == 1 && !choices.front().empty()) {
                line("$body " + quoted(part.name) + " " + quoted(choices.front()));
            } else {
                line("$bodygroup " + quoted(part.name));
                line("{");
                for (const std::string& c : choices) {
                    line(c.empty() ? "\tblank" : "\tstudio " + quoted(c));
                }
                line("}");
            }
        }
    }
    if (apart.points > 0) {
        notes.push_back(plural(apart.points, "vertex", "vertices") +
                        " equal to another in position, normal (within 2°), UV and weights, which "
                        "the .vvd holds apart (a DMX source keeps them apart): written with u " +
                        formatFloat(apart.largest) +
                        " or less off, so that studiomdl's weld keeps them apart too");
    }
    if (unread > 0) {
        notes.push_back(plural(unread, "model") +
                        " with vertices written as blank: their meshes did not read (a .vvd or "
                        ".vtx missing or unreadable beside the .mdl)");
    }
    if (!renamed.empty()) {
        notes.push_back(plural(renamed.size(), "model source name") + " not kept (first '" +
                        renamed.front() +
                        "'): the project's SMD cannot have it (a DMX source, an absolute path, a "
                        "drive, '..', a character a file system refuses; two models of that name "
                        "with other triangles), so compare calls the recompile stale");
    }
    if (!info.flexRuleList.empty()) {
        std::size_t undecoded = 0;
        for (const CompiledFlexRule& r : info.flexRuleList) {
            undecoded += r.expression.empty() ? 1u : 0u;
        }
        if (undecoded > 0) {
            notes.push_back(plural(undecoded, "flex rule") +
                            " not written: the rule program does not decode to a % expression");
        }
        if (flexedModels == 0) {
            notes.push_back(plural(info.flexRuleList.size(), "flex rule") +
                            " not written: no single-model bodypart holds the flex shapes");
        }
    }
    if (!info.flexes.empty()) {
        notes.push_back("stereo flexes are written as their left and right halves (flexpair and "
                        "the vertex balance are not recovered); wrinkle deltas are not written");
    }
    std::size_t eyeballs = 0;
    for (const CompiledBodypart& part : info.bodyparts) {
        for (const CompiledSubModel& sub : part.models) {
            eyeballs += sub.eyeballs.size();
        }
    }
    if (eyeballs > 0) {
        notes.push_back(plural(eyeballs, "eyeball") +
                        " not written: the .mdl keeps no iris material or angle for an "
                        "`eyeball` line");
    }
    // $lod blocks.
    for (std::size_t l = 0; l < lodRows.size(); ++l) {
        const float sp = l + 1 < lodSwitchPoints.size() ? lodSwitchPoints[l + 1] : 0.0f;
        const std::int32_t threshold = sp > 0 ? static_cast<std::int32_t>(std::lround(sp))
                                              : static_cast<std::int32_t>(l + 1) * 10;
        // The shadow LOD's switch point is -1 (studiomdl reserves it), and it comes last.
        const bool shadow = sp < 0 && l + 1 == lodRows.size();
        line(shadow ? std::string("$shadowlod") : "$lod " + std::to_string(threshold));
        line("{");
        for (const auto& [from, to] : lodRows[l].replace) {
            line(to.empty() ? "\tremovemodel " + quoted(from)
                            : "\treplacemodel " + quoted(from) + " " + quoted(to));
        }
        for (const auto& [from, to] : lodRows[l].replaceBones) {
            line("\treplacebone " + quoted(sk.names[static_cast<std::size_t>(from)]) + " " +
                 quoted(sk.names[static_cast<std::size_t>(to)]));
        }
        line("}");
    }
    if (info.lods > static_cast<std::int32_t>(lodModels.size()) + 1) {
        notes.push_back(
            std::to_string(info.lods - 1 - static_cast<std::int32_t>(lodModels.size())) +
            " LODs of the .vtx not written (not read)");
    }
    if (!lodRows.empty() && lodSwitchPoints.empty()) {
        notes.push_back("$lod thresholds are guesses (the .vtx switch points were not read)");
    }
    body += "\n";

    // Skin families: the columns some family changes, row 0 the materials the meshes use.
    if (info.skins.size() > 1) {
        std::vector<std::size_t> columns;
        for (std::size_t c = 0; c < static_cast<std::size_t>(info.skinReferences); ++c) {
            for (const auto& row : info.skins) {
                if (c < row.size() && c < info.skins.front().size() &&
                    row[c] != info.skins.front()[c]) {
                    columns.push_back(c);
                    break;
                }
            }
        }
        columns = texturegroupColumnOrder(info.skins, std::move(columns));
        const auto names2 = info.skinMaterialNames();
        line("$texturegroup \"skinfamilies\"");
        line("{");
        for (const auto& row : names2) {
            std::string r = "\t{";
            for (const std::size_t c : columns) {
                r += " " + quoted(c < row.size() ? row[c] : std::string());
            }
            line(r + " }");
        }
        line("}");
        body += "\n";
    }
    // Materials the written files cannot name again: a name the .mdl holds twice (the
    // recompile keeps one), and one no written triangle or family uses (an eyeball's pupil and
    // glint, a $texturegroup column no family changes).
    {
        std::set<std::string> used, seen;
        const auto useMesh = [&used](const Mesh& m) {
            for (const std::uint32_t t : m.triangleMaterials) {
                if (t < m.materials.size()) {
                    used.insert(asciiLower(m.materials[t].name));
                }
            }
        };
        useMesh(model.mesh);
        for (const Model& l : lodModels) {
            useMesh(l.mesh);
        }
        if (info.skins.size() > 1) {
            const auto rows = info.skinMaterialNames();
            for (const auto& row : rows) {
                for (std::size_t c = 0; c < row.size() && c < rows.front().size(); ++c) {
                    bool changes = false;
                    for (const auto& other : rows) {
                        changes = changes || (c < other.size() && other[c] != rows.front()[c]);
                    }
                    if (changes) {
                        used.insert(asciiLower(row[c]));
                    }
                }
            }
        }
        std::size_t twice = 0, unusedCount = 0;
        for (const CompiledTexture& t : info.textures) {
            const std::string key = asciiLower(t.name);
            if (!seen.insert(key).second) {
                ++twice;
            } else if (used.count(key) == 0) {
                ++unusedCount;
            }
        }
        if (twice > 0) {
            notes.push_back(plural(twice, "material name") +
                            " the .mdl holds twice: the recompile lists it once");
        }
        if (unusedCount > 0) {
            notes.push_back(plural(unusedCount, "material") +
                            " no written triangle or skin family uses (eyeball pupils and "
                            "glints, family columns no family changes): not in the recompile");
        }
    }
    if (goldsrc) {
        for (const CompiledTexture& t : info.textures) {
            if (const char* mode = goldsrcRenderMode(t.flags)) {
                line("$texrendermode " + quoted(t.name) + " " + mode);
            }
        }
        // The pixels the .mdl holds, written as the 8-bit BMP files its SMDs name, in the
        // QC's folder (the $cdtexture "." above), where Grab_Skin finds them and LoadBMP reads
        // them. Textures kept on disk (Afterburner's flag 0x800: no pixels) are the game's
        // files, found through the $cdtexture folders of `diskTextures`.
        const bool onDiskModel = info.variant == "afterburner" && !diskTextures.folders.empty();
        std::set<std::string> bmpNames;
        std::size_t unwritable = 0, noPixels = 0;
        std::string firstUnwritable;
        for (const CompiledTexture& t : info.textures) {
            if (t.indices.empty()) {
                noPixels += info.variant == "afterburner" ? 0u : 1u;
                continue;
            }
            std::string file = t.name;
            std::replace(file.begin(), file.end(), '\\', '/');
            if (!bmpNames.insert(asciiLower(file)).second) {
                continue; // one file per name: the recompile lists the name once
            }
            std::string bytes;
            if (projectFilePath(file) && asciiIEndsWith(file, ".bmp") && !onDiskModel) {
                bytes = writeIndexedBmp(t.width, t.height, t.indices, t.palette);
            }
            if (bytes.empty()) {
                firstUnwritable = unwritable == 0 ? t.name : firstUnwritable;
                ++unwritable;
                continue;
            }
            out.files.push_back({file, std::move(bytes)});
        }
        if (unwritable > 0) {
            notes.push_back(plural(unwritable, "texture") + " not written as a BMP file (first '" +
                            firstUnwritable +
                            "': not a .bmp name in the QC's folder, or an 8-bit size or "
                            "palette LoadBMP cannot take): a recompile needs the file");
        }
        if (noPixels > 0) {
            notes.push_back(plural(noPixels, "texture") +
                            " without pixels in the .mdl not written as a BMP file: a "
                            "recompile needs the file");
        }
        if (info.textures.empty() && read.mesh.triangleCount() > 0) {
            notes.push_back("the textures are in the model's texture file (NAMEt.mdl), which "
                            "was not read: no BMP file written, and a recompile needs them "
                            "(convert with that file beside the .mdl)");
        }
        if (info.variant == "afterburner" && diskTextures.missing > 0) {
            notes.push_back(plural(diskTextures.missing, "texture") +
                            " the model keeps on disk (flag 0x800) not found in a textures/ "
                            "folder above it: a recompile needs them in a $cdtexture folder");
        }
    }

    // Model-wide positions (compiled space -> source space).
    if (!goldsrc) {
        const Vec3 illum = qcPoint(info.illumPosition);
        if (info.illumPositionAttachment > 0) {
            notes.push_back("$illumposition names an attachment in the .mdl; written as its "
                            "point");
        }
        line("$illumposition " + vec(illum));
        // Always, a zero hull too: without $bbox studiomdl computes one from the sequences
        // (L4D2 and CS:GO viewmodels store 0 0 0 .. 0 0 0).
        line("$bbox " + vec(info.hullMin) + " " + vec(info.hullMax));
        if (!info.viewMin.isZero() || !info.viewMax.isZero()) {
            const Vec3 a = info.viewMin, b = info.viewMax;
            line("$cbox " + vec(a) + " " + vec(b));
        }
        if (!info.eyePosition.isZero()) {
            line("$eyeposition " + vec(qcPoint(info.eyePosition)));
        }
        if (!info.keyValues.empty()) {
            line("$keyvalues");
            line("{");
            line(keyValuesBody(info.keyValues));
            line("}");
        }
    }
    body += "\n";

    // Attachments, bone controllers, hitboxes.
    const auto boneName = [&](std::int32_t b) {
        return b >= 0 && static_cast<std::size_t>(b) < sk.size()
                   ? sk.names[static_cast<std::size_t>(b)]
                   : std::string();
    };
    std::size_t attachmentFlags = 0, attachmentNames = 0;
    for (std::size_t i = 0; i < info.attachments.size(); ++i) {
        const CompiledAttachment& a = info.attachments[i];
        const Vec3 t(a.local[3], a.local[7], a.local[11]);
        if (goldsrc) {
            line("$attachment " + std::to_string(i) + " " + quoted(boneName(a.bone)) + " " +
                 vec(t));
            attachmentNames += a.name.empty() ? 0u : 1u;
            continue;
        }
        Mat3d r;
        r << a.local[0], a.local[1], a.local[2], a.local[4], a.local[5], a.local[6], a.local[8],
            a.local[9], a.local[10];
        Vec3 e = matrixToEuler(r) * static_cast<float>(180.0 / kPi);
        for (int k = 0; k < 3; ++k) {
            e[k] = std::fabs(e[k]) < 1e-4f ? 0.0f : e[k]; // float noise of an identity
        }
        std::string s = "$attachment " + quoted(a.name) + " " + quoted(boneName(a.bone)) + " " +
                        vec(t) + " rigid";
        if (!e.isZero(1e-6f)) {
            s += " rotate " + vec(e);
        }
        attachmentFlags += a.flags != 0 ? 1u : 0u;
        line(s);
    }
    if (attachmentNames > 0) {
        notes.push_back(plural(attachmentNames, "attachment") +
                        " with a name: GoldSrc's $attachment gives none (Cmd_Attachment reads "
                        "an index, a bone and a point), so compare finds the names differ");
    }
    if (attachmentFlags > 0) {
        notes.push_back(plural(attachmentFlags, "attachment") +
                        " with flags (world-aligned) written without them");
    }
    static const char* kControllerTypes[] = {"X", "Y", "Z", "XR", "YR", "ZR"};
    for (std::size_t i = 0; i < info.boneControllers.size(); ++i) {
        const CompiledBoneController& c = info.boneControllers[i];
        std::string type = "XR";
        for (int k = 0; k < 6; ++k) {
            if (c.type & (1 << k)) {
                type = kControllerTypes[k];
            }
        }
        const std::int32_t index = goldsrc ? c.inputField : static_cast<std::int32_t>(i);
        line("$controller " + std::to_string(index) + " " + quoted(boneName(c.bone)) + " " + type +
             " " + num(c.start) + " " + num(c.end));
    }
    for (const CompiledHitboxSet& set : info.hitboxSets) {
        // An empty set too: studiomdl generates boxes only when the QC names no set. Not for
        // GoldSrc, whose studiomdl has one set and stops at $hboxset ("bad command").
        if (!goldsrc && (info.hitboxSets.size() > 1 || set.boxes.empty() ||
                         (!set.name.empty() && set.name != "default"))) {
            line("$hboxset " + quoted(set.name));
        }
        for (const CompiledHitbox& h : set.boxes) {
            std::string s = "$hbox " + std::to_string(h.group) + " " + quoted(boneName(h.bone)) +
                            " " + vec(h.min) + " " + vec(h.max);
            if (!h.name.empty()) {
                s += " " + quoted(h.name);
            }
            line(s);
        }
    }
    body += "\n";

    // IK chains with every link; jiggle bones; procedural bones.
    for (const CompiledIkChain& c : info.ikChainList) {
        if (c.bones.empty()) {
            continue;
        }
        std::string links;
        for (const std::int32_t b : c.bones) {
            links += (links.empty() ? "" : " > ") + boneName(b);
        }
        line("// $ikchain " + quoted(c.name) + ": " + links);
        const Vec3 knee = c.kneeDirections.size() >= 2
                              ? c.kneeDirections[c.kneeDirections.size() - 2]
                          : c.kneeDirections.empty() ? Vec3::Zero()
                                                     : c.kneeDirections.front();
        line("$ikchain " + quoted(c.name) + " " + quoted(boneName(c.bones.back())) + " knee " +
             vec(knee));
        if (c.bones.size() != 3) {
            notes.push_back("IK chain '" + c.name + "' has " + std::to_string(c.bones.size()) +
                            " links; $ikchain rebuilds three from its end bone (the links are "
                            "listed in a comment)");
        }
    }
    if (info.ikLocks > 0) {
        notes.push_back(plural(static_cast<std::size_t>(info.ikLocks), "IK lock") +
                        " not written ($iklock)");
    }
    std::map<std::int32_t, std::size_t> procedural;
    for (std::size_t j = 0; j < info.bones.size(); ++j) {
        const CompiledBone& bone = info.bones[j];
        if (bone.procType == 5 && bone.jiggle) {
            writeJiggle(body, sk.names[j], *bone.jiggle);
        } else if (bone.procType != 0) {
            ++procedural[bone.procType];
        }
    }
    for (const auto& [type, count] : procedural) {
        static const char* kTypes[] = {"", "axis interpolation", "quaternion interpolation",
                                       "aim-at-bone", "aim-at-attachment"};
        notes.push_back(plural(count, "procedural bone") + " (" +
                        (type >= 1 && type <= 4 ? kTypes[type] : "type " + std::to_string(type)) +
                        ") not written: their .vrd rules are not decoded");
    }
    for (const CompiledPoseParameter& p : info.poseParameters) {
        std::string s = "$poseparameter " + quoted(p.name) + " " + num(p.start) + " " + num(p.end);
        if (p.loop != 0) {
            s += " loop " + num(p.loop);
        }
        line(s);
    }
    for (const CompiledIncludeModel& m : info.includeModels) {
        // Stored with the game's "models/" folder; $includemodel names it from there.
        std::string name = m.name;
        if (name.size() > 7 &&
            (name.compare(0, 7, "models/") == 0 || name.compare(0, 7, "models\\") == 0)) {
            name.erase(0, 7);
        }
        line("$includemodel " + quoted(name));
    }
    body += "\n";

    // Sequences: one SMD per sequence (its first animation).
    std::size_t blended = 0, undecoded = 0, deltas = 0;
    for (std::size_t s = 0; s < info.sequences.size(); ++s) {
        const CompiledSequence& seq = info.sequences[s];
        const std::int32_t ai = s < info.sequenceAnimation.size() ? info.sequenceAnimation[s] : -1;
        Model a = smdModel(sk, ModelKind::Animation);
        std::int32_t frames = 1;
        if (ai >= 0 && static_cast<std::size_t>(ai) < model.animations.size() &&
            model.animations[static_cast<std::size_t>(ai)].jointCount == sk.size()) {
            Animation an = model.animations[static_cast<std::size_t>(ai)];
            an.notes.clear();
            for (std::size_t f = 0; f < an.frameCount(); ++f) {
                for (std::size_t j = 0; j < sk.size(); ++j) {
                    const std::size_t k = an.key(f, j);
                    an.explicitKey[k] = 1;
                }
            }
            frames = static_cast<std::int32_t>(an.frameCount());
            a.animations.push_back(std::move(an));
        } else {
            a.animations.push_back(bindFrame(sk));
            ++undecoded;
        }
        blended += seq.blends > 1 || seq.groupSize[0] * seq.groupSize[1] > 1 ? 1u : 0u;
        deltas += seq.delta ? 1u : 0u;
        const std::string file = names.take("anims/" + safeName(seq.name), ".smd");
        out.files.push_back({file, smdBytes(a, file, notes)});
        std::string q = "$sequence " + quoted(seq.name) + " " +
                        quoted(goldsrc ? withoutSmd(file) : file) + " fps " + num(seq.fps);
        if (seq.looping) {
            q += " loop";
        }
        if (seq.delta && !goldsrc) {
            q += " delta";
        }
        if (!seq.activityName.empty()) {
            // studiomdl's ParseSequence takes a bare token for an activity only when it starts
            // with "ACT_"; else it must follow `activity` (L4D's `PUSH`).
            const bool act = asciiLower(seq.activityName.substr(0, 4)) == "act_";
            q += (act ? " " : " activity ") + seq.activityName + " " +
                 std::to_string(seq.activityWeight);
        }
        if (!seq.events.empty()) {
            q += " {\n";
            for (const CompiledEvent& e : seq.events) {
                const double frame = goldsrc
                                         ? double(e.cycle)
                                         : std::round(double(e.cycle) * std::max(0, frames - 1));
                q += "\t{ event " + (e.name.empty() ? std::to_string(e.event) : e.name) + " " +
                     std::to_string(static_cast<long>(frame));
                if (!e.options.empty()) {
                    q += " " + quoted(e.options);
                }
                q += " }\n";
            }
            q += "}";
        }
        line(q);
    }
    if (blended > 0) {
        notes.push_back(plural(blended, "blended sequence") +
                        " written with their first animation only (blend grids and their pose "
                        "parameters are not rebuilt)");
    }
    if (undecoded > 0) {
        notes.push_back(plural(undecoded, "sequence") +
                        " written at the bind pose: their animation did not decode");
    }
    if (deltas > 0) {
        notes.push_back(plural(deltas, "delta sequence") +
                        " written as their stored deltas; studiomdl would take them as poses "
                        "(the subtracted reference is not recovered)");
    }
    if (!info.sequences.empty() && !goldsrc) {
        notes.push_back("sequence fade in/out, transitions, IK rules and extracted movement are "
                        "not written");
    }
    body += "\n";

    // The collision model.
    const CompiledPhysics& ph = info.physics;
    if (ph.present && !ph.solids.empty()) {
        const std::string file = names.take(safeName(stemOf(qcName)) + "_physics", ".smd");
        out.files.push_back({file, smdBytes(physicsOf(info, bones, space), file, notes)});
        bool jointed = false;
        for (const CompiledPhysicsSolid& s : ph.solids) {
            jointed = jointed || (s.bone >= 0 && !staticProp && !s.parent.empty());
        }
        jointed = jointed || (ph.solids.size() > 1) ||
                  (!staticProp && ph.solids.front().bone >= 0 && info.bones.size() > 1);
        const CompiledPhysicsSolid& first = ph.solids.front();
        line(std::string(jointed ? "$collisionjoints " : "$collisionmodel ") + quoted(file));
        line("{");
        const float total = ph.totalMass > 0 ? ph.totalMass : ph.mass();
        line("\t$mass " + num(total));
        line("\t$inertia " + num(first.inertia));
        line("\t$damping " + num(first.damping));
        line("\t$rotdamping " + num(first.rotDamping));
        bool multi = false;
        for (const CompiledPhysicsSolid& s : ph.solids) {
            multi = multi || s.pieces.size() > 1;
        }
        if (multi || ph.concave) {
            line(jointed ? "\t$concaveperjoint" : "\t$concave");
        }
        // More pieces than studiomdl's default 20 (older compilers had no limit: a v44 prop
        // with 77): without the command a recompile would build one hull instead.
        std::size_t pieces = 0;
        for (const CompiledPhysicsSolid& s : ph.solids) {
            pieces = std::max(pieces, s.pieces.size());
        }
        if (pieces > 20) {
            line("\t$maxconvexpieces " + std::to_string(pieces));
        }
        if (jointed) {
            if (!ph.rootName.empty()) {
                line("\t$rootbone " + quoted(ph.rootName));
            }
            for (const CompiledPhysicsSolid& s : ph.solids) {
                if (s.massBias != 1.0f) {
                    line("\t$jointmassbias " + quoted(s.name) + " " + num(s.massBias));
                }
            }
            for (const CompiledRagdollConstraint& c : ph.constraints) {
                if (c.child < 0 || static_cast<std::size_t>(c.child) >= ph.solids.size()) {
                    continue;
                }
                const std::string& child = ph.solids[static_cast<std::size_t>(c.child)].name;
                static const char* kAxes[] = {"x", "y", "z"};
                for (int k = 0; k < 3; ++k) {
                    line("\t$jointconstrain " + quoted(child) + " " + kAxes[k] + " limit " +
                         num(c.min[k]) + " " + num(c.max[k]) + " " + num(c.friction[k]));
                }
            }
            if (!ph.selfCollisions) {
                line("\t$noselfcollisions");
            }
            for (const auto& pr : ph.collisionPairs) {
                const auto nameOf = [&](std::int32_t i) {
                    return i >= 0 && static_cast<std::size_t>(i) < ph.solids.size()
                               ? ph.solids[static_cast<std::size_t>(i)].name
                               : std::string();
                };
                line("\t$jointcollide " + quoted(nameOf(pr[0])) + " " + quoted(nameOf(pr[1])));
            }
            if (ph.solids.size() > 1) {
                notes.push_back("per-joint masses are studiomdl's share of $mass by volume; the "
                                "written $jointmassbias values reproduce the biases, not "
                                "hand-set masses");
            }
        }
        line("}");
    }

    // The QC: a comment block with the notes, then the commands.
    std::string qc =
        "// Decompiled by RigScope from " + info.name + " (" +
        (goldsrc ? std::string(info.variant == "afterburner" ? "GoldSrc v10, Afterburner's 'AFTB'"
                                                             : "GoldSrc v10")
                 : "Source v" + std::to_string(info.version)) +
        ")\n";
    if (notes.empty()) {
        qc += "// A recompile reproduces everything this decompiler reads.\n";
    } else {
        qc += "// What a recompile would not reproduce:\n";
        for (const std::string& n : notes) {
            qc += "//   - " + n + "\n";
        }
    }
    qc += "\n" + body;
    out.files.insert(out.files.begin(), DecompiledFile{qcName, std::move(qc)});
    return out;
}

namespace {

// The .vtx switch point of each LOD (bodypart 0, model 0), empty when it does not read.
std::vector<float> vtxSwitchPoints(const std::string& bytes)
{
    std::vector<float> out;
    const auto i32 = [&](std::size_t o) -> std::int64_t {
        if (o + 4 > bytes.size()) {
            return -1;
        }
        std::int32_t v = 0;
        std::memcpy(&v, bytes.data() + o, 4);
        return v;
    };
    if (i32(0) != 7) {
        return out;
    }
    const std::int64_t parts = i32(28), partOffset = i32(32);
    if (parts < 1 || partOffset < 0) {
        return out;
    }
    const std::size_t bp = static_cast<std::size_t>(partOffset);
    const std::int64_t models = i32(bp), modelOffset = i32(bp + 4);
    if (models < 1 || modelOffset < 0) {
        return out;
    }
    const std::size_t mo = bp + static_cast<std::size_t>(modelOffset);
    const std::int64_t lods = i32(mo), lodOffset = i32(mo + 4);
    if (lods < 1 || lods > 8 || lodOffset < 0) {
        return out;
    }
    for (std::int64_t l = 0; l < lods; ++l) {
        const std::size_t lo =
            mo + static_cast<std::size_t>(lodOffset) + static_cast<std::size_t>(l) * 12 + 8;
        if (lo + 4 > bytes.size()) {
            return {};
        }
        float f = 0;
        std::memcpy(&f, bytes.data() + lo, 4);
        out.push_back(f);
    }
    return out;
}

} // namespace

bool isDecompile(const std::string& inPath, const std::string& outPath)
{
    if (extensionLower(outPath) != "qc") {
        return false;
    }
    // Any IDST header (the versions RigScope does not read are refused by decompileFile) or
    // Afterburner's 'AFTB' (docs/compiled.md "Afterburner").
    const FileReadResult head = readFileHead(inPath, 8);
    return head.ok() && head.bytes.size() >= 8 &&
           (head.bytes.compare(0, 4, "IDST") == 0 || head.bytes.compare(0, 4, "AFTB") == 0);
}

DecompileResult decompileFile(const std::string& mdlPath, const std::string& qcPath,
                              const DecompileOptions& options)
{
    DecompileResult res;
    const FileReadResult mdl = readFile(mdlPath);
    if (!mdl.ok()) {
        res.exitCode = 2;
        res.error = mdl.error;
        return res;
    }
    if (sniffCompiledMdl(mdl.bytes) != 100) {
        if (mdl.bytes.size() >= 8 && mdl.bytes.compare(0, 4, "IDST") == 0) {
            std::int32_t version = 0;
            std::memcpy(&version, mdl.bytes.data() + 4, 4);
            res.exitCode = 1;
            res.error = "'" + mdlPath + "' is a version " + std::to_string(version) +
                        " .mdl: RigScope decompiles Source v44-v49 and GoldSrc v10 models";
            return res;
        }
        res.exitCode = 2;
        res.error = "'" + mdlPath + "' is not a compiled model (.mdl)";
        return res;
    }
    const CompiledCompanions found = findCompiledCompanions(mdlPath);
    if (!found.vbm.empty()) {
        res.exitCode = 1;
        res.error = "'" + mdlPath + "' keeps its meshes and textures in '" + found.vbm +
                    "' (Pathos vbmcompiler), which RigScope does not read: not decompiled";
        return res;
    }
    const auto companion = [](const std::string& path, std::string& keep) {
        CompiledFile f;
        if (path.empty()) {
            return f;
        }
        FileReadResult r = readFile(path);
        if (!r.ok()) {
            return f;
        }
        keep = std::move(r.bytes);
        f.bytes = keep;
        f.fileName = path;
        f.present = true;
        return f;
    };
    ReadContext ctx;
    ctx.fileName = mdlPath;
    ctx.profile = options.profile;
    const bool goldsrc = mdl.bytes.size() >= 8 && mdl.bytes[4] == 10;
    std::string vvdBytes, vtxBytes, phyBytes, aniBytes, texBytes;
    std::vector<std::string> groupBytes(found.sequenceGroups.size());
    CompiledReadResult r;
    std::vector<Model> lods;
    std::vector<float> switchPoints;
    const CompiledFile mdlFile{mdl.bytes, mdlPath, true};
    if (goldsrc) {
        GoldsrcMdlFiles files;
        files.mdl = mdlFile;
        files.textures = companion(found.textures, texBytes);
        for (std::size_t g = 0; g < found.sequenceGroups.size(); ++g) {
            files.sequenceGroups.push_back(companion(found.sequenceGroups[g], groupBytes[g]));
        }
        r = readGoldsrcMdl(files, ctx, {});
    } else {
        SourceMdlFiles files;
        files.mdl = mdlFile;
        files.vvd = companion(found.vvd, vvdBytes);
        files.vtx = companion(found.vtx, vtxBytes);
        files.phy = companion(found.phy, phyBytes);
        files.ani = companion(found.ani, aniBytes);
        r = readSourceMdl(files, ctx, {});
        for (std::int32_t l = 1; l < r.info.lods; ++l) {
            CompiledReadOptions o;
            o.lod = l;
            o.animations = false;
            CompiledReadResult lr = readSourceMdl(files, ctx, o);
            lods.push_back(std::move(lr.model));
        }
        switchPoints = vtxSwitchPoints(vtxBytes);
    }
    res.diagnostics = std::move(r.diagnostics);
    if (!r.hasModel) {
        res.exitCode = 1;
        res.error = "cannot read '" + mdlPath + "'";
        return res;
    }
    std::size_t slash = qcPath.find_last_of('/');
    const std::string qcName = slash == std::string::npos ? qcPath : qcPath.substr(slash + 1);
    DecompiledProject p =
        decompileModel(r.model, r.info, lods, switchPoints, qcName,
                       goldsrc ? std::vector<VvdSurface>() : vvdSurfaces(vvdBytes),
                       diskTexturesOf(r.info, mdlPath, qcPath));
    res.notes = p.notes;
    const std::string dir = folderOf(qcPath);
    // Refuse before writing anything.
    for (const DecompiledFile& f : p.files) {
        const std::string path = dir + f.name;
        if (sameFile(path, mdlPath)) {
            res.exitCode = 2;
            res.error = "refusing to write over the input '" + mdlPath + "'";
            return res;
        }
        if (!options.force && fileExists(path)) {
            res.exitCode = 2;
            res.error = "'" + path + "' exists; pass --force to overwrite it";
            return res;
        }
    }
    if (!dir.empty()) {
        const std::string err = makeDirectories(dir.substr(0, dir.size() - 1));
        if (!err.empty()) {
            res.exitCode = 2;
            res.error = err;
            return res;
        }
    }
    for (const DecompiledFile& f : p.files) {
        const std::string path = dir + f.name;
        const std::size_t sub = f.name.find_last_of('/');
        if (sub != std::string::npos) {
            const std::string err = makeDirectories(dir + f.name.substr(0, sub));
            if (!err.empty()) {
                res.exitCode = 2;
                res.error = err;
                return res;
            }
        }
        const std::string err = writeFileAtomic(
            path, f.bytes, options.force ? WriteMode::Overwrite : WriteMode::RefuseExisting);
        if (!err.empty()) {
            res.exitCode = 2;
            res.error = err;
            return res;
        }
        res.written.push_back(path);
    }
    return res;
}

} // namespace rigscope::core
