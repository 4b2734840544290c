// Settings ▸ Materials (issue 18): the roots list adds (absolute, once), removes the selection,
// persists under Materials/roots, restores to empty, and is a page of the Settings dialog.
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>

#include "app/widgets/materials_page.h"
#include "tests/support/test_support.h"

using namespace rigscope;

class TstMaterialsPage : public QObject {
    Q_OBJECT
private slots:
    void addRemovePersist()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        QSettings settings(ini, QSettings::IniFormat);
        app::MaterialsPage page;
        QCOMPARE(page.title(), QStringLiteral("Materials"));
        QVERIFY(page.roots().isEmpty());
        QVERIFY(!page.removeButton()->isEnabled());
        QVERIFY(page.addRoot(dir.path()));
        QVERIFY(!page.addRoot(dir.path() + QStringLiteral("/"))); // the same folder
        QVERIFY(page.addRoot(dir.filePath(QStringLiteral("absent"))));
        QVERIFY(!page.addRoot(QString()));
        QCOMPARE(page.roots(), (QStringList{dir.path(), dir.filePath(QStringLiteral("absent"))}));
        // A folder that does not exist is listed, marked.
        QVERIFY(!page.list()->item(1)->toolTip().isEmpty());
        QVERIFY(page.list()->item(0)->toolTip().isEmpty());
        page.save(settings);
        QCOMPARE(settings.value(QStringLiteral("Materials/roots")).toStringList(), page.roots());

        page.list()->item(1)->setSelected(true);
        QVERIFY(page.removeButton()->isEnabled());
        page.removeButton()->click();
        QCOMPARE(page.roots(), QStringList{dir.path()});

        app::MaterialsPage again; // loads what was saved
        again.load(settings);
        QCOMPARE(again.roots().size(), 2);
        again.restoreDefaults();
        QVERIFY(again.roots().isEmpty());
        again.save(settings);
        QVERIFY(settings.value(QStringLiteral("Materials/roots")).toStringList().isEmpty());
    }

    void inTheDialog()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        settings.setValue(QStringLiteral("Materials/roots"), QStringList{dir.path()});
        app::SettingsDialog dialog(settings);
        dialog.addPage(new app::MaterialsPage);
        auto* page = qobject_cast<app::MaterialsPage*>(dialog.page(QStringLiteral("Materials")));
        QVERIFY(page);
        QCOMPARE(page->roots(), QStringList{dir.path()}); // loaded when added
        page->restoreDefaults();
        dialog.apply();
        QVERIFY(settings.value(QStringLiteral("Materials/roots")).toStringList().isEmpty());
    }
};

QTEST_MAIN(TstMaterialsPage)
#include "tst_materials_page.moc"
