// `rigscope-cli info FILE… [--json] [-v] [--profile=P]`
#include <cstdio>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

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
    const QCommandLineOption verbose(QStringList{QStringLiteral("v"), QStringLiteral("verbose")},
                                     QStringLiteral("Print the bone tree"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("auto|goldsrc|source|source256|cod"),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({json, verbose, profile, help});
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
    std::vector<core::InfoReport> reports;
    bool ioFailure = false;
    bool errors = false;
    for (const QString& f : files) {
        core::InfoReport r = core::infoFromFile(f.toStdString(), *prof);
        if (!r.readable) {
            std::fprintf(stderr, "rigscope-cli: %s\n", r.ioError.c_str());
            ioFailure = true;
        }
        for (const core::Diagnostic& d : r.diagnostics) {
            std::fprintf(stderr, "%s\n", core::formatDiagnostic(d).c_str());
        }
        errors = errors || r.errors > 0;
        if (!p.isSet(json)) {
            std::fputs(core::infoText(r, p.isSet(verbose)).c_str(), stdout);
        }
        reports.push_back(std::move(r));
    }
    if (p.isSet(json)) {
        std::fputs(core::infoJson(reports).c_str(), stdout);
    }
    return ioFailure ? 2 : (errors ? 1 : 0);
}

} // namespace rigscope::cli
