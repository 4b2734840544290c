#pragma once

#include <QtCore/QFileSystemWatcher>
#include <QtCore/QSettings>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtWidgets/QMainWindow>

#include "app/document/document.h"
#include "render/viewport.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QListWidget;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QToolButton;
class QTreeWidget;

namespace rigscope::app {

class BudgetBar;
class FlexPanel;
class BodygroupsPanel;
class InspectorPanel;
class ProblemsPanel;
class ShortcutSheet;
class OutlinePanel;
class TimelinePanel;
class ViewportWidget;

// Bumped whenever the set of docks changes, so old saved layouts are ignored.
inline constexpr int kWindowStateVersion = 1;

// The viewer window: viewport in the centre, docks `outline files inspector flex timeline
// problems log` (UX.md), menus with every key, status bar, background loading with Cancel,
// recent files, drag and drop, folder browsing, reload (F5) and auto-reload keeping the view.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QSettings& settings, const render::ViewportOptions& viewport = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    Document* document() const { return m_document; }
    ViewportWidget* viewportWidget() const { return m_viewport; }
    OutlinePanel* outline() const { return m_outline; }
    InspectorPanel* inspector() const { return m_inspector; }
    ProblemsPanel* problems() const { return m_problems; }
    QLabel* statusSummary() const { return m_summary; }
    QLabel* heatLegend() const { return m_heatLabel; }
    QComboBox* profileBox() const { return m_profileBox; }
    // Status-bar meters in order: bones, materials, vertices, flexed vertices.
    const std::vector<BudgetBar*>& budgetBars() const { return m_budgetBars; }

    // K: off → selected bone → influence count → weight change; Shift+K: compiled weights.
    void cycleHeatMap();
    void setHeatMap(render::HeatMap mode);
    void setCompiledWeights(bool on);
    // Requested checks profile (toolbar combo); re-runs checks, budgets and weight views.
    void setProfile(core::Profile profile);

    void openFiles(const QStringList& paths);
    void reload(bool keepView = true);
    void browse(int delta); // previous / next supported file in the folder
    // ↓: the animations and flex files of the reference's folder that fit it (Document::attach).
    void attachFolder();
    // Supported files in `folder`, natural order, case-insensitive.
    static QStringList folderFiles(const QString& folder);
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
    // What a drop does (UX.md): a folder opens its first model; animations and VTAs dropped on an
    // open model attach to it unless Shift is held. False when nothing usable was dropped.
    bool openDropped(const QList<QUrl>& urls, Qt::KeyboardModifiers modifiers);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    QDockWidget* addDock(QWidget* panel, const QString& objectName, const QString& title,
                         Qt::DockWidgetArea area);
    void createActions();
    void updateStatus();
    void onChecksStarted();
    void onDiagnosticsChanged();
    void updateHeatLegend();
    void store(const QString& key, const QVariant& value); // setValue + sync
    void updateRecentMenu();
    void addRecent(const QStringList& paths);
    void onLoaded(bool keepState);
    void onLoadFailed(const QString& message);
    void onFileChanged(const QString& path);
    void log(const QString& line);
    void applyDisplay();
    void rearmWatcher();
    QAction* displayToggle(QMenu* menu, const QString& text, const QKeySequence& key,
                           bool render::DisplayFlags::*flag);

    QSettings& m_settings;
    Document* m_document;
    ViewportWidget* m_viewport;
    OutlinePanel* m_outline;
    InspectorPanel* m_inspector;
    TimelinePanel* m_timeline;
    QListWidget* m_files;
    FlexPanel* m_flex;
    BodygroupsPanel* m_bodygroups; // QC projects (issue 17)
    ProblemsPanel* m_problems;
    QPlainTextEdit* m_log;
    QLabel* m_summary;
    QLabel* m_frameLabel;
    QLabel* m_fpsLabel;
    QLabel* m_heatLabel;
    QLabel* m_profileLabel;
    QComboBox* m_profileBox = nullptr;
    QAction* m_compiledAction = nullptr;
    std::vector<BudgetBar*> m_budgetBars;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    ShortcutSheet* m_sheet = nullptr;
    QAction* m_fullScreenAction = nullptr;
    bool m_viewportFullScreen = false;
    bool m_wasMaximized = false;
    QByteArray m_beforeFullScreen;
    QByteArray m_defaultState;
    render::DisplayFlags m_flags;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadDebounce;
    QTimer m_layoutSave; // docks moved, shown or hidden: store the layout shortly after
    bool m_autoReload = true;
};

} // namespace rigscope::app
