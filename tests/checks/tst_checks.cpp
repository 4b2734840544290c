// Checks engine: one fixture per check (tests/fixtures/checks), models built in code for the
// limits, profile differences, compiled weights (CHECKS.md §5), grading and budget meters.
#include <array>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include "core/build/model_builder.h"
#include "core/build/scratch_slots.h"
#include "core/checks/check_util.h"
#include "core/checks/registry.h"
#include "core/diag/diagnostic_ids.h"
#include "core/ops/check.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString checksDir()
{
    return test::fixturesDir() + QStringLiteral("/checks");
}

// "weights.parent-mismatch.goldsrc.smd" -> profile goldsrc; default auto.
Profile profileOf(const QString& name)
{
    for (Profile p : {Profile::GoldSrc, Profile::Source, Profile::Source256, Profile::Cod}) {
        if (name.contains(QLatin1Char('.') + QString::fromUtf8(profileName(p).data()) +
                          QLatin1Char('.'))) {
            return p;
        }
    }
    return Profile::Auto;
}

// The id a case is named after: "family.kebab-name" up to the next '.', minus "-partial".
QString idOf(const QString& name)
{
    const int dot = name.indexOf(QLatin1Char('.'));
    if (dot < 0) {
        return name;
    }
    const int end = name.indexOf(QLatin1Char('.'), dot + 1);
    QString id = end < 0 ? name : name.left(end);
    id.remove(QStringLiteral("-partial"));
    return id;
}

CheckRun runIn(const QString& dir, const std::vector<std::string>& paths, CheckOptions opt)
{
    const QString old = QDir::currentPath();
    QDir::setCurrent(dir);
    CheckRun run = runCheck(paths, opt);
    QDir::setCurrent(old);
    return run;
}

QStringList lines(const std::string& text)
{
    QStringList out = QString::fromStdString(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return out;
}

std::vector<std::string> idsOf(const CheckRun& run)
{
    std::vector<std::string> out;
    for (const CheckedFile& f : run.files) {
        for (const Diagnostic& d : f.diagnostics) {
            out.emplace_back(d.id);
        }
    }
    return out;
}

bool hasId(const std::vector<Diagnostic>& diags, std::string_view id)
{
    return std::any_of(diags.begin(), diags.end(),
                       [id](const Diagnostic& d) { return d.id == id; });
}

// A model built in code: `bones` bones in a chain under a root, triangles with distinct
// corners (each corner its own position), rigid on bone 0 with one link.
Model makeModel(std::size_t bones, std::size_t triangles, std::size_t materials = 1)
{
    Model m;
    m.format = "smd";
    m.kind = triangles > 0 ? ModelKind::Reference : ModelKind::Animation;
    for (std::size_t b = 0; b < bones; ++b) {
        m.skeleton.addJoint("bone" + std::to_string(b), b == 0 ? kNoJoint : 0,
                            static_cast<std::int32_t>(b),
                            {static_cast<std::uint32_t>(3 + b), 1, 0});
    }
    MaterialInterner mats;
    const JointIndex j = 0;
    const float w = 1.0f;
    for (std::size_t t = 0; t < triangles; ++t) {
        const std::uint32_t mat = mats.intern(m.mesh, "m" + std::to_string(t % materials) + ".bmp",
                                              {static_cast<std::uint32_t>(100 + 4 * t), 1, 0});
        m.mesh.triangleMaterials.push_back(mat);
        m.mesh.triangleWhere.push_back({static_cast<std::uint32_t>(100 + 4 * t), 1, 0});
        for (std::size_t c = 0; c < 3; ++c) {
            const float x = static_cast<float>(t) * 0.1f;
            const Vec3 pos =
                c == 0 ? Vec3(x, 0, 0) : (c == 1 ? Vec3(x + 0.05f, 0, 0) : Vec3(x, 0.05f, 0));
            const SourceLoc loc{static_cast<std::uint32_t>(101 + 4 * t + c), 1, 0};
            appendPoint(m.mesh, pos, 0, LinkState::List, &j, &w, 1, loc);
            m.mesh.cornerPoints.push_back(static_cast<std::uint32_t>(m.mesh.pointCount() - 1));
            m.mesh.cornerNormals.push_back(Vec3(0, 0, 1));
            m.mesh.cornerUvs.push_back(Vec2(pos.x(), pos.y()));
            m.mesh.cornerWhere.push_back(loc);
        }
    }
    return m;
}

std::vector<Diagnostic> check(const Model& m, Profile p)
{
    DiagnosticSink sink("m.smd");
    runModelChecks(m, p, sink);
    std::vector<Diagnostic> d = sink.take();
    gradeDiagnostics(d, p, false, {});
    return d;
}

} // namespace

class TstChecks : public QObject {
    Q_OBJECT

private slots:
    void fixtures_data();
    void fixtures();
    void cleanUnderEveryProfile();
    void catalogHasEveryCheckedId();
    void profileDifferences();
    void boneLimit();
    void vertexAndNormalLimits();
    void triangleAndFrameLimits();
    void compiledWeights_data();
    void compiledWeights();
    void codChecks();
    void partNotInModel();
    void readerIdsAreNotRepeated();
    void enableDisableAndGuess();
    void budgetMeters();
    void flexVertexLimit();
    void readerFixturesDoNotCrash();
    void perVertexChecksReportOncePerVertex();
    void manyFindingsAreCappedPerIdAndCounted();
    void vertexOnceIsExact();
    void vertexOnceReusesItsScratchCleanly();
    void vertexOnceSweepAnswersAsFirst();
    void parallelWeldBlockReportsAsSerial();
    void duplicateTrianglesNameTheFirst();
};

void TstChecks::fixtures_data()
{
    QTest::addColumn<QString>("name");
    const QDir dir(checksDir());
    for (const QFileInfo& fi :
         dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (fi.suffix() == QLatin1String("expected")) {
            continue;
        }
        QTest::newRow(qPrintable(fi.fileName())) << fi.fileName();
    }
}

void TstChecks::fixtures()
{
    QFETCH(QString, name);
    CheckOptions opt;
    opt.profile = profileOf(name);
    opt.maxPerCheck = 0;
    const QFileInfo fi(checksDir() + QLatin1Char('/') + name);
    if (fi.isDir() && QFileInfo::exists(fi.filePath() + QStringLiteral("/ref.smd"))) {
        opt.reference = (name + QStringLiteral("/ref.smd")).toStdString();
    }
    const CheckRun run = runIn(checksDir(), {name.toStdString()}, opt);
    QVERIFY(!run.ioFailure);
    const QStringList actual = lines(checkText(run, opt));
    QCOMPARE(actual, test::expectedFor(checksDir() + QLatin1Char('/') + name, actual));
    const std::vector<std::string> ids = idsOf(run);
    if (name.startsWith(QLatin1String("clean"))) {
        QVERIFY2(ids.empty(), qPrintable(actual.join(QLatin1Char('\n'))));
    } else {
        const std::string id = idOf(name).toStdString();
        QVERIFY2(std::find(ids.begin(), ids.end(), id) != ids.end(), id.c_str());
    }
}

void TstChecks::cleanUnderEveryProfile()
{
    for (Profile p :
         {Profile::Auto, Profile::GoldSrc, Profile::Source, Profile::Source256, Profile::Cod}) {
        CheckOptions opt;
        opt.profile = p;
        const CheckRun run = runIn(checksDir(), {"clean.smd"}, opt);
        QVERIFY2(idsOf(run).empty(), profileName(p).data());
        QCOMPARE(checkExitCode(run), 0);
    }
}

void TstChecks::catalogHasEveryCheckedId()
{
    // Every id a fixture is named after exists in the catalog.
    const QDir dir(checksDir());
    for (const QString& n : dir.entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (n.endsWith(QLatin1String(".expected")) || n.startsWith(QLatin1String("clean"))) {
            continue;
        }
        QVERIFY2(findCatalogEntry(idOf(n).toStdString()) != nullptr, qPrintable(n));
    }
}

void TstChecks::profileDifferences()
{
    // The same file, different verdicts per profile.
    auto idsFor = [](const char* file, Profile p) {
        CheckOptions opt;
        opt.profile = p;
        return idsOf(runIn(checksDir(), {file}, opt));
    };
    auto has = [](const std::vector<std::string>& v, std::string_view id) {
        return std::find(v.begin(), v.end(), std::string(id)) != v.end();
    };
    QVERIFY(has(idsFor("skeleton.name-length.goldsrc.smd", Profile::GoldSrc),
                ids::kSkeletonNameLength));
    QVERIFY(!has(idsFor("skeleton.name-length.goldsrc.smd", Profile::Source),
                 ids::kSkeletonNameLength));
    QVERIFY(has(idsFor("mesh.material-not-bmp.goldsrc.smd", Profile::GoldSrc),
                ids::kMeshMaterialNotBmp));
    QVERIFY(!has(idsFor("mesh.material-not-bmp.goldsrc.smd", Profile::Source),
                 ids::kMeshMaterialNotBmp));
    QVERIFY(has(idsFor("weights.sum-not-one.smd", Profile::Source), ids::kWeightsSumNotOne));
    QVERIFY(!has(idsFor("weights.sum-not-one.smd", Profile::GoldSrc), ids::kWeightsSumNotOne));
    QVERIFY(has(idsFor("mesh.material-name-length.smd", Profile::Source),
                ids::kMeshMaterialNameLength));
    QVERIFY(!has(idsFor("mesh.material-name-length.smd", Profile::Source256),
                 ids::kMeshMaterialNameLength));
    // 74 characters: the 2006 studiomdl cut it at 63, SDK 2013's keeps up to 259 (L4D's
    // common_test.mdl holds a 65-character one): a warning for source, not an error.
    CheckOptions src;
    src.profile = Profile::Source;
    QCOMPARE(checkExitCode(runIn(checksDir(), {"mesh.material-name-length.smd"}, src)), 0);
    // missing frames: goldsrc warns, source refuses
    CheckOptions g;
    g.profile = Profile::GoldSrc;
    QCOMPARE(checkExitCode(runIn(checksDir(), {"skeleton.missing-frames.smd"}, g)), 0);
    g.profile = Profile::Source;
    QCOMPARE(checkExitCode(runIn(checksDir(), {"skeleton.missing-frames.smd"}, g)), 1);
    // under auto a limit check is capped at warning and says so
    CheckOptions a;
    const CheckRun run = runIn(checksDir(), {"mesh.material-limit.smd"}, a);
    QCOMPARE(checkExitCode(run), 0);
    QVERIFY(QString::fromStdString(checkText(run, a))
                .contains(QLatin1String("profile guessed: source")));
    a.profile = Profile::Source;
    QCOMPARE(checkExitCode(runIn(checksDir(), {"mesh.material-limit.smd"}, a)), 1);
}

void TstChecks::boneLimit()
{
    const Model m = makeModel(128, 1);
    std::vector<Diagnostic> d = check(m, Profile::Source);
    QVERIFY(hasId(d, ids::kSkeletonBoneLimit));
    const auto it = std::find_if(
        d.begin(), d.end(), [](const Diagnostic& x) { return x.id == ids::kSkeletonBoneLimit; });
    QCOMPARE(it->message,
             std::string("model uses 128 bones; source allows at most 127; 127 carry no vertices; "
                         "source256 allows 255"));
    QCOMPARE(it->where.line, 3u + 127u); // node line of bone 128
    QCOMPARE(it->severity, Severity::Error);
    QVERIFY(!hasId(check(m, Profile::Source256), ids::kSkeletonBoneLimit));
    // goldsrc counts only bones under vertices and their ancestors
    QVERIFY(!hasId(check(m, Profile::GoldSrc), ids::kSkeletonBoneLimit));
    QVERIFY(!hasId(check(m, Profile::Cod), ids::kSkeletonBoneLimit));
    // An animation's extra bones do not count: studiomdl's bone table holds only what the
    // bodies' vertices (and the QC) use (Source SDK 2013 simplify.cpp BuildGlobalBonetable).
    const Model ref = makeModel(100, 1);
    Model anim = makeModel(100, 0);
    for (std::size_t j = 50; j < 100; ++j) {
        anim.skeleton.names[j] = "extra" + std::to_string(j);
    }
    DiagnosticSink sink("anim.smd");
    runSceneChecks({&anim, "anim.smd"}, {&ref, "ref.smd"}, Profile::Source, sink);
    QVERIFY(!hasId(sink.diagnostics(), ids::kSkeletonBoneLimit));
    QVERIFY(hasId(sink.diagnostics(), ids::kXrefAnimBoneMissing));
    // An animation source of 130 (or 512) bones compiles in both engines (MAXSTUDIOSRCBONES);
    // 513 does not.
    for (const Profile p : {Profile::Source, Profile::GoldSrc}) {
        QVERIFY(!hasId(check(makeModel(130, 0), p), ids::kSkeletonBoneLimit));
        QVERIFY(!hasId(check(makeModel(512, 0), p), ids::kSkeletonBoneLimit));
        const std::vector<Diagnostic> big = check(makeModel(513, 0), p);
        const auto b = std::find_if(big.begin(), big.end(), [](const Diagnostic& x) {
            return x.id == ids::kSkeletonBoneLimit;
        });
        QVERIFY(b != big.end());
        QCOMPARE(b->severity, Severity::Error);
        QCOMPARE(b->where.line, 3u + 512u); // node line of bone 513
        QVERIFY2(b->message.find("source file holds 513 bones") != std::string::npos,
                 b->message.c_str());
    }
}

void TstChecks::vertexAndNormalLimits()
{
    // 683 triangles = 2049 distinct corners: over goldsrc's 2048 (positions 2 dp + bone).
    const Model big = makeModel(1, 683);
    std::vector<Diagnostic> g = check(big, Profile::GoldSrc);
    QVERIFY(hasId(g, ids::kMeshVertexLimit));
    const auto it = std::find_if(g.begin(), g.end(),
                                 [](const Diagnostic& x) { return x.id == ids::kMeshVertexLimit; });
    QCOMPARE(it->message,
             std::string("2,049 unique vertices after goldsrc welding; at most 2,048"));
    QCOMPARE(it->element.index, 2048);         // the corner that makes the count 2049
    QVERIFY(!hasId(g, ids::kMeshNormalLimit)); // all normals equal
    QVERIFY(!hasId(check(big, Profile::Source), ids::kMeshVertexLimit));
    // Budget note above 75 %: 513 triangles = 1539 vertices of 2048
    QVERIFY(hasId(check(makeModel(1, 513), Profile::GoldSrc), ids::kMeshUniqueVertices));
    QVERIFY(!hasId(check(makeModel(1, 500), Profile::GoldSrc), ids::kMeshUniqueVertices));
    // Normals: 2049 directions far apart on one bone → goldsrc normal-limit
    Model n = makeModel(1, 683);
    for (std::size_t c = 0; c < n.mesh.cornerCount(); ++c) {
        const float a = static_cast<float>(c) * 0.05f; // 2.9° steps on a spiral
        n.mesh.cornerNormals[c] = Vec3(std::cos(a) * std::sin(a / 40.0f),
                                       std::sin(a) * std::sin(a / 40.0f), std::cos(a / 40.0f))
                                      .normalized();
    }
    const checks::WeldStats w = checks::weldStats(n, Profile::GoldSrc, 2048, 2048);
    QVERIFY(w.normals > 1000);
    // Source welds exact positions + normals within 2°: shared corners weld
    Model s = makeModel(1, 2);
    s.mesh.pointPositions[3] = s.mesh.pointPositions[0];
    s.mesh.cornerUvs[3] = s.mesh.cornerUvs[0];
    QCOMPARE(checks::weldStats(s, Profile::Source, 0, 0).vertices, std::size_t(5));
    s.mesh.cornerNormals[3] = Vec3(0, std::sin(0.1f), std::cos(0.1f)); // 5.7°: no weld
    QCOMPARE(checks::weldStats(s, Profile::Source, 0, 0).vertices, std::size_t(6));
    s.mesh.cornerNormals[3] = Vec3(0, std::sin(0.01f), std::cos(0.01f)); // 0.6°: weld
    QCOMPARE(checks::weldStats(s, Profile::Source, 0, 0).vertices, std::size_t(5));
    // source256 warns about the $maxverts split
    const Model split = makeModel(1, 7282); // 21846 vertices
    QVERIFY(hasId(check(split, Profile::Source256), ids::kMeshVertexSplit));
    QVERIFY(!hasId(check(split, Profile::Source), ids::kMeshVertexSplit));
}

void TstChecks::triangleAndFrameLimits()
{
    const Model m = makeModel(1, 20001);
    QVERIFY(hasId(check(m, Profile::GoldSrc), ids::kMeshTriangleLimit));
    QVERIFY(!hasId(check(m, Profile::Source), ids::kMeshTriangleLimit));
    Model a = makeModel(2, 0);
    Animation an;
    an.jointCount = 2;
    for (int f = 0; f < 2001; ++f) {
        an.appendFrame(f, {static_cast<std::uint32_t>(10 + f), 1, 0});
    }
    a.animations.push_back(std::move(an));
    QVERIFY(verifyInvariants(a).empty());
    std::vector<Diagnostic> d = check(a, Profile::Source);
    QVERIFY(hasId(d, ids::kSkeletonFrameLimit));
    const auto it = std::find_if(
        d.begin(), d.end(), [](const Diagnostic& x) { return x.id == ids::kSkeletonFrameLimit; });
    QCOMPARE(it->where.line, 10u + 2000u);
    QVERIFY(!hasId(check(a, Profile::GoldSrc), ids::kSkeletonFrameLimit)); // 2048 there
}

void TstChecks::compiledWeights_data()
{
    // CHECKS.md §5 table: links as written -> compiled (bone:weight ...)
    QTest::addColumn<QVector<float>>("links"); // bone, weight pairs
    QTest::addColumn<QString>("compiled");
    QTest::newRow("zero links") << QVector<float>{} << QStringLiteral("4:1");
    QTest::newRow("duplicates merge") << QVector<float>{7, 0.6f, 7, 0.3f} << QStringLiteral("7:1");
    QTest::newRow("cull") << QVector<float>{1, 0.5f, 2, 0.46f, 3, 0.04f}
                          << QStringLiteral("1:0.521 2:0.479");
    QTest::newRow("clip") << QVector<float>{1, 0.4f, 2, 0.3f, 3, 0.2f, 4, 0.1f}
                          << QStringLiteral("1:0.444 2:0.333 3:0.222");
    QTest::newRow("sole survivor") << QVector<float>{1, 0.03f, 2, 0.02f} << QStringLiteral("1:1");
    QTest::newRow("zero sum") << QVector<float>{1, 0, 2, 0} << QStringLiteral("1:1");
    QTest::newRow("negative") << QVector<float>{1, -0.5f, 2, 1.5f} << QStringLiteral("2:1");
}

void TstChecks::compiledWeights()
{
    QFETCH(QVector<float>, links);
    QFETCH(QString, compiled);
    Mesh me;
    std::vector<JointIndex> j;
    std::vector<float> w;
    for (int i = 0; i + 1 < links.size(); i += 2) {
        j.push_back(static_cast<JointIndex>(links[i]));
        w.push_back(links[i + 1]);
    }
    appendPoint(me, Vec3::Zero(), 4, links.isEmpty() ? LinkState::Zero : LinkState::List, j.data(),
                w.data(), j.size(), {});
    std::vector<Link> out;
    checks::compiledLinks(me, 0, Profile::Source, out);
    QStringList parts;
    for (const Link& l : out) {
        parts << QString::number(l.joint) + QLatin1Char(':') +
                     QString::number(static_cast<double>(l.weight), 'g', 3);
    }
    QCOMPARE(parts.join(QLatin1Char(' ')), compiled);
    checks::compiledLinks(me, 0, Profile::GoldSrc, out);
    QCOMPARE(out.size(), std::size_t(1));
    QCOMPARE(out[0].joint, 4);
}

void TstChecks::codChecks()
{
    Model m;
    m.format = "xmodel";
    m.version = 6;
    m.kind = ModelKind::Reference;
    m.skeleton.bindKind = PoseKind::ModelMatrix;
    m.skeleton.addJoint("tag_origin", kNoJoint, 0, {5, 1, 0});
    m.skeleton.addJoint("j_spine", 0, 1, {6, 1, 0});
    m.skeleton.addJoint("j_other_root", kNoJoint, 2, {7, 1, 0});
    m.skeleton.bindWhere = {{10, 1, 0}, {15, 1, 0}, {20, 1, 0}};
    m.skeleton.bindAxes[1] = Mat3::Identity() * 1.1f;
    m.skeleton.bindHasScale[2] = 1;
    m.skeleton.bindScales[2] = Vec3(2, 2, 2);
    std::vector<Diagnostic> d = check(m, Profile::Cod);
    QVERIFY(hasId(d, ids::kCodRootCount));
    QVERIFY(hasId(d, ids::kCodBoneMatrix));
    QVERIFY(hasId(d, ids::kCodNonUnitScale));
    const auto it = std::find_if(d.begin(), d.end(),
                                 [](const Diagnostic& x) { return x.id == ids::kCodRootCount; });
    QCOMPARE(it->message, std::string("2 root bones; CoD requires exactly 1"));
    QCOMPARE(it->where.line, 7u);
    // colours outside 0..1 are a note
    Model c = makeModel(1, 1);
    c.format = "xmodel";
    c.mesh.cornerColors = {Vec4(1, 1, 1, 1), Vec4(-1, 0.5f, 1.66f, 1), Vec4(1, 1, 1, 1)};
    d = check(c, Profile::Cod);
    QVERIFY(hasId(d, ids::kCodColorRange));
    // cod checks are off for the Valve profiles
    QVERIFY(!hasId(check(m, Profile::Source), ids::kCodRootCount));
}

void TstChecks::partNotInModel()
{
    Model model;
    model.format = "xmodel";
    model.kind = ModelKind::Reference;
    model.skeleton.bindKind = PoseKind::ModelMatrix;
    model.skeleton.addJoint("tag_origin", kNoJoint, 0, {5, 1, 0});
    Model anim;
    anim.format = "xanim";
    anim.kind = ModelKind::Animation;
    anim.skeleton.bindKind = PoseKind::ModelMatrix;
    anim.skeleton.addJoint("tag_origin", kNoJoint, 0, {4, 1, 0});
    anim.skeleton.addJoint("j_gun", kNoJoint, 1, {5, 1, 0});
    DiagnosticSink sink("a.xanim_export");
    runSceneChecks({&anim, "a.xanim_export"}, {&model, "m.xmodel_export"}, Profile::Cod, sink);
    std::vector<Diagnostic> d = sink.take();
    gradeDiagnostics(d, Profile::Cod, false, {});
    QVERIFY(hasId(d, ids::kCodPartNotInModel));
    QVERIFY(!hasId(d, ids::kXrefAnimBoneMissing)); // off under cod
    QCOMPARE(d.front().message, std::string("part 'j_gun' animates no bone of 'm.xmodel_export'"));
}

void TstChecks::readerIdsAreNotRepeated()
{
    const Model m = makeModel(2, 1);
    Diagnostic reader;
    reader.id = ids::kSkeletonUnreferencedBone;
    DiagnosticSink sink("m.smd");
    runModelChecks(m, Profile::Source, sink, {reader});
    QVERIFY(!hasId(sink.diagnostics(), ids::kSkeletonUnreferencedBone));
    DiagnosticSink sink2("m.smd");
    runModelChecks(m, Profile::Source, sink2);
    QVERIFY(hasId(sink2.diagnostics(), ids::kSkeletonUnreferencedBone));
}

void TstChecks::enableDisableAndGuess()
{
    QVERIFY(matchesIdPattern("weights.zero-link", "weights.*"));
    QVERIFY(!matchesIdPattern("mesh.nan", "weights.*"));
    CheckOptions opt;
    opt.profile = Profile::GoldSrc;
    QVERIFY(idsOf(runIn(checksDir(), {"weights.sum-not-one.smd"}, opt)).size() >
            0); // unreferenced etc.
    std::vector<std::string> ids0 = idsOf(runIn(checksDir(), {"weights.sum-not-one.smd"}, opt));
    QVERIFY(std::find(ids0.begin(), ids0.end(), "weights.sum-not-one") == ids0.end());
    opt.filter.enable = {"weights.*"};
    std::vector<std::string> ids1 = idsOf(runIn(checksDir(), {"weights.sum-not-one.smd"}, opt));
    QVERIFY(std::find(ids1.begin(), ids1.end(), "weights.sum-not-one") != ids1.end());
    opt.filter.disable = {"weights.sum-not-one"};
    std::vector<std::string> ids2 = idsOf(runIn(checksDir(), {"weights.sum-not-one.smd"}, opt));
    QVERIFY(std::find(ids2.begin(), ids2.end(), "weights.sum-not-one") == ids2.end());
}

void TstChecks::budgetMeters()
{
    const Model m = makeModel(3, 10, 2);
    const std::vector<BudgetMeter> b = core::budgetMeters(m, Profile::Source);
    QCOMPARE(b.size(), std::size_t(4));
    QCOMPARE(b[0].name, std::string_view("bones"));
    QCOMPARE(b[0].used, std::size_t(3));
    QCOMPARE(b[0].limit, std::size_t(127));
    QCOMPARE(b[1].used, std::size_t(2));
    QCOMPARE(b[1].limit, std::size_t(32));
    QCOMPARE(b[2].used, std::size_t(30));
    QCOMPARE(b[2].limit, std::size_t(65536));
    QCOMPARE(b[3].limit, std::size_t(10000));
    const std::vector<BudgetMeter> g = core::budgetMeters(m, Profile::GoldSrc);
    QCOMPARE(g[0].used, std::size_t(1)); // only bone 0 carries vertices
    QCOMPARE(g[2].limit, std::size_t(2048));
}

void TstChecks::flexVertexLimit()
{
    // 10,002 corners, all moved by one shape: over source's 10,000 flexed vertices per mesh.
    const Model ref = makeModel(1, 3334);
    Model vta;
    vta.format = "vta";
    vta.kind = ModelKind::Flex;
    vta.skeleton.addJoint("bone0", kNoJoint, 0, {3, 1, 0});
    VertexFrame base, shape;
    base.where = {10, 1, 0};
    shape.time = 1;
    shape.name = "smile";
    shape.where = {20000, 1, 0};
    for (std::size_t c = 0; c < ref.mesh.cornerCount(); ++c) {
        const Vec3 p = ref.mesh.pointPositions[ref.mesh.cornerPoints[c]];
        base.ids.push_back(static_cast<std::int32_t>(c));
        base.positions.push_back(p);
        base.normals.push_back(Vec3(0, 0, 1));
        base.lineWhere.push_back({static_cast<std::uint32_t>(11 + c), 1, 0});
        shape.ids.push_back(static_cast<std::int32_t>(c));
        shape.positions.push_back(p + Vec3(0, 0, 1));
        shape.normals.push_back(Vec3(0, 0, 1));
        shape.lineWhere.push_back({});
    }
    vta.vertexFrames = {base, shape};
    deriveFlexShapes(vta);
    DiagnosticSink sink("face.vta");
    runSceneChecks({&vta, "face.vta"}, {&ref, "ref.smd"}, Profile::Source, sink);
    std::vector<Diagnostic> d = sink.take();
    gradeDiagnostics(d, Profile::Source, false, {});
    QVERIFY(hasId(d, ids::kFlexVertexLimit));
    QVERIFY(!hasId(d, ids::kFlexUnmatchedVertices));
    QVERIFY(!hasId(d, ids::kXrefVtaVertexCount)); // base count = corner count
    const std::vector<BudgetMeter> b = core::budgetMeters(ref, Profile::Source, &vta);
    QCOMPARE(b[3].used, std::size_t(10002));
}

void TstChecks::readerFixturesDoNotCrash()
{
    // Partial models from broken files go through every check under every profile, checked
    // per folder so the xref checks pair whatever they find.
    const QDir root(test::fixturesDir());
    for (const QString& sub : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (sub == QLatin1String("checks")) {
            continue;
        }
        for (Profile p :
             {Profile::Auto, Profile::GoldSrc, Profile::Source, Profile::Source256, Profile::Cod}) {
            CheckOptions opt;
            opt.profile = p;
            opt.jobs = 2;
            const CheckRun run = runCheck({root.filePath(sub).toStdString()}, opt);
            for (const CheckedFile& f : run.files) {
                QCOMPARE(f.objectNames.size(), f.diagnostics.size());
            }
            QVERIFY(!checkSummary(run).empty());
            QVERIFY(!checkSarif(run).empty());
        }
    }
}

// Issue 27 item 4: a vertex is what studiomdl welds (the same position and links), not a
// triangle corner: an SMD writes a shared vertex once per triangle using it, and each per-vertex
// check reports it once, at its first corner.
void TstChecks::perVertexChecksReportOncePerVertex()
{
    const std::string smd = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\n"
                            "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 1 0 0 0 0 0\nend\n"
                            "triangles\nm\n"
                            // line 13: (0,0,0) sums to 0.8 and has a zero normal
                            "0 0 0 0 0 0 0 0 0 2 0 0.5 1 0.3\n"
                            "0 1 0 0 0 0 1 1 0 1 0 1\n"
                            "0 5 5 5 0 0 1 0 1 2 0 1.25 1 -0.25\n"
                            "m\n"
                            // line 17: the same three vertices again
                            "0 0 0 0 0 0 0 0 0 2 0 0.5 1 0.3\n"
                            "0 5 5 5 0 0 1 0 1 2 0 1.25 1 -0.25\n"
                            "0 1 1 0 0 0 1 1 1 1 0 1\n"
                            "m\n"
                            // line 21: (0,0,0) with other weights is another vertex
                            "0 0 0 0 0 0 0 0 0 2 0 0.4 1 0.3\n"
                            "0 2 0 0 0 0 1 1 0 1 0 1\n"
                            "0 2 2 0 0 0 1 1 1 1 0 1\n"
                            "end\n";
    ReadContext ctx;
    ctx.fileName = "v.smd";
    const ReadResult r = readAny(smd, ctx);
    QVERIFY(r.hasModel);
    CheckOptions opt;
    opt.profile = Profile::Source;
    const CheckedFile f = checkReadResult("v.smd", r, nullptr, {}, opt);
    auto linesOf = [&](std::string_view id) {
        std::vector<std::uint32_t> out;
        for (const Diagnostic& d : f.diagnostics) {
            if (d.id == id) {
                out.push_back(d.where.line);
            }
        }
        return out;
    };
    QCOMPARE(linesOf(ids::kWeightsSumNotOne), (std::vector<std::uint32_t>{13, 21}));
    QCOMPARE(linesOf(ids::kWeightsNegative), (std::vector<std::uint32_t>{15}));
    QCOMPARE(linesOf(ids::kMeshZeroNormal), (std::vector<std::uint32_t>{13, 21}));
}

void TstChecks::manyFindingsAreCappedPerIdAndCounted()
{
    // 400 triangles of distinct corners, every normal of length 2: 1,200 vertices, 1,200
    // mesh.unnormalised-normal notes. The checks keep kCheckMaxPerId (1,000) and count the rest.
    Model m = makeModel(1, 400);
    for (Vec3& n : m.mesh.cornerNormals) {
        n = Vec3(0, 0, 2);
    }
    CheckOptions opt;
    opt.profile = Profile::Source;
    CheckRun run;
    run.files.push_back(checkModel("m.smd", &m, {}, nullptr, {}, opt));
    const CheckedFile& f = run.files.front();
    std::size_t kept = 0, notes = 0;
    const Diagnostic* summary = nullptr;
    for (const Diagnostic& d : f.diagnostics) {
        if (d.id != ids::kMeshUnnormalisedNormal) {
            continue;
        }
        notes += d.count();
        if (d.omitted > 0) {
            QVERIFY(summary == nullptr);
            summary = &d;
        } else {
            ++kept;
        }
    }
    QCOMPARE(kept, kCheckMaxPerId);
    QCOMPARE(notes, std::size_t(1200));
    QCOMPARE(countSeverity(f.diagnostics, Severity::Note), std::size_t(1200));
    QVERIFY(summary);
    QCOMPARE(summary->omitted, std::uint32_t(200));
    QCOMPARE(summary->severity, Severity::Note);
    // The first left out: triangle 333's corner 1 (corners 0..999 kept), line 101 + 4*333 + 1.
    QCOMPARE(summary->where.line, std::uint32_t(101 + 4 * 333 + 1));
    // Text: 20 lines, then the rest counted together from the 21st (triangle 6, corner 2), the
    // summary row included.
    const QStringList text = lines(checkText(run, opt));
    QCOMPARE(text.filter(QStringLiteral("[mesh.unnormalised-normal]")).size(), 21);
    QVERIFY(text.contains(
        QStringLiteral("m.smd:127:1: note: … and 1,180 more [mesh.unnormalised-normal]")));
    // JSON: the kept ones listed, the rest under "omitted".
    const QJsonObject json =
        QJsonDocument::fromJson(QByteArray::fromStdString(checkJson(run))).object();
    const QJsonObject file = json.value(QLatin1String("files")).toArray().at(0).toObject();
    std::size_t listed = 0;
    for (const QJsonValue v : file.value(QLatin1String("diagnostics")).toArray()) {
        listed += v.toObject().value(QLatin1String("id")).toString() ==
                          QLatin1String("mesh.unnormalised-normal")
                      ? 1
                      : 0;
    }
    QCOMPARE(listed, std::size_t(1000));
    const QJsonArray omitted = file.value(QLatin1String("omitted")).toArray();
    QCOMPARE(omitted.size(), 1);
    QCOMPARE(omitted.at(0).toObject().value(QLatin1String("id")).toString(),
             QStringLiteral("mesh.unnormalised-normal"));
    QCOMPARE(omitted.at(0).toObject().value(QLatin1String("severity")).toString(),
             QStringLiteral("note"));
    QCOMPARE(omitted.at(0).toObject().value(QLatin1String("count")).toInt(), 200);
}

void TstChecks::vertexOnceIsExact()
{
    // 3,000 points: 1,500 distinct vertices written twice each (the table grows past 1,024),
    // plus pairs that differ only in one link's weight bits, the link count or -0 vs 0.
    Model m;
    m.format = "smd";
    const JointIndex j2[2] = {0, 1};
    for (int i = 0; i < 3000; ++i) {
        const float w2[2] = {0.5f, 0.5f};
        appendPoint(m.mesh, Vec3(float(i % 1500), 1, 2), 0, LinkState::List, j2, w2, 2, {});
    }
    const float a[2] = {0.5f, 0.5f};
    const float b[2] = {0.5f, std::nextafter(0.5f, 1.0f)};
    appendPoint(m.mesh, Vec3(9000, 0, 0), 0, LinkState::List, j2, a, 2, {});  // 3000
    appendPoint(m.mesh, Vec3(9000, 0, 0), 0, LinkState::List, j2, b, 2, {});  // 3001
    appendPoint(m.mesh, Vec3(9000, 0, 0), 0, LinkState::List, j2, a, 1, {});  // 3002
    appendPoint(m.mesh, Vec3(-0.0f, 0, 0), 0, LinkState::List, j2, a, 2, {}); // 3003
    appendPoint(m.mesh, Vec3(0.0f, 0, 0), 0, LinkState::List, j2, a, 2, {});  // 3004
    checks::VertexOnce once(m);
    std::size_t firsts = 0;
    for (std::size_t p = 0; p < 3000; ++p) {
        const bool f = once.first(p);
        QCOMPARE(f, p < 1500);
        firsts += f ? 1 : 0;
    }
    QCOMPARE(firsts, std::size_t(1500));
    QVERIFY(once.first(3000));
    QVERIFY(once.first(3001));
    QVERIFY(once.first(3002));
    QVERIFY(once.first(3003));
    QVERIFY(!once.first(3004)); // -0 welds with 0
    // Corner extras: the same vertex with another normal is another row.
    QVERIFY(once.first(0, {0.0f, 0.0f, 1.0f}));
    QVERIFY(!once.first(1500, {0.0f, 0.0f, 1.0f}));
    QVERIFY(once.first(0, {0.0f, 1.0f, 0.0f}));
    QCOMPARE(once.size(), std::size_t(1500 + 4 + 2));
}

void TstChecks::vertexOnceReusesItsScratchCleanly()
{
    // Past 4,096 vertices the arrays are reserved for every point at once and the table keeps
    // growing; a second VertexOnce of the same thread (inside one check run's scratch scope)
    // takes the first one's memory and must start empty: the same answers again, exactly.
    Model m;
    m.format = "smd";
    const JointIndex j[1] = {0};
    const float w[1] = {1.0f};
    for (int i = 0; i < 20000; ++i) {
        appendPoint(m.mesh, Vec3(float(i % 10000), 0, 0), 0, LinkState::List, j, w, 1, {});
    }
    const ScratchSlotsScope scope;
    for (int round = 0; round < 2; ++round) {
        checks::VertexOnce once(m);
        std::size_t firsts = 0;
        for (std::size_t p = 0; p < 20000; ++p) {
            const bool f = once.first(p, {0.0f, 0.0f, float(p % 3)});
            firsts += f ? 1 : 0;
            if (p < 3) {
                QVERIFY(f);
            }
        }
        // Points p and p + 10,000 are one vertex, but their extras (p % 3) differ: 10,000 % 3
        // is 1. So every call is a new row.
        QCOMPARE(firsts, std::size_t(20000));
        QVERIFY(!once.first(0, {0.0f, 0.0f, 0.0f}));
        QVERIFY(!once.first(0, {0.0f, 0.0f, 1.0f})); // seen as point 10,000 (same vertex)
        QVERIFY(once.first(0, {0.0f, 0.0f, 2.0f}));
        QCOMPARE(once.size(), std::size_t(20001));
    }
    QVERIFY(scratchSlotsKept() >= 1); // the tables are kept for the next check of the run
}

void TstChecks::vertexOnceSweepAnswersAsFirst()
{
    // sweep() (the batch form, partitioned, issue 27 item 10) must give first()'s answers item
    // by item: 40,000 items over 12,000 points; copies of a vertex near each other (the recent
    // table) and far apart (the partitions), points that differ only in -0 vs 0 or one weight
    // bit, extras that differ only in -0 vs 0, NaN extras, items not asked about.
    Model m;
    m.format = "smd";
    const JointIndex j2[2] = {0, 1};
    std::uint32_t rng = 12345;
    const auto next = [&rng] {
        rng = rng * 1664525u + 1013904223u;
        return rng >> 8;
    };
    for (int i = 0; i < 12000; ++i) {
        const std::uint32_t k = next() % 3000; // about four points per vertex
        const float w[2] = {0.5f, k % 7 == 0 ? std::nextafter(0.5f, 1.0f) : 0.5f};
        const float x = k % 11 == 0 ? (i % 2 ? -0.0f : 0.0f) : float(k);
        appendPoint(m.mesh, Vec3(x, float(k % 5), 1), JointIndex(k % 3), LinkState::List, j2, w,
                    k % 13 == 0 ? 1 : 2, {});
    }
    struct Item {
        std::uint32_t point;
        float e0, e1;
        bool asked;
    };
    std::vector<Item> items;
    for (int i = 0; i < 40000; ++i) {
        const std::uint32_t pt = i < 20000 ? next() % 12000 : next() % 40 + 6000; // far, near
        const std::uint32_t e = next() % 4;
        const float e0 = e == 0 ? -0.0f : e == 1 ? 0.0f : e == 2 ? std::nanf("") : 1.0f;
        items.push_back({pt, e0, float(next() % 2), next() % 5 != 0});
    }
    std::vector<std::size_t> expected;
    std::size_t distinct = 0;
    {
        checks::VertexOnce once(m);
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].asked && once.first(items[i].point, {items[i].e0, items[i].e1})) {
                expected.push_back(i);
            }
        }
        distinct = once.size();
    }
    QVERIFY(expected.size() > 1000 && expected.size() < 30000);
    std::vector<std::size_t> got;
    checks::VertexOnce once(m);
    once.sweep(
        items.size(),
        [&](std::size_t i, checks::VertexOnce::Probe& p) {
            if (!items[i].asked) {
                return false;
            }
            p.point = items[i].point;
            p.add(items[i].e0);
            p.add(items[i].e1);
            return true;
        },
        [&](std::size_t i) { got.push_back(i); });
    QCOMPARE(got, expected);
    QCOMPARE(once.size(), distinct);
}

void TstChecks::parallelWeldBlockReportsAsSerial()
{
    // On a large mesh runModelChecks runs mesh.vertex-limit … mesh.duplicate-triangle on a
    // second thread into a sink of its own and replays it (issue 27 item 10): the same rows in
    // the same order, the same "… and N more" rows, the same kept weld for the budget meter.
    // 3,000 triangles, the first 1,500 copied (1,500 duplicates: past the 1,000 cap), unit
    // normals on some, 1.5 on others; goldsrc: the weld passes its 2,048 vertices.
    Model m = makeModel(2, 3000);
    Mesh& me = m.mesh;
    const JointIndex j = 0;
    const float w = 1.0f;
    for (std::size_t t = 0; t < 1500; ++t) {
        const auto line = static_cast<std::uint32_t>(20000 + 4 * t);
        me.triangleMaterials.push_back(me.triangleMaterials[t]);
        me.triangleWhere.push_back({line, 1, 0});
        for (std::size_t c = 0; c < 3; ++c) {
            appendPoint(me, me.pointPositions[me.cornerPoints[3 * t + c]], 0, LinkState::List, &j,
                        &w, 1, {static_cast<std::uint32_t>(line + 1 + c), 1, 0});
            me.cornerPoints.push_back(static_cast<std::uint32_t>(me.pointCount() - 1));
            me.cornerNormals.push_back(t % 3 == 0 ? Vec3(0, 0, 1.5f) : Vec3(0, 0, 1));
            me.cornerUvs.push_back(me.cornerUvs[3 * t + c]);
            me.cornerWhere.push_back({static_cast<std::uint32_t>(line + 1 + c), 1, 0});
        }
    }
    const auto run = [&m](std::size_t parallelFrom, Profile p) {
        checks::setParallelChecksFrom(parallelFrom);
        DiagnosticSink sink("big.smd");
        runModelChecks(m, p, sink);
        const std::size_t vertices = checks::weldedVertexCount(m, p); // the kept weld, if any
        checks::setParallelChecksFrom(200000);
        return std::make_pair(sink.take(), vertices);
    };
    for (const Profile p : {Profile::GoldSrc, Profile::Source}) {
        const auto [serial, serialVertices] = run(SIZE_MAX, p);
        const auto [parallel, parallelVertices] = run(0, p);
        QCOMPARE(parallel.size(), serial.size());
        for (std::size_t i = 0; i < serial.size(); ++i) {
            const Diagnostic& a = serial[i];
            const Diagnostic& b = parallel[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.severity, a.severity);
            QCOMPARE(b.message, a.message);
            QCOMPARE(b.where.line, a.where.line);
            QCOMPARE(b.element, a.element);
            QCOMPARE(b.omitted, a.omitted);
            QCOMPARE(b.fixedSeverity, a.fixedSeverity);
            QCOMPARE(b.related.size(), a.related.size());
        }
        QCOMPARE(parallelVertices, serialVertices);
        const auto dup = std::find_if(serial.begin(), serial.end(), [](const Diagnostic& d) {
            return d.id == ids::kMeshDuplicateTriangle && d.omitted > 0;
        });
        QVERIFY(dup != serial.end());
        QCOMPARE(dup->omitted, std::uint32_t(500));
    }
}

void TstChecks::duplicateTrianglesNameTheFirst()
{
    // 300 triangles; 40 copies of triangle 7 follow (some with their corners rotated, which is
    // the same triangle), one reversed copy (the back of a double-sided face: not a duplicate)
    // and one copy with another material (not a duplicate either).
    Model m = makeModel(1, 300, 2);
    Mesh& me = m.mesh;
    const JointIndex j = 0;
    const float w = 1.0f;
    const auto copy = [&](std::size_t t, std::array<int, 3> order, std::uint32_t mat) {
        const auto line = static_cast<std::uint32_t>(2000 + 4 * me.triangleCount());
        me.triangleMaterials.push_back(mat);
        me.triangleWhere.push_back({line, 1, 0});
        for (int c : order) {
            const Vec3 pos = me.pointPositions[me.cornerPoints[3 * t + std::size_t(c)]];
            appendPoint(me, pos, 0, LinkState::List, &j, &w, 1, {line + 1, 1, 0});
            me.cornerPoints.push_back(static_cast<std::uint32_t>(me.pointCount() - 1));
            me.cornerNormals.push_back(Vec3(0, 0, 1));
            me.cornerUvs.push_back(Vec2(pos.x(), pos.y()));
            me.cornerWhere.push_back({line + 1, 1, 0});
        }
    };
    const std::uint32_t mat7 = me.triangleMaterials[7];
    for (int k = 0; k < 40; ++k) {
        copy(7,
             k % 3 == 0 ? std::array<int, 3>{0, 1, 2}
                        : (k % 3 == 1 ? std::array<int, 3>{1, 2, 0} : std::array<int, 3>{2, 0, 1}),
             mat7);
    }
    copy(7, {0, 2, 1}, mat7);     // reversed
    copy(7, {0, 1, 2}, 1 - mat7); // other material
    std::size_t dups = 0;
    for (const Diagnostic& d : check(m, Profile::Source)) {
        if (d.id != ids::kMeshDuplicateTriangle) {
            continue;
        }
        const std::size_t t = 300 + dups;
        QCOMPARE(d.message, "triangle " + std::to_string(t) + " duplicates triangle 7");
        QCOMPARE(d.where.line, static_cast<std::uint32_t>(2000 + 4 * t));
        QCOMPARE(d.related.size(), std::size_t(1));
        QCOMPARE(d.related[0].where.line, static_cast<std::uint32_t>(100 + 4 * 7));
        ++dups;
    }
    QCOMPARE(dups, std::size_t(40));
}

QTEST_APPLESS_MAIN(TstChecks)
#include "tst_checks.moc"
