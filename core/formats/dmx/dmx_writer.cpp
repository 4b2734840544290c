// DMX writer (docs/dmx.md §6): the core model as a DmeModel tree, written as keyvalues2 1 or
// binary 2-5 / 9. Deterministic: element ids come from the element's position, strings are
// sorted, floats are written shortest-round-trip.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <set>

#include "core/build/weld.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/dmx/dmx.h"
#include "core/formats/dmx/dmx_document.h"
#include "core/model/rotation.h"
#include "core/text/names.h"

namespace rigscope::core {

namespace {

using dmx::Attribute;
using dmx::AttrType;
using dmx::Document;
using dmx::Element;

// The bind rotation of joint j as a DMX quaternion: as read when the model came from a DMX,
// else from its Euler angles or axes, in double.
Vec4 bindQuaternion(const Skeleton& s, std::size_t j)
{
    if (s.bindKind == PoseKind::LocalQuaternion) {
        return s.bindQuaternions[j];
    }
    return xyzwOf(Quatd(bindRotationD(s, j)).normalized());
}

// Elements live in a deque and reserve their attributes, so references to an attribute stay
// valid while more elements and attributes are added.
class Graph {
public:
    static constexpr std::size_t kMaxAttrs = 32;

    std::int32_t add(std::string type, std::string name)
    {
        Element& e = m_els.emplace_back();
        e.type = std::move(type);
        e.name = std::move(name);
        e.attrs.reserve(kMaxAttrs);
        return static_cast<std::int32_t>(m_els.size() - 1);
    }
    Attribute& attr(std::int32_t e, std::string name, AttrType t, bool array)
    {
        auto& attrs = m_els[static_cast<std::size_t>(e)].attrs;
        if (attrs.size() == kMaxAttrs) {
            std::abort(); // a programming error: raise kMaxAttrs
        }
        Attribute& a = attrs.emplace_back();
        a.name = std::move(name);
        a.type = t;
        a.array = array;
        return a;
    }
    void finish(Document& d)
    {
        d.elements.assign(std::make_move_iterator(m_els.begin()),
                          std::make_move_iterator(m_els.end()));
    }
    void ref(std::int32_t e, std::string name, std::int32_t target)
    {
        Attribute& a = attr(e, std::move(name), AttrType::Element, false);
        a.ints.push_back(target);
        a.count = 1;
    }
    Attribute& refs(std::int32_t e, std::string name)
    {
        return attr(e, std::move(name), AttrType::Element, true);
    }
    void str(std::int32_t e, std::string name, std::string v)
    {
        Attribute& a = attr(e, std::move(name), AttrType::String, false);
        a.strings.push_back(std::move(v));
        a.count = 1;
    }
    void integer(std::int32_t e, std::string name, std::int32_t v, AttrType t = AttrType::Int)
    {
        Attribute& a = attr(e, std::move(name), t, false);
        a.ints.push_back(v);
        a.count = 1;
    }
    void floats(std::int32_t e, std::string name, AttrType t, std::initializer_list<float> v)
    {
        Attribute& a = attr(e, std::move(name), t, false);
        a.floats.assign(v);
        a.count = 1;
    }

private:
    std::deque<Element> m_els;
};

void push(Attribute& a, const Vec3& v)
{
    a.floats.insert(a.floats.end(), {v.x(), v.y(), v.z()});
    ++a.count;
}

// Hash of values by their bits (equal bits, equal hash).
struct BitsHash {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    BitsHash& add(std::uint32_t v) noexcept
    {
        h = finishHash(h ^ v);
        return *this;
    }
    BitsHash& add(float f) noexcept
    {
        std::uint32_t v = 0;
        std::memcpy(&v, &f, sizeof v);
        return add(v);
    }
    template <int N> BitsHash& add(const Eigen::Matrix<float, N, 1>& x) noexcept
    {
        for (int i = 0; i < N; ++i) {
            add(x[i]);
        }
        return *this;
    }
};

template <int N>
bool sameBits(const Eigen::Matrix<float, N, 1>& a, const Eigen::Matrix<float, N, 1>& b)
{
    return std::memcmp(a.data(), b.data(), sizeof(float) * N) == 0;
}

// One index per group of equal items, numbered as groups first appear; `firsts` receives each
// index's first item. An item `alone` says true of gets an index of its own.
template <class Alone, class Hash, class Same>
std::vector<std::int32_t> shareIndices(std::size_t n, const Alone& alone, const Hash& hash,
                                       const Same& same, std::vector<std::uint32_t>& firsts)
{
    std::vector<std::int32_t> out(n);
    firsts.clear();
    WeldTable table(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto item = static_cast<std::uint32_t>(i);
        if (alone(item)) {
            out[i] = static_cast<std::int32_t>(firsts.size());
            firsts.push_back(item);
            continue;
        }
        bool created = false;
        const std::uint32_t key = table.findOrAddKey(
            hash(item), static_cast<std::uint32_t>(firsts.size()),
            [&](std::uint32_t g) { return same(firsts[g], item); }, created);
        if (created) {
            firsts.push_back(item);
        }
        out[i] = static_cast<std::int32_t>(key);
    }
    return out;
}

// Builds the element graph of a model.
class ModelToDmx {
public:
    ModelToDmx(const Model& m, const DmxWriteOptions& o, DiagnosticSink& sink, Document& d)
        : m_model(m), m_options(o), m_sink(sink), m_document(d)
    {
        m_new = o.formatVersion >= 22;
        m_timeType = o.formatVersion >= 12 && (!o.binary || o.binaryVersion >= 3);
    }

    void run(const std::string& name)
    {
        const std::int32_t root = m_graph.add("DmElement", name);
        const Skeleton& s = m_model.skeleton;
        const std::int32_t model = m_graph.add("DmeModel", name);
        m_graph.ref(root, "skeleton", model);
        if (!m_model.mesh.empty()) {
            m_graph.ref(root, "model", model);
        }
        // Joints.
        std::vector<std::int32_t> joint(s.size());
        std::vector<std::int32_t> xform(s.size());
        for (std::size_t j = 0; j < s.size(); ++j) {
            joint[j] = m_graph.add("DmeJoint", s.names[j]);
            xform[j] = m_graph.add("DmeTransform", s.names[j]);
            const Vec3& p = s.bindPositions[j];
            const Vec4 q = bindQuaternion(s, j);
            m_graph.floats(xform[j], "position", AttrType::Vector3, {p.x(), p.y(), p.z()});
            m_graph.floats(xform[j], "orientation", AttrType::Quaternion,
                           {q.x(), q.y(), q.z(), q.w()});
            m_graph.ref(joint[j], "transform", xform[j]);
        }
        if (!isParentRelative(s.bindKind)) {
            m_sink.note(ids::kDmxWriteLoss, {1, 1, 0},
                        "model-space bones written as their parent-relative transforms is not "
                        "done; convert to SMD first");
        }
        std::vector<std::vector<std::int32_t>> kids(s.size() + 1);
        for (std::size_t j = 0; j < s.size(); ++j) {
            const JointIndex p = s.parents[j];
            kids[p == kNoJoint ? s.size() : static_cast<std::size_t>(p)].push_back(joint[j]);
        }
        std::int32_t meshDag = -1;
        JointIndex meshOwner = kNoJoint;
        if (!m_model.mesh.empty()) {
            // Under the DmeModel: a mesh DAG's own transform would move its vertices.
            meshDag = writeMesh(name, meshOwner);
            kids[s.size()].push_back(meshDag);
        }
        // Attachments: a DmeDag with a DmeAttachment shape under their joint (not in the joint
        // list), as Valve's exporters write them.
        for (const Attachment& a : m_model.attachments) {
            const std::int32_t dag = m_graph.add("DmeDag", a.name);
            const std::int32_t xf = m_graph.add("DmeTransform", a.name);
            const Vec4 q = xyzwOf(eulerToQuaternion(a.rotation));
            m_graph.floats(xf, "position", AttrType::Vector3,
                           {a.position.x(), a.position.y(), a.position.z()});
            m_graph.floats(xf, "orientation", AttrType::Quaternion, {q.x(), q.y(), q.z(), q.w()});
            m_graph.ref(dag, "transform", xf);
            const std::int32_t shape = m_graph.add("DmeAttachment", a.name);
            m_graph.integer(shape, "isRigid", a.rigid ? 1 : 0, AttrType::Bool);
            m_graph.integer(shape, "isWorldAligned", a.worldAligned ? 1 : 0, AttrType::Bool);
            m_graph.ref(dag, "shape", shape);
            const bool onJoint = a.joint >= 0 && static_cast<std::size_t>(a.joint) < s.size();
            kids[onJoint ? static_cast<std::size_t>(a.joint) : s.size()].push_back(dag);
        }
        for (std::size_t j = 0; j <= s.size(); ++j) {
            Attribute& c = m_graph.refs(j < s.size() ? joint[j] : model, "children");
            c.ints = kids[j];
            c.count = c.ints.size();
        }
        const std::int32_t modelXform = m_graph.add("DmeTransform", name);
        m_graph.floats(modelXform, "position", AttrType::Vector3, {0, 0, 0});
        m_graph.floats(modelXform, "orientation", AttrType::Quaternion, {0, 0, 0, 1});
        m_graph.ref(model, "transform", modelXform);
        Attribute& list =
            m_graph.refs(model, m_options.formatVersion >= 11 ? "jointList" : "jointTransforms");
        list.ints = m_options.formatVersion >= 11 ? joint : xform;
        list.count = list.ints.size();
        const std::int32_t base = m_graph.add("DmeTransformList", "base");
        Attribute& bt = m_graph.refs(base, "transforms");
        bt.ints = xform;
        bt.count = xform.size();
        Attribute& bs = m_graph.refs(model, "baseStates");
        bs.ints.push_back(base);
        bs.count = 1;
        const std::int32_t axis = m_graph.add("DmeAxisSystem", "axisSystem");
        m_graph.integer(axis, "upAxis", 3);
        m_graph.integer(axis, "forwardParity", 1);
        m_graph.integer(axis, "coordSys", 0);
        m_graph.ref(model, "axisSystem", axis);

        if (!m_shapeNames.empty() || !m_model.flexControllers.empty()) {
            writeCombination(root);
        }
        if (m_model.kind == ModelKind::Animation) {
            writeAnimations(root, name, xform);
        } else if (m_model.animations.size() > 1 || (m_model.animations.size() == 1 &&
                                                     m_model.animations.front().frameCount() > 1)) {
            m_sink.note(ids::kDmxWriteLoss, {1, 1, 0},
                        "a reference's animation frames are not written; only its bind pose");
        }
        m_graph.finish(m_document);
    }

private:
    std::string key(const char* oldName, const char* newName) const
    {
        return m_new ? newName : oldName;
    }

    std::int32_t writeMesh(const std::string& name, JointIndex& owner)
    {
        const Mesh& me = m_model.mesh;
        const std::int32_t dag = m_graph.add("DmeDag", name);
        const std::int32_t xf = m_graph.add("DmeTransform", name);
        m_graph.floats(xf, "position", AttrType::Vector3, {0, 0, 0});
        m_graph.floats(xf, "orientation", AttrType::Quaternion, {0, 0, 0, 1});
        const std::int32_t mesh = m_graph.add("DmeMesh", name);
        m_graph.ref(dag, "transform", xf);
        m_graph.ref(dag, "shape", mesh);
        const std::int32_t vd = m_graph.add("DmeVertexData", "bind");
        m_graph.ref(mesh, "bindState", vd);
        m_graph.ref(mesh, "currentState", vd);
        Attribute& bstates = m_graph.refs(mesh, "baseStates");
        bstates.ints.push_back(vd);
        bstates.count = 1;

        // Skinning: per point, the links as written; points without links follow their parent.
        bool anyLinks = false;
        std::size_t jointCount = 0;
        JointIndex common = me.pointCount() ? me.pointParents[0] : kNoJoint;
        for (std::size_t p = 0; p < me.pointCount(); ++p) {
            const std::size_t n = me.influenceCount(p);
            anyLinks = anyLinks || n > 0;
            jointCount = std::max(jointCount, n);
            common = me.pointParents[p] == common ? common : kNoJoint - 1;
        }
        // Rigid (no weights) only when every point follows joint 0, which a reader assumes.
        const bool rigid = !anyLinks && (common == 0 || common == kNoJoint);
        owner = rigid ? common : kNoJoint;
        if (!rigid) {
            jointCount = std::max<std::size_t>(jointCount, 1);
        }
        Attribute& fmt = m_graph.attr(vd, "vertexFormat", AttrType::String, true);
        fmt.strings = {key("positions", "position$0"), key("normals", "normal$0"),
                       key("textureCoordinates", "texcoord$0")};
        if (!rigid) {
            fmt.strings.push_back(key("jointWeights", "blendweights$0"));
            fmt.strings.push_back(key("jointIndices", "blendindices$0"));
        }
        fmt.count = fmt.strings.size();
        m_graph.integer(vd, "flipVCoordinates", 1, AttrType::Bool);
        m_graph.integer(vd, "jointCount", rigid ? 0 : static_cast<std::int32_t>(jointCount));
        // studiomdl makes a vertex of each distinct (position, normal, texture coordinate)
        // index triple (dmxsupport.cpp DefineUniqueVertices), so equal values share one index
        // and the DMX compiles to the vertices the SMD's weld makes. A position is a point's
        // place, skinning and balance; a point or corner a flex shape moves, or whose wrinkle
        // it scales, keeps an index of its own so no delta is lost.
        std::vector<bool> movedPoint(me.pointCount(), false);
        std::vector<bool> movedCorner(me.cornerCount(), false);
        std::vector<bool> wrinkledCorner(me.cornerCount(), false);
        for (const FlexShape& shape : m_model.flexShapes) {
            const bool wrinkled =
                shape.deltaWrinkles.size() == shape.ids.size() && !shape.deltaWrinkles.empty();
            for (const std::int32_t c : shape.ids) {
                if (c >= 0 && static_cast<std::size_t>(c) < me.cornerCount()) {
                    movedCorner[static_cast<std::size_t>(c)] = true;
                    movedPoint[me.cornerPoints[static_cast<std::size_t>(c)]] = true;
                    wrinkledCorner[static_cast<std::size_t>(c)] =
                        wrinkledCorner[static_cast<std::size_t>(c)] || wrinkled;
                }
            }
        }
        const bool share = m_options.shareIndices;
        const bool balanced =
            !m_model.pointBalance.empty() && m_model.pointBalance.size() == me.pointCount();
        std::vector<std::uint32_t> posFirst;
        const std::vector<std::int32_t> posOf = shareIndices(
            me.pointCount(), [&](std::uint32_t p) { return !share || movedPoint[p]; },
            [&](std::uint32_t p) {
                BitsHash h;
                h.add(me.pointPositions[p]).add(static_cast<std::uint32_t>(me.pointParents[p]));
                for (std::uint32_t k = me.influenceOffsets.empty() ? 0 : me.influenceOffsets[p];
                     k < (me.influenceOffsets.empty() ? 0 : me.influenceOffsets[p + 1]); ++k) {
                    h.add(static_cast<std::uint32_t>(me.influenceJoints[k]))
                        .add(me.influenceWeights[k]);
                }
                if (balanced) {
                    h.add(m_model.pointBalance[p]);
                }
                return h.h;
            },
            [&](std::uint32_t a, std::uint32_t b) {
                if (!sameBits(me.pointPositions[a], me.pointPositions[b]) ||
                    me.pointParents[a] != me.pointParents[b] ||
                    me.influenceCount(a) != me.influenceCount(b)) {
                    return false;
                }
                if (balanced && !sameBits(Eigen::Matrix<float, 1, 1>(m_model.pointBalance[a]),
                                          Eigen::Matrix<float, 1, 1>(m_model.pointBalance[b]))) {
                    return false;
                }
                for (std::uint32_t k = 0; k < me.influenceCount(a); ++k) {
                    const std::uint32_t ka = me.influenceOffsets[a] + k;
                    const std::uint32_t kb = me.influenceOffsets[b] + k;
                    if (me.influenceJoints[ka] != me.influenceJoints[kb] ||
                        std::memcmp(&me.influenceWeights[ka], &me.influenceWeights[kb],
                                    sizeof(float)) != 0) {
                        return false;
                    }
                }
                return true;
            },
            posFirst);
        std::vector<std::uint32_t> nrmFirst;
        const std::vector<std::int32_t> nrmOf = shareIndices(
            me.cornerCount(), [&](std::uint32_t c) { return !share || movedCorner[c]; },
            [&](std::uint32_t c) { return BitsHash().add(me.cornerNormals[c]).h; },
            [&](std::uint32_t a, std::uint32_t b) {
                return sameBits(me.cornerNormals[a], me.cornerNormals[b]);
            },
            nrmFirst);
        std::vector<std::uint32_t> uvFirst;
        const std::vector<std::int32_t> uvOf = shareIndices(
            me.cornerCount(), [&](std::uint32_t c) { return !share || wrinkledCorner[c]; },
            [&](std::uint32_t c) { return BitsHash().add(me.cornerUvs[c]).h; },
            [&](std::uint32_t a, std::uint32_t b) {
                return sameBits(me.cornerUvs[a], me.cornerUvs[b]);
            },
            uvFirst);
        Attribute& pos = m_graph.attr(vd, key("positions", "position$0"), AttrType::Vector3, true);
        for (const std::uint32_t p : posFirst) {
            push(pos, me.pointPositions[p]);
        }
        Attribute& posIdx =
            m_graph.attr(vd, key("positionsIndices", "position$0Indices"), AttrType::Int, true);
        posIdx.ints.resize(me.cornerCount());
        for (std::size_t c = 0; c < me.cornerCount(); ++c) {
            posIdx.ints[c] = posOf[me.cornerPoints[c]];
        }
        posIdx.count = posIdx.ints.size();
        Attribute& nrm = m_graph.attr(vd, key("normals", "normal$0"), AttrType::Vector3, true);
        for (const std::uint32_t c : nrmFirst) {
            push(nrm, me.cornerNormals[c]);
        }
        Attribute& nrmIdx =
            m_graph.attr(vd, key("normalsIndices", "normal$0Indices"), AttrType::Int, true);
        nrmIdx.ints = nrmOf;
        nrmIdx.count = nrmOf.size();
        Attribute& uv =
            m_graph.attr(vd, key("textureCoordinates", "texcoord$0"), AttrType::Vector2, true);
        for (const std::uint32_t c : uvFirst) {
            uv.floats.insert(uv.floats.end(), {me.cornerUvs[c].x(), me.cornerUvs[c].y()});
            ++uv.count;
        }
        Attribute& uvIdx = m_graph.attr(vd, key("textureCoordinatesIndices", "texcoord$0Indices"),
                                        AttrType::Int, true);
        uvIdx.ints = uvOf;
        uvIdx.count = uvOf.size();
        if (balanced) {
            // The stereo split per position, as Blender Source Tools writes it.
            fmt.strings.push_back(key("balance", "balance$0"));
            fmt.count = fmt.strings.size();
            Attribute& b = m_graph.attr(vd, key("balance", "balance$0"), AttrType::Float, true);
            for (const std::uint32_t p : posFirst) {
                b.floats.push_back(m_model.pointBalance[p]);
            }
            b.count = b.floats.size();
            Attribute& bi =
                m_graph.attr(vd, key("balanceIndices", "balance$0Indices"), AttrType::Int, true);
            bi.ints = posIdx.ints;
            bi.count = bi.ints.size();
        }
        if (!rigid) {
            Attribute& w =
                m_graph.attr(vd, key("jointWeights", "blendweights$0"), AttrType::Float, true);
            Attribute& wi =
                m_graph.attr(vd, key("jointIndices", "blendindices$0"), AttrType::Int, true);
            std::size_t moved = 0;
            for (const std::uint32_t p : posFirst) {
                std::size_t n = me.influenceCount(p);
                if (n == 0) {
                    w.floats.push_back(1.0f);
                    wi.ints.push_back(std::max<JointIndex>(me.pointParents[p], 0));
                    n = 1;
                    ++moved;
                } else {
                    for (std::uint32_t k = me.influenceOffsets[p]; k < me.influenceOffsets[p + 1];
                         ++k) {
                        w.floats.push_back(me.influenceWeights[k]);
                        wi.ints.push_back(me.influenceJoints[k]);
                    }
                }
                for (; n < jointCount; ++n) {
                    w.floats.push_back(0.0f);
                    wi.ints.push_back(0);
                }
            }
            w.count = w.floats.size();
            wi.count = wi.ints.size();
            if (moved > 0 && anyLinks) {
                m_sink.note(ids::kDmxWriteLoss, {1, 1, 0},
                            std::to_string(moved) + " points without links written with weight 1 "
                                                    "on their parent bone");
            }
        }
        // Face sets: one per run of triangles with one material, so the triangle order is kept.
        Attribute& sets = m_graph.refs(mesh, "faceSets");
        std::vector<std::int32_t> matElem(me.materials.size(), -1);
        Attribute* faces = nullptr;
        for (std::size_t t = 0; t < me.triangleCount(); ++t) {
            const std::uint32_t mat = me.triangleMaterials[t];
            if (t == 0 || mat != me.triangleMaterials[t - 1]) {
                const std::string& mn = me.materials[mat].name;
                if (matElem[mat] < 0) {
                    matElem[mat] = m_graph.add("DmeMaterial", mn);
                    m_graph.str(matElem[mat], "mtlName", mn);
                }
                const std::int32_t fs = m_graph.add("DmeFaceSet", mn);
                m_graph.ref(fs, "material", matElem[mat]);
                faces = &m_graph.attr(fs, "faces", AttrType::Int, true);
                sets.ints.push_back(fs);
            }
            for (std::size_t c = 0; c < 3; ++c) {
                faces->ints.push_back(static_cast<std::int32_t>(3 * t + c));
            }
            faces->ints.push_back(-1);
            faces->count = faces->ints.size();
        }
        sets.count = sets.ints.size();
        // Delta states from the flex shapes (ids are corner indices, SMD layout).
        Attribute& deltas = m_graph.refs(mesh, "deltaStates");
        for (const FlexShape& shape : m_model.flexShapes) {
            const std::int32_t d = m_graph.add("DmeVertexDeltaData", shape.name);
            Attribute& dfmt = m_graph.attr(d, "vertexFormat", AttrType::String, true);
            dfmt.strings = {key("positions", "position$0"), key("normals", "normal$0")};
            dfmt.count = 2;
            m_graph.integer(d, "flipVCoordinates", 1, AttrType::Bool);
            m_graph.integer(d, "corrected", 1, AttrType::Bool);
            Attribute& dp =
                m_graph.attr(d, key("positions", "position$0"), AttrType::Vector3, true);
            Attribute& dpi =
                m_graph.attr(d, key("positionsIndices", "position$0Indices"), AttrType::Int, true);
            Attribute& dn = m_graph.attr(d, key("normals", "normal$0"), AttrType::Vector3, true);
            Attribute& dni =
                m_graph.attr(d, key("normalsIndices", "normal$0Indices"), AttrType::Int, true);
            // Wrinkle deltas index the bind state's texture coordinates: one per corner here.
            const bool wrinkled =
                shape.deltaWrinkles.size() == shape.ids.size() && !shape.deltaWrinkles.empty();
            Attribute* dw = nullptr;
            Attribute* dwi = nullptr;
            if (wrinkled) {
                dfmt.strings.push_back(key("wrinkle", "wrinkle$0"));
                dfmt.count = dfmt.strings.size();
                dw = &m_graph.attr(d, key("wrinkle", "wrinkle$0"), AttrType::Float, true);
                dwi = &m_graph.attr(d, key("wrinkleIndices", "wrinkle$0Indices"), AttrType::Int,
                                    true);
            }
            std::set<std::int32_t> seenPoint;
            for (std::size_t k = 0; k < shape.ids.size(); ++k) {
                const std::int32_t c = shape.ids[k];
                if (c < 0 || static_cast<std::size_t>(c) >= me.cornerCount()) {
                    continue;
                }
                const auto corner = static_cast<std::size_t>(c);
                const std::int32_t point = posOf[me.cornerPoints[corner]];
                if (seenPoint.insert(point).second) {
                    push(dp, shape.deltaPositions[k]);
                    dpi.ints.push_back(point);
                    ++dpi.count;
                }
                push(dn, shape.deltaNormals[k]);
                dni.ints.push_back(nrmOf[corner]);
                ++dni.count;
                if (wrinkled) {
                    dw->floats.push_back(shape.deltaWrinkles[k]);
                    ++dw->count;
                    dwi->ints.push_back(uvOf[corner]);
                    ++dwi->count;
                }
            }
            deltas.ints.push_back(d);
            m_shapeNames.push_back(shape.name);
        }
        deltas.count = deltas.ints.size();
        return dag;
    }

    void writeCombination(std::int32_t root)
    {
        const std::int32_t op = m_graph.add("DmeCombinationOperator", "combinationOperator");
        m_graph.ref(root, "combinationOperator", op);
        Attribute& controls = m_graph.refs(op, "controls");
        Attribute& values = m_graph.attr(op, "controlValues", AttrType::Vector3, true);
        std::vector<FlexController> list = m_model.flexControllers;
        if (list.empty()) {
            for (const std::string& n : m_shapeNames) {
                FlexController c;
                c.name = n;
                c.rawControls = {n};
                list.push_back(std::move(c));
            }
        }
        for (const FlexController& c : list) {
            const std::int32_t e = m_graph.add("DmeCombinationInputControl", c.name);
            Attribute& raw = m_graph.attr(e, "rawControlNames", AttrType::String, true);
            raw.strings = c.rawControls;
            raw.count = raw.strings.size();
            m_graph.integer(e, "stereo", c.stereo ? 1 : 0, AttrType::Bool);
            m_graph.integer(e, "eyelid", c.eyelid ? 1 : 0, AttrType::Bool);
            m_graph.floats(e, "flexMax", AttrType::Float, {c.max});
            m_graph.floats(e, "flexMin", AttrType::Float, {c.min});
            if (!c.wrinkleScales.empty()) {
                Attribute& w = m_graph.attr(e, "wrinkleScales", AttrType::Float, true);
                w.floats = c.wrinkleScales;
                w.count = w.floats.size();
            }
            controls.ints.push_back(e);
            // (left, right, multilevel), from value and balance as Valve's
            // ValueBalanceToLeftRight does.
            const float left = c.balance <= 0.5f ? c.value : (1.0f - c.balance) / 0.5f * c.value;
            const float right = c.balance >= 0.5f ? c.value : c.balance / 0.5f * c.value;
            push(values, Vec3(left, c.stereo ? right : left, 0.5f));
        }
        controls.count = controls.ints.size();
        Attribute& dominators = m_graph.refs(op, "dominators");
        for (const FlexDominationRule& rule : m_model.flexDominators) {
            const std::int32_t e = m_graph.add("DmeCombinationDominationRule", "rule");
            Attribute& d = m_graph.attr(e, "dominators", AttrType::String, true);
            d.strings = rule.dominators;
            d.count = d.strings.size();
            Attribute& sup = m_graph.attr(e, "suppressed", AttrType::String, true);
            sup.strings = rule.suppressed;
            sup.count = sup.strings.size();
            dominators.ints.push_back(e);
        }
        dominators.count = dominators.ints.size();
        Attribute& targets = m_graph.refs(op, "targets");
        targets.count = 0;
    }

    void writeAnimations(std::int32_t root, const std::string& name,
                         const std::vector<std::int32_t>& xform)
    {
        const std::int32_t list = m_graph.add("DmeAnimationList", name);
        m_graph.ref(root, "animationList", list);
        Attribute& anims = m_graph.refs(list, "animations");
        for (const Animation& a : m_model.animations) {
            if (!isParentRelative(a.kind) || a.jointCount != m_model.skeleton.size()) {
                continue;
            }
            const std::int32_t clip =
                m_graph.add("DmeChannelsClip", a.name.empty() ? name : a.name);
            anims.ints.push_back(clip);
            const std::int32_t tf = m_graph.add("DmeTimeFrame", "timeframe");
            const float fps = a.fps > 0 ? a.fps : 30.0f;
            const double duration =
                a.frameCount() > 0 ? static_cast<double>(a.frameCount() - 1) / fps : 0.0;
            if (m_timeType) {
                m_graph.floats(tf, "duration", AttrType::Time, {static_cast<float>(duration)});
            } else {
                m_graph.integer(tf, "durationTime",
                                static_cast<std::int32_t>(std::lround(duration * 10000)));
            }
            m_graph.floats(tf, "scale", AttrType::Float, {1.0f});
            m_graph.ref(clip, "timeFrame", tf);
            if (m_options.formatVersion >= 22) {
                m_graph.floats(clip, "frameRate", AttrType::Float, {fps});
            } else {
                m_graph.integer(clip, "frameRate", static_cast<std::int32_t>(std::lround(fps)));
                if (std::fabs(fps - std::round(fps)) > 1e-6f) {
                    m_sink.note(ids::kDmxWriteLoss, {1, 1, 0},
                                "frame rate " + std::to_string(fps) + " rounded to a whole number");
                }
            }
            Attribute& chans = m_graph.refs(clip, "channels");
            for (std::size_t j = 0; j < a.jointCount; ++j) {
                for (int kind = 0; kind < 2; ++kind) {
                    const std::string& jn = m_model.skeleton.names[j];
                    const std::int32_t ch =
                        m_graph.add("DmeChannel", jn + (kind == 0 ? "_p" : "_o"));
                    m_graph.str(ch, "toAttribute", kind == 0 ? "position" : "orientation");
                    m_graph.ref(ch, "toElement", xform[j]);
                    m_graph.integer(ch, "mode", 1);
                    const char* t = kind == 0 ? "Vector3" : "Quaternion";
                    const std::int32_t log =
                        m_graph.add(std::string("Dme") + t + "Log", std::string(t) + " log");
                    const std::int32_t layer =
                        m_graph.add(std::string("Dme") + t + "LogLayer", std::string(t) + " log");
                    Attribute& layers = m_graph.refs(log, "layers");
                    layers.ints.push_back(layer);
                    layers.count = 1;
                    m_graph.ref(ch, "log", log);
                    Attribute& times = m_graph.attr(
                        layer, "times", m_timeType ? AttrType::Time : AttrType::Int, true);
                    Attribute& vals =
                        m_graph.attr(layer, "values",
                                     kind == 0 ? AttrType::Vector3 : AttrType::Quaternion, true);
                    for (std::size_t f = 0; f < a.frameCount(); ++f) {
                        const double sec = static_cast<double>(f) / fps;
                        if (m_timeType) {
                            times.floats.push_back(static_cast<float>(sec));
                        } else {
                            times.ints.push_back(
                                static_cast<std::int32_t>(std::lround(sec * 10000)));
                        }
                        ++times.count;
                        const std::size_t k = a.key(f, j);
                        if (kind == 0) {
                            push(vals, a.positions[k]);
                        } else {
                            const Vec4 q = a.kind == PoseKind::LocalQuaternion
                                               ? a.quaternions[k]
                                               : xyzwOf(eulerToQuaternion(a.rotations[k]));
                            vals.floats.insert(vals.floats.end(), {q.x(), q.y(), q.z(), q.w()});
                            ++vals.count;
                        }
                    }
                    chans.ints.push_back(ch);
                }
            }
            chans.count = chans.ints.size();
        }
        anims.count = anims.ints.size();
    }

    const Model& m_model;
    const DmxWriteOptions& m_options;
    DiagnosticSink& m_sink;
    Document& m_document;
    Graph m_graph;
    bool m_new = false;
    bool m_timeType = false;
    std::vector<std::string> m_shapeNames;
};

// ---- serialisation ------------------------------------------------------------------------

std::string idText(std::size_t i)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "00000000-0000-0000-0000-%012zx", i);
    return buf;
}

void putFloat(std::string& out, float v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void putQuoted(std::string& out, std::string_view s)
{
    out.push_back('"');
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
        }
        out.push_back(c);
    }
    out.push_back('"');
}

void kv2Item(std::string& out, const Attribute& a, std::size_t i)
{
    const std::size_t w = dmx::floatWidth(a.type);
    switch (a.type) {
    case AttrType::String:
        putQuoted(out, a.strings[i]);
        return;
    case AttrType::Int:
    case AttrType::Bool:
    case AttrType::UInt8:
        putQuoted(out, std::to_string(a.ints[i]));
        return;
    default:
        break;
    }
    std::string s;
    for (std::size_t k = 0; k < w; ++k) {
        if (k) {
            s.push_back(' ');
        }
        putFloat(s, a.floats[w * i + k]);
    }
    putQuoted(out, s);
}

std::string writeKv2(const Document& d)
{
    std::string out = "<!-- dmx encoding keyvalues2 1 format " + d.header.formatName + " " +
                      std::to_string(d.header.formatVersion) + " -->\n";
    for (std::size_t e = 0; e < d.elements.size(); ++e) {
        const Element& el = d.elements[e];
        putQuoted(out, el.type);
        out += "\n{\n\t\"id\" \"elementid\" ";
        putQuoted(out, idText(e));
        out += "\n\t\"name\" \"string\" ";
        putQuoted(out, el.name);
        out += "\n";
        for (const Attribute& a : el.attrs) {
            out += "\t";
            putQuoted(out, a.name);
            out += " \"";
            out += dmx::typeName(a.type);
            if (a.array) {
                out += "_array\"\n\t[\n";
                for (std::size_t i = 0; i < a.count; ++i) {
                    out += "\t\t";
                    if (a.type == AttrType::Element) {
                        out += "\"element\" ";
                        putQuoted(out, a.ints[i] < 0 ? std::string()
                                                     : idText(static_cast<std::size_t>(a.ints[i])));
                    } else {
                        kv2Item(out, a, i);
                    }
                    out += i + 1 < a.count ? ",\n" : "\n";
                }
                out += "\t]\n";
            } else {
                out += "\" ";
                if (a.type == AttrType::Element) {
                    putQuoted(out, a.ints[0] < 0 ? std::string()
                                                 : idText(static_cast<std::size_t>(a.ints[0])));
                } else {
                    kv2Item(out, a, 0);
                }
                out += "\n";
            }
        }
        out += "}\n\n";
    }
    return out;
}

class BinaryOut {
public:
    BinaryOut(const Document& d, int v) : m_document(d), m_version(v) {}

    bool write(std::string& out, std::string& error)
    {
        // String table: element types and attribute names, plus (v4+) element names and
        // single strings. Sorted, so the bytes do not depend on element order.
        std::set<std::string> table;
        for (const Element& e : m_document.elements) {
            table.insert(e.type);
            if (m_version >= 4) {
                table.insert(e.name);
            }
            for (const Attribute& a : e.attrs) {
                table.insert(a.name);
                if (m_version >= 4 && a.type == AttrType::String && !a.array) {
                    table.insert(a.strings.front());
                }
            }
        }
        if (m_version >= 2 && m_version < 5 && table.size() > 32767) {
            error =
                "binary " + std::to_string(m_version) + " holds at most 32,767 distinct strings";
            return false;
        }
        std::size_t i = 0;
        for (const std::string& s : table) {
            m_index.emplace(s, static_cast<std::int32_t>(i++));
        }
        out = "<!-- dmx encoding binary " + std::to_string(m_version) + " format " +
              m_document.header.formatName + " " + std::to_string(m_document.header.formatVersion) +
              " -->\n";
        out.push_back('\0');
        m_out = &out;
        if (m_version >= 9) {
            put<std::int32_t>(0); // no prefix attributes
        }
        if (m_version >= 4) {
            put<std::int32_t>(static_cast<std::int32_t>(table.size()));
        } else if (m_version >= 2) {
            put<std::int16_t>(static_cast<std::int16_t>(table.size()));
        }
        for (const std::string& s : table) {
            if (m_version >= 2) {
                cstr(s);
            }
        }
        put<std::int32_t>(static_cast<std::int32_t>(m_document.elements.size()));
        for (std::size_t e = 0; e < m_document.elements.size(); ++e) {
            const Element& el = m_document.elements[e];
            index(el.type);
            if (m_version >= 4) {
                index(el.name);
            } else {
                cstr(el.name);
            }
            char id[16] = {};
            const auto n = static_cast<std::uint64_t>(e);
            std::memcpy(id + 8, &n, 8);
            out.append(id, 16);
        }
        for (const Element& el : m_document.elements) {
            put<std::int32_t>(static_cast<std::int32_t>(el.attrs.size()));
            for (const Attribute& a : el.attrs) {
                index(a.name);
                const auto base = static_cast<std::uint8_t>(a.type);
                put<std::uint8_t>(
                    static_cast<std::uint8_t>(a.array ? base + (m_version >= 9 ? 32 : 14) : base));
                if (a.array) {
                    put<std::int32_t>(static_cast<std::int32_t>(a.count));
                }
                for (std::size_t k = 0; k < a.count; ++k) {
                    item(a, k);
                }
            }
        }
        return true;
    }

private:
    template <class T> void put(T v) { m_out->append(reinterpret_cast<const char*>(&v), sizeof v); }
    void cstr(const std::string& s)
    {
        m_out->append(s);
        m_out->push_back('\0');
    }
    void index(const std::string& s)
    {
        if (m_version < 2) { // binary 1: no table, every string in place
            cstr(s);
            return;
        }
        const std::int32_t i = m_index.at(s);
        if (m_version >= 5) {
            put<std::int32_t>(i);
        } else {
            put<std::int16_t>(static_cast<std::int16_t>(i));
        }
    }
    void item(const Attribute& a, std::size_t k)
    {
        switch (a.type) {
        case AttrType::Element:
        case AttrType::Int:
            put<std::int32_t>(a.ints[k]);
            return;
        case AttrType::Bool:
        case AttrType::UInt8:
            put<std::uint8_t>(static_cast<std::uint8_t>(a.ints[k]));
            return;
        case AttrType::String:
            if (!a.array && m_version >= 4) {
                index(a.strings[k]);
            } else {
                cstr(a.strings[k]);
            }
            return;
        case AttrType::Time:
            put<std::int32_t>(
                static_cast<std::int32_t>(std::lround(static_cast<double>(a.floats[k]) * 10000)));
            return;
        default:
            break;
        }
        const std::size_t w = dmx::floatWidth(a.type);
        for (std::size_t i = 0; i < w; ++i) {
            put<float>(a.floats[w * k + i]);
        }
    }

    const Document& m_document;
    int m_version;
    std::string* m_out = nullptr;
    std::map<std::string, std::int32_t> m_index;
};

std::string stemOf(const std::string& file)
{
    std::string n = fileStem(file);
    return n.empty() ? "model" : n;
}

} // namespace

WriteResult writeDmxWith(const Model& m, const WriteContext& ctx, const DmxWriteOptions& opt)
{
    WriteResult r;
    DiagnosticSink sink(ctx.fileName);
    const int v = opt.binaryVersion;
    if (opt.binary && !((v >= 1 && v <= 5) || v == 9)) {
        sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0},
                   "cannot write binary " + std::to_string(v) + " (1-5 and 9)");
        r.diagnostics = sink.take();
        return r;
    }
    Document d;
    d.header.formatName = "model";
    d.header.formatVersion = opt.formatVersion;
    ModelToDmx build(m, opt, sink, d);
    build.run(stemOf(ctx.fileName));
    if (!m.vertexFrames.empty() && m.mesh.empty()) {
        sink.warning(ids::kDmxWriteLoss, {1, 1, 0},
                     "flex shapes without a mesh (a VTA alone) are not written; convert the "
                     "reference and its VTA together");
    }
    if (opt.binary) {
        std::string error;
        if (!BinaryOut(d, v).write(r.bytes, error)) {
            sink.error(ids::kDmxEncodingUnsupported, {1, 1, 0}, error);
            r.bytes.clear();
        }
    } else {
        r.bytes = writeKv2(d);
    }
    r.diagnostics = sink.take();
    return r;
}

WriteResult writeDmx(const Model& m, const WriteContext& ctx)
{
    return writeDmxWith(m, ctx, DmxWriteOptions{});
}

} // namespace rigscope::core
