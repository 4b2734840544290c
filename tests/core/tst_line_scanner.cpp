// The text readers' line scanner (issue 16): LF, CRLF and bare CR end lines alike, lines never
// hold their terminator, columns and offsets are computed on request, and a copy restores a
// position.
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "core/text/line_scanner.h"

using namespace rigscope::core;

namespace {

struct Read {
    std::vector<std::string> lines;
    std::uint64_t lf = 0, crlf = 0, cr = 0;
    bool lastTerminated = true;
    bool numbersOk = true;
};

Read readAll(std::string_view text)
{
    Read r;
    LineScanner sc(text);
    while (sc.next()) {
        r.lines.emplace_back(sc.line());
        r.numbersOk = r.numbersOk && sc.lineNumber() == r.lines.size();
        r.lastTerminated = sc.terminated();
    }
    r.lf = sc.lfCount();
    r.crlf = sc.crlfCount();
    r.cr = sc.crCount();
    return r;
}

} // namespace

class TstLineScanner : public QObject {
    Q_OBJECT
private slots:
    void endings_data();
    void endings();
    void longLinesAndEveryTerminatorPosition();
    void bytesAreNotTerminators();
    void columnsAndOffsets();
    void copyRestores();
    void skipToAddsLines();
    void blanks();
};

void TstLineScanner::endings_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<int>("lf");
    QTest::addColumn<int>("crlf");
    QTest::addColumn<int>("cr");
    QTest::addColumn<bool>("terminated");
    const QStringList abc{QStringLiteral("a"), QStringLiteral("bb"), QStringLiteral("c")};
    QTest::newRow("empty") << QByteArray() << QStringList{} << 0 << 0 << 0 << true;
    QTest::newRow("lf") << QByteArray("a\nbb\nc\n") << abc << 3 << 0 << 0 << true;
    QTest::newRow("crlf") << QByteArray("a\r\nbb\r\nc\r\n") << abc << 0 << 3 << 0 << true;
    QTest::newRow("cr") << QByteArray("a\rbb\rc\r") << abc << 0 << 0 << 3 << true;
    QTest::newRow("mixed") << QByteArray("a\r\nbb\rc\n") << abc << 1 << 1 << 1 << true;
    QTest::newRow("no final newline") << QByteArray("a\nbb\nc") << abc << 2 << 0 << 0 << false;
    QTest::newRow("cr at the end") << QByteArray("a\r\nbb\r\nc\r") << abc << 0 << 2 << 1 << true;
    QTest::newRow("lf cr is two endings")
        << QByteArray("a\n\rbb\n")
        << QStringList{QStringLiteral("a"), QString(), QStringLiteral("bb")} << 2 << 0 << 1 << true;
    QTest::newRow("blank lines") << QByteArray("\n\r\n\r")
                                 << QStringList{QString(), QString(), QString()} << 1 << 1 << 1
                                 << true;
    QTest::newRow("only text") << QByteArray("x") << QStringList{QStringLiteral("x")} << 0 << 0 << 0
                               << false;
}

void TstLineScanner::endings()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, lines);
    const Read r =
        readAll(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    QStringList got;
    for (const std::string& l : r.lines) {
        got << QString::fromStdString(l);
    }
    QCOMPARE(got, lines);
    QVERIFY(r.numbersOk);
    QTEST(static_cast<int>(r.lf), "lf");
    QTEST(static_cast<int>(r.crlf), "crlf");
    QTEST(static_cast<int>(r.cr), "cr");
    QTEST(r.lastTerminated, "terminated");
}

// Terminators at every position of a 16-byte step, and lines of many steps.
void TstLineScanner::longLinesAndEveryTerminatorPosition()
{
    for (const char* nl : {"\n", "\r\n", "\r"}) {
        std::string text;
        std::vector<std::string> want;
        for (int len = 0; len < 70; ++len) {
            want.push_back(
                std::string(static_cast<std::size_t>(len), static_cast<char>('a' + len % 26)));
            text += want.back();
            text += nl;
        }
        want.push_back(std::string(1000, 'z'));
        text += want.back() + nl;
        const Read r = readAll(text);
        QCOMPARE(r.lines, want);
        const std::uint64_t n = want.size();
        QCOMPARE(r.lf + r.crlf + r.cr, n);
        QCOMPARE(std::string(nl) == "\n" ? r.lf : std::string(nl) == "\r\n" ? r.crlf : r.cr, n);
    }
}

// NUL, 0x80+ and other control bytes stay in the line: only CR and LF end one.
void TstLineScanner::bytesAreNotTerminators()
{
    const std::string text("a\0b\x0b\x0c\x85\xff\x0d\x0a"
                           "end",
                           12);
    const Read r = readAll(text);
    QCOMPARE(r.lines.size(), std::size_t(2));
    QCOMPARE(r.lines[0], std::string("a\0b\x0b\x0c\x85\xff", 7));
    QCOMPARE(r.lines[1], std::string("end"));
    QCOMPARE(r.crlf, std::uint64_t(1));
    QVERIFY(!r.lastTerminated);
}

void TstLineScanner::columnsAndOffsets()
{
    const std::string text = "version 1\r\n  nodes\r\n\t0 \"root\" -1\n";
    LineScanner sc(text);
    QVERIFY(sc.next());
    QCOMPARE(sc.column(sc.begin() + 8), 9u);
    QCOMPARE(sc.offset(sc.begin() + 8), std::uint64_t(8));
    QVERIFY(sc.next());
    QCOMPARE(sc.lineNumber(), 2u);
    const char* nodes = skipLineBlanks(sc.begin(), sc.end());
    QCOMPARE(sc.column(nodes), 3u);
    QCOMPARE(sc.offset(nodes), std::uint64_t(13));
    QCOMPARE(sc.line(), std::string_view("  nodes"));
    QVERIFY(sc.next());
    QCOMPARE(sc.column(sc.end()), 13u);
    QCOMPARE(sc.offset(sc.begin()), std::uint64_t(20));
    QVERIFY(sc.atEnd());
    QVERIFY(!sc.next());
    QCOMPARE(sc.lineNumber(), 3u);
    QCOMPARE(sc.line(), std::string_view("\t0 \"root\" -1")); // unchanged at the end

    // A scanner over part of a buffer: offsets count from the buffer, lines from lineBefore.
    const char* from = text.data() + 11;
    LineScanner part(text.data(), from, text.data() + text.size(), 1);
    QVERIFY(part.next());
    QCOMPARE(part.lineNumber(), 2u);
    QCOMPARE(part.offset(part.begin()), std::uint64_t(11));
    QCOMPARE(part.line(), std::string_view("  nodes"));
}

void TstLineScanner::copyRestores()
{
    const std::string text = "a\r\nb\nc\rd\n";
    LineScanner sc(text);
    QVERIFY(sc.next());
    const LineScanner saved = sc;
    QVERIFY(sc.next());
    QVERIFY(sc.next());
    QCOMPARE(sc.line(), std::string_view("c"));
    sc = saved;
    QCOMPARE(sc.line(), std::string_view("a"));
    QCOMPARE(sc.lineNumber(), 1u);
    QCOMPARE(sc.crlfCount(), std::uint64_t(1));
    QCOMPARE(sc.lfCount(), std::uint64_t(0)); // the lines stepped back over are not counted
    QVERIFY(sc.next());
    QCOMPARE(sc.line(), std::string_view("b"));
    QCOMPARE(sc.lfCount(), std::uint64_t(1));
}

void TstLineScanner::skipToAddsLines()
{
    const std::string text = "a\nb\r\nc\nd\n";
    LineScanner sc(text);
    QVERIFY(sc.next());
    sc.skipTo(text.data() + 7, 3, 1, 1, 0); // "b" and "c" read elsewhere
    QCOMPARE(sc.position(), text.data() + 7);
    QVERIFY(sc.next());
    QCOMPARE(sc.line(), std::string_view("d"));
    QCOMPARE(sc.lineNumber(), 4u);
    QCOMPARE(sc.lfCount(), std::uint64_t(3));
    QCOMPARE(sc.crlfCount(), std::uint64_t(1));
    QVERIFY(!sc.next());
}

void TstLineScanner::blanks()
{
    const std::string s = " \t\f\vx \r";
    QCOMPARE(skipLineBlanks(s.data(), s.data() + s.size()), s.data() + 4);
    QCOMPARE(skipLineBlanks(s.data(), s.data() + 3), s.data() + 3);
    QVERIFY(!isLineBlank('\r'));
    QVERIFY(!isLineBlank('\n'));
    QCOMPARE(findLineEnd(s.data(), s.data() + s.size()), s.data() + 6);
    QCOMPARE(findLineEnd(s.data(), s.data() + 5), s.data() + 5);
}

QTEST_APPLESS_MAIN(TstLineScanner)
#include "tst_line_scanner.moc"
