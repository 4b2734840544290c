// Issue 32 items 1, 2 and 4: a QC's face as studiomdl compiles it. The reader keeps every
// flexcontroller, flex key, eyelid, eyeball, localvar and % rule; the rig turns rules into the
// compiled model's programs (studiomdl's precedence, unary minus, max / min through commas) and
// reports the flex.* findings at their lines; evaluation gives hand-computed shape weights; a
// real playermodel (QSKIP when absent) lists every controller and reaches each shape.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include <cmath>

#include "core/formats/qc/qc_reader.h"
#include "core/ops/pose.h"
#include "core/ops/qc_ops.h"
#include "core/pose/qc_flex.h"
#include "tests/support/public_data.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

QString fixture(const char* name)
{
    return test::fixturesDir() + QStringLiteral("/qc/face/") + QLatin1String(name);
}

QStringList flexIds(const std::vector<Diagnostic>& diags)
{
    QStringList out;
    for (const Diagnostic& d : diags) {
        if (d.id.starts_with("flex.")) {
            out << QStringLiteral("%1:%2:%3")
                       .arg(QString::fromUtf8(d.id.data(), qsizetype(d.id.size())))
                       .arg(d.where.line)
                       .arg(d.severity == Severity::Error     ? QStringLiteral("E")
                            : d.severity == Severity::Warning ? QStringLiteral("W")
                                                              : QStringLiteral("N"));
        }
    }
    return out;
}

// A QC held in memory with face.qc's head.smd / head.vta beside it.
QcReport memoryReport(const std::string& qc)
{
    MemoryQcFileSystem fs;
    fs.files["p/main.qc"] = qc;
    fs.files["p/head.smd"] = test::readBytes(fixture("head.smd"));
    fs.files["p/head.vta"] = test::readBytes(fixture("head.vta"));
    return qcReport("p/main.qc", Profile::Auto, fs);
}

float shapeWeight(const QcReport& r, const QcFlexState& st, const char* name, bool right = false)
{
    const Model& m = r.compiled.model;
    for (std::size_t s = 0; s < m.flexShapes.size() && s < st.shapes.size(); ++s) {
        if (m.flexShapes[s].name == name) {
            return right ? st.shapes[s].right : st.shapes[s].left;
        }
    }
    return -1.0f;
}

std::vector<float> controllers(const QcFlexRig& rig,
                               std::initializer_list<std::pair<const char*, float>> values)
{
    std::vector<float> out(rig.program.flexControllers.size(),
                           std::numeric_limits<float>::quiet_NaN());
    for (const auto& [name, v] : values) {
        const std::int32_t c = rig.controllerIndex(name);
        if (c < 0) {
            qWarning("no controller %s", name);
            continue;
        }
        out[std::size_t(c)] = v;
    }
    return out;
}

} // namespace

class TstQcFlex : public QObject {
    Q_OBJECT

private slots:
    void readsTheFace()
    {
        const QcReport r = qcReportFromFile(fixture("face.qc").toStdString(), Profile::Auto);
        QVERIFY(r.readable);
        const QcFace& f = r.project.face;
        QCOMPARE(f.controllers.size(), std::size_t(6));
        QCOMPARE(f.controllers[2].name, std::string("frown_smile"));
        QCOMPARE(f.controllers[2].min, -1.0f);
        QCOMPARE(f.controllers[3].max, 2.0f);
        QCOMPARE(f.controllers[3].at.where.line, 16u);
        QCOMPARE(f.keys.size(), std::size_t(4)); // defaultflex, smile pair, frown, jaw
        QVERIFY(f.keys[1].pair);
        QCOMPARE(f.keys[1].split, 2.0f);
        QCOMPARE(f.keys[1].frame, 1);
        QCOMPARE(f.eyeballs.size(), std::size_t(2));
        QCOMPARE(f.eyeballs[0].bone, std::string("head"));
        QCOMPARE(f.eyeballs[0].position, Vec3(-1, -4, 10));
        QCOMPARE(f.eyelids.size(), std::size_t(1));
        QCOMPARE(f.eyelids[0].frames[0], 4);
        QCOMPARE(f.eyelids[0].targets[2], 0.4f);
        QCOMPARE(f.eyelids[0].eyeball, std::string("eye_r"));
        QCOMPARE(f.rules.size(), std::size_t(8));
        QCOMPARE(f.rules[0].target, std::string("_open"));
        // %_open = min(jaw_drop, 1) * (1 - blink): min ( jaw_drop , 1 ) * ( 1 - blink )
        QCOMPARE(f.rules[0].tokens.size(), std::size_t(12));
        QCOMPARE(f.rules[0].tokens[2].text, std::string("jaw_drop"));
        QCOMPARE(f.rules[0].tokens[2].at.where.column, 15u); // a tab, then "%_open = min("
        QCOMPARE(int(f.rules[2].tokens[5].kind), int(QcFlexToken::Kind::Descriptor));
        QCOMPARE(f.rules[2].tokens[5].text, std::string("jaw"));

        // The rig: controllers and descriptors in studiomdl's order, programs compiled.
        const QcFlexRig& rig = r.flex;
        QVERIFY(rig.active());
        QCOMPARE(rig.program.flexControllers.size(), std::size_t(6));
        const std::vector<std::string> descs{
            "default", "smileR",          "smileL",          "frown",          "jaw",
            "upper_r", "upper_r_lowerer", "upper_r_neutral", "upper_r_raiser", "_open"};
        QCOMPARE(rig.program.flexDescs, descs);
        QCOMPARE(rig.program.flexRuleList.size(), std::size_t(8));
        // max(0, -frown_smile): 0 frown_smile neg max
        const CompiledFlexRule& frown = rig.program.flexRuleList[4];
        QCOMPARE(frown.ops.size(), std::size_t(4));
        QCOMPARE(frown.ops[0].op, 1);
        QCOMPARE(frown.ops[1].op, 2);
        QCOMPARE(frown.ops[2].op, 8);
        QCOMPARE(frown.ops[3].op, 13);
        QCOMPARE(rig.eyes.size(), std::size_t(2));
        QCOMPARE(rig.eyes[0].upperLid, 5);
        QCOMPARE(rig.eyes[1].upperLid, -1); // the eyelid names eye_r only
        QCOMPARE(rig.eyes[0].radius, 0.5f);
        // Only the unused `unused`-free face: the eyes controller is read by the engine.
        QCOMPARE(flexIds(r.diagnostics), QStringList());
        const std::vector<std::int32_t> pairs = stereoPartners(rig);
        QCOMPARE(pairs[0], 1);
        QCOMPARE(pairs[1], 0);
        QCOMPARE(pairs[2], -1);
    }

    // `flexfile NAME` without extension: studiomdl loads NAME.vta (Load_Source(vtafile,
    // "vta")), found whatever its case on Windows (Faceposable-CSS-Models' players name
    // "ct_gign_expressions" beside ct_gign_expressions.VTA); never a .smd of that name.
    void flexfileWithoutExtensionIsVta()
    {
        MemoryQcFileSystem fs;
        fs.files["p/main.qc"] = "$modelname t.mdl\n$model head \"head.smd\" {\n"
                                " flexfile \"head_expr\" {\n  defaultflex frame 0\n }\n}\n"
                                "$sequence idle head.smd\n";
        fs.files["p/head.smd"] = test::readBytes(fixture("head.smd"));
        fs.files["p/head_expr.VTA"] = test::readBytes(fixture("head.vta"));
        const QcReport r = qcReport("p/main.qc", Profile::Auto, fs);
        QStringList missing;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.id == "qc.missing-file" || d.severity == Severity::Error) {
                missing << QString::fromStdString(d.message);
            }
        }
        QCOMPARE(missing, QStringList());
        // A .smd of the name is not taken for it.
        fs.files.erase("p/head_expr.VTA");
        fs.files["p/head_expr.smd"] = test::readBytes(fixture("head.smd"));
        const QcReport none = qcReport("p/main.qc", Profile::Auto, fs);
        QStringList messages;
        for (const Diagnostic& d : none.diagnostics) {
            if (d.id == "qc.missing-file") {
                messages << QString::fromStdString(d.message);
            }
        }
        QCOMPARE(messages, QStringList{QStringLiteral(
                               "flex file 'head_expr' (flexfile) is not found; tried .vta")});
    }

    // A VTA is matched to the bodies as written: studiomdl loads both at `$scale`, so `check`
    // compares them unscaled (the CSS players' $scale 1.04 had 2,535 of 2,579 VTA vertices
    // called unmatched, flex.unmatched-vertices, on models whose flexes work).
    void scaledProjectMatchesItsVta()
    {
        QTemporaryDir dir;
        for (const char* name : {"head.smd", "head.vta"}) {
            QVERIFY(QFile::copy(fixture(name), dir.filePath(QLatin1String(name))));
        }
        QFile qc(dir.filePath(QStringLiteral("face.qc")));
        QVERIFY(qc.open(QIODevice::WriteOnly));
        qc.write("$modelname t.mdl\n$scale 2\n$model head \"head.smd\" {\n"
                 " flexfile \"head.vta\" {\n  defaultflex frame 0\n  flex \"frown\" frame 2\n }\n"
                 "}\n$sequence idle head.smd\n");
        qc.close();
        CheckOptions opt;
        opt.profile = Profile::Source;
        QStringList unmatched;
        for (const CheckedFile& f : checkQcProject(qc.fileName().toStdString(), opt)) {
            for (const Diagnostic& d : f.diagnostics) {
                if (d.id == "flex.unmatched-vertices") {
                    unmatched << QString::fromStdString(d.message);
                }
            }
        }
        QCOMPARE(unmatched, QStringList());
    }

    // Three controller settings against weights computed by hand from face.qc's rules.
    void threeSettings()
    {
        const QcReport r = qcReportFromFile(fixture("face.qc").toStdString(), Profile::Auto);
        const QcFlexRig& rig = r.flex;
        const std::size_t n = r.compiled.model.flexShapes.size();
        QCOMPARE(n, std::size_t(5)); // smile frown jaw lid_down lid_up
        // A: right_smile 1, left_smile 0.5: smileR 1, smileL max(0.5, 0) = 0.5; lids at rest
        // (neutral 1: the lid's height is r sin(asin(0.1 / 0.5)) = 0.1 = the neutral target,
        // so neither lid shape moves).
        QcFlexState a =
            evaluateQcFlex(rig, controllers(rig, {{"right_smile", 1}, {"left_smile", 0.5f}}), n);
        QCOMPARE(shapeWeight(r, a, "smile", true), 1.0f);
        QCOMPARE(shapeWeight(r, a, "smile", false), 0.5f);
        QCOMPARE(shapeWeight(r, a, "frown"), 0.0f);
        QCOMPARE(shapeWeight(r, a, "jaw"), 0.0f);
        QVERIFY(std::fabs(a.descriptors[5] - 0.1f) < 1e-5f);
        QCOMPARE(shapeWeight(r, a, "lid_down"), 0.0f);
        QVERIFY(shapeWeight(r, a, "lid_up") < 1e-5f); // 0.1 (float) sits on the raiser's foot
        // B: jaw_drop 1.6, blink 0.5, right_smile 1, frown_smile -0.4:
        // _open = min(1.6, 1) * (1 - 0.5) = 0.5; jaw 0.5; smileR = 1 * (1 - 0.25) = 0.75;
        // smileL = max(0, -0.4) * 0.75 = 0; frown = max(0, 0.4) = 0.4; lid angle =
        // 0.5 asin(-0.6) + 0.5 asin(0.2) = -0.221065, height 0.5 sin(-0.221065) = -0.109640,
        // lid_down (ramp -0.3 .. 0.1 falling) = (0.1 + 0.109640) / 0.4 = 0.524100.
        QcFlexState b = evaluateQcFlex(
            rig,
            controllers(
                rig,
                {{"jaw_drop", 1.6f}, {"blink", 0.5f}, {"right_smile", 1}, {"frown_smile", -0.4f}}),
            n);
        QVERIFY(std::fabs(shapeWeight(r, b, "jaw") - 0.5f) < 1e-6f);
        QVERIFY(std::fabs(shapeWeight(r, b, "smile", true) - 0.75f) < 1e-6f);
        QCOMPARE(shapeWeight(r, b, "smile", false), 0.0f);
        QVERIFY(std::fabs(shapeWeight(r, b, "frown") - 0.4f) < 1e-6f);
        QVERIFY(std::fabs(b.descriptors[5] - (-0.109640f)) < 1e-5f);
        QVERIFY(std::fabs(shapeWeight(r, b, "lid_down") - 0.524100f) < 1e-4f);
        QVERIFY(shapeWeight(r, b, "lid_up") < 1e-5f);
        // C: frown_smile 1, jaw_drop 3 (clamped to its range 0..2), blink 1: _open =
        // min(2, 1) * 0 = 0; smileL = max(0, 1) * 1 = 1; frown = max(0, -1) = 0; the lid at
        // the lowerer target -0.3: lid_down 1.
        QcFlexState c = evaluateQcFlex(
            rig, controllers(rig, {{"frown_smile", 1}, {"jaw_drop", 3}, {"blink", 1}}), n);
        QCOMPARE(c.controllers[std::size_t(rig.controllerIndex("jaw_drop"))], 2.0f);
        QCOMPARE(shapeWeight(r, c, "jaw"), 0.0f);
        QCOMPARE(shapeWeight(r, c, "smile", false), 1.0f);
        QCOMPARE(shapeWeight(r, c, "smile", true), 0.0f);
        QCOMPARE(shapeWeight(r, c, "frown"), 0.0f);
        QVERIFY(std::fabs(shapeWeight(r, c, "lid_down") - 1.0f) < 1e-5f);
    }

    // Eyes (R_StudioEyeballPosition): they look at the target; a target below pulls the lids
    // down with the eye's pitch (R_StudioEyelidFACS).
    void eyesFollowTheTarget()
    {
        const QcReport r = qcReportFromFile(fixture("face.qc").toStdString(), Profile::Auto);
        const QcFlexRig::Eye& eye = r.flex.eyes[0];
        QcEyeTarget target;
        target.set = true;
        target.point = Vec3(-1, -104, 10); // straight ahead, 100 units
        QcEyeState s = eyeState(eye, target);
        // The iris turns off the target by twice the Z angle offset: tan(4 deg) * 2 sideways.
        const float side = 2.0f * std::tan(4.0f * 3.14159265f / 180.0f);
        QVERIFY(std::fabs(s.forward.y() - (-1.0f / std::sqrt(1 + side * side))) < 1e-5f);
        QVERIFY(std::fabs(s.forward.z()) < 1e-6f);
        // Look down 30 degrees, neutral weight 1 (lid angle a = asin(0.2)). The eye's frame:
        // f = (0, -cos30, -sin30) turned sideways by k = 2 tan 4 = 0.139853, n = sqrt(1 + k^2)
        // = 1.009732; up_z = sqrt(cos30^2 + k^2) / n = 0.868797, f_z = -0.5 / n = -0.495179;
        // height = 0.5 (sin a up_z + cos a f_z) = 0.5 (0.173759 - 0.485178) = -0.155710,
        // lid_down = (0.1 + 0.155710) / 0.4 = 0.639275.
        target.point = Vec3(-1, -4 - 100 * std::cos(0.5235988f), 10 - 100 * std::sin(0.5235988f));
        const std::size_t n = r.compiled.model.flexShapes.size();
        const QcFlexState st = evaluateQcFlex(r.flex, {}, n, target);
        QVERIFY2(std::fabs(st.descriptors[5] - (-0.155710f)) < 1e-5f,
                 qPrintable(QString::number(double(st.descriptors[5]))));
        QVERIFY(std::fabs(shapeWeight(r, st, "lid_down") - 0.639275f) < 1e-4f);
    }

    // Issue 32: the eyes ride the posed head (R_StudioEyeballPosition keeps the centre and up
    // in the bone's space). The head turned 30 degrees down about X and 20 degrees about Z and
    // moved: the centre, the straight-ahead look and the up turn with it; a target 30 degrees
    // below the head's forward gives the same lid weight as at the reference pose (the lids
    // follow the pitch relative to the head), and a level target now closes it less.
    void eyesRideThePosedHead()
    {
        const QcReport r = qcReportFromFile(fixture("face.qc").toStdString(), Profile::Auto);
        const QcFlexRig::Eye& eye = r.flex.eyes[0];
        QCOMPARE(eye.joint, 0);
        const Eigen::Affine3f delta = Eigen::Translation3f(3, -2, 5) *
                                      Eigen::AngleAxisf(0.3490659f, Vec3::UnitZ()) *
                                      Eigen::AngleAxisf(-0.5235988f, Vec3::UnitX());
        const std::vector<Eigen::Affine3f> deltas =
            eyeBoneDeltas(r.flex.eyes, {delta}, {Eigen::Affine3f::Identity()});
        QCOMPARE(deltas.size(), std::size_t(2));
        QVERIFY(deltas[0].isApprox(delta, 1e-6f));
        const QcEyeState rest = eyeState(eye, {});
        const QcEyeState posed = eyeState(eye, {}, delta);
        QVERIFY((posed.centre - delta * Vec3(-1, -4, 10)).norm() < 1e-5f);
        QVERIFY((posed.forward - delta.linear() * rest.forward).norm() < 1e-5f);
        QVERIFY((posed.up - delta.linear() * rest.up).norm() < 1e-5f);
        QVERIFY((posed.headUp - delta.linear() * Vec3::UnitZ()).norm() < 1e-5f);
        // 30 degrees below the head's forward: lid_down 0.639275 as in eyesFollowTheTarget.
        const std::size_t n = r.compiled.model.flexShapes.size();
        QcEyeTarget target;
        target.set = true;
        target.point = posed.centre + delta.linear() * (100.0f * Vec3(0, -std::cos(0.5235988f),
                                                                      -std::sin(0.5235988f)));
        const QcFlexState st = evaluateQcFlex(r.flex, {}, n, target, deltas);
        QVERIFY2(std::fabs(shapeWeight(r, st, "lid_down") - 0.639275f) < 1e-4f,
                 qPrintable(QString::number(double(shapeWeight(r, st, "lid_down")))));
        // At the reference pose the same target is far below (the head no longer turns it).
        const QcFlexState flat = evaluateQcFlex(r.flex, {}, n, target);
        QVERIFY(std::fabs(shapeWeight(r, flat, "lid_down") - 0.639275f) > 0.05f);
    }

    // Diagnostics at their lines: errors where studiomdl stops, warnings where it compiles
    // something else than written, notes.
    void diagnosticsAtLines()
    {
        const QcReport r =
            memoryReport("$model \"head\" \"head.smd\" {\n"          // 1
                         "\tflexfile \"head.vta\" {\n"               // 2
                         "\t\tflex \"smile\" frame 1\n"              // 3
                         "\t\tflex \"frown\" frame 2\n"              // 4
                         "\t\tflex \"jaw\" frame 9\n"                // 5 no frame 9
                         "\t}\n"                                     // 6
                         "\tflexcontroller mouth smile_c frown_c\n"  // 7
                         "\tflexcontroller mouth range 0.2 1 lazy\n" // 8 range without 0
                         "\tflexcontroller mouth unused_c\n"         // 9 read by nothing
                         "\t%smile = smiel\n"                        // 10 unknown ctrl
                         "\t%smiel = smile_c\n"                      // 11 unknown shape
                         "\t%frown = max(frown_c 1)\n"               // 12 missing comma
                         "\t%frown = (frown_c))\n"                   // 13 unmatched )
                         "\t%frown = -frown_c\n"                     // 14 leading minus
                         "\t%smile = smile_c * %nothing + lazy\n"    // 15 unknown %flex
                         "}\n");
        QCOMPARE(flexIds(r.diagnostics), (QStringList{
                                             QStringLiteral("flex.shape-unreached:3:W"),
                                             QStringLiteral("flex.unknown-shape:5:E"),
                                             QStringLiteral("flex.controller-range:8:W"),
                                             QStringLiteral("flex.controller-unused:9:N"),
                                             QStringLiteral("flex.unknown-controller:10:E"),
                                             QStringLiteral("flex.unknown-shape:11:E"),
                                             QStringLiteral("flex.rule-syntax:12:E"),
                                             QStringLiteral("flex.rule-syntax:13:E"),
                                             QStringLiteral("flex.rule-misread:14:W"),
                                             QStringLiteral("flex.unknown-shape:15:E"),
                                         }));
    }

    // A rule that goes on past `\\` at the end of its line (Valve's L4D2 face rules do).
    void continuedRule()
    {
        const QcReport r = memoryReport("$model \"head\" \"head.smd\" {\n"
                                        "\tflexfile \"head.vta\" {\n"
                                        "\t\tflex \"smile\" frame 1\n"
                                        "\t}\n"
                                        "\tflexcontroller mouth a b\n"
                                        "\t%smile = a * 0.5 \\\\\n"
                                        "\t\t+ b * 0.25\n"
                                        "}\n");
        QCOMPARE(flexIds(r.diagnostics), QStringList());
        QCOMPARE(r.flex.program.flexRuleList.size(), std::size_t(1));
        const QcFlexState st = evaluateQcFlex(r.flex, controllers(r.flex, {{"a", 1}, {"b", 1}}),
                                              r.compiled.model.flexShapes.size());
        QCOMPARE(st.descriptors[std::size_t(r.flex.descIndex("smile"))], 0.75f);
    }

    void poseCliWeights()
    {
        PoseRequest req;
        req.file = fixture("face.qc").toStdString();
        req.flexControllers.emplace_back("smile", 0.5f, 1.0f); // left_smile, right_smile
        req.flexControllers.emplace_back("jaw_drop", 1.6f);
        const PoseReport r = poseFromFiles(req);
        QVERIFY2(r.ok, r.error.c_str());
        const std::string json = poseJson(r);
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
        // jaw 1.6 → _open 1 → jaw 1; smileR 1 * 0.5, smileL 0.5 * 0.5; the smile's mean 0.375.
        const QJsonObject w = o.value(QStringLiteral("flexWeights")).toObject();
        QCOMPARE(w.value(QStringLiteral("jaw")).toDouble(), 1.0);
        QCOMPARE(w.value(QStringLiteral("smile")).toDouble(), 0.375);
        const QJsonArray smile = o.value(QStringLiteral("flexWeightsStereo"))
                                     .toObject()
                                     .value(QStringLiteral("smile"))
                                     .toArray();
        QCOMPARE(smile.size(), 2);
        QCOMPARE(smile[0].toDouble(), 0.25);
        QCOMPARE(smile[1].toDouble(), 0.5);
        QCOMPARE(o.value(QStringLiteral("flexDescriptors"))
                     .toObject()
                     .value(QStringLiteral("smileR"))
                     .toDouble(),
                 0.5);
        QVERIFY(o.value(QStringLiteral("bones")).isArray());
        PoseRequest bad = req;
        bad.flexControllers.emplace_back("nope", 1.0f);
        const PoseReport b = poseFromFiles(bad);
        QVERIFY(!b.ok);
        QVERIFY(b.error.find("no flex controller 'nope'") != std::string::npos);
    }

    // A real L4D2 playermodel whose face .qci we never wrote (QSKIP when absent): every
    // controller listed, every shape reached by a rule, no flex error; three settings by hand.
    void realPlayermodel()
    {
        const QString qc = test::publicDataDir() +
                           QStringLiteral("/hedyl2+qctemplate-l4d2/survivor_producer/rochelle.qc");
        if (!QFileInfo::exists(qc)) {
            QSKIP("the L4D2 survivor template is not on this machine");
        }
        const QcReport r = qcReportFromFile(qc.toStdString(), Profile::Auto);
        QVERIFY(r.readable);
        const QcFlexRig& rig = r.flex;
        QVERIFY(!rig.autoDmxRules); // noautodmxrules
        QCOMPARE(rig.program.flexControllers.size(), std::size_t(52));
        QCOMPARE(rig.program.flexControllers.front().name, std::string("eyes_updown"));
        for (const Diagnostic& d : r.diagnostics) {
            QVERIFY2(!(d.id.starts_with("flex.") && d.severity == Severity::Error),
                     d.message.c_str());
        }
        const std::size_t n = r.compiled.model.flexShapes.size();
        QVERIFY(n > 0);
        std::vector<bool> reached(n, false);
        for (const QcFlexRig::Key& k : rig.keys) {
            if (k.shape < n &&
                (rig.ruleOf[std::size_t(k.left)] >= 0 || rig.ruleOf[std::size_t(k.right)] >= 0 ||
                 std::any_of(rig.eyes.begin(), rig.eyes.end(), [&](const auto& e) {
                     return e.upperLid == k.left || e.lowerLid == k.left || e.upperLid == k.right ||
                            e.lowerLid == k.right;
                 }))) {
                reached[k.shape] = true;
            }
        }
        // Every shape but the four the template writes no rule for (its `//%AU42 = half_closed`
        // is commented out), each also a flex.shape-unreached warning.
        QStringList unreached;
        for (std::size_t s = 0; s < n; ++s) {
            if (!reached[s]) {
                unreached << QString::fromStdString(r.compiled.model.flexShapes[s].name);
            }
        }
        unreached.sort();
        QCOMPARE(unreached, (QStringList{QStringLiteral("AU17D"), QStringLiteral("AU18Z"),
                                         QStringLiteral("AU42"), QStringLiteral("AU6Z")}));
        QCOMPARE(std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                               [](const Diagnostic& d) { return d.id == "flex.shape-unreached"; }),
                 4);
        // %AU1R = right_inner_raiser * (1 - right_outer_raiser) * (1 - right_lowerer):
        // inner 1, outer 0.5 → 0.5.
        const auto desc = [&](const QcFlexState& st, const char* name) {
            const std::int32_t d = rig.descIndex(name);
            return d >= 0 ? st.descriptors[std::size_t(d)] : -1.0f;
        };
        QcFlexState a = evaluateQcFlex(
            rig, controllers(rig, {{"right_inner_raiser", 1}, {"right_outer_raiser", 0.5f}}), n);
        QVERIFY(std::fabs(desc(a, "AU1R") - 0.5f) < 1e-6f);
        // %AU1AU2R = inner * outer * (1 - lowerer) + %AU1AU2AU4R / 2 = 0.5
        QVERIFY(std::fabs(desc(a, "AU1AU2R") - 0.5f) < 1e-6f);
        // %upper_right_lowerer = right_lid_closer + blink * (1 - right_lid_closer):
        // closer 0.25, blink 0.5 → 0.625.
        QcFlexState b = evaluateQcFlex(
            rig, controllers(rig, {{"right_lid_closer", 0.25f}, {"blink", 0.5f}}), n);
        QVERIFY(std::fabs(desc(b, "upper_right_lowerer") - 0.625f) < 1e-6f);
        // %F04R = right_lid_squinter * (1 - blink) * (1 - right_lid_closer): 1 * 0.5 * 0.75.
        QcFlexState c = evaluateQcFlex(
            rig,
            controllers(rig,
                        {{"right_lid_squinter", 1}, {"right_lid_closer", 0.25f}, {"blink", 0.5f}}),
            n);
        QVERIFY(std::fabs(desc(c, "F04R") - 0.375f) < 1e-6f);
    }
};

QTEST_GUILESS_MAIN(TstQcFlex)
#include "tst_qc_flex.moc"
