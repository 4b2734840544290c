#include "app/widgets/main_window.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>
#include <QtGui/QClipboard>
#include <QtGui/QCloseEvent>
#include <QtGui/QIcon>
#include <QtGui/QMouseEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabBar>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QVBoxLayout>

#include "app/document/document_manager.h"
#include "app/qt_convert.h"
#include "app/widgets/bodygroups_panel.h"
#include "app/widgets/compare_panel.h"
#include "app/widgets/files_panel.h"
#include "app/widgets/flex_panel.h"
#include "app/widgets/inspector_panel.h"
#include "app/widgets/main_window_keys.h"
#include "app/widgets/materials_page.h"
#include "app/widgets/outline_panel.h"
#include "app/widgets/problems_panel.h"
#include "app/widgets/settings_dialog.h"
#include "app/widgets/shortcut_sheet.h"
#include "app/widgets/status_bar.h"
#include "app/widgets/timeline_panel.h"
#include "app/widgets/uv_view.h"
#include "app/widgets/viewport_widget.h"
#include "core/diag/diagnostic_ids.h"
#include "render/render_capture.h"

namespace rigscope::app {

using namespace window_keys;

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
    m_compare = new ComparePanel(this);
    // Double-click in the Files dock: a found file opens in a new tab, another row's QC line
    // goes to the status bar too.
    connect(m_files, &FilesPanel::openRequested, this, &MainWindow::openInNewTab);
    connect(m_files, &FilesPanel::lineShown, this,
            [this](const QString& text) { showMessage(text, 10000); });
    // The Texture / UV view shows what the viewport draws (after it, on each load).
    m_uv = new UvView(this);
    const auto texturePath = [this](int material) {
        auto* scene = m_viewport->viewport()->scene();
        return scene ? scene->texturePath(std::size_t(material)) : QString();
    };
    const auto materialLook = [this](int material) -> const render::MaterialLook* {
        auto* scene = m_viewport->viewport()->scene();
        return scene && material >= 0 ? scene->materialLook(std::size_t(material)) : nullptr;
    };
    m_uv->setTexturePathLookup(texturePath);
    m_uv->setMaterialLookLookup(materialLook);
    m_inspector->setTexturePathLookup(texturePath);
    m_inspector->setMaterialLookLookup(materialLook);
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
    QDockWidget* compare =
        addDock(m_compare, QStringLiteral("compare"), tr("Compare"), Qt::RightDockWidgetArea);
    tabifyDockWidget(uv, compare);
    connect(m_compare, &ComparePanel::ghostChanged, this,
            [this](std::shared_ptr<const core::Model> m) {
                m_viewport->viewport()->setGhostModel(std::move(m));
            });
    m_compare->ignoreTimesBox()->setChecked(
        m_settings.value(kCompareIgnoreTimesKey, false).toBool());
    connect(m_compare->ignoreTimesBox(), &QCheckBox::toggled, this,
            [this](bool on) { store(kCompareIgnoreTimesKey, on); });
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
    m_compare->setDocument(doc);
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
        // A QC project whose compiled model is found: the Compare dock (issue 30).
        const QString compiled =
            doc->qcProject() ? ComparePanel::findCompiled(*doc->qcProject()) : QString();
        if (compiled.isEmpty()) {
            m_compare->clear();
        } else if (!keepState || compiled != m_compare->compiledPath()) {
            m_compare->compareWith(compiled);
        } else {
            m_compare->compareWith(m_compare->compiledPath());
        }
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

// The manager switched tabs (it kept the camera of the one left): the window shows `doc`.
void MainWindow::onCurrentDocumentChanged(Document* doc)
{
    m_tabBar->setCurrentIndex(m_tabs->currentIndex());
    m_timeline->setPlaying(false);
    m_status->clearFlash(); // a message about the other tab's file
    bindPanels(doc);
    followDocument(doc);
    m_interpolateAction->setChecked(doc->interpolate());
    m_jiggleAction->setChecked(doc->jiggleEnabled());
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
    updateStatus(); // the summary's "(not looked up)" follows the profile the checks settled

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

} // namespace rigscope::app

namespace rigscope::app {

void MainWindow::setCompareIgnoresTimestamps(bool on)
{
    m_compare->ignoreTimesBox()->setChecked(on);
}

bool MainWindow::compareWithCompiled(const QString& mdlPath)
{
    const bool ok = m_compare->compareWith(mdlPath);
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("compare"))) {
        dock->show();
        dock->raise();
    }
    return ok;
}

} // namespace rigscope::app
