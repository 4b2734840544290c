// VMT reader (issue 18): KeyValues syntax, the keys of PROJECTS.md §3.2, conditional blocks,
// patch materials; fixtures/vmt/{valid,invalid}/*.vmt, located material.vmt-syntax errors in
// <case>.expected (none for valid cases).
#include <QtTest/QtTest>

#include "core/diag/diagnostic_ids.h"
#include "core/materials/keyvalues.h"
#include "core/materials/vmt.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString vmtDir()
{
    return test::fixturesDir() + QStringLiteral("/vmt");
}

// Reads fixtures/vmt/<sub>/<name>; includes ("materials/x.vmt") resolve under that folder and
// are named by that relative path in diagnostics.
Vmt readFixture(const QString& sub, const QString& name, std::vector<Diagnostic>& diags)
{
    const QString dir = vmtDir() + QLatin1Char('/') + sub;
    const std::string bytes = test::readBytes(dir + QLatin1Char('/') + name);
    VmtIncludeLoader loader = [dir](const std::string& inc) -> std::optional<IncludedFile> {
        const QString path = dir + QLatin1Char('/') + QString::fromStdString(inc);
        if (!QFileInfo::exists(path)) {
            return std::nullopt;
        }
        return IncludedFile{inc, test::readBytes(path)};
    };
    DiagnosticSink sink(name.toStdString());
    Vmt v = readVmt(std::as_bytes(std::span(bytes)), name.toStdString(), loader, sink);
    diags = sink.take();
    return v;
}

} // namespace

class TstVmt : public QObject {
    Q_OBJECT
private slots:
    void fixtures_data();
    void fixtures();
    void everyKey();
    void conditionals();
    void patch();
    void platformConditions();
    void normalisedNames();
    void hostileBytes();
};

void TstVmt::fixtures_data()
{
    QTest::addColumn<QString>("sub");
    QTest::addColumn<QString>("name");
    for (const QString& sub : {QStringLiteral("valid"), QStringLiteral("invalid")}) {
        const QDir dir(vmtDir() + QLatin1Char('/') + sub);
        for (const QString& n : dir.entryList({QStringLiteral("*.vmt")}, QDir::Files, QDir::Name)) {
            QTest::addRow("%s/%s", qPrintable(sub), qPrintable(n)) << sub << n;
        }
    }
}

void TstVmt::fixtures()
{
    QFETCH(QString, sub);
    QFETCH(QString, name);
    std::vector<Diagnostic> diags;
    const Vmt v = readFixture(sub, name, diags);
    const QStringList actual = test::formatted(diags);
    QCOMPARE(actual, test::expectedFor(vmtDir() + QLatin1Char('/') + sub + QLatin1Char('/') + name,
                                       actual));
    if (sub == QLatin1String("valid")) {
        QVERIFY(diags.empty());
        QVERIFY(v.readable);
    } else {
        QVERIFY(!diags.empty());
        for (const Diagnostic& d : diags) {
            QCOMPARE(d.id, ids::kMaterialVmtSyntax);
            QCOMPARE(d.severity, Severity::Error);
            QVERIFY(d.where.line >= 1);
        }
    }
}

void TstVmt::everyKey()
{
    std::vector<Diagnostic> diags;
    const Vmt v = readFixture(QStringLiteral("valid"), QStringLiteral("basic.vmt"), diags);
    QCOMPARE(v.shader, std::string("VertexLitGeneric"));
    QCOMPARE(v.params.size(), std::size_t(13)); // the repeated $BaseTexture is not one
    const VmtLook l = vmtLook(v);
    QCOMPARE(l.baseTexture, std::string("models/hero/body_d"));
    QCOMPARE(l.baseTexture2, std::string("models/hero/body_detail"));
    QCOMPARE(l.bumpMap, std::string("models/hero/body_n"));
    QVERIFY(l.translucent);
    QVERIFY(l.alphaTest);
    QCOMPARE(l.alphaTestReference, 0.35f);
    QVERIFY(!l.additive);
    QVERIFY(l.noCull);
    QVERIFY(l.selfIllum);
    QVERIFY(l.phong);
    QVERIFY(l.envMap);
    QCOMPARE(l.color[1], 0.5f);
    QCOMPARE(l.color[2], 0.25f);
    QCOMPARE(l.color2[0], 1.0f);
    QCOMPARE(l.color2[2], 0.0f);
    QCOMPARE(v.find("$nocull")->where.line, 11u);
    QCOMPARE(v.find("$nocull")->where.column, 2u);
}

void TstVmt::conditionals()
{
    std::vector<Diagnostic> diags;
    const Vmt v = readFixture(QStringLiteral("valid"), QStringLiteral("conditional.vmt"), diags);
    const VmtLook l = vmtLook(v);
    QCOMPARE(l.baseTexture, std::string("base/high")); // >=dx90 overrides, <dx90 skipped
    QVERIFY(l.noCull);
    QVERIFY(!l.alphaTest);           // [$X360]
    QVERIFY(l.translucent);          // [!$X360]
    QVERIFY(l.baseTexture2.empty()); // srgb? is off on a PC
    QCOMPARE(l.bumpMap, std::string("base/normal"));
    QVERIFY(l.phong);                       // GPU>=2
    QVERIFY(!v.find("animatedtexturevar")); // Proxies are not shader parameters
}

void TstVmt::patch()
{
    std::vector<Diagnostic> diags;
    const Vmt v = readFixture(QStringLiteral("valid"), QStringLiteral("patch.vmt"), diags);
    QVERIFY(diags.empty());
    QCOMPARE(v.shader, std::string("VertexLitGeneric"));
    QCOMPARE(v.includes, std::vector<std::string>{"materials/base/metal.vmt"});
    const VmtLook l = vmtLook(v);
    QCOMPARE(l.baseTexture, std::string("base/metal_dirty")); // replace
    QVERIFY(l.translucent);                                   // insert
    QVERIFY(!l.selfIllum); // replace only changes keys the base has
    QVERIFY(l.envMap);     // from the base
    QCOMPARE(v.find("$envmap")->file, std::string("materials/base/metal.vmt"));
    QCOMPARE(v.find("$basetexture")->file, std::string("patch.vmt"));
}

void TstVmt::platformConditions()
{
    QVERIFY(kvConditionHolds("$WIN32"));
    QVERIFY(kvConditionHolds("$WINDOWS"));
    QVERIFY(!kvConditionHolds("$X360"));
    QVERIFY(kvConditionHolds("!$X360"));
    QVERIFY(kvConditionHolds("$X360 || $WIN32"));
    QVERIFY(!kvConditionHolds("$X360 && $WIN32"));
    QVERIFY(!kvConditionHolds("$POSIX"));
}

void TstVmt::normalisedNames()
{
    QCOMPARE(normaliseMaterialPath("Models\\Hero//Body.VTF"), std::string("models/hero/body"));
    QCOMPARE(normaliseMaterialPath("/skin.bmp "), std::string("skin"));
    QCOMPARE(normaliseMaterialPath("dir.v2/skin"), std::string("dir.v2/skin"));
    QCOMPARE(normaliseMaterialPath(""), std::string());
}

void TstVmt::hostileBytes()
{
    // NUL bytes, a lone quote, 10^5 unmatched braces, a 1 MB key: errors, no crash, bounded.
    const std::string cases[] = {std::string("\0\0\0{\"", 5),
                                 std::string("\""),
                                 std::string(100000, '{'),
                                 std::string(100000, '}'),
                                 "\"a\" {" + std::string(1 << 20, 'k') + " v }",
                                 std::string("\xEF\xBB\xBF\"S\" { \"$basetexture\" x }"),
                                 std::string("[", 1),
                                 std::string("\"S\" { \"k\" \"v\" [$X360 }")};
    for (const std::string& c : cases) {
        DiagnosticSink sink("h.vmt");
        const Vmt v = readVmt(std::as_bytes(std::span(c)), "h.vmt", nullptr, sink);
        (void)v;
    }
    DiagnosticSink sink("bom.vmt");
    const std::string bom = "\xEF\xBB\xBF\"S\" { \"$basetexture\" x }";
    const Vmt v = readVmt(std::as_bytes(std::span(bom)), "bom.vmt", nullptr, sink);
    QVERIFY(sink.diagnostics().empty());
    QCOMPARE(v.shader, std::string("S"));
    QCOMPARE(v.value("$basetexture"), std::string("x"));
}

QTEST_APPLESS_MAIN(TstVmt)
#include "tst_vmt.moc"
