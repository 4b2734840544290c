// The SMD reader's memory (issue 27 item 10): reading a large triangles block faults in its
// arrays a huge page at a time where the kernel offers them with madvise, so the read's cost does
// not follow the host's price of a page fault; and the model is the same whatever the arrays'
// placement.
#include <QtCore/QFile>
#include <QtTest/QtTest>

#include <cstdio>
#include <string>

#include <sys/resource.h>

#include "core/formats/smd/smd_reader.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

// `tris` triangles, every corner different (nothing welds), 2 links each: ~330 bytes a triangle.
std::string randomSmd(std::size_t tris)
{
    std::string s = "version 1\nnodes\n0 \"root\" -1\n1 \"b1\" 0\nend\nskeleton\ntime 0\n"
                    "0 0 0 0 0 0 0\n1 0 0 1 0 0 0\nend\ntriangles\n";
    s.reserve(tris * 340 + 64);
    std::uint32_t x = 12345;
    auto next = [&x] {
        x = x * 1664525u + 1013904223u;
        return static_cast<double>(x >> 8) / double(1u << 24);
    };
    char line[256];
    for (std::size_t t = 0; t < tris; ++t) {
        s += "skin\n";
        for (int k = 0; k < 3; ++k) {
            const double w = next();
            const int n = std::snprintf(line, sizeof line,
                                        "0 %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f 2 0 %.6f 1 "
                                        "%.6f\n",
                                        next() * 100, next() * 100, next() * 100, next(), next(),
                                        next(), next(), next(), w, 1 - w);
            s.append(line, static_cast<std::size_t>(n));
        }
    }
    s += "end\n";
    return s;
}

long minorFaults()
{
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

bool hugePagesOnMadvise()
{
    QFile f(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    if (!f.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QByteArray mode = f.readAll();
    return mode.contains("[madvise]") || mode.contains("[always]");
}

} // namespace

class TstSmdMemory : public QObject {
    Q_OBJECT
private slots:
    // 90,000 triangles (~30 MB of text, ~31 MB of model arrays: ~7,600 pages of 4 KB) read in
    // two shares. Each array a mapping of its own faulted in 4 KB pages at its unaligned ends
    // (~5,000 faults here); one region of the heap in 2 MB pages takes a few hundred.
    void largeReadFaultsHugePages()
    {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("the sanitizer's allocator places the arrays");
#endif
#if !defined(__GLIBC__)
        QSKIP("the heap region is glibc's");
#endif
        if (!hugePagesOnMadvise()) {
            QSKIP("transparent huge pages are off on this host");
        }
        const std::size_t tris = 90000;
        const std::string text = randomSmd(tris);
        ReadContext ctx;
        ctx.fileName = "big.smd";
        ctx.threads = 2;
        const long before = minorFaults();
        const ReadResult r = readSmd(text, ctx);
        const long faults = minorFaults() - before;
        QVERIFY(r.hasModel);
        QCOMPARE(r.model.mesh.triangleCount(), tris);
        QCOMPARE(r.stats.parallelShares, 2u);
        QCOMPARE(r.model.mesh.influenceJoints.size(), 6 * tris);
        qInfo("%ld page faults reading %zu triangles", faults, tris);
        QVERIFY2(faults < 1500, qPrintable(QStringLiteral("%1 page faults").arg(faults)));
    }
};

QTEST_APPLESS_MAIN(TstSmdMemory)
#include "tst_smd_memory.moc"
