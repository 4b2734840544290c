// The window's tabs without the window (app/document/document_manager): one document per tab,
// the empty tab files open into, the closed stack (Ctrl+Shift+T order), one signal per switch,
// the camera each tab was left with, and the settings every new document gets (issue 28).
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QPointer>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>

#include "app/document/document_manager.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using app::Document;
using app::DocumentManager;

namespace {

// Copies of the sample reference under three names, so each tab shows its own files.
class Files {
public:
    Files()
    {
        for (const char* name : {"a.smd", "b.smd", "c.smd"}) {
            QFile::copy(test::samplesDir() + QStringLiteral("/sample_ref.smd"),
                        m_dir.filePath(QLatin1String(name)));
        }
    }
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }

private:
    QTemporaryDir m_dir;
};

// Opens `path` in the document files go to (a new tab unless the current one is empty).
Document* openTab(DocumentManager& tabs, const QString& path)
{
    Document* doc = tabs.documentForNewFiles();
    doc->setChecksEnabled(false); // the tabs are under test, not the checks
    doc->open({path});
    return doc->waitForLoaded() ? doc : nullptr;
}

render::OrbitCamera cameraAt(float distance)
{
    render::OrbitCamera c;
    c.distance = distance;
    return c;
}

} // namespace

class TstDocumentManager : public QObject {
    Q_OBJECT
private slots:
    // The bug of issue 28: the empty tab left after closing the last one searched no material
    // roots (the window's second copy of "a new tab document" forgot them).
    void emptyTabAfterClosingLastKeepsMaterialRoots()
    {
        const QStringList roots{QStringLiteral("/games/hl2/hl2"), QStringLiteral("/mods/x")};
        Files files;
        DocumentManager tabs;
        tabs.setMaterialRoots(roots);
        QCOMPARE(tabs.current()->materialRoots(), roots);
        tabs.current()->setProfile(core::Profile::GoldSrc);
        QVERIFY(openTab(tabs, files.path("a.smd")));
        tabs.closeTab(0);
        QCOMPARE(tabs.count(), 1);
        QVERIFY(tabs.current()->files().empty());
        QCOMPARE(tabs.current()->materialRoots(), roots);
        QCOMPARE(tabs.current()->requestedProfile(), core::Profile::GoldSrc);
        // Later roots reach every tab, the open ones and those to come.
        const QStringList more{QStringLiteral("/mods/y")};
        tabs.setMaterialRoots(more);
        QCOMPARE(tabs.current()->materialRoots(), more);
        QCOMPARE(tabs.addTab()->materialRoots(), more);
    }

    void filesGoToTheEmptyTabThenNewTabs()
    {
        Files files;
        DocumentManager tabs;
        QCOMPARE(tabs.count(), 1);
        QCOMPARE(tabs.currentIndex(), 0);
        Document* first = tabs.current();
        QSignalSpy changed(&tabs, &DocumentManager::currentDocumentChanged);
        QSignalSpy added(&tabs, &DocumentManager::tabAdded);
        QSignalSpy titles(&tabs, &DocumentManager::titleChanged);

        QCOMPARE(openTab(tabs, files.path("a.smd")), first); // the empty tab takes them
        QCOMPARE(tabs.count(), 1);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(added.count(), 0);
        QCOMPARE(titles.count(), 1);
        QCOMPARE(titles.at(0).at(0).toInt(), 0);

        first->setProfile(core::Profile::Source);
        Document* second = openTab(tabs, files.path("b.smd"));
        QVERIFY(second && second != first);
        QCOMPARE(tabs.count(), 2);
        QCOMPARE(tabs.currentIndex(), 1);
        QCOMPARE(tabs.document(1), second);
        QCOMPARE(tabs.indexOf(second), 1);
        QCOMPARE(second->requestedProfile(), core::Profile::Source); // from the tab it left
        QCOMPARE(added.count(), 1);
        QCOMPARE(added.at(0).at(0).toInt(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<Document*>(), second);
        QCOMPARE(changed.at(0).at(1).value<Document*>(), first);
        QCOMPARE(titles.count(), 2);
        QCOMPARE(titles.at(1).at(0).toInt(), 1);
        QCOMPARE(tabs.document(2), nullptr);
        QCOMPARE(tabs.document(-1), nullptr);
    }

    void switchingEmitsOnce()
    {
        DocumentManager tabs;
        Document* first = tabs.current();
        Document* second = tabs.addTab();
        QCOMPARE(tabs.current(), first); // added, not shown
        QSignalSpy changed(&tabs, &DocumentManager::currentDocumentChanged);
        tabs.setCurrentIndex(0); // already current
        tabs.setCurrentIndex(2); // out of range
        tabs.setCurrentIndex(-1);
        QCOMPARE(changed.count(), 0);
        tabs.setCurrentIndex(1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<Document*>(), second);
        QCOMPARE(changed.at(0).at(1).value<Document*>(), first);
        QCOMPARE(tabs.current(), second);
        tabs.setCurrentIndex(1);
        QCOMPARE(changed.count(), 1);
    }

    // Each tab comes back with the camera it was left with.
    void perTabCamera()
    {
        DocumentManager tabs;
        render::OrbitCamera shown = cameraAt(3.0f);
        tabs.setCameraSource([&shown] { return shown; });
        tabs.addTab();
        tabs.addTab();
        QCOMPARE(tabs.camera(1), render::OrbitCamera{}); // never shown: the default
        tabs.setCurrentIndex(1);                         // leaves tab 0 seen at 3
        shown = cameraAt(5.0f);
        tabs.setCurrentIndex(2); // leaves tab 1 seen at 5
        shown = cameraAt(7.0f);
        tabs.setCurrentIndex(0); // leaves tab 2 seen at 7
        QCOMPARE(tabs.camera(0).distance, 3.0f);
        QCOMPARE(tabs.camera(1).distance, 5.0f);
        QCOMPARE(tabs.camera(2).distance, 7.0f);
        // Closing a tab keeps the others' cameras with their tabs.
        tabs.closeTab(1);
        QCOMPARE(tabs.count(), 2);
        QCOMPARE(tabs.camera(1).distance, 7.0f);
        tabs.setCamera(0, cameraAt(9.0f));
        QCOMPARE(tabs.camera(0).distance, 9.0f);
        QCOMPARE(tabs.camera(5), render::OrbitCamera{});
    }

    // Closing the current tab shows the one after it, else the one before; closing another
    // leaves the current one alone.
    void closeChoosesTheNextTab()
    {
        DocumentManager tabs;
        Document* a = tabs.current();
        Document* b = tabs.addTab();
        Document* c = tabs.addTab();
        tabs.setCurrentIndex(1);
        QSignalSpy changed(&tabs, &DocumentManager::currentDocumentChanged);
        QSignalSpy removed(&tabs, &DocumentManager::tabRemoved);
        QPointer<Document> gone = b;
        tabs.closeTab(1);
        QVERIFY(gone.isNull()); // deleted with its tab
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.at(0).at(0).toInt(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<Document*>(), c);
        QCOMPARE(tabs.current(), c);
        QCOMPARE(tabs.currentIndex(), 1);
        tabs.closeTab(1); // the last in the row: the one before
        QCOMPARE(tabs.current(), a);
        QCOMPARE(changed.count(), 2);
        Document* d = tabs.addTab();
        tabs.closeTab(1); // not current
        QCOMPARE(changed.count(), 2);
        QCOMPARE(tabs.current(), a);
        QCOMPARE(tabs.indexOf(d), -1);
        tabs.closeTab(3); // out of range
        QCOMPARE(tabs.count(), 1);
    }

    // Ctrl+Shift+T reopens the last closed first; tabs of files gone from disk are skipped,
    // empty tabs never go on the stack.
    void reopenOrder()
    {
        Files files;
        DocumentManager tabs;
        QVERIFY(openTab(tabs, files.path("a.smd")));
        QVERIFY(openTab(tabs, files.path("b.smd")));
        QVERIFY(openTab(tabs, files.path("c.smd")));
        tabs.addTab(); // empty
        QCOMPARE(tabs.count(), 4);
        tabs.closeTab(3);
        tabs.closeTab(0); // a
        tabs.closeTab(1); // c
        tabs.closeTab(0); // b, the last: an empty tab is left
        QCOMPARE(tabs.count(), 1);
        QVERIFY(tabs.current()->files().empty());
        QCOMPARE(tabs.closedTabs().size(), 3);
        QCOMPARE(tabs.takeClosed(), QStringList{files.path("b.smd")});
        QVERIFY(QFile::remove(files.path("c.smd")));
        QCOMPARE(tabs.takeClosed(), QStringList{files.path("a.smd")}); // c is gone: skipped
        QCOMPARE(tabs.takeClosed(), QStringList{});
        QVERIFY(tabs.closedTabs().isEmpty());
    }
};

QTEST_MAIN(TstDocumentManager)
#include "tst_document_manager.moc"
