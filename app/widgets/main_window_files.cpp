// What MainWindow opens and opens again: files into tabs, reload, the folder's next file and
// its animations, the recent files, drag and drop, and the watch that reloads on a save.
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QMimeData>
#include <QtGui/QDragEnterEvent>
#include <QtGui/QDropEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QMenu>
#include <QtWidgets/QTabBar>

#include <algorithm>

#include "app/document/file_navigation.h"
#include "app/qt_convert.h"
#include "app/widgets/main_window.h"
#include "app/widgets/main_window_keys.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

using namespace window_keys;

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

void MainWindow::openFiles(const QStringList& paths)
{
    if (paths.isEmpty()) {
        return;
    }
    const QStringList ordered = orderForOpening(paths);
    store(kLastFolderKey, QFileInfo(ordered.front()).absolutePath());
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
            // Its first model, as ← / → would show them (compiled models too, not their
            // companions).
            const QStringList names = modelFilesInFolder(info.absoluteFilePath());
            if (!names.isEmpty()) {
                paths << QDir(info.absoluteFilePath()).filePath(names.front());
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
