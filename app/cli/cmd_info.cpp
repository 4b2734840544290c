// `rigscope-cli info FILE… [--json] [-v] [--profile=P] [--no-checks] [--reference=FILE]`
// One truth (issue 15): the counts are those `check` reports for the same files and profile;
// --no-checks is the fast read-only summary and says so.
#include <cstdio>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/info.h"

namespace rigscope::cli {

int runInfo(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Summarise model files"));
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Files to describe"),
                            QStringLiteral("FILE..."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON array"));
    const QCommandLineOption tree(QStringLiteral("v"), QStringLiteral("Print the bone tree"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("auto|goldsrc|source|source256|cod"),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption noChecks(
        QStringLiteral("no-checks"),
        QStringLiteral("Fast read-only summary: reader diagnostics only, no checks"));
    const QCommandLineOption reference(QStringLiteral("reference"),
                                       QStringLiteral("Reference for the xref.* checks"),
                                       QStringLiteral("FILE"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({json, tree, profile, noChecks, reference, help});
    addCommonOptions(p);
    QStringList argv = args;
    argv.prepend(QStringLiteral("rigscope-cli info"));
    if (!p.parse(argv)) {
        std::fprintf(stderr, "rigscope-cli info: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    CommonOptions common;
    if (!readCommonOptions(p, "info", common)) {
        return 2;
    }
    const auto prof = core::parseProfile(p.value(profile).toStdString());
    if (!prof) {
        std::fprintf(stderr, "rigscope-cli info: unknown profile '%s'\n", qPrintable(p.value(profile)));
        return 2;
    }
    const QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        std::fputs("rigscope-cli info: no input files\n", stderr);
        return 2;
    }
    core::InfoOptions opt;
    opt.profile = *prof;
    opt.checks = !p.isSet(noChecks);
    opt.reference = p.value(reference).toStdString();
    opt.forceReader = common.forceReader;
    std::vector<std::string> paths;
    for (const QString& f : files) {
        paths.push_back(f.toStdString());
    }
    if (common.verbosity == Verbosity::Debug) {
        std::fprintf(stderr, "rigscope-cli info: %zu file(s), %s\n", paths.size(),
                     opt.checks ? "reader and checks" : "reader only (--no-checks)");
    }
    const std::vector<core::InfoReport> reports = core::infoFromFiles(paths, opt);
    bool ioFailure = false;
    bool errors = false;
    for (const core::InfoReport& r : reports) {
        if (!r.readable) {
            std::fprintf(stderr, "rigscope-cli: %s\n", r.ioError.c_str());
            ioFailure = true;
        }
        printDiagnostics(r.diagnostics, common);
        errors = errors || r.errors > 0;
        if (!p.isSet(json)) {
            std::fputs(core::infoText(r, p.isSet(tree)).c_str(), stdout);
        }
    }
    if (p.isSet(json)) {
        std::fputs(core::infoJson(reports).c_str(), stdout);
    }
    return ioFailure ? 2 : (errors ? 1 : 0);
}

} // namespace rigscope::cli
