#include "app/document/file_navigation.h"

#include <QtCore/QCollator>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSet>

#include <algorithm>

#include "app/qt_convert.h"
#include "core/formats/registry.h"

namespace rigscope::app {

namespace {
const QString kRecentKey = QStringLiteral("Recent/files");
constexpr qsizetype kRecentMax = 10;
} // namespace

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
    all << QStringLiteral("*.mdl"); // compiled models (issue 29), companions found beside them
    parts << QObject::tr("Compiled models (*.mdl)");
    all.removeDuplicates();
    parts.prepend(QObject::tr("All supported (%1)").arg(all.join(QLatin1Char(' '))));
    parts << QObject::tr("All files (*)");
    return parts.join(QStringLiteral(";;"));
}

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

namespace {

// A GoldSrc model's companion among `names` (lower-case): NAMEt.mdl (its textures) or
// NAME01.mdl … (its sequence groups) beside NAME.mdl. They open through NAME.mdl.
bool isGoldsrcCompanion(const QString& lower, const QSet<QString>& names)
{
    if (!lower.endsWith(u".mdl")) {
        return false;
    }
    const QString stem = lower.chopped(4);
    if (stem.size() > 1 && stem.endsWith(u't') &&
        names.contains(stem.chopped(1) + QStringLiteral(".mdl"))) {
        return true;
    }
    return stem.size() > 2 && stem.back().isDigit() && stem[stem.size() - 2].isDigit() &&
           names.contains(stem.chopped(2) + QStringLiteral(".mdl"));
}

} // namespace

QStringList modelFilesInFolder(const QString& folder)
{
    // Compiled models too (issue 29); their .vvd / .vtx / .phy / .ani are no models of their
    // own (no reader claims those extensions), nor are GoldSrc's T.mdl and 01.mdl files.
    QStringList suffixes = supportedSuffixes();
    suffixes << QStringLiteral("mdl");
    QStringList names = QDir(folder).entryList(QDir::Files);
    QSet<QString> lower;
    for (const QString& n : names) {
        lower.insert(n.toLower());
    }
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const QString& n) {
                                   return !suffixes.contains(QFileInfo(n).suffix().toLower()) ||
                                          isGoldsrcCompanion(n.toLower(), lower);
                               }),
                names.end());
    QCollator collator;
    collator.setNumericMode(true);
    collator.setCaseSensitivity(Qt::CaseInsensitive);
    std::sort(names.begin(), names.end(),
              [&](const QString& a, const QString& b) { return collator.compare(a, b) < 0; });
    return names;
}

FolderStep stepInFolder(const QString& path, int delta)
{
    const QFileInfo info(path);
    const QDir dir = info.absoluteDir();
    const QStringList names = modelFilesInFolder(dir.absolutePath());
    FolderStep step;
    step.count = int(names.size());
    if (step.count == 0) {
        return step;
    }
    const int i = int(names.indexOf(info.fileName()));
    step.index = ((i < 0 ? 0 : i + delta) % step.count + step.count) % step.count;
    step.path = dir.filePath(names[step.index]);
    return step;
}

QList<QStringList> RecentFiles::list() const
{
    QList<QStringList> out;
    for (const QString& entry : m_settings.value(kRecentKey).toStringList()) {
        out << entry.split(QLatin1Char('|'));
    }
    return out;
}

void RecentFiles::add(const QStringList& paths)
{
    QStringList recent = m_settings.value(kRecentKey).toStringList();
    const QString entry = paths.join(QLatin1Char('|'));
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kRecentMax) {
        recent.removeLast();
    }
    m_settings.setValue(kRecentKey, recent);
    m_settings.sync(); // written on change, so a crash loses nothing
}

void RecentFiles::clear()
{
    m_settings.remove(kRecentKey);
    m_settings.sync();
}

} // namespace rigscope::app
