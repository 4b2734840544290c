#include "core/checks/registry.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "core/build/scratch_slots.h"
#include "core/checks/check_util.h"
#include "core/checks/checks.h"
#include "core/diag/severity.h"

namespace rigscope::core {

namespace {

using namespace checks;

constexpr ModelCheck kModelChecks[] = {
    {"skeleton.no-bones", checkNoBones},
    {"skeleton.duplicate-name", checkDuplicateBoneName},
    {"skeleton.id-gap", checkBoneIdGap},
    {"skeleton.multiple-roots", checkMultipleRoots},
    {"skeleton.bone-limit", checkBoneLimit},
    {"skeleton.bone-id-range", checkBoneIdRange},
    {"skeleton.name-length", checkBoneNameLength},
    {"skeleton.unreferenced-bone", checkUnreferencedBones},
    {"skeleton.missing-in-first-frame", checkMissingInFirstFrame},
    {"skeleton.missing-frames", checkMissingFrames},
    {"skeleton.reference-animated", checkReferenceAnimated},
    {"skeleton.frame-limit", checkFrameLimit},
    {"weights.sum-not-one", checkWeightsSumToOne},
    {"weights.negative", checkWeightsNegative},
    {"weights.zero-sum", checkWeightsZeroSum},
    {"weights.zero-link", checkWeightsZeroLink},
    {"weights.nan", checkWeightsNan},
    {"weights.too-many-links", checkWeightsTooManyLinks},
    {"weights.below-cull", checkWeightsBelowCull},
    {"weights.duplicate-link", checkWeightsDuplicateLink},
    {"weights.parent-mismatch", checkWeightsParentMismatch},
    {"mesh.degenerate-triangle", checkDegenerateTriangles},
    {"mesh.misdirected-normals", checkMisdirectedNormals},
    {"mesh.zero-normal/unnormalised-normal", checkNormalLength},
    {"mesh.nan", checkMeshNan},
    {"mesh.empty-material", checkEmptyMaterial},
    {"mesh.material-name-length", checkMaterialNameLength},
    {"mesh.material-chars", checkMaterialChars},
    {"mesh.material-not-bmp", checkMaterialNotBmp},
    {"mesh.null-material", checkNullMaterial},
    {"mesh.material-chrome", checkMaterialChrome},
    {"mesh.vertex-limit/vertex-split/normal-limit/unique-vertices", checkVertexLimit},
    {"mesh.triangle-limit", checkTriangleLimit},
    {"mesh.material-limit", checkMaterialLimit},
    {"mesh.duplicate-triangle", checkDuplicateTriangles},
    {"flex.unsupported", checkFlexUnsupported},
    {"flex.empty-shape", checkFlexEmptyShape},
    {"flex.shape-name", checkFlexShapeName},
    {"cod.root-count", checkCodRootCount},
    {"cod.bone-matrix", checkCodBoneMatrix},
    {"cod.non-unit-scale", checkCodNonUnitScale},
    {"cod.color-range", checkCodColorRange},
};

constexpr SceneCheck kSceneChecks[] = {
    {"xref.anim-bone-missing", checkXrefAnimBoneMissing},
    {"xref.ref-bone-missing", checkXrefRefBoneMissing},
    {"xref.parent-mismatch", checkXrefParentMismatch},
    {"xref.rest-pose-differs", checkXrefRestPose},
    {"xref.vta-vertex-count", checkXrefVtaVertexCount},
    {"flex.unmatched-vertices", checkFlexUnmatchedVertices},
    {"flex.vertex-limit", checkFlexVertexLimit},
    {"flex.multi-bone-vertex", checkFlexMultiBoneVertex},
    {"cod.part-not-in-model", checkCodPartNotInModel},
};

// Drops check diagnostics (from `from` on) whose id the reader already reported.
void dropReaderIds(DiagnosticSink& sink, std::size_t from, const std::vector<Diagnostic>& reader)
{
    if (reader.empty()) {
        return;
    }
    std::unordered_set<std::string_view> seen;
    for (const Diagnostic& d : reader) {
        seen.insert(d.id);
    }
    auto& diags = sink.diagnostics();
    diags.erase(std::remove_if(diags.begin() + static_cast<std::ptrdiff_t>(from), diags.end(),
                               [&seen](const Diagnostic& d) { return seen.count(d.id) > 0; }),
                diags.end());
}

// The weld block: mesh.vertex-limit (the weld) to mesh.duplicate-triangle, the checks that
// build model-sized hash tables of their own. On a large mesh they run on a second thread while
// the calling thread runs the checks before them (issue 27 item 10).
std::atomic<std::size_t> g_parallelFrom{200000};

std::size_t checkIndex(std::string_view name) noexcept
{
    std::size_t i = 0;
    while (i < std::size(kModelChecks) && kModelChecks[i].name != name) {
        ++i;
    }
    return i;
}

// Reports `rows` (a side sink's, in order) into `to` as if their checks had reported there: a
// row `to` keeps again, a summary row as the diagnostics it stands for (the sink counts them).
// Its severity and fixedSeverity are the ones the check left on it (grading included).
void replayInto(DiagnosticSink& to, std::vector<Diagnostic> rows)
{
    for (Diagnostic& r : rows) {
        if (r.omitted == 0) {
            Diagnostic& d = to.report(r.severity, r.id, r.where, std::move(r.message), r.element);
            d.fixedSeverity = r.fixedSeverity;
            d.related = std::move(r.related);
            continue;
        }
        for (std::uint32_t k = 0; k < r.omitted; ++k) {
            Diagnostic& d = to.report(r.severity, r.id, r.where, std::string(), r.element);
            d.fixedSeverity = r.fixedSeverity;
        }
    }
}

} // namespace

void checks::setParallelChecksFrom(std::size_t corners) noexcept
{
    g_parallelFrom = corners;
}

std::span<const ModelCheck> modelChecks() noexcept
{
    return kModelChecks;
}

std::span<const SceneCheck> sceneChecks() noexcept
{
    return kSceneChecks;
}

void runModelChecks(const Model& m, Profile profile, DiagnosticSink& sink,
                    const std::vector<Diagnostic>& readerDiagnostics)
{
    if (sink.maxPerId() == 0) {
        sink.setMaxPerId(kCheckMaxPerId);
    }
    const Profile p = profile == Profile::Auto ? Profile::Source : profile;
    const std::size_t from = sink.diagnostics().size();
    forgetWeldStats();               // checkVertexLimit welds once; budgetMeters reuses it
    const ScratchSlotsScope scratch; // the checks' hash tables reuse each other's memory
    static const std::size_t kBlockFirst = checkIndex("mesh.vertex-limit/vertex-split/"
                                                      "normal-limit/unique-vertices");
    static const std::size_t kBlockEnd = checkIndex("mesh.duplicate-triangle") + 1;
    std::size_t next = 0;
    if (m.mesh.cornerCount() >= g_parallelFrom && kBlockEnd <= std::size(kModelChecks) &&
        std::thread::hardware_concurrency() > 1) {
        // The block into a sink of its own on a second thread, then replayed into `sink` after
        // the checks before it: the same rows in the same order, the same caps and counts.
        DiagnosticSink aside(sink.file());
        aside.setMaxPerId(sink.maxPerId());
        KeptWeld weld;
        std::exception_ptr failed;
        std::jthread worker;
        try {
            worker = std::jthread([&] {
                try {
                    const ScratchSlotsScope workerScratch;
                    for (std::size_t i = kBlockFirst; i < kBlockEnd; ++i) {
                        kModelChecks[i].run(m, p, aside);
                    }
                    weld = takeKeptWeld();
                } catch (...) {
                    failed = std::current_exception();
                }
            });
        } catch (const std::system_error&) {
            // no second thread: the block runs here, in order
        }
        if (worker.joinable()) {
            for (std::size_t i = 0; i < kBlockFirst; ++i) {
                kModelChecks[i].run(m, p, sink);
            }
            worker.join();
            if (failed) {
                std::rethrow_exception(failed);
            }
            replayInto(sink, aside.take());
            keepWeld(std::move(weld));
            next = kBlockEnd;
        }
    }
    for (std::size_t i = next; i < std::size(kModelChecks); ++i) {
        kModelChecks[i].run(m, p, sink);
    }
    releaseVertexOnceScratch(); // the checks shared it; nothing holds it past the run
    dropReaderIds(sink, from, readerDiagnostics);
}

void runSceneChecks(const SceneFile& self, const SceneFile& reference, Profile profile,
                    DiagnosticSink& sink, const std::vector<Diagnostic>& readerDiagnostics)
{
    if (sink.maxPerId() == 0) {
        sink.setMaxPerId(kCheckMaxPerId);
    }
    const Profile p = profile == Profile::Auto ? Profile::Source : profile;
    const std::size_t from = sink.diagnostics().size();
    const ScratchSlotsScope scratch;
    for (const SceneCheck& c : kSceneChecks) {
        c.run(self, reference, p, sink);
    }
    releaseVertexOnceScratch();
    dropReaderIds(sink, from, readerDiagnostics);
}

bool matchesIdPattern(std::string_view id, std::string_view pattern) noexcept
{
    if (pattern == "*" || pattern == id) {
        return true;
    }
    if (pattern.ends_with("*")) {
        return id.starts_with(pattern.substr(0, pattern.size() - 1));
    }
    return false;
}

void gradeDiagnostics(std::vector<Diagnostic>& diags, Profile profile, bool guessed,
                      const CheckFilter& filter)
{
    const auto any = [](const std::vector<std::string>& pats, std::string_view id) {
        return std::any_of(pats.begin(), pats.end(),
                           [id](const std::string& pat) { return matchesIdPattern(id, pat); });
    };
    std::erase_if(diags, [&](const Diagnostic& d) { return any(filter.disable, d.id); });
    const int col = profileColumn(profile);
    for (Diagnostic& d : diags) {
        const CatalogEntry* e = findCatalogEntry(d.id);
        if (e && e->severity[col] == CatalogSeverity::Off && any(filter.enable, d.id)) {
            d.fixedSeverity = true; // turned on by --enable: keep the check's own severity
        }
    }
    applyProfile(diags, profile, guessed);
}

std::vector<BudgetMeter> budgetMeters(const Model& m, Profile profile, const Model* flex)
{
    const Profile p = profile == Profile::Auto ? Profile::Source : profile;
    const Limits lim = limitsFor(p, &m);
    std::vector<BudgetMeter> out;

    std::size_t bones = m.skeleton.size();
    if (goldSrcFamily(p) && m.mesh.triangleCount() > 0) {
        std::vector<std::uint8_t> ref(m.skeleton.size(), 0);
        std::vector<Link> links;
        for (std::size_t pt = 0; pt < m.mesh.pointCount(); ++pt) {
            compiledLinks(m.mesh, pt, p, links);
            for (const Link& l : links) {
                ref[static_cast<std::size_t>(l.joint)] = 1;
            }
        }
        for (std::size_t i = ref.size(); i-- > 0;) {
            if (ref[i] && m.skeleton.parents[i] != kNoJoint) {
                ref[static_cast<std::size_t>(m.skeleton.parents[i])] = 1;
            }
        }
        bones = static_cast<std::size_t>(std::count(ref.begin(), ref.end(), 1));
    }
    out.push_back({"bones", bones, lim.bones});

    std::vector<std::uint8_t> used(m.mesh.materials.size(), 0);
    for (std::uint32_t mat : m.mesh.triangleMaterials) {
        used[mat] = 1;
    }
    out.push_back({"materials", static_cast<std::size_t>(std::count(used.begin(), used.end(), 1)),
                   lim.materials});

    out.push_back({"vertices", weldedVertexCount(m, p), lim.uniqueVertices, lim.vertexLimitIsNote});

    std::size_t flexed = 0;
    if (flex && !flex->vertexFrames.empty() && !m.mesh.empty()) {
        const FlexMatch match = matchFlexToReference(*flex, m);
        const FlexedVertices fv = flexedVertices(*flex, m, match, p);
        for (std::size_t n : fv.perMaterial) {
            flexed = std::max(flexed, n);
        }
    }
    out.push_back({"flexed vertices", flexed, lim.flexedVertices});
    return out;
}

} // namespace rigscope::core
