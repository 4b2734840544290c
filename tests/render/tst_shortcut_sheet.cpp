// The H / F1 cheat-sheet: read from the window's menus (keys, live toggle states), plus the
// viewport's mouse and camera controls; opened and closed by its key; looked at as a PNG.
#include <QtTest/QtTest>
#include <QtWidgets/QMenuBar>

#include "app/widgets/shortcut_sheet.h"
#include "app/widgets/viewport_widget.h"
#include "render/render_setup.h"
#include "tests/support/render_support.h"

using namespace rigscope;

namespace {

const app::ShortcutSheet::Entry* find(const std::vector<app::ShortcutSheet::Entry>& entries,
                                      const QString& text)
{
    for (const auto& e : entries) {
        if (e.text == text) {
            return &e;
        }
    }
    return nullptr;
}

QAction* menuAction(app::MainWindow& w, const QString& text)
{
    for (QAction* top : w.menuBar()->actions()) {
        if (!top->menu()) {
            continue;
        }
        for (QAction* a : top->menu()->actions()) {
            if (a->text() == text) {
                return a;
            }
        }
    }
    return nullptr;
}

} // namespace

class TstShortcutSheet : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { render::pinRenderer(); }

    void listsEveryKeyWithLiveState()
    {
        test::TestWindow win(QStringLiteral("tst_shortcut_sheet.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.shortcutSheet());

        w.toggleShortcutSheet();
        app::ShortcutSheet* sheet = w.shortcutSheet();
        QVERIFY(sheet);
        QVERIFY(sheet->isVisible());
        const auto& entries = sheet->entries();

        // Keys from QAction shortcuts, from "\tKEY" menu texts, and several keys joined.
        const auto* bones = find(entries, QStringLiteral("Bones"));
        QVERIFY(bones);
        QCOMPARE(bones->group, QStringLiteral("Display"));
        QCOMPARE(bones->key, QStringLiteral("B"));
        QCOMPARE(bones->state, 1); // on by default
        const auto* front = find(entries, QStringLiteral("Front"));
        QVERIFY(front);
        QCOMPARE(front->group, QStringLiteral("Camera"));
        QCOMPARE(front->key, QStringLiteral("1"));
        QCOMPARE(front->state, -1);
        const auto* shot = find(entries, QStringLiteral("Save Screenshot"));
        QVERIFY(shot);
        QCOMPARE(shot->key, QStringLiteral("F12 / F10"));
        const auto* self = find(entries, QStringLiteral("Keyboard and Mouse"));
        QVERIFY(self);
        QCOMPARE(self->group, QStringLiteral("Help"));
        QCOMPARE(self->key, QStringLiteral("H / F1"));
        const auto* interp = find(entries, QStringLiteral("Interpolate"));
        QVERIFY(interp);
        QCOMPARE(interp->key, QStringLiteral("I"));
        QCOMPARE(interp->state, 0);
        // Actions without a key are left out; the viewport's own controls are added.
        QVERIFY(!find(entries, QStringLiteral("Reset Layout")));
        const auto* orbit = find(entries, QStringLiteral("Orbit 90° (viewport)"));
        QVERIFY(orbit);
        QCOMPARE(orbit->group, QStringLiteral("Camera"));
        std::size_t mouse = 0;
        for (const auto& e : entries) {
            mouse += e.group == QStringLiteral("Mouse");
        }
        QCOMPARE(mouse, std::size_t(6));
        // Issue 32: moving a bone and the eyes' target with the mouse.
        const auto* moveBone = find(entries, QStringLiteral("Move bone (jiggles swing)"));
        QVERIFY(moveBone);
        QCOMPARE(moveBone->key, QStringLiteral("Ctrl+LMB drag a joint"));

        // Groups stay together, in menu order.
        QStringList order;
        for (const auto& e : entries) {
            if (order.isEmpty() || order.back() != e.group) {
                QVERIFY2(!order.contains(e.group), qPrintable(e.group));
                order << e.group;
            }
        }
        QCOMPARE(order, (QStringList{QStringLiteral("File"), QStringLiteral("Display"),
                                     QStringLiteral("Camera"), QStringLiteral("Playback"),
                                     QStringLiteral("View"), QStringLiteral("Help"),
                                     QStringLiteral("Mouse")}));
        QVERIFY(sheet->html().contains(QStringLiteral("Keyboard and Mouse")));
        // Fits on the window and sits over it.
        QVERIFY2(QRect(w.mapToGlobal(QPoint(0, 0)), w.size()).contains(sheet->geometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                                .arg(sheet->x())
                                .arg(sheet->y())
                                .arg(sheet->width())
                                .arg(sheet->height())
                                .arg(w.width())
                                .arg(w.height())));
        sheet->grab().save(test::outputDir() + QStringLiteral("/TstShortcutSheet.png"));

        // Any key closes it; shown again, it has the toggles' new states.
        QTest::keyClick(sheet, Qt::Key_H);
        QVERIFY(!sheet->isVisible());
        menuAction(w, QStringLiteral("Bones"))->trigger();
        menuAction(w, QStringLiteral("Interpolate"))->trigger();
        QVERIFY(w.document()->interpolate());
        menuAction(w, QStringLiteral("Keyboard and Mouse"))->trigger();
        QVERIFY(sheet->isVisible());
        QCOMPARE(find(sheet->entries(), QStringLiteral("Bones"))->state, 0);
        QCOMPARE(find(sheet->entries(), QStringLiteral("Interpolate"))->state, 1);
        w.toggleShortcutSheet();
        QVERIFY(!sheet->isVisible());
    }

    // The Mouse rows follow Settings ▸ Mouse: under Blender, orbiting is a middle drag and a
    // double-click does nothing, so the sheet must not teach HLAM's buttons.
    void mouseRowsFollowTheScheme()
    {
        test::TestWindow win(QStringLiteral("tst_shortcut_sheet_scheme.ini"), QSize(1280, 800));
        app::MainWindow& w = win.w;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* vp = w.viewportWidget()->viewport();
        render::MouseOptions mouse = vp->mouseOptions();
        mouse.scheme = render::MouseScheme::Blender;
        vp->setMouseOptions(mouse);
        w.toggleShortcutSheet();
        const auto& blender = w.shortcutSheet()->entries();
        QVERIFY(find(blender, QStringLiteral("Orbit")));
        QCOMPARE(find(blender, QStringLiteral("Orbit"))->key, QStringLiteral("MMB drag"));
        QCOMPARE(find(blender, QStringLiteral("Recentre on the picked point"))->key,
                 QStringLiteral("Alt+MMB click"));
        w.toggleShortcutSheet();

        mouse.scheme = render::MouseScheme::Hlam;
        vp->setMouseOptions(mouse);
        w.toggleShortcutSheet();
        const auto& hlam = w.shortcutSheet()->entries();
        QCOMPARE(find(hlam, QStringLiteral("Orbit"))->key, QStringLiteral("LMB drag"));
        QCOMPARE(find(hlam, QStringLiteral("Recentre on the picked point"))->key,
                 QStringLiteral("Double-click"));
        w.toggleShortcutSheet();
    }
};

QTEST_MAIN(TstShortcutSheet)
#include "tst_shortcut_sheet.moc"
