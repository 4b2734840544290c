// Bone and attachment names do not pile up (issue 27): an attachment's name goes below its
// anchor, a bone's above; names at one place are stacked, one row each.
#include <QtTest/QtTest>

#include "render/labels.h"

using namespace rigscope;

class TstLabelLayout : public QObject {
    Q_OBJECT
private slots:
    void attachmentsDoNotCoverBoneNames()
    {
        const QVector3D at(10, -2, 55);
        std::vector<render::Label> labels = {
            {at, QStringLiteral("ValveBiped.Bip01_R_Hand")},
            {at, QStringLiteral("anim_attachment_RH"), Qt::yellow, true},
            {at, QStringLiteral("ValveBiped.weapon_bone")},
            {at, QStringLiteral("Rhand"), Qt::yellow, true},
            {QVector3D(40, 0, 0), QStringLiteral("ValveBiped.Bip01_Pelvis")},
        };
        const std::vector<QRectF> boxes = render::labelBoxes(labels);
        QCOMPARE(boxes.size(), labels.size());
        for (std::size_t i = 0; i < 4; ++i) {
            for (std::size_t k = i + 1; k < 4; ++k) {
                QVERIFY2(!boxes[i].intersects(boxes[k]),
                         qPrintable(labels[i].text + QStringLiteral(" / ") + labels[k].text));
            }
        }
        // Bone names above the anchor, attachment names below it.
        QVERIFY(boxes[0].bottom() <= 0);
        QVERIFY(boxes[2].bottom() <= 0);
        QVERIFY(boxes[1].top() >= 0);
        QVERIFY(boxes[3].top() >= 0);
        // A label alone at its place keeps the first row.
        QCOMPARE(boxes[4].top(), boxes[0].top());
        QVERIFY(boxes[0].width() > boxes[3].width());
    }
};

QTEST_MAIN(TstLabelLayout)
#include "tst_label_layout.moc"
