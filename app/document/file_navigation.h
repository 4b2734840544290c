#pragma once

#include <QtCore/QSettings>
#include <QtCore/QStringList>

namespace rigscope::app {

// Which files the window offers, opens first and steps through (QtCore only; MainWindow asks).

// Every extension a reader claims, lower-case, without the dot.
QStringList supportedSuffixes();
// The Open dialog's filter: all supported, one entry per format, QC projects, all files.
QString openFilter();
// References first, so animations and VTAs attach to the reference that precedes them.
QStringList orderForOpening(const QStringList& paths);
// The model files of `folder` (supported extensions and compiled .mdl models, without a
// GoldSrc model's NAMEt.mdl / NAME01.mdl companions), in natural order ("run2" before
// "run10"), case-insensitive.
QStringList modelFilesInFolder(const QString& folder);

// The file `delta` steps from `path` among modelFilesInFolder of its folder, wrapping around (a
// path not in the list steps from the first). Empty path when the folder holds none.
struct FolderStep {
    QString path;
    int index = -1; // 0-based position of `path` in the folder
    int count = 0;
};
FolderStep stepInFolder(const QString& path, int delta);

// File ▸ Open Recent: the last ten openings (several files of one opening joined by '|').
class RecentFiles {
public:
    explicit RecentFiles(QSettings& settings) : m_settings(settings) {}
    QList<QStringList> list() const;
    void add(const QStringList& paths);
    void clear();

private:
    QSettings& m_settings;
};

} // namespace rigscope::app
