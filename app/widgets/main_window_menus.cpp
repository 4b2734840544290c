// MainWindow's menus, their actions and keys (UX.md, docs/viewer.md), and the toolbar. The
// window's state and what the actions do live in main_window.cpp; opening files in
// main_window_files.cpp.
#include <QtGui/QClipboard>
#include <QtGui/QIcon>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QTabBar>
#include <QtWidgets/QToolBar>

#include "app/document/file_navigation.h"
#include "app/qt_convert.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/main_window.h"
#include "app/widgets/physics_view.h"
#include "app/widgets/main_window_keys.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/status_bar.h"
#include "app/widgets/timeline_panel.h"
#include "app/widgets/viewport_widget.h"
#include "core/ops/decompile.h"
#include "core/version.h"

namespace rigscope::app {

using namespace window_keys;

QAction* MainWindow::displayToggle(QMenu* menu, const QString& text, const QKeySequence& key,
                                   bool render::DisplayFlags::*flag, bool persist)
{
    QAction* a = menu->addAction(text);
    a->setCheckable(true);
    a->setChecked(m_flags.*flag);
    a->setShortcut(key);
    const QString settingKey = QStringLiteral("Viewport/") +
                               text.toLower().remove(QLatin1Char('&')).remove(QLatin1Char(' '));
    // Overlays (bones, grid, wire overlay...) persist: they draw on top and show themselves.
    // What changes the model's own look (wire only, flat shading, textures) starts at its
    // default every launch (docs/viewer.md "What persists").
    if (persist) {
        a->setChecked(m_settings.value(settingKey, m_flags.*flag).toBool());
    }
    m_flags.*flag = a->isChecked();
    connect(a, &QAction::toggled, this, [this, flag, settingKey, persist](bool on) {
        m_flags.*flag = on;
        if (persist) {
            store(settingKey, on);
        }
        applyDisplay();
    });
    return a;
}

void MainWindow::createActions()
{
    createFileMenu();
    createDisplayMenu();
    createCameraMenu();
    createPlaybackMenu();
    createViewMenu();
    // Physics (issue 31): the hulls' toggle, Simulate Ragdoll, Back to Pose in View.
    m_physics = new PhysicsView(this, m_settings, m_tabs, m_viewport->viewport());
    m_viewMenu->insertActions(m_viewMenu->actions().value(0), m_physics->actions());
    m_viewMenu->insertSeparator(m_viewMenu->actions().value(3));
    createHelpMenu();

    // The window holds every menu action too: their keys keep working while the menu bar is
    // hidden (full-screen viewport).
    for (QAction* top : menuBar()->actions()) {
        if (QMenu* m = top->menu()) {
            for (QAction* a : m->actions()) {
                if (!a->isSeparator() && !a->menu() && !a->shortcuts().isEmpty() &&
                    a->shortcutContext() == Qt::WindowShortcut) {
                    addAction(a);
                }
            }
        }
    }

    createToolBar();
}

// Open, tabs, reload, folder browsing, screenshots, settings.
void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"));
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, [this] {
        const QString dir = m_settings.value(kLastFolderKey).toString();
        const QStringList paths =
            QFileDialog::getOpenFileNames(this, tr("Open models"), dir, openFilter());
        if (!paths.isEmpty()) {
            openInNewTab(paths); // a new tab unless the current one is empty
        }
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction* closeT = file->addAction(tr("&Close Tab"));
    closeT->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    connect(closeT, &QAction::triggered, this, [this] { closeTab(m_tabBar->currentIndex()); });
    QAction* closeAll = file->addAction(tr("Close All Tabs"));
    closeAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    connect(closeAll, &QAction::triggered, this, &MainWindow::closeAllTabs);
    QAction* reopen = file->addAction(tr("Reopen Closed Tab"));
    reopen->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    connect(reopen, &QAction::triggered, this, &MainWindow::reopenClosedTab);
    QAction* nextT = file->addAction(tr("Next Tab"));
    nextT->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Tab)});
    connect(nextT, &QAction::triggered, this, [this] { nextTab(1); });
    QAction* prevT = file->addAction(tr("Previous Tab"));
    prevT->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab),
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab)});
    connect(prevT, &QAction::triggered, this, [this] { nextTab(-1); });
    file->addSeparator();
    m_reloadAction =
        file->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Reload"));
    m_reloadAction->setShortcuts({QKeySequence(Qt::Key_F5)});
    connect(m_reloadAction, &QAction::triggered, this, [this] { reload(true); });
    QAction* reloadReset = file->addAction(tr("Reload and Reset View"));
    reloadReset->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(reloadReset, &QAction::triggered, this, [this] { reload(false); });
    QAction* autoReload = file->addAction(tr("Reload Automatically on Change"));
    autoReload->setCheckable(true);
    autoReload->setChecked(m_settings.value(kAutoReloadKey, true).toBool());
    connect(autoReload, &QAction::toggled, this, [this](bool on) {
        m_autoReload = on;
        store(kAutoReloadKey, on);
    });
    QAction* prev = file->addAction(tr("Previous File in Folder"));
    prev->setShortcut(QKeySequence(Qt::Key_Left));
    prev->setShortcutContext(
        Qt::WidgetShortcut); // arrows belong to the tree; the viewport forwards them
    connect(prev, &QAction::triggered, this, [this] { browse(-1); });
    QAction* next = file->addAction(tr("Next File in Folder"));
    next->setShortcut(QKeySequence(Qt::Key_Right));
    next->setShortcutContext(Qt::WidgetShortcut);
    connect(next, &QAction::triggered, this, [this] { browse(1); });
    QAction* attach = file->addAction(tr("Attach Animations in Folder"));
    attach->setShortcut(QKeySequence(Qt::Key_Down));
    attach->setShortcutContext(Qt::WidgetShortcut); // from the viewport, like the arrows above
    connect(attach, &QAction::triggered, this, &MainWindow::attachFolder);
    // ↑ reloads from the viewport (F5 anywhere); not in the menu, listed by the cheat-sheet.
    auto* reloadUp = new QAction(tr("Reload"), this);
    reloadUp->setShortcut(QKeySequence(Qt::Key_Up));
    reloadUp->setShortcutContext(Qt::WidgetShortcut);
    connect(reloadUp, &QAction::triggered, this, [this] { reload(true); });
    file->addSeparator();
    m_screenshotAction =
        file->addAction(QIcon::fromTheme(QStringLiteral("camera-photo")), tr("Save &Screenshot"));
    m_screenshotAction->setShortcuts({QKeySequence(Qt::Key_F12), QKeySequence(Qt::Key_F10)});
    connect(m_screenshotAction, &QAction::triggered, this, [this] { saveScreenshot(); });
    QAction* shotMin = file->addAction(tr("Save Minimal Screenshot (transparent)"));
    shotMin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F12));
    connect(shotMin, &QAction::triggered, this, [this] { saveScreenshot({}, true); });
    QAction* copyImage = file->addAction(tr("Copy Image to Clipboard"));
    copyImage->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(copyImage, &QAction::triggered, this, &MainWindow::copyImage);
    // File ▸ Export: a compiled model as a QC project (the CLI's `convert X.mdl OUT.qc`).
    QAction* exportQc = file->addAction(tr("&Export as QC Project…"));
    connect(exportQc, &QAction::triggered, this, [this] {
        const LoadedFile* p = document()->primary();
        if (!p || !p->path.endsWith(QLatin1String(".mdl"), Qt::CaseInsensitive)) {
            QMessageBox::information(this, tr("Export"),
                                     tr("Export writes a compiled model (.mdl) as a QC project; "
                                        "open one first."));
            return;
        }
        const QString out = QFileDialog::getSaveFileName(
            this, tr("Export as QC project"),
            QFileInfo(p->path).absoluteDir().filePath(
                QFileInfo(p->path).completeBaseName() + QStringLiteral("_decompiled/") +
                QFileInfo(p->path).completeBaseName() + QStringLiteral(".qc")),
            tr("QC project (*.qc)"));
        if (out.isEmpty()) {
            return;
        }
        core::DecompileOptions opt;
        core::DecompileResult r = core::decompileFile(toStd(p->path), toStd(out), opt);
        if (r.exitCode == 2 && r.error.find("--force") != std::string::npos &&
            QMessageBox::question(this, tr("Export"),
                                  tr("Files of the project exist already. Overwrite them?")) ==
                QMessageBox::Yes) {
            opt.force = true;
            r = core::decompileFile(toStd(p->path), toStd(out), opt);
        }
        if (!r.error.empty()) {
            log(tr("Export failed: %1").arg(toQString(r.error)));
            return;
        }
        log(tr("Exported %1 files to %2").arg(r.written.size()).arg(out));
        for (const std::string& n : r.notes) {
            log(tr("A recompile would not reproduce: %1").arg(toQString(n)));
        }
    });
    QAction* compareQc = file->addAction(tr("Compare with Compiled…"));
    connect(compareQc, &QAction::triggered, this, [this] {
        const QString mdl = QFileDialog::getOpenFileName(this, tr("Compiled model"), QString(),
                                                         tr("Compiled model (*.mdl)"));
        if (!mdl.isEmpty()) {
            compareWithCompiled(mdl);
        }
    });
    QAction* texPath = file->addAction(tr("Texture Search Path…"));
    connect(texPath, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString current =
            m_settings.value(kTexturePathKey).toStringList().join(QLatin1Char(';'));
        const QString text =
            QInputDialog::getText(this, tr("Texture search path"),
                                  tr("Folders searched for textures (separated by ';'):"),
                                  QLineEdit::Normal, current, &ok);
        if (ok) {
            const QStringList dirs = text.split(QLatin1Char(';'), Qt::SkipEmptyParts);
            store(kTexturePathKey, dirs);
            applyMaterialRoots();
            reload(true);
        }
    });
    QAction* prefs = file->addAction(tr("Se&ttings…"));
    prefs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    connect(prefs, &QAction::triggered, this, [this] { openSettings(); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

// Overlays (persisted), weight views and textures (fresh every launch), frame rate.
void MainWindow::createDisplayMenu()
{
    m_displayMenu = menuBar()->addMenu(tr("&Display"));
    displayToggle(m_displayMenu, tr("Bones"), QKeySequence(Qt::Key_B),
                  &render::DisplayFlags::skeleton);
    displayToggle(m_displayMenu, tr("Bone Names"), QKeySequence(Qt::SHIFT | Qt::Key_B),
                  &render::DisplayFlags::boneNames);
    displayToggle(m_displayMenu, tr("Normals"), QKeySequence(Qt::Key_N),
                  &render::DisplayFlags::normals);
    displayToggle(m_displayMenu, tr("Wire Overlay"), QKeySequence(Qt::Key_W),
                  &render::DisplayFlags::wireframe);
    displayToggle(m_displayMenu, tr("Wire Only"), QKeySequence(Qt::SHIFT | Qt::Key_W),
                  &render::DisplayFlags::wireOnly, false);
    displayToggle(m_displayMenu, tr("Flat Shading"), QKeySequence(Qt::Key_V),
                  &render::DisplayFlags::flatShading, false);
    QAction* heat = m_displayMenu->addAction(tr("Cycle Weight View"));
    heat->setShortcut(QKeySequence(Qt::Key_K));
    heat->setToolTip(tr("Heat-map: off → selected bone → influence count → weight change"));
    connect(heat, &QAction::triggered, this, &MainWindow::cycleHeatMap);
    m_compiledAction = m_displayMenu->addAction(tr("Compiled Weights"));
    m_compiledAction->setCheckable(true);
    m_compiledAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_K));
    m_compiledAction->setToolTip(
        tr("Skin with the weights the active profile's compiler keeps (Source: links below "
           "0.05 dropped, at most 3, renormalised; GoldSrc: the parent bone only)"));
    connect(m_compiledAction, &QAction::toggled, this, &MainWindow::setCompiledWeights);
    // Weight views never carry over to the next launch (issue 15): a new model opens in its
    // own look. The legend in the status bar shows them while on.
    m_flags.heatMap = render::HeatMap::Off;
    m_flags.compiledWeights = false;
    m_texturesAction = displayToggle(m_displayMenu, tr("Textures"), QKeySequence(Qt::Key_T),
                                     &render::DisplayFlags::textures, false);
    displayToggle(m_displayMenu, tr("Grid"), QKeySequence(Qt::Key_G), &render::DisplayFlags::grid);
    displayToggle(m_displayMenu, tr("Axes"), QKeySequence(Qt::Key_X), &render::DisplayFlags::axes);
    displayToggle(m_displayMenu, tr("Bounding Box"), QKeySequence(Qt::SHIFT | Qt::Key_X),
                  &render::DisplayFlags::boundingBox);
    QAction* fps = m_displayMenu->addAction(tr("Frame Rate"));
    fps->setCheckable(true);
    fps->setShortcut(QKeySequence(Qt::Key_Z));
    fps->setChecked(m_settings.value(kFpsKey, true).toBool());
    m_fpsAction = fps;
    m_status->setFpsWanted(fps->isChecked());
    connect(fps, &QAction::toggled, this, [this](bool on) {
        m_status->setFpsWanted(on);
        store(kFpsKey, on);
    });
    m_displayMenu->addSeparator();
    QAction* full = m_displayMenu->addAction(tr("Full-Screen Viewport"));
    full->setCheckable(true);
    full->setShortcut(QKeySequence(Qt::Key_F11));
    connect(full, &QAction::toggled, this, &MainWindow::setViewportFullScreen);
    m_fullScreenAction = full;
}

// Presets, framing, follow root, camera modes.
void MainWindow::createCameraMenu()
{
    QMenu* camera = menuBar()->addMenu(tr("&Camera"));
    auto* vp = m_viewport->viewport();
    auto preset = [&](const QString& text, const QString& key, render::CameraPreset p) {
        QAction* a = camera->addAction(text + QLatin1Char('\t') + key);
        connect(a, &QAction::triggered, this, [vp, p] { vp->setPreset(p); });
    };
    preset(tr("Front"), QStringLiteral("1"), render::CameraPreset::Front);
    preset(tr("Right"), QStringLiteral("3"), render::CameraPreset::Right);
    preset(tr("Top"), QStringLiteral("7"), render::CameraPreset::Top);
    preset(tr("Iso"), QStringLiteral("9"), render::CameraPreset::Iso);
    preset(tr("Back"), QStringLiteral("Ctrl+1"), render::CameraPreset::Back);
    preset(tr("Left"), QStringLiteral("Ctrl+3"), render::CameraPreset::Left);
    preset(tr("Bottom"), QStringLiteral("Ctrl+7"), render::CameraPreset::Bottom);
    camera->addSeparator();
    QAction* ortho = camera->addAction(tr("Orthographic") + QStringLiteral("\t5"));
    connect(ortho, &QAction::triggered, this, [vp] { vp->setOrtho(!vp->camera3d().ortho); });
    QAction* frameSel = camera->addAction(tr("Frame Selection") + QStringLiteral("\tF"));
    connect(frameSel, &QAction::triggered, vp, &render::Viewport::frameSelection);
    QAction* frameAll = camera->addAction(tr("Frame All") + QStringLiteral("\tEnter"));
    connect(frameAll, &QAction::triggered, vp, &render::Viewport::frameAll);
    m_followRootAction = camera->addAction(tr("Follow Root"));
    m_followRootAction->setCheckable(true);
    m_followRootAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F));
    m_followRootAction->setToolTip(
        tr("The camera moves with the root bone (animations that carry the model away)"));
    connect(m_followRootAction, &QAction::toggled, vp, &render::Viewport::setFollowRoot);
    camera->addSeparator();
    QAction* nextMode = camera->addAction(tr("Next Camera Mode"));
    nextMode->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_U));
    connect(nextMode, &QAction::triggered, this, [vp] { vp->cycleCameraMode(1); });
    QAction* prevMode = camera->addAction(tr("Previous Camera Mode"));
    prevMode->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    connect(prevMode, &QAction::triggered, this, [vp] { vp->cycleCameraMode(-1); });
    const QString modeNames[3] = {tr("Arc-ball"), tr("Free-look"), tr("First-person")};
    for (int i = 0; i < 3; ++i) {
        QAction* m = camera->addAction(tr("Mode: %1").arg(modeNames[i]));
        m->setCheckable(true);
        m->setChecked(i == int(vp->cameraMode()));
        m->setObjectName(QStringLiteral("cameraMode%1").arg(i));
        connect(m, &QAction::triggered, this,
                [vp, i] { vp->setCameraMode(render::CameraMode(i)); });
        m_cameraModeActions[std::size_t(i)] = m;
    }
    connect(vp, &render::Viewport::cameraModeChanged, this, [this](render::CameraMode mode) {
        for (std::size_t i = 0; i < m_cameraModeActions.size(); ++i) {
            m_cameraModeActions[i]->setChecked(int(i) == int(mode));
        }
        const QString names[3] = {tr("arc-ball"), tr("free-look"), tr("first-person")};
        showMessage(tr("Camera: %1").arg(names[int(mode)]), 3000);
    });
}

// Play, step, loop, speed, first / last frame, animation choice.
void MainWindow::createPlaybackMenu()
{
    QMenu* playback = menuBar()->addMenu(tr("&Playback"));
    QAction* play = playback->addAction(tr("Play / Pause"));
    play->setShortcut(QKeySequence(Qt::Key_Space));
    connect(play, &QAction::triggered, this,
            [this] { m_timeline->setPlaying(!m_timeline->isPlaying()); });
    QAction* backwards = playback->addAction(tr("Play Backwards / Pause"));
    backwards->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Space));
    connect(backwards, &QAction::triggered, this,
            [this] { m_timeline->setPlaying(!m_timeline->isPlaying(), true); });
    auto stepAction = [&](const QString& text, const QKeySequence& key, int delta) {
        QAction* a = playback->addAction(text);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, [this, delta] { m_timeline->step(delta); });
    };
    stepAction(tr("Next Frame"), QKeySequence(Qt::Key_Period), 1);
    stepAction(tr("Previous Frame"), QKeySequence(Qt::Key_Comma), -1);
    stepAction(tr("Forward 5 Frames"), QKeySequence(Qt::Key_Greater), 5);
    stepAction(tr("Back 5 Frames"), QKeySequence(Qt::Key_Less), -5);
    playback->addSeparator();
    QAction* loop = playback->addAction(tr("Loop Mode: Loop → Once → Ping-pong"));
    loop->setShortcut(QKeySequence(Qt::Key_L));
    connect(loop, &QAction::triggered, m_timeline, &TimelinePanel::cycleLoopMode);
    QAction* interpolate = playback->addAction(tr("Interpolate"));
    interpolate->setShortcut(QKeySequence(Qt::Key_I));
    interpolate->setCheckable(true);
    interpolate->setChecked(document()->interpolate());
    connect(interpolate, &QAction::toggled, this,
            [this](bool on) { document()->setInterpolate(on); });
    m_interpolateAction = interpolate;
    // Jiggle bones move as the engine integrates them while an animation plays (issue 32).
    QAction* jiggle = playback->addAction(tr("Simulate Jiggle Bones"));
    jiggle->setShortcut(QKeySequence(Qt::Key_J));
    jiggle->setCheckable(true);
    jiggle->setChecked(document()->jiggleEnabled());
    jiggle->setToolTip(tr("Move $jigglebone bones as the game does while an animation plays, "
                          "from its first frame"));
    connect(jiggle, &QAction::toggled, this, [this](bool on) { document()->setJiggleEnabled(on); });
    m_jiggleAction = jiggle;
    // A bone moved by hand (Ctrl+drag in the viewport) goes back to the animation's pose, and
    // the jiggle bones to the frame-exact playback.
    QAction* putBack = playback->addAction(tr("Put Moved Bone Back"));
    putBack->setObjectName(QStringLiteral("putMovedBoneBack"));
    putBack->setToolTip(tr("Undo the Ctrl+drag of a bone (its jiggle bones swing back)"));
    connect(putBack, &QAction::triggered, this, [this] { document()->clearBoneDrag(); });
    QAction* slower = playback->addAction(tr("Half Speed"));
    slower->setShortcut(QKeySequence(Qt::Key_Minus));
    connect(slower, &QAction::triggered, this,
            [this] { m_timeline->setSpeed(m_timeline->speed() / 2); });
    QAction* faster = playback->addAction(tr("Double Speed"));
    faster->setShortcut(QKeySequence(Qt::Key_Equal));
    connect(faster, &QAction::triggered, this,
            [this] { m_timeline->setSpeed(m_timeline->speed() * 2); });
    QAction* normal = playback->addAction(tr("Normal Speed"));
    normal->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(normal, &QAction::triggered, this, [this] { m_timeline->setSpeed(1.0); });
    playback->addSeparator();
    QAction* first = playback->addAction(tr("First Frame"));
    first->setShortcut(QKeySequence(Qt::Key_Home));
    first->setShortcutContext(
        Qt::WidgetShortcut); // Home/End belong to the tree; the viewport forwards them
    connect(first, &QAction::triggered, this, [this] { document()->setCurrentFrame(0); });
    QAction* last = playback->addAction(tr("Last Frame"));
    last->setShortcut(QKeySequence(Qt::Key_End));
    last->setShortcutContext(Qt::WidgetShortcut);
    connect(last, &QAction::triggered, this,
            [this] { document()->setCurrentFrame(document()->frameCount() - 1); });
    QAction* nextAnim = playback->addAction(tr("Next Animation"));
    nextAnim->setShortcut(QKeySequence(Qt::Key_BracketRight));
    connect(nextAnim, &QAction::triggered, this, [this] {
        const int n = int(document()->animations().size());
        document()->setCurrentAnimation(n ? (document()->currentAnimation() + 2) % (n + 1) - 1
                                          : -1);
    });
    QAction* prevAnim = playback->addAction(tr("Previous Animation"));
    prevAnim->setShortcut(QKeySequence(Qt::Key_BracketLeft));
    connect(prevAnim, &QAction::triggered, this, [this] {
        const int n = int(document()->animations().size());
        document()->setCurrentAnimation(n ? (document()->currentAnimation() + n + 1) % (n + 1) - 1
                                          : -1);
    });
}

// Outline search, copy, selection, problems, layout and the docks.
void MainWindow::createViewMenu()
{
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* search = m_viewMenu->addAction(tr("Search Outline"));
    search->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    connect(search, &QAction::triggered, this, [this] {
        m_outline->parentWidget()->show();
        m_outline->parentWidget()->raise();
        m_outline->searchBox()->setFocus();
        m_outline->searchBox()->selectAll();
    });
    QAction* copy = m_viewMenu->addAction(tr("Copy Selection as Text"));
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_C));
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_inspector->addAction(copy);
    m_viewport->addAction(copy);
    connect(copy, &QAction::triggered, this, [this] {
        QApplication::clipboard()->setText(m_inspector->lines().join(QLatin1Char('\n')));
    });
    QAction* deselect = m_viewMenu->addAction(tr("Deselect"));
    deselect->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(deselect, &QAction::triggered, this, [this] { document()->setSelection({}); });
    QAction* nextProblem = m_viewMenu->addAction(tr("Next Problem"));
    nextProblem->setShortcut(QKeySequence(Qt::Key_F8));
    connect(nextProblem, &QAction::triggered, this, [this] {
        m_problems->parentWidget()->show();
        m_problems->next();
    });
    QAction* prevProblem = m_viewMenu->addAction(tr("Previous Problem"));
    prevProblem->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    connect(prevProblem, &QAction::triggered, this, [this] {
        m_problems->parentWidget()->show();
        m_problems->previous();
    });
    QAction* reset = m_viewMenu->addAction(tr("Reset Layout"));
    connect(reset, &QAction::triggered, this, &MainWindow::resetLayout);
    m_viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        m_viewMenu->addAction(d->toggleViewAction());
    }
}

// The key sheet and About.
void MainWindow::createHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("Keyboard and Mouse"));
    keys->setShortcuts({QKeySequence(Qt::Key_H), QKeySequence(Qt::Key_F1)});
    connect(keys, &QAction::triggered, this, &MainWindow::toggleShortcutSheet);
    QAction* about = help->addAction(tr("About RigScope"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About RigScope"),
            tr("<b>RigScope %1</b><p>Viewer and inspector for Valve SMD / VTA, BinarySMD "
               "(.smdx) and Call of Duty XMODEL / XANIM export files (and their _BIN forms).</p>"
               "<p>Command line: <code>rigscope-cli info | check | convert | pose</code>.</p>"
               "<p>Built from commit %2. Free software under the MIT licence.</p>")
                .arg(QStringLiteral(RIGSCOPE_VERSION), toQString(core::buildCommit())));
    });
}

// Open, reload, the profile box, the most used overlays, screenshot.
void MainWindow::createToolBar()
{
    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("toolbar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->addAction(m_openAction);
    tb->addAction(m_reloadAction);
    tb->addSeparator();
    m_profileBox = new QComboBox(tb);
    m_profileBox->setObjectName(QStringLiteral("profile"));
    m_profileBox->setToolTip(tr("Compiler profile for checks, budgets and compiled weights"));
    for (core::Profile p : core::kAllProfiles) {
        m_profileBox->addItem(toQString(core::profileName(p)), int(p));
    }
    m_profileBox->setCurrentIndex(m_profileBox->findData(int(core::Profile::Auto)));
    document()->setProfile(core::Profile::Auto);
    connect(m_profileBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setProfile(core::Profile(m_profileBox->itemData(i).toInt())); });
    tb->addWidget(new QLabel(tr(" Profile "), tb));
    tb->addWidget(m_profileBox);
    tb->addSeparator();
    for (QAction* a : m_displayMenu->actions()) {
        if (a->text() == tr("Bones") || a->text() == tr("Wire Overlay") ||
            a->text() == tr("Grid") || a->text() == tr("Textures") || a->text() == tr("Normals")) {
            tb->addAction(a);
        }
    }
    tb->addAction(m_physics->toggleAction());
    tb->addSeparator();
    tb->addAction(m_screenshotAction);
}

} // namespace rigscope::app
