// Issue 15 items 2, 6 (CLI) and 7: one truth between info and check, frames named by the
// file's own numbers, the UX.md options (pose --vertices --flex --weights --reference --time,
// convert --frames --weights, --color, --verbose, --force-reader) and the words diagnostics use.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString fixture(const char* rel)
{
    return test::fixturesDir() + QLatin1Char('/') + QLatin1String(rel);
}
QString sample(const char* name)
{
    return test::samplesDir() + QLatin1Char('/') + QLatin1String(name);
}

QString write(const QTemporaryDir& dir, const char* name, const char* text)
{
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        return {};
    }
    f.write(text);
    return path;
}

QJsonArray jsonArray(const QByteArray& out)
{
    QJsonParseError err{};
    const QJsonDocument d = QJsonDocument::fromJson(out, &err);
    return err.error == QJsonParseError::NoError ? d.array() : QJsonArray{};
}

QJsonObject jsonObject(const QByteArray& out)
{
    QJsonParseError err{};
    const QJsonDocument d = QJsonDocument::fromJson(out, &err);
    return err.error == QJsonParseError::NoError ? d.object() : QJsonObject{};
}

// One bone at the origin, one triangle; v0 has a 0.97 / 0.03 split between root and arm.
const char* const kRef = "version 1\n"
                         "nodes\n"
                         "0 \"root\" -1\n"
                         "1 \"arm\" 0\n"
                         "end\n"
                         "skeleton\n"
                         "time 0\n"
                         "0 0 0 0 0 0 0\n"
                         "1 0 0 0 0 0 0\n"
                         "end\n"
                         "triangles\n"
                         "skin.tga\n"
                         "0 0 0 0 0 0 1 0 0 2 0 0.97 1 0.03\n"
                         "0 1 0 0 0 0 1 1 0 1 0 1\n"
                         "0 0 1 0 0 0 1 0 1 1 0 1\n"
                         "end\n";
// Frame 5: root at (10, 0, 0) turned 90 degrees about z; arm 100 units up the z axis.
const char* const kAnim = "version 1\n"
                          "nodes\n"
                          "0 \"root\" -1\n"
                          "1 \"arm\" 0\n"
                          "end\n"
                          "skeleton\n"
                          "time 4\n"
                          "0 0 0 0 0 0 0\n"
                          "1 0 0 0 0 0 0\n"
                          "time 5\n"
                          "0 10 0 0 0 0 1.5707963\n"
                          "1 0 0 100 0 0 0\n"
                          "time 6\n"
                          "0 0 0 0 0 0 0\n"
                          "end\n";
// Shape "up" lifts vertex 0 by 1 along z.
const char* const kVta = "version 1\n"
                         "nodes\n"
                         "0 \"root\" -1\n"
                         "end\n"
                         "skeleton\n"
                         "time 0\n"
                         "time 1 # up\n"
                         "end\n"
                         "vertexanimation\n"
                         "time 0\n"
                         "0 0 0 0 0 0 1\n"
                         "1 1 0 0 0 0 1\n"
                         "2 0 1 0 0 0 1\n"
                         "time 1 # up\n"
                         "0 0 0 1 0 0 1\n"
                         "end\n";

// kRef with one vertex whose weights sum to 0.8: exactly one warning (weights.sum-not-one).
std::string oneWarning()
{
    std::string s = kRef;
    const std::string from = "0 0 0 0 0 0 1 0 0 2 0 0.97 1 0.03\n";
    s.replace(s.find(from), from.size(), "0 0 0 0 0 0 1 0 0 2 0 0.5 1 0.3\n");
    return s;
}

} // namespace

class TstCliUx : public QObject {
    Q_OBJECT
private slots:
    // info runs the checks of its profile: the counts of `check` (JSON errors/warnings/notes).
    void infoCountsAreChecksCounts_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("profile");
        QTest::newRow("sample reference") << sample("sample_ref.smd") << QStringLiteral("auto");
        QTest::newRow("sample vta") << sample("sample_flex.vta") << QStringLiteral("auto");
        QTest::newRow("weights fixture, source")
            << fixture("checks/weights.sum-not-one.smd") << QStringLiteral("source");
        QTest::newRow("xmodel, cod")
            << fixture("xmodel/valid/color_range.xmodel_export") << QStringLiteral("cod");
        QTest::newRow("xmodel, source")
            << fixture("xmodel/valid/color_range.xmodel_export") << QStringLiteral("source");
    }
    void infoCountsAreChecksCounts()
    {
        QFETCH(QString, path);
        QFETCH(QString, profile);
        const auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                        QStringLiteral("--profile=") + profile, path});
        const auto check = test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"),
                                         QStringLiteral("--profile=") + profile, path});
        const QJsonObject i = jsonArray(info.out).at(0).toObject();
        const QJsonObject c = jsonObject(check.out);
        QVERIFY2(!i.isEmpty() && !c.isEmpty(), info.err.constData());
        const QJsonObject summary = c.value(QStringLiteral("summary")).toObject();
        QCOMPARE(i.value(QStringLiteral("checks")).toBool(), true);
        QCOMPARE(i.value(QStringLiteral("errors")).toInt(-1),
                 summary.value(QStringLiteral("errors")).toInt(-2));
        QCOMPARE(i.value(QStringLiteral("warnings")).toInt(-1),
                 summary.value(QStringLiteral("warnings")).toInt(-2));
        QCOMPARE(i.value(QStringLiteral("notes")).toInt(-1),
                 summary.value(QStringLiteral("notes")).toInt(-2));
        QCOMPARE(info.exitCode, check.exitCode);
    }

    void infoNoChecksSaysSo()
    {
        QTemporaryDir dir;
        const QString path = write(dir, "one.smd", oneWarning().c_str());
        const auto json = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                        QStringLiteral("--no-checks"), path});
        const QJsonObject o = jsonArray(json.out).at(0).toObject();
        QCOMPARE(o.value(QStringLiteral("checks")).toBool(true), false);
        QCOMPARE(o.value(QStringLiteral("warnings")).toInt(-1),
                 0); // a check's warning, not the reader's
        const auto text =
            test::runCli({QStringLiteral("info"), QStringLiteral("--no-checks"), path});
        QVERIFY2(text.out.contains("(--no-checks: reader only, checks not run)"),
                 text.out.constData());
        const auto checked = test::runCli({QStringLiteral("info"), path});
        QVERIFY2(checked.out.contains(
                     "diagnostics 0 errors, 1 warning, 0 notes (checks of profile source)"),
                 checked.out.constData());
    }

    // Bytes that are no text (a PNG renamed .smd, a compiled model) are one error, the same
    // words as the window's Problems and status bar, never the SMD reader quoting the bytes.
    void binaryGarbageIsOneError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("image.smd"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
        for (int i = 0; i < 512; ++i) {
            png.append(char((i * 37) & 0xff));
        }
        f.write(png);
        f.close();
        const auto check = test::runCli({QStringLiteral("check"), path});
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(check.out.contains(
                     "image.smd:1:1: error: not a model file: binary data [syntax.bad-version]"),
                 check.out.constData());
        QCOMPARE(check.out.count("error:"), 1);
        // Unknown name, same words.
        const QString bin = dir.filePath(QStringLiteral("blob.bin"));
        QVERIFY(QFile::copy(path, bin));
        const auto info = test::runCli({QStringLiteral("info"), bin});
        QVERIFY2((info.out + info.err).contains("not a model file: binary data"),
                 (info.out + info.err).constData());
    }

    // Frames are the file's own numbers in info and pose; pose --time picks one by number.
    void framesByFileNumber()
    {
        QTemporaryDir dir;
        const QString ref = write(dir, "ref.smd", kRef);
        const QString anim = write(dir, "anim.smd", kAnim);
        const auto info = test::runCli({QStringLiteral("info"), anim});
        QVERIFY2(info.out.contains("frames      3 (frames 4..6, 30 fps default)"),
                 info.out.constData());
        const auto byTime = test::runCli({QStringLiteral("pose"), ref, QStringLiteral("--anim"),
                                          anim, QStringLiteral("--time"), QStringLiteral("5")});
        const auto byIndex = test::runCli({QStringLiteral("pose"), ref, QStringLiteral("--anim"),
                                           anim, QStringLiteral("--frame"), QStringLiteral("1")});
        QCOMPARE(byTime.exitCode, 0);
        QCOMPARE(byTime.out, byIndex.out);
        QVERIFY2(byTime.out.contains(": " + anim.toUtf8() + ", frame 5 (index 1 of 3)"),
                 byTime.out.constData());
        const auto xanim =
            test::runCli({QStringLiteral("pose"), fixture("pose/cod_ref.xmodel_export"),
                          QStringLiteral("--anim"), fixture("pose/cod_anim.xanim_export"),
                          QStringLiteral("--time=101")});
        QCOMPARE(xanim.exitCode, 0);
        QVERIFY2(xanim.out.contains("frame 101 (index 1 of 2)"), xanim.out.constData());
        const auto gap = test::runCli({QStringLiteral("pose"), ref, QStringLiteral("--anim"), anim,
                                       QStringLiteral("--time=3")});
        QCOMPARE(gap.exitCode, 2);
        QVERIFY2(gap.err.contains("no frame numbered 3 (frames 4..6)"), gap.err.constData());
    }

    // pose --vertices with a VTA attached and --flex: flex in bind space, then skinning.
    void poseVerticesWithFlex()
    {
        QTemporaryDir dir;
        const QString ref = write(dir, "ref.smd", kRef);
        const QString anim = write(dir, "anim.smd", kAnim);
        const QString vta = write(dir, "ref.vta", kVta);
        const auto r = test::runCli({QStringLiteral("pose"), ref, vta, QStringLiteral("--anim"),
                                     anim, QStringLiteral("--time=5"), QStringLiteral("--vertices"),
                                     QStringLiteral("--flex"), QStringLiteral("up=0.5"),
                                     QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonObject(r.out);
        const QJsonArray v = o.value(QStringLiteral("vertices")).toArray();
        QCOMPARE(v.size(), 3);
        auto near = [](const QJsonArray& p, double x, double y, double z) {
            return std::abs(p.at(0).toDouble() - x) < 1e-3 &&
                   std::abs(p.at(1).toDouble() - y) < 1e-3 &&
                   std::abs(p.at(2).toDouble() - z) < 1e-3;
        };
        // v0 = (0,0,0) + up 0.5 = (0,0,0.5): 0.97 on root (-> (10,0,0.5)), 0.03 on arm (+100 z)
        QVERIFY2(near(v.at(0).toArray(), 10, 0, 0.5 + 0.03 * 100), r.out.constData());
        // v1 = (1,0,0) turned 90 degrees about z, moved to x 10
        QVERIFY2(near(v.at(1).toArray(), 10, 1, 0), r.out.constData());
        QVERIFY2(near(v.at(2).toArray(), 9, 0, 0), r.out.constData());
        QCOMPARE(o.value(QStringLiteral("flex")).toObject().value(QStringLiteral("up")).toDouble(),
                 0.5);
        QCOMPARE(o.value(QStringLiteral("bones")).toArray().size(), 2);

        // compiled weights (source): the 0.03 link is culled, v0 follows root alone
        const auto c =
            test::runCli({QStringLiteral("pose"), ref, vta, QStringLiteral("--anim"), anim,
                          QStringLiteral("--time=5"), QStringLiteral("--vertices"),
                          QStringLiteral("--flex=up=0.5"), QStringLiteral("--weights=compiled"),
                          QStringLiteral("--json")});
        QCOMPARE(c.exitCode, 0);
        QVERIFY2(near(jsonObject(c.out).value(QStringLiteral("vertices")).toArray().at(0).toArray(),
                      10, 0, 0.5),
                 c.out.constData());

        // --reference: FILE is the animation, posed on the reference
        const auto rr =
            test::runCli({QStringLiteral("pose"), anim, vta, QStringLiteral("--reference"), ref,
                          QStringLiteral("--time=5"), QStringLiteral("--vertices"),
                          QStringLiteral("--flex=up=0.5"), QStringLiteral("--json")});
        QCOMPARE(rr.exitCode, 0);
        QCOMPARE(rr.out, r.out);

        // text output: one `v` line per vertex
        const auto t = test::runCli({QStringLiteral("pose"), ref, QStringLiteral("--vertices")});
        QVERIFY2(t.out.contains("\nv 1 | 1 0 0 | 0 0 1\n"), t.out.constData());

        const auto unknown =
            test::runCli({QStringLiteral("pose"), ref, vta, QStringLiteral("--flex=smile=1")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("no flex shape 'smile' (shapes: 'up')"),
                 unknown.err.constData());
    }

    // Issue 27 item 5: `info X.qc` counts what `check X.qc` counts (the same checks of every
    // file of the project, not the script's own findings alone).
    void infoQcCountsAreChecksCounts_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("findings"); // the component files have findings of their own
        QTest::newRow("hero") << fixture("qc/source/hero.qc") << true;
        QTest::newRow("dmx face") << fixture("qc/dmx_face/face.qc") << false;
        QTest::newRow("unknown bone") << fixture("qc/checks/unknown-bone.qc") << true;
    }
    void infoQcCountsAreChecksCounts()
    {
        QFETCH(QString, path);
        QFETCH(bool, findings);
        const auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), path});
        const auto check =
            test::runCli({QStringLiteral("check"), QStringLiteral("--format=json"), path});
        const QJsonObject i = jsonObject(info.out);
        const QJsonObject summary =
            jsonObject(check.out).value(QStringLiteral("summary")).toObject();
        QVERIFY2(!i.isEmpty() && !summary.isEmpty(), info.err.constData());
        QCOMPARE(i.value(QStringLiteral("checks")).toBool(), true);
        const int checked = summary.value(QStringLiteral("errors")).toInt() +
                            summary.value(QStringLiteral("warnings")).toInt() +
                            summary.value(QStringLiteral("notes")).toInt();
        QCOMPARE(checked > 0, findings);
        for (const char* k : {"errors", "warnings", "notes"}) {
            QCOMPARE(i.value(QLatin1String(k)).toInt(-1),
                     summary.value(QLatin1String(k)).toInt(-2));
        }
        QCOMPARE(info.exitCode, check.exitCode);
        // The text form says the same.
        const auto text = test::runCli({QStringLiteral("info"), path});
        const QString want = QStringLiteral("problems:    %1 errors, %2 warnings, %3 notes")
                                 .arg(summary.value(QStringLiteral("errors")).toInt())
                                 .arg(summary.value(QStringLiteral("warnings")).toInt())
                                 .arg(summary.value(QStringLiteral("notes")).toInt());
        QVERIFY2(QString::fromUtf8(text.out).contains(want), text.out.constData());
        // --no-checks: the script's own findings, and it says so.
        const auto fast = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                        QStringLiteral("--no-checks"), path});
        QCOMPARE(jsonObject(fast.out).value(QStringLiteral("checks")).toBool(true), false);
    }

    // `check ref.smd flex.vta anim.smd` binds the animation to the reference as the window
    // does when they are opened together (an animation sharing bone names attaches), even when
    // the animation has more bones than it shares.
    void checkAttachesTheAnimationAsTheWindowDoes()
    {
        QTemporaryDir dir;
        const QString ref = write(dir, "ref.smd", kRef);
        const QString vta = write(dir, "flex.vta", kVta);
        const QString anim = write(dir, "walk.smd",
                                   "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\n2 \"a\" 1\n"
                                   "3 \"b\" 1\n4 \"c\" 1\nend\nskeleton\ntime 0\n"
                                   "0 0 0 0 0 0 0\n1 0 0 0 0 0 0\n2 0 0 0 0 0 0\n"
                                   "3 0 0 0 0 0 0\n4 0 0 0 0 0 0\nend\n");
        const auto r = test::runCli(
            {QStringLiteral("check"), QStringLiteral("--format=json"), ref, vta, anim});
        const QJsonArray files = jsonObject(r.out).value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), 3);
        for (const auto& f : files) {
            const QJsonObject o = f.toObject();
            const QString file = o.value(QStringLiteral("file")).toString();
            if (file == ref) {
                QVERIFY(o.value(QStringLiteral("reference")).isNull());
            } else {
                QCOMPARE(o.value(QStringLiteral("reference")).toString(), ref);
            }
        }
        // info names the same reference.
        const auto info =
            test::runCli({QStringLiteral("info"), QStringLiteral("--json"), ref, vta, anim});
        QCOMPARE(jsonArray(info.out).at(2).toObject().value(QStringLiteral("reference")).toString(),
                 ref);
    }

    // pose and convert read the `.qc` that info and check read: the compiled model.
    void poseAndConvertReadAQc()
    {
        const QString face = fixture("qc/dmx_face/face.qc");
        const auto pose =
            test::runCli({QStringLiteral("pose"), face, QStringLiteral("--vertices"),
                          QStringLiteral("--flex=blink=1"), QStringLiteral("--json")});
        QCOMPARE(pose.exitCode, 0);
        const QJsonObject o = jsonObject(pose.out);
        const QJsonArray v = o.value(QStringLiteral("vertices")).toArray();
        QCOMPARE(v.size(), 3 + 6); // the SMD body's points and the DMX head's (one per corner)
        QCOMPARE(
            o.value(QStringLiteral("flex")).toObject().value(QStringLiteral("blink")).toDouble(),
            1.0);
        int lifted = 0;
        for (const auto& p : v) {
            const QJsonArray a = p.toArray();
            if (std::abs(a.at(0).toDouble() + 1) < 1e-4 && std::abs(a.at(1).toDouble()) < 1e-4) {
                QVERIFY2(std::abs(a.at(2).toDouble() - 2) < 1e-4, pose.out.constData());
                ++lifted;
            }
        }
        QCOMPARE(lifted, 2);
        const auto bones = test::runCli(
            {QStringLiteral("pose"), fixture("qc/source/hero.qc"), QStringLiteral("--json")});
        QCOMPARE(bones.exitCode, 0);
        QCOMPARE(jsonArray(bones.out).size(), 5);

        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("hero.smd"));
        const auto conv =
            test::runCli({QStringLiteral("convert"), fixture("qc/source/hero.qc"), out});
        QVERIFY2(conv.exitCode == 0, conv.err.constData());
        const auto back = test::runCli(
            {QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--no-checks"), out});
        const QJsonObject b = jsonArray(back.out).at(0).toObject();
        QCOMPARE(b.value(QStringLiteral("bones")).toInt(), 5);
        QCOMPARE(b.value(QStringLiteral("triangles")).toInt(), 10); // every body choice
    }

    // A 0-byte QC is an error in check (the window says "failed"); a folder is "a directory"
    // for every verb that reads one file; an empty SMD prints no format it does not have.
    void pathsReadTheSameEverywhere()
    {
        QTemporaryDir dir;
        const QString empty = write(dir, "empty.qc", "");
        const auto check = test::runCli({QStringLiteral("check"), empty});
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(check.out.contains("empty.qc:1:1: error: file is empty [syntax.empty-file]"),
                 check.out.constData());
        QCOMPARE(test::runCli({QStringLiteral("info"), empty}).exitCode, 1);

        const QString sub = dir.filePath(QStringLiteral("folder"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
        const QByteArray isDir = "'" + sub.toUtf8() + "' is a directory";
        for (const QStringList& args :
             {QStringList{QStringLiteral("info"), sub},
              QStringList{QStringLiteral("info"), QStringLiteral("--no-checks"), sub},
              QStringList{QStringLiteral("pose"), sub},
              QStringList{QStringLiteral("convert"), sub, dir.filePath(QStringLiteral("o.smd"))}}) {
            const auto r = test::runCli(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(isDir),
                     (args.join(QLatin1Char(' ')).toUtf8() + ": " + r.err).constData());
        }
        const QString missing = dir.filePath(QStringLiteral("nope.smd"));
        const QByteArray noFile = "cannot open '" + missing.toUtf8() + "': No such file";
        for (const char* verb : {"info", "check", "pose"}) {
            const auto r = test::runCli({QLatin1String(verb), missing});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(noFile), r.err.constData());
        }

        const QString smd = write(dir, "empty.smd", "");
        const auto info = test::runCli({QStringLiteral("info"), smd});
        QCOMPARE(info.exitCode, 1);
        QVERIFY2(!info.out.contains("format (,"), info.out.constData());
        QVERIFY2(info.out.contains("format      unknown (nothing read)"), info.out.constData());
    }

    void convertFramesAndWeights()
    {
        QTemporaryDir dir;
        const QString ref = write(dir, "ref.smd", kRef);
        const QString anim = write(dir, "anim.smd", kAnim);
        const QString out = dir.filePath(QStringLiteral("cut.smd"));
        const auto r =
            test::runCli({QStringLiteral("convert"), anim, out, QStringLiteral("--frames=5:6")});
        QCOMPARE(r.exitCode, 0);
        const std::string text = test::readBytes(out);
        QVERIFY2(text.find("time 4") == std::string::npos, text.c_str());
        QVERIFY2(text.find("time 5\n") != std::string::npos &&
                     text.find("time 6\n") != std::string::npos,
                 text.c_str());
        const auto none =
            test::runCli({QStringLiteral("convert"), anim, dir.filePath(QStringLiteral("x.smd")),
                          QStringLiteral("--frames=20:30")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("no frame in the range (the file's frames are 4..6)"),
                 none.err.constData());

        const QString xout = dir.filePath(QStringLiteral("one.xanim_export"));
        const auto x =
            test::runCli({QStringLiteral("convert"), fixture("pose/cod_anim.xanim_export"), xout,
                          QStringLiteral("--frames=101:101")});
        QCOMPARE(x.exitCode, 0);
        const std::string xt = test::readBytes(xout);
        QVERIFY2(xt.find("NUMFRAMES 1") != std::string::npos &&
                     xt.find("FRAME 101") != std::string::npos &&
                     xt.find("FRAME 100") == std::string::npos,
                 xt.c_str());

        const QString wout = dir.filePath(QStringLiteral("compiled.smd"));
        const auto w = test::runCli(
            {QStringLiteral("convert"), ref, wout, QStringLiteral("--weights=compiled")});
        QCOMPARE(w.exitCode, 0);
        const std::string wt = test::readBytes(wout);
        QVERIFY2(wt.find(" 1 0 1\n") != std::string::npos && wt.find("0.03") == std::string::npos,
                 wt.c_str());
        const auto a = test::runCli(
            {QStringLiteral("convert"), ref, dir.filePath(QStringLiteral("authored.smd"))});
        QVERIFY2(test::readBytes(dir.filePath(QStringLiteral("authored.smd"))).find("0.03") !=
                     std::string::npos,
                 a.err.constData());
    }

    void colorAndVerbosity()
    {
        QTemporaryDir dir;
        const QString bad =
            write(dir, "bad.smd",
                  "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                  "0 0 0 0 0 0 0\nend\ntriangles\nskin.tga\n"
                  "0 0 0 0 0 0 1 0 0 1 7 1\n0 1 0 0 0 0 1 0 0\n0 0 1 0 0 0 1 0 0\nend\n");
        const auto always =
            test::runCli({QStringLiteral("check"), QStringLiteral("--color=always"), bad});
        QCOMPARE(always.exitCode, 1);
        QVERIFY2(always.out.contains("\x1b[1;31merror:\x1b[0m"), always.out.constData());
        const auto info =
            test::runCli({QStringLiteral("--color=always"), QStringLiteral("info"), bad});
        QVERIFY2(info.err.contains("\x1b[1;31merror:\x1b[0m"), info.err.constData());
        for (const char* when : {"--color=never", "--color=auto"}) { // auto: not a terminal here
            const auto r = test::runCli({QStringLiteral("check"), QLatin1String(when), bad});
            QVERIFY2(!r.out.contains('\x1b') && !r.err.contains('\x1b'), r.out.constData());
            QVERIFY(r.out.contains("error: vertex weighted to undeclared bone id 7"));
        }
        const auto badColor =
            test::runCli({QStringLiteral("check"), QStringLiteral("--color=sometimes"), bad});
        QCOMPARE(badColor.exitCode, 2);

        const auto quiet =
            test::runCli({QStringLiteral("info"), QStringLiteral("--verbose=quiet"), bad});
        QCOMPARE(quiet.exitCode, 1);
        QVERIFY2(quiet.err.isEmpty(), quiet.err.constData());
        const auto errorsOnly =
            test::runCli({QStringLiteral("info"), QStringLiteral("--verbose=error"),
                          fixture("checks/weights.sum-not-one.smd")});
        QVERIFY2(errorsOnly.err.isEmpty(), errorsOnly.err.constData());
        const auto warnings =
            test::runCli({QStringLiteral("info"), QStringLiteral("--verbose=warning"),
                          fixture("checks/weights.sum-not-one.smd")});
        QVERIFY2(warnings.err.contains("[weights.sum-not-one]"), warnings.err.constData());
        const auto checkQuiet =
            test::runCli({QStringLiteral("check"), QStringLiteral("--verbose=quiet"), bad});
        QVERIFY2(checkQuiet.err.isEmpty() && checkQuiet.out.contains("[weights.unknown-bone]"),
                 checkQuiet.err.constData());
        const auto badLevel =
            test::runCli({QStringLiteral("info"), QStringLiteral("--verbose=loud"), bad});
        QCOMPARE(badLevel.exitCode, 2);
    }

    void forceReader()
    {
        QTemporaryDir dir;
        const QString txt = write(dir, "model.txt", kRef);
        const auto plain = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), txt});
        const auto forced = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                          QStringLiteral("--force-reader=smd"), txt});
        QCOMPARE(forced.exitCode, 0);
        QCOMPARE(jsonArray(forced.out).at(0).toObject().value(QStringLiteral("triangles")).toInt(),
                 1);
        QVERIFY(plain.exitCode == 0 || plain.exitCode == 2); // by content: readable either way
        // a VTA read as a plain SMD, whatever its extension says
        const auto asSmd = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                         QStringLiteral("--force-reader=xmodel"), txt});
        QVERIFY2(asSmd.exitCode == 1, asSmd.err.constData()); // an SMD is no XMODEL
        const auto unknown =
            test::runCli({QStringLiteral("check"), QStringLiteral("--force-reader=obj"), txt});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown reader 'obj'"), unknown.err.constData());
        const QString out = dir.filePath(QStringLiteral("model.smdx"));
        QCOMPARE(test::runCli(
                     {QStringLiteral("convert"), QStringLiteral("--force-reader=smd"), txt, out})
                     .exitCode,
                 0);
        QCOMPARE(test::runCli({QStringLiteral("pose"), QStringLiteral("--force-reader=smd"), txt})
                     .exitCode,
                 0);
    }

    // Item 7: the profile's compiler, write.* ids for conversion loss, no GoldSrc notes on a
    // conversion under another profile, plural agreement.
    void words()
    {
        QTemporaryDir dir;
        // weights.duplicate-link under cod names the CoD tools
        const QString xm = write(
            dir, "dup.xmodel_export",
            "MODEL\nVERSION 6\nNUMBONES 1\nBONE 0 -1 \"tag_origin\"\nBONE 0\n"
            "OFFSET 0 0 0\nSCALE 1 1 1\nX 1 0 0\nY 0 1 0\nZ 0 0 1\nNUMVERTS 3\n"
            "VERT 0\nOFFSET 0 0 0\nBONES 2\nBONE 0 0.5\nBONE 0 0.5\n"
            "VERT 1\nOFFSET 1 0 0\nBONES 1\nBONE 0 1\nVERT 2\nOFFSET 0 1 0\nBONES 2\nBONE 0 "
            "1\nBONE 0 0\n"
            "NUMFACES 1\nTRI 0 0 0 0\n"
            "VERT 0\nNORMAL 0 0 1\nCOLOR 1 1 1 1\nUV 1 0 0\n"
            "VERT 2\nNORMAL 0 0 1\nCOLOR 1 1 1 1\nUV 1 0 1\n"
            "VERT 1\nNORMAL 0 0 1\nCOLOR 1 1 1 1\nUV 1 1 0\n"
            "NUMOBJECTS 1\nOBJECT 0 \"body\"\nNUMMATERIALS 1\nMATERIAL 0 \"skin\" \"Lambert\" "
            "\"skin.tga\"\n"
            "COLOR 0 0 0 1\nTRANSPARENCY 0 0 0 1\nAMBIENTCOLOR 0 0 0 1\nINCANDESCENCE 0 0 0 1\n"
            "COEFFS 0.8 0\nGLOW 0 0\nREFRACTIVE 6 1\nSPECULARCOLOR -1 -1 -1 1\n"
            "REFLECTIVECOLOR -1 -1 -1 1\nREFLECTIVE -1 -1\nBLINN -1 -1\nPHONG -1\n");
        const auto cod = test::runCli({QStringLiteral("check"), xm});
        QVERIFY2(cod.out.contains("the CoD tools sum them") && !cod.out.contains("studiomdl"),
                 cod.out.constData());
        QVERIFY2(cod.out.contains("(dropped by the CoD tools) [weights.zero-link]"),
                 cod.out.constData());
        const auto source =
            test::runCli({QStringLiteral("check"), QStringLiteral("--profile=source"), xm});
        QVERIFY2(source.out.contains("studiomdl sums them"), source.out.constData());

        // VTA shape names lost in SMDX: a write.* id
        const auto vta = test::runCli({QStringLiteral("convert"), sample("sample_flex.vta"),
                                       dir.filePath(QStringLiteral("flex.smdx"))});
        QCOMPARE(vta.exitCode, 0);
        QVERIFY2(vta.err.contains("flex shape names dropped; SMDX has none") &&
                     vta.err.contains("[write.data-dropped]") &&
                     !vta.err.contains("cod.unsupported"),
                 vta.err.constData());

        // a comment in a Source SMD raises no GoldSrc note when converted
        const QString commented = write(
            dir, "commented.smd",
            "// exported by hand\nversion 1\nnodes\n0 \"root\" -1\nend\nskeleton\n"
            "time 0\n0 0 0 0 0 0 0\nend\ntriangles\nskin.tga\n"
            "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 0 1 0 0 0 1 0 1 1 0 1\nend\n");
        const auto conv = test::runCli(
            {QStringLiteral("convert"), commented, dir.filePath(QStringLiteral("c.smdx"))});
        QCOMPARE(conv.exitCode, 0);
        QVERIFY2(!conv.err.contains("GoldSrc"), conv.err.constData());
        const auto gold =
            test::runCli({QStringLiteral("convert"), QStringLiteral("--profile=goldsrc"), commented,
                          dir.filePath(QStringLiteral("g.smdx"))});
        QVERIFY2(gold.err.contains("GoldSrc studiomdl has no comments"), gold.err.constData());

        // "1 warning", never "1 warnings"
        const QString oneFile = write(dir, "one.smd", oneWarning().c_str());
        const auto one = test::runCli({QStringLiteral("check"), oneFile});
        QVERIFY2(one.err.contains("0 errors, 1 warning, 0 notes in 1 file"), one.err.constData());
        const auto info = test::runCli({QStringLiteral("info"), oneFile});
        QVERIFY2(!info.out.contains("1 warnings") && !info.out.contains("(1 triangles)"),
                 info.out.constData());
    }
};

QTEST_APPLESS_MAIN(TstCliUx)
#include "tst_cli_ux.moc"
