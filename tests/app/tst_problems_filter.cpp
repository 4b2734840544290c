// app/models/problems_filter: the Problems dock's filter over any model with ProblemsModel's
// columns and roles (severity toggles, one family, text over id, message and location).
#include <QtGui/QStandardItemModel>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>

#include "app/models/problems_filter.h"
#include "app/models/problems_model.h"

using namespace rigscope;
using app::ProblemsFilter;
using app::ProblemsModel;

namespace {

void addRow(QStandardItemModel& m, core::Severity s, const QString& id, const QString& message,
            const QString& location)
{
    QList<QStandardItem*> row;
    const std::string_view name = core::severityName(s);
    row << new QStandardItem(QString::fromLatin1(name.data(), qsizetype(name.size())))
        << new QStandardItem(id) << new QStandardItem(message) << new QStandardItem(location);
    row[0]->setData(int(s), ProblemsModel::SeverityRole);
    row[0]->setData(id.section(QLatin1Char('.'), 0, 0), ProblemsModel::FamilyRole);
    m.appendRow(row);
}

QStringList ids(const ProblemsFilter& f)
{
    QStringList out;
    for (int r = 0; r < f.rowCount(); ++r) {
        out << f.index(r, ProblemsModel::IdColumn).data().toString();
    }
    return out;
}

} // namespace

class TstProblemsFilter : public QObject {
    Q_OBJECT
private slots:
    void filters()
    {
        QStandardItemModel source(0, ProblemsModel::ColumnCount);
        addRow(source, core::Severity::Error, QStringLiteral("weights.nan"),
               QStringLiteral("weight is NaN"), QStringLiteral("a.smd:12:3"));
        addRow(source, core::Severity::Warning, QStringLiteral("weights.too-many-links"),
               QStringLiteral("5 links"), QStringLiteral("a.smd:40:1"));
        addRow(source, core::Severity::Note, QStringLiteral("mesh.degenerate-triangle"),
               QStringLiteral("zero area"), QStringLiteral("b.smd:7:1"));
        ProblemsFilter f;
        QAbstractItemModelTester tester(&f, QAbstractItemModelTester::FailureReportingMode::QtTest);
        f.setSourceModel(&source);
        QCOMPARE(f.rowCount(), 3);
        QCOMPARE(f.sortRole(), int(ProblemsModel::SortRole));

        f.setSeverityVisible(core::Severity::Note, false);
        QVERIFY(!f.isSeverityVisible(core::Severity::Note));
        QCOMPARE(ids(f), (QStringList{QStringLiteral("weights.nan"),
                                      QStringLiteral("weights.too-many-links")}));
        f.setSeverityVisible(core::Severity::Note, true);

        f.setFamily(QStringLiteral("mesh"));
        QCOMPARE(f.family(), QStringLiteral("mesh"));
        QCOMPARE(ids(f), QStringList{QStringLiteral("mesh.degenerate-triangle")});
        f.setFamily({});

        // Text: case-insensitive over id, message and location, never the severity column.
        f.setText(QStringLiteral("  B.SMD "));
        QCOMPARE(ids(f), QStringList{QStringLiteral("mesh.degenerate-triangle")});
        f.setText(QStringLiteral("links"));
        QCOMPARE(ids(f), QStringList{QStringLiteral("weights.too-many-links")});
        f.setText(QStringLiteral("error"));
        QCOMPARE(f.rowCount(), 0);
        f.setText({});
        f.setSeverityVisible(core::Severity::Error, false);
        f.setSeverityVisible(core::Severity::Warning, false);
        QCOMPARE(ids(f), QStringList{QStringLiteral("mesh.degenerate-triangle")});
    }
};

QTEST_MAIN(TstProblemsFilter)
#include "tst_problems_filter.moc"
