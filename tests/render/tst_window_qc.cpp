// QC projects in the window (issue 17): the Bodygroups dock comes forward, a changed file of
// the project (not only the .qc) reloads it keeping the bodygroup choice, and the hitboxes are
// drawn (pixels of the head hitbox's colour appear only while it is shown).
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>

#include "app/document/document.h"
#include "app/widgets/bodygroups_panel.h"
#include "app/widgets/viewport_widget.h"
#include "core/ops/qc_ops.h"
#include "render/render_capture.h"
#include "render/render_setup.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

bool copyProject(const QDir& to)
{
    const QDir src(test::fixturesDir() + QStringLiteral("/qc/goldsrc"));
    for (const QString& f : src.entryList(QDir::Files)) {
        if (!QFile::copy(src.filePath(f), to.filePath(f))) {
            return false;
        }
    }
    return true;
}

int redPixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.red() > 200 && c.green() < 110 && c.blue() < 110 ? 1 : 0;
        }
    }
    return n;
}

} // namespace

class TstWindowQc : public QObject {
    Q_OBJECT
private slots:
    void reloadsOnAnyProjectFile()
    {
        QTemporaryDir tmp;
        QVERIFY(copyProject(QDir(tmp.path())));
        test::TestWindow win(QStringLiteral("tst_window_qc.ini"), QSize(1100, 700));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({tmp.filePath(QStringLiteral("scientist.qc"))});
        QTRY_VERIFY(w.document()->qcProject());
        QTRY_VERIFY(w.viewportWidget()->viewport()->scene());
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("bodygroups"));
        QVERIFY(dock);
        auto* panel = dock->findChild<app::BodygroupsPanel*>();
        QVERIFY(panel);
        QTRY_COMPARE(int(panel->choiceBoxes().size()), 2);
        panel->choiceBoxes()[1]->setCurrentIndex(1); // head2
        QTRY_COMPARE(w.document()->primaryModel()->mesh.triangleCount(), std::size_t(2 + 4));
        QTRY_VERIFY(!w.document()->isLoading());
        // Hitboxes drawn: the head box is red (hit group 1).
        QTRY_VERIFY(redPixels(render::captureViewport(*w.viewportWidget()->viewport())) > 20);
        // Deleting a body file of the project reloads it (the .qc itself is unchanged).
        QVERIFY(QFile::remove(tmp.filePath(QStringLiteral("head2.smd"))));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.document()->qcProject() && w.document()->qcProject()->errors == 1, 10000);
        QCOMPARE(w.document()->qcView().choices, (std::vector<int>{0, 1}));
        QCOMPARE(w.document()->primaryModel()->mesh.triangleCount(), std::size_t(2));
    }
};

QTEST_MAIN(TstWindowQc)
#include "tst_window_qc.moc"
