#include "app/document/qc_document.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>

#include "app/qt_convert.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

LoadedFile loadQcFile(const QString& path, const QcView& view)
{
    LoadedFile f;
    f.path = QFileInfo(path).absoluteFilePath();
    QElapsedTimer timer;
    timer.start();
    auto report = std::make_shared<core::QcReport>(
        core::qcReportFromFile(toStd(f.path), core::Profile::Auto));
    if (!report->readable) {
        f.error = toQString(report->ioError);
        return f;
    }
    f.bytes = QFileInfo(f.path).size();
    f.readerDiagnostics = report->diagnostics;
    core::DiskQcFileSystem fs;
    core::QcCompileOptions options;
    options.allChoices = false;
    options.choices.assign(view.choices.begin(), view.choices.end());
    options.skin = view.skin;
    core::QcCompiled shown = core::compileQc(report->project, fs, options);
    if (shown.hasModel) {
        f.model = std::make_shared<const core::Model>(std::move(shown.model));
    } else {
        f.error = QObject::tr("no body of the QC project could be read");
    }
    f.qc = std::move(report);
    f.loadMs = double(timer.nsecsElapsed()) / 1e6;
    return f;
}

QString applyQcCommandLine(Document& doc, const QList<QPair<QString, int>>& bodygroups, int skin)
{
    if (bodygroups.isEmpty() && skin < 0) {
        return {};
    }
    const core::QcReport* qc = doc.qcProject();
    if (!qc) {
        return QObject::tr("--bodygroup and --skin need a .qc project");
    }
    const core::QcProject& p = qc->project;
    QcView view = doc.qcView();
    view.choices.resize(p.bodygroups.size(), 0);
    for (const auto& [name, choice] : bodygroups) {
        std::size_t g = 0;
        while (g < p.bodygroups.size() &&
               toQString(p.bodygroups[g].name).compare(name, Qt::CaseInsensitive) != 0) {
            ++g;
        }
        if (g == p.bodygroups.size()) {
            return QObject::tr("no bodygroup named '%1'").arg(name);
        }
        if (choice >= int(p.bodygroups[g].choices.size())) {
            return QObject::tr("bodygroup '%1' has %2 choices")
                .arg(name)
                .arg(p.bodygroups[g].choices.size());
        }
        view.choices[g] = choice;
    }
    if (skin >= 0) {
        if (skin >= int(p.skinCount())) {
            return QObject::tr("the project has %1 skins").arg(p.skinCount());
        }
        view.skin = skin;
    }
    doc.setQcView(view);
    doc.waitForLoaded(600000);
    return {};
}

} // namespace rigscope::app
