// Issue 32: the Flex dock on a QC face. One row per controller (right_X / left_X on one row with
// L and R sliders), the shapes take the weights the % rules give, a raw shape still solos, and
// the eyes' target moves the eyelid shape through the eyes' pitch.
#include <QtTest/QtTest>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSlider>
#include <QtWidgets/QToolButton>

#include "app/document/document.h"
#include "app/widgets/flex_panel.h"
#include "tests/support/test_support.h"

using namespace rigscope;

class TstQcFace : public QObject {
    Q_OBJECT

private slots:
    void dockDrivesTheFace()
    {
        app::Document doc;
        app::FlexPanel panel;
        panel.setDocument(&doc);
        doc.open({test::fixturesDir() + QStringLiteral("/qc/face/face.qc")});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexNames(), (QStringList{QStringLiteral("smile"), QStringLiteral("frown"),
                                               QStringLiteral("jaw"), QStringLiteral("lid_down"),
                                               QStringLiteral("lid_up")}));
        QVERIFY(doc.qcFace() != nullptr);
        QCOMPARE(doc.controllerValues().size(), std::size_t(6));
        // smile's two controllers share a row: 6 sliders on 5 rows.
        QList<QSlider*> sliders =
            panel.findChildren<QSlider*>(QStringLiteral("compiledController"));
        QCOMPARE(sliders.size(), 6);
        QStringList names;
        for (QLabel* l : panel.findChildren<QLabel*>(QStringLiteral("name"))) {
            names << l->text();
        }
        QCOMPARE(names, (QStringList{QStringLiteral("smile (L / R)"), QStringLiteral("frown_smile"),
                                     QStringLiteral("jaw_drop"), QStringLiteral("blink"),
                                     QStringLiteral("eyes_updown")}));
        // The smile row: L (left_smile, controller 1) then R (right_smile, controller 0).
        QCOMPARE(sliders[0]->property("controller").toInt(), 1);
        QCOMPARE(sliders[1]->property("controller").toInt(), 0);
        sliders[1]->setValue(1000);             // right_smile 1
        sliders[0]->setValue(500);              // left_smile 0.5
        QCOMPARE(doc.flexWeight(0), 0.5f);      // left side
        QCOMPARE(doc.flexWeightRight(0), 1.0f); // right side
        // jaw_drop 1.6 (range 0..2): _open 1, jaw 1, the smile halves.
        sliders[3]->setValue(800);
        QVERIFY(qFuzzyCompare(doc.flexWeight(2), 1.0f));
        QVERIFY(qFuzzyCompare(doc.flexWeight(0), 0.25f));
        QVERIFY(qFuzzyCompare(doc.flexWeightRight(0), 0.5f));
        // blink 1 closes the lid (lid_down 1); the shape rows show it.
        sliders[4]->setValue(1000);
        QVERIFY(!doc.eyeTarget().set); // syncing the sliders leaves the eyes alone
        QVERIFY2(std::fabs(doc.flexWeight(3) - 1.0f) < 1e-5f,
                 qPrintable(QString::number(double(doc.flexWeight(3)))));
        QList<QDoubleSpinBox*> boxes = panel.findChildren<QDoubleSpinBox*>(QStringLiteral("value"));
        QCOMPARE(boxes.size(), 5);
        QVERIFY(std::fabs(boxes[3]->value() - 1.0) < 1e-3);
        sliders[4]->setValue(0);
        QVERIFY(doc.flexWeight(3) < 1e-5f);
        // Looking down pulls the lid down (a target 30 degrees below: lid_down 0.639275, see
        // tst_qc_flex).
        core::QcEyeTarget t;
        t.set = true;
        t.point = core::Vec3(-1, -4 - 100 * std::cos(0.5235988f), 10 - 100 * std::sin(0.5235988f));
        doc.setEyeTarget(t);
        QVERIFY(std::fabs(doc.flexWeight(3) - 0.639275f) < 1e-3f);
        QSlider* pitch = panel.findChild<QSlider*>(QStringLiteral("eyePitch"));
        QVERIFY(pitch != nullptr);
        // A raw shape still solos.
        for (QToolButton* b : panel.findChildren<QToolButton*>()) {
            if (b->text() == QStringLiteral("Solo")) {
                b->click();
                break;
            }
        }
        QCOMPARE(doc.flexWeight(0), 1.0f);
        QCOMPARE(doc.flexWeight(2), 0.0f);
    }
};

QTEST_MAIN(TstQcFace)
#include "tst_qc_face.moc"
