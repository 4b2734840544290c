// The Flex dock on a DMX with a DmeCombinationOperator (docs/dmx.md §4): one slider per
// controller, a balance slider for stereo ones, and the points move as the controllers say
// (the vertex balance splits a stereo shape; a domination rule suppresses a shape).
#include <string>

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QSlider>

#include "app/document/document.h"
#include "app/widgets/flex_panel.h"
#include "tests/support/test_support.h"

using namespace rigscope;

namespace {

// A quad (positions 0-3 at x = -1, 1, 1, -1) whose balance is 0 (left), 1, 1 (right) and 0.5;
// shape "smile" lifts every position by 1 in z, "blink" lifts position 0 by 2. "smile" is a
// stereo controller, "blink" a mono one that dominates "smile".
const char* const kFace = R"(<!-- dmx encoding keyvalues2 1 format model 1 -->
"DmElement"
{
	"name" "string" "face"
	"skeleton" "element" "m"
	"model" "element" "m"
	"combinationOperator" "DmeCombinationOperator"
	{
		"controls" "element_array"
		[
			"DmeCombinationInputControl"
			{
				"name" "string" "smile"
				"rawControlNames" "string_array" [ "smile" ]
				"stereo" "bool" "1"
				"eyelid" "bool" "0"
				"flexMin" "float" "0"
				"flexMax" "float" "1"
				"wrinkleScales" "float_array" [ "0.5" ]
			},
			"DmeCombinationInputControl"
			{
				"name" "string" "blink"
				"rawControlNames" "string_array" [ "blink" ]
				"stereo" "bool" "0"
				"flexMin" "float" "0"
				"flexMax" "float" "1"
			}
		]
		"controlValues" "vector3_array" [ "0 0 0.5", "0 0 0.5" ]
		"dominators" "element_array"
		[
			"DmeCombinationDominationRule"
			{
				"dominators" "string_array" [ "blink" ]
				"suppressed" "string_array" [ "smile" ]
			}
		]
	}
}
"DmeModel"
{
	"id" "elementid" "m"
	"name" "string" "face"
	"children" "element_array"
	[
		"DmeJoint"
		{
			"name" "string" "root"
			"transform" "DmeTransform" { "position" "vector3" "0 0 0" "orientation" "quaternion" "0 0 0 1" }
		},
		"DmeDag"
		{
			"name" "string" "face"
			"transform" "DmeTransform" { "position" "vector3" "0 0 0" "orientation" "quaternion" "0 0 0 1" }
			"shape" "DmeMesh"
			{
				"name" "string" "face"
				"bindState" "DmeVertexData"
				{
					"vertexFormat" "string_array" [ "positions", "balance" ]
					"jointCount" "int" "0"
					"positions" "vector3_array" [ "-1 0 0", "1 0 0", "1 1 0", "-1 1 0" ]
					"positionsIndices" "int_array" [ "0", "1", "2", "3" ]
					"balance" "float_array" [ "0", "1", "1", "0.5" ]
					"balanceIndices" "int_array" [ "0", "1", "2", "3" ]
				}
				"faceSets" "element_array"
				[
					"DmeFaceSet"
					{
						"material" "DmeMaterial" { "mtlName" "string" "skin" }
						"faces" "int_array" [ "0", "1", "2", "3", "-1" ]
					}
				]
				"deltaStates" "element_array"
				[
					"DmeVertexDeltaData"
					{
						"name" "string" "smile"
						"positions" "vector3_array" [ "0 0 1", "0 0 1", "0 0 1", "0 0 1" ]
						"positionsIndices" "int_array" [ "0", "1", "2", "3" ]
					},
					"DmeVertexDeltaData"
					{
						"name" "string" "blink"
						"positions" "vector3_array" [ "0 0 2" ]
						"positionsIndices" "int_array" [ "0" ]
					}
				]
			}
		}
	]
}
)";

// The same quad with one stereo two-shape control "updown" on Valve's 0..1 scale: raw "down"
// lowers position 0 by 1 (below 0.5), raw "up" lifts position 2 by 1 (above 0.5).
std::string twoShapeFace()
{
    std::string s = kFace;
    auto replace = [&s](const std::string& from, const std::string& to) {
        const std::size_t at = s.find(from);
        if (at != std::string::npos) {
            s.replace(at, from.size(), to);
        }
    };
    const std::size_t c0 = s.find("\"controls\" \"element_array\"");
    const std::size_t c1 = s.find("\"controlValues\"");
    s.replace(c0, c1 - c0, R"("controls" "element_array"
		[
			"DmeCombinationInputControl"
			{
				"name" "string" "updown"
				"rawControlNames" "string_array" [ "down", "up" ]
				"stereo" "bool" "1"
			}
		]
		)");
    replace(R"("controlValues" "vector3_array" [ "0 0 0.5", "0 0 0.5" ])",
            R"("controlValues" "vector3_array" [ "0.5 0.5 0.5" ])");
    const std::size_t d0 = s.find("\"dominators\" \"element_array\"");
    const std::size_t d1 = s.find("\n\t\t]", d0); // the rule list's own bracket
    s.erase(d0, d1 + 4 - d0);
    replace(R"("name" "string" "smile"
						"positions" "vector3_array" [ "0 0 1", "0 0 1", "0 0 1", "0 0 1" ]
						"positionsIndices" "int_array" [ "0", "1", "2", "3" ])",
            R"("name" "string" "down"
						"positions" "vector3_array" [ "0 0 -1" ]
						"positionsIndices" "int_array" [ "0" ])");
    replace(R"("name" "string" "blink"
						"positions" "vector3_array" [ "0 0 2" ]
						"positionsIndices" "int_array" [ "0" ])",
            R"("name" "string" "up"
						"positions" "vector3_array" [ "0 0 1" ]
						"positionsIndices" "int_array" [ "2" ])");
    return s;
}

} // namespace

class TstFlexControllers : public QObject {
    Q_OBJECT

    // z of every point at the positions x, y the quad lists (0-3), after the flex offsets;
    // every point of one position must agree.
    static QList<float> zByPosition(const app::Document& doc)
    {
        const auto model = doc.primaryModel();
        const std::vector<core::Vec3> off = doc.evaluator()->morphOffsets(doc.flexSetting());
        QList<float> z(4, -100.0f);
        const core::Vec3 at[4] = {{-1, 0, 0}, {1, 0, 0}, {1, 1, 0}, {-1, 1, 0}};
        for (std::size_t p = 0; p < model->mesh.pointCount(); ++p) {
            const core::Vec3 pos = model->mesh.pointPositions[p];
            for (int i = 0; i < 4; ++i) {
                if ((pos - at[i]).norm() < 1e-6f) {
                    const float v = pos.z() + (off.empty() ? 0.0f : off[p].z());
                    if (z[i] != -100.0f && std::abs(z[i] - v) > 1e-6f) {
                        return {}; // two points of one position disagree
                    }
                    z[i] = v;
                }
            }
        }
        return z;
    }

    static void compareZ(const app::Document& doc, const QList<float>& want)
    {
        const QList<float> got = zByPosition(doc);
        QCOMPARE(got.size(), want.size());
        for (int i = 0; i < want.size(); ++i) {
            QVERIFY2(std::abs(got[i] - want[i]) < 1e-5f,
                     qPrintable(QStringLiteral("position %1: z %2, expected %3")
                                    .arg(i)
                                    .arg(double(got[i]))
                                    .arg(double(want[i]))));
        }
    }

private slots:
    void controllersMoveTheirPoints()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString path = tmp.filePath(QStringLiteral("face.dmx"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kFace);
        f.close();

        app::Document doc;
        doc.setChecksEnabled(false);
        app::FlexPanel panel;
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        const auto model = doc.primaryModel();
        QVERIFY(model);
        QCOMPARE(model->mesh.triangleCount(), std::size_t(2));
        QCOMPARE(model->flexControllers.size(), std::size_t(2));
        QVERIFY(model->flexControllers[0].stereo);
        QCOMPARE(model->flexControllers[0].wrinkleScales, std::vector<float>{0.5f});
        QCOMPARE(model->flexDominators.size(), std::size_t(1));
        QCOMPARE(model->pointBalance.size(), model->mesh.pointCount());
        QCOMPARE(doc.flexNames(), (QStringList{QStringLiteral("smile"), QStringLiteral("blink")}));

        // One controller slider per control (in file order), one balance slider (stereo).
        QList<QSlider*> controllers, balances;
        for (QSlider* s : panel.findChildren<QSlider*>()) {
            if (s->objectName() == QLatin1String("controller")) {
                controllers << s;
            } else if (s->objectName() == QLatin1String("balance")) {
                balances << s;
            }
        }
        QCOMPARE(controllers.size(), 2);
        QCOMPARE(balances.size(), 1);
        QCOMPARE(controllers[0]->parentWidget()->property("shapeName").toString(),
                 QStringLiteral("smile"));
        QCOMPARE(controllers[1]->parentWidget()->property("shapeName").toString(),
                 QStringLiteral("blink"));
        QSlider* smile = controllers[0];
        QSlider* blink = controllers[1];
        QSlider* balance = balances[0];
        QCOMPARE(balance->value(), balance->maximum() / 2);
        compareZ(doc, {0, 0, 0, 0});

        // Centred: both sides, every point up by 1.
        smile->setValue(smile->maximum());
        compareZ(doc, {1, 1, 1, 1});
        // Left only: the points weigh the left value by 1 - their balance.
        balance->setValue(0);
        QCOMPARE(doc.flexWeight(0), 1.0f);
        QCOMPARE(doc.flexWeightRight(0), 0.0f);
        compareZ(doc, {1, 0, 0, 0.5f});
        // Right only.
        balance->setValue(balance->maximum());
        compareZ(doc, {0, 1, 1, 0.5f});
        // A quarter: left 1, right 0.5.
        balance->setValue(balance->maximum() / 4);
        compareZ(doc, {1, 0.5f, 0.5f, 0.75f});
        if (const QString shot = qEnvironmentVariable("RIGSCOPE_FLEX_DOCK_PNG"); !shot.isEmpty()) {
            panel.resize(340, 260); // to look at the dock (docs/dmx.md): not an assertion
            QVERIFY(panel.grab().save(shot));
        }
        // Half the value, centred.
        balance->setValue(balance->maximum() / 2);
        smile->setValue(smile->maximum() / 2);
        compareZ(doc, {0.5f, 0.5f, 0.5f, 0.5f});

        // blink dominates smile: at blink 1 smile is gone, position 0 rises by blink's 2.
        blink->setValue(blink->maximum());
        compareZ(doc, {2, 0, 0, 0});
        blink->setValue(blink->maximum() / 2); // smile scaled by 1 - 0.5
        compareZ(doc, {1.25f, 0.25f, 0.25f, 0.25f});

        doc.resetFlexWeights();
        QCOMPARE(smile->value(), 0);
        QCOMPARE(blink->value(), 0);
        compareZ(doc, {0, 0, 0, 0});
    }

    // A two-shape control rests at 0.5 (Valve's default) and drives the first shape below it,
    // the second above; its balance splits both.
    void twoShapeControlIsCentredOnHalf()
    {
        const std::string text = twoShapeFace();
        QVERIFY(text.find("updown") != std::string::npos);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString path = tmp.filePath(QStringLiteral("face2.dmx"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
        f.close();

        app::Document doc;
        doc.setChecksEnabled(false);
        app::FlexPanel panel;
        panel.setDocument(&doc);
        doc.open({path});
        QVERIFY(doc.waitForLoaded());
        QCOMPARE(doc.flexNames(), (QStringList{QStringLiteral("down"), QStringLiteral("up")}));
        QSlider* updown = nullptr;
        QSlider* balance = nullptr;
        for (QSlider* s : panel.findChildren<QSlider*>()) {
            if (s->objectName() == QLatin1String("controller")) {
                updown = s;
            } else if (s->objectName() == QLatin1String("balance")) {
                balance = s;
            }
        }
        QVERIFY(updown && balance);
        QCOMPARE(updown->value(), updown->maximum() / 2); // neutral
        compareZ(doc, {0, 0, 0, 0});
        updown->setValue(0); // the first shape, whole
        compareZ(doc, {-1, 0, 0, 0});
        updown->setValue(updown->maximum() / 4);
        compareZ(doc, {-0.5f, 0, 0, 0});
        updown->setValue(updown->maximum() / 2);
        compareZ(doc, {0, 0, 0, 0});
        updown->setValue(updown->maximum() * 3 / 4);
        compareZ(doc, {0, 0, 0.5f, 0});
        updown->setValue(updown->maximum());
        compareZ(doc, {0, 0, 1, 0});
        // Position 2 has balance 1: the right value moves it; left only leaves it.
        balance->setValue(0);
        compareZ(doc, {0, 0, 0, 0});
        balance->setValue(balance->maximum());
        compareZ(doc, {0, 0, 1, 0});
        // Position 0 has balance 0: the left value.
        updown->setValue(0);
        compareZ(doc, {0, 0, 0, 0});
        balance->setValue(0);
        compareZ(doc, {-1, 0, 0, 0});
        doc.resetFlexWeights();
        QCOMPARE(updown->value(), updown->maximum() / 2);
        compareZ(doc, {0, 0, 0, 0});
    }
};

QTEST_MAIN(TstFlexControllers)
#include "tst_flex_controllers.moc"
