// SMD / VTA writer (FORMATS.md §6): exact bytes for hand-built models, link states, explicit
// keys only, VTA shape names in both blocks, line endings, loss diagnostics, and the round-trip
// contract over every valid fixture and (when present) the corpus.
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/smd/smd_reader.h"
#include "core/formats/smd/smd_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

ReadResult readText(std::string_view bytes, const std::string& name)
{
    ReadContext ctx;
    ctx.fileName = name;
    return readSmd(bytes, ctx);
}

WriteResult write(const Model& m)
{
    WriteContext ctx;
    ctx.fileName = "out.smd";
    return writeSmd(m, ctx);
}

// Two bones (ids 3 and 7), two frames with a sparse second frame, one triangle with the three
// link states.
Model handModel()
{
    Model m;
    m.format = "smd";
    m.kind = ModelKind::Reference;
    m.skeleton.addJoint("root", kNoJoint, 3, {});
    m.skeleton.addJoint("arm bone", 0, 7, {});
    Animation a;
    a.name = "hand";
    a.jointCount = 2;
    a.appendFrame(0, {});
    a.positions[1] = Vec3(1, 0.5f, -0.0f);
    a.rotations[1] = Vec3(0, 0, 1.5707964f);
    a.explicitKey = {1, 1};
    a.appendFrame(2, {});
    a.positions[a.key(1, 1)] = Vec3(2, 0, 0);
    a.explicitKey[a.key(1, 1)] = 1;
    m.animations.push_back(a);
    bindFromFirstFrame(m);
    MaterialInterner mats;
    const std::uint32_t mat = mats.intern(m.mesh, "my skin.tga", {});
    const JointIndex j[2] = {1, 0};
    const float w[2] = {0.75f, 0.25f};
    const LinkState states[3] = {LinkState::Absent, LinkState::Zero, LinkState::List};
    for (int c = 0; c < 3; ++c) {
        appendPoint(m.mesh, Vec3(static_cast<float>(c), 0.1f, 0), 0, states[c], j, w,
                    states[c] == LinkState::List ? 2 : 0, {});
        m.mesh.cornerPoints.push_back(static_cast<std::uint32_t>(c));
        m.mesh.cornerNormals.push_back(Vec3(0, 0, 1));
        m.mesh.cornerUvs.push_back(Vec2(0.5f, 1e-7f));
        m.mesh.cornerWhere.push_back({});
    }
    m.mesh.triangleMaterials.push_back(mat);
    m.mesh.triangleWhere.push_back({});
    return m;
}

const char* const kHandSmd = "version 1\n"
                             "nodes\n"
                             "3 \"root\" -1\n"
                             "7 \"arm bone\" 3\n"
                             "end\n"
                             "skeleton\n"
                             "time 0\n"
                             "3 0 0 0 0 0 0\n"
                             "7 1 0.5 -0 0 0 1.5707964\n"
                             "time 2\n"
                             "7 2 0 0 0 0 1.5707964\n"
                             "end\n"
                             "triangles\n"
                             "my skin.tga\n"
                             "3 0 0.1 0 0 0 1 0.5 0.0000001\n"
                             "3 1 0.1 0 0 0 1 0.5 0.0000001 0\n"
                             "3 2 0.1 0 0 0 1 0.5 0.0000001 2 7 0.75 3 0.25\n"
                             "end\n";

Model vtaModel()
{
    Model m;
    m.format = "vta";
    m.kind = ModelKind::Flex;
    m.skeleton.addJoint("root", kNoJoint, 0, {});
    Animation a;
    a.name = "face";
    a.jointCount = 1;
    a.appendFrame(0, {});
    a.appendFrame(1, {});
    a.appendFrame(2, {});
    m.animations.push_back(a);
    VertexFrame base;
    base.ids = {0, 1};
    base.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0)};
    base.normals = {Vec3(0, 0, 1), Vec3(0, 0, 1)};
    base.lineWhere.resize(2);
    VertexFrame smile;
    smile.time = 1;
    smile.name = "Smile Wide";
    smile.nameFromComment = true;
    smile.ids = {1};
    smile.positions = {Vec3(1.5f, 0, 0)};
    smile.normals = {Vec3(0, 0, 1)};
    smile.lineWhere.resize(1);
    VertexFrame unnamed;
    unnamed.time = 2;
    m.vertexFrames = {base, smile, unnamed};
    deriveFlexShapes(m);
    return m;
}

const char* const kVta = "version 1\n"
                         "nodes\n"
                         "0 \"root\" -1\n"
                         "end\n"
                         "skeleton\n"
                         "time 0\n"
                         "time 1 # Smile Wide\n"
                         "time 2\n"
                         "end\n"
                         "vertexanimation\n"
                         "time 0\n"
                         "0 0 0 0 0 0 1\n"
                         "1 1 0 0 0 0 1\n"
                         "time 1 # Smile Wide\n"
                         "1 1.5 0 0 0 0 1\n"
                         "time 2\n"
                         "end\n";

void roundTrip(const std::string& bytes, const std::string& name)
{
    ReadResult r = readText(bytes, name);
    if (!r.hasModel) {
        return;
    }
    const WriteResult once = write(r.model);
    QVERIFY(once.ok());
    ReadResult again = readText(once.bytes, name);
    QCOMPARE(QString::fromStdString(verifyInvariants(again.model)), QString());
    QVERIFY2(again.model == r.model, name.c_str());
    QCOMPARE(again.model.version, r.model.version);
    QCOMPARE(again.model.lineEnding, r.model.lineEnding);
    QCOMPARE(again.model.headerComments, r.model.headerComments);
    QCOMPARE(again.model.format, r.model.format);
    QCOMPARE(QByteArray::fromStdString(write(again.model).bytes),
             QByteArray::fromStdString(once.bytes));
}

} // namespace

class TstSmdWriter : public QObject {
    Q_OBJECT

private slots:
    void exactBytes();
    void readsBackEqual();
    void vtaNamesInBothBlocks();
    void lineEndings();
    void headerComments();
    void badName();
    void nonFinite();
    void modelMatrixNeedsConversion();
    void otherFormats();
    void extraUvSets();
    void fixturesRoundTrip_data();
    void fixturesRoundTrip();
    void corpusRoundTrip_data();
    void corpusRoundTrip();
};

void TstSmdWriter::exactBytes()
{
    const WriteResult w = write(handModel());
    QVERIFY(w.diagnostics.empty());
    QCOMPARE(QByteArray::fromStdString(w.bytes), QByteArray(kHandSmd));
}

void TstSmdWriter::readsBackEqual()
{
    const Model m = handModel();
    ReadResult r = readText(kHandSmd, "hand.smd");
    QVERIFY(r.diagnostics.empty());
    QVERIFY(r.model == m);
}

void TstSmdWriter::vtaNamesInBothBlocks()
{
    const Model m = vtaModel();
    const WriteResult w = write(m);
    QCOMPARE(QByteArray::fromStdString(w.bytes), QByteArray(kVta));
    ReadResult r = readText(w.bytes, "face.vta");
    QVERIFY(r.model == m);
    QCOMPARE(r.model.format, std::string("vta"));
}

void TstSmdWriter::lineEndings()
{
    Model m = handModel();
    m.lineEnding = LineEnding::CRLF;
    std::string crlf = write(m).bytes;
    QCOMPARE(std::count(crlf.begin(), crlf.end(), '\r'),
             std::count(crlf.begin(), crlf.end(), '\n'));
    QVERIFY(crlf.ends_with("end\r\n"));
    QCOMPARE(readText(crlf, "hand.smd").model.lineEnding, LineEnding::CRLF);
    m.lineEnding = LineEnding::CR;
    const std::string cr = write(m).bytes;
    QCOMPARE(std::count(cr.begin(), cr.end(), '\n'), 0);
    ReadResult r = readText(cr, "hand.smd");
    QCOMPARE(r.model.lineEnding, LineEnding::CR);
    QVERIFY(r.model == handModel());
}

void TstSmdWriter::headerComments()
{
    Model m = handModel();
    m.headerComments = {"// exported by RigScope", "  # indented", "not a comment"};
    const std::string bytes = write(m).bytes;
    QVERIFY(
        bytes.starts_with("// exported by RigScope\n  # indented\n// not a comment\nversion 1\n"));
    ReadResult r = readText(bytes, "hand.smd");
    QCOMPARE(r.model.headerComments.size(), std::size_t(3));
    QCOMPARE(r.model.headerComments[2], std::string("// not a comment"));
    QCOMPARE(write(r.model).bytes, bytes);
}

void TstSmdWriter::badName()
{
    Model m = handModel();
    m.skeleton.names[1] = "say \"hi\"";
    const WriteResult w = write(m);
    QVERIFY(!w.ok());
    QCOMPARE(w.diagnostics[0].id, ids::kWriteBadName);
    QVERIFY(w.bytes.find("7 \"say 'hi'\" 3\n") != std::string::npos);
}

void TstSmdWriter::nonFinite()
{
    Model m = handModel();
    m.mesh.pointPositions[0].x() = std::numeric_limits<float>::quiet_NaN();
    m.mesh.influenceWeights[0] = -std::numeric_limits<float>::infinity();
    const WriteResult w = write(m);
    QVERIFY(w.ok());
    QCOMPARE(w.diagnostics.size(), std::size_t(1));
    QCOMPARE(w.diagnostics[0].id, ids::kWriteNonFinite);
    QCOMPARE(w.diagnostics[0].severity, Severity::Warning);
    QVERIFY(w.bytes.find("3 nan 0.1 0") != std::string::npos);
    QVERIFY(w.bytes.find(" 2 7 -inf 3 0.25") != std::string::npos);
    ReadResult r = readText(w.bytes, "hand.smd");
    QVERIFY(r.model == m);
}

void TstSmdWriter::modelMatrixNeedsConversion()
{
    Model m = handModel();
    m.format = "xmodel";
    m.skeleton.bindKind = PoseKind::ModelMatrix;
    m.animations.clear();
    WriteResult w = write(m);
    QVERIFY(!w.ok());
    QVERIFY(w.bytes.empty());
    QVERIFY(w.diagnostics[0].message.find("convert to local Euler first") != std::string::npos);
    // With a local Euler animation (converted) it writes.
    m.animations = handModel().animations;
    w = write(m);
    QVERIFY(w.ok());
    QVERIFY(w.bytes.find("time 2\n") != std::string::npos);
}

void TstSmdWriter::otherFormats()
{
    Model m = handModel();
    m.format = "xmodel";
    m.version = 6;
    m.lineEnding = LineEnding::CRLF;
    m.animations.clear();
    const std::string bytes = write(m).bytes;
    QVERIFY(bytes.starts_with("version 1\n"));
    // No animation: the Euler bind pose becomes `time 0`.
    QVERIFY(bytes.find("skeleton\ntime 0\n3 0 0 0 0 0 0\n7 1 0.5 -0 0 0 1.5707964\nend\n") !=
            std::string::npos);
}

void TstSmdWriter::extraUvSets()
{
    Model m = handModel();
    m.format = "xmodel";
    m.mesh.uvSetCount = 2;
    m.mesh.cornerExtraUvs = {Vec2(0.25f, 0.5f), Vec2(0, 0), Vec2(1, 1)};
    const std::string bytes = write(m).bytes;
    QVERIFY(bytes.starts_with("version 3\n"));
    QVERIFY(bytes.find("0.0000001 0 0.25 0.5\n") != std::string::npos); // absent + extras -> 0
    QVERIFY(bytes.find("0.0000001 0 0 0\n") != std::string::npos);      // zero link + zero extras
    QVERIFY(bytes.find("2 7 0.75 3 0.25 1 1\n") != std::string::npos);
    ReadResult r = readText(bytes, "hand.smd");
    QCOMPARE(r.model.mesh.uvSetCount, 2u);
    QVERIFY(r.model.mesh.cornerExtraUvs == m.mesh.cornerExtraUvs);
}

void TstSmdWriter::fixturesRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    for (const char* fmt : {"smd", "vta"}) {
        const QString dir =
            test::fixturesDir() + QLatin1Char('/') + QLatin1String(fmt) + QStringLiteral("/valid");
        for (const QString& f :
             test::filesUnder(dir, {QStringLiteral("smd"), QStringLiteral("vta")})) {
            QTest::newRow(qPrintable(QDir(test::fixturesDir()).relativeFilePath(f))) << f;
        }
    }
}

void TstSmdWriter::fixturesRoundTrip()
{
    QFETCH(QString, path);
    roundTrip(test::readBytes(path), QFileInfo(path).fileName().toStdString());
}

void TstSmdWriter::corpusRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    const QString dir = test::corpusDir();
    if (dir.isEmpty()) {
        QTest::newRow("no corpus") << QString();
        return;
    }
    for (const QString& f : test::filesUnder(dir, {QStringLiteral("smd"), QStringLiteral("vta")})) {
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
}

void TstSmdWriter::corpusRoundTrip()
{
    QFETCH(QString, path);
    if (path.isEmpty()) {
        QSKIP("corpus not present");
    }
    roundTrip(test::readBytes(path), QFileInfo(path).fileName().toStdString());
}

QTEST_APPLESS_MAIN(TstSmdWriter)
#include "tst_smd_writer.moc"
