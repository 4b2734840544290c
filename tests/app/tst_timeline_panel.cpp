// Timeline dock: loop modes, speed, fps per animation, notetrack markers, and stepping through
// VTA shapes.
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QToolButton>

#include <cmath>

#include <QtCore/QTemporaryDir>

#include "app/document/document.h"
#include "app/document/frame_names.h"
#include "app/widgets/timeline_panel.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString sample(const char* name)
{
    return test::samplesDir() + QLatin1Char('/') + QLatin1String(name);
}

// A document with `files` loaded and a timeline bound to it.
struct Loaded {
    app::Document doc;
    app::TimelinePanel panel;
    explicit Loaded(const QStringList& files)
    {
        panel.setDocument(&doc);
        doc.open(files);
    }
};

QComboBox* animationBox(app::TimelinePanel& panel)
{
    return panel.findChildren<QComboBox*>().value(0);
}

} // namespace

class TstTimelinePanel : public QObject {
    Q_OBJECT
private slots:
    void loopModes()
    {
        Loaded l({sample("sample_ref.smd"), sample("sample_anim.smd")});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        QCOMPARE(doc.frameCount(), 31);

        doc.setCurrentFrame(29);
        panel.advance(3); // loop: 29 -> 30 -> 0 -> 1
        QCOMPARE(doc.currentFrame(), 1);

        panel.cycleLoopMode();
        QCOMPARE(panel.loopMode(), app::LoopMode::Once);
        doc.setCurrentFrame(28);
        panel.setPlaying(true);
        panel.advance(5); // once: stops on the last frame
        QCOMPARE(doc.currentFrame(), 30);
        QVERIFY(!panel.isPlaying());
        panel.step(1); // manual steps do not wrap in Once
        QCOMPARE(doc.currentFrame(), 30);

        panel.cycleLoopMode();
        QCOMPARE(panel.loopMode(), app::LoopMode::PingPong);
        doc.setCurrentFrame(29);
        panel.advance(3); // 30, then back: 29, 28
        QCOMPARE(doc.currentFrame(), 28);
        panel.advance(2); // still going back
        QCOMPARE(doc.currentFrame(), 26);
        doc.setCurrentFrame(1);
        panel.advance(3); // 0, then forward: 1, 2
        QCOMPARE(doc.currentFrame(), 2);

        panel.cycleLoopMode();
        QCOMPARE(panel.loopMode(), app::LoopMode::Loop);
    }

    void playsBackwards()
    {
        Loaded l({sample("sample_ref.smd"), sample("sample_anim.smd")});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);

        doc.setCurrentFrame(1);
        panel.setPlaying(true, true);
        QVERIFY(panel.isPlayingBackwards());
        panel.advance(3); // loop backwards: 1 -> 0 -> 30 -> 29
        QCOMPARE(doc.currentFrame(), 29);
        panel.setPlaying(false);
        QVERIFY(!panel.isPlayingBackwards());

        panel.setLoopMode(app::LoopMode::Once);
        doc.setCurrentFrame(0);
        panel.setPlaying(true, true); // at the start: backwards from the end
        QCOMPARE(doc.currentFrame(), 30);
        panel.advance(5);
        QCOMPARE(doc.currentFrame(), 25);
        panel.advance(40); // stops on the first frame
        QCOMPARE(doc.currentFrame(), 0);
        QVERIFY(!panel.isPlaying());
        panel.setPlaying(true); // Space: forward again
        QVERIFY(panel.isPlaying() && !panel.isPlayingBackwards());
        panel.advance(2);
        QCOMPARE(doc.currentFrame(), 2);
        panel.setPlaying(false);

        panel.setLoopMode(app::LoopMode::PingPong);
        doc.setCurrentFrame(1);
        panel.setPlaying(true, true);
        panel.advance(3); // 0, then forward: 1, 2
        QCOMPARE(doc.currentFrame(), 2);
        panel.setPlaying(false);

        // Interpolated, backwards: the playhead runs down from 10 toward 9.
        panel.setLoopMode(app::LoopMode::Loop);
        doc.setInterpolate(true);
        doc.setCurrentFrame(10);
        panel.setSpeed(0.1);
        std::vector<double> seen;
        connect(&doc, &app::Document::frameChanged, this, [&] { seen.push_back(doc.playhead()); });
        panel.setPlaying(true, true);
        QTRY_VERIFY_WITH_TIMEOUT(!seen.empty() && seen.back() < 9.95 && seen.back() > 9.0, 5000);
        panel.setPlaying(false);
        for (std::size_t i = 1; i < seen.size(); ++i) {
            QVERIFY(seen[i] <= seen[i - 1]);
        }
    }

    void interpolatedPose()
    {
        // sample_anim turns segment2 about its local Y only: 0.094905 rad at frame 2, 0.137150
        // at frame 3. Slerp halfway is the mean angle; without Interpolate, frame 2's.
        Loaded l({sample("sample_ref.smd"), sample("sample_anim.smd")});
        app::Document& doc = l.doc;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        auto segment2Y = [&doc] {
            const auto pose = doc.currentPose();
            const Eigen::Matrix3f local = (pose.at(1).inverse() * pose.at(2)).linear();
            return double(std::atan2(local(0, 2), local(0, 0)));
        };
        QSignalSpy changed(&doc, &app::Document::frameChanged);
        doc.setPlayhead(2.5);
        QCOMPARE(doc.currentFrame(), 2);
        QCOMPARE(doc.playhead(), 2.0); // off: whole frames
        QVERIFY(std::abs(segment2Y() - 0.094905) < 1e-5);

        QSignalSpy toggled(&doc, &app::Document::interpolateChanged);
        doc.setInterpolate(true);
        QCOMPARE(toggled.count(), 1);
        const int before = int(changed.count());
        doc.setPlayhead(2.5);
        QCOMPARE(changed.count(), before + 1);
        QCOMPARE(doc.currentFrame(), 2);
        QCOMPARE(doc.playhead(), 2.5);
        QVERIFY2(std::abs(segment2Y() - (0.094905 + 0.137150) / 2) < 1e-5,
                 qPrintable(QString::number(segment2Y())));
        doc.setPlayhead(2.25);
        QVERIFY(std::abs(segment2Y() - (0.094905 + 0.25 * (0.137150 - 0.094905))) < 1e-5);
        doc.setPlayhead(99.0); // clamped to the last frame
        QCOMPARE(doc.playhead(), 30.0);
        doc.setPlayhead(-3.0);
        QCOMPARE(doc.playhead(), 0.0);

        // A whole-frame move or turning Interpolate off lands back on a frame.
        doc.setPlayhead(2.5);
        doc.setCurrentFrame(2);
        QCOMPARE(doc.playhead(), 2.0);
        QVERIFY(std::abs(segment2Y() - 0.094905) < 1e-5);
        doc.setPlayhead(3.75);
        doc.setInterpolate(false);
        QCOMPARE(doc.playhead(), 3.0);
        QCOMPARE(toggled.count(), 2);
    }

    void interpolatedPlayback()
    {
        Loaded l({sample("sample_ref.smd"), sample("sample_anim.smd")});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        QToolButton* toggle = nullptr;
        for (QToolButton* b : panel.findChildren<QToolButton*>()) {
            if (b->isCheckable()) {
                toggle = b;
            }
        }
        QVERIFY(toggle);
        QCOMPARE(toggle->text(), QStringLiteral("Interpolate"));
        toggle->click();
        QVERIFY(doc.interpolate());
        QVERIFY(panel.interpolate());
        doc.setInterpolate(false);
        QVERIFY(!toggle->isChecked()); // the button follows the document
        doc.setInterpolate(true);
        QVERIFY(toggle->isChecked());

        // Forward at 0.1 x 30 fps: the playhead passes between frames 4 and 5, never back.
        std::vector<double> seen;
        connect(&doc, &app::Document::frameChanged, this, [&] { seen.push_back(doc.playhead()); });
        doc.setCurrentFrame(4);
        panel.setSpeed(0.1);
        panel.setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(!seen.empty() && seen.back() > 4.05 && seen.back() < 5.0, 5000);
        panel.setPlaying(false);
        for (std::size_t i = 1; i < seen.size(); ++i) {
            QVERIFY(seen[i] >= seen[i - 1]);
        }

        // Ping-pong on its way back: from 28 toward 27.
        panel.setLoopMode(app::LoopMode::PingPong);
        doc.setCurrentFrame(29);
        panel.advance(3); // 30, then back: 29, 28
        QCOMPARE(doc.currentFrame(), 28);
        seen.clear();
        panel.setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(!seen.empty() && seen.back() < 27.95 && seen.back() > 27.0, 5000);
        panel.setPlaying(false);
        for (std::size_t i = 1; i < seen.size(); ++i) {
            QVERIFY(seen[i] <= seen[i - 1]);
        }
    }

    void speedAndFps()
    {
        Loaded l({sample("sample_ref.smd"), sample("sample_anim.smd")});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        QCOMPARE(panel.speed(), 1.0);
        panel.setSpeed(8.0);
        QCOMPARE(panel.speed(), 4.0);
        panel.setSpeed(0.01);
        QCOMPARE(panel.speed(), 0.1);
        QCOMPARE(panel.fps(), 30.0); // SMD has no frame rate
        panel.setFps(24.0);
        QCOMPARE(panel.fps(), 24.0);
        doc.setCurrentAnimation(-1);
        QCOMPARE(panel.fps(), 30.0);
        doc.setCurrentAnimation(0); // the override is kept for the animation
        QCOMPARE(panel.fps(), 24.0);
    }

    void notetrackMarkers()
    {
        Loaded l({test::fixturesDir() + QStringLiteral("/xanim/valid/walk_perpart.xanim_export")});
        app::Document& doc = l.doc;
        const app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        const core::Animation& a = doc.animations()[0].animation(doc.files());
        QVERIFY(!a.notes.empty());
        QVERIFY(panel.fps() == double(a.fps)); // XANIM FRAMERATE
        const auto& markers = panel.scrubBar()->markers();
        QCOMPARE(markers.size(), a.notes.size());
        for (std::size_t i = 0; i < markers.size(); ++i) {
            // the marker sits at the index whose time is the note's frame number
            const int index = markers[i].index;
            QVERIFY(index >= 0 && std::size_t(index) < a.times.size());
            QCOMPARE(a.times[std::size_t(index)], a.notes[i].frame);
            QCOMPARE(markers[i].text.toStdString(), a.notes[i].text);
            // Named by the file's own frame number (issue 15), not the index.
            QCOMPARE(markers[i].frame, app::frameNumberText(a.notes[i].frame));
        }
        // The readout names the file's frame (XANIM FRAME 100…), the range likewise.
        doc.setCurrentFrame(1);
        QString readout;
        for (const QLabel* label : panel.findChildren<QLabel*>()) {
            if (label->text().startsWith(QStringLiteral("frame "))) {
                readout = label->text();
            }
        }
        QVERIFY2(readout.startsWith(QStringLiteral("frame %1 (%2) · ")
                                        .arg(app::frameNumberText(a, 1), app::frameRangeText(a))),
                 qPrintable(readout));
        QVERIFY2(readout.startsWith(QStringLiteral("frame 101 (100–102)")), qPrintable(readout));
    }

    void stepsThroughFlexShapes()
    {
        Loaded l({sample("sample_ref.smd"), sample("sample_flex.vta")});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexNames().size(), 3);
        QComboBox* box = animationBox(panel);
        QVERIFY(box);
        QCOMPARE(box->count(), 2); // rest pose, flex shapes
        box->setCurrentIndex(1);
        QVERIFY(panel.isFlexMode());
        QCOMPARE(panel.shapeFrame(), 0);
        QCOMPARE(doc.flexWeight(0), 1.0f);
        QCOMPARE(doc.flexWeight(1), 0.0f);
        panel.step(2); // shape 2 solo
        QCOMPARE(panel.shapeFrame(), 2);
        QCOMPARE(doc.flexWeight(0), 0.0f);
        QCOMPARE(doc.flexWeight(2), 1.0f);
        panel.advance(1); // loop back to shape 0
        QCOMPARE(panel.shapeFrame(), 0);
        box->setCurrentIndex(0); // leaving resets the weights
        QVERIFY(!panel.isFlexMode());
        QCOMPARE(doc.flexWeight(0), 0.0f);
    }

    // Issue 27: the frame box takes and shows the file's frame numbers, as the readout does
    // (typing 32 in an animation written from time 30 shows frame 32, not index 32).
    void frameBoxTakesFileNumbers()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("late.smd"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\n");
            for (int t = 30; t <= 40; ++t) {
                f.write(QByteArray("time ") + QByteArray::number(t) + "\n0 " +
                        QByteArray::number(t) + " 0 0 0 0 0\n");
            }
            f.write("end\n");
        }
        Loaded l({path});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        auto* box = panel.findChild<QSpinBox*>(QStringLiteral("frameBox"));
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("30"));
        doc.setCurrentFrame(4);
        QCOMPARE(box->text(), QStringLiteral("34"));
        panel.show();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("37"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(doc.currentFrame(), 7);
        QCOMPARE(box->text(), QStringLiteral("37"));
        // Outside the file's range: the nearest end.
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("7"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(doc.currentFrame(), 0);
        QCOMPARE(box->text(), QStringLiteral("30"));
        QString readout;
        for (const QLabel* label : panel.findChildren<QLabel*>()) {
            if (label->text().startsWith(QStringLiteral("frame "))) {
                readout = label->text();
            }
        }
        QVERIFY2(readout.startsWith(QStringLiteral("frame 30 (30–40)")), qPrintable(readout));
    }

    // Issue 27: the scrubber keeps a usable width beside a long readout, down to the panel's
    // minimum width; the readout elides instead (its whole text in the tooltip).
    void scrubberKeepsItsWidth()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(
            QStringLiteral("a_very_long_animation_file_name_as_exporters_write_them_idle_01.smd"));
        QVERIFY(QFile::copy(sample("sample_anim.smd"), path));
        Loaded l({sample("sample_ref.smd"), path});
        app::Document& doc = l.doc;
        app::TimelinePanel& panel = l.panel;
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        panel.show();
        for (const int width : {1400, panel.minimumSizeHint().width()}) {
            panel.resize(width, panel.sizeHint().height());
            QCoreApplication::processEvents();
            QVERIFY2(panel.scrubBar()->width() >= 180,
                     qPrintable(QStringLiteral("at %1 px: scrubber %2 px")
                                    .arg(width)
                                    .arg(panel.scrubBar()->width())));
        }
        QVERIFY2(panel.minimumSizeHint().width() <= 1050,
                 qPrintable(QString::number(panel.minimumSizeHint().width())));
    }
};

QTEST_MAIN(TstTimelinePanel)
#include "tst_timeline_panel.moc"
