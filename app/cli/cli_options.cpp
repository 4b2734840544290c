#include "app/cli/cli_options.h"

#include <cstdlib>

#include <unistd.h>

#include "core/ops/read_input.h"

namespace rigscope::cli {

namespace {

constexpr const char* kReset = "\x1b[0m";

const char* colorOf(std::string_view severity) noexcept
{
    if (severity == "error") {
        return "\x1b[1;31m";
    }
    if (severity == "warning") {
        return "\x1b[1;35m";
    }
    return "\x1b[1;36m"; // note
}

// Colours the first "error: " / "warning: " / "note: " after the location of one line.
std::string colorLine(const std::string& line)
{
    for (const char* word : {": error: ", ": warning: ", ": note: "}) {
        const std::size_t at = line.find(word);
        if (at == std::string::npos) {
            continue;
        }
        const std::string_view w(word);
        const std::string_view sev = w.substr(2, w.size() - 4); // "error"
        return "\x1b[1m" + line.substr(0, at + 1) + kReset + " " + colorOf(sev) + std::string(sev) +
               ":" + kReset + line.substr(at + w.size() - 1);
    }
    return line;
}

} // namespace

void addCommonOptions(QCommandLineParser& p)
{
    p.addOption(QCommandLineOption(
        QStringLiteral("verbose"),
        QStringLiteral(
            "What reaches stderr: quiet|error|warning|info|debug (default info: every diagnostic)"),
        QStringLiteral("LEVEL"), QStringLiteral("info")));
    p.addOption(QCommandLineOption(QStringLiteral("color"),
                                   QStringLiteral("Colour diagnostics: auto|always|never"),
                                   QStringLiteral("WHEN"), QStringLiteral("auto")));
    p.addOption(QCommandLineOption(
        QStringLiteral("force-reader"),
        QStringLiteral("Read inputs with this reader, whatever their content: ") +
            QString::fromStdString(core::readerNames()),
        QStringLiteral("FMT")));
}

bool readCommonOptions(const QCommandLineParser& p, const char* verb, CommonOptions& out)
{
    const QString level = p.value(QStringLiteral("verbose"));
    static const char* const kLevels[] = {"quiet", "error", "warning", "info", "debug"};
    bool found = false;
    for (int i = 0; i < 5; ++i) {
        if (level == QLatin1String(kLevels[i])) {
            out.verbosity = static_cast<Verbosity>(i);
            found = true;
        }
    }
    if (!found) {
        std::fprintf(stderr,
                     "rigscope-cli %s: --verbose expects quiet, error, warning, info or debug, "
                     "got '%s'\n",
                     verb, qPrintable(level));
        return false;
    }
    const QString color = p.value(QStringLiteral("color"));
    if (color == QLatin1String("always")) {
        out.colorWhen = CommonOptions::When::Always;
    } else if (color == QLatin1String("never")) {
        out.colorWhen = CommonOptions::When::Never;
    } else if (color == QLatin1String("auto")) {
        out.colorWhen = CommonOptions::When::Auto;
    } else {
        std::fprintf(stderr, "rigscope-cli %s: --color expects auto, always or never, got '%s'\n",
                     verb, qPrintable(color));
        return false;
    }
    out.color = useColor(out, stderr);
    if (p.isSet(QStringLiteral("force-reader"))) {
        const std::string name = p.value(QStringLiteral("force-reader")).toStdString();
        const core::FormatInfo* f = core::readerByName(name);
        if (f == nullptr) {
            std::fprintf(stderr, "rigscope-cli %s: unknown reader '%s' (readers: %s)\n", verb,
                         name.c_str(), core::readerNames().c_str());
            return false;
        }
        out.forceReader = std::string(f->id);
    }
    return true;
}

bool useColor(const CommonOptions& o, std::FILE* stream) noexcept
{
    switch (o.colorWhen) {
    case CommonOptions::When::Always:
        return true;
    case CommonOptions::When::Never:
        return false;
    case CommonOptions::When::Auto:
        break;
    }
    const char* noColor = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return isatty(fileno(stream)) != 0 && (noColor == nullptr || *noColor == '\0') &&
           !(term != nullptr && std::string_view(term) == "dumb");
}

bool shows(const CommonOptions& o, core::Severity s) noexcept
{
    switch (o.verbosity) {
    case Verbosity::Quiet:
        return false;
    case Verbosity::Error:
        return s == core::Severity::Error;
    case Verbosity::Warning:
        return s != core::Severity::Note;
    case Verbosity::Info:
    case Verbosity::Debug:
        return true;
    }
    return true;
}

std::string formatForTerminal(const core::Diagnostic& d, bool color)
{
    std::string s = core::formatDiagnostic(d);
    for (const core::RelatedNote& n : d.related) {
        s += '\n';
        s += core::formatLocation(n.file, n.where, d.binary && n.file == d.file) +
             " note: " + n.message + " [" + std::string(d.id) + "]";
    }
    return color ? colorizeLines(s) : s;
}

void printDiagnostics(const std::vector<core::Diagnostic>& diags, const CommonOptions& o,
                      std::FILE* to)
{
    for (const core::Diagnostic& d : diags) {
        if (shows(o, d.severity)) {
            std::fprintf(to, "%s\n", formatForTerminal(d, o.color).c_str());
        }
    }
}

std::string colorizeLines(const std::string& text)
{
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool nl = end != std::string::npos;
        if (!nl) {
            end = text.size();
        }
        out += colorLine(text.substr(start, end - start));
        if (nl) {
            out += '\n';
        }
        start = end + 1;
    }
    return out;
}

} // namespace rigscope::cli
