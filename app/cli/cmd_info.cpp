// `rigscope-cli info FILE… [--json] [-v] [--profile=P] [--no-checks] [--reference=FILE]
// [--materials] [--material-root=DIR]…`
// One truth (issue 15): the counts are those `check` reports for the same files and profile;
// --no-checks is the fast read-only summary and says so.
#include <cstdio>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/info.h"
#include "core/ops/qc_ops.h"

namespace rigscope::cli {

namespace {

// One report as a JSON object: infoJson's array of one, without the brackets.
std::string jsonObjectOf(const core::InfoReport& r)
{
    std::string s = core::infoJson({r});
    const auto open = s.find('{');
    const auto close = s.rfind('}');
    return open == std::string::npos ? std::string("{}") : s.substr(open, close - open + 1);
}

// A QC project (issue 17 §6): diagnostics to stderr, text or one JSON object. False on I/O
// failure. Counted as `check X.qc` counts them (core::qcInfoFromFile).
bool printQcInfo(const std::string& path, bool json, const core::InfoOptions& opt,
                 const CommonOptions& common, std::vector<std::string>& jsonObjects,
                 bool& hasErrors)
{
    const core::QcInfo info = core::qcInfoFromFile(path, opt);
    if (!info.report.readable) {
        std::fprintf(stderr, "rigscope-cli: %s\n", info.report.ioError.c_str());
    }
    printDiagnostics(info.diagnostics, common);
    if (!json) {
        std::fputs(core::qcInfoText(info).c_str(), stdout);
    }
    std::string obj = core::qcInfoJson(info);
    while (!obj.empty() && obj.back() == '\n') {
        obj.pop_back();
    }
    jsonObjects.push_back(std::move(obj));
    hasErrors = info.errors > 0;
    return info.report.readable;
}

// One input that is a QC: its object alone (issue 17 §6); otherwise an array of objects.
void printJsonObjects(const std::vector<std::string>& objects, bool oneProject)
{
    if (oneProject && objects.size() == 1) {
        std::fputs((objects.front() + "\n").c_str(), stdout);
        return;
    }
    std::string s = "[";
    for (std::size_t i = 0; i < objects.size(); ++i) {
        s += i ? ",\n" : "\n";
        s += objects[i];
    }
    s += objects.empty() ? "]\n" : "\n]\n";
    std::fputs(s.c_str(), stdout);
}

} // namespace

int runInfo(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Summarise model files"));
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Files to describe"),
                            QStringLiteral("FILE..."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON array"));
    const QCommandLineOption tree(QStringLiteral("v"), QStringLiteral("Print the bone tree"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QString::fromStdString(core::profileChoices()),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption noChecks(
        QStringLiteral("no-checks"),
        QStringLiteral("Fast read-only summary: reader diagnostics only, no checks"));
    const QCommandLineOption reference(QStringLiteral("reference"),
                                       QStringLiteral("Reference for the xref.* checks"),
                                       QStringLiteral("FILE"));
    const QCommandLineOption materials(
        QStringLiteral("materials"),
        QStringLiteral("Show how each material is found: VMT or missing, shader, base texture"));
    const QCommandLineOption materialRoot(
        QStringLiteral("material-root"),
        QStringLiteral("Game folder holding materials/ (repeatable), as check --materials"),
        QStringLiteral("DIR"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({json, tree, profile, noChecks, reference, materials, materialRoot, help});
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
        std::fprintf(stderr, "rigscope-cli info: unknown profile '%s'\n",
                     qPrintable(p.value(profile)));
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
    opt.materials = p.isSet(materials);
    for (const QString& dir : p.values(materialRoot)) {
        opt.materialRoots.push_back(dir.toStdString());
    }
    std::vector<std::string> paths; // model files; QC projects go their own way (issue 17)
    for (const QString& f : files) {
        if (!core::isQcPath(f.toStdString())) {
            paths.push_back(f.toStdString());
        }
    }
    if (common.verbosity == Verbosity::Debug) {
        std::fprintf(stderr, "rigscope-cli info: %zu file(s), %s\n", paths.size(),
                     opt.checks ? "reader and checks" : "reader only (--no-checks)");
    }
    const std::vector<core::InfoReport> reports = core::infoFromFiles(paths, opt);
    std::vector<std::string> jsonObjects; // per input, for --json (QC projects: issue 17)
    bool ioFailure = false;
    bool errors = false;
    std::size_t next = 0;
    for (const QString& f : files) {
        if (core::isQcPath(f.toStdString())) {
            bool qcErrors = false;
            ioFailure =
                !printQcInfo(f.toStdString(), p.isSet(json), opt, common, jsonObjects, qcErrors) ||
                ioFailure;
            errors = errors || qcErrors;
            continue;
        }
        if (next >= reports.size()) {
            break;
        }
        const core::InfoReport& r = reports[next++];
        if (!r.readable) {
            std::fprintf(stderr, "rigscope-cli: %s\n", r.ioError.c_str());
            ioFailure = true;
        }
        printDiagnostics(r.diagnostics, common);
        errors = errors || r.errors > 0;
        if (!p.isSet(json)) {
            std::fputs(core::infoText(r, p.isSet(tree)).c_str(), stdout);
        }
        jsonObjects.push_back(jsonObjectOf(r));
    }
    if (p.isSet(json)) {
        bool anyQc = false;
        for (const QString& f : files) {
            anyQc = anyQc || core::isQcPath(f.toStdString());
        }
        if (anyQc) {
            printJsonObjects(jsonObjects, files.size() == 1);
        } else {
            std::fputs(core::infoJson(reports).c_str(), stdout);
        }
    }
    return ioFailure ? 2 : (errors ? 1 : 0);
}

} // namespace rigscope::cli
