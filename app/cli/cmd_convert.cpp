// `rigscope-cli convert IN OUT [--force] [--to=FMT]`: read by content, write the format the
// output extension (or --to) names, atomically. Loss notes and reader diagnostics go to stderr.
#include <cstdio>

#include <QtCore/QCommandLineParser>

#include "app/cli/commands.h"
#include "core/ops/convert.h"

namespace rigscope::cli {

int runConvert(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Convert a model or animation to another format"));
    p.addPositionalArgument(QStringLiteral("in"), QStringLiteral("Input file (format detected by content)"));
    p.addPositionalArgument(
        QStringLiteral("out"),
        QStringLiteral("Output file: .smd .vta .smdx .dmx .xmodel_export .xanim_export "
                       ".xmodel_bin .xanim_bin .nt_export"));
    const QCommandLineOption force(QStringLiteral("force"), QStringLiteral("Overwrite an existing output file"));
    const QCommandLineOption to(
        QStringLiteral("to"),
        QStringLiteral("Output format, overriding the extension (dmx-binary: DMX binary 2)"),
        QStringLiteral("FMT"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help"));
    p.addOptions({force, to, help});
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
    const QStringList files = p.positionalArguments();
    if (files.size() != 2) {
        std::fputs("rigscope-cli convert: expected IN and OUT\n", stderr);
        return 2;
    }
    const core::ConvertResult r = core::convertFile(files[0].toStdString(), files[1].toStdString(), p.isSet(force),
                                                    p.value(to).toStdString());
    for (const core::Diagnostic& d : r.diagnostics) {
        std::fprintf(stderr, "%s\n", core::formatDiagnostic(d).c_str());
    }
    if (!r.error.empty()) {
        std::fprintf(stderr, "rigscope-cli convert: %s\n", r.error.c_str());
    }
    return r.exitCode;
}

} // namespace rigscope::cli
