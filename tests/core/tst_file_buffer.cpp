#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/io/file_buffer.h"

using namespace rigscope::core;

namespace {
std::string slurp(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return f.readAll().toStdString();
}
} // namespace

class TstFileBuffer : public QObject {
    Q_OBJECT
private slots:
    void readsWholeFile()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("a.smd"));
        QVERIFY(writeFileAtomic(p.toStdString(), std::string("abc\0def", 7), WriteMode::RefuseExisting).empty());
        const FileReadResult r = readFile(p.toStdString());
        QVERIFY(r.ok());
        QCOMPARE(r.bytes, std::string("abc\0def", 7));
    }
    void missingFileIsAnError()
    {
        const FileReadResult r = readFile("/nonexistent/dir/x.smd");
        QVERIFY(!r.ok());
        QVERIFY(r.error.find("x.smd") != std::string::npos);
        QVERIFY(!readFile(QDir::tempPath().toStdString()).ok()); // a directory
    }
    void refusesToOverwriteWithoutForce()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("out.smd"));
        QVERIFY(writeFileAtomic(p.toStdString(), "old", WriteMode::RefuseExisting).empty());
        const std::string err = writeFileAtomic(p.toStdString(), "new", WriteMode::RefuseExisting);
        QVERIFY(err.find("--force") != std::string::npos);
        QCOMPARE(slurp(p), std::string("old"));
        QVERIFY(writeFileAtomic(p.toStdString(), "new", WriteMode::Overwrite).empty());
        QCOMPARE(slurp(p), std::string("new"));
        // No temporary files are left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("out.smd")});
    }
    void failedWriteLeavesOldFileUntouched()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("keep.smd"));
        QVERIFY(writeFileAtomic(p.toStdString(), "precious", WriteMode::RefuseExisting).empty());
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const std::string err = writeFileAtomic(p.toStdString(), "clobber", WriteMode::Overwrite);
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        if (err.empty()) {
            QSKIP("running as root: directory permissions do not stop the write");
        }
        QCOMPARE(slurp(p), std::string("precious"));
    }
    void sameFileSeesThroughPaths()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("m.smd"));
        QVERIFY(writeFileAtomic(p.toStdString(), "x", WriteMode::RefuseExisting).empty());
        const QString other = dir.path() + QStringLiteral("/./m.smd");
        QVERIFY(sameFile(p.toStdString(), other.toStdString()));
        QVERIFY(!sameFile(p.toStdString(), (p + QStringLiteral(".no")).toStdString()));
    }
    void pathHelpers()
    {
        QCOMPARE(baseName("a/b/idle.SMD"), std::string("idle.SMD"));
        QCOMPARE(stemName("a/b/idle.SMD"), std::string("idle"));
        QCOMPARE(extensionLower("a/b/idle.SMD"), std::string("smd"));
        QCOMPARE(directoryOf("idle.smd"), std::string("."));
        QCOMPARE(directoryOf("/x/idle.smd"), std::string("/x"));
    }
};

QTEST_APPLESS_MAIN(TstFileBuffer)
#include "tst_file_buffer.moc"
