// The Physics view in the window (issue 31 items 3 and 4): a QC project with a ragdoll of three
// boxes shows one hull entity per convex piece when the view is on, and the first solid's
// colour appears in the viewport only then; the selected bone's limits are drawn as arcs; the
// status bar shows the budget and the bone's mass, the inspector its solid; the toggle persists;
// Simulate Ragdoll poses the model from the solids at rest (12 inches lower, on the floor), puts
// phys.ragdoll-unstable (a 1:299 mass ratio) into the primary file's diagnostics, and Back to
// Pose restores the bind pose.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>

#include "app/document/document.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/physics_view.h"
#include "app/widgets/viewport_widget.h"
#include "render/materials.h"
#include "render/physics_scene.h"
#include "render/render_capture.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// Boxes rigid on their bones; bones 0, 1, 2 ten inches apart along X.
std::string smd(float half)
{
    std::string s = "version 1\nnodes\n0 \"root\" -1\n1 \"mid\" 0\n2 \"tip\" 1\nend\n"
                    "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 10 0 0 0 0 0\n2 10 0 0 0 0 0\nend\n"
                    "triangles\n";
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                             {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (int b = 0; b < 3; ++b) {
        const double cx = 10.0 * b + 5, cz = 2;
        auto corner = [&](int i) {
            return std::array<double, 3>{cx + (i & 1 ? 4 : -4) * half, (i & 2 ? 2 : -2) * half,
                                         cz + (i & 4 ? 2 : -2) * half};
        };
        for (const auto& q : quads) {
            for (const int tri : {0, 1}) {
                s += "mat\n";
                for (int k : {q[0], q[1 + tri], q[2 + tri]}) {
                    const auto p = corner(k);
                    const double nx = p[0] - cx, ny = p[1], nz = p[2] - cz;
                    const double l = std::sqrt(nx * nx + ny * ny + nz * nz);
                    s += std::to_string(b) + " " + num(p[0]) + " " + num(p[1]) + " " + num(p[2]) +
                         " " + num(nx / l) + " " + num(ny / l) + " " + num(nz / l) + " 0 0\n";
                }
            }
        }
    }
    return s + "end\n";
}

// Pixels of the first solid's hue (lit anywhere from dark to bright), saturated.
int hullPixels(const QImage& image)
{
    const float hue = render::physicsSolidColor(0).hsvHueF();
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            const float h = c.hsvHueF();
            n += h >= 0 && std::abs(h - hue) < 0.03f && c.hsvSaturationF() > 0.45f &&
                         c.valueF() > 0.2f
                     ? 1
                     : 0;
        }
    }
    return n;
}

} // namespace

class TstWindowPhysics : public QObject {
    Q_OBJECT
private slots:
    void hullsLimitsAndDrop();
    void propHullIsPosedByTheFirstAnimation();
};

void TstWindowPhysics::hullsLimitsAndDrop()
{
    QTemporaryDir tmp;
    auto put = [&](const QString& name, const std::string& text) {
        QFile f(tmp.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), static_cast<qint64>(text.size()));
    };
    // The visible boxes are half the size of the collision boxes: the hulls show around them.
    put(QStringLiteral("body.smd"), smd(0.5f));
    put(QStringLiteral("phys.smd"), smd(1.0f));
    put(QStringLiteral("rag.qc"), "$modelname \"t/rag.mdl\"\n$body body \"body.smd\"\n"
                                  "$collisionjoints \"phys.smd\" {\n\t$mass 300\n"
                                  "\t$jointmassbias tip 1000\n"
                                  "\t$jointconstrain mid z limit -30 45\n}\n");
    test::TestWindow win(QStringLiteral("tst_window_physics.ini"), QSize(1100, 700));
    app::MainWindow& w = win.w;
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    app::PhysicsView* pv = w.physicsView();
    QVERIFY(pv);
    QVERIFY(!pv->isShown());
    w.openFiles({tmp.filePath(QStringLiteral("rag.qc"))});
    QTRY_VERIFY(w.document()->qcProject());
    QTRY_VERIFY(w.viewportWidget()->viewport()->scene());
    QTRY_VERIFY(!w.document()->isLoading());
    QTRY_COMPARE(pv->drawModel().solids.size(), std::size_t(3));
    QVERIFY(!pv->scene());
    render::Viewport& view = *w.viewportWidget()->viewport();
    view.frameAll();
    const int before = hullPixels(render::captureViewport(view));

    // On: one entity per convex piece, the first solid's colour on screen.
    pv->toggleAction()->trigger();
    QVERIFY(pv->isShown());
    QTRY_VERIFY(pv->scene());
    QCOMPARE(pv->scene()->hullEntities().size(), pv->drawModel().pieceCount());
    QCOMPARE(pv->scene()->hullEntities().size(), std::size_t(3));
    QTRY_VERIFY_WITH_TIMEOUT(hullPixels(render::captureViewport(view)) > before + 200, 10000);
    // See-through: each piece is blended over the model (drawn after it), not painted over it.
    for (Qt3DCore::QEntity* hull : pv->scene()->hullEntities()) {
        const auto materials = hull->componentsOfType<render::ShadedMaterial>();
        QCOMPARE(materials.size(), qsizetype(1));
        QCOMPARE(materials.front()->blend(), render::ShadedMaterial::Blend::Alpha);
        QVERIFY(std::abs(materials.front()->baseColor().alphaF() - render::kPhysicsHullOpacity) <
                1e-3f);
    }
    {
        // The body (grey, half the hull's size) shows through at the view's centre: the pixel
        // is a hull's colour mixed with the grey behind it. Measured on llvmpipe: saturation
        // 0.46 see-through, 0.73 with opaque hulls; every solid's colour has 0.75.
        const QImage img = render::captureViewport(view);
        const QColor mid = img.pixelColor(img.width() / 2, img.height() / 2);
        QVERIFY2(mid.hsvSaturationF() < 0.8f * render::physicsSolidColor(0).hsvSaturationF(),
                 qPrintable(mid.name()));
    }
    QVERIFY(pv->statusLabel()->isVisible());
    QVERIFY2(pv->statusLabel()->text().startsWith(QStringLiteral("Physics: 3/32 solids, 3 pieces")),
             qPrintable(pv->statusLabel()->text()));

    // The selected bone's limits: three axes (x, y locked: a spoke each; z an arc).
    const int mid = 1;
    w.document()->setSelection({app::Selection::Kind::Joint, mid});
    QTRY_COMPARE(pv->scene()->selectedSolid(), 1);
    QVERIFY(pv->scene()->arcSegments() > 10);
    QTRY_VERIFY(pv->statusLabel()->text().contains(QStringLiteral("mid: 1.00 kg")));
    // The inspector shows the bone's solid.
    QTRY_VERIFY(
        w.inspector()->lines().join(QLatin1Char('\n')).contains(QStringLiteral("Physics solid")));
    QVERIFY(w.inspector()->lines().join(QLatin1Char('\n')).contains(QStringLiteral("1.00 kg")));

    // Simulate Ragdoll: every bone 12 inches lower (the floor), the mass ratio flagged.
    const float rootZ = view.scene()->jointWorld()[0].translation().z();
    QVERIFY(pv->simulate());
    QVERIFY(pv->lastDrop() && pv->lastDrop()->rested);
    QVERIFY(std::abs(view.scene()->jointWorld()[0].translation().z() - (rootZ - 11.92f)) < 0.3f);
    QVERIFY(std::abs(view.scene()->jointWorld()[2].translation().z() - (rootZ - 11.92f)) < 0.3f);
    bool flagged = false;
    for (const core::Diagnostic& d : w.document()->primary()->diagnostics) {
        flagged = flagged || (d.id == "phys.ragdoll-unstable" && d.where.line == 3);
    }
    QVERIFY(flagged);
    // Back to Pose: the bind pose again.
    pv->backToPoseAction()->trigger();
    QVERIFY(std::abs(view.scene()->jointWorld()[0].translation().z() - rootZ) < 1e-4f);

    // Off again: the hulls go; the choice is stored.
    pv->toggleAction()->trigger();
    QVERIFY(!pv->scene());
    QCOMPARE(win.settings.value(QStringLiteral("Viewport/physics")).toBool(), false);
}

// A prop's predicted hull where studiomdl puts it (ConvertToWorldSpace poses the collision mesh
// by the first animation's frame 0), the same function `compare` and `physics X.qc` use
// (qcCollisionMesh): the root 10 up in that frame lifts the 2 x 4 x 1 box to z = 10..11.
void TstWindowPhysics::propHullIsPosedByTheFirstAnimation()
{
    QTemporaryDir tmp;
    auto put = [&](const QString& name, const std::string& text) {
        QFile f(tmp.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), static_cast<qint64>(text.size()));
    };
    auto box = [](double x0, double y0, double z0, double x1, double y1, double z1) {
        std::string s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                        "0 0 0 0 0 0 0\nend\ntriangles\n";
        const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                 {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
        for (const auto& q : quads) {
            for (const int tri : {0, 1}) {
                s += "mat\n";
                for (int k : {q[0], q[1 + tri], q[2 + tri]}) {
                    s += "0 " + num(k & 1 ? x1 : x0) + " " + num(k & 2 ? y1 : y0) + " " +
                         num(k & 4 ? z1 : z0) + " 0 0 1 0 0\n";
                }
            }
        }
        return s + "end\n";
    };
    put(QStringLiteral("body.smd"), box(-5, -5, 5, 5, 5, 15));
    put(QStringLiteral("phys.smd"), box(0, 0, 0, 2, 4, 1));
    put(QStringLiteral("up.smd"), "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                                  "0 0 0 10 0 0 0\nend\n");
    put(QStringLiteral("prop.qc"), "$modelname \"t/prop.mdl\"\n$body body \"body.smd\"\n"
                                   "$sequence idle \"up.smd\"\n"
                                   "$collisionmodel \"phys.smd\" {\n\t$mass 10\n}\n");
    test::TestWindow win(QStringLiteral("tst_window_physics.ini"), QSize(800, 600));
    app::MainWindow& w = win.w;
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFiles({tmp.filePath(QStringLiteral("prop.qc"))});
    QTRY_VERIFY(w.document()->qcProject());
    QTRY_VERIFY(!w.document()->isLoading());
    app::PhysicsView* pv = w.physicsView();
    QTRY_COMPARE(pv->drawModel().solids.size(), std::size_t(1));
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e9), hi = -lo;
    for (const render::PhysicsDrawSolid& s : pv->drawModel().solids) {
        for (const render::PhysicsDrawPiece& p : s.pieces) {
            for (const Eigen::Vector3d& v : p.vertices) {
                lo = lo.cwiseMin(s.boneToModel * v);
                hi = hi.cwiseMax(s.boneToModel * v);
            }
        }
    }
    QCOMPARE(lo, Eigen::Vector3d(0, 0, 10));
    QCOMPARE(hi, Eigen::Vector3d(2, 4, 11));
}

QTEST_MAIN(TstWindowPhysics)
#include "tst_window_physics.moc"
