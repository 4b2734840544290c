// rigscope-test: TIMEOUT 300
// Issue 30: `compare` (the QC compile's prediction against the compiled model) and the
// prediction calibrated on public pairs of sources and the models studiomdl built from them.
// The pairs are read from RIGSCOPE_TESTDATA (default /work/data) when present.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>

#include "core/ops/compare.h"
#include "core/ops/info.h"
#include "core/ops/qc_ops.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/public_data.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

// An SMD triangle corner: bone, position, normal, UV and optional links ("1 0 1").
std::string corner(int bone, const Vec3& p, const Vec3& n, const Vec2& uv,
                   const std::string& links = {})
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "%d %g %g %g %g %g %g %g %g", bone, double(p.x()), double(p.y()),
                  double(p.z()), double(n.x()), double(n.y()), double(n.z()), double(uv.x()),
                  double(uv.y()));
    return std::string(buf) + (links.empty() ? "" : " " + links) + "\n";
}

// "nodes" and a bind pose of `bones` (name, parent, position), then `triangles`.
std::string smd(const std::vector<std::tuple<std::string, int, Vec3>>& bones,
                const std::string& triangles)
{
    std::string s = "version 1\nnodes\n";
    for (std::size_t i = 0; i < bones.size(); ++i) {
        s += std::to_string(i) + " \"" + std::get<0>(bones[i]) + "\" " +
             std::to_string(std::get<1>(bones[i])) + "\n";
    }
    s += "end\nskeleton\ntime 0\n";
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const Vec3& p = std::get<2>(bones[i]);
        char buf[128];
        std::snprintf(buf, sizeof buf, "%zu %g %g %g 0 0 0\n", i, double(p.x()), double(p.y()),
                      double(p.z()));
        s += buf;
    }
    s += "end\ntriangles\n" + triangles + "end\n";
    return s;
}

const Vec3 kUp(0, 0, 1);

// One triangle of material "m" on `bone` (no links), facing up, UVs (0,0) (1,0) (0,1).
std::string triangle(int bone, const Vec3& a, const Vec3& b, const Vec3& c)
{
    return "m\n" + corner(bone, a, kUp, Vec2(0, 0)) + corner(bone, b, kUp, Vec2(1, 0)) +
           corner(bone, c, kUp, Vec2(0, 1));
}

// Two triangles on one material sharing the edge (1,0,0)-(0,1,0).
std::string quad(const std::string& material, const Vec3& n1, const Vec3& n2, int bone1 = 0,
                 int bone2 = 0, float z = 0)
{
    return material + "\n" + corner(bone1, Vec3(0, 0, z), kUp, Vec2(0, 0)) +
           corner(bone1, Vec3(1, 0, z), n1, Vec2(1, 0)) +
           corner(bone1, Vec3(0, 1, z), n1, Vec2(0, 1)) + material + "\n" +
           corner(bone2, Vec3(1, 0, z), n2, Vec2(1, 0)) +
           corner(bone2, Vec3(1, 1, z), kUp, Vec2(1, 1)) +
           corner(bone2, Vec3(0, 1, z), n2, Vec2(0, 1));
}

// Whether the predicted hull is lo..hi to 1e-5 (a turn's sine and cosine), and its text.
bool hullNear(const CompiledModelInfo& c, const Vec3& lo, const Vec3& hi)
{
    return (c.hullMin - lo).cwiseAbs().maxCoeff() < 1e-5f &&
           (c.hullMax - hi).cwiseAbs().maxCoeff() < 1e-5f;
}
QString hullText(const CompiledModelInfo& c)
{
    QString s;
    for (const Vec3* v : {&c.hullMin, &c.hullMax}) {
        s +=
            QStringLiteral("%1 %2 %3 ").arg(double(v->x())).arg(double(v->y())).arg(double(v->z()));
    }
    return s;
}

CompiledModelInfo predict(const std::string& qc, const std::map<std::string, std::string>& files,
                          std::int32_t version = 0)
{
    MemoryQcFileSystem fs;
    fs.files["p/main.qc"] = qc;
    for (const auto& [name, bytes] : files) {
        fs.files["p/" + name] = bytes;
    }
    return predictCompiled(qcReport("p/main.qc", Profile::Auto, fs), version);
}

QStringList differenceLines(const std::vector<CompareDifference>& d)
{
    QStringList out;
    for (const CompareDifference& x : d) {
        out << QString::fromStdString(x.field + ": " + x.predicted + " | " + x.compiled +
                                      (x.stale ? " stale" : ""));
    }
    return out;
}

void write(const QString& path, const std::string& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
}

// The "vertices" budget meter of a checked file, -1 when it has none.
long long vertexMeter(const CheckedFile& f)
{
    for (const BudgetMeter& b : f.budget) {
        if (b.name == "vertices") {
            return static_cast<long long>(b.used);
        }
    }
    return -1;
}

// `info X.qc --json`'s "vertices" (-1: absent or null).
long long qcInfoVertices(const std::string& qc)
{
    const QJsonObject o =
        QJsonDocument::fromJson(QByteArray::fromStdString(qcInfoJson(qcInfoFromFile(qc, {}))))
            .object();
    return o.value(QStringLiteral("vertices")).isDouble()
               ? static_cast<long long>(o.value(QStringLiteral("vertices")).toDouble())
               : -1;
}

} // namespace

class TstCompare : public QObject {
    Q_OBJECT

private slots:
    // studiomdl welds corners whose normals lie within 2° of each other; a zero normal is
    // within 2° of nothing (its dot product is 0), so each corner with one is a vertex of its
    // own.
    void zeroNormalsNeverWeld()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        const Vec3 zero = Vec3::Zero();
        const CompiledModelInfo lit =
            predict(qc, {{"a.smd", smd({{"root", -1, zero}}, quad("m", kUp, kUp))}});
        QCOMPARE(lit.bodyparts.at(0).models.at(0).vertices, 4);
        const CompiledModelInfo dark =
            predict(qc, {{"a.smd", smd({{"root", -1, zero}}, quad("m", zero, zero))}});
        QCOMPARE(dark.bodyparts.at(0).models.at(0).vertices, 6);
        QCOMPARE(dark.bodyparts.at(0).models.at(0).triangles, 2);
    }

    // $staticprop: studiomdl welds each file as it reads it, on the bones it names; the
    // collapse into static_prop comes later, so corners on different bones stay apart.
    void staticPropWeldsOnTheBonesAsWritten()
    {
        const std::string qc =
            "$modelname t.mdl\n$staticprop\n$body b a.smd\n$sequence idle a.smd\n";
        const std::string a =
            smd({{"root", -1, Vec3::Zero()}, {"lid", 0, Vec3(0, 0, 1)}}, quad("m", kUp, kUp, 0, 1));
        const CompiledModelInfo c = predict(qc, {{"a.smd", a}});
        QCOMPARE(int(c.bones.size()), 1);
        QCOMPARE(c.bones.at(0).name, std::string("static_prop"));
        QCOMPARE(c.bodyparts.at(0).models.at(0).vertices, 6);
    }

    // The studiomdl of version 44 models (HL2, Source 2006) welds a $staticprop's vertices
    // after moving them onto its one bone: corners the bones alone kept apart become one vertex
    // (five Spacebuild props: `stubet` 149 vertices, not 151). SDK 2013's keeps them apart
    // (`portal_door_combined` v48: 6,790, not 6,746).
    void staticPropWeldsOnOneBoneInVersion44()
    {
        const std::string qc =
            "$modelname t.mdl\n$staticprop\n$body b a.smd\n$sequence idle a.smd\n";
        const std::string a = smd({{"left", -1, Vec3::Zero()}, {"right", -1, Vec3::Zero()}},
                                  quad("m", kUp, kUp, 0, 1));
        QCOMPARE(predict(qc, {{"a.smd", a}}, 44).bodyparts.at(0).models.at(0).vertices, 4);
        QCOMPARE(predict(qc, {{"a.smd", a}}, 48).bodyparts.at(0).models.at(0).vertices, 6);
        QCOMPARE(predict(qc, {{"a.smd", a}}).bodyparts.at(0).models.at(0).vertices, 6);
        // Without $staticprop the bones keep the corners apart in version 44 too.
        const std::string animated = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        QCOMPARE(predict(animated, {{"a.smd", a}}, 44).bodyparts.at(0).models.at(0).vertices, 6);
    }

    // The .vvd of a model with $lod holds every vertex its LODs use: LOD 0's and those of the
    // replacement files that LOD 0 does not have. Triangles are LOD 0's.
    void lodVerticesJoinTheModel()
    {
        const std::string qc = "$modelname t.mdl\n$staticprop\n$body b a.smd\n"
                               "$lod 10\n{\n replacemodel a.smd a_lod1.smd\n}\n"
                               "$sequence idle a.smd\n";
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        const std::string lod1 = "m\n" + corner(0, Vec3(0, 0, 0), kUp, Vec2(0, 0)) +
                                 corner(0, Vec3(1, 0, 0), kUp, Vec2(1, 0)) +
                                 corner(0, Vec3(0, 2, 0), kUp, Vec2(0, 1));
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd(bones, quad("m", kUp, kUp))}, {"a_lod1.smd", smd(bones, lod1)}});
        QCOMPARE(c.bodyparts.at(0).models.at(0).vertices, 5);
        QCOMPARE(c.bodyparts.at(0).models.at(0).triangles, 2);
        // The generated box and the hull hold the LOD's vertices too (turned 90° about Z).
        QCOMPARE(c.hitboxSets.at(0).boxes.size(), std::size_t(1));
        QCOMPARE(c.hitboxSets.at(0).boxes.at(0).min, Vec3(-2, 0, 0));
        QCOMPARE(c.hitboxSets.at(0).boxes.at(0).max, Vec3(0, 1, 0));
        QCOMPARE(c.hullMin, Vec3(-2, 0, 0));
        QCOMPARE(c.hullMax, Vec3(0, 1, 0));
        // A LOD vertex joins one of LOD 0 within 10° of normal (UnifyLODs' tolerance), not only
        // one within the 2° of a file's own weld.
        const std::string tilted = "m\n" + corner(0, Vec3(0, 0, 0), Vec3(0, 0.1f, 1), Vec2(0, 0)) +
                                   corner(0, Vec3(1, 0, 0), kUp, Vec2(1, 0)) +
                                   corner(0, Vec3(0, 2, 0), kUp, Vec2(0, 1));
        const CompiledModelInfo t = predict(
            qc, {{"a.smd", smd(bones, quad("m", kUp, kUp))}, {"a_lod1.smd", smd(bones, tilted)}});
        QCOMPARE(t.bodyparts.at(0).models.at(0).vertices, 5);
    }

    // studiomdl's UnifyLODs, per material of LOD 0: a LOD vertex takes the LOD 0 vertex within
    // 0.01 in position and UV and 10° of normal, whatever its own weights; else it keeps its
    // own position, UV, normal and tangent with the weights of the nearest LOD 0 vertex, and
    // joins a vertex an earlier LOD added only within those tolerances, the weights' and the
    // tangent's (10°, same handedness) too. A material LOD 0 lacks adds nothing.
    void lodWeldFollowsUnifyLods()
    {
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()},
                                                                    {"lid", 0, Vec3(0, 0, 1)}};
        const std::string body = smd(bones, quad("m", kUp, kUp));
        auto vertices = [&](const std::vector<std::string>& lods) {
            std::string qc = "$modelname t.mdl\n$body b a.smd\n";
            std::map<std::string, std::string> files{{"a.smd", body}};
            for (std::size_t i = 0; i < lods.size(); ++i) {
                const std::string name = "a_lod" + std::to_string(i + 1) + ".smd";
                qc += "$lod " + std::to_string(10 * (i + 1)) + "\n{\n replacemodel a.smd " + name +
                      "\n}\n";
                files[name] = smd(bones, lods[i]);
            }
            qc += "$sequence idle a.smd\n";
            return predict(qc, files).bodyparts.at(0).models.at(0).vertices;
        };
        auto tri = [](const std::string& material, int bone, const Vec3& a, const Vec2& ua,
                      const Vec3& b, const Vec2& ub, const Vec3& c, const Vec2& uc,
                      const Vec3& na = kUp) {
            return material + "\n" + corner(bone, a, na, ua) + corner(bone, b, kUp, ub) +
                   corner(bone, c, kUp, uc);
        };
        QCOMPARE(vertices({}), 4);
        // 0.005 off in position and UV, 5.7° off in normal, on another bone: LOD 0's vertices.
        QCOMPARE(vertices({tri("m", 1, Vec3(0.005f, 0, 0), Vec2(0.005f, 0), Vec3(1, 0, 0),
                               Vec2(1, 0), Vec3(0, 1, 0), Vec2(0, 1), Vec3(0, 0.1f, 1))}),
                 4);
        // 0.02 off in position: a vertex of its own.
        QCOMPARE(vertices({tri("m", 0, Vec3(0.02f, 0, 0), Vec2(0, 0), Vec3(1, 0, 0), Vec2(1, 0),
                               Vec3(0, 1, 0), Vec2(0, 1))}),
                 5);
        // A material LOD 0 does not have.
        QCOMPARE(vertices({tri("other", 0, Vec3(0, 3, 0), Vec2(0, 0), Vec3(1, 3, 0), Vec2(1, 0),
                               Vec3(0, 4, 0), Vec2(0, 1))}),
                 4);
        // Two LODs add a triangle at the same new place: one set of vertices when their UVs
        // run the same way, two when the second's tangent frame is mirrored (its vertex at
        // (0,3,0) and (0,4,0) has the other handedness; (-1,3,0) is new either way).
        const std::string lod1 = tri("m", 0, Vec3(0, 3, 0), Vec2(0, 0), Vec3(1, 3, 0), Vec2(1, 0),
                                     Vec3(0, 4, 0), Vec2(0, 1));
        QCOMPARE(vertices({lod1, lod1}), 7);
        const std::string mirrored = tri("m", 0, Vec3(0, 3, 0), Vec2(0, 0), Vec3(-1, 3, 0),
                                         Vec2(1, 0), Vec3(0, 4, 0), Vec2(0, 1));
        QCOMPARE(vertices({lod1, mirrored}), 10);
    }

    // The 2006 studiomdl (version 44 models) joins LOD vertices with wider tolerances
    // (episode1 UnifyLODs.cpp: 0.05 in position, 0.1 in UV, 60° of normal and tangent, 0.5 of
    // weight error; SDK 2013's 0.01, 0.01, 10°, 0.05): Portal's and DayHard's v44 foliage and
    // props with LODs predicted up to 243 vertices too many (oak_tree01 4,251 for 4,008).
    void lodWeldTolerancesOfVersion44()
    {
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$lod 10\n{\n replacemodel a.smd "
                               "a_lod1.smd\n}\n$sequence idle a.smd\n";
        auto vertices = [&](const std::string& lod, std::int32_t version) {
            return predict(qc,
                           {{"a.smd", smd(bones, quad("m", kUp, kUp))},
                            {"a_lod1.smd", smd(bones, lod)}},
                           version)
                .bodyparts.at(0)
                .models.at(0)
                .vertices;
        };
        // 0.03 off in position, 0.05 in UV and 30° in normal: LOD 0's vertex for v44 only.
        const std::string near =
            "m\n" + corner(0, Vec3(0.03f, 0, 0), Vec3(0, 0.5f, 0.8660254f), Vec2(0.05f, 0)) +
            corner(0, Vec3(1, 0, 0), kUp, Vec2(1, 0)) + corner(0, Vec3(0, 1, 0), kUp, Vec2(0, 1));
        QCOMPARE(vertices(near, 48), 5);
        QCOMPARE(vertices(near, 44), 4);
        // 0.06 off in position: a vertex of its own for both.
        const std::string far = "m\n" + corner(0, Vec3(0.06f, 0, 0), kUp, Vec2(0, 0)) +
                                corner(0, Vec3(1, 0, 0), kUp, Vec2(1, 0)) +
                                corner(0, Vec3(0, 1, 0), kUp, Vec2(0, 1));
        QCOMPARE(vertices(far, 48), 5);
        QCOMPARE(vertices(far, 44), 5);
    }

    // A LOD that collapses bones (replacebone, bonetreecollapse; the LOD's file is LOD 0's
    // own when no replacemodel names it): each LOD 0 vertex whose weights the collapse changes
    // becomes a vertex of its own, unless one with the same position, UV, normal, tangent and
    // new weights is there. Here the lid's three vertices move onto root: two are root's own
    // already, (1,1,0) is new.
    void lodBoneCollapsesAddVertices()
    {
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()},
                                                                    {"lid", 0, Vec3(0, 0, 1)}};
        auto vertices = [&](const std::string& lod) {
            const std::string qc =
                "$modelname t.mdl\n$body b a.smd\n" + lod + "$sequence idle a.smd\n";
            return predict(qc, {{"a.smd", smd(bones, quad("m", kUp, kUp, 0, 1))}})
                .bodyparts.at(0)
                .models.at(0)
                .vertices;
        };
        QCOMPARE(vertices(""), 6);
        QCOMPARE(vertices("$lod 10\n{\n replacebone lid root\n}\n"), 7);
        QCOMPARE(vertices("$lod 10\n{\n bonetreecollapse root\n}\n"), 7);
        QCOMPARE(vertices("$lod 10\n{\n bonetreecollapse lid\n}\n"), 6);
        // Two LODs collapsing the same way add the vertex once.
        QCOMPARE(vertices("$lod 10\n{\n replacebone lid root\n}\n$lod 20\n{\n replacebone lid "
                          "root\n}\n"),
                 7);
    }

    // A triangle two of whose corners weld into one vertex is dropped; its vertices stay.
    void degenerateTrianglesAreDropped()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        const std::string sliver = "m\n" + corner(0, Vec3(0, 0, 0), kUp, Vec2(0, 0)) +
                                   corner(0, Vec3(0, 0, 0), kUp, Vec2(0, 0)) +
                                   corner(0, Vec3(5, 5, 5), kUp, Vec2(0.5f, 0.5f));
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp) + sliver)}});
        QCOMPARE(c.bodyparts.at(0).models.at(0).triangles, 2);
        QCOMPARE(c.bodyparts.at(0).models.at(0).vertices, 5);
    }

    // The .vtx is built by NvTriStrip (optimize.cpp Stripify), and NvStripifier's
    // BuildStripifyInfo drops a triangle whose three vertices are an earlier triangle's in the
    // same order (AlreadyExists compares v0, v1, v2 as they stand): the same triangle turned
    // (same winding, another first corner) stays. bay1: 12 copies, 3 in the same order.
    void sameOrderCopiesAreDropped()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        const std::string c0 = corner(0, Vec3(0, 0, 0), kUp, Vec2(0, 0));
        const std::string c1 = corner(0, Vec3(1, 0, 0), kUp, Vec2(1, 0));
        const std::string c2 = corner(0, Vec3(0, 1, 0), kUp, Vec2(0, 1));
        const std::string copies = "m\n" + c0 + c1 + c2 + "m\n" + c1 + c2 + c0;
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp) + copies)}});
        QCOMPARE(c.bodyparts.at(0).models.at(0).triangles, 3);
        QCOMPARE(c.bodyparts.at(0).models.at(0).vertices, 4);
    }

    // Without $hbox studiomdl boxes the vertices of each bone in its own space, from the bone's
    // origin, in bone order, and keeps a box only when each side is longer than one unit.
    void hitboxesAreGenerated()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        // root (no vertex), arm at (10,0,0): a 2 x 1.5 x 3 block from x=11; tip at (0,5,0): a
        // thin sliver 0.25 deep.
        std::string tris;
        auto box = [&](int bone, const Vec3& lo, const Vec3& hi) {
            tris += "m\n" + corner(bone, lo, kUp, Vec2(0, 0)) +
                    corner(bone, Vec3(hi.x(), lo.y(), lo.z()), kUp, Vec2(1, 0)) +
                    corner(bone, hi, kUp, Vec2(1, 1));
        };
        box(1, Vec3(11, 0, 0), Vec3(13, 1.5f, 3));
        box(2, Vec3(1, 5, 1), Vec3(3, 5.25f, 3));
        const CompiledModelInfo c = predict(qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()},
                                                                {"arm", 0, Vec3(10, 0, 0)},
                                                                {"tip", 0, Vec3(0, 5, 0)}},
                                                               tris)}});
        QCOMPARE(c.hitboxSets.size(), std::size_t(1));
        const auto& boxes = c.hitboxSets.front().boxes;
        QCOMPARE(boxes.size(), std::size_t(1));
        QCOMPARE(c.bones.at(std::size_t(boxes[0].bone)).name, std::string("arm"));
        QCOMPARE(boxes[0].min, Vec3(0, 0, 0));
        QCOMPARE(boxes[0].max, Vec3(3, 1.5f, 3));
        // The hull: every bone's box kept or not (the root's from its origin to its
        // children's) and the vertices, through the model's 90° turn about Z; the light at
        // its centre.
        QCOMPARE(c.hullMin, Vec3(-5.25f, 0, 0));
        QCOMPARE(c.hullMax, Vec3(0, 13, 3));
        QCOMPARE(c.illumPosition, Vec3(-2.625f, 6.5f, 1.5f));
    }

    // A side of exactly one unit is not enough: SetupHitBoxes keeps a bone's box when
    // `bmin < bmax - 1` on every axis. $skipboneinbbox (g_bUseBoneInBBox false) starts each box
    // empty instead of at the bone's origin, so the box hugs the vertices, and a bone with
    // neither a vertex nor a child adds nothing to the hull (its box stays inverted, 9999 to
    // -9999, and TransformAABB of it widens nothing).
    void skipBoneInBBoxStartsBoxesEmpty()
    {
        std::string tris;
        auto box = [&](int bone, const Vec3& lo, const Vec3& hi) {
            tris += "m\n" + corner(bone, lo, kUp, Vec2(0, 0)) +
                    corner(bone, Vec3(hi.x(), lo.y(), lo.z()), kUp, Vec2(1, 0)) +
                    corner(bone, hi, kUp, Vec2(1, 1));
        };
        box(1, Vec3(11, 0, 0), Vec3(13, 1.5f, 3)); // arm: 1..3 x 0..1.5 x 0..3 in its space
        box(2, Vec3(1, 5, 1), Vec3(3, 6, 3));      // tip: exactly one unit deep from its origin
        const std::map<std::string, std::string> files{
            {"a.smd", smd({{"root", -1, Vec3::Zero()},
                           {"arm", 0, Vec3(10, 0, 0)},
                           {"tip", 0, Vec3(0, 5, 0)},
                           {"spare", -1, Vec3(0, -20, 0)}},
                          tris)}};
        // The attachment keeps the spare root, which has no vertex (studiomdl drops such a bone
        // unless something uses it).
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                               "$attachment hook spare 0 0 0\n";
        const CompiledModelInfo plain = predict(qc, files);
        QCOMPARE(plain.bones.size(), std::size_t(4));
        QCOMPARE(plain.hitboxSets.size(), std::size_t(1));
        QCOMPARE(plain.hitboxSets.front().boxes.size(), std::size_t(1)); // tip's 3 x 1 x 2: no
        QCOMPARE(plain.hitboxSets.front().boxes[0].min, Vec3(0, 0, 0));
        // The spare root's origin (0,-20,0) is its render bounds: turned 90° about Z, x = 20.
        QCOMPARE(plain.hullMin, Vec3(-6, 0, 0));
        QCOMPARE(plain.hullMax, Vec3(20, 13, 3));

        const CompiledModelInfo skip = predict(qc + "$skipboneinbbox\n", files);
        QCOMPARE(skip.hitboxSets.size(), std::size_t(1));
        const auto& boxes = skip.hitboxSets.front().boxes;
        QCOMPARE(boxes.size(), std::size_t(1));
        QCOMPARE(skip.bones.at(std::size_t(boxes[0].bone)).name, std::string("arm"));
        QCOMPARE(boxes[0].min, Vec3(1, 0, 0));
        QCOMPARE(boxes[0].max, Vec3(3, 1.5f, 3));
        QCOMPARE(skip.hullMin, Vec3(-6, 0, 0));
        QCOMPARE(skip.hullMax, Vec3(0, 13, 3));
    }

    // A $hboxset without any $hbox makes an empty set, and studiomdl generates boxes only when
    // there is no set at all (SetupHitBoxes: `g_hitboxsets.Size() == 0`): the model has no
    // hitbox (the Spacebuild props' `$hboxset "default"`, compiled with 0 hitboxes in 1 set).
    void hboxsetWithoutHboxGeneratesNothing()
    {
        const std::string qc = "$modelname t.mdl\n$hboxset \"default\"\n$staticprop\n"
                               "$body b a.smd\n$sequence idle a.smd\n";
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp, 0, 0, 2))}});
        QCOMPARE(c.hitboxSets.size(), std::size_t(1));
        QCOMPARE(c.hitboxSets.front().name, std::string("default"));
        QCOMPARE(c.hitboxCount(), std::size_t(0));
        // The hull: the vertices (the static prop's 90° turn about Z) and the origin of
        // static_prop, whose box stays zero when no box is generated (SetupFullBoneRenderBounds).
        QCOMPARE(c.hullMin, Vec3(-1, 0, 0));
        QCOMPARE(c.hullMax, Vec3(0, 1, 2));
        // Two sets named, one box in the second: no generation, both sets kept in order.
        const CompiledModelInfo two =
            predict("$modelname t.mdl\n$hboxset \"first\"\n$hboxset \"second\"\n"
                    "$hbox 0 root 0 0 0 1 1 1\n$body b a.smd\n$sequence idle a.smd\n",
                    {{"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp))}});
        QCOMPARE(two.hitboxSets.size(), std::size_t(2));
        QCOMPARE(two.hitboxSets[0].name, std::string("first"));
        QCOMPARE(two.hitboxSets[0].boxes.size(), std::size_t(0));
        QCOMPARE(two.hitboxSets[1].name, std::string("second"));
        QCOMPARE(two.hitboxSets[1].boxes.size(), std::size_t(1));
    }

    // studiomdl reads every triangle of every file it loads, animations included, and each new
    // texture name becomes a material (v1support.cpp Grab_Triangles: LookupTexture,
    // UseTextureAsMaterial), in the order the files are loaded (a file named twice is read once:
    // Load_Source's cache). A collision model's new names are taken back (DoCollisionModel:
    // "auto-remove any new materials/textures"). The Spacebuild `neopodt` sequence file adds
    // `glass` to a body of `iron_rails` and `metalmap`.
    void animationFilesAddMaterials()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle s.smd\n"
                               "$sequence again a.smd\n$collisionmodel c.smd {\n $mass 2\n}\n"
                               "$sequence last l.smd\n";
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        const CompiledModelInfo c =
            predict(qc, {{"a.smd", smd(bones, quad("body", kUp, kUp))},
                         {"s.smd", smd(bones, quad("glass", kUp, kUp) + quad("body", kUp, kUp))},
                         {"c.smd", smd(bones, quad("phys", kUp, kUp))},
                         {"l.smd", smd(bones, quad("late.tga", kUp, kUp))}});
        QStringList names;
        for (const CompiledTexture& t : c.textures) {
            names << QString::fromStdString(t.name);
        }
        QCOMPARE(names, QStringList({u"body"_qs, u"glass"_qs, u"late.tga"_qs}));
        QCOMPARE(c.skinReferences, 3);
        QCOMPARE(c.skins.size(), std::size_t(1));
        QCOMPARE(c.skins[0], std::vector<std::int32_t>({0, 1, 2}));
        // The bodies' triangles and vertices are the body file's alone.
        QCOMPARE(c.bodyparts.at(0).models.at(0).triangles, 2);
    }

    // The hull holds the vertices as well as the hitboxes; $illumposition turns with the model.
    void hullHoldsVerticesAndIllumPositionTurns()
    {
        const std::string qc = "$modelname t.mdl\n$staticprop\n$body b a.smd\n"
                               "$sequence idle a.smd\n$hbox 0 static_prop -0.5 -0.5 -0.5 0.5 "
                               "0.5 0.5\n$illumposition 1 2 3\n";
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp, 0, 0, 2))}});
        QCOMPARE(c.hullMin, Vec3(-1, -0.5f, -0.5f));
        QCOMPARE(c.hullMax, Vec3(0.5f, 1, 2));
        QCOMPARE(c.illumPosition, Vec3(-2, 1, 3));
    }

    // The hull holds the poses of every animation of a blend, not only its first
    // (simplify.cpp CalcSequenceBoundingBoxes runs over each of the sequence's animations).
    void hullHoldsEveryBlend()
    {
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        auto pose = [](float z) {
            return "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 " +
                   std::to_string(z) + " 0 0 0\nend\n";
        };
        const std::map<std::string, std::string> files{{"a.smd", smd(bones, quad("m", kUp, kUp))},
                                                       {"low.smd", pose(0)},
                                                       {"high.smd", pose(5)}};
        const CompiledModelInfo one =
            predict("$modelname t.mdl\n$body b a.smd\n$sequence aim low.smd\n", files);
        QCOMPARE(one.hullMin, Vec3(-1, 0, 0));
        QCOMPARE(one.hullMax, Vec3(0, 1, 0));
        const CompiledModelInfo blend = predict(
            "$modelname t.mdl\n$body b a.smd\n$sequence aim low.smd high.smd blend XR -45 45\n",
            files);
        QCOMPARE(blend.sequences.size(), std::size_t(1));
        QCOMPARE(blend.hullMin, Vec3(-1, 0, 0));
        QCOMPARE(blend.hullMax, Vec3(0, 1, 5));
        // Every file of the blend is turned by $origin's angle (Cmd_ImpliedAnimation gives each
        // its panim->rotation = g_defaultrotation): the root 5 along X in `far` turns to 5
        // along Y, then studiomdl's own 90 degrees: x -6..-5 (unturned it gave y 5..6). To
        // 1e-5 (the turn's sine and cosine).
        const std::map<std::string, std::string> farFiles{
            {"a.smd", smd(bones, quad("m", kUp, kUp))},
            {"low.smd", pose(0)},
            {"far.smd", "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 5 0 0 0 0 0\n"
                        "end\n"}};
        const CompiledModelInfo turned =
            predict("$modelname t.mdl\n$origin 0 0 0 90\n$body b a.smd\n"
                    "$sequence aim low.smd far.smd blend XR -45 45\n",
                    farFiles);
        QVERIFY2(hullNear(turned, Vec3(-6, -1, 0), Vec3(0, 0, 0)), qPrintable(hullText(turned)));
    }

    // The hull also holds the collision model, grown by a quarter unit on every side (the
    // margin of its convex pieces).
    void hullHoldsTheCollisionModel()
    {
        const std::string qc = "$modelname t.mdl\n$staticprop\n$body b a.smd\n"
                               "$sequence idle a.smd\n$collisionmodel c.smd {\n $mass 2\n}\n";
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        const std::string col = "m\n" + corner(0, Vec3(0, 0, -1), kUp, Vec2(0, 0)) +
                                corner(0, Vec3(1, 0, -1), kUp, Vec2(1, 0)) +
                                corner(0, Vec3(0, 3, -1), kUp, Vec2(0, 1));
        const CompiledModelInfo c =
            predict(qc, {{"a.smd", smd(bones, quad("m", kUp, kUp))}, {"c.smd", smd(bones, col)}});
        QVERIFY(c.physics.present);
        QCOMPARE(c.physics.solids.size(), std::size_t(1));
        QCOMPARE(c.hullMin, Vec3(-3.25f, -0.25f, -1.25f));
        QCOMPARE(c.hullMax, Vec3(0.25f, 1.25f, 0));
        // The light: at the centre of the hull before the collision model grows it.
        QCOMPARE(c.illumPosition, Vec3(-0.5f, 0.5f, 0));
        // `$origin 0 0 0 90`: MakeStaticProp turns every source's points by g_defaultrotation,
        // the collision model's as the body's: (1, 0, -1) -> (0, 1, -1), (0, 3, -1) ->
        // (-3, 0, -1), then the 90 degrees (unturned, the collision model gave x -3.25..0.25).
        // To 1e-5 (the turn's sine and cosine).
        const CompiledModelInfo t =
            predict("$modelname t.mdl\n$staticprop\n$origin 0 0 0 90\n$body b a.smd\n"
                    "$sequence idle a.smd\n$collisionmodel c.smd {\n $mass 2\n}\n",
                    {{"a.smd", smd(bones, quad("m", kUp, kUp))}, {"c.smd", smd(bones, col)}});
        QVERIFY2(hullNear(t, Vec3(-1.25f, -3.25f, -1.25f), Vec3(0.25f, 0.25f, 0)),
                 qPrintable(hullText(t)));
        // `$origin 10 20 30 90`: MakeStaticProp's matrix has g_defaultadjust for its
        // translation, so X Y Z is added after the turn, in the compiled model's space (an
        // animated model's roots have it taken off before: BuildRawTransforms). The points move
        // by (10, 20, 30): max 0.25 0.25 0 -> 10.25 20.25 30; static_prop stays at the origin,
        // and its generated box starts there (SetupHitBoxes with g_bUseBoneInBBox), so the hull
        // still holds 0 0 0 and the light is at the middle of 0 0 0 .. 10 20 30.
        const CompiledModelInfo moved =
            predict("$modelname t.mdl\n$staticprop\n$origin 10 20 30 90\n$body b a.smd\n"
                    "$sequence idle a.smd\n$collisionmodel c.smd {\n $mass 2\n}\n",
                    {{"a.smd", smd(bones, quad("m", kUp, kUp))}, {"c.smd", smd(bones, col)}});
        QVERIFY2(hullNear(moved, Vec3(0, 0, 0), Vec3(10.25f, 20.25f, 30)),
                 qPrintable(hullText(moved)));
        QVERIFY((moved.illumPosition - Vec3(5, 10, 15)).norm() < 1e-4f);
    }

    // A ragdoll's collision model does not grow the hull: studiomdl skips the fix-up for
    // jointed models (collisionmodel.cpp CollisionModel_ExpandBBox: `if (g_bJointed) return`,
    // set by $collisionjoints).
    void collisionJointsDoNotGrowTheHull()
    {
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        const std::string col = "m\n" + corner(0, Vec3(0, 0, -1), kUp, Vec2(0, 0)) +
                                corner(0, Vec3(1, 0, -1), kUp, Vec2(1, 0)) +
                                corner(0, Vec3(0, 3, -1), kUp, Vec2(0, 1));
        const std::map<std::string, std::string> files{{"a.smd", smd(bones, quad("m", kUp, kUp))},
                                                       {"c.smd", smd(bones, col)}};
        const CompiledModelInfo joints =
            predict("$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                    "$collisionjoints c.smd {\n $mass 2\n}\n",
                    files);
        QVERIFY(joints.physics.present);
        QCOMPARE(joints.hullMin, Vec3(-1, 0, 0));
        QCOMPARE(joints.hullMax, Vec3(0, 1, 0));
        // The same mesh as a $collisionmodel grows it.
        const CompiledModelInfo prop =
            predict("$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                    "$collisionmodel c.smd {\n $mass 2\n}\n",
                    files);
        QCOMPARE(prop.hullMin, Vec3(-3.25f, -0.25f, -1.25f));
    }

    // studiomdl poses the collision model by the first animation it read, at frame 0
    // (collisionmodel.cpp ConvertToWorldSpace: each point into its bone's space through the
    // file's bind pose, then out through CalcBoneTransforms(g_panimation[0], 0)): a $animation
    // read before the $sequence moves the collision points and so the hull; read after, it does
    // not. The angle of `$origin` turns the collision model as it turns the rest.
    void collisionModelIsPosedByTheFirstAnimation()
    {
        const std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        const std::string col = "m\n" + corner(0, Vec3(0, 0, -1), kUp, Vec2(0, 0)) +
                                corner(0, Vec3(1, 0, -1), kUp, Vec2(1, 0)) +
                                corner(0, Vec3(0, 3, -1), kUp, Vec2(0, 1));
        auto pose = [](const char* key) {
            return std::string("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 ") + key +
                   "\nend\n";
        };
        const std::map<std::string, std::string> files{
            {"a.smd", smd(bones, quad("m", kUp, kUp))},
            {"c.smd", smd(bones, col)},
            {"up.smd", pose("0 0 10 0 0 0")},
            {"turned.smd", pose("0 0 0 0 0 1.5707963267948966")}};
        const std::string tail = "$collisionmodel c.smd {\n $mass 2\n}\n";
        // Root 10 up in the first animation: the points at z = 9, turned 90 degrees about Z.
        const CompiledModelInfo up =
            predict("$modelname t.mdl\n$body b a.smd\n$animation first up.smd\n"
                    "$sequence idle a.smd\n" +
                        tail,
                    files);
        QCOMPARE(up.hullMin, Vec3(-3.25f, -0.25f, 0));
        QCOMPARE(up.hullMax, Vec3(0.25f, 1.25f, 9.25f));
        // The same animation read after the sequence: the bind pose.
        const CompiledModelInfo after =
            predict("$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                    "$animation first up.smd\n" +
                        tail,
                    files);
        QCOMPARE(after.hullMin, Vec3(-3.25f, -0.25f, -1.25f));
        QCOMPARE(after.hullMax, Vec3(0.25f, 1.25f, 0));
        // Root turned 90 degrees about Z: (1, 0, -1) -> (0, 1, -1), (0, 3, -1) -> (-3, 0, -1),
        // then studiomdl's own 90 degrees. To 1e-5 (the turn's sine and cosine).
        auto near = [](const Vec3& a, const Vec3& b) {
            return (a - b).cwiseAbs().maxCoeff() < 1e-5f;
        };
        auto vecText = [](const Vec3& v) {
            return std::to_string(v.x()) + " " + std::to_string(v.y()) + " " +
                   std::to_string(v.z());
        };
        const CompiledModelInfo turned =
            predict("$modelname t.mdl\n$body b a.smd\n$animation first turned.smd\n"
                    "$sequence idle a.smd\n" +
                        tail,
                    files);
        QVERIFY2(near(turned.hullMin, Vec3(-1.25f, -3.25f, -1.25f)),
                 qPrintable(QString::fromStdString(vecText(turned.hullMin))));
        QVERIFY2(near(turned.hullMax, Vec3(0.25f, 1, 0)),
                 qPrintable(QString::fromStdString(vecText(turned.hullMax))));
        // `$origin 0 0 0 90` turns the body and the collision model alike.
        const CompiledModelInfo origin = predict(
            "$modelname t.mdl\n$origin 0 0 0 90\n$body b a.smd\n$sequence idle a.smd\n" + tail,
            files);
        QVERIFY2(near(origin.hullMin, Vec3(-1.25f, -3.25f, -1.25f)),
                 qPrintable(QString::fromStdString(vecText(origin.hullMin))));
        QVERIFY2(near(origin.hullMax, Vec3(0.25f, 0.25f, 0)),
                 qPrintable(QString::fromStdString(vecText(origin.hullMax))));
    }

    // The hull is sequence 0's box (write.cpp copies g_sequence[0].bmin/bmax), and that box
    // (CalcSequenceBoundingBoxes) holds, through every frame, each bone's render bounds turned
    // with it (SetupFullBoneRenderBounds): with $hbox given, the bone's origin (its box in
    // g_bonetable stays zero) and its hitboxes.
    void hullIsSequenceZerosWithBoneOrigins()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$hbox 0 root -1 -1 -1 1 1 1\n"
                               "$sequence idle a.smd\n$sequence far far.smd\n";
        const std::string arm = triangle(1, Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1));
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}, {"arm", 0, Vec3(20, 0, 0)}},
                               quad("m", kUp, kUp) + arm)},
                 {"far.smd", smd({{"root", -1, Vec3::Zero()}, {"arm", 0, Vec3(100, 0, 0)}}, "")}});
        // The vertices (0..1), the root's box (-1..1) and the arm's origin at x = 20, turned
        // 90 degrees about Z; the second sequence's arm at x = 100 is not in it.
        QCOMPARE(c.hullMin, Vec3(-1, -1, -1));
        QCOMPARE(c.hullMax, Vec3(1, 20, 1));
        QCOMPARE(c.illumPosition, Vec3(0, 9.5f, 0));
    }

    // A bone the animation file lacks takes its rest pose under its parent's animated one
    // (TranslateAnimations: g_bonetable's pos / rot). A root that the file lacks has no
    // animated parent: it stays where the reference put it, without the 90 degrees about Z
    // that BuildRawTransforms gives the file's own roots. Points on it sit unturned in the
    // sequence's box: t_leet's twelve unlinked corners at x = -22.996 and 22.674 (x 1.04) on
    // its extra root t_leet_reference, which ragdoll_pose.smd does not have, set the box's
    // x sides at -23.916 and 23.581.
    void rootMissingFromTheAnimationStaysUnturned()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$hbox 0 root -1 -1 -1 1 1 1\n"
                               "$sequence idle anim.smd\n";
        // On "loose" (a root, no links: the corner's bone) at x = 10..11, y = 0..3; on "tip"
        // (the root's child, also missing from the animation) at y = 5..5.5.
        const std::string loose = triangle(1, Vec3(10, 0, 0), Vec3(11, 0, 0), Vec3(10, 3, 0));
        const std::string tip = triangle(2, Vec3(0, 5, 0), Vec3(0, 5.5f, 0), Vec3(0.5f, 5, 0));
        const std::map<std::string, std::string> files{
            {"a.smd", smd({{"root", -1, Vec3::Zero()},
                           {"loose", -1, Vec3::Zero()},
                           {"tip", 0, Vec3(0, 5, 0)}},
                          quad("m", kUp, kUp) + loose + tip)},
            {"anim.smd", smd({{"root", -1, Vec3::Zero()}}, "")}};
        const CompiledModelInfo c = predict(qc, files);
        // root's box -1..1 and the quad turned; tip's points turned to x = -5.5..-5; loose's
        // points as written.
        QVERIFY2(hullNear(c, Vec3(-5.5f, -1, -1), Vec3(11, 3, 1)), qPrintable(hullText(c)));
        QCOMPARE(c.illumPosition, Vec3(2.75f, 1, 0));
        // `$upaxis y` turns the animation's roots 90 degrees about X as well, not "loose": tip
        // goes up to z = 5.5, loose stays at y = 0..3 (turned, it would be at z = 0..3).
        const CompiledModelInfo y = predict("$upaxis y\n" + qc, files);
        QVERIFY2(hullNear(y, Vec3(-1, -1, -1), Vec3(11, 3, 5.5f)), qPrintable(hullText(y)));
    }

    // A generated box also takes in the origins of the bone's children (SetupHitBoxes: "add in
    // all your children as well"), as the Spacebuild ragdoll pjbr's Bone02 box reaches its
    // three children at x = 194.118.
    void generatedBoxesHoldChildOrigins()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        const std::string tris =
            "m\n" + corner(0, Vec3(-1, -1, -1), kUp, Vec2(0, 0)) +
            corner(0, Vec3(1, 1, -1), kUp, Vec2(1, 0)) + corner(0, Vec3(1, 1, 1), kUp, Vec2(0, 1)) +
            "m\n" + corner(1, Vec3(5, 0, 0), kUp, Vec2(0, 0)) +
            corner(1, Vec3(7, 2, 0), kUp, Vec2(1, 0)) + corner(1, Vec3(7, 2, 2), kUp, Vec2(0, 1));
        const CompiledModelInfo c = predict(
            qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}, {"child", 0, Vec3(5, 0, 0)}}, tris)}});
        QCOMPARE(c.hitboxSets.size(), std::size_t(1));
        const auto& boxes = c.hitboxSets.front().boxes;
        QCOMPARE(boxes.size(), std::size_t(2));
        QCOMPARE(boxes[0].min, Vec3(-1, -1, -1));
        QCOMPARE(boxes[0].max, Vec3(5, 1, 1));
        QCOMPARE(boxes[1].min, Vec3(0, 0, 0));
        QCOMPARE(boxes[1].max, Vec3(2, 2, 2));
    }

    // studiomdl scales a file as it loads it, by the $scale read before it (Option_Studio,
    // Load_Source: scale_vertex), and loads a file once: a $scale after the $body leaves the
    // body, and the collision model that names the same file, as written (the Spacebuild
    // neopodo: `$scale 0.9` after its `$body`, compiled at full size).
    void scaleAppliesToFilesReadAfterIt()
    {
        const std::map<std::string, std::string> files{
            {"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp, 0, 0, 2))},
            {"b.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp, 0, 0, 4))}};
        const CompiledModelInfo after =
            predict("$modelname t.mdl\n$staticprop\n$body b a.smd\n$scale 0.5\n"
                    "$sequence idle a.smd\n$collisionmodel a.smd {\n $mass 2\n}\n",
                    files);
        QCOMPARE(after.hullMin, Vec3(-1.25f, -0.25f, 0));
        QCOMPARE(after.hullMax, Vec3(0.25f, 1.25f, 2.25f));
        // A file read after the $scale is scaled: the collision model b.smd at z = 2.
        const CompiledModelInfo other =
            predict("$modelname t.mdl\n$staticprop\n$body b a.smd\n$scale 0.5\n"
                    "$sequence idle a.smd\n$collisionmodel b.smd {\n $mass 2\n}\n",
                    files);
        QCOMPARE(other.hullMin, Vec3(-1, -0.25f, 0));
        QCOMPARE(other.hullMax, Vec3(0.25f, 1, 2.25f));
    }

    // $definebone bones open the bone table, before the bones of the files.
    void defineBonesComeFirst()
    {
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                               "$definebone \"extra\" \"\" 0 0 0 0 0 0 0 0 0 0 0 0\n";
        const CompiledModelInfo c =
            predict(qc, {{"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp))}});
        QCOMPARE(int(c.bones.size()), 2);
        QCOMPARE(c.bones.at(0).name, std::string("extra"));
        QCOMPARE(c.bones.at(1).name, std::string("root"));
        QCOMPARE(c.bones.at(1).parent, -1);
    }

    // With $definebone (or $collapsebones, $alwayscollapse) studiomdl collapses bones
    // (simplify.cpp CollapseBones): the $definebone bones stay, in script order, under the
    // parents they name; a file's bone that no vertex, attachment, IK chain or bonemerge needs,
    // or that no animation moves and is no root, goes, and its vertices and rigid attachments
    // move to its nearest kept ancestor (MapSourcesToGlobalBonetable, LinkAttachments).
    // Faceposable-CSS-Models' player QCs: 181 file bones, 50 $definebone, 50 compiled.
    void defineBonesCollapseTheRest()
    {
        const std::string ref = smd({{"rig", -1, Vec3::Zero()},
                                     {"pelvis", 0, Vec3(0, 0, 40)},
                                     {"spine", 1, Vec3(0, 0, 4)},
                                     {"pouch", 1, Vec3(3, 0, 0)},
                                     {"grenade", 2, Vec3(0, 3, 0)}},
                                    quad("m", kUp, kUp, 1, 2) + quad("m", kUp, kUp, 3, 3, 5));
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                               "$definebone \"pelvis\" \"\" 0 0 40 0 0 0 0 0 0 0 0 0\n"
                               "$definebone \"spine\" \"pelvis\" 0 0 4 0 0 0 0 0 0 0 0 0\n"
                               "$attachment \"g\" \"grenade\" 0 0 0 rigid\n";
        const CompiledModelInfo c = predict(qc, {{"a.smd", ref}});
        QCOMPARE(int(c.bones.size()), 2);
        QCOMPARE(c.bones.at(0).name, std::string("pelvis"));
        QCOMPARE(c.bones.at(0).parent, -1);
        QCOMPARE(c.bones.at(1).name, std::string("spine"));
        QCOMPARE(c.bones.at(1).parent, 0);
        QCOMPARE(int(c.attachments.size()), 1);
        QCOMPARE(c.attachments.at(0).bone, 1);
        // A bone an animation moves stays, after the $definebone bones.
        std::string anim = "version 1\nnodes\n0 \"rig\" -1\n1 \"pelvis\" 0\n2 \"spine\" 1\n"
                           "3 \"pouch\" 1\nend\nskeleton\n";
        for (int t = 0; t < 2; ++t) {
            anim += "time " + std::to_string(t) +
                    "\n0 0 0 0 0 0 0\n1 0 0 40 0 0 0\n"
                    "2 0 0 4 0 0 0\n3 3 0 " +
                    std::to_string(t) + " 0 0 0\n";
        }
        anim += "end\n";
        const CompiledModelInfo moved =
            predict(qc + "$sequence move b.smd\n", {{"a.smd", ref}, {"b.smd", anim}});
        QCOMPARE(int(moved.bones.size()), 3);
        QCOMPARE(moved.bones.at(2).name, std::string("pouch"));
        QCOMPARE(moved.bones.at(2).parent, 0);
    }

    // A $definebone's numbers are taken as written: no $scale (the CSS players, $scale 1.04,
    // have the pelvis at the command's z 40.10959), and its angles are a QAngle, pitch yaw roll
    // (Euler Y, Z, X; Cmd_DefineBone reads them into a QAngle for AngleMatrix): "0 0 90" turns
    // about X. (A bone the files have stays in their pose, re-expressed under its new parent:
    // studiomdl moves it and its vertices together, RemapVerticesToGlobalBones.)
    void defineBoneNumbersAsWritten()
    {
        const std::string qc = "$modelname t.mdl\n$scale 2\n$body b a.smd\n$sequence idle a.smd\n"
                               "$definebone \"extra\" \"\" 0 1 40 0 0 90 0 0 0 0 0 0\n";
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = qc;
        fs.files["p/a.smd"] = smd({{"root", -1, Vec3(0, 0, 1)}, {"arm", 0, Vec3(1, 0, 0)}},
                                  quad("m", kUp, kUp, 0, 1));
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        const Skeleton& sk = r.compiled.model.skeleton;
        QCOMPARE(int(sk.size()), 2); // extra, root; arm collapses (no animation moves it)
        QCOMPARE(sk.names[0], std::string("extra"));
        QCOMPARE(sk.bindPositions[0], Vec3(0, 1, 40));
        QVERIFY((sk.bindRotations[0] - Vec3(1.5707964f, 0, 0)).cwiseAbs().maxCoeff() < 1e-6f);
        QCOMPARE(sk.names[1], std::string("root"));
        QCOMPARE(sk.bindPositions[1], Vec3(0, 0, 2));
    }

    // $bbox sets the hull, not the light: that stays at the centre of sequence 0's box
    // (simplify.cpp sets illumposition from g_sequence[0].bmin / bmax; Cmd_BBox only fills the
    // header's hull).
    void bboxLeavesTheLightAtTheSequenceBox()
    {
        const std::map<std::string, std::string> files{
            {"a.smd", smd({{"root", -1, Vec3::Zero()}}, quad("m", kUp, kUp, 0, 0, 4))}};
        const CompiledModelInfo c =
            predict("$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n"
                    "$bbox -10 -10 0 10 10 50\n",
                    files);
        QCOMPARE(c.hullMin, Vec3(-10, -10, 0));
        QCOMPARE(c.hullMax, Vec3(10, 10, 50));
        // The quad 0..1 at z 4 and the bone's origin, turned into the compiled model's space.
        QCOMPARE(c.illumPosition, Vec3(-0.5f, 0.5f, 2));
    }

    // In a Source project a body file may hold more bones than the model may (MAXSTUDIOSRCBONES,
    // 512): studiomdl limits its bone table (simplify.cpp "Too many bones used in model"),
    // which `check` counts on the merged model. The CSS players' reference SMDs hold 181 bones
    // for a 50-bone model: no skeleton.bone-limit error on the file.
    void bodyFileBonesPastTheLimitCompile()
    {
        QTemporaryDir dir;
        std::vector<std::tuple<std::string, int, Vec3>> bones{{"root", -1, Vec3::Zero()}};
        for (int i = 1; i < 140; ++i) {
            bones.emplace_back("helper" + std::to_string(i), 0, Vec3(float(i), 0, 0));
        }
        write(dir.filePath(QStringLiteral("a.smd")), smd(bones, quad("m", kUp, kUp)));
        write(dir.filePath(QStringLiteral("t.qc")),
              "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n");
        CheckOptions opt;
        opt.profile = Profile::Source;
        QStringList limits;
        for (const CheckedFile& f :
             checkQcProject(dir.filePath(QStringLiteral("t.qc")).toStdString(), opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == "skeleton.bone-limit") {
                    limits << QString::fromStdString(d.message);
                }
            }
        }
        QCOMPARE(limits, QStringList());
        // 140 weighted bones do not fit: the merged model says so, once.
        std::string tris;
        for (int i = 0; i < 140; ++i) {
            tris += quad("m", kUp, kUp, i, i, float(i));
        }
        write(dir.filePath(QStringLiteral("a.smd")), smd(bones, tris));
        limits.clear();
        for (const CheckedFile& f :
             checkQcProject(dir.filePath(QStringLiteral("t.qc")).toStdString(), opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == "skeleton.bone-limit") {
                    limits << QString::fromStdString(d.message);
                }
            }
        }
        QCOMPARE(limits.size(), 1);
        QVERIFY2(limits.front().startsWith(QStringLiteral("merged model:")),
                 qPrintable(limits.front()));
    }

    // $alwayscollapse turns the collapse on for every bone (Cmd_AlwaysCollapse sets
    // g_collapse_bones): a weighted bone that no animation moves joins its parent, a root stays
    // (BoneHasAnimation counts every root as animated).
    void alwaysCollapseCollapsesStillBones()
    {
        const std::string ref =
            smd({{"root", -1, Vec3::Zero()}, {"arm", 0, Vec3(1, 0, 0)}}, quad("m", kUp, kUp, 0, 1));
        const std::string qc = "$modelname t.mdl\n$body b a.smd\n$sequence idle a.smd\n";
        QCOMPARE(int(predict(qc, {{"a.smd", ref}}).bones.size()), 2);
        const CompiledModelInfo c = predict(qc + "$alwayscollapse \"nothing\"\n", {{"a.smd", ref}});
        QCOMPARE(int(c.bones.size()), 1);
        QCOMPARE(c.bones.at(0).name, std::string("root"));
        // A $bonemerge on the collapsed bone only tags it (Cmd_BoneMerge): no error, a note
        // (the L4D2 survivor template of xDShot/alastor-playermodel: Ulna and Wrist bones).
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = qc + "$alwayscollapse \"nothing\"\n$bonemerge \"arm\"\n";
        fs.files["p/a.smd"] = ref;
        QStringList ids;
        for (const Diagnostic& d : qcReport("p/main.qc", Profile::Auto, fs).diagnostics) {
            if (d.id.starts_with("qc.") && d.id.find("bone") != std::string::npos) {
                ids << QString::fromStdString(std::string(d.id) + " " +
                                              std::string(severityName(d.severity)));
            }
        }
        QCOMPARE(ids, (QStringList{u"qc.ignored-bone note"_qs, u"qc.ignored-bone note"_qs}));
    }

    // A generated pair: a QC with its SMD, and a compiled model written to differ in known
    // fields. The differences are exactly those; a source newer than the model or a companion
    // with another checksum makes them stale (exit 0).
    void generatedPairDifferences()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string a =
            smd({{"root", -1, Vec3::Zero()}, {"arm", 0, Vec3(0, 0, 1)}},
                quad("mat_a", kUp, kUp) + "mat_b\n" + corner(1, Vec3(0, 0, 2), kUp, Vec2(0, 0)) +
                    corner(1, Vec3(1, 0, 2), kUp, Vec2(1, 0)) +
                    corner(1, Vec3(0, 1, 2), kUp, Vec2(0, 1)));
        const std::string qc =
            "$modelname test/pair.mdl\n$cdmaterials models/test\n$body body a.smd\n"
            "$texturegroup skinfamilies {\n { mat_a }\n { mat_c }\n}\n"
            "$sequence idle a.smd fps 30\n$attachment tip arm 0 0 1\n"
            "$hbox 0 root -1 -1 -1 1 1 1\n$illumposition 0 0 1\n$bbox -2 -2 -2 2 2 2\n";
        write(dir.filePath(QStringLiteral("a.smd")), a);
        write(dir.filePath(QStringLiteral("pair.qc")), qc);

        test::SourceMdlSpec s;
        s.name = "test/pair.mdl";
        s.bones.push_back({"root", -1, Vec3::Zero()});
        s.bones.push_back({"arm", 0, Vec3(0, 0, 1)});
        s.materials = {"mat_a", "mat_b", "mat_c"};
        s.cdMaterials = {"models/test/"};
        s.skins = {{0, 1}, {2, 1}};
        s.illumPosition = Vec3(0, 0, 1);
        s.hullMin = Vec3(-2, -2, -2);
        s.hullMax = Vec3(2, 2, 2);
        test::MdlMesh ma, mb;
        ma.material = 0;
        for (int i = 0; i < 4; ++i) {
            test::MdlVertex v;
            v.position = Vec3(float(i % 2), float(i / 2), 0);
            ma.vertices.push_back(v);
        }
        ma.triangles = {{0, 1, 2}, {1, 3, 2}};
        mb.material = 1;
        for (int i = 0; i < 4; ++i) { // one vertex more than the prediction
            test::MdlVertex v;
            v.position = Vec3(float(i % 2), float(i / 2), 2);
            v.bones = {1, 0, 0};
            mb.vertices.push_back(v);
        }
        mb.triangles = {{0, 1, 2}};
        s.bodyparts.push_back({"body", {{"a.smd", {ma, mb}, 1}}});
        s.attachments.push_back({"tip", 0, Vec3(0, 0, 1)}); // on root, not arm
        s.hitboxes.push_back({0, 0, Vec3(-1, -1, -1), Vec3(1, 1, 1), ""});
        test::MdlSequence idle;
        idle.name = "idle";
        idle.fps = 24; // not the QC's 30
        idle.frames = 1;
        idle.positions = {{Vec3::Zero(), Vec3(0, 0, 1)}};
        idle.rotations = {{Vec3::Zero(), Vec3::Zero()}};
        s.sequences.push_back(idle);
        const test::SourceMdlBytes b = test::writeSourceMdl(s);
        const QString mdl = dir.filePath(QStringLiteral("pair.mdl"));
        write(mdl, b.mdl);
        write(dir.filePath(QStringLiteral("pair.vvd")), b.vvd);
        write(dir.filePath(QStringLiteral("pair.dx90.vtx")), b.vtx);
        // The model is newer than its sources.
        const auto later = std::filesystem::file_time_type::clock::now() + std::chrono::hours(1);
        std::filesystem::last_write_time(mdl.toStdString(), later);

        const std::string qcPath = dir.filePath(QStringLiteral("pair.qc")).toStdString();
        const CompareReport r = compareQcToCompiled(qcPath, mdl.toStdString(), {});
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.staleReasons.empty());
        const QStringList expected{
            QStringLiteral("bodyparts[0].models[0].vertices: 7 | 8"),
            QStringLiteral("sequences[0].fps: 30 | 24"),
            QStringLiteral("attachments[0].bone: arm | root"),
        };
        QCOMPARE(differenceLines(r.differences), expected);
        QCOMPARE(compareExitCode(r), 1);

        // The CLI: the same differences in JSON, `predicted` and `compiled` with the same keys.
        const auto cli = test::runCli({QStringLiteral("compare"), QStringLiteral("--json"),
                                       QString::fromStdString(qcPath), mdl});
        QCOMPARE(cli.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(cli.out).object();
        QCOMPARE(o.value(QStringLiteral("predicted")).toObject().keys(),
                 o.value(QStringLiteral("compiled")).toObject().keys());
        const QJsonArray diffs = o.value(QStringLiteral("differences")).toArray();
        QCOMPARE(diffs.size(), qsizetype(3));
        QCOMPARE(diffs.at(1).toObject().value(QStringLiteral("field")).toString(),
                 QStringLiteral("sequences[0].fps"));
        QCOMPARE(diffs.at(1).toObject().value(QStringLiteral("predicted")).toString(),
                 QStringLiteral("30"));
        QCOMPARE(diffs.at(1).toObject().value(QStringLiteral("compiled")).toString(),
                 QStringLiteral("24"));
        QCOMPARE(diffs.at(1).toObject().value(QStringLiteral("verdict")).toString(),
                 QStringLiteral("differs"));

        // A source edited after the compile: every difference is stale, the exit code 0.
        const auto later2 = later + std::chrono::hours(1);
        std::filesystem::last_write_time(dir.filePath(QStringLiteral("a.smd")).toStdString(),
                                         later2);
        const CompareReport stale = compareQcToCompiled(qcPath, mdl.toStdString(), {});
        QCOMPARE(stale.staleReasons.size(), std::size_t(1));
        QVERIFY(stale.staleReasons[0].find("a.smd") != std::string::npos);
        QCOMPARE(differenceLines(stale.differences).size(), qsizetype(3));
        QVERIFY(stale.differences[0].stale);
        QCOMPARE(compareExitCode(stale), 0);
        const auto text =
            test::runCli({QStringLiteral("compare"), QString::fromStdString(qcPath), mdl});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("sequences[0].fps: predicted 30, compiled 24 [stale]"));
        QVERIFY(text.out.contains("3 differences (all stale"));
        // --ignore-timestamps: the times are not evidence.
        CompareOptions ignore;
        ignore.ignoreTimestamps = true;
        QCOMPARE(compareExitCode(compareQcToCompiled(qcPath, mdl.toStdString(), ignore)), 1);

        // A .vvd from another compile (its checksum is not the .mdl's): stale too.
        s.vvdChecksum = 0x0badf00d;
        write(dir.filePath(QStringLiteral("pair.vvd")), test::writeSourceMdl(s).vvd);
        const CompareReport other = compareQcToCompiled(qcPath, mdl.toStdString(), ignore);
        QCOMPARE(other.staleReasons.size(), std::size_t(1));
        QCOMPARE(compareExitCode(other), 0);
    }

    // Usage errors and unreadable inputs exit 2.
    void unreadableInputs()
    {
        QCOMPARE(test::runCli({QStringLiteral("compare"), QStringLiteral("x.qc")}).exitCode, 2);
        QTemporaryDir dir;
        const QString qc = dir.filePath(QStringLiteral("p.qc"));
        write(qc, "$modelname p.mdl\n");
        const auto r = test::runCli(
            {QStringLiteral("compare"), qc, dir.filePath(QStringLiteral("missing.mdl"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("missing.mdl"));
    }

    // The public pairs (CATALOG.md A1-A3): the differences left per pair, each one a compiled
    // model built from other sources than the ones beside it (reviewed by hand: rows commented
    // out of a $texturegroup since, hands and sequences removed from a viewmodel since).
    void publicPairs_data()
    {
        QTest::addColumn<QString>("qc");
        QTest::addColumn<QString>("mdl");
        QTest::addColumn<QStringList>("fields"); // the differences' fields
        const QString h = QStringLiteral("TeamSpen210+HammerAddons/");
        const QString m = h + QStringLiteral("hammer/models/editor/");
        const QString s = h + QStringLiteral("modelsrc/editor/");
        auto row = [&](const char* name, const QString& qc, const QString& mdl,
                       const QStringList& fields) { QTest::newRow(name) << qc << mdl << fields; };
        row("hev_charger", s + QStringLiteral("item_suitcharger_mesa/hev_charger.qc"),
            m + QStringLiteral("item_suit_charger_mesa.mdl"), {});
        row("health_charger_mesa", s + QStringLiteral("item_healthcharger_mesa/health_charger.qc"),
            m + QStringLiteral("item_health_charger_mesa.mdl"),
            {QStringLiteral("materialNames"), QStringLiteral("skins")});
        // LOD 0 and its three LODs: 1,755 vertices in the .vvd, as UnifyLODs joins them (an
        // exact join gave 1,747).
        row("suit_charger_hl2", s + QStringLiteral("item_suitcharger_hl2/suit_charger001.qc"),
            m + QStringLiteral("item_suit_charger_hl2.mdl"), {});
        row("health_charger_hl2", s + QStringLiteral("item_healthcharger_hl2/health_charger001.qc"),
            m + QStringLiteral("item_health_charger_hl2.mdl"), {});
        row("prop_paint_bomb", s + QStringLiteral("prop_paint_bomb/prop_paint_bomb.qc"),
            m + QStringLiteral("prop_paint_bomb.mdl"), {});
        row("prop_portal", s + QStringLiteral("prop_portal/prop_portal.qc"),
            m + QStringLiteral("prop_portal.mdl"),
            {QStringLiteral("materialNames"), QStringLiteral("skins")});
        row("info_paint_sprayer", s + QStringLiteral("info_paint_sprayer/info_paint_sprayer.qc"),
            m + QStringLiteral("info_paint_sprayer.mdl"),
            {QStringLiteral("materialNames"), QStringLiteral("skins"),
             QStringLiteral("hitboxes[0].box"), QStringLiteral("illumPosition"),
             QStringLiteral("hull")});
        row("testchamber_door", s + QStringLiteral("prop_testchamber_door/portal_door_combined.qc"),
            m + QStringLiteral("prop_testchamber_door.mdl"), {});
        row("eggbotstart", s + QStringLiteral("info_player_coop_bots/eggbotstart.qc"),
            m + QStringLiteral("eggbotstart.mdl"), {});
        row("env_dustpuff", s + QStringLiteral("env_dustpuff/env_dustpuff.qc"),
            m + QStringLiteral("env_dustpuff.mdl"), {});
        row("vgui_arrows", s + QStringLiteral("vgui_arrows/vgui_arrows.qc"),
            m + QStringLiteral("vgui_arrows.mdl"), {});
        row("sky_camera", s + QStringLiteral("sky_camera/camera.qc"),
            m + QStringLiteral("sky_camera.mdl"), {});
        row("curve_1", s + QStringLiteral("vactubes/curve_1.qc"),
            m + QStringLiteral("vactubes/curve_1.mdl"), {});
        row("cable", s + QStringLiteral("comp_prop_rope_dynamic/cable.qc"),
            m + QStringLiteral("comp_prop_cable_dynamic.mdl"), {});
        row("vacum_scanner_tv",
            h + QStringLiteral("modelsrc/props_backstage/vacum_scanner_tv/vacum_scanner_tv.qc"),
            h + QStringLiteral("hammer/models/props_backstage/vacum_scanner_tv_horiz_new.mdl"), {});
        // The other HammerAddons pairs match in every field.
        for (const char* name :
             {"vactubes/curve_2", "vactubes/curve_3", "vactubes/curve_4", "vactubes/curve_5",
              "vactubes/curve_6", "vactubes/diag_curve", "vactubes/diag_curve_mirror",
              "vactubes/end_point", "vactubes/splitter_sides", "vactubes/splitter_straight",
              "vactubes/splitter_triple", "vactubes/start_point", "vactubes/straight"}) {
            row(name, s + QLatin1String(name) + QStringLiteral(".qc"),
                m + QLatin1String(name) + QStringLiteral(".mdl"), {});
        }
        for (const auto& [qcName, mdlName] : std::vector<std::pair<const char*, const char*>>{
                 {"axis_helper_white/axis_helper_white", "axis_helper_white"},
                 {"prop_indicator_panel/prop_indicator_panel", "prop_indicator_panel"},
                 {"env_muzzleflash/env_muzzleflash", "env_muzzleflash"},
                 {"env_splash/env_splash", "env_splash"},
                 {"info_player_coop_bots/ballbotstart", "ballbotstart"},
                 {"comp_prop_rope_dynamic/rope", "comp_prop_rope_dynamic"},
                 {"info_placement_helper/placement_helper", "placement_helper"}}) {
            row(mdlName, s + QLatin1String(qcName) + QStringLiteral(".qc"),
                m + QLatin1String(mdlName) + QStringLiteral(".mdl"), {});
        }
        row("vacum_scanner_tv_vertical",
            h + QStringLiteral(
                    "modelsrc/props_backstage/vacum_scanner_tv/vacum_scanner_tv_vertical.qc"),
            h + QStringLiteral("hammer/models/props_backstage/vacum_scanner_tv_vert_new.mdl"), {});
        // A viewmodel built before its hands and two sequences were taken out of the sources.
        row("v_mom_shotgun",
            QStringLiteral(
                "momentum-mod+game/mp/game/momentum/mdlsrc/v_mom_shotgun/v_mom_shotgun.qc"),
            QStringLiteral("momentum-mod+game/mp/game/momentum/models/weapons/v_mom_shotgun.mdl"),
            {QStringLiteral("bones"), QStringLiteral("boneNames"),
             QStringLiteral("bodyparts[0].name"), QStringLiteral("bodyparts[0].models[0].vertices"),
             QStringLiteral("bodyparts[0].models[0].triangles"), QStringLiteral("materialNames"),
             QStringLiteral("skins[0]"), QStringLiteral("sequences"), QStringLiteral("hitboxes"),
             QStringLiteral("illumPosition"), QStringLiteral("hull")});
        row("ratcord",
            QStringLiteral("Valla-Chan+portal-elc-content/models/vallas_dream/ratcord.qc"),
            QStringLiteral("Valla-Chan+portal-elc-content/models/vallas_dream/ratcord.mdl"), {});
        // Spacebuild model pack (CATALOG A6; v44 props of 2007, sources at HEAD and, for those
        // whose folder the repository later deleted, at 0e9eb5c): these match in every field.
        const QString sb = QStringLiteral("code-google-com+spacebuildmodelpack/");
        const QString sbMdl = sb + QStringLiteral("SpacebuildModelPackAlpha2/models/Spacebuild/");
        const QString sbHead = sb + QStringLiteral("SB-MP Working Folder/Models/");
        const QString sbOld =
            QStringLiteral("code-google-com+spacebuildmodelpack-0e9eb5c/SB-MP Working Folder/"
                           "Compiled Models/");
        for (const auto& [qcName, mdlName] : std::vector<std::pair<const char*, const char*>>{
                 {"Bridges/MedBridge2", "medbridge2"},
                 {"Bridges/MedBridge2_AngularBridge", "medbridge2_angularbridge"},
                 {"Bridges/MedBridge2_MidSectionBridge", "medbridge2_midsectionbridge"},
                 {"Bridges/MedBridge2_TwoLevel", "medbridge2_twolevel"},
                 {"Engines/MedBridge2_EngineHull3", "medbridge2_enginehull3"},
                 {"Fighter Bays/MedBridge2_FighterBay", "medbridge2_fighterbay"},
                 {"Fighter Bays/MedBridge2_FighterBay2", "medbridge2_fighterbay2"},
                 {"Fighter Bays/MedBridge2_FighterBay2LongCap", "medbridge2_fighterbay2longcap"},
                 {"Fighter Bays/MedBridge2_FighterBay2_NoGlass", "medbridge2_fighterbay2_noglass"},
                 {"Fighter Bays/MedBridge2_FighterBay3", "medbridge2_fighterbay3"},
                 {"Fighter Bays/MedBridge2_FighterBay3A", "medbridge2_fighterbay3a"},
                 {"Fighter Bays/MedBridge2_FighterBay3SideBayCap",
                  "medbridge2_fighterbay3sidebaycap"},
                 {"Fighter Bays/MedBridge2_FighterBay3TransCap", "medbridge2_fighterbay3transcap"},
                 {"Fighter Bays/MedBridge2_FighterBayShortCap", "medbridge2_fighterbayshortcap"},
                 {"Fighter Bays/MedBridge2_FighterBayShortCap2", "medbridge2_fighterbayshortcap2"},
                 {"Fighter Bays/MedBridge2_FighterBay_NoGlass", "medbridge2_fighterbay_noglass"},
                 {"Generic/MedBridge2_EmptyDoubleHull", "medbridge2_emptydoublehull"},
                 {"Generic/MedBridge2_EmptyDoubleHull_DecktoDeckRamp",
                  "medbridge2_emptydoublehull_decktodeckramp"},
                 {"Generic/MedBridge2_EmptyHull_90", "medbridge2_emptyhull_90"},
                 {"Generic/MedBridge2_EmptyHull_T", "medbridge2_emptyhull_t"},
                 {"Generic/MedBridge2_EmptyHull_X", "medbridge2_emptyhull_x"},
                 {"Generic/MedBridge2_FlatCap", "medbridge2_flatcap"},
                 {"Generic/MedBridge2_S128Cap", "medbridge2_s128cap"},
                 {"Generic/MedBridge2_SingleToDoubleHull", "medbridge2_singletodoublehull"},
                 {"Generic/MedBridge2_WideY", "medbridge2_widey"},
             }) {
            row(qcName,
                sbHead + QStringLiteral("MedBridge2 Source Files/") + QLatin1String(qcName) +
                    QStringLiteral(".qc"),
                sbMdl + QLatin1String(mdlName) + QStringLiteral(".mdl"), {});
        }
        for (const auto& [qcName, mdlName] : std::vector<std::pair<const char*, const char*>>{
                 {"CargoCrate/cargo1/cargo1", "cargo1"},
                 {"Cargobay3/LargeBay1", "largebay1"},
                 {"Lights/PJBlight/PJBlight", "pjblight"},
                 {"Lights/batman/searchlight", "batlight"},
                 {"Lights/searchlight/searchlight", "searchlight"},
                 {"MedBridge/medbridge", "medbridge"},
                 {"MedBridge2/MedBridge2", "medbridge2"},
                 {"Pad/pad", "pad"},
                 {"ResourceCacheHuge/ResourceCacheHuge", "resourcecachehuge"},
                 {"ResourceCacheLarge/ResourceCacheLarge", "resourcecachelarge"},
                 {"ResourceCacheMassive/ResourceCacheMassive", "resourcecachemassive"},
                 {"ResourceCacheMedium/ResourceCacheMedium", "resourcecachemedium"},
                 {"ResourceCacheSmall/ResourceCacheSmall", "resourcecachesmall"},
                 {"ResourceCacheTiny/ResourceCacheTiny", "resourcecachetiny"},
                 {"TextureCube/Texan", "texan"},
                 {"Type1/s1t15w/s1t15w", "s1t15w"},
                 {"Type1/s1t16w/s1t16w", "s1t16w"},
                 {"Type1/s1t190/s1t90", "s1t190"},
                 {"Type1/s1t190/s1t90b", "s1t190b"},
                 {"Type1/s1t1T/s1t1T", "s1t1t"},
                 {"Type1/s1t1X/s1t1X", "s1t1x"},
                 {"Type1/s1t1s/s1t1s", "s1t1s"},
                 {"cargobays/cargo1/cbay1", "cbay1"},
                 {"chair/chair", "chair"},
                 {"chair2/chair2", "chair2"},
                 {"fighterbay/Small/fighterbay", "fighterfirgof"},
                 {"fighterbay/large/fighterbayL", "fighterbaylarge"},
                 {"milcock/glass/milcockglass", "milcockglass"},
                 {"milcock/milcock", "milcock"},
                 {"milcock2/milcock2", "milcock2"},
                 {"milcock3/boned/milcock3a", "milcock3a"},
                 {"milcock3/milcock3", "milcock3"},
                 {"milcock4/boned/milcock4", "milcock4a"},
                 {"milcock4/fighterparts/wings/milcock4_wing1", "milcock4_wing1"},
                 {"milcock4/fighterparts/wings/milcock4_wing2", "milcock4_wing2"},
                 {"milcock4/milcock4", "milcock4b"},
                 {"neopod/neopod", "neopod"},
                 {"neopod/neopodt", "neopodt"},
                 {"puddleJ/PuddleJ/PJ", "pj"},
                 {"puddleJ/PuddleJ/PJd", "pjd"},
                 {"standard/caps/stubecap", "stubecap"},
                 {"standard/s90/stube90", "stube90"},
                 {"standard/sT/stubet", "stubet"},
                 {"standard123/4w/stubet4", "stube4128"},
                 {"standard123/5w/stubet5", "stube5128"},
                 {"standard123/OL/STOL", "stol"},
                 {"standard123/QL/STQL", "stql"},
                 {"standard123/Stube1/stubet", "stube128"},
                 {"standard123/caps/stubecap", "stubecap"},
                 {"standard123/dl/STDL", "stdl"},
                 {"standard123/s6w/stube6w", "stube6w128"},
                 {"standard123/s90/stube90", "stube90128"},
                 {"standard123/sT/stubet", "stubet128"},
                 {"standard123/sX/stubex", "stubex128"},
                 {"standard123/standard DS/5w/ST5wDS", "st5wds"},
                 {"standard123/standard DS/6w/ST6wDS", "st6wds"},
                 {"standard123/standard DS/90/STDS90", "stds90"},
                 {"standard123/standard DS/ST2STDS/ST2STDS", "st2stds"},
                 {"standard123/standard DS/ST2STDW/ST2STDW", "st2stdw"},
                 {"standard123/standard DS/t/STTDS", "sttds"},
                 {"standard123/standard DS/tube/STDS", "stds"},
                 {"standard123/standard DS/x/STXDS", "stxds"},
                 {"standard123/standard DW/4w/ST4wDW", "st4wdw"},
                 {"standard123/standard DW/5w/ST5wDW", "st5wdw"},
                 {"standard123/standard DW/6w/ST6wDW", "st6wdw"},
                 {"standard123/standard DW/90/ST90DW", "st90dw"},
                 {"standard123/standard DW/DL/STDLDW", "stdldw"},
                 {"standard123/standard DW/QL/STQLDW", "stqldw"},
                 {"standard123/standard DW/T/STTDW", "sttdw"},
                 {"standard123/standard DW/c/ST2DW", "st2dw"},
                 {"standard123/standard DW/tube/STDW", "stdw"},
                 {"standard123/standard DW/x/STXDW", "stxdw"},
                 {"strange/strange", "strange"},
                 {"type2/s2t1/s2t1s", "s2t1"},
                 {"type2/s2t1s/s2t1s", "s2t1s"},
                 {"type2/s2t1t/s2t1t", "s2t1t"},
                 {"type2/s2t1x/s2t1x", "s2t1x"},
                 {"type3/s3t1/s3t1", "s3t1"},
                 {"type3/s3t190/s3t190", "s3t190"},
                 {"type3/s3t1x/s3t1x", "s3t1x"},
             }) {
            row(qcName, sbOld + QLatin1String(qcName) + QStringLiteral(".qc"),
                sbMdl + QLatin1String(mdlName) + QStringLiteral(".mdl"), {});
        }
        const QStringList hull{QStringLiteral("hull")};
        const QStringList lit{QStringLiteral("illumPosition"), QStringLiteral("hull")};
        // Built from other sources than these (git history, CATALOG A6): the captain's chair
        // from `Compiled Models/chair/chair.qc` (its 2 attachments; that QC matches above);
        // probay before ProBay.SMD changed (17 Nov 2007 04:11 against 05:25; the SMD of the
        // compile matches); test3 before test3.SMD changed (23 Nov against 1 Dec); s1t1 has 96
        // triangles where its SMD has 80 (studiomdl only drops triangles); PlasGun's sources
        // were first committed 8 days after it, its long axis turned from Z to X.
        const QStringList verts{QStringLiteral("bodyparts[0].models[0].vertices")};
        row("captain_chair", sbHead + QStringLiteral("interiors/captain Chair/chair.qc"),
            sbMdl + QStringLiteral("chair.mdl"),
            verts + QStringList{QStringLiteral("skins[0]"), QStringLiteral("attachments")} + lit);
        row("probay", sbOld + QStringLiteral("CargoBay2/cargobay2.qc"),
            sbMdl + QStringLiteral("probay.mdl"), verts + lit);
        row("test3", sbOld + QStringLiteral("AirlockTest/test3/test3.qc"),
            sbMdl + QStringLiteral("test3.mdl"), verts);
        row("test3e", sbOld + QStringLiteral("AirlockTest/test3/test3E.qc"),
            sbMdl + QStringLiteral("test3e.mdl"), verts + hull);
        row("s1t1", sbOld + QStringLiteral("Type1/s1t1/s1t1.qc"),
            sbMdl + QStringLiteral("s1t1.mdl"),
            verts + QStringList{QStringLiteral("bodyparts[0].models[0].triangles")} + hull);
        row("plasgun", sbOld + QStringLiteral("Guns/Plasma/PlasGun.qc"),
            sbMdl + QStringLiteral("plasgun.mdl"), hull);
        // test2E was built with another collision model than either test2Ephys.SMD of the
        // history (both within 128 units of the origin): its test2E.phy, which carries the
        // .mdl's checksum, spans x -14.6..241.4, y -95.1..32.9, z -62.7..65.3, and the hull's
        // sides beyond the body are those plus 0.25.
        row("teste2", sbOld + QStringLiteral("AirlockTest/test2/testE2.qc"),
            sbMdl + QStringLiteral("test2e.mdl"), hull);
        // Animated doors whose animation files hold bones the reference lacks, and a static
        // prop off its origin: the hull is sequence 0's box, with every kept bone's origin.
        for (const auto& [name, path, mdlName] :
             std::vector<std::tuple<const char*, const char*, const char*>>{
                 {"test2", "AirlockTest/test2/test2.qc", "test2"},
                 {"teste", "AirlockTest/testE.qc", "teste"}}) {
            row(name, sbOld + QLatin1String(path),
                sbMdl + QLatin1String(mdlName) + QStringLiteral(".mdl"), {});
        }
        row("engineaddon1",
            sbHead + QStringLiteral("MedBridge2 Source Files/Engines/MedBridge2_EngineAddon1.qc"),
            sbMdl + QStringLiteral("medbridge2_engineaddon1.mdl"), {});
        // `$scale 0.9` after the `$body`: the body and the collision model naming the same
        // file stay at full size.
        row("neopodo", sbOld + QStringLiteral("neopod/neopodo.qc"),
            sbMdl + QStringLiteral("neopodo.mdl"), {});
        // The collision model's hull is vphysics', not its source's: ConvexFromVerts rebuilds
        // each piece from its planes (RebuildConvexFromPlanes, vphysics_hull.h), which on a
        // thin sliver puts a point outside the source's. s3t1s.phy (the .mdl's checksum) has a
        // piece with a point at (-90.538, -47.570, 47.5) where its source has (-90, -47.5,
        // 47.5), and the hull is that .phy's box plus 0.25 exactly; pjw and pjdw are 0.73 wider
        // on both sides of y (their .phy was never committed). All three as compiled.
        for (const auto& [name, path, mdlName] :
             std::vector<std::tuple<const char*, const char*, const char*>>{
                 {"pjdw", "puddleJ/PuddleJ/PJdw.qc", "pjdw"},
                 {"pjw", "puddleJ/PuddleJ/PJw.qc", "pjw"},
                 {"s3t1s", "type3/s3t1s/s3t1s.qc", "s3t1s"}}) {
            row(name, sbOld + QLatin1String(path),
                sbMdl + QLatin1String(mdlName) + QStringLiteral(".mdl"), {});
        }
        // A ragdoll whose generated box reaches its bone's children.
        row("pjr", sbOld + QStringLiteral("puddleJ/puddleJRag/PJR.qc"),
            sbMdl + QStringLiteral("pjbr.mdl"), {});
        // 3 copies of triangles in the same order: NvTriStrip drops them.
        row("bay1", sbOld + QStringLiteral("cargoBay/bay1/bay1.qc"),
            sbMdl + QStringLiteral("bay1.mdl"), {});
        // riggs9162/lvs-halflife-2 (CATALOG A7): an animated vehicle with $collisionmodel,
        // skin families, hitbox sets and $definebone; a Crowbar decompile recompiled (v48).
        row("combine_apc_driveable",
            QStringLiteral("riggs9162+lvs-halflife-2/models/riggs9162/vehicles/"
                           "combine_apc_driveable/combine_apc_driveable.qc"),
            QStringLiteral(
                "riggs9162+lvs-halflife-2/models/riggs9162/vehicles/combine_apc_driveable.mdl"),
            {});
        // The collision model is posed by the first animation's frame 0 (ConvertToWorldSpace,
        // CalcBoneTransforms(g_panimation[0], 0)): here Crowbar's aim_y_1_corrective_animation,
        // whose root sits at the origin turned -90 degrees about Z where the bind pose has it
        // 18 up and turned (90, 0, -90): conscript_apc.phy spans x -153..153, y -65..65, z
        // -32..47, (z - 18, y, -x) of the physics SMD as written; with 0.25 the hull's x max
        // 153.23 and y +-65.25. Before the posing the prediction had z -135.25..171.25.
        row("conscript_apc",
            QStringLiteral("riggs9162+lvs-halflife-2-99a44f9/models/riggs9162/thirdparty/"
                           "conscript_apc/conscript_apc.qc"),
            QStringLiteral(
                "riggs9162+lvs-halflife-2-99a44f9/models/riggs9162/thirdparty/conscript_apc.mdl"),
            {});
        // GoldSrc (v10): malortie's sources of the assimp HL1 importer tests, built by the HL1
        // SDK studiomdl into assimp/assimp test/models/MDL/MDL (HL1). man: a bone only its head
        // bodies weight comes after the first body's (SimplifyModel builds the table body by
        // body). unnamed_bones.mdl had its bone names blanked and moved by hand after the compile
        // (the importer's test of unnamed bones): its 9 bones are the QC's, not their names.
        const QString gs = QStringLiteral("malortie+assimp-hl1-mdl-importer-tests-sources/models/");
        const QString gm = QStringLiteral("assimp+assimp/test/models/MDL/MDL (HL1)/");
        for (const char* name :
             {"alpha_test", "blend_additive", "chrome_sphere", "duplicate_bodyparts",
              "duplicate_sequences", "duplicate_submodels", "man", "multiple_roots",
              "sequence_transitions", "unnamed_bodyparts", "unnamed_sequences"}) {
            row(name, gs + QLatin1String(name) + u'/' + QLatin1String(name) + u".qc"_qs,
                gm + QLatin1String(name) + u".mdl"_qs, {});
        }
        for (const char* name : {"duplicate_sequence_groups", "unnamed_sequence_groups"}) {
            row(name, gs + QLatin1String(name) + u'/' + QLatin1String(name) + u".qc"_qs,
                gm + QLatin1String(name) + u'/' + QLatin1String(name) + u".mdl"_qs, {});
        }
        row("unnamed_bones", gs + QStringLiteral("unnamed_bones/unnamed_bones.qc"),
            gm + QStringLiteral("unnamed_bones.mdl"), {QStringLiteral("boneNames")});
        // A GoldSrc player model (HLSources/hltopdown-clone), recompiled from a Crowbar
        // decompile with a bodypart $origin studiomdl skips: 3 bodyparts, 2 skins, 100 sequences.
        row("hltopdown_player",
            QStringLiteral("HLSources+hltopdown-clone/modelsrc/PlayerAnim/player.qc"),
            QStringLiteral("HLSources+hltopdown-clone/models/player.mdl"), {});
        // momentum-mod/game at 168ad90 (before the paint gun was removed): binary DMX weapons
        // committed with their models. Their .vvd counts (3,351, 3,351, 2,153, 2,151) are the
        // DMX index triples after the normal collapse (dmxStudiomdlVertices), and the paint gun
        // viewmodel's mesh is on its own DAG's bone, 'v_mom_paintgun'. Left: the paint gun
        // viewmodel was built with another $origin than its QC's 4.2 10 3 (its sequence puts
        // all 3 bones 1.5, 0.2, 1.0 off the QC's place: 4 8.5 4), so its light and hull are
        // off by that; the world models' hulls are their .phy convex's box plus 0.25, and
        // vphysics kept 17 and 23 vertices of each collision mesh, a little inside it (0.02 to
        // 0.13): IVP's pointsoup drops the middle point of each sliver facet and hulls again
        // (try_to_build_convex_ledge_from_qhull_result), not reproduced (docs/compiled.md).
        const QString mom = QStringLiteral("momentum-mod+game-168ad90/mp/game/momentum/");
        auto momRow = [&](const char* name, const QStringList& fields) {
            row(name,
                mom + u"mdlsrc/"_qs + QLatin1String(name) + u'/' + QLatin1String(name) + u".qc"_qs,
                mom + u"models/weapons/"_qs + QLatin1String(name) + u".mdl"_qs, fields);
        };
        momRow("v_mom_paintgun", lit);
        momRow("w_mom_paintgun", hull);
        momRow("v_mom_pistol", {});
        momRow("w_mom_pistol", hull);
        // Tsuey/L4D2-Community-Update at 1749734^ (the sources were deleted in 1749734): v49
        // static props committed with the models built from them, DMX (Blender Source Tools)
        // and SMD, LODs, concave collision models. ItemPile_Adrenaline's .phy has a corner
        // 0.013 beyond its source's (the planes' rebuild, vphysics_hull.h). Not a pair:
        // fence002_128_breakable.qc, whose reference and physics SMDs were never committed.
        const QString l4d = QStringLiteral("Tsuey+L4D2-Community-Update/");
        const QString l4src = l4d + u"sources/modelsrc/props/"_qs;
        const QString l4mdl = l4d + u"root/models/"_qs;
        for (const auto& [name, qcPath, mdlPath] :
             std::vector<std::tuple<const char*, const char*, const char*>>{
                 {"l4d2_forklift", "forklift/forklift.qc", "props/cs_assault/forklift.mdl"},
                 {"l4d2_forklift_brokenlift", "forklift/forklift_brokenlift.qc",
                  "props/cs_assault/forklift_brokenlift.mdl"},
                 {"l4d2_desk_metal", "metal desk/desk_metal.qc", "props_interiors/desk_metal.mdl"},
                 {"l4d2_itempile_adrenaline", "item piles/itemPile_Adrenaline.qc",
                  "w_models/Weapons/itempile_adrenaline_reference.mdl"},
                 {"l4d2_itempile_molotov", "item piles/itemPile_Molotov.qc",
                  "w_models/Weapons/itempile_molotov.mdl"},
                 {"l4d2_itempile_painpills", "item piles/itemPile_PainPills.qc",
                  "w_models/Weapons/itempile_painpills.mdl"},
                 {"l4d2_itempile_pipebomb", "item piles/itemPile_Pipebomb.qc",
                  "w_models/Weapons/itempile_pipebomb.mdl"},
                 {"l4d2_itempile_vomitjar", "item piles/itemPile_VomitJar.qc",
                  "w_models/Weapons/itempile_vomitjar.mdl"}}) {
            row(name, l4src + QLatin1String(qcPath), l4mdl + QLatin1String(mdlPath), {});
        }
        // DeadZoneLuna/Faceposable-CSS-Models: 8 CS:S players with flex (VTA eyelids and
        // rules), $includemodel, $collisionjoints, 50 $definebone lines, $alwayscollapse and a
        // 181-bone reference each, and their _pm variants, built by SDK 2013's studiomdl (v48).
        // They showed CollapseBones (every bone but the $definebone ones, roots and animated
        // ones goes), a rigid attachment's bone, the light at sequence 0's box under $bbox,
        // $definebone's QAngle and unscaled numbers and a VTA flexfile without extension.
        // t_leet's twelve unlinked corners on its extra root t_leet_reference, which the
        // ragdoll sequence lacks, set sequence 0's x sides unturned (TranslateAnimations).
        const QString css = QStringLiteral("DeadZoneLuna+Faceposable-CSS-Models/");
        for (const char* name : {"ct_gign", "ct_gsg9", "ct_sas", "ct_urban", "t_arctic",
                                 "t_guerilla", "t_leet", "t_phoenix"}) {
            const QStringList fields;
            for (const char* suffix : {"", "_g"}) {
                const QString n = QLatin1String(name) + QLatin1String(suffix);
                row(qPrintable(u"css_"_qs + n),
                    css + u"modelsrc/player/"_qs + QLatin1String(name) + u'/' + n + u".qc"_qs,
                    css + u"models/player/"_qs + QLatin1String(name) + u"_exp"_qs +
                        (*suffix ? u"_pm"_qs : QString()) + u".mdl"_qs,
                    fields);
            }
        }
        // tschumann/basis at 37d4b97 (the models were deleted after): GoldSrc null models with
        // `$flags`, one body of one bone whose parent id is undeclared (HL1 Grab_Nodes takes
        // it), an empty triangles block.
        const QString basis = QStringLiteral("tschumann+basis-37d4b97/");
        for (const char* name : {"ef_gib", "ef_grenade", "ef_rocket", "ef_tracer", "ef_tracer2",
                                 "ef_tracer3", "ef_zomgib", "null"}) {
            row(qPrintable(u"basis_"_qs + QLatin1String(name)),
                basis + u"modelsrc/"_qs + QLatin1String(name) + u".qc"_qs,
                basis + u"basis/models/"_qs + QLatin1String(name) + u".mdl"_qs, {});
        }
    }
    void publicPairs()
    {
        QFETCH(QString, qc);
        QFETCH(QString, mdl);
        QFETCH(QStringList, fields);
        const QDir root(test::publicDataDir());
        if (!QFileInfo::exists(root.filePath(qc)) || !QFileInfo::exists(root.filePath(mdl))) {
            QSKIP("the public pairs (RIGSCOPE_TESTDATA) are not here");
        }
        CompareOptions opt;
        opt.ignoreTimestamps = true; // a checkout's file times say nothing
        const CompareReport r = compareQcToCompiled(root.filePath(qc).toStdString(),
                                                    root.filePath(mdl).toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QStringList got;
        for (const CompareDifference& d : r.differences) {
            got << QString::fromStdString(d.field);
        }
        QCOMPARE(got, fields);
        // Where nothing differs, nothing is called stale. The viewmodel was built from another
        // source file than its QC names (the .mdl keeps each model's source name): stale with
        // no help from file times. The HammerAddons props whose skins differ keep their
        // sources' names; only their history shows the QC moved on.
        if (fields.isEmpty()) {
            QVERIFY(r.staleReasons.empty());
        }
        if (QTest::currentDataTag() == QByteArrayView("v_mom_shotgun")) {
            QCOMPARE(r.staleReasons.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(r.staleReasons.front()),
                     u"bodypart 0 model 0 was compiled from 'reference.smd'; the QC names "
                     "'reference.dmx'"_qs);
            for (const CompareDifference& d : r.differences) {
                QVERIFY2(d.stale, d.field.c_str());
            }
        }
        // Bone counts and LOD 0 vertex counts agree wherever the sources are the model's.
        if (fields.isEmpty()) {
            QCOMPARE(r.predicted.bones.size(), r.compiled.bones.size());
        }
        // momentum's world models: only their collision models' hull sides differ, by 0.001 to
        // 0.109, the corners vphysics keeps by roundoff (docs/compiled.md): verdict vphysics,
        // exit 0. No other pair's difference is called so.
        const bool vphysicsRow = QTest::currentDataTag() == QByteArrayView("w_mom_paintgun") ||
                                 QTest::currentDataTag() == QByteArrayView("w_mom_pistol");
        for (const CompareDifference& d : r.differences) {
            QCOMPARE(d.vphysics, vphysicsRow && d.field == "hull");
        }
        if (vphysicsRow) {
            QCOMPARE(compareExitCode(r), 0);
        }
    }

    // The vphysics verdict: every differing hull side set by the collision model and within
    // IVP's 0.01 m (0.3937 in); a side the bodies set, or one further off, is the prediction's.
    void vphysicsVerdictNeedsCollisionSidesWithinOneCentimetre()
    {
        CompiledModelInfo pr, co;
        pr.hullMin = co.hullMin = Vec3(-1, -2, -3);
        pr.hullMax = co.hullMax = Vec3(4, 5, 6);
        const HullSides none{};
        HullSides maxX{};
        maxX[3] = true;
        QVERIFY(!hullWithinVphysicsRounding(pr, co, maxX)); // nothing differs
        co.hullMax.x() = 4.109f;
        QVERIFY(hullWithinVphysicsRounding(pr, co, maxX));
        QVERIFY(!hullWithinVphysicsRounding(pr, co, none)); // the bodies set that side
        co.hullMax.x() = 4.4f;                              // 0.4 > 0.3937
        QVERIFY(!hullWithinVphysicsRounding(pr, co, maxX));
        co.hullMax.x() = 4.05f;
        co.hullMin.y() = -2.01f; // a second side, which the collision model did not set
        QVERIFY(!hullWithinVphysicsRounding(pr, co, maxX));
        HullSides both = maxX;
        both[1] = true;
        QVERIFY(hullWithinVphysicsRounding(pr, co, both));
    }

    // One count of a DMX body's vertices (tests/fixtures/qc/dmx_weld): studiomdl numbers them
    // by (mesh, material, position, collapsed normal, UV) index triples (DefineUniqueVertices).
    // Positions 0 and 3 are equal but written apart (2 vertices where a weld by value makes 1),
    // normal 1 lies 1 degree off normal 0 and is collapsed into it (so corner 5 is corner 2's
    // vertex), and material b repeats a triple of material a (a vertex of its own): 8 vertices
    // of 9 corners. info, the vertex budget of check (the file's and the QC's), info X.qc and
    // compare's prediction all say 8 (info said 7, the budgets 7, info X.qc nothing).
    void dmxVerticesAreOneCount()
    {
        const std::string dir = (test::fixturesDir() + u"/qc/dmx_weld/"_qs).toStdString();
        const std::string dmx = dir + "weld.dmx", qc = dir + "weld.qc";
        QCOMPARE(infoFromFile(dmx, Profile::Auto, {}).vertices, std::size_t(8));
        const std::vector<CheckedFile> files = checkQcProject(qc, CheckOptions{});
        QCOMPARE(files.size(), std::size_t(2));
        QCOMPARE(files[0].format, std::string("qc"));
        QCOMPARE(vertexMeter(files[0]), 8LL);
        QCOMPARE(files[1].file, dmx);
        QCOMPARE(vertexMeter(files[1]), 8LL);
        QCOMPARE(qcInfoVertices(qc), 8LL);
        const CompiledModelInfo c = predictCompiled(qcReportFromFile(qc, Profile::Auto));
        QCOMPARE(c.bodyparts.at(0).models.at(0).vertices, 8);
        // Read from memory (no file to read again) the prediction is the same.
        QFile f(QString::fromStdString(dmx));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const CompiledModelInfo m =
            predict("$modelname t.mdl\n$body b w.dmx\n$sequence idle w.dmx\n",
                    {{"w.dmx", f.readAll().toStdString()}});
        QCOMPARE(m.bodyparts.at(0).models.at(0).vertices, 8);
    }

    // A QC merging the DMX with an SMD: the DMX keeps its 8 numbered vertices, the SMD's 4 are
    // welded by value, in the merged vertex budget as in the prediction.
    void dmxAndSmdBodiesMerge()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dmx = test::fixturesDir() + u"/qc/dmx_weld/weld.dmx"_qs;
        QVERIFY(QFile::copy(dmx, tmp.filePath(QStringLiteral("weld.dmx"))));
        write(tmp.filePath(QStringLiteral("quad.smd")),
              smd({{"plate", -1, Vec3::Zero()}}, quad("c", kUp, kUp, 0, 0, 2)));
        const QString qc = tmp.filePath(QStringLiteral("two.qc"));
        write(qc, "$modelname t.mdl\n$body plate weld.dmx\n$body quad quad.smd\n"
                  "$sequence idle weld.dmx\n");
        const std::vector<CheckedFile> files = checkQcProject(qc.toStdString(), CheckOptions{});
        QVERIFY(!files.empty());
        QCOMPARE(vertexMeter(files[0]), 12LL);
        QCOMPARE(qcInfoVertices(qc.toStdString()), 12LL);
        const CompiledModelInfo c =
            predictCompiled(qcReportFromFile(qc.toStdString(), Profile::Auto));
        QCOMPARE(c.bodyparts.size(), std::size_t(2));
        QCOMPARE(c.bodyparts[0].models.at(0).vertices, 8);
        QCOMPARE(c.bodyparts[1].models.at(0).vertices, 4);
    }

    // momentum-mod/game's binary DMX weapons at 168ad90: the .vvd counts and the paint gun
    // viewmodel's bones, predicted as studiomdl wrote them (they were 3,349, 3,349, 2,145 and
    // 2,145 vertices, and bone 'blender_implicit' for the paint gun viewmodel's mesh).
    void momentumDmxPairs_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("vertices");
        QTest::addColumn<QStringList>("bones");
        QTest::newRow("v_mom_paintgun")
            << QStringLiteral("v_mom_paintgun") << 3351
            << QStringList{QStringLiteral("Screen_LowerLeft"), QStringLiteral("Screen_UpperRight"),
                           QStringLiteral("v_mom_paintgun")};
        QTest::newRow("w_mom_paintgun") << QStringLiteral("w_mom_paintgun") << 3351
                                        << QStringList{QStringLiteral("w_mom_paintgun")};
        QTest::newRow("v_mom_pistol") << QStringLiteral("v_mom_pistol") << 2153 << QStringList();
        QTest::newRow("w_mom_pistol") << QStringLiteral("w_mom_pistol") << 2151
                                      << QStringList{QStringLiteral("w_mom_pistol")};
    }
    void momentumDmxPairs()
    {
        QFETCH(QString, name);
        QFETCH(int, vertices);
        QFETCH(QStringList, bones);
        const QDir root(test::publicDataDir() +
                        QStringLiteral("/momentum-mod+game-168ad90/mp/game/momentum"));
        const QString qc = root.filePath(u"mdlsrc/"_qs + name + u'/' + name + u".qc"_qs);
        const QString mdl = root.filePath(u"models/weapons/"_qs + name + u".mdl"_qs);
        if (!QFileInfo::exists(qc) || !QFileInfo::exists(mdl)) {
            QSKIP("the public pairs (RIGSCOPE_TESTDATA) are not here");
        }
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qc.toStdString(), mdl.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.predicted.bodyparts.at(0).models.at(0).vertices, vertices);
        QCOMPARE(r.compiled.bodyparts.at(0).models.at(0).vertices, vertices);
        // info and check count them as compare does (3,349, 3,349, 2,145, 2,145 before; info
        // on the body file 3,359, 3,359, 2,336, 2,717): the body file's info and vertex
        // budget, the QC's vertex budget and `info X.qc --json`.
        const std::vector<CheckedFile> files = checkQcProject(qc.toStdString(), CheckOptions{});
        QVERIFY(!files.empty());
        QCOMPARE(vertexMeter(files[0]), static_cast<long long>(vertices));
        QCOMPARE(qcInfoVertices(qc.toStdString()), static_cast<long long>(vertices));
        const QcReport q = qcReportFromFile(qc.toStdString(), Profile::Auto);
        std::string body;
        for (const QcFileRef& f : q.project.files) {
            body = body.empty() && f.command == "body" ? f.resolved : body;
        }
        QVERIFY(!body.empty());
        QCOMPARE(infoFromFile(body, Profile::Auto, {}).vertices, std::size_t(vertices));
        const auto bodyChecked = std::find_if(files.begin(), files.end(),
                                              [&](const CheckedFile& f) { return f.file == body; });
        QVERIFY(bodyChecked != files.end());
        QCOMPARE(vertexMeter(*bodyChecked), static_cast<long long>(vertices));
        // The compiled model's info and vertex budget count the .vvd vertices its triangles use
        // (issue 30; they welded the decoded mesh by value: 3,349, 3,349, 2,147, 2,145).
        QCOMPARE(infoFromFile(mdl.toStdString(), Profile::Auto, {}).vertices,
                 std::size_t(vertices));
        const CheckRun compiledRun = runCheck({mdl.toStdString()}, CheckOptions{});
        QCOMPARE(compiledRun.files.size(), std::size_t(1));
        QCOMPARE(vertexMeter(compiledRun.files[0]), static_cast<long long>(vertices));
        if (!bones.isEmpty()) {
            QStringList got;
            for (const CompiledBone& b : r.predicted.bones) {
                got << QString::fromStdString(b.name);
            }
            QCOMPARE(got, bones);
        }
    }

    // momentum-mod's paint gun viewmodel at 168ad90: its sequence's three root bones sit alike
    // (-1.5, 0.2, -1 in the compiled model's space) from where the QC's `$origin 4.2 10 3` puts
    // them. studiomdl takes $origin off every root bone as written, after $scale
    // (BuildRawTransforms; Load_DMX scales the DMX as it loads it): no rule of it turns 4.2 10 3
    // into 4 8.5 4 (each axis moves its own way), and the pistol viewmodel, whose QC has the
    // same $origin, is predicted exactly. So the model was built with another $origin: stale.
    void originOtherThanTheQcsIsStale()
    {
        const QDir root(test::publicDataDir() +
                        QStringLiteral("/momentum-mod+game-168ad90/mp/game/momentum"));
        const QString qc = root.filePath(QStringLiteral("mdlsrc/v_mom_paintgun/v_mom_paintgun.qc"));
        const QString mdl = root.filePath(QStringLiteral("models/weapons/v_mom_paintgun.mdl"));
        const QString pistolQc =
            root.filePath(QStringLiteral("mdlsrc/v_mom_pistol/v_mom_pistol.qc"));
        const QString pistol = root.filePath(QStringLiteral("models/weapons/v_mom_pistol.mdl"));
        if (!QFileInfo::exists(qc) || !QFileInfo::exists(mdl) || !QFileInfo::exists(pistolQc) ||
            !QFileInfo::exists(pistol)) {
            QSKIP("the public pairs (RIGSCOPE_TESTDATA) are not here");
        }
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qc.toStdString(), mdl.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.staleReasons.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(r.staleReasons.front()),
                 u"sequence 'idle' has all 3 root bones -1.5 0.2 -1 (compiled space) from where "
                 "the QC's $origin puts them at frame 0, as $origin 4 8.5 4 would: built with "
                 "another $origin (studiomdl takes it off every root bone as written, after "
                 "$scale: BuildRawTransforms)"_qs);
        QCOMPARE(r.differences.size(), std::size_t(2));
        for (const CompareDifference& d : r.differences) {
            QVERIFY2(d.stale, d.field.c_str());
        }
        const CompareReport p =
            compareQcToCompiled(pistolQc.toStdString(), pistol.toStdString(), opt);
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY(p.staleReasons.empty());
        QVERIFY(p.differences.empty());
    }

    // The 18 Pathos projects with their compiled .mdl (vbmcompiler): bones in order, sequences,
    // attachments and hitboxes are compared; the meshes and textures are in the .vbm, which is
    // not read, and a line says so.
    void pathosPairs_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("mdl");
        QTest::addColumn<QStringList>("fields");
        const QStringList none;
        const struct {
            const char* qc;
            const char* mdl;
            QStringList fields;
        } pairs[] = {
            // A later build than the QC: 16 sequences against the QC's 7.
            {"blackout/blackout", "blackout", {QStringLiteral("sequences")}},
            {"bullets/bullets", "bullets", none},
            {"crates/crate_small", "crate_small", none},
            {"error/error", "error", none},
            {"ladders/ladder1", "ladder1", none},
            {"motorbike/motorbike", "motorbike", none},
            {"npcs/harrison/harrison", "harrison", none},
            // The two *_precise sequences' blend files are `.SMD` (upper case) in the
            // repository; with them every field matches.
            {"npcs/replica/replica", "replica", none},
            {"npcs/security/security", "security", none},
            {"props/bigcluster1/bigcluster1", "props/bigcluster1", none},
            {"props/grasscluster/grasscluster", "props/grasscluster", none},
            {"props/pine/pine_tree", "props/pine_tree", none},
            {"props/pine_cluster1/pine_cluster1", "props/pine_cluster1", none},
            {"props/pine_cluster2/pine_cluster2", "props/pine_cluster2", none},
            {"shellcasings/shellcasings", "shellcasings", none},
            {"taperecorder/taperecorder", "taperecorder", none},
            {"w_objects/w_objects", "w_objects", none},
        };
        for (const auto& p : pairs) {
            QTest::newRow(p.qc) << QString::fromUtf8(p.qc) << QString::fromUtf8(p.mdl) << p.fields;
        }
    }
    void pathosPairs()
    {
        QFETCH(QString, name);
        QFETCH(QString, mdl);
        QFETCH(QStringList, fields);
        const QDir root(test::publicDataDir() +
                        QStringLiteral("/TheOverfloater+pathos-public/pathos"));
        const QString qc = root.filePath(QStringLiteral("sources/modelsrc/") + name + u".qc"_qs);
        const QString m = root.filePath(QStringLiteral("models/") + mdl + u".mdl"_qs);
        if (!QFileInfo::exists(qc) || !QFileInfo::exists(m)) {
            QSKIP("the Pathos pairs (RIGSCOPE_TESTDATA) are not here");
        }
        CompareOptions opt;
        opt.ignoreTimestamps = true;
        const CompareReport r = compareQcToCompiled(qc.toStdString(), m.toStdString(), opt);
        QVERIFY2(r.ok, r.error.c_str());
        QStringList got;
        for (const CompareDifference& d : r.differences) {
            got << QString::fromStdString(d.field);
        }
        QCOMPARE(got, fields);
        QCOMPARE(r.notCompared.size(), std::size_t(1));
        QVERIFY(compareText(r).find("not compared: vertices, triangles, materials and skins") !=
                std::string::npos);
        QCOMPARE(r.predicted.bones.size(), r.compiled.bones.size());
    }
};

QTEST_GUILESS_MAIN(TstCompare)
#include "tst_compare.moc"
