#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include <cmath>

#include "core/text/json_writer.h"

using rigscope::core::JsonWriter;

class TstJsonWriter : public QObject {
    Q_OBJECT
private slots:
    void nestedDocumentParses()
    {
        JsonWriter w;
        w.beginArray();
        w.beginObject().key("name").value("bone \"a\"\n\t").key("n").value(3).key("f").value(0.5f);
        w.key("empty").beginArray().endArray().key("obj").beginObject().endObject();
        w.key("nan").value(std::nanf("")).key("ok").value(true).endObject();
        w.endArray();
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(w.str()), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        const QJsonObject o = doc.array().at(0).toObject();
        QCOMPARE(o.value(QStringLiteral("name")).toString(), QStringLiteral("bone \"a\"\n\t"));
        QCOMPARE(o.value(QStringLiteral("n")).toInt(), 3);
        QCOMPARE(o.value(QStringLiteral("f")).toDouble(), 0.5);
        QVERIFY(o.value(QStringLiteral("nan")).isNull());
        QVERIFY(o.value(QStringLiteral("empty")).toArray().isEmpty());
    }
    void invalidUtf8BecomesLatin1()
    {
        JsonWriter w(false);
        w.beginArray().value(std::string("caf\xe9\x01", 5)).value("\xc3\xa9").endArray();
        QCOMPARE(QByteArray::fromStdString(w.str()),
                 QByteArray("[\"caf\\u00e9\\u0001\",\"\xc3\xa9\"]"));
    }
};

QTEST_APPLESS_MAIN(TstJsonWriter)
#include "tst_json_writer.moc"
