// Compiled models in the window (issue 29 §2): the Bodygroups dock (bodyparts, skins, LODs)
// drives what is drawn through the same view as a QC project's (OpenOptions::qcView).
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSlider>
#include <QtWidgets/QToolButton>

#include "app/document/document.h"
#include "app/document/file_navigation.h"
#include "app/document/qc_document.h"
#include "app/widgets/bodygroups_panel.h"
#include "app/widgets/flex_panel.h"
#include "app/widgets/timeline_panel.h"
#include "core/formats/mdl/compiled_model.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

bool writeBytes(const QString& path, const std::string& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

// hero.mdl / .vvd / .dx90.vtx / .ani of `spec` in `dir`; the .mdl's path.
QString writeSource(const QTemporaryDir& dir, const test::SourceMdlSpec& spec,
                    const QString& name = QStringLiteral("hero"))
{
    const test::SourceMdlBytes b = test::writeSourceMdl(spec);
    const bool ok = writeBytes(dir.filePath(name + QStringLiteral(".mdl")), b.mdl) &&
                    writeBytes(dir.filePath(name + QStringLiteral(".vvd")), b.vvd) &&
                    writeBytes(dir.filePath(name + QStringLiteral(".dx90.vtx")), b.vtx) &&
                    writeBytes(dir.filePath(name + QStringLiteral(".ani")), b.ani);
    return ok ? dir.filePath(name + QStringLiteral(".mdl")) : QString();
}

// The material name of every drawn triangle of object `object` (-1: every triangle).
QStringList triangleMaterials(const core::Model& m, int object = -1)
{
    QStringList out;
    for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
        if (object >= 0 && int(m.mesh.triangleObjects[t]) != object) {
            continue;
        }
        out << QString::fromStdString(m.mesh.materials[m.mesh.triangleMaterials[t]].name);
    }
    return out;
}

// The sample with a face: controllers blink and smile (0..1) and updown (-1..1); rules
// %blink = blink, %smileL = smile * (1 - blink), %smileR = smile; a stereo smile on the head
// (always drawn) and a blink delta on the hat (bodypart "hat", blank by default).
test::SourceMdlSpec faceSpec()
{
    test::SourceMdlSpec s = test::sampleSourceSpec();
    s.flexControllers = {"blink", "smile", "updown"};
    s.flexControllerRanges = {{0, 1}, {0, 1}, {-1, 1}};
    s.flexDescs = {"blink", "smileL", "smileR"};
    s.flexRules = {{0, {{2, 0, 0}}},
                   {1, {{2, 1, 0}, {1, 0, 1}, {2, 0, 0}, {5, 0, 0}, {6, 0, 0}}},
                   {2, {{2, 1, 0}}}};
    test::MdlVertexAnimation stereo;
    stereo.desc = 1;
    stereo.pair = 2;
    stereo.deltas = {{0, core::Vec3(0, 0, 1), core::Vec3::Zero(), 0, 0},
                     {1, core::Vec3(1, 0, 0), core::Vec3::Zero(), 255, 0}};
    s.bodyparts[0].models[0].meshes[1].flexes = {stereo};
    test::MdlVertexAnimation blink;
    blink.desc = 0;
    blink.deltas = {{0, core::Vec3(0, 0, -1), core::Vec3::Zero(), 0, 0}};
    s.bodyparts[1].models[1].meshes[0].flexes = {blink};
    return s;
}

} // namespace

class TstCompiledWindow : public QObject {
    Q_OBJECT
private slots:
    // The sample: bodypart "body" (one model: a quad on skin ref 0 and a head triangle on ref
    // 1, 2 LODs) and "hat" (blank, hat_ref: one triangle); skins {body, head}, {body_red,
    // head}.
    void bodygroupsDockDrivesTheDrawnModel()
    {
        QTemporaryDir dir;
        const QString path = writeSource(dir, test::sampleSourceSpec());
        QVERIFY(!path.isEmpty());
        app::Document doc;
        app::BodygroupsPanel panel;
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(doc.compiledModel());

        // One row per bodypart with its models, the skin families, the LODs.
        QCOMPARE(panel.choiceBoxes().size(), std::size_t(2));
        QComboBox* body = panel.choiceBoxes()[0];
        QComboBox* hat = panel.choiceBoxes()[1];
        QCOMPARE(body->objectName(), QStringLiteral("bodygroup_body"));
        QCOMPARE(body->count(), 1);
        QCOMPARE(body->itemText(0), QStringLiteral("body_ref"));
        QCOMPARE(hat->objectName(), QStringLiteral("bodygroup_hat"));
        QCOMPARE(hat->count(), 2);
        QCOMPARE(hat->itemText(0), QStringLiteral("blank"));
        QCOMPARE(hat->itemText(1), QStringLiteral("hat_ref"));
        QVERIFY(panel.skinBox());
        QCOMPARE(panel.skinBox()->count(), 2);
        QCOMPARE(panel.skinBox()->itemText(1), QStringLiteral("skin 1 (body_red)"));
        QVERIFY(panel.lodBox());
        QCOMPARE(panel.lodBox()->count(), 2);

        // Body 0 of every bodypart, as the engine draws `body` 0: the hat is blank.
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(3));
        hat->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.qcView().choices, (std::vector<int>{0, 1}));
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(4));
        QCOMPARE(QString::fromStdString(core::verifyInvariants(*doc.primaryModel())), QString());
        QCOMPARE(panel.choiceBoxes()[1]->currentIndex(), 1); // kept across the reload

        // Skin 1 re-textures the quad (reference 0) through the skin table; the head keeps its.
        QCOMPARE(
            triangleMaterials(*doc.primaryModel(), 0),
            (QStringList{QStringLiteral("body"), QStringLiteral("body"), QStringLiteral("head")}));
        panel.skinBox()->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(triangleMaterials(*doc.primaryModel(), 0),
                 (QStringList{QStringLiteral("body_red"), QStringLiteral("body_red"),
                              QStringLiteral("head")}));

        // LOD 1 draws the .vtx's LOD 1 strips: the quad keeps one of its two triangles.
        panel.lodBox()->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.qcView().lod, 1);
        QCOMPARE(triangleMaterials(*doc.primaryModel(), 0),
                 (QStringList{QStringLiteral("body_red"), QStringLiteral("head")}));

        // Another file starts from body 0, skin 0, LOD 0 again.
        const QString other = writeSource(dir, test::sampleSourceSpec(), QStringLiteral("other"));
        doc.open({other});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.qcView(), app::QcView{});
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(3));
    }

    // A GoldSrc model's skin families re-texture it too (skin.bmp -> skin_dirty.bmp).
    void goldsrcSkinFamily()
    {
        QTemporaryDir dir;
        const test::GoldsrcMdlBytes b = test::writeGoldsrcMdl(test::sampleGoldsrcSpec());
        const QString path = dir.filePath(QStringLiteral("gs.mdl"));
        QVERIFY(writeBytes(path, b.mdl));
        app::Document doc;
        app::BodygroupsPanel panel;
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(panel.skinBox()->count(), 2);
        QCOMPARE(panel.skinBox()->itemText(1), QStringLiteral("skin 1 (skin_dirty.bmp)"));
        QVERIFY(!panel.lodBox());
        const QStringList before = triangleMaterials(*doc.primaryModel());
        QVERIFY(before.contains(QStringLiteral("skin.bmp")));
        QVERIFY(!before.contains(QStringLiteral("skin_dirty.bmp")));
        panel.skinBox()->setCurrentIndex(1);
        QVERIFY(doc.waitForLoaded());
        const QStringList after = triangleMaterials(*doc.primaryModel());
        QCOMPARE(after.size(), before.size());
        QCOMPARE(after.count(QStringLiteral("skin_dirty.bmp")),
                 before.count(QStringLiteral("skin.bmp")));
        QCOMPARE(after.count(QStringLiteral("chrome_eye.bmp")),
                 before.count(QStringLiteral("chrome_eye.bmp")));
    }

    // An Afterburner model (magic 'AFTB', flag 0x800) keeps its textures as PNG files under the
    // game's textures/ folder: game/models/ab.mdl draws 'mdl/skin.png' from
    // game/textures/mdl/skin.png, as the engine loads it (R_StudioLoadTextureFromDisk); a
    // texture no folder holds is drawn flat. Profile afterburner, as its QC is checked.
    void afterburnerTexturesFromTheGamesFolder()
    {
        QTemporaryDir dir;
        test::GoldsrcMdlSpec spec = test::sampleGoldsrcSpec();
        spec.afterburner = true;
        spec.textures[0].name = "mdl/skin.png";
        spec.textures[1].name = "mdl/missing.png";
        const test::GoldsrcMdlBytes b = test::writeGoldsrcMdl(spec);
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("game/models")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("game/textures/mdl")));
        const QString path = dir.filePath(QStringLiteral("game/models/ab.mdl"));
        QVERIFY(writeBytes(path, b.mdl));
        const QString png = dir.filePath(QStringLiteral("game/textures/mdl/skin.png"));
        QImage image(4, 2, QImage::Format_RGB32);
        image.fill(Qt::red);
        QVERIFY(image.save(png));
        app::Document doc;
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.activeProfile(), core::Profile::Afterburner);
        const render::MaterialSources sources = doc.materialSources();
        const auto& mats = doc.primaryModel()->mesh.materials;
        QCOMPARE(mats.size(), std::size_t(3));
        QCOMPARE(render::lookUpMaterial(mats[0], sources, nullptr).texturePath, png);
        QCOMPARE(render::lookUpMaterial(mats[1], sources, nullptr).texturePath, QString());
        QCOMPARE(render::loadTextureImage(png).pixelColor(0, 0), QColor(Qt::red));
    }

    // Flex controllers on the Flex dock: one row per controller over its range; moving one
    // runs the flex rules (core) and the shapes take the weights; a raw shape still solos.
    void flexControllersDriveTheShapes()
    {
        QTemporaryDir dir;
        const QString path = writeSource(dir, faceSpec());
        app::Document doc;
        app::FlexPanel panel;
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexNames(), (QStringList{QStringLiteral("blink"), QStringLiteral("smileL"),
                                               QStringLiteral("smileR")}));
        QCOMPARE(doc.controllerValues(), (std::vector<float>{0, 0, 0}));
        QList<QSlider*> controllers;
        for (QSlider* s : panel.findChildren<QSlider*>(QStringLiteral("compiledController"))) {
            controllers << s;
        }
        QCOMPARE(controllers.size(), 3);
        QStringList names, ranges;
        for (QSlider* s : controllers) {
            names << s->parentWidget()->findChild<QLabel*>(QStringLiteral("name"))->text();
            ranges << s->parentWidget()->findChild<QLabel*>(QStringLiteral("range"))->text();
        }
        QCOMPARE(names, (QStringList{QStringLiteral("blink"), QStringLiteral("smile"),
                                     QStringLiteral("updown")}));
        QCOMPARE(ranges, (QStringList{QStringLiteral("0 … 1"), QStringLiteral("0 … 1"),
                                      QStringLiteral("-1 … 1")}));
        QCOMPARE(controllers[2]->value(), 500); // updown rests at 0, the middle of -1..1
        QVERIFY(controllers[1]->toolTip().contains(QStringLiteral("smileL, smileR")));

        controllers[1]->setValue(800); // smile 0.8
        QVERIFY(qFuzzyCompare(doc.flexWeight(1), 0.8f));
        QVERIFY(qFuzzyCompare(doc.flexWeight(2), 0.8f));
        QCOMPARE(doc.flexWeight(0), 0.0f);
        controllers[0]->setValue(250); // blink 0.25: %smileL = 0.8 × 0.75
        QVERIFY(qFuzzyCompare(doc.flexWeight(0), 0.25f));
        QVERIFY(qFuzzyCompare(doc.flexWeight(1), 0.6f));
        QVERIFY(qFuzzyCompare(doc.flexWeight(2), 0.8f));
        // The shape rows show the weights the rules gave.
        QList<QDoubleSpinBox*> boxes = panel.findChildren<QDoubleSpinBox*>(QStringLiteral("value"));
        QCOMPARE(boxes.size(), 3);
        QCOMPARE(boxes[1]->value(), 0.6);
        // The stereo smile moves the head's two vertices.
        const std::vector<core::Vec3> off = doc.evaluator()->morphOffsets(doc.flexSetting());
        int moved = 0;
        for (const core::Vec3& o : off) {
            moved += o.isZero() ? 0 : 1;
        }
        QCOMPARE(moved, 2);

        // Solo a raw shape: only it, at 1.
        QList<QToolButton*> solos;
        for (QToolButton* b : panel.findChildren<QToolButton*>()) {
            if (b->text() == QStringLiteral("Solo")) {
                solos << b;
            }
        }
        QCOMPARE(solos.size(), 3);
        solos[2]->click();
        QCOMPARE(doc.flexWeight(0), 0.0f);
        QCOMPARE(doc.flexWeight(1), 0.0f);
        QCOMPARE(doc.flexWeight(2), 1.0f);

        // A reload keeps the controllers; Reset all puts them back at rest.
        doc.reload();
        QVERIFY(doc.waitForLoaded());
        QVERIFY(qFuzzyCompare(doc.controllerValues()[1], 0.8f));
        doc.resetFlexWeights();
        QCOMPARE(doc.controllerValues(), (std::vector<float>{0, 0, 0}));
        QCOMPARE(doc.flexWeight(2), 0.0f);
    }

    // The shapes follow the bodypart shown: the hat's blink delta only with the hat.
    void flexShapesFollowTheChosenModel()
    {
        QTemporaryDir dir;
        const QString path = writeSource(dir, faceSpec());
        app::Document doc;
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        const auto blinkIds = [&] { return doc.primaryModel()->flexShapes[0].ids.size(); };
        QCOMPARE(QString::fromStdString(core::verifyInvariants(*doc.primaryModel())), QString());
        QCOMPARE(blinkIds(), std::size_t(0)); // the hat is blank
        doc.setQcView({{0, 1}, 0, 0});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(QString::fromStdString(core::verifyInvariants(*doc.primaryModel())), QString());
        QCOMPARE(blinkIds(), std::size_t(1)); // the hat's vertex 0: one corner
        doc.setControllerValue(0, 1.0f);
        const std::vector<core::Vec3> off = doc.evaluator()->morphOffsets(doc.flexSetting());
        const core::Mesh& mesh = doc.primaryModel()->mesh;
        const std::uint32_t hatPoint = mesh.cornerPoints[3 * (mesh.triangleCount() - 1)];
        QVERIFY(off[hatPoint].isApprox(core::Vec3(0, 0, -1)));
    }

    // Events of compiled sequences are the timeline's notetrack markers: Source at cycle ×
    // (frames − 1), GoldSrc at their frame; the marker names number, name, options, cycle.
    void eventsAreTimelineMarkers()
    {
        QTemporaryDir dir;
        test::SourceMdlSpec spec = test::sampleSourceSpec();
        test::MdlSequence& walk = spec.sequences[1]; // 5 frames
        walk.events = {{0.0f, 7, "", ""},
                       {0.3f, 1004, "step", "AE_CL_PLAYSOUND"},
                       {0.5f, 32, "left", ""},
                       {1.0f, 8, "", ""}};
        const QString path = writeSource(dir, spec);
        app::Document doc;
        app::TimelinePanel panel;
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.animations()[1].name, QStringLiteral("walk"));
        doc.setCurrentAnimation(1);
        const auto& markers = panel.scrubBar()->markers();
        QCOMPARE(markers.size(), std::size_t(4));
        std::vector<int> frames;
        QStringList texts;
        for (const auto& m : markers) {
            frames.push_back(m.index);
            texts << m.text;
        }
        QCOMPARE(frames, (std::vector<int>{0, 1, 2, 4})); // 0.3 × 4 = 1.2 → 1
        QCOMPARE(texts,
                 (QStringList{QStringLiteral("event 7 · cycle 0.00"),
                              QStringLiteral("AE_CL_PLAYSOUND (event 1004): step · cycle 0.30"),
                              QStringLiteral("event 32: left · cycle 0.50"),
                              QStringLiteral("event 8 · cycle 1.00")}));
        QCOMPARE(markers[1].frame, QStringLiteral("1"));

        // GoldSrc: the event's frame as stored.
        const test::GoldsrcMdlBytes b = test::writeGoldsrcMdl(test::sampleGoldsrcSpec());
        const QString gs = dir.filePath(QStringLiteral("gs.mdl"));
        QVERIFY(writeBytes(gs, b.mdl));
        doc.open({gs});
        QVERIFY(doc.waitForLoaded());
        doc.setCurrentAnimation(0); // idle: 3 frames, event 5004 at frame 2
        QCOMPARE(panel.scrubBar()->markers().size(), std::size_t(1));
        QCOMPARE(panel.scrubBar()->markers()[0].index, 2);
        QCOMPARE(panel.scrubBar()->markers()[0].text,
                 QStringLiteral("event 5004: common/npc_step1.wav"));
    }

    // ← / → step through a folder's compiled models, not through their companions.
    void browsingAFolderOfCompiledModels()
    {
        QTemporaryDir dir;
        for (const char* name :
             {"a_ref.smd", "hero.mdl", "hero.vvd", "hero.dx90.vtx", "hero.dx80.vtx", "hero.sw.vtx",
              "hero.phy", "hero.ani", "Barney.mdl", "barneyT.mdl", "barney01.mdl", "barney02.mdl",
              "bolt.mdl", "gun07.mdl", "zed.MDL", "notes.txt"}) {
            QVERIFY(writeBytes(dir.filePath(QString::fromLatin1(name)), "IDST"));
        }
        // bolt.mdl and gun07.mdl: no bol.mdl / gun.mdl beside them, so models of their own.
        QCOMPARE(app::modelFilesInFolder(dir.path()),
                 (QStringList{QStringLiteral("a_ref.smd"), QStringLiteral("Barney.mdl"),
                              QStringLiteral("bolt.mdl"), QStringLiteral("gun07.mdl"),
                              QStringLiteral("hero.mdl"), QStringLiteral("zed.MDL")}));
        const app::FolderStep next = app::stepInFolder(dir.filePath(QStringLiteral("hero.mdl")), 1);
        QCOMPARE(QFileInfo(next.path).fileName(), QStringLiteral("zed.MDL"));
        QCOMPARE(next.index, 5);
        QCOMPARE(next.count, 6);
        const app::FolderStep back =
            app::stepInFolder(dir.filePath(QStringLiteral("Barney.mdl")), -1);
        QCOMPARE(QFileInfo(back.path).fileName(), QStringLiteral("a_ref.smd"));
        // The Open dialog offers them.
        QVERIFY(app::openFilter().contains(QStringLiteral("*.mdl")));
    }

    // --bodygroup NAME=N / --skin N / --lod N name a compiled model's bodyparts, skins, LODs.
    void commandLineChoosesBodypartSkinAndLod()
    {
        QTemporaryDir dir;
        test::SourceMdlSpec spec = test::sampleSourceSpec();
        spec.bodyparts[1].models[1].lods = 2; // as studiomdl writes: every model has every LOD
        const QString path = writeSource(dir, spec);
        app::Document doc;
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(app::applyQcCommandLine(doc, {{QStringLiteral("HAT"), 1}}, 1, 1), QString());
        QCOMPARE(doc.qcView().choices, (std::vector<int>{0, 1}));
        QCOMPARE(doc.qcView().skin, 1);
        QCOMPARE(doc.qcView().lod, 1);
        QCOMPARE(doc.primaryModel()->mesh.triangleCount(), std::size_t(3)); // 2 + hat
        QCOMPARE(app::applyQcCommandLine(doc, {{QStringLiteral("hat"), 2}}, -1),
                 QStringLiteral("bodypart 'hat' has 2 models"));
        QCOMPARE(app::applyQcCommandLine(doc, {}, 2), QStringLiteral("the model has 2 skins"));
        QCOMPARE(app::applyQcCommandLine(doc, {}, -1, 2), QStringLiteral("the model has 2 LODs"));
        QCOMPARE(app::applyQcCommandLine(doc, {{QStringLiteral("legs"), 0}}, -1),
                 QStringLiteral("no bodypart named 'legs'"));
    }
};

QTEST_MAIN(TstCompiledWindow)
#include "tst_compiled_window.moc"
