#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTemporaryDir>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTreeView>

#include "app/document/command_line.h"
#include "app/document/document.h"
#include "app/models/outline_model.h"
#include "app/qt_convert.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/screenshot.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using app::OutlineModel;

class TstOutlineModel : public QObject {
    Q_OBJECT

private:
    QStringList samplePaths() const
    {
        const QString d = test::samplesDir();
        return {d + QStringLiteral("/sample_ref.smd"), d + QStringLiteral("/sample_anim.smd"),
                d + QStringLiteral("/sample_flex.vta")};
    }

private slots:
    void documentLoadsSceneInBackground()
    {
        app::Document doc;
        QSignalSpy loaded(&doc, &app::Document::loaded);
        doc.open(samplePaths());
        QVERIFY(doc.isLoading());
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(doc.files().size(), std::size_t(3));
        QVERIFY(doc.primaryModel());
        QCOMPARE(doc.primaryModel()->kind, core::ModelKind::Reference);
        QCOMPARE(doc.animations().size(), std::size_t(1));
        QCOMPARE(doc.animations()[0].name, QStringLiteral("sample_anim"));
        // The animation attaches by bone name: every reference bone is animated.
        for (auto j : doc.animations()[0].binding.animJointOfRef) {
            QVERIFY(j >= 0);
        }
    }

    void treeMatchesModel()
    {
        app::Document doc;
        OutlineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(&doc);
        QCOMPARE(model.rowCount(), 0);
        doc.open(samplePaths());
        QVERIFY(doc.waitForLoaded());
        const core::Model& m = *doc.primaryModel();

        QCOMPARE(model.rowCount(), int(OutlineModel::Compiled)); // no compiled-model section
        // Nodes: the hierarchy, one row per bone, ids and parents as in the file.
        int bones = 0;
        std::function<void(const QModelIndex&, int)> walk = [&](const QModelIndex& parent,
                                                                int parentJoint) {
            for (int r = 0; r < model.rowCount(parent); ++r) {
                const QModelIndex idx = model.index(r, 0, parent);
                const int j = model.jointAt(idx);
                QVERIFY(j >= 0);
                QCOMPARE(m.skeleton.parents[std::size_t(j)], parentJoint);
                QCOMPARE(idx.data().toString(), app::toQString(m.skeleton.names[std::size_t(j)]));
                QCOMPARE(model.index(r, OutlineModel::IdColumn, parent).data().toInt(),
                         m.skeleton.sourceIds[std::size_t(j)]);
                QCOMPARE(model.indexOfJoint(j), idx);
                ++bones;
                walk(idx, j);
            }
        };
        walk(model.sectionIndex(OutlineModel::Nodes), -1);
        QCOMPARE(bones, int(m.skeleton.size()));
        QVERIFY(model.index(OutlineModel::Nodes, OutlineModel::CountColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("%1 bones").arg(m.skeleton.size())));

        // Per-bone weighted vertex counts add up to at least the point count.
        const auto& w = doc.weightedVertexCounts();
        QCOMPARE(w.size(), m.skeleton.size());
        QVERIFY(std::accumulate(w.begin(), w.end(), 0) >= int(m.mesh.pointCount()));

        // Materials with triangle counts that add up.
        const QModelIndex mats = model.sectionIndex(OutlineModel::Materials);
        QCOMPARE(model.rowCount(mats), int(m.mesh.materials.size()));
        int tris = 0;
        for (int r = 0; r < model.rowCount(mats); ++r) {
            const QString info = model.index(r, OutlineModel::CountColumn, mats).data().toString();
            tris += info.section(QLatin1Char(' '), 0, 0).remove(QLatin1Char(',')).toInt();
        }
        QCOMPARE(tris, int(m.mesh.triangleCount()));

        // Animations: rest pose + sample_anim with its frames.
        const QModelIndex anims = model.sectionIndex(OutlineModel::Animations);
        QCOMPARE(model.rowCount(anims), 2);
        QCOMPARE(model.index(0, 0, anims).data().toString(), QStringLiteral("Rest pose"));
        const QModelIndex anim = model.index(1, 0, anims);
        QCOMPARE(anim.data().toString(), QStringLiteral("sample_anim"));
        QCOMPARE(model.rowCount(anim),
                 int(doc.animations()[0].animation(doc.files()).frameCount()));

        // Flex shapes from the VTA.
        const QModelIndex flex = model.sectionIndex(OutlineModel::FlexShapes);
        QCOMPARE(model.rowCount(flex), int(doc.files()[2].model->flexShapes.size()));
        QVERIFY(model.rowCount(flex) > 0);

        // Reload resets cleanly under the tester.
        doc.reload();
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(model.rowCount(), int(OutlineModel::Compiled)); // no compiled-model section
    }

    // Issue 29: a compiled model adds its own section (bodyparts, skins, sequences, ...).
    void compiledModelSection()
    {
        QTemporaryDir dir;
        const test::SourceMdlSpec spec = test::sampleSourceSpec();
        const test::SourceMdlBytes b = test::writeSourceMdl(spec);
        for (const auto& [name, bytes] : {std::pair{QStringLiteral("hero.mdl"), b.mdl},
                                          std::pair{QStringLiteral("hero.vvd"), b.vvd},
                                          std::pair{QStringLiteral("hero.dx90.vtx"), b.vtx},
                                          std::pair{QStringLiteral("hero.ani"), b.ani}}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes.data(), qint64(bytes.size()));
        }
        app::Document doc;
        OutlineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(&doc);
        doc.open({dir.filePath(QStringLiteral("hero.mdl"))});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(model.rowCount(), int(OutlineModel::SectionCount));
        const QModelIndex compiled = model.sectionIndex(OutlineModel::Compiled);
        QCOMPARE(compiled.data().toString(), QStringLiteral("Compiled model"));
        QVERIFY(model.rowCount(compiled) >= 5);
        const QModelIndex parts = model.index(0, 0, compiled);
        QCOMPARE(parts.data().toString(), QStringLiteral("Bodyparts"));
        int models = 0;
        for (const auto& bp : spec.bodyparts) {
            models += int(bp.models.size());
        }
        QCOMPARE(model.rowCount(parts), models);
        const QModelIndex seqs = model.index(2, 0, compiled);
        QCOMPARE(seqs.data().toString(), QStringLiteral("Sequences"));
        QCOMPARE(model.rowCount(seqs), int(spec.sequences.size()));
        QCOMPARE(model.index(0, 0, seqs).data().toString(),
                 QString::fromStdString(spec.sequences[0].name));
        // Every decoded sequence plays on the timeline, named after it.
        QVERIFY(!doc.animations().empty());
        QCOMPARE(doc.animations()[0].name, QString::fromStdString(spec.sequences[0].name));
    }

    // Issue 27: "1 frame", not "1 frames".
    void oneFrameIsSingular()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pose.smd"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 5\n0 0 0 0 0 0 0\nend\n");
        }
        app::Document doc;
        OutlineModel model;
        model.setDocument(&doc);
        doc.open({test::samplesDir() + QStringLiteral("/sample_ref.smd"), path});
        QVERIFY(doc.waitForLoaded());
        const QModelIndex anims = model.sectionIndex(OutlineModel::Animations);
        const QModelIndex anim = model.index(1, OutlineModel::CountColumn, anims);
        QVERIFY2(anim.data().toString().startsWith(QStringLiteral("1 frame (5–5)")),
                 qPrintable(anim.data().toString()));
    }

    // Issue 27: a bone of a binary DMX is located by its byte offset, not "unknown".
    void binaryDmxBoneAtItsOffset()
    {
        app::Document doc;
        app::InspectorPanel inspector;
        inspector.setDocument(&doc);
        doc.open({test::fixturesDir() + QStringLiteral("/dmx/valid/sample_ref_binary5.dmx")});
        QVERIFY(doc.waitForLoaded());
        const auto& where = doc.primaryModel()->skeleton.where;
        QVERIFY(where.size() > 1);
        QCOMPARE(where[1].line, 0u);
        QVERIFY(where[1].offset > 0);
        doc.setSelection({app::Selection::Kind::Joint, 1, -1});
        const QString text = inspector.lines().join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("Source offset: @0x%1")
                                   .arg(QString::number(where[1].offset, 16)
                                            .toUpper()
                                            .rightJustified(4, QLatin1Char('0')))),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("unknown")), qPrintable(text));
    }

    void searchFiltersTheTree()
    {
        app::Document doc;
        app::OutlinePanel panel;
        panel.setDocument(&doc);
        doc.open(samplePaths());
        QVERIFY(doc.waitForLoaded());
        const std::string tipName = doc.primaryModel()->skeleton.names.back();
        panel.searchBox()->setText(app::toQString(tipName));
        auto* proxy = panel.proxy();
        QVERIFY(proxy->rowCount() < int(OutlineModel::Compiled));
        QCOMPARE(proxy->index(0, 0).data().toString(), QStringLiteral("Nodes"));
        // Every remaining leaf matches; the bone is reachable through its ancestors.
        bool found = false;
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            for (int r = 0; r < proxy->rowCount(parent); ++r) {
                const QModelIndex idx = proxy->index(r, 0, parent);
                if (proxy->rowCount(idx) == 0) {
                    QVERIFY(idx.data().toString().contains(app::toQString(tipName),
                                                           Qt::CaseInsensitive));
                }
                found = found || idx.data().toString() == app::toQString(tipName);
                walk(idx);
            }
        };
        walk({});
        QVERIFY(found);
        panel.searchBox()->clear();
        QCOMPARE(proxy->rowCount(), int(OutlineModel::Compiled));
    }

    void selectionSyncsBothWays()
    {
        app::Document doc;
        app::OutlinePanel panel;
        app::InspectorPanel inspector;
        panel.setDocument(&doc);
        inspector.setDocument(&doc);
        doc.open(samplePaths());
        QVERIFY(doc.waitForLoaded());
        QSignalSpy spy(&doc, &app::Document::selectionChanged);

        // Tree -> document.
        const QModelIndex src = panel.model()->indexOfJoint(2);
        panel.view()->setCurrentIndex(panel.proxy()->mapFromSource(src));
        QCOMPARE(doc.selection().kind, app::Selection::Kind::Joint);
        QCOMPARE(doc.selection().index, 2);
        QCOMPARE(spy.count(), 1);
        QVERIFY(inspector.lines()
                    .join(QLatin1Char('\n'))
                    .contains(app::toQString(doc.primaryModel()->skeleton.names[2])));

        // Document (e.g. a viewport pick) -> tree: a triangle selects its material row.
        doc.setSelection({app::Selection::Kind::Triangle, 0, 1});
        const QModelIndex cur = panel.proxy()->mapToSource(panel.view()->currentIndex());
        QCOMPARE(panel.model()->materialAt(cur),
                 int(doc.primaryModel()->mesh.triangleMaterials[0]));
        QCOMPARE(doc.selection().kind,
                 app::Selection::Kind::Triangle); // not overwritten by the echo
        QVERIFY(inspector.lines().join(QLatin1Char('\n')).contains(QStringLiteral("Weights")));

        // Selecting an animation frame in the tree moves the document's frame.
        const QModelIndex frame = panel.model()->index(3, 0, panel.model()->indexOfAnimation(0));
        panel.view()->setCurrentIndex(panel.proxy()->mapFromSource(frame));
        QCOMPARE(doc.currentAnimation(), 0);
        QCOMPARE(doc.currentFrame(), 3);
    }

    void reloadKeepsAnimationFrameAndBone()
    {
        app::Document doc;
        doc.open(samplePaths());
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0);
        doc.setCurrentFrame(5);
        doc.setSelection({app::Selection::Kind::Joint, 1, -1});
        doc.reload();
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.currentAnimation(), 0);
        QCOMPARE(doc.currentFrame(), 5);
        QCOMPARE(doc.selection().index, 1);
        QVERIFY(!doc.currentPose().empty());
    }

    void flexWeightsMorphAndSurviveReload()
    {
        app::Document doc;
        doc.open(samplePaths());
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexNames().size(), qsizetype(doc.files()[2].model->flexShapes.size()));
        QVERIFY(doc.evaluator()->morphOffsets(doc.flexSetting()).empty());
        const int bulge = int(doc.flexNames().indexOf(QStringLiteral("bulge")));
        QVERIFY(bulge >= 0);
        QSignalSpy changed(&doc, &app::Document::flexChanged);
        doc.setFlexWeight(bulge, 0.5f);
        QCOMPARE(changed.count(), 1);
        const auto offsets = doc.evaluator()->morphOffsets(doc.flexSetting());
        QCOMPARE(offsets.size(), doc.primaryModel()->mesh.pointCount());
        QVERIFY(std::any_of(offsets.begin(), offsets.end(),
                            [](const core::Vec3& v) { return v.norm() > 1e-4f; }));
        doc.reload();
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexWeight(bulge), 0.5f);
        doc.resetFlexWeights();
        QVERIFY(doc.evaluator()->morphOffsets(doc.flexSetting()).empty());
    }

    void cancelKeepsThePreviousModel()
    {
        app::Document doc;
        doc.open({samplePaths().front()});
        QVERIFY(doc.waitForLoaded());
        const auto before = doc.primaryModel();
        QSignalSpy loaded(&doc, &app::Document::loaded);
        QSignalSpy failed(&doc, &app::Document::loadFailed);
        doc.open({samplePaths()[1]});
        QVERIFY(doc.isLoading());
        doc.cancelLoad();
        QVERIFY(!doc.isLoading());
        QCOMPARE(failed.count(), 1);
        QTest::qWait(300);
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(doc.primaryModel(), before);
    }

    void failedLoadReportsAndKeepsNothing()
    {
        app::Document doc;
        QSignalSpy failed(&doc, &app::Document::loadFailed);
        doc.open({QStringLiteral("/nonexistent/file.smd")});
        doc.waitForLoaded(10000);
        QCOMPARE(failed.count(), 1);
        QVERIFY(!doc.primaryModel());
    }

    void commandLine()
    {
        const auto o = app::parseGuiCommandLine(
            {QStringLiteral("rigscope"), QStringLiteral("a.smd"),
             QStringLiteral("--screenshot=out.png"), QStringLiteral("--size"),
             QStringLiteral("320x200"), QStringLiteral("--frame=-1"),
             QStringLiteral("--camera=top"), QStringLiteral("--no-background")});
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QCOMPARE(o.files, QStringList{QStringLiteral("a.smd")});
        QCOMPARE(o.size, QSize(320, 200));
        QCOMPARE(*o.frame, -1);
        QCOMPARE(o.camera, QStringLiteral("top"));
        QVERIFY(o.noBackground);
        QVERIFY(!app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.smd"),
                                           QStringLiteral("--size=big")})
                     .error.isEmpty());
        QVERIFY(!app::parseGuiCommandLine(
                     {QStringLiteral("rigscope"), QStringLiteral("--screenshot=x.png")})
                     .error.isEmpty());
        QCOMPARE(app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.smd"),
                                           QStringLiteral("--profile=GoldSrc")})
                     .profile,
                 QStringLiteral("goldsrc"));
        QVERIFY(app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.smd"),
                                          QStringLiteral("--profile"), QStringLiteral("quake")})
                    .error.contains(QStringLiteral("--profile")));
        // --select BONE selects it (and the window frames it); --material-root is the option's
        // name, --materials its older alias.
        const auto sel = app::parseGuiCommandLine(
            {QStringLiteral("rigscope"), test::samplesDir() + QStringLiteral("/sample_ref.smd"),
             QStringLiteral("--select"), QStringLiteral("segment2"),
             QStringLiteral("--material-root"), QStringLiteral("/a"), QStringLiteral("--materials"),
             QStringLiteral("/b")});
        QCOMPARE(sel.select, QStringLiteral("segment2"));
        QCOMPARE(sel.materials, (QStringList{QStringLiteral("/a"), QStringLiteral("/b")}));
        app::Document doc;
        doc.open(sel.files);
        QVERIFY(doc.waitForLoaded());
        const QString err = app::applyStartOptions(doc, sel);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE(doc.selection().kind, app::Selection::Kind::Joint);
        QCOMPARE(doc.selection().index, 2);
        app::GuiOptions bad = sel;
        bad.select = QStringLiteral("no_such_bone");
        QCOMPARE(app::applyStartOptions(doc, bad), QStringLiteral("no bone named 'no_such_bone'"));
        QCOMPARE(app::expandOutputTemplate(QStringLiteral("{model}_{anim}_{frame:04}.png"),
                                           QStringLiteral("m"), QStringLiteral("idle"), 7),
                 QStringLiteral("m_idle_0007.png"));
    }
};

QTEST_MAIN(TstOutlineModel)
#include "tst_outline_model.moc"
