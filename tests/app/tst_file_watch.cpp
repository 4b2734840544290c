// The file watcher survives an exporter (issue 27, item 7): one report per save however many
// writes it takes; a file deleted and written again, or replaced by a rename, is reported when it
// is back and stays watched; a file that is gone is not reported while it is gone.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cstdio>

#include "app/document/file_watch.h"

using namespace rigscope;

namespace {

void write(const QString& path, const QByteArray& bytes, QIODevice::OpenMode mode)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | mode));
    f.write(bytes);
}

} // namespace

class TstFileWatch : public QObject {
    Q_OBJECT
private slots:
    void oneReportPerSave()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.smd"));
        write(path, "version 1\n", QIODevice::Truncate);
        app::FileWatch watch;
        watch.setQuietTime(150);
        watch.setPaths({path});
        QSignalSpy spy(&watch, &app::FileWatch::changed);
        // An exporter's save: truncate, then six chunks.
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            for (int i = 0; i < 6; ++i) {
                f.write(QByteArray(4096, 'x'));
                f.flush();
                QTest::qWait(10);
            }
        }
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, 5000);
        QTest::qWait(400);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toStringList(), QStringList{path});
    }

    void deletedAndWrittenAgain()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.smd"));
        write(path, "version 1\n", QIODevice::Truncate);
        app::FileWatch watch;
        watch.setQuietTime(100);
        watch.setPaths({path});
        QSignalSpy spy(&watch, &app::FileWatch::changed);

        QVERIFY(QFile::remove(path));
        QTest::qWait(500);
        QCOMPARE(spy.count(), 0); // gone: nothing to reload yet
        write(path, "version 1\nnodes\n", QIODevice::Truncate);
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, 5000);
        QTRY_VERIFY(watch.watchedFiles().contains(path));

        // Still watched: the next save is reported too.
        write(path, "end\n", QIODevice::Append);
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 2, 5000);

        // Replaced by a rename (write to a temporary file, move it over).
        const QString tmp = dir.filePath(QStringLiteral("model.smd.tmp"));
        write(tmp, "version 1\nnodes\nend\n", QIODevice::Truncate);
        QVERIFY(::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(path).constData()) ==
                0);
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 3, 5000);
        write(path, "skeleton\n", QIODevice::Append);
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 4, 5000);
        QTest::qWait(300);
        QCOMPARE(spy.count(), 4);
    }

    void otherFilesOfTheFolderAreNotReported()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.smd"));
        write(path, "version 1\n", QIODevice::Truncate);
        app::FileWatch watch;
        watch.setQuietTime(100);
        watch.setPaths({path});
        QSignalSpy spy(&watch, &app::FileWatch::changed);
        write(dir.filePath(QStringLiteral("other.smd")), "x", QIODevice::Truncate);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("other.smd"))));
        QTest::qWait(400);
        QCOMPARE(spy.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TstFileWatch)
#include "tst_file_watch.moc"
