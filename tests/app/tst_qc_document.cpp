// QC projects in the viewer (issue 17): a .qc opens as the compiled model with one animation
// per sequence; the Bodygroups dock lists the project (missing files in red) and its choices
// and skin drive the shown model; --bodygroup / --skin on the command line.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeWidget>

#include "app/document/command_line.h"
#include "app/qt_convert.h"
#include "core/ops/check.h"
#include "app/document/document.h"
#include "app/document/qc_document.h"
#include "app/widgets/bodygroups_panel.h"
#include "app/widgets/files_panel.h"
#include "core/ops/pose.h"
#include "core/ops/qc_ops.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

QString heroQc()
{
    return test::fixturesDir() + QStringLiteral("/qc/source/hero.qc");
}

int redRows(QTreeWidgetItem* item)
{
    int n = item->foreground(0).color() == Qt::red ? 1 : 0;
    for (int i = 0; i < item->childCount(); ++i) {
        n += redRows(item->child(i));
    }
    return n;
}

} // namespace

class TstQcDocument : public QObject {
    Q_OBJECT
private slots:
    void opensTheCompiledModel()
    {
        app::Document doc;
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(doc.qcProject());
        const auto m = doc.primaryModel();
        QVERIFY(m);
        QCOMPARE(m->format, std::string("qc"));
        QCOMPARE(m->skeleton.size(), std::size_t(5));
        QCOMPARE(m->mesh.triangleCount(), std::size_t(10)); // first choice of each group
        QCOMPARE(doc.animations().size(), std::size_t(4));
        QCOMPARE(doc.animations()[3].name, QStringLiteral("run"));
        // The delta sequence says so in the timeline; the others do not.
        QCOMPARE(app::qcSequenceNote(*doc.qcProject(), doc.animations()[2].index),
                 QStringLiteral(" · delta"));
        QCOMPARE(app::qcSequenceNote(*doc.qcProject(), doc.animations()[3].index), QString());
        doc.setCurrentAnimation(3);
        QCOMPARE(doc.frameCount(), 3);
        QCOMPARE(doc.flexNames().size(), 1); // hero_head.vta's shape, through the compiled model
    }

    // Issue 27 item 2: the shapes of a `$model` DMX reach the Flex dock and move the model.
    void dmxHeadShapesReachTheFlexDock()
    {
        app::Document doc;
        doc.open({test::fixturesDir() + QStringLiteral("/qc/dmx_face/face.qc")});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexNames(), (QStringList{QStringLiteral("smile"), QStringLiteral("blink")}));
        doc.setFlexWeight(1, 1.0f);
        const std::vector<core::Vec3> off = doc.evaluator()->morphOffsets(doc.flexSetting());
        const auto m = doc.primaryModel();
        QCOMPARE(off.size(), m->mesh.pointCount());
        int moved = 0;
        for (std::size_t p = 0; p < off.size(); ++p) {
            if (!off[p].isZero()) {
                QVERIFY(m->mesh.pointPositions[p].isApprox(core::Vec3(-1, 0, 0)));
                QVERIFY(off[p].isApprox(core::Vec3(0, 0, 2)));
                ++moved;
            }
        }
        QCOMPARE(moved, 2); // the head's two corners at (-1, 0, 0)
    }

    void bodygroupsDrivesTheModel()
    {
        app::Document doc;
        app::BodygroupsPanel panel;
        panel.setDocument(&doc);
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(panel.choiceBoxes().size(), std::size_t(3));
        QComboBox* helmet = panel.choiceBoxes()[1];
        QCOMPARE(helmet->count(), 2);
        QCOMPARE(helmet->itemText(1), QStringLiteral("blank"));
        helmet->setCurrentIndex(1);
        QVERIFY(doc.isLoading());
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.qcView().choices, (std::vector<int>{0, 1, 0}));
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(8));
        QCOMPARE(doc.animations().size(), std::size_t(4)); // kept through the reload
        // The panel was rebuilt with the choice kept.
        QCOMPARE(panel.choiceBoxes()[1]->currentIndex(), 1);
        panel.skinBox()->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.primaryModel()->mesh.materials[0].name, std::string("hero_skin_red"));
    }

    void filesDockShowsTheProject()
    {
        app::Document doc;
        app::FilesPanel panel;
        panel.setDocument(&doc);
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        // QC → includes, bodygroups, sequences, other files; nothing missing.
        QCOMPARE(panel.tree()->topLevelItemCount(), 1);
        QTreeWidgetItem* root = panel.tree()->topLevelItem(0);
        QCOMPARE(root->text(0), QStringLiteral("hero.qc"));
        QCOMPARE(redRows(root), 0);
        QCOMPARE(root->childCount(), 4);
        QTreeWidgetItem* includes = root->child(0);
        QCOMPARE(includes->text(0), QStringLiteral("includes (2)"));
        QCOMPARE(includes->childCount(), 2);
        QCOMPARE(includes->child(0)->text(0), QStringLiteral("hero_common.qci"));
        QCOMPARE(includes->child(0)->text(1), QStringLiteral("hero.qc:9"));
        QTreeWidgetItem* groups = root->child(1);
        QCOMPARE(groups->text(0), QStringLiteral("bodygroups (3)"));
        QTreeWidgetItem* helmet = groups->child(1);
        QCOMPARE(helmet->text(0), QStringLiteral("helmet"));
        QCOMPARE(helmet->childCount(), 2);
        QCOMPARE(helmet->child(1)->text(0), QStringLiteral("blank"));
        QTreeWidgetItem* face = groups->child(2);
        QCOMPARE(face->childCount(), 2); // hero_head.smd and its flexfile
        QCOMPARE(face->child(1)->text(0), QStringLiteral("hero_head.vta"));
        QCOMPARE(face->child(1)->text(1), QStringLiteral("hero.qc:20"));
        QTreeWidgetItem* seqs = root->child(2);
        QCOMPARE(seqs->text(0), QStringLiteral("sequences (5)"));

        // The current row's QC line is shown under the tree.
        panel.tree()->setCurrentItem(helmet->child(0));
        QCOMPARE(panel.sourceLabel()->text(),
                 QStringLiteral("hero.qc:16  │ studio \"hero_helmet\""));

        // Double-click: a body file opens alone; a VTA opens with the first body file; the
        // blank choice and an include show their line instead.
        const QDir dir(test::fixturesDir() + QStringLiteral("/qc/source"));
        QSignalSpy open(&panel, &app::FilesPanel::openRequested);
        QSignalSpy line(&panel, &app::FilesPanel::lineShown);
        emit panel.tree()->itemActivated(helmet->child(0), 0);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toStringList(),
                 QStringList{dir.filePath(QStringLiteral("hero_helmet.smd"))});
        emit panel.tree()->itemActivated(face->child(1), 0);
        QCOMPARE(open.count(), 2);
        QCOMPARE(open.at(1).at(0).toStringList(),
                 (QStringList{dir.filePath(QStringLiteral("hero_body.smd")),
                              dir.filePath(QStringLiteral("hero_head.vta"))}));
        emit panel.tree()->itemActivated(helmet->child(1), 0);
        emit panel.tree()->itemActivated(includes->child(0), 0);
        QCOMPARE(open.count(), 2);
        QCOMPARE(line.count(), 2);
        QCOMPARE(line.at(0).at(0).toString(), QStringLiteral("hero.qc:17  │ blank"));
    }

    void problemsAreWhatCheckSays()
    {
        // One truth: the window's Problems for a QC are `rigscope-cli check X.qc`'s rows, each
        // in its own file (script or component) at its own line.
        app::Document doc;
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        QTRY_VERIFY(!doc.isChecking());
        core::CheckOptions opt;
        std::vector<std::string> expected;
        for (const core::CheckedFile& f :
             core::checkQcProject(app::toStd(doc.files()[0].path), opt)) {
            for (const core::Diagnostic& d : f.diagnostics) {
                expected.push_back(core::formatDiagnostic(d));
            }
        }
        std::vector<std::string> shown;
        for (const core::Diagnostic& d : doc.files()[0].diagnostics) {
            shown.push_back(core::formatDiagnostic(d));
            QCOMPARE(d.element.kind, core::ElementRef::Kind::None);
        }
        QCOMPARE(shown, expected);
        // aim_delta.smd is a delta: no rest-pose comparison. hero_body.smd leaves 'head' empty,
        // but hero_head.smd weights it: no skeleton.unreferenced-bone (the compiled model keeps
        // it), and the LOD file's empty bones are what LODs are for. The $definebone'd
        // jiggle_tip carries no vertex: a note (docs/jiggle.md).
        QCOMPARE(shown.size(), std::size_t(5));
        QVERIFY2(app::toQString(shown[0]).endsWith(QStringLiteral("[jiggle.moves-nothing]")),
                 shown[0].c_str());
        const QString vta =
            QDir(test::fixturesDir()).filePath(QStringLiteral("qc/source/hero_head.vta"));
        QCOMPARE(app::toQString(shown[1]),
                 vta + QStringLiteral(":12:1: note: VTA has 12 vertices, reference 30 corners; "
                                      "matched by position [xref.vta-vertex-count]"));
    }

    // qc.case-variant-bone (goldsrc): the Problems row selects the bone the line lands on, TREE,
    // not the tree it names, and the window draws the hitbox and attachment there, as HL1
    // studiomdl links them (SimplifyModel, strcmpi / stricmp: the first bone of that name).
    void caseVariantBoneRowsSelectTheBoneTheyLandOn()
    {
        app::Document doc;
        doc.open({test::fixturesDir() + QStringLiteral("/qc/checks/case-variant-bone.qc")});
        QVERIFY(doc.waitForLoaded());
        QTRY_VERIFY(!doc.isChecking());
        const core::Model& m = *doc.primaryModel();
        QCOMPARE(m.skeleton.findByName("TREE"), core::JointIndex(0));
        QCOMPARE(m.skeleton.findByName("tree"), core::JointIndex(1));
        const std::vector<core::Diagnostic>& diags = doc.files()[0].diagnostics;
        std::vector<int> rows;
        for (std::size_t i = 0; i < diags.size(); ++i) {
            if (diags[i].id == "qc.case-variant-bone") {
                rows.push_back(int(i));
            }
        }
        QCOMPARE(rows.size(), std::size_t(2)); // $hbox "tree" (line 7), $attachment "tree"
        for (int i : rows) {
            QVERIFY(doc.selectDiagnostic(0, i));
            QCOMPARE(doc.selection(), (app::Selection{app::Selection::Kind::Joint, 0, -1}));
        }
        const auto marks = app::qcMarkers(*doc.qcProject(), m);
        QCOMPARE(marks.size(), std::size_t(3)); // the attachment, then the two hitboxes
        for (const render::SceneMarker& mark : marks) {
            QCOMPARE(mark.joint, core::JointIndex(0));
        }
    }

    void lodShowsItsReplacementModels()
    {
        // hero.qc's `$lod 10` replaces hero_body.smd by lod1/hero_body_lod1.smd.
        app::Document doc;
        app::BodygroupsPanel panel;
        panel.setDocument(&doc);
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(panel.lodBox());
        QCOMPARE(panel.lodBox()->count(), 2);
        QCOMPARE(panel.lodBox()->itemText(1), QStringLiteral("LOD 1 (threshold 10)"));
        const std::size_t bones = doc.primaryModel()->skeleton.size();
        const std::size_t lod0 = doc.primaryModel()->mesh.triangleCount();
        panel.lodBox()->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.qcView().lod, 1);
        const core::Model& m = *doc.primaryModel();
        QCOMPARE(m.skeleton.size(), bones); // the skeleton is the project's, whatever the LOD
        QCOMPARE(m.mesh.objects[0], std::string("body/hero_body_lod1"));
        QVERIFY(m.mesh.triangleCount() != lod0);
        QCOMPARE(panel.lodBox()->currentIndex(), 1); // kept through the reload
    }

    void markers()
    {
        app::Document doc;
        doc.open({heroQc()});
        QVERIFY(doc.waitForLoaded());
        const auto marks = app::qcMarkers(*doc.qcProject(), *doc.primaryModel());
        QCOMPARE(marks.size(), std::size_t(2 + 3));
        QCOMPARE(marks[0].name, QStringLiteral("eyes"));
        QCOMPARE(marks[0].joint, doc.primaryModel()->skeleton.findByName("head"));
        QVERIFY(marks[1].absolute);
        QCOMPARE(marks[2].kind, render::SceneMarker::Kind::Box);
        QCOMPARE(marks[2].max.x(), 3.0f);
        QVERIFY(marks[2].color != marks[4].color); // head group 1, spine group 2
    }

    // Issue 32: a jiggle bone plays in the window as `pose --jiggle` poses it (one truth),
    // whatever order the frames are visited in, and is drawn with its limits.
    void jiggleBonesPlayAsPoseSays()
    {
        const QString qc = test::fixturesDir() + QStringLiteral("/qc/jiggle/tail.qc");
        app::Document doc;
        doc.open({qc});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.jiggleJoints().size(), std::size_t(1));
        const core::JointIndex tail = doc.primaryModel()->skeleton.findByName("tail");
        QCOMPARE(doc.jiggleJoints()[0].joint, tail);
        const auto marks = app::documentMarkers(doc, *doc.primaryModel());
        QCOMPARE(std::count_if(marks.begin(), marks.end(),
                               [](const render::SceneMarker& m) {
                                   return m.kind == render::SceneMarker::Kind::Jiggle;
                               }),
                 std::ptrdiff_t(1));
        QVERIFY(doc.jiggleEnabled());
        doc.setCurrentAnimation(doc.findAnimation(QStringLiteral("swing")));
        QVERIFY(doc.currentAnimation() >= 0);
        auto tailAt = [&](int frame) {
            doc.setCurrentFrame(frame);
            return doc.currentPose().at(std::size_t(tail));
        };
        // Out of order: 12, back to 2, then on to 6 frame by frame.
        (void)tailAt(12);
        (void)tailAt(2);
        for (int f = 3; f < 6; ++f) {
            (void)tailAt(f);
        }
        const Eigen::Affine3f played = tailAt(6);
        core::PoseRequest req;
        req.file = qc.toStdString();
        req.frame = 6;
        req.jiggle = true;
        const core::PoseReport r = core::poseFromFiles(req);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.jiggleBones, std::size_t(1));
        const core::BonePose& b = r.bones.at(std::size_t(tail));
        QVERIFY((played.translation() - b.position.cast<float>()).norm() < 1e-4f);
        QVERIFY((played.linear() - b.rotation.cast<float>()).norm() < 1e-4f);
        // The tail lags behind its parent's dash along +X: it leans back by about 22 degrees.
        const float lean = std::atan2(-played.linear()(0, 2), played.linear()(2, 2));
        QVERIFY2(lean > 0.3f && lean < 0.5f, qPrintable(QString::number(lean)));
        // Off: the animation's own pose, the tail upright.
        doc.setJiggleEnabled(false);
        const Eigen::Affine3f still = doc.currentPose().at(std::size_t(tail));
        QVERIFY((still.linear() - Eigen::Matrix3f::Identity()).norm() < 1e-5f);
    }

    void missingFilesInRed()
    {
        QTemporaryDir tmp;
        const QDir src(test::fixturesDir() + QStringLiteral("/qc/source"));
        for (const QString& f : src.entryList(QDir::Files)) {
            if (f != QStringLiteral("walk.smd")) {
                QVERIFY(QFile::copy(src.filePath(f), tmp.filePath(f)));
            }
        }
        app::Document doc;
        app::FilesPanel panel;
        panel.setDocument(&doc);
        doc.open({tmp.filePath(QStringLiteral("hero.qc"))});
        QVERIFY(doc.waitForLoaded());
        // walk.smd (named by $animation a_walk and by run), the LOD file: rows and their
        // sequence parents in red.
        QVERIFY(redRows(panel.tree()->topLevelItem(0)) >= 3);
        QSignalSpy spy(&panel, &app::FilesPanel::lineShown);
        QTreeWidgetItem* root = panel.tree()->topLevelItem(0);
        emit panel.tree()->itemActivated(root, 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(),
                 QStringLiteral("hero.qc:1  │ // hero.qc: a small Source project written for "
                                "RigScope's tests (issue 17)."));
        // A missing file's row shows its line, marked, and opens nothing.
        QTreeWidgetItem* run = root->child(2)->child(3);
        QCOMPARE(run->text(0), QStringLiteral("run"));
        QCOMPARE(run->foreground(0).color(), QColor(Qt::red));
        QSignalSpy open(&panel, &app::FilesPanel::openRequested);
        emit panel.tree()->itemActivated(run->child(0), 0);
        QCOMPARE(open.count(), 0);
        QCOMPARE(spy.at(1).at(0).toString(),
                 QStringLiteral("hero.qc:54  │ \"walk.smd\"  (not found)"));
    }

    void commandLine()
    {
        const app::GuiOptions o = app::parseGuiCommandLine(
            {QStringLiteral("rigscope"), QStringLiteral("--bodygroup"), QStringLiteral("helmet=1"),
             QStringLiteral("--skin"), QStringLiteral("1"), heroQc()});
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QCOMPARE(o.bodygroups.size(), 1);
        QCOMPARE(o.skin, 1);
        app::Document doc;
        doc.open(o.files);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(app::applyQcCommandLine(doc, o.bodygroups, o.skin), QString());
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(8));
        QVERIFY(!app::applyQcCommandLine(doc, {{QStringLiteral("nope"), 0}}, -1).isEmpty());
        QVERIFY(!app::applyQcCommandLine(doc, {{QStringLiteral("helmet"), 2}}, -1).isEmpty());
        QVERIFY(!app::applyQcCommandLine(doc, {}, 5).isEmpty());
    }
};

QTEST_MAIN(TstQcDocument)
#include "tst_qc_document.moc"
