// rigscope-test: LABELS slow; TIMEOUT 900
// Hostile inputs (issue 8) for every reader, generated in memory: 2^31 counts in SMDX / *_BIN
// headers, an LZ4 header claiming 4 GB, a 64 MB line, 100k-deep parent chains and cycles, NUL
// bytes and invalid UTF-8 in names, 1e999 / nan / -0, 10^6 materials, VTA ids of 2^31, huge
// CoD indices and frame numbers, and every truncation at block boundaries of valid files. Each
// case must give its CHECKS.md id in bounded time with no allocation beyond what the bytes can
// describe; every check then runs over what the reader returned.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include <QtCore/QElapsedTimer>
#include <QtTest/QtTest>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/registry.h"
#include "core/formats/xbin/xbin_tokens.h"
#include "core/materials/vmt.h"
#include "core/materials/dds.h"
#include "core/materials/vtf.h"
#include "core/ops/check.h"
#include "core/ops/qc_ops.h"
#include "tests/support/test_support.h"

#include "tests/support/alloc_probe.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

constexpr std::size_t kSmallAlloc = std::size_t{1} << 20;

// Time budgets are for optimised builds; sanitizer builds (-O0 + ASan) get ten times as much.
#if defined(__SANITIZE_ADDRESS__)
constexpr qint64 kSlowdown = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr qint64 kSlowdown = 10;
#else
constexpr qint64 kSlowdown = 1;
#endif
#else
constexpr qint64 kSlowdown = 1;
#endif

struct Outcome {
    ReadResult read;
    std::vector<Diagnostic> checked; // reader diagnostics + every check (auto profile)
    std::size_t largestAlloc = 0;    // during the read
    qint64 readMs = 0, checkMs = 0;
    std::string summary() const
    {
        std::string s;
        std::size_t n = 0;
        for (const Diagnostic& d : checked) {
            if (++n > 12) {
                s += " ...";
                break;
            }
            s += " [" + std::string(d.id) + "] " + d.message.substr(0, 80) + ";";
        }
        return s;
    }
    bool has(std::string_view id) const
    {
        for (const Diagnostic& d : checked) {
            if (d.id == id) {
                return true;
            }
        }
        return false;
    }
};

// Reads through the registry (detection included, as the CLI does), verifies the model's
// invariants, then runs every check alone and against the model itself as the reference.
Outcome readAndCheck(std::string_view bytes, const std::string& name, bool againstItself = true)
{
    Outcome o;
    ReadContext ctx;
    ctx.fileName = name;
    QElapsedTimer t;
    t.start();
    g_largestAlloc = 0;
    o.read = readAny(bytes, ctx);
    o.largestAlloc = g_largestAlloc.load();
    o.readMs = t.restart();
    CheckOptions opt;
    opt.jobs = 1;
    CheckedFile c = checkReadResult(name, o.read, nullptr, std::string(), opt);
    if (againstItself && o.read.hasModel) {
        (void)checkReadResult(name, o.read, &o.read.model, name, opt);
    }
    o.checkMs = t.elapsed();
    o.checked = std::move(c.diagnostics);
    return o;
}

#define VERIFY_SANE(o, budgetMs)                                                                   \
    do {                                                                                           \
        const std::string broken_ = verifyInvariants((o).read.model);                              \
        QVERIFY2(broken_.empty(), broken_.c_str());                                                \
        QVERIFY2(                                                                                  \
            (o).readMs + (o).checkMs < (budgetMs)*kSlowdown,                                       \
            qPrintable(                                                                            \
                QStringLiteral("read %1 ms, checks %2 ms").arg((o).readMs).arg((o).checkMs)));     \
    } while (false)

#define VERIFY_ID(o, id)                                                                           \
    QVERIFY2((o).has(id), qPrintable(QStringLiteral("expected [%1]; got%2")                        \
                                         .arg(QLatin1String(id))                                   \
                                         .arg(QString::fromStdString((o).summary()))))

#define VERIFY_SMALL(o)                                                                            \
    QVERIFY2((o).largestAlloc < kSmallAlloc,                                                       \
             qPrintable(QStringLiteral("largest allocation %1 bytes").arg((o).largestAlloc)))

// msgpack encoder for hand-made SMDX layouts.
struct Pack {
    std::string b;
    Pack& raw(std::string_view s)
    {
        b += s;
        return *this;
    }
    Pack& u8(unsigned v)
    {
        b += static_cast<char>(v & 0xFF);
        return *this;
    }
    Pack& i(std::int64_t v)
    {
        if (v >= 0 && v <= 127) {
            return u8(static_cast<unsigned>(v));
        }
        u8(0xD2);
        const auto u = static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
        return u8(u >> 24).u8(u >> 16).u8(u >> 8).u8(u);
    }
    Pack& f(float v)
    {
        std::uint32_t u = 0;
        std::memcpy(&u, &v, 4);
        return u8(0xCA).u8(u >> 24).u8(u >> 16).u8(u >> 8).u8(u);
    }
    Pack& s(std::string_view t)
    {
        u8(0xA0 | static_cast<unsigned>(t.size()));
        return raw(t);
    }
};

// Little-endian *_BIN token stream (FORMATS.md §5.2).
struct Tokens {
    std::string b;
    Tokens& le(std::uint32_t v, int n)
    {
        for (int k = 0; k < n; ++k) {
            b += static_cast<char>((v >> (8 * k)) & 0xFF);
        }
        return *this;
    }
    Tokens& hash(std::string_view name, xbin::TokenType t)
    {
        return le(xbin::codHash(name, static_cast<std::uint16_t>(t)), 2);
    }
    Tokens& section(std::string_view n) { return hash(n, xbin::TokenType::Section).le(0, 2); }
    Tokens& ushort(std::string_view n, std::uint16_t v)
    {
        return hash(n, xbin::TokenType::UShort).le(v, 2);
    }
    Tokens& int32(std::string_view n, std::uint32_t v)
    {
        return hash(n, xbin::TokenType::Int).le(0, 2).le(v, 4);
    }
    Tokens& uint32(std::string_view n, std::uint32_t v)
    {
        return hash(n, xbin::TokenType::UInt).le(0, 2).le(v, 4);
    }
    Tokens& cstr(std::string_view s, std::size_t tokenStart)
    {
        b += s;
        b += '\0';
        while ((b.size() - tokenStart) % 4 != 0) {
            b += '\0';
        }
        return *this;
    }
    Tokens& boneInfo(std::int32_t index, std::int32_t parent, std::string_view name)
    {
        const std::size_t start = b.size();
        hash("BONE", xbin::TokenType::BoneInfo).le(0, 2);
        le(static_cast<std::uint32_t>(index), 4).le(static_cast<std::uint32_t>(parent), 4);
        return cstr(name, start);
    }
    Tokens& ushortString(std::string_view n, std::uint16_t index, std::string_view s)
    {
        const std::size_t start = b.size();
        hash(n, xbin::TokenType::UShortString).le(index, 2);
        return cstr(s, start);
    }
};

// A v6 XMODEL_EXPORT with `bones` bones: bone i's parent comes from parentOf(i).
template <typename ParentOf> std::string xmodelBones(std::size_t bones, ParentOf parentOf)
{
    std::string s = "MODEL\nVERSION 6\n\nNUMBONES " + std::to_string(bones) + "\n";
    for (std::size_t i = 0; i < bones; ++i) {
        s += "BONE " + std::to_string(i) + " " + std::to_string(parentOf(i)) + " \"b" +
             std::to_string(i) + "\"\n";
    }
    for (std::size_t i = 0; i < bones; ++i) {
        s += "\nBONE " + std::to_string(i) +
             "\nOFFSET 0, 1, 0\nSCALE 1, 1, 1\nX 1, 0, 0\nY 0, 1, 0\nZ 0, 0, 1\n";
    }
    s += "\nNUMVERTS 0\nNUMFACES 0\nNUMOBJECTS 0\nNUMMATERIALS 0\n";
    return s;
}

// An SMD reference with `bones` bones (parents from parentOf) and one triangle on bone 0.
template <typename ParentOf> std::string smdBones(std::size_t bones, ParentOf parentOf)
{
    std::string s = "version 1\nnodes\n";
    for (std::size_t i = 0; i < bones; ++i) {
        s += std::to_string(i) + " \"b" + std::to_string(i) + "\" " + std::to_string(parentOf(i)) +
             "\n";
    }
    s += "end\nskeleton\ntime 0\n";
    for (std::size_t i = 0; i < bones; ++i) {
        s += std::to_string(i) + " 0 1 0 0 0 0\n";
    }
    s += "end\ntriangles\nm\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
    return s;
}

const char* const kValidSmd = "version 1\n"
                              "nodes\n"
                              "0 \"root\" -1\n"
                              "1 \"arm\" 0\n"
                              "end\n"
                              "skeleton\n"
                              "time 0\n"
                              "0 0 0 0 0 0 0\n"
                              "1 1 0 0 0 0 0\n"
                              "end\n"
                              "triangles\n"
                              "skin.tga\n"
                              "0 0 0 0 0 0 1 0 0 1 1 1.0\n"
                              "1 1 0 0 0 0 1 1 0 1 1 1.0\n"
                              "0 0 1 0 0 0 1 0 1 1 1 1.0\n"
                              "end\n";

} // namespace

class TstHostile : public QObject {
    Q_OBJECT

private slots:
    void smdxCounts2p31();
    void xbinCounts2p31();
    void lz4Claims4GB();
    void longLine64MB();
    void deepParentChain();
    void parentCycle();
    void nulAndInvalidUtf8Names();
    void hostileNumbers();
    void millionMaterials();
    void vtaIds2p31();
    void codHugeIndices();
    void truncationsAtBlockBoundaries();
    void materialFiles();
    void dmxCounts2p31();
    void dmxCyclesAndNesting();
    void qcScripts(); // issue 17
};

void TstHostile::smdxCounts2p31()
{
    const std::string head("SMDX\x01", 5);
    const std::string counts[] = {
        std::string("\xCE\x80\x00\x00\x00", 5), // uint32 2^31
        std::string("\xCE\xFF\xFF\xFF\xFF", 5), // uint32 2^32-1
        std::string("\xD2\x80\x00\x00\x00", 5), // int32 -2^31
        std::string("\xDD\x80\x00\x00\x00", 5), // array32 of 2^31 elements
        std::string("\xDB\x80\x00\x00\x00", 5), // str32 of 2^31 bytes
    };
    const std::string prefixes[] = {
        head,                                       // block count
        head + Pack().i(1).i(0).b,                  // node count
        head + Pack().i(1).i(0).i(1).i(0).b,        // node name length
        head + Pack().i(1).i(1).b,                  // skeleton frames
        head + Pack().i(1).i(2).b,                  // material count
        head + Pack().i(1).i(2).i(1).s("m").i(0).b, // triangle count (after materials)
        head + Pack().i(1).i(3).b,                  // vertexanimation frames
    };
    for (const std::string& p : prefixes) {
        for (const std::string& c : counts) {
            const std::string bytes = p + c + std::string(32, '\0');
            const Outcome o = readAndCheck(bytes, "hostile.smdx");
            // a length past the end reads as a cut value (syntax.truncated), a count as corrupt
            QVERIFY2(o.has(ids::kSyntaxSmdxCorrupt) || o.has(ids::kSyntaxTruncated),
                     o.summary().c_str());
            VERIFY_SMALL(o);
            VERIFY_SANE(o, 5000);
        }
    }
}

void TstHostile::xbinCounts2p31()
{
    // Model: NUMBONES 65535 with one bone, NUMVERTS32 / NUMFACES 2^31-1 with no records, a
    // BONE(BoneInfo) index of 2^31-1 and a UV set claiming 65535 pairs at the end.
    Tokens m;
    m.section("MODEL").ushort("VERSION", 7).ushort("NUMBONES", 0xFFFF);
    m.boneInfo(0, -1, "root").boneInfo(0x7FFFFFFF, 0, "far");
    m.int32("NUMVERTS32", 0x7FFFFFFF).int32("NUMFACES", 0x7FFFFFFF);
    m.int32("NUMVERTS32", 0x80000000);
    {
        const Outcome o = readAndCheck(xbin::wrapContainer(m.b), "hostile.xmodel_bin");
        VERIFY_ID(o, ids::kCodCountMismatch);
        VERIFY_ID(o, ids::kCodIndexRange);
        VERIFY_SMALL(o);
        VERIFY_SANE(o, 5000);
    }
    Tokens uv = m;
    uv.hash("UV", xbin::TokenType::UVSet).le(0xFFFF, 2);
    {
        const Outcome o = readAndCheck(xbin::wrapContainer(uv.b), "hostile.xmodel_bin");
        VERIFY_ID(o, ids::kSyntaxBinCorrupt);
        VERIFY_SMALL(o);
        VERIFY_SANE(o, 5000);
    }
    // Anim: NUMPARTS 65535, a PART index of 65535, NUMFRAMES 2^31-1, FRAME 0 then 2^31-1.
    Tokens a;
    a.section("ANIMATION").ushort("VERSION", 3).ushort("NUMPARTS", 0xFFFF);
    a.ushortString("PART", 0, "tag_origin").ushortString("PART", 0xFFFF, "far");
    a.ushort("FRAMERATE", 30).int32("NUMFRAMES", 0x7FFFFFFF);
    a.uint32("FRAME", 0).ushort("PART", 0);
    a.uint32("FRAME", 0x7FFFFFFF).ushort("PART", 0);
    a.uint32("FRAME", 0xFFFFFFFF).ushort("PART", 0);
    {
        const Outcome o = readAndCheck(xbin::wrapContainer(a.b), "hostile.xanim_bin");
        VERIFY_ID(o, ids::kCodCountMismatch);
        VERIFY_SMALL(o);
        VERIFY_SANE(o, 5000);
    }
}

void TstHostile::lz4Claims4GB()
{
    for (const std::uint32_t claim : {0xFFFFFFFFu, 0x80000000u, 0x40000000u, 0x40000001u, 0u}) {
        std::string bytes = "*LZ4*";
        for (int k = 0; k < 4; ++k) {
            bytes += static_cast<char>((claim >> (8 * k)) & 0xFF);
        }
        bytes += std::string("\xF0\x00\x00\x00", 4) + std::string(60, 'A'); // one literal run
        for (const char* name : {"big.xmodel_bin", "big.xanim_bin"}) {
            const Outcome o = readAndCheck(bytes, name);
            VERIFY_ID(o, ids::kSyntaxBinCorrupt);
            VERIFY_SMALL(o);
            VERIFY_SANE(o, 2000);
        }
    }
}

void TstHostile::longLine64MB()
{
    constexpr std::size_t kLine = std::size_t{64} << 20;
    const std::string line(kLine, 'a');
    struct Case {
        std::string bytes;
        const char* name;
        std::string_view id;
    };
    const Case cases[] = {
        {line, "one_line.smd", ids::kSkeletonNoBones},
        {"version 1\nnodes\n0 \"" + line + "\" -1\nend\n", "long_name.smd",
         ids::kSkeletonNameLength},
        {"version 1\nnodes\n0 \"r\" -1\nend\nskeleton\ntime 0\n0 " + line + " 0 0 0 0 0\nend\n",
         "long_number.smd", ids::kSyntaxBadNumber},
        {line + "\n", "one_line.vta", ids::kSyntaxBadVersion},
        {"MODEL\nVERSION 6\n" + line, "one_line.xmodel_export", ids::kSyntaxUnknownBlock},
        {"ANIMATION\nVERSION 3\nNUMPARTS " + line, "one_line.xanim_export", ids::kSyntaxBadNumber},
        {"NUMFRAMES 1\n" + line, "one_line.NT_EXPORT", ids::kSyntaxUnknownBlock},
    };
    for (const Case& c : cases) {
        const Outcome o = readAndCheck(c.bytes, c.name);
        QVERIFY2(o.largestAlloc <= 3 * c.bytes.size(), c.name);
        VERIFY_ID(o, c.id);
        VERIFY_SANE(o, 60000);
    }
}

void TstHostile::deepParentChain()
{
    constexpr std::size_t kBones = 100000;
    const auto chain = [](std::size_t i) { return static_cast<std::int64_t>(i) - 1; };
    {
        const Outcome o = readAndCheck(smdBones(kBones, chain), "chain.smd");
        QCOMPARE(o.read.model.skeleton.names.size(), kBones);
        VERIFY_ID(o, ids::kSkeletonBoneLimit);
        VERIFY_ID(o, ids::kSkeletonBoneIdRange); // ids >= 512
        VERIFY_SANE(o, 60000);
    }
    {
        const Outcome o = readAndCheck(xmodelBones(kBones, chain), "chain.xmodel_export");
        QCOMPARE(o.read.model.skeleton.names.size(), kBones);
        VERIFY_SANE(o, 60000);
    }
}

void TstHostile::parentCycle()
{
    constexpr std::size_t kBones = 100000;
    // One big loop (0 -> n-1 -> n-2 ... -> 0) and a self-parent.
    const auto loop = [](std::size_t i) {
        return static_cast<std::int64_t>(i == 0 ? kBones - 1 : i - 1);
    };
    for (const auto& [bytes, name] :
         {std::pair{smdBones(kBones, loop), "loop.smd"},
          std::pair{xmodelBones(kBones, loop), "loop.xmodel_export"},
          std::pair{smdBones(3, [](std::size_t i) { return std::int64_t(i); }), "self.smd"},
          std::pair{xmodelBones(3, [](std::size_t i) { return i == 0 ? -1 : std::int64_t(i); }),
                    "self.xmodel_export"}}) {
        const Outcome o = readAndCheck(bytes, name);
        VERIFY_ID(o, ids::kSkeletonCycle);
        VERIFY_SANE(o, 60000);
    }
}

void TstHostile::nulAndInvalidUtf8Names()
{
    const std::string bad[] = {std::string("a\0b", 3), "a\xFF\xFE", "\xC3", "\xED\xA0\x80",
                               "\xF4\x90\x80\x80"};
    for (const std::string& n : bad) {
        const bool nul = n.find('\0') != std::string::npos;
        const std::string smd =
            "version 1\nnodes\n0 \"" + n +
            "\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
            "triangles\n" +
            n + ".tga\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
        const Outcome s = readAndCheck(smd, "names.smd");
        VERIFY_ID(s, ids::kSyntaxNonAscii);
        VERIFY_SANE(s, 2000);
        const std::string xm = "MODEL\nVERSION 6\nNUMBONES 1\nBONE 0 -1 \"" + n +
                               "\"\nNUMMATERIALS 1\n"
                               "MATERIAL 0 \"" +
                               n + "\" \"Lambert\" \"" + n + ".tga\"\n";
        const Outcome x = readAndCheck(xm, "names.xmodel_export");
        VERIFY_ID(x, ids::kSyntaxNonAscii);
        VERIFY_SANE(x, 2000);
        const std::string xa = "ANIMATION\nVERSION 3\nNUMPARTS 1\nPART 0 \"" + n +
                               "\"\nFRAMERATE 30\nNUMFRAMES 1\n"
                               "FRAME 0\nPART 0\nOFFSET 0 0 0\nX 1 0 0\nY 0 1 0\nZ 0 0 1\n";
        const Outcome a = readAndCheck(xa, "names.xanim_export");
        VERIFY_ID(a, ids::kSyntaxNonAscii);
        VERIFY_SANE(a, 2000);
        Tokens t;
        t.section("MODEL").ushort("VERSION", 7).ushort("NUMBONES", 1).boneInfo(0, -1, n);
        const Outcome b = readAndCheck(xbin::wrapContainer(t.b), "names.xmodel_bin");
        if (nul) { // a binary string ends at its NUL: the name is cut there
            QCOMPARE(b.read.model.skeleton.names.front(), std::string("a"));
        } else {
            VERIFY_ID(b, ids::kSyntaxNonAscii);
        }
        VERIFY_SANE(b, 2000);
    }
}

void TstHostile::hostileNumbers()
{
    struct Case {
        const char* value;
        std::string_view smdId; // expected for an SMD position; empty: no diagnostic
    };
    // Out-of-range literals read as +-inf and are reported like a parsed inf (HOUSE_STYLE §6).
    const Case cases[] = {
        {"1e999", ids::kMeshNan}, {"-1e999", ids::kMeshNan},       {"nan", ids::kMeshNan},
        {"-nan", ids::kMeshNan},  {"inf", ids::kMeshNan},          {"-0", {}},
        {"1e-999", {}},           {"0x10", ids::kSyntaxBadNumber}, {"+-1", ids::kSyntaxBadNumber}};
    for (const Case& c : cases) {
        const std::string v = c.value;
        std::string smd = kValidSmd;
        smd.replace(smd.find("1 0 0 1 1 1.0"), 1, v); // a vertex's normal x
        const Outcome s = readAndCheck(smd, "numbers.smd");
        if (c.smdId.empty()) {
            QVERIFY2(!s.read.hasErrors(), c.value);
        } else {
            VERIFY_ID(s, c.smdId);
        }
        VERIFY_SANE(s, 2000);
        // The same value as a weight, a bone position, a time and an id.
        for (const char* pattern : {"1 1.0\n", "0 0 0 0 0 0 0\n", "time 0\n", "1 \"arm\""}) {
            std::string t = kValidSmd;
            const std::size_t at = t.find(pattern);
            const std::size_t digit = t.find_first_of("01", at + (pattern[0] == 't' ? 5 : 0));
            t.replace(digit, 1, v);
            const Outcome o = readAndCheck(t, "numbers.smd");
            QVERIFY2(!o.checked.empty() || v == "-0" || v == "1e-999",
                     (v + " in " + pattern).c_str());
            VERIFY_SANE(o, 2000);
        }
        const std::string xa = "ANIMATION\nVERSION 3\nNUMPARTS 1\nPART 0 \"root\"\nFRAMERATE " + v +
                               "\nNUMFRAMES 1\nFRAME 0\nPART 0\nOFFSET " + v +
                               " 0 0\nX 1 0 0\nY 0 1 0\nZ 0 0 1\n";
        const Outcome a = readAndCheck(xa, "numbers.xanim_export");
        QVERIFY2(!a.checked.empty() || v == "-0" || v == "1e-999", c.value);
        VERIFY_SANE(a, 2000);
        const std::string xm = "MODEL\nVERSION 6\nNUMBONES 1\nBONE 0 -1 \"root\"\nBONE 0\nOFFSET " +
                               v + ", 0, 0\nSCALE 1, 1, 1\nX 1, 0, 0\nY 0, 1, 0\nZ 0, 0, " + v +
                               "\n";
        const Outcome x = readAndCheck(xm, "numbers.xmodel_export");
        QVERIFY2(!x.checked.empty(), c.value);
        VERIFY_SANE(x, 2000);
    }
}

void TstHostile::millionMaterials()
{
    constexpr std::size_t kMaterials = 1000000;
    std::string smd =
        "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n";
    smd.reserve(kMaterials * 64);
    for (std::size_t i = 0; i < kMaterials; ++i) {
        smd += 'm';
        smd += std::to_string(i);
        smd += "\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n";
    }
    smd += "end\n";
    const Outcome o = readAndCheck(smd, "materials.smd", false);
    QCOMPARE(o.read.model.mesh.materials.size(), kMaterials);
    VERIFY_ID(o, ids::kMeshMaterialLimit);
    VERIFY_SANE(o, 120000);

    std::string xm = "MODEL\nVERSION 6\nNUMBONES 1\nBONE 0 -1 \"root\"\nNUMMATERIALS " +
                     std::to_string(kMaterials) + "\n";
    for (std::size_t i = 0; i < kMaterials; ++i) {
        xm += "MATERIAL " + std::to_string(i) + " \"m\" \"Lambert\" \"m.tga\"\n";
    }
    const Outcome x = readAndCheck(xm, "materials.xmodel_export", false);
    VERIFY_SANE(x, 120000);
}

void TstHostile::vtaIds2p31()
{
    for (const char* id :
         {"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296"}) {
        const std::string vta =
            std::string("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\ntime 1\nend\n"
                        "vertexanimation\ntime 0\n0 0 0 0 0 0 1\n") +
            id + " 1 0 0 0 0 1\ntime 1\n" + id + " 2 0 0 0 0 1\nend\n";
        const Outcome o = readAndCheck(vta, "ids.vta");
        const std::string_view v(id);
        VERIFY_ID(o, v == "2147483647"    ? ids::kFlexFirstShapeIncomplete
                     : v == "-2147483648" ? ids::kFlexVertexIdOutOfRange
                                          : ids::kSyntaxBadNumber);
        VERIFY_SMALL(o);
        VERIFY_SANE(o, 2000);
    }
    // SMD node and link ids of 2^31 - 1 and 2^31.
    for (const char* id : {"2147483647", "2147483648", "-2147483648"}) {
        const std::string smd = std::string("version 1\nnodes\n") + id +
                                " \"far\" -1\nend\nskeleton\ntime 0\n" + id +
                                " 0 0 0 0 0 0\nend\ntriangles\nm\n0 0 0 0 0 0 1 0 0 1 " + id +
                                " 1\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
        const Outcome o = readAndCheck(smd, "ids.smd");
        QVERIFY2(o.read.hasErrors(), id);
        VERIFY_SMALL(o);
        VERIFY_SANE(o, 2000);
    }
}

void TstHostile::codHugeIndices()
{
    // Indices past every count (no NUM* lines to bound them): nothing may be sized from them.
    const std::string xm =
        "MODEL\nVERSION 7\nBONE 2147483647 -1 \"far\"\nVERT32 2147483647\nOFFSET 0, 0, 0\n"
        "BONES 1\nBONE 2147483647 1\nNUMFACES 1\nTRI16 2147483647 2147483647 0 0\n"
        "OBJECT 2147483647 \"o\"\nMATERIAL 2147483647 \"m\" \"Lambert\" \"m.tga\"\n";
    const Outcome x = readAndCheck(xm, "indices.xmodel_export");
    VERIFY_ID(x, ids::kCodIndexRange);
    VERIFY_SMALL(x);
    VERIFY_SANE(x, 2000);
    // Frame numbers that span 2^31 (gaps are reported, not filled).
    const std::string xa =
        "ANIMATION\nVERSION 3\nNUMPARTS 1\nPART 0 \"root\"\nFRAMERATE 30\nNUMFRAMES 2147483647\n"
        "FRAME -2147483648\nPART 0\nOFFSET 0 0 0\nX 1 0 0\nY 0 1 0\nZ 0 0 1\n"
        "FRAME 2147483647\nPART 0\nOFFSET 0 0 0\nX 1 0 0\nY 0 1 0\nZ 0 0 1\n"
        "NOTETRACKS\nPART 0\nNUMTRACKS 1\nNOTETRACK 0\nNUMKEYS 1\nFRAME 2147483647 \"end\"\n";
    const Outcome a = readAndCheck(xa, "frames.xanim_export");
    VERIFY_ID(a, ids::kCodFrameGaps);
    VERIFY_SMALL(a);
    VERIFY_SANE(a, 2000);
    const std::string nt =
        "FIRSTFRAME 2147483647\nNUMFRAMES 2147483647\nNUMKEYS 1\nFRAME -2147483648 \"a\"\n";
    const Outcome n = readAndCheck(nt, "frames.NT_EXPORT");
    VERIFY_ID(n, ids::kCodCountMismatch);
    QVERIFY(n.largestAlloc < 16 * kSmallAlloc); // NUMFRAMES is capped at 2^18 frames
    VERIFY_SANE(n, 2000);
    // A FIRSTFRAME so large that FIRSTFRAME + 1 == FIRSTFRAME (found by fuzz_nt).
    for (const char* first : {"4e127", "-1e300", "2147483649"}) {
        const Outcome f = readAndCheck(
            std::string("FIRSTFRAME ") + first + "\nNUMFRAMES 94\nNUMKEYS 0\n", "first.NT_EXPORT");
        VERIFY_ID(f, ids::kSyntaxBadNumber);
        QCOMPARE(f.read.model.animations.front().times.size(), std::size_t(94));
        VERIFY_SANE(f, 2000);
    }
    // SMD frame numbers that span 2^31.
    std::string smd = kValidSmd;
    smd.replace(smd.find("end\ntriangles"), 4, "time 2147483647\n0 0 0 0 0 0 0\nend\n");
    const Outcome s = readAndCheck(smd, "frames.smd");
    VERIFY_ID(s, ids::kSkeletonMissingFrames);
    VERIFY_SMALL(s);
    VERIFY_SANE(s, 2000);
}

void TstHostile::truncationsAtBlockBoundaries()
{
    const QString fx = test::fixturesDir();
    const QStringList files = {
        fx + u"/smd/valid/minimal_reference.smd"_qs,
        fx + u"/pose/rig_anim.smd"_qs,
        fx + u"/vta/valid/shapes.vta"_qs,
        fx + u"/xmodel/valid/cube_v6.xmodel_export"_qs,
        fx + u"/xmodel/valid/cube_v7.xmodel_export"_qs,
        fx + u"/xanim/valid/walk_perpart.xanim_export"_qs,
        fx + u"/xanim/valid/walk_nonotes.NT_EXPORT"_qs,
        fx + u"/smdx/valid/worked_example.smdx"_qs,
        fx + u"/smdx/valid/flex.smdx"_qs,
        fx + u"/xbin/valid/cube_v7.xmodel_bin"_qs,
        fx + u"/xbin/valid/walk_flat.xanim_bin"_qs,
        fx + u"/dmx/valid/tiny_binary2.dmx"_qs, // every version's every byte: tst_dmx
        fx + u"/dmx/valid/tiny_kv2.dmx"_qs,
    };
    std::size_t cuts = 0;
    for (const QString& path : files) {
        const std::string bytes = test::readBytes(path);
        QVERIFY2(!bytes.empty(), qPrintable(path));
        const std::string name = QFileInfo(path).fileName().toStdString();
        const bool binaryDmx = name.ends_with(".dmx") && bytes.find("encoding binary") < 64;
        const bool binary = name.ends_with(".smdx") || name.ends_with("_bin") || binaryDmx;
        const bool smd = name.ends_with(".smd") || name.ends_with(".vta");
        // Text: every line start (a block boundary or a record inside one). Binary: every byte;
        // *_BIN also every 4-byte token boundary inside the decompressed stream.
        std::vector<std::string> prefixes;
        for (std::size_t at = 0; at < bytes.size(); ++at) {
            if (binary || at == 0 || bytes[at - 1] == '\n') {
                prefixes.push_back(bytes.substr(0, at));
            }
        }
        const std::size_t containerCuts = prefixes.size();
        if (name.ends_with("_bin")) {
            std::string stream;
            QVERIFY(xbin::unwrapContainer(bytes, stream));
            for (std::size_t at = 4; at < stream.size(); at += 4) {
                prefixes.push_back(xbin::wrapContainer(stream.substr(0, at)));
            }
        }
        for (std::size_t k = 0; k < prefixes.size(); ++k) {
            const std::string& p = prefixes[k];
            ++cuts;
            const Outcome o = readAndCheck(p, name);
            VERIFY_SANE(o, 2000);
            const QByteArray what = QByteArray::fromStdString(
                name + " cut at " + std::to_string(p.size()) + ":" + o.summary());
            QVERIFY2(o.largestAlloc < std::max<std::size_t>(kSmallAlloc, 64 * bytes.size()),
                     what.constData());
            if (p.find_first_not_of(" \t\r\n") == std::string::npos) {
                VERIFY_ID(o, ids::kSyntaxEmptyFile);
            } else if (name.ends_with(".smdx")) {
                QVERIFY2(o.has(ids::kSyntaxTruncated) ||
                             (p.size() < 5 && o.has(ids::kSyntaxSmdxCorrupt)),
                         what.constData());
            } else if (binaryDmx) {
                // Cut inside a value: syntax.truncated. Cut right after a count, which then
                // claims more than the bytes left: dmx.syntax says so (a hostile count reads the
                // same). Either way an error, under every profile.
                QVERIFY2(o.has(ids::kSyntaxTruncated) || o.has(ids::kDmxSyntax), what.constData());
                QVERIFY2(o.read.hasErrors(), what.constData());
            } else if (name.ends_with("_bin") && k < containerCuts) {
                VERIFY_ID(o, ids::kSyntaxBinCorrupt);
                // A stream cut between tokens can leave a smaller valid file (no diagnostic).
            } else if (smd) {
                // A cut inside a block: missing end. After the last `end`: the full model.
                const std::size_t lastEnd = p.rfind("end\n");
                const bool insideBlock = lastEnd == std::string::npos || lastEnd + 4 != p.size();
                if (insideBlock) {
                    QVERIFY2(o.read.hasErrors() || o.has(ids::kSyntaxMissingEnd), what.constData());
                }
            }
            // CoD text: a cut between records can leave a smaller valid file (no diagnostic).
        }
    }
    QVERIFY(cuts > 1000);
}

void TstHostile::materialFiles()
{
    // VTF headers claiming 65535 x 65535 DXT5 / RGBA16161616F, 65535 frames, depth 65535 and
    // 2^32 resources, in 4 KB files: an error, no allocation beyond the bytes, quickly.
    auto vtf = [](std::uint16_t w, std::uint16_t h, std::uint16_t frames, std::int32_t format,
                  std::uint8_t mips, std::uint16_t depth, std::uint32_t resources) {
        std::string s(4096, '\0');
        std::memcpy(s.data(), "VTF\0", 4);
        auto put = [&](std::size_t at, std::uint64_t v, int n) {
            for (int k = 0; k < n; ++k) {
                s[at + std::size_t(k)] = char((v >> (8 * k)) & 0xff);
            }
        };
        put(4, 7, 4);
        put(8, 5, 4);
        put(12, 96, 4);
        put(16, w, 2);
        put(18, h, 2);
        put(24, frames, 2);
        put(52, std::uint32_t(format), 4);
        s[56] = char(mips);
        put(57, 0xffffffffu, 4);
        put(63, depth, 2);
        put(68, resources, 4);
        s[80] = 0x30;
        put(84, 96, 4);
        return s;
    };
    const std::string cases[] = {
        vtf(65535, 65535, 1, 15, 16, 1, 1), vtf(65535, 65535, 65535, 24, 16, 1, 1),
        vtf(8, 8, 1, 0, 4, 65535, 1),       vtf(8, 8, 1, 0, 4, 1, 0xffffffffu),
        vtf(65535, 1, 1, 13, 16, 1, 1),     vtf(4, 4, 1, 0x7fffffff, 3, 1, 1),
    };
    for (const std::string& c : cases) {
        g_largestAlloc = 0;
        QElapsedTimer t;
        t.start();
        const VtfReadResult r = readVtf(std::as_bytes(std::span(c)), 65535);
        QVERIFY(!r.ok());
        QVERIFY(r.image.empty());
        QVERIFY(g_largestAlloc < kSmallAlloc);
        QVERIFY(t.elapsed() < 200 * kSlowdown);
    }
    // DDS claiming 16384 x 16384 (DXT5, BGRA8888) and 2^32 mips in 4 KB: the same.
    auto dds = [](std::uint32_t side, std::uint32_t mips, bool dxt) {
        std::string s(4096, '\0');
        auto put = [&](std::size_t at, std::uint32_t v) { std::memcpy(s.data() + at, &v, 4); };
        std::memcpy(s.data(), "DDS ", 4);
        put(4, 124);
        put(12, side);
        put(16, side);
        put(28, mips);
        put(76, 32);
        if (dxt) {
            put(80, 0x4);
            std::memcpy(s.data() + 84, "DXT5", 4);
        } else {
            put(80, 0x41);
            put(88, 32);
            put(92, 0xff0000);
            put(96, 0xff00);
            put(100, 0xff);
            put(104, 0xff000000u);
        }
        return s;
    };
    for (const std::string& c :
         {dds(16384, 1, true), dds(16384, 0xffffffffu, false), dds(16384, 15, false)}) {
        g_largestAlloc = 0;
        QElapsedTimer t;
        t.start();
        const DdsReadResult r = readDds(std::as_bytes(std::span(c)), 16384);
        QVERIFY(!r.ok());
        QVERIFY(r.image.empty());
        QVERIFY(g_largestAlloc < kSmallAlloc);
        QVERIFY(t.elapsed() < 200 * kSlowdown);
    }
    // VMT: 10^6 nested braces, a 16 MB unclosed string, a patch including itself.
    const std::string vmts[] = {"\"S\"" + std::string(1000000, '{'),
                                "\"S\" { \"$k\" \"" + std::string(16u << 20, 'x'),
                                "patch { include materials/self.vmt }"};
    for (const std::string& c : vmts) {
        DiagnosticSink sink("h.vmt");
        VmtIncludeLoader self = [&c](const std::string& n) -> std::optional<IncludedFile> {
            return IncludedFile{n, c};
        };
        QElapsedTimer t;
        t.start();
        (void)readVmt(std::as_bytes(std::span(c)), "h.vmt", self, sink);
        QVERIFY(sink.hasErrors());
        QVERIFY(t.elapsed() < 2000 * kSlowdown);
    }
}

// DMX: binary string tables, element, attribute and array counts claiming 2^31 entries.
void TstHostile::dmxCounts2p31()
{
    auto i32 = [](std::int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
    auto i16 = [](std::int16_t v) { return std::string(reinterpret_cast<const char*>(&v), 2); };
    for (int version : {1, 2, 4, 5, 9}) {
        const std::string head = "<!-- dmx encoding binary " + std::to_string(version) +
                                 " format model 1 -->\n" + std::string(1, '\0') +
                                 (version >= 9 ? i32(0) : std::string());
        auto table = [&](std::int32_t n) {
            return version >= 4   ? i32(n)
                   : version >= 2 ? i16(static_cast<std::int16_t>(n))
                                  : std::string();
        };
        auto index = [&](std::int32_t k) {
            return version >= 5   ? i32(k)
                   : version >= 2 ? i16(static_cast<std::int16_t>(k))
                                  : std::string("x\0", 2);
        };
        const std::string strings =
            table(2) + (version >= 2 ? std::string("DmElement\0x\0", 12) : std::string());
        const std::string header1 =
            index(0) + (version >= 4 ? index(1) : std::string("x\0", 2)) + std::string(16, '\0');
        const std::string cases[] = {
            head + table(0x7fffffff),                            // string table
            head + strings + i32(0x7fffffff),                    // elements
            head + strings + i32(-1),                            // negative elements
            head + strings + i32(1) + header1 + i32(0x7fffffff), // attributes
            head + strings + i32(1) + header1 + i32(1) + index(1) + char(15) +
                i32(0x7fffffff), // array items
            head + strings + i32(1) + header1 + i32(1) + index(1) + char(version >= 9 ? 38 : 20) +
                i32(1) + i32(0x7fffffff), // binary blob
        };
        for (const std::string& c : cases) {
            const std::string bytes = c + std::string(64, '\0');
            const Outcome o = readAndCheck(bytes, "hostile.dmx");
            QVERIFY2(o.read.hasErrors(), o.summary().c_str());
            VERIFY_SMALL(o);
            VERIFY_SANE(o, 2000);
        }
    }
}

// DMX keyvalues2: a 100,000-deep chain of inline elements, a DAG whose children form a cycle, and
// 100,000 elements referring to each other in a ring.
void TstHostile::dmxCyclesAndNesting()
{
    const std::string head = "<!-- dmx encoding keyvalues2 1 format model 1 -->\n";
    std::string deep = head + "\"DmElement\" {\n";
    for (int i = 0; i < 100000; ++i) {
        deep += "\"c\" \"DmeDag\" {\n";
    }
    const Outcome d = readAndCheck(deep, "deep.dmx");
    VERIFY_ID(d, ids::kDmxSyntax);
    VERIFY_SANE(d, 5000);

    std::string ring =
        head + "\"DmElement\" { \"id\" \"elementid\" \"root\" \"skeleton\" \"element\" \"e0\" }\n";
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        ring += "\"DmeDag\" { \"id\" \"elementid\" \"e" + std::to_string(i) +
                "\" \"children\" \"element_array\" [ \"element\" \"e" +
                std::to_string((i + 1) % n) + "\" ] }\n";
    }
    const Outcome r = readAndCheck(ring, "ring.dmx");
    VERIFY_ID(r, ids::kDmxBadReference);
    VERIFY_SANE(r, 10000);
    QCOMPARE(r.read.model.skeleton.size(), std::size_t(n));
}

// QC scripts (issue 17): macros that double at every level ("billion laughs"), a macro that
// expands itself, variables that double, a 16 MB token, include fan-out and an include cycle,
// unterminated quotes / comments / blocks: bounded time, small allocations, located ids.
void TstHostile::qcScripts()
{
    std::string laughs = "$definemacro l0 \\\\\n$attachment a b 0 0 0\n";
    for (int i = 1; i <= 60; ++i) {
        laughs += "$definemacro l" + std::to_string(i) + " \\\\\n$l" + std::to_string(i - 1) +
                  " \\\\\n$l" + std::to_string(i - 1) + "\n";
    }
    laughs += "$l60\n";
    std::string vars = "$definevariable v0 xxxxxxxx\n";
    for (int i = 1; i <= 60; ++i) {
        vars += "$definevariable v" + std::to_string(i) + " $v" + std::to_string(i - 1) + "$$v" +
                std::to_string(i - 1) + "$\n";
    }
    vars += "$modelname $v60$\n";
    std::string fan, fan2;
    for (int i = 0; i < 200; ++i) {
        fan += "$include \"fan2.qci\"\n";
        fan2 += "$include \"fan3.qci\"\n";
    }
    const struct {
        std::string text;
        std::string_view id;
    } cases[] = {
        {laughs, ids::kQcLimit},
        {"$definemacro m \\\\\n$m\n$m\n", ids::kQcLimit},
        {vars, ids::kQcLimit},
        {"$modelname \"" + std::string(16u << 20, 'x') + "\"\n", ids::kQcLimit},
        {"$include \"main.qc\"\n", ids::kQcIncludeCycle},
        {"$include \"fan.qci\"\n", ids::kQcLimit},
        {"$modelname \"abc\n$scale 2\n", ids::kSyntaxUnterminatedString},
        {"/* open\n$scale 2\n", ids::kSyntaxMissingEnd},
        {"$bodygroup b {\n studio \"x\" {{{{\n", ids::kSyntaxMissingEnd},
        {std::string(1u << 20, '{'), ids::kQcLimit},
    };
    for (const auto& c : cases) {
        MemoryQcFileSystem fs;
        fs.files["h/main.qc"] = c.text;
        fs.files["h/fan.qci"] = fan;
        fs.files["h/fan2.qci"] = fan2;
        fs.files["h/fan3.qci"] = "$surfaceprop metal\n";
        QElapsedTimer t;
        t.start();
        g_largestAlloc = 0;
        const QcReport r = qcReport("h/main.qc", Profile::Auto, fs);
        const std::size_t largest = g_largestAlloc.load();
        const qint64 ms = t.elapsed();
        QVERIFY2(ms < 10000 * kSlowdown, qPrintable(QStringLiteral("%1 ms").arg(ms)));
        // Nothing much larger than the input (the megabyte token is kept, truncated).
        QVERIFY2(largest < c.text.size() + kSmallAlloc * 32,
                 qPrintable(QStringLiteral("largest allocation %1 bytes").arg(largest)));
        bool found = false;
        for (const Diagnostic& d : r.diagnostics) {
            found = found || d.id == c.id;
            QVERIFY(d.where.line >= 1);
        }
        QVERIFY2(found, c.id.data());
        QVERIFY(r.diagnostics.size() < 10000);
        QVERIFY(verifyInvariants(r.compiled.model).empty());
    }
}

QTEST_APPLESS_MAIN(TstHostile)
#include "tst_hostile.moc"
