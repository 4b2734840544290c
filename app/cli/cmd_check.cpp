// `rigscope-cli check PATH… [--profile P] [--reference FILE] [--format text|json|sarif]
//  [--enable ID,…] [--disable ID,…] [--max-per-check N] [--werror] [--materials DIR]…`
#include <cstdio>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/check.h"
#include "core/ops/explain.h"

namespace rigscope::cli {

namespace {

std::vector<std::string> idList(const QStringList& values)
{
    std::vector<std::string> out;
    for (const QString& v : values) {
        for (const QString& part : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            out.push_back(part.trimmed().toStdString());
        }
    }
    return out;
}

// --list-checks [--format=text|json|markdown] / --explain ID (empty: list).
int runCatalog(const std::string& explainId, const std::string& format)
{
    if (!explainId.empty()) {
        const std::string text = core::explainText(explainId);
        if (!text.empty()) {
            std::fputs(text.c_str(), stdout);
            return 0;
        }
        std::string hint;
        for (const std::string_view id : core::closestCheckIds(explainId)) {
            hint += hint.empty() ? "; did you mean " : ", ";
            hint += id;
        }
        std::fprintf(stderr, "rigscope-cli check: unknown check id '%s'%s%s\n", explainId.c_str(),
                     hint.c_str(), hint.empty() ? "" : "?");
        return 2;
    }
    if (format == "json") {
        std::fputs(core::listChecksJson().c_str(), stdout);
    } else if (format == "markdown") {
        std::fputs(core::checksMarkdown().c_str(), stdout);
    } else if (format == "text") {
        std::fputs(core::listChecksText().c_str(), stdout);
    } else {
        std::fprintf(stderr,
                     "rigscope-cli check: --list-checks takes --format=text|json|markdown\n");
        return 2;
    }
    return 0;
}

} // namespace

int runCheck(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Check model files against a compiler profile"));
    p.addPositionalArgument(QStringLiteral("paths"),
                            QStringLiteral("Files or directories to check"),
                            QStringLiteral("PATH..."));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QString::fromStdString(core::profileChoices()),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("text|json|sarif"),
                                    QStringLiteral("F"), QStringLiteral("text"));
    const QCommandLineOption reference(QStringLiteral("reference"),
                                       QStringLiteral("Reference for the xref.* checks"),
                                       QStringLiteral("FILE"));
    const QCommandLineOption enable(
        QStringLiteral("enable"),
        QStringLiteral("Turn checks on (ID or family.*, comma-separated)"), QStringLiteral("IDS"));
    const QCommandLineOption disable(
        QStringLiteral("disable"),
        QStringLiteral("Turn checks off (ID or family.*, comma-separated)"), QStringLiteral("IDS"));
    const QCommandLineOption maxPerCheck(
        QStringLiteral("max-per-check"),
        QStringLiteral("Lines per id per file in text output (0 = all)"), QStringLiteral("N"),
        QStringLiteral("20"));
    const QCommandLineOption werror(QStringLiteral("werror"),
                                    QStringLiteral("Treat warnings as errors"));
    const QCommandLineOption jobs(QStringLiteral("jobs"),
                                  QStringLiteral("Worker threads (0 = all cores)"),
                                  QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption listChecks(
        QStringLiteral("list-checks"),
        QStringLiteral("List every check id: family, severity per profile, summary "
                       "(--format=text|json|markdown)"));
    const QCommandLineOption explain(
        QStringLiteral("explain"),
        QStringLiteral("Explain a check id: meaning, limits, example, fix"), QStringLiteral("ID"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    // --material-root, as info and the window name it; --materials is the older spelling.
    const QCommandLineOption materials(
        QStringList{QStringLiteral("material-root"), QStringLiteral("materials")},
        QStringLiteral("Game folder holding materials/ for the material.* checks (repeatable; "
                       "--materials is an alias)"),
        QStringLiteral("DIR"));
    p.addOptions({profile, format, reference, enable, disable, maxPerCheck, werror, jobs,
                  listChecks, explain, materials, help});
    addCommonOptions(p);
    QStringList argv = args;
    argv.prepend(QStringLiteral("rigscope-cli check"));
    if (!p.parse(argv)) {
        std::fprintf(stderr, "rigscope-cli check: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    if (p.isSet(listChecks) || p.isSet(explain)) {
        return runCatalog(p.isSet(explain) ? p.value(explain).toStdString() : std::string(),
                          p.value(format).toStdString());
    }
    CommonOptions common;
    if (!readCommonOptions(p, "check", common)) {
        return 2;
    }
    core::CheckOptions opt;
    opt.forceReader = common.forceReader;
    const auto prof = core::parseProfile(p.value(profile).toStdString());
    if (!prof) {
        std::fprintf(stderr, "rigscope-cli check: unknown profile '%s'\n",
                     qPrintable(p.value(profile)));
        return 2;
    }
    opt.profile = *prof;
    const QString fmt = p.value(format);
    if (fmt != QLatin1String("text") && fmt != QLatin1String("json") &&
        fmt != QLatin1String("sarif")) {
        std::fprintf(stderr, "rigscope-cli check: unknown format '%s'\n", qPrintable(fmt));
        return 2;
    }
    bool ok = false;
    const int maxN = p.value(maxPerCheck).toInt(&ok);
    if (!ok || maxN < 0) {
        std::fprintf(stderr, "rigscope-cli check: --max-per-check needs a number >= 0\n");
        return 2;
    }
    opt.maxPerCheck = static_cast<std::size_t>(maxN);
    const int jobN = p.value(jobs).toInt(&ok);
    if (!ok || jobN < 0) {
        std::fprintf(stderr, "rigscope-cli check: --jobs needs a number >= 0\n");
        return 2;
    }
    opt.jobs = static_cast<unsigned>(jobN);
    opt.filter.enable = idList(p.values(enable));
    opt.filter.disable = idList(p.values(disable));
    opt.reference = p.value(reference).toStdString();
    opt.werror = p.isSet(werror);
    for (const QString& dir : p.values(materials)) {
        opt.materialRoots.push_back(dir.toStdString());
    }
    const QStringList paths = p.positionalArguments();
    if (paths.isEmpty()) {
        std::fputs("rigscope-cli check: no input files\n", stderr);
        return 2;
    }
    std::vector<std::string> inputs;
    for (const QString& s : paths) {
        inputs.push_back(s.toStdString());
    }
    const core::CheckRun run = core::runCheck(inputs, opt);
    for (const std::string& e : run.inputErrors) {
        std::fprintf(stderr, "rigscope-cli: %s\n", e.c_str());
    }
    // The report is the data (stdout); --verbose only governs stderr (quiet drops the summary).
    if (fmt == QLatin1String("json")) {
        std::fputs(core::checkJson(run).c_str(), stdout);
    } else if (fmt == QLatin1String("sarif")) {
        std::fputs(core::checkSarif(run).c_str(), stdout);
    } else {
        const std::string text = core::checkText(run, opt);
        std::fputs((useColor(common, stdout) ? colorizeLines(text) : text).c_str(), stdout);
    }
    if (common.verbosity != Verbosity::Quiet) {
        std::fprintf(stderr, "%s\n", core::checkSummary(run).c_str());
    }
    return core::checkExitCode(run);
}

} // namespace rigscope::cli
