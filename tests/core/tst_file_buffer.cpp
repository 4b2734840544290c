#include <csignal>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/io/file_buffer.h"
#include "core/ops/check.h"
#include "core/ops/convert.h"
#include "core/ops/info.h"
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

// A reference SMD of `triangles` triangles (about 70 bytes a corner line).
std::string bigSmd(int triangles)
{
    std::string s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                    "0 0 0 0 0 0 0\nend\ntriangles\n";
    for (int t = 0; t < triangles; ++t) {
        s += "skin.tga\n";
        for (int c = 0; c < 3; ++c) {
            s += "0 " + std::to_string(t) + ".5 " + std::to_string(c) +
                 ".25 1.000000 0 0 1 0.5 0.5 1 0 1.000000\n";
        }
    }
    return s + "end\n";
}

// The hook of file_buffer.h: cuts the file being read to its first page, as an exporter that
// opens it with O_TRUNC and has written 4 KB so far.
void cutToOnePage(const std::string& path)
{
    QVERIFY(::truncate(path.c_str(), 4096) == 0);
}

struct OpenedHook {
    explicit OpenedHook(FileOpenedHook h) { setFileOpenedHookForTests(h); }
    ~OpenedHook() { setFileOpenedHookForTests(nullptr); }
    OpenedHook(const OpenedHook&) = delete;
    OpenedHook& operator=(const OpenedHook&) = delete;
};

// Runs `body` in a child process; its wait status.
template <class F> int inChild(F body)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::signal(SIGBUS, SIG_DFL); // not QTest's crash handler (it stops for a debugger)
        body();
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

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
    // Issue 27 item 9: a mapped file cut by another program while it is read (an exporter
    // saving) killed the process with SIGBUS. The page past the new end reads as zeros and the
    // change is reported.
    void mappedFileCutWhileReadDoesNotCrash()
    {
        QTemporaryDir dir;
        const std::string p = dir.filePath(QStringLiteral("big.smd")).toStdString();
        QVERIFY(writeFileAtomic(p, std::string(1 << 20, 'a'), WriteMode::Overwrite).empty());
        const int status = inChild([&] {
            MappedFile f(p);
            if (!f.ok() || f.bytes().size() != (1u << 20) || !f.unchanged() ||
                ::truncate(p.c_str(), 4096) != 0) {
                ::_exit(3);
            }
            std::size_t as = 0;
            for (const char c : f.bytes()) {
                as += c == 'a' ? 1 : 0;
            }
            // The first page is still the file's, the rest reads as zeros; the change is told.
            const bool told =
                !f.unchanged() && f.error().find("changed while it was read (1048576 bytes when "
                                                 "opened, 4096 now)") != std::string::npos;
            ::_exit(as != 4096 ? 4 : told ? 0 : 5);
        });
        QVERIFY2(WIFEXITED(status), "the reader died of a signal");
        QCOMPARE(WEXITSTATUS(status), 0);
    }
    void readFileCutWhileReadIsAnError()
    {
        QTemporaryDir dir;
        const std::string p = dir.filePath(QStringLiteral("big.smd")).toStdString();
        QVERIFY(writeFileAtomic(p, std::string(1 << 20, 'a'), WriteMode::Overwrite).empty());
        OpenedHook hook(cutToOnePage);
        const FileReadResult r = readFile(p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("changed while it was read (1048576 bytes when opened, 4096 now)") !=
                     std::string::npos,
                 r.error.c_str());
        QVERIFY(r.bytes.empty());
    }
    void infoAndCheckReportAFileCutWhileRead()
    {
        QTemporaryDir dir;
        const std::string p = dir.filePath(QStringLiteral("big.smd")).toStdString();
        const std::string smd = bigSmd(3000);
        QVERIFY(smd.size() > (1u << 18));
        QVERIFY(writeFileAtomic(p, smd, WriteMode::Overwrite).empty());
        {
            OpenedHook hook(cutToOnePage);
            const int status = inChild([&] {
                const InfoReport r = infoFromFile(p, Profile::Auto); // the mapped path
                ::_exit(r.ioError.find("changed while it was read") != std::string::npos ? 0 : 4);
            });
            QVERIFY2(WIFEXITED(status), "info died of a signal");
            QCOMPARE(WEXITSTATUS(status), 0);
        }
        QVERIFY(writeFileAtomic(p, smd, WriteMode::Overwrite).empty());
        {
            OpenedHook hook(cutToOnePage);
            const CheckRun run = runCheck({p}, CheckOptions{});
            QCOMPARE(run.files.size(), std::size_t(1));
            QVERIFY(!run.files[0].readable);
            QVERIFY(run.files[0].ioError.find("changed while it was read") != std::string::npos);
        }
        // Unchanged, the same file reads whole.
        QVERIFY(writeFileAtomic(p, smd, WriteMode::Overwrite).empty());
        const InfoReport r = infoFromFile(p, Profile::Auto);
        QVERIFY2(r.ioError.empty(), r.ioError.c_str());
        QCOMPARE(r.triangles, std::size_t(3000));
    }
    // Another program rewriting the file while it is mapped and parsed: never a crash, and
    // each read is either whole or reported as changed.
    void infoSurvivesAWriterLoop()
    {
        QTemporaryDir dir;
        const std::string p = dir.filePath(QStringLiteral("big.smd")).toStdString();
        const std::string smd = bigSmd(4000);
        QVERIFY(writeFileAtomic(p, smd, WriteMode::Overwrite).empty());
        const pid_t writer = ::fork();
        if (writer == 0) {
            for (;;) { // in place, as an exporter does: truncate, then write in pieces
                const int fd = ::open(p.c_str(), O_WRONLY | O_TRUNC);
                for (std::size_t at = 0; fd >= 0 && at < smd.size(); at += 65536) {
                    (void)!::write(fd, smd.data() + at,
                                   std::min<std::size_t>(65536, smd.size() - at));
                }
                ::close(fd);
            }
        }
        int whole = 0, changed = 0;
        const int status = inChild([&] {
            for (int i = 0; i < 40; ++i) {
                const InfoReport r = infoFromFile(p, Profile::Auto);
                if (r.ioError.find("changed while it was read") != std::string::npos) {
                    ++changed;
                } else if (r.ioError.empty() && r.triangles == 4000) {
                    ++whole;
                }
                const FileReadResult f = readFile(p);
                if (!f.ok() && f.error.find("changed while it was read") != std::string::npos) {
                    ++changed;
                } else if (f.ok() && f.bytes.size() == smd.size()) {
                    ++whole;
                }
            }
            ::_exit(0);
        });
        ::kill(writer, SIGKILL);
        ::waitpid(writer, nullptr, 0);
        QVERIFY2(WIFEXITED(status), "a reader died of a signal");
        QCOMPARE(WEXITSTATUS(status), 0);
        (void)whole;
        (void)changed;
    }
    // The guard handles only faults inside the files it mapped: any other SIGBUS still ends the
    // process as before.
    void otherSigbusStillKills()
    {
        QTemporaryDir dir;
        const std::string p = dir.filePath(QStringLiteral("a.bin")).toStdString();
        QVERIFY(writeFileAtomic(p, std::string(1 << 16, 'a'), WriteMode::Overwrite).empty());
        const int raised = inChild([&] {
            MappedFile f(p); // installs the guard
            ::raise(SIGBUS);
        });
        QVERIFY(WIFSIGNALED(raised));
        QCOMPARE(WTERMSIG(raised), SIGBUS);
        const int faulted = inChild([&] {
            MappedFile f(p);
            const int fd = ::open(p.c_str(), O_RDONLY);
            const auto* map = static_cast<const volatile char*>(
                ::mmap(nullptr, 1 << 16, PROT_READ, MAP_PRIVATE, fd, 0));
            (void)!::truncate(p.c_str(), 0);
            (void)map[40000]; // not a guarded mapping
        });
        QVERIFY(WIFSIGNALED(faulted));
        QCOMPARE(WTERMSIG(faulted), SIGBUS);
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
