// core/checks/xref.cpp: the rest-pose comparison compares rotations as rotations, in double, so
// float rounding near ±90° pitch is no difference (issue 27: "Δrot 0.03°" on a sequence that
// plays the body file itself), and a binary file's row is located at the bone's bytes.
#include <QtTest/QtTest>

#include "core/checks/checks.h"
#include "core/checks/registry.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/qc/qc_reader.h"
#include "core/formats/smd/smd_reader.h"
#include "core/ops/qc_ops.h"

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

// A two-bone SMD: root at `rootPos`, child at `childPos`; a triangle when `mesh`.
std::string twoBones(const char* rootPos, const char* childPos, bool mesh = true)
{
    return std::string("version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\n"
                       "time 0\n0 ") +
           rootPos + " 0 0 0\n1 " + childPos + " 0 0 0\nend\n" +
           (mesh ? "triangles\nm\n0 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 1 0\n"
                   "1 0 1 0 0 0 1 0 1\nend\n"
                 : "");
}

// `check main.qc` on `fs`: "file: severity: message" of every xref.rest-pose-differs.
std::vector<std::string> projectRestRows(MemoryQcFileSystem& fs, Profile p = Profile::Auto)
{
    const QcReport r = qcReport("p/main.qc", p, fs);
    std::vector<std::string> rows;
    for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
        for (const Diagnostic& d : f.diagnostics) {
            if (d.id == ids::kXrefRestPoseDiffers) {
                rows.push_back(f.file + ": " + std::string(severityName(d.severity)) + ": " +
                               d.message);
            }
        }
    }
    return rows;
}

// An SMD with bones `nodes` (`"name" parent` lines, in order) at the origin; with `weighted`
// (bone ids), one triangle on each of those bones by its parent field.
std::string skeletonSmd(const std::vector<std::pair<std::string, int>>& nodes,
                        const std::vector<int>& weighted = {})
{
    std::string s = "version 1\nnodes\n";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        s += std::to_string(i) + " \"" + nodes[i].first + "\" " + std::to_string(nodes[i].second) +
             "\n";
    }
    s += "end\nskeleton\ntime 0\n";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        s += std::to_string(i) + " 0 0 " + std::to_string(i) + " 0 0 0\n";
    }
    s += "end\n";
    if (!weighted.empty()) {
        s += "triangles\n";
        for (int b : weighted) {
            const std::string id = std::to_string(b);
            s += "mat.bmp\n" + id + " 0 0 0 0 0 1 0 0\n" + id + " 1 0 0 0 0 1 1 0\n" + id +
                 " 0 1 0 0 0 1 0 1\n";
        }
        s += "end\n";
    }
    return s;
}

// xref.parent-mismatch of `anim` against `ref` under `p`: "line: severity: message".
std::vector<std::string> parentRows(const std::string& anim, const std::string& ref, Profile p)
{
    const ReadResult a = read(anim, "anim.smd");
    const ReadResult r = read(ref, "ref.smd");
    DiagnosticSink sink("anim.smd", false);
    checks::checkXrefParentMismatch({&a.model, "anim.smd"}, {&r.model, "ref.smd"}, p, sink);
    std::vector<std::string> rows;
    for (const Diagnostic& d : sink.take()) {
        rows.push_back(std::to_string(d.where.line) + ": " + std::string(severityName(d.severity)) +
                       ": " + d.message);
    }
    return rows;
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

    // Issue 30 item 3 (momentum-mod v_mom_shotgun: "'reference' rest differs: Δpos 4.8477", the
    // norm of its `$origin 1.5 4.5 1 3`). studiomdl loads every file at the current `$scale`
    // and takes `$origin` (and its angle) off the roots of each sequence's frames (Source
    // BuildRawTransforms with the sequence's adjust and rotation; HL1 Grab_Animation), the
    // same for a sequence that plays the body file itself: the file's rest pose, read as
    // written, is compared with the model's in the files' own space, so neither is a difference.
    void originAndScaleAreNoRestDifference()
    {
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = "$modelname t.mdl\n$scale 0.75\n$body b body.smd\n"
                                "$origin 1.5 4.5 1 3\n$sequence idle body.smd\n"
                                "$sequence walk walk.smd\n";
        fs.files["p/body.smd"] = twoBones("2 0 0", "0 0 4");
        fs.files["p/walk.smd"] = twoBones("2 0 0", "0 0 4", false);
        const std::vector<std::string> rows = projectRestRows(fs);
        QVERIFY2(rows.empty(), rows.empty() ? "" : rows.front().c_str());
    }

    // A real difference under the same `$scale` and `$origin` still warns, measured in the
    // file's units: the second body's child is 1 unit off the first body's.
    void realDifferenceUnderOriginStillWarns()
    {
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = "$modelname t.mdl\n$scale 0.75\n$origin 1.5 4.5 1 3\n"
                                "$body b body.smd\n$body c other.smd\n$sequence idle other.smd\n"
                                "$sequence walk walk.smd\n";
        fs.files["p/body.smd"] = twoBones("2 0 0", "0 0 4");
        fs.files["p/other.smd"] = twoBones("2 0 0", "0 1 4");
        // An animation whose frame-0 child is 2 units long against the body's 4.
        fs.files["p/walk.smd"] = twoBones("2 0 0", "0 0 2", false);
        QCOMPARE(projectRestRows(fs),
                 (std::vector<std::string>{
                     "p/other.smd: warning: 'child' rest differs: Δpos 1, Δrot 0°",
                     "p/walk.smd: note: 'child' frame-0 bone length 2, reference 4"}));
    }

    // Issue 30 item 3: HL1 studiomdl.c SimplifyModel maps each sequence's first animation onto
    // the bone table (the bones the bodies' vertices use, with their parents) by name and stops
    // with "illegal parent bone replacement" when a table bone's parent there has another name,
    // even where the animation leaves the table's parent out (an exporter that trimmed it).
    void goldSrcTrimmedParentIsAnError()
    {
        const std::string ref =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}}, {3});
        const std::string anim = skeletonSmd({{"root", -1}, {"spine", 0}, {"arm", 1}});
        QCOMPARE(parentRows(anim, ref, Profile::GoldSrc),
                 (std::vector<std::string>{"5: error: 'arm' has parent 'spine' here, 'shoulder' "
                                           "in ref.smd; GoldSrc studiomdl stops (illegal parent "
                                           "bone replacement)"}));
        // vbmcompiler (studiocompiler.cpp RemapSequenceBones) fails the same way.
        QCOMPARE(parentRows(anim, ref, Profile::Pathos).size(), std::size_t(1));
        // Source re-expresses the animation through the world: nothing here.
        QVERIFY(parentRows(anim, ref, Profile::Source).empty());
    }

    // A parent the model lacks altogether, between two table bones: the same stop.
    void goldSrcExtraParentIsAnError()
    {
        const std::string ref = skeletonSmd({{"root", -1}, {"spine", 0}}, {1});
        const std::string anim = skeletonSmd({{"root", -1}, {"extra", 0}, {"spine", 1}});
        QCOMPARE(parentRows(anim, ref, Profile::GoldSrc),
                 (std::vector<std::string>{"5: error: 'spine' has parent 'extra' here, 'root' in "
                                           "ref.smd; GoldSrc studiomdl stops (illegal parent bone "
                                           "replacement)"}));
    }

    // A bone no vertex uses is not in the table: SimplifyModel skips the animation's bone
    // (unknown bone), whatever its parent, and the compile goes on.
    void goldSrcUnusedBoneIsNotCompared()
    {
        const std::string ref = skeletonSmd({{"root", -1}, {"arm", 0}, {"tip", 1}}, {1});
        const std::string anim = skeletonSmd({{"root", -1}, {"arm", 0}, {"tip", 0}});
        const std::vector<std::string> rows = parentRows(anim, ref, Profile::GoldSrc);
        QVERIFY2(rows.empty(), rows.empty() ? "" : rows.front().c_str());
        // Weighted, it is in the table: the stop.
        const std::string used = skeletonSmd({{"root", -1}, {"arm", 0}, {"tip", 1}}, {2});
        QCOMPARE(parentRows(anim, used, Profile::GoldSrc).size(), std::size_t(1));
    }

    // HL1 findNode and the parent test compare names with strcmp; vbmcompiler ignores case
    // (qstrcicmp). A parent named 'Spine' in the animation against the table's 'spine'.
    void goldSrcComparesNamesWithCase()
    {
        const std::string ref = skeletonSmd({{"root", -1}, {"spine", 0}, {"arm", 1}}, {2});
        const std::string anim = skeletonSmd({{"root", -1}, {"Spine", 0}, {"arm", 1}});
        QCOMPARE(parentRows(anim, ref, Profile::GoldSrc).size(), std::size_t(1));
        QVERIFY(parentRows(anim, ref, Profile::Pathos).empty());
    }

    // A reference played as a sequence whose rest pose differs: the related "reference pose
    // here" is the line of the body file that declared the bone, in that file (not a line
    // number under the QC's name).
    void referencePoseIsInItsBodyFile()
    {
        MemoryQcFileSystem fs;
        fs.files["p/body.smd"] = skeletonSmd({{"root", -1}, {"arm", 0}}, {1});
        std::string moved = skeletonSmd({{"root", -1}, {"arm", 0}}, {1});
        moved.replace(moved.find("1 0 0 1 0 0 0"), 13, "1 0 0 4 0 0 0");
        fs.files["p/rag.smd"] = moved;
        fs.files["p/main.qc"] = "$modelname t.mdl\n$body b body.smd\n$sequence rag rag.smd\n";
        const QcReport r = qcReport("p/main.qc", Profile::Source, fs);
        QStringList found;
        for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id != ids::kXrefRestPoseDiffers) {
                    continue;
                }
                found << QStringLiteral("%1:%2")
                             .arg(QString::fromStdString(f.file))
                             .arg(d.where.line);
                for (const RelatedNote& n : d.related) {
                    found << QStringLiteral("  %1:%2 %3")
                                 .arg(QString::fromStdString(n.file))
                                 .arg(n.where.line)
                                 .arg(QString::fromStdString(n.message));
                }
            }
        }
        QCOMPARE(found, (QStringList{QStringLiteral("p/rag.smd:7"),
                                     QStringLiteral("  p/body.smd:7 reference pose here")}));
    }

    // Every file of a blend is read and checked, as studiomdl loads each (ParseSequence): a
    // later blend cut short is an error at its own lines, and its frame 0 is compared with the
    // rest pose as the first file's is.
    void aBlendsLaterFilesAreChecked()
    {
        MemoryQcFileSystem fs;
        fs.files["p/body.smd"] = skeletonSmd({{"root", -1}, {"arm", 0}}, {1});
        fs.files["p/ok.smd"] = skeletonSmd({{"root", -1}, {"arm", 0}});
        fs.files["p/cut.smd"] = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\n"
                                "skeleton\ntime 0\n0 0 0 0\n";
        fs.files["p/main.qc"] =
            "$modelname t.mdl\n$body b body.smd\n$sequence aim ok.smd cut.smd blend XR -45 45\n";
        const QcReport r = qcReport("p/main.qc", Profile::Source, fs);
        QCOMPARE(r.compiled.model.animations.size(), std::size_t(1));
        QStringList found;
        for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.severity == Severity::Error) {
                    found << QStringLiteral("%1:%2 %3")
                                 .arg(QString::fromStdString(f.file))
                                 .arg(d.where.line)
                                 .arg(QString::fromUtf8(d.id.data(), qsizetype(d.id.size())));
                }
            }
        }
        QCOMPARE(found, (QStringList{QStringLiteral("p/cut.smd:8 syntax.short-line"),
                                     QStringLiteral("p/cut.smd:8 syntax.truncated")}));
    }

    // In a GoldSrc project: the error is at the animation's bone line, judged against the
    // merged bodies' table. HL1 SimplifyModel checks a sequence's first animation only; the
    // other blends are mapped by its bones unchecked ("relink animations"), so a blend that
    // differs compiles: no error there.
    void goldSrcProjectStopsOnTheFirstAnimation()
    {
        MemoryQcFileSystem fs;
        fs.files["p/body.smd"] =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}}, {3});
        fs.files["p/ok.smd"] =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}});
        fs.files["p/bad.smd"] = skeletonSmd({{"root", -1}, {"spine", 0}, {"arm", 1}});
        auto rows = [&](const char* qc) {
            fs.files["p/main.qc"] = qc;
            std::vector<std::string> out;
            const QcReport r = qcReport("p/main.qc", Profile::GoldSrc, fs);
            for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
                for (const Diagnostic& d : f.diagnostics) {
                    if (d.id == ids::kXrefParentMismatch) {
                        out.push_back(f.file + ":" + std::to_string(d.where.line) + ": " +
                                      std::string(severityName(d.severity)));
                    }
                }
            }
            return out;
        };
        QCOMPARE(rows("$modelname t.mdl\n$body b body.smd\n$sequence idle ok.smd\n"
                      "$sequence walk bad.smd\n"),
                 (std::vector<std::string>{"p/bad.smd:5: error"}));
        // A later blend is read and checked, but no parent of it is an error.
        QCOMPARE(rows("$modelname t.mdl\n$body b body.smd\n$sequence aim ok.smd bad.smd\n"),
                 std::vector<std::string>{});
    }

    // xref.blend-mismatch: a later blend against the sequence's first file. HL1 relinks the
    // later blends by the first file's bone numbers and frame range ("relink animations"), so a
    // blend whose bones differ by number plays its tracks on other bones (warning);
    // vbmcompiler stops (studiocompiler.cpp: bones, frames, names and parents by index).
    void blendMismatchAgainstTheFirstFile()
    {
        MemoryQcFileSystem fs;
        fs.files["p/body.smd"] =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}}, {3});
        fs.files["p/ok.smd"] =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}});
        fs.files["p/same.smd"] =
            skeletonSmd({{"ROOT", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}});
        fs.files["p/bad.smd"] =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"arm", 1}, {"shoulder", 1}});
        fs.files["p/short.smd"] = skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}});
        fs.files["p/par.smd"] =
            skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 0}, {"arm", 2}});
        std::string two = skeletonSmd({{"root", -1}, {"spine", 0}, {"shoulder", 1}, {"arm", 2}});
        two.replace(two.rfind("end\n"), 4,
                    "time 1\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0\n2 0 0 2 0 0 0\n3 0 0 3 0 0 0\nend\n");
        fs.files["p/two.smd"] = two;
        auto rows = [&](const char* qc, Profile profile) {
            fs.files["p/main.qc"] = qc;
            std::vector<std::string> out;
            const QcReport r = qcReport("p/main.qc", profile, fs);
            for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
                for (const Diagnostic& d : f.diagnostics) {
                    if (d.id != ids::kXrefBlendMismatch) {
                        continue;
                    }
                    std::string row = f.file + ":" + std::to_string(d.where.line) + ": " +
                                      std::string(severityName(d.severity)) + ": " + d.message;
                    for (const RelatedNote& n : d.related) {
                        row += " | " + n.file + ":" + std::to_string(n.where.line);
                    }
                    out.push_back(row);
                }
            }
            return out;
        };
        const char* qc = "$modelname t.mdl\n$body b body.smd\n"
                         "$sequence a1 ok.smd same.smd bad.smd blend XR -45 45\n"
                         "$sequence a2 ok.smd short.smd blend XR -45 45\n"
                         "$sequence a3 ok.smd par.smd two.smd blend XR -45 45\n";
        const std::string tracks = "; studiomdl plays a later blend's tracks by the first "
                                   "file's bone numbers";
        const std::vector<std::string> goldsrc = {
            "p/bad.smd:5: warning: blend 3 of sequence 'a1' has bone 2 'arm' where its first "
            "file ok.smd has 'shoulder'" +
                tracks + " | p/ok.smd:5",
            "p/short.smd:5: warning: blend 2 of sequence 'a2' has 3 bones, its first file "
            "ok.smd has 4" +
                tracks + " | p/ok.smd:6",
            "p/par.smd:5: warning: blend 2 of sequence 'a3' has bone 2 'shoulder' under 'root' "
            "where its first file ok.smd has it under 'spine'" +
                tracks + " | p/ok.smd:5",
            "p/two.smd:14: warning: blend 3 of sequence 'a3' has 2 frames, its first file ok.smd "
            "has 1; studiomdl plays every blend over the first file's frames | p/ok.smd:9"};
        QCOMPARE(rows(qc, Profile::GoldSrc), goldsrc);
        const std::vector<std::string> pathos = rows(qc, Profile::Pathos);
        QCOMPARE(pathos.size(), std::size_t(4));
        for (const std::string& row : pathos) {
            QVERIFY2(row.find(": error: ") != std::string::npos, row.c_str());
            QVERIFY2(row.find("vbmcompiler stops") != std::string::npos, row.c_str());
        }
        // Source maps each animation onto the model by bone name and keeps its own frames.
        QCOMPARE(rows(qc, Profile::Source), std::vector<std::string>{});
        // One file: nothing to compare.
        QCOMPARE(
            rows("$modelname t.mdl\n$body b body.smd\n$sequence aim bad.smd\n", Profile::GoldSrc),
            std::vector<std::string>{});
    }
};

QTEST_APPLESS_MAIN(TstXref)
#include "tst_xref.moc"
