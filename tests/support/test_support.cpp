#include "tests/support/test_support.h"

#include <QtCore/QDir>
#include <QtCore/QDirIterator>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QProcess>
#include <QtTest/QtTest>

#include "core/io/file_buffer.h"

namespace rigscope::test {

QString fixturesDir()
{
    return QStringLiteral(RIGSCOPE_FIXTURES_DIR);
}
QString baselinesDir()
{
    return QStringLiteral(RIGSCOPE_BASELINES_DIR);
}
QString samplesDir()
{
    return QStringLiteral(RIGSCOPE_SAMPLES_DIR);
}
QString cliPath()
{
    return QStringLiteral(RIGSCOPE_CLI_PATH);
}

QString outputDir()
{
    const QString d = QStringLiteral(RIGSCOPE_OUTPUT_DIR);
    QDir().mkpath(d);
    return d;
}

QString corpusDir()
{
    QString d = qEnvironmentVariable("RIGSCOPE_CORPUS_DIR");
    if (d.isEmpty()) {
        d = QStringLiteral(RIGSCOPE_CORPUS_DIR);
    }
    if (!QFileInfo(d + QStringLiteral("/MANIFEST.tsv")).exists()) {
        return {};
    }
    return QDir(d).canonicalPath();
}

QStringList filesUnder(const QString& dir, const QStringList& exts)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (exts.isEmpty() || exts.contains(QFileInfo(f).suffix().toLower())) {
            out << f;
        }
    }
    out.sort();
    return out;
}

void addPathRows(const QString& dir, const QStringList& exts)
{
    QTest::addColumn<QString>("path");
    if (dir.isEmpty()) {
        QTest::newRow("absent") << QString();
        return;
    }
    for (const QString& f : filesUnder(dir, exts)) {
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
}

std::string readBytes(const QString& path)
{
    auto r = core::readFile(path.toStdString());
    return r.bytes;
}

core::ReadResult readPath(const QString& path, const QString& relativeTo)
{
    const QString name = relativeTo.isEmpty() ? path : QDir(relativeTo).relativeFilePath(path);
    core::ReadContext ctx;
    ctx.fileName = name.toStdString();
    const std::string bytes = readBytes(path);
    return core::readAny(bytes, ctx);
}

QStringList formatted(const std::vector<core::Diagnostic>& diags)
{
    QStringList out;
    for (const auto& d : diags) {
        out << QString::fromStdString(core::formatDiagnostic(d));
    }
    return out;
}

QStringList expectedFor(const QString& fixture, const QStringList& got)
{
    const QFileInfo fi(fixture);
    const QString base = fi.isDir() || fi.suffix().isEmpty()
                             ? fixture
                             : fixture.left(fixture.size() - fi.suffix().size() - 1);
    const QString path = base + QStringLiteral(".expected");
    if (blessing()) {
        writeLines(path, got);
    }
    return expectedLines(path);
}

QStringList expectedLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QStringList out;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (!line.trimmed().isEmpty()) {
            out << QString::fromUtf8(line);
        }
    }
    return out;
}

bool blessing()
{
    return qEnvironmentVariable("RIGSCOPE_BLESS") == QStringLiteral("1");
}

void writeLines(const QString& path, const QStringList& lines)
{
    if (lines.isEmpty()) {
        QFile::remove(path);
        return;
    }
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        f.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    }
}

ProcessResult runCli(const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.start(cliPath(), args);
    ProcessResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace rigscope::test
