#pragma once

#include <string>
#include <vector>

#include <QtCore/QString>
#include <QtCore/QStringList>

#include "core/formats/registry.h"

namespace rigscope::test {

QString fixturesDir();  // tests/fixtures
QString baselinesDir(); // tests/baselines
QString samplesDir();   // resources/samples
QString outputDir();    // build/tests/Testing/Temporary (created)
QString cliPath();      // the rigscope-cli binary
// ../shared/corpus, or an empty string when it is absent (RIGSCOPE_CORPUS_DIR overrides).
QString corpusDir();

// Files under `dir` (recursive) whose extension is in `exts` (lower case, no dot), sorted.
QStringList filesUnder(const QString& dir, const QStringList& exts);

// For *_data(): a "path" column and one row per file under `dir` with one of `exts`, named by
// file name. An empty `dir` (the corpus is absent) adds one row with an empty path, which the
// test QSKIPs.
void addPathRows(const QString& dir, const QStringList& exts);

std::string readBytes(const QString& path);
// Reads a file through the registry (detection included). The file name in diagnostics is the
// path relative to `relativeTo` when given.
core::ReadResult readPath(const QString& path, const QString& relativeTo = {});
// Formatted diagnostics, one per line.
QStringList formatted(const std::vector<core::Diagnostic>& diags);
// Lines of <case>.expected (missing file = no lines).
QStringList expectedLines(const QString& path);
// RIGSCOPE_BLESS=1 rewrites the .expected file.
bool blessing();
// The fixture-and-expected loop, written once: the lines of `<fixture>.expected` beside the
// fixture (its name without the last extension; a fixture folder keeps its whole name), after
// RIGSCOPE_BLESS=1 wrote `got` there. Use as `QCOMPARE(got, test::expectedFor(path, got))`.
QStringList expectedFor(const QString& fixture, const QStringList& got);
void writeLines(const QString& path, const QStringList& lines);

struct ProcessResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
ProcessResult runCli(const QStringList& args, int timeoutMs = 60000);

} // namespace rigscope::test
