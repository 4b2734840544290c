// The physics model a QC compiles to (issue 31, core/physics): solids, convex pieces, volumes,
// masses and ragdoll constraints predicted from generated collision meshes (boxes written
// here), the phys.* checks at their lines, `info X.qc --json` / `physics X.qc --json`, and the
// prediction against the compiled .phy of public projects in RIGSCOPE_TESTDATA (default
// /work/data) when present.
#include <array>
#include <cmath>

#include <Eigen/Geometry>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"
#include "core/physics/convex_hull.h"
#include "core/physics/vphysics_hull.h"
#include "tests/support/box_smd.h"
#include "tests/support/public_data.h"

using namespace rigscope;
using core::Vec3;

namespace {

using SmdWriter = test::BoxSmd;

SmdWriter rootOnly()
{
    SmdWriter w;
    w.bones = {{"root", -1}};
    return w;
}

// 30 separate 2-unit boxes in a row (8 cubic units each).
SmdWriter thirtyBoxes()
{
    SmdWriter w = rootOnly();
    for (int i = 0; i < 30; ++i) {
        w.box(Vec3(4.0f * static_cast<float>(i), 0, 0),
              Vec3(4.0f * static_cast<float>(i) + 2, 2, 2), 0);
    }
    return w;
}

std::string body(const SmdWriter& w)
{
    return w.text();
}

struct Project {
    core::MemoryQcFileSystem fs;
    core::QcReport report;
    std::vector<core::CheckedFile> checked;
};

// p/main.qc with a body (one box on the same skeleton unless given) and p/phys.smd.
std::unique_ptr<Project> project(const std::string& qc, const SmdWriter& phys,
                                 const std::string& bodySmd = {})
{
    auto p = std::make_unique<Project>();
    SmdWriter b;
    b.bones = phys.bones;
    for (std::size_t i = 0; i < phys.bones.size(); ++i) {
        b.box(Vec3(0, 0, 0), Vec3(200, 20, 20), static_cast<int>(i));
    }
    p->fs.files["p/body.smd"] = bodySmd.empty() ? body(b) : bodySmd;
    p->fs.files["p/phys.smd"] = phys.text();
    p->fs.files["p/main.qc"] = qc;
    p->report = core::qcReport("p/main.qc", core::Profile::Source, p->fs);
    core::CheckOptions opt;
    opt.profile = core::Profile::Source;
    p->checked = core::checkQcReport(p->report, opt);
    return p;
}

// Every phys.* diagnostic as "file:line id severity".
QStringList physFindings(const Project& p)
{
    QStringList out;
    for (const core::CheckedFile& f : p.checked) {
        for (const core::Diagnostic& d : f.diagnostics) {
            if (d.id.starts_with("phys.")) {
                out << QString::fromStdString(d.file + ":" + std::to_string(d.where.line) + " " +
                                              std::string(d.id) + " " +
                                              std::string(core::severityName(d.severity)));
            }
        }
    }
    return out;
}

const core::Diagnostic* findDiag(const Project& p, std::string_view id)
{
    for (const core::CheckedFile& f : p.checked) {
        for (const core::Diagnostic& d : f.diagnostics) {
            if (d.id == id) {
                return &d;
            }
        }
    }
    return nullptr;
}

const std::string kQcHead = "$modelname \"t/m.mdl\"\n$body body \"body.smd\"\n";

} // namespace

class TstPhysics : public QObject {
    Q_OBJECT
private slots:
    void hullOfACube();
    void vphysicsRebuild();
    void costlyCollision();
    void notConcave();
    void flatPieces();
    void ragdoll();
    void ragdollChecks();
    void ragdollTooManySolids();
    void massAndOptions();
    void meshLarger();
    void cliKeys();
    void cliHullIsPosedByTheFirstAnimation();
    void realPairs();
};

void TstPhysics::hullOfACube()
{
    std::vector<core::Vec3d> pts;
    for (int i = 0; i < 8; ++i) {
        pts.emplace_back(i & 1 ? 3 : 1, i & 2 ? 4 : 0, i & 4 ? 5 : 2);
    }
    pts.emplace_back(2, 2, 3); // inside
    const auto hull = core::convexHull(pts);
    QVERIFY(hull.has_value());
    QCOMPARE(hull->vertices.size(), std::size_t(8));
    QCOMPARE(hull->triangles.size(), std::size_t(12));
    QVERIFY(std::abs(hull->volume - 24.0) < 1e-9);                 // 2 x 4 x 3
    QVERIFY(std::abs(hull->area - 2 * (8.0 + 6.0 + 12.0)) < 1e-9); // 52
    // Every triangle winds counter-clockwise seen from outside: its normal points away from
    // the centre (the physics view lights the faces by it).
    const core::Vec3d centre(2, 2, 3.5);
    for (const auto& t : hull->triangles) {
        const core::Vec3d& a = hull->vertices[t[0]];
        const core::Vec3d n = (hull->vertices[t[1]] - a).cross(hull->vertices[t[2]] - a);
        QVERIFY2(n.dot(a - centre) > 0, "a triangle winds inward");
    }
    // The same on a rounder hull of many facets (points on a sphere, spread by the golden angle).
    std::vector<core::Vec3d> ball;
    for (int i = 0; i < 200; ++i) {
        const double z = 1.0 - (2.0 * i + 1.0) / 200.0;
        const double r = std::sqrt(1.0 - z * z);
        const double phi = 2.399963229728653 * i;
        ball.emplace_back(5 + r * std::cos(phi), -2 + r * std::sin(phi), 1 + z);
    }
    const auto round = core::convexHull(ball);
    QVERIFY(round.has_value());
    QCOMPARE(round->vertices.size(), std::size_t(200));
    for (const auto& t : round->triangles) {
        const core::Vec3d& a = round->vertices[t[0]];
        const core::Vec3d n = (round->vertices[t[1]] - a).cross(round->vertices[t[2]] - a);
        QVERIFY2(n.dot(a - core::Vec3d(5, -2, 1)) > 0, "a triangle winds inward");
    }
    // Flat and short inputs span no volume.
    QVERIFY(
        !core::convexHull(std::vector<core::Vec3d>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
    QVERIFY(!core::convexHull(std::vector<core::Vec3d>{{0, 0, 0}, {1, 0, 0}}));
}

// vphysics' ConvexFromVerts rebuilds a hull from its planes (vphysics_hull.h): a 10-unit box
// whose top rises 0.0005 to a ridge at x = 5 has two top planes 0.011 degrees apart, which IVP
// keeps as one, the one nearer the origin (through x = 0 .. 5, rising 0.0001 per unit). The
// ridge's corners go and the top corners at x = 10 rise to 10.001; a box with a plain top keeps
// its 8 corners where they are.
void TstPhysics::vphysicsRebuild()
{
    auto corners = [](const std::vector<core::Vec3d>& pts) {
        const auto hull = core::convexHull(pts);
        return hull ? core::vphysicsRebuiltCorners(*hull) : std::vector<core::Vec3d>();
    };
    std::vector<core::Vec3d> box;
    for (int i = 0; i < 8; ++i) {
        box.emplace_back(i & 1 ? 10 : 0, i & 2 ? 10 : 0, i & 4 ? 10 : 0);
    }
    const std::vector<core::Vec3d> same = corners(box);
    QCOMPARE(same.size(), std::size_t(8));
    for (const core::Vec3d& c : same) {
        QVERIFY(std::abs(c.z() - (c.z() > 5 ? 10.0 : 0.0)) < 1e-9);
    }
    std::vector<core::Vec3d> ridge{{0, 0, 0},       {10, 0, 0},      {10, 10, 0}, {0, 10, 0},
                                   {0, 0, 10},      {0, 10, 10},     {10, 0, 10}, {10, 10, 10},
                                   {5, 0, 10.0005}, {5, 10, 10.0005}};
    const std::vector<core::Vec3d> got = corners(ridge);
    QCOMPARE(got.size(), std::size_t(8));
    int raised = 0;
    for (const core::Vec3d& c : got) {
        QVERIFY2(std::abs(c.x() - 5) > 1, "the ridge is no corner any more");
        if (c.x() > 5 && c.z() > 5) {
            QVERIFY(std::abs(c.z() - 10.001) < 1e-9);
            ++raised;
        } else {
            QVERIFY(std::abs(c.z() - (c.z() > 5 ? 10.0 : 0.0)) < 1e-9);
        }
    }
    QCOMPARE(raised, 2);
    // A ridge of 0.1 (1.1 degrees, more than IVP's 1e-4 on the normals) stays.
    ridge[8].z() = ridge[9].z() = 10.1;
    QCOMPARE(corners(ridge).size(), std::size_t(10));
}

void TstPhysics::costlyCollision()
{
    // 30 separate boxes with $concave and the default limit: "30 parts - 20 allowed", one hull.
    {
        const auto p = project(
            kQcHead + "$collisionmodel \"phys.smd\" {\n\t$concave\n\t$mass 30\n}\n", thirtyBoxes());
        const core::PhysicsModel& ph = p->report.physics;
        QVERIFY(ph.built);
        QCOMPARE(ph.solids.size(), std::size_t(1));
        QCOMPARE(ph.solids[0].name, std::string("phys"));
        QCOMPARE(ph.convexPieces(), std::size_t(1));
        QVERIFY(ph.solids[0].singleHullFallback);
        // One hull around the row: 118 x 2 x 2.
        QVERIFY(std::abs(ph.solids[0].volume - 472.0) < 1e-6);
        QCOMPARE(physFindings(*p), QStringList{u"p/main.qc:3 phys.costly-collision warning"_qs});
        const core::Diagnostic* d = findDiag(*p, "phys.costly-collision");
        QVERIFY(d->message.find("30 convex pieces - 20 allowed") != std::string::npos);
    }
    // $concave + $maxconvexpieces 40: thirty pieces, no warning.
    {
        const auto p = project(kQcHead + "$collisionmodel \"phys.smd\" {\n\t$concave\n"
                                         "\t$maxconvexpieces 40\n\t$mass 30\n}\n",
                               thirtyBoxes());
        const core::PhysicsModel& ph = p->report.physics;
        QCOMPARE(ph.convexPieces(), std::size_t(30));
        QVERIFY(std::abs(ph.solids[0].volume - 240.0) < 1e-6);
        QCOMPARE(ph.solids[0].mass, 30.0f);
        QCOMPARE(physFindings(*p), QStringList());
    }
}

void TstPhysics::notConcave()
{
    const auto p = project(kQcHead + "$collisionmodel \"phys.smd\"\n", thirtyBoxes());
    QCOMPARE(p->report.physics.convexPieces(), std::size_t(1));
    QCOMPARE(p->report.physics.solids[0].mass, 1.0f); // studiomdl's default total: 1 kg
    QCOMPARE(physFindings(*p), QStringList{u"p/main.qc:3 phys.not-concave warning"_qs});
    // The same parts as the $body's own file (the render mesh reused for physics, as
    // momentum's world-model guns do): a hull around the model is what was asked for, a note.
    const auto reused =
        project("$modelname \"t/m.mdl\"\n$body body \"phys.smd\"\n$collisionmodel \"phys.smd\"\n",
                thirtyBoxes());
    QCOMPARE(reused->report.physics.convexPieces(), std::size_t(1));
    QCOMPARE(physFindings(*reused), QStringList{u"p/main.qc:3 phys.not-concave note"_qs});
    // One box with hard edges is one part, not six: no finding.
    SmdWriter hard = rootOnly();
    hard.box(Vec3(0, 0, 0), Vec3(2, 2, 2), 0, false);
    const auto q = project(kQcHead + "$collisionmodel \"phys.smd\"\n", hard);
    QCOMPARE(physFindings(*q), QStringList());
    QVERIFY(std::abs(q->report.physics.solids[0].volume - 8.0) < 1e-6);
}

void TstPhysics::flatPieces()
{
    // A hard-edged box under $concave: every face is a flat piece; studiomdl hulls the whole.
    SmdWriter hard = rootOnly();
    hard.box(Vec3(0, 0, 0), Vec3(2, 2, 2), 0, false);
    hard.box(Vec3(10, 0, 0), Vec3(12, 2, 2), 0, true);
    const auto p = project(kQcHead + "$collisionmodel \"phys.smd\" {\n\t$concave\n}\n", hard);
    QCOMPARE(p->report.physics.convexPieces(), std::size_t(1));
    QVERIFY(std::abs(p->report.physics.solids[0].volume - 48.0) < 1e-6); // 12 x 2 x 2
    // Located at the first vertex of the first flat face: line 8 of phys.smd.
    QCOMPARE(physFindings(*p), QStringList{u"p/phys.smd:11 phys.flat-piece warning"_qs});
    // $remove2d drops the faces: the smooth box is the one piece left.
    const auto q =
        project(kQcHead + "$collisionmodel \"phys.smd\" {\n\t$concave\n\t$remove2d\n}\n", hard);
    QCOMPARE(q->report.physics.convexPieces(), std::size_t(1));
    QVERIFY(std::abs(q->report.physics.solids[0].volume - 8.0) < 1e-6);
    QCOMPARE(physFindings(*q), QStringList());
    // A collision mesh that is one flat quad: no solid at all.
    SmdWriter plane = rootOnly();
    plane.quad(Vec3(0, 0, 0), Vec3(10, 10, 0), 0);
    const auto r = project(kQcHead + "$collisionmodel \"phys.smd\"\n", plane);
    QVERIFY(!r->report.physics.built);
    QCOMPARE(physFindings(*r), QStringList{u"p/main.qc:3 phys.flat-piece error"_qs});
}

void TstPhysics::ragdoll()
{
    // root -> arm -> hand, each with a box on its own bone; the hand box 4 units (volume 2x).
    SmdWriter w;
    w.bones = {{"root", -1}, {"arm", 0}, {"hand", 1}};
    w.box(Vec3(-2, -2, -2), Vec3(2, 2, 2), 0);  // 64
    w.box(Vec3(8, -1, -1), Vec3(12, 1, 1), 1);  // 16
    w.box(Vec3(18, -1, -1), Vec3(26, 1, 1), 2); // 32
    const std::string qc = kQcHead + "$collisionjoints \"phys.smd\" {\n"
                                     "\t$mass 112\n"
                                     "\t$jointmassbias hand 2\n"
                                     "\t$jointconstrain arm x limit -30 45 1\n"
                                     "\t$jointconstrain hand z free 0 0 2\n"
                                     "\t$jointdamping hand 0.5\n"
                                     "}\n";
    const auto p = project(qc, w);
    const core::PhysicsModel& ph = p->report.physics;
    QVERIFY(ph.jointed);
    QCOMPARE(ph.solids.size(), std::size_t(3));
    QCOMPARE(ph.solids[0].name, std::string("root"));
    QCOMPARE(ph.solids[1].name, std::string("arm"));
    QCOMPARE(ph.solids[1].parent, std::string("root"));
    QCOMPARE(ph.solids[2].name, std::string("hand"));
    QCOMPARE(ph.solids[2].parent, std::string("arm"));
    QVERIFY(std::abs(ph.solids[0].volume - 64) < 1e-6);
    QVERIFY(std::abs(ph.solids[1].volume - 16) < 1e-6);
    QVERIFY(std::abs(ph.solids[2].volume - 32) < 1e-6);
    // Mass by volume x bias: 64 : 16 : 64 of 112 kg.
    QVERIFY(std::abs(ph.solids[0].mass - 112.0f * 64 / 144) < 1e-3f);
    QVERIFY(std::abs(ph.solids[1].mass - 112.0f * 16 / 144) < 1e-3f);
    QVERIFY(std::abs(ph.solids[2].mass - 112.0f * 64 / 144) < 1e-3f);
    QCOMPARE(ph.solids[2].damping, 0.5f);
    QCOMPARE(ph.solids[2].massBias, 2.0f);
    // Constraints: arm x -30..45 friction 1/5, the rest locked; hand z free (-360..360).
    QCOMPARE(ph.constraints.size(), std::size_t(2));
    const core::PhysicsConstraint& arm = ph.constraints[0];
    QCOMPARE(arm.child, 1);
    QCOMPARE(arm.parent, 0);
    QCOMPARE(arm.min[0], -30.0f);
    QCOMPARE(arm.max[0], 45.0f);
    QCOMPARE(arm.friction[0], 0.2f);
    QCOMPARE(arm.min[1], 0.0f);
    QCOMPARE(arm.max[2], 0.0f);
    const core::PhysicsConstraint& hand = ph.constraints[1];
    QCOMPARE(hand.child, 2);
    QCOMPARE(hand.min[2], -360.0f);
    QCOMPARE(hand.max[2], 360.0f);
    QCOMPARE(hand.friction[2], 0.4f);
    QCOMPARE(physFindings(*p), QStringList());

    // $jointmerge hand into arm and $jointskip: arm takes the hand's geometry (one hull).
    const auto q = project(kQcHead + "$collisionjoints \"phys.smd\" {\n"
                                     "\t$jointmerge arm hand\n}\n",
                           w);
    QCOMPARE(q->report.physics.solids.size(), std::size_t(2));
    QCOMPARE(q->report.physics.solids[1].name, std::string("arm"));
    QVERIFY(std::abs(q->report.physics.solids[1].volume - 18 * 2 * 2) < 1e-6);
    const auto s = project(kQcHead + "$collisionjoints \"phys.smd\" {\n\t$jointskip hand\n}\n", w);
    QCOMPARE(s->report.physics.solids.size(), std::size_t(2));
}

void TstPhysics::ragdollChecks()
{
    SmdWriter w;
    w.bones = {{"root", -1}, {"arm", 0}, {"empty", 1}};
    w.box(Vec3(-2, -2, -2), Vec3(2, 2, 2), 0);
    w.box(Vec3(8, -1, -1), Vec3(12, 1, 1), 1, true, "2 0 0.5 1 0.5");            // on root and arm
    const std::string qc = kQcHead + "$collisionjoints \"phys.smd\" {\n"         // 3
                                     "\t$jointconstrain arm x limit 40 -10\n"    // 4: min > max
                                     "\t$jointconstrain arm y limit -200 30\n"   // 5: beyond 180
                                     "\t$jointconstrain empty z limit -10 10\n"  // 6: no solid
                                     "\t$jointconstrain nobody z limit -10 10\n" // 7: no bone
                                     "\t$masss 3\n"                              // 8
                                     "}\n";
    const auto p = project(qc, w);
    QStringList got = physFindings(*p);
    got.sort();
    QStringList want{
        u"p/main.qc:4 phys.constraint-range error"_qs,
        u"p/main.qc:5 phys.constraint-range warning"_qs,
        // 'empty' has no solid: the limit goes to arm's joint.
        u"p/main.qc:6 phys.constraint-no-solid warning"_qs,
        // root's vertices on the arm box join root's hull: two parts, one hull.
        u"p/main.qc:3 phys.not-concave warning"_qs,
        u"p/main.qc:7 phys.constraint-no-solid warning"_qs,
        u"p/main.qc:8 phys.unknown-option warning"_qs,
        // The first vertex of the arm box (line 63: after 12 root triangles of 4 lines).
        u"p/phys.smd:63 phys.vertex-multiple-bones warning"_qs};
    want.sort();
    if (got != want) {
        qWarning("%s", qPrintable(got.join(u'\n')));
    }
    QCOMPARE(got, want);

    // A limit on the root solid: studiomdl stops ("which has no parent").
    SmdWriter two;
    two.bones = {{"root", -1}, {"arm", 0}};
    two.box(Vec3(-2, -2, -2), Vec3(2, 2, 2), 0);
    two.box(Vec3(8, -1, -1), Vec3(12, 1, 1), 1);
    const auto r = project(kQcHead + "$collisionjoints \"phys.smd\" {\n"
                                     "\t$jointconstrain root x limit -10 10\n}\n",
                           two);
    QCOMPARE(physFindings(*r), QStringList{u"p/main.qc:4 phys.constraint-no-solid error"_qs});

    // A collision vertex on a bone the visible model does not have.
    SmdWriter extra;
    extra.bones = {{"root", -1}, {"helper", 0}};
    extra.box(Vec3(-2, -2, -2), Vec3(2, 2, 2), 0);
    extra.box(Vec3(8, -1, -1), Vec3(12, 1, 1), 1);
    SmdWriter b;
    b.bones = {{"root", -1}};
    b.box(Vec3(0, 0, 0), Vec3(20, 20, 20), 0);
    const auto q = project(kQcHead + "$collisionjoints \"phys.smd\"\n", extra, b.text());
    QCOMPARE(physFindings(*q), QStringList{u"p/phys.smd:61 phys.vertex-unknown-bone error"_qs});
    QCOMPARE(q->report.physics.solids.size(), std::size_t(1)); // the helper's solid is lost
}

void TstPhysics::ragdollTooManySolids()
{
    SmdWriter w;
    for (int i = 0; i < 25; ++i) {
        w.bones.emplace_back("b" + std::to_string(i), i - 1);
        const float x = 10.0f * static_cast<float>(i);
        w.box(Vec3(x - 1, -1, -1), Vec3(x + 1, 1, 1), i);
    }
    const auto p = project(kQcHead + "$collisionjoints \"phys.smd\"\n", w);
    QCOMPARE(p->report.physics.solids.size(), std::size_t(25));
    QCOMPARE(physFindings(*p), QStringList{u"p/main.qc:3 phys.too-many-solids warning"_qs});
}

void TstPhysics::massAndOptions()
{
    SmdWriter w = rootOnly();
    w.box(Vec3(0, 0, 0), Vec3(2, 2, 2), 0);
    const auto p = project(kQcHead + "$collisionmodel \"phys.smd\" {\n\t$mass 0\n"
                                     "\t$inertia 0\n\t$damping 0.3\n\t$rotdamping 2\n}\n",
                           w);
    QCOMPARE(physFindings(*p), (QStringList{u"p/main.qc:4 phys.mass-range warning"_qs,
                                            u"p/main.qc:5 phys.mass-range warning"_qs}));
    const core::PhysicsSolid& s = p->report.physics.solids[0];
    QCOMPARE(s.mass, 1.0f); // studiomdl's minimum
    QCOMPARE(s.damping, 0.3f);
    QCOMPARE(s.rotDamping, 2.0f);
    // $automass: the volume at the "default" surface property's 2000 kg/m^3.
    const auto q = project(kQcHead + "$collisionmodel \"phys.smd\" {\n\t$automass\n}\n", w);
    QVERIFY(std::abs(q->report.physics.totalMass - 8 * 0.0254 * 0.0254 * 0.0254 * 2000) < 1e-4);
    // A long thin solid (longest side > 9 x the rest) gets rotational damping 1.
    SmdWriter rod = rootOnly();
    rod.box(Vec3(0, 0, 0), Vec3(100, 2, 2), 0);
    const auto r = project(kQcHead + "$collisionmodel \"phys.smd\"\n", rod);
    QCOMPARE(r->report.physics.solids[0].rotDamping, 1.0f);
}

void TstPhysics::meshLarger()
{
    SmdWriter w = rootOnly();
    w.box(Vec3(0, 0, 0), Vec3(2000, 400, 400), 0); // in the body's centimetres, say
    const auto p = project(kQcHead + "$collisionmodel \"phys.smd\"\n", w);
    QCOMPARE(physFindings(*p), QStringList{u"p/main.qc:3 phys.mesh-larger warning"_qs});
}

void TstPhysics::cliKeys()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SmdWriter w;
    w.bones = {{"root", -1}, {"arm", 0}};
    w.box(Vec3(-2, -2, -2), Vec3(2, 2, 2), 0);
    w.box(Vec3(8, -1, -1), Vec3(12, 1, 1), 1);
    SmdWriter b;
    b.bones = w.bones;
    b.box(Vec3(-5, -5, -5), Vec3(15, 5, 5), 0);
    b.box(Vec3(5, -5, -5), Vec3(15, 5, 5), 1);
    auto put = [&](const QString& name, const std::string& text) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), static_cast<qint64>(text.size()));
    };
    put(u"body.smd"_qs, b.text());
    put(u"phys.smd"_qs, w.text());
    put(u"m.qc"_qs, kQcHead + "$surfaceprop metal\n$collisionjoints \"phys.smd\" {\n\t$mass 80\n"
                              "\t$jointconstrain arm z limit -20 20\n}\n");
    auto run = [&](const QStringList& args) {
        QProcess cli;
        cli.start(QStringLiteral(RIGSCOPE_CLI_PATH), args);
        cli.waitForFinished(60000);
        return QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    };
    const QJsonObject info = run({u"info"_qs, dir.filePath(u"m.qc"_qs), u"--json"_qs});
    const QJsonObject ph = info.value(u"physics"_qs).toObject();
    QCOMPARE(ph.value(u"solids"_qs).toInt(), 2);
    QCOMPARE(ph.value(u"convexPieces"_qs).toInt(), 2);
    QVERIFY(std::abs(ph.value(u"mass"_qs).toDouble() - 80.0) < 1e-3);
    QCOMPARE(ph.value(u"constraints"_qs).toInt(), 1);
    const QJsonArray bodies = ph.value(u"bodies"_qs).toArray();
    QCOMPARE(bodies.size(), 2);
    QCOMPARE(bodies[1].toObject().value(u"name"_qs).toString(), u"arm"_qs);
    QCOMPARE(bodies[1].toObject().value(u"pieces"_qs).toInt(), 1);
    QVERIFY(std::abs(bodies[1].toObject().value(u"mass"_qs).toDouble() - 80.0 * 16 / 80) < 1e-3);
    QCOMPARE(bodies[1].toObject().value(u"surfaceProp"_qs).toString(), u"metal"_qs);

    const QJsonObject phys = run({u"physics"_qs, dir.filePath(u"m.qc"_qs), u"--json"_qs});
    const QJsonObject detail = phys.value(u"physics"_qs).toObject();
    QCOMPARE(detail.value(u"solids"_qs).toInt(), 2);
    const QJsonArray limits = detail.value(u"jointLimits"_qs).toArray();
    QCOMPARE(limits.size(), 1);
    QCOMPARE(limits[0].toObject().value(u"bone"_qs).toString(), u"arm"_qs);
    QCOMPARE(limits[0].toObject().value(u"axis"_qs).toString(), u"z"_qs);
    QCOMPARE(limits[0].toObject().value(u"min"_qs).toDouble(), -20.0);
    const QJsonObject c = detail.value(u"constraintList"_qs).toArray()[0].toObject();
    QCOMPARE(c.value(u"zmax"_qs).toDouble(), 20.0);
    QCOMPARE(c.value(u"xmax"_qs).toDouble(), 0.0);
}

// `physics X.qc` hulls a prop's collision mesh where studiomdl does (ConvertToWorldSpace:
// CalcBoneTransforms(g_panimation[0], 0)), by the same function as `compare` (qcCollisionMesh):
// the root 10 up in the first animation's frame 0 lifts the hull 10 up; turned 90 degrees about
// Z there, the hull turns with it.
void TstPhysics::cliHullIsPosedByTheFirstAnimation()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SmdWriter w = rootOnly();
    w.box(Vec3(0, 0, 0), Vec3(2, 4, 1), 0);
    SmdWriter b = rootOnly();
    b.box(Vec3(-5, -5, -5), Vec3(5, 5, 5), 0);
    auto put = [&](const QString& name, const std::string& text) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), static_cast<qint64>(text.size()));
    };
    auto pose = [](const char* key) {
        return std::string("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 ") + key +
               "\nend\n";
    };
    put(u"body.smd"_qs, b.text());
    put(u"phys.smd"_qs, w.text());
    put(u"up.smd"_qs, pose("0 0 10 0 0 0"));
    put(u"turned.smd"_qs, pose("0 0 10 0 0 1.5707963267948966"));
    put(u"up.qc"_qs, kQcHead + "$sequence idle up.smd\n$collisionmodel \"phys.smd\"\n");
    put(u"turned.qc"_qs, kQcHead + "$sequence idle turned.smd\n$collisionmodel \"phys.smd\"\n");
    put(u"static.qc"_qs, kQcHead + "$staticprop\n$origin 0 0 0 90\n$collisionmodel \"phys.smd\"\n");
    put(u"moved.qc"_qs, kQcHead + "$staticprop\n$origin 10 20 30\n$collisionmodel \"phys.smd\"\n");
    auto bounds = [&](const QString& qc) {
        QProcess cli;
        cli.start(QStringLiteral(RIGSCOPE_CLI_PATH),
                  {u"physics"_qs, dir.filePath(qc), u"--json"_qs});
        cli.waitForFinished(60000);
        const QJsonObject body = QJsonDocument::fromJson(cli.readAllStandardOutput())
                                     .object()
                                     .value(u"physics"_qs)
                                     .toObject()
                                     .value(u"bodies"_qs)
                                     .toArray()[0]
                                     .toObject();
        std::array<double, 6> out{};
        for (int i = 0; i < 3; ++i) {
            out[static_cast<std::size_t>(i)] = body.value(u"min"_qs).toArray()[i].toDouble(-99);
            out[static_cast<std::size_t>(i + 3)] = body.value(u"max"_qs).toArray()[i].toDouble(-99);
        }
        return out;
    };
    QCOMPARE(bounds(u"up.qc"_qs), (std::array<double, 6>{0, 0, 10, 2, 4, 11}));
    // (x, y, z) -> (-y, x, z + 10), to 1e-5 (the turn's sine and cosine).
    const std::array<double, 6> turned = bounds(u"turned.qc"_qs);
    const std::array<double, 6> want{-4, 0, 10, 0, 2, 11};
    for (std::size_t i = 0; i < 6; ++i) {
        QVERIFY2(std::abs(turned[i] - want[i]) < 1e-5,
                 qPrintable(QString::number(i) + u' ' + QString::number(turned[i])));
    }
    // A $staticprop has no animation to pose it: MakeStaticProp turns its points, the
    // collision model's too, by $origin's angle (g_defaultrotation), as the body is shown.
    const std::array<double, 6> still = bounds(u"static.qc"_qs);
    const std::array<double, 6> wantStill{-4, 0, 0, 0, 2, 1};
    for (std::size_t i = 0; i < 6; ++i) {
        QVERIFY2(std::abs(still[i] - wantStill[i]) < 1e-5,
                 qPrintable(QString::number(i) + u' ' + QString::number(still[i])));
    }
    // Its `$origin X Y Z` is added after the turn in the compiled model's space (MakeStaticProp's
    // matrix carries g_defaultadjust): (10, 20, 30) there is (20, -10, 30) in the viewer's, which
    // leaves studiomdl's 90 degrees out.
    QCOMPARE(bounds(u"moved.qc"_qs), (std::array<double, 6>{20, -10, 30, 22, -6, 31}));
}

// The prediction against studiomdl's own output: QC + collision SMD and the compiled .phy of
// the same public projects (docs/physics.md has the table).
void TstPhysics::realPairs()
{
    const QString root = test::publicDataDir();
    const QString ha = root + u"/TeamSpen210+HammerAddons/"_qs;
    if (!QFileInfo(ha + u"hammer/models/editor/prop_paint_bomb.phy"_qs).isFile()) {
        QSKIP("the public projects (RIGSCOPE_TESTDATA) are not here");
    }
    const struct {
        const char* qc;
        const char* mdl;
    } pairs[] = {
        {"TeamSpen210+HammerAddons/modelsrc/editor/item_healthcharger_mesa/health_charger.qc",
         "TeamSpen210+HammerAddons/hammer/models/editor/item_health_charger_mesa"},
        {"TeamSpen210+HammerAddons/modelsrc/editor/item_suitcharger_mesa/hev_charger.qc",
         "TeamSpen210+HammerAddons/hammer/models/editor/item_suit_charger_mesa"},
        {"TeamSpen210+HammerAddons/modelsrc/editor/prop_paint_bomb/prop_paint_bomb.qc",
         "TeamSpen210+HammerAddons/hammer/models/editor/prop_paint_bomb"},
        {"TeamSpen210+HammerAddons/modelsrc/editor/prop_testchamber_door/"
         "portal_door_combined.qc",
         "TeamSpen210+HammerAddons/hammer/models/editor/prop_testchamber_door"},
        {"TeamSpen210+HammerAddons/modelsrc/editor/item_suitcharger_hl2/suit_charger001.qc",
         "TeamSpen210+HammerAddons/hammer/models/editor/item_suit_charger_hl2"},
        {"TeamSpen210+HammerAddons/modelsrc/editor/item_healthcharger_hl2/health_charger001.qc",
         "TeamSpen210+HammerAddons/hammer/models/editor/item_health_charger_hl2"},
        {"Valla-Chan+portal-elc-content/models/vallas_dream/ratcord.qc",
         "Valla-Chan+portal-elc-content/models/vallas_dream/ratcord"},
    };
    const auto slurp = [](const QString& path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return std::string();
        }
        const QByteArray all = f.readAll();
        return std::string(all.constData(), static_cast<std::size_t>(all.size()));
    };
    for (const auto& pair : pairs) {
        const QString stem = root + u'/' + QString::fromLatin1(pair.mdl);
        core::SourceMdlFiles in;
        const std::string mdl = slurp(stem + u".mdl"_qs);
        const std::string phy = slurp(stem + u".phy"_qs);
        in.mdl = {mdl, (stem + u".mdl"_qs).toStdString(), true};
        in.phy = {phy, (stem + u".phy"_qs).toStdString(), true};
        core::CompiledReadOptions o;
        o.animations = false;
        const core::CompiledReadResult compiled = core::readSourceMdl(in, {}, o);
        const core::CompiledPhysics& want = compiled.info.physics;
        QVERIFY2(want.present, pair.mdl);
        const core::QcReport r = core::qcReportFromFile(
            (root + u'/' + QString::fromLatin1(pair.qc)).toStdString(), core::Profile::Auto);
        const core::PhysicsModel& got = r.physics;
        QVERIFY2(got.built, pair.qc);
        qInfo("%-28s solids %zu/%zu pieces %zu/%zu mass %.2f/%.2f volume %.1f/%.1f",
              QFileInfo(stem).fileName().toLatin1().constData(), got.solids.size(),
              want.solids.size(), got.convexPieces(), want.convexPieces(),
              static_cast<double>(got.mass()), static_cast<double>(want.mass()),
              got.solids.empty() ? 0.0 : got.solids[0].volume,
              want.solids.empty() ? 0.0 : static_cast<double>(want.solids[0].volume));
        QCOMPARE(got.solids.size(), want.solids.size());
        QCOMPARE(got.convexPieces(), want.convexPieces());
        QVERIFY2(std::abs(got.mass() - want.mass()) <= 0.01f * want.mass(), pair.qc);
        for (std::size_t i = 0; i < got.solids.size(); ++i) {
            QCOMPARE(QString::fromStdString(got.solids[i].name).toLower(),
                     QString::fromStdString(want.solids[i].name).toLower());
            QCOMPARE(got.solids[i].pieces.size(), want.solids[i].pieces.size());
        }
    }
}

QTEST_GUILESS_MAIN(TstPhysics)
#include "tst_physics.moc"
