#include "app/document/file_watch.h"

#include <QtCore/QFileInfo>

namespace rigscope::app {

FileWatch::FileWatch(QObject* parent) : QObject(parent)
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(250);
    connect(&m_quiet, &QTimer::timeout, this, &FileWatch::flush);
    m_gone.setSingleShot(true);
    connect(&m_gone, &QTimer::timeout, this, &FileWatch::flush);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &FileWatch::onFileChanged);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this,
            &FileWatch::onDirectoryChanged);
}

FileWatch::Stamp FileWatch::stampOf(const QString& path)
{
    const QFileInfo info(path);
    Stamp s;
    s.exists = info.exists();
    if (s.exists) {
        s.size = info.size();
        s.modified = info.lastModified();
        s.metadata = info.metadataChangeTime();
    }
    return s;
}

void FileWatch::setPaths(const QStringList& paths)
{
    if (!m_watcher.files().isEmpty()) {
        m_watcher.removePaths(m_watcher.files());
    }
    if (!m_watcher.directories().isEmpty()) {
        m_watcher.removePaths(m_watcher.directories());
    }
    m_quiet.stop();
    m_gone.stop();
    m_pending.clear();
    m_goneSince.clear();
    m_stamps.clear();
    m_paths = paths;
    m_paths.removeDuplicates();
    QStringList files;
    QStringList dirs;
    for (const QString& p : m_paths) {
        const Stamp s = stampOf(p);
        m_stamps.insert(p, s);
        if (s.exists) {
            files << p;
        }
        const QString dir = QFileInfo(p).absolutePath();
        if (!dirs.contains(dir) && QFileInfo(dir).isDir()) {
            dirs << dir;
        }
    }
    if (!files.isEmpty()) {
        m_watcher.addPaths(files);
    }
    if (!dirs.isEmpty()) {
        m_watcher.addPaths(dirs);
    }
}

void FileWatch::onFileChanged(const QString& path)
{
    if (!m_paths.contains(path)) {
        return;
    }
    // Deleted or replaced: the system watcher lets go of it; the folder's watch brings it back.
    if (QFileInfo::exists(path) && !m_watcher.files().contains(path)) {
        m_watcher.addPath(path);
    }
    m_pending.insert(path);
    m_quiet.start();
}

void FileWatch::onDirectoryChanged(const QString& dir)
{
    bool any = false;
    for (const QString& p : std::as_const(m_paths)) {
        if (QFileInfo(p).absolutePath() != dir) {
            continue;
        }
        const bool exists = QFileInfo::exists(p);
        const bool watched = m_watcher.files().contains(p);
        if (exists && !watched) {
            m_watcher.addPath(p); // written again, or renamed into place
        }
        if (stampOf(p) != m_stamps.value(p) || (exists && !watched)) {
            m_pending.insert(p);
            any = true;
        }
    }
    if (any) {
        m_quiet.start();
    }
}

void FileWatch::flush()
{
    QStringList out;
    for (const QString& p : std::as_const(m_paths)) {
        if (!m_pending.contains(p)) {
            continue;
        }
        const Stamp s = stampOf(p);
        if (!s.exists) {
            // Gone for now: an exporter may be writing it again. Reported when it is back, or
            // once the grace time has passed without it.
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            const qint64 since = m_goneSince.value(p, now);
            m_goneSince.insert(p, since);
            if (now - since < m_graceMs || s == m_stamps.value(p)) {
                if (now - since < m_graceMs) {
                    m_gone.start(int(m_graceMs - (now - since)));
                } else {
                    m_pending.remove(p); // its absence was reported already
                    m_goneSince.remove(p);
                }
                continue;
            }
        } else if (!m_watcher.files().contains(p)) {
            m_watcher.addPath(p);
        }
        m_goneSince.remove(p);
        m_pending.remove(p);
        m_stamps.insert(p, s);
        out << p;
    }
    if (!out.isEmpty()) {
        emit changed(out);
    }
}

} // namespace rigscope::app
