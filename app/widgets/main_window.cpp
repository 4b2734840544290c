#include "app/widgets/main_window.h"

#include <QtCore/QFile>
#include <QtCore/QCollator>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QLocale>
#include <QtCore/QMimeData>
#include <QtCore/QStandardPaths>
#include <QtGui/QCloseEvent>
#include <QtGui/QDragEnterEvent>
#include <QtGui/QDropEvent>
#include <QtGui/QIcon>
#include <QtGui/QClipboard>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QProgressBar>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QTreeWidget>

#include "core/ops/qc_ops.h"
#include "core/version.h"
#include "app/qt_convert.h"
#include "app/widgets/budget_bar.h"
#include "app/widgets/bodygroups_panel.h"
#include "app/widgets/flex_panel.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/shortcut_sheet.h"
#include "app/widgets/timeline_panel.h"
#include "app/widgets/viewport_widget.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/registry.h"
#include "render/render_capture.h"

namespace rigscope::app {

namespace {

QStringList supportedSuffixes()
{
    QStringList out;
    for (const auto& f : core::formats()) {
        for (auto ext : f.extensions) {
            out << toQString(ext);
        }
    }
    out.removeDuplicates();
    return out;
}

QString openFilter()
{
    QStringList all;
    QStringList parts;
    for (const auto& f : core::formats()) {
        QStringList globs;
        for (auto ext : f.extensions) {
            globs << QStringLiteral("*.%1").arg(toQString(ext));
        }
        all << globs;
        parts << QStringLiteral("%1 (%2)").arg(toQString(f.name), globs.join(QLatin1Char(' ')));
    }
    all << QStringLiteral("*.qc") << QStringLiteral("*.qci"); // QC projects (issue 17)
    parts << QObject::tr("QC projects (*.qc *.qci)");
    all.removeDuplicates();
    parts.prepend(QObject::tr("All supported (%1)").arg(all.join(QLatin1Char(' '))));
    parts << QObject::tr("All files (*)");
    return parts.join(QStringLiteral(";;"));
}

// References first, so animations and VTAs attach to the reference that precedes them.
QStringList orderForOpening(const QStringList& paths)
{
    QStringList refs, rest;
    for (const QString& p : paths) {
        const QString s = QFileInfo(p).suffix().toLower();
        const QString base = QFileInfo(p).completeBaseName().toLower();
        const bool anim = s == u"vta" || s == u"xanim_export" || s == u"xanim_bin" ||
                          s == u"nt_export" || base.contains(u"anim") || base.contains(u"idle");
        (anim ? rest : refs) << p;
    }
    return refs + rest;
}

const QString kRecentKey = QStringLiteral("Recent/files");
const QString kGeometryKey = QStringLiteral("MainWindow/geometry");
const QString kStateKey = QStringLiteral("MainWindow/state");
const QString kTexturePathKey = QStringLiteral("Textures/searchPath");
const QString kAutoReloadKey = QStringLiteral("Files/autoReload");
const QString kScreenshotDirKey = QStringLiteral("Screenshot/folder");
const QString kProfileKey = QStringLiteral("Checks/profile");
const QString kHeatMapKey = QStringLiteral("Viewport/heatMap");
const QString kCompiledKey = QStringLiteral("Viewport/compiledWeights");
const QString kFpsKey = QStringLiteral("Viewport/frameRate");
const QStringList kHeatMapNames = {QStringLiteral("off"), QStringLiteral("bone"),
                                   QStringLiteral("influence"), QStringLiteral("change")};

} // namespace

MainWindow::MainWindow(QSettings& settings, const render::ViewportOptions& viewport,
                       QWidget* parent)
    : QMainWindow(parent), m_settings(settings), m_document(new Document(this)),
      m_viewport(new ViewportWidget(viewport, this)), m_outline(new OutlinePanel(this)),
      m_inspector(new InspectorPanel(this)), m_timeline(new TimelinePanel(this)),
      m_files(new QListWidget(this)), m_flex(new FlexPanel(this)),
      m_problems(new ProblemsPanel(this)), m_log(new QPlainTextEdit(this)),
      m_summary(new QLabel(this)), m_frameLabel(new QLabel(this)), m_fpsLabel(new QLabel(this)),
      m_heatLabel(new QLabel(this)), m_profileLabel(new QLabel(this)),
      m_progress(new QProgressBar(this)), m_cancel(new QToolButton(this))
{
    setWindowTitle(tr("RigScope"));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("rigscope")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    setCentralWidget(m_viewport);

    m_outline->setDocument(m_document);
    m_inspector->setDocument(m_document);
    m_timeline->setDocument(m_document);
    m_flex->setDocument(m_document);
    m_bodygroups = new BodygroupsPanel(this);
    m_bodygroups->setDocument(m_document);
    connect(m_bodygroups, &BodygroupsPanel::lineActivated, this,
            [this](const QString& script, int line, const QString& resolved) {
                // The QC line that names the row (and the file it resolves to).
                QFile f(script);
                QString text;
                if (f.open(QIODevice::ReadOnly)) {
                    const QList<QByteArray> lines = f.readAll().split('\n');
                    if (line >= 1 && line <= lines.size()) {
                        text = QString::fromUtf8(lines[line - 1]).trimmed();
                    }
                }
                statusBar()->showMessage(
                    QStringLiteral("%1:%2: %3%4")
                        .arg(QFileInfo(script).fileName())
                        .arg(line)
                        .arg(text, resolved.isEmpty() ? QString() : QStringLiteral("  →  ") + resolved),
                    10000);
            });
    m_viewport->setDocument(m_document);
    m_viewport->setTextureSearchPath(m_settings.value(kTexturePathKey).toStringList());
    m_inspector->setTexturePathLookup([this](int material) {
        auto* scene = m_viewport->viewport()->scene();
        return scene ? scene->texturePath(std::size_t(material)) : QString();
    });

    m_problems->setDocument(m_document);
    connect(m_problems, &ProblemsPanel::problemActivated, this,
            [this](int file, int index, bool selected) {
                const auto& d =
                    m_document->files()[std::size_t(file)].diagnostics[std::size_t(index)];
                core::Diagnostic shown = d;
                shown.file =
                    toStd(QFileInfo(m_document->files()[std::size_t(file)].path).fileName());
                statusBar()->showMessage(toQString(core::formatDiagnostic(shown)), 8000);
                if (selected) {
                    m_viewport->viewport()->frameSelection();
                    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("inspector"))) {
                        dock->show();
                        dock->raise();
                    }
                }
            });
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);

    QDockWidget* outline =
        addDock(m_outline, QStringLiteral("outline"), tr("Outline"), Qt::LeftDockWidgetArea);
    QDockWidget* files =
        addDock(m_files, QStringLiteral("files"), tr("Files"), Qt::LeftDockWidgetArea);
    tabifyDockWidget(outline, files);
    outline->raise();
    QDockWidget* inspector =
        addDock(m_inspector, QStringLiteral("inspector"), tr("Inspector"), Qt::RightDockWidgetArea);
    QDockWidget* flex =
        addDock(m_flex, QStringLiteral("flex"), tr("Flex"), Qt::RightDockWidgetArea);
    tabifyDockWidget(inspector, flex);
    QDockWidget* bodygroups = addDock(m_bodygroups, QStringLiteral("bodygroups"), tr("Bodygroups"),
                                      Qt::RightDockWidgetArea);
    tabifyDockWidget(flex, bodygroups);
    connect(m_document, &Document::loaded, this, [this, bodygroups](bool keepState) {
        if (!keepState && m_document->qcProject()) {
            bodygroups->raise(); // a QC project: show its bodygroups and files (issue 17)
        }
    });
    inspector->raise();
    QDockWidget* timeline =
        addDock(m_timeline, QStringLiteral("timeline"), tr("Timeline"), Qt::BottomDockWidgetArea);
    QDockWidget* problems =
        addDock(m_problems, QStringLiteral("problems"), tr("Problems"), Qt::BottomDockWidgetArea);
    splitDockWidget(timeline, problems, Qt::Vertical);
    QDockWidget* logDock =
        addDock(m_log, QStringLiteral("log"), tr("Log"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(problems, logDock);
    problems->raise();
    m_timeline->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    resizeDocks({outline, inspector}, {330, 330}, Qt::Horizontal);
    resizeDocks({timeline, problems}, {40, 190}, Qt::Vertical);

    m_progress->setMaximumWidth(180);
    m_progress->setRange(0, 0);
    m_progress->setVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setVisible(false);
    m_summary->setText(tr("No file · drop an SMD, VTA, SMDX or CoD export here"));
    statusBar()->addWidget(m_summary, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_frameLabel);
    statusBar()->addPermanentWidget(m_fpsLabel);
    m_heatLabel->setObjectName(QStringLiteral("heatLegend"));
    m_heatLabel->setTextFormat(Qt::RichText);
    m_heatLabel->setVisible(false);
    statusBar()->addPermanentWidget(m_heatLabel);
    m_profileLabel->setObjectName(QStringLiteral("profileLabel"));
    statusBar()->addPermanentWidget(m_profileLabel);
    for (const QString& name : {tr("bones"), tr("materials"), tr("verts"), tr("flexed")}) {
        auto* bar = new BudgetBar(name, this);
        m_budgetBars.push_back(bar);
        statusBar()->addPermanentWidget(bar);
    }
    connect(m_cancel, &QToolButton::clicked, m_document, &Document::cancelLoad);

    createActions();

    connect(m_document, &Document::loadStarted, this, [this] {
        m_progress->setVisible(true);
        m_cancel->setVisible(true);
        m_progress->setRange(0, 0);
    });
    connect(m_document, &Document::loadProgress, this, [this](int done, int total) {
        if (total > 1) {
            m_progress->setRange(0, total);
            m_progress->setValue(done);
        }
    });
    connect(m_document, &Document::loaded, this, &MainWindow::onLoaded);
    connect(m_document, &Document::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_document, &Document::attached, this, [this](int added) {
        const QString text = added == 0
                                 ? tr("No animation in the folder fits this model")
                                 : tr("Attached %n animation / flex file(s) from the folder", "",
                                      added);
        log(text);
        statusBar()->showMessage(text, 5000);
    });
    connect(m_document, &Document::frameChanged, this, &MainWindow::updateStatus);
    connect(m_document, &Document::frameChanged, this, [this] {
        if (m_flags.heatMap == render::HeatMap::WeightChange) {
            // after the viewport has posed the scene for this frame
            QTimer::singleShot(0, this, &MainWindow::updateHeatLegend);
        }
    });
    connect(m_document, &Document::animationChanged, this, &MainWindow::updateStatus);
    connect(m_document, &Document::selectionChanged, this, &MainWindow::updateStatus);
    connect(m_document, &Document::checksStarted, this, &MainWindow::onChecksStarted);
    connect(m_document, &Document::diagnosticsChanged, this, &MainWindow::onDiagnosticsChanged);
    connect(m_viewport->viewport(), &render::Viewport::fpsChanged, this,
            [this](double fps) { m_fpsLabel->setText(tr("%1 fps").arg(fps, 0, 'f', 0)); });
    connect(m_viewport->viewport(), &render::Viewport::unhandledKey, this,
            [this](int key, Qt::KeyboardModifiers mods) {
                const QKeySequence seq(QKeyCombination(mods, Qt::Key(key)));
                for (QAction* a : findChildren<QAction*>()) {
                    if (a->isEnabled() && a->shortcuts().contains(seq)) {
                        a->trigger();
                        return;
                    }
                }
            });

    m_layoutSave.setSingleShot(true);
    m_layoutSave.setInterval(500);
    connect(&m_layoutSave, &QTimer::timeout, this, [this] {
        if (isVisible()) {
            store(kGeometryKey, saveGeometry());
            store(kStateKey, saveState(kWindowStateVersion));
        }
    });
    m_reloadDebounce.setSingleShot(true);
    m_reloadDebounce.setInterval(250);
    connect(&m_reloadDebounce, &QTimer::timeout, this, [this] { reload(true); });
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::onFileChanged);
    m_autoReload = m_settings.value(kAutoReloadKey, true).toBool();

    resize(1400, 880);
    m_defaultState = saveState(kWindowStateVersion);
    restoreGeometry(m_settings.value(kGeometryKey).toByteArray());
    restoreState(m_settings.value(kStateKey).toByteArray(), kWindowStateVersion);
    applyDisplay();
    updateHeatLegend();
    updateRecentMenu();
}

MainWindow::~MainWindow() = default;

void MainWindow::store(const QString& key, const QVariant& value)
{
    // Written on change, so a crash loses nothing (issue 8); the INI is tiny.
    m_settings.setValue(key, value);
    m_settings.sync();
}

QDockWidget* MainWindow::addDock(QWidget* panel, const QString& objectName, const QString& title,
                                 Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    connect(dock, &QDockWidget::dockLocationChanged, &m_layoutSave, qOverload<>(&QTimer::start));
    connect(dock, &QDockWidget::topLevelChanged, &m_layoutSave, qOverload<>(&QTimer::start));
    connect(dock, &QDockWidget::visibilityChanged, &m_layoutSave, qOverload<>(&QTimer::start));
    if (m_viewMenu) {
        m_viewMenu->addAction(dock->toggleViewAction());
    }
    return dock;
}

QAction* MainWindow::displayToggle(QMenu* menu, const QString& text, const QKeySequence& key,
                                   bool render::DisplayFlags::*flag)
{
    QAction* a = menu->addAction(text);
    a->setCheckable(true);
    a->setChecked(m_flags.*flag);
    a->setShortcut(key);
    const QString settingKey = QStringLiteral("Viewport/") +
                               text.toLower().remove(QLatin1Char('&')).remove(QLatin1Char(' '));
    a->setChecked(m_settings.value(settingKey, m_flags.*flag).toBool());
    m_flags.*flag = a->isChecked();
    connect(a, &QAction::toggled, this, [this, flag, settingKey](bool on) {
        m_flags.*flag = on;
        store(settingKey, on);
        applyDisplay();
    });
    return a;
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open =
        file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        const QString dir = m_settings.value(QStringLiteral("Files/lastFolder")).toString();
        const QStringList paths =
            QFileDialog::getOpenFileNames(this, tr("Open models"), dir, openFilter());
        if (!paths.isEmpty()) {
            openFiles(paths);
        }
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    QAction* reloadA =
        file->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Reload"));
    reloadA->setShortcuts({QKeySequence(Qt::Key_F5)});
    connect(reloadA, &QAction::triggered, this, [this] { reload(true); });
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
    QAction* shot =
        file->addAction(QIcon::fromTheme(QStringLiteral("camera-photo")), tr("Save &Screenshot"));
    shot->setShortcuts({QKeySequence(Qt::Key_F12), QKeySequence(Qt::Key_F10)});
    connect(shot, &QAction::triggered, this, [this] { saveScreenshot(); });
    QAction* shotMin = file->addAction(tr("Save Minimal Screenshot (transparent)"));
    shotMin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F12));
    connect(shotMin, &QAction::triggered, this, [this] { saveScreenshot({}, true); });
    QAction* copyImage = file->addAction(tr("Copy Image to Clipboard"));
    copyImage->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(copyImage, &QAction::triggered, this, &MainWindow::copyImage);
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
            m_viewport->setTextureSearchPath(dirs);
            reload(true);
        }
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* display = menuBar()->addMenu(tr("&Display"));
    displayToggle(display, tr("Bones"), QKeySequence(Qt::Key_B), &render::DisplayFlags::skeleton);
    displayToggle(display, tr("Bone Names"), QKeySequence(Qt::SHIFT | Qt::Key_B),
                  &render::DisplayFlags::boneNames);
    displayToggle(display, tr("Normals"), QKeySequence(Qt::Key_N), &render::DisplayFlags::normals);
    displayToggle(display, tr("Wire Overlay"), QKeySequence(Qt::Key_W),
                  &render::DisplayFlags::wireframe);
    displayToggle(display, tr("Wire Only"), QKeySequence(Qt::SHIFT | Qt::Key_W),
                  &render::DisplayFlags::wireOnly);
    displayToggle(display, tr("Flat Shading"), QKeySequence(Qt::Key_V),
                  &render::DisplayFlags::flatShading);
    QAction* heat = display->addAction(tr("Cycle Weight View"));
    heat->setShortcut(QKeySequence(Qt::Key_K));
    heat->setToolTip(tr("Heat-map: off → selected bone → influence count → weight change"));
    connect(heat, &QAction::triggered, this, &MainWindow::cycleHeatMap);
    m_compiledAction = display->addAction(tr("Compiled Weights"));
    m_compiledAction->setCheckable(true);
    m_compiledAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_K));
    m_compiledAction->setToolTip(
        tr("Skin with the weights the active profile's compiler keeps (Source: links below "
           "0.05 dropped, at most 3, renormalised; GoldSrc: the parent bone only)"));
    connect(m_compiledAction, &QAction::toggled, this, &MainWindow::setCompiledWeights);
    m_flags.heatMap = render::HeatMap(
        std::max<qsizetype>(0, kHeatMapNames.indexOf(m_settings.value(kHeatMapKey).toString())));
    m_flags.compiledWeights = m_settings.value(kCompiledKey, false).toBool();
    m_compiledAction->setChecked(m_flags.compiledWeights);
    displayToggle(display, tr("Textures"), QKeySequence(Qt::Key_T),
                  &render::DisplayFlags::textures);
    displayToggle(display, tr("Grid"), QKeySequence(Qt::Key_G), &render::DisplayFlags::grid);
    displayToggle(display, tr("Axes"), QKeySequence(Qt::Key_X), &render::DisplayFlags::axes);
    displayToggle(display, tr("Bounding Box"), QKeySequence(Qt::SHIFT | Qt::Key_X),
                  &render::DisplayFlags::boundingBox);
    QAction* fps = display->addAction(tr("Frame Rate"));
    fps->setCheckable(true);
    fps->setShortcut(QKeySequence(Qt::Key_Z));
    fps->setChecked(m_settings.value(kFpsKey, true).toBool());
    m_fpsLabel->setVisible(fps->isChecked());
    connect(fps, &QAction::toggled, this, [this](bool on) {
        m_fpsLabel->setVisible(on);
        store(kFpsKey, on);
    });
    display->addSeparator();
    QAction* full = display->addAction(tr("Full-Screen Viewport"));
    full->setCheckable(true);
    full->setShortcut(QKeySequence(Qt::Key_F11));
    connect(full, &QAction::toggled, this, &MainWindow::setViewportFullScreen);
    m_fullScreenAction = full;

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
    interpolate->setChecked(m_document->interpolate());
    connect(interpolate, &QAction::toggled, m_document, &Document::setInterpolate);
    connect(m_document, &Document::interpolateChanged, interpolate, &QAction::setChecked);
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
    connect(first, &QAction::triggered, this, [this] { m_document->setCurrentFrame(0); });
    QAction* last = playback->addAction(tr("Last Frame"));
    last->setShortcut(QKeySequence(Qt::Key_End));
    last->setShortcutContext(Qt::WidgetShortcut);
    connect(last, &QAction::triggered, this,
            [this] { m_document->setCurrentFrame(m_document->frameCount() - 1); });
    QAction* nextAnim = playback->addAction(tr("Next Animation"));
    nextAnim->setShortcut(QKeySequence(Qt::Key_BracketRight));
    connect(nextAnim, &QAction::triggered, this, [this] {
        const int n = int(m_document->animations().size());
        m_document->setCurrentAnimation(n ? (m_document->currentAnimation() + 2) % (n + 1) - 1
                                          : -1);
    });
    QAction* prevAnim = playback->addAction(tr("Previous Animation"));
    prevAnim->setShortcut(QKeySequence(Qt::Key_BracketLeft));
    connect(prevAnim, &QAction::triggered, this, [this] {
        const int n = int(m_document->animations().size());
        m_document->setCurrentAnimation(n ? (m_document->currentAnimation() + n + 1) % (n + 1) - 1
                                          : -1);
    });

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
    connect(deselect, &QAction::triggered, this, [this] { m_document->setSelection({}); });
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

    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("toolbar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->addAction(open);
    tb->addAction(reloadA);
    tb->addSeparator();
    m_profileBox = new QComboBox(tb);
    m_profileBox->setObjectName(QStringLiteral("profile"));
    m_profileBox->setToolTip(tr("Compiler profile for checks, budgets and compiled weights"));
    for (core::Profile p : {core::Profile::Auto, core::Profile::GoldSrc, core::Profile::Source,
                            core::Profile::Source256, core::Profile::Cod}) {
        m_profileBox->addItem(toQString(core::profileName(p)), int(p));
    }
    const auto saved =
        core::parseProfile(toStd(m_settings.value(kProfileKey, QStringLiteral("auto")).toString()));
    m_profileBox->setCurrentIndex(m_profileBox->findData(int(saved.value_or(core::Profile::Auto))));
    m_document->setProfile(core::Profile(m_profileBox->currentData().toInt()));
    connect(m_profileBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setProfile(core::Profile(m_profileBox->itemData(i).toInt())); });
    tb->addWidget(new QLabel(tr(" Profile "), tb));
    tb->addWidget(m_profileBox);
    tb->addSeparator();
    for (QAction* a : display->actions()) {
        if (a->text() == tr("Bones") || a->text() == tr("Wire Overlay") ||
            a->text() == tr("Grid") || a->text() == tr("Textures") || a->text() == tr("Normals")) {
            tb->addAction(a);
        }
    }
    tb->addSeparator();
    tb->addAction(shot);
}

void MainWindow::applyDisplay()
{
    m_viewport->viewport()->setDisplay(m_flags);
}

void MainWindow::toggleShortcutSheet()
{
    if (!m_sheet) {
        m_sheet = new ShortcutSheet(this);
    }
    if (m_sheet->isVisible()) {
        m_sheet->hide();
        return;
    }
    m_sheet->showOver(menuBar(), QRect(mapToGlobal(QPoint(0, 0)), size()));
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, kWindowStateVersion);
}

void MainWindow::openFiles(const QStringList& paths)
{
    if (paths.isEmpty()) {
        return;
    }
    const QStringList ordered = orderForOpening(paths);
    store(QStringLiteral("Files/lastFolder"), QFileInfo(ordered.front()).absolutePath());
    log(tr("Opening %1").arg(ordered.join(QStringLiteral(", "))));
    m_document->open(ordered, false);
}

void MainWindow::reload(bool keepView)
{
    if (m_document->files().empty()) {
        return;
    }
    log(tr("Reloading %1").arg(m_document->displayName()));
    m_document->open(m_document->paths(), keepView);
}

QStringList MainWindow::folderFiles(const QString& folder)
{
    QStringList names = QDir(folder).entryList(QDir::Files);
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const QString& n) {
                                   return !supportedSuffixes().contains(
                                       QFileInfo(n).suffix().toLower());
                               }),
                names.end());
    QCollator collator;
    collator.setNumericMode(true);
    collator.setCaseSensitivity(Qt::CaseInsensitive);
    std::sort(names.begin(), names.end(),
              [&](const QString& a, const QString& b) { return collator.compare(a, b) < 0; });
    return names;
}

void MainWindow::browse(int delta)
{
    const LoadedFile* p = m_document->primary();
    if (!p) {
        return;
    }
    const QFileInfo info(p->path);
    const QDir dir = info.absoluteDir();
    const QStringList names = folderFiles(dir.absolutePath());
    const int n = int(names.size());
    if (n == 0) {
        return;
    }
    int i = int(names.indexOf(info.fileName()));
    i = ((i < 0 ? 0 : i + delta) % n + n) % n;
    const QString path = dir.filePath(names[i]);
    log(tr("Browsing to %1 (%2/%3)").arg(names[i]).arg(i + 1).arg(n));
    m_document->open({path}, QApplication::keyboardModifiers().testFlag(Qt::ControlModifier));
}

void MainWindow::attachFolder()
{
    const LoadedFile* p = m_document->primary();
    if (!p) {
        return;
    }
    const QDir dir = QFileInfo(p->path).absoluteDir();
    QStringList paths;
    for (const QString& name : folderFiles(dir.absolutePath())) {
        paths << dir.filePath(name);
    }
    if (!m_document->attach(paths)) {
        statusBar()->showMessage(tr("Nothing more to attach in %1").arg(dir.dirName()), 5000);
        return;
    }
    log(tr("Reading %1 files in %2 for animations…").arg(paths.size()).arg(dir.absolutePath()));
}

void MainWindow::onLoaded(bool keepState)
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    Q_UNUSED(keepState);
    const LoadedFile* p = m_document->primary();
    setWindowTitle(tr("%1 — RigScope").arg(m_document->displayName()));
    addRecent(m_document->paths());
    rearmWatcher();

    m_files->clear();
    for (const auto& f : m_document->files()) {
        const QString kind = f.model ? toQString(core::kindName(f.model->kind)) : tr("failed");
        auto* item = new QListWidgetItem(
            QStringLiteral("%1  ·  %2").arg(QFileInfo(f.path).fileName(), kind), m_files);
        item->setToolTip(f.path);
    }
    log(tr("Loaded %1 file(s); primary %2 in %3 ms")
            .arg(m_document->files().size())
            .arg(p ? QFileInfo(p->path).fileName() : QString())
            .arg(p ? p->loadMs : 0.0, 0, 'f', 1));
    updateStatus();
}

void MainWindow::onLoadFailed(const QString& message)
{
    m_progress->setVisible(m_document->isLoading());
    m_cancel->setVisible(m_document->isLoading());
    log(tr("Load failed: %1").arg(message));
    if (m_document->files().empty()) {
        m_summary->setText(tr("Could not open: %1").arg(message));
    } else {
        statusBar()->showMessage(tr("Reload failed: showing last good version (%1)").arg(message),
                                 8000);
    }
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("log"))) {
        dock->show();
        dock->raise();
    }
    // The failed files' diagnostics are in Problems (the previous scene stays): show them.
    if (!m_document->failedFiles().empty()) {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("problems"))) {
            dock->show();
            dock->raise();
        }
    }
}

void MainWindow::updateStatus()
{
    auto m = m_document->primaryModel();
    if (!m) {
        return;
    }
    const QLocale loc = QLocale::system();
    QStringList parts;
    parts << toQString(core::kindName(m->kind));
    auto plural = [&loc](std::size_t n, const QString& one, const QString& many) {
        return QStringLiteral("%1 %2").arg(loc.toString(qulonglong(n)), n == 1 ? one : many);
    };
    parts << plural(m->skeleton.size(), tr("bone"), tr("bones"));
    if (!m->mesh.empty()) {
        parts << tr("%1 tris").arg(loc.toString(qlonglong(m->mesh.triangleCount())));
        parts << plural(m->mesh.materials.size(), tr("material"), tr("materials"));
    }
    if (!m_document->animations().empty()) {
        parts << plural(m_document->animations().size(), tr("animation"), tr("animations"));
    }
    std::size_t shapes = 0;
    for (const auto& f : m_document->files()) {
        shapes += f.model ? f.model->flexShapes.size() : 0;
    }
    if (shapes > 0) {
        parts << plural(shapes, tr("flex shape"), tr("flex shapes"));
    }
    const core::Bounds b = core::meshBounds(*m);
    if (b.valid) {
        const core::Vec3 d = b.max - b.min;
        parts << tr("%1 × %2 × %3 units")
                     .arg(d.x(), 0, 'g', 4)
                     .arg(d.y(), 0, 'g', 4)
                     .arg(d.z(), 0, 'g', 4);
    }
    m_summary->setText(parts.join(QStringLiteral(" · ")));
    if (m_document->currentAnimation() >= 0) {
        const auto& d = m_document->animations()[std::size_t(m_document->currentAnimation())];
        m_frameLabel->setText(tr("%1 · frame %2 (0–%3) · %4 fps")
                                  .arg(d.name)
                                  .arg(m_document->currentFrame())
                                  .arg(m_document->frameCount() - 1)
                                  .arg(double(d.animation(m_document->files()).fps)));
    } else {
        m_frameLabel->setText(tr("rest pose"));
    }
}

void MainWindow::onChecksStarted()
{
    // The model is on screen already; problems, budgets and the profile follow when the checks
    // finish. A load cleared the old files' meters; a profile change greys the current ones.
    m_profileLabel->setText(tr("profile %1 · checking…")
                                .arg(toQString(core::profileName(m_document->requestedProfile()))));
    const std::vector<core::BudgetMeter> budget = m_document->budget();
    for (std::size_t i = 0; i < m_budgetBars.size(); ++i) {
        m_budgetBars[i]->setChecking(true);
        if (i >= budget.size()) {
            m_budgetBars[i]->clear();
        }
    }
}

void MainWindow::onDiagnosticsChanged()
{
    if (m_document->isChecking()) {
        onChecksStarted(); // a failed load's diagnostics while the shown files are still checked
        return;
    }
    auto model = m_document->primaryModel();
    const core::Profile active = m_document->activeProfile();
    const QString profile = toQString(core::profileName(active));
    const LoadedFile* p = m_document->primary();
    const bool guessed = p && p->guessed;
    m_profileLabel->setText(guessed ? tr("profile %1 (auto)").arg(profile)
                                    : tr("profile %1").arg(profile));
    const std::vector<core::BudgetMeter> budget = m_document->budget();
    for (std::size_t i = 0; i < m_budgetBars.size(); ++i) {
        m_budgetBars[i]->setChecking(false);
        if (i < budget.size()) {
            m_budgetBars[i]->setMeter(budget[i].used, budget[i].limit, profile);
        } else {
            m_budgetBars[i]->clear();
        }
    }

    // Weight views follow the active profile; vertices the checks flag as unweighted, NaN,
    // zero-sum or weighted to an undeclared bone stand out in the influence-count view.
    auto* vp = m_viewport->viewport();
    vp->setWeightProfile(active);
    m_compiledAction->setEnabled(active != core::Profile::Cod); // CoD: authored only (§5)
    if (auto* scene = vp->scene(); scene && model && p) {
        std::vector<std::uint8_t> mask(model->mesh.pointCount(), 0);
        for (const core::Diagnostic& d : p->diagnostics) {
            if (d.element.kind == core::ElementRef::Kind::Vertex && d.element.index >= 0 &&
                std::size_t(d.element.index) < mask.size() &&
                (d.id == core::ids::kWeightsUnknownBone || d.id == core::ids::kWeightsZeroSum ||
                 d.id == core::ids::kWeightsNan)) {
                mask[std::size_t(d.element.index)] = 1; // SMD corner == point; XMODEL pool point
            }
        }
        scene->setProblemPoints(mask);
        vp->refresh();
    }
    updateHeatLegend();

    std::size_t errors = 0;
    for (const auto& f : m_document->files()) {
        errors += core::countSeverity(f.diagnostics, core::Severity::Error);
    }
    if (errors > 0) {
        auto* dock = findChild<QDockWidget*>(QStringLiteral("problems"));
        dock->show();
        dock->raise();
    }
    log(tr("Checks (%1): %2").arg(profile, m_problems->countsText()));
}

void MainWindow::setProfile(core::Profile profile)
{
    store(kProfileKey, toQString(core::profileName(profile)));
    if (m_profileBox && m_profileBox->currentData().toInt() != int(profile)) {
        m_profileBox->setCurrentIndex(m_profileBox->findData(int(profile)));
        return; // the combo's signal comes back here
    }
    m_document->setProfile(profile);
}

void MainWindow::cycleHeatMap()
{
    using H = render::HeatMap;
    switch (m_flags.heatMap) {
    case H::Off:
        setHeatMap(H::SelectedBone);
        break;
    case H::SelectedBone:
        setHeatMap(H::InfluenceCount);
        break;
    case H::InfluenceCount:
        setHeatMap(H::WeightChange);
        break;
    case H::WeightChange:
        setHeatMap(H::Off);
        break;
    }
}

void MainWindow::setHeatMap(render::HeatMap mode)
{
    m_flags.heatMap = mode;
    store(kHeatMapKey, kHeatMapNames.value(int(mode)));
    applyDisplay();
    updateHeatLegend();
}

void MainWindow::setCompiledWeights(bool on)
{
    if (m_compiledAction && m_compiledAction->isChecked() != on) {
        m_compiledAction->setChecked(on); // toggled comes back here
        return;
    }
    m_flags.compiledWeights = on;
    store(kCompiledKey, on);
    applyDisplay();
    updateHeatLegend();
}

void MainWindow::updateHeatLegend()
{
    using H = render::HeatMap;
    auto swatch = [](const QColor& c, const QString& text) {
        return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
            .arg(c.name(), text.toHtmlEscaped());
    };
    const core::Profile profile = m_document->activeProfile();
    const QString weights = m_flags.compiledWeights
                                ? tr("compiled (%1)").arg(toQString(core::profileName(profile)))
                                : tr("authored");
    QStringList parts;
    switch (m_flags.heatMap) {
    case H::Off:
        break;
    case H::SelectedBone:
        parts << tr("<b>Weights of the selected bone</b>")
              << swatch(render::weightRampColor(0), tr("0"))
              << swatch(render::weightRampColor(0.25f), tr("0.25"))
              << swatch(render::weightRampColor(0.5f), tr("0.5"))
              << swatch(render::weightRampColor(1.0f), tr("1"));
        break;
    case H::InfluenceCount: {
        const std::size_t limit = core::limitsFor(profile).weightsPerVertex;
        parts << tr("<b>Influences</b>");
        for (int n = 1; n <= 4; ++n) {
            if (limit == 0 || std::size_t(n) <= limit) {
                parts << swatch(render::influenceCountColor(n, false, false),
                                n == 4 ? tr("4+") : QString::number(n));
            }
        }
        if (limit > 0) {
            parts << swatch(
                render::influenceCountColor(0, true, false),
                tr("over %1 (%2)").arg(limit).arg(toQString(core::profileName(profile))));
        }
        parts << swatch(render::influenceCountColor(0, false, true), tr("problem"));
        break;
    }
    case H::WeightChange: {
        auto* scene = m_viewport->viewport()->scene();
        const float moved = scene ? scene->maxDisplacement() : 0.0f;
        if (moved > 0) {
            parts << tr("<b>Weight change</b> in this pose: authored vs compiled skinning (%1)")
                         .arg(toQString(core::profileName(profile)))
                  << swatch(render::weightRampColor(0), tr("same place"))
                  << swatch(render::weightRampColor(1.0f),
                            tr("moves %1 units").arg(moved, 0, 'g', 3));
            break;
        }
        parts << tr("<b>Weight change</b> authored → compiled (%1)")
                     .arg(toQString(core::profileName(profile)))
              << swatch(render::weightRampColor(0), tr("none"))
              << swatch(render::weightRampColor(0.1f), tr("0.1"))
              << swatch(render::weightRampColor(0.5f), tr("0.5"))
              << swatch(render::weightRampColor(1.0f), tr("≥ 1 (L1)"));
        break;
    }
    }
    if (m_flags.compiledWeights || m_flags.heatMap != H::Off) {
        parts << tr("· skinning: %1").arg(weights);
    }
    m_heatLabel->setText(parts.join(QStringLiteral(" ")));
    m_heatLabel->setVisible(!parts.isEmpty());
}

void MainWindow::addRecent(const QStringList& paths)
{
    QStringList recent = m_settings.value(kRecentKey).toStringList();
    const QString entry = paths.join(QLatin1Char('|'));
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > 10) {
        recent.removeLast();
    }
    store(kRecentKey, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    if (!m_recentMenu) {
        return;
    }
    m_recentMenu->clear();
    const QStringList recent = m_settings.value(kRecentKey).toStringList();
    for (const QString& entry : recent) {
        const QStringList paths = entry.split(QLatin1Char('|'));
        QStringList names;
        for (const QString& p : paths) {
            names << QFileInfo(p).fileName();
        }
        QAction* a = m_recentMenu->addAction(names.join(QStringLiteral(" + ")));
        a->setToolTip(paths.join(QLatin1Char('\n')));
        a->setEnabled(QFileInfo::exists(paths.front()));
        connect(a, &QAction::triggered, this, [this, paths] { openFiles(paths); });
    }
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
    }
    QAction* clear = m_recentMenu->addAction(tr("Clear List"));
    connect(clear, &QAction::triggered, this, [this] {
        m_settings.remove(kRecentKey);
        updateRecentMenu();
    });
}

void MainWindow::rearmWatcher()
{
    if (!m_watcher.files().isEmpty()) {
        m_watcher.removePaths(m_watcher.files());
    }
    QStringList paths = m_document->paths();
    if (const core::QcReport* qc = m_document->qcProject()) { // every file of a QC (issue 17)
        for (const core::QcFileRef& f : qc->project.files) {
            if (!f.resolved.empty()) {
                paths << QFileInfo(toQString(f.resolved)).absoluteFilePath();
            }
        }
        paths.removeDuplicates();
    }
    if (!paths.isEmpty()) {
        m_watcher.addPaths(paths);
    }
}

void MainWindow::onFileChanged(const QString& path)
{
    if (!m_autoReload) {
        return;
    }
    log(tr("Changed on disk: %1").arg(QFileInfo(path).fileName()));
    // Rename-saves drop the watch; re-arm after the reload (rearmWatcher in onLoaded).
    m_reloadDebounce.start();
}

void MainWindow::log(const QString& line)
{
    m_log->appendPlainText(QStringLiteral("%1  %2").arg(
        QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), line));
}

QString MainWindow::saveScreenshot(const QString& path, bool minimal)
{
    QString out = path;
    if (out.isEmpty()) {
        const QString dir =
            m_settings
                .value(kScreenshotDirKey,
                       QStandardPaths::writableLocation(QStandardPaths::PicturesLocation))
                .toString();
        QDir().mkpath(dir);
        const QString stem = QFileInfo(m_document->displayName()).completeBaseName();
        out = QDir(dir).filePath(
            QStringLiteral("%1_%2.png")
                .arg(stem.isEmpty() ? QStringLiteral("rigscope") : stem,
                     QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd_HHmmss"))));
    }
    auto* vp = m_viewport->viewport();
    const render::DisplayFlags saved = m_flags;
    if (minimal) {
        render::DisplayFlags f = m_flags;
        f.grid = f.axes = f.skeleton = f.normals = f.boundingBox = f.wireframe = false;
        vp->setDisplay(f);
    }
    const QImage image = render::captureViewport(*vp, minimal);
    if (minimal) {
        vp->setDisplay(saved);
    }
    if (image.isNull() || !image.save(out)) {
        log(tr("Screenshot failed: %1").arg(out));
        return {};
    }
    log(tr("Screenshot saved: %1").arg(out));
    statusBar()->showMessage(tr("Screenshot saved: %1").arg(out), 5000);
    return out;
}

bool MainWindow::copyImage()
{
    const QImage image = render::captureViewport(*m_viewport->viewport(), false);
    if (image.isNull()) {
        log(tr("Copy image failed: the viewport did not render"));
        return false;
    }
    QApplication::clipboard()->setImage(image);
    statusBar()->showMessage(
        tr("Viewport image copied (%1 × %2)").arg(image.width()).arg(image.height()), 5000);
    return true;
}

void MainWindow::setViewportFullScreen(bool on)
{
    if (on == m_viewportFullScreen) {
        return;
    }
    m_viewportFullScreen = on;
    if (on) {
        // Docks, toolbar, menus and status bar go; the layout comes back as it was.
        m_beforeFullScreen = saveState(kWindowStateVersion);
        m_wasMaximized = isMaximized();
        for (QDockWidget* d : findChildren<QDockWidget*>()) {
            d->hide();
        }
        for (QToolBar* t : findChildren<QToolBar*>()) {
            t->hide();
        }
        menuBar()->hide();
        statusBar()->hide();
        showFullScreen();
    } else {
        menuBar()->show();
        statusBar()->show();
        restoreState(m_beforeFullScreen, kWindowStateVersion);
        if (m_wasMaximized) {
            showMaximized();
        } else {
            showNormal();
        }
    }
    if (m_fullScreenAction && m_fullScreenAction->isChecked() != on) {
        m_fullScreenAction->setChecked(on);
    }
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (m_viewportFullScreen) {
        setViewportFullScreen(false); // store the layout with its docks
    }
    store(kGeometryKey, saveGeometry());
    store(kStateKey, saveState(kWindowStateVersion));
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls()) {
        e->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* e)
{
    if (openDropped(e->mimeData()->urls(), e->modifiers())) {
        e->acceptProposedAction();
    }
}

bool MainWindow::openDropped(const QList<QUrl>& urls, Qt::KeyboardModifiers modifiers)
{
    QStringList paths;
    for (const QUrl& url : urls) {
        if (!url.isLocalFile()) {
            continue;
        }
        const QFileInfo info(url.toLocalFile());
        if (info.isDir()) {
            QDir dir(info.absoluteFilePath());
            for (const QString& n : dir.entryList(QDir::Files, QDir::Name)) {
                if (supportedSuffixes().contains(QFileInfo(n).suffix().toLower())) {
                    paths << dir.filePath(n);
                    break;
                }
            }
        } else {
            paths << info.absoluteFilePath();
        }
    }
    if (paths.isEmpty()) {
        return false;
    }
    // An animation or VTA dropped on an open model attaches to it, unless Shift is held.
    const bool attach =
        !m_document->files().empty() && !modifiers.testFlag(Qt::ShiftModifier) &&
        std::all_of(paths.begin(), paths.end(), [](const QString& p) {
            const QString s = QFileInfo(p).suffix().toLower();
            return s == u"vta" || s == u"xanim_export" || s == u"xanim_bin" ||
                   QFileInfo(p).completeBaseName().contains(u"anim", Qt::CaseInsensitive);
        });
    if (attach) {
        m_document->open(m_document->paths() + paths, true);
    } else {
        openFiles(paths);
    }
    return true;
}

} // namespace rigscope::app
