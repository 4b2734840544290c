// `rigscope-cli convert IN OUT [--force] [--to=FMT] [--frames=A:B] [--weights=authored|compiled]
// [--profile=P] [--flex=VTA]`: read by content, write the format the output extension (or --to)
// names, atomically. Loss notes and reader diagnostics go to stderr.
#include <cstdio>

#include <QtCore/QCommandLineParser>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "core/ops/convert.h"
#include "core/ops/decompile.h"

namespace rigscope::cli {

namespace {

// "A:B", "A:", ":B" or "A" (one frame): the file's own frame numbers.
bool parseFrames(const QString& text, core::ConvertOptions& opt)
{
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const QString a = colon < 0 ? text : text.left(colon);
    const QString b = colon < 0 ? text : text.mid(colon + 1);
    bool ok = true;
    if (!a.trimmed().isEmpty()) {
        opt.firstFrame = a.toDouble(&ok); // C locale
        if (!ok) {
            return false;
        }
    }
    if (!b.trimmed().isEmpty()) {
        opt.lastFrame = b.toDouble(&ok);
        if (!ok) {
            return false;
        }
    }
    if (!opt.firstFrame && !opt.lastFrame) {
        return false;
    }
    opt.hasFrames = true;
    return !(opt.firstFrame && opt.lastFrame && *opt.lastFrame < *opt.firstFrame);
}

} // namespace

int runConvert(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Convert a model or animation to another format"));
    p.addPositionalArgument(QStringLiteral("in"),
                            QStringLiteral("Input file (format detected by content)"));
    p.addPositionalArgument(
        QStringLiteral("out"),
        QStringLiteral(
            "Output file: .smd .vta .smdx .dmx .xmodel_export .xanim_export "
            ".xmodel_bin .xanim_bin .nt_export; .qc from a compiled .mdl decompiles it (the "
            "QC and its SMD / VTA files beside it)"));
    const QCommandLineOption force(QStringLiteral("force"),
                                   QStringLiteral("Overwrite an existing output file"));
    const QCommandLineOption to(
        QStringLiteral("to"),
        QStringLiteral("Output format, overriding the extension (dmx-binary: DMX binary 2)"),
        QStringLiteral("FMT"));
    const QCommandLineOption frames(
        QStringLiteral("frames"),
        QStringLiteral("Keep the frames numbered A..B (the file's own numbers, inclusive; A: or :B "
                       "leave an end open)"),
        QStringLiteral("A:B"));
    const QCommandLineOption weights(
        QStringLiteral("weights"),
        QStringLiteral(
            "authored (as written) or compiled (bake what the profile's compiler keeps)"),
        QStringLiteral("VIEW"), QStringLiteral("authored"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QString::fromStdString(core::profileChoices()),
                                     QStringLiteral("P"), QStringLiteral("auto"));
    const QCommandLineOption flex(
        QStringLiteral("flex"),
        QStringLiteral("A VTA whose flex shapes join the reference in the DMX output (matched "
                       "onto its vertices as studiomdl does, written as delta states)"),
        QStringLiteral("VTA"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({force, to, frames, weights, profile, flex, help});
    addCommonOptions(p);
    QStringList argv = args;
    argv.prepend(QStringLiteral("rigscope-cli convert"));
    if (!p.parse(argv)) {
        std::fprintf(stderr, "rigscope-cli convert: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    CommonOptions common;
    if (!readCommonOptions(p, "convert", common)) {
        return 2;
    }
    const QStringList files = p.positionalArguments();
    if (files.size() != 2) {
        std::fputs("rigscope-cli convert: expected IN and OUT\n", stderr);
        return 2;
    }
    core::ConvertOptions opt;
    opt.force = p.isSet(force);
    opt.toFormat = p.value(to).toStdString();
    opt.forceReader = common.forceReader;
    opt.flexPath = p.value(flex).toStdString();
    const auto prof = core::parseProfile(p.value(profile).toStdString());
    if (!prof) {
        std::fprintf(stderr, "rigscope-cli convert: unknown profile '%s'\n",
                     qPrintable(p.value(profile)));
        return 2;
    }
    opt.profile = *prof;
    if (p.isSet(frames) && !parseFrames(p.value(frames), opt)) {
        std::fprintf(
            stderr,
            "rigscope-cli convert: --frames expects A:B (frame numbers, A <= B), got '%s'\n",
            qPrintable(p.value(frames)));
        return 2;
    }
    const QString view = p.value(weights);
    if (view == QLatin1String("compiled")) {
        opt.weights = core::WeightView::Compiled;
    } else if (view != QLatin1String("authored")) {
        std::fprintf(stderr,
                     "rigscope-cli convert: --weights expects authored or compiled, got '%s'\n",
                     qPrintable(view));
        return 2;
    }
    if (core::isDecompile(files[0].toStdString(), files[1].toStdString())) {
        // A compiled model to a QC project (docs/cli.md "Decompiling a compiled model").
        core::DecompileOptions dopt;
        dopt.force = opt.force;
        dopt.profile = opt.profile;
        const core::DecompileResult d =
            core::decompileFile(files[0].toStdString(), files[1].toStdString(), dopt);
        printDiagnostics(d.diagnostics, common);
        for (const std::string& n : d.notes) {
            std::fprintf(stderr, "%s: note: a recompile would not reproduce: %s\n",
                         qPrintable(files[0]), n.c_str());
        }
        if (!d.error.empty()) {
            std::fprintf(stderr, "rigscope-cli convert: %s\n", d.error.c_str());
        }
        if (common.verbosity == Verbosity::Debug) {
            for (const std::string& w : d.written) {
                std::fprintf(stderr, "rigscope-cli convert: wrote %s\n", w.c_str());
            }
        }
        return d.exitCode;
    }
    const core::ConvertResult r =
        core::convertFile(files[0].toStdString(), files[1].toStdString(), opt);
    printDiagnostics(r.diagnostics, common);
    if (!r.error.empty()) {
        std::fprintf(stderr, "rigscope-cli convert: %s\n", r.error.c_str());
    }
    if (common.verbosity == Verbosity::Debug && r.written) {
        std::fprintf(stderr, "rigscope-cli convert: wrote %s (%s -> %s)\n", qPrintable(files[1]),
                     r.inputFormat.c_str(), r.outputFormat.c_str());
    }
    return r.exitCode;
}

} // namespace rigscope::cli
