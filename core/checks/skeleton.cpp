// skeleton.* checks (CHECKS.md §4.2) that need the built model, not the raw text.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/checks/check_util.h"
#include "core/checks/checks.h"
#include "core/text/plural.h"
#include "core/model/format_id.h"

namespace rigscope::core::checks {

namespace {

std::string profileStr(Profile p)
{
    return std::string(profileName(p));
}

// Bones studiomdl keeps: those under compiled vertex weights and their ancestors, and (not
// GoldSrc) the file's own non-rigid attachments' bones. The bone limit counts these for goldsrc
// only; other profiles count every declared bone, as a QC may keep more.
std::vector<std::uint8_t> referencedBones(const Model& m, Profile p)
{
    const Skeleton& s = m.skeleton;
    std::vector<std::uint8_t> ref(s.size(), 0);
    std::vector<Link> links;
    std::size_t marked = 0; // bones in `ref`: once all are, no point can add one
    const auto mark = [&ref, &marked](std::size_t j) {
        marked += ref[j] == 0 ? 1U : 0U;
        ref[j] = 1;
    };
    for (std::size_t pt = 0; pt < m.mesh.pointCount() && marked < ref.size(); ++pt) {
        compiledLinks(m.mesh, pt, p, links);
        // vbmcompiler also keeps each vertex's parent-field bone (studiocompiler.cpp
        // MarkSubmodelUsedBones).
        if (p == Profile::Pathos && pt < m.mesh.pointParents.size()) {
            const JointIndex parent = m.mesh.pointParents[pt];
            if (parent >= 0 && static_cast<std::size_t>(parent) < s.size()) {
                mark(static_cast<std::size_t>(parent));
            }
        }
        for (const Link& l : links) {
            if (l.joint >= 0 && static_cast<std::size_t>(l.joint) < s.size()) {
                mark(static_cast<std::size_t>(l.joint));
            }
        }
    }
    // Source keeps a non-rigid attachment's bone (a DMX DmeAttachment), as studiomdl's
    // TagUsedBones does.
    if (!goldSrcFamily(p)) {
        for (const Attachment& a : m.attachments) {
            if (!a.rigid && a.joint >= 0 && static_cast<std::size_t>(a.joint) < s.size()) {
                ref[static_cast<std::size_t>(a.joint)] = 1;
            }
        }
    }
    for (std::size_t i = s.size(); i-- > 0;) {
        if (ref[i] && s.parents[i] != kNoJoint) {
            ref[static_cast<std::size_t>(s.parents[i])] = 1;
        }
    }
    return ref;
}

bool isReference(const Model& m) noexcept
{
    return m.mesh.triangleCount() > 0;
}

} // namespace

void checkNoBones(const Model& m, const Profile&, DiagnosticSink& sink)
{
    // A DMX holding only flex controllers (Blender Source Tools' flex controller export) has
    // no skeleton by design.
    const bool dmxControllersOnly = formatFamily(m.format) == FormatFamily::Dmx && m.mesh.empty() &&
                                    m.vertexFrames.empty() && m.animations.empty() &&
                                    !m.flexControllers.empty();
    if (m.skeleton.empty() && !dmxControllersOnly) {
        sink.error(ids::kSkeletonNoBones, {1, 1, 0}, "file declares no bones");
    }
}

void checkDuplicateBoneName(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Skeleton& s = m.skeleton;
    const bool caseless = p != Profile::Cod;
    std::unordered_map<std::string, std::size_t> seen;
    std::unordered_map<std::string, std::size_t> sameCase; // GoldSrc: the names that merge
    for (std::size_t j : jointsInFileOrder(s)) {
        const std::string key = caseless ? asciiLower(s.names[j]) : s.names[j];
        auto [it, inserted] = seen.try_emplace(key, j);
        const auto [exact, newName] = goldSrcStudiomdl(p) ? sameCase.try_emplace(s.names[j], j)
                                                          : std::pair{sameCase.end(), false};
        if (inserted) {
            continue;
        }
        const std::size_t first = goldSrcStudiomdl(p) && !newName ? exact->second : it->second;
        if (goldSrcStudiomdl(p) && newName) {
            // HL1 studiomdl.c SimplifyModel builds the bone table with findNode (strcmp): names
            // that differ in case stay two bones (Afterburner's austria_tree_dead_snow.mdl
            // keeps TREE and tree). Only its stricmp / strcmpi links of $attachment, $hbox,
            // $hgroup and $controller take the first: nothing is lost, a note.
            Diagnostic& d = sink.warning(
                ids::kSkeletonDuplicateName, jointLoc(s, j),
                "bone names " + quoted(s.names[first]) + " (id " +
                    std::to_string(s.sourceIds[first]) + ") and " + quoted(s.names[j]) + " (id " +
                    std::to_string(s.sourceIds[j]) +
                    ") differ only in case: " + std::string(compilerName(p)) +
                    " keeps both, and a $hbox or $attachment naming either takes the first",
                {K::Joint, static_cast<std::int32_t>(j)});
            d.related.push_back({sink.file(), jointLoc(s, first), "first declared here"});
            grade(d, p, Severity::Note);
            continue;
        }
        Diagnostic& d =
            sink.warning(ids::kSkeletonDuplicateName, jointLoc(s, j),
                         "bone name " + quoted(s.names[j]) + " used by ids " +
                             std::to_string(s.sourceIds[first]) + " and " +
                             std::to_string(s.sourceIds[j]) + "; they merge in the compiled table",
                         {K::Joint, static_cast<std::int32_t>(j)});
        d.related.push_back({sink.file(), jointLoc(s, first), "first declared here"});
    }
}

void checkBoneIdGap(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Skeleton& s = m.skeleton;
    if (s.empty() || !isSmdFamily(m)) {
        return;
    }
    const std::vector<std::size_t> order = jointsInFileOrder(s);
    std::size_t firstBad = SIZE_MAX;
    std::int32_t maxId = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::int32_t id = s.sourceIds[order[i]];
        maxId = std::max(maxId, id);
        if (firstBad == SIZE_MAX && id != static_cast<std::int32_t>(i)) {
            firstBad = order[i];
        }
    }
    if (firstBad == SIZE_MAX) {
        return;
    }
    const std::int32_t last = s.sourceIds[order.back()];
    const std::size_t n = s.size();
    std::string msg = "bone ids are not 0.." + std::to_string(n - 1) + " in order; ";
    if (goldSrcStudiomdl(p)) { // vbmcompiler sizes it from the largest (smdparser.cpp)
        msg += "GoldSrc sizes the table from the last id (" + std::to_string(last) +
               "), not the largest (" + std::to_string(maxId) + ")";
    } else {
        const std::size_t table = static_cast<std::size_t>(maxId) + 1;
        const std::size_t placeholders = table > n ? table - n : 0;
        msg += plural(placeholders, "unnamed placeholder bone");
    }
    Diagnostic& d = sink.warning(ids::kSkeletonIdGap, jointLoc(s, firstBad), std::move(msg),
                                 {K::Joint, static_cast<std::int32_t>(firstBad)});
    if (p == Profile::Pathos) {
        // vbmcompiler's placeholders have no name and no parent: no vertex, table entry or
        // animation track reaches them (smdparser.cpp ParseNodes), so nothing changes.
        grade(d, p, Severity::Note);
    }
}

void checkMultipleRoots(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Skeleton& s = m.skeleton;
    std::vector<std::string> names;
    std::size_t secondRoot = SIZE_MAX;
    for (std::size_t j : jointsInFileOrder(s)) {
        if (s.parents[j] == kNoJoint) {
            if (!names.empty() && secondRoot == SIZE_MAX) {
                secondRoot = j;
            }
            names.push_back(s.names[j]);
        }
    }
    if (names.size() <= 1) {
        return;
    }
    sink.note(ids::kSkeletonMultipleRoots, jointLoc(s, secondRoot),
              std::to_string(names.size()) + " root bones: " + nameList(names),
              {K::Joint, static_cast<std::int32_t>(secondRoot)});
}

void checkBoneLimit(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Limits lim = limitsFor(p, &m);
    const Skeleton& s = m.skeleton;
    if (lim.bones == 0 || s.size() <= lim.bones) {
        return;
    }
    // vbmcompiler limits the bone table it builds from the bodies only: an animation's bones
    // that no body has are skipped (studiocompiler.cpp CreateBoneTable, RemapSequenceBones).
    if (p == Profile::Pathos && !isReference(m)) {
        return;
    }
    // Source and GoldSrc studiomdl read up to MAXSTUDIOSRCBONES (512) bones from any source
    // file; their bone table holds only what the bodies use (Source simplify.cpp
    // BuildGlobalBonetable, HL1 studiomdl.c SimplifyModel), so an animation's extra bones are
    // no model's. Only a source past 512 breaks the compile.
    if (!isReference(m) && p != Profile::Cod) {
        constexpr std::size_t kSourceBones = 512;
        if (s.size() > kSourceBones) {
            const std::size_t over = jointsInFileOrder(s)[kSourceBones];
            sink.error(ids::kSkeletonBoneLimit, jointLoc(s, over),
                       "source file holds " + std::to_string(s.size()) + " bones; " +
                           std::string(compilerName(p)) + " reads at most " +
                           std::to_string(kSourceBones) + " from one file",
                       {K::Joint, static_cast<std::int32_t>(over)});
        }
        return;
    }
    const bool countReferenced = goldSrcFamily(p) && isReference(m);
    std::vector<std::uint8_t> counted(s.size(), 1);
    if (countReferenced) {
        counted = referencedBones(m, p);
    }
    std::size_t n = 0;
    std::size_t over = SIZE_MAX;
    for (std::size_t j : jointsInFileOrder(s)) {
        if (counted[j]) {
            ++n;
            if (n == lim.bones + 1) {
                over = j;
            }
        }
    }
    if (n <= lim.bones) {
        return;
    }
    std::string msg = "model uses " + std::to_string(n) + " bones; " + profileStr(p) +
                      " allows at most " + std::to_string(lim.bones);
    if (!countReferenced && isReference(m)) {
        const std::vector<std::uint8_t> ref = referencedBones(m, p);
        const auto unused = static_cast<std::size_t>(std::count(ref.begin(), ref.end(), 0));
        if (unused > 0) {
            msg += "; " + std::to_string(unused) + (unused == 1 ? " carries" : " carry") +
                   " no vertices";
        }
    }
    if (p == Profile::Source && n <= limitsFor(Profile::Source256).bones) {
        msg += "; source256 allows 255";
    }
    sink.error(ids::kSkeletonBoneLimit, jointLoc(s, over), std::move(msg),
               {K::Joint, static_cast<std::int32_t>(over)});
}

void checkBoneIdRange(const Model& m, const Profile&, DiagnosticSink& sink)
{
    const Skeleton& s = m.skeleton;
    if (!isSmdFamily(m)) {
        return;
    }
    for (std::size_t j : jointsInFileOrder(s)) {
        const std::int32_t id = s.sourceIds[j];
        if (id < 0 || id >= 512) {
            sink.error(ids::kSkeletonBoneIdRange, jointLoc(s, j),
                       "bone id " + std::to_string(id) +
                           " outside 0..511 (studiomdl's source-bone array)",
                       {K::Joint, static_cast<std::int32_t>(j)});
        }
    }
}

void checkBoneNameLength(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Limits lim = limitsFor(p, &m);
    const Skeleton& s = m.skeleton;
    if (lim.boneNameLength == 0) {
        return;
    }
    std::unordered_map<std::string, std::size_t> truncated;
    const std::vector<std::size_t> order = jointsInFileOrder(s);
    for (std::size_t j : order) {
        truncated.try_emplace(asciiLower(s.names[j].substr(0, lim.boneNameLength)), j);
    }
    for (std::size_t j : order) {
        const std::string& name = s.names[j];
        if (name.size() <= lim.boneNameLength) {
            continue;
        }
        std::string msg = "bone name has " + std::to_string(name.size()) + " chars; " +
                          profileStr(p) + " keeps " + std::to_string(lim.boneNameLength);
        const auto it = truncated.find(asciiLower(name.substr(0, lim.boneNameLength)));
        if (it != truncated.end() && it->second != j) {
            msg += "; truncated name collides with " + quoted(s.names[it->second]);
        }
        sink.warning(ids::kSkeletonNameLength, jointLoc(s, j), std::move(msg),
                     {K::Joint, static_cast<std::int32_t>(j)});
    }
}

void checkUnreferencedBones(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    if (!isReference(m) || m.skeleton.empty()) {
        return;
    }
    const Skeleton& s = m.skeleton;
    const std::vector<std::uint8_t> ref = referencedBones(m, p);
    std::vector<std::string> names;
    std::size_t first = SIZE_MAX;
    for (std::size_t j : jointsInFileOrder(s)) {
        if (!ref[j]) {
            if (first == SIZE_MAX) {
                first = j;
            }
            names.push_back(s.names[j]);
        }
    }
    if (names.empty()) {
        return;
    }
    // Judged on this file alone: in a QC project (core/ops/qc_ops) the bodies are judged
    // together, and Source also keeps bones the QC's attachments and IK chains name.
    const std::string k = std::to_string(names.size());
    std::string msg = goldSrcStudiomdl(p)
                          ? k + " bones carry no vertices and are dropped by GoldSrc: "
                          : k + " bones carry no vertices; " + std::string(compilerName(p)) +
                                " drops them unless QC commands keep them: ";
    if (names.size() == 1) {
        msg = goldSrcStudiomdl(p) ? "1 bone carries no vertices and is dropped by GoldSrc: "
                                  : "1 bone carries no vertices; " + std::string(compilerName(p)) +
                                        " drops it unless a QC command keeps it: ";
    }
    msg += nameList(names);
    sink.warning(ids::kSkeletonUnreferencedBone, jointLoc(s, first), std::move(msg),
                 {K::Joint, static_cast<std::int32_t>(first)});
}

void checkMissingInFirstFrame(const Model& m, const Profile&, DiagnosticSink& sink)
{
    if (!isSmdFamily(m) || m.kind == ModelKind::Flex || m.animations.empty()) {
        return;
    }
    const Animation& a = m.animations.front();
    if (a.frameCount() == 0 || a.explicitKey.size() < a.jointCount) {
        return;
    }
    bool anyExplicit = false;
    for (std::size_t j = 0; j < a.jointCount; ++j) {
        anyExplicit = anyExplicit || a.explicitKey[j] != 0;
    }
    if (!anyExplicit) {
        return; // the reader did not record keys; nothing to compare
    }
    for (std::size_t j : jointsInFileOrder(m.skeleton)) {
        if (a.explicitKey[a.key(0, j)] == 0) {
            sink.warning(ids::kSkeletonMissingInFirstFrame, a.frameWhere[0],
                         "bone " + quoted(m.skeleton.names[j]) + " missing from frame " +
                             num(a.times[0]) + "; it gets zero position and rotation",
                         {K::Joint, static_cast<std::int32_t>(j)});
        }
    }
}

void checkMissingFrames(const Model& m, const Profile&, DiagnosticSink& sink)
{
    if (!isSmdFamily(m) || m.kind == ModelKind::Flex) {
        return;
    }
    for (const Animation& a : m.animations) {
        for (std::size_t f = 1; f < a.frameCount(); ++f) {
            const double prev = a.times[f - 1], cur = a.times[f];
            if (cur - prev > 1.0) {
                sink.warning(ids::kSkeletonMissingFrames, a.frameWhere[f],
                             "frame " + num(prev + 1) + " missing between " + num(prev) + " and " +
                                 num(cur),
                             {K::Frame, static_cast<std::int32_t>(f)});
            }
        }
    }
}

void checkReferenceAnimated(const Model& m, const Profile&, DiagnosticSink& sink)
{
    if (!isSmdFamily(m) || !isReference(m) || m.animations.empty()) {
        return;
    }
    const Animation& a = m.animations.front();
    if (a.frameCount() <= 1) {
        return;
    }
    sink.warning(ids::kSkeletonReferenceAnimated, a.frameWhere[1],
                 "reference has " + std::to_string(a.frameCount()) + " frames; frame " +
                     num(a.times[0]) + " is the rest pose",
                 {K::Frame, 1});
}

void checkFrameLimit(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    const Limits lim = limitsFor(p, &m);
    if (lim.framesPerAnimation == 0) {
        return;
    }
    for (const Animation& a : m.animations) {
        if (a.frameCount() <= lim.framesPerAnimation) {
            continue;
        }
        sink.error(ids::kSkeletonFrameLimit, a.frameWhere[lim.framesPerAnimation],
                   "animation has " + std::to_string(a.frameCount()) + " frames; " + profileStr(p) +
                       " allows at most " + std::to_string(lim.framesPerAnimation),
                   {K::Frame, static_cast<std::int32_t>(lim.framesPerAnimation)});
    }
}

} // namespace rigscope::core::checks
