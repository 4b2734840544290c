// core/checks/xref.cpp: the rest-pose comparison compares rotations as rotations, in double, so
// float rounding near ±90° pitch is no difference (issue 27: "Δrot 0.03°" on a sequence that
// plays the body file itself), and a binary file's row is located at the bone's bytes.
#include <QtTest/QtTest>

#include "core/checks/checks.h"
#include "core/checks/registry.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/smd/smd_reader.h"

using namespace rigscope::core;

namespace {

// A reference whose bones sit at pitch ±1.570796 (as SMD exporters write ±90°) with twists in
// X and Z, and one triangle.
std::string gimbalSmd(const char* childPosition = "1 0 0")
{
    return std::string("version 1\n"
                       "nodes\n"
                       "0 \"root\" -1\n"
                       "1 \"child\" 0\n"
                       "2 \"a\" 1\n"
                       "3 \"b\" 2\n"
                       "4 \"c\" 3\n"
                       "5 \"d\" 4\n"
                       "end\n"
                       "skeleton\n"
                       "time 0\n"
                       "0 0 0 0 1.570796 -1.570796 0\n"
                       "1 ") +
           childPosition +
           " 0.3 -1.570796 0.2\n"
           "2 0 1 0 -2.9 -1.570796 1.1\n"
           "3 0 0 1 1.570796 1.570796 -1.570796\n"
           "4 2 0 0 3.1 -1.570796 -3.1\n"
           "5 0 2 0 -0.5 1.570796 2.5\n"
           "end\n"
           "triangles\n"
           "mat\n"
           "0 0 0 0 0 0 1 0 0\n"
           "1 1 0 0 0 0 1 1 0\n"
           "5 0 1 0 0 0 1 0 1\n"
           "end\n";
}

ReadResult read(const std::string& bytes, const char* name)
{
    ReadContext ctx;
    ctx.fileName = name;
    return readSmd(bytes, ctx);
}

std::vector<Diagnostic> restPose(const Model& self, const Model& ref, const char* selfName,
                                 bool binary = false)
{
    DiagnosticSink sink(selfName, binary);
    checks::checkXrefRestPose({&self, selfName}, {&ref, "ref.smd"}, Profile::Source, sink);
    return sink.take();
}

} // namespace

class TstXref : public QObject {
    Q_OBJECT
private slots:
    // The body file read twice (a sequence that plays it): no row.
    void samePoseNearGimbalIsNoDifference()
    {
        const std::string bytes = gimbalSmd();
        const ReadResult a = read(bytes, "body.smd");
        const ReadResult b = read(bytes, "body.smd");
        QVERIFY(a.hasModel && !a.hasErrors() && b.hasModel);
        QCOMPARE(a.model.kind, ModelKind::Reference);
        const auto d = restPose(a.model, b.model, "body.smd");
        QVERIFY2(d.empty(), d.empty() ? "" : d.front().message.c_str());
    }

    // Written to DMX (quaternions) and compared with the SMD (Euler): the same rest pose.
    void samePoseAcrossFormats()
    {
        const ReadResult smd = read(gimbalSmd(), "body.smd");
        WriteContext wctx;
        wctx.fileName = "body.dmx";
        const WriteResult w = writeDmxWith(smd.model, wctx, {true, 2, 1});
        QVERIFY(w.ok());
        ReadContext ctx;
        ctx.fileName = "body.dmx";
        const ReadResult dmx = readDmx(w.bytes, ctx);
        QVERIFY(dmx.hasModel && !dmx.hasErrors());
        QVERIFY(restPose(dmx.model, smd.model, "body.dmx").empty());
        QVERIFY(restPose(smd.model, dmx.model, "body.smd").empty());
    }

    // A real difference is still found: Δpos 1 on 'child', at its pose (text: the `time 0` line)
    // or at its transform's bytes (binary DMX), never at @0x0000.
    void realDifferenceIsLocated()
    {
        const ReadResult ref = read(gimbalSmd(), "ref.smd");
        const ReadResult lod = read(gimbalSmd("2 0 0"), "lod.smd");
        const auto text = restPose(lod.model, ref.model, "lod.smd");
        QCOMPARE(text.size(), std::size_t(1));
        QCOMPARE(text[0].id, std::string(ids::kXrefRestPoseDiffers));
        QCOMPARE(text[0].where.line, 11u); // the SMD's pose is its `time 0` line
        QVERIFY(text[0].message.find("Δpos 1, Δrot 0°") != std::string::npos);

        WriteContext wctx;
        wctx.fileName = "lod.dmx";
        const WriteResult w = writeDmxWith(lod.model, wctx, {true, 2, 1});
        ReadContext ctx;
        ctx.fileName = "lod.dmx";
        const ReadResult dmx = readDmx(w.bytes, ctx);
        QVERIFY(dmx.hasModel && !dmx.hasErrors());
        const auto bin = restPose(dmx.model, ref.model, "lod.dmx", true);
        QCOMPARE(bin.size(), std::size_t(1));
        const JointIndex child = dmx.model.skeleton.findByName("child");
        QVERIFY(child != kNoJoint);
        QVERIFY(bin[0].where.offset != 0);
        QCOMPARE(bin[0].where.offset,
                 dmx.model.skeleton.bindWhere[static_cast<std::size_t>(child)].offset);
        QCOMPARE(bin[0].related.size(), std::size_t(1));
        QCOMPARE(bin[0].related[0].where.line, 11u);
    }
};

QTEST_APPLESS_MAIN(TstXref)
#include "tst_xref.moc"
