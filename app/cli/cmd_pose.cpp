// `rigscope-cli pose FILE [ATTACH...] [--reference FILE] [--anim FILE] [--frame N | --time T]
//   [--interpolation=stepped|linear|slerp] [--vertices] [--flex NAME=V|NAME=L:R]...
//   [--flex-controller NAME=V|NAME=L,R]...
//   [--weights=authored|compiled] [--jiggle] [--profile=P] [--json]`
// ATTACH files attach like a drop: VTAs give flex shapes, an animation is posed. With
// --reference, FILE is attached to that reference too.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/pose.h"

namespace rigscope::cli {

namespace {

// Each value is NAME=V, or NAME=L<sep>R for the two sides (of a stereo shape, or the controllers
// left_NAME and right_NAME). False, after saying why, when one does not parse.
bool parseSidedValues(const QStringList& values, QChar sep, const char* option,
                      std::vector<core::PoseRequest::FlexValue>& out)
{
    for (const QString& v : values) {
        const qsizetype eq = v.lastIndexOf(QLatin1Char('='));
        const QStringList sides = eq > 0 ? v.mid(eq + 1).split(sep) : QStringList();
        bool ok = !sides.isEmpty() && sides.size() <= 2;
        float left = 0.0f;
        float right = std::numeric_limits<float>::quiet_NaN();
        if (ok) {
            left = sides[0].toFloat(&ok);
        }
        if (ok && sides.size() == 2) {
            right = sides[1].toFloat(&ok);
        }
        if (!ok) {
            std::fprintf(stderr, "rigscope-cli pose: %s expects NAME=V or NAME=L%cR, got '%s'\n",
                         option, sep.toLatin1(), qPrintable(v));
            return false;
        }
        out.emplace_back(v.left(eq).toStdString(), left, right);
    }
    return true;
}

} // namespace

int runPose(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Print bone transforms at a frame"));
    p.addPositionalArgument(QStringLiteral("file"),
                            QStringLiteral("Reference (or any file with a skeleton)"),
                            QStringLiteral("FILE"));
    const QCommandLineOption anim(
        QStringLiteral("anim"),
        QStringLiteral("Animation file to attach by bone name, or a sequence of FILE by name"),
        QStringLiteral("FILE"));
    const QCommandLineOption frame(
        QStringLiteral("frame"),
        QStringLiteral("0-based frame index; negative counts from the end"), QStringLiteral("N"),
        QStringLiteral("0"));
    const QCommandLineOption time(
        QStringLiteral("time"),
        QStringLiteral("The frame the file numbers T (SMD 'time', XANIM 'FRAME')"),
        QStringLiteral("T"));
    const QCommandLineOption reference(QStringLiteral("reference"),
                                       QStringLiteral("The model to pose; FILE attaches to it"),
                                       QStringLiteral("FILE"));
    const QCommandLineOption vertices(QStringLiteral("vertices"),
                                      QStringLiteral("Also print every skinned vertex"));
    const QCommandLineOption flex(
        QStringLiteral("flex"),
        QStringLiteral("Flex shape weight, or left:right of a stereo shape "
                       "(repeatable; needs a VTA or a DMX)"),
        QStringLiteral("NAME=V"));
    const QCommandLineOption flexController(
        QStringLiteral("flex-controller"),
        QStringLiteral("A QC flexcontroller's value in its range, run through the QC's % rules; "
                       "NAME=L,R sets left_NAME and right_NAME (repeatable)"),
        QStringLiteral("NAME=V"));
    const QCommandLineOption weights(
        QStringLiteral("weights"),
        QStringLiteral("authored (as written) or compiled (what the profile's compiler keeps)"),
        QStringLiteral("VIEW"), QStringLiteral("authored"));
    const QCommandLineOption interp(QStringLiteral("interpolation"),
                                    QStringLiteral("stepped|linear|slerp, for fractional frames"),
                                    QStringLiteral("MODE"), QStringLiteral("stepped"));
    const QCommandLineOption jiggle(
        QStringLiteral("jiggle"),
        QStringLiteral("Move jiggle bones as the game does, the animation played from frame 0"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QString::fromStdString(core::profileChoices()),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print a JSON array"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({anim, frame, time, reference, vertices, flex, flexController, weights, interp,
                  jiggle, profile, json, help});
    addCommonOptions(p);
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
    CommonOptions common;
    if (!readCommonOptions(p, "pose", common)) {
        return 2;
    }
    QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        std::fputs("rigscope-cli pose: no input file\n", stderr);
        return 2;
    }
    core::PoseRequest req;
    if (p.isSet(reference)) {
        req.file = p.value(reference).toStdString();
    } else {
        req.file = files.takeFirst().toStdString();
    }
    for (const QString& f : files) {
        req.attachFiles.push_back(f.toStdString());
    }
    req.animFile = p.value(anim).toStdString();
    req.forceReader = common.forceReader;
    req.vertices = p.isSet(vertices);
    req.jiggle = p.isSet(jiggle);
    const QString view = p.value(weights);
    if (view == QLatin1String("compiled")) {
        req.weights = core::WeightView::Compiled;
    } else if (view != QLatin1String("authored")) {
        std::fprintf(stderr,
                     "rigscope-cli pose: --weights expects authored or compiled, got '%s'\n",
                     qPrintable(view));
        return 2;
    }
    if (!parseSidedValues(p.values(flex), QLatin1Char(':'), "--flex", req.flex) ||
        !parseSidedValues(p.values(flexController), QLatin1Char(','), "--flex-controller",
                          req.flexControllers)) {
        return 2;
    }
    if (p.isSet(time)) {
        if (p.isSet(frame)) {
            std::fputs(
                "rigscope-cli pose: give --frame (an index) or --time (a frame number), not both\n",
                stderr);
            return 2;
        }
        bool ok = false;
        req.time = p.value(time).toDouble(&ok);
        if (!ok) {
            std::fprintf(stderr, "rigscope-cli pose: --time expects a number, got '%s'\n",
                         qPrintable(p.value(time)));
            return 2;
        }
        req.byTime = true;
    }
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
    printDiagnostics(r.diagnostics, common);
    if (!r.ok) {
        std::fprintf(stderr, "rigscope-cli: %s\n", r.error.c_str());
        return 2;
    }
    const std::string out = p.isSet(json) ? core::poseJson(r) : core::poseText(r);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return r.errors > 0 ? 1 : 0;
}

} // namespace rigscope::cli
