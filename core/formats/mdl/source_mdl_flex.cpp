// Source .mdl faces and IK (docs/compiled.md "Flex rules, vertex animations, IK"): the flex
// rules (a stack program per flex descriptor, decoded into the expression a QC $flexrule
// would read), the vertex animations of each mesh (the flex shapes: sparse position and normal
// deltas per .vvd vertex), IK chains and IK locks. Bounded like the rest: every count and
// offset is checked against the file and what does not fit is reported where it is stored.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/build/model_builder.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/mdl/source_mdl_internal.h"

namespace rigscope::core::mdl {

namespace {

constexpr std::int64_t kFlexRuleSize = 12;
constexpr std::int64_t kFlexOpSize = 8;
constexpr std::int64_t kFlexSize = 60;
constexpr std::int64_t kVertAnimSize = 16;
constexpr std::int64_t kVertAnimWrinkleSize = 18;
constexpr std::int64_t kIkChainSize = 16;
constexpr std::int64_t kIkLinkSize = 28;
constexpr std::int64_t kIkLockSize = 32;
constexpr std::int64_t kModelSize = 148;
constexpr std::int64_t kMeshSize = 116;
constexpr std::int32_t kFixedPointDeltas =
    0x00200000; // STUDIOHDR_FLAGS_VERT_ANIM_FIXED_POINT_SCALE

std::string hexOf(std::int64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v < 0 ? 0 : v));
    return buf;
}

std::string number(float v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
}

// Rule programs: a stack machine (studio.h STUDIO_CONST ... STUDIO_DME_UPPER_EYELID).
enum FlexOp : std::int32_t {
    kConst = 1,
    kFetch1 = 2, // a flex controller's value
    kFetch2 = 3, // a flex descriptor's value (set by an earlier rule)
    kAdd = 4,
    kSub = 5,
    kMul = 6,
    kDiv = 7,
    kNeg = 8,
    kExp = 9,
    kOpen = 10,
    kClose = 11,
    kComma = 12,
    kMax = 13,
    kMin = 14,
    k2Way0 = 15,
    k2Way1 = 16,
    kNWay = 17,
    kCombo = 18,
    kDominate = 19,
    kLowerEyelid = 20,
    kUpperEyelid = 21,
};

struct ExprItem {
    std::string text;
    bool isConst = false;
    float value = 0;
};

// The expression of one rule; `error` names what breaks it (empty when it decodes).
std::string decodeRule(const CompiledFlexRule& rule, const CompiledModelInfo& info,
                       std::string& error, std::size_t& errorOp)
{
    const auto controller = [&](std::int64_t i) {
        if (i >= 0 && static_cast<std::size_t>(i) < info.flexControllers.size()) {
            return info.flexControllers[static_cast<std::size_t>(i)].name;
        }
        return "controller#" + std::to_string(i);
    };
    const auto desc = [&](std::int64_t i) {
        if (i >= 0 && static_cast<std::size_t>(i) < info.flexDescs.size()) {
            return "%" + info.flexDescs[static_cast<std::size_t>(i)];
        }
        return "%flex#" + std::to_string(i);
    };
    // A stack entry holding a controller index (NWAY, eyelids push them as constants).
    const auto controllerOf = [&](const ExprItem& e) {
        return e.isConst ? controller(static_cast<std::int64_t>(e.value)) : e.text;
    };
    std::vector<ExprItem> stack;
    const auto need = [&](std::size_t n, std::size_t op) {
        if (stack.size() < n) {
            error = "operation " + std::to_string(op) + " takes " + std::to_string(n) +
                    " values, the stack holds " + std::to_string(stack.size());
            errorOp = op;
            return false;
        }
        return true;
    };
    const auto pop = [&] {
        ExprItem e = std::move(stack.back());
        stack.pop_back();
        return e;
    };
    for (std::size_t i = 0; i < rule.ops.size(); ++i) {
        const CompiledFlexOp& op = rule.ops[i];
        switch (op.op) {
        case kConst:
            stack.push_back({number(op.value), true, op.value});
            break;
        case kFetch1:
            stack.push_back({controller(op.index)});
            break;
        case kFetch2:
            stack.push_back({desc(op.index)});
            break;
        case kAdd:
        case kSub:
        case kMul:
        case kDiv: {
            if (!need(2, i)) {
                return {};
            }
            const ExprItem b = pop();
            const ExprItem a = pop();
            const char* sym = op.op == kAdd   ? " + "
                              : op.op == kSub ? " - "
                              : op.op == kMul ? " * "
                                              : " / ";
            stack.push_back({"(" + a.text + sym + b.text + ")"});
            break;
        }
        case kNeg: {
            if (!need(1, i)) {
                return {};
            }
            const ExprItem a = pop();
            stack.push_back({"-" + a.text});
            break;
        }
        case kMax:
        case kMin: {
            if (!need(2, i)) {
                return {};
            }
            const ExprItem b = pop();
            const ExprItem a = pop();
            stack.push_back(
                {std::string(op.op == kMax ? "max(" : "min(") + a.text + ", " + b.text + ")"});
            break;
        }
        case k2Way0:
        case k2Way1:
            stack.push_back(
                {std::string(op.op == k2Way0 ? "2way0(" : "2way1(") + controller(op.index) + ")"});
            break;
        case kNWay: {
            if (!need(5, i)) {
                return {};
            }
            const ExprItem value = pop();
            const ExprItem r3 = pop(), r2 = pop(), r1 = pop(), r0 = pop();
            stack.push_back({"nway(" + controllerOf(value) + ", " + controller(op.index) + ", " +
                             r0.text + ", " + r1.text + ", " + r2.text + ", " + r3.text + ")"});
            break;
        }
        case kCombo:
        case kDominate: {
            const std::int64_t m = op.index;
            if (m < 1 || !need(static_cast<std::size_t>(std::min<std::int64_t>(m, 1 << 20)) +
                                   (op.op == kDominate ? 1 : 0),
                               i)) {
                if (error.empty()) {
                    error = "operation " + std::to_string(i) + " combines " + std::to_string(m) +
                            " values";
                    errorOp = i;
                }
                return {};
            }
            std::string product;
            for (std::int64_t k = 0; k < m; ++k) {
                const std::size_t at =
                    stack.size() - static_cast<std::size_t>(m) + static_cast<std::size_t>(k);
                product += (k == 0 ? "" : " * ") + stack[at].text;
            }
            stack.resize(stack.size() - static_cast<std::size_t>(m));
            if (op.op == kCombo) {
                stack.push_back({m == 1 ? product : "(" + product + ")"});
            } else {
                const ExprItem a = pop();
                stack.push_back({"(" + a.text + " * (1 - " + product + "))"});
            }
            break;
        }
        case kLowerEyelid:
        case kUpperEyelid: {
            if (!need(3, i)) {
                return {};
            }
            const ExprItem closeLid = pop(), blink = pop(), upDown = pop();
            stack.push_back(
                {std::string(op.op == kLowerEyelid ? "dme_lower_eyelid(" : "dme_upper_eyelid(") +
                 controller(op.index) + ", " + controllerOf(closeLid) + ", " + controllerOf(blink) +
                 ", " + controllerOf(upDown) + ")"});
            break;
        }
        default:
            error =
                "operation " + std::to_string(i) + " has the unknown code " + std::to_string(op.op);
            errorOp = i;
            return {};
        }
    }
    if (stack.empty()) {
        error = "the rule leaves no value";
        errorOp = rule.ops.empty() ? 0 : rule.ops.size() - 1;
        return {};
    }
    return desc(rule.flex) + " = " + stack.front().text;
}

} // namespace

void readFlexRules(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    const std::int32_t n = b.i32(276);
    const std::int32_t index = b.i32(280);
    if (!f.fits(276, 0, n, index, kFlexRuleSize, "flex rules")) {
        return;
    }
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t o = index + std::int64_t(i) * kFlexRuleSize;
        CompiledFlexRule rule;
        rule.flex = b.i32(o);
        rule.offset = static_cast<std::uint64_t>(o);
        const std::int32_t nOps = b.i32(o + 4);
        const std::int32_t opIndex = b.i32(o + 8);
        if (rule.flex < 0 || static_cast<std::size_t>(rule.flex) >= info.flexDescs.size()) {
            f.corrupt(o, "flex rule " + std::to_string(i) + " sets flex " +
                             std::to_string(rule.flex) + " of " +
                             std::to_string(info.flexDescs.size()));
        }
        if (f.fits(o + 4, o, nOps, opIndex, kFlexOpSize, "flex rule operations")) {
            for (std::int32_t k = 0; k < nOps; ++k) {
                const std::int64_t po = o + opIndex + std::int64_t(k) * kFlexOpSize;
                rule.ops.push_back({b.i32(po), b.i32(po + 4), b.f32(po + 4)});
            }
            std::string error;
            std::size_t errorOp = 0;
            rule.expression = decodeRule(rule, info, error, errorOp);
            if (!error.empty()) {
                f.corrupt(o + opIndex + std::int64_t(errorOp) * kFlexOpSize,
                          "flex rule " + std::to_string(i) + ": " + error);
            }
        }
        info.flexRuleList.push_back(std::move(rule));
    }
}

void readIk(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    std::int32_t n = b.i32(284);
    std::int32_t index = b.i32(288);
    const auto boneOk = [&](std::int32_t bone) {
        return bone >= 0 && static_cast<std::size_t>(bone) < info.bones.size();
    };
    if (f.fits(284, 0, n, index, kIkChainSize, "IK chains")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kIkChainSize;
            CompiledIkChain chain;
            chain.name = f.name(o, b.i32(o));
            chain.linkType = b.i32(o + 4);
            chain.offset = static_cast<std::uint64_t>(o);
            const std::int32_t nLinks = b.i32(o + 8);
            const std::int32_t linkIndex = b.i32(o + 12);
            if (f.fits(o + 8, o, nLinks, linkIndex, kIkLinkSize, "IK links")) {
                for (std::int32_t k = 0; k < nLinks; ++k) {
                    const std::int64_t lo = o + linkIndex + std::int64_t(k) * kIkLinkSize;
                    const std::int32_t bone = b.i32(lo);
                    if (!boneOk(bone)) {
                        f.corrupt(lo, "IK chain '" + chain.name + "' links bone " +
                                          std::to_string(bone) + " of " +
                                          std::to_string(info.bones.size()));
                        continue;
                    }
                    chain.bones.push_back(bone);
                    chain.kneeDirections.push_back(b.vec3(lo + 4));
                }
            }
            info.ikChainList.push_back(std::move(chain));
        }
    }
    n = b.i32(320);
    index = b.i32(324);
    if (f.fits(320, 0, n, index, kIkLockSize, "IK locks")) {
        for (std::int32_t i = 0; i < n; ++i) {
            const std::int64_t o = index + std::int64_t(i) * kIkLockSize;
            CompiledIkLock lock;
            lock.chain = b.i32(o);
            lock.positionWeight = b.f32(o + 4);
            lock.localRotationWeight = b.f32(o + 8);
            lock.flags = b.i32(o + 12);
            if (lock.chain < 0 || static_cast<std::size_t>(lock.chain) >= info.ikChainList.size()) {
                f.corrupt(o, "IK lock " + std::to_string(i) + " names chain " +
                                 std::to_string(lock.chain) + " of " +
                                 std::to_string(info.ikChainList.size()));
            }
            info.ikLockList.push_back(lock);
        }
    }
}

void readVertexAnimations(FileReader& f, CompiledModelInfo& info)
{
    const Bytes& b = f.b;
    // Deltas are half floats, or (flag 0x200000) 16-bit integers times the header's scale.
    const bool fixedPoint = (info.flags & kFixedPointDeltas) != 0;
    float scale = b.f32(392);
    if (!(scale > 0) || !std::isfinite(scale)) {
        scale = 1.0f / 4096.0f;
    }
    const auto value = [&](std::int64_t at) {
        return fixedPoint ? static_cast<float>(b.i16(at)) * scale : halfToFloat(b.u16(at));
    };
    const std::int32_t nParts = b.i32(232);
    const std::int32_t partIndex = b.i32(236);
    // The tables were checked by readBodyparts; walk what it kept.
    for (std::size_t p = 0; p < info.bodyparts.size(); ++p) {
        const std::int64_t po = partIndex + static_cast<std::int64_t>(p) * 16;
        const std::int32_t modelIndex = b.i32(po + 12);
        const CompiledBodypart& part = info.bodyparts[p];
        for (std::size_t m = 0; m < part.models.size(); ++m) {
            const std::int64_t mo = po + modelIndex + static_cast<std::int64_t>(m) * kModelSize;
            const CompiledSubModel& sub = part.models[m];
            const std::int32_t meshIndex = b.i32(mo + 76);
            for (std::size_t k = 0; k < sub.meshes.size(); ++k) {
                const std::int64_t me = mo + meshIndex + static_cast<std::int64_t>(k) * kMeshSize;
                const CompiledMesh& mesh = sub.meshes[k];
                const std::int32_t nFlexes = b.i32(me + 16);
                const std::int32_t flexIndex = b.i32(me + 20);
                if (!f.fits(me + 16, me, nFlexes, flexIndex, kFlexSize, "flexes")) {
                    continue;
                }
                for (std::int32_t x = 0; x < nFlexes; ++x) {
                    const std::int64_t fo = me + flexIndex + std::int64_t(x) * kFlexSize;
                    CompiledFlex flex;
                    flex.bodypart = static_cast<std::int32_t>(p);
                    flex.model = static_cast<std::int32_t>(m);
                    flex.mesh = static_cast<std::int32_t>(k);
                    flex.desc = b.i32(fo);
                    for (std::size_t t = 0; t < 4; ++t) {
                        flex.targets[t] = b.f32(fo + 4 + 4 * static_cast<std::int64_t>(t));
                    }
                    flex.pair = b.i32(fo + 28);
                    flex.type = b.u8(fo + 32);
                    flex.offset = static_cast<std::uint64_t>(fo);
                    if (flex.desc < 0 ||
                        static_cast<std::size_t>(flex.desc) >= info.flexDescs.size()) {
                        f.corrupt(fo, "a flex of mesh " + std::to_string(k) + " names flex " +
                                          std::to_string(flex.desc) + " of " +
                                          std::to_string(info.flexDescs.size()));
                        continue;
                    }
                    if (flex.type > 1) {
                        f.corrupt(fo + 32, "vertex animation type " + std::to_string(flex.type) +
                                               " (0 plain, 1 wrinkle)");
                        continue;
                    }
                    const std::int64_t stride =
                        flex.type == 1 ? kVertAnimWrinkleSize : kVertAnimSize;
                    const std::int32_t nVerts = b.i32(fo + 20);
                    const std::int32_t vertIndex = b.i32(fo + 24);
                    if (!f.fits(fo + 20, fo, nVerts, vertIndex, stride, "vertex animations")) {
                        continue;
                    }
                    const std::int64_t first =
                        std::int64_t(sub.vertexIndex) / 48 + std::int64_t(mesh.vertexOffset);
                    for (std::int32_t v = 0; v < nVerts; ++v) {
                        const std::int64_t vo = fo + vertIndex + std::int64_t(v) * stride;
                        const std::int32_t index = b.u16(vo);
                        if (index >= mesh.vertices) {
                            f.corrupt(vo, "a vertex animation moves vertex " +
                                              std::to_string(index) + " of a mesh of " +
                                              std::to_string(mesh.vertices) + " at " + hexOf(vo));
                            break;
                        }
                        CompiledVertexDelta d;
                        d.vertex = static_cast<std::int32_t>(first + index);
                        d.speed = b.u8(vo + 2);
                        d.side = b.u8(vo + 3);
                        d.position = Vec3(value(vo + 4), value(vo + 6), value(vo + 8));
                        d.normal = Vec3(value(vo + 10), value(vo + 12), value(vo + 14));
                        d.wrinkle = flex.type == 1 ? value(vo + 16) : 0.0f;
                        flex.deltas.push_back(d);
                    }
                    info.flexes.push_back(std::move(flex));
                }
            }
        }
    }
    (void)nParts;
}

void buildFlexShapes(const CompiledModelInfo& info, Model& model)
{
    Mesh& mesh = model.mesh;
    if (info.flexes.empty() || mesh.cornerCount() == 0) {
        return;
    }
    // Point -> its corners (CSR).
    const std::size_t points = mesh.pointCount();
    std::vector<std::uint32_t> start(points + 1, 0);
    for (const std::uint32_t p : mesh.cornerPoints) {
        ++start[p + 1];
    }
    for (std::size_t p = 0; p < points; ++p) {
        start[p + 1] += start[p];
    }
    std::vector<std::uint32_t> corners(mesh.cornerCount());
    {
        std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
        for (std::size_t c = 0; c < mesh.cornerCount(); ++c) {
            corners[fill[mesh.cornerPoints[c]]++] = static_cast<std::uint32_t>(c);
        }
    }
    // One shape per flex descriptor a vertex animation moves, in descriptor order; stereo
    // flexes (a pair) split each delta by its side (0 = left, 255 = right).
    struct Shape {
        std::map<std::uint32_t, std::pair<Vec3, Vec3>> byPoint;
        std::map<std::uint32_t, float> wrinkle;
        bool wrinkled = false;
    };
    std::map<std::int32_t, Shape> shapes;
    const auto add = [&](std::int32_t desc, const CompiledVertexDelta& d, float w, bool wrinkled) {
        if (d.vertex < 0 || static_cast<std::size_t>(d.vertex) >= points || w == 0.0f) {
            return;
        }
        Shape& s = shapes[desc];
        auto& slot =
            s.byPoint.try_emplace(static_cast<std::uint32_t>(d.vertex), Vec3::Zero(), Vec3::Zero())
                .first->second;
        slot.first += d.position * w;
        slot.second += d.normal * w;
        if (wrinkled) {
            s.wrinkled = true;
            s.wrinkle[static_cast<std::uint32_t>(d.vertex)] += d.wrinkle * w;
        }
    };
    for (const CompiledFlex& flex : info.flexes) {
        const bool stereo =
            flex.pair > 0 && static_cast<std::size_t>(flex.pair) < info.flexDescs.size();
        for (const CompiledVertexDelta& d : flex.deltas) {
            const float right = static_cast<float>(d.side) / 255.0f;
            add(flex.desc, d, stereo ? 1.0f - right : 1.0f, flex.type == 1);
            if (stereo) {
                add(flex.pair, d, right, flex.type == 1);
            }
        }
    }
    VertexFrame base;
    base.name = "base";
    for (std::size_t c = 0; c < mesh.cornerCount(); ++c) {
        base.ids.push_back(static_cast<std::int32_t>(c));
        base.positions.push_back(mesh.pointPositions[mesh.cornerPoints[c]]);
        base.normals.push_back(mesh.cornerNormals[c]);
        base.lineWhere.push_back(mesh.cornerWhere[c]);
    }
    model.vertexFrames.push_back(std::move(base));
    double time = 1;
    for (const auto& [desc, s] : shapes) {
        VertexFrame frame;
        frame.time = time++;
        frame.name = info.flexDescs[static_cast<std::size_t>(desc)];
        frame.nameFromComment = true;
        for (const auto& [point, delta] : s.byPoint) {
            for (std::uint32_t k = start[point]; k < start[point + 1]; ++k) {
                const std::uint32_t c = corners[k];
                frame.ids.push_back(static_cast<std::int32_t>(c));
                frame.positions.push_back(mesh.pointPositions[point] + delta.first);
                frame.normals.push_back(mesh.cornerNormals[c] + delta.second);
                frame.lineWhere.push_back(mesh.cornerWhere[c]);
                if (s.wrinkled) {
                    const auto it = s.wrinkle.find(point);
                    frame.wrinkles.push_back(it == s.wrinkle.end() ? 0.0f : it->second);
                }
            }
        }
        model.vertexFrames.push_back(std::move(frame));
    }
    deriveFlexShapes(model);
}

} // namespace rigscope::core::mdl
