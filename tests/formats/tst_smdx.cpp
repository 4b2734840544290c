// BinarySMD reader and writer (FORMATS.md §2): the §2.5 worked example byte for byte, round
// trips, the corpus file, every truncation, hostile counts, the upstream writer bug, the legacy
// layout and non-minimal integers.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/smd/smd_reader.h"
#include "core/formats/smdx/smdx.h"
#include "tests/support/test_support.h"

#include "tests/support/alloc_probe.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

// A tiny msgpack encoder for hand-made layouts (minimal ints unless told otherwise).
struct Bytes {
    std::string b;
    Bytes& raw(std::string_view s)
    {
        b += s;
        return *this;
    }
    Bytes& u8(unsigned v)
    {
        b += static_cast<char>(v & 0xFF);
        return *this;
    }
    Bytes& be(std::uint32_t v, int n)
    {
        for (int k = n - 1; k >= 0; --k) {
            u8(v >> (8 * k));
        }
        return *this;
    }
    Bytes& i(std::int64_t v)
    {
        if (v >= -32 && v <= 127) {
            return u8(static_cast<unsigned>(v & 0xFF));
        }
        if (v > 0) {
            return v <= 0xFF     ? u8(0xCC).be(static_cast<std::uint32_t>(v), 1)
                   : v <= 0xFFFF ? u8(0xCD).be(static_cast<std::uint32_t>(v), 2)
                                 : u8(0xCE).be(static_cast<std::uint32_t>(v), 4);
        }
        const auto bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
        return v >= -128     ? u8(0xD0).be(bits, 1)
               : v >= -32768 ? u8(0xD1).be(bits, 2)
                             : u8(0xD2).be(bits, 4);
    }
    Bytes& f(float v)
    {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, 4);
        return u8(0xCA).be(bits, 4);
    }
    Bytes& v3(float x, float y, float z) { return f(x).f(y).f(z); }
    Bytes& s(std::string_view t)
    {
        u8(0xA0 | static_cast<unsigned>(t.size()));
        return raw(t);
    }
};

ReadResult readBytes(std::string_view bytes, const std::string& name = "test.smdx")
{
    ReadContext ctx;
    ctx.fileName = name;
    return readSmdx(bytes, ctx);
}

std::string writeBytes(const Model& m)
{
    WriteContext ctx;
    ctx.fileName = "out.smdx";
    WriteResult w = writeSmdx(m, ctx);
    return w.bytes;
}

std::size_t countId(const std::vector<Diagnostic>& d, std::string_view id)
{
    std::size_t n = 0;
    for (const Diagnostic& x : d) {
        n += x.id == id ? 1 : 0;
    }
    return n;
}

const Diagnostic* findId(const std::vector<Diagnostic>& d, std::string_view id)
{
    for (const Diagnostic& x : d) {
        if (x.id == id) {
            return &x;
        }
    }
    return nullptr;
}

QByteArray hex(const std::string& s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size())).toHex(' ');
}

// The §2.5 model built by hand: one bone, one frame, one triangle with one link per corner.
Model workedExampleModel()
{
    Model m;
    m.format = "smdx";
    m.kind = ModelKind::Reference;
    m.skeleton.addJoint("root", kNoJoint, 0, {});
    Animation a;
    a.name = "worked_example";
    a.jointCount = 1;
    a.appendFrame(0, {});
    a.explicitKey[0] = 1;
    m.animations.push_back(a);
    bindFromFirstFrame(m);
    MaterialInterner mats;
    const std::uint32_t mat = mats.intern(m.mesh, "mat.bmp", {});
    const Vec3 pos[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const Vec2 uv[3] = {{0, 0}, {1, 0}, {0, 1}};
    const JointIndex joint = 0;
    const float weight = 1.0f;
    for (int c = 0; c < 3; ++c) {
        appendPoint(m.mesh, pos[c], 0, LinkState::List, &joint, &weight, 1, {});
        m.mesh.cornerPoints.push_back(static_cast<std::uint32_t>(c));
        m.mesh.cornerNormals.push_back(Vec3(0, 0, 1));
        m.mesh.cornerUvs.push_back(uv[c]);
        m.mesh.cornerWhere.push_back({});
    }
    m.mesh.triangleMaterials.push_back(mat);
    m.mesh.triangleWhere.push_back({});
    return m;
}

// Something with every feature the format keeps: id gaps, sparse frames with a time gap,
// -0 next to 0, a NaN, two materials, links absent and listed, a long name and material.
Model richModel()
{
    Model m;
    m.format = "smd";
    m.kind = ModelKind::Reference;
    Skeleton& s = m.skeleton;
    s.addJoint("pelvis", kNoJoint, 3, {});
    s.addJoint("spine", 0, 7, {});
    s.addJoint(std::string(40, 'n'), 1, 200, {});
    s.addJoint("free", kNoJoint, 1000, {});
    Animation a;
    a.name = "rich";
    a.jointCount = s.size();
    const double times[] = {0, 1, 5, 300};
    for (double t : times) {
        a.appendFrame(t, {});
    }
    for (std::size_t j = 0; j < 3; ++j) { // bone 3 is missing from frame 0: zero
        a.positions[a.key(0, j)] = Vec3(float(j), -0.0f, 0.0f);
        a.rotations[a.key(0, j)] = Vec3(0.0f, 0.25f * float(j), -0.0f);
        a.explicitKey[a.key(0, j)] = 1;
    }
    for (std::size_t f = 1; f < 4; ++f) {
        for (std::size_t j = 0; j < 4; ++j) {
            a.positions[a.key(f, j)] = a.positions[a.key(f - 1, j)];
            a.rotations[a.key(f, j)] = a.rotations[a.key(f - 1, j)];
        }
        const std::size_t j = f % 4;
        a.positions[a.key(f, j)] = Vec3(0.5f * float(f), 1e-7f, -123456.75f);
        a.rotations[a.key(f, j)] = Vec3(std::numeric_limits<float>::quiet_NaN(), 0.0f, 3.14159f);
        a.explicitKey[a.key(f, j)] = 1;
    }
    m.animations.push_back(a);
    bindFromFirstFrame(m);
    MaterialInterner mats;
    const std::string longMaterial = "materials/" + std::string(300, 'x') + ".vmt";
    for (int t = 0; t < 5; ++t) {
        const std::uint32_t mat = mats.intern(m.mesh, t % 2 ? "skin.bmp" : longMaterial, {});
        for (int c = 0; c < 3; ++c) {
            const float k = float(3 * t + c);
            const JointIndex joints[3] = {1, 2, 1};
            const float weights[3] = {0.5f, 0.25f, 0.25f};
            const std::size_t links = static_cast<std::size_t>((t + c) % 4);
            appendPoint(m.mesh, Vec3(k, c == 0 ? -0.0f : 0.0f, 1.0f),
                        static_cast<JointIndex>(c % 3), links ? LinkState::List : LinkState::Absent,
                        joints, weights, links > 3 ? 3 : links, {});
            m.mesh.cornerPoints.push_back(static_cast<std::uint32_t>(3 * t + c));
            m.mesh.cornerNormals.push_back(Vec3(0, 0, c == 1 ? -1.0f : 1.0f));
            m.mesh.cornerUvs.push_back(Vec2(0.1f * k, -0.0f));
            m.mesh.cornerWhere.push_back({});
        }
        m.mesh.triangleMaterials.push_back(mat);
        m.mesh.triangleWhere.push_back({});
    }
    return m;
}

Model flexModel()
{
    Model m;
    m.format = "vta";
    m.kind = ModelKind::Flex;
    m.skeleton.addJoint("root", kNoJoint, 0, {});
    Animation a;
    a.name = "flex";
    a.jointCount = 1;
    for (int t = 0; t < 3; ++t) {
        a.appendFrame(t, {});
    }
    a.explicitKey[0] = 1;
    m.animations.push_back(a);
    bindFromFirstFrame(m);
    for (int k = 0; k < 3; ++k) {
        VertexFrame f;
        f.time = k;
        const int n = k == 0 ? 6 : 2;
        for (int i = 0; i < n; ++i) {
            f.ids.push_back(k == 0 ? i : 2 * i + k);
            f.positions.push_back(Vec3(float(i), float(k), -0.0f));
            f.normals.push_back(Vec3(0, 0, 1));
            f.lineWhere.push_back({});
        }
        m.vertexFrames.push_back(f);
    }
    deriveFlexShapes(m);
    return m;
}

// Reads, checks invariants, writes, reads again: equal models and a stable second write.
void checkRoundTrip(const Model& m, const std::string& name)
{
    const std::string first = writeBytes(m);
    ReadResult r = readBytes(first, name);
    QVERIFY2(r.hasModel, name.c_str());
    QCOMPARE(QString::fromStdString(verifyInvariants(r.model)), QString());
    QVERIFY2(!r.hasErrors(), qPrintable(test::formatted(r.diagnostics).join(u'\n')));
    QVERIFY2(r.model == m, name.c_str());
    const std::string second = writeBytes(r.model);
    QCOMPARE(hex(second), hex(first));
}

} // namespace

class TstSmdx : public QObject {
    Q_OBJECT

private slots:
    void workedExampleBytes();
    void fixtures_data();
    void fixtures();
    void roundTrip();
    void corpusReencodes();
    void corpusMatchesTextTwin();
    void smdSamplesConvert_data();
    void smdSamplesConvert();
    void everyTruncation();
    void corpusTruncations();
    void hostileCounts();
    void writerBugLayout();
    void legacyLayout();
    void nonMinimalInts();
    void widerEncodings();
    void badIndices();
    void statesKeptWhenCut();
    void writerNotes();
    void sniff();
};

void TstSmdx::workedExampleBytes()
{
    const QString path = test::fixturesDir() + QStringLiteral("/smdx/valid/worked_example.smdx");
    const std::string bytes = test::readBytes(path);
    QCOMPARE(bytes.size(), std::size_t(175));
    QVERIFY(bytes.starts_with(std::string_view("SMDX\x01\x03\x00\x01\x00\xA4root\xFF", 15)));

    // Our writer reproduces §2.5 from a model built by hand.
    const Model built = workedExampleModel();
    QCOMPARE(hex(writeBytes(built)), hex(bytes));

    // And reading it gives that model.
    ReadResult r = readBytes(bytes, "dir/worked_example.smdx");
    QVERIFY(r.hasModel);
    QVERIFY2(r.diagnostics.empty(), qPrintable(test::formatted(r.diagnostics).join(u'\n')));
    QCOMPARE(QString::fromStdString(verifyInvariants(r.model)), QString());
    QVERIFY(r.model == built);
    QCOMPARE(r.model.format, std::string("smdx"));
    QCOMPARE(r.model.version, 1);
    QCOMPARE(r.model.animations.front().name, std::string("worked_example"));
    QCOMPARE(r.model.mesh.materials.front().name, std::string("mat.bmp"));
    QCOMPARE(r.model.mesh.pointLinkState[0], LinkState::List);
    QCOMPARE(r.model.mesh.triangleWhere[0].offset, std::uint64_t(0x8D));
}

void TstSmdx::fixtures_data()
{
    QTest::addColumn<QString>("path");
    const QString dir = test::fixturesDir() + QStringLiteral("/smdx");
    for (const QString& f : test::filesUnder(dir, {QStringLiteral("smdx")})) {
        QTest::newRow(qPrintable(QDir(dir).relativeFilePath(f))) << f;
    }
}

void TstSmdx::fixtures()
{
    QFETCH(QString, path);
    ReadResult r = test::readPath(path, test::fixturesDir());
    const bool invalid = path.contains(QStringLiteral("/invalid/"));
    if (r.hasModel) {
        QCOMPARE(QString::fromStdString(verifyInvariants(r.model)), QString());
    }
    const QStringList lines = test::formatted(r.diagnostics);
    QCOMPARE(lines, test::expectedFor(path, lines));
    QCOMPARE(r.hasErrors(), invalid);
    for (const Diagnostic& d : r.diagnostics) {
        QVERIFY(d.binary);
    }
    if (!invalid) {
        // Valid files survive read -> write -> read; rewriting is stable.
        const std::string once = writeBytes(r.model);
        ReadResult again = readBytes(once, QFileInfo(path).fileName().toStdString());
        QVERIFY(again.model == r.model);
        QCOMPARE(hex(writeBytes(again.model)), hex(once));
    }
}

void TstSmdx::roundTrip()
{
    checkRoundTrip(workedExampleModel(), "worked_example.smdx");
    checkRoundTrip(richModel(), "rich.smdx");
    checkRoundTrip(flexModel(), "flex.smdx");

    // Dedup tables: -0 and 0 are two entries, two NaNs are one.
    Model m = richModel();
    const std::string bytes = writeBytes(m);
    ReadResult r = readBytes(bytes, "rich.smdx");
    const Animation& a = r.model.animations.front();
    QVERIFY(std::signbit(a.positions[a.key(0, 0)].y()));
    QVERIFY(!std::signbit(a.positions[a.key(0, 0)].z()));
    QVERIFY(std::isnan(a.rotations[a.key(1, 1)].x()));
    QCOMPARE(a.explicitKey, m.animations.front().explicitKey);
    QCOMPARE(a.times, (std::vector<double>{0, 1, 5, 300}));

    // An empty model writes nodes only and reads back as an empty animation-less file.
    Model empty;
    const std::string e = writeBytes(empty);
    QCOMPARE(hex(e), hex(std::string("SMDX\x01\x01\x00\x00", 8)));
}

void TstSmdx::corpusReencodes()
{
    const QString corpus = test::corpusDir();
    if (corpus.isEmpty()) {
        QSKIP("shared corpus not present");
    }
    const std::string bytes = test::readBytes(corpus + QStringLiteral("/smdx/rarecandy_idle.smdx"));
    QCOMPARE(bytes.size(), std::size_t(153305));
    ReadResult r = readBytes(bytes, "rarecandy_idle.smdx");
    QVERIFY(r.hasModel);
    QVERIFY2(r.diagnostics.empty(), qPrintable(test::formatted(r.diagnostics).join(u'\n')));
    QCOMPARE(QString::fromStdString(verifyInvariants(r.model)), QString());
    QCOMPARE(r.model.skeleton.size(), std::size_t(68));
    QCOMPARE(r.model.animations.front().frameCount(), std::size_t(72));
    QCOMPARE(r.model.kind, ModelKind::Animation);
    const std::string again = writeBytes(r.model);
    QCOMPARE(again.size(), bytes.size());
    QVERIFY(again == bytes);
}

void TstSmdx::corpusMatchesTextTwin()
{
    const QString corpus = test::corpusDir();
    if (corpus.isEmpty()) {
        QSKIP("shared corpus not present");
    }
    ReadResult bin = test::readPath(corpus + QStringLiteral("/smdx/rarecandy_idle.smdx"));
    ReadResult text =
        test::readPath(corpus + QStringLiteral("/smd/rarecandy_idle_converted_from_smdx.smd"));
    QVERIFY(bin.hasModel);
    QVERIFY2(text.hasModel, "the SMD reader gave no model for the text twin");
    // The animation is named after the file stem, and the two stems differ.
    QVERIFY(!text.model.animations.empty());
    text.model.animations.front().name = bin.model.animations.front().name;
    QVERIFY(bin.model == text.model);
}

void TstSmdx::smdSamplesConvert_data()
{
    QTest::addColumn<QString>("path");
    for (const QString& f :
         test::filesUnder(test::samplesDir(), {QStringLiteral("smd"), QStringLiteral("vta")})) {
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
}

// SMD -> SMDX -> model: equal except what §2.3 loses (links `0` read back as absent).
void TstSmdx::smdSamplesConvert()
{
    QFETCH(QString, path);
    ReadResult text = test::readPath(path);
    if (!text.hasModel) {
        QSKIP("the SMD reader gave no model");
    }
    const std::string name = QFileInfo(path).completeBaseName().toStdString() + ".smdx";
    const std::string bytes = writeBytes(text.model);
    ReadResult bin = readBytes(bytes, name);
    QVERIFY2(!bin.hasErrors(), qPrintable(test::formatted(bin.diagnostics).join(u'\n')));
    Model expected = text.model;
    for (LinkState& s : expected.mesh.pointLinkState) {
        if (s == LinkState::Zero) {
            s = LinkState::Absent;
        }
    }
    for (VertexFrame& f : expected.vertexFrames) {
        f.name.clear(); // SMDX has no shape names
        f.nameFromComment = false;
    }
    QVERIFY(bin.model == expected);
    QCOMPARE(hex(writeBytes(bin.model)), hex(bytes));
}

void TstSmdx::everyTruncation()
{
    std::vector<std::string> files;
    files.push_back(writeBytes(workedExampleModel()));
    files.push_back(writeBytes(richModel()));
    files.push_back(writeBytes(flexModel()));
    // The writer-bug layout has no frame count: it runs to the end of the data.
    const std::size_t bugLayout = files.size();
    for (const char* name : {"valid/vta_writer_bug.smdx", "valid/legacy_no_magic.smdx",
                             "valid/non_minimal_ints.smdx", "valid/float64_and_bin.smdx"}) {
        files.push_back(
            test::readBytes(test::fixturesDir() + QStringLiteral("/smdx/") + QLatin1String(name)));
    }
    for (std::size_t fi = 0; fi < files.size(); ++fi) {
        const std::string& full = files[fi];
        QVERIFY(!full.empty());
        for (std::size_t len = 0; len < full.size(); ++len) {
            const std::string prefix = full.substr(0, len);
            ReadResult r = readBytes(prefix);
            const QByteArray what = "file " + QByteArray::number(qulonglong(fi)) + " prefix " +
                                    QByteArray::number(qulonglong(len));
            if (r.hasModel) {
                const std::string broken = verifyInvariants(r.model);
                QVERIFY2(broken.empty(), (what + ": " + broken.c_str()).constData());
            }
            if (len == 0) {
                QVERIFY2(findId(r.diagnostics, ids::kSyntaxEmptyFile), what.constData());
                continue;
            }
            if (fi == bugLayout && findId(r.diagnostics, ids::kSyntaxSmdxVtaWriterBug)) {
                continue; // cut between two frames: a shorter writer-bug file, by design
            }
            // cut short: syntax.truncated (issue 15); a cut inside the magic: bad magic
            const Diagnostic* d = findId(r.diagnostics, ids::kSyntaxTruncated);
            d = d ? d : findId(r.diagnostics, ids::kSyntaxSmdxCorrupt);
            QVERIFY2(d, what.constData());
            QCOMPARE(d->severity, Severity::Error);
            QVERIFY2(d->where.offset <= len, what.constData());
            QVERIFY2(d->binary, what.constData());
        }
    }
}

void TstSmdx::corpusTruncations()
{
    const QString corpus = test::corpusDir();
    if (corpus.isEmpty()) {
        QSKIP("shared corpus not present");
    }
    const std::string full = test::readBytes(corpus + QStringLiteral("/smdx/rarecandy_idle.smdx"));
    // Every length is quadratic work; a prime stride plus the edges covers all value kinds.
    for (std::size_t len = 1; len < full.size(); len += len < 64 ? 1 : 613) {
        ReadResult r = readBytes(std::string_view(full).substr(0, len));
        const Diagnostic* d = findId(r.diagnostics, ids::kSyntaxTruncated);
        d = d ? d : findId(r.diagnostics, ids::kSyntaxSmdxCorrupt);
        QVERIFY(d);
        QVERIFY(d->where.offset <= len);
        QVERIFY(d->message.find(" block") != std::string::npos || len < 8);
        QVERIFY(verifyInvariants(r.model).empty());
    }
}

void TstSmdx::hostileCounts()
{
    const std::string head("SMDX\x01", 5);
    const std::string huge("\xCE\x80\x00\x00\x00", 5);  // 2^31: does not fit an int
    const std::string large("\xCE\x7F\xFF\xFF\xFF", 5); // 2^31-1: more than the file holds
    const std::string arrayHdr("\xDD\x80\x00\x00\x00", 5);
    const std::string mapHdr("\xDF\x80\x00\x00\x00", 5);
    const std::string strHdr("\xDB\x80\x00\x00\x00", 5);
    const std::string binHdr("\xC6\x80\x00\x00\x00", 5);
    const std::string extHdr("\xC9\x80\x00\x00\x00\x01", 6);
    const std::string oneVec = Bytes().i(1).v3(0, 0, 0).b;
    // Prefixes that end right where a count (or a scalar) is expected.
    const std::vector<std::string> prefixes = {
        head,                                                      // block_count
        head + Bytes().i(1).i(0).b,                                // node count
        head + Bytes().i(1).i(0).i(1).b,                           // node id
        head + Bytes().i(1).i(0).i(1).i(0).b,                      // node name
        head + Bytes().i(1).i(1).b,                                // skeleton vector count
        head + Bytes().i(1).i(1).b + oneVec,                       // keyframe count
        head + Bytes().i(1).i(1).b + oneVec + Bytes().i(1).i(0).b, // bone count
        head + Bytes().i(1).i(2).b,                                // material count
        head + Bytes().i(1).i(2).i(0).b,                           // triangle vector count
        head + Bytes().i(1).i(2).i(0).i(0).b,                      // uv count
        head + Bytes().i(1).i(2).i(0).i(0).i(0).b,                 // triangle count
        head + Bytes()
                   .i(1)
                   .i(2)
                   .i(0)
                   .i(1)
                   .v3(0, 0, 0)
                   .i(1)
                   .f(0)
                   .f(0)
                   .i(1)
                   .i(0)
                   .i(0)
                   .i(0)
                   .i(0)
                   .i(0)
                   .b,                                    // lcount
        head + Bytes().i(1).i(3).b,                       // vta vector count
        head + Bytes().i(1).i(3).i(0).b,                  // frame count
        head + Bytes().i(1).i(3).i(0).i(1).i(0).b,        // vertex count
        head + Bytes().i(1).i(2).i(1).v3(0, 0, 0).i(0).b, // writer-bug retry: vertex count
    };
    for (std::size_t p = 0; p < prefixes.size(); ++p) {
        for (const std::string* tail :
             {&huge, &large, &arrayHdr, &mapHdr, &strHdr, &binHdr, &extHdr}) {
            const std::string bytes = prefixes[p] + *tail + std::string(64, '\0');
            g_largestAlloc = 0;
            ReadResult r = readBytes(bytes);
            const std::size_t largest = g_largestAlloc.load();
            const QByteArray what =
                "prefix " + QByteArray::number(qulonglong(p)) + ": " +
                QByteArray::fromStdString(test::formatted(r.diagnostics).join(u' ').toStdString());
            QVERIFY2(largest < (1u << 20), what.constData());
            // a header claiming more bytes than the file has left reads as cut (issue 15)
            QVERIFY2(findId(r.diagnostics, ids::kSyntaxSmdxCorrupt) ||
                         findId(r.diagnostics, ids::kSyntaxTruncated),
                     what.constData());
            QVERIFY(verifyInvariants(r.model).empty());
        }
    }
}

void TstSmdx::writerBugLayout()
{
    const QString dir = test::fixturesDir() + QStringLiteral("/smdx/valid/");
    ReadResult good = test::readPath(dir + QStringLiteral("flex.smdx"));
    ReadResult bug = test::readPath(dir + QStringLiteral("vta_writer_bug.smdx"));
    QVERIFY(good.diagnostics.empty());
    QCOMPARE(countId(bug.diagnostics, ids::kSyntaxSmdxVtaWriterBug), std::size_t(1));
    QCOMPARE(bug.diagnostics.size(), std::size_t(1));
    QCOMPARE(bug.diagnostics.front().severity, Severity::Warning);
    QCOMPARE(bug.model.kind, ModelKind::Flex);
    QCOMPARE(bug.model.vertexFrames.size(), std::size_t(3));
    QCOMPARE(bug.model.flexShapes.size(), std::size_t(2));
    bug.model.animations.front().name = good.model.animations.front().name;
    QVERIFY(bug.model == good.model);
    // Rewriting fixes the layout: type 3 with fcount.
    QCOMPARE(hex(writeBytes(bug.model)), hex(test::readBytes(dir + QStringLiteral("flex.smdx"))));

    // A type-2 block that is neither triangles nor the bug layout is reported as triangles.
    std::string broken = test::readBytes(dir + QStringLiteral("vta_writer_bug.smdx"));
    broken.back() = '\xC1'; // never used in msgpack
    ReadResult r = readBytes(broken);
    QCOMPARE(countId(r.diagnostics, ids::kSyntaxSmdxVtaWriterBug), std::size_t(0));
    const Diagnostic* d = findId(r.diagnostics, ids::kSyntaxSmdxCorrupt);
    QVERIFY(d);
    QVERIFY2(d->message.find("in triangles block") != std::string::npos, d->message.c_str());
    QVERIFY(verifyInvariants(r.model).empty());
}

void TstSmdx::legacyLayout()
{
    const std::string worked = writeBytes(workedExampleModel());
    ReadResult r = readBytes(worked.substr(5), "worked_example.smdx");
    QVERIFY(r.hasModel);
    QCOMPARE(r.diagnostics.size(), std::size_t(1));
    QCOMPARE(r.diagnostics.front().id, ids::kSyntaxSmdxLegacy);
    QCOMPARE(r.diagnostics.front().severity, Severity::Warning);
    QVERIFY(r.model == workedExampleModel());

    // Something that is neither: bad magic, no model.
    ReadResult bad = readBytes(std::string("SMDY") + worked.substr(4));
    QVERIFY(!bad.hasModel);
    QCOMPARE(countId(bad.diagnostics, ids::kSyntaxSmdxCorrupt), std::size_t(1));
    QCOMPARE(bad.diagnostics.front().where.offset, std::uint64_t(0));
}

void TstSmdx::nonMinimalInts()
{
    const std::string worked = writeBytes(workedExampleModel());
    // Block count 3 as CC 03, node id 0 as D1 00 00, parent -1 as D2 FF FF FF FF.
    std::string wide = worked.substr(0, 5) + std::string("\xCC\x03\x00\x01\xD1\x00\x00", 7) +
                       worked.substr(9, 5) + std::string("\xD2\xFF\xFF\xFF\xFF", 5) +
                       worked.substr(15);
    ReadResult r = readBytes(wide, "worked_example.smdx");
    QCOMPARE(r.diagnostics.size(), std::size_t(1));
    const Diagnostic& d = r.diagnostics.front();
    QCOMPARE(d.id, ids::kSyntaxSmdxNonMinimal);
    QCOMPARE(d.severity, Severity::Note);
    QCOMPARE(d.where.offset, std::uint64_t(5));
    QVERIFY2(d.message.starts_with("3 integers"), d.message.c_str());
    QVERIFY(r.model == workedExampleModel());
    // The writer goes back to the shortest form.
    QCOMPARE(hex(writeBytes(r.model)), hex(worked));
    // u64 / i64 holding small values are accepted too.
    std::string wider =
        worked.substr(0, 5) + std::string("\xCF\0\0\0\0\0\0\0\x03", 9) + worked.substr(6);
    ReadResult r2 = readBytes(wider, "worked_example.smdx");
    QCOMPARE(countId(r2.diagnostics, ids::kSyntaxSmdxNonMinimal), std::size_t(1));
    QVERIFY(r2.model == workedExampleModel());
}

void TstSmdx::widerEncodings()
{
    ReadResult r =
        test::readPath(test::fixturesDir() + QStringLiteral("/smdx/valid/float64_and_bin.smdx"));
    QVERIFY(r.diagnostics.empty());
    Model expected = workedExampleModel();
    r.model.animations.front().name = expected.animations.front().name;
    QVERIFY(r.model == expected);
    // A float where an int belongs, an int where a float belongs.
    const std::string worked = writeBytes(workedExampleModel());
    std::string swapped = worked;
    swapped[5] = '\xCA';
    ReadResult bad = readBytes(swapped);
    const Diagnostic* d = findId(bad.diagnostics, ids::kSyntaxSmdxCorrupt);
    QVERIFY(d);
    QCOMPARE(d->where.offset, std::uint64_t(5));
    QVERIFY2(d->message.find("expected count, got float32") != std::string::npos,
             d->message.c_str());
}

void TstSmdx::badIndices()
{
    const QString dir = test::fixturesDir() + QStringLiteral("/smdx/invalid/");
    ReadResult tri = test::readPath(dir + QStringLiteral("bad_index.smdx"));
    QVERIFY(tri.hasModel);
    QCOMPARE(tri.model.mesh.triangleCount(), std::size_t(0));
    QCOMPARE(tri.model.kind, ModelKind::Reference);
    QCOMPARE(countId(tri.diagnostics, ids::kSyntaxSmdxCorrupt), std::size_t(1));
    ReadResult bones = test::readPath(dir + QStringLiteral("bad_bone_state.smdx"));
    QVERIFY(bones.hasModel);
    const Animation& a = bones.model.animations.front();
    QCOMPARE(a.frameCount(), std::size_t(1));
    QCOMPARE(a.explicitKey, (std::vector<std::uint8_t>{1}));
    QCOMPARE(countId(bones.diagnostics, ids::kSyntaxSmdxCorrupt), std::size_t(1));
    QCOMPARE(countId(bones.diagnostics, ids::kSkeletonUnknownBoneInFrame), std::size_t(1));
    // Bone states are read again from the input when the animation is built: the offsets are
    // still those of the states (frame at 0x21, states at 0x23, 0x26, 0x29; rot index at 0x2B).
    QCOMPARE(findId(bones.diagnostics, ids::kSkeletonUnknownBoneInFrame)->where.offset,
             std::uint64_t(0x26));
    QCOMPARE(findId(bones.diagnostics, ids::kSyntaxSmdxCorrupt)->where.offset, std::uint64_t(0x2B));
}

void TstSmdx::statesKeptWhenCut()
{
    // Every prefix keeps the bone states read whole before the cut: the explicit keys grow one
    // state at a time up to the whole file's. Only frame 0's first two states arrive together:
    // its count (3 states, at least 9 bytes) is checked against the bytes left before any state
    // is read, and its first two states take 3 + 3 bytes, the third (bone id 200) 4.
    const Model rich = richModel();
    const std::string full = writeBytes(rich);
    std::vector<std::size_t> counts;
    std::size_t previous = 0;
    for (std::size_t len = 1; len <= full.size(); ++len) {
        ReadResult r = readBytes(full.substr(0, len));
        std::size_t keys = 0;
        if (!r.model.animations.empty()) {
            for (std::uint8_t k : r.model.animations.front().explicitKey) {
                keys += k;
            }
        }
        QVERIFY2(keys >= previous, QByteArray::number(qulonglong(len)).constData());
        if (keys != previous) {
            counts.push_back(keys);
        }
        previous = keys;
    }
    QCOMPARE(counts, (std::vector<std::size_t>{2, 3, 4, 5, 6}));
}

void TstSmdx::writerNotes()
{
    Model m = workedExampleModel();
    m.version = 2;
    m.format = "smd";
    WriteContext ctx;
    ctx.fileName = "out.smdx";
    WriteResult w = writeSmdx(m, ctx);
    QVERIFY(w.ok());
    QCOMPARE(w.diagnostics.size(), std::size_t(1));
    QCOMPARE(w.diagnostics.front().id, ids::kWriteVersionDropped);
    QCOMPARE(w.diagnostics.front().severity, Severity::Note);
    QCOMPARE(w.bytes[4], '\x01');

    // Links written as `0` and absent both become lcount 0 and read back as absent.
    Model z = workedExampleModel();
    z.mesh.pointLinkState.assign(3, LinkState::Zero);
    z.mesh.influenceJoints.clear();
    z.mesh.influenceWeights.clear();
    z.mesh.influenceOffsets.assign(4, 0);
    ReadResult r = readBytes(writeBytes(z));
    QCOMPARE(r.model.mesh.pointLinkState, (std::vector<LinkState>(3, LinkState::Absent)));
}

void TstSmdx::sniff()
{
    QCOMPARE(sniffSmdx(std::string_view("SMDX\x01", 5)), 100);
    QCOMPARE(sniffSmdx("SMD"), 0);
    QCOMPARE(sniffSmdx("version 1\n"), 0);
    // Detection by content, whatever the extension.
    const std::string worked = writeBytes(workedExampleModel());
    const FormatInfo* f = detectFormat(worked, "model.smd");
    QVERIFY(f);
    QCOMPARE(f->id, std::string_view("smdx"));
}

QTEST_APPLESS_MAIN(TstSmdx)
#include "tst_smdx.moc"
