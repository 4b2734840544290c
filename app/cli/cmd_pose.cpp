// `rigscope-cli pose FILE [--anim FILE] [--frame N] [--interpolation=stepped|linear|slerp]
//                         [--profile=P] [--json]`
#include <cstdio>
#include <string>

#include <QtCore/QCommandLineParser>

#include "app/cli/commands.h"
#include "core/ops/pose.h"

namespace rigscope::cli {

int runPose(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Print bone transforms at a frame"));
    p.addPositionalArgument(QStringLiteral("file"),
                            QStringLiteral("Reference (or any file with a skeleton)"),
                            QStringLiteral("FILE"));
    const QCommandLineOption anim(QStringLiteral("anim"),
                                  QStringLiteral("Animation to attach by bone name"),
                                  QStringLiteral("FILE"));
    const QCommandLineOption frame(QStringLiteral("frame"),
                                   QStringLiteral("0-based frame; negative counts from the end"),
                                   QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption interp(QStringLiteral("interpolation"),
                                    QStringLiteral("stepped|linear|slerp, for fractional frames"),
                                    QStringLiteral("MODE"), QStringLiteral("stepped"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("auto|goldsrc|source|source256|cod"),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print a JSON array"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({anim, frame, interp, profile, json, help});
    QStringList argv = args;
    argv.prepend(QStringLiteral("rigscope-cli pose"));
    if (!p.parse(argv)) {
        std::fprintf(stderr, "rigscope-cli pose: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    const QStringList files = p.positionalArguments();
    if (files.size() != 1) {
        std::fputs(files.isEmpty()
                       ? "rigscope-cli pose: no input file\n"
                       : "rigscope-cli pose: expected one FILE (use --anim for the animation)\n",
                   stderr);
        return 2;
    }
    core::PoseRequest req;
    req.file = files.front().toStdString();
    req.animFile = p.value(anim).toStdString();
    bool numberOk = false;
    req.frame = p.value(frame).toDouble(&numberOk); // QString::toDouble uses the C locale
    if (!numberOk) {
        std::fprintf(stderr, "rigscope-cli pose: --frame expects a number, got '%s'\n",
                     qPrintable(p.value(frame)));
        return 2;
    }
    const QString mode = p.value(interp).toLower();
    if (mode == QStringLiteral("stepped")) {
        req.mode = core::Interpolation::Stepped;
    } else if (mode == QStringLiteral("linear")) {
        req.mode = core::Interpolation::Linear;
    } else if (mode == QStringLiteral("slerp")) {
        req.mode = core::Interpolation::Slerp;
    } else {
        std::fprintf(stderr, "rigscope-cli pose: unknown interpolation '%s'\n",
                     qPrintable(p.value(interp)));
        return 2;
    }
    const auto prof = core::parseProfile(p.value(profile).toStdString());
    if (!prof) {
        std::fprintf(stderr, "rigscope-cli pose: unknown profile '%s'\n",
                     qPrintable(p.value(profile)));
        return 2;
    }
    req.profile = *prof;

    const core::PoseReport r = core::poseFromFiles(req);
    for (const core::Diagnostic& d : r.diagnostics) {
        std::fprintf(stderr, "%s\n", core::formatDiagnostic(d).c_str());
    }
    if (!r.ok) {
        std::fprintf(stderr, "rigscope-cli: %s\n", r.error.c_str());
        return 2;
    }
    const std::string out = p.isSet(json) ? core::poseJson(r) : core::poseText(r);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return r.errors > 0 ? 1 : 0;
}

} // namespace rigscope::cli
