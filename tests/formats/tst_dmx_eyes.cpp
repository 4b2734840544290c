// Issue 32: a DMX model's DmeEyeball nodes (movieobjects' DmeEyeball: a DmeDag with diameter,
// angle and pupilScale), found under the joint that carries them, at their bind position.
#include <QtTest/QtTest>

#include "core/formats/dmx/dmx_eyes.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

class TstDmxEyes : public QObject {
    Q_OBJECT
private slots:
    void eyeballsUnderTheHead()
    {
        const QString path = test::fixturesDir() + QStringLiteral("/dmx/eyes/eyes_head.dmx");
        const ReadResult r = test::readPath(path);
        QVERIFY(r.hasModel);
        QCOMPARE(r.model.skeleton.size(), std::size_t(2)); // root, head: the eyes are no joints
        const std::vector<DmxEyeball> eyes = dmxEyeballs(test::readBytes(path), r.model.skeleton);
        QCOMPARE(eyes.size(), std::size_t(2));
        QCOMPARE(eyes[0].name, std::string("eye_right"));
        QCOMPARE(eyes[0].bone, std::string("head"));
        QCOMPARE(eyes[0].joint, 1);
        // The head sits at (0, 0, 10); the eye 1.5 right, 3 ahead (-Y) and 2 up of it.
        QVERIFY((eyes[0].position - Vec3(-1.5f, -3, 12)).norm() < 1e-5f);
        QVERIFY((eyes[1].position - Vec3(1.5f, -3, 12)).norm() < 1e-5f);
        QCOMPARE(eyes[1].diameter, 1.2f);
        QCOMPARE(eyes[1].angle, 3.0f);
        QCOMPARE(eyes[1].pupilScale, 0.5f);
        QVERIFY(eyes[0].where.line > 0);
    }

    // Files without eyeballs and bad bytes give none (and never crash).
    void noneElsewhere()
    {
        const QString tiny = test::fixturesDir() + QStringLiteral("/dmx/valid/tiny_kv2.dmx");
        QVERIFY(dmxEyeballs(test::readBytes(tiny), test::readPath(tiny).model.skeleton).empty());
        QVERIFY(dmxEyeballs("DmeEyeball", {}).empty());
        QVERIFY(
            dmxEyeballs("<!-- dmx encoding keyvalues2 1 format model 1 -->\n\"DmeEyeball\" {", {})
                .empty());
    }
};

QTEST_MAIN(TstDmxEyes)
#include "tst_dmx_eyes.moc"
