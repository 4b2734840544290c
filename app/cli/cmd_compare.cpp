// `rigscope-cli compare PROJECT.qc COMPILED.mdl [--json] [--profile=P] [--ignore-timestamps]`
// (issue 30): the QC's compile prediction against the model studiomdl wrote.
#include <cstdio>
#include <string>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/compare.h"

namespace rigscope::cli {

int runCompare(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Compare a QC project's predicted compile with its compiled model"));
    p.addPositionalArgument(QStringLiteral("qc"), QStringLiteral("The QC project"),
                            QStringLiteral("PROJECT.qc"));
    p.addPositionalArgument(QStringLiteral("mdl"), QStringLiteral("The compiled model"),
                            QStringLiteral("COMPILED.mdl"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Print predicted, compiled and differences "
                                                 "as one JSON object"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QString::fromStdString(core::profileChoices()),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption ignoreTimestamps(
        QStringLiteral("ignore-timestamps"),
        QStringLiteral("Do not call the model stale for sources newer than it (a git "
                       "checkout)"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({json, profile, ignoreTimestamps, help});
    addCommonOptions(p);
    QStringList argv = args;
    argv.prepend(QStringLiteral("rigscope-cli compare"));
    if (!p.parse(argv)) {
        std::fprintf(stderr, "rigscope-cli compare: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    CommonOptions common;
    if (!readCommonOptions(p, "compare", common)) {
        return 2;
    }
    const auto prof = core::parseProfile(p.value(profile).toStdString());
    if (!prof) {
        std::fprintf(stderr, "rigscope-cli compare: unknown profile '%s'\n",
                     qPrintable(p.value(profile)));
        return 2;
    }
    const QStringList paths = p.positionalArguments();
    if (paths.size() != 2) {
        std::fputs("rigscope-cli compare: needs PROJECT.qc and COMPILED.mdl\n", stderr);
        return 2;
    }
    core::CompareOptions opt;
    opt.profile = *prof;
    opt.ignoreTimestamps = p.isSet(ignoreTimestamps);
    const core::CompareReport r =
        core::compareQcToCompiled(paths[0].toStdString(), paths[1].toStdString(), opt);
    if (!r.ok) {
        std::fprintf(stderr, "rigscope-cli: %s\n", r.error.c_str());
    }
    printDiagnostics(r.diagnostics, common);
    if (p.isSet(json)) {
        std::fputs(core::compareJson(r).c_str(), stdout);
    } else {
        std::fputs(core::compareText(r).c_str(), stdout);
    }
    return core::compareExitCode(r);
}

} // namespace rigscope::cli
