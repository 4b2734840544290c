// rigscope-test: TIMEOUT 300
#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <QtCore/QFileInfo>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeView>
#include <QtCore/QSortFilterProxyModel>
#include <Qt3DRender/QCamera>

#include "app/models/outline_model.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/main_window.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/screenshot.h"
#include "app/widgets/viewport_widget.h"
#include "app/widgets/window_grab.h"
#include "render/convert.h"
#include "render/render_capture.h"
#include "render/render_setup.h"
#include "render/viewport.h"
#include "tests/support/mdl_writer.h"
#include "tests/support/render_support.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

// Baseline comparison (HOUSE_STYLE §10): fails when more than `fraction` of the pixels differ
// by more than `threshold` in any channel; writes <name>_actual.png and <name>_diff.png.
// RIGSCOPE_BLESS=1 (re)writes the baseline.
bool matchesBaseline(const QImage& actual, const QString& name, QString* message,
                     double fraction = 0.005, int threshold = 24)
{
    const QString baseline =
        test::baselinesDir() + QLatin1Char('/') + name + QStringLiteral(".png");
    const QString out = test::outputDir() + QLatin1Char('/') + name;
    if (qEnvironmentVariableIntValue("RIGSCOPE_BLESS") == 1) {
        actual.save(baseline);
        return true;
    }
    const QImage expected = QImage(baseline).convertToFormat(QImage::Format_ARGB32);
    if (expected.isNull() || expected.size() != actual.size()) {
        actual.save(out + QStringLiteral("_actual.png"));
        *message = QStringLiteral(
                       "missing or differently sized baseline %1; actual written to %2_actual.png")
                       .arg(baseline, out);
        return false;
    }
    QImage diff(actual.size(), QImage::Format_ARGB32);
    diff.fill(Qt::black);
    qint64 bad = 0;
    for (int y = 0; y < actual.height(); ++y) {
        const auto* a = reinterpret_cast<const QRgb*>(actual.constScanLine(y));
        const auto* e = reinterpret_cast<const QRgb*>(expected.constScanLine(y));
        for (int x = 0; x < actual.width(); ++x) {
            const int d = std::max(
                {std::abs(qRed(a[x]) - qRed(e[x])), std::abs(qGreen(a[x]) - qGreen(e[x])),
                 std::abs(qBlue(a[x]) - qBlue(e[x])), std::abs(qAlpha(a[x]) - qAlpha(e[x]))});
            if (d > threshold) {
                ++bad;
                diff.setPixel(x, y, qRgb(255, 0, 255));
            }
        }
    }
    const double ratio = double(bad) / double(qint64(actual.width()) * actual.height());
    if (ratio > fraction) {
        actual.save(out + QStringLiteral("_actual.png"));
        diff.save(out + QStringLiteral("_diff.png"));
        *message = QStringLiteral(
                       "%1: %2 % of pixels differ (limit %3 %); see %4_actual.png and %4_diff.png")
                       .arg(name)
                       .arg(ratio * 100, 0, 'f', 2)
                       .arg(fraction * 100)
                       .arg(out);
        return false;
    }
    return true;
}

std::shared_ptr<const core::Model> loadSample()
{
    const core::ReadResult r =
        test::readPath(test::samplesDir() + QStringLiteral("/sample_ref.smd"));
    return r.hasModel ? std::make_shared<const core::Model>(r.model) : nullptr;
}

// A big triangle around the origin (material 0) and a small marker triangle high above it
// (material 1), both in the YZ plane facing the front camera (+X).
std::shared_ptr<const core::Model> markerModel()
{
    core::Model m;
    m.kind = core::ModelKind::Reference;
    m.format = "smd";
    auto add = [&](core::Vec3 a, core::Vec3 b, core::Vec3 c, std::uint32_t material) {
        for (const auto& p : {a, b, c}) {
            m.mesh.cornerPoints.push_back(std::uint32_t(m.mesh.pointPositions.size()));
            m.mesh.pointPositions.push_back(p);
            m.mesh.pointParents.push_back(core::kNoJoint);
            m.mesh.cornerNormals.push_back(core::Vec3::UnitX());
            m.mesh.cornerUvs.push_back(core::Vec2::Zero());
        }
        m.mesh.triangleMaterials.push_back(material);
    };
    add({0, -1, -0.5f}, {0, 1, -0.5f}, {0, 0, 0.5f}, 0);
    add({0, -0.3f, 2.5f}, {0, 0.3f, 2.5f}, {0, 0, 3.0f}, 1);
    m.mesh.materials.resize(2);
    m.mesh.materials[0].name = "body";
    m.mesh.materials[1].name = "marker";
    return std::make_shared<const core::Model>(std::move(m));
}

} // namespace

class TstViewportRender : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { render::pinRenderer(); }

    void sampleBaselines_data()
    {
        QTest::addColumn<int>("preset");
        QTest::newRow("front") << int(render::CameraPreset::Front);
        QTest::newRow("right") << int(render::CameraPreset::Right);
        QTest::newRow("top") << int(render::CameraPreset::Top);
        QTest::newRow("iso") << int(render::CameraPreset::Iso);
    }

    void sampleBaselines()
    {
        QFETCH(int, preset);
        auto model = loadSample();
        QVERIFY(model);
        auto v = test::makeTestViewport();
        QVERIFY(v);
        render::DisplayFlags flags;
        flags.axes = false;
        v->setDisplay(flags);
        v->setModel(model, QStringList{test::samplesDir()}, true);
        v->setPreset(render::CameraPreset(preset));
        v->frameAll();
        const QImage image = render::captureViewport(*v);
        QCOMPARE(image.size(), QSize(256, 256));
        QString message;
        QVERIFY2(matchesBaseline(image,
                                 QStringLiteral("TstViewportRender_sample_%1")
                                     .arg(QString::fromLatin1(QTest::currentDataTag())),
                                 &message),
                 qPrintable(message));
    }

    // Issue 27: Front looks at the face. Valve sources face -Y as written (studiomdl turns them
    // to +X), CoD exports +X; every preset turns with the front, as Blender's numpad does.
    void presetsFollowTheModelsFront()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        auto near = [](const QVector3D& a, const QVector3D& b) { return (a - b).length() < 1e-4f; };
        v->setModel(loadSample(), {}, true); // an SMD
        using P = render::CameraPreset;
        const struct {
            P preset;
            QVector3D eyeSide; // direction from the target to the eye
        } smd[] = {{P::Front, {0, -1, 0}}, {P::Back, {0, 1, 0}}, {P::Right, {1, 0, 0}},
                   {P::Left, {-1, 0, 0}},  {P::Top, {0, 0, 1}},  {P::Bottom, {0, 0, -1}}};
        for (const auto& c : smd) {
            v->setPreset(c.preset);
            QVERIFY2(near(v->camera3d().direction(), c.eyeSide), QTest::toString(int(c.preset)));
        }
        v->setPreset(P::Top); // the face (-Y) towards the bottom of the picture, +X to the right
        QVERIFY(near(v->camera3d().up(), {0, 1, 0}));
        QVERIFY(near(v->camera3d().right(), {1, 0, 0}));
        v->setPreset(P::Bottom); // the face towards the top
        QVERIFY(near(v->camera3d().up(), {0, -1, 0}));
        v->setPreset(P::Front); // Z up, the model's right hand (-X) on the picture's left
        QVERIFY(near(v->camera3d().up(), {0, 0, 1}));
        QVERIFY(near(v->camera3d().right(), {1, 0, 0}));

        core::Model cod;
        cod.format = "xmodel";
        QCOMPARE(render::frontYawDeg(cod), 0.0f);
        render::OrbitCamera cam;
        cam.setPreset(P::Front, render::frontYawDeg(cod));
        QVERIFY(near(cam.direction(), {1, 0, 0}));
        cam.setPreset(P::Right, render::frontYawDeg(cod));
        QVERIFY(near(cam.direction(), {0, 1, 0}));
        core::Model dmx;
        dmx.format = "dmx";
        QCOMPARE(render::frontYawDeg(dmx), -90.0f);
    }

    // Compare's ghost (the compiled model over the source) is in the picture when it appears:
    // v_mom_shotgun's compiled hands lay far outside the source shotgun's framing. Frame All
    // (Enter) includes it too; replacing a shown ghost keeps the user's camera.
    void theGhostIsFramed()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        v->setModel(markerModel(), {}, true);
        const render::OrbitCamera alone = v->camera3d();
        core::Model big = *markerModel();
        for (core::Vec3& p : big.mesh.pointPositions) {
            p = p * 10.0f + core::Vec3(0, 60, 0);
        }
        auto ghost = std::make_shared<const core::Model>(big);
        v->setGhostModel(ghost);
        const render::OrbitCamera both = v->camera3d();
        QVERIFY2(both.distance > alone.distance * 5, qPrintable(QString::number(both.distance)));
        QVERIFY(both.target.y() > 20); // between the two, towards the big ghost
        render::OrbitCamera mine = both;
        mine.yawDeg += 40;
        v->setCamera3d(mine);
        v->setGhostModel(ghost);
        QCOMPARE(v->camera3d(), mine);
        v->frameAll();
        QVERIFY(std::abs(v->camera3d().distance - both.distance) < 1e-3f * both.distance);
        v->setGhostModel(nullptr);
        v->frameAll();
        QVERIFY(std::abs(v->camera3d().distance - alone.distance) < 1e-3f * alone.distance);
    }

    void markerAboveCentreLandsInTopHalf()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        render::DisplayFlags flags;
        flags.grid = false;
        flags.axes = false;
        v->setDisplay(flags);
        v->setModel(markerModel(), {}, true);
        v->setPreset(render::CameraPreset::Right); // from +X
        v->frameAll();
        const QImage image = render::captureViewport(*v);
        QVERIFY(!image.isNull());
        // The marker uses palette colour 1 (orange): red well above blue.
        double sumY = 0;
        int count = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb c = image.pixel(x, y);
                if (qRed(c) - qBlue(c) > 50) {
                    sumY += y;
                    ++count;
                }
            }
        }
        QVERIFY2(count > 20, "marker not visible");
        QVERIFY2(sumY / count < image.height() / 2.0,
                 "marker rendered in the bottom half (image upside down?)");
        QString message;
        QVERIFY2(matchesBaseline(image, QStringLiteral("TstViewportRender_marker"), &message),
                 qPrintable(message));
    }

    void transparentBackground()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        v->setModel(markerModel(), {}, true);
        v->setPreset(render::CameraPreset::Right); // from +X
        v->frameAll();
        const QImage image = render::captureViewport(*v, true);
        QVERIFY(!image.isNull());
        image.save(test::outputDir() + QStringLiteral("/TstViewportRender_transparent.png"));
        QCOMPARE(qAlpha(image.pixel(2, 2)), 0);
        QCOMPARE(qAlpha(image.pixel(128, 215)), 255);
    }

    void pickingFindsJointsAndTriangles()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        auto model = loadSample();
        v->setModel(model, {}, true);
        v->setPreset(render::CameraPreset::Right); // from +X
        v->frameAll();
        auto* cam = v->camera();
        const QRect vp(0, 0, v->width(), v->height());
        const auto& world = v->scene()->jointWorld();
        const QVector3D s = render::toQt(core::Vec3(world[2].translation()))
                                .project(cam->viewMatrix(), cam->projectionMatrix(), vp);
        const render::PickResult jr = v->pick(QPoint(int(s.x()), v->height() - int(s.y())));
        QCOMPARE(jr.joint, 2);
        render::DisplayFlags noBones;
        noBones.skeleton = false;
        v->setDisplay(noBones);
        const render::PickResult tr = v->pick(QPoint(int(s.x()), v->height() - int(s.y())));
        QVERIFY(tr.triangle >= 0);
        QVERIFY(tr.corner >= 0 && tr.corner < 3);
        QVERIFY(!v->pick(QPoint(2, 2)).hit());
    }

    void windowOpensWithSample()
    {
        test::TestWindow win(QStringLiteral("tst_window.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString d = test::samplesDir();
        w.openFiles({d + QStringLiteral("/sample_ref.smd"), d + QStringLiteral("/sample_anim.smd"),
                     d + QStringLiteral("/sample_flex.vta")});
        QVERIFY(w.document()->waitForLoaded());
        QCoreApplication::processEvents();
        const QString status = w.statusSummary()->text();
        QVERIFY2(status.startsWith(QStringLiteral("reference · 4 bones · ")), qPrintable(status));
        QVERIFY(status.contains(QStringLiteral("2 materials")));
        for (const char* name :
             {"outline", "files", "inspector", "flex", "timeline", "problems", "log"}) {
            QVERIFY2(w.findChild<QDockWidget*>(QString::fromLatin1(name)), name);
        }
        auto* vp = w.viewportWidget()->viewport();
        QVERIFY(vp->scene());
        QSignalSpy fps(vp, &render::Viewport::fpsChanged);
        QTRY_VERIFY_WITH_TIMEOUT(fps.count() > 0, 3000);
        qInfo("viewport fps: %.1f", fps.last().at(0).toDouble());

        // Viewport click -> document -> tree.
        vp->setPreset(render::CameraPreset::Right); // from +X
        vp->frameAll();
        auto* cam = vp->camera();
        const QRect rect(0, 0, vp->width(), vp->height());
        const QVector3D s = render::toQt(core::Vec3(vp->scene()->jointWorld()[1].translation()))
                                .project(cam->viewMatrix(), cam->projectionMatrix(), rect);
        const QPoint at(int(s.x()), vp->height() - int(s.y()));
        QTest::mouseClick(vp, Qt::LeftButton, Qt::NoModifier, at);
        QTRY_COMPARE(w.document()->selection().kind, app::Selection::Kind::Joint);
        QCOMPARE(w.document()->selection().index, 1);
        auto* outline = w.outline();
        QCOMPARE(outline->model()->jointAt(
                     outline->proxy()->mapToSource(outline->view()->currentIndex())),
                 1);
        QCOMPARE(vp->scene()->selectedJoint(), 1);

        // Tree -> viewport.
        outline->view()->setCurrentIndex(
            outline->proxy()->mapFromSource(outline->model()->indexOfJoint(3)));
        QCOMPARE(vp->scene()->selectedJoint(), 3);

        // F12: the viewport alone, at the viewport's size.
        const QString f12 = w.saveScreenshot(test::outputDir() + QStringLiteral("/f12.png"));
        QCOMPARE(QImage(f12).size(), vp->size());
        const QString minimal =
            w.saveScreenshot(test::outputDir() + QStringLiteral("/f12_min.png"), true);
        QCOMPARE(qAlpha(QImage(minimal).pixel(1, 1)), 0);

        // K colours the mesh by the selected bone's weights.
        QTest::keyClick(vp, Qt::Key_K);
        QTRY_COMPARE(vp->display().heatMap, render::HeatMap::SelectedBone);
        app::grabWindow(w).save(test::outputDir() +
                                QStringLiteral("/TstViewportRender_window_heat.png"));
        QTest::keyClick(vp, Qt::Key_K); // influence count
        QTest::keyClick(vp, Qt::Key_K); // weight change
        QTest::keyClick(vp, Qt::Key_K); // off
        QTRY_COMPARE(vp->display().heatMap, render::HeatMap::Off);

        const QImage shot = app::grabWindow(w);
        QVERIFY(!shot.isNull());
        shot.save(test::outputDir() + QStringLiteral("/TstViewportRender_window.png"));

        // Keys typed in the viewport reach the window's actions: B hides the bones, W adds wires.
        QTest::keyClick(vp, Qt::Key_B);
        QTRY_VERIFY(!vp->display().skeleton);
        QTest::keyClick(vp, Qt::Key_W);
        QTRY_VERIFY(vp->display().wireframe);

        // A click on the mesh selects a triangle, its material and shows the corner weights.
        QTest::mouseClick(vp, Qt::LeftButton, Qt::NoModifier,
                          QPoint(vp->width() / 2, vp->height() / 2));
        QTRY_COMPARE(w.document()->selection().kind, app::Selection::Kind::Triangle);
        const int tri = w.document()->selection().index;
        const int mat = int(w.document()->primaryModel()->mesh.triangleMaterials[std::size_t(tri)]);
        QCOMPARE(outline->model()->materialAt(
                     outline->proxy()->mapToSource(outline->view()->currentIndex())),
                 mat);
        QVERIFY(
            w.inspector()->lines().join(QLatin1Char('\n')).contains(QStringLiteral("Weights: ")));
        app::grabWindow(w).save(test::outputDir() +
                                QStringLiteral("/TstViewportRender_window_triangle.png"));
    }

    void autoReloadKeepsCamera()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.smd"));
        QVERIFY(QFile::copy(test::samplesDir() + QStringLiteral("/sample_ref.smd"), path));
        test::TestWindow win(QStringLiteral("tst_watch.ini"));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({path});
        QVERIFY(w.document()->waitForLoaded());
        auto* vp = w.viewportWidget()->viewport();
        render::OrbitCamera cam = vp->camera3d();
        cam.yawDeg = 77;
        vp->setCamera3d(cam);
        QSignalSpy loaded(w.document(), &app::Document::loaded);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write("// touched\n");
        }
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() >= 1, 10000);
        QCOMPARE(vp->camera3d(), cam);

        // Issue 27: an exporter's save (many writes) is one change and one reload; a file
        // deleted and written again is reloaded when it is back, with no failed row left.
        auto* log = w.findChild<QPlainTextEdit*>();
        QVERIFY(log);
        auto changes = [log] {
            return log->toPlainText().count(QStringLiteral("Changed on disk"));
        };
        QTest::qWait(600);
        const int changesBefore = changes();
        const int loadsBefore = int(loaded.count());
        const QByteArray text = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            for (qsizetype at = 0; at < text.size(); at += text.size() / 6 + 1) {
                f.write(text.mid(at, text.size() / 6 + 1));
                f.flush();
                QTest::qWait(5);
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() == loadsBefore + 1, 10000);
        QTest::qWait(600);
        QCOMPARE(changes(), changesBefore + 1);
        QCOMPARE(int(loaded.count()), loadsBefore + 1);

        QVERIFY(QFile::remove(path));
        QTest::qWait(800);
        QVERIFY(w.document()->failedFiles().empty()); // gone: the last good version stays
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        }
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() == loadsBefore + 2, 10000);
        QVERIFY(w.document()->waitForLoaded());
        QVERIFY(w.document()->failedFiles().empty());
        for (const auto& f : w.document()->files()) {
            for (const auto& d : f.diagnostics) {
                QVERIFY2(d.id != std::string_view("io.unreadable"), d.message.c_str());
            }
        }
        // And watched still: the next save reloads again.
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write("// again\n");
        }
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() == loadsBefore + 3, 10000);
    }

    void browseFolderAndRecentFiles()
    {
        test::TestWindow win(QStringLiteral("tst_browse.ini"));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString ref =
            QFileInfo(test::samplesDir() + QStringLiteral("/sample_ref.smd")).absoluteFilePath();
        w.openFiles({ref});
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(win.settings.value(QStringLiteral("Recent/files")).toStringList().value(0), ref);
        // Natural order in the samples folder: sample_anim.smd, sample_flex.vta, sample_ref.smd;
        // wraps.
        w.browse(1);
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(QFileInfo(w.document()->primary()->path).fileName(),
                 QStringLiteral("sample_anim.smd"));
        w.browse(-1);
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(QFileInfo(w.document()->primary()->path).fileName(),
                 QStringLiteral("sample_ref.smd"));

        // Dropping a VTA on the open reference attaches it (the scene keeps the reference).
        QVERIFY(w.openDropped(
            {QUrl::fromLocalFile(test::samplesDir() + QStringLiteral("/sample_flex.vta"))},
            Qt::NoModifier));
        QVERIFY(w.document()->isLoading());
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(w.document()->files().size(), std::size_t(2));
        QCOMPARE(QFileInfo(w.document()->primary()->path).fileName(),
                 QStringLiteral("sample_ref.smd"));
        QVERIFY(!w.document()->flexNames().isEmpty());

        // A dropped folder opens its first model: compiled models count, their companions
        // (.vvd, .vtx) and other files do not.
        QTemporaryDir folder;
        const test::SourceMdlBytes b = test::writeSourceMdl(test::sampleSourceSpec());
        for (const auto& [name, bytes] : {std::pair{QStringLiteral("hero.mdl"), &b.mdl},
                                          {QStringLiteral("hero.vvd"), &b.vvd},
                                          {QStringLiteral("hero.dx90.vtx"), &b.vtx}}) {
            QFile f(folder.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes->data(), qint64(bytes->size()));
        }
        QVERIFY(w.openDropped({QUrl::fromLocalFile(folder.path())}, Qt::ShiftModifier));
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(QFileInfo(w.document()->primary()->path).fileName(), QStringLiteral("hero.mdl"));
    }

    void reloadKeepsCamera()
    {
        test::TestWindow win(QStringLiteral("tst_reload.ini"), QSize(1000, 700));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({test::samplesDir() + QStringLiteral("/sample_ref.smd"),
                     test::samplesDir() + QStringLiteral("/sample_anim.smd")});
        QVERIFY(w.document()->waitForLoaded());
        auto* vp = w.viewportWidget()->viewport();
        render::OrbitCamera cam = vp->camera3d();
        cam.yawDeg = 123;
        cam.pitchDeg = -12;
        cam.distance *= 0.5f;
        cam.target += QVector3D(0.25f, 0, 0.5f);
        cam.ortho = true;
        vp->setCamera3d(cam);
        w.document()->setCurrentAnimation(0);
        w.document()->setCurrentFrame(7);
        w.reload(true);
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(vp->camera3d(), cam);
        QCOMPARE(w.document()->currentFrame(), 7);
        w.reload(false); // Shift+F5 resets the view
        QVERIFY(w.document()->waitForLoaded());
        QVERIFY(!(vp->camera3d() == cam));
    }

    void screenshotCommand()
    {
        app::GuiOptions o;
        o.files = {test::samplesDir() + QStringLiteral("/sample_ref.smd"),
                   test::samplesDir() + QStringLiteral("/sample_anim.smd")};
        o.screenshot = test::outputDir() + QStringLiteral("/shot_{model}_{anim}_{frame:03}.png");
        o.size = QSize(200, 150);
        o.anim = QStringLiteral("sample_anim");
        o.frame = -1;
        QString error;
        QCOMPARE(app::runScreenshot(o, &error), 0);
        const QImage written(test::outputDir() +
                             QStringLiteral("/shot_sample_ref_sample_anim_030.png"));
        QCOMPARE(written.size(), QSize(200, 150));

        o.files = {test::outputDir() + QStringLiteral("/does_not_exist.smd")};
        QCOMPARE(app::runScreenshot(o, &error), 1);
        QVERIFY(!error.isEmpty());
    }
};

QTEST_MAIN(TstViewportRender)
#include "tst_viewport_render.moc"
