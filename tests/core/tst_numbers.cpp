#include <QtTest/QtTest>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "core/text/numbers.h"

using namespace rigscope::core;

namespace {

// Deterministic pseudo-random numbers for the randomised comparisons.
struct XorShift {
    std::uint64_t state;
    std::uint64_t operator()() noexcept
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
};

} // namespace

class TstNumbers : public QObject {
    Q_OBJECT
private slots:
    void parsesFloats_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<float>("value");
        QTest::newRow("int") << "1" << true << 1.0f;
        QTest::newRow("plus") << "+0.5" << true << 0.5f;
        QTest::newRow("neg") << "-2.25" << true << -2.25f;
        QTest::newRow("exp") << "1e-7" << true << 1e-7f;
        QTest::newRow("dot-leading") << ".5" << true << 0.5f;
        QTest::newRow("double-dot") << "1.0.0" << false << 0.0f;
        QTest::newRow("hex") << "0x10" << false << 0.0f;
        QTest::newRow("garbage") << "1a" << false << 0.0f;
        QTest::newRow("empty") << "" << false << 0.0f;
        QTest::newRow("plus-minus") << "+-1" << false << 0.0f;
        QTest::newRow("huge") << "1e999" << true << std::numeric_limits<float>::infinity();
        QTest::newRow("tiny") << "1e-999" << true << 0.0f;
        // Out of float's range but not double's: as strtof (studiomdl's sscanf). Fortress
        // Forever's SMDs hold normals like "1e-0050", which once read as infinity.
        QTest::newRow("underflow") << "1e-0050" << true << 0.0f;
        QTest::newRow("underflow-neg") << "-2e-0050" << true << -0.0f;
        QTest::newRow("subnormal") << "1e-40" << true << 1e-40f;
        QTest::newRow("overflow") << "1e39" << true << std::numeric_limits<float>::infinity();
        QTest::newRow("overflow-digits") << "1000000000000000000000000000000000000000" << true
                                         << std::numeric_limits<float>::infinity();
    }
    void parsesFloats()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(float, value);
        float v = 0;
        const std::string s = text.toStdString();
        QCOMPARE(parseFloat(s, v), ok);
        if (ok) {
            QCOMPARE(v, value);
        }
    }
    // Out of double's range: the magnitude of the text decides, not the exponent's sign.
    void parsesDoublesOutOfRange()
    {
        double v = 1;
        QVERIFY(parseDouble("0." + std::string(400, '0') + "1", v) && v == 0.0);
        QVERIFY(parseDouble("-1e-400", v) && v == 0.0 && std::signbit(v));
        QVERIFY(parseDouble("1" + std::string(400, '0'), v) && std::isinf(v) && v > 0);
        QVERIFY(parseDouble("0.001e312", v) && std::isinf(v));
    }
    void parsesNonFinite()
    {
        float v = 0;
        QVERIFY(parseFloat("NaN", v) && std::isnan(v));
        QVERIFY(parseFloat("-inf", v) && std::isinf(v) && v < 0);
        QVERIFY(parseFloat("Infinity", v) && std::isinf(v) && v > 0);
        QVERIFY(!parseFloat("nanx", v));
    }
    void parsesInts()
    {
        std::int32_t i = 0;
        QVERIFY(parseInt("+12", i) && i == 12);
        QVERIFY(parseInt("-1", i) && i == -1);
        QVERIFY(!parseInt("1.0", i));
        QVERIFY(!parseInt("2147483648", i));
        QVERIFY(parseInt("2147483647", i) && i == 2147483647);
    }
    // The fast decimal path must agree bit for bit with from_chars (correct rounding), including
    // the values whose double lands on a float midpoint.
    void fastPathMatchesFromChars()
    {
        XorShift next{0x2545F4914F6CDD1Dull};
        int checked = 0;
        for (int i = 0; i < 400000; ++i) {
            std::string s;
            if (next() % 2) {
                s += '-';
            }
            const int intDigits = int(next() % 9);
            const int fracDigits = int(next() % 9);
            for (int d = 0; d < intDigits; ++d) {
                s += char('0' + next() % 10);
            }
            if (fracDigits > 0 || intDigits == 0) {
                s += '.';
                for (int d = 0; d < std::max(fracDigits, 1); ++d) {
                    s += char('0' + next() % 10);
                }
            }
            float fast = 0, ref = 0;
            const bool ok = parseFloat(s, fast);
            const auto r = std::from_chars(s.data(), s.data() + s.size(), ref);
            QVERIFY2(ok == (r.ec == std::errc() && r.ptr == s.data() + s.size()), s.c_str());
            if (ok) {
                QVERIFY2(std::memcmp(&fast, &ref, sizeof fast) == 0, s.c_str());
                ++checked;
            }
        }
        QVERIFY(checked > 390000);
        // 16777217 = 2^24 + 1 is a float midpoint between 2^24 and 2^24 + 2: ties to even.
        float v = 0;
        QVERIFY(parseFloat("16777217", v));
        QCOMPARE(v, 16777216.0f);
        QVERIFY(parseFloat("16777217.000001", v));
        QCOMPARE(v, 16777218.0f);
        QVERIFY(parseFloat("-0.000000", v) && v == 0.0f && std::signbit(v));
    }
    // scanFloat / scanInt either decline or agree bit for bit with from_chars / parseInt on the
    // same token, for decimals, exponents, long digit strings, leading zeros and junk after.
    void scannersAgreeWithParsers()
    {
        XorShift next{0x9E3779B97F4A7C15ull};
        int taken = 0, intsTaken = 0;
        for (int i = 0; i < 300000; ++i) {
            std::string s;
            if (next() % 3 == 0) {
                s += '-';
            }
            const int intDigits = int(next() % 12);
            const int fracDigits = int(next() % 21);
            const int zeros = next() % 3 == 0 ? int(next() % 12) : 0; // leading zeros
            for (int d = 0; d < intDigits; ++d) {
                s += char('0' + next() % 10);
            }
            if (next() % 4 != 0) {
                s += '.';
                for (int d = 0; d < fracDigits; ++d) {
                    s += d < zeros ? '0' : char('0' + next() % 10);
                }
            }
            if (next() % 4 == 0) {
                s += (next() % 2) ? 'e' : 'E';
                const int sign = int(next() % 3);
                s += sign == 0 ? "" : sign == 1 ? "-" : "+";
                const int expDigits = int(next() % 4);
                for (int d = 0; d < expDigits; ++d) {
                    s += char('0' + next() % 10);
                }
            }
            const std::string tail = next() % 5 == 0 ? "x" : next() % 2 ? " 1" : "";
            std::string line = s;
            line += tail;
            float scanned = 0, parsed = 0;
            const char* end = scanFloat(line.data(), line.data() + line.size(), scanned);
            if (end) {
                // Against from_chars itself (parseFloat uses scanFloat).
                const std::string_view tok(line.data(),
                                           static_cast<std::size_t>(end - line.data()));
                const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), parsed);
                QVERIFY2(r.ec == std::errc() && r.ptr == tok.data() + tok.size(), line.c_str());
                QVERIFY2(std::memcmp(&scanned, &parsed, sizeof parsed) == 0, line.c_str());
                QCOMPARE(std::string(tok), s);
                ++taken;
            }
            std::int32_t si = 0, pi = 0;
            const char* iend = scanInt(line.data(), line.data() + line.size(), si);
            if (iend) {
                const std::string_view tok(line.data(),
                                           static_cast<std::size_t>(iend - line.data()));
                QVERIFY2(parseInt(tok, pi) && pi == si, line.c_str());
                ++intsTaken;
            }
        }
        QVERIFY(taken > 150000);
        QVERIFY(intsTaken > 10000);
        float v = 0;
        const std::string_view exp = "1.5e-005";
        QCOMPARE(scanFloat(exp.data(), exp.data() + exp.size(), v), exp.data() + exp.size());
        QCOMPARE(v, 1.5e-5f);
        const std::string_view neg0 = "-0.000000";
        QVERIFY(scanFloat(neg0.data(), neg0.data() + neg0.size(), v) && std::signbit(v));
        // Leading zeros do not count against the digits: 16 digits, 8 significant.
        const std::string_view lead = "0.000000017229468";
        QVERIFY(scanFloat(lead.data(), lead.data() + lead.size(), v));
        float ref = 0;
        QVERIFY(parseFloat(lead, ref) && std::memcmp(&v, &ref, 4) == 0);
        // Declined: 20 digits, above 2^53, nan, '+', a float midpoint, beyond 10^22.
        for (std::string_view d :
             {"12345678901.123456789", "9007199254740993", "nan", "+1", "16777217", "1e30", "."}) {
            QVERIFY2(!scanFloat(d.data(), d.data() + d.size(), v), std::string(d).c_str());
        }
        std::int32_t i = 0;
        for (std::string_view d : {"1234567890", "+1", "-", ""}) {
            QVERIFY2(!scanInt(d.data(), d.data() + d.size(), i), std::string(d).c_str());
        }
        const std::string_view big = "123456789";
        QVERIFY(scanInt(big.data(), big.data() + big.size(), i) && i == 123456789);
    }
    void formatsShortestFixed()
    {
        QCOMPARE(formatFloat(-0.0f), std::string("-0"));
        QCOMPARE(formatFloat(1.0f), std::string("1"));
        QCOMPARE(formatFloat(0.143489f), std::string("0.143489"));
        QCOMPARE(formatFloat(1e-7f), std::string("0.0000001"));
        QCOMPARE(formatFloat(std::numeric_limits<float>::infinity()), std::string("inf"));
        float back = 0;
        for (float f : {0.1f, 3.14159274f, -123456.789f, 1e-20f, 3.4e38f}) {
            QVERIFY(parseFloat(formatFloat(f), back));
            QCOMPARE(back, f);
        }
    }
};

QTEST_APPLESS_MAIN(TstNumbers)
#include "tst_numbers.moc"
