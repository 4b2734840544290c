#pragma once

#include <QtCore/QDateTime>
#include <QtCore/QFileSystemWatcher>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtCore/QStringList>
#include <QtCore/QTimer>

namespace rigscope::app {

// Watches a document's files as exporters save them (issue 27): one `changed` per save however
// many writes it takes (a quiet time after the last event), and a file deleted and written again
// (or replaced by a rename) stays watched: the folders are watched too, and a file that comes
// back is watched again. A file that is gone when the quiet time ends is not reported while an
// exporter may be writing it again (the last good version stays on screen, no failed reload);
// one still gone after the grace time is reported once, so a project shows it missing.
class FileWatch : public QObject {
    Q_OBJECT
public:
    explicit FileWatch(QObject* parent = nullptr);
    // The files to watch (absolute paths); replaces the previous ones.
    void setPaths(const QStringList& paths);
    const QStringList& paths() const { return m_paths; }
    void setQuietTime(int ms) { m_quiet.setInterval(ms); }
    void setGoneGraceTime(int ms) { m_graceMs = ms; }
    // Files the system watcher holds now (tests: a file written again is held again).
    QStringList watchedFiles() const { return m_watcher.files(); }

signals:
    // Files of paths() that changed, each once, after the quiet time: those that exist, and those
    // gone for longer than the grace time.
    void changed(const QStringList& paths);

private:
    struct Stamp {
        bool exists = false;
        qint64 size = -1;
        QDateTime modified;
        QDateTime metadata;
        bool operator==(const Stamp&) const = default;
    };
    static Stamp stampOf(const QString& path);
    void onFileChanged(const QString& path);
    void onDirectoryChanged(const QString& dir);
    void flush();

    QFileSystemWatcher m_watcher;
    QStringList m_paths;
    QHash<QString, Stamp> m_stamps; // as last reported (or when the watch began)
    QSet<QString> m_pending;
    QHash<QString, qint64> m_goneSince; // pending files found gone (ms since the epoch)
    QTimer m_quiet;
    QTimer m_gone;        // fires when a deleted file's grace time ends
    int m_graceMs = 2000; // how long a deleted file may take to come back
};

} // namespace rigscope::app
