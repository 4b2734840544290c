// A compiled Source model's flex rules run on its controllers' values (issue 29 §2, the Flex
// dock): core::evaluateFlexRules on a generated model with rules of every kind, values worked
// out by hand from the rule programs.
#include <QtTest/QtTest>

#include "core/formats/mdl/compiled_model.h"
#include "core/pose/flex_controls.h"
#include "tests/support/mdl_writer.h"

using namespace rigscope;

namespace {

test::MdlFlexOp op(std::int32_t code, std::int32_t index)
{
    return {code, index, 0};
}
test::MdlFlexOp constant(float v)
{
    return {1, 0, v};
}

enum Desc { Blink, SmileL, SmileR, Both, Up, Down, LidLow, LidUp, Ratio, RatioZero, Broken, Idle };

// Controllers blink, smile, lid (0..1) and updown (-1..1); a rule per descriptor but `idle`.
test::SourceMdlSpec rulesSpec()
{
    test::SourceMdlSpec s = test::sampleSourceSpec();
    s.flexControllers = {"blink", "smile", "lid", "updown"};
    s.flexControllerRanges = {{0, 1}, {0, 1}, {0, 1}, {-1, 1}};
    s.flexDescs = {"blink",  "smileL", "smileR", "both",   "up",     "down",
                   "lidLow", "lidUp",  "ratio",  "ratio0", "broken", "idle"};
    s.flexRules = {
        {Blink, {op(2, 0)}},                                             // blink
        {SmileL, {op(2, 1), constant(1), op(2, 0), op(5, 0), op(6, 0)}}, // smile * (1 - blink)
        // max(%smileL, 0.5) + -smile, then overwritten by the n-way rule below
        {Both, {op(3, SmileL), constant(0.5f), op(13, 0), op(2, 1), op(8, 0), op(4, 0)}},
        // (smile * lid) dominated by blink
        {SmileR, {op(2, 1), op(2, 2), op(18, 2), op(2, 0), op(19, 1)}},
        // nway(lid, smile, 0, 0.25, 0.5, 1)
        {Both, {constant(0), constant(0.25f), constant(0.5f), constant(1), constant(2), op(17, 1)}},
        {Up, {op(16, 3)}},   // 2way1(updown)
        {Down, {op(15, 3)}}, // 2way0(updown)
        // eyelids: up/down updown, blink, close-lid lid; close-lid-V smile
        {LidLow, {constant(3), constant(0), constant(2), op(20, 1)}},
        {LidUp, {constant(3), constant(0), constant(2), op(21, 1)}},
        {Ratio, {op(2, 1), op(2, 0), op(7, 0)}},        // smile / blink
        {RatioZero, {op(2, 1), constant(0), op(7, 0)}}, // ÷ 0 gives 0
        {Broken, {op(2, 0), op(4, 0)}},                 // + with one value
    };
    return s;
}

core::CompiledModelInfo readInfo(const test::SourceMdlSpec& spec)
{
    const test::SourceMdlBytes m = test::writeSourceMdl(spec);
    core::SourceMdlFiles in;
    in.mdl = {m.mdl, "m.mdl", true};
    in.vvd = {m.vvd, "m.vvd", true};
    in.vtx = {m.vtx, "m.dx90.vtx", true};
    core::CompiledReadOptions o;
    o.animations = false;
    return core::readSourceMdl(in, {}, o).info;
}

} // namespace

class TstFlexRules : public QObject {
    Q_OBJECT
private slots:
    void controllersRead()
    {
        const core::CompiledModelInfo info = readInfo(rulesSpec());
        QCOMPARE(info.flexControllers.size(), std::size_t(4));
        QCOMPARE(info.flexControllers[3].min, -1.0f);
        QCOMPARE(info.flexControllers[3].max, 1.0f);
        QCOMPARE(info.flexRuleList.size(), std::size_t(12));
        QCOMPARE(core::controllerRest(-1, 1), 0.0f);
        QCOMPARE(core::controllerRest(0.25f, 1), 0.25f);
    }

    void everyOperation()
    {
        const core::CompiledModelInfo info = readInfo(rulesSpec());
        // blink 0.25, smile 0.8, lid 0.3, updown -0.5
        const std::vector<float> w = core::evaluateFlexRules(info, {0.25f, 0.8f, 0.3f, -0.5f});
        QCOMPARE(w.size(), std::size_t(12));
        const auto at = [&](Desc d) { return w[std::size_t(d)]; };
        QVERIFY(qFuzzyCompare(at(Blink), 0.25f));
        QVERIFY(qFuzzyCompare(at(SmileL), 0.6f));  // 0.8 × 0.75
        QVERIFY(qFuzzyCompare(at(SmileR), 0.18f)); // 0.8 × 0.3 × (1 − 0.25)
        QVERIFY(qFuzzyCompare(at(Both), 0.8f));    // lid 0.3 on the ramp's top × smile
        QCOMPARE(at(Up), 0.0f);                    // updown below 0
        QVERIFY(qFuzzyCompare(at(Down), 0.5f));    // −0.5 halfway to −1
        QVERIFY(qFuzzyCompare(at(LidLow), 0.06f)); // (1 − 0.8) × 0.3
        QVERIFY(qFuzzyCompare(at(LidUp), 0.12f));  // (1 − 0.5) × 0.8 × 0.3
        QVERIFY(qFuzzyCompare(at(Ratio), 3.2f));   // 0.8 / 0.25
        QCOMPARE(at(RatioZero), 0.0f);
        QCOMPARE(at(Broken), 0.0f);
        QCOMPARE(at(Idle), 0.0f); // no rule

        // The n-way ramp's sides and outside; the eyes up lower the upper lid's factor.
        QVERIFY(qFuzzyCompare(core::evaluateFlexRules(info, {0, 1, 0.125f, 0})[Both], 0.5f));
        QVERIFY(qFuzzyCompare(core::evaluateFlexRules(info, {0, 1, 0.75f, 0})[Both], 0.5f));
        QCOMPARE(core::evaluateFlexRules(info, {0, 1, 1, 0})[Both], 0.0f);
        const std::vector<float> up = core::evaluateFlexRules(info, {0, 0.5f, 1, 0.5f});
        QVERIFY(qFuzzyCompare(up[Up], 0.5f));
        QVERIFY(qFuzzyCompare(up[LidLow], 0.25f)); // (1 − 0.5) × (1 − 0.5) × 1
        QVERIFY(qFuzzyCompare(up[LidUp], 0.5f));   // 0.5 × 1
    }

    void restValues()
    {
        const core::CompiledModelInfo info = readInfo(rulesSpec());
        const std::vector<float> w = core::evaluateFlexRules(info, {});
        for (std::size_t d = 0; d < w.size(); ++d) {
            QVERIFY2(w[d] == 0.0f, qPrintable(QString::number(d)));
        }
    }
};

QTEST_MAIN(TstFlexRules)
#include "tst_flex_rules.moc"
