#include <cmath>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString fixture(const char* name)
{
    return test::fixturesDir() + QStringLiteral("/pose/") + QLatin1String(name);
}

// Runs `pose --json ...` and returns the bones by name.
QMap<QString, QJsonObject> poseJson(const QStringList& args, int expectedExit = 0,
                                    QByteArray* err = nullptr)
{
    QStringList full{QStringLiteral("pose"), QStringLiteral("--json")};
    full += args;
    const auto r = test::runCli(full);
    if (err != nullptr) {
        *err = r.err;
    }
    QMap<QString, QJsonObject> bones;
    if (r.exitCode != expectedExit) {
        qWarning() << "exit" << r.exitCode << r.err;
        return bones;
    }
    QJsonParseError pe{};
    const QJsonArray a = QJsonDocument::fromJson(r.out, &pe).array();
    if (pe.error != QJsonParseError::NoError) {
        qWarning() << pe.errorString() << r.out;
        return bones;
    }
    for (const QJsonValue& v : a) {
        bones.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
    }
    return bones;
}

bool near(const QJsonArray& a, const std::vector<double>& e, double tol = 1e-5)
{
    if (a.size() != static_cast<qsizetype>(e.size())) {
        return false;
    }
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (std::abs(a.at(i).toDouble() - e[static_cast<std::size_t>(i)]) > tol) {
            return false;
        }
    }
    return true;
}

QByteArray dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

const std::vector<double> kIdentity{1, 0, 0, 0, 1, 0, 0, 0, 1};
const std::vector<double> kRz90{0, -1, 0, 1, 0, 0, 0, 0, 1};
const std::vector<double> kRx90{1, 0, 0, 0, 0, -1, 0, 1, 0};
const std::vector<double> kRz90Rx90{0, 0, 1, 1, 0, 0, 0, 1, 0};

} // namespace

class TstPoseCli : public QObject {
    Q_OBJECT
private slots:
    // Non-sequential ids (9, 5, 2; a child declared before its parent), rotated parents.
    void smdBindPose()
    {
        const auto bones = poseJson({fixture("rig_ref.smd")});
        QCOMPARE(bones.size(), 3);
        const QJsonObject root = bones.value(QStringLiteral("Root"));
        QVERIFY(root.value(QStringLiteral("parent")).isNull());
        QVERIFY2(near(root.value(QStringLiteral("position")).toArray(), {0, 0, 1}), dump(root));
        QVERIFY2(near(root.value(QStringLiteral("rotation")).toArray(), kRz90), dump(root));
        const QJsonObject arm = bones.value(QStringLiteral("Arm"));
        QCOMPARE(arm.value(QStringLiteral("parent")).toString(), QStringLiteral("Root"));
        QVERIFY2(near(arm.value(QStringLiteral("position")).toArray(), {0, 2, 1}), dump(arm));
        const QJsonObject hand = bones.value(QStringLiteral("Hand"));
        QCOMPARE(hand.value(QStringLiteral("parent")).toString(), QStringLiteral("Arm"));
        QVERIFY2(near(hand.value(QStringLiteral("position")).toArray(), {0, 3, 1}), dump(hand));
        QVERIFY2(near(hand.value(QStringLiteral("rotation")).toArray(), kRz90Rx90), dump(hand));
        QVERIFY(near(hand.value(QStringLiteral("localPosition")).toArray(), {1, 0, 0}));
    }

    // The animation omits "Arm" (holds its rest pose), adds "Prop", writes "HAND" in capitals
    // and only changed bones per frame (carried forward). It hangs HAND under root, the
    // reference under Arm: HAND keeps its place in the animation's world (1 along root's +X),
    // re-expressed under Arm as studiomdl compiles it (its key as a local under Arm put it 2
    // further out, at 0,3,1 in frame 0).
    void smdAnimationFrames_data()
    {
        QTest::addColumn<QString>("frame");
        QTest::addColumn<std::vector<double>>("rootPos");
        QTest::addColumn<std::vector<double>>("handPos");
        QTest::addColumn<std::vector<double>>("handRot");
        QTest::newRow("0") << QStringLiteral("0") << std::vector<double>{0, 0, 1}
                           << std::vector<double>{0, 1, 1} << kRz90Rx90;
        QTest::newRow("1") << QStringLiteral("1") << std::vector<double>{0, 0, 0}
                           << std::vector<double>{1, 0, 0} << kRx90;
        QTest::newRow("2") << QStringLiteral("2") << std::vector<double>{0, 0, 0}
                           << std::vector<double>{1, 0, 0} << kIdentity;
        QTest::newRow("-1 = last") << QStringLiteral("-1") << std::vector<double>{0, 0, 0}
                                   << std::vector<double>{1, 0, 0} << kIdentity;
    }
    void smdAnimationFrames()
    {
        QFETCH(QString, frame);
        QFETCH(std::vector<double>, rootPos);
        QFETCH(std::vector<double>, handPos);
        QFETCH(std::vector<double>, handRot);
        QByteArray err;
        const auto bones = poseJson({fixture("rig_ref.smd"), QStringLiteral("--anim"),
                                     fixture("rig_anim.smd"), QStringLiteral("--frame=") + frame},
                                    0, &err);
        QCOMPARE(bones.size(), 3);
        QVERIFY(
            near(bones.value(QStringLiteral("Root")).value(QStringLiteral("position")).toArray(),
                 rootPos));
        const QJsonObject hand = bones.value(QStringLiteral("Hand"));
        QVERIFY2(near(hand.value(QStringLiteral("position")).toArray(), handPos), dump(hand));
        QVERIFY2(near(hand.value(QStringLiteral("rotation")).toArray(), handRot), dump(hand));
        QVERIFY(!bones.value(QStringLiteral("Arm")).value(QStringLiteral("animated")).toBool());
        // missing bones are listed on stderr
        QVERIFY2(err.contains("'Prop' is not in reference 'rig_ref.smd' [xref.anim-bone-missing]"),
                 err);
        QVERIFY2(err.contains("('Arm') [xref.ref-bone-missing]"), err);
    }

    void linearBetweenFrames()
    {
        const auto bones =
            poseJson({fixture("rig_ref.smd"), QStringLiteral("--anim"), fixture("rig_anim.smd"),
                      QStringLiteral("--frame"), QStringLiteral("0.5"),
                      QStringLiteral("--interpolation=linear")});
        const QJsonObject root = bones.value(QStringLiteral("Root"));
        const double h = std::sqrt(0.5);
        QVERIFY2(near(root.value(QStringLiteral("position")).toArray(), {0, 0, 0.5}), dump(root));
        QVERIFY2(
            near(root.value(QStringLiteral("rotation")).toArray(), {h, -h, 0, h, h, 0, 0, 0, 1}),
            dump(root));
        // stepped (the default) holds frame 0
        const auto stepped =
            poseJson({fixture("rig_ref.smd"), QStringLiteral("--anim"), fixture("rig_anim.smd"),
                      QStringLiteral("--frame"), QStringLiteral("0.5")});
        QVERIFY(
            near(stepped.value(QStringLiteral("Root")).value(QStringLiteral("position")).toArray(),
                 {0, 0, 1}));
    }

    void codBindAndParts()
    {
        const auto bind = poseJson({fixture("cod_ref.xmodel_export")});
        QCOMPARE(bind.size(), 3);
        const QJsonObject head = bind.value(QStringLiteral("j_head"));
        QVERIFY2(near(head.value(QStringLiteral("position")).toArray(), {0, 0, 20}), dump(head));
        QVERIFY2(near(head.value(QStringLiteral("rotation")).toArray(), kRz90), dump(head));
        QVERIFY(near(head.value(QStringLiteral("localPosition")).toArray(), {0, 0, 10}));

        QByteArray err;
        const auto posed = poseJson({fixture("cod_ref.xmodel_export"), QStringLiteral("--anim"),
                                     fixture("cod_anim.xanim_export"), QStringLiteral("--frame"),
                                     QStringLiteral("1")},
                                    0, &err);
        const QJsonObject origin = posed.value(QStringLiteral("tag_origin"));
        QVERIFY2(near(origin.value(QStringLiteral("position")).toArray(), {5, 0, 0}), dump(origin));
        QVERIFY2(near(origin.value(QStringLiteral("rotation")).toArray(), kRz90), dump(origin));
        // j_spine is no part: its bind local transform under the posed origin
        const QJsonObject spine = posed.value(QStringLiteral("j_spine"));
        QVERIFY2(near(spine.value(QStringLiteral("position")).toArray(), {5, 0, 10}), dump(spine));
        QVERIFY2(near(spine.value(QStringLiteral("rotation")).toArray(), kRz90), dump(spine));
        const QJsonObject head2 = posed.value(QStringLiteral("j_head"));
        QVERIFY2(near(head2.value(QStringLiteral("position")).toArray(), {1, 1, 1}), dump(head2));
        QVERIFY2(near(head2.value(QStringLiteral("rotation")).toArray(), kIdentity), dump(head2));
        QVERIFY2(err.contains("part 'j_gun' animates no bone"), err);
        QVERIFY2(err.contains("('j_spine') [xref.ref-bone-missing]"), err);
    }

    // An animation file on its own plays its own frames (XANIM parts are free axes).
    void animationAlone()
    {
        const auto parts =
            poseJson({fixture("cod_anim.xanim_export"), QStringLiteral("--frame=1")});
        QCOMPARE(parts.size(), 3);
        const QJsonObject origin = parts.value(QStringLiteral("TAG_ORIGIN"));
        QVERIFY2(near(origin.value(QStringLiteral("position")).toArray(), {5, 0, 0}), dump(origin));
        QVERIFY2(near(origin.value(QStringLiteral("rotation")).toArray(), kRz90), dump(origin));
        const auto smd = poseJson({fixture("rig_anim.smd"), QStringLiteral("--frame=1")});
        QVERIFY(near(smd.value(QStringLiteral("HAND")).value(QStringLiteral("position")).toArray(),
                     {1, 0, 0}));
    }

    // --anim NAME poses a sequence of a QC project (or a compiled model) by name when no file
    // has that name (issue 29: `pose X.mdl --anim SEQ --frame N`); an unknown name lists them.
    void sequenceByName()
    {
        const QString qc = test::fixturesDir() + QStringLiteral("/qc/jiggle/tail.qc");
        const auto swing =
            poseJson({qc, QStringLiteral("--anim=SWING"), QStringLiteral("--frame=2")});
        QVERIFY(
            near(swing.value(QStringLiteral("root")).value(QStringLiteral("position")).toArray(),
                 {10, 0, 0}));
        const auto text = test::runCli({QStringLiteral("pose"), qc, QStringLiteral("--anim=swing"),
                                        QStringLiteral("--frame=2")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.startsWith("# " + qc.toUtf8() + ": sequence 'swing', frame 2"), text.out);
        const auto bad = test::runCli({QStringLiteral("pose"), qc, QStringLiteral("--anim=walk")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("no file or sequence 'walk' (sequences of '" + qc.toUtf8() +
                                  "': 'swing')"),
                 bad.err);
    }

    void textOutput()
    {
        const auto r = test::runCli({QStringLiteral("pose"), fixture("rig_ref.smd")});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY2(lines.at(0).endsWith("rig_ref.smd: bind pose"), lines.at(0));
        QVERIFY2(lines.contains("2 \"Hand\" \"Arm\" | 0 3 1 | 0 0 1  1 0 0  0 1 0"), r.out);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no file") << QStringList{};
        QTest::newRow("missing file") << QStringList{fixture("nope.smd")};
        QTest::newRow("two animations")
            << QStringList{fixture("rig_ref.smd"), fixture("rig_anim.smd"),
                           QStringLiteral("--anim"), fixture("rig_anim.smd")};
        QTest::newRow("frame out of range")
            << QStringList{fixture("rig_ref.smd"), QStringLiteral("--anim"),
                           fixture("rig_anim.smd"), QStringLiteral("--frame=3")};
        QTest::newRow("frame not a number")
            << QStringList{fixture("rig_ref.smd"), QStringLiteral("--frame=x")};
        QTest::newRow("bind pose has one frame")
            << QStringList{fixture("rig_ref.smd"), QStringLiteral("--frame=1")};
        QTest::newRow("bad interpolation")
            << QStringList{fixture("rig_ref.smd"), QStringLiteral("--interpolation=cubic")};
        QTest::newRow("unknown option")
            << QStringList{fixture("rig_ref.smd"), QStringLiteral("--bogus")};
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        args.prepend(QStringLiteral("pose"));
        const auto r = test::runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!r.err.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TstPoseCli)
#include "tst_pose_cli.moc"
