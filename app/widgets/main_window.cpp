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
#include <QtGui/QMouseEvent>
#include <QtGui/QPainter>
#include <QtGui/QClipboard>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QProgressBar>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabBar>
#include <QtWidgets/QVBoxLayout>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QTreeWidget>

#include "app/document/document_manager.h"
#include "app/document/file_navigation.h"
#include "app/document/frame_names.h"
#include "app/widgets/materials_page.h"
#include "app/widgets/uv_view.h"
#include "core/ops/qc_ops.h"
#include "core/version.h"
#include "app/qt_convert.h"
#include "app/widgets/budget_bar.h"
#include "app/widgets/bodygroups_panel.h"
#include "app/widgets/files_panel.h"
#include "app/widgets/flex_panel.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/settings_dialog.h"
#include "app/widgets/shortcut_sheet.h"
#include "app/widgets/status_bar.h"
#include "app/widgets/timeline_panel.h"
#include "app/widgets/viewport_widget.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/registry.h"
#include "render/render_capture.h"

namespace rigscope::app {

namespace {

const QString kGeometryKey = QStringLiteral("MainWindow/geometry");
const QString kStateKey = QStringLiteral("MainWindow/state");
const QString kTexturePathKey = QStringLiteral("Textures/searchPath");
const QString kAutoReloadKey = QStringLiteral("Files/autoReload");
const QString kScreenshotDirKey = QStringLiteral("Screenshot/folder");
const QString kFpsKey = QStringLiteral("Viewport/frameRate");

} // namespace

MainWindow::MainWindow(QSettings& settings, const render::ViewportOptions& viewport,
                       QWidget* parent)
    : QMainWindow(parent), m_settings(settings), m_tabs(new DocumentManager(this)),
      m_viewport(new ViewportWidget(viewport, this)), m_outline(new OutlinePanel(this)),
      m_inspector(new InspectorPanel(this)), m_timeline(new TimelinePanel(this)),
      m_files(new FilesPanel(this)), m_flex(new FlexPanel(this)),
      m_problems(new ProblemsPanel(this)), m_log(new QPlainTextEdit(this)),
      m_status(new StatusBar(this))
{
    setWindowTitle(tr("RigScope"));
    setWindowIcon(QIcon::fromTheme(QStringLiteral("rigscope")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    // Viewport tabs (UX.md): one document per tab above the one viewport; switching a tab
    // rebinds the panels and the viewport to its document and restores its camera.
    m_tabBar = new QTabBar(this);
    m_tabBar->setObjectName(QStringLiteral("documentTabs"));
    m_tabBar->setTabsClosable(true);
    m_tabBar->setMovable(false);
    m_tabBar->setExpanding(false);
    m_tabBar->setDocumentMode(true);
    m_tabBar->setElideMode(Qt::ElideMiddle);
    m_tabBar->setAutoHide(true); // one document: no bar
    m_tabBar->installEventFilter(this);
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_tabBar);
    centralLayout->addWidget(m_viewport, 1);
    setCentralWidget(central);
    // The tab bar mirrors the DocumentManager, which keeps each tab's camera when it is left.
    m_tabBar->addTab(tr("(empty)"));
    m_tabs->setCameraSource([this] { return m_viewport->viewport()->camera3d(); });
    connect(m_tabs, &DocumentManager::tabAdded, this,
            [this](int index) { m_tabBar->insertTab(index, tr("(empty)")); });
    connect(m_tabs, &DocumentManager::tabRemoved, m_tabBar, &QTabBar::removeTab);
    connect(m_tabs, &DocumentManager::titleChanged, this, &MainWindow::updateTabTitle);
    connect(m_tabs, &DocumentManager::currentDocumentChanged, this,
            &MainWindow::onCurrentDocumentChanged);
    connect(m_tabBar, &QTabBar::currentChanged, m_tabs, &DocumentManager::setCurrentIndex);
    connect(m_tabBar, &QTabBar::tabCloseRequested, this, &MainWindow::closeTab);

    m_bodygroups = new BodygroupsPanel(this);
    // Double-click in the Files dock: a found file opens in a new tab, another row's QC line
    // goes to the status bar too.
    connect(m_files, &FilesPanel::openRequested, this, &MainWindow::openInNewTab);
    connect(m_files, &FilesPanel::lineShown, this,
            [this](const QString& text) { showMessage(text, 10000); });
    // The Texture / UV view shows what the viewport draws (after it, on each load).
    m_uv = new UvView(this);
    m_uv->setTexturePathLookup([this](int material) {
        auto* scene = m_viewport->viewport()->scene();
        return scene ? scene->texturePath(std::size_t(material)) : QString();
    });
    m_uv->setMaterialLookLookup([this](int material) -> const render::MaterialLook* {
        auto* scene = m_viewport->viewport()->scene();
        return scene && material >= 0 ? scene->materialLook(std::size_t(material)) : nullptr;
    });
    m_inspector->setTexturePathLookup([this](int material) {
        auto* scene = m_viewport->viewport()->scene();
        return scene ? scene->texturePath(std::size_t(material)) : QString();
    });
    m_inspector->setMaterialLookLookup([this](int material) -> const render::MaterialLook* {
        auto* scene = m_viewport->viewport()->scene();
        return scene && material >= 0 ? scene->materialLook(std::size_t(material)) : nullptr;
    });
    bindPanels(document());
    applyMaterialRoots();
    connect(m_problems, &ProblemsPanel::problemActivated, this,
            [this](int file, int index, bool selected) {
                const auto& d =
                    document()->files()[std::size_t(file)].diagnostics[std::size_t(index)];
                core::Diagnostic shown = d;
                shown.file =
                    toStd(QFileInfo(d.file.empty() ? document()->files()[std::size_t(file)].path
                                                   : toQString(d.file))
                              .fileName());
                showMessage(toQString(core::formatDiagnostic(shown)), 8000);
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
    QDockWidget* uv =
        addDock(m_uv, QStringLiteral("uv"), tr("Texture / UV"), Qt::RightDockWidgetArea);
    tabifyDockWidget(bodygroups, uv);
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

    setStatusBar(m_status);
    connect(m_status, &StatusBar::cancelRequested, this, [this] { document()->cancelLoad(); });
    // A game folder found beside the model's sources, offered when its materials were not
    // looked up (issue 27): taken, it joins Settings ▸ Materials for every tab.
    connect(m_status, &StatusBar::materialRootOffered, this, [this](const QString& folder) {
        QStringList roots = m_settings.value(QLatin1String(kMaterialRootsKey)).toStringList();
        if (!roots.contains(folder)) {
            roots << folder;
            store(QLatin1String(kMaterialRootsKey), roots);
        }
        log(tr("Materials: looking up in %1 (Settings ▸ Materials)").arg(folder));
        showMessage(tr("Materials are looked up in %1").arg(folder), 6000);
        applyMaterialRoots();
        reload(true);
    });

    createActions();
    followDocument(document());

    connect(m_viewport->viewport(), &render::Viewport::fpsChanged, this,
            [this](double fps) { m_status->setFps(fps); });
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
    connect(&m_watcher, &FileWatch::changed, this, &MainWindow::onFilesChanged);
    m_autoReload = m_settings.value(kAutoReloadKey, true).toBool();

    resize(1400, 880);
    m_defaultState = saveState(kWindowStateVersion);
    restoreGeometry(m_settings.value(kGeometryKey).toByteArray());
    restoreState(m_settings.value(kStateKey).toByteArray(), kWindowStateVersion);
    applyDisplay();
    applySettings();
    updateHeatLegend();
    updateRecentMenu();
}

MainWindow::~MainWindow() = default;

void MainWindow::bindPanels(Document* doc)
{
    m_outline->setDocument(doc);
    m_inspector->setDocument(doc);
    m_timeline->setDocument(doc);
    m_flex->setDocument(doc);
    m_bodygroups->setDocument(doc);
    m_files->setDocument(doc);
    m_viewport->setDocument(doc);
    m_uv->setDocument(doc);
    m_problems->setDocument(doc);
}

void MainWindow::followDocument(Document* doc)
{
    delete m_following; // drops the connections to the tab shown so far
    m_following = new QObject(this);
    const QObject* ctx = m_following;
    connect(doc, &Document::loadStarted, ctx, [this] { m_status->setLoading(true); });
    connect(doc, &Document::loadProgress, ctx,
            [this](int done, int total) { m_status->setLoadProgress(done, total); });
    connect(doc, &Document::loaded, ctx, [this, doc](bool keepState) {
        onLoaded(keepState);
        if (!keepState && doc->qcProject()) {
            // A QC project: show its bodygroups and files (issue 17).
            for (const QString& name : {QStringLiteral("bodygroups"), QStringLiteral("files")}) {
                if (auto* dock = findChild<QDockWidget*>(name)) {
                    dock->raise();
                }
            }
        }
    });
    connect(doc, &Document::loadFailed, ctx,
            [this](const QString& message) { onLoadFailed(message); });
    connect(doc, &Document::attached, ctx, [this](int added) {
        const QString text =
            added == 0 ? tr("No animation in the folder fits this model")
                       : tr("Attached %n animation / flex file(s) from the folder", "", added);
        log(text);
        showMessage(text, 5000);
    });
    connect(doc, &Document::frameChanged, ctx, [this] {
        updateStatus();
        if (m_flags.heatMap == render::HeatMap::WeightChange) {
            // after the viewport has posed the scene for this frame
            QTimer::singleShot(0, this, &MainWindow::updateHeatLegend);
        }
    });
    connect(doc, &Document::animationChanged, ctx, [this] { updateStatus(); });
    connect(doc, &Document::selectionChanged, ctx, [this] { updateStatus(); });
    connect(doc, &Document::checksStarted, ctx, [this] { onChecksStarted(); });
    connect(doc, &Document::diagnosticsChanged, ctx, [this] { onDiagnosticsChanged(); });
    connect(doc, &Document::interpolateChanged, ctx, [this](bool on) {
        if (m_interpolateAction) {
            m_interpolateAction->setChecked(on);
        }
    });
}

void MainWindow::updateTabTitle(int index)
{
    const Document* doc = m_tabs->document(index);
    if (!doc) {
        return;
    }
    const QString name = doc->displayName();
    m_tabBar->setTabText(index, name.isEmpty() ? tr("(empty)") : name);
    m_tabBar->setTabToolTip(index, doc->paths().join(QLatin1Char('\n')));
}

void MainWindow::openInNewTab(const QStringList& paths)
{
    if (paths.isEmpty()) {
        return;
    }
    // An empty current tab (nothing opened yet, or only failures) takes the files itself.
    const int before = m_tabs->count();
    m_tabs->documentForNewFiles(); // a new tab is made current: the panels follow it
    if (m_tabs->count() > before) {
        m_tabBar->setTabText(m_tabs->currentIndex(), tr("(loading)"));
    }
    openFiles(paths);
}

// The manager switched tabs (it kept the camera of the one left): the window shows `doc`.
void MainWindow::onCurrentDocumentChanged(Document* doc)
{
    m_tabBar->setCurrentIndex(m_tabs->currentIndex());
    m_timeline->setPlaying(false);
    m_status->clearFlash(); // a message about the other tab's file
    bindPanels(doc);
    followDocument(doc);
    m_interpolateAction->setChecked(doc->interpolate());
    if (m_profileBox) {
        m_profileBox->blockSignals(true);
        m_profileBox->setCurrentIndex(m_profileBox->findData(int(doc->requestedProfile())));
        m_profileBox->blockSignals(false);
    }
    // The views show the document's state as if it had just loaded; the camera comes back.
    if (!doc->files().empty()) {
        doc->announce();
        m_viewport->viewport()->setCamera3d(m_tabs->camera(m_tabs->currentIndex()));
        setWindowTitle(tr("%1 — RigScope").arg(doc->displayName()));
    } else {
        m_viewport->viewport()->setModel(nullptr, {}, true);
        setWindowTitle(tr("RigScope"));
        m_status->showNoFile();
        updateStatus();
        onDiagnosticsChanged();
    }
    rearmWatcher();
}

void MainWindow::closeTab(int index)
{
    if (m_tabs->document(index)) {
        m_tabs->closeTab(index); // the last tab leaves an empty one
        log(tr("Closed tab %1").arg(index + 1));
    }
}

void MainWindow::closeAllTabs()
{
    while (m_tabs->count() > 1 || !document()->files().empty()) {
        const int before = m_tabs->count();
        closeTab(m_tabs->currentIndex());
        if (m_tabs->count() == before && document()->files().empty()) {
            break;
        }
    }
}

void MainWindow::reopenClosedTab()
{
    const QStringList paths = m_tabs->takeClosed();
    if (paths.isEmpty()) {
        showMessage(tr("No closed tab to reopen"), 3000);
        return;
    }
    openInNewTab(paths);
}

void MainWindow::nextTab(int delta)
{
    const int n = m_tabs->count();
    if (n > 1) {
        m_tabs->setCurrentIndex(((m_tabs->currentIndex() + delta) % n + n) % n);
    }
}

bool MainWindow::eventFilter(QObject* watched, QEvent* e)
{
    // Middle-click closes a tab (UX.md, HLAM).
    if (watched == m_tabBar && e->type() == QEvent::MouseButtonRelease) {
        auto* me = static_cast<QMouseEvent*>(e);
        if (me->button() == Qt::MiddleButton) {
            const int i = m_tabBar->tabAt(me->position().toPoint());
            if (i >= 0) {
                closeTab(i);
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, e);
}

QLabel* MainWindow::statusSummary() const
{
    return m_status->summary();
}

QLabel* MainWindow::messageLabel() const
{
    return m_status->message();
}

QLabel* MainWindow::heatLegend() const
{
    return m_status->weightLegend();
}

const std::vector<BudgetBar*>& MainWindow::budgetBars() const
{
    return m_status->budgetBars();
}

void MainWindow::showMessage(const QString& text, int timeoutMs)
{
    m_status->flash(text, timeoutMs);
}

void MainWindow::setTexturesShown(bool on)
{
    m_texturesAction->setChecked(on);
}

void MainWindow::setMaterialRoots(const QStringList& roots)
{
    m_cliMaterialRoots = roots;
    applyMaterialRoots();
}

QStringList MainWindow::materialRoots() const
{
    QStringList roots = m_cliMaterialRoots;
    roots += m_settings.value(QLatin1String(kMaterialRootsKey)).toStringList();
    roots += render::sourceRoots(m_settings.value(kTexturePathKey).toStringList());
    roots.removeDuplicates();
    return roots;
}

void MainWindow::applyMaterialRoots()
{
    m_tabs->setMaterialRoots(materialRoots()); // every tab, and the tabs to come
    m_viewport->setTextureSearchPath(m_settings.value(kTexturePathKey).toStringList());
}

SettingsDialog* MainWindow::openSettings()
{
    if (!m_settingsDialog) {
        m_settingsDialog = new SettingsDialog(m_settings, this);
        m_settingsDialog->addPage(new MaterialsPage); // issue 18: Materials/roots
        connect(m_settingsDialog, &SettingsDialog::applied, this, &MainWindow::applySettings);
    } else {
        for (SettingsPage* p : m_settingsDialog->pages()) {
            p->load(m_settings);
        }
    }
    // Add… starts beside the open model (issue 27).
    if (auto* page = m_settingsDialog->findChild<MaterialsPage*>()) {
        const LoadedFile* p = document()->primary();
        page->setStartFolder(p ? QFileInfo(p->path).absolutePath() : QString());
    }
    m_settingsDialog->show();
    m_settingsDialog->raise();
    return m_settingsDialog;
}

void MainWindow::applySettings()
{
    const ViewerSettings v = ViewerSettings::read(m_settings);
    auto* vp = m_viewport->viewport();
    vp->setMouseOptions(v.mouse);
    vp->setBackgroundColors(v.backgroundTop, v.backgroundBottom);
    m_units = v.units;
    updateStatus();
    const QStringList before = document()->materialRoots();
    applyMaterialRoots();
    if (document()->materialRoots() != before && !document()->files().empty()) {
        reload(true); // the viewport's textures follow the new roots
    }
}

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
        const QString dir = m_settings.value(QStringLiteral("Files/lastFolder")).toString();
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
    for (core::Profile p : {core::Profile::Auto, core::Profile::GoldSrc, core::Profile::Source,
                            core::Profile::Source256, core::Profile::Cod}) {
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
    tb->addSeparator();
    tb->addAction(m_screenshotAction);
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
    m_sheet->showOver(menuBar(), m_viewport->viewport()->mouseOptions().scheme,
                      QRect(mapToGlobal(QPoint(0, 0)), size()));
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
    document()->open(ordered, false);
}

void MainWindow::reload(bool keepView)
{
    if (document()->files().empty()) {
        return;
    }
    log(tr("Reloading %1").arg(document()->displayName()));
    document()->open(document()->paths(), keepView);
}

void MainWindow::browse(int delta)
{
    const LoadedFile* p = document()->primary();
    if (!p) {
        return;
    }
    const FolderStep step = stepInFolder(p->path, delta);
    if (step.path.isEmpty()) {
        return;
    }
    log(tr("Browsing to %1 (%2/%3)")
            .arg(QFileInfo(step.path).fileName())
            .arg(step.index + 1)
            .arg(step.count));
    document()->open({step.path}, QApplication::keyboardModifiers().testFlag(Qt::ControlModifier));
}

void MainWindow::attachFolder()
{
    const LoadedFile* p = document()->primary();
    if (!p) {
        return;
    }
    const QDir dir = QFileInfo(p->path).absoluteDir();
    QStringList paths;
    for (const QString& name : modelFilesInFolder(dir.absolutePath())) {
        paths << dir.filePath(name);
    }
    if (!document()->attach(paths)) {
        showMessage(tr("Nothing more to attach in %1").arg(dir.dirName()), 5000);
        return;
    }
    log(tr("Reading %1 files in %2 for animations…").arg(paths.size()).arg(dir.absolutePath()));
}

void MainWindow::onLoaded(bool keepState)
{
    m_status->setLoading(false);
    Q_UNUSED(keepState);
    const LoadedFile* p = document()->primary();
    setWindowTitle(tr("%1 — RigScope").arg(document()->displayName()));
    addRecent(document()->paths());
    rearmWatcher();

    log(tr("Loaded %1 file(s); primary %2 in %3 ms")
            .arg(document()->files().size())
            .arg(p ? QFileInfo(p->path).fileName() : QString())
            .arg(p ? p->loadMs : 0.0, 0, 'f', 1));
    updateStatus();
}

void MainWindow::onLoadFailed(const QString& rawMessage)
{
    // One reason per failed file, each line shown as text (no "\x0a" between them).
    QStringList reasons;
    for (const QString& line : rawMessage.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        reasons << toDisplayString(toStd(line));
    }
    const QString message = reasons.join(QStringLiteral(" · "));
    m_status->setLoading(document()->isLoading());
    for (const QString& reason : std::as_const(reasons)) {
        log(tr("Load failed: %1").arg(reason));
    }
    if (document()->files().empty()) {
        m_status->showOpenFailed(message);
        updateStatus(); // nothing shown: no frame, fps or weight legend either
    } else {
        showMessage(tr("Reload failed: showing last good version (%1)").arg(message), 8000);
    }
    // I/O errors and unreadable files: the Log says what happened, Problems lists the errors.
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("log"))) {
        dock->show();
        dock->raise();
    }
    // The failed files' diagnostics are in Problems (the previous scene stays): show them
    // beside the Log (Problems raised: the errors are what the user acts on).
    if (!document()->failedFiles().empty()) {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("problems"))) {
            dock->show();
            dock->raise();
        }
    }
}

void MainWindow::updateStatus()
{
    m_status->showDocument(*document(), m_units);
}

void MainWindow::onChecksStarted()
{
    m_status->showChecking(*document());
}

void MainWindow::onDiagnosticsChanged()
{
    if (document()->isChecking()) {
        onChecksStarted(); // a failed load's diagnostics while the shown files are still checked
        return;
    }
    auto model = document()->primaryModel();
    const core::Profile active = document()->activeProfile();
    const QString profile = toQString(core::profileName(active));
    const LoadedFile* p = document()->primary();
    m_status->showChecked(*document());

    // Weight views follow the active profile; vertices the checks flag as unweighted, NaN,
    // zero-sum or weighted to an undeclared bone stand out in the influence-count view.
    auto* vp = m_viewport->viewport();
    vp->setWeightProfile(active);
    m_viewport->refreshMaterials(); // the profile decides the Source lookup (issue 18)
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
    for (const auto& f : document()->files()) {
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
    // Not stored: every launch starts on auto unless --profile says otherwise (issue 15); the
    // status bar and the toolbar combo show the profile in use.
    if (m_profileBox && m_profileBox->currentData().toInt() != int(profile)) {
        m_profileBox->setCurrentIndex(m_profileBox->findData(int(profile)));
        return; // the combo's signal comes back here
    }
    document()->setProfile(profile);
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
    applyDisplay();
    updateHeatLegend();
}

void MainWindow::updateHeatLegend()
{
    auto* scene = m_viewport->viewport()->scene();
    m_status->showWeightLegend(m_flags.heatMap, m_flags.compiledWeights,
                               document()->activeProfile(), scene ? scene->maxDisplacement() : 0.0f,
                               bool(document()->primaryModel()));
}

void MainWindow::addRecent(const QStringList& paths)
{
    RecentFiles(m_settings).add(paths);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    if (!m_recentMenu) {
        return;
    }
    m_recentMenu->clear();
    const QList<QStringList> recent = RecentFiles(m_settings).list();
    for (const QStringList& paths : recent) {
        QStringList names;
        for (const QString& p : paths) {
            names << QFileInfo(p).fileName();
        }
        QAction* a = m_recentMenu->addAction(names.join(QStringLiteral(" + ")));
        a->setToolTip(paths.join(QLatin1Char('\n')));
        a->setEnabled(QFileInfo::exists(paths.front()));
        connect(a, &QAction::triggered, this, [this, paths] { openInNewTab(paths); });
    }
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
    }
    QAction* clear = m_recentMenu->addAction(tr("Clear List"));
    connect(clear, &QAction::triggered, this, [this] {
        RecentFiles(m_settings).clear();
        updateRecentMenu();
    });
}

void MainWindow::rearmWatcher()
{
    QStringList paths;
    for (const QString& p : document()->paths()) {
        paths << QFileInfo(p).absoluteFilePath();
    }
    if (const core::QcReport* qc = document()->qcProject()) { // every file of a QC (issue 17)
        for (const core::QcFileRef& f : qc->project.files) {
            if (!f.resolved.empty()) {
                paths << QFileInfo(toQString(f.resolved)).absoluteFilePath();
            }
        }
    }
    paths.removeDuplicates();
    m_watcher.setPaths(paths);
}

void MainWindow::onFilesChanged(const QStringList& paths)
{
    if (!m_autoReload) {
        return;
    }
    QStringList names;
    for (const QString& p : paths) {
        names << QFileInfo(p).fileName();
    }
    log(tr("Changed on disk: %1").arg(names.join(QStringLiteral(", "))));
    reload(true);
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
        const QString stem = QFileInfo(document()->displayName()).completeBaseName();
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
    showMessage(tr("Screenshot saved: %1").arg(out), 5000);
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
    showMessage(tr("Viewport image copied (%1 × %2)").arg(image.width()).arg(image.height()), 5000);
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
        !document()->files().empty() && !modifiers.testFlag(Qt::ShiftModifier) &&
        std::all_of(paths.begin(), paths.end(), [](const QString& p) {
            const QString s = QFileInfo(p).suffix().toLower();
            return s == u"vta" || s == u"xanim_export" || s == u"xanim_bin" ||
                   QFileInfo(p).completeBaseName().contains(u"anim", Qt::CaseInsensitive);
        });
    if (attach) {
        document()->open(document()->paths() + paths, true);
    } else {
        openInNewTab(paths); // a reference opens a tab (UX.md); an empty tab takes it
    }
    return true;
}

} // namespace rigscope::app
