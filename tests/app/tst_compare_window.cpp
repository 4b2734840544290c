// The Compare dock (issue 30 item 1, the window's part): a QC project against its compiled
// model, one row per difference, each row selecting what it names in the Outline.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QTreeView>
#include <QtCore/QSortFilterProxyModel>

#include "app/document/command_line.h"
#include "app/document/document.h"
#include "app/models/outline_model.h"
#include "app/widgets/compare_panel.h"
#include "app/widgets/outline_panel.h"
#include "core/ops/decompile.h"
#include "tests/support/mdl_writer.h"

using namespace rigscope;

namespace {

bool writeBytes(const QString& path, const std::string& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

// Our sample model under `dir`/game/models/test/, decompiled to `dir`/src/sample.qc (its QC
// compiles to it exactly, tst_decompile); the .mdl's path, "" when a step failed.
QString writeDecompiledSample(const QTemporaryDir& dir)
{
    const test::SourceMdlBytes b = test::writeSourceMdl(test::sampleSourceSpec());
    const QString stem = dir.filePath(QStringLiteral("game/models/test/model"));
    const QString qc = dir.filePath(QStringLiteral("src/sample.qc"));
    const bool written =
        QDir().mkpath(dir.filePath(QStringLiteral("game/models/test"))) &&
        writeBytes(stem + QStringLiteral(".mdl"), b.mdl) &&
        writeBytes(stem + QStringLiteral(".vvd"), b.vvd) &&
        writeBytes(stem + QStringLiteral(".dx90.vtx"), b.vtx) &&
        writeBytes(stem + QStringLiteral(".ani"), b.ani) &&
        core::decompileFile((stem + QStringLiteral(".mdl")).toStdString(), qc.toStdString(), {})
                .exitCode == 0;
    return written ? stem + QStringLiteral(".mdl") : QString();
}

int rowOf(const QTableWidget& t, const QString& field)
{
    for (int r = 0; r < t.rowCount(); ++r) {
        if (t.item(r, 0)->text() == field) {
            return r;
        }
    }
    return -1;
}

// The ghost `panel` last drew (ghostChanged), kept in `*ghost`.
void keepGhost(app::ComparePanel& panel, std::shared_ptr<const core::Model>* ghost)
{
    QObject::connect(&panel, &app::ComparePanel::ghostChanged, &panel,
                     [ghost](std::shared_ptr<const core::Model> m) { *ghost = std::move(m); });
}

} // namespace

class TstCompareWindow : public QObject {
    Q_OBJECT

private slots:
    // studiomdl turns a static prop's points 90° about Z ((x, y) -> (-y, x), as the predicted
    // hull of tst_compare::hullHoldsTheCollisionModel shows); the ghost turns them back.
    void staticPropGhostIsTurnedBack()
    {
        core::Model m;
        m.mesh.pointPositions = {core::Vec3(-2, 1, 3)};
        m.mesh.cornerNormals = {core::Vec3(-1, 0, 0)};
        app::ComparePanel::turnStaticPropBack(m);
        QCOMPARE(m.mesh.pointPositions[0], core::Vec3(1, 2, 3));
        QCOMPARE(m.mesh.cornerNormals[0], core::Vec3(0, 1, 0));
    }
    // The window's --ignore-timestamps is the CLI's: it ticks the dock's box.
    void ignoreTimestampsOption()
    {
        const app::GuiOptions o = app::parseGuiCommandLine(
            {QStringLiteral("rigscope"), QStringLiteral("a.qc"), QStringLiteral("--compare"),
             QStringLiteral("a.mdl"), QStringLiteral("--ignore-timestamps")});
        QCOMPARE(o.error, QString());
        QCOMPARE(o.compare, QStringLiteral("a.mdl"));
        QVERIFY(o.ignoreTimestamps);
        QVERIFY(!app::parseGuiCommandLine({QStringLiteral("rigscope"), QStringLiteral("a.qc")})
                     .ignoreTimestamps);
    }
    // The ghost lies on the source as shown (core/ops/compare_ghost.h): our sample decompiled
    // and turned by `$origin 0 0 0 90`, which studiomdl gives the sequences, not the .vvd
    // points; the source is shown turned, and the ghost goes through the bones onto it. Before,
    // it lay across: x and y swapped.
    void ghostLiesOnTheSource()
    {
        QTemporaryDir tmp;
        const QString mdl = writeDecompiledSample(tmp);
        QVERIFY(!mdl.isEmpty());
        const QString qc = tmp.filePath(QStringLiteral("src/sample.qc"));
        for (const bool turned : {false, true}) {
            if (turned) {
                QFile f(qc);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QByteArray text = "$origin 0 0 0 90\n" + f.readAll();
                f.close();
                QVERIFY(writeBytes(qc, text.toStdString()));
            }
            app::Document doc;
            doc.open({qc});
            QVERIFY(doc.waitForLoaded());
            QVERIFY(doc.qcProject());
            app::ComparePanel panel;
            panel.setDocument(&doc);
            std::shared_ptr<const core::Model> ghost;
            keepGhost(panel, &ghost);
            QVERIFY(panel.compareWith(mdl));
            QVERIFY(ghost);
            // Every point of the source shown (bodygroup choice 0: no hat) on a ghost point.
            const core::Model& src = *doc.primaryModel();
            float apart = 0;
            for (const std::uint32_t p : src.mesh.cornerPoints) {
                float best = 1e30f;
                for (const core::Vec3& g : ghost->mesh.pointPositions) {
                    best = std::min(best, (g - src.mesh.pointPositions[p]).norm());
                }
                apart = std::max(apart, best);
            }
            QVERIFY2(
                apart < 1e-3f,
                qPrintable(QStringLiteral("%1 apart (turned %2)").arg(double(apart)).arg(turned)));
        }
    }
    void rowsSelectWhatTheyName()
    {
        // Our sample model, decompiled (its QC compiles to it exactly, tst_decompile), then
        // edited: a bone no compiled model has and another fps for the sequence "walk".
        QTemporaryDir tmp;
        const QString mdl = writeDecompiledSample(tmp);
        QVERIFY(!mdl.isEmpty());
        const QString qc = tmp.filePath(QStringLiteral("src/sample.qc"));
        QFile f(qc);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        f.close();
        text += QStringLiteral("$definebone \"extra\" \"\" 0 0 5 0 0 0 0 0 0 0 0 0\n");
        const int walk = int(text.indexOf(QStringLiteral("\"walk\" \"anims/walk.smd\" fps ")));
        QVERIFY(walk >= 0);
        const int fps = int(text.indexOf(QStringLiteral("fps "), walk)) + 4;
        const int end = int(text.indexOf(QLatin1Char(' '), fps));
        const int eol = int(text.indexOf(QLatin1Char('\n'), fps));
        text.replace(fps, (end < 0 || end > eol ? eol : end) - fps, QStringLiteral("12"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
        f.close();

        app::Document doc;
        doc.open({qc});
        QVERIFY(doc.waitForLoaded());
        QVERIFY(doc.qcProject());
        // $modelname under a `models` folder beside the project's folder; an empty .mdl beside
        // the QC is passed over.
        QVERIFY(writeBytes(tmp.filePath(QStringLiteral("src/model.mdl")), std::string()));
        QCOMPARE(app::ComparePanel::findCompiled(*doc.qcProject()), mdl);

        app::OutlinePanel outline;
        outline.setDocument(&doc);
        app::ComparePanel panel;
        panel.setDocument(&doc);
        std::shared_ptr<const core::Model> ghost;
        keepGhost(panel, &ghost);
        QVERIFY(panel.compareWith(mdl));
        QVERIFY(ghost); // the compiled model drawn over the source
        QVERIFY(ghost->mesh.triangleCount() > 0);
        QTableWidget& t = *panel.table();
        QCOMPARE(std::size_t(t.rowCount()), panel.report().differences.size());
        QString fields;
        for (int r = 0; r < t.rowCount(); ++r) {
            fields += t.item(r, 0)->text() + QLatin1Char(' ');
        }
        // The bone count, the bone names, sequences[k].fps.
        QVERIFY2(t.rowCount() == 3, qPrintable(fields));
        const int bonesRow = rowOf(t, QStringLiteral("bones"));
        const int namesRow = rowOf(t, QStringLiteral("boneNames"));
        QVERIFY(bonesRow >= 0 && namesRow >= 0);
        int fpsRow = -1;
        for (int r = 0; r < t.rowCount(); ++r) {
            fpsRow = t.item(r, 0)->text().endsWith(QLatin1String(".fps")) ? r : fpsRow;
        }
        QVERIFY(fpsRow >= 0);
        // The project's files were written after the .mdl: every difference is `stale`.
        QCOMPARE(t.item(fpsRow, 3)->text(), QStringLiteral("stale"));
        // The summary says why, as `compare` does: the first reason, all of them in the tooltip.
        QVERIFY(!panel.report().staleReasons.empty());
        const QString why = QString::fromStdString(panel.report().staleReasons.front());
        QVERIFY2(why.contains(QLatin1String("is newer than")), qPrintable(why));
        QVERIFY2(panel.summary()->text().contains(QStringLiteral("Stale: ") + why),
                 qPrintable(panel.summary()->text()));
        QVERIFY(panel.summary()->toolTip().startsWith(why));
        // Leaving the file times out, the same three rows say `differs` and nothing is stale.
        panel.ignoreTimesBox()->setChecked(true);
        QCOMPARE(t.rowCount(), 3);
        QCOMPARE(t.item(fpsRow, 3)->text(), QStringLiteral("differs"));
        QVERIFY(panel.report().staleReasons.empty());
        QVERIFY2(!panel.summary()->text().contains(QLatin1String("Stale")),
                 qPrintable(panel.summary()->text()));
        panel.ignoreTimesBox()->setChecked(false);
        QCOMPARE(t.item(fpsRow, 3)->text(), QStringLiteral("stale"));

        const auto outlineSelection = [&outline]() {
            const QModelIndex current =
                outline.proxy()->mapToSource(outline.view()->currentIndex());
            return outline.model()->selectionFor(current);
        };
        t.selectRow(bonesRow);
        QCOMPARE(doc.selection().kind, app::Selection::Kind::Joint);
        const core::Skeleton& sk = doc.primaryModel()->skeleton;
        QCOMPARE(QString::fromStdString(sk.names[std::size_t(doc.selection().index)]),
                 QStringLiteral("extra"));
        QCOMPARE(outlineSelection(), doc.selection());
        doc.setSelection({});
        t.selectRow(namesRow);
        QCOMPARE(QString::fromStdString(sk.names[std::size_t(doc.selection().index)]),
                 QStringLiteral("extra"));

        t.selectRow(fpsRow);
        QCOMPARE(doc.selection().kind, app::Selection::Kind::Animation);
        QCOMPARE(doc.animations()[std::size_t(doc.selection().index)].name, QStringLiteral("walk"));
        QCOMPARE(outlineSelection(), doc.selection());

        panel.ghostBox()->setChecked(false);
        QVERIFY(!ghost);
    }
};

QTEST_MAIN(TstCompareWindow)
#include "tst_compare_window.moc"
