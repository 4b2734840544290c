// SMD / VTA reader (FORMATS.md §1): every fixture against its .expected diagnostics, the model
// each edge case must produce, diagnostic columns, and hostile input (NUL bytes, huge lines,
// extreme ids, many materials, random mutations) that must neither crash nor break invariants.
#include <chrono>
#include <random>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtTest/QtTest>

#include "core/diag/diagnostic_ids.h"
#include "core/diag/severity.h"
#include "core/formats/smd/smd_reader.h"
#include "core/formats/smd/smd_writer.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

ReadResult readText(std::string_view bytes, const std::string& name = "test.smd")
{
    ReadContext ctx;
    ctx.fileName = name;
    return readSmd(bytes, ctx);
}

ReadResult readFixture(const char* rel)
{
    return test::readPath(test::fixturesDir() + QLatin1Char('/') + QLatin1String(rel),
                          test::fixturesDir());
}

std::vector<Diagnostic> graded(const ReadResult& r)
{
    std::vector<Diagnostic> d = r.diagnostics;
    applyProfile(d, resolveProfile(r.model, Profile::Auto), true);
    return d;
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

std::size_t countId(const std::vector<Diagnostic>& d, std::string_view id)
{
    std::size_t n = 0;
    for (const Diagnostic& x : d) {
        n += x.id == id ? 1 : 0;
    }
    return n;
}

QString where(const Diagnostic* d)
{
    return d ? QStringLiteral("%1:%2").arg(d->where.line).arg(d->where.column)
             : QStringLiteral("none");
}

const char* const kMinimal =
    "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
    "triangles\nskin.tga\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";

} // namespace

class TstSmdReader : public QObject {
    Q_OBJECT

private slots:
    void fixtures_data();
    void fixtures();
    void sniff();
    void minimalModel();
    void lineEndings();
    void headerComments();
    void parentAfterChild();
    void idGapsKeepSourceIds();
    void duplicateIdLastWins();
    void carryForward();
    void timesSortedAndMerged();
    void linkStates();
    void unknownBones();
    void goldsrcProfile();
    void materialsRaw();
    void emptyMaterial();
    void nullModelBlankTriangles();
    void shortLineRereadAsMaterial();
    void triangleCutByEnd();
    void version3ExtraUvs();
    void nanKeptRaw();
    void unknownBlockSkipped();
    void vtaShapes();
    void vtaSkeletonNames();
    void vtaDiagnostics();
    void columnsPointAtTokens();
    void elementRefs();
    void hostileNulAndControl();
    void hostileHugeLine();
    void hostileManyMaterials();
    void hostileIds();
    void randomMutations();
};

void TstSmdReader::fixtures_data()
{
    QTest::addColumn<QString>("path");
    for (const char* fmt : {"smd", "vta"}) {
        const QString dir = test::fixturesDir() + QLatin1Char('/') + QLatin1String(fmt);
        for (const QString& f :
             test::filesUnder(dir, {QStringLiteral("smd"), QStringLiteral("vta")})) {
            QTest::newRow(qPrintable(QDir(test::fixturesDir()).relativeFilePath(f))) << f;
        }
    }
}

void TstSmdReader::fixtures()
{
    QFETCH(QString, path);
    ReadResult r = test::readPath(path, test::fixturesDir());
    QCOMPARE(QString::fromStdString(verifyInvariants(r.model)), QString());
    std::vector<Diagnostic> diags = graded(r);
    const QStringList lines = test::formatted(diags);
    QCOMPARE(lines, test::expectedFor(path, lines));
    const bool invalid = path.contains(QStringLiteral("/invalid/"));
    QCOMPARE(countSeverity(diags, Severity::Error) > 0, invalid);
    for (const Diagnostic& d : diags) {
        QVERIFY2(d.where.line >= 1 && d.where.column >= 1,
                 qPrintable(QString::fromStdString(formatDiagnostic(d))));
        QVERIFY(findCatalogEntry(d.id) != nullptr || d.fixedSeverity);
    }
    if (r.hasModel) {
        QCOMPARE(r.model.animations.empty() ? std::string() : r.model.animations.front().name,
                 r.model.animations.empty() ? std::string()
                                            : QFileInfo(path).completeBaseName().toStdString());
    }
    if (!invalid && r.hasModel) {
        WriteContext wctx;
        const std::string once = writeSmd(r.model, wctx).bytes;
        ReadResult again = readText(once, QFileInfo(path).fileName().toStdString());
        QCOMPARE(QString::fromStdString(verifyInvariants(again.model)), QString());
        QVERIFY(again.model == r.model);
        QCOMPARE(QByteArray::fromStdString(writeSmd(again.model, wctx).bytes),
                 QByteArray::fromStdString(once));
    }
}

void TstSmdReader::sniff()
{
    QCOMPARE(sniffSmd("version 1\nnodes\n"), 90);
    QCOMPARE(sniffSmd("// c\n\n  # x\nnodes\n"), 90);
    QCOMPARE(sniffSmd("VERSION 1"), 90);
    QCOMPARE(sniffSmd("MODEL\nVERSION 6\n"), 0);
    QCOMPARE(sniffSmd(""), 0);
    QCOMPARE(sniffSmd("SMDX\x01"), 0);
}

void TstSmdReader::minimalModel()
{
    ReadResult r = readText(kMinimal, "dir/hero.smd");
    QVERIFY(r.hasModel);
    QVERIFY(r.diagnostics.empty());
    const Model& m = r.model;
    QCOMPARE(m.format, std::string("smd"));
    QCOMPARE(m.kind, ModelKind::Reference);
    QCOMPARE(m.version, 1);
    QCOMPARE(m.skeleton.size(), std::size_t(1));
    QCOMPARE(m.skeleton.names[0], std::string("root"));
    QCOMPARE(m.mesh.triangleCount(), std::size_t(1));
    QCOMPARE(m.mesh.pointCount(), std::size_t(3));
    QCOMPARE(m.mesh.cornerPoints[2], 2u);
    QCOMPARE(m.mesh.pointLinkState[0], LinkState::Absent);
    QCOMPARE(m.mesh.pointParents[0], 0);
    QCOMPARE(m.mesh.cornerUvs[1].x(), 1.0f);
    QCOMPARE(m.mesh.cornerWhere[1].line, 12u);
    QCOMPARE(m.mesh.triangleWhere[0].line, 10u);
    QCOMPARE(m.mesh.materials[0].name, std::string("skin.tga"));
    QCOMPARE(m.animations.size(), std::size_t(1));
    QCOMPARE(m.animations[0].name, std::string("hero"));
    QCOMPARE(m.lineEnding, LineEnding::LF);
    QCOMPARE(readText(kMinimal, "face.VTA").model.format, std::string("vta"));
}

void TstSmdReader::lineEndings()
{
    std::string crlf = kMinimal;
    std::string cr = kMinimal;
    for (std::size_t i = 0; (i = crlf.find('\n', i)) != std::string::npos; i += 2) {
        crlf.replace(i, 1, "\r\n");
    }
    std::replace(cr.begin(), cr.end(), '\n', '\r');
    ReadResult a = readText(crlf);
    QCOMPARE(a.model.lineEnding, LineEnding::CRLF);
    QVERIFY(a.diagnostics.empty());
    ReadResult b = readText(cr);
    QCOMPARE(b.model.lineEnding, LineEnding::CR);
    const Diagnostic* d = findId(b.diagnostics, ids::kSyntaxLineEnding);
    QVERIFY(d && d->severity == Severity::Error && d->fixedSeverity);
    QVERIFY(b.model == readText(kMinimal).model);
    std::string noNl = kMinimal;
    noNl.pop_back();
    ReadResult c = readText(noNl);
    d = findId(c.diagnostics, ids::kSyntaxLineEnding);
    QVERIFY(d && d->severity == Severity::Note);
}

void TstSmdReader::headerComments()
{
    ReadResult r = readFixture("smd/valid/header_comments.smd");
    QCOMPARE(r.model.headerComments.size(), std::size_t(3));
    QCOMPARE(r.model.headerComments[0], std::string("// exported by hand"));
    QCOMPARE(r.model.headerComments[2], std::string("; third"));
    QCOMPARE(r.model.animations[0].positions[1].z(), 1.0f);
    QCOMPARE(r.model.mesh.triangleCount(), std::size_t(1));
}

void TstSmdReader::parentAfterChild()
{
    ReadResult r = readFixture("smd/valid/parent_after_child.smd");
    const Skeleton& s = r.model.skeleton;
    QCOMPARE(s.size(), std::size_t(3));
    // Parent-first order: root, arm, hand; source ids kept.
    QCOMPARE(s.names[0], std::string("root"));
    QCOMPARE(s.names[1], std::string("arm"));
    QCOMPARE(s.names[2], std::string("hand"));
    QCOMPARE(s.sourceIds[2], 0);
    QCOMPARE(s.parents[2], 1);
    QCOMPARE(s.parents[1], 0);
    // The pose followed its bone.
    QCOMPARE(s.bindPositions[2].z(), 1.0f);
    QCOMPARE(s.bindPositions[1].x(), 1.0f);
}

void TstSmdReader::idGapsKeepSourceIds()
{
    ReadResult r = readFixture("smd/valid/id_gaps.smd");
    QCOMPARE(r.model.skeleton.sourceIds, (std::vector<std::int32_t>{0, 5, 9}));
    QCOMPARE(r.model.skeleton.parents, (std::vector<JointIndex>{-1, 0, 1}));
    QCOMPARE(r.model.skeleton.findBySourceId(9), 2);
}

void TstSmdReader::duplicateIdLastWins()
{
    ReadResult r = readFixture("smd/invalid/duplicate_id.smd");
    QCOMPARE(r.model.skeleton.size(), std::size_t(2));
    QCOMPARE(r.model.skeleton.names[1], std::string("other"));
    const Diagnostic* d = findId(r.diagnostics, ids::kSkeletonDuplicateId);
    QVERIFY(d);
    QCOMPARE(d->element.kind, ElementRef::Kind::Joint);
    QCOMPARE(d->element.index, 1);
    QCOMPARE(d->related.size(), std::size_t(1));
    QCOMPARE(d->related[0].where.line, 4u);
    ReadResult same = readFixture("smd/valid/duplicate_id_identical.smd");
    d = findId(same.diagnostics, ids::kSkeletonDuplicateId);
    QVERIFY(d && d->severity == Severity::Note);
}

void TstSmdReader::carryForward()
{
    ReadResult r = readFixture("smd/valid/omitted_bones_anim.smd");
    QCOMPARE(r.model.kind, ModelKind::Animation);
    const Animation& a = r.model.animations[0];
    QCOMPARE(a.frameCount(), std::size_t(4));
    QCOMPARE(a.positions[a.key(1, 0)], Vec3(0, 0, 0));
    QCOMPARE(a.positions[a.key(1, 1)], Vec3(0, 0, 2));
    QCOMPARE(a.positions[a.key(2, 1)], Vec3(0, 0, 2));
    QCOMPARE(a.positions[a.key(3, 0)], Vec3(1, 0, 0));
    QCOMPARE(a.rotations[a.key(3, 0)].z(), 0.5f);
    QCOMPARE(a.explicitKey, (std::vector<std::uint8_t>{1, 1, 0, 1, 0, 0, 1, 0}));
}

void TstSmdReader::timesSortedAndMerged()
{
    ReadResult r = readFixture("smd/valid/time_decreasing.smd");
    const Animation& a = r.model.animations[0];
    QCOMPARE(a.times, (std::vector<double>{0, 1, 2}));
    QCOMPARE(a.positions[a.key(1, 1)].z(), 2.0f);
    QCOMPARE(a.positions[a.key(2, 1)].z(), 3.0f);
    const Diagnostic* d = findId(r.diagnostics, ids::kSkeletonTimeOrder);
    QVERIFY(d && d->severity == Severity::Warning);
    QCOMPARE(d->element.kind, ElementRef::Kind::Frame);
    QCOMPARE(d->element.index, 1);

    ReadResult dup = readFixture("smd/valid/time_duplicate.smd");
    const Animation& b = dup.model.animations[0];
    QCOMPARE(b.times, (std::vector<double>{0, 1}));
    QCOMPARE(b.positions[b.key(1, 0)].x(), 1.0f); // first `time 1`
    QCOMPARE(b.positions[b.key(1, 1)].z(), 5.0f); // second `time 1`
    QCOMPARE(countId(dup.diagnostics, ids::kSkeletonDuplicateFrame), std::size_t(1));

    ReadResult before = readFixture("smd/invalid/time_before_first.smd");
    QCOMPARE(before.model.animations[0].times, (std::vector<double>{2, 5, 6}));
    d = findId(before.diagnostics, ids::kSkeletonTimeOrder);
    QVERIFY(d && d->severity == Severity::Error);
    QCOMPARE(d->element.index, 0);

    ReadResult frac = readFixture("smd/valid/fractional_time.smd");
    QCOMPARE(frac.model.animations[0].times, (std::vector<double>{0, 0.5}));
}

void TstSmdReader::linkStates()
{
    ReadResult r = readFixture("smd/valid/link_states.smd");
    const Mesh& me = r.model.mesh;
    QCOMPARE(me.pointLinkState[0], LinkState::Absent);
    QCOMPARE(me.pointLinkState[1], LinkState::Zero);
    QCOMPARE(me.pointLinkState[2], LinkState::List);
    QCOMPARE(me.influenceCount(2), 5u);
    QCOMPARE(me.influenceCount(0), 0u);
    QCOMPARE(me.influenceCount(1), 0u);
    QCOMPARE(me.pointParents[0], 1);
    QCOMPARE(me.pointParents[1], 2);
    // Raw order and duplicates kept (`3 0 -0.25 4 1.25 0 0`).
    const std::uint32_t o = me.influenceOffsets[5];
    QCOMPARE(me.influenceCount(5), 3u);
    QCOMPARE(me.influenceJoints[o], 0);
    QCOMPARE(me.influenceWeights[o], -0.25f);
    QCOMPARE(me.influenceJoints[o + 1], 4);
    QCOMPARE(me.influenceJoints[o + 2], 0);
    QCOMPARE(me.influenceWeights[o + 2], 0.0f);
}

void TstSmdReader::unknownBones()
{
    ReadResult r = readFixture("smd/invalid/unknown_link_bone.smd");
    const Mesh& me = r.model.mesh;
    QCOMPARE(countId(r.diagnostics, ids::kWeightsUnknownBone), std::size_t(3));
    QCOMPARE(me.pointParents[0], 0);                 // bad rigid parent -> first declared bone
    QCOMPARE(me.influenceCount(1), 1u);              // bone 8 dropped, bone 1 kept
    QCOMPARE(me.pointLinkState[2], LinkState::Zero); // its only link dropped
    const Diagnostic* d = findId(r.diagnostics, ids::kWeightsUnknownBone);
    QCOMPARE(d->element.kind, ElementRef::Kind::Vertex);
    QCOMPARE(d->element.index, 0);
}

void TstSmdReader::goldsrcProfile()
{
    ReadResult r = readFixture("smd/valid/goldsrc_9field.smd");
    QCOMPARE(resolveProfile(r.model, Profile::Auto), Profile::GoldSrc);
    ReadResult c = readFixture("smd/invalid/goldsrc_comments.smd");
    QCOMPARE(resolveProfile(c.model, Profile::Auto), Profile::GoldSrc);
    std::vector<Diagnostic> d = graded(c);
    QCOMPARE(countId(d, ids::kSyntaxCommentGoldsrc), std::size_t(2));
    QCOMPARE(d.front().severity, Severity::Warning); // top level
    QCOMPARE(c.model.headerComments.size(), std::size_t(1));
}

void TstSmdReader::materialsRaw()
{
    ReadResult r = readFixture("smd/valid/material_spaces.smd");
    const auto& mats = r.model.mesh.materials;
    QCOMPARE(mats.size(), std::size_t(3));
    QCOMPARE(mats[0].name, std::string("Material #152"));
    QCOMPARE(mats[1].name, std::string("models/props/walter head.tga"));
    QCOMPARE(mats[2].name, std::string("#hash_start"));
    QCOMPARE(mats[1].where.line, 16u);
    QCOMPARE(mats[1].where.column, 3u);
}

void TstSmdReader::emptyMaterial()
{
    ReadResult r = readFixture("smd/valid/empty_material.smd");
    QCOMPARE(r.model.mesh.triangleCount(), std::size_t(1));
    QCOMPARE(r.model.mesh.materials[0].name, std::string());
    ReadResult blank = readFixture("smd/valid/blank_lines.smd");
    QCOMPARE(blank.model.mesh.triangleCount(), std::size_t(1));
}

// A null model (tschumann/basis null.smd, compiled by HL1 studiomdl to a 0-bone null.mdl): an
// empty 'triangles' block holding one blank line, and a bone whose parent is itself undeclared.
// studiomdl skips the blank line and the 3 after it (only the 'end'), and keeps no bone of a
// file without triangles: notes. A blank line before real triangles still desyncs them.
void TstSmdReader::nullModelBlankTriangles()
{
    const std::string nullSmd = "version 1\nnodes\n  0 \"Bone1\"  1\nend\nskeleton\ntime 0\n"
                                "  0 0 0 0 0 0 0\nend\ntriangles\n\nend\n";
    const auto severityOf = [](const std::vector<Diagnostic>& d, std::string_view id) {
        const Diagnostic* x = findId(d, id);
        return x ? int(x->severity) : -1;
    };
    for (const Profile p : {Profile::GoldSrc, Profile::Source}) {
        ReadContext ctx;
        ctx.fileName = "null.smd";
        ctx.profile = p;
        std::vector<Diagnostic> d = readSmd(nullSmd, ctx).diagnostics;
        applyProfile(d, p, true);
        const Diagnostic* blank = findId(d, ids::kSyntaxBlankLineInBlock);
        QVERIFY(blank);
        QCOMPARE(where(blank), QStringLiteral("10:1"));
        QCOMPARE(blank->severity, Severity::Note);
        QCOMPARE(severityOf(d, ids::kSkeletonUnknownParent),
                 int(p == Profile::GoldSrc ? Severity::Note : Severity::Error));
    }
    const std::string desync = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                               "0 0 0 0 0 0 0\nend\ntriangles\n\nskin.bmp\n"
                               "0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
    ReadContext ctx;
    ctx.profile = Profile::GoldSrc;
    const ReadResult r = readSmd(desync, ctx);
    const Diagnostic* blank = findId(r.diagnostics, ids::kSyntaxBlankLineInBlock);
    QVERIFY(blank);
    QCOMPARE(blank->severity, Severity::Error);
}

void TstSmdReader::shortLineRereadAsMaterial()
{
    ReadResult r = readFixture("smd/invalid/short_line.smd");
    const Mesh& me = r.model.mesh;
    // `skin.tga` is dropped; the short line `0 1 0 0 0` becomes the next material.
    QCOMPARE(me.triangleCount(), std::size_t(2));
    QCOMPARE(me.materials[me.triangleMaterials[0]].name, std::string("0 1 0 0 0"));
    QCOMPARE(me.materials[me.triangleMaterials[1]].name, std::string("other.tga"));
    const Diagnostic* d = findId(r.diagnostics, ids::kSyntaxShortLine);
    QCOMPARE(where(d), QStringLiteral("14:1"));
    QCOMPARE(d->message, std::string("vertex line has 5 fields; needs 9"));

    ReadResult links = readFixture("smd/invalid/short_links.smd");
    QCOMPARE(links.model.mesh.triangleCount(), std::size_t(0));
    d = findId(links.diagnostics, ids::kSyntaxShortLine);
    QCOMPARE(d->message, std::string("vertex line has 12 fields; needs 14"));
}

void TstSmdReader::triangleCutByEnd()
{
    ReadResult r = readFixture("smd/invalid/triangle_cut_by_end.smd");
    QCOMPARE(r.model.mesh.triangleCount(), std::size_t(0));
    QCOMPARE(r.model.kind, ModelKind::Reference);
    QVERIFY(findId(r.diagnostics, ids::kSyntaxShortLine));
    QVERIFY(!findId(r.diagnostics, ids::kSyntaxMissingEnd));
}

void TstSmdReader::version3ExtraUvs()
{
    ReadResult r = readFixture("smd/invalid/version3_extra_uvs.smd");
    const Mesh& me = r.model.mesh;
    QCOMPARE(r.model.version, 3);
    QCOMPARE(me.uvSetCount, 3u);
    QCOMPARE(me.cornerExtraUvs.size(), std::size_t(6));
    QCOMPARE(me.cornerExtraUvs[0], Vec2(0.25f, 0.5f));
    QCOMPARE(me.cornerExtraUvs[1], Vec2(0.75f, 1.0f));
    QCOMPARE(me.cornerExtraUvs[2], Vec2(0.5f, 0.5f));
    QCOMPARE(me.cornerExtraUvs[3], Vec2(0, 0)); // padded
    QCOMPARE(me.cornerExtraUvs[4], Vec2(0, 0)); // 9-field corner
    QVERIFY(findId(r.diagnostics, ids::kSyntaxBadVersion));
    QVERIFY(!findId(r.diagnostics, ids::kSyntaxExtraFields));
    // Round trip keeps the extra sets.
    const std::string once = writeSmd(r.model, {}).bytes;
    ReadResult again = readText(once, "version3_extra_uvs.smd");
    QVERIFY(again.model == r.model);
    QCOMPARE(writeSmd(again.model, {}).bytes, once);
}

void TstSmdReader::nanKeptRaw()
{
    ReadResult r = readFixture("smd/valid/nan_inf.smd");
    QVERIFY(r.diagnostics.empty()); // mesh.nan / weights.nan are checks, not reader errors
    const Mesh& me = r.model.mesh;
    QVERIFY(std::isnan(me.pointPositions[0].x()));
    QVERIFY(std::isinf(me.cornerNormals[1].z()));
    QVERIFY(std::isnan(me.influenceWeights[1]));
    QVERIFY(std::isinf(me.cornerUvs[2].y()));
    QVERIFY(std::isnan(r.model.animations[0].positions[1].x()));
    QVERIFY(std::isinf(r.model.animations[0].rotations[1].z()));
}

void TstSmdReader::unknownBlockSkipped()
{
    ReadResult r = readFixture("smd/valid/unknown_block.smd");
    QCOMPARE(r.model.mesh.triangleCount(), std::size_t(1));
    QCOMPARE(r.model.skeleton.size(), std::size_t(2));
    const Diagnostic* d = findId(r.diagnostics, ids::kSyntaxUnknownBlock);
    QCOMPARE(where(d), QStringLiteral("6:1"));
}

void TstSmdReader::vtaShapes()
{
    ReadResult r = readFixture("vta/valid/shapes.vta");
    const Model& m = r.model;
    QCOMPARE(m.kind, ModelKind::Flex);
    QCOMPARE(m.format, std::string("vta"));
    QCOMPARE(m.vertexFrames.size(), std::size_t(3));
    QCOMPARE(m.vertexFrames[1].name, std::string("Smile"));
    QCOMPARE(m.vertexFrames[2].name, std::string("Blink Left"));
    QVERIFY(m.vertexFrames[2].nameFromComment);
    QVERIFY(!m.vertexFrames[0].nameFromComment);
    QCOMPARE(m.vertexFrames[2].ids, (std::vector<std::int32_t>{0, 2}));
    QCOMPARE(m.flexShapes.size(), std::size_t(2));
    QCOMPARE(m.flexShapes[0].name, std::string("Smile"));
    QCOMPARE(m.flexShapes[0].deltaPositions[0], Vec3(0.5f, 0, 0));
    QVERIFY((m.flexShapes[1].deltaNormals[1] - Vec3(0, 0.6f, -0.2f)).norm() < 1e-6f);
    QCOMPARE(m.animations[0].frameCount(), std::size_t(3));

    ReadResult none = readFixture("vta/valid/no_names.vta");
    QCOMPARE(none.model.flexShapes[0].name, std::string("frame 1"));
    QVERIFY(!none.model.vertexFrames[1].nameFromComment);
    QVERIFY(none.model.vertexFrames[2].nameFromComment);
    QCOMPARE(none.model.vertexFrames[2].name, std::string());
}

void TstSmdReader::vtaSkeletonNames()
{
    ReadResult r = readFixture("vta/valid/skeleton_names_only.vta");
    QCOMPARE(r.model.vertexFrames[1].name, std::string("jaw open"));
    QCOMPARE(r.model.flexShapes[0].name, std::string("jaw open"));
}

void TstSmdReader::vtaDiagnostics()
{
    ReadResult sync = readFixture("vta/invalid/frame_sync.vta");
    QCOMPARE(where(findId(sync.diagnostics, ids::kFlexFrameSync)), QStringLiteral("9:1"));
    QCOMPARE(sync.model.vertexFrames[0].ids.size(), std::size_t(1));

    ReadResult range = readFixture("vta/invalid/vertex_id_out_of_range.vta");
    QCOMPARE(countId(range.diagnostics, ids::kFlexVertexIdOutOfRange), std::size_t(2));
    const Diagnostic* d = findId(range.diagnostics, ids::kFlexVertexIdOutOfRange);
    QCOMPARE(d->element.kind, ElementRef::Kind::Shape);
    QCOMPARE(d->element.index, 0);
    QVERIFY(range.model.flexShapes[0].ids.empty());

    ReadResult inc = readFixture("vta/invalid/first_shape_incomplete.vta");
    d = findId(inc.diagnostics, ids::kFlexFirstShapeIncomplete);
    QVERIFY(d);
    QCOMPARE(d->message, std::string("base frame lacks ids 1-2, 5-8; their deltas have no base"));

    ReadResult mism = readFixture("vta/valid/frame_count_mismatch.vta");
    d = findId(mism.diagnostics, ids::kFlexFrameCountMismatch);
    QVERIFY(d && d->severity == Severity::Warning && d->fixedSeverity);

    ReadResult tri = readFixture("vta/valid/has_triangles.vta");
    QCOMPARE(tri.model.kind, ModelKind::Flex);
    QCOMPARE(tri.model.mesh.triangleCount(), std::size_t(1));
    QVERIFY(findId(tri.diagnostics, ids::kFlexHasTriangles));
}

void TstSmdReader::columnsPointAtTokens()
{
    ReadResult r = readFixture("smd/invalid/bad_number.smd");
    std::vector<QString> at;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.id == ids::kSyntaxBadNumber) {
            at.push_back(where(&d));
        }
    }
    QCOMPARE(at, (std::vector<QString>{QStringLiteral("4:1"), QStringLiteral("8:7")}));
    ReadResult p = readFixture("smd/invalid/unknown_parent.smd");
    QCOMPARE(where(findId(p.diagnostics, ids::kSkeletonUnknownParent)), QStringLiteral("4:11"));
    ReadResult t = readFixture("smd/valid/tabs_and_indent.smd");
    QCOMPARE(where(findId(t.diagnostics, ids::kSyntaxTabInFile)), QStringLiteral("3:1"));
    ReadResult e = readFixture("smd/valid/extra_fields.smd");
    QCOMPARE(where(findId(e.diagnostics, ids::kSyntaxExtraFields)), QStringLiteral("3:13"));
    ReadResult k = readFixture("smd/invalid/keyword_case_end.smd");
    QCOMPARE(where(findId(k.diagnostics, ids::kSyntaxKeywordCase)), QStringLiteral("4:1"));
}

void TstSmdReader::elementRefs()
{
    ReadResult r = readFixture("smd/invalid/unknown_bone_in_frame.smd");
    const Diagnostic* d = findId(r.diagnostics, ids::kSkeletonUnknownBoneInFrame);
    QCOMPARE(d->element.kind, ElementRef::Kind::Frame);
    QCOMPARE(d->element.index, 0);
    ReadResult c = readFixture("smd/invalid/parent_cycle.smd");
    d = findId(c.diagnostics, ids::kSkeletonCycle);
    QVERIFY(d);
    QCOMPARE(d->element.kind, ElementRef::Kind::Joint);
    QCOMPARE(c.model.skeleton.size(), std::size_t(3));
    ReadResult u = readFixture("smd/invalid/unquoted_name.smd");
    d = findId(u.diagnostics, ids::kSyntaxUnquotedName);
    QCOMPARE(d->element.index, 0);
    QCOMPARE(u.model.skeleton.names[0], std::string("root"));
}

void TstSmdReader::hostileNulAndControl()
{
    ReadResult r = readFixture("smd/invalid/nul_bytes.smd");
    QVERIFY(r.hasModel);
    QCOMPARE(r.model.skeleton.names[0], std::string("ro\0ot", 5));
    std::string junk(4096, '\0');
    for (std::size_t i = 0; i < junk.size(); i += 7) {
        junk[i] = static_cast<char>(i * 31);
    }
    ReadResult j = readText(junk);
    QCOMPARE(QString::fromStdString(verifyInvariants(j.model)), QString());
    ReadResult k = readText("version 1\nnodes\n" + junk + "\nend\ntriangles\n" + junk + "\nend\n");
    QCOMPARE(QString::fromStdString(verifyInvariants(k.model)), QString());
}

void TstSmdReader::hostileHugeLine()
{
    // 64 MB on one line, at top level, as a material and as a vertex line.
    const std::string big(64u << 20, 'x');
    const auto t0 = std::chrono::steady_clock::now();
    ReadResult a = readText(big);
    QVERIFY(!a.hasModel);
    std::string nums;
    nums.reserve(48u << 20);
    while (nums.size() < (48u << 20)) {
        nums += "1 ";
    }
    ReadResult b = readText(std::string(kMinimal) + "triangles\n" + nums + "\n" + nums + "\nend\n");
    QCOMPARE(QString::fromStdString(verifyInvariants(b.model)), QString());
    QVERIFY(findId(b.diagnostics, ids::kSyntaxExtraFields));
    for (const Diagnostic& d : b.diagnostics) {
        QVERIFY(d.message.size() < 200);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY2(s < 30.0, qPrintable(QString::number(s)));
}

void TstSmdReader::hostileManyMaterials()
{
    // 200k triangles with distinct materials: linear time.
    std::string text = "version 1\nnodes\n0 \"root\" -1\nend\ntriangles\n";
    const std::size_t n = 200000;
    text.reserve(n * 80);
    for (std::size_t i = 0; i < n; ++i) {
        text +=
            "m" + std::to_string(i) + "\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 0 0\n0 0 1 0 0 0 1 0 0\n";
    }
    text += "end\n";
    const auto t0 = std::chrono::steady_clock::now();
    ReadResult r = readText(text);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QCOMPARE(r.model.mesh.materials.size(), n);
    QVERIFY2(s < 10.0, qPrintable(QString::number(s)));
}

void TstSmdReader::hostileIds()
{
    ReadResult r = readFixture("smd/invalid/huge_ids.smd");
    QCOMPARE(r.model.skeleton.size(), std::size_t(2));
    QCOMPARE(r.model.skeleton.sourceIds[0], 2147483647);
    QCOMPARE(r.model.mesh.influenceCount(0), 1u);
    QCOMPARE(r.model.mesh.influenceJoints[0], 0);
    // Links count of 2^31-1: reported, no allocation of that size.
    ReadResult big =
        readText("version 1\nnodes\n0 \"r\" -1\nend\ntriangles\nm\n"
                 "0 0 0 0 0 0 1 0 0 2147483647 0 1\n0 0 0 0 0 0 1 0 0\n0 0 0 0 0 0 1 0 0\nend\n");
    QVERIFY(findId(big.diagnostics, ids::kSyntaxBadNumber));
    QCOMPARE(QString::fromStdString(verifyInvariants(big.model)), QString());
}

void TstSmdReader::randomMutations()
{
    // Byte flips, deletions and truncations of every fixture: no crash, sound models.
    std::mt19937 rng(1234);
    const QString dir = test::fixturesDir();
    const QStringList files =
        test::filesUnder(dir + QStringLiteral("/smd"), {QStringLiteral("smd")}) +
        test::filesUnder(dir + QStringLiteral("/vta"), {QStringLiteral("vta")});
    const char pool[] = "0123456789 \t\r\n\"-+.#;/eEnN"
                        "end"
                        "time";
    std::size_t runs = 0;
    for (const QString& f : files) {
        const std::string base = test::readBytes(f);
        if (base.empty()) {
            continue;
        }
        for (int k = 0; k < 60; ++k) {
            std::string s = base;
            const int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits && !s.empty(); ++e) {
                const std::size_t at = rng() % s.size();
                switch (rng() % 4) {
                case 0:
                    s[at] = pool[rng() % (sizeof pool - 1)];
                    break;
                case 1:
                    s.erase(at, 1 + rng() % 8);
                    break;
                case 2:
                    s.insert(at, 1, pool[rng() % (sizeof pool - 1)]);
                    break;
                default:
                    s.resize(at);
                    break;
                }
            }
            ReadResult r = readText(s, k % 2 ? "m.vta" : "m.smd");
            const std::string why = verifyInvariants(r.model);
            QVERIFY2(why.empty(),
                     qPrintable(f + QStringLiteral(": ") + QString::fromStdString(why)));
            if (r.hasModel) {
                const std::string once = writeSmd(r.model, {}).bytes;
                ReadResult again = readText(once, k % 2 ? "m.vta" : "m.smd");
                QVERIFY(verifyInvariants(again.model).empty());
            }
            ++runs;
        }
    }
    QVERIFY(runs > 1000);
}

QTEST_APPLESS_MAIN(TstSmdReader)
#include "tst_smd_reader.moc"
