// Source .phy collision models (issue 29): solids, convex pieces and the text section written
// by tests/support/mdl_writer and read back with exact counts, corners within float tolerance,
// located diagnostics for hostile bytes (truncations, flips, broken text); real .phy files
// from RIGSCOPE_TESTDATA (default /work/data) when present.
#include <random>

#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/formats/mdl/compiled_model.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/public_data.h"

using namespace rigscope;
using core::Vec3;

namespace {

core::CompiledPhysics readPhy(const std::string& bytes, std::vector<core::Diagnostic>& diags,
                              const std::vector<core::CompiledBone>& bones = {})
{
    core::CompiledPhysics out;
    core::readSourcePhy({bytes, "m.phy", true}, bones, 0x12345678, true, out, diags);
    return out;
}

QStringList formatted(const std::vector<core::Diagnostic>& diags)
{
    QStringList out;
    for (const core::Diagnostic& d : diags) {
        out << QString::fromStdString(core::formatDiagnostic(d));
    }
    return out;
}

bool near(const Vec3& a, const Vec3& b, float tol)
{
    return (a - b).cwiseAbs().maxCoeff() <= tol;
}

// A ragdoll of two solids: the root with two boxes (and the ledge tree's hull around them),
// the child with one.
test::PhySpec ragdollSpec()
{
    test::PhySpec s;
    test::PhySolid root;
    root.name = "root";
    root.surfaceProp = "flesh";
    root.mass = 12.5f;
    root.volume = 300;
    root.pieces = {test::phyBox(Vec3(-2, -3, 0), Vec3(2, 3, 4)),
                   test::phyBox(Vec3(2, -1, 1), Vec3(10, 1, 2))};
    root.hullLedge = true;
    test::PhySolid arm;
    arm.name = "Arm"; // bone names match without regard to case
    arm.parent = "root";
    arm.mass = 2.25f;
    arm.pieces = {test::phyBox(Vec3(0, -1, -1), Vec3(8, 1, 1))};
    s.solids = {root, arm};
    test::PhyConstraint c;
    c.min = Vec3(-10, -20, -30);
    c.max = Vec3(15, 25, 35);
    c.friction = Vec3(0.5f, 0, 1);
    s.constraints = {c};
    s.collisionPairs = {{0, 1}};
    s.selfCollisions = false;
    s.rootName = "root";
    s.concave = true;
    return s;
}

} // namespace

class TstMdlPhysics : public QObject {
    Q_OBJECT
private slots:
    void ragdoll();
    void legacyLayout();
    void throughTheModel();
    void brokenText();
    void hostileHeader();
    void truncationsAndFlips();
    void realPhy();
};

void TstMdlPhysics::ragdoll()
{
    std::vector<core::Diagnostic> diags;
    std::vector<core::CompiledBone> bones(2);
    bones[0].name = "root";
    bones[1].name = "arm";
    const core::CompiledPhysics p = readPhy(test::writePhy(ragdollSpec()), diags, bones);
    QCOMPARE(formatted(diags), QStringList());
    QVERIFY(p.present);
    QCOMPARE(p.headerSize, 16);
    QCOMPARE(p.solidCount, 2);
    QCOMPARE(p.checksum, 0x12345678);
    QCOMPARE(p.solids.size(), std::size_t(2));
    QCOMPARE(p.convexPieces(), std::size_t(3));
    const core::CompiledPhysicsSolid& root = p.solids[0];
    QCOMPARE(root.pieces.size(), std::size_t(2));
    QCOMPARE(root.hullLedges, 1);
    QCOMPARE(root.offset, std::uint64_t(16));
    for (const core::CompiledConvexPiece& piece : root.pieces) {
        QCOMPARE(piece.vertices.size(), std::size_t(8));
        QCOMPARE(piece.triangles.size(), std::size_t(12));
    }
    // Corners come back in the order the triangles first name them, in model units.
    const test::PhyPiece box = test::phyBox(Vec3(2, -1, 1), Vec3(10, 1, 2));
    QVERIFY(near(root.pieces[1].vertices[0], box.vertices[0], 1e-4f));
    for (std::size_t t = 0; t < box.triangles.size(); ++t) {
        for (std::size_t c = 0; c < 3; ++c) {
            const Vec3 got =
                root.pieces[1].vertices[static_cast<std::size_t>(root.pieces[1].triangles[t][c])];
            QVERIFY(near(got, box.vertices[box.triangles[t][c]], 1e-4f));
        }
    }
    QCOMPARE(root.name, std::string("root"));
    QCOMPARE(root.surfaceProp, std::string("flesh"));
    QCOMPARE(root.mass, 12.5f);
    QCOMPARE(root.volume, 300.0f);
    QCOMPARE(root.inertia, 1.0f);
    QCOMPARE(root.bone, 0);
    const core::CompiledPhysicsSolid& arm = p.solids[1];
    QCOMPARE(arm.pieces.size(), std::size_t(1));
    QCOMPARE(arm.hullLedges, 0);
    QCOMPARE(arm.parent, std::string("root"));
    QCOMPARE(arm.bone, 1);
    QCOMPARE(p.mass(), 14.75f);
    QCOMPARE(p.constraints.size(), std::size_t(1));
    QCOMPARE(p.constraints[0].parent, 0);
    QCOMPARE(p.constraints[0].child, 1);
    QVERIFY(near(p.constraints[0].min, Vec3(-10, -20, -30), 0));
    QVERIFY(near(p.constraints[0].max, Vec3(15, 25, 35), 0));
    QVERIFY(near(p.constraints[0].friction, Vec3(0.5f, 0, 1), 0));
    QCOMPARE(p.collisionPairs.size(), std::size_t(1));
    QCOMPARE(p.collisionPairs[0][1], 1);
    QVERIFY(!p.selfCollisions);
    QCOMPARE(p.rootName, std::string("root"));
    QCOMPARE(p.totalMass, 14.75f);
    QVERIFY(p.concave);
    QCOMPARE(p.blocks.size(), std::size_t(5));
    QCOMPARE(p.blocks[2].type, std::string("ragdollconstraint"));
    QCOMPARE(p.blocks[2].value("XMAX"), std::string("15.000000"));
}

void TstMdlPhysics::legacyLayout()
{
    test::PhySpec spec = ragdollSpec();
    spec.legacy = true;
    std::vector<core::Diagnostic> diags;
    const core::CompiledPhysics p = readPhy(test::writePhy(spec), diags);
    QCOMPARE(formatted(diags), QStringList());
    QCOMPARE(p.solids.size(), std::size_t(2));
    QCOMPARE(p.convexPieces(), std::size_t(3));
    QCOMPARE(p.solids[0].hullLedges, 1);
    QVERIFY(near(p.solids[1].pieces[0].vertices[0], Vec3(0, -1, -1), 1e-4f));
    QCOMPARE(p.solids[0].bone, -1); // no bones given
}

void TstMdlPhysics::throughTheModel()
{
    const test::SourceMdlBytes m = test::writeSourceMdl(test::sampleSourceSpec());
    const std::string phy = test::writePhy(ragdollSpec());
    core::SourceMdlFiles in;
    in.mdl = {m.mdl, "m.mdl", true};
    in.vvd = {m.vvd, "m.vvd", true};
    in.vtx = {m.vtx, "m.dx90.vtx", true};
    in.ani = {m.ani, "m.ani", !m.ani.empty()};
    in.phy = {phy, "m.phy", true};
    const core::CompiledReadResult r = core::readSourceMdl(in, {});
    QCOMPARE(formatted(r.diagnostics), QStringList());
    QVERIFY(r.info.physics.present);
    QCOMPARE(r.info.physics.convexPieces(), std::size_t(3));
    QCOMPARE(r.info.physics.solids[1].bone, 1); // "Arm" is the sample's bone "arm"
    // Without a .phy: nothing.
    in.phy = {};
    QVERIFY(!core::readSourceMdl(in, {}).info.physics.present);
}

void TstMdlPhysics::brokenText()
{
    test::PhySpec spec = ragdollSpec();
    const std::string good = test::phyText(spec);
    spec.text = good + "solid {\n\"index\" \"7\"\n}\nragdollconstraint {\n\"parent\"\n}\n";
    std::vector<core::Diagnostic> diags;
    const std::string bytes = test::writePhy(spec);
    const core::CompiledPhysics p = readPhy(bytes, diags);
    const std::size_t textAt = bytes.find("solid {");
    const std::size_t badSolid = textAt + good.size();
    const std::size_t badKey = bytes.find("\"parent\"\n}", badSolid);
    char want[2][200];
    std::snprintf(want[0], sizeof want[0],
                  "m.phy:@0x%04zX: error: the key 'parent' of the ragdollconstraint block has no "
                  "value [compiled.corrupt]",
                  badKey);
    std::snprintf(want[1], sizeof want[1],
                  "m.phy:@0x%04zX: error: the solid block's index 7 names no solid (2) "
                  "[compiled.corrupt]",
                  badSolid);
    // The text stops at the broken block; the blocks before it are kept and applied (the
    // stray solid 7 is reported too).
    QCOMPARE(formatted(diags), (QStringList{QLatin1String(want[0]), QLatin1String(want[1])}));
    QCOMPARE(p.blocks.size(), std::size_t(6));
    QCOMPARE(p.solids[1].mass, 2.25f);
    // A block that never closes.
    diags.clear();
    spec.text = "editparams {\n\"rootname\" \"x\"\n";
    const std::string open = test::writePhy(spec);
    readPhy(open, diags);
    QCOMPARE(diags.size(), std::size_t(1));
    QCOMPARE(diags[0].where.offset, std::uint64_t(open.find("editparams")));
}

void TstMdlPhysics::hostileHeader()
{
    std::string bytes = test::writePhy(ragdollSpec());
    std::vector<core::Diagnostic> diags;
    std::string many = bytes;
    many[8] = '\xFF';
    many[9] = '\xFF';
    many[10] = '\xFF';
    many[11] = '\x7F';
    readPhy(many, diags);
    QCOMPARE(formatted(diags),
             QStringList{u"m.phy:@0x0008: error: 2147483647 solids do not fit in the file ("_qs +
                         QString::number(bytes.size()) + u" bytes) [compiled.corrupt]"_qs});
    // A solid size past the end: reported at the size field, the text is not guessed at.
    diags.clear();
    std::string longSolid = bytes;
    longSolid[16 + 2] = '\x10';
    const core::CompiledPhysics p = readPhy(longSolid, diags);
    QCOMPARE(diags.size(), std::size_t(1));
    QCOMPARE(diags[0].where.offset, std::uint64_t(16));
    QVERIFY(p.blocks.empty());
    // A checksum that differs.
    diags.clear();
    std::string other = bytes;
    other[12] = 0x11;
    readPhy(other, diags);
    QCOMPARE(formatted(diags), QStringList{u"m.phy:@0x000C: error: checksum 0x12345611, the .mdl "
                                           u"has 0x12345678 [compiled.checksum-mismatch]"_qs});
    // A ledge whose triangle count runs into its points.
    diags.clear();
    std::string ledge = bytes;
    const std::size_t firstLedge = 16 + 4 + 28 + 48;
    ledge[firstLedge + 12] = '\x70';
    readPhy(ledge, diags);
    QCOMPARE(diags.size(), std::size_t(1));
    QCOMPARE(diags[0].where.offset, std::uint64_t(firstLedge + 12));
}

void TstMdlPhysics::truncationsAndFlips()
{
    const std::string bytes = test::writePhy(ragdollSpec());
    std::size_t reported = 0;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        std::vector<core::Diagnostic> diags;
        const core::CompiledPhysics p = readPhy(bytes.substr(0, n), diags);
        QVERIFY(p.convexPieces() <= 3);
        reported += diags.empty() ? 0 : 1;
        for (const core::Diagnostic& d : diags) {
            QVERIFY(d.where.offset <= n);
        }
    }
    // Every cut inside the binary section is reported (a cut text may still parse).
    QVERIFY(reported >= bytes.find("solid {"));
    std::mt19937 rng(29);
    for (int round = 0; round < 3000; ++round) {
        std::string flipped = bytes;
        for (int k = 0; k < 4; ++k) {
            flipped[rng() % flipped.size()] = static_cast<char>(rng() & 0xFF);
        }
        std::vector<core::Diagnostic> diags;
        const core::CompiledPhysics p = readPhy(flipped, diags);
        std::size_t corners = 0;
        for (const core::CompiledPhysicsSolid& s : p.solids) {
            for (const core::CompiledConvexPiece& piece : s.pieces) {
                corners += piece.vertices.size();
                for (const auto& t : piece.triangles) {
                    for (const std::int32_t c : t) {
                        QVERIFY(c >= 0 && static_cast<std::size_t>(c) < piece.vertices.size());
                    }
                }
            }
        }
        QVERIFY(corners <= flipped.size() / 4);
    }
}

void TstMdlPhysics::realPhy()
{
    const QString root = test::publicDataDir();
    const QString editor = root + u"/TeamSpen210+HammerAddons/hammer/models/editor/"_qs;
    const QString namvet =
        root + u"/xDShot+alastor-playermodel/addondir/models/survivors/survivor_namvet"_qs;
    if (!QFileInfo(editor + u"item_suit_charger_hl2.phy"_qs).isFile()) {
        QSKIP("the public compiled models (RIGSCOPE_TESTDATA) are not here");
    }
    const auto slurp = [](const QString& path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return std::string();
        }
        const QByteArray all = f.readAll();
        return std::string(all.constData(), static_cast<std::size_t>(all.size()));
    };
    const auto readModel = [&](const QString& stem) {
        const std::string mdl = slurp(stem + u".mdl"_qs);
        const std::string phy = slurp(stem + u".phy"_qs);
        core::SourceMdlFiles in;
        in.mdl = {mdl, (stem + u".mdl"_qs).toStdString(), true};
        in.phy = {phy, (stem + u".phy"_qs).toStdString(), true};
        core::CompiledReadOptions o;
        o.animations = false;
        core::CompiledReadResult r = core::readSourceMdl(in, {}, o);
        for (const core::Diagnostic& d : r.diagnostics) {
            if (d.file.ends_with(".phy")) {
                qWarning("%s", core::formatDiagnostic(d).c_str());
            }
        }
        return r;
    };
    const auto phyErrors = [](const core::CompiledReadResult& r) {
        int n = 0;
        for (const core::Diagnostic& d : r.diagnostics) {
            n += d.file.ends_with(".phy") ? 1 : 0;
        }
        return n;
    };
    // A static prop: one solid of two pieces (and the ledge tree's hull around them).
    {
        const auto r = readModel(editor + u"item_suit_charger_hl2"_qs);
        QCOMPARE(phyErrors(r), 0);
        const core::CompiledPhysics& p = r.info.physics;
        QCOMPARE(p.solids.size(), std::size_t(1));
        QCOMPARE(p.solids[0].pieces.size(), std::size_t(2));
        QCOMPARE(p.solids[0].hullLedges, 1);
        QCOMPARE(p.solids[0].name, std::string("suit_charger001_physics"));
    }
    // A $concave door: 18 pieces in one solid; its corners inside the model's hull box.
    {
        const auto r = readModel(editor + u"prop_testchamber_door"_qs);
        QCOMPARE(phyErrors(r), 0);
        const core::CompiledPhysics& p = r.info.physics;
        QCOMPARE(p.solids.size(), std::size_t(1));
        QCOMPARE(p.convexPieces(), std::size_t(18));
        QVERIFY(p.concave);
    }
    // The health charger's one box: its corners span the model's hull (x, z exactly).
    {
        const auto r = readModel(editor + u"item_health_charger_mesa"_qs);
        QCOMPARE(phyErrors(r), 0);
        const core::CompiledPhysics& p = r.info.physics;
        QCOMPARE(p.convexPieces(), std::size_t(1));
        Vec3 lo = Vec3::Constant(1e9f), hi = Vec3::Constant(-1e9f);
        for (const Vec3& v : p.solids[0].pieces[0].vertices) {
            lo = lo.cwiseMin(v);
            hi = hi.cwiseMax(v);
        }
        QVERIFY2(near(lo, r.info.hullMin, 0.01f), qPrintable(QString::number(lo.y())));
        QCOMPARE(std::round(hi.x() * 100), std::round(r.info.hullMax.x() * 100));
        QCOMPARE(std::round(hi.z() * 100), std::round(r.info.hullMax.z() * 100));
        QCOMPARE(p.solids[0].surfaceProp, std::string("computer"));
    }
    // A Left 4 Dead survivor's ragdoll: 18 solids on 18 bones, 17 constraints, 27 pairs.
    if (QFileInfo(namvet + u".phy"_qs).isFile()) {
        const auto r = readModel(namvet);
        QCOMPARE(phyErrors(r), 0);
        const core::CompiledPhysics& p = r.info.physics;
        QCOMPARE(p.solids.size(), std::size_t(18));
        QCOMPARE(p.constraints.size(), std::size_t(17));
        QCOMPARE(p.collisionPairs.size(), std::size_t(27));
        QCOMPARE(p.solids[1].name, std::string("ValveBiped.Bip01_Spine1"));
        QCOMPARE(p.solids[1].parent, std::string("ValveBiped.Bip01_Pelvis"));
        for (const core::CompiledPhysicsSolid& s : p.solids) {
            QVERIFY2(s.bone >= 0, s.name.c_str());
            QVERIFY(!s.pieces.empty());
        }
        QCOMPARE(p.rootName, std::string("valvebiped.bip01_pelvis"));
        QCOMPARE(p.totalMass, 100.0f);
    }
}

QTEST_APPLESS_MAIN(TstMdlPhysics)
#include "tst_mdl_physics.moc"
