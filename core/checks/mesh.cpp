// mesh.* checks (CHECKS.md §4.4).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include <Eigen/Geometry>

#include "core/build/weld.h"
#include "core/checks/check_util.h"
#include "core/checks/checks.h"

namespace rigscope::core::checks {

namespace {

std::string profileStr(Profile p)
{
    return std::string(profileName(p));
}

ElementRef triRef(std::size_t t)
{
    return {K::Triangle, static_cast<std::int32_t>(t)};
}

ElementRef matRef(std::size_t m)
{
    return {K::Material, static_cast<std::int32_t>(m)};
}

// The vertex a corner is selected as: SMD corner 3t+c (= its point); XMODEL pool vertex.
ElementRef cornerVertexRef(const Model& m, std::size_t c)
{
    const std::size_t v = isXModel(m) ? m.mesh.cornerPoints[c] : c;
    return {K::Vertex, static_cast<std::int32_t>(v)};
}

const Vec3& cornerPos(const Mesh& me, std::size_t c)
{
    return me.pointPositions[me.cornerPoints[c]];
}

Vec3 faceCross(const Mesh& me, std::size_t t)
{
    const Vec3& a = cornerPos(me, 3 * t);
    const Vec3& b = cornerPos(me, 3 * t + 1);
    const Vec3& c = cornerPos(me, 3 * t + 2);
    return (b - a).cross(c - a);
}

bool isDegenerate(const Mesh& me, std::size_t t)
{
    const Vec3& a = cornerPos(me, 3 * t);
    const Vec3& b = cornerPos(me, 3 * t + 1);
    const Vec3& c = cornerPos(me, 3 * t + 2);
    if (!a.allFinite() || !b.allFinite() || !c.allFinite()) {
        return false; // mesh.nan covers it
    }
    if (a == b || b == c || a == c) {
        return true;
    }
    const double e1 = (b - a).norm(), e2 = (c - a).norm();
    return faceCross(me, t).norm() <= 1e-6 * e1 * e2;
}

std::uint32_t bits(float f) noexcept
{
    if (f == 0.0f) {
        f = 0.0f;
    }
    std::uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return u;
}

std::string nanName(float v)
{
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

// First non-finite component of `v` as "x is nan"; empty when finite.
template <typename V> std::string badComponent(const V& v)
{
    static const char* const kAxis[] = {"x", "y", "z", "w"};
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        if (!std::isfinite(v[i])) {
            return std::string(kAxis[i]) + " is " + nanName(v[i]);
        }
    }
    return {};
}

} // namespace

void checkDegenerateTriangles(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        if (isDegenerate(me, t)) {
            sink.note(ids::kMeshDegenerateTriangle, me.triangleWhere[t],
                      text(sink, ids::kMeshDegenerateTriangle,
                           [t] { return "triangle " + std::to_string(t) + " has zero area"; }),
                      triRef(t));
        }
    }
}

void checkMisdirectedNormals(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    // XMODEL faces wind clockwise seen from the normal side (the CoD exporters write them
    // so and PyCoD reverses them on import); Valve formats wind counter-clockwise.
    const bool clockwise = isXModel(m); // once, not per triangle (a lookup by format name)
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        if (isDegenerate(me, t)) {
            continue;
        }
        const Vec3 fn = clockwise ? Vec3(-faceCross(me, t)) : faceCross(me, t);
        if (!fn.allFinite()) {
            continue;
        }
        int opposed = 0, valid = 0;
        for (std::size_t c = 3 * t; c < 3 * t + 3; ++c) {
            const Vec3& n = me.cornerNormals[c];
            if (!n.allFinite() || n.norm() < 1e-6f) {
                continue;
            }
            ++valid;
            opposed += n.dot(fn) < 0 ? 1 : 0;
        }
        if (opposed == 0) {
            continue;
        }
        if (opposed == 3) {
            sink.warning(ids::kMeshMisdirectedNormals, me.triangleWhere[t],
                         text(sink, ids::kMeshMisdirectedNormals,
                              [t] {
                                  return "triangle " + std::to_string(t) +
                                         " is reversed: its normals oppose its winding";
                              }),
                         triRef(t));
        } else if (goldSrcFamily(p)) {
            Diagnostic& d = sink.note(ids::kMeshMisdirectedNormals, me.triangleWhere[t],
                                      text(sink, ids::kMeshMisdirectedNormals,
                                           [&] {
                                               return "triangle " + std::to_string(t) + ": " +
                                                      std::to_string(opposed) + " of " +
                                                      std::to_string(valid) +
                                                      " corner normals oppose its winding";
                                           }),
                                      triRef(t));
            grade(d, p, Severity::Note);
        }
    }
}

void checkNormalLength(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    const bool pool = isXModel(m); // once, not per corner (a lookup by format name)
    VertexOnce once(m);
    // A random 100 MB SMD has ~900k unnormalised corners, each its own vertex (issue 27 item
    // 10): the batch form of first(), and the capped rows' text never built.
    once.sweep(
        me.cornerCount(),
        [&me](std::size_t c, VertexOnce::Probe& probe) {
            const Vec3& n = me.cornerNormals[c];
            if (!n.allFinite()) {
                return false;
            }
            const float len = n.norm();
            if (len >= 1e-6f && std::abs(len - 1.0f) <= 1e-3f) {
                return false;
            }
            probe.point = me.cornerPoints[c];
            probe.add(n.x());
            probe.add(n.y());
            probe.add(n.z());
            return true;
        },
        [&](std::size_t c) {
            const ElementRef ref{K::Vertex,
                                 static_cast<std::int32_t>(pool ? me.cornerPoints[c] : c)};
            const float len = me.cornerNormals[c].norm();
            if (len < 1e-6f) {
                sink.warning(ids::kMeshZeroNormal, me.cornerWhere[c],
                             p == Profile::Cod ? "vertex normal is zero; BO tools reject it"
                                               : "vertex normal is zero",
                             ref);
            } else {
                sink.note(ids::kMeshUnnormalisedNormal, me.cornerWhere[c],
                          text(sink, ids::kMeshUnnormalisedNormal,
                               [len] { return "normal length " + num(len); }),
                          ref);
            }
        });
}

void checkMeshNan(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    VertexOnce once(m);
    for (std::size_t pt = 0; pt < me.pointCount(); ++pt) {
        const std::string bad = badComponent(me.pointPositions[pt]);
        if (!bad.empty() && once.first(pt)) {
            sink.error(ids::kMeshNan, me.pointWhere[pt], "position " + bad,
                       {K::Vertex, static_cast<std::int32_t>(pt)});
        }
    }
    VertexOnce onceCorner(m);
    for (std::size_t c = 0; c < me.cornerCount(); ++c) {
        std::string bad = badComponent(me.cornerNormals[c]);
        const std::string badUv = badComponent(me.cornerUvs[c]);
        if (bad.empty() && badUv.empty()) {
            continue;
        }
        const Vec3& n = me.cornerNormals[c];
        const Vec2& uv = me.cornerUvs[c];
        if (!onceCorner.first(me.cornerPoints[c], {n.x(), n.y(), n.z(), uv.x(), uv.y()})) {
            continue;
        }
        if (!bad.empty()) {
            sink.error(ids::kMeshNan, me.cornerWhere[c], "normal " + bad, cornerVertexRef(m, c));
        }
        bad = badUv;
        if (!bad.empty()) {
            bad[0] = bad[0] == 'x' ? 'u' : 'v';
            sink.error(ids::kMeshNan, me.cornerWhere[c], "uv " + bad, cornerVertexRef(m, c));
        }
    }
    const Skeleton& s = m.skeleton;
    for (std::size_t j : jointsInFileOrder(s)) {
        std::string bad = badComponent(s.bindPositions[j]);
        std::string field = "bind position ";
        if (bad.empty()) {
            bad = badComponent(s.bindRotations[j]);
            field = "bind rotation ";
        }
        if (!bad.empty()) {
            sink.error(ids::kMeshNan, s.bindWhere[j].line ? s.bindWhere[j] : jointLoc(s, j),
                       field + bad + " on bone " + quoted(s.names[j]),
                       {K::Joint, static_cast<std::int32_t>(j)});
        }
    }
    // Animation keys: one report per bone (the first bad frame), frame 0 is the bind pose.
    for (const Animation& a : m.animations) {
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            for (std::size_t f = 1; f < a.frameCount(); ++f) {
                const std::size_t k = a.key(f, j);
                std::string bad = badComponent(a.positions[k]);
                if (bad.empty() && k < a.rotations.size()) {
                    bad = badComponent(a.rotations[k]);
                }
                if (!bad.empty()) {
                    sink.error(ids::kMeshNan, a.frameWhere[f],
                               "pose of bone " + quoted(boneName(s, static_cast<JointIndex>(j))) +
                                   " at frame " + num(a.times[f]) + ": " + bad,
                               {K::Joint, static_cast<std::int32_t>(j)});
                    break;
                }
            }
        }
    }
}

void checkEmptyMaterial(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    if (!isSmdFamily(m)) {
        return;
    }
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        if (me.materials[me.triangleMaterials[t]].name.empty()) {
            sink.warning(ids::kMeshEmptyMaterial, me.triangleWhere[t],
                         "triangle " + std::to_string(t) + " has no material; studiomdl skips it",
                         triRef(t));
        }
    }
}

void checkMaterialNameLength(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Limits lim = limitsFor(p, &m);
    if (lim.materialNameLength == 0) {
        return;
    }
    // The 2006 studiomdl cuts a name at 63 characters (ep1 v1support.cpp, texturename[64]);
    // SDK 2013's holds MAX_PATH (v1support.cpp Grab_Triangles, source256's limit): past 63 a
    // source name is a warning, an error only past what neither keeps.
    const std::size_t hard =
        p == Profile::Source ? limitsFor(Profile::Source256).materialNameLength : 0;
    const Mesh& me = m.mesh;
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        const std::size_t n = me.materials[i].name.size();
        if (n > std::max(hard, lim.materialNameLength)) {
            sink.error(ids::kMeshMaterialNameLength, me.materials[i].where,
                       "material name has " + std::to_string(n) + " chars; " + profileStr(p) +
                           " allows " + std::to_string(std::max(hard, lim.materialNameLength)),
                       matRef(i));
        } else if (n > lim.materialNameLength) {
            Diagnostic& d = sink.warning(ids::kMeshMaterialNameLength, me.materials[i].where,
                                         "material name has " + std::to_string(n) +
                                             " chars: the 2006 studiomdl cuts it at " +
                                             std::to_string(lim.materialNameLength) +
                                             ", SDK 2013's keeps " + std::to_string(hard),
                                         matRef(i));
            grade(d, p, Severity::Warning);
        }
    }
}

void checkMaterialChars(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    if (!isSmdFamily(m)) {
        return;
    }
    const Mesh& me = m.mesh;
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        const std::string& name = me.materials[i].name;
        if (name.empty()) {
            continue;
        }
        std::vector<std::string> what;
        bool quote = false;
        if (name.find('"') != std::string::npos) {
            what.emplace_back("a quote");
            quote = true;
        }
        if (name.find(' ') != std::string::npos) {
            what.emplace_back("spaces (assimp/IQM cut at the first space)");
        }
        if (name.find_first_of("/\\") != std::string::npos) {
            what.emplace_back("a path separator");
        }
        const auto blank = [](char c) { return c == ' ' || c == '\t'; };
        if (blank(name.front()) || blank(name.back())) {
            what.emplace_back("blanks at its edges");
        }
        if (what.empty()) {
            continue;
        }
        std::string list;
        for (std::size_t k = 0; k < what.size(); ++k) {
            list += (k == 0 ? "" : (k + 1 == what.size() ? " and " : ", ")) + what[k];
        }
        Diagnostic& d = sink.warning(ids::kMeshMaterialChars, me.materials[i].where,
                                     "material " + quoted(name) + " contains " + list, matRef(i));
        grade(d, p, quote ? Severity::Warning : Severity::Note);
    }
}

void checkMaterialNotBmp(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    // vbmcompiler opens NAME.bmp whatever extension the SMD gives, and with -s or -q no
    // texture at all (studiocompiler.cpp LoadTexture); the engine draws the .vbm with its own
    // materials (.pmf), so a .tga name is what Pathos models use.
    if (!isSmdFamily(m) || p == Profile::Pathos) {
        return;
    }
    // abstudiomdl's texture grabber takes .bmp and .png ("Unsupported graphics format" for any
    // other extension); a .png only with $flags 2048 or -e, which keep textures out of the
    // model ("PNG files are not supported if embedding textures into the MDL").
    const bool png = p == Profile::Afterburner;
    const Mesh& me = m.mesh;
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        const std::string& name = me.materials[i].name;
        if (!name.empty() && !asciiIEndsWith(name, ".bmp") &&
            !(png && asciiIEndsWith(name, ".png"))) {
            sink.error(ids::kMeshMaterialNotBmp, me.materials[i].where,
                       png ? "abstudiomdl loads only .bmp and .png textures (" + quoted(name) + ")"
                           : "GoldSrc loads only .bmp textures (" + quoted(name) + ")",
                       matRef(i));
        }
    }
}

void checkNullMaterial(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    std::vector<std::size_t> count(me.materials.size(), 0);
    std::vector<std::size_t> first(me.materials.size(), SIZE_MAX);
    for (std::size_t t = 0; t < me.triangleCount(); ++t) {
        const std::uint32_t mat = me.triangleMaterials[t];
        ++count[mat];
        first[mat] = std::min(first[mat], t);
    }
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        std::string n = asciiLower(me.materials[i].name);
        std::replace(n.begin(), n.end(), '\\', '/');
        const bool isNull = n == "null.bmp" || n == "null.tga" || n == "null" ||
                            n == "debug/debugempty" || n == "debug/debugempty.vmt";
        if (!isNull || count[i] == 0) {
            continue;
        }
        sink.note(ids::kMeshNullMaterial, me.triangleWhere[first[i]],
                  groupedCount(count[i]) + (count[i] == 1 ? " triangle uses " : " triangles use ") +
                      quoted(me.materials[i].name) + "; studiomdl skips them",
                  triRef(first[i]));
    }
}

void checkMaterialChrome(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        if (asciiLower(me.materials[i].name).find("chrome") != std::string::npos) {
            sink.note(ids::kMeshMaterialChrome, me.materials[i].where,
                      "GoldSrc sets CHROME+FLATSHADE on " + quoted(me.materials[i].name),
                      matRef(i));
        }
    }
}

// One weld serves mesh.vertex-limit, mesh.vertex-split, mesh.normal-limit and the
// mesh.unique-vertices budget note: welding is the expensive part.
void checkVertexLimit(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    if (me.empty()) {
        return;
    }
    const Limits lim = limitsFor(p, &m);
    const WeldStats& w = weldStatsOnce(m, p, lim.uniqueVertices, lim.uniqueNormals);
    const bool pool = p == Profile::Cod || isXModel(m);
    auto vertexWhere = [&](std::uint32_t i) { return pool ? me.pointWhere[i] : me.cornerWhere[i]; };
    auto vertexRef = [&](std::uint32_t i) {
        return pool ? ElementRef{K::Vertex, static_cast<std::int32_t>(i)} : cornerVertexRef(m, i);
    };
    // vbmcompiler stops at the .mdl's 2,048 only without -l or -s, which Pathos's own models
    // are built with (geometry lives in the .vbm): a note there.
    const bool limitIsNote = lim.vertexLimitIsNote;
    const std::string pathosWhy = "; vbmcompiler stops unless run with -l or -s (the .vbm "
                                  "it writes has no such limit)";
    if (lim.uniqueVertices > 0 && w.vertices > lim.uniqueVertices) {
        Diagnostic& d =
            sink.error(ids::kMeshVertexLimit, vertexWhere(w.vertexOverflow),
                       groupedCount(w.vertices) + " unique vertices after " + profileStr(p) +
                           " welding; at most " + groupedCount(lim.uniqueVertices) +
                           (limitIsNote ? pathosWhy : std::string()),
                       vertexRef(w.vertexOverflow));
        if (limitIsNote) {
            grade(d, p, Severity::Note);
        }
    } else if (lim.uniqueVertices > 0 && w.vertices * 4 > lim.uniqueVertices * 3) {
        const std::size_t pct = w.vertices * 100 / lim.uniqueVertices;
        sink.note(ids::kMeshUniqueVertices, {1, 1, 0},
                  groupedCount(w.vertices) + " of " + groupedCount(lim.uniqueVertices) +
                      " unique vertices (" + std::to_string(pct) + "%) after " + profileStr(p) +
                      " welding");
    }
    if (lim.vertexSplit > 0 && w.vertices > lim.vertexSplit) {
        sink.warning(ids::kMeshVertexSplit, {1, 1, 0},
                     groupedCount(w.vertices) + " vertices > $maxverts " +
                         groupedCount(lim.vertexSplit) + "; studiomdl splits the model");
    }
    if (lim.uniqueNormals > 0 && w.normals > lim.uniqueNormals) {
        Diagnostic& d = sink.error(ids::kMeshNormalLimit, me.cornerWhere[w.normalOverflow],
                                   groupedCount(w.normals) + " unique normals; " + profileStr(p) +
                                       " allows " + groupedCount(lim.uniqueNormals) +
                                       (limitIsNote ? pathosWhy : std::string()),
                                   cornerVertexRef(m, w.normalOverflow));
        if (limitIsNote) {
            grade(d, p, Severity::Note);
        }
    }
}

void checkTriangleLimit(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Limits lim = limitsFor(p, &m);
    const std::size_t n = m.mesh.triangleCount();
    if (lim.triangles == 0 || n <= lim.triangles) {
        return;
    }
    sink.warning(ids::kMeshTriangleLimit, m.mesh.triangleWhere[lim.triangles],
                 groupedCount(n) + " triangles; " + profileStr(p) + " table holds " +
                     groupedCount(lim.triangles),
                 triRef(lim.triangles));
}

void checkMaterialLimit(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Limits lim = limitsFor(p, &m);
    const Mesh& me = m.mesh;
    if (lim.materials == 0) {
        return;
    }
    // Materials in order of first use by a triangle.
    std::vector<std::uint8_t> used(me.materials.size(), 0);
    std::vector<std::size_t> order;
    for (std::uint32_t mat : me.triangleMaterials) {
        if (!used[mat]) {
            used[mat] = 1;
            order.push_back(mat);
        }
    }
    if (order.size() > lim.materials) {
        const std::size_t over = order[lim.materials];
        sink.error(ids::kMeshMaterialLimit, me.materials[over].where,
                   "model uses " + std::to_string(order.size()) + " materials; " + profileStr(p) +
                       " allows at most " + std::to_string(lim.materials),
                   matRef(over));
    }
    if (p == Profile::Cod && me.objects.size() > lim.materials) {
        sink.error(ids::kMeshMaterialLimit, {1, 1, 0},
                   "model uses " + std::to_string(me.objects.size()) +
                       " objects; cod allows at most " + std::to_string(lim.materials));
    }
}

void checkDuplicateTriangles(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Mesh& me = m.mesh;
    // A triangle's key: its material and its corners' position bits, rotated so the smallest
    // corner comes first (same winding only: a reversed copy is the back of a double-sided face).
    using Key = std::array<std::uint32_t, 10>;
    const auto keyOf = [&me](std::size_t t) {
        std::array<std::array<std::uint32_t, 3>, 3> pos{};
        for (std::size_t c = 0; c < 3; ++c) {
            const Vec3& v = cornerPos(me, 3 * t + c);
            pos[c] = {bits(v.x()), bits(v.y()), bits(v.z())};
        }
        std::rotate(pos.begin(), std::min_element(pos.begin(), pos.end()), pos.end());
        Key k{};
        k[0] = me.triangleMaterials[t];
        for (std::size_t c = 0; c < 3; ++c) {
            for (std::size_t i = 0; i < 3; ++i) {
                k[1 + 3 * c + i] = pos[c][i];
            }
        }
        return k;
    };
    const auto hashOf = [](const Key& k) {
        // Two words a step through a folded 128-bit product (the table takes its index from the
        // low bits and its tag from the high ones).
        __extension__ using Wide = unsigned __int128;
        std::uint64_t h = 0x243F6A8885A308D3ull;
        for (std::size_t i = 0; i < k.size(); i += 2) {
            const Wide p = static_cast<Wide>(h ^ (std::uint64_t(k[i + 1]) << 32 | k[i])) *
                           0x9E3779B97F4A7C15ull;
            h = static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
        }
        return finishHash(h);
    };
    // One flat table of the first triangle of each key (issue 27 item 10: a node per triangle
    // in a hash map cost an allocation each and 3x the memory); a key is built again for the
    // kept triangle only when the hash bits match. The keys of the next triangles are built
    // ahead and their slots prefetched: on a mesh larger than the caches the table costs
    // bandwidth, not a miss per triangle.
    const std::size_t nt = me.triangleCount();
    WeldTable table(nt);
    constexpr std::size_t kAhead = 8;
    std::array<Key, kAhead> ahead{};
    std::array<std::uint64_t, kAhead> aheadHash{};
    const auto prepare = [&](std::size_t t) {
        ahead[t % kAhead] = keyOf(t);
        aheadHash[t % kAhead] = hashOf(ahead[t % kAhead]);
        table.prefetch(aheadHash[t % kAhead]);
    };
    for (std::size_t t = 0; t < std::min(nt, kAhead); ++t) {
        prepare(t);
    }
    for (std::size_t t = 0; t < nt; ++t) {
        const Key k = ahead[t % kAhead];
        const std::uint64_t hash = aheadHash[t % kAhead];
        if (t + kAhead < nt) {
            prepare(t + kAhead);
        }
        bool created = false;
        const std::uint32_t first = table.findOrAddKey(
            hash, static_cast<std::uint32_t>(t),
            [&](std::uint32_t earlier) { return keyOf(earlier) == k; }, created);
        if (created) {
            continue;
        }
        Diagnostic& d = sink.note(ids::kMeshDuplicateTriangle, me.triangleWhere[t],
                                  text(sink, ids::kMeshDuplicateTriangle,
                                       [t, first] {
                                           return "triangle " + std::to_string(t) +
                                                  " duplicates triangle " + std::to_string(first);
                                       }),
                                  triRef(t));
        d.related.push_back({sink.file(), me.triangleWhere[first], "first triangle here"});
    }
}

} // namespace rigscope::core::checks
