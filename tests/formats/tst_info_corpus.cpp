// rigscope-test: LABELS slow TIMEOUT 600
// `rigscope-cli info --json` on every corpus SMD / VTA against an independent reading written
// here with plain string handling (no core code): bones (distinct node ids), frames (distinct
// skeleton times), triangles and materials with their triangle counts (every fourth line of the
// triangles block), flex shapes (vertexanimation times after the base). The SMDX file is
// compared with its text twin.
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

struct Counts {
    std::set<long> boneIds;
    std::set<double> times;
    int triangles = 0;
    std::vector<std::pair<std::string, int>> materials; // first-seen order
    int vtaTimes = 0;
};

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

Counts countSmd(const std::string& text)
{
    Counts c;
    std::istringstream in(text);
    std::string raw;
    std::string block;
    int triLine = 0;
    while (std::getline(in, raw)) {
        const std::string line = trimmed(raw);
        if (line.empty() || (block != "triangles" && (line[0] == '#' || line[0] == ';')) ||
            line.rfind("//", 0) == 0) {
            continue;
        }
        std::istringstream ls(line);
        std::string first;
        ls >> first;
        if (block.empty()) {
            if (first == "nodes" || first == "skeleton" || first == "triangles" ||
                first == "vertexanimation") {
                block = first;
                triLine = 0;
            }
            continue;
        }
        if (first == "end" && (block != "triangles" || triLine % 4 == 0)) {
            block.clear();
            continue;
        }
        if (block == "nodes") {
            c.boneIds.insert(std::stol(first));
        } else if (block == "skeleton" && first == "time") {
            double t = 0;
            ls >> t;
            c.times.insert(t);
        } else if (block == "vertexanimation" && first == "time") {
            ++c.vtaTimes;
        } else if (block == "triangles") {
            if (triLine % 4 == 0) {
                ++c.triangles;
                auto it = std::find_if(c.materials.begin(), c.materials.end(),
                                       [&](const auto& m) { return m.first == line; });
                if (it == c.materials.end()) {
                    c.materials.emplace_back(line, 1);
                } else {
                    ++it->second;
                }
            }
            ++triLine;
        }
    }
    return c;
}

} // namespace

class TstInfoCorpus : public QObject {
    Q_OBJECT
private slots:
    void infoMatchesIndependentCounts_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("twin"); // the text file to count (itself, or an SMDX's twin)
        const QString corpus = test::corpusDir();
        if (corpus.isEmpty()) {
            QSKIP("shared corpus not present");
        }
        for (const QString& f :
             test::filesUnder(corpus, {QStringLiteral("smd"), QStringLiteral("vta")})) {
            if (QFileInfo(f).size() > 0) {
                QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f << f;
            }
        }
        QTest::newRow("rarecandy_idle.smdx")
            << corpus + QStringLiteral("/smdx/rarecandy_idle.smdx")
            << corpus + QStringLiteral("/smd/rarecandy_idle_converted_from_smdx.smd");
    }
    void infoMatchesIndependentCounts()
    {
        QFETCH(QString, path);
        QFETCH(QString, twin);
        const auto r = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).array().at(0).toObject();
        const Counts c = countSmd(test::readBytes(twin));
        QCOMPARE(o.value(QStringLiteral("bones")).toInt(), int(c.boneIds.size()));
        QCOMPARE(o.value(QStringLiteral("frames")).toInt(), int(c.times.size()));
        QCOMPARE(o.value(QStringLiteral("triangles")).toInt(), c.triangles);
        const QJsonArray mats = o.value(QStringLiteral("materials")).toArray();
        QCOMPARE(mats.size(), qsizetype(c.materials.size()));
        for (qsizetype i = 0; i < mats.size(); ++i) {
            const QJsonObject m = mats.at(i).toObject();
            QCOMPARE(m.value(QStringLiteral("name")).toString().toStdString(),
                     c.materials[std::size_t(i)].first);
            QCOMPARE(m.value(QStringLiteral("triangles")).toInt(),
                     c.materials[std::size_t(i)].second);
        }
        const int shapes = c.vtaTimes > 0 ? c.vtaTimes - 1 : 0;
        QCOMPARE(int(o.value(QStringLiteral("flexShapes")).toArray().size()), shapes);
    }
};

QTEST_APPLESS_MAIN(TstInfoCorpus)
#include "tst_info_corpus.moc"
