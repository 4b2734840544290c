// The drop test (issue 31 item 4, core/physics/drop_test.h): generated ragdolls of boxes and a
// prop dropped on the floor in Bullet come to rest with their lowest point on the floor; a
// limit that folds a box into a solid it is not joined to and a 1:1000 mass ratio give
// phys.ragdoll-unstable at the $collisionjoints line; the numbers are the same run to run;
// `physics X.qc --drop --json` prints the `drop` keys; a public ragdoll (RIGSCOPE_TESTDATA,
// default /work/data) comes to rest when present.
#include <cmath>

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/ops/physics_report.h"
#include "core/ops/qc_ops.h"
#include "core/physics/drop_test.h"
#include "tests/support/box_smd.h"
#include "tests/support/public_data.h"

using namespace rigscope;
using core::Vec3;

namespace {

using Smd = test::BoxSmd;

// Three 8 x 4 x 4 boxes in a row along X, joined at x = 10 and x = 20 (1 inch gaps), the
// bottom at z = 0.
Smd chain()
{
    Smd s;
    s.bones = {{"root", -1, Vec3(0, 0, 0)}, {"mid", 0, Vec3(10, 0, 0)}, {"tip", 1, Vec3(10, 0, 0)}};
    for (int i = 0; i < 3; ++i) {
        const float x = 10.0f * static_cast<float>(i);
        s.box(Vec3(x + 1, -2, 0), Vec3(x + 9, 2, 4), i);
    }
    return s;
}

struct Project {
    core::MemoryQcFileSystem fs;
    core::QcReport report;
    core::DropReport drop;
};

std::unique_ptr<Project> project(const std::string& collision, const Smd& phys)
{
    auto p = std::make_unique<Project>();
    p->fs.files["p/body.smd"] = phys.text();
    p->fs.files["p/phys.smd"] = phys.text();
    p->fs.files["p/main.qc"] = "$modelname \"t/m.mdl\"\n$body body \"body.smd\"\n" + collision;
    p->report = core::qcReport("p/main.qc", core::Profile::Source, p->fs);
    p->drop = core::dropReport(p->report);
    return p;
}

QStringList findings(const core::DropReport& d)
{
    QStringList out;
    for (const core::Diagnostic& x : d.diagnostics) {
        out << QString::fromStdString(x.file + ":" + std::to_string(x.where.line) + " " +
                                      std::string(x.id));
    }
    return out;
}

const std::string kSane = "$collisionjoints \"phys.smd\" {\n\t$mass 30\n"
                          "\t$jointconstrain mid x limit -20 20\n"
                          "\t$jointconstrain mid y limit -45 45\n"
                          "\t$jointconstrain mid z limit -45 45\n"
                          "\t$jointconstrain tip x limit -20 20\n"
                          "\t$jointconstrain tip y limit -45 45\n"
                          "\t$jointconstrain tip z limit -45 45\n}\n";

} // namespace

class TstDropTest : public QObject {
    Q_OBJECT
private slots:
    void ragdollRests();
    void propRests();
    void deterministic();
    void foldedLimitIsUnstable();
    void massRatioIsUnstable();
    void bounded();
    void cliDrop();
    void publicRagdoll();
};

void TstDropTest::ragdollRests()
{
    const auto p = project(kSane, chain());
    QCOMPARE(p->report.physics.solids.size(), std::size_t(3));
    const core::DropResult& r = p->drop.result;
    QVERIFY(r.ran);
    QVERIFY2(r.rested, qPrintable(QString::fromStdString(core::dropText(p->drop))));
    QVERIFY(!r.unstable());
    QVERIFY(p->drop.diagnostics.empty());
    // Dropped from 12 inches above the floor: the lowest hull point ends on it (Bullet keeps a
    // 0.08 inch margin around the hulls).
    QCOMPARE(r.floorZ, -12.0);
    QVERIFY2(std::abs(r.lowestZ - r.floorZ) < 0.3, qPrintable(QString::number(r.lowestZ)));
    // Every box lies flat on the floor: its bone is 12 inches lower than in the bind pose.
    QCOMPARE(r.solids.size(), std::size_t(3));
    QCOMPARE(r.solids[0].name, std::string("root"));
    for (const core::DropSolidResult& s : r.solids) {
        QVERIFY2(std::abs(s.boneToModel.translation().z() + 12.0) < 0.3,
                 qPrintable(QString::fromStdString(s.name)));
        QVERIFY(s.linearSpeed < 2.0);
    }
    // The joints hold: each child's origin stays on its pivot.
    QCOMPARE(r.joints.size(), std::size_t(2));
    for (const core::DropJointResult& j : r.joints) {
        QVERIFY(j.separation < 0.1);
        QVERIFY(!j.explodes && !j.jitters && !j.massRatioHigh);
    }
    QVERIFY(r.penetrations.empty());
}

void TstDropTest::propRests()
{
    Smd s;
    s.bones = {{"root", -1, Vec3(0, 0, 0)}};
    s.box(Vec3(-3, -2, 5), Vec3(3, 2, 9), 0);
    const auto p = project("$collisionmodel \"phys.smd\" {\n\t$mass 10\n}\n", s);
    const core::DropResult& r = p->drop.result;
    QVERIFY(r.ran && r.rested);
    QCOMPARE(r.floorZ, 5.0 - 12.0);
    QVERIFY(std::abs(r.lowestZ - r.floorZ) < 0.3);
    // It falls straight: no sideways drift, no turn.
    const Eigen::Affine3d& t = r.solids.at(0).boneToModel;
    QVERIFY(std::abs(t.translation().x()) < 0.05 && std::abs(t.translation().y()) < 0.05);
    QVERIFY(std::abs(t.translation().z() + 12.0) < 0.3);
    QVERIFY(t.linear().isApprox(Eigen::Matrix3d::Identity(), 1e-3));
    QVERIFY(p->drop.diagnostics.empty());
}

void TstDropTest::deterministic()
{
    const auto a = project(kSane, chain());
    const auto b = project(kSane, chain());
    QCOMPARE(a->drop.result.steps, b->drop.result.steps);
    for (std::size_t i = 0; i < a->drop.result.solids.size(); ++i) {
        QVERIFY(a->drop.result.solids[i].boneToModel.matrix() ==
                b->drop.result.solids[i].boneToModel.matrix());
    }
    QCOMPARE(core::dropText(a->drop), core::dropText(b->drop));
}

void TstDropTest::foldedLimitIsUnstable()
{
    // "mid" is 2 inches long; "tip" may only turn 170..180 degrees about Z from its bind pose:
    // the constraint folds it back through "root", a solid it is not joined to.
    Smd s;
    s.bones = {{"root", -1, Vec3(0, 0, 0)}, {"mid", 0, Vec3(10, 0, 0)}, {"tip", 1, Vec3(2, 0, 0)}};
    s.box(Vec3(1, -2, 0), Vec3(9, 2, 4), 0);
    s.box(Vec3(10.5f, -2, 0), Vec3(11.5f, 2, 4), 1);
    s.box(Vec3(12.5f, -2, 0), Vec3(21.5f, 2, 4), 2);
    const auto p = project("$collisionjoints \"phys.smd\" {\n\t$mass 30\n"
                           "\t$jointconstrain mid z limit -10 10\n"
                           "\t$jointconstrain tip z limit 170 180\n}\n",
                           s);
    const core::DropResult& r = p->drop.result;
    QVERIFY(r.ran);
    QVERIFY2(r.unstable(), qPrintable(QString::fromStdString(core::dropText(p->drop))));
    QVERIFY(!p->drop.diagnostics.empty());
    for (const QString& f : findings(p->drop)) {
        QCOMPARE(f, u"p/main.qc:3 phys.ragdoll-unstable"_qs);
    }
}

void TstDropTest::massRatioIsUnstable()
{
    // 300 kg by volume x bias: "tip" gets 299 kg, the others studiomdl's 1 kg minimum.
    const auto p = project("$collisionjoints \"phys.smd\" {\n\t$mass 300\n"
                           "\t$jointmassbias tip 1000\n}\n",
                           chain());
    const core::DropResult& r = p->drop.result;
    QVERIFY(r.ran);
    QCOMPARE(r.joints.size(), std::size_t(2));
    QVERIFY(!r.joints[0].massRatioHigh || !r.joints[1].massRatioHigh);
    const auto heavy = std::find_if(r.joints.begin(), r.joints.end(),
                                    [](const core::DropJointResult& j) { return j.massRatioHigh; });
    QVERIFY(heavy != r.joints.end());
    QVERIFY(heavy->massRatio > 290);
    QVERIFY(r.unstable());
    const QStringList f = findings(p->drop);
    QVERIFY(f.contains(u"p/main.qc:3 phys.ragdoll-unstable"_qs));
    bool named = false;
    for (const core::Diagnostic& d : p->drop.diagnostics) {
        named = named || d.message.find("'tip' (parent 'mid') 1:") != std::string::npos;
    }
    QVERIFY(named);
}

void TstDropTest::bounded()
{
    // No solid, or more than the cap: not simulated, said why.
    core::DropInput none;
    QVERIFY(!core::runDropTest(none).ran);
    core::DropInput many;
    many.bodies.resize(core::kMaxDropSolids + 1);
    const core::DropResult r = core::runDropTest(many);
    QVERIFY(!r.ran);
    QVERIFY(r.skipped.find("65 solids") != std::string::npos);
    // The step cap holds whatever is asked.
    const auto p = project(kSane, chain());
    core::DropOptions o;
    o.maxSteps = 1000000;
    o.restSteps = 1000000;
    const core::DropInput in = core::dropInput(p->report.physics);
    const core::DropResult capped = core::runDropTest(in, o);
    QCOMPARE(capped.steps, core::kMaxDropSteps);
    QVERIFY(!capped.rested);
}

void TstDropTest::cliDrop()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Smd s = chain();
    auto put = [&](const QString& name, const std::string& text) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), static_cast<qint64>(text.size()));
    };
    put(u"body.smd"_qs, s.text());
    put(u"phys.smd"_qs, s.text());
    put(u"m.qc"_qs, "$modelname \"t/m.mdl\"\n$body body \"body.smd\"\n" + kSane);
    QProcess cli;
    cli.start(QStringLiteral(RIGSCOPE_CLI_PATH),
              {u"physics"_qs, dir.filePath(u"m.qc"_qs), u"--json"_qs, u"--drop"_qs});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject o = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const QJsonObject drop = o.value(u"drop"_qs).toObject();
    QVERIFY(drop.value(u"ran"_qs).toBool());
    QVERIFY(drop.value(u"rested"_qs).toBool());
    QVERIFY(!drop.value(u"unstable"_qs).toBool());
    QCOMPARE(drop.value(u"floorZ"_qs).toDouble(), -12.0);
    QVERIFY(drop.value(u"steps"_qs).toInt() > 0);
    const QJsonArray solids = drop.value(u"solids"_qs).toArray();
    QCOMPARE(solids.size(), 3);
    QCOMPARE(solids[2].toObject().value(u"name"_qs).toString(), u"tip"_qs);
    QCOMPARE(solids[2].toObject().value(u"origin"_qs).toArray().size(), 3);
    QCOMPARE(solids[2].toObject().value(u"rotation"_qs).toArray().size(), 4);
    QCOMPARE(drop.value(u"joints"_qs).toArray().size(), 2);
    QVERIFY(drop.value(u"penetrations"_qs).toArray().isEmpty());
    // Without --drop there is no drop key.
    QProcess plain;
    plain.start(QStringLiteral(RIGSCOPE_CLI_PATH),
                {u"physics"_qs, dir.filePath(u"m.qc"_qs), u"--json"_qs});
    QVERIFY(plain.waitForFinished(60000));
    QVERIFY(!QJsonDocument::fromJson(plain.readAllStandardOutput()).object().contains(u"drop"_qs));
}

void TstDropTest::publicRagdoll()
{
    const QString root = test::publicDataDir();
    const QString qc = root + u"/hedyl2+qctemplate-l4d2/special_witch/witch.qc"_qs;
    if (!QFileInfo(qc).isFile()) {
        QSKIP("the public projects (RIGSCOPE_TESTDATA) are not here");
    }
    const core::QcReport r = core::qcReportFromFile(qc.toStdString(), core::Profile::Source);
    QVERIFY(r.physics.built);
    QCOMPARE(r.physics.solids.size(), std::size_t(18));
    const core::DropReport d = core::dropReport(r);
    QVERIFY(d.result.ran);
    QVERIFY2(d.result.rested, qPrintable(QString::fromStdString(core::dropText(d))));
    QVERIFY(std::abs(d.result.lowestZ - d.result.floorZ) < 0.3);
    for (const core::DropJointResult& j : d.result.joints) {
        QVERIFY(!j.explodes);
    }
}

QTEST_GUILESS_MAIN(TstDropTest)
#include "tst_drop_test.moc"
