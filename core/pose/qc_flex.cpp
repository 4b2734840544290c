#include "core/pose/qc_flex.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/qc/qc_diagnostic.h"
#include "core/formats/qc/qc_reader.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

// The op codes of a compiled rule (studio.h; docs/compiled.md "Flex rules"). OPEN, CLOSE and
// COMMA exist only while studiomdl parses.
enum Op : std::int32_t {
    kConst = 1,
    kFetch1 = 2,
    kFetch2 = 3,
    kAdd = 4,
    kSub = 5,
    kMul = 6,
    kDiv = 7,
    kNeg = 8,
    kOpen = 10,
    kClose = 11,
    kComma = 12,
    kMax = 13,
    kMin = 14,
};

int precedence(std::int32_t op) noexcept
{
    switch (op) {
    case kAdd:
    case kSub:
        return 1;
    case kMul:
    case kDiv:
        return 2;
    case kNeg:
        return 4;
    case kMax:
    case kMin:
        return 5;
    default:
        return 0;
    }
}

std::string quoted(const std::string& s)
{
    return "'" + s + "'";
}

class Builder {
public:
    Builder(const QcProject& p, const Model& m, const std::vector<QcFlexShapeSource>& sources,
            std::size_t maxControllers)
        : m_p(p), m_model(m), m_sources(sources), m_max(maxControllers)
    {
    }

    QcFlexRig run();

private:
    std::int32_t addDesc(const std::string& name, const QcWhere& at, bool dedup = true)
    {
        const std::string key = asciiLower(name);
        if (dedup) {
            if (auto it = m_descByName.find(key); it != m_descByName.end()) {
                return it->second;
            }
        }
        const auto d = static_cast<std::int32_t>(m_rig.program.flexDescs.size());
        m_rig.program.flexDescs.push_back(name);
        m_rig.descAt.push_back(at);
        m_descByName.try_emplace(key, d);
        return d;
    }
    void addController(const std::string& type, const std::string& name, float lo, float hi,
                       const QcWhere& at)
    {
        m_rig.program.flexControllers.push_back({type, name, lo, hi});
        m_rig.controllerAt.push_back(at);
        m_controllerByName.try_emplace(asciiLower(name),
                                       std::int32_t(m_rig.program.flexControllers.size() - 1));
    }
    void addKey(std::int32_t left, std::int32_t right, std::size_t shape,
                std::array<float, 4> targets)
    {
        QcFlexRig::Key k;
        k.left = left;
        k.right = right;
        k.shape = shape;
        k.targets = targets;
        if (shape < m_model.flexShapes.size()) {
            k.shapeName = m_model.flexShapes[shape].name;
        }
        m_rig.keys.push_back(std::move(k));
    }
    const QcFlexShapeSource* sourceOf(std::int32_t fileRef, std::int32_t body) const
    {
        for (const QcFlexShapeSource& s : m_sources) {
            if (s.fileRef == fileRef && (body < 0 || s.body == body)) {
                return &s;
            }
        }
        return nullptr;
    }
    const QcFlexShapeSource* dmxSourceOf(std::int32_t body) const
    {
        for (const QcFlexShapeSource& s : m_sources) {
            if (s.dmx && s.body == body) {
                return &s;
            }
        }
        return nullptr;
    }
    std::size_t vtaShape(const QcFlexShapeSource* s, std::int32_t frame) const
    {
        if (s == nullptr) {
            return SIZE_MAX;
        }
        for (std::size_t k = 0; k < s->times.size() && k < s->count; ++k) {
            if (s->times[k] == double(frame)) {
                return s->firstShape + k;
            }
        }
        return SIZE_MAX;
    }
    std::size_t dmxShape(const QcFlexShapeSource* s, const std::string& name) const
    {
        if (s == nullptr) {
            return SIZE_MAX;
        }
        for (std::size_t k = s->firstShape; k < s->firstShape + s->count; ++k) {
            if (k < m_model.flexShapes.size() && asciiIEquals(m_model.flexShapes[k].name, name)) {
                return k;
            }
        }
        return SIZE_MAX;
    }
    bool stereoDelta(const std::string& name) const
    {
        for (const FlexController& c : m_model.flexControllers) {
            if (!c.stereo) {
                continue;
            }
            for (const std::string& raw : c.rawControls) {
                if (asciiIEquals(raw, name)) {
                    return true;
                }
            }
        }
        return false;
    }
    void dmxBody(std::int32_t body);
    void key(const QcFlexKey& k, std::vector<std::int32_t>& lastDescKey);
    void eyelid(const QcEyelid& e);
    void rule(const QcFlexRule& r);
    void report(Severity s, std::string_view id, const QcWhere& at, std::string message)
    {
        m_rig.diagnostics.push_back(diagnosticAt(s, id, at, std::move(message)));
    }
    void usageChecks();

    const QcProject& m_p;
    const Model& m_model;
    const std::vector<QcFlexShapeSource>& m_sources;
    std::size_t m_max;
    QcFlexRig m_rig;
    std::unordered_map<std::string, std::int32_t> m_descByName;
    std::unordered_map<std::string, std::int32_t> m_controllerByName;
    std::vector<std::int32_t> m_named; // controllers a rule names (compiled or not)
};

// A DMX body's delta states become descriptors at the `$model` line (AddBodyFlexData): one per
// state, NAMEL and NAMER for a stereo one; with studiomdl's automatic rules, the combination
// operator's controls become controllers (AddFlexControllers: stereo ones as right_/left_).
void Builder::dmxBody(std::int32_t body)
{
    const QcFlexShapeSource* s = dmxSourceOf(body);
    if (s == nullptr) {
        return;
    }
    const QcBodygroup& g = m_p.bodygroups[std::size_t(body)];
    const QcWhere at = g.choices.empty() ? g.at : g.choices.front().at;
    for (std::size_t k = s->firstShape; k < s->firstShape + s->count; ++k) {
        const std::string& name = m_model.flexShapes[k].name;
        if (stereoDelta(name)) {
            const std::int32_t l = addDesc(name + "L", at);
            const std::int32_t r = addDesc(name + "R", at);
            addKey(l, r, k, {0.0f, 1.0f, 10.0f, 11.0f});
        } else {
            const std::int32_t d = addDesc(name, at);
            addKey(d, d, k, {0.0f, 1.0f, 10.0f, 11.0f});
        }
    }
    const bool noAuto = std::find(m_p.face.noAutoDmxRules.begin(), m_p.face.noAutoDmxRules.end(),
                                  body) != m_p.face.noAutoDmxRules.end();
    if (!noAuto && !m_model.flexControllers.empty()) {
        m_rig.autoDmxRules = true;
        for (const FlexController& c : m_model.flexControllers) {
            if (c.stereo) {
                addController(c.name, "right_" + c.name, 0, 1, at);
                addController(c.name, "left_" + c.name, 0, 1, at);
            } else {
                addController(c.name, c.name, c.rawControls.size() == 2 ? -1.0f : 0.0f, 1, at);
            }
        }
    }
}

// Option_Flex: `flex NAME frame N` (a pair: NAMER / NAMEL, split left and right), ramps chained
// when keys of one descriptor follow each other (`position`).
void Builder::key(const QcFlexKey& k, std::vector<std::int32_t>& last)
{
    std::int32_t right = -1, left = -1;
    if (k.pair && k.split != 0.0f) {
        right = addDesc(k.name + "R", k.at);
        left = addDesc(k.name + "L", k.at);
    } else {
        right = left = addDesc(k.name, k.at);
    }
    std::array<float, 4> t{0.0f, k.position, 10.0f, 11.0f};
    if (!m_rig.keys.empty() && !last.empty() && last.back() == right) {
        QcFlexRig::Key& prev = m_rig.keys.back();
        prev.targets[2] = prev.targets[1];
        prev.targets[3] = t[1];
        t[0] = prev.targets[1];
    }
    last.push_back(right);
    if (k.isDefault || k.frame == 0) {
        return; // the base frame: no shape
    }
    const QcFlexShapeSource* s = sourceOf(k.fileRef, k.body);
    const std::size_t shape = vtaShape(s, k.frame);
    if (s != nullptr && shape == SIZE_MAX) {
        report(Severity::Error, ids::kFlexUnknownShape, k.at,
               "flex " + quoted(k.name) + ": the flexfile has no frame " + std::to_string(k.frame) +
                   "; studiomdl stops");
    }
    addKey(left, right, shape, t);
}

// Option_Eyelid (VTA frames): descriptor TYPE, then TYPE_lowerer / _neutral / _raiser as
// written; three keys on TYPE ramping over the lid heights. Option_DmxEyelid: TYPE_right (+ its
// three), TYPE_left (+ its three), the three delta states stereo on TYPE_left / TYPE_right.
void Builder::eyelid(const QcEyelid& e)
{
    static const char* const kPart[3] = {"lowerer", "neutral", "raiser"};
    const std::array<float, 3>& tg = e.targets;
    const std::array<std::array<float, 4>, 3> ramps{{{-11.0f, -10.0f, tg[0], tg[1]},
                                                     {tg[0], tg[1], tg[1], tg[2]},
                                                     {tg[1], tg[2], 10.0f, 11.0f}}};
    const auto setEyes = [&](const std::string& eyeName, bool anyEye, std::int32_t base,
                             const std::array<std::int32_t, 3>& parts, bool upper) {
        for (QcFlexRig::Eye& eye : m_rig.eyes) {
            if (!anyEye && !asciiIEquals(eye.name, eyeName)) {
                continue;
            }
            for (std::size_t j = 0; j < 3; ++j) {
                if (e.given[j] && std::fabs(tg[j]) > eye.radius) {
                    report(Severity::Error, ids::kFlexEyelidRange, e.at,
                           "eyelid " + e.type + " " + kPart[j] + " target " +
                               std::to_string(tg[j]) + " is outside the eye's radius " +
                               std::to_string(eye.radius) + "; studiomdl stops");
                }
            }
            (upper ? eye.upperLid : eye.lowerLid) = base;
            (upper ? eye.upperDescs : eye.lowerDescs) = parts;
            (upper ? eye.upperTargets : eye.lowerTargets) = tg;
        }
    };
    const bool upper = !e.type.empty() && (e.type[0] == 'u' || e.type[0] == 'U');
    if (!e.dmx) {
        const std::int32_t base = addDesc(e.type, e.at, false);
        std::array<std::int32_t, 3> parts{-1, -1, -1};
        for (std::size_t j = 0; j < 3; ++j) {
            if (e.given[j]) {
                parts[j] = addDesc(e.type + "_" + kPart[j], e.at, false);
            }
        }
        // The file is the model's flexfile of that name.
        const QcFlexShapeSource* s = nullptr;
        for (const QcFlexShapeSource& src : m_sources) {
            if (!src.dmx && src.body == e.body && src.fileRef >= 0 &&
                asciiIEquals(qcNormalisePath(m_p.files[std::size_t(src.fileRef)].path),
                             qcNormalisePath(e.file))) {
                s = &src;
            }
        }
        for (std::size_t j = 0; j < 3; ++j) {
            addKey(base, base, vtaShape(s, e.frames[j]), ramps[j]);
        }
        setEyes(e.eyeball, e.eyeball.empty(), base, parts, upper);
        return;
    }
    const std::string type = asciiLower(e.type);
    if (type != "upper" && type != "lower") {
        report(Severity::Error, ids::kQcSyntax, e.at,
               "dmxeyelid: expected upper or lower, got " + quoted(e.type) + "; studiomdl stops");
        return;
    }
    std::array<std::int32_t, 2> base{};
    std::array<std::array<std::int32_t, 3>, 2> parts{};
    const char* const side[2] = {"_right", "_left"};
    for (std::size_t s = 0; s < 2; ++s) {
        base[s] = addDesc(type + side[s], e.at);
        for (std::size_t j = 0; j < 3; ++j) {
            parts[s][j] = addDesc(type + side[s] + "_" + kPart[j], e.at);
        }
    }
    const QcFlexShapeSource* src = dmxSourceOf(e.body);
    for (std::size_t j = 0; j < 3; ++j) {
        const std::size_t shape = dmxShape(src, e.shapes[j]);
        if (e.given[j] && src != nullptr && shape == SIZE_MAX) {
            report(Severity::Error, ids::kFlexUnknownShape, e.at,
                   "dmxeyelid " + e.type + ": no delta state " + quoted(e.shapes[j]) +
                       " in the model's DMX; studiomdl stops");
        }
        addKey(base[1], base[0], shape, ramps[j]);
    }
    setEyes(e.rightEyeball, false, base[0], parts[0], upper);
    setEyes(e.leftEyeball, false, base[1], parts[1], upper);
}

// Option_Flexrule: the tokens to a program, by studiomdl's operator-precedence pass (a `-`
// after `( + - * / ,` is a negation; a negated number folds; max and min take their two
// arguments through a comma), with its errors: an unknown descriptor or controller, an
// unmatched `)`, a max / min without a comma, commas left over.
void Builder::rule(const QcFlexRule& r)
{
    using K = QcFlexToken::Kind;
    const auto target = m_descByName.find(asciiLower(r.target));
    if (target == m_descByName.end()) {
        report(Severity::Error, ids::kFlexUnknownShape, r.at,
               "%" + r.target +
                   ": no flex shape, localvar or eyelid of that name (rule for an "
                   "unknown flex); studiomdl stops");
        return;
    }
    struct Item {
        CompiledFlexOp op;
        const QcFlexToken* token = nullptr;
    };
    std::vector<Item> stream;
    bool ok = true;
    std::string text;
    for (const QcFlexToken& t : r.tokens) {
        text += (text.empty() ? "" : " ") + (t.kind == K::Descriptor ? "%" + t.text : t.text);
        Item it;
        it.token = &t;
        switch (t.kind) {
        case K::Open:
            it.op.op = kOpen;
            break;
        case K::Close:
            it.op.op = kClose;
            break;
        case K::Add:
            it.op.op = kAdd;
            break;
        case K::Sub: {
            it.op.op = kSub;
            if (!stream.empty()) {
                const std::int32_t prev = stream.back().op.op;
                if (prev == kOpen || prev == kAdd || prev == kSub || prev == kMul || prev == kDiv ||
                    prev == kComma) {
                    it.op.op = kNeg;
                }
            } else {
                report(Severity::Warning, ids::kFlexRuleMisread, t.at,
                       "%" + r.target +
                           ": a '-' first in the expression is a subtraction to studiomdl, not a "
                           "negation (it has nothing to subtract from); write (0 - x) or -1 * x");
            }
            break;
        }
        case K::Mul:
            it.op.op = kMul;
            break;
        case K::Div:
            it.op.op = kDiv;
            break;
        case K::Comma:
            it.op.op = kComma;
            break;
        case K::Max:
            it.op.op = kMax;
            break;
        case K::Min:
            it.op.op = kMin;
            break;
        case K::Number:
            it.op.op = kConst;
            it.op.value = std::strtof(t.text.c_str(), nullptr);
            break;
        case K::Descriptor: {
            const auto d = m_descByName.find(asciiLower(t.text));
            if (d == m_descByName.end()) {
                report(Severity::Error, ids::kFlexUnknownShape, t.at,
                       "%" + r.target + " reads %" + t.text +
                           ", which is no flex shape, localvar or eyelid; studiomdl stops");
                ok = false;
            } else {
                it.op.op = kFetch2;
                it.op.index = d->second;
            }
            break;
        }
        case K::Name:
        case K::Other: {
            const auto c = m_controllerByName.find(asciiLower(t.text));
            if (c == m_controllerByName.end()) {
                report(Severity::Error, ids::kFlexUnknownController, t.at,
                       "%" + r.target + " reads " + quoted(t.text) +
                           ", which is no flexcontroller; studiomdl stops");
                ok = false;
            } else {
                it.op.op = kFetch1;
                it.op.index = c->second;
                m_named.push_back(c->second);
            }
            break;
        }
        }
        stream.push_back(it);
    }
    if (r.tokens.empty()) {
        report(Severity::Error, ids::kFlexRuleSyntax, r.at, "%" + r.target + " has no expression");
        return;
    }
    if (!ok) {
        return;
    }
    // To postfix.
    std::vector<Item> out, stack;
    for (std::size_t k = 0; k < stream.size(); ++k) {
        Item& it = stream[k];
        switch (it.op.op) {
        case kConst:
        case kFetch1:
        case kFetch2:
            out.push_back(it);
            break;
        case kOpen:
            stack.push_back(it);
            break;
        case kClose:
        case kComma:
            while (!stack.empty() && stack.back().op.op != kOpen) {
                out.push_back(stack.back());
                stack.pop_back();
            }
            if (it.op.op == kComma) {
                stack.push_back(it);
            } else if (stack.empty()) {
                report(Severity::Error, ids::kFlexRuleSyntax, it.token->at,
                       "%" + r.target + ": unmatched ')'; studiomdl stops");
                return;
            } else {
                stack.pop_back();
            }
            break;
        case kAdd:
        case kSub:
        case kMul:
        case kDiv:
            while (!stack.empty() && precedence(it.op.op) <= precedence(stack.back().op.op)) {
                out.push_back(stack.back());
                stack.pop_back();
            }
            stack.push_back(it);
            break;
        case kNeg:
            if (k + 1 < stream.size() && stream[k + 1].op.op == kConst) {
                stream[k + 1].op.value = -stream[k + 1].op.value;
            } else {
                stack.push_back(it);
            }
            break;
        case kMax:
        case kMin:
            stack.push_back(it);
            break;
        default:
            break;
        }
    }
    while (!stack.empty()) {
        out.push_back(stack.back());
        stack.pop_back();
    }
    // Commas to max / min; an unclosed '(' is left in the program (the engine skips it).
    CompiledFlexRule rule;
    rule.flex = target->second;
    rule.expression = "%" + r.target + " = " + text;
    int commas = 0;
    bool unclosed = false;
    for (const Item& it : out) {
        switch (it.op.op) {
        case kMax:
        case kMin:
            if (rule.ops.empty() || rule.ops.back().op != kComma) {
                report(Severity::Error, ids::kFlexRuleSyntax, it.token->at,
                       "%" + r.target + ": " + it.token->text +
                           " needs two arguments, (a, b); studiomdl stops (missing comma)");
                return;
            }
            --commas;
            rule.ops.back() = it.op;
            break;
        case kComma:
            ++commas;
            rule.ops.push_back(it.op);
            break;
        case kOpen:
            unclosed = true;
            break;
        default:
            rule.ops.push_back(it.op);
            break;
        }
    }
    if (commas != 0) {
        report(Severity::Error, ids::kFlexRuleSyntax, r.at,
               "%" + r.target +
                   ": a comma outside max( , ) or min( , ); studiomdl stops "
                   "(too many commas)");
        return;
    }
    if (unclosed) {
        report(Severity::Warning, ids::kFlexRuleMisread, r.at,
               "%" + r.target +
                   ": a '(' is never closed; studiomdl compiles it as if it were "
                   "closed at the end");
    }
    m_rig.ruleOf[std::size_t(rule.flex)] = std::int32_t(m_rig.program.flexRuleList.size());
    m_rig.program.flexRuleList.push_back(std::move(rule));
    m_rig.ruleAt.push_back(r.at);
}

QcFlexRig Builder::run()
{
    const QcFace& f = m_p.face;
    m_rig.program.engine = "source";
    // Eyeballs first: eyelids name them.
    for (const QcEyeball& e : f.eyeballs) {
        QcFlexRig::Eye eye;
        eye.name = e.name;
        eye.bone = e.bone;
        // In the space of the loaded (already scaled and moved) sources, as Option_Eyeball reads
        // it through the source's boneToPose: $scale and $origin do not apply again.
        eye.position = e.position;
        eye.radius = e.diameter * 0.5f;
        eye.zOffset = std::tan(e.angle * 3.14159265358979f / 180.0f);
        eye.irisScale = e.irisScale != 0.0f ? 1.0f / e.irisScale : 1.0f;
        eye.joint = m_model.skeleton.findByName(e.bone);
        eye.at = e.at;
        m_rig.eyes.push_back(std::move(eye));
    }
    // Items in studiomdl's order: each $model's DMX states at its line, then its options.
    struct Step {
        std::uint32_t seq;
        int kind; // 0 controller, 1 key, 2 eyelid, 3 localvar / mouth, 4 rule
        std::size_t index;
    };
    std::vector<Step> steps;
    for (std::size_t i = 0; i < f.controllers.size(); ++i) {
        steps.push_back({f.controllers[i].seq, 0, i});
    }
    for (std::size_t i = 0; i < f.keys.size(); ++i) {
        steps.push_back({f.keys[i].seq, 1, i});
    }
    for (std::size_t i = 0; i < f.eyelids.size(); ++i) {
        steps.push_back({f.eyelids[i].seq, 2, i});
    }
    for (std::size_t i = 0; i < f.descriptors.size(); ++i) {
        steps.push_back({f.descriptors[i].seq, 3, i});
    }
    for (std::size_t i = 0; i < f.rules.size(); ++i) {
        steps.push_back({f.rules[i].seq, 4, i});
    }
    std::sort(steps.begin(), steps.end(),
              [](const Step& a, const Step& b) { return a.seq < b.seq; });
    const auto bodyOf = [&](const Step& s) {
        switch (s.kind) {
        case 0:
            return f.controllers[s.index].body;
        case 1:
            return f.keys[s.index].body;
        case 2:
            return f.eyelids[s.index].body;
        case 3:
            return f.descriptors[s.index].body;
        default:
            return f.rules[s.index].body;
        }
    };
    std::vector<bool> bodyDone(m_p.bodygroups.size(), false);
    std::vector<std::int32_t> lastDesc;
    // Bodies with DMX shapes and no face options still bring their states.
    std::size_t nextStep = 0;
    for (std::size_t b = 0; b <= m_p.bodygroups.size(); ++b) {
        while (nextStep < steps.size() &&
               (b == m_p.bodygroups.size() || bodyOf(steps[nextStep]) < std::int32_t(b))) {
            const Step& s = steps[nextStep++];
            const std::int32_t body = bodyOf(s);
            if (body >= 0 && std::size_t(body) < bodyDone.size() && !bodyDone[std::size_t(body)]) {
                bodyDone[std::size_t(body)] = true;
                dmxBody(body);
            }
            switch (s.kind) {
            case 0: {
                const QcFlexControllerDef& c = f.controllers[s.index];
                addController(c.type, c.name, c.min, c.max, c.at);
                break;
            }
            case 1:
                key(f.keys[s.index], lastDesc);
                break;
            case 2:
                eyelid(f.eyelids[s.index]);
                break;
            case 3:
                addDesc(f.descriptors[s.index].name, f.descriptors[s.index].at);
                break;
            default:
                m_rig.ruleOf.resize(m_rig.program.flexDescs.size(), -1);
                rule(f.rules[s.index]);
                break;
            }
        }
        if (b < m_p.bodygroups.size() && !bodyDone[b]) {
            bodyDone[b] = true;
            dmxBody(std::int32_t(b));
        }
    }
    m_rig.ruleOf.resize(m_rig.program.flexDescs.size(), -1);
    usageChecks();
    return std::move(m_rig);
}

// flex.* findings on the whole face (docs/checks.md): controllers past the limit, ranges that
// leave out 0, controllers no rule reads, shapes nothing drives, correctives whose parts are
// missing.
void Builder::usageChecks()
{
    const CompiledModelInfo& pr = m_rig.program;
    if (pr.flexControllers.empty() && pr.flexRuleList.empty()) {
        return;
    }
    if (m_max > 0 && pr.flexControllers.size() > m_max) {
        report(Severity::Error, ids::kFlexControllerLimit, m_rig.controllerAt[m_max],
               std::to_string(pr.flexControllers.size()) +
                   " flex controllers; studiomdl stops at " + std::to_string(m_max + 1) +
                   " (the limit is " + std::to_string(m_max) + ")");
    }
    // Read by a rule, even one with an error elsewhere (that error is the finding).
    std::vector<bool> read(pr.flexControllers.size(), false);
    for (std::int32_t c : m_named) {
        if (c >= 0 && std::size_t(c) < read.size()) {
            read[std::size_t(c)] = true;
        }
    }
    for (std::size_t c = 0; c < pr.flexControllers.size(); ++c) {
        const CompiledFlexController& fc = pr.flexControllers[c];
        if (fc.min > 0.0f || fc.max < 0.0f || fc.min >= fc.max) {
            report(Severity::Warning, ids::kFlexControllerRange, m_rig.controllerAt[c],
                   "flexcontroller " + quoted(fc.name) + " has range " + std::to_string(fc.min) +
                       " to " + std::to_string(fc.max) +
                       (fc.min >= fc.max ? ": empty or reversed, it cannot move"
                                         : ": 0 is outside it, so the face never rests at 0 "
                                           "(the engine clamps 0 into the range)"));
        }
        // `eyes` controllers drive the eyes (the engine reads them), not rules.
        if (!read[c] && !asciiIEquals(fc.type, "eyes") && !m_rig.autoDmxRules) {
            report(Severity::Note, ids::kFlexControllerUnused, m_rig.controllerAt[c],
                   "flexcontroller " + quoted(fc.name) +
                       " is read by no % rule: its slider "
                       "moves nothing");
        }
    }
    // Descriptors with a shape that no rule sets (the eyelids' are set by the eyes).
    std::vector<bool> eyelidDesc(pr.flexDescs.size(), false);
    for (const QcFlexRig::Eye& e : m_rig.eyes) {
        for (std::int32_t d : {e.upperLid, e.lowerLid}) {
            if (d >= 0) {
                eyelidDesc[std::size_t(d)] = true;
            }
        }
    }
    if (m_rig.autoDmxRules) {
        return; // studiomdl's own rules drive the DMX states
    }
    // Per shape: reached when any key of it reads a descriptor a rule or an eye sets (a DMX
    // eyelid's delta states are keys of their own descriptors and of the lid's).
    std::unordered_map<std::size_t, std::vector<const QcFlexRig::Key*>> byShape;
    std::vector<std::size_t> order;
    for (const QcFlexRig::Key& k : m_rig.keys) {
        if (k.shape == SIZE_MAX) {
            continue;
        }
        auto& list = byShape[k.shape];
        if (list.empty()) {
            order.push_back(k.shape);
        }
        list.push_back(&k);
    }
    for (std::size_t shape : order) {
        const auto& list = byShape[shape];
        const bool reached = std::any_of(list.begin(), list.end(), [&](const QcFlexRig::Key* k) {
            for (std::int32_t d : {k->left, k->right}) {
                if (d >= 0 && (eyelidDesc[std::size_t(d)] || m_rig.ruleOf[std::size_t(d)] >= 0)) {
                    return true;
                }
            }
            return false;
        });
        if (reached) {
            continue;
        }
        const QcFlexRig::Key& k = *list.front();
        std::string names = pr.flexDescs[std::size_t(k.right)];
        if (k.left != k.right) {
            names = pr.flexDescs[std::size_t(k.left)] + " / " + names;
        }
        report(Severity::Warning, ids::kFlexShapeUnreached, m_rig.descAt[std::size_t(k.right)],
               "flex shape " + quoted(names) + " has no % rule: no controller moves it in game");
    }
    // DMX correctives (`a_b`): each part is a delta state of the model.
    for (const QcFlexShapeSource& s : m_sources) {
        if (!s.dmx) {
            continue;
        }
        for (std::size_t k = s.firstShape; k < s.firstShape + s.count; ++k) {
            const std::string& name = m_model.flexShapes[k].name;
            if (name.find('_') == std::string::npos) {
                continue;
            }
            std::string missing;
            std::size_t from = 0;
            while (from <= name.size()) {
                const std::size_t to = std::min(name.find('_', from), name.size());
                const std::string part = name.substr(from, to - from);
                if (dmxShape(&s, part) == SIZE_MAX && !part.empty()) {
                    missing = part;
                }
                from = to + 1;
            }
            if (!missing.empty() && dmxShape(&s, name) != SIZE_MAX) {
                const std::int32_t d = m_rig.descIndex(name);
                const bool isPartOfCombination =
                    std::any_of(m_model.flexControllers.begin(), m_model.flexControllers.end(),
                                [&](const FlexController& c) {
                                    return std::any_of(c.rawControls.begin(), c.rawControls.end(),
                                                       [&](const std::string& r) {
                                                           return asciiIEquals(r, name);
                                                       });
                                });
                if (!isPartOfCombination && !m_model.flexControllers.empty() && d >= 0) {
                    report(Severity::Warning, ids::kFlexCorrectiveMissingPart,
                           m_rig.descAt[std::size_t(d)],
                           "corrective shape " + quoted(name) + ": its part " + quoted(missing) +
                               " is no delta state, so the combination never drives it");
                }
            }
        }
    }
}

} // namespace

std::int32_t QcFlexRig::controllerIndex(const std::string& name) const
{
    for (std::size_t c = 0; c < program.flexControllers.size(); ++c) {
        if (asciiIEquals(program.flexControllers[c].name, name)) {
            return std::int32_t(c);
        }
    }
    return -1;
}

std::int32_t QcFlexRig::descIndex(const std::string& name) const
{
    for (std::size_t d = 0; d < program.flexDescs.size(); ++d) {
        if (asciiIEquals(program.flexDescs[d], name)) {
            return std::int32_t(d);
        }
    }
    return -1;
}

QcFlexRig buildQcFlexRig(const QcProject& project, const Model& model,
                         const std::vector<QcFlexShapeSource>& sources, std::size_t maxControllers)
{
    return Builder(project, model, sources, maxControllers).run();
}

QcEyeState eyeState(const QcFlexRig::Eye& eye, const QcEyeTarget& target,
                    const Eigen::Affine3f& boneDelta)
{
    QcEyeState s;
    // Option_Eyeball keeps the centre and the model's up in the bone's space; the engine
    // carries them with the posed bone (R_StudioEyeballPosition). In double: the delta of a
    // turned head is a product of two matrices.
    const Eigen::Affine3d delta = boneDelta.cast<double>();
    const Eigen::Matrix3d turn = delta.linear();
    const Eigen::Vector3d centre = delta * eye.position.cast<double>();
    Eigen::Vector3d up = turn * Eigen::Vector3d(0, 0, 1);
    Eigen::Vector3d ahead = turn * Eigen::Vector3d(0, -1, 0);
    up = up.norm() > 1e-12 ? up.normalized() : Eigen::Vector3d(0, 0, 1);
    ahead = ahead.norm() > 1e-12 ? ahead.normalized() : Eigen::Vector3d(0, -1, 0);
    s.centre = centre.cast<float>();
    s.headUp = up.cast<float>();
    s.radius = eye.radius;
    const Eigen::Vector3d aim = target.set ? Eigen::Vector3d(target.point.cast<double>())
                                           : Eigen::Vector3d(centre + 1000.0 * ahead);
    Eigen::Vector3d forward = aim - centre;
    if (forward.norm() < 1e-6) {
        forward = ahead;
    }
    forward.normalize();
    // R_StudioEyeballPosition: turn off the target by the Z angle offset (twice, as the engine
    // adds zoffset + dz with dz = zoffset), then re-square the frame about the head's up.
    const auto rightOf = [&](const Eigen::Vector3d& f) {
        Eigen::Vector3d r = f.cross(up);
        if (r.norm() < 1e-9) {
            r = ahead.cross(up);
        }
        return r.normalized();
    };
    Eigen::Vector3d right = rightOf(forward);
    forward = (forward + 2.0 * double(eye.zOffset) * right).normalized();
    right = rightOf(forward);
    s.forward = forward.cast<float>();
    s.up = right.cross(forward).normalized().cast<float>();
    // The iris texture spans 1 / iris_scale units across (the engine's planar projection).
    s.irisRadius = 0.5f / (eye.irisScale > 0 ? 1.0f / eye.irisScale : 1.0f);
    s.irisRadius = std::min(s.irisRadius, s.radius);
    return s;
}

std::vector<Eigen::Affine3f> eyeBoneDeltas(const std::vector<QcFlexRig::Eye>& eyes,
                                           const std::vector<Eigen::Affine3f>& pose,
                                           const std::vector<Eigen::Affine3f>& inverseBind)
{
    std::vector<Eigen::Affine3f> out(eyes.size(), Eigen::Affine3f::Identity());
    for (std::size_t i = 0; i < eyes.size(); ++i) {
        const std::int32_t j = eyes[i].joint;
        if (j >= 0 && std::size_t(j) < pose.size() && std::size_t(j) < inverseBind.size()) {
            out[i] = Eigen::Affine3f(
                (pose[std::size_t(j)].cast<double>() * inverseBind[std::size_t(j)].cast<double>())
                    .cast<float>());
        }
    }
    return out;
}

namespace {

float rampWeight(const std::array<float, 4>& t, float w) noexcept
{
    if (w <= t[0] || w >= t[3]) {
        return 0.0f;
    }
    if (w < t[1]) {
        return t[1] == t[0] ? 1.0f : (w - t[0]) / (t[1] - t[0]);
    }
    if (w > t[2]) {
        return t[3] == t[2] ? 1.0f : (t[3] - w) / (t[3] - t[2]);
    }
    return 1.0f;
}

// R_StudioEyelidFACS: the lid angle is the sum of the lowerer / neutral / raiser weights times
// asin(target / radius); the lid descriptor is the height of that point of the eye, turned by
// the eye's look direction, along the head's up (the model's at the reference pose).
float lidHeight(const QcFlexRig::Eye& eye, const QcEyeState& s,
                const std::array<std::int32_t, 3>& d, const std::array<float, 3>& targets,
                const std::vector<float>& desc)
{
    float angle = 0.0f;
    for (std::size_t j = 0; j < 3; ++j) {
        if (d[j] >= 0 && std::size_t(d[j]) < desc.size()) {
            const float x =
                std::clamp(targets[j] / (eye.radius > 0 ? eye.radius : 1.0f), -1.0f, 1.0f);
            angle += desc[std::size_t(d[j])] * std::asin(x);
        }
    }
    const Vec3 pos =
        s.up * (std::sin(angle) * eye.radius) + s.forward * (std::cos(angle) * eye.radius);
    return pos.dot(s.headUp); // along the head's up (the model's at the reference pose)
}

} // namespace

QcFlexState evaluateQcFlex(const QcFlexRig& rig, const std::vector<float>& controllers,
                           std::size_t shapeCount, const QcEyeTarget& target,
                           const std::vector<Eigen::Affine3f>& eyeDeltas)
{
    QcFlexState st;
    const auto& ctl = rig.program.flexControllers;
    st.controllers.resize(ctl.size());
    for (std::size_t c = 0; c < ctl.size(); ++c) {
        const float rest = controllerRest(ctl[c].min, ctl[c].max);
        float v = c < controllers.size() && std::isfinite(controllers[c]) ? controllers[c] : rest;
        if (ctl[c].min <= ctl[c].max) {
            v = std::clamp(v, ctl[c].min, ctl[c].max);
        }
        st.controllers[c] = v;
    }
    st.descriptors = evaluateFlexRules(rig.program, st.controllers);
    for (std::size_t e = 0; e < rig.eyes.size(); ++e) {
        const QcFlexRig::Eye& eye = rig.eyes[e];
        const QcEyeState s = eyeState(
            eye, target, e < eyeDeltas.size() ? eyeDeltas[e] : Eigen::Affine3f::Identity());
        if (eye.upperLid >= 0 && std::size_t(eye.upperLid) < st.descriptors.size()) {
            st.descriptors[std::size_t(eye.upperLid)] =
                lidHeight(eye, s, eye.upperDescs, eye.upperTargets, st.descriptors);
        }
        if (eye.lowerLid >= 0 && std::size_t(eye.lowerLid) < st.descriptors.size()) {
            st.descriptors[std::size_t(eye.lowerLid)] =
                lidHeight(eye, s, eye.lowerDescs, eye.lowerTargets, st.descriptors);
        }
    }
    st.shapes.assign(shapeCount, SideWeights{});
    for (const QcFlexRig::Key& k : rig.keys) {
        if (k.shape >= shapeCount) {
            continue;
        }
        const auto at = [&](std::int32_t d) {
            return d >= 0 && std::size_t(d) < st.descriptors.size() ? st.descriptors[std::size_t(d)]
                                                                    : 0.0f;
        };
        st.shapes[k.shape].left += rampWeight(k.targets, at(k.left));
        st.shapes[k.shape].right += rampWeight(k.targets, at(k.right));
    }
    return st;
}

std::vector<std::int32_t> stereoPartners(const QcFlexRig& rig)
{
    const auto& ctl = rig.program.flexControllers;
    std::vector<std::int32_t> out(ctl.size(), -1);
    for (std::size_t c = 0; c < ctl.size(); ++c) {
        const std::string n = asciiLower(ctl[c].name);
        if (n.rfind("right_", 0) != 0) {
            continue;
        }
        const std::string other = "left_" + ctl[c].name.substr(6);
        const std::int32_t l = rig.controllerIndex(other);
        if (l >= 0 && out[std::size_t(l)] < 0) {
            out[c] = l;
            out[std::size_t(l)] = std::int32_t(c);
        }
    }
    return out;
}

} // namespace rigscope::core
