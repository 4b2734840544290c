// rigscope-test: TIMEOUT 300
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTreeView>

#include "app/widgets/budget_bar.h"
#include "app/widgets/main_window.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/viewport_widget.h"
#include "app/widgets/window_grab.h"
#include "render/render_capture.h"
#include "render/render_setup.h"
#include "render/viewport.h"
#include "tests/support/render_support.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

// tests/fixtures/app/problems_mix.smd, front view: the left quad (y < 0) has 4 links per
// vertex (over source's 3), the right quad 1 link, the top triangle NaN / zero-sum /
// undeclared-bone vertices, plus one zero-area triangle.
QString mixPath()
{
    return test::fixturesDir() + QStringLiteral("/app/problems_mix.smd");
}

std::shared_ptr<const core::Model> loadMix()
{
    const core::ReadResult r = test::readPath(mixPath());
    return r.hasModel ? std::make_shared<const core::Model>(r.model) : nullptr;
}

struct Census {
    int red = 0;     // over the link limit
    int magenta = 0; // problem vertices
    int blue = 0;    // one link
    int saturated = 0;
};

// Counts pixel classes in columns [x0, x1) of rows [y0, height).
Census census(const QImage& image, int x0 = 0, int x1 = -1, int y0 = 0)
{
    Census c;
    x1 = x1 < 0 ? image.width() : x1;
    for (int y = y0; y < image.height(); ++y) {
        for (int x = x0; x < x1; ++x) {
            const QRgb p = image.pixel(x, y);
            const int r = qRed(p), g = qGreen(p), b = qBlue(p);
            c.red += r > 140 && g < 60 && b < 60;
            c.magenta += r > 140 && b > 140 && g < 90;
            c.blue += b > 140 && r < 110 && g < 150;
            c.saturated += std::max({r, g, b}) - std::min({r, g, b}) > 60;
        }
    }
    return c;
}

bool isMagenta(const QColor& c)
{
    return c.red() > 200 && c.blue() > 200 && c.green() < 80;
}

} // namespace

class TstWeightViews : public QObject {
    Q_OBJECT

private:
    QImage shoot(render::Viewport& v, render::HeatMap mode)
    {
        render::DisplayFlags f;
        f.grid = f.axes = f.skeleton = false;
        f.heatMap = mode;
        v.setDisplay(f);
        return render::captureViewport(v);
    }

private slots:
    void initTestCase() { render::pinRenderer(); }

    void modesColourTheMesh()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        v->setModel(loadMix(), {}, true);
        v->setPreset(render::CameraPreset::Right); // from +X
        v->frameAll();
        const QImage off = shoot(*v, render::HeatMap::Off);
        const QImage influence = shoot(*v, render::HeatMap::InfluenceCount);
        const QImage change = shoot(*v, render::HeatMap::WeightChange);
        const QString out = test::outputDir() + QStringLiteral("/TstWeightViews_");
        off.save(out + QStringLiteral("off.png"));
        influence.save(out + QStringLiteral("influence.png"));
        change.save(out + QStringLiteral("change.png"));

        const int half = off.width() / 2;
        // Off: palette colours, nothing red or magenta.
        const Census o = census(off);
        QCOMPARE(o.red, 0);
        QCOMPARE(o.magenta, 0);

        // Influence count: the 4-link quad (left) is red, the 1-link quad (right) blue, the
        // problem triangle (top centre) magenta.
        const Census left = census(influence, 0, half - 8);
        const Census right = census(influence, half + 8);
        QVERIFY2(left.red > 1500, qPrintable(QString::number(left.red)));
        QCOMPARE(right.red, 0);
        QVERIFY2(right.blue > 1500, qPrintable(QString::number(right.blue)));
        QVERIFY2(census(influence).magenta > 300,
                 qPrintable(QString::number(census(influence).magenta)));

        // Weight change: the clipped left quad changes (coloured), the 1-link right quad does
        // not (slate, unsaturated).
        // (Rows below the top triangle, whose NaN / zero-sum vertices change completely.)
        const int below = off.height() * 56 / 100;
        const Census cl = census(change, 0, half - 8, below);
        const Census cr = census(change, half + 8, -1, below);
        QVERIFY2(cl.saturated > 1500, qPrintable(QString::number(cl.saturated)));
        QVERIFY2(cr.saturated < 50, qPrintable(QString::number(cr.saturated)));
        QCOMPARE(cl.red, 0);
        QVERIFY(census(change).red > 100); // the top triangle
        QVERIFY(change != influence);
    }

    void selectedBoneFollowsCompiledWeights()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        v->setModel(loadMix(), {}, true);
        auto* scene = v->scene();
        render::DisplayFlags f;
        f.heatMap = render::HeatMap::SelectedBone;
        v->setDisplay(f);
        v->setSelectedJoint(4); // 'd': 0.1 authored on the left quad, culled... clipped when
                                // compiled
        const QColor authored = scene->heatColors()[0];
        QCOMPARE(authored, render::weightRampColor(0.1f));
        f.compiledWeights = true;
        v->setDisplay(f);
        QCOMPARE(scene->heatColors()[0], render::weightRampColor(0.0f));
        v->setSelectedJoint(2); // 'b': the right quad at 1.0 either way
        QCOMPARE(scene->heatColors()[6], render::weightRampColor(1.0f));
    }

    void problemPointsFromDiagnostics()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        v->setModel(loadMix(), {}, true);
        auto* scene = v->scene();
        render::DisplayFlags f;
        f.heatMap = render::HeatMap::InfluenceCount;
        v->setDisplay(f);
        // Vertices 12 (NaN) and 13 (zero sum) are problems by the model alone; 14's link to
        // bone 9 was dropped by the reader, so only the diagnostic knows.
        QVERIFY(isMagenta(scene->heatColors()[12]));
        QVERIFY(isMagenta(scene->heatColors()[13]));
        QVERIFY(!isMagenta(scene->heatColors()[14]));
        std::vector<std::uint8_t> mask(scene->model().mesh.pointCount(), 0);
        mask[14] = 1;
        scene->setProblemPoints(mask);
        QVERIFY(isMagenta(scene->heatColors()[14]));
        // goldsrc keeps one link: the right quad stays within it, the left one is over.
        v->setWeightProfile(core::Profile::GoldSrc);
        QCOMPARE(scene->heatColors()[0], render::influenceCountColor(4, true, false));
        QCOMPARE(scene->heatColors()[6], render::influenceCountColor(1, false, false));
    }

    void compiledSkinningMovesVertices()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        auto model = loadMix();
        v->setModel(model, {}, true);
        auto* scene = v->scene();
        // Pose: bone 'd' (4) lifted by 1 unit; everything else at rest.
        std::vector<Eigen::Affine3f> world = scene->jointWorld();
        world[4].pretranslate(core::Vec3(0, 0, 1));
        scene->setPose(world);
        const float rest = model->mesh.pointPositions[0].z();
        // Authored: 'd' holds 0.1 of vertex 0.
        QVERIFY(std::abs(scene->pointPositions()[0].z() - (rest + 0.1f)) < 1e-4f);
        render::DisplayFlags f;
        f.compiledWeights = true;
        v->setDisplay(f);
        // Compiled (source): clipped to 3 links, 'd' dropped: vertex 0 stays.
        QVERIFY(std::abs(scene->pointPositions()[0].z() - rest) < 1e-4f);
        const QImage compiled = render::captureViewport(*v);
        f.compiledWeights = false;
        v->setDisplay(f);
        QVERIFY(std::abs(scene->pointPositions()[0].z() - (rest + 0.1f)) < 1e-4f);
        QVERIFY(render::captureViewport(*v) != compiled);
    }

    // Weight change in a pose: how far each point moves between authored and compiled skinning.
    void weightChangeShowsDisplacementInAPose()
    {
        auto v = test::makeTestViewport();
        QVERIFY(v);
        auto model = loadMix();
        v->setModel(model, {}, true);
        auto* scene = v->scene();
        const QImage atRest = shoot(*v, render::HeatMap::WeightChange);
        QCOMPARE(scene->maxDisplacement(), 0.0f); // rest pose: the pose-free weight change
        std::vector<Eigen::Affine3f> world = scene->jointWorld();
        world[4].pretranslate(
            core::Vec3(0, 0, 1)); // 'd' holds 0.1 of the left quad, source drops it
        scene->setPose(world);
        QVERIFY(std::abs(scene->maxDisplacement() - 0.1f) < 1e-4f);
        const QImage posed = render::captureViewport(*v);
        QVERIFY(posed != atRest);
        // The left quad (4 links, 'd' culled) moves most: red. Nothing else moves: no red there.
        auto reds = [&posed](int x0, int x1) {
            int n = 0;
            for (int y = 0; y < posed.height(); ++y) {
                for (int x = x0; x < x1; ++x) {
                    const QRgb p = posed.pixel(x, y);
                    n += qRed(p) > 100 && qGreen(p) < 60 && qBlue(p) < 60;
                }
            }
            return n;
        };
        const int half = posed.width() / 2;
        QVERIFY2(reds(0, half) > 500, qPrintable(QString::number(reds(0, half))));
        QCOMPARE(reds(half, posed.width()), 0);
    }

    void windowKeysLegendBudgetsAndProfile()
    {
        test::TestWindow win(QStringLiteral("tst_weight_views.ini"), QSize(1400, 900));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({mixPath()});
        QVERIFY(w.document()->waitForLoaded());
        QCoreApplication::processEvents();

        // Problems: the dock shows itself (errors) with its counts.
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("problems"));
        QVERIFY(dock->isVisible());
        QCOMPARE(w.problems()->countsText(), QStringLiteral("2 errors · 5 warnings · 3 notes"));

        // Budget bars: bones, materials, vertices, flexed vertices for source.
        const auto& bars = w.budgetBars();
        QCOMPARE(bars.size(), std::size_t(4));
        QCOMPARE(bars[0]->text(), QStringLiteral("bones 6/127"));
        QCOMPARE(bars[1]->text(), QStringLiteral("materials 3/32"));
        QCOMPARE(bars[0]->level(), app::BudgetBar::Level::Ok);
        QVERIFY(bars[1]->toolTip().contains(QStringLiteral("source")));

        // K cycles the weight views; the legend says which one is on.
        auto* vp = w.viewportWidget()->viewport();
        QVERIFY(!w.heatLegend()->isVisible());
        QTest::keyClick(vp, Qt::Key_K);
        QTRY_COMPARE(vp->display().heatMap, render::HeatMap::SelectedBone);
        QTest::keyClick(vp, Qt::Key_K);
        QTRY_COMPARE(vp->display().heatMap, render::HeatMap::InfluenceCount);
        QVERIFY(w.heatLegend()->isVisible());
        QVERIFY2(w.heatLegend()->text().contains(QStringLiteral("over 3 (source)")),
                 qPrintable(w.heatLegend()->text()));
        QTest::keyClick(vp, Qt::Key_K, Qt::ShiftModifier);
        QTRY_VERIFY(vp->display().compiledWeights);
        QVERIFY(w.heatLegend()->text().contains(QStringLiteral("compiled (source)")));

        // F8 selects the first problem; errors come first: the NaN-weighted vertex.
        QTest::keyClick(vp, Qt::Key_F8);
        QTRY_COMPARE(w.document()->selection().kind, app::Selection::Kind::Triangle);
        QCOMPARE(w.problems()->view()->currentIndex().data().toString(), QStringLiteral("error"));
        app::grabWindow(w).save(test::outputDir() +
                                QStringLiteral("/TstWeightViews_window_influence.png"));

        // The profile combo re-runs checks, budgets and the weight views.
        QSignalSpy changed(w.document(), &app::Document::diagnosticsChanged);
        w.profileBox()->setCurrentIndex(w.profileBox()->findData(int(core::Profile::GoldSrc)));
        QTRY_COMPARE(changed.count(), 1); // checked in the background
        QCOMPARE(bars[1]->text(), QStringLiteral("materials 3/100"));
        QCOMPARE(vp->weightProfile(), core::Profile::GoldSrc);
        QVERIFY(w.heatLegend()->text().contains(QStringLiteral("over 1 (goldsrc)")));
        // Not stored: the next launch starts on auto (issue 15, docs/viewer.md).
        QVERIFY(!win.settings.contains(QStringLiteral("Checks/profile")));
        w.setProfile(core::Profile::Auto);
        QTRY_COMPARE(bars[1]->text(), QStringLiteral("materials 3/32"));

        // 33 materials: the materials bar is over (red).
        w.openFiles({test::fixturesDir() + QStringLiteral("/checks/mesh.material-limit.smd")});
        QVERIFY(w.document()->waitForLoaded());
        QCOMPARE(bars[1]->text(), QStringLiteral("materials 33/32"));
        QCOMPARE(bars[1]->level(), app::BudgetBar::Level::Over);
        QTest::keyClick(vp, Qt::Key_K);
        QTRY_COMPARE(vp->display().heatMap, render::HeatMap::WeightChange);
        QTest::keyClick(vp, Qt::Key_K);
        QTRY_COMPARE(vp->display().heatMap, render::HeatMap::Off);
        QVERIFY(w.heatLegend()->text().contains(QStringLiteral("compiled")));
    }
};

QTEST_MAIN(TstWeightViews)
#include "tst_weight_views.moc"
