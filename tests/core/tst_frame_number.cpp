#include <QtTest/QtTest>

#include "core/model/frame_number.h"

using namespace rigscope::core;

class TstFrameNumber : public QObject {
    Q_OBJECT
private slots:
    void fileNumbersAreTheFilesOwn()
    {
        Animation a;
        a.jointCount = 0;
        for (double t : {260.0, 261.0, 262.0, 264.0}) {
            a.appendFrame(t, {});
        }
        QCOMPARE(fileFrameNumber(a, 0), 260.0);
        QCOMPARE(fileFrameNumber(a, 3), 264.0);
        QCOMPARE(fileFrameNumber(a, 7), 7.0); // out of range: the index itself
        QCOMPARE(fileFrameNumber(a, -1), -1.0);
        QCOMPARE(frameIndexOfFileNumber(a, 262.0), std::optional<int>(2));
        QCOMPARE(frameIndexOfFileNumber(a, 264.0), std::optional<int>(3));
        QVERIFY(!frameIndexOfFileNumber(a, 263.0)); // a gap
        QVERIFY(!frameIndexOfFileNumber(a, 0.0));
        QCOMPARE(fileFrameLabel(a, 1), std::string("frame 261"));
        QCOMPARE(fileFrameRange(a), std::string("260..264"));
    }

    void fractionalNumbers()
    {
        Animation a;
        a.appendFrame(0.5, {});
        a.appendFrame(1.25, {});
        QCOMPARE(fileFrameText(a, 1), std::string("1.25"));
        QCOMPARE(frameIndexOfFileNumber(a, 0.5), std::optional<int>(0));
        QCOMPARE(fileFrameRange(Animation{}), std::string());
    }
};

QTEST_APPLESS_MAIN(TstFrameNumber)
#include "tst_frame_number.moc"
