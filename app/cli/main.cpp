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
    std::fputs("usage: rigscope-cli <verb> [options] FILE...\n"
               "\n"
               "verbs:\n"
               "  info FILE... [--json] [-v] [--profile=P]   format, counts, materials, bounds\n"
               "  check PATH... [--profile=P] [--format=text|json|sarif] [--werror]\n"
               "  convert IN OUT [--force]                  write another format atomically\n"
               "  pose FILE [--anim FILE] [--frame N] [--json]  bone transforms at a frame\n"
               "\n"
               "options: --version, --help, --list-readers\n"
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
        std::printf("%-11s %-28s %-22s %s\n", std::string(f.id).c_str(), std::string(f.name).c_str(),
                    exts.c_str(), f.write ? "read/write" : "read");
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
    const QString verb = args.takeFirst();
    if (verb == QStringLiteral("--version") || verb == QStringLiteral("-V")) {
        const std::string commit(rigscope::core::buildCommit());
        std::printf("rigscope-cli %s (git %s)\n", RIGSCOPE_VERSION, commit.c_str());
        return 0;
    }
    if (verb == QStringLiteral("--help") || verb == QStringLiteral("-h") || verb == QStringLiteral("help")) {
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
    std::fprintf(stderr, "rigscope-cli: unknown verb '%s'\n", verb.toLocal8Bit().constData());
    printUsage(stderr);
    return 2;
}
