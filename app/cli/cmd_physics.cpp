// `rigscope-cli physics X.qc [--json] [--drop] [--profile=P]`: the collision model studiomdl
// will build from the QC's $collisionmodel / $collisionjoints (issue 31): solids, convex pieces,
// masses and joint limits, and the phys.* checks (to stderr; in the JSON object with --json).
// --drop also runs the drop test (core/physics/drop_test.h) and its phys.ragdoll-unstable.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/physics_report.h"
#include "core/ops/qc_ops.h"

namespace rigscope::cli {

int runPhysics(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("The physics model a QC compiles to"));
    p.addPositionalArgument(QStringLiteral("qc"), QStringLiteral("The QC project"),
                            QStringLiteral("X.qc"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QString::fromStdString(core::profileChoices()),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption drop(
        QStringLiteral("drop"),
        QStringLiteral("Drop the ragdoll on a floor (Bullet) and report where it rests"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({json, drop, profile, help});
    addCommonOptions(p);
    QStringList argv = args;
    argv.prepend(QStringLiteral("rigscope-cli physics"));
    if (!p.parse(argv)) {
        std::fprintf(stderr, "rigscope-cli physics: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    CommonOptions common;
    if (!readCommonOptions(p, "physics", common)) {
        return 2;
    }
    const auto prof = core::parseProfile(p.value(profile).toStdString());
    if (!prof) {
        std::fprintf(stderr, "rigscope-cli physics: unknown profile '%s'\n",
                     qPrintable(p.value(profile)));
        return 2;
    }
    const QStringList files = p.positionalArguments();
    if (files.size() != 1 || !core::isQcPath(files.front().toStdString())) {
        std::fputs("rigscope-cli physics: give one .qc file\n", stderr);
        return 2;
    }
    const core::QcReport r = core::qcReportFromFile(files.front().toStdString(), *prof);
    if (!r.readable) {
        std::fprintf(stderr, "rigscope-cli: %s\n", r.ioError.c_str());
        return 2;
    }
    // The phys.* findings as `check X.qc` grades them.
    core::CheckOptions opt;
    opt.profile = *prof;
    std::vector<core::Diagnostic> diags;
    bool errors = false;
    for (core::CheckedFile& f : core::checkQcReport(r, opt)) {
        for (core::Diagnostic& d : f.diagnostics) {
            if (d.id.starts_with("phys.")) {
                errors = errors || d.severity == core::Severity::Error;
                diags.push_back(std::move(d));
            }
        }
    }
    std::optional<core::DropReport> dropped;
    if (p.isSet(drop)) {
        dropped = core::dropReport(r);
        for (core::Diagnostic& d : dropped->diagnostics) {
            diags.push_back(d);
        }
    }
    printDiagnostics(diags, common);
    const std::string out = p.isSet(json)
                                ? core::physicsJson(r, diags, dropped ? &*dropped : nullptr)
                                : core::physicsText(r) + (dropped ? core::dropText(*dropped) : "");
    std::fputs(out.c_str(), stdout);
    return errors ? 1 : 0;
}

} // namespace rigscope::cli
