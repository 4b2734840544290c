// The pathos profile (docs/profiles.md "pathos"): Pathos's vbmcompiler against GoldSrc's
// studiomdl on one small project (tests/fixtures/pathos), how `auto` finds it, and the public
// Pathos projects (RIGSCOPE_TESTDATA, default /work/data; skipped when absent): every project
// whose compiled model exists checks with the error counts pinned here.
#include <QtTest/QtTest>

#include <algorithm>
#include <map>

#include "core/diag/diagnostic_ids.h"
#include "core/diag/limits.h"
#include "core/diag/profile.h"
#include "core/ops/check.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"
#include "core/ops/read_input.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString fixture()
{
    return test::fixturesDir() + QStringLiteral("/pathos");
}

QString dataRoot()
{
    const QByteArray env = qgetenv("RIGSCOPE_TESTDATA");
    return env.isEmpty() ? QStringLiteral("/work/data") : QString::fromLocal8Bit(env);
}

struct Tally {
    std::size_t errors = 0, warnings = 0, notes = 0;
    std::map<std::string, std::size_t> byId; // "severity id"
};

Tally tally(const std::vector<CheckedFile>& files)
{
    Tally t;
    for (const CheckedFile& f : files) {
        for (const Diagnostic& d : f.diagnostics) {
            const char* sev = d.severity == Severity::Error     ? "error"
                              : d.severity == Severity::Warning ? "warning"
                                                                : "note";
            (d.severity == Severity::Error     ? t.errors
             : d.severity == Severity::Warning ? t.warnings
                                               : t.notes) += d.count();
            t.byId[std::string(sev) + " " + std::string(d.id)] += d.count();
        }
    }
    return t;
}

std::size_t count(const Tally& t, const char* key)
{
    const auto it = t.byId.find(key);
    return it == t.byId.end() ? 0 : it->second;
}

// The fixture copied into a temporary folder, less `drop`, plus `extra` files.
QString copyFixture(const QTemporaryDir& tmp, const QStringList& drop,
                    const std::map<QString, QByteArray>& extra = {})
{
    const QDir src(fixture());
    for (const QString& f : src.entryList(QDir::Files)) {
        if (!drop.contains(f)) {
            QFile::copy(src.filePath(f), tmp.filePath(f));
        }
    }
    for (const auto& [name, bytes] : extra) {
        QFile out(tmp.filePath(name));
        out.open(QIODevice::WriteOnly);
        out.write(bytes);
    }
    return tmp.filePath(QStringLiteral("pathos.qc"));
}

std::vector<CheckedFile> check(const QString& qc, Profile p)
{
    CheckOptions opt;
    opt.profile = p;
    return checkQcProject(qc.toStdString(), opt);
}

// Two bodies of 470 triangles whose corners are all apart (1,410 vertices each), in a copy of
// the Pathos fixture project; returns the QC's path.
QString twoBodiesOf1410(const QTemporaryDir& tmp)
{
    QByteArray smd = test::readBytes(fixture() + QStringLiteral("/body.smd")).c_str();
    smd.truncate(smd.indexOf("triangles\n") + 10);
    for (int t = 0; t < 470; ++t) {
        smd += "body.bmp\n";
        for (int k = 0; k < 3; ++k) {
            smd += "0 " + QByteArray::number(k == 1 ? 1 : 0) + " " +
                   QByteArray::number(k == 2 ? 1 : 0) + " " + QByteArray::number(t) + " 0 0 1 " +
                   QByteArray::number(k) + " 0\n";
        }
    }
    smd += "end\n";
    QByteArray second = smd;
    second.replace("\n0 0 ", "\n0 50 "); // the same triangles 50 units aside
    QByteArray qc = test::readBytes(fixture() + QStringLiteral("/pathos.qc")).c_str();
    qc += "$body \"second\" \"second\"\n";
    return copyFixture(tmp, {},
                       {{QStringLiteral("body.smd"), smd},
                        {QStringLiteral("second.smd"), second},
                        {QStringLiteral("pathos.qc"), qc}});
}

} // namespace

class TstPathosProfile : public QObject {
    Q_OBJECT
private slots:
    void nameColumnLimits()
    {
        QCOMPARE(parseProfile("pathos"), std::optional<Profile>(Profile::Pathos));
        QCOMPARE(profileName(Profile::Pathos), std::string_view("pathos"));
        QVERIFY(std::find(kAllProfiles.begin(), kAllProfiles.end(), Profile::Pathos) !=
                kAllProfiles.end());
        QVERIFY(profileChoices().ends_with("|pathos|afterburner"));
        QCOMPARE(profileColumn(Profile::Pathos), 0); // grades as goldsrc, less what differs
        QVERIFY(goldSrcFamily(Profile::Pathos) && goldSrcFamily(Profile::GoldSrc));
        QVERIFY(!goldSrcFamily(Profile::Source) && !goldSrcFamily(Profile::Auto));
        const Limits l = limitsFor(Profile::Pathos);
        QCOMPARE(l.bones, std::size_t(127));           // studiocompiler.cpp: >= 128 stops
        QCOMPARE(l.weightsPerVertex, std::size_t(4));  // MAX_VBM_BONEWEIGHTS
        QCOMPARE(l.uniqueVertices, std::size_t(2047)); // geometrysmdparser.cpp: >= 2048 stops
        QCOMPARE(l.uniqueNormals, std::size_t(2047));
    }

    void autoFindsPathos()
    {
        // reference_frame.smd in the $cd folder: the bind pose only vbmcompiler reads.
        QCOMPARE(qcReportFromFile((fixture() + QStringLiteral("/pathos.qc")).toStdString(),
                                  Profile::Auto)
                     .profile,
                 Profile::Pathos);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // Without it, and without $protected, the same script is GoldSrc's ($cdtexture).
        QByteArray plain = "$modelname \"pathos.mdl\"\n$cdtexture \".\"\n$body \"studio\" "
                           "\"body\"\n$sequence \"idle\" \"idle130\"\n";
        const QString qc =
            copyFixture(tmp, {QStringLiteral("reference_frame.smd"), QStringLiteral("pathos.qc")},
                        {{QStringLiteral("pathos.qc"), plain}});
        QCOMPARE(qcReportFromFile(qc.toStdString(), Profile::Auto).profile, Profile::GoldSrc);
        // The .vbm vbmcompiler wrote beside the .mdl $modelname names.
        QFile vbm(tmp.filePath(QStringLiteral("pathos.vbm")));
        QVERIFY(vbm.open(QIODevice::WriteOnly));
        vbm.close();
        QCOMPARE(qcReportFromFile(qc.toStdString(), Profile::Auto).profile, Profile::Pathos);
        QVERIFY(vbm.remove());
        // A render mode only vbmcompiler defines (progs/vbmcompiler/rendermode_defs.txt); HL1's
        // Cmd_SetTextureRendermode stops on anything but additive and masked. Pathos's
        // pine_tree, pine_cluster1 and pine_cluster2 have no other sign.
        for (const auto& [mode, profile] : {std::pair{"masked", Profile::GoldSrc},
                                            {"additive", Profile::GoldSrc},
                                            {"alphatest", Profile::Pathos},
                                            {"luminance", Profile::Pathos},
                                            {"eyeglint", Profile::Pathos}}) {
            QFile m(qc);
            QVERIFY(m.open(QIODevice::WriteOnly));
            m.write(plain + "$texrendermode \"body.bmp\" \"" + mode + "\"\n");
            m.close();
            QCOMPARE(qcReportFromFile(qc.toStdString(), Profile::Auto).profile, profile);
        }
        QFile m(qc);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write(plain);
        m.close();
        // vbmcompiler-only syntax: `flex` after a $body file.
        QFile f(qc);
        QVERIFY(f.open(QIODevice::Append));
        f.write("$body \"face\" \"body\" flex \"face\"\n");
        f.close();
        const QcReport r = qcReportFromFile(qc.toStdString(), Profile::Auto);
        QCOMPARE(r.profile, Profile::Pathos);
        // The VTA it names is a file of the project: missing, an error located at its name.
        QStringList missing;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == ids::kQcMissingFile) {
                missing << QStringLiteral("%1:%2").arg(d.where.line).arg(d.where.column);
            }
        }
        QCOMPARE(missing, QStringList{QStringLiteral("5:26")});
    }

    void fixtureUnderPathos()
    {
        const std::vector<CheckedFile> files =
            check(fixture() + QStringLiteral("/pathos.qc"), Profile::Auto);
        QCOMPARE(files.front().profile, Profile::Pathos);
        const Tally t = tally(files);
        QCOMPARE(t.errors, std::size_t(0));
        // 130 animation bones, 125 of them in no body: skipped, so no bone limit, notes only.
        QCOMPARE(count(t, "note xref.anim-bone-missing"), std::size_t(125));
        QCOMPARE(count(t, "error skeleton.bone-limit"), std::size_t(0));
        // .tga materials and 2-link vertices are what vbmcompiler takes.
        QCOMPARE(count(t, "error mesh.material-not-bmp"), std::size_t(0));
        QCOMPARE(count(t, "warning weights.too-many-links"), std::size_t(0));
        // $attachment keeps 'head', $protected keeps 'prop'; only 'tip' is dropped.
        const QcReport r = qcReportFromFile(
            (fixture() + QStringLiteral("/pathos.qc")).toStdString(), Profile::Auto);
        QCOMPARE(r.compiled.model.skeleton.names,
                 (std::vector<std::string>{"root", "spine", "head", "prop"}));
        // The QC's bone meter (the status bar's) counts that table, not only the weighted
        // bones and their parents (harrison: 52 where its .mdl has 53).
        QCOMPARE(files.front().budget.at(0).name, std::string_view("bones"));
        QCOMPARE(files.front().budget.at(0).used, std::size_t(4));
        // A $protected bone no body has: vbmcompiler warns and goes on.
        QStringList ignored;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == ids::kQcIgnoredBone) {
                QCOMPARE(d.severity, Severity::Note);
                ignored << QString::number(d.where.line);
            }
        }
        QCOMPARE(ignored, QStringList{QStringLiteral("16")});
        QCOMPARE(count(t, "warning skeleton.unreferenced-bone"), std::size_t(1)); // 'tip'
        // idle130.smd skips id 129: vbmcompiler's unnamed placeholder reaches nothing.
        QCOMPARE(count(t, "note skeleton.id-gap"), std::size_t(1));
        QCOMPARE(count(t, "warning skeleton.id-gap"), std::size_t(0));
    }

    void sameFixtureUnderGoldSrc()
    {
        // What GoldSrc's studiomdl makes of the same project: each difference is an error.
        // idle130.smd's 130 bones are not one: HL1 studiomdl reads up to 512 from a source
        // file and keeps only the bones the bodies use (studiomdl.c SimplifyModel).
        const Tally t = tally(check(fixture() + QStringLiteral("/pathos.qc"), Profile::GoldSrc));
        QCOMPARE(count(t, "error skeleton.bone-limit"), std::size_t(0));
        QCOMPARE(count(t, "error mesh.material-not-bmp"), std::size_t(2));    // body, visor
        QCOMPARE(count(t, "error qc.unknown-bone"), std::size_t(1));          // $attachment head
        QCOMPARE(count(t, "error qc.unknown-command"), std::size_t(2));       // $protected x2
        QCOMPARE(count(t, "warning weights.too-many-links"), std::size_t(3)); // 3 vertices
        QCOMPARE(count(t, "warning skeleton.id-gap"), std::size_t(1));
        QCOMPARE(t.errors, std::size_t(5)); // ParseScript stops at the first $protected
    }

    void unknownCommandStopsVbmcompiler()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QByteArray qc = "$modelname \"pathos.mdl\"\n$body \"studio\" \"body\"\n"
                        "$surfaceprop \"metal\"\n$sequence \"idle\" \"idle130\"\n";
        const QString path =
            copyFixture(tmp, {QStringLiteral("pathos.qc")}, {{QStringLiteral("pathos.qc"), qc}});
        const QcReport r = qcReportFromFile(path.toStdString(), Profile::Auto);
        QCOMPARE(r.profile, Profile::Pathos); // reference_frame.smd
        std::size_t n = 0;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == ids::kQcUnknownCommand) {
                ++n;
                QCOMPARE(d.severity, Severity::Error);
                QCOMPARE(d.where.line, 3);
            }
        }
        QCOMPARE(n, std::size_t(1));
    }

    void vertexLimitIsANote()
    {
        // 2,100 unique vertices in one body: vbmcompiler stops only without -l / -s (the
        // Pathos models are built with them), so a note; GoldSrc's studiomdl stops.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QByteArray smd = test::readBytes(fixture() + QStringLiteral("/body.smd")).c_str();
        smd.truncate(smd.indexOf("triangles\n") + 10); // the fixture's five bones

        for (int t = 0; t < 700; ++t) {
            smd += "body.bmp\n";
            for (int k = 0; k < 3; ++k) { // (0,0,t) (1,0,t) (0,1,t): 3 new positions each
                smd += "0 " + QByteArray::number(k == 1 ? 1 : 0) + " " +
                       QByteArray::number(k == 2 ? 1 : 0) + " " + QByteArray::number(t) +
                       " 0 0 1 " + QByteArray::number(k) + " 0\n";
            }
        }
        smd += "end\n";
        const QString path =
            copyFixture(tmp, {QStringLiteral("body.smd")}, {{QStringLiteral("body.smd"), smd}});
        const std::vector<CheckedFile> pathos = check(path, Profile::Pathos);
        const Tally p = tally(pathos);
        QCOMPARE(p.errors, std::size_t(0));
        QVERIFY(count(p, "note mesh.vertex-limit") >= 1);
        const std::vector<CheckedFile> goldsrc = check(path, Profile::GoldSrc);
        const Tally g = tally(goldsrc);
        QVERIFY(count(g, "error mesh.vertex-limit") >= 1);

        // The status bar's vertex meter grades going over as check does (amber, not red).
        auto overVertices = [](const std::vector<CheckedFile>& files) {
            std::vector<bool> out;
            for (const CheckedFile& f : files) {
                for (const BudgetMeter& b : f.budget) {
                    if (b.name == "vertices" && b.limit > 0 && b.used > b.limit) {
                        out.push_back(b.overIsNote);
                    }
                }
            }
            return out;
        };
        QCOMPARE(overVertices(pathos), std::vector<bool>(overVertices(pathos).size(), true));
        QVERIFY(!overVertices(pathos).empty());
        QCOMPARE(overVertices(goldsrc), std::vector<bool>(overVertices(goldsrc).size(), false));
        QVERIFY(!overVertices(goldsrc).empty());
    }

    // vbmcompiler limits each body file's vertices (geometrysmdparser.cpp), not the model's:
    // two bodies of 1,410 each are 2,820 in the merged model and no finding; the QC's meter
    // shows the largest body file, as the check measures it.
    void vertexMeterIsPerBodyFile()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString path = twoBodiesOf1410(tmp);
        const std::vector<CheckedFile> files = check(path, Profile::Pathos);
        QCOMPARE(count(tally(files), "note mesh.vertex-limit"), std::size_t(0));
        const BudgetMeter& v = files.front().budget.at(2);
        QCOMPARE(v.name, std::string_view("vertices"));
        QCOMPARE(v.used, std::size_t(1410));
        QCOMPARE(v.limit, std::size_t(2047));
    }

    // GoldSrc's studiomdl limits each model's vertices and triangles too (lookup_vertex
    // keeps them per s_model_t, MAXSTUDIOVERTS 2,048): the same two bodies were a "merged
    // model: 2,820 unique vertices" error (Half-Life's loader.mdl, 4,282 vertices in five
    // bodies of at most 1,038, was one).
    void goldsrcVertexLimitIsPerModel()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString path = twoBodiesOf1410(tmp);
        const Tally g = tally(check(path, Profile::GoldSrc));
        QCOMPARE(count(g, "error mesh.vertex-limit"), std::size_t(0));
    }

    // The bone limit counts vbmcompiler's bone table, which keeps $attachment bones: 126
    // weighted bones and 2 attachment bones are 128, over its 127 (CreateBoneTable stops);
    // GoldSrc's table has only the 126 weighted ones.
    void boneLimitCountsTheTable()
    {
        QByteArray smd = "version 1\nnodes\n0 \"b0\" -1\n";
        for (int b = 1; b < 128; ++b) {
            smd += QByteArray::number(b) + " \"b" + QByteArray::number(b) + "\" 0\n";
        }
        smd += "end\nskeleton\ntime 0\n";
        for (int b = 0; b < 128; ++b) {
            smd += QByteArray::number(b) + " 0 0 " + QByteArray::number(b) + " 0 0 0\n";
        }
        smd += "end\ntriangles\n";
        for (int b = 0; b < 126; ++b) {
            smd += "body.bmp\n";
            for (int k = 0; k < 3; ++k) {
                smd += QByteArray::number(b) + " " + QByteArray::number(k == 1 ? 1 : 0) + " " +
                       QByteArray::number(k == 2 ? 1 : 0) + " " + QByteArray::number(b) +
                       " 0 0 1 0 0\n";
            }
        }
        smd += "end\n";
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray qc = "$modelname \"limit.mdl\"\n$body \"studio\" \"body\"\n"
                              "$attachment 0 \"b126\" 0 0 0\n$attachment 1 \"b127\" 0 0 0\n"
                              "$sequence \"idle\" \"body\"\n";
        for (const auto& [name, bytes] : std::map<QString, QByteArray>{
                 {QStringLiteral("body.smd"), smd}, {QStringLiteral("limit.qc"), qc}}) {
            QFile f(tmp.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const QString path = tmp.filePath(QStringLiteral("limit.qc"));
        const std::vector<CheckedFile> pathos = check(path, Profile::Pathos);
        QCOMPARE(count(tally(pathos), "error skeleton.bone-limit"), std::size_t(1));
        QCOMPARE(pathos.front().budget.at(0).used, std::size_t(128));
        const std::vector<CheckedFile> goldsrc = check(path, Profile::GoldSrc);
        QCOMPARE(count(tally(goldsrc), "error skeleton.bone-limit"), std::size_t(0));
        QCOMPARE(goldsrc.front().budget.at(0).used, std::size_t(126));
    }

    void publicProjects_data()
    {
        QTest::addColumn<QString>("qc");
        QTest::addColumn<int>("errors");
        QTest::addColumn<int>("bones"); // in the compiled .mdl under pathos/models
        // modelsrc/<project>.qc, and the errors (none: replica.qc's four blend animations at
        // lines 113 and 124 are `.SMD` files, found with a qc.case-mismatch note).
        const struct {
            const char* qc;
            int errors;
            int bones;
        } rows[] = {
            {"blackout/blackout.qc", 0, 2},
            {"bullets/bullets.qc", 0, 1},
            {"crates/crate_small.qc", 0, 1},
            {"error/error.qc", 0, 1},
            {"ladders/ladder1.qc", 0, 1},
            {"motorbike/motorbike.qc", 0, 54},
            {"npcs/harrison/harrison.qc", 0, 53},
            {"npcs/replica/replica.qc", 0, 50},
            {"npcs/security/security.qc", 0, 58},
            {"props/bigcluster1/bigcluster1.qc", 0, 51},
            {"props/grasscluster/grasscluster.qc", 0, 2},
            {"props/pine/pine_tree.qc", 0, 8},
            {"props/pine_cluster1/pine_cluster1.qc", 0, 13},
            {"props/pine_cluster2/pine_cluster2.qc", 0, 25},
            {"shellcasings/shellcasings.qc", 0, 1},
            {"taperecorder/taperecorder.qc", 0, 9},
            {"v_sequences/v_sequences.qc", 0, 48},
            {"w_objects/w_objects.qc", 0, 6},
        };
        for (const auto& r : rows) {
            QTest::newRow(r.qc) << QString::fromLatin1(r.qc) << r.errors << r.bones;
        }
    }
    void publicProjects()
    {
        QFETCH(QString, qc);
        QFETCH(int, errors);
        const QString root =
            dataRoot() + QStringLiteral("/TheOverfloater+pathos-public/pathos/sources/modelsrc/");
        if (!QFileInfo::exists(root + qc)) {
            QSKIP("the Pathos projects (RIGSCOPE_TESTDATA) are not here");
        }
        // --profile=pathos: the props without reference_frame.smd or a .vbm beside them are
        // not found by auto (docs/profiles.md); the others are.
        const Tally t = tally(check(root + qc, Profile::Pathos));
        QCOMPARE(t.errors, std::size_t(errors));
        QCOMPARE(count(t, "error qc.missing-file"), std::size_t(errors));
        // The prediction against what vbmcompiler wrote: the .mdl's bones and sequences (its
        // geometry is in the .vbm, which RigScope does not read).
        const QcReport r = qcReportFromFile((root + qc).toStdString(), Profile::Pathos);
        // The .mdl beside the QC when there is one: pathos/models holds later builds (its
        // blackout.mdl has 16 sequences, the QC 7; the one beside the QC has those 7).
        const QString name = QString::fromStdString(r.project.modelName);
        // (pine_tree.mdl beside its QC is an empty file.)
        const auto usable = [](const QString& path) { return QFileInfo(path).size() > 0; };
        QString mdl = QFileInfo(root + qc).absolutePath() + QLatin1Char('/') + name;
        if (!usable(mdl)) {
            mdl = root + QStringLiteral("../../models/") + name;
        }
        if (!usable(mdl)) {
            mdl = root + QStringLiteral("../../models/props/") + name;
        }
        const OpenedInput in = openInput(mdl.toStdString(), Profile::Auto, std::string());
        QVERIFY2(in.readable && in.compiled, qPrintable(mdl));
        QFETCH(int, bones);
        QCOMPARE(int(in.compiled->bones.size()), bones);
        QCOMPARE(int(r.compiled.model.skeleton.size()), bones);
        QCOMPARE(r.project.sequences.size(), in.compiled->sequences.size());
        // The compiled model on its own (its .vbm beside it) is checked as Pathos's, as the QC.
        CheckOptions opt;
        const CheckRun run = runCheck({mdl.toStdString()}, opt);
        QCOMPARE(run.files.size(), std::size_t(1));
        QCOMPARE(run.files.front().profile, Profile::Pathos);
        QVERIFY(run.files.front().guessed);
    }
};

QTEST_GUILESS_MAIN(TstPathosProfile)
#include "tst_pathos_profile.moc"
