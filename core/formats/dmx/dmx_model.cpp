// DMX element graph -> core model (docs/dmx.md §4): skeleton from the DmeModel / DmeJoint /
// DmeDag tree in jointList order, meshes in the SMD layout (one point per triangle corner),
// delta states as VTA-style vertex frames, DmeChannelsClip logs sampled into frames.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <array>
#include <limits>
#include <numeric>
#include <span>
#include <unordered_map>

#include <Eigen/Geometry>

#include "core/build/model_builder.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/dmx/dmx_document.h"
#include "core/model/rotation.h"
#include "core/text/names.h"
#include "core/text/plural.h"

namespace rigscope::core {

namespace {

using dmx::Attribute;
using dmx::AttrType;
using dmx::Document;
using dmx::Element;

// A quaternion key as written (x, y, z, w), kept as is: the model keeps what the file gives
// and every use normalises it in double (core/model/rotation.h). A zero or non-finite one is
// the identity, as studiomdl's normalisation leaves nothing else to use.
Vec4 quatKey(const float* q) noexcept
{
    Vec4 v(q[0], q[1], q[2], q[3]);
    const double n = static_cast<double>(v.squaredNorm());
    if (!(n > 1e-30) || !std::isfinite(n)) {
        return {0, 0, 0, 1};
    }
    return v;
}

// A rigid transform in double: world transforms of the DAG tree are composed in it.
struct RigidD {
    Quatd q = Quatd::Identity();
    Eigen::Vector3d t = Eigen::Vector3d::Zero();
    RigidD operator*(const RigidD& b) const { return {q * b.q, q * b.t + t}; }
    RigidD inverse() const
    {
        const Quatd c = q.conjugate();
        return {c, -(c * t)};
    }
    bool operator==(const RigidD& b) const { return q.coeffs() == b.q.coeffs() && t == b.t; }
    Eigen::Affine3f affine() const
    {
        Eigen::Affine3f a = Eigen::Affine3f::Identity();
        a.linear() = q.toRotationMatrix().cast<float>();
        a.translation() = t.cast<float>();
        return a;
    }
};

struct Node {
    std::int32_t element = -1;             // the DAG element
    std::int32_t parent = -1;              // node index
    std::int32_t transform = -1;           // its DmeTransform element
    std::int32_t mesh = -1;                // DmeMesh element when the DAG holds one
    std::int32_t attachment = -1;          // DmeAttachment element when the DAG holds one
    JointIndex joint = kNoJoint;           // skeleton joint (file order) when the node is a joint
    JointIndex owner = kNoJoint;           // the nearest joint at or above the node
    Vec3 localPosition = Vec3::Zero();     // the transform as written
    Vec4 localRotation = Vec4(0, 0, 0, 1); // (x, y, z, w) as written
    RigidD worldD;                         // composed in double
    Eigen::Affine3f world = Eigen::Affine3f::Identity(); // worldD in float, for the meshes
};

class Builder {
public:
    Builder(const Document& doc, const ReadContext& ctx, DiagnosticSink& sink, Model& m)
        : m_doc(doc), m_ctx(ctx), m_sink(sink), m_model(m)
    {
    }

    void run()
    {
        const Element& root = m_doc.elements.front();
        std::int32_t skel = ref(root, "skeleton");
        if (skel < 0) {
            skel = ref(root, "model");
        }
        const std::int32_t animList = ref(root, "animationList");
        const std::int32_t combo = ref(root, "combinationOperator");
        if (skel < 0 && animList < 0 && combo < 0) {
            m_sink.error(ids::kDmxMissingAttribute, root.where,
                         "root element '" + root.name +
                             "' has no 'skeleton', 'model', 'animationList' or "
                             "'combinationOperator'");
        }
        if (skel >= 0) {
            walkTree(skel);
            makeSkeleton(skel);
            readAttachments();
            for (std::size_t n = 0; n < m_nodes.size(); ++n) {
                if (m_nodes[n].mesh >= 0) {
                    readMesh(n);
                }
            }
            if (!m_model.pointBalance.empty()) { // meshes after the last with a balance: both sides
                m_model.pointBalance.resize(m_model.mesh.pointCount(), 0.5f);
            }
            makeFlexFrames();
        }
        if (combo >= 0) {
            readControllers(combo);
        }
        const bool hasMesh = !m_model.mesh.empty();
        if (hasMesh || (animList < 0 && !m_model.skeleton.empty())) {
            m_model.kind = ModelKind::Reference;
            m_model.animations.push_back(bindAnimation());
        } else if (animList >= 0) {
            m_model.kind = ModelKind::Animation;
        } else if (!m_model.flexControllers.empty()) {
            m_model.kind = ModelKind::Flex;
        }
        if (animList >= 0) {
            readAnimations(animList);
        }
        orderSkeleton(m_model, m_sink);
        deriveFlexShapes(m_model);
        if (hasMesh) {
            numberStudiomdlVertices();
        }
    }

    // studiomdl's vertices (dmxsupport.cpp LoadMesh / DefineUniqueVertices, then
    // mrmsupport.cpp UnifyIndices' AddToVlist), written to Mesh::cornerVertices: per corner of
    // the model, in its order, the number of the vertex it becomes, numbered as they first
    // appear. A vertex is one mesh's (material, position index, normal index, texture coordinate
    // index): indices, not values, so positions written apart stay apart however equal. The
    // normals are first made unit and collapsed (CDmeMesh::CollapseRedundantNormals,
    // normal_blend = 2 degrees). Runs last and consumes the spans: their face-vertex and normal
    // index arrays are reused as scratch, so a read costs one array per position and one per
    // normal beyond what it kept already (bench: rigscope-bench dmx).
    void numberStudiomdlVertices()
    {
        Mesh& me = m_model.mesh;
        std::vector<std::uint32_t>& out = me.cornerVertices;
        out.assign(me.cornerCount(), UINT32_MAX);
        std::vector<std::uint32_t> head; // position index -> last new corner there (span-local)
        for (std::size_t si = 0; si < m_meshes.size(); ++si) {
            MeshSpan& span = m_meshes[si];
            // cornerFace becomes each corner's collapsed normal (UINT32_MAX: none).
            collapseNormals(si, span.cornerFace);
            std::vector<std::uint32_t>& next = span.cornerNorm; // reused: chain of a position
            std::uint32_t maxPos = 0;
            for (const std::uint32_t p : span.cornerPos) {
                maxPos = std::max(maxPos, p + 1);
            }
            head.assign(maxPos, UINT32_MAX);
            // A corner is the vertex of the first earlier corner of its position that agrees
            // on material, normal and texture coordinate; only a position's first corners are
            // chained, so a chain is as long as the vertices at its position.
            for (std::uint32_t c = span.firstCorner; c < span.endCorner; ++c) {
                const std::uint32_t k = c - span.firstCorner;
                const std::uint32_t p = span.cornerPos[k];
                const std::uint32_t mat = me.triangleMaterials[c / 3];
                std::uint32_t found = UINT32_MAX;
                for (std::uint32_t j = head[p]; j != UINT32_MAX; j = next[j]) {
                    if (span.cornerFace[j] == span.cornerFace[k] &&
                        span.cornerTex[j] == span.cornerTex[k] &&
                        me.triangleMaterials[(span.firstCorner + j) / 3] == mat) {
                        found = span.firstCorner + j;
                        break;
                    }
                }
                if (found == UINT32_MAX) {
                    next[k] = head[p];
                    head[p] = k;
                    found = c;
                }
                out[c] = found;
            }
            std::vector<std::uint32_t>().swap(span.cornerPos); // done with this mesh
            std::vector<std::uint32_t>().swap(span.cornerTex);
            std::vector<std::uint32_t>().swap(span.cornerFace);
            std::vector<std::uint32_t>().swap(span.cornerNorm);
        }
        // Each corner names its vertex's first corner (never a later one): numbered in place.
        std::uint32_t made = 0;
        for (std::size_t c = 0; c < out.size(); ++c) {
            if (out[c] != UINT32_MAX) {
                out[c] = out[c] == c ? made++ : out[out[c]];
            }
        }
    }

private:
    // ---- attribute access with type checks -------------------------------------------------
    const Element* el(std::int32_t i) const noexcept
    {
        return i >= 0 && static_cast<std::size_t>(i) < m_doc.elements.size()
                   ? &m_doc.elements[static_cast<std::size_t>(i)]
                   : nullptr;
    }
    const Attribute* get(const Element& e, std::string_view name, AttrType t, bool array)
    {
        const Attribute* a = e.find(name);
        if (!a) {
            return nullptr;
        }
        const bool timeAsInt = t == AttrType::Time && a->type == AttrType::Int; // old logs
        if ((a->type != t && !timeAsInt) || a->array != array) {
            m_sink.error(ids::kDmxAttributeType, a->where,
                         "attribute '" + a->name + "' of " + e.type + " '" + e.name + "' is " +
                             std::string(dmx::typeName(a->type)) + (a->array ? "_array" : "") +
                             "; expected " + std::string(dmx::typeName(t)) +
                             (array ? "_array" : ""));
            return nullptr;
        }
        return a;
    }
    const Attribute* get(const Element& e, std::initializer_list<std::string_view> names,
                         AttrType t, bool array)
    {
        for (std::string_view n : names) {
            if (e.find(n)) {
                return get(e, n, t, array);
            }
        }
        return nullptr;
    }
    std::int32_t ref(const Element& e, std::string_view name)
    {
        const Attribute* a = get(e, name, AttrType::Element, false);
        return a && !a->ints.empty() ? a->ints.front() : -1;
    }
    std::span<const std::int32_t> refs(const Element& e, std::string_view name)
    {
        const Attribute* a = get(e, name, AttrType::Element, true);
        return a ? std::span<const std::int32_t>(a->ints) : std::span<const std::int32_t>();
    }
    float number(const Element& e, std::string_view name, float fallback)
    {
        const Attribute* a = e.find(name);
        if (!a || a->array) {
            return fallback;
        }
        if ((a->type == AttrType::Float || a->type == AttrType::Time) && !a->floats.empty()) {
            return a->floats.front();
        }
        if ((a->type == AttrType::Int || a->type == AttrType::Bool) && !a->ints.empty()) {
            return static_cast<float>(a->ints.front());
        }
        return fallback;
    }
    void missing(const Element& e, std::string_view what)
    {
        m_sink.error(ids::kDmxMissingAttribute, e.where,
                     e.type + " '" + e.name + "' has no '" + std::string(what) + "'");
    }

    // ---- skeleton ----------------------------------------------------------------------------
    void walkTree(std::int32_t skel)
    {
        std::vector<std::uint8_t> seen(m_doc.elements.size(), 0);
        struct Item {
            std::int32_t element;
            std::int32_t parent;
        };
        std::vector<Item> stack{{skel, -1}};
        while (!stack.empty()) {
            const Item it = stack.back();
            stack.pop_back();
            const Element* e = el(it.element);
            if (!e) {
                continue;
            }
            if (seen[static_cast<std::size_t>(it.element)]) {
                m_sink.error(ids::kDmxBadReference, e->where,
                             e->type + " '" + e->name +
                                 "' is reached twice in the DAG tree (a shared child or a "
                                 "reference cycle); its second place is ignored");
                continue;
            }
            seen[static_cast<std::size_t>(it.element)] = 1;
            Node n;
            n.element = it.element;
            n.parent = it.parent;
            n.transform = ref(*e, "transform");
            const std::int32_t shape = ref(*e, "shape");
            if (const Element* s = el(shape); s && s->type == "DmeMesh") {
                n.mesh = shape;
            } else if (s && s->type == "DmeAttachment" && it.parent >= 0) {
                n.attachment = shape; // studiomdl's LoadAttachments skips the root
            }
            const auto self = static_cast<std::int32_t>(m_nodes.size());
            m_nodeOf[it.element] = self;
            if (n.transform >= 0) {
                m_nodeOfTransform.emplace(n.transform, self);
            }
            m_nodes.push_back(n);
            const auto kids = refs(*e, "children");
            for (auto k = kids.rbegin(); k != kids.rend(); ++k) {
                if (*k >= 0) {
                    stack.push_back({*k, self});
                }
            }
        }
    }

    void localOf(const Node& n, const Element& skelElem, Vec3& pos, Vec4& rot)
    {
        pos = Vec3::Zero();
        rot = Vec4(0, 0, 0, 1);
        const Element* t = el(n.transform);
        const Element* e = el(n.element);
        // The bind pose proper is skeleton.baseStates[0].transforms, matched by name.
        if (e && !m_baseStates.empty()) {
            const auto it = m_baseStates.find(t ? t->name : e->name);
            if (it != m_baseStates.end()) {
                t = el(it->second);
            }
        }
        if (!t) {
            return;
        }
        if (const Attribute* p = get(*t, "position", AttrType::Vector3, false);
            p && p->floats.size() == 3) {
            pos = Vec3(p->floats[0], p->floats[1], p->floats[2]);
        }
        if (const Attribute* q = get(*t, "orientation", AttrType::Quaternion, false);
            q && q->floats.size() == 4) {
            rot = quatKey(q->floats.data());
        }
        (void)skelElem;
    }

    void makeSkeleton(std::int32_t skel)
    {
        const Element& s = *el(skel);
        // baseStates[0] holds the bind pose by transform name.
        const auto states = refs(s, "baseStates");
        if (!states.empty()) {
            if (const Element* list = el(states.front())) {
                for (std::int32_t t : refs(*list, "transforms")) {
                    if (const Element* te = el(t)) {
                        m_baseStates.emplace(te->name, t);
                    }
                }
            }
        }
        // World transforms in tree order (a parent precedes its children).
        for (Node& n : m_nodes) {
            localOf(n, s, n.localPosition, n.localRotation);
            const RigidD local{quaternionOf(n.localRotation), n.localPosition.cast<double>()};
            n.worldD =
                n.parent >= 0 ? m_nodes[static_cast<std::size_t>(n.parent)].worldD * local : local;
            n.world = n.worldD.affine();
        }
        // Joint order: jointList (model 11+), jointTransforms (older), else the tree.
        std::vector<std::int32_t> order;
        if (const Attribute* jl = s.find("jointList")) {
            (void)jl;
            for (std::int32_t e : refs(s, "jointList")) {
                m_listNode.push_back(e >= 0 && m_nodeOf.count(e) ? m_nodeOf[e] : -1);
            }
        } else if (s.find("jointTransforms")) {
            for (std::int32_t t : refs(s, "jointTransforms")) {
                const auto it = m_nodeOfTransform.find(t);
                m_listNode.push_back(it != m_nodeOfTransform.end() ? it->second : -1);
            }
        } else {
            for (std::size_t n = 0; n < m_nodes.size(); ++n) {
                if (m_nodes[n].mesh < 0 && m_nodes[n].attachment < 0) {
                    m_listNode.push_back(static_cast<std::int32_t>(n));
                }
            }
        }
        Skeleton& sk = m_model.skeleton;
        sk.bindKind = PoseKind::LocalQuaternion;
        // Mesh holders are bones only when a weight names them, or when the list has nothing
        // else (a rigid mesh exported as the only joint, as Valve's Maya exporter does), or
        // when their mesh is unskinned and no listed node is above them: studiomdl makes every
        // DAG a bone (dmxsupport.cpp AddDagJoint) and skins such a mesh, a child of the
        // DmeModel, to its own DAG's bone (LoadMeshes' nBoneAssign), where joint 0 would be a
        // guess (momentum's v_mom_paintgun.dmx: its mesh DAG beside a `blender_implicit`
        // joint compiles as bone `v_mom_paintgun`). Under a listed node (a model 18 file lists
        // its DmeModel) the mesh stays on that node, as it did.
        const std::vector<std::uint8_t> weighted = weightedListEntries();
        bool anyPlain = false;
        std::vector<std::uint8_t> inList(m_nodes.size(), 0);
        for (const std::int32_t n : m_listNode) {
            anyPlain = anyPlain || (n >= 0 && m_nodes[static_cast<std::size_t>(n)].mesh < 0);
            if (n >= 0) {
                inList[static_cast<std::size_t>(n)] = 1;
            }
        }
        const auto listedAbove = [&](const Node& node) {
            for (std::int32_t p = node.parent; p >= 0;
                 p = m_nodes[static_cast<std::size_t>(p)].parent) {
                if (inList[static_cast<std::size_t>(p)]) {
                    return true;
                }
            }
            return false;
        };
        std::vector<std::uint8_t> listed(m_nodes.size(), 0);
        for (std::size_t i = 0; i < m_listNode.size(); ++i) {
            const std::int32_t n = m_listNode[i];
            if (n < 0) {
                m_sink.error(ids::kDmxBadReference, s.where,
                             "joint " + std::to_string(i) + " of '" + s.name +
                                 "' is not in its DAG tree");
                continue;
            }
            Node& node = m_nodes[static_cast<std::size_t>(n)];
            const bool ownBone = node.mesh >= 0 && !meshSkinned(node) && !listedAbove(node);
            const bool meshBone = !anyPlain || (i < weighted.size() && weighted[i]) || ownBone;
            if ((node.mesh >= 0 && !meshBone) || listed[static_cast<std::size_t>(n)]) {
                continue; // their vertices go to the joint above
            }
            listed[static_cast<std::size_t>(n)] = 1;
            const Element& e = *el(node.element);
            node.joint = sk.addJoint(e.name, kNoJoint, static_cast<std::int32_t>(i), e.where);
            m_jointNode.push_back(n);
        }
        // Owners and parents: the nearest joint at or above each node.
        for (Node& n : m_nodes) {
            const JointIndex up =
                n.parent >= 0 ? m_nodes[static_cast<std::size_t>(n.parent)].owner : kNoJoint;
            n.owner = n.joint != kNoJoint ? n.joint : up;
            if (n.joint != kNoJoint) {
                const auto j = static_cast<std::size_t>(n.joint);
                sk.parents[j] = up;
                // The transform as written when the DAG parent sits where the parent joint does
                // (the usual case); else composed in double through the nodes between them.
                const RigidD parentWorld = up != kNoJoint ? jointWorldD(up) : RigidD{};
                const RigidD above =
                    n.parent >= 0 ? m_nodes[static_cast<std::size_t>(n.parent)].worldD : RigidD{};
                if (above == parentWorld) {
                    sk.bindPositions[j] = n.localPosition;
                    sk.bindQuaternions[j] = n.localRotation;
                } else {
                    const RigidD local = parentWorld.inverse() * n.worldD;
                    sk.bindPositions[j] = local.t.cast<float>();
                    sk.bindQuaternions[j] = xyzwOf(local.q.normalized());
                }
                sk.bindWhere[static_cast<std::size_t>(n.joint)] =
                    el(n.transform) ? el(n.transform)->where : el(n.element)->where;
            }
        }
    }
    // DAG nodes whose shape is a DmeAttachment: a point on the nearest joint at or above the
    // node (the node itself when the joint list names it, as studiomdl, which makes every DAG a
    // bone and puts the attachment at its origin), at the node's bind transform.
    void readAttachments()
    {
        for (const Node& n : m_nodes) {
            const Element* a = el(n.attachment);
            if (!a) {
                continue;
            }
            Attachment at;
            at.name = a->name;
            at.joint = n.owner;
            const RigidD parentWorld = n.owner != kNoJoint ? jointWorldD(n.owner) : RigidD{};
            const RigidD local = parentWorld.inverse() * n.worldD;
            at.position = local.t.cast<float>();
            at.rotation = quaternionToEuler(local.q);
            at.rigid = number(*a, "isRigid", 0) != 0;
            at.worldAligned = number(*a, "isWorldAligned", 0) != 0;
            at.where = a->where;
            m_model.attachments.push_back(std::move(at));
        }
    }

    // Each corner's normal after CDmeMesh::CollapseRedundantNormals (UINT32_MAX: none), for a
    // span whose `corners` holds each corner's face-vertex index; written over it. Normals are
    // made unit (VectorNormalize, a zero one stays zero). Without delta states each normal
    // joins the first earlier kept one within normal_blend
    // (CollapseRedundantBaseNormalsAggressive); with them, the face vertices of each position
    // in turn join the first normal kept for that position (CollapseRedundantBaseNormals).
    // When that would not make fewer normals they stay as written.
    void collapseNormals(std::size_t spanIndex, std::vector<std::uint32_t>& corners)
    {
        const MeshSpan& span = m_meshes[spanIndex];
        const Element& mesh = *el(m_nodes[span.node].mesh);
        std::int32_t vdi = ref(mesh, "bindState");
        if (vdi < 0) {
            vdi = ref(mesh, "currentState");
        }
        const Element* vd = el(vdi);
        const Attribute* nrm =
            vd ? vd->find("normal$0") ? vd->find("normal$0") : vd->find("normals") : nullptr;
        const Attribute* nrmIdx = vd ? vd->find("normal$0Indices") ? vd->find("normal$0Indices")
                                                                   : vd->find("normalsIndices")
                                     : nullptr;
        const Attribute* posIdx = vd ? vd->find("position$0Indices") ? vd->find("position$0Indices")
                                                                     : vd->find("positionsIndices")
                                     : nullptr;
        if (!nrm || !nrmIdx || !posIdx || nrm->type != AttrType::Vector3 ||
            nrmIdx->type != AttrType::Int || posIdx->type != AttrType::Int ||
            nrmIdx->count != posIdx->count) {
            std::fill(corners.begin(), corners.end(), UINT32_MAX);
            return;
        }
        const float blend = static_cast<float>(std::cos(2.0 * 3.14159265358979323846 / 180.0));
        const auto unitAt = [&](std::size_t i) {
            const Vec3 v(nrm->floats[3 * i], nrm->floats[3 * i + 1], nrm->floats[3 * i + 2]);
            return Vec3(v / std::sqrt(v.squaredNorm() + 1e-10f));
        };
        if (refs(mesh, "deltaStates").empty()) {
            // The corners' normal indices (span.cornerNorm) map through the collapse.
            const std::vector<std::uint32_t> map = aggressiveNormalMap(nrm->count, unitAt, blend);
            for (std::size_t k = 0; k < corners.size(); ++k) {
                const std::uint32_t ni = span.cornerNorm[k];
                corners[k] = ni == UINT32_MAX || map.empty() ? ni : map[ni];
            }
            return;
        }
        std::vector<Vec3> unit(nrm->count);
        for (std::size_t i = 0; i < nrm->count; ++i) {
            unit[i] = unitAt(i);
        }
        const std::size_t nfv = nrmIdx->count;
        const auto normalAt = [&](std::size_t f) -> const Vec3* {
            const std::int32_t q = nrmIdx->ints[f];
            return q >= 0 && static_cast<std::size_t>(q) < unit.size()
                       ? &unit[static_cast<std::size_t>(q)]
                       : nullptr;
        };
        std::vector<std::uint32_t> out(nfv, UINT32_MAX);
        std::vector<Vec3> kept;
        // Per position (in order of index), its face vertices in order.
        std::vector<std::uint32_t> byPosition(nfv);
        std::iota(byPosition.begin(), byPosition.end(), 0u);
        std::stable_sort(
            byPosition.begin(), byPosition.end(),
            [&](std::uint32_t a, std::uint32_t b) { return posIdx->ints[a] < posIdx->ints[b]; });
        for (std::size_t g = 0; g < nfv;) {
            std::size_t end = g + 1;
            while (end < nfv && posIdx->ints[byPosition[end]] == posIdx->ints[byPosition[g]]) {
                ++end;
            }
            const std::span<const std::uint32_t> faces(byPosition.data() + g, end - g);
            const std::int32_t position = posIdx->ints[byPosition[g]];
            g = end;
            if (position < 0) {
                continue;
            }
            const std::size_t first = kept.size();
            for (const std::uint32_t f : faces) {
                const Vec3* n = normalAt(f);
                if (!n) {
                    continue;
                }
                for (std::size_t k = first; k < kept.size() && out[f] == UINT32_MAX; ++k) {
                    if (n->dot(kept[k]) > blend) {
                        out[f] = static_cast<std::uint32_t>(k);
                    }
                }
                if (out[f] == UINT32_MAX) {
                    out[f] = static_cast<std::uint32_t>(kept.size());
                    kept.push_back(*n);
                }
            }
        }
        for (std::size_t f = 0; f < nfv; ++f) {
            if (out[f] == UINT32_MAX && normalAt(f)) {
                out[f] = static_cast<std::uint32_t>(kept.size());
                kept.push_back(*normalAt(f));
            }
        }
        if (kept.size() >= unit.size()) {
            for (std::size_t f = 0; f < nfv; ++f) {
                out[f] = normalAt(f) ? static_cast<std::uint32_t>(nrmIdx->ints[f]) : UINT32_MAX;
            }
        }
        for (std::size_t k = 0; k < corners.size(); ++k) {
            corners[k] = span.cornerNorm[k] == UINT32_MAX ? UINT32_MAX : out[corners[k]];
        }
    }

    // CollapseRedundantBaseNormalsAggressive: each normal (in index order) joins the first kept
    // one within `blend`, else is kept. Returns normal index -> kept index, or nothing when
    // every normal is kept (the normals then stay as written). The kept normals are found by
    // cell of 0.08, twice the chord of 2 degrees, so those near a normal lie in the 8 cells
    // around it; the cells sit in a small open-addressed table grown with the kept normals.
    template <class UnitAt>
    static std::vector<std::uint32_t> aggressiveNormalMap(std::size_t count, const UnitAt& unitAt,
                                                          float blend)
    {
        constexpr float kCell = 0.08f;
        constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
        std::vector<std::uint32_t> map(count);
        std::vector<Vec3> kept;
        // A cell's kept normals in the order kept (ascending), so a cell's walk stops at its
        // first match or at the best found so far.
        std::vector<std::uint32_t> nextInCell;        // per kept normal: the next kept there
        std::vector<std::uint64_t> cells(64, kEmpty); // (cell key << 32) | first kept in it
        std::vector<std::uint32_t> lastInCell(64);    // per slot: the last kept in it
        std::size_t used = 0;
        const auto slotOf = [&](std::uint32_t key) {
            const std::size_t mask = cells.size() - 1;
            std::size_t i = (static_cast<std::size_t>(key) * 0x9e3779b97f4a7c15ull >> 20) & mask;
            while (cells[i] != kEmpty && static_cast<std::uint32_t>(cells[i] >> 32) != key) {
                i = (i + 1) & mask;
            }
            return i;
        };
        // Equal unit normals get the same answer (a kept normal's equal is never kept again), so
        // the last answer per value is cached, by its bits, in a small direct-mapped table:
        // written normals repeat (one per corner, as many writers write them).
        struct Cached {
            std::array<std::uint32_t, 3> bits{};
            std::uint32_t kept = UINT32_MAX;
        };
        std::vector<Cached> cache(4096);
        for (std::size_t i = 0; i < count; ++i) {
            const Vec3 u = unitAt(i);
            std::array<std::uint32_t, 3> bits{};
            std::memcpy(bits.data(), u.data(), sizeof bits);
            Cached& hit =
                cache[(bits[0] * 0x9e3779b1u ^ bits[1] * 0x85ebca6bu ^ bits[2] * 0xc2b2ae35u) >>
                      20];
            if (hit.kept != UINT32_MAX && hit.bits == bits) {
                map[i] = hit.kept;
                continue;
            }
            std::array<std::int32_t, 3> c{};
            std::array<std::int32_t, 3> side{};
            for (int a = 0; a < 3; ++a) {
                const float x = std::isfinite(u[a]) ? std::clamp(u[a], -2.0f, 2.0f) : 0.0f;
                const float f = x / kCell;
                const float cell = std::floor(f);
                c[static_cast<std::size_t>(a)] = static_cast<std::int32_t>(cell);
                side[static_cast<std::size_t>(a)] = f - cell < 0.5f ? -1 : 1;
            }
            const auto keyOf = [](std::int32_t x, std::int32_t y, std::int32_t z) {
                return (static_cast<std::uint32_t>(x + 512) << 20) |
                       (static_cast<std::uint32_t>(y + 512) << 10) |
                       static_cast<std::uint32_t>(z + 512);
            };
            std::uint32_t best = UINT32_MAX;
            for (int b = 0; b < 8; ++b) {
                const std::size_t s =
                    slotOf(keyOf(c[0] + ((b & 1) ? side[0] : 0), c[1] + ((b & 2) ? side[1] : 0),
                                 c[2] + ((b & 4) ? side[2] : 0)));
                if (cells[s] == kEmpty) {
                    continue;
                }
                for (auto r = static_cast<std::uint32_t>(cells[s]); r < best; r = nextInCell[r]) {
                    if (u.dot(kept[r]) > blend) {
                        best = r;
                        break;
                    }
                }
            }
            if (best == UINT32_MAX) {
                best = static_cast<std::uint32_t>(kept.size());
                kept.push_back(u);
                const std::uint32_t key = keyOf(c[0], c[1], c[2]);
                std::size_t s = slotOf(key);
                nextInCell.push_back(UINT32_MAX);
                if (cells[s] != kEmpty) {
                    nextInCell[lastInCell[s]] = best;
                    lastInCell[s] = best;
                } else {
                    if (2 * (used + 1) > cells.size()) { // grow, then find the slot again
                        std::vector<std::uint64_t> old(2 * cells.size(), kEmpty);
                        std::vector<std::uint32_t> oldLast(2 * cells.size());
                        old.swap(cells);
                        oldLast.swap(lastInCell);
                        for (std::size_t e = 0; e < old.size(); ++e) {
                            if (old[e] != kEmpty) {
                                const std::size_t to =
                                    slotOf(static_cast<std::uint32_t>(old[e] >> 32));
                                cells[to] = old[e];
                                lastInCell[to] = oldLast[e];
                            }
                        }
                        s = slotOf(key);
                    }
                    ++used;
                    cells[s] = (std::uint64_t(key) << 32) | best;
                    lastInCell[s] = best;
                }
            }
            map[i] = best;
            if (u.dot(u) > blend) { // not zero nor NaN: it joins its equals
                hit.bits = bits;
                hit.kept = best;
            }
        }
        if (kept.size() >= count) {
            return {};
        }
        return map;
    }

    // Whether a node's mesh is skinned as studiomdl's LoadVertices sees it (HasSkinningData
    // and a jointCount above 0); an unskinned one is on one bone (nBoneAssign).
    bool meshSkinned(const Node& n)
    {
        const Element* mesh = el(n.mesh);
        const Element* vd = mesh ? el(mesh->find("bindState") ? refNoCheck(*mesh, "bindState")
                                                              : refNoCheck(*mesh, "currentState"))
                                 : nullptr;
        if (!vd) {
            return false;
        }
        const Attribute* w =
            vd->find("blendweights$0") ? vd->find("blendweights$0") : vd->find("jointWeights");
        const Attribute* j =
            vd->find("blendindices$0") ? vd->find("blendindices$0") : vd->find("jointIndices");
        return w && j && number(*vd, "jointCount", 0) > 0;
    }

    // Joint-list entries some vertex weight names (weight != 0), over every mesh's bind data.
    std::vector<std::uint8_t> weightedListEntries()
    {
        std::vector<std::uint8_t> out(m_listNode.size(), 0);
        for (const Node& n : m_nodes) {
            const Element* mesh = el(n.mesh);
            const Element* vd =
                mesh ? el(mesh->find("bindState") ? refNoCheck(*mesh, "bindState")
                                                  : refNoCheck(*mesh, "currentState"))
                     : nullptr;
            if (!vd) {
                continue;
            }
            const Attribute* w =
                vd->find("blendweights$0") ? vd->find("blendweights$0") : vd->find("jointWeights");
            const Attribute* j =
                vd->find("blendindices$0") ? vd->find("blendindices$0") : vd->find("jointIndices");
            if (!w || !j || w->type != AttrType::Float || j->type != AttrType::Int) {
                continue;
            }
            for (std::size_t k = 0; k < w->floats.size() && k < j->ints.size(); ++k) {
                const std::int32_t li = j->ints[k];
                if (w->floats[k] != 0.0f && li >= 0 && static_cast<std::size_t>(li) < out.size()) {
                    out[static_cast<std::size_t>(li)] = 1;
                }
            }
        }
        return out;
    }
    std::int32_t refNoCheck(const Element& e, std::string_view name) const
    {
        const Attribute* a = e.find(name);
        return a && a->type == AttrType::Element && !a->array && !a->ints.empty() ? a->ints.front()
                                                                                  : -1;
    }

    const RigidD& jointWorldD(JointIndex j) const
    {
        return m_nodes[static_cast<std::size_t>(m_jointNode[static_cast<std::size_t>(j)])].worldD;
    }

    // ---- meshes ------------------------------------------------------------------------------
    struct MeshSpan {
        std::size_t node;
        std::uint32_t firstCorner;
        std::uint32_t endCorner;
        std::vector<std::uint32_t> cornerPos;  // position index per corner
        std::vector<std::uint32_t> cornerNorm; // normal index per corner (UINT32_MAX: none)
        std::vector<std::uint32_t> cornerTex;  // texture coordinate index (UINT32_MAX: none)
        std::vector<std::uint32_t> cornerFace; // face-vertex index (into the *Indices arrays)
    };

    void readMesh(std::size_t nodeIndex)
    {
        const Node& node = m_nodes[nodeIndex];
        const Element& mesh = *el(node.mesh);
        std::int32_t vdi = ref(mesh, "bindState");
        if (vdi < 0) {
            vdi = ref(mesh, "currentState");
        }
        const Element* vd = el(vdi);
        if (!vd) {
            missing(mesh, "bindState");
            return;
        }
        const Attribute* pos = get(*vd, {"position$0", "positions"}, AttrType::Vector3, true);
        const Attribute* posIdx =
            get(*vd, {"position$0Indices", "positionsIndices"}, AttrType::Int, true);
        if (!pos || !posIdx) {
            missing(*vd, pos ? "positionsIndices" : "positions");
            return;
        }
        const Attribute* nrm = get(*vd, {"normal$0", "normals"}, AttrType::Vector3, true);
        const Attribute* nrmIdx =
            get(*vd, {"normal$0Indices", "normalsIndices"}, AttrType::Int, true);
        const Attribute* uv =
            get(*vd, {"texcoord$0", "textureCoordinates"}, AttrType::Vector2, true);
        const Attribute* uvIdx =
            get(*vd, {"texcoord$0Indices", "textureCoordinatesIndices"}, AttrType::Int, true);
        const Attribute* bal = get(*vd, {"balance$0", "balance"}, AttrType::Float, true);
        const Attribute* balIdx =
            get(*vd, {"balance$0Indices", "balanceIndices"}, AttrType::Int, true);
        const Attribute* wts = get(*vd, {"blendweights$0", "jointWeights"}, AttrType::Float, true);
        const Attribute* wIdx = get(*vd, {"blendindices$0", "jointIndices"}, AttrType::Int, true);
        const auto jointCount =
            static_cast<std::size_t>(std::max(0.0f, number(*vd, "jointCount", 0)));
        const bool flipV = number(*vd, "flipVCoordinates", 0) != 0;
        const std::size_t np = pos->count;
        const std::size_t nfv = posIdx->count;
        if (nrm && (!nrmIdx || nrmIdx->count != nfv)) {
            m_sink.error(ids::kDmxFaceIndex, (nrmIdx ? nrmIdx : nrm)->where,
                         "normal indices: " + groupedCount(nrmIdx ? nrmIdx->count : 0) +
                             " entries for " + groupedCount(nfv) + " face vertices");
            nrm = nullptr;
        }
        if (bal && (!balIdx || balIdx->count != nfv)) {
            m_sink.error(ids::kDmxFaceIndex, (balIdx ? balIdx : bal)->where,
                         "balance indices: " + groupedCount(balIdx ? balIdx->count : 0) +
                             " entries for " + groupedCount(nfv) + " face vertices");
            bal = nullptr;
        }
        if (uv && (!uvIdx || uvIdx->count != nfv)) {
            m_sink.error(ids::kDmxFaceIndex, (uvIdx ? uvIdx : uv)->where,
                         "texture coordinate indices: " + groupedCount(uvIdx ? uvIdx->count : 0) +
                             " entries for " + groupedCount(nfv) + " face vertices");
            uv = nullptr;
        }
        bool weighted = wts && wIdx && jointCount > 0;
        if (weighted && (wts->count / jointCount < np || wIdx->count / jointCount < np)) {
            m_sink.error(ids::kDmxFaceIndex, wts->where,
                         "joint weights: " + groupedCount(std::min(wts->count, wIdx->count)) +
                             " values for " + groupedCount(np) + " positions x " +
                             groupedCount(jointCount) + " joints");
            weighted = false;
        }
        const Eigen::Affine3f& world = node.world;
        const bool moved = !world.matrix().isIdentity(0.0f);
        const Mat3 normalMatrix = world.linear();

        MeshSpan span;
        span.node = nodeIndex;
        span.firstCorner = static_cast<std::uint32_t>(m_model.mesh.cornerCount());
        Mesh& me = m_model.mesh;
        std::vector<JointIndex> joints;
        std::vector<float> weights;
        std::vector<std::uint32_t> poly;
        std::vector<std::size_t> polyAt; // where each polygon corner sits in `faces`
        // One diagnostic per mesh: the first bad index, and how many more there were.
        std::size_t faceErrors = 0;
        std::size_t firstFaceError = 0;
        auto faceError = [&](const SourceLoc& where, const std::string& msg) {
            if (faceErrors++ == 0) {
                firstFaceError = m_sink.diagnostics().size();
                m_sink.error(ids::kDmxFaceIndex, where, "mesh '" + mesh.name + "': " + msg);
            }
        };
        for (std::int32_t fsi : refs(mesh, "faceSets")) {
            const Element* fs = el(fsi);
            if (!fs) {
                continue;
            }
            std::string material = fs->name;
            if (const Element* mat = el(ref(*fs, "material"))) {
                const Attribute* mn = get(*mat, "mtlName", AttrType::String, false);
                material = mn && !mn->strings.empty() ? mn->strings.front() : mat->name;
            }
            const Attribute* faces = get(*fs, "faces", AttrType::Int, true);
            if (!faces) {
                missing(*fs, "faces");
                continue;
            }
            const std::uint32_t matIndex = m_materials.intern(me, material, fs->where);
            reserveTriangles(me, 0);
            poly.clear();
            polyAt.clear();
            bool polyOk = true;
            for (std::size_t f = 0; f <= faces->ints.size(); ++f) {
                const std::int32_t k = f < faces->ints.size() ? faces->ints[f] : -1;
                if (k != -1) {
                    if (k < 0 || static_cast<std::size_t>(k) >= nfv) {
                        faceError(faces->at(f), "face set '" + fs->name + "': corner " +
                                                    std::to_string(k) + " outside the " +
                                                    groupedCount(nfv) + " face vertices");
                        polyOk = false;
                    } else if (posIdx->ints[static_cast<std::size_t>(k)] < 0 ||
                               static_cast<std::size_t>(
                                   posIdx->ints[static_cast<std::size_t>(k)]) >= np) {
                        faceError(posIdx->at(static_cast<std::size_t>(k)),
                                  "position index " +
                                      std::to_string(posIdx->ints[static_cast<std::size_t>(k)]) +
                                      " outside the " + groupedCount(np) + " positions");
                        polyOk = false;
                    } else {
                        poly.push_back(static_cast<std::uint32_t>(k));
                        polyAt.push_back(f);
                    }
                    continue;
                }
                if (polyOk && poly.size() >= 3) {
                    // A fan, as studiomdl triangulates (CDmeMesh::ComputeTriangulatedIndices):
                    // from the corner whose diagonals are shortest in sum (quads try corners 0
                    // and 1 only; the first minimum wins).
                    const std::size_t nv = poly.size();
                    const std::size_t apex = fanApex(poly, *pos, *posIdx);
                    for (std::size_t t = 1; t + 1 < nv; ++t) {
                        const std::size_t order[3] = {apex, (apex + t) % nv, (apex + t + 1) % nv};
                        for (const std::size_t o : order) {
                            const std::uint32_t c = poly[o];
                            const SourceLoc cornerAt = faces->at(polyAt[o]);
                            const auto p = static_cast<std::size_t>(posIdx->ints[c]);
                            Vec3 position(pos->floats[3 * p], pos->floats[3 * p + 1],
                                          pos->floats[3 * p + 2]);
                            if (moved) {
                                position = world * position;
                            }
                            joints.clear();
                            weights.clear();
                            if (weighted) {
                                for (std::size_t w = 0; w < jointCount; ++w) {
                                    const float wt = wts->floats[p * jointCount + w];
                                    const std::int32_t li = wIdx->ints[p * jointCount + w];
                                    if (wt == 0.0f) {
                                        continue;
                                    }
                                    const JointIndex j = jointOfListIndex(li);
                                    if (j == kNoJoint) {
                                        faceError(wIdx->at(p * jointCount + w),
                                                  "joint index " + std::to_string(li) +
                                                      " outside the joint list of " +
                                                      groupedCount(m_listNode.size()));
                                        continue;
                                    }
                                    joints.push_back(j);
                                    weights.push_back(wt);
                                }
                            }
                            const JointIndex parent = !joints.empty()            ? joints.front()
                                                      : node.owner != kNoJoint   ? node.owner
                                                      : m_model.skeleton.empty() ? kNoJoint
                                                                                 : 0;
                            appendPoint(me, position, parent,
                                        joints.empty() ? LinkState::Absent : LinkState::List,
                                        joints.data(), weights.data(), joints.size(), pos->at(p));
                            me.cornerPoints.push_back(
                                static_cast<std::uint32_t>(me.pointCount() - 1));
                            Vec3 n = Vec3::Zero();
                            std::uint32_t ni = UINT32_MAX;
                            if (nrm) {
                                const std::int32_t q = nrmIdx->ints[c];
                                if (q >= 0 && static_cast<std::size_t>(q) < nrm->count) {
                                    const auto qq = static_cast<std::size_t>(q);
                                    n = Vec3(nrm->floats[3 * qq], nrm->floats[3 * qq + 1],
                                             nrm->floats[3 * qq + 2]);
                                    if (moved) {
                                        n = normalMatrix * n;
                                    }
                                    ni = static_cast<std::uint32_t>(q);
                                } else {
                                    faceError(nrmIdx->at(c), "normal index " + std::to_string(q) +
                                                                 " outside the " +
                                                                 groupedCount(nrm->count) +
                                                                 " normals");
                                }
                            }
                            Vec2 t2 = Vec2::Zero();
                            std::uint32_t ti = UINT32_MAX;
                            if (uv) {
                                const std::int32_t q = uvIdx->ints[c];
                                if (q >= 0 && static_cast<std::size_t>(q) < uv->count) {
                                    const auto qq = static_cast<std::size_t>(q);
                                    ti = static_cast<std::uint32_t>(q);
                                    t2 = Vec2(uv->floats[2 * qq], uv->floats[2 * qq + 1]);
                                    if (!flipV) {
                                        t2.y() = 1.0f - t2.y(); // SMD convention: v up
                                    }
                                } else {
                                    faceError(uvIdx->at(c),
                                              "texture coordinate index " + std::to_string(q) +
                                                  " outside the " + groupedCount(uv->count) +
                                                  " coordinates");
                                }
                            }
                            if (bal) {
                                // The stereo split of this corner's point (0.5: both sides).
                                const std::int32_t q = balIdx->ints[c];
                                float b = 0.5f;
                                if (q >= 0 && static_cast<std::size_t>(q) < bal->count) {
                                    b = std::clamp(bal->floats[static_cast<std::size_t>(q)], 0.0f,
                                                   1.0f);
                                } else {
                                    faceError(balIdx->at(c), "balance index " + std::to_string(q) +
                                                                 " outside the " +
                                                                 groupedCount(bal->count) +
                                                                 " balance values");
                                }
                                m_model.pointBalance.resize(me.pointCount() - 1, 0.5f);
                                m_model.pointBalance.push_back(b);
                            }
                            me.cornerNormals.push_back(n);
                            me.cornerUvs.push_back(t2);
                            me.cornerWhere.push_back(cornerAt);
                            span.cornerPos.push_back(static_cast<std::uint32_t>(p));
                            span.cornerNorm.push_back(ni);
                            span.cornerTex.push_back(ti);
                            span.cornerFace.push_back(c);
                        }
                        me.triangleMaterials.push_back(matIndex);
                        me.triangleWhere.push_back(faces->at(polyAt[apex]));
                    }
                }
                poly.clear();
                polyOk = true;
            }
        }
        if (faceErrors > 1) {
            m_sink.diagnostics()[firstFaceError].message +=
                " (" + groupedCount(faceErrors - 1) +
                (faceErrors == 2 ? " more bad index)" : " more bad indices)");
        }
        span.endCorner = static_cast<std::uint32_t>(me.cornerCount());
        m_meshes.push_back(std::move(span));
    }

    static std::size_t fanApex(const std::vector<std::uint32_t>& poly, const Attribute& pos,
                               const Attribute& posIdx) noexcept
    {
        const std::size_t n = poly.size();
        const std::size_t loops = n <= 3 ? 0 : n == 4 ? 2 : n;
        auto at = [&](std::size_t k) {
            const auto p = static_cast<std::size_t>(posIdx.ints[poly[k]]);
            return Vec3(pos.floats[3 * p], pos.floats[3 * p + 1], pos.floats[3 * p + 2]);
        };
        float best = std::numeric_limits<float>::max();
        std::size_t apex = 0;
        for (std::size_t i = 0; i < loops; ++i) {
            float d = 0.0f;
            const Vec3 c = at(i);
            for (std::size_t j = 2; j + 1 < n; ++j) {
                d += (at((i + j) % n) - c).norm();
            }
            if (d < best) {
                best = d;
                apex = i;
            }
        }
        return apex;
    }

    JointIndex jointOfListIndex(std::int32_t li) const noexcept
    {
        if (li < 0 || static_cast<std::size_t>(li) >= m_listNode.size()) {
            return kNoJoint;
        }
        const std::int32_t n = m_listNode[static_cast<std::size_t>(li)];
        return n >= 0 ? m_nodes[static_cast<std::size_t>(n)].owner : kNoJoint;
    }

    // ---- flex --------------------------------------------------------------------------------
    void makeFlexFrames()
    {
        std::unordered_map<std::string, std::size_t> frameOf;
        std::vector<VertexFrame> frames; // shapes only; the base is added in front
        std::vector<std::int32_t> posDelta;
        std::vector<std::int32_t> nrmDelta;
        std::vector<std::int32_t> texDelta;
        for (const MeshSpan& span : m_meshes) {
            const Node& node = m_nodes[span.node];
            const Element& mesh = *el(node.mesh);
            const Mat3 lin = node.world.linear();
            for (std::int32_t di : refs(mesh, "deltaStates")) {
                const Element* d = el(di);
                if (!d) {
                    continue;
                }
                const Attribute* dp = get(*d, {"position$0", "positions"}, AttrType::Vector3, true);
                const Attribute* dpi =
                    get(*d, {"position$0Indices", "positionsIndices"}, AttrType::Int, true);
                const Attribute* dn = get(*d, {"normal$0", "normals"}, AttrType::Vector3, true);
                const Attribute* dni =
                    get(*d, {"normal$0Indices", "normalsIndices"}, AttrType::Int, true);
                // Wrinkle deltas index the bind state's texture coordinates (the bind state has
                // no wrinkle field: CDmeVertexDataBase::FindVertexIndicesFromDataIndex).
                const Attribute* dw = get(*d, {"wrinkle$0", "wrinkle"}, AttrType::Float, true);
                const Attribute* dwi =
                    get(*d, {"wrinkle$0Indices", "wrinkleIndices"}, AttrType::Int, true);
                auto [it, inserted] = frameOf.try_emplace(d->name, frames.size());
                if (inserted) {
                    VertexFrame f;
                    f.name = d->name;
                    f.time = static_cast<double>(frames.size() + 1);
                    f.where = d->where;
                    frames.push_back(std::move(f));
                }
                VertexFrame& f = frames[it->second];
                std::size_t maxPos = 0;
                std::size_t maxNrm = 0;
                std::size_t maxTex = 0;
                for (std::uint32_t p : span.cornerPos) {
                    maxPos = std::max<std::size_t>(maxPos, p + 1);
                }
                for (std::uint32_t n : span.cornerNorm) {
                    if (n != UINT32_MAX) {
                        maxNrm = std::max<std::size_t>(maxNrm, n + 1);
                    }
                }
                for (std::uint32_t t : span.cornerTex) {
                    if (t != UINT32_MAX) {
                        maxTex = std::max<std::size_t>(maxTex, t + 1);
                    }
                }
                posDelta.assign(maxPos, -1);
                nrmDelta.assign(maxNrm, -1);
                texDelta.assign(maxTex, -1);
                auto fill = [&](const Attribute* v, const Attribute* idx,
                                std::vector<std::int32_t>& out) {
                    if (!v || !idx) {
                        return;
                    }
                    if (idx->count != v->count) { // studiomdl refuses the delta state
                        m_sink.error(ids::kDmxFaceIndex, idx->where,
                                     "delta state '" + d->name + "': " + groupedCount(v->count) +
                                         " values of '" + v->name + "' for " +
                                         groupedCount(idx->count) + " indices");
                    }
                    for (std::size_t i = 0; i < idx->count && i < v->count; ++i) {
                        const std::int32_t k = idx->ints[i];
                        if (k < 0) {
                            m_sink.error(ids::kDmxFaceIndex, idx->at(i),
                                         "delta state '" + d->name + "': index " +
                                             std::to_string(k));
                            return;
                        }
                        if (static_cast<std::size_t>(k) < out.size()) {
                            out[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(i);
                        }
                    }
                };
                fill(dp, dpi, posDelta);
                fill(dn, dni, nrmDelta);
                fill(dw, dwi, texDelta);
                const bool wrinkled = dw && dwi && dw->count > 0;
                for (std::uint32_t c = span.firstCorner; c < span.endCorner; ++c) {
                    const std::size_t k = c - span.firstCorner;
                    const std::int32_t pd = posDelta[span.cornerPos[k]];
                    const std::uint32_t ni = span.cornerNorm[k];
                    const std::int32_t nd = ni != UINT32_MAX ? nrmDelta[ni] : -1;
                    const std::uint32_t ti = span.cornerTex[k];
                    const std::int32_t wd = ti != UINT32_MAX ? texDelta[ti] : -1;
                    if (pd < 0 && nd < 0 && wd < 0) {
                        continue;
                    }
                    Vec3 dpos = Vec3::Zero();
                    if (pd >= 0) {
                        const auto q = static_cast<std::size_t>(pd);
                        dpos = lin * Vec3(dp->floats[3 * q], dp->floats[3 * q + 1],
                                          dp->floats[3 * q + 2]);
                    }
                    Vec3 dnrm = Vec3::Zero();
                    if (nd >= 0) {
                        const auto q = static_cast<std::size_t>(nd);
                        dnrm = lin * Vec3(dn->floats[3 * q], dn->floats[3 * q + 1],
                                          dn->floats[3 * q + 2]);
                    }
                    const std::uint32_t point = m_model.mesh.cornerPoints[c];
                    f.ids.push_back(static_cast<std::int32_t>(c));
                    f.positions.push_back(m_model.mesh.pointPositions[point] + dpos);
                    f.normals.push_back(m_model.mesh.cornerNormals[c] + dnrm);
                    f.lineWhere.push_back(pd >= 0   ? dp->at(static_cast<std::size_t>(pd))
                                          : nd >= 0 ? dn->at(static_cast<std::size_t>(nd))
                                                    : dw->at(static_cast<std::size_t>(wd)));
                    if (wrinkled || !f.wrinkles.empty()) { // earlier meshes' points: 0
                        f.wrinkles.resize(f.ids.size() - 1, 0.0f);
                        f.wrinkles.push_back(wd >= 0 ? dw->floats[static_cast<std::size_t>(wd)]
                                                     : 0.0f);
                    }
                }
            }
        }
        if (frames.empty()) {
            return;
        }
        VertexFrame base;
        base.name = "base";
        base.time = 0;
        const Mesh& me = m_model.mesh;
        base.ids.reserve(me.cornerCount());
        for (std::size_t c = 0; c < me.cornerCount(); ++c) {
            base.ids.push_back(static_cast<std::int32_t>(c));
            base.positions.push_back(me.pointPositions[me.cornerPoints[c]]);
            base.normals.push_back(me.cornerNormals[c]);
            base.lineWhere.push_back(me.cornerWhere[c]);
        }
        m_model.vertexFrames.push_back(std::move(base));
        for (VertexFrame& f : frames) {
            m_model.vertexFrames.push_back(std::move(f));
        }
    }

    void readControllers(std::int32_t comboIndex)
    {
        const Element& combo = *el(comboIndex);
        const auto controls = refs(combo, "controls");
        const Attribute* values = get(combo, "controlValues", AttrType::Vector3, true);
        for (std::size_t i = 0; i < controls.size(); ++i) {
            const Element* c = el(controls[i]);
            if (!c) {
                continue;
            }
            FlexController fc;
            fc.name = c->name;
            fc.where = c->where;
            if (const Attribute* raw = get(*c, "rawControlNames", AttrType::String, true)) {
                fc.rawControls = raw->strings;
            }
            fc.stereo = number(*c, "stereo", 0) != 0;
            fc.eyelid = number(*c, "eyelid", 0) != 0;
            fc.min = number(*c, "flexMin", 0.0f);
            fc.max = number(*c, "flexMax", 1.0f);
            if (const Attribute* w = get(*c, "wrinkleScales", AttrType::Float, true)) {
                fc.wrinkleScales = w->floats;
            }
            if (values && 3 * i + 2 < values->floats.size()) {
                // (left, right, multilevel) as Valve's CDmeCombinationOperator keeps them; a
                // mono control has left == right.
                const float left = values->floats[3 * i];
                const float right = fc.stereo ? values->floats[3 * i + 1] : left;
                fc.value = std::max(left, right);
                fc.balance = fc.value <= 1e-6f ? 0.5f
                             : right < left    ? 0.5f * right / left
                             : left < right    ? 1.0f - 0.5f * left / right
                                               : 0.5f;
            }
            m_model.flexControllers.push_back(std::move(fc));
        }
        for (std::int32_t ri : refs(combo, "dominators")) {
            const Element* r = el(ri);
            if (!r) {
                continue;
            }
            FlexDominationRule rule;
            rule.where = r->where;
            if (const Attribute* d = get(*r, "dominators", AttrType::String, true)) {
                rule.dominators = d->strings;
            }
            if (const Attribute* d = get(*r, "suppressed", AttrType::String, true)) {
                rule.suppressed = d->strings;
            }
            if (!rule.dominators.empty() && !rule.suppressed.empty()) {
                m_model.flexDominators.push_back(std::move(rule));
            }
        }
    }

    // ---- animation ---------------------------------------------------------------------------
    Animation emptyAnimation(std::string name, float fps) const
    {
        Animation a;
        a.name = std::move(name);
        a.kind = PoseKind::LocalQuaternion;
        a.fps = fps;
        a.jointCount = m_model.skeleton.size();
        return a;
    }

    Animation bindAnimation() const
    {
        Animation a = emptyAnimation(fileStem(m_ctx.fileName), 30.0f);
        a.appendFrame(0, {});
        for (std::size_t j = 0; j < a.jointCount; ++j) {
            a.positions[j] = m_model.skeleton.bindPositions[j];
            a.quaternions[j] = m_model.skeleton.bindQuaternions[j];
            a.explicitKey[j] = 1;
        }
        return a;
    }

    struct Track {
        const Attribute* times = nullptr;
        const Attribute* values = nullptr;
        bool ticks = false; // int times: 1/10000 s
        double timeAt(std::size_t i) const
        {
            return ticks ? static_cast<double>(times->ints[i]) / 10000.0
                         : static_cast<double>(times->floats[i]);
        }
    };

    void readAnimations(std::int32_t listIndex)
    {
        const Element& list = *el(listIndex);
        const std::size_t nj = m_model.skeleton.size();
        for (std::int32_t ci : refs(list, "animations")) {
            const Element* clip = el(ci);
            if (!clip) {
                continue;
            }
            const float fpsRaw = number(*clip, "frameRate", 30.0f);
            const float fps =
                std::isfinite(fpsRaw) && fpsRaw > 0 && fpsRaw <= 1000 ? fpsRaw : 30.0f;
            double duration = -1;
            double start = 0;
            if (const Element* tf = el(ref(*clip, "timeFrame"))) {
                if (const Attribute* d = tf->find("duration");
                    d && !d->array && d->type == AttrType::Time && !d->floats.empty()) {
                    duration = d->floats.front();
                } else if (const Attribute* dt = tf->find("durationTime");
                           dt && !dt->array && dt->type == AttrType::Int && !dt->ints.empty()) {
                    duration = dt->ints.front() / 10000.0;
                }
                start = number(*tf, "start", 0.0f);
            }
            // Channels: position / orientation logs of the joints' transforms.
            std::vector<Track> posTrack(nj);
            std::vector<Track> rotTrack(nj);
            double lastKey = 0;
            for (std::int32_t chi : refs(*clip, "channels")) {
                const Element* ch = el(chi);
                if (!ch) {
                    continue;
                }
                const Attribute* to = get(*ch, "toAttribute", AttrType::String, false);
                const auto nodeIt = m_nodeOfTransform.find(ref(*ch, "toElement"));
                if (!to || to->strings.empty() || nodeIt == m_nodeOfTransform.end()) {
                    continue;
                }
                const JointIndex j = m_nodes[static_cast<std::size_t>(nodeIt->second)].joint;
                const bool isPos = to->strings.front() == "position";
                const bool isRot = to->strings.front() == "orientation";
                if (j == kNoJoint || (!isPos && !isRot)) {
                    continue;
                }
                const Element* log = el(ref(*ch, "log"));
                const auto layers = log ? refs(*log, "layers") : std::span<const std::int32_t>();
                const Element* layer = layers.empty() ? nullptr : el(layers.front());
                if (!layer) {
                    continue;
                }
                Track t;
                t.times = layer->find("times");
                t.values =
                    get(*layer, "values", isPos ? AttrType::Vector3 : AttrType::Quaternion, true);
                if (!t.times || !t.values || !t.times->array ||
                    (t.times->type != AttrType::Time && t.times->type != AttrType::Int)) {
                    if (!t.times || !t.values) {
                        missing(*layer, t.times ? "values" : "times");
                    } else {
                        m_sink.error(ids::kDmxAttributeType, t.times->where,
                                     "log layer times are " +
                                         std::string(dmx::typeName(t.times->type)) +
                                         "; expected time_array or int_array");
                    }
                    continue;
                }
                t.ticks = t.times->type == AttrType::Int;
                if (t.times->count != t.values->count) {
                    m_sink.error(ids::kDmxFaceIndex, t.values->where,
                                 "log layer has " + groupedCount(t.times->count) + " times and " +
                                     groupedCount(t.values->count) + " values");
                    continue;
                }
                if (t.times->count > 0) {
                    lastKey = std::max(lastKey, t.timeAt(t.times->count - 1));
                }
                (isPos ? posTrack : rotTrack)[static_cast<std::size_t>(j)] = t;
            }
            if (duration < 0 || !std::isfinite(duration)) {
                duration = lastKey;
            }
            double framesD = std::floor(duration * fps + 0.5) + 1;
            constexpr double kMaxFrames = 100000;
            if (!(framesD >= 1)) {
                framesD = 1;
            }
            if (framesD > kMaxFrames ||
                framesD * static_cast<double>(std::max<std::size_t>(nj, 1)) > 5e7) {
                m_sink.error(ids::kDmxAttributeType, clip->where,
                             "clip '" + clip->name + "' lasts " + std::to_string(duration) +
                                 " s at " + std::to_string(fps) + " fps; read as one frame");
                framesD = 1;
            }
            const auto frames = static_cast<std::size_t>(framesD);
            Animation a = emptyAnimation(clip->name, fps);
            a.fpsFromFile = clip->find("frameRate") != nullptr;
            for (std::size_t f = 0; f < frames; ++f) {
                a.appendFrame(static_cast<double>(f), clip->where);
                const double t = static_cast<double>(f) / fps + start;
                for (std::size_t j = 0; j < nj; ++j) {
                    const std::size_t k = a.key(f, j);
                    Vec3 p = m_model.skeleton.bindPositions[j];
                    Vec4 r = m_model.skeleton.bindQuaternions[j];
                    bool keyed = false;
                    if (const Track& pt = posTrack[j]; pt.values && pt.values->count > 0) {
                        p = samplePos(pt, t);
                        keyed = true;
                    }
                    if (const Track& rt = rotTrack[j]; rt.values && rt.values->count > 0) {
                        r = sampleRot(rt, t);
                        keyed = true;
                    }
                    a.positions[k] = p;
                    a.quaternions[k] = r;
                    a.explicitKey[k] = keyed ? 1 : 0;
                }
            }
            m_model.animations.push_back(std::move(a));
        }
    }

    static std::size_t upper(const Track& t, double time)
    {
        std::size_t lo = 0;
        std::size_t hi = t.times->count;
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (t.timeAt(mid) <= time) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo; // first key after `time`
    }
    static Vec3 posAt(const Track& t, std::size_t i)
    {
        return Vec3(t.values->floats[3 * i], t.values->floats[3 * i + 1],
                    t.values->floats[3 * i + 2]);
    }
    // Keys within 1.5 ticks (1/10000 s) of a frame are taken as that frame's key: exporters
    // truncate frame / fps to whole ticks (Blender Source Tools writes 416 for 1/24 s).
    static constexpr double kSnap = 1.5e-4;

    static Vec3 samplePos(const Track& t, double time)
    {
        const std::size_t n = t.times->count;
        const std::size_t u = upper(t, time + kSnap);
        if (u > 0 && std::fabs(t.timeAt(u - 1) - time) <= kSnap) {
            return posAt(t, u - 1);
        }
        if (u == 0) {
            return posAt(t, 0);
        }
        if (u >= n) {
            return posAt(t, n - 1);
        }
        const double t0 = t.timeAt(u - 1);
        const double t1 = t.timeAt(u);
        const float s = t1 > t0 ? static_cast<float>((time - t0) / (t1 - t0)) : 0.0f;
        return posAt(t, u - 1) * (1.0f - s) + posAt(t, u) * s;
    }
    // A key as written at its frame; between keys a slerp in double.
    static Vec4 sampleRot(const Track& t, double time)
    {
        const std::size_t n = t.times->count;
        const std::size_t u = upper(t, time + kSnap);
        if (u > 0 && std::fabs(t.timeAt(u - 1) - time) <= kSnap) {
            return quatKey(&t.values->floats[4 * (u - 1)]);
        }
        if (u == 0) {
            return quatKey(&t.values->floats[0]);
        }
        if (u >= n) {
            return quatKey(&t.values->floats[4 * (n - 1)]);
        }
        const double t0 = t.timeAt(u - 1);
        const double t1 = t.timeAt(u);
        const double s = t1 > t0 ? (time - t0) / (t1 - t0) : 0.0;
        const Quatd q0 = quaternionOf(quatKey(&t.values->floats[4 * (u - 1)]));
        const Quatd q1 = quaternionOf(quatKey(&t.values->floats[4 * u]));
        return xyzwOf(q0.slerp(s, q1).normalized());
    }

    const Document& m_doc;
    const ReadContext& m_ctx;
    DiagnosticSink& m_sink;
    Model& m_model;
    std::vector<Node> m_nodes;
    std::unordered_map<std::int32_t, std::int32_t> m_nodeOf;          // element -> node
    std::unordered_map<std::int32_t, std::int32_t> m_nodeOfTransform; // transform -> node
    std::unordered_map<std::string, std::int32_t> m_baseStates;       // name -> transform
    std::vector<std::int32_t> m_listNode;  // jointList index -> node (-1: not in the tree)
    std::vector<std::int32_t> m_jointNode; // joint -> node
    std::vector<MeshSpan> m_meshes;
    MaterialInterner m_materials;
};

// Which studiomdl reads which encoding (PROJECTS.md §2.1; docs/dmx.md §5).
void checkEncoding(const DmxHeader& h, Profile p, DiagnosticSink& sink)
{
    const bool binary = h.encoding == "binary";
    const std::string what = h.encoding + " " + std::to_string(h.encodingVersion) + " / " +
                             h.formatName + " " + std::to_string(h.formatVersion);
    switch (p) {
    case Profile::Auto:
        return;
    case Profile::GoldSrc:
    case Profile::Pathos:
    case Profile::Afterburner:
        sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0},
                   std::string(p == Profile::Pathos        ? "vbmcompiler"
                               : p == Profile::Afterburner ? "abstudiomdl"
                                                           : "goldsrc studiomdl") +
                       " reads no DMX (" + what + "); export SMD");
        return;
    case Profile::Cod:
        sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0},
                   "the call of duty tools read no DMX (" + what + ")");
        return;
    case Profile::Source:
        if ((binary && h.encodingVersion > 2) || h.formatVersion > 1) {
            sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0},
                       what + " is newer than SDK 2013 / TF2 studiomdl reads (binary 2 or "
                              "keyvalues2 1, model 1)");
        }
        return;
    case Profile::Source256:
        if ((binary && h.encodingVersion > 5) || h.formatVersion > 18) {
            sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0},
                       what + " is newer than the SFM / CS:GO / Portal 2 studiomdl reads "
                              "(binary 5, model 18; Garry's Mod: binary 2, model 1)");
        }
        return;
    }
}

} // namespace

int sniffDmx(std::string_view head) noexcept
{
    DmxHeader h;
    if (dmx::parseHeader(head, h) == 0) {
        return head.substr(0, 4) == "<!--" &&
                       head.substr(0, 200).find("dmx") != std::string_view::npos
                   ? 40
                   : 0;
    }
    return 100;
}

ReadResult readDmx(std::string_view bytes, const ReadContext& ctx)
{
    ReadResult r;
    dmx::Document doc;
    const std::size_t start = dmx::parseHeader(bytes, doc.header);
    const bool binary = start > 0 && doc.header.encoding == "binary";
    DiagnosticSink sink(ctx.fileName, binary);
    if (bytes.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos) {
        sink.error(ids::kSyntaxEmptyFile, {1, 1, 0}, "file is empty");
        r.diagnostics = sink.take();
        return r;
    }
    if (start == 0) {
        sink.error(ids::kDmxSyntax, {1, 1, 0},
                   "expected '<!-- dmx encoding ENC V format FMT W -->' on the first line");
        r.diagnostics = sink.take();
        return r;
    }
    bool ok = false;
    const std::string& enc = doc.header.encoding;
    if (binary) {
        ok = dmx::parseBinary(bytes, start, doc, sink);
    } else if (enc == "keyvalues2" || enc == "keyvalues2_noids" || enc == "keyvalues2_flat") {
        ok = dmx::parseKeyValues2(bytes, start, doc, sink);
    } else {
        sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0},
                   "unknown DMX encoding '" + enc + "' (known: binary, keyvalues2)");
    }
    if (ok && doc.header.formatName != "model") {
        Diagnostic& d = sink.note(ids::kDmxSyntax, {1, 1, 0},
                                  "format '" + doc.header.formatName + "' read as a model");
        d.fixedSeverity = true;
    }
    checkEncoding(doc.header, ctx.profile, sink);
    r.model.format = "dmx";
    r.model.version = doc.header.encodingVersion;
    r.model.dmx = doc.header;
    if (ok) {
        Builder b(doc, ctx, sink, r.model);
        b.run();
        r.hasModel = true;
    }
    r.diagnostics = sink.take();
    return r;
}

} // namespace rigscope::core
