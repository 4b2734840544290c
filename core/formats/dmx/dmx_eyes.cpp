#include "core/formats/dmx/dmx_eyes.h"

#include <Eigen/Geometry>

#include "core/diag/diagnostic.h"
#include "core/formats/dmx/dmx_document.h"
#include "core/model/rotation.h"

namespace rigscope::core {

namespace {

using dmx::Attribute;
using dmx::AttrType;
using dmx::Element;

const Element* element(const dmx::Document& doc, std::int32_t i)
{
    return i >= 0 && std::size_t(i) < doc.elements.size() ? &doc.elements[std::size_t(i)] : nullptr;
}

std::int32_t refOf(const Element& e, std::string_view name)
{
    const Attribute* a = e.find(name);
    return a && a->type == AttrType::Element && !a->array && !a->ints.empty() ? a->ints.front()
                                                                              : -1;
}

float numberOf(const Element& e, std::string_view name, float fallback)
{
    const Attribute* a = e.find(name);
    if (!a || a->array) {
        return fallback;
    }
    if (a->type == AttrType::Float && !a->floats.empty()) {
        return a->floats.front();
    }
    if ((a->type == AttrType::Int || a->type == AttrType::Bool) && !a->ints.empty()) {
        return float(a->ints.front());
    }
    return fallback;
}

// The DAG node's transform as written (position, orientation), in double.
Eigen::Affine3d localOf(const dmx::Document& doc, const Element& e)
{
    Eigen::Affine3d t = Eigen::Affine3d::Identity();
    const Element* x = element(doc, refOf(e, "transform"));
    if (!x) {
        return t;
    }
    if (const Attribute* p = x->find("position");
        p && p->type == AttrType::Vector3 && p->floats.size() == 3) {
        t.translation() = Eigen::Vector3d(p->floats[0], p->floats[1], p->floats[2]);
    }
    if (const Attribute* q = x->find("orientation");
        q && q->type == AttrType::Quaternion && q->floats.size() == 4) {
        t.linear() = quaternionOf(Vec4(q->floats[0], q->floats[1], q->floats[2], q->floats[3]))
                         .normalized()
                         .toRotationMatrix();
    }
    return t;
}

} // namespace

std::vector<DmxEyeball> dmxEyeballs(std::string_view bytes, const Skeleton& skeleton)
{
    std::vector<DmxEyeball> out;
    if (bytes.find("DmeEyeball") == std::string_view::npos) {
        return out; // both encodings spell the type out
    }
    dmx::Document doc;
    const std::size_t start = dmx::parseHeader(bytes, doc.header);
    if (start == 0) {
        return out;
    }
    DiagnosticSink sink("", doc.header.encoding == "binary"); // the reader reports the problems
    const bool ok = doc.header.encoding == "binary" ? dmx::parseBinary(bytes, start, doc, sink)
                                                    : dmx::parseKeyValues2(bytes, start, doc, sink);
    if (!ok || doc.elements.empty()) {
        return out;
    }
    // The model: the root's `skeleton` (what studiomdl reads), else its `model`.
    std::int32_t model = refOf(doc.elements.front(), "skeleton");
    if (!element(doc, model)) {
        model = refOf(doc.elements.front(), "model");
    }
    if (!element(doc, model)) {
        return out;
    }
    struct Item {
        std::int32_t element;
        Eigen::Affine3d world;
        JointIndex joint; // nearest joint at or above
    };
    std::vector<std::uint8_t> seen(doc.elements.size(), 0);
    std::vector<Item> stack{{model, Eigen::Affine3d::Identity(), kNoJoint}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        const Element* e = element(doc, it.element);
        if (!e || seen[std::size_t(it.element)]) {
            continue; // a cycle or a shared child: the reader reports it
        }
        seen[std::size_t(it.element)] = 1;
        const Eigen::Affine3d world =
            it.element == model ? Eigen::Affine3d::Identity() : it.world * localOf(doc, *e);
        JointIndex joint = it.joint;
        if (it.element != model) {
            if (const JointIndex j = skeleton.findByName(e->name); j != kNoJoint) {
                joint = j;
            }
        }
        if (e->type == "DmeEyeball") {
            DmxEyeball eye;
            eye.name = e->name;
            eye.joint = joint;
            eye.bone = joint != kNoJoint ? skeleton.names[std::size_t(joint)] : std::string();
            eye.position = world.translation().cast<float>();
            eye.diameter = numberOf(*e, "diameter", 1.0f);
            eye.angle = numberOf(*e, "angle", 2.0f);
            eye.pupilScale = numberOf(*e, "pupilScale", 1.0f);
            eye.where = e->where;
            out.push_back(std::move(eye));
        }
        if (const Attribute* kids = e->find("children");
            kids && kids->type == AttrType::Element && kids->array) {
            for (auto k = kids->ints.rbegin(); k != kids->ints.rend(); ++k) {
                if (*k >= 0) {
                    stack.push_back({*k, world, joint});
                }
            }
        }
    }
    return out;
}

} // namespace rigscope::core
