// UX ↓: attach the animations and flex files of the reference's folder that fit it; other
// models, unrelated animations and broken files of the folder are read and dropped quietly.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>

#include "app/document/file_navigation.h"
#include "app/document/document.h"
#include "app/widgets/main_window.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

bool copySample(const QString& name, const QDir& to, const QString& as = {})
{
    return QFile::copy(test::samplesDir() + QLatin1Char('/') + name,
                       to.filePath(as.isEmpty() ? name : as));
}

bool writeText(const QDir& dir, const QString& name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

class TstDocumentAttach : public QObject {
    Q_OBJECT
private slots:
    void attachesWhatFits()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QDir dir(tmp.path());
        QVERIFY(copySample(QStringLiteral("sample_ref.smd"), dir));
        QVERIFY(copySample(QStringLiteral("sample_anim.smd"), dir));
        QVERIFY(copySample(QStringLiteral("sample_flex.vta"), dir));
        QVERIFY(copySample(QStringLiteral("sample_ref.smd"), dir, QStringLiteral("other_ref.smd")));
        // An animation of another skeleton, and a file that is not a model at all.
        QVERIFY(writeText(dir, QStringLiteral("walk_other.smd"),
                          "version 1\nnodes\n0 \"pelvis\" -1\nend\nskeleton\ntime 0\n"
                          "0 0 0 0 0 0 0\ntime 1\n0 0 0 1 0 0 0\nend\n"));
        QVERIFY(writeText(dir, QStringLiteral("broken.xanim_export"), "\x01\x02 not a file"));

        app::Document doc;
        QSignalSpy attached(&doc, &app::Document::attached);
        QSignalSpy failed(&doc, &app::Document::loadFailed);
        QVERIFY(!doc.attach({dir.filePath(QStringLiteral("sample_anim.smd"))})); // nothing open
        doc.open({dir.filePath(QStringLiteral("sample_ref.smd"))});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.animations().size(), std::size_t(0));

        QStringList all;
        for (const QString& n : app::modelFilesInFolder(dir.path())) {
            all << dir.filePath(n);
        }
        QCOMPARE(all.size(), 6);
        QVERIFY(doc.attach(all));
        QTRY_COMPARE(attached.count(), 1);
        QCOMPARE(attached.at(0).at(0).toInt(), 2);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(failed.count(), 0);
        QStringList names;
        for (const QString& p : doc.paths()) {
            names << QFileInfo(p).fileName();
        }
        names.sort();
        QCOMPARE(names,
                 (QStringList{QStringLiteral("sample_anim.smd"), QStringLiteral("sample_flex.vta"),
                              QStringLiteral("sample_ref.smd")}));
        QCOMPARE(QFileInfo(doc.primary()->path).fileName(), QStringLiteral("sample_ref.smd"));
        QCOMPARE(doc.animations().size(), std::size_t(1));
        QCOMPARE(doc.animations().front().name, QStringLiteral("sample_anim"));
        QCOMPARE(doc.flexNames().size(), 3);

        // What is open already is not attached twice; the dropped files may be tried again.
        QVERIFY(!doc.attach({dir.filePath(QStringLiteral("sample_anim.smd"))}));
        QVERIFY(doc.attach(all));
        QTRY_COMPARE(attached.count(), 2);
        QCOMPARE(attached.at(1).at(0).toInt(), 0);
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.paths().size(), 3);
    }
};

QTEST_MAIN(TstDocumentAttach)
#include "tst_document_attach.moc"
