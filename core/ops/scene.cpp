#include "core/ops/scene.h"

#include <algorithm>
#include <unordered_set>

#include "core/io/file_buffer.h"
#include "core/model/format_id.h"
#include "core/pose/flex_binding.h"
#include "core/text/ascii.h"

namespace rigscope::core {

int chooseReference(const std::vector<SceneSource>& files)
{
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].model && files[i].model->kind == ModelKind::Reference) {
            return static_cast<int>(i);
        }
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].model) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

namespace {

// The rule pairs the SMD family and Call of Duty files. A DMX animation is not paired: DMX
// projects keep old reference poses and proportion correctors beside the body (a
// `subtract` sequence's base), which an xref check would flag on projects that compile.
bool canBeReference(const Model& m)
{
    const FormatFamily f = formatFamily(m.format);
    return f == FormatFamily::CodModel ||
           (f == FormatFamily::Smd && m.kind == ModelKind::Reference);
}

bool wantsReference(const Model& m)
{
    const FormatFamily f = formatFamily(m.format);
    return f == FormatFamily::CodAnim ||
           (f == FormatFamily::Smd &&
            (m.kind == ModelKind::Animation || m.kind == ModelKind::Flex));
}

// "bone\nparent" keys: files of one document share names *and* hierarchy; generic names
// ("Bone12") alone would pair unrelated files of one folder.
std::string boneKey(const Skeleton& s, std::size_t j)
{
    const JointIndex p = s.parents[j];
    return asciiLower(s.names[j]) + '\n' +
           (p == kNoJoint ? std::string() : asciiLower(s.names[static_cast<std::size_t>(p)]));
}

// A reference's bones as keys and as lower-case names (XANIM parts have no hierarchy).
std::unordered_set<std::string> referenceKeys(const Model& m)
{
    std::unordered_set<std::string> out;
    for (std::size_t j = 0; j < m.skeleton.size(); ++j) {
        out.insert(boneKey(m.skeleton, j));
        out.insert(asciiLower(m.skeleton.names[j]));
    }
    return out;
}

// How many of `m`'s bones the reference declares too: under the same parent, and by name alone
// (XANIM parts: by name only).
std::pair<std::size_t, std::size_t> boneOverlap(const Model& m,
                                                const std::unordered_set<std::string>& refKeys)
{
    const bool xanim = formatFamily(m.format) == FormatFamily::CodAnim;
    std::size_t keyed = 0, named = 0;
    for (std::size_t j = 0; j < m.skeleton.size(); ++j) {
        const std::string name = asciiLower(m.skeleton.names[j]);
        named += refKeys.count(name);
        keyed += xanim ? refKeys.count(name) : refKeys.count(boneKey(m.skeleton, j));
    }
    return {keyed, named};
}

} // namespace

std::vector<int> pairReferences(const std::vector<SceneSource>& files)
{
    std::vector<int> out(files.size(), -1);
    std::vector<std::size_t> refs;
    std::vector<std::unordered_set<std::string>> keys;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].model && canBeReference(*files[i].model)) {
            refs.push_back(i);
            keys.push_back(referenceKeys(*files[i].model));
        }
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        const SceneSource& f = files[i];
        if (!f.model || !wantsReference(*f.model)) {
            continue;
        }
        const bool xanim = formatFamily(f.model->format) == FormatFamily::CodAnim;
        const std::string dir = directoryOf(f.path);
        const std::string stem = stemName(f.path);
        // Pass 0: the file's own folder; pass 1 (a named file): named references elsewhere.
        for (int pass = 0; pass < (f.named ? 2 : 1) && out[i] < 0; ++pass) {
            std::pair<std::size_t, std::size_t> best{0, 0};
            for (std::size_t r = 0; r < refs.size(); ++r) {
                const SceneSource& ref = files[refs[r]];
                const bool here = directoryOf(ref.path) == dir;
                if ((pass == 0) != here || (pass == 1 && !ref.named) ||
                    (formatFamily(ref.model->format) == FormatFamily::CodModel) != xanim) {
                    continue;
                }
                if (stemName(ref.path) == stem) {
                    out[i] = static_cast<int>(refs[r]);
                    break;
                }
                const auto score = boneOverlap(*f.model, keys[r]);
                const bool together = f.named && ref.named;
                const bool enough =
                    together ? score.second > 0 : 2 * score.first >= f.model->skeleton.size();
                if (score.first + score.second > 0 && enough && score > best) {
                    best = score;
                    out[i] = static_cast<int>(refs[r]);
                }
            }
        }
    }
    return out;
}

std::string animationNameOf(const std::string& path)
{
    std::string name = baseName(path);
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0) {
        name.resize(dot);
    }
    return name;
}

namespace {

// Whether files[i] belongs to the scene of its reference: the reference itself, a file
// pairReferences pairs with it, and a file the rule does not pair (a DMX animation, or any
// file when none can be a reference): files opened together play together. Another
// reference is not.
std::vector<bool> sceneMembers(const Scene& s)
{
    const std::vector<int> pairs = pairReferences(s.files);
    const bool anyReference = std::any_of(s.files.begin(), s.files.end(), [](const SceneSource& f) {
        return f.model && canBeReference(*f.model);
    });
    std::vector<bool> out(s.files.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const SceneSource& f = s.files[i];
        const bool paired =
            anyReference && f.model && (wantsReference(*f.model) || canBeReference(*f.model));
        out[i] = static_cast<int>(i) == s.reference || pairs[i] == s.reference || !paired;
    }
    return out;
}

void listAnimations(Scene& s, const Model& ref, const std::vector<bool>& members)
{
    for (std::size_t i = 0; i < s.files.size(); ++i) {
        const SceneSource& f = s.files[i];
        if (!members[i] || !f.model || f.model->animations.empty() ||
            f.model->kind == ModelKind::Flex) {
            continue;
        }
        // A QC project or a compiled model: one animation per sequence, named after it.
        if (f.qc || formatFamily(f.model->format) == FormatFamily::Compiled) {
            for (std::size_t k = 0; k < f.model->animations.size(); ++k) {
                const Animation& qa = f.model->animations[k];
                s.animations.push_back({qa.name, static_cast<int>(i), static_cast<int>(k),
                                        bindAnimation(ref.skeleton, f.model->skeleton, qa.kind)});
            }
            continue;
        }
        const Animation& a = f.model->animations.front();
        if (static_cast<int>(i) == s.reference && f.model->kind == ModelKind::Reference &&
            a.frameCount() <= 1) {
            continue; // a reference's single frame is its bind pose
        }
        s.animations.push_back({animationNameOf(f.path), static_cast<int>(i), 0,
                                bindAnimation(ref.skeleton, f.model->skeleton, a.kind)});
    }
}

std::vector<FlexSet> bindFlexFiles(Scene& s, const Model& ref, const std::vector<bool>& members)
{
    std::vector<FlexSet> sets;
    std::size_t shapes = 0;
    for (std::size_t i = 0; i < s.files.size(); ++i) {
        const SceneSource& f = s.files[i];
        if (!members[i] || !f.model || f.model->flexShapes.empty() || ref.mesh.empty()) {
            continue;
        }
        FlexSet set{f.model, bindFlexShapes(ref.mesh, *f.model, ref.mesh.cornerPoints)};
        s.flexFiles.push_back({static_cast<int>(i), shapes});
        shapes += set.targets.shapeCount();
        sets.push_back(std::move(set));
    }
    return sets;
}

void countElements(Scene& s, const Model& ref)
{
    s.weightedVertexCounts.assign(ref.skeleton.size(), 0);
    const Mesh& mesh = ref.mesh;
    for (std::size_t p = 0; p < mesh.pointCount(); ++p) {
        bool anyLink = false;
        if (!mesh.influenceOffsets.empty()) {
            for (std::uint32_t k = mesh.influenceOffsets[p]; k < mesh.influenceOffsets[p + 1];
                 ++k) {
                const JointIndex j = mesh.influenceJoints[k];
                if (j >= 0 && static_cast<std::size_t>(j) < s.weightedVertexCounts.size() &&
                    mesh.influenceWeights[k] > 0) {
                    ++s.weightedVertexCounts[static_cast<std::size_t>(j)];
                    anyLink = true;
                }
            }
        }
        const JointIndex parent = p < mesh.pointParents.size() ? mesh.pointParents[p] : kNoJoint;
        if (!anyLink && parent >= 0 &&
            static_cast<std::size_t>(parent) < s.weightedVertexCounts.size()) {
            ++s.weightedVertexCounts[static_cast<std::size_t>(parent)];
        }
    }
    s.materialTriangleCounts.assign(mesh.materials.size(), 0);
    for (const std::uint32_t mat : mesh.triangleMaterials) {
        if (mat < s.materialTriangleCounts.size()) {
            ++s.materialTriangleCounts[mat];
        }
    }
}

} // namespace

Scene assembleScene(std::vector<SceneSource> files, Profile profile)
{
    Scene s;
    s.files = std::move(files);
    s.reference = chooseReference(s.files);
    if (s.reference < 0) {
        return s;
    }
    const std::shared_ptr<const Model> ref = s.files[static_cast<std::size_t>(s.reference)].model;
    const std::vector<bool> members = sceneMembers(s);
    listAnimations(s, *ref, members);
    std::vector<FlexSet> sets = bindFlexFiles(s, *ref, members);
    countElements(s, *ref);
    s.evaluator = std::make_shared<SceneEvaluator>(ref, std::move(sets), profile);
    return s;
}

SceneElement Scene::elementFor(int file, const ElementRef& e) const
{
    using EK = ElementRef::Kind;
    using K = SceneElement::Kind;
    const Model* ref = referenceModel();
    if (!ref || file < 0 || static_cast<std::size_t>(file) >= files.size() || e.index < 0 ||
        !files[static_cast<std::size_t>(file)].model) {
        return {};
    }
    const Model& own = *files[static_cast<std::size_t>(file)].model;
    const auto i = static_cast<std::size_t>(e.index);
    const bool referenceFile = file == reference;
    switch (e.kind) {
    case EK::Joint:
    case EK::Part: {
        if (referenceFile && e.kind == EK::Joint) {
            return i < ref->skeleton.size() ? SceneElement{K::Joint, e.index, -1} : SceneElement{};
        }
        const std::string name = i < own.skeleton.size() ? own.skeleton.names[i] : std::string();
        const JointIndex j = name.empty() ? kNoJoint : ref->skeleton.findByName(name);
        return j >= 0 ? SceneElement{K::Joint, j, -1} : SceneElement{};
    }
    case EK::Triangle:
        return referenceFile && i < ref->mesh.triangleCount()
                   ? SceneElement{K::Triangle, e.index, -1}
                   : SceneElement{};
    case EK::Vertex: {
        if (!referenceFile) {
            return {};
        }
        // SMD: vertex = corner 3t+c, and point i == corner i. XMODEL: a pool point; its first
        // corner.
        const auto& corners = ref->mesh.cornerPoints;
        std::size_t c = i < corners.size() && corners[i] == i ? i : corners.size();
        if (c == corners.size()) {
            c = static_cast<std::size_t>(
                std::find(corners.begin(), corners.end(), static_cast<std::uint32_t>(i)) -
                corners.begin());
        }
        return c < corners.size()
                   ? SceneElement{K::Triangle, static_cast<int>(c / 3), static_cast<int>(c % 3)}
                   : SceneElement{};
    }
    case EK::Material:
        return referenceFile && i < ref->mesh.materials.size()
                   ? SceneElement{K::Material, e.index, -1}
                   : SceneElement{};
    case EK::Frame:
        for (std::size_t a = 0; a < animations.size(); ++a) {
            if (animations[a].file == file) {
                const auto frames = static_cast<int>(animation(a).frameCount());
                return e.index < frames ? SceneElement{K::Frame, static_cast<int>(a), e.index}
                                        : SceneElement{};
            }
        }
        return {};
    case EK::Shape:
        for (const SceneFlexFile& f : flexFiles) {
            const std::size_t count =
                evaluator ? evaluator->flexSets()[static_cast<std::size_t>(&f - flexFiles.data())]
                                .targets.shapeCount()
                          : 0;
            if (f.file == file && i < count) {
                return {K::Flex, static_cast<int>(f.firstShape) + e.index, -1};
            }
        }
        return {};
    case EK::None:
        break;
    }
    return {};
}

} // namespace rigscope::core
