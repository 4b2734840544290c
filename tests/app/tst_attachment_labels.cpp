// Issue 27 item 8 / issue 29: attachment names do not pile up. A compiled model's attachments are
// drawn as axes; their names show with the bone names (N), else only those on the selected bone.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <Qt3DCore/QEntity>
#include <Qt3DRender/QLayer>

#include "app/document/document.h"
#include "app/document/qc_document.h"
#include "render/model_scene.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;

class TstAttachmentLabels : public QObject {
    Q_OBJECT

private slots:
    void namesFollowTheBoneNamesOrTheSelection()
    {
        QTemporaryDir dir;
        test::SourceMdlSpec spec = test::sampleSourceSpec();
        QVERIFY(spec.bones.size() >= 2);
        spec.attachments = {{"muzzle", 1, core::Vec3(1, 0, 0)},
                            {"grip", 1, core::Vec3(0, 1, 0)},
                            {"eyes", 0, core::Vec3(0, 0, 1)}};
        const test::SourceMdlBytes b = test::writeSourceMdl(spec);
        for (const auto& [name, bytes] :
             {std::pair{QStringLiteral("a.mdl"), b.mdl}, std::pair{QStringLiteral("a.vvd"), b.vvd},
              std::pair{QStringLiteral("a.dx90.vtx"), b.vtx},
              std::pair{QStringLiteral("a.ani"), b.ani}}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes.data(), qint64(bytes.size()));
        }
        app::Document doc;
        doc.setChecksEnabled(false);
        doc.open({dir.filePath(QStringLiteral("a.mdl"))});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(doc.primary()->compiled);

        Qt3DCore::QEntity root;
        render::SceneLayers layers{new Qt3DRender::QLayer(&root), new Qt3DRender::QLayer(&root),
                                   new Qt3DRender::QLayer(&root)};
        render::ModelScene scene(doc.primaryModel(), {}, layers, &root);
        scene.setMarkers(app::compiledMarkers(*doc.primary()->compiled, scene.model()));
        QCOMPARE(scene.shownMarkers().size(), std::size_t(3 + spec.hitboxes.size()));
        // Nothing selected, bone names off: no names at all.
        QVERIFY2(scene.labelTexts().isEmpty(), qPrintable(scene.labelTexts().join(u',')));
        // The bone holding two attachments selected: its name and theirs.
        const int bone1 = scene.model().skeleton.findByName(spec.bones[1].name);
        scene.setSelectedJoint(bone1);
        QStringList shown = scene.labelTexts();
        shown.sort();
        QStringList want{QStringLiteral("grip"), QStringLiteral("muzzle"),
                         QString::fromStdString(spec.bones[1].name)};
        want.sort();
        QCOMPARE(shown, want);
        // Bone names on: every bone and every attachment.
        render::DisplayFlags flags = scene.display();
        flags.boneNames = true;
        scene.setDisplay(flags);
        QCOMPARE(scene.labelTexts().size(), qsizetype(spec.bones.size() + 3));
    }
};

QTEST_MAIN(TstAttachmentLabels)
#include "tst_attachment_labels.moc"
