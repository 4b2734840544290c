// DMX combination-operator controls as Valve's CDmeCombinationOperator evaluates them
// (core/pose/flex_controls.h, docs/dmx.md §4): one, two (0..1 centred on 0.5) and several raw
// controls, eyelids, the stereo split and the domination rule per side; and `pose --flex` with
// controller names moving the points.
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/ops/pose.h"
#include "core/pose/flex_controls.h"
#include "tests/support/test_support.h"

using namespace rigscope;
using namespace rigscope::core;

namespace {

FlexController control(std::vector<std::string> raw, bool stereo = false, bool eyelid = false)
{
    FlexController c;
    c.name = "c";
    c.rawControls = std::move(raw);
    c.stereo = stereo;
    c.eyelid = eyelid;
    return c;
}

// Left weights of every raw control.
std::vector<float> lefts(const std::vector<SideWeights>& w)
{
    std::vector<float> out;
    for (const SideWeights& s : w) {
        out.push_back(s.left);
    }
    return out;
}

bool near(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::abs(a[i] - b[i]) > 1e-6f) {
            return false;
        }
    }
    return true;
}

// One triangle (positions 0-2) with a two-shape control "updown" (raw "down": position 0 down
// by 2; raw "up": position 1 up by 1) and a mono "blink" (position 2 up by 2) that dominates
// "down".
const char* const kTriangle = R"(<!-- dmx encoding keyvalues2 1 format model 1 -->
"DmElement"
{
	"name" "string" "tri"
	"skeleton" "element" "m"
	"model" "element" "m"
	"combinationOperator" "DmeCombinationOperator"
	{
		"controls" "element_array"
		[
			"DmeCombinationInputControl"
			{
				"name" "string" "updown"
				"rawControlNames" "string_array" [ "down", "up" ]
				"stereo" "bool" "0"
			},
			"DmeCombinationInputControl"
			{
				"name" "string" "blink"
				"rawControlNames" "string_array" [ "blink" ]
				"stereo" "bool" "0"
			}
		]
		"controlValues" "vector3_array" [ "0.5 0.5 0.5", "0 0 0.5" ]
		"dominators" "element_array"
		[
			"DmeCombinationDominationRule"
			{
				"dominators" "string_array" [ "blink" ]
				"suppressed" "string_array" [ "down" ]
			}
		]
	}
}
"DmeModel"
{
	"id" "elementid" "m"
	"name" "string" "tri"
	"children" "element_array"
	[
		"DmeJoint"
		{
			"name" "string" "root"
			"transform" "DmeTransform" { "position" "vector3" "0 0 0" "orientation" "quaternion" "0 0 0 1" }
		},
		"DmeDag"
		{
			"name" "string" "tri"
			"transform" "DmeTransform" { "position" "vector3" "0 0 0" "orientation" "quaternion" "0 0 0 1" }
			"shape" "DmeMesh"
			{
				"name" "string" "tri"
				"bindState" "DmeVertexData"
				{
					"vertexFormat" "string_array" [ "positions" ]
					"jointCount" "int" "0"
					"positions" "vector3_array" [ "0 0 0", "1 0 0", "0 1 0" ]
					"positionsIndices" "int_array" [ "0", "1", "2" ]
				}
				"faceSets" "element_array"
				[
					"DmeFaceSet"
					{
						"material" "DmeMaterial" { "mtlName" "string" "skin" }
						"faces" "int_array" [ "0", "1", "2", "-1" ]
					}
				]
				"deltaStates" "element_array"
				[
					"DmeVertexDeltaData"
					{
						"name" "string" "down"
						"positions" "vector3_array" [ "0 0 -2" ]
						"positionsIndices" "int_array" [ "0" ]
					},
					"DmeVertexDeltaData"
					{
						"name" "string" "up"
						"positions" "vector3_array" [ "0 0 1" ]
						"positionsIndices" "int_array" [ "1" ]
					},
					"DmeVertexDeltaData"
					{
						"name" "string" "blink"
						"positions" "vector3_array" [ "0 0 2" ]
						"positionsIndices" "int_array" [ "2" ]
					}
				]
			}
		}
	]
}
)";

} // namespace

class TstFlexControls : public QObject {
    Q_OBJECT

private slots:
    void oneShapeFollowsTheValue()
    {
        const FlexController c = control({"smile"});
        QCOMPARE(controlDefaultValue(c), 0.0f);
        QVERIFY(near(lefts(controlWeights(c, 0.3f, 0.5f, 0.5f)), {0.3f}));
        QVERIFY(near(lefts(controlWeights(c, 1.0f, 0.5f, 0.5f)), {1.0f}));
        QVERIFY(near(lefts(controlWeights(c, 0.0f, 0.5f, 0.5f)), {0.0f}));
    }

    // Valve's two-way ramps: (-11, -10, 0, 0.5) for the first raw control, (0.5, 1, 10, 11) for
    // the second: 0.5 is neutral.
    void twoShapesAreCentredOnHalf()
    {
        const FlexController c = control({"eyes_down", "eyes_up"});
        QCOMPARE(controlDefaultValue(c), 0.5f);
        QVERIFY(near(lefts(controlWeights(c, 0.0f, 0.5f, 0.5f)), {1.0f, 0.0f}));
        QVERIFY(near(lefts(controlWeights(c, 0.25f, 0.5f, 0.5f)), {0.5f, 0.0f}));
        QVERIFY(near(lefts(controlWeights(c, 0.5f, 0.5f, 0.5f)), {0.0f, 0.0f}));
        QVERIFY(near(lefts(controlWeights(c, 0.75f, 0.5f, 0.5f)), {0.0f, 0.5f}));
        QVERIFY(near(lefts(controlWeights(c, 1.0f, 0.5f, 0.5f)), {0.0f, 1.0f}));
    }

    // Three or more raw controls: the level picks (peaks at 0, 0.5, 1), the value scales.
    void multiLevel()
    {
        const FlexController c = control({"a", "b", "c"});
        QCOMPARE(controlDefaultValue(c), 0.0f);
        QVERIFY(near(lefts(controlWeights(c, 1.0f, 0.5f, 0.0f)), {1.0f, 0.0f, 0.0f}));
        QVERIFY(near(lefts(controlWeights(c, 1.0f, 0.5f, 0.5f)), {0.0f, 1.0f, 0.0f}));
        QVERIFY(near(lefts(controlWeights(c, 1.0f, 0.5f, 0.25f)), {0.5f, 0.5f, 0.0f}));
        QVERIFY(near(lefts(controlWeights(c, 0.5f, 0.5f, 1.0f)), {0.0f, 0.0f, 0.5f}));
        // An eyelid: the lower lid (first) takes 1 - the level, the upper the level.
        const FlexController lid = control({"lower", "upper"}, false, true);
        QCOMPARE(controlDefaultValue(lid), 0.0f);
        QVERIFY(near(lefts(controlWeights(lid, 1.0f, 0.5f, 0.25f)), {0.75f, 0.25f}));
        QVERIFY(near(lefts(controlWeights(lid, 0.5f, 0.5f, 1.0f)), {0.0f, 0.5f}));
    }

    // Stereo: left = w·min(1, 2(1 − balance)), right = w·min(1, 2·balance).
    void stereoSplit()
    {
        const FlexController c = control({"smile"}, true);
        auto w = controlWeights(c, 1.0f, 0.25f, 0.5f);
        QCOMPARE(w[0].left, 1.0f);
        QCOMPARE(w[0].right, 0.5f);
        w = controlWeights(c, 0.8f, 1.0f, 0.5f);
        QCOMPARE(w[0].left, 0.0f);
        QCOMPARE(w[0].right, 0.8f);
        const FlexController two = control({"down", "up"}, true);
        w = controlWeights(two, 0.0f, 0.75f, 0.5f); // the first shape, mostly right
        QCOMPARE(w[0].left, 0.5f);
        QCOMPARE(w[0].right, 1.0f);
        QCOMPARE(w[1].left, 0.0f);
        QCOMPARE(w[1].right, 0.0f);
        const FlexController mono = control({"blink"});
        w = controlWeights(mono, 0.6f, 0.0f, 0.5f); // balance means nothing to a mono control
        QCOMPARE(w[0].left, 0.6f);
        QCOMPARE(w[0].right, 0.6f);
    }

    // 1 − the product of the dominators, per side, from the weights before any rule.
    void dominationPerSide()
    {
        std::vector<FlexDominationRule> rules(1);
        rules[0].dominators = {"blink", "squint"};
        rules[0].suppressed = {"smile"};
        const std::vector<std::string> names = {"blink", "squint", "smile"};
        auto shapeOf = [&names](const std::string& n) {
            const auto it = std::find(names.begin(), names.end(), n);
            return it == names.end() ? SIZE_MAX : std::size_t(it - names.begin());
        };
        std::vector<SideWeights> w = {{1.0f, 0.0f}, {0.5f, 0.5f}, {1.0f, 1.0f}};
        applyDomination(rules, shapeOf, w);
        QCOMPARE(w[2].left, 0.5f);  // 1 - 1 * 0.5
        QCOMPARE(w[2].right, 1.0f); // 1 - 0 * 0.5
        QCOMPARE(w[0].left, 1.0f);  // dominators untouched
        // A dominator this model lacks: the product is 0, nothing is suppressed.
        rules[0].dominators = {"blink", "missing"};
        w = {{1.0f, 1.0f}, {0.0f, 0.0f}, {1.0f, 1.0f}};
        applyDomination(rules, shapeOf, w);
        QCOMPARE(w[2].left, 1.0f);
    }

    // `pose --flex` takes controller names on the same scale; the rules apply.
    void poseByController_data()
    {
        QTest::addColumn<QString>("flex"); // "name=v;name=v"
        QTest::addColumn<float>("z0");
        QTest::addColumn<float>("z1");
        QTest::addColumn<float>("z2");
        QTest::newRow("neutral") << QStringLiteral("updown=0.5") << 0.0f << 0.0f << 0.0f;
        QTest::newRow("down half") << QStringLiteral("updown=0.25") << -1.0f << 0.0f << 0.0f;
        QTest::newRow("down") << QStringLiteral("updown=0") << -2.0f << 0.0f << 0.0f;
        QTest::newRow("up") << QStringLiteral("updown=1") << 0.0f << 1.0f << 0.0f;
        QTest::newRow("up 0.8") << QStringLiteral("updown=0.8") << 0.0f << 0.6f << 0.0f;
        QTest::newRow("blink dominates down")
            << QStringLiteral("updown=0;blink=0.5") << -1.0f << 0.0f << 1.0f;
        QTest::newRow("raw shape by name") << QStringLiteral("up=0.5") << 0.0f << 0.5f << 0.0f;
    }
    void poseByController()
    {
        QFETCH(QString, flex);
        QFETCH(float, z0);
        QFETCH(float, z1);
        QFETCH(float, z2);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString path = tmp.filePath(QStringLiteral("tri.dmx"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kTriangle);
        f.close();
        PoseRequest req;
        req.file = path.toStdString();
        req.vertices = true;
        for (const QString& kv : flex.split(QLatin1Char(';'))) {
            const QStringList p = kv.split(QLatin1Char('='));
            req.flex.emplace_back(p[0].toStdString(), p[1].toFloat());
        }
        const PoseReport r = poseFromFiles(req);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.vertices.size(), std::size_t(3));
        const float want[3] = {z0, z1, z2};
        for (std::size_t i = 0; i < 3; ++i) {
            QVERIFY2(std::abs(r.vertices[i].z() - want[i]) < 1e-5f,
                     qPrintable(QStringLiteral("vertex %1: z %2, expected %3")
                                    .arg(i)
                                    .arg(double(r.vertices[i].z()))
                                    .arg(double(want[i]))));
        }
    }
};

QTEST_MAIN(TstFlexControls)
#include "tst_flex_controls.moc"
