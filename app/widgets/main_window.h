#pragma once

#include <QtCore/QSettings>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtWidgets/QMainWindow>

#include <array>

#include "app/document/document.h"
#include "app/document/document_manager.h"
#include "app/document/file_watch.h"
#include "app/widgets/settings_dialog.h"
#include "render/viewport.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QTabBar;
class QToolButton;
class QTreeWidget;

namespace rigscope::app {

class BudgetBar;
class FilesPanel;
class FlexPanel;
class BodygroupsPanel;
class ComparePanel;
class UvView;
class InspectorPanel;
class ProblemsPanel;

class ShortcutSheet;
class StatusBar;
class OutlinePanel;
class PhysicsView;
class TimelinePanel;
class ViewportWidget;

// Bumped whenever the set of docks changes, so old saved layouts are ignored.
inline constexpr int kWindowStateVersion = 2;

// The viewer window: viewport in the centre, docks `outline files inspector flex timeline
// problems log` (UX.md), menus with every key, status bar, background loading with Cancel,
// recent files, drag and drop, folder browsing, reload (F5) and auto-reload keeping the view.
// The tabs and their documents are the DocumentManager's; the window shows its current
// document. main_window.cpp: layout, display, status and settings; main_window_menus.cpp: the
// menus and toolbar; main_window_files.cpp: opening, reloading, recent files and drops.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QSettings& settings, const render::ViewportOptions& viewport = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    Document* document() const { return m_tabs->current(); } // the current tab's
    DocumentManager* tabs() const { return m_tabs; }
    ViewportWidget* viewportWidget() const { return m_viewport; }
    OutlinePanel* outline() const { return m_outline; }
    InspectorPanel* inspector() const { return m_inspector; }
    ProblemsPanel* problems() const { return m_problems; }
    ComparePanel* comparePanel() const { return m_compare; }
    // The Compare dock against `mdlPath` (File ▸ Compare with Compiled…, --compare).
    bool compareWithCompiled(const QString& mdlPath);
    // The Compare dock's "Ignore file times" box (--ignore-timestamps; remembered).
    void setCompareIgnoresTimestamps(bool on);
    PhysicsView* physicsView() const { return m_physics; } // the Physics menu and view
    QLabel* statusSummary() const;
    QLabel* heatLegend() const;
    QComboBox* profileBox() const { return m_profileBox; }
    // Status-bar meters in order: bones, materials, vertices, flexed vertices.
    const std::vector<BudgetBar*>& budgetBars() const;

    // K: off → selected bone → influence count → weight change; Shift+K: compiled weights.
    void cycleHeatMap();
    void setHeatMap(render::HeatMap mode);
    void setCompiledWeights(bool on);
    // Requested checks profile (toolbar combo); re-runs checks, budgets and weight views.
    void setProfile(core::Profile profile);
    // --materials DIR roots, searched before the Settings' Materials roots (every tab).
    void setMaterialRoots(const QStringList& roots);
    void setTexturesShown(bool on); // the Textures toggle (T); --no-textures starts with it off
    // What every document searches: --materials, then Settings ▸ Materials, then the folders of
    // the texture search path that hold materials/.
    QStringList materialRoots() const;

    // Opens `paths` as the current tab's document (replacing what it showed).
    void openFiles(const QStringList& paths);
    // Tabs (UX.md: one document per tab). Opens `paths` in a new tab, or in the current one
    // when it is empty (File ▸ Open, recent files, dropped references).
    void openInNewTab(const QStringList& paths);
    int tabCount() const { return m_tabs->count(); }
    int currentTab() const { return m_tabs->currentIndex(); }
    Document* tabDocument(int i) const { return m_tabs->document(i); }
    QTabBar* tabBar() const { return m_tabBar; }
    void closeTab(int index); // Ctrl+W, middle-click; the last tab leaves an empty one
    void closeAllTabs();      // Ctrl+Shift+W
    void reopenClosedTab();   // Ctrl+Shift+T
    void nextTab(int delta);  // Ctrl+Tab, Ctrl+Shift+Tab
    void reload(bool keepView = true);
    void browse(int delta); // previous / next supported file in the folder
    // ↓: the animations and flex files of the reference's folder that fit it (Document::attach).
    void attachFolder();
    QString saveScreenshot(const QString& path = {}, bool minimal = false);
    void resetLayout();
    // H / F1: the cheat-sheet of every key, with live toggle states.
    void toggleShortcutSheet();
    // F11: the viewport alone, full screen (docks, toolbar, menus, status bar hidden); again
    // restores the layout.
    void setViewportFullScreen(bool on);
    bool isViewportFullScreen() const { return m_viewportFullScreen; }
    // Ctrl+Shift+C: the viewport's image (as F12 saves it) to the clipboard.
    bool copyImage();
    ShortcutSheet* shortcutSheet() const { return m_sheet; }
    // File ▸ Settings (Ctrl+,): the dialog, modeless; applying it re-reads the settings.
    SettingsDialog* openSettings();
    SettingsDialog* settingsDialog() const { return m_settingsDialog; }
    // Applies the Settings dialog's keys (mouse, colours, units) to the window.
    void applySettings();
    // A transient status message in its own label (it never covers the status widgets).
    void showMessage(const QString& text, int timeoutMs = 5000);
    // Appends a line to the Log dock.
    void log(const QString& line);
    QLabel* messageLabel() const;
    QAction* followRootAction() const { return m_followRootAction; }
    // What a drop does (UX.md): a folder opens its first model; animations and VTAs dropped on an
    // open model attach to it unless Shift is held. False when nothing usable was dropped.
    bool openDropped(const QList<QUrl>& urls, Qt::KeyboardModifiers modifiers);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void applyMaterialRoots(); // materialRoots() to every document and the viewport
    QDockWidget* addDock(QWidget* panel, const QString& objectName, const QString& title,
                         Qt::DockWidgetArea area);
    void createActions();
    void createFileMenu();
    void createDisplayMenu();
    void createCameraMenu();
    void createPlaybackMenu();
    void createViewMenu();
    void createHelpMenu();
    void createToolBar();
    // The one place the panels and the viewport are bound to a document (the current tab's).
    void bindPanels(Document* doc);
    // The window's own reactions (status bar, Log, docks) to the current document's signals.
    void followDocument(Document* doc);
    void onCurrentDocumentChanged(Document* doc);
    void updateTabTitle(int index);
    void updateStatus();
    void onChecksStarted();
    void onDiagnosticsChanged();
    void updateHeatLegend();
    void store(const QString& key, const QVariant& value); // setValue + sync
    void updateRecentMenu();
    void addRecent(const QStringList& paths);
    void onLoaded(bool keepState);
    void onLoadFailed(const QString& message);
    void onFilesChanged(const QStringList& paths);
    void applyDisplay();
    void rearmWatcher();
    QAction* displayToggle(QMenu* menu, const QString& text, const QKeySequence& key,
                           bool render::DisplayFlags::*flag, bool persist = true);

    QSettings& m_settings;
    DocumentManager* m_tabs;        // the documents, one per tab, and the current one
    QObject* m_following = nullptr; // context of followDocument's connections
    ViewportWidget* m_viewport;
    OutlinePanel* m_outline;
    InspectorPanel* m_inspector;
    TimelinePanel* m_timeline;
    FilesPanel* m_files;
    FlexPanel* m_flex;
    BodygroupsPanel* m_bodygroups; // QC projects (issue 17)
    ComparePanel* m_compare;       // QC project against its compiled model (issue 30)
    UvView* m_uv = nullptr;        // Texture / UV view (issue 18)
    ProblemsPanel* m_problems;
    PhysicsView* m_physics = nullptr;
    QPlainTextEdit* m_log;
    StatusBar* m_status;
    QComboBox* m_profileBox = nullptr;
    QAction* m_compiledAction = nullptr;
    QAction* m_texturesAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_displayMenu = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_screenshotAction = nullptr;
    ShortcutSheet* m_sheet = nullptr;
    QAction* m_fullScreenAction = nullptr;
    bool m_viewportFullScreen = false;
    bool m_wasMaximized = false;
    QByteArray m_beforeFullScreen;
    QByteArray m_defaultState;
    render::DisplayFlags m_flags;
    FileWatch m_watcher; // the current tab's files; one report per save (issue 27)
    QTimer m_layoutSave; // docks moved, shown or hidden: store the layout shortly after
    bool m_autoReload = true;
    SettingsDialog* m_settingsDialog = nullptr;
    QAction* m_followRootAction = nullptr;
    QAction* m_fpsAction = nullptr;
    QAction* m_interpolateAction = nullptr;
    QAction* m_jiggleAction = nullptr;
    QTabBar* m_tabBar = nullptr;
    QStringList m_cliMaterialRoots; // --materials DIR
    std::array<QAction*, 3> m_cameraModeActions{};
    Units m_units = Units::Model;
};

} // namespace rigscope::app
