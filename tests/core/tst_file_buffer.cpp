#include <csignal>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/file_buffer.h"
#include "core/ops/convert.h"
#include "tests/support/test_support.h"

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

ino_t inodeOf(const QString& path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_ino : 0;
}

// Files larger than `limit` bytes cannot be written while this lives (EFBIG, even for root):
// a write that fails half-way, like a full disk.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t limit)
    {
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit l = m_old;
        l.rlim_cur = limit;
        ::setrlimit(RLIMIT_FSIZE, &l);
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_old{};
    void (*m_oldHandler)(int) = nullptr;
};

QStringList filesIn(const QTemporaryDir& dir)
{
    QStringList l = QDir(dir.path()).entryList(QDir::Files | QDir::System | QDir::Hidden);
    l.sort();
    return l;
}
} // namespace

class TstFileBuffer : public QObject {
    Q_OBJECT
private slots:
    void readsWholeFile()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("a.smd"));
        QVERIFY(
            writeFileAtomic(p.toStdString(), std::string("abc\0def", 7), WriteMode::RefuseExisting)
                .empty());
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
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                              QFileDevice::ExeOwner);
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
    void writesTempInTargetFolderThenRenames()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("out.smd"));
        QVERIFY(writeFileAtomic(p.toStdString(), "old", WriteMode::RefuseExisting).empty());
        // A hard link to the old file keeps the old bytes: the new file is renamed into place,
        // never written through the old inode.
        const QString alias = dir.filePath(QStringLiteral("alias.smd"));
        QVERIFY(::link(QFile::encodeName(p).constData(), QFile::encodeName(alias).constData()) ==
                0);
        const ino_t before = inodeOf(p);
        QVERIFY(writeFileAtomic(p.toStdString(), "new", WriteMode::Overwrite).empty());
        QCOMPARE(slurp(p), std::string("new"));
        QCOMPARE(slurp(alias), std::string("old"));
        QVERIFY(inodeOf(p) != before);
        // The temporary file lives next to the target (same folder, so rename is atomic).
        std::string err;
        {
            FileSizeLimit limit(2);
            err = writeFileAtomic(p.toStdString(), "longer than two bytes", WriteMode::Overwrite);
        }
        QVERIFY2(err.find(p.toStdString() + ".rigscope-") != std::string::npos, err.c_str());
        QCOMPARE(filesIn(dir),
                 (QStringList{QStringLiteral("alias.smd"), QStringLiteral("out.smd")}));
    }
    void failedWriteHalfWayLeavesOldFileUntouched()
    {
        // Works as root too: the file size limit stops the write like a full disk.
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("keep.smd"));
        const std::string precious(64, 'p');
        QVERIFY(writeFileAtomic(p.toStdString(), precious, WriteMode::RefuseExisting).empty());
        std::string err;
        {
            FileSizeLimit limit(1000);
            err = writeFileAtomic(p.toStdString(), std::string(5000, 'c'), WriteMode::Overwrite);
        }
        QVERIFY(!err.empty());
        QCOMPARE(slurp(p), precious);
        QCOMPARE(filesIn(dir), QStringList{QStringLiteral("keep.smd")});
        // Same for a new file: nothing is left behind.
        const QString fresh = dir.filePath(QStringLiteral("fresh.smd"));
        {
            FileSizeLimit limit(1000);
            err = writeFileAtomic(fresh.toStdString(), std::string(5000, 'c'),
                                  WriteMode::RefuseExisting);
        }
        QVERIFY(!err.empty());
        QCOMPARE(filesIn(dir), QStringList{QStringLiteral("keep.smd")});
    }
    void overwriteKeepsPermissions()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("ro.smd"));
        QVERIFY(writeFileAtomic(p.toStdString(), "old", WriteMode::RefuseExisting).empty());
        QVERIFY(::chmod(QFile::encodeName(p).constData(), 0640) == 0);
        QVERIFY(writeFileAtomic(p.toStdString(), "new", WriteMode::Overwrite).empty());
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(p).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));
    }
    void convertNeverWritesOverItsInput()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("a")));
        const QString in = dir.filePath(QStringLiteral("a/x.xmodel_export"));
        QVERIFY(QFile::copy(rigscope::test::fixturesDir() +
                                QStringLiteral("/xmodel/valid/cube_v6.xmodel_export"),
                            in));
        const std::string original = slurp(in);
        QVERIFY(!original.empty());
        // Another spelling, a symlink either way, and a hard link: refused even with --force.
        const QString link = dir.filePath(QStringLiteral("link.smd"));
        QVERIFY(QFile::link(in, link));
        const QString linkedIn = dir.filePath(QStringLiteral("in_link.xmodel_export"));
        QVERIFY(QFile::link(in, linkedIn));
        const QString hard = dir.filePath(QStringLiteral("hard.xmodel_export"));
        QVERIFY(::link(QFile::encodeName(in).constData(), QFile::encodeName(hard).constData()) ==
                0);
        const struct {
            QString in, out;
        } cases[] = {
            {in, dir.path() + QStringLiteral("/./a/../a/x.xmodel_export")},
            {in, dir.path() + QStringLiteral("//a///x.xmodel_export")},
            {in, link},
            {linkedIn, in},
            {in, hard},
            {hard, in},
        };
        for (const auto& c : cases) {
            for (const bool force : {false, true}) {
                const ConvertResult r = convertFile(c.in.toStdString(), c.out.toStdString(), force);
                QVERIFY2(r.exitCode == 2 && !r.written, qPrintable(c.out));
                QVERIFY2(r.error.find("input") != std::string::npos, r.error.c_str());
                QCOMPARE(slurp(in), original);
            }
        }
        QVERIFY(QFileInfo(link).isSymLink());
    }
    void convertRefusesExistingWithoutForce()
    {
        QTemporaryDir dir;
        const QString in = dir.filePath(QStringLiteral("x.xmodel_export"));
        QVERIFY(QFile::copy(rigscope::test::fixturesDir() +
                                QStringLiteral("/xmodel/valid/cube_v6.xmodel_export"),
                            in));
        const QString out = dir.filePath(QStringLiteral("x.smd"));
        QVERIFY(writeFileAtomic(out.toStdString(), "keep", WriteMode::RefuseExisting).empty());
        ConvertResult r = convertFile(in.toStdString(), out.toStdString(), false);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.error.find("--force") != std::string::npos);
        QCOMPARE(slurp(out), std::string("keep"));
        // A failed write with --force leaves the old file as it was, and no temporary behind.
        {
            FileSizeLimit limit(16);
            r = convertFile(in.toStdString(), out.toStdString(), true);
        }
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.written);
        QCOMPARE(slurp(out), std::string("keep"));
        QCOMPARE(filesIn(dir),
                 (QStringList{QStringLiteral("x.smd"), QStringLiteral("x.xmodel_export")}));
        r = convertFile(in.toStdString(), out.toStdString(), true);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.written);
        QVERIFY(slurp(out).find("version 1") != std::string::npos);
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
