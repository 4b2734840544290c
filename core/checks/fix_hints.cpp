// Fix hints of the CHECKS.md §4 catalog ("Fix" column), for --format=sarif help and the GUI.
#include "core/checks/registry.h"
#include "core/diag/check_explanations.h"

namespace rigscope::core {

namespace {
struct FixHint {
    std::string_view id;
    std::string_view fix;
};
constexpr FixHint kFixHints[] = {
    {"syntax.empty-file", "re-export"},
    {"syntax.bad-version", "export as version 1"},
    {"syntax.unknown-block", "remove it"},
    {"syntax.missing-end", "add 'end'"},
    {"syntax.end-not-exact", "write exactly 'end'"},
    {"syntax.keyword-case", "fix case"},
    {"syntax.unquoted-name", "quote the name"},
    {"syntax.bad-number", "fix the exporter"},
    {"syntax.short-line", "re-export"},
    {"syntax.extra-fields", "none needed"},
    {"syntax.blank-line-in-block", "delete it"},
    {"syntax.tab-in-file", "use spaces"},
    {"syntax.comment-goldsrc", "strip comments"},
    {"syntax.comment-in-block", "move to column 1 or delete"},
    {"syntax.line-ending", "save with LF or CRLF"},
    {"syntax.non-ascii", "rename in ASCII"},
    {"syntax.smdx-corrupt", "re-convert from text SMD"},
    {"syntax.smdx-vta-writer-bug", "re-convert with RigScope"},
    {"syntax.cod-comma", "re-export"},
    {"skeleton.no-bones", "export the armature"},
    {"skeleton.duplicate-id", "renumber"},
    {"skeleton.duplicate-name", "rename one"},
    {"skeleton.id-gap", "renumber"},
    {"skeleton.unknown-parent", "fix the parent"},
    {"skeleton.cycle", "break the loop"},
    {"skeleton.multiple-roots", "fine for Valve; see 'cod.root-count'"},
    {"skeleton.bone-limit", "collapse bones / use a 256 branch"},
    {"skeleton.bone-id-range", "renumber"},
    {"skeleton.name-length", "shorten"},
    {"skeleton.unreferenced-bone", "weight something or accept"},
    {"skeleton.missing-in-first-frame", "key every bone at frame 0"},
    {"skeleton.no-time", "add 'time 0'"},
    {"skeleton.unknown-bone-in-frame", "fix the id"},
    {"skeleton.time-order", "sort the frames"},
    {"skeleton.missing-frames", "bake every frame"},
    {"skeleton.duplicate-frame", "remove the duplicate"},
    {"skeleton.reference-animated", "export one frame"},
    {"skeleton.frame-limit", "split the sequence"},
    {"weights.sum-not-one", "normalise in the DCC"},
    {"weights.negative", "clamp to 0"},
    {"weights.zero-sum", "weight the vertex"},
    {"weights.zero-link", "clean the groups"},
    {"weights.nan", "re-export"},
    {"weights.unknown-bone", "fix the group ↔ bone mapping"},
    {"weights.too-many-links", "limit influences to {max}"},
    {"weights.below-cull", "prune small weights"},
    {"weights.duplicate-link", "merge the groups"},
    {"weights.parent-mismatch", "put the dominant bone in field 1"},
    {"mesh.degenerate-triangle", "delete it"},
    {"mesh.misdirected-normals", "flip the face or recalc normals"},
    {"mesh.zero-normal", "recalc normals"},
    {"mesh.unnormalised-normal", "normalise"},
    {"mesh.nan", "re-export"},
    {"mesh.empty-material", "assign a material"},
    {"mesh.material-name-length", "shorten; use '$cdmaterials'"},
    {"mesh.material-chars", "rename"},
    {"mesh.material-not-bmp", "use an 8-bit .bmp"},
    {"mesh.null-material", ""},
    {"mesh.material-chrome", "rename if unintended"},
    {"mesh.vertex-limit", "split the mesh / bodygroups"},
    {"mesh.vertex-split", "raise '$maxverts' or split"},
    {"mesh.normal-limit", "smooth more / split"},
    {"mesh.triangle-limit", "decimate or split"},
    {"mesh.material-limit", "merge materials"},
    {"mesh.unique-vertices", ""},
    {"mesh.duplicate-triangle", "delete it"},
    {"flex.unsupported", "use Source"},
    {"flex.frame-sync", "add 'time 0'"},
    {"flex.vertex-id-out-of-range", "re-export the VTA"},
    {"flex.first-shape-incomplete", "export all vertices at frame 0"},
    {"flex.unmatched-vertices", "VTA from the same mesh"},
    {"flex.vertex-limit", "split the mesh"},
    {"flex.multi-bone-vertex", "rigid-skin the face"},
    {"flex.empty-shape", "intentional neutral?"},
    {"flex.shape-name", "rename"},
    {"xref.anim-bone-missing", "match skeletons"},
    {"xref.ref-bone-missing", "fine if intended"},
    {"xref.parent-mismatch", "re-parent in the DCC"},
    {"xref.rest-pose-differs", "re-export from one rig"},
    {"xref.vta-vertex-count", "none if flex.unmatched is silent"},
    {"cod.root-count", "parent under tag_origin"},
    {"cod.bone-matrix", "freeze transforms"},
    {"cod.index-range", "re-export"},
    {"cod.count-mismatch", "re-export"},
    {"cod.non-unit-scale", "apply scale"},
    {"cod.part-not-in-model", "rename the joint"},
    {"cod.frame-gaps", "bake every frame"},
    {"cod.notetrack-range", "move the key"},
    {"cod.ntexport-mismatch", "re-export together"},
    {"cod.framerate", "integer fps"},
    {"cod.color-range", "usually harmless"},
};
} // namespace

std::string_view fixHint(std::string_view id) noexcept
{
    if (const CheckExplanation* x = findExplanation(id)) {
        return x->fix;
    }
    for (const FixHint& h : kFixHints) {
        if (h.id == id) {
            return h.fix;
        }
    }
    return {};
}

} // namespace rigscope::core
