// QC projects (issue 17): the studiomdl tokenizer and pre-processor, every command kept with its
// file and line, resolution as studiomdl does it, the compiled model, the qc.* checks (one
// fixture each under fixtures/qc/checks, `<id>.qc` + `.expected`), hostile scripts, and the
// corpus QCs (each missing file reported once at its line).
#include <map>

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/qc/qc_reader.h"
#include "core/ops/qc_ops.h"
#include "core/project/qc_compile.h"
#include "core/project/qc_resolve.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/ops/read_input.h"
#include "core/pose/flex_binding.h"
#include "tests/support/public_data.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString qcDir()
{
    return test::fixturesDir() + QStringLiteral("/qc");
}

QcProject readText(const std::string& text, MemoryQcFileSystem* fs = nullptr, QcLimits limits = {})
{
    QcReadOptions o;
    o.fileName = "p/main.qc";
    o.fs = fs;
    o.limits = limits;
    return readQc(text, o);
}

std::vector<std::string> idsAt(const std::vector<Diagnostic>& diags, std::string_view id)
{
    std::vector<std::string> out;
    for (const Diagnostic& d : diags) {
        if (d.id == id) {
            out.push_back(d.file + ":" + std::to_string(d.where.line));
        }
    }
    return out;
}

std::size_t count(const std::vector<Diagnostic>& diags, std::string_view id)
{
    return idsAt(diags, id).size();
}

QString dump(const std::vector<Diagnostic>& diags)
{
    return test::formatted(diags).join(QLatin1Char('\n'));
}

// An SMD of one bone at rest and nothing else: a body or a one-frame animation.
constexpr const char* kOneBoneRest =
    "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n";

// The qc.syntax diagnostics of `r` as "line:column severity".
QStringList syntaxRows(const QcReport& r)
{
    QStringList rows;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.id == ids::kQcSyntax) {
            rows << QStringLiteral("%1:%2 %3")
                        .arg(d.where.line)
                        .arg(d.where.column)
                        .arg(QString::fromUtf8(severityName(d.severity)));
        }
    }
    return rows;
}

} // namespace

class TstQcReader : public QObject {
    Q_OBJECT
private slots:
    void tokenizer()
    {
        // A quoted token ends at the next quote: a trailing backslash is part of the path.
        const QcProject p = readText("$CDMaterials \"models\\props_combine\\\" \"b/\"\n"
                                     "$ModelName \"x.mdl\" // comment \"ignored\"\n"
                                     "/* block\n comment */ $scale .5\n"
                                     "# hash comment\n"
                                     "; semicolon comment\n"
                                     "$BODYGROUP g\n{\n studio \"a.smd\" } \n"
                                     "$bodygroup h {studio b blank}\n");
        QCOMPARE(p.cdMaterials.size(), std::size_t(2));
        QCOMPARE(p.cdMaterials[0].path, std::string("models\\props_combine\\"));
        QCOMPARE(p.cdMaterials[1].path, std::string("b/"));
        QCOMPARE(p.modelName, std::string("x.mdl"));
        QCOMPARE(p.modelNameAt.where.line, 2u);
        QCOMPARE(p.scale, 0.5f);
        QCOMPARE(p.bodygroups.size(), std::size_t(2));
        QCOMPARE(p.bodygroups[0].at.where.line, 7u);
        QCOMPARE(p.bodygroups[0].choices.size(), std::size_t(1));
        QCOMPARE(p.bodygroups[0].choices[0].at.where.line, 9u);
        QCOMPARE(p.bodygroups[1].choices.size(), std::size_t(2));
        QVERIFY(p.bodygroups[1].choices[1].blank);
        QVERIFY2(p.diagnostics.empty(), qPrintable(dump(p.diagnostics)));
    }

    void variablesAndMacros()
    {
        const QcProject p = readText("$definevariable _SCALE 2.5\n"
                                     "$scale $_SCALE$\n"
                                     "$definemacro _ATTACHMENT name bone x y z \\\\\n"
                                     "$attachment $name$ $bone$ $x$ $y$ $z$ \\\\\n"
                                     "$hbox 0 $bone$ -1 -1 -1 1 1 1\n"
                                     "$body b ref\n"
                                     "$_ATTACHMENT eyes head 1 2 3\n"
                                     "$_attachment mouth jaw 0 0 $_SCALE$\n");
        QVERIFY2(p.diagnostics.empty(), qPrintable(dump(p.diagnostics)));
        QCOMPARE(p.scale, 2.5f);
        QCOMPARE(p.attachments.size(), std::size_t(2));
        QCOMPARE(p.attachments[0].name, std::string("eyes"));
        QCOMPARE(p.attachments[0].bone, std::string("head"));
        QCOMPARE(p.attachments[0].offset.z(), 3.0f);
        QCOMPARE(p.attachments[0].at.where.line, 7u); // at the invocation
        QCOMPARE(p.attachments[1].offset.z(), 2.5f);
        QCOMPARE(p.hitboxes.size(), std::size_t(2));
        QCOMPARE(p.hitboxes[1].bone, std::string("jaw"));
        QCOMPARE(p.hitboxes[1].at.where.line, 8u);
    }

    void realScriptForms()
    {
        // Forms met in Crowbar-decompiled and hand-written Source projects (Mapbase's modelsrc):
        // each once misread the scripts around it.
        MemoryQcFileSystem fs;
        for (const char* f :
             {"p/a.smd", "p/b.smd", "p/w1.smd", "p/w2.smd", "p/anims/f.smd", "p/anims/g.smd"}) {
            fs.files[f] = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                          "0 0 0 0 0 0 0\nend\n";
        }
        fs.files["p/main.qc"] =
            // A macro body ends at the first line without `\\`, even when the line before ends
            // in `\\ // comment` and the next one is empty (studiomdl scans raw lines)...
            "$definemacro Blends \\\\\n"             // 1
            "\t\"w1\" \"w2\" \\\\\n"                 // 2
            "\t{ event 6004 6 \"x\" } \\\\ // new\n" // 3
            "\n"                                     // 4
            // ...and goes on through a comment line that holds `\\`.
            "$definemacro Gest name file \\\\\n"   // 5
            "$sequence $name$ $file$ { \\\\\n"     // 6
            "  // HACK until abs footsteps \\\\\n" // 7
            "  fps 30 \\\\\n"                      // 8
            "} \\\\\n"                             // 9
            "\n"                                   // 10
            // A macro used inside a block expands there; options follow a closed block.
            "$sequence walk { $Blends activity ACT_WALK 1 } delta autoplay\n" // 11
            "$pushd \"anims\"\n"                                              // 12
            "$Gest g1 \"f\"\n"                                                // 13
            "$Gest g2 \"g\"\n"                                                // 14
            // The `$popd` right after must not move g2's file out of anims/.
            "$popd\n"                                                               // 15
            "$sequence lay \"a\" blendlayer l 0 0 0 10 spline local\n"              // 16
            "$animation an \"b\" worldspaceblend lay walkalign 10 lay LX LY 0 10\n" // 17
            "$collisionjoints \"a\" { $rootbone \" \" }\n";                         // 18
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        const QcProject& p = r.project;
        QVERIFY2(p.diagnostics.empty(), qPrintable(dump(p.diagnostics)));
        QCOMPARE(p.sequences.size(), std::size_t(4));
        const QcSequence& walk = p.sequences[0];
        QCOMPARE(walk.name, std::string("walk"));
        QCOMPARE(walk.sources, (std::vector<std::string>{"w1", "w2"}));
        QCOMPARE(walk.options.activity, std::string("ACT_WALK"));
        QVERIFY(walk.options.delta);
        QVERIFY(walk.options.autoplay);
        QCOMPARE(p.sequences[1].name, std::string("g1"));
        QCOMPARE(p.sequences[1].options.fps, 30.0f);
        QCOMPARE(p.sequences[2].name, std::string("g2"));
        QCOMPARE(p.sequences[2].at.where.line, 14u);
        QCOMPARE(p.sequences[3].sources, std::vector<std::string>{"a"});
        QCOMPARE(p.animations.size(), std::size_t(1));
        QCOMPARE(p.animations[0].source, std::string("b"));
        for (const QcFileRef& f : p.files) {
            QVERIFY2(!f.resolved.empty(), f.path.c_str());
        }
        QVERIFY(p.boneRefs.empty()); // `$rootbone " "`: no bone
    }

    void includes()
    {
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = "";
        fs.files["p/inc/common.qci"] = "$include \"deeper.qci\"\n$attachment a root 0 0 0\n";
        fs.files["p/inc/deeper.qci"] = "$surfaceprop metal\n$hbox 0 root 0 0 0 1 1 1\n";
        fs.files["p/rules.qci"] = "eyeball e \"head\" 0 0 0 m 1 4 p 1\n";
        fs.files["p/pushed/Sub/Other.QCI"] = "$bonemerge spine\n";
        const QcProject p = readText("$include \"inc\\common.qci\"\n"
                                     "$model face face.smd {\n"
                                     "  $include \"rules.qci\"\n"
                                     "}\n"
                                     "$pushd pushed\n"
                                     "$include \"sub/other.qci\"\n"
                                     "$popd\n",
                                     &fs);
        QCOMPARE(p.includes.size(), std::size_t(4));
        QCOMPARE(p.attachments.size(), std::size_t(1));
        QCOMPARE(p.attachments[0].at.file, std::string("p/inc/common.qci"));
        QCOMPARE(p.attachments[0].at.where.line, 2u);
        QCOMPARE(p.hitboxes.at(0).at.file, std::string("p/inc/deeper.qci"));
        QCOMPARE(p.bodygroups.size(), std::size_t(1));
        QCOMPARE(p.bodygroups[0].choices[0].path, std::string("face.smd"));
        // eyeball inside the included rules names a bone
        QCOMPARE(p.boneRefs.size(), std::size_t(4)); // hbox, attachment, eyeball, bonemerge
        QCOMPARE(p.boneRefs[2].bone, std::string("head"));
        QCOMPARE(p.boneRefs[2].command, std::string("eyeball"));
        QCOMPARE(p.boneRefs[2].at.file, std::string("p/rules.qci"));
        QCOMPARE(p.boneRefs[3].bone, std::string("spine"));
        QCOMPARE(count(p.diagnostics, ids::kQcCaseMismatch), std::size_t(1));
        QCOMPARE(count(p.diagnostics, ids::kQcMissingFile), std::size_t(0));
    }

    void sourceProject()
    {
        const QcReport r = qcReportFromFile(
            (qcDir() + QStringLiteral("/source/hero.qc")).toStdString(), Profile::Auto);
        QVERIFY(r.readable);
        QVERIFY2(r.errors == 0 && r.warnings == 0, qPrintable(dump(r.diagnostics)));
        const QcProject& p = r.project;
        QCOMPARE(r.profile, Profile::Source);
        QCOMPARE(p.modelName, std::string("rigscope/hero/hero.mdl"));
        QCOMPARE(p.includes.size(), std::size_t(2));
        QCOMPARE(p.bodygroups.size(), std::size_t(3));
        QCOMPARE(p.bodygroups[1].name, std::string("helmet"));
        QCOMPARE(p.bodygroups[1].choices.size(), std::size_t(2));
        QCOMPARE(p.bodygroups[2].command, std::string("model"));
        QCOMPARE(p.bodygroups[2].flexFiles.size(), std::size_t(1));
        QCOMPARE(p.sequences.size(), std::size_t(5));
        QCOMPARE(p.animations.size(), std::size_t(1));
        QCOMPARE(p.attachments.size(), std::size_t(2));
        QCOMPARE(p.hitboxes.size(), std::size_t(3));
        QCOMPARE(p.hitboxes[0].set, std::string("default"));
        QCOMPARE(p.textureGroups.size(), std::size_t(1));
        QCOMPARE(p.skinCount(), std::size_t(2));
        QCOMPARE(p.lods.size(), std::size_t(1));
        QCOMPARE(p.ikChains.size(), std::size_t(1));
        QCOMPARE(p.jiggleBones.size(), std::size_t(1));
        QCOMPARE(p.defineBones.size(), std::size_t(2));
        QCOMPARE(p.cdMaterials.size(), std::size_t(1));
        QCOMPARE(p.cdMaterials[0].at.where.line, 7u);
        for (const QcFileRef& f : p.files) {
            QVERIFY2(!f.resolved.empty(),
                     (f.path + " in \"" + f.searchDir + "\" / " + f.scriptDir).c_str());
        }
        // Sequences: options, sources, animation references.
        const QcSequence& idle = p.sequences[0];
        QCOMPARE(idle.options.fps, 10.0f);
        QVERIFY(idle.options.loop);
        QCOMPARE(idle.options.activity, std::string("ACT_IDLE"));
        QCOMPARE(p.sequences[1].fileRefs.at(0), -1); // a_walk is an $animation
        QVERIFY(p.sequences[2].options.delta);
        const QcSequence& run = p.sequences[3];
        QCOMPARE(run.sources, std::vector<std::string>{"walk.smd"});
        QCOMPARE(run.options.fps, 40.0f);
        QCOMPARE(run.options.frameStart, 1);
        QCOMPARE(run.options.frameEnd, 3);
        QVERIFY(p.sequences[4].declared);

        // The compiled model: bodies merged by bone name, $definebone added.
        const QcCompiled& c = r.compiled;
        QVERIFY(c.hasModel);
        QVERIFY2(verifyInvariants(c.model).empty(), verifyInvariants(c.model).c_str());
        QCOMPARE(c.model.skeleton.size(), std::size_t(5)); // root spine hand head jiggle_tip
        QVERIFY(c.model.skeleton.findByName("jiggle_tip") != kNoJoint);
        QCOMPARE(c.model.mesh.triangleCount(), std::size_t(4 + 2 + 4));
        QCOMPARE(c.model.mesh.objects.size(), std::size_t(3));
        QCOMPARE(c.choiceObjects[1], (std::vector<std::int32_t>{1, -1}));
        QCOMPARE(c.model.mesh.materials.size(), std::size_t(2));
        QCOMPARE(c.model.flexShapes.size(), std::size_t(1));
        // head mesh starts after body (8 corners... 4 triangles = 12 points) and helmet (6)
        QCOMPARE(c.model.flexShapes[0].ids.front(), 12 + 6 + 2);
        // Sequences as animations: idle 3 frames, walk (via a_walk, fps 24) 4, aim 2, run 3.
        QCOMPARE(c.model.animations.size(), std::size_t(4));
        QCOMPARE(c.sequenceAnimation, (std::vector<std::int32_t>{0, 1, 2, 3, -1}));
        QCOMPARE(c.model.animations[0].frameCount(), std::size_t(3));
        QCOMPARE(c.model.animations[0].fps, 10.0f);
        QCOMPARE(c.model.animations[1].fps, 24.0f);
        QCOMPARE(c.model.animations[3].frameCount(), std::size_t(3));
        // run = walk frames 1..3: the root moves by x = frame
        const Animation& a = c.model.animations[3];
        const auto root = static_cast<std::size_t>(c.model.skeleton.findByName("root"));
        QCOMPARE(a.positions[a.key(0, root)].x(), 1.0f);
        QCOMPARE(c.attachmentJoints.size(), std::size_t(2));
        QVERIFY(c.attachmentJoints[1] == c.model.skeleton.findByName("hand"));
    }

    void compileChoicesAndSkin()
    {
        // What the game draws for one body value: one choice per group, the skeleton unchanged.
        QcLoadResult l = loadQcProject((qcDir() + QStringLiteral("/source/hero.qc")).toStdString(),
                                       Profile::Auto);
        QVERIFY(l.readable);
        DiskQcFileSystem fs;
        QcCompileOptions o;
        o.allChoices = false;
        o.choices = {0, 1, 0}; // helmet: blank
        o.skin = 1;
        const QcCompiled c = compileQc(l.project, fs, o);
        QVERIFY(verifyInvariants(c.model).empty());
        QCOMPARE(c.model.skeleton.size(), std::size_t(5));
        QCOMPARE(c.model.mesh.triangleCount(), std::size_t(4 + 4));
        QCOMPARE(c.choiceObjects[1], (std::vector<std::int32_t>{-1, -1}));
        QCOMPARE(c.model.mesh.materials.size(), std::size_t(2));
        QCOMPARE(c.model.mesh.materials[0].name, std::string("hero_skin_red"));
        QCOMPARE(c.model.mesh.materials[1].name, std::string("hero_metal_rust"));
        o.choices = {-1, 0, 0};
        o.skin = 0;
        const QcCompiled d = compileQc(l.project, fs, o);
        QCOMPARE(d.model.mesh.triangleCount(), std::size_t(2 + 4));
        QCOMPARE(d.model.mesh.materials[0].name, std::string("hero_metal"));
    }

    void lodReplacesMaterials()
    {
        // LOD 1 shown: its replacematerial puts skin_far in for skin (case aside); LOD 0 keeps it.
        MemoryQcFileSystem fs;
        const std::string smd = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                                "0 0 0 0 0 0 0\nend\ntriangles\nSkin\n0 0 0 0 0 0 1 0 0\n"
                                "0 1 0 0 0 0 1 0 0\n0 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/ref.smd"] = smd;
        fs.files["p/lod.smd"] = smd;
        fs.files["p/main.qc"] = "$body body \"ref.smd\"\n$lod 10\n{\n"
                                "  replacemodel \"ref.smd\" \"lod.smd\"\n"
                                "  replacematerial \"skin\" \"skin_far\"\n"
                                "  replacematerial \"short\"\n}\n";
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QVERIFY2(r.compiled.hasModel, qPrintable(dump(r.diagnostics)));
        QCOMPARE(r.project.lods.size(), std::size_t(1));
        QCOMPARE(r.project.lods[0].replaceMaterials.size(), std::size_t(1));
        QCOMPARE(r.project.lods[0].replaceMaterials[0].at.where.line, 5u);
        QCOMPARE(r.project.lods[0].replaceMaterials[0].at.where.column, 26u);
        QCOMPARE(r.compiled.model.mesh.materials[0].name, std::string("Skin"));
        QcCompileOptions o;
        o.lod = 1;
        const QcCompiled c = compileQc(r.project, fs, o);
        QCOMPARE(c.model.mesh.materials.size(), std::size_t(1));
        QCOMPARE(c.model.mesh.materials[0].name, std::string("skin_far"));
        bool shortLine = false;
        for (const Diagnostic& d : r.diagnostics) {
            shortLine = shortLine || (d.id == ids::kSyntaxShortLine && d.where.line == 6);
        }
        QVERIFY2(shortLine, qPrintable(dump(r.diagnostics)));
    }

    void deltaAndSubtractPlayOnTheRestPose()
    {
        // A delta sequence is shown alone as the engine adds it: on the reference pose.
        // `subtract stand 0` first takes frame 0 of `stand` away (D = Q * B^-1, positions
        // subtracted); `delta` frames already are deltas.
        MemoryQcFileSystem fs;
        const std::string nodes = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\n";
        fs.files["p/ref.smd"] = nodes + "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 10 0 0 0\nend\n"
                                        "triangles\nm\n1 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 0 0\n"
                                        "1 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/stand.smd"] =
            nodes + "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 10 0 0 0.5\nend\n";
        fs.files["p/aim.smd"] = nodes + "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 10 0 0 0.5\n"
                                        "time 1\n0 0 0 0 0 0 0\n1 1 0 10 0 0 0.8\nend\n";
        fs.files["p/dlt.smd"] = nodes + "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 0 0.2 0 0\nend\n";
        fs.files["p/main.qc"] = "$body body \"ref.smd\"\n"
                                "$animation stand \"stand.smd\"\n"
                                "$sequence aim \"aim.smd\" subtract stand 0\n"
                                "$sequence d { \"dlt.smd\" delta }\n"
                                "$sequence plain \"aim.smd\"\n";
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QVERIFY2(r.compiled.hasModel, qPrintable(dump(r.diagnostics)));
        QCOMPARE(r.project.sequences[0].options.subtract, std::string("stand"));
        QCOMPARE(r.project.sequences[0].options.subtractFrame, 0);
        const auto& anims = r.compiled.model.animations;
        QCOMPARE(anims.size(), std::size_t(3));
        auto near = [](const Vec3& a, const Vec3& b) { return (a - b).norm() < 1e-5f; };
        const Animation& aim = anims[0];
        QCOMPARE(aim.frameCount(), std::size_t(2));
        QVERIFY(near(aim.positions[aim.key(0, 1)], Vec3(0, 0, 10))); // frame 0 minus itself
        QVERIFY(near(aim.rotations[aim.key(0, 1)], Vec3(0, 0, 0)));
        QVERIFY(near(aim.positions[aim.key(1, 1)], Vec3(1, 0, 10)));
        QVERIFY(near(aim.rotations[aim.key(1, 1)], Vec3(0, 0, 0.3f)));
        const Animation& d = anims[1];
        QVERIFY(near(d.positions[d.key(0, 1)], Vec3(0, 0, 10)));
        QVERIFY(near(d.rotations[d.key(0, 1)], Vec3(0.2f, 0, 0)));
        const Animation& plain = anims[2]; // not a delta: played as written
        QVERIFY(near(plain.rotations[plain.key(1, 1)], Vec3(0, 0, 0.8f)));
    }

    void upAxisTurnsTheModelZUp()
    {
        // `$upaxis y`: 90° about X takes the art's +Y to +Z (points, normals, root bind and root
        // keys); child bones stay parent-relative.
        MemoryQcFileSystem fs;
        const std::string nodes = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\n";
        fs.files["p/ref.smd"] = nodes + "skeleton\ntime 0\n0 0 5 0 0 0 0\n1 1 0 0 0 0 0\nend\n"
                                        "triangles\nm\n0 0 1 0 0 1 0 0 0\n0 1 1 0 0 1 0 0 0\n"
                                        "1 0 2 0 0 1 0 0 0\nend\n"; // "arm" weighted: kept
        fs.files["p/idle.smd"] = nodes + "skeleton\ntime 0\n0 0 6 0 0 0 0\n1 1 0 0 0 0 0\nend\n";
        fs.files["p/main.qc"] = "$upaxis Y\n$body body \"ref.smd\"\n$sequence idle \"idle.smd\"\n";
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QVERIFY2(r.compiled.hasModel, qPrintable(dump(r.diagnostics)));
        QCOMPARE(r.project.upAxis, std::string("y"));
        const Model& m = r.compiled.model;
        auto near = [](const Vec3& a, const Vec3& b) { return (a - b).norm() < 1e-5f; };
        QVERIFY(near(m.mesh.pointPositions[0], Vec3(0, 0, 1)));
        QVERIFY(near(m.mesh.pointPositions[2], Vec3(0, 0, 2)));
        QVERIFY(near(m.mesh.cornerNormals[0], Vec3(0, 0, 1)));
        QVERIFY(near(m.skeleton.bindPositions[0], Vec3(0, 0, 5)));
        QVERIFY(near(m.skeleton.bindRotations[0], Vec3(1.5707963f, 0, 0)));
        QVERIFY(near(m.skeleton.bindPositions[1], Vec3(1, 0, 0))); // child: unchanged
        const Animation& idle = m.animations.at(0);
        QVERIFY(near(idle.positions[idle.key(0, 0)], Vec3(0, 0, 6)));
        QVERIFY(near(idle.rotations[idle.key(0, 0)], Vec3(1.5707963f, 0, 0)));

        // `$origin X Y Z ANGLE`: the origin comes off first, then the roots turn ANGLE about Z.
        fs.files["p/main.qc"] = "$origin 0 1 0 90\n$body body \"ref.smd\"\n";
        const QcReport o = qcReport("p/main.qc", Profile::Auto, fs);
        QVERIFY(o.compiled.hasModel);
        QVERIFY(near(o.compiled.model.skeleton.bindPositions[0], Vec3(-4, 0, 0))); // (0,4,0)
        QVERIFY(near(o.compiled.model.skeleton.bindRotations[0], Vec3(0, 0, 1.5707963f)));
        QVERIFY(near(o.compiled.model.mesh.pointPositions[2], Vec3(-1, 0, 0))); // (0,1,0)
    }

    void animationThroughACollapsedRoot()
    {
        // A Crowbar reference has its `Bip01` root collapsed into the pelvis; the animation still
        // has Bip01, and the spine under it. studiomdl re-expresses the motion through the world.
        MemoryQcFileSystem fs;
        fs.files["p/ref.smd"] = "version 1\nnodes\n0 \"pelvis\" -1\n1 \"spine\" 0\nend\n"
                                "skeleton\ntime 0\n0 0 0 38 1.5707963 0 0\n1 0 5 0 0 0 0\nend\n"
                                "triangles\nm\n0 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 0 0\n"
                                "1 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/anim.smd"] = "version 1\nnodes\n0 \"bip01\" -1\n1 \"pelvis\" 0\n"
                                 "2 \"spine\" 0\nend\nskeleton\ntime 0\n"
                                 "0 0 0 38 1.5707963 0 0\n1 0 0 0 0 0 0\n2 0 5 0 0 0.3 0\nend\n";
        fs.files["p/main.qc"] = "$body body \"ref.smd\"\n$sequence s \"anim.smd\"\n";
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        const Animation& a = r.compiled.model.animations.at(0);
        auto near = [](const Vec3& x, const Vec3& y) { return (x - y).norm() < 1e-4f; };
        QVERIFY(near(a.positions[a.key(0, 0)], Vec3(0, 0, 38))); // pelvis: Bip01's place
        QVERIFY(near(a.rotations[a.key(0, 0)], Vec3(1.5707963f, 0, 0)));
        QVERIFY(near(a.positions[a.key(0, 1)], Vec3(0, 5, 0))); // spine: under the pelvis
        QVERIFY(near(a.rotations[a.key(0, 1)], Vec3(0, 0.3f, 0)));
    }

    // $flags is a GoldSrc command (HL1 studiomdl.c ParseScript); Source's studiomdl has none
    // (SDK 2013 and episode1 command tables): tschumann/basis's effect models, `$cd`, `$scale`,
    // `$body`, `$sequence` and `$flags 4`, are GoldSrc (their models are v10) and check without
    // Source's errors.
    void flagsMakeGoldSrc()
    {
        MemoryQcFileSystem fs;
        fs.files["p/c.qc"] = "$modelname c.mdl\n$flags 4\n$body body \"b\"\n"
                             "$sequence idle \"b\" loop fps 1\n";
        fs.files["p/b.smd"] = "version 1\nnodes\n0 \"Bone1\" 1\nend\nskeleton\ntime 0\n"
                              "0 0 0 0 0 0 0\nend\ntriangles\nend\n";
        const QcReport r = qcReport("p/c.qc", Profile::Auto, fs);
        QCOMPARE(r.profile, Profile::GoldSrc);
        QVERIFY2(r.errors == 0, qPrintable(dump(r.diagnostics)));
    }

    void goldsrcProject()
    {
        const QcReport r = qcReportFromFile(
            (qcDir() + QStringLiteral("/goldsrc/scientist.qc")).toStdString(), Profile::Auto);
        QVERIFY(r.readable);
        QVERIFY2(r.errors == 0 && r.warnings == 0, qPrintable(dump(r.diagnostics)));
        QCOMPARE(r.profile, Profile::GoldSrc);
        const QcProject& p = r.project;
        QCOMPARE(p.bodygroups.size(), std::size_t(2));
        QCOMPARE(p.bodygroups[1].choices.size(), std::size_t(3));
        QCOMPARE(p.sequences.size(), std::size_t(3));
        QCOMPARE(p.sequences[1].options.fps, 30.0f);
        QCOMPARE(p.sequences[2].options.activity, std::string("ACT_DIESIMPLE"));
        QCOMPARE(p.texRenderModes.size(), std::size_t(1));
        QCOMPARE(p.cdTextures.size(), std::size_t(1));
        QCOMPARE(p.hitboxes.size(), std::size_t(2));
        QCOMPARE(r.compiled.model.skeleton.size(), std::size_t(3));
        QCOMPARE(r.compiled.model.mesh.triangleCount(), std::size_t(2 + 2 + 4));
        QCOMPARE(r.compiled.model.animations.size(), std::size_t(3));
        QCOMPARE(r.compiled.model.animations[2].frameCount(), std::size_t(4));
    }

    // HL1 studiomdl.c Grab_Skin: with $cdtexture (every path of every line) it tries each
    // folder and stops ("%s not found") when none holds the texture. One error per name (its
    // lookup_texture ignores case), at the body file's line naming it first, or at the
    // $texturegroup row; a name found only by ignoring case is found (Windows opens it); a .tga
    // is mesh.material-not-bmp's, not looked up.
    void goldsrcMissingTexture()
    {
        auto tri = [](const char* texture) {
            return std::string(texture) +
                   "\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n";
        };
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = "$modelname \"m.mdl\"\n$cdtexture \"tex\" \"more\"\n"
                                "$cdtexture \"../shared\"\n$body body \"ref\"\n"
                                "$sequence idle \"ref\"\n$texturegroup skins\n{\n"
                                "{ \"a.bmp\" }\n{ \"skin2.bmp\" }\n}\n";
        fs.files["p/ref.smd"] = std::string(kOneBoneRest) + "triangles\n" + tri("a.bmp") +
                                tri("B.bmp") + tri("c.bmp") + tri("C.BMP") + tri("d.tga") +
                                tri("e.bmp") + "end\n";
        fs.files["p/tex/a.bmp"] = "";
        fs.files["p/more/b.bmp"] = "";
        fs.files["shared/e.bmp"] = "";
        fs.files["p/c.bmp"] = ""; // beside the QC, in no $cdtexture folder
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QCOMPARE(r.profile, Profile::GoldSrc);
        QCOMPARE(qcTextureFolders(r.project),
                 (std::vector<std::string>{"p/tex", "p/more", "shared"}));
        QCOMPARE(idsAt(r.diagnostics, ids::kQcMissingTexture),
                 (std::vector<std::string>{"p/main.qc:9", "p/ref.smd:18"}));
        QCOMPARE(r.errors, std::size_t(2));
        const Diagnostic& c = r.diagnostics[std::size_t(
            std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                         [](const Diagnostic& d) { return d.file == "p/ref.smd"; }) -
            r.diagnostics.begin())];
        QCOMPARE(c.severity, Severity::Error);
        QCOMPARE(c.message, std::string("texture 'c.bmp' is not found in 'p/tex', 'p/more' and "
                                        "'shared' ($cdtexture); studiomdl stops (\"not found\")"));
        QCOMPARE(c.related.size(), std::size_t(3));
        QCOMPARE(c.related[2].file, std::string("shared/c.bmp"));
        QCOMPARE(r.textures.size(), std::size_t(5));
        QCOMPARE(r.textures[0].resolved, std::string("p/tex/a.bmp"));
        QCOMPARE(r.textures[1].resolved, std::string("p/more/b.bmp"));
        QVERIFY(r.textures[1].caseMismatch);
        QCOMPARE(r.textures[2].name, std::string("c.bmp"));
        QCOMPARE(r.textures[2].resolved, std::string());
        QCOMPARE(r.textures[3].resolved, std::string("shared/e.bmp"));
        QCOMPARE(r.textures[4].name, std::string("skin2.bmp"));
        QCOMPARE(r.textures[4].at.where.line, 9u);

        // The same project under Source: studiomdl reads no image (materials are VMTs).
        const QcReport source = qcReport("p/main.qc", Profile::Source, fs);
        QCOMPARE(count(source.diagnostics, ids::kQcMissingTexture), std::size_t(0));
        QVERIFY(source.textures.empty());
    }

    // Without $cdtexture Grab_Skin opens $cd/NAME (Grab_BMP fails when it cannot); RigScope
    // also looks in the QC's folder, as it does for body files.
    void goldsrcTextureWithoutCdtexture()
    {
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = "$modelname \"m.mdl\"\n$cd \"src\"\n$body body \"ref\"\n"
                                "$sequence idle \"ref\"\n$cliptotextures\n";
        fs.files["p/src/ref.smd"] =
            std::string(kOneBoneRest) +
            "triangles\nx.bmp\n0 0 0 0 0 0 1 0 0\n"
            "0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\ny.bmp\n0 0 0 0 0 0 1 0 0\n"
            "0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nz.bmp\n0 0 0 0 0 0 1 0 0\n"
            "0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
        fs.files["p/x.bmp"] = "";
        fs.files["p/src/y.bmp"] = "";
        const QcReport r = qcReport("p/main.qc", Profile::GoldSrc, fs);
        QCOMPARE(qcTextureFolders(r.project), (std::vector<std::string>{"p/src", "p"}));
        QCOMPARE(idsAt(r.diagnostics, ids::kQcMissingTexture),
                 (std::vector<std::string>{"p/src/ref.smd:18"}));
        QCOMPARE(r.textures.size(), std::size_t(3));
        QCOMPARE(r.textures[0].resolved, std::string("p/x.bmp"));
        QCOMPARE(r.textures[1].resolved, std::string("p/src/y.bmp"));
    }

    // Afterburner's abstudiomdl loads .bmp and .png (also with $flags 2048: the model records
    // each texture's size), names may hold a subfolder ("mdl/w_raptor.png" under
    // ../textures), and it fixes the case of the path itself.
    void afterburnerTexturesInSubfolders()
    {
        MemoryQcFileSystem fs;
        fs.files["g/src/w.qc"] = "$modelname \"w.mdl\"\n$cdtexture \"../textures\"\n"
                                 "$flags 2048\n$body body \"ref\"\n$sequence idle \"ref\"\n";
        fs.files["g/src/ref.smd"] =
            std::string(kOneBoneRest) +
            "triangles\nmdl/w_raptor.png\n0 0 0 0 0 0 1 0 0\n"
            "0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nmdl/gone.png\n0 0 0 0 0 0 1 0 0\n"
            "0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
        fs.files["g/textures/mdl/w_Raptor.PNG"] = "";
        const QcReport r = qcReport("g/src/w.qc", Profile::Auto, fs);
        QCOMPARE(r.profile, Profile::Afterburner);
        QCOMPARE(idsAt(r.diagnostics, ids::kQcMissingTexture),
                 (std::vector<std::string>{"g/src/ref.smd:14"}));
        QCOMPARE(r.textures.size(), std::size_t(2));
        QCOMPARE(r.textures[0].resolved, std::string("g/textures/mdl/w_Raptor.PNG"));
    }

    // vbmcompiler's CreateBoneTable builds the bone table body by body, each body's used bones
    // in its file's order: a bone only a later body uses comes after the first body's,
    // wherever the first file lists it. Pathos harrison.mdl: the head's bones first, the legs
    // after them. The HL1 SDK studiomdl does the same (studiomdl.c SimplifyModel, "union of
    // all used bones"): man.mdl of malortie's assimp test sources has its head's Neck after
    // the body's arms. Source keeps the merged order.
    void pathosBoneTableIsBodyByBody()
    {
        MemoryQcFileSystem fs;
        const std::string nodes = "version 1\nnodes\n0 \"root\" -1\n1 \"leg\" 0\n2 \"spine\" 0\n"
                                  "3 \"head\" 2\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n"
                                  "1 0 0 -1 0 0 0\n2 0 0 1 0 0 0\n3 0 0 1 0 0 0\nend\n";
        auto tri = [](int bone) {
            const std::string b = std::to_string(bone);
            return "m.bmp\n" + b + " 0 0 0 0 0 1 0 0\n" + b + " 1 0 0 0 0 1 1 0\n" + b +
                   " 0 1 0 0 0 1 0 1\n";
        };
        fs.files["p/head.smd"] = nodes + "triangles\n" + tri(3) + "end\n";
        fs.files["p/legs.smd"] = nodes + "triangles\n" + tri(1) + "end\n";
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n$body head \"head\"\n$body legs \"legs\"\n"
                             "$sequence idle \"head\"\n";
        const QcReport r = qcReport("p/c.qc", Profile::Pathos, fs);
        const Skeleton& s = r.compiled.model.skeleton;
        QCOMPARE(s.names, (std::vector<std::string>{"root", "spine", "head", "leg"}));
        QCOMPARE(s.parents, (std::vector<JointIndex>{kNoJoint, 0, 1, 0}));
        QVERIFY(s.bindPositions[3].isApprox(Vec3(0, 0, -1)));
        QCOMPARE(qcReport("p/c.qc", Profile::GoldSrc, fs).compiled.model.skeleton.names,
                 (std::vector<std::string>{"root", "spine", "head", "leg"}));
        QCOMPARE(qcReport("p/c.qc", Profile::Source, fs).compiled.model.skeleton.names,
                 (std::vector<std::string>{"root", "leg", "spine", "head"}));
    }

    void bonesNothingKeepsAreDropped()
    {
        // Source SDK 2013 studiomdl (simplify.cpp TagUsedBones, BuildGlobalBonetable): a merged
        // bone stays when a compiled vertex weight of some body lies on it or below it, or a
        // non-rigid $attachment, $ikchain or $bonemerge keeps it. (A $definebone would turn
        // CollapseBones on, which drops far more: tst_compare defineBonesCollapseTheRest.)
        MemoryQcFileSystem fs;
        const std::string a = "version 1\nnodes\n0 \"root\" -1\n1 \"spine\" 0\n2 \"head\" 1\n"
                              "3 \"unused_a\" 1\n4 \"helper\" 1\n5 \"rigid_att\" 1\n"
                              "6 \"ik_end\" 1\n7 \"bm\" 1\n8 \"culled\" 1\nend\n"
                              "skeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                              "triangles\nm\n0 0 0 0 0 0 1 0 0\n"
                              // 0.01 on "culled": SortAndBalanceBones culls it (< 0.05)
                              "1 1 0 0 0 0 1 0 0 2 1 0.99 8 0.01\n0 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/a.smd"] = a;
        fs.files["p/b.smd"] = "version 1\nnodes\n0 \"root\" -1\n1 \"spine\" 0\n2 \"head\" 1\nend\n"
                              "skeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                              "triangles\nm\n2 0 0 2 0 0 1 0 0\n2 1 0 2 0 0 1 0 0\n"
                              "2 0 1 2 0 0 1 0 0\nend\n";
        std::string anim = "version 1\nnodes\n0 \"root\" -1\n1 \"spine\" 0\n2 \"head\" 1\n"
                           "3 \"unused_a\" 1\n4 \"helper\" 1\n5 \"rigid_att\" 1\n"
                           "6 \"ik_end\" 1\n7 \"bm\" 1\n8 \"culled\" 1\nend\nskeleton\ntime 0\n";
        for (int j = 0; j < 9; ++j) {
            anim += std::to_string(j) + " 0 0 " + (j ? "1" : "0") + " 0 0 0\n";
        }
        fs.files["p/anim.smd"] = anim + "end\n";
        fs.files["p/c.qc"] = "$modelname \"t/c.mdl\"\n"                           // 1
                             "$body a \"a.smd\"\n"                                // 2
                             "$body b \"b.smd\"\n"                                // 3
                             "$surfaceprop \"flesh\"\n"                           // 4
                             "$attachment \"att\" \"helper\" 0 0 0\n"             // 5
                             "$attachment \"ratt\" \"rigid_att\" 0 0 0 rigid\n"   // 6
                             "$ikchain \"chain\" \"ik_end\" knee 0 1 0\n"         // 7
                             "$bonemerge \"bm\"\n"                                // 8
                             "$hbox 0 \"unused_a\" -1 -1 -1 1 1 1\n"              // 9
                             "$jigglebone \"culled\" { is_rigid { length 1 } }\n" // 10
                             "$sequence idle \"anim.smd\"\n";                     // 11
        const QcReport r = qcReport("p/c.qc", Profile::Source, fs);
        const Skeleton& sk = r.compiled.model.skeleton;
        std::vector<std::string> names(sk.names.begin(), sk.names.end());
        QCOMPARE(names,
                 (std::vector<std::string>{"root", "spine", "head", "helper", "ik_end", "bm"}));
        QCOMPARE(r.compiled.mergedSkeleton.size(), std::size_t(9));
        QCOMPARE(r.compiled.droppedBones.size(), std::size_t(3));
        QCOMPARE(r.compiled.droppedBones[0].name, std::string("unused_a"));
        QCOMPARE(r.compiled.droppedBones[0].file, std::string("p/a.smd"));
        QCOMPARE(r.compiled.droppedBones[0].where.line, 6u);
        // The culled link moved to its kept ancestor; the rest keep their bones.
        const Mesh& mesh = r.compiled.model.mesh;
        QCOMPARE(mesh.influenceJoints.size(), std::size_t(2));
        QCOMPARE(mesh.influenceJoints[0], JointIndex(1));
        QCOMPARE(mesh.influenceJoints[1], JointIndex(1));
        QCOMPARE(r.compiled.model.animations.at(0).jointCount, std::size_t(6));
        // The $hbox on a dropped bone is the error studiomdl stops with; the $jigglebone and the
        // rigid $attachment (linked to the nearest kept ancestor) are not.
        std::vector<std::string> unknown;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == ids::kQcUnknownBone) {
                unknown.push_back(std::to_string(d.where.line) + ": " + d.message);
            }
        }
        QCOMPARE(unknown, (std::vector<std::string>{
                              "9: $hbox names bone 'unused_a', which studiomdl drops from the "
                              "compiled model: no vertex of any body is weighted to it or to a "
                              "bone below it, and no $attachment, $ikchain or $bonemerge keeps "
                              "it"}));
        // check: the drop is reported once, on the body that declared the bones; the animation
        // keying them is not blamed (xref.anim-bone-missing).
        CheckOptions opt;
        opt.profile = Profile::Source;
        std::vector<std::string> got;
        for (const CheckedFile& f : checkQcReport(r, opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kSkeletonUnreferencedBone || d.id == ids::kXrefAnimBoneMissing) {
                    got.push_back(formatDiagnostic(d));
                }
            }
        }
        QCOMPARE(got, (std::vector<std::string>{
                          "p/a.smd:6:1: note: 3 bones carry no vertices in any body of 'c.qc' "
                          "and nothing keeps them; studiomdl drops them: 'unused_a', "
                          "'rigid_att', 'culled' [skeleton.unreferenced-bone]"}));

        // GoldSrc keeps vertex bones only: the attachment's and the IK chain's bones go too.
        const QcReport g = qcReport("p/c.qc", Profile::GoldSrc, fs);
        QCOMPARE(g.compiled.model.skeleton.size(), std::size_t(3)); // root, spine, head
        std::size_t goldsrcUnknown = 0;
        for (const Diagnostic& d : g.diagnostics) {
            goldsrcUnknown += d.id == ids::kQcUnknownBone ? 1 : 0;
        }
        // att and ratt (GoldSrc links attachments in the bone table only) and the hbox; GoldSrc
        // ignores $ikchain, $bonemerge and $jigglebone, and the bones they name.
        QCOMPARE(goldsrcUnknown, std::size_t(3));
    }

    // skeleton.unknown-parent on a bone the compiled model does not have: SDK 2013
    // studiomdl.cpp Grab_Nodes stores the parent unchecked, and a bone reaches the model only
    // through BuildGlobalBonetable (boneref: vertices on it or below it, or a command keeping
    // it); one that does not, with its broken parent, feeds nothing but its own
    // BuildRawTransforms slot. tschumann/basis null.qc (HL1 studiomdl built its null.mdl: 0
    // bones) is read as source by `auto`: a note there too. A kept bone keeps the error.
    void unknownParentOfADroppedBoneIsANote()
    {
        MemoryQcFileSystem fs;
        const std::string null = "version 1\nnodes\n  0 \"Bone1\"  1\nend\nskeleton\ntime 0\n"
                                 "  0 0 0 0 0 0 0\nend\ntriangles\n\nend\n";
        fs.files["p/null.smd"] = null;
        fs.files["p/idle.smd"] = null;
        fs.files["p/null.qc"] = "$modelname null.mdl\n$body body \"null\"\n"
                                "$sequence idle \"idle\" loop fps 1\n";
        fs.files["p/kept.smd"] = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 7\nend\n"
                                 "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0\nend\n"
                                 "triangles\nm\n1 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 0 0\n"
                                 "1 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/kept.qc"] = "$modelname kept.mdl\n$body body \"kept\"\n"
                                "$sequence idle \"kept\"\n";
        const auto graded = [&](const std::string& qc) {
            const QcReport r = qcReport(qc, Profile::Auto, fs);
            CheckOptions opt;
            std::vector<std::string> got;
            for (const CheckedFile& f : checkQcReport(r, opt)) {
                for (const Diagnostic& d : f.diagnostics) {
                    if (d.id == ids::kSkeletonUnknownParent) {
                        got.push_back(formatDiagnostic(d));
                    }
                }
            }
            return got;
        };
        QCOMPARE(graded("p/null.qc"),
                 (std::vector<std::string>{
                     "p/null.smd:3:14: note: parent 1 of bone 'Bone1' is not declared; the "
                     "compiled model has no bone 'Bone1' (no vertex is on it or below it, no "
                     "command keeps it), so studiomdl never links it [skeleton.unknown-parent]",
                     "p/idle.smd:3:14: note: parent 1 of bone 'Bone1' is not declared; the "
                     "compiled model has no bone 'Bone1' (no vertex is on it or below it, no "
                     "command keeps it), so studiomdl never links it [skeleton.unknown-parent]"}));
        QCOMPARE(graded("p/kept.qc"),
                 (std::vector<std::string>{"p/kept.smd:4:9: error: parent 7 of bone 'arm' is "
                                           "not declared [skeleton.unknown-parent]"}));
    }

    // A $lod's bonetreecollapse whose bone is not in the global bone table: SDK 2013
    // UnifyLODs.cpp ConvertSingleBoneTreeCollapseToReplaceBones warns "Couldn't find bone %s
    // for bonetreecollapse, skipping" (MdlWarning) and the compile goes on. A dropped bone's
    // subtree has no vertex (TagUsedBones tags the parents of used bones), so the skipped line
    // collapsed nothing: a note. A bone no file has leaves the LOD without the collapse its
    // author wrote: a warning. replacebone likewise (BuildBoneLODMapping skips a pair with an
    // unknown bone, warning only under -verbose).
    void boneTreeCollapseOfAnAbsentBoneOnlyWarns()
    {
        MemoryQcFileSystem fs;
        fs.files["p/a.smd"] = "version 1\nnodes\n0 \"root\" -1\n1 \"spine\" 0\n"
                              "2 \"unused\" 1\n3 \"child\" 2\nend\n"
                              "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0\n"
                              "2 0 0 1 0 0 0\n3 0 0 1 0 0 0\nend\n"
                              "triangles\nm\n1 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 0 0\n"
                              "1 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/c.qc"] = "$modelname \"t/c.mdl\"\n"                // 1
                             "$body a \"a.smd\"\n"                     // 2
                             "$sequence idle \"a.smd\"\n"              // 3
                             "$lod 10\n{\n"                            // 4, 5
                             " bonetreecollapse \"unused\"\n"          // 6
                             " bonetreecollapse \"nosuch\"\n"          // 7
                             " bonetreecollapse \"spine\"\n"           // 8
                             " replacebone \"child\" \"spine\"\n"      // 9
                             " replacebone \"spine\" \"nosuch\"\n}\n"; // 10, 11
        const QcReport r = qcReport("p/c.qc", Profile::Source, fs);
        QCOMPARE(r.compiled.model.skeleton.size(), std::size_t(2)); // root, spine
        CheckOptions opt;
        opt.profile = Profile::Source;
        std::vector<std::string> got;
        for (const CheckedFile& f : checkQcReport(r, opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id.substr(0, 3) == "qc.") {
                    got.push_back(formatDiagnostic(d));
                }
            }
        }
        QCOMPARE(got,
                 (std::vector<std::string>{
                     "p/c.qc:6:19: note: bonetreecollapse names bone 'unused', which studiomdl "
                     "drops from the compiled model with every bone below it (no vertex of any "
                     "body is weighted to them); studiomdl warns that it cannot find the bone "
                     "and skips the line, which had nothing to collapse [qc.ignored-bone]",
                     "p/c.qc:7:19: warning: bonetreecollapse names bone 'nosuch', which no body "
                     "has (2 bones merged); studiomdl warns that it cannot find the bone and "
                     "skips the line, so this LOD collapses nothing there [qc.unknown-bone]",
                     "p/c.qc:9:14: warning: replacebone names bone 'child', which studiomdl "
                     "drops from the compiled model; studiomdl skips the replacement (it warns "
                     "only under -verbose), so this LOD keeps that bone's vertices where they "
                     "are [qc.unknown-bone]",
                     "p/c.qc:10:22: warning: replacebone names bone 'nosuch', which no body has "
                     "(2 bones merged); studiomdl skips the replacement (it warns only under "
                     "-verbose), so this LOD keeps that bone's vertices where they are "
                     "[qc.unknown-bone]"}));
        // $staticprop: MakeStaticProp (in RemapBones, before the LODs' lines are looked up)
        // leaves one bone, so both lines are skipped with nothing to collapse.
        fs.files["p/s.qc"] = "$modelname \"t/s.mdl\"\n$staticprop\n$body a \"a.smd\"\n"
                             "$sequence idle \"a.smd\"\n$lod 10\n{\n"
                             " bonetreecollapse \"spine\"\n replacebone \"root\" \"spine\"\n}\n";
        got.clear();
        for (const CheckedFile& f : checkQcReport(qcReport("p/s.qc", Profile::Source, fs), opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id.substr(0, 3) == "qc.") {
                    got.push_back(formatDiagnostic(d));
                }
            }
        }
        const std::string skip = "; $staticprop collapses every bone into one bone named "
                                 "'static_prop', so ";
        QCOMPARE(got, (std::vector<std::string>{
                          "p/s.qc:7:19: note: bonetreecollapse names bone 'spine'" + skip +
                              "studiomdl warns that it cannot find the bone and skips the line, "
                              "which had nothing to collapse [qc.ignored-bone]",
                          "p/s.qc:8:14: note: replacebone names bone 'root'" + skip +
                              "studiomdl skips the replacement (it warns only under -verbose), "
                              "which had nothing to collapse [qc.ignored-bone]",
                          "p/s.qc:8:21: note: replacebone names bone 'spine'" + skip +
                              "studiomdl skips the replacement (it warns only under -verbose), "
                              "which had nothing to collapse [qc.ignored-bone]"}));
    }

    // studiomdl reads only positions and bones from a collision model, and nothing but the
    // skeleton from a sequence's file: their normals, UVs, materials and weights are nobody's
    // concern (20 mesh.misdirected-normals warnings on the L4D2 template's physics.dmx, which
    // also plays as its ragdoll sequence). The same defect in a body is still reported.
    void meshChecksSkipFilesNothingDraws()
    {
        MemoryQcFileSystem fs;
        const std::string head = "version 1\nnodes\n0 \"root\" -1\nend\n"
                                 "skeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n";
        // Counter-clockwise seen from +Z, normals along -Z: reversed; then a zero normal.
        const std::string reversed = "m\n0 0 0 0 0 0 -1 0 0\n0 1 0 0 0 0 -1 1 0\n"
                                     "0 0 1 0 0 0 -1 0 1\n"
                                     "m\n0 0 0 1 0 0 1 0 0\n0 1 0 1 0 0 1 1 0\n"
                                     "0 0 1 1 0 0 0 0 1\n";
        fs.files["p/body.smd"] = head + reversed + "end\n";
        fs.files["p/phys.smd"] = head + reversed + "end\n";
        fs.files["p/pose.smd"] = head + reversed + "end\n";
        fs.files["p/c.qc"] = "$modelname \"t/c.mdl\"\n"
                             "$body body \"body.smd\"\n"
                             "$collisionmodel \"phys.smd\" { $concave }\n"
                             "$sequence idle \"pose.smd\"\n";
        const QcReport r = qcReport("p/c.qc", Profile::Source, fs);
        CheckOptions opt;
        opt.profile = Profile::Source;
        std::map<std::string, std::vector<std::string>> mesh;
        for (const CheckedFile& f : checkQcReport(r, opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id.starts_with("mesh.") || d.id.starts_with("weights.")) {
                    mesh[f.file].emplace_back(d.id);
                }
            }
        }
        QVERIFY2(mesh.count("p/body.smd") == 1, "the body keeps its mesh checks");
        const std::vector<std::string>& body = mesh["p/body.smd"];
        QVERIFY(std::find(body.begin(), body.end(), "mesh.misdirected-normals") != body.end());
        QVERIFY(std::find(body.begin(), body.end(), "mesh.zero-normal") != body.end());
        QCOMPARE(mesh.count("p/phys.smd"), std::size_t(0));
        QCOMPARE(mesh.count("p/pose.smd"), std::size_t(0));
    }

    // GoldSrc studiomdl does not check sequence names (Valve's scientist.mdl ships two
    // `crouch_idle3`): a warning there, the error Source studiomdl stops with elsewhere.
    void duplicateSequenceByProfile()
    {
        MemoryQcFileSystem fs;
        fs.files["p/ref.smd"] = kOneBoneRest;
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n$body body \"ref.smd\"\n"
                             "$sequence idle \"ref\"\n$sequence idle \"ref\"\n";
        for (const auto& [profile, severity] :
             {std::pair{Profile::GoldSrc, Severity::Warning}, {Profile::Source, Severity::Error}}) {
            const QcReport r = qcReport("p/c.qc", profile, fs);
            const auto it =
                std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                             [](const Diagnostic& d) { return d.id == ids::kQcDuplicateName; });
            QVERIFY(it != r.diagnostics.end());
            QCOMPARE(it->severity, severity);
            QCOMPARE(it->where.line, 4u);
        }
    }

    // A $sequence's file token is a file unless it names an $animation: studiomdl's
    // ParseSequence (Source) looks the token up among g_panimation, where an earlier
    // sequence's implied animation is named "@" + its name, and HL1 has no $animation. Pathos's
    // harrison.qc plays `crouching_aim` as two sequences; the second was dropped.
    void aSequenceFileNamedLikeAnEarlierSequence()
    {
        MemoryQcFileSystem fs;
        fs.files["p/ref.smd"] = kOneBoneRest;
        fs.files["p/aim.smd"] = "version 1\nnodes\n0 \"root\" -1\nend\n"
                                "skeleton\ntime 0\n0 0 0 0 0 0 0\ntime 1\n0 0 0 1 0 0 0\nend\n";
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n"          // 1
                             "$body body \"ref.smd\"\n"        // 2
                             "$sequence aim \"aim\" fps 45\n"  // 3
                             "$sequence wait \"aim\" fps 15\n" // 4
                             "$sequence idle \"wait\"\n";      // 5: no wait.smd
        for (const Profile profile : {Profile::GoldSrc, Profile::Source}) {
            const QcReport r = qcReport("p/c.qc", profile, fs);
            const Model& m = r.compiled.model;
            QCOMPARE(m.animations.size(), std::size_t(2));
            QCOMPARE(m.animations[1].name, std::string("wait"));
            QCOMPARE(m.animations[1].fps, 15.0f);
            QCOMPARE(m.animations[1].frameCount(), std::size_t(2));
            std::vector<std::uint32_t> missing;
            for (const Diagnostic& d : r.diagnostics) {
                if (d.id == ids::kQcMissingFile) {
                    QCOMPARE(d.severity, Severity::Error);
                    missing.push_back(d.where.line);
                }
            }
            QCOMPARE(missing, std::vector<std::uint32_t>{5});
        }
    }

    // A sprgen script (Half-Life's sprites/*.qc): one note that it is not a model's, not a
    // note per command nor an error per stray `/`.
    void aSpriteScriptIsSaidToBeOne()
    {
        MemoryQcFileSystem fs;
        fs.files["p/s.qc"] = "// sprites\n"                               // 1
                             "$spritename rope\n"                         // 2
                             "$type vp_parallel\n"                        // 3
                             "$load \\quiver\\valve\\sprites\\rope.bmp\n" // 4
                             "$frame 0 0 16 32\n"                         // 5
                             "/\n"                                        // 6
                             "$spritename puff\n";                        // 7
        const QcReport r = qcReport("p/s.qc", Profile::Auto, fs);
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QCOMPARE(r.diagnostics[0].id, ids::kQcUnknownCommand);
        QCOMPARE(r.diagnostics[0].severity, Severity::Note);
        QCOMPARE(r.diagnostics[0].where.line, std::uint32_t(2));
        QCOMPARE(r.errors, std::size_t(0));
        // A model QC that has a stray $spritename keeps its notes.
        fs.files["p/m.qc"] = "$modelname m.mdl\n$spritename x\n$type y\n";
        QCOMPARE(qcReport("p/m.qc", Profile::Auto, fs).diagnostics.size(), std::size_t(2));
    }

    // A word in a $bodygroup that is neither `studio FILE` nor `blank`: HL1's Cmd_Bodygroup
    // passes over it (hltopdown-clone's player.qc has `$origin 0 0 -30` there and compiled),
    // Source's stops ("unknown bodygroup option"), vbmcompiler's too.
    void aStrayWordInABodygroupByProfile()
    {
        MemoryQcFileSystem fs;
        fs.files["p/a.smd"] = kOneBoneRest;
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n" // 1
                             "$bodygroup \"bg\"\n"    // 2
                             "{\n"                    // 3
                             "\tstudio \"a\"\n"       // 4
                             "\t$origin 0 0 -30\n"    // 5
                             "\tblank\n"              // 6
                             "}\n";
        for (const auto& [profile, severity] : {std::pair{Profile::GoldSrc, Severity::Warning},
                                                {Profile::Pathos, Severity::Error},
                                                {Profile::Source, Severity::Error}}) {
            const QcReport r = qcReport("p/c.qc", profile, fs);
            QCOMPARE(r.project.bodygroups.size(), std::size_t(1));
            QCOMPARE(r.project.bodygroups[0].choices.size(), std::size_t(2));
            const QStringList found = syntaxRows(r);
            QCOMPARE(found, QStringList{QStringLiteral("5:2 %1").arg(
                                QString::fromUtf8(severityName(severity)))});
        }
    }

    // A quoted `"studio"` or `"blank"` is the keyword: scriplib's GetToken (and HL1's, and
    // vbmcompiler's ReadString) drop the quotes before Cmd_Bodygroup compares the word.
    // Fortress Forever's sentry guns (SG_Level1..3.qc) write `"studio" "reference_SG_Level1"`.
    void aQuotedKeywordInABodygroup()
    {
        MemoryQcFileSystem fs;
        fs.files["p/a.smd"] = kOneBoneRest;
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n" // 1
                             "$bodygroup base {\n"    // 2
                             "  \"studio\" \"a\"\n"   // 3
                             "  \"blank\"\n"          // 4
                             "}\n";
        for (const Profile profile : {Profile::GoldSrc, Profile::Pathos, Profile::Source}) {
            const QcReport r = qcReport("p/c.qc", profile, fs);
            QCOMPARE(r.project.bodygroups.size(), std::size_t(1));
            QCOMPARE(r.project.bodygroups[0].choices.size(), std::size_t(2));
            QCOMPARE(r.project.bodygroups[0].choices[0].path, std::string("a"));
            QCOMPARE(r.project.bodygroups[0].choices[0].at.where.line, 3u);
            QVERIFY(r.project.bodygroups[0].choices[1].blank);
            QCOMPARE(syntaxRows(r), QStringList{});
        }
    }

    // Source keeps a bone a non-rigid $attachment names from whichever file has it (SDK 2013
    // TagUsedBones tags it in every loaded source; BuildGlobalBonetable adds it with its
    // parents): Fortress Forever's w_railgun attaches to ffSkel_gunEnd, which only its
    // collision SMD has. GoldSrc builds its bone table from the bodies ("unknown attachment
    // link").
    void anAttachmentKeepsABoneOnlyAnotherFileHas()
    {
        MemoryQcFileSystem fs;
        fs.files["p/ref.smd"] = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                                "0 0 0 0 0 0 0\nend\ntriangles\nm\n"
                                "0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 0 0\n0 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/phys.smd"] = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\n"
                                 "2 \"tip\" 1\n3 \"other\" 0\nend\nskeleton\ntime 0\n"
                                 "0 0 0 0 0 0 0\n1 1 2 3 0 0 0\n2 0 0 4 0 0 0\n"
                                 "3 9 9 9 0 0 0\nend\n";
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n"                 // 1
                             "$body body \"ref.smd\"\n"               // 2
                             "$attachment \"muzzle\" \"tip\" 0 0 0\n" // 3
                             "$sequence idle \"ref.smd\"\n"           // 4
                             "$collisionmodel \"phys.smd\" {\n}\n";   // 5
        const QcReport r = qcReport("p/c.qc", Profile::Source, fs);
        const Skeleton& sk = r.compiled.model.skeleton;
        QCOMPARE(sk.names, (std::vector<std::string>{"root", "arm", "tip"}));
        QCOMPARE(sk.parents, (std::vector<JointIndex>{kNoJoint, 0, 1}));
        QVERIFY(sk.bindPositions[1].isApprox(Vec3(1, 2, 3)));
        QVERIFY(sk.bindPositions[2].isApprox(Vec3(0, 0, 4)));
        QCOMPARE(r.compiled.attachmentJoints, (std::vector<JointIndex>{2}));
        for (const Diagnostic& d : r.diagnostics) {
            QVERIFY2(d.id != ids::kQcUnknownBone, formatDiagnostic(d).c_str());
        }
        // GoldSrc: the bodies alone.
        const QcReport g = qcReport("p/c.qc", Profile::GoldSrc, fs);
        QCOMPARE(g.compiled.model.skeleton.names, (std::vector<std::string>{"root"}));
        std::vector<std::uint32_t> lines;
        for (const Diagnostic& d : g.diagnostics) {
            if (d.id == ids::kQcUnknownBone) {
                lines.push_back(d.where.line);
            }
        }
        QCOMPARE(lines, (std::vector<std::uint32_t>{3}));
    }

    // An activity takes the next word as its weight: HL1's GetToken + atoi eat `loop` in
    // `ACT_IDLE_ANGRY loop` (Pathos harrison.mdl's standing_aim does not loop), Source's
    // verify_atoi stops ("expecting number"), and with nothing after it both stop ("Line N is
    // incomplete").
    void anActivityEatsTheNextWord()
    {
        MemoryQcFileSystem fs;
        fs.files["p/aim.smd"] = kOneBoneRest;
        fs.files["p/c.qc"] = "$modelname \"c.mdl\"\n"                             // 1
                             "$body body \"aim.smd\"\n"                           // 2
                             "$sequence aim \"aim\" fps 45 ACT_IDLE_ANGRY loop\n" // 3
                             "$sequence idle \"aim\" ACT_IDLE 2 loop\n"           // 4
                             "$sequence wait \"aim\" ACT_IDLE\n";                 // 5
        for (const auto& [profile, eaten] : {std::pair{Profile::GoldSrc, Severity::Warning},
                                             {Profile::Pathos, Severity::Warning},
                                             {Profile::Source, Severity::Error}}) {
            const QcReport r = qcReport("p/c.qc", profile, fs);
            QCOMPARE(r.project.sequences.size(), std::size_t(3));
            QVERIFY(!r.project.sequences[0].options.loop);
            QCOMPARE(r.project.sequences[0].options.activityWeight, 0);
            QVERIFY(r.project.sequences[1].options.loop);
            QCOMPARE(r.project.sequences[1].options.activityWeight, 2);
            const QStringList found = syntaxRows(r);
            QCOMPARE(
                found,
                (QStringList{QStringLiteral("3:43 %1").arg(QString::fromUtf8(severityName(eaten))),
                             QStringLiteral("5:22 error")}));
        }
    }

    // HL1 studiomdl's Cmd_Sequence gives a word an activity only if lookupActivity knows it (a
    // name of the HL SDK's activity_map, or ACT_ and a nonzero number); any other word is one
    // more animation file. ACT_INVALID (Afterburner's player sequences, which abstudiomdl
    // builds) is "ACT_INVALID.smd doesn't exist" to HL1 studiomdl built from the SDK, seen so on
    // 21 of Afterburner's QCs. Source and abstudiomdl keep the name; a file of that name is read.
    void anActivityHl1DoesNotKnowIsAFile()
    {
        MemoryQcFileSystem fs;
        fs.files["p/aim.smd"] = kOneBoneRest;
        fs.files["p/c.qc"] = "$cd \".\"\n"                                // 1
                             "$body body \"aim\"\n"                       // 2
                             "$sequence a \"aim\" ACT_INVALID 1 fps 20\n" // 3
                             "$sequence b \"aim\" act_idle 1\n"           // 4
                             "$sequence c \"aim\" ACT_12 1\n"             // 5
                             "$sequence d \"aim\" ACT_RESET 1\n";         // 6
        auto missing = [&](Profile profile) {
            QStringList rows;
            for (const Diagnostic& d : qcReport("p/c.qc", profile, fs).project.diagnostics) {
                if (d.id == ids::kQcMissingFile) {
                    rows << QStringLiteral("%1:%2 %3")
                                .arg(d.where.line)
                                .arg(d.where.column)
                                .arg(QString::fromUtf8(severityName(d.severity)));
                }
            }
            return rows;
        };
        QCOMPARE(missing(Profile::GoldSrc),
                 (QStringList{QStringLiteral("3:19 error"), QStringLiteral("6:19 error")}));
        QCOMPARE(missing(Profile::Afterburner), QStringList());
        QCOMPARE(missing(Profile::Source), QStringList());
        fs.files["p/ACT_RESET.smd"] = kOneBoneRest;
        QCOMPARE(missing(Profile::GoldSrc), QStringList{QStringLiteral("3:19 error")});
    }

    // The files of a GoldSrc-family project are read for its compiler: under goldsrc a null
    // model's undeclared parent is a note in the QC as it is for the file alone
    // (tschumann/basis null.qc; null.mdl has 0 bones); under source a note too, as the bone
    // is not in the compiled model (unknownParentOfADroppedBoneIsANote).
    void filesAreReadForTheProjectsCompiler()
    {
        MemoryQcFileSystem fs;
        fs.files["p/null.smd"] = "version 1\nnodes\n  0 \"Bone1\"  1\nend\nskeleton\ntime 0\n"
                                 "  0 0 0 0 0 0 0\nend\ntriangles\nend\n";
        fs.files["p/null.qc"] = "$modelname null.mdl\n$body body \"null\"\n"
                                "$sequence idle \"null\" loop fps 1\n";
        for (const auto& [profile, severity] : {std::pair{Profile::GoldSrc, Severity::Note},
                                                {Profile::Pathos, Severity::Note},
                                                {Profile::Source, Severity::Note}}) {
            const QcReport r = qcReport("p/null.qc", profile, fs);
            std::vector<Severity> found;
            for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
                for (const Diagnostic& d : f.diagnostics) {
                    if (d.id == ids::kSkeletonUnknownParent) {
                        found.push_back(d.severity);
                    }
                }
            }
            QCOMPARE(found, std::vector<Severity>{severity});
        }
    }

    void dmxModelKeepsItsFlexShapes()
    {
        // Issue 27 item 2: a `$model` DMX with delta states keeps them in the compiled model, in
        // the merged model's corner space (after the SMD body's 3 corners), with a base frame the
        // viewer and `pose` bind them through.
        const QcReport r = qcReportFromFile(
            (qcDir() + QStringLiteral("/dmx_face/face.qc")).toStdString(), Profile::Auto);
        QVERIFY(r.readable);
        QVERIFY2(r.errors == 0, qPrintable(dump(r.diagnostics)));
        const Model& m = r.compiled.model;
        QVERIFY2(verifyInvariants(m).empty(), verifyInvariants(m).c_str());
        QCOMPARE(m.mesh.cornerCount(), std::size_t(3 + 6));
        QCOMPARE(m.flexShapes.size(), std::size_t(2));
        QCOMPARE(m.flexShapes[0].name, std::string("smile"));
        QCOMPARE(m.flexShapes[1].name, std::string("blink"));
        // smile lifts every head corner by 1, blink the corners at (-1, 0, 0) by 2.
        std::vector<std::int32_t> head, atFirst;
        for (std::size_t c = 3; c < m.mesh.cornerCount(); ++c) {
            head.push_back(static_cast<std::int32_t>(c));
            if (m.mesh.pointPositions[m.mesh.cornerPoints[c]].isApprox(Vec3(-1, 0, 0))) {
                atFirst.push_back(static_cast<std::int32_t>(c));
            }
        }
        QCOMPARE(atFirst.size(), std::size_t(2));
        std::vector<std::int32_t> smile = m.flexShapes[0].ids, blink = m.flexShapes[1].ids;
        std::sort(smile.begin(), smile.end());
        std::sort(blink.begin(), blink.end());
        QCOMPARE(smile, head);
        QCOMPARE(blink, atFirst);
        for (const Vec3& d : m.flexShapes[1].deltaPositions) {
            QVERIFY(d.isApprox(Vec3(0, 0, 2)));
        }
        QCOMPARE(m.flexControllers.size(), std::size_t(2));
        // The window binds the compiled model's shapes onto its own points (a DMX reader gives
        // each face corner its own point: smile moves the 6 head points, blink the 2 at (-1,0,0)).
        const FlexTargets t = bindFlexShapes(m.mesh, m, m.mesh.cornerPoints);
        QCOMPARE(t.shapeCount(), std::size_t(2));
        QCOMPARE(t.shapeOffsets[1] - t.shapeOffsets[0], 6u);
        QCOMPARE(t.shapeOffsets[2] - t.shapeOffsets[1], 2u);
        for (std::uint32_t k = t.shapeOffsets[1]; k < t.shapeOffsets[2]; ++k) {
            QVERIFY(m.mesh.pointPositions[t.targets[k]].isApprox(Vec3(-1, 0, 0)));
            QVERIFY(t.deltaPositions[k].isApprox(Vec3(0, 0, 2)));
        }

        // The VTA of hero.qc binds the same way (it did not reach the Flex dock before).
        const QcReport hero = qcReportFromFile(
            (qcDir() + QStringLiteral("/source/hero.qc")).toStdString(), Profile::Auto);
        const Model& hm = hero.compiled.model;
        QCOMPARE(bindFlexShapes(hm.mesh, hm, hm.mesh.cornerPoints).shapeCount(), std::size_t(1));
    }

    void staticPropIsOneBone()
    {
        // Issue 27 item 3: `$staticprop` (Source SDK 2013 simplify.cpp MakeStaticProp) renames
        // bone 0 of every file `static_prop`, moves every weight and attachment onto it and
        // drops the rest: the compiled model has one bone. A $hbox must name `static_prop`.
        MemoryQcFileSystem fs;
        fs.files["p/prop.smd"] =
            "version 1\nnodes\n0 \"root\" -1\n1 \"lid\" 0\n2 \"handle\" 1\nend\n"
            "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0.5\n2 1 0 0 0 0 0\nend\n"
            "triangles\nm\n1 0 0 0 0 0 1 0 0\n2 2 1 0 0 0 1 0 0 2 2 0.6 1 0.4\n"
            "1 0 1 0 0 0 1 0 0\nend\n";
        fs.files["p/prop.qc"] = "$modelname \"t/prop.mdl\"\n"              // 1
                                "$staticprop\n"                            // 2
                                "$body body \"prop.smd\"\n"                // 3
                                "$sequence idle \"prop.smd\"\n"            // 4
                                "$attachment \"light\" \"handle\" 0 0 1\n" // 5
                                "$hbox 0 \"static_prop\" -1 -1 -1 1 1 1\n" // 6
                                "$hbox 0 \"lid\" -1 -1 -1 1 1 1\n";        // 7
        const QcReport r = qcReport("p/prop.qc", Profile::Auto, fs);
        const Model& m = r.compiled.model;
        QVERIFY2(verifyInvariants(m).empty(), verifyInvariants(m).c_str());
        QCOMPARE(m.skeleton.size(), std::size_t(1));
        QCOMPARE(m.skeleton.names[0], std::string("static_prop"));
        QCOMPARE(m.skeleton.parents[0], kNoJoint);
        QVERIFY(m.skeleton.bindPositions[0].isZero());
        QVERIFY(m.skeleton.bindRotations[0].isZero());
        // Points stay where the file puts them, rigid on static_prop.
        QVERIFY(m.mesh.pointPositions[1].isApprox(Vec3(2, 1, 0)));
        for (const JointIndex j : m.mesh.pointParents) {
            QCOMPARE(j, JointIndex(0));
        }
        for (const JointIndex j : m.mesh.influenceJoints) {
            QCOMPARE(j, JointIndex(0));
        }
        QCOMPARE(r.compiled.attachmentJoints, (std::vector<JointIndex>{0}));
        QCOMPARE(r.compiled.hitboxJoints, (std::vector<JointIndex>{0, kNoJoint}));
        QVERIFY(r.compiled.droppedBones.empty()); // collapsed, not unused
        // The sequence is one frame of the identity, as studiomdl keeps it.
        QCOMPARE(m.animations.size(), std::size_t(1));
        QCOMPARE(m.animations[0].frameCount(), std::size_t(1));
        QCOMPARE(m.animations[0].jointCount, std::size_t(1));
        std::vector<std::string> unknown;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == ids::kQcUnknownBone) {
                unknown.push_back(std::to_string(d.where.line) + ": " + d.message);
            }
        }
        QCOMPARE(unknown,
                 (std::vector<std::string>{
                     "7: $hbox names bone 'lid'; $staticprop collapses every bone into one "
                     "bone named 'static_prop', so studiomdl cannot find it"}));
        // check: no bone of the body is reported as dropped, the merged budget counts 1 bone.
        CheckOptions opt;
        for (const CheckedFile& f : checkQcReport(r, opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                QVERIFY2(d.id != ids::kSkeletonUnreferencedBone, formatDiagnostic(d).c_str());
            }
        }
        const std::vector<CheckedFile> files = checkQcReport(r, opt);
        bool bones = false;
        for (const BudgetMeter& b : files.front().budget) {
            if (b.name == "bones") {
                QCOMPARE(b.used, std::size_t(1));
                bones = true;
            }
        }
        QVERIFY(bones);
    }

    // Issue 30 item 3: a reference file played as a sequence (Valve's ragdoll sequence in the
    // pose of the collision model) is a pose, not a second rest pose: studiomdl plays it as
    // written, so its differences from the model's rest pose are notes, not warnings.
    void aReferencePlayedAsASequenceIsAPose()
    {
        MemoryQcFileSystem fs;
        auto file = [](const char* childPos) {
            return std::string("version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\n"
                               "time 0\n0 0 0 0 0 0 0\n1 ") +
                   childPos +
                   " 0 0 0\nend\ntriangles\nm\n0 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 1 0\n"
                   "1 0 1 0 0 0 1 0 1\nend\n";
        };
        fs.files["p/main.qc"] = "$modelname t.mdl\n$body b body.smd\n$sequence idle body.smd\n"
                                "$sequence ragdoll pose.smd ACT_DIERAGDOLL 1\n";
        fs.files["p/body.smd"] = file("0 0 1");
        fs.files["p/pose.smd"] = file("0 1 1");
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        std::vector<std::string> found;
        for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == ids::kXrefRestPoseDiffers) {
                    found.push_back(f.file + ": " + std::string(severityName(d.severity)));
                }
            }
        }
        QCOMPARE(found, (std::vector<std::string>{"p/pose.smd: note"}));
    }

    // Issue 30 item 3: an animation only subtracted from delta sequences (Crowbar writes one
    // per decompiled delta sequence, frame 0 of the root alone) leaves the other bones zero,
    // which subtracts nothing: exactly what it is for, so no skeleton.missing-in-first-frame.
    // Played as a pose, the same file still gets it.
    void aSubtractedAnimationMayLeaveBonesOut()
    {
        const std::string skeleton = "version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\n";
        const std::string body = skeleton + "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0\nend\n"
                                            "triangles\nm\n0 0 0 0 0 0 1 0 0\n1 1 0 0 0 0 1 1 0\n"
                                            "1 0 1 0 0 0 1 0 1\nend\n";
        const std::string base = skeleton + "skeleton\ntime 0\n0 0 0 0 0 0 -1.570796\nend\n";
        const std::string moving =
            skeleton + "skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 1 0 0 0\nend\n";
        auto missing = [&](const std::string& sequences) {
            MemoryQcFileSystem fs;
            fs.files["p/main.qc"] = "$modelname t.mdl\n$body b body.smd\n$sequence idle body.smd\n"
                                    "$animation \"@base\" base.smd\n" +
                                    sequences;
            fs.files["p/body.smd"] = body;
            fs.files["p/base.smd"] = base;
            fs.files["p/moving.smd"] = moving;
            const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
            std::size_t n = 0;
            for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
                for (const Diagnostic& d : f.diagnostics) {
                    n +=
                        d.id == ids::kSkeletonMissingInFirstFrame && f.file == "p/base.smd" ? 1 : 0;
                }
            }
            return n;
        };
        QCOMPARE(missing("$sequence s { moving.smd delta subtract \"@base\" 0 }\n"),
                 std::size_t(0));
        QCOMPARE(missing("$sequence s base.smd\n"), std::size_t(1));
    }

    // Issue 30 item 3: a Source animation that moves a bone the model does not have
    // (gmod's 'Kleiner' root above ValveBiped): studiomdl re-expresses the animation through
    // the world, so the model's bones move as animated, and a QC command naming the bone is
    // qc.unknown-bone's to report: a note. GoldSrc relinks the children to the model's
    // parent instead, and keeps the warning.
    void anAnimationBoneTheModelLacks()
    {
        auto severities = [](const char* extra) {
            MemoryQcFileSystem fs;
            fs.files["p/main.qc"] = std::string("$modelname t.mdl\n") + extra +
                                    "$body b body.smd\n$sequence idle body.smd\n"
                                    "$sequence walk anim.smd\n";
            fs.files["p/body.smd"] =
                "version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\ntime 0\n"
                "0 0 0 0 0 0 0\n1 0 0 1 0 0 0\nend\ntriangles\nm\n0 0 0 0 0 0 1 0 0\n"
                "1 1 0 0 0 0 1 1 0\n1 0 1 0 0 0 1 0 1\nend\n";
            fs.files["p/anim.smd"] = "version 1\nnodes\n0 \"mover\" -1\n1 \"root\" 0\n"
                                     "2 \"child\" 1\nend\nskeleton\ntime 0\n0 0 0 5 0 0 0\n"
                                     "1 0 0 0 0 0 0\n2 0 0 1 0 0 0\nend\n";
            const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
            std::vector<std::string> out;
            for (const CheckedFile& f : checkQcReport(r, CheckOptions{})) {
                for (const Diagnostic& d : f.diagnostics) {
                    if (d.id == ids::kXrefAnimBoneMissing) {
                        out.emplace_back(severityName(d.severity));
                    }
                }
            }
            return out;
        };
        QCOMPARE(severities(""), (std::vector<std::string>{"note"}));
        QCOMPARE(severities("$cdtexture \"./\"\n"), (std::vector<std::string>{"warning"}));
    }

    void aBoneAnotherBodyWeightsIsNotReported()
    {
        // sci_ref.smd leaves "Bip01 Head" unweighted; the head bodies weight it.
        const std::vector<CheckedFile> files = checkQcProject(
            (qcDir() + QStringLiteral("/goldsrc/scientist.qc")).toStdString(), CheckOptions{});
        QVERIFY(files.size() > 2);
        for (const CheckedFile& f : files) {
            for (const Diagnostic& d : f.diagnostics) {
                QVERIFY2(d.id != ids::kSkeletonUnreferencedBone, formatDiagnostic(d).c_str());
            }
        }
        // Alone, the file still gets it (GoldSrc drops the bone when nothing else weights it).
        CheckOptions opt;
        opt.profile = Profile::GoldSrc;
        const CheckRun alone =
            runCheck({(qcDir() + QStringLiteral("/goldsrc/sci_ref.smd")).toStdString()}, opt);
        QCOMPARE(alone.files.size(), std::size_t(1));
        const std::vector<Diagnostic>& ds = alone.files.front().diagnostics;
        QCOMPARE(std::count_if(
                     ds.begin(), ds.end(),
                     [](const Diagnostic& d) { return d.id == ids::kSkeletonUnreferencedBone; }),
                 std::ptrdiff_t(1));
    }

    void deletedFile()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QDir src(qcDir() + QStringLiteral("/source"));
        QDir(tmp.path()).mkpath(QStringLiteral("lod1"));
        for (const QString& f : src.entryList(QDir::Files)) {
            QVERIFY(QFile::copy(src.filePath(f), tmp.filePath(f)));
        }
        QVERIFY(QFile::copy(src.filePath(QStringLiteral("lod1/hero_body_lod1.smd")),
                            tmp.filePath(QStringLiteral("lod1/hero_body_lod1.smd"))));
        QVERIFY(QFile::remove(tmp.filePath(QStringLiteral("hero_helmet.smd"))));
        QVERIFY(QFile::remove(tmp.filePath(QStringLiteral("idle.smd"))));
        const std::string qc = tmp.filePath(QStringLiteral("hero.qc")).toStdString();
        const QcReport r = qcReportFromFile(qc, Profile::Auto);
        QCOMPARE(idsAt(r.diagnostics, ids::kQcMissingFile),
                 (std::vector<std::string>{qc + ":16", qc + ":50"}));
        QCOMPARE(r.errors, std::size_t(2));
        // The rest still compiles: the helmet choice is gone, idle has no animation.
        QCOMPARE(r.compiled.choiceObjects[1], (std::vector<std::int32_t>{-1, -1}));
        QCOMPARE(r.compiled.sequenceAnimation[0], -1);
        QCOMPARE(r.compiled.model.animations.size(), std::size_t(3));
    }

    void checks_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& f : QDir(qcDir() + QStringLiteral("/checks"))
                                    .entryList({QStringLiteral("*.qc")}, QDir::Files)) {
            QTest::newRow(qPrintable(f)) << qcDir() + QStringLiteral("/checks/") + f;
        }
    }
    void checks()
    {
        // One broken project per id: `<id>.qc` yields qc.<id> (exact lines in `.expected`).
        QFETCH(QString, path);
        const QString rel = QDir(qcDir()).relativeFilePath(path);
        QVERIFY(QDir::setCurrent(qcDir()));
        QElapsedTimer t;
        t.start();
        const QcReport r = qcReportFromFile(rel.toStdString(), Profile::Auto);
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(r.readable);
        const QStringList got = test::formatted(r.diagnostics);
        QCOMPARE(got, test::expectedFor(path, got));
        const std::string id = "qc." + QFileInfo(path).completeBaseName().toStdString();
        QVERIFY2(count(r.diagnostics, id) >= 1, id.c_str());
    }

    void everyQcIdHasAFixture()
    {
        const QStringList fixtures = QDir(qcDir() + QStringLiteral("/checks"))
                                         .entryList({QStringLiteral("*.qc")}, QDir::Files);
        for (const CatalogEntry& e : diagnosticCatalog()) {
            if (e.id.substr(0, 3) != "qc.") {
                continue;
            }
            const QString want =
                QString::fromUtf8(e.id.substr(3).data(), static_cast<qsizetype>(e.id.size() - 3)) +
                QStringLiteral(".qc");
            QVERIFY2(fixtures.contains(want), qPrintable(want));
        }
    }

    void hostile_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("id");
        QByteArray laughs;
        laughs += "$definemacro l0 \\\\\n$attachment a b 0 0 0\n";
        for (int i = 1; i <= 40; ++i) {
            laughs += "$definemacro l" + QByteArray::number(i) + " \\\\\n$l" +
                      QByteArray::number(i - 1) + " \\\\\n$l" + QByteArray::number(i - 1) + "\n";
        }
        laughs += "$l40\n";
        QTest::newRow("billion laughs") << laughs << QStringLiteral("qc.limit");
        QTest::newRow("self macro")
            << QByteArray("$definemacro m \\\\\n$m\n$m\n") << QStringLiteral("qc.limit");
        QByteArray doubling = "$definevariable v0 xx\n";
        for (int i = 1; i <= 40; ++i) {
            doubling += "$definevariable v" + QByteArray::number(i) + " $v" +
                        QByteArray::number(i - 1) + "$$v" + QByteArray::number(i - 1) + "$\n";
        }
        doubling += "$modelname $v40$\n";
        QTest::newRow("doubling variables") << doubling << QStringLiteral("qc.limit");
        QTest::newRow("megabyte token")
            << QByteArray("$modelname \"") + QByteArray(4 << 20, 'a') + QByteArray("\"\n")
            << QStringLiteral("qc.limit");
        QTest::newRow("unterminated quote") << QByteArray("$modelname \"abc\n$scale 2\n")
                                            << QStringLiteral("syntax.unterminated-string");
        QTest::newRow("unterminated comment") << QByteArray("$scale 2\n/* never closed\n$scale 3\n")
                                              << QStringLiteral("syntax.missing-end");
        QTest::newRow("unterminated block")
            << QByteArray("$bodygroup b {\n studio a\n") << QStringLiteral("syntax.missing-end");
        QTest::newRow("deep blocks") << QByteArray(100000, '{') << QStringLiteral("qc.limit");
        QTest::newRow("self include")
            << QByteArray("$include \"main.qc\"\n") << QStringLiteral("qc.include-cycle");
        QTest::newRow("include fan-out")
            << QByteArray("$include \"fan.qci\"\n") << QStringLiteral("qc.limit");
        QTest::newRow("lone dollar")
            << QByteArray("$\n$$\n$ $ $\n{ } }\n") << QStringLiteral("qc.syntax");
        QTest::newRow("nul bytes")
            << QByteArray("$body b \"a\0b\"\n\0\0$\0", 16) << QStringLiteral("qc.missing-file");
    }
    void hostile()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, id);
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = text.toStdString();
        // Every file includes itself 50 times and the next one: fan-out without a cycle.
        std::string fan;
        for (int i = 0; i < 50; ++i) {
            fan += "$include \"fan2.qci\"\n";
        }
        fs.files["p/fan.qci"] = fan;
        std::string fan2;
        for (int i = 0; i < 50; ++i) {
            fan2 += "$include \"fan3.qci\"\n";
        }
        fs.files["p/fan2.qci"] = fan2;
        std::string fan3;
        for (int i = 0; i < 50; ++i) {
            fan3 += "$include \"fan4.qci\"\n";
        }
        fs.files["p/fan3.qci"] = fan3;
        fs.files["p/fan4.qci"] = "$surfaceprop a\n";
        QElapsedTimer t;
        t.start();
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(r.readable);
        QVERIFY2(count(r.diagnostics, id.toStdString()) >= 1, qPrintable(dump(r.diagnostics)));
        for (const Diagnostic& d : r.diagnostics) {
            QVERIFY(d.where.line >= 1);
            QVERIFY(!d.file.empty());
        }
        QVERIFY(r.diagnostics.size() < 5000);
    }

    void corpus_data()
    {
        // No corpus: one "absent" row that skips (corpusDir() + "/qc" would be "/qc": no rows,
        // and QFETCH aborts).
        const QString corpus = test::corpusDir();
        test::addPathRows(corpus.isEmpty() ? QString() : corpus + QStringLiteral("/qc"),
                          {QStringLiteral("qc")});
    }
    void corpus()
    {
        // Blender Source Tools' test QCs name files the corpus does not hold: each missing
        // reference is reported exactly once, at its line.
        QFETCH(QString, path);
        if (path.isEmpty()) {
            QSKIP("corpus absent");
        }
        const QcReport r = qcReportFromFile(path.toStdString(), Profile::Auto);
        QVERIFY(r.readable);
        std::vector<std::string> want;
        for (const QcFileRef& f : r.project.files) {
            if (f.resolved.empty()) {
                want.push_back(f.at.file + ":" + std::to_string(f.at.where.line));
            }
        }
        QVERIFY(!want.empty());
        QCOMPARE(idsAt(r.diagnostics, ids::kQcMissingFile), want);
        QVERIFY(r.project.bodygroups.size() >= 1);
        QVERIFY(r.project.sequences.size() >= 2);
    }

    void cliInfoJson()
    {
        const auto r = test::runCli({QStringLiteral("info"), QStringLiteral("--json"),
                                     qcDir() + QStringLiteral("/source/hero.qc")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError err{};
        const QJsonObject o = QJsonDocument::fromJson(r.out, &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("qc"));
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("project"));
        QCOMPARE(o.value(QStringLiteral("modelname")).toString(),
                 QStringLiteral("rigscope/hero/hero.mdl"));
        QCOMPARE(o.value(QStringLiteral("includes")).toArray().size(), 2);
        QCOMPARE(o.value(QStringLiteral("bodygroups")).toArray().size(), 3);
        const QJsonArray helmet = o.value(QStringLiteral("bodygroups"))
                                      .toArray()
                                      .at(1)
                                      .toObject()
                                      .value(QStringLiteral("choices"))
                                      .toArray();
        QCOMPARE(helmet.at(1).toString(), QStringLiteral("blank"));
        const QJsonArray seqs = o.value(QStringLiteral("sequences")).toArray();
        QCOMPARE(seqs.size(), 5);
        QCOMPARE(seqs.at(0).toObject().value(QStringLiteral("line")).toInt(), 50);
        QCOMPARE(seqs.at(0).toObject().value(QStringLiteral("fps")).toDouble(), 10.0);
        QCOMPARE(seqs.at(0).toObject().value(QStringLiteral("loop")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("attachments")).toArray().size(), 2);
        QCOMPARE(o.value(QStringLiteral("hitboxes")).toArray().size(), 3);
        QCOMPARE(o.value(QStringLiteral("skins")).toArray().size(), 1);
        QCOMPARE(o.value(QStringLiteral("bones")).toInt(), 5);
        QCOMPARE(o.value(QStringLiteral("triangles")).toInt(), 10);
        const QJsonArray files = o.value(QStringLiteral("files")).toArray();
        QVERIFY(files.size() >= 10);
        for (const auto& f : files) {
            QVERIFY(f.toObject().value(QStringLiteral("resolved")).isString());
        }
    }

    void cliCheckSarif()
    {
        QTemporaryDir tmp;
        const QDir src(qcDir() + QStringLiteral("/checks"));
        for (const char* f : {"unknown-bone.qc", "ref.smd"}) {
            QVERIFY(QFile::copy(src.filePath(QLatin1String(f)), tmp.filePath(QLatin1String(f))));
        }
        const QString qc = tmp.filePath(QStringLiteral("unknown-bone.qc"));
        const auto text = test::runCli({QStringLiteral("check"), qc});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains(qc.toUtf8() + ":3:22: error: "), text.out.constData());
        QVERIFY(text.out.contains("[qc.unknown-bone]"));
        const auto sarif =
            test::runCli({QStringLiteral("check"), QStringLiteral("--format=sarif"), qc});
        QJsonParseError err{};
        const QJsonObject o = QJsonDocument::fromJson(sarif.out, &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        const QJsonArray results = o.value(QStringLiteral("runs"))
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(QStringLiteral("results"))
                                       .toArray();
        int unknownBone = 0;
        for (const auto& v : results) {
            const QJsonObject res = v.toObject();
            if (res.value(QStringLiteral("ruleId")).toString() ==
                QStringLiteral("qc.unknown-bone")) {
                ++unknownBone;
                const QJsonObject loc = res.value(QStringLiteral("locations"))
                                            .toArray()
                                            .at(0)
                                            .toObject()
                                            .value(QStringLiteral("physicalLocation"))
                                            .toObject();
                QVERIFY(loc.value(QStringLiteral("artifactLocation"))
                            .toObject()
                            .value(QStringLiteral("uri"))
                            .toString()
                            .endsWith(QStringLiteral("unknown-bone.qc")));
            }
        }
        QCOMPARE(unknownBone, 2);
    }

    // Issue 30 item 3: two bodyparts of one name (Pathos harrison.qc: two `$body studio`).
    // Every compiler keeps both as written, so the compiled model is what the script says: a
    // note in every profile, whose text says what a lookup by name does (the first in Source
    // and Pathos; GoldSrc switches by index only).
    void duplicateBodygroupNames()
    {
        auto graded = [](Profile p) {
            MemoryQcFileSystem fs;
            fs.files["p/main.qc"] = "$modelname t.mdl\n$body studio a.smd\n$body studio b.smd\n"
                                    "$bodygroup arms\n{\nstudio a.smd\nblank\n}\n"
                                    "$bodygroup ARMS\n{\nblank\nstudio b.smd\n}\n";
            const std::string smd = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
                                    "0 0 0 0 0 0 0\nend\ntriangles\nm.bmp\n0 0 0 0 0 0 1 0 0\n"
                                    "0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
            fs.files["p/a.smd"] = smd;
            fs.files["p/b.smd"] = smd;
            const QcReport r = qcReport("p/main.qc", p, fs);
            std::vector<std::string> out;
            for (const Diagnostic& d : r.diagnostics) {
                if (d.id == ids::kQcDuplicateName) {
                    out.push_back(std::to_string(d.where.line) + " " +
                                  std::string(severityName(d.severity)));
                }
            }
            return out;
        };
        QCOMPARE(graded(Profile::Source), (std::vector<std::string>{"3 note", "9 note"}));
        QCOMPARE(graded(Profile::Pathos), (std::vector<std::string>{"3 note", "9 note"}));
        QCOMPARE(graded(Profile::GoldSrc), (std::vector<std::string>{"3 note", "9 note"}));

        // The compiled pair: harrison.mdl, built by vbmcompiler from harrison.qc, holds both.
        const QString dir =
            test::publicDataDir() + QStringLiteral("/TheOverfloater+pathos-public/pathos/sources/"
                                                   "modelsrc/npcs/harrison/");
        if (!QFileInfo::exists(dir + QStringLiteral("harrison.mdl"))) {
            QSKIP("the Pathos projects (RIGSCOPE_TESTDATA) are not here");
        }
        const OpenedInput in = openInput((dir + QStringLiteral("harrison.mdl")).toStdString(),
                                         Profile::Auto, std::string());
        QVERIFY(in.readable && in.compiled);
        QCOMPARE(in.compiled->bodyparts.size(), std::size_t(2));
        QCOMPARE(in.compiled->bodyparts[0].name, std::string("studio"));
        QCOMPARE(in.compiled->bodyparts[1].name, std::string("studio"));
        const QcReport r =
            qcReportFromFile((dir + QStringLiteral("harrison.qc")).toStdString(), Profile::Auto);
        QCOMPARE(r.project.bodygroups.size(), in.compiled->bodyparts.size());
        std::size_t notes = 0;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == ids::kQcDuplicateName) {
                QCOMPARE(d.severity, Severity::Note);
                ++notes;
            }
        }
        QCOMPARE(notes, std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TstQcReader)
#include "tst_qc_reader.moc"
