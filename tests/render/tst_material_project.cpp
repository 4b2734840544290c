// rigscope-test: TIMEOUT 300
// One lookup for a QC project's materials (issue 18): the viewport, the Inspector's rows (the
// scene's looks) and the checks all search the QC's $cdmaterials folders under the same roots.
// A project written to a temporary folder: `skin` lies where $cdmaterials says and is drawn
// with its VTF; `eyes` lies only at the top of materials/ (found by name alone, never by the
// engine): the checkerboard in the viewport and one material.missing in the Problems. A
// --materials root holding the eyes where the QC looks makes both agree again.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "app/document/document.h"
#include "app/widgets/materials_page.h"
#include "app/widgets/viewport_widget.h"
#include "core/diag/diagnostic_ids.h"
#include "render/model_scene.h"
#include "render/render_capture.h"
#include "tests/support/render_support.h"
#include "tests/support/vtf_encoder.h"

using namespace rigscope;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

// Two vertical quads facing +X: `skin` at y < 0, `eyes` at y > 0.
QByteArray twoQuads()
{
    QByteArray s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                   "triangles\n";
    auto quad = [&](const char* mat, float y0, float y1) {
        auto v = [&](float y, float z, float u, float w) {
            s += QStringLiteral("0 0 %1 %2 1 0 0 %3 %4\n").arg(y).arg(z).arg(u).arg(w).toUtf8();
        };
        s += QByteArray(mat) + '\n';
        v(y0, 0, 0, 0), v(y1, 0, 1, 0), v(y1, 2, 1, 1);
        s += QByteArray(mat) + '\n';
        v(y0, 0, 0, 0), v(y1, 2, 1, 1), v(y0, 2, 0, 1);
    };
    quad("skin", -2.0f, -0.1f);
    quad("eyes", 0.1f, 2.0f);
    return s + "end\n";
}

QByteArray greenVtf()
{
    const std::string vtf = test::solidVtf(16, {20, 220, 40, 255}, core::VtfFormat::Bgr888);
    return QByteArray(vtf.data(), qsizetype(vtf.size()));
}

struct Counts {
    int green = 0, magenta = 0;
};

Counts count(const QImage& img)
{
    Counts c;
    for (int y = 0; y < img.height(); ++y) {
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            if (qGreen(p) > 120 && qRed(p) < 90 && qBlue(p) < 90) {
                ++c.green;
            } else if (qRed(p) > 120 && qBlue(p) > 120 && qGreen(p) < 80) {
                ++c.magenta;
            }
        }
    }
    return c;
}

// material.missing diagnostics of the document, by the material name in their message.
QStringList missingMaterials(const app::Document& doc)
{
    QStringList out;
    for (const app::LoadedFile& f : doc.files()) {
        for (const core::Diagnostic& d : f.diagnostics) {
            if (d.id == core::ids::kMaterialMissing) {
                out << QString::fromStdString(d.message).section(QLatin1Char('\''), 1, 1);
            }
        }
    }
    return out;
}

} // namespace

class TstMaterialProject : public QObject {
    Q_OBJECT
private slots:
    void viewportAndChecksAgree();
};

void TstMaterialProject::viewportAndChecksAgree()
{
    QTemporaryDir dir;
    write(dir.filePath(QStringLiteral("game/models/hero.smd")), twoQuads());
    write(dir.filePath(QStringLiteral("game/hero.qc")),
          "$modelname \"hero.mdl\"\n$cdmaterials \"models\\\\hero\\\\\"\n"
          "$body body \"models/hero.smd\"\n$sequence idle \"models/hero.smd\"\n");
    write(dir.filePath(QStringLiteral("game/materials/models/hero/skin.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/skin\"\n}\n");
    write(dir.filePath(QStringLiteral("game/materials/models/hero/skin.vtf")), greenVtf());
    write(dir.filePath(QStringLiteral("game/materials/eyes.vmt")),
          "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/skin\"\n}\n");

    test::TestWindow win(QStringLiteral("tst_material_project.ini"), QSize(900, 600));
    app::MainWindow& w = win.w;
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    render::DisplayFlags flags;
    flags.axes = flags.grid = flags.skeleton = false;
    w.viewportWidget()->viewport()->setDisplay(flags);
    w.openFiles({dir.filePath(QStringLiteral("game/hero.qc"))});
    QTRY_VERIFY(w.document()->qcProject());
    QTRY_VERIFY(w.viewportWidget()->viewport()->scene());
    QTRY_VERIFY_WITH_TIMEOUT(!w.document()->isChecking(), 20000);

    const render::ModelScene* scene = w.viewportWidget()->viewport()->scene();
    const auto& mats = scene->model().mesh.materials;
    QCOMPARE(int(mats.size()), 2);
    const std::size_t skin = mats[0].name.starts_with("skin") ? 0 : 1;
    const std::size_t eyes = 1 - skin;
    const render::MaterialLook* s = scene->materialLook(skin);
    const render::MaterialLook* e = scene->materialLook(eyes);
    QVERIFY(s && e);
    QVERIFY(s->found && !s->byNameAlone && !s->checkerboard);
    QVERIFY2(s->vmtPath.endsWith(QStringLiteral("game/materials/models/hero/skin.vmt")),
             qPrintable(s->vmtPath));
    QVERIFY(s->texturePath.endsWith(QStringLiteral("skin.vtf")));
    // Under $cdmaterials only: the VMT at the top of materials/ does not count.
    QVERIFY(!e->found && e->checkerboard);
    QCOMPARE(e->searched.size(), 1);
    QVERIFY2(e->searched[0].endsWith(QStringLiteral("materials/models/hero/eyes.vmt")),
             qPrintable(e->searched.join(u';')));
    QCOMPARE(missingMaterials(*w.document()), QStringList{QStringLiteral("eyes")});

    auto* view = w.viewportWidget()->viewport();
    view->setPreset(render::CameraPreset::Right); // from +X
    view->frameAll();
    QImage image = render::captureViewport(*view);
    image.save(test::outputDir() + QStringLiteral("/TstMaterialProject_qc.png"));
    Counts c = count(image);
    QVERIFY2(c.green > 2000 && c.magenta > 800,
             qPrintable(QStringLiteral("%1 %2").arg(c.green).arg(c.magenta)));

    // A --materials root that holds the eyes where the QC looks: found by both.
    write(dir.filePath(QStringLiteral("extra/materials/models/hero/eyes.vmt")),
          "\"UnlitGeneric\"\n{\n\t\"$basetexture\" \"models/hero/skin\"\n}\n");
    write(dir.filePath(QStringLiteral("extra/materials/models/hero/skin.vtf")), greenVtf());
    w.setMaterialRoots({dir.filePath(QStringLiteral("extra"))});
    w.reload(true);
    QTRY_VERIFY_WITH_TIMEOUT(!w.document()->isLoading() && !w.document()->isChecking(), 20000);
    QTRY_VERIFY(view->scene() && view->scene()->materialLook(eyes) &&
                view->scene()->materialLook(eyes)->found);
    e = view->scene()->materialLook(eyes);
    QCOMPARE(e->shader, QStringLiteral("UnlitGeneric"));
    QVERIFY(e->vmtPath.contains(QStringLiteral("extra/materials")));
    QCOMPARE(e->searched.size(), 2); // --materials root first, then the one above the QC
    QVERIFY(missingMaterials(*w.document()).isEmpty());
    image = render::captureViewport(*view);
    c = count(image);
    QVERIFY2(c.green > 4000 && c.magenta < 50,
             qPrintable(QStringLiteral("%1 %2").arg(c.green).arg(c.magenta)));

    // The same root from Settings ▸ Materials instead of --materials: applied, it reloads.
    w.setMaterialRoots({});
    w.reload(true);
    QTRY_VERIFY_WITH_TIMEOUT(!w.document()->isLoading() && !w.document()->isChecking(), 20000);
    QTRY_VERIFY(view->scene() && !view->scene()->materialLook(eyes)->found);
    app::SettingsDialog* dialog = w.openSettings();
    auto* page = qobject_cast<app::MaterialsPage*>(dialog->page(QStringLiteral("Materials")));
    QVERIFY(page);
    QVERIFY(page->addRoot(dir.filePath(QStringLiteral("extra"))));
    dialog->apply();
    QCOMPARE(w.document()->materialRoots(), QStringList{dir.filePath(QStringLiteral("extra"))});
    QTRY_VERIFY_WITH_TIMEOUT(view->scene() && view->scene()->materialLook(eyes)->found, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.document()->isChecking(), 20000);
    QVERIFY(missingMaterials(*w.document()).isEmpty());
    dialog->close();
}

QTEST_MAIN(TstMaterialProject)
#include "tst_material_project.moc"
