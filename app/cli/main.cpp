// rigscope-cli: headless verbs over core (no GL, no widgets).
#include <cstdio>
#include <string>

#include <QtCore/QCoreApplication>
#include <QtCore/QStringList>

#include "app/cli/commands.h"
#include "core/formats/registry.h"
#include "core/version.h"

namespace {

void printUsage(std::FILE* to)
{
    std::fputs(
        "usage: rigscope-cli <verb> [options] FILE...\n"
        "\n"
        "verbs:\n"
        "  info FILE... [--json] [-v] [--profile=P] [--no-checks]\n"
        "        format, counts, materials, bounds; the counts of `check` (--no-checks:\n"
        "        the fast read-only summary)\n"
        "  check PATH... [--profile=P] [--format=text|json|sarif] [--werror]\n"
        "  convert IN OUT [--force] [--to=FMT] [--frames=A:B] [--weights=authored|compiled]\n"
        "         [--flex=VTA]\n"
        "        write another format atomically\n"
        "  pose FILE [VTA...] [--anim FILE] [--frame N | --time T] [--reference FILE]\n"
        "       [--vertices] [--flex NAME=V|NAME=L:R]... [--weights=authored|compiled] [--json]\n"
        "        bone transforms (and skinned vertices) at a frame\n"
        "  compare PROJECT.qc COMPILED.mdl [--json] [--ignore-timestamps]\n"
        "        what the QC compile predicts against the model studiomdl wrote\n"
        "  physics X.qc [--json] [--profile=P]\n"
        "        the collision model studiomdl builds: solids, convex pieces, masses, joint\n"
        "        limits, and the phys.* checks\n"
        "\n"
        "every verb: --verbose=quiet|error|warning|info|debug, --color=auto|always|never,\n"
        "            --force-reader=FMT (see --list-readers)\n"
        "options: --version, --help, --list-readers\n"
        "frames: --frame counts from 0; --time, --frames and all output use the file's own\n"
        "        frame numbers (SMD 'time', XANIM 'FRAME')\n"
        "exit codes: 0 ok, 1 errors in the input, 2 usage or I/O failure\n",
        to);
}

void listReaders()
{
    for (const auto& f : rigscope::core::formats()) {
        std::string exts;
        for (auto e : f.extensions) {
            exts += exts.empty() ? "." : " .";
            exts += e;
        }
        std::printf("%-11s %-28s %-22s %s\n", std::string(f.id).c_str(),
                    std::string(f.name).c_str(), exts.c_str(), f.write ? "read/write" : "read");
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("rigscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RIGSCOPE_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty()) {
        printUsage(stderr);
        return 2;
    }
    // Options every verb takes may come before it: `rigscope-cli --color=never check x.smd`.
    QStringList common;
    while (!args.isEmpty()) {
        const QString& a = args.front();
        const bool inline_ = a.startsWith(QStringLiteral("--verbose=")) ||
                             a.startsWith(QStringLiteral("--color=")) ||
                             a.startsWith(QStringLiteral("--force-reader="));
        const bool separate = a == QStringLiteral("--verbose") || a == QStringLiteral("--color") ||
                              a == QStringLiteral("--force-reader");
        if (inline_) {
            common << args.takeFirst();
        } else if (separate && args.size() >= 2) {
            common << args.takeFirst();
            common << args.takeFirst();
        } else {
            break;
        }
    }
    if (args.isEmpty()) {
        printUsage(stderr);
        return 2;
    }
    const QString verb = args.takeFirst();
    args = common + args;
    if (verb == QStringLiteral("--version") || verb == QStringLiteral("-V")) {
        const std::string commit(rigscope::core::buildCommit());
        std::printf("rigscope-cli %s (git %s)\n", RIGSCOPE_VERSION, commit.c_str());
        return 0;
    }
    if (verb == QStringLiteral("--help") || verb == QStringLiteral("-h") ||
        verb == QStringLiteral("help")) {
        printUsage(stdout);
        return 0;
    }
    if (verb == QStringLiteral("--list-readers")) {
        listReaders();
        return 0;
    }
    if (verb == QStringLiteral("info")) {
        return rigscope::cli::runInfo(args);
    }
    if (verb == QStringLiteral("check")) {
        return rigscope::cli::runCheck(args);
    }
    if (verb == QStringLiteral("convert")) {
        return rigscope::cli::runConvert(args);
    }
    if (verb == QStringLiteral("pose")) {
        return rigscope::cli::runPose(args);
    }
    if (verb == QStringLiteral("compare")) {
        return rigscope::cli::runCompare(args);
    }
    if (verb == QStringLiteral("physics")) {
        return rigscope::cli::runPhysics(args);
    }
    std::fprintf(stderr, "rigscope-cli: unknown verb '%s'\n", verb.toLocal8Bit().constData());
    printUsage(stderr);
    return 2;
}
