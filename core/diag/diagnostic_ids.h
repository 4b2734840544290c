#pragma once

// Every diagnostic id; ids are a stable API (never renamed or given another meaning). Each one
// has a catalog row (diagnostic_ids.cpp) and an explanation (check_explanations.cpp), from
// which docs/checks.md is generated.

#include <span>
#include <string_view>

namespace rigscope::core::ids {

inline constexpr std::string_view kSyntaxEmptyFile = "syntax.empty-file";
inline constexpr std::string_view kSyntaxBadVersion = "syntax.bad-version";
inline constexpr std::string_view kSyntaxUnknownBlock = "syntax.unknown-block";
inline constexpr std::string_view kSyntaxMissingEnd = "syntax.missing-end";
inline constexpr std::string_view kSyntaxEndNotExact = "syntax.end-not-exact";
inline constexpr std::string_view kSyntaxKeywordCase = "syntax.keyword-case";
inline constexpr std::string_view kSyntaxUnquotedName = "syntax.unquoted-name";
inline constexpr std::string_view kSyntaxBadNumber = "syntax.bad-number";
inline constexpr std::string_view kSyntaxShortLine = "syntax.short-line";
inline constexpr std::string_view kSyntaxExtraFields = "syntax.extra-fields";
inline constexpr std::string_view kSyntaxBlankLineInBlock = "syntax.blank-line-in-block";
inline constexpr std::string_view kSyntaxTabInFile = "syntax.tab-in-file";
inline constexpr std::string_view kSyntaxCommentGoldsrc = "syntax.comment-goldsrc";
inline constexpr std::string_view kSyntaxCommentInBlock = "syntax.comment-in-block";
inline constexpr std::string_view kSyntaxLineEnding = "syntax.line-ending";
inline constexpr std::string_view kSyntaxNonAscii = "syntax.non-ascii";
inline constexpr std::string_view kSyntaxSmdxCorrupt = "syntax.smdx-corrupt";
inline constexpr std::string_view kSyntaxSmdxVtaWriterBug = "syntax.smdx-vta-writer-bug";
inline constexpr std::string_view kSyntaxCodComma = "syntax.cod-comma";
inline constexpr std::string_view kSyntaxCompiledFile = "syntax.compiled-file";
inline constexpr std::string_view kSkeletonNoBones = "skeleton.no-bones";
inline constexpr std::string_view kSkeletonDuplicateId = "skeleton.duplicate-id";
inline constexpr std::string_view kSkeletonDuplicateName = "skeleton.duplicate-name";
inline constexpr std::string_view kSkeletonIdGap = "skeleton.id-gap";
inline constexpr std::string_view kSkeletonUnknownParent = "skeleton.unknown-parent";
inline constexpr std::string_view kSkeletonCycle = "skeleton.cycle";
inline constexpr std::string_view kSkeletonMultipleRoots = "skeleton.multiple-roots";
inline constexpr std::string_view kSkeletonBoneLimit = "skeleton.bone-limit";
inline constexpr std::string_view kSkeletonBoneIdRange = "skeleton.bone-id-range";
inline constexpr std::string_view kSkeletonNameLength = "skeleton.name-length";
inline constexpr std::string_view kSkeletonUnreferencedBone = "skeleton.unreferenced-bone";
inline constexpr std::string_view kSkeletonMissingInFirstFrame = "skeleton.missing-in-first-frame";
inline constexpr std::string_view kSkeletonNoTime = "skeleton.no-time";
inline constexpr std::string_view kSkeletonUnknownBoneInFrame = "skeleton.unknown-bone-in-frame";
inline constexpr std::string_view kSkeletonTimeOrder = "skeleton.time-order";
inline constexpr std::string_view kSkeletonMissingFrames = "skeleton.missing-frames";
inline constexpr std::string_view kSkeletonDuplicateFrame = "skeleton.duplicate-frame";
inline constexpr std::string_view kSkeletonReferenceAnimated = "skeleton.reference-animated";
inline constexpr std::string_view kSkeletonFrameLimit = "skeleton.frame-limit";
inline constexpr std::string_view kWeightsSumNotOne = "weights.sum-not-one";
inline constexpr std::string_view kWeightsNegative = "weights.negative";
inline constexpr std::string_view kWeightsZeroSum = "weights.zero-sum";
inline constexpr std::string_view kWeightsZeroLink = "weights.zero-link";
inline constexpr std::string_view kWeightsNan = "weights.nan";
inline constexpr std::string_view kWeightsUnknownBone = "weights.unknown-bone";
inline constexpr std::string_view kWeightsTooManyLinks = "weights.too-many-links";
inline constexpr std::string_view kWeightsBelowCull = "weights.below-cull";
inline constexpr std::string_view kWeightsDuplicateLink = "weights.duplicate-link";
inline constexpr std::string_view kWeightsParentMismatch = "weights.parent-mismatch";
inline constexpr std::string_view kMeshDegenerateTriangle = "mesh.degenerate-triangle";
inline constexpr std::string_view kMeshMisdirectedNormals = "mesh.misdirected-normals";
inline constexpr std::string_view kMeshZeroNormal = "mesh.zero-normal";
inline constexpr std::string_view kMeshUnnormalisedNormal = "mesh.unnormalised-normal";
inline constexpr std::string_view kMeshNan = "mesh.nan";
inline constexpr std::string_view kMeshEmptyMaterial = "mesh.empty-material";
inline constexpr std::string_view kMeshMaterialNameLength = "mesh.material-name-length";
inline constexpr std::string_view kMeshMaterialChars = "mesh.material-chars";
inline constexpr std::string_view kMeshMaterialNotBmp = "mesh.material-not-bmp";
inline constexpr std::string_view kMeshNullMaterial = "mesh.null-material";
inline constexpr std::string_view kMeshMaterialChrome = "mesh.material-chrome";
inline constexpr std::string_view kMeshVertexLimit = "mesh.vertex-limit";
inline constexpr std::string_view kMeshVertexSplit = "mesh.vertex-split";
inline constexpr std::string_view kMeshNormalLimit = "mesh.normal-limit";
inline constexpr std::string_view kMeshTriangleLimit = "mesh.triangle-limit";
inline constexpr std::string_view kMeshMaterialLimit = "mesh.material-limit";
inline constexpr std::string_view kMeshUniqueVertices = "mesh.unique-vertices";
inline constexpr std::string_view kMeshDuplicateTriangle = "mesh.duplicate-triangle";
inline constexpr std::string_view kFlexUnsupported = "flex.unsupported";
inline constexpr std::string_view kFlexFrameSync = "flex.frame-sync";
inline constexpr std::string_view kFlexVertexIdOutOfRange = "flex.vertex-id-out-of-range";
inline constexpr std::string_view kFlexFirstShapeIncomplete = "flex.first-shape-incomplete";
inline constexpr std::string_view kFlexUnmatchedVertices = "flex.unmatched-vertices";
inline constexpr std::string_view kFlexVertexLimit = "flex.vertex-limit";
inline constexpr std::string_view kFlexMultiBoneVertex = "flex.multi-bone-vertex";
inline constexpr std::string_view kFlexEmptyShape = "flex.empty-shape";
inline constexpr std::string_view kFlexShapeName = "flex.shape-name";
inline constexpr std::string_view kXrefAnimBoneMissing = "xref.anim-bone-missing";
inline constexpr std::string_view kXrefRefBoneMissing = "xref.ref-bone-missing";
inline constexpr std::string_view kXrefParentMismatch = "xref.parent-mismatch";
inline constexpr std::string_view kXrefRestPoseDiffers = "xref.rest-pose-differs";
inline constexpr std::string_view kXrefBlendMismatch = "xref.blend-mismatch";
inline constexpr std::string_view kXrefVtaVertexCount = "xref.vta-vertex-count";
inline constexpr std::string_view kCodRootCount = "cod.root-count";
inline constexpr std::string_view kCodBoneMatrix = "cod.bone-matrix";
inline constexpr std::string_view kCodIndexRange = "cod.index-range";
inline constexpr std::string_view kCodCountMismatch = "cod.count-mismatch";
inline constexpr std::string_view kCodNonUnitScale = "cod.non-unit-scale";
inline constexpr std::string_view kCodPartNotInModel = "cod.part-not-in-model";
inline constexpr std::string_view kCodFrameGaps = "cod.frame-gaps";
inline constexpr std::string_view kCodNotetrackRange = "cod.notetrack-range";
inline constexpr std::string_view kCodNtexportMismatch = "cod.ntexport-mismatch";
inline constexpr std::string_view kCodFramerate = "cod.framerate";
inline constexpr std::string_view kCodColorRange = "cod.color-range";
inline constexpr std::string_view kSyntaxExtMismatch = "syntax.ext-mismatch";
inline constexpr std::string_view kSyntaxUnterminatedString = "syntax.unterminated-string";
inline constexpr std::string_view kSyntaxSmdxLegacy = "syntax.smdx-legacy";
inline constexpr std::string_view kSyntaxSmdxNonMinimal = "syntax.smdx-non-minimal";
inline constexpr std::string_view kSyntaxBinCorrupt = "syntax.bin-corrupt";
inline constexpr std::string_view kSyntaxBinMisaligned = "syntax.bin-misaligned";
inline constexpr std::string_view kSkeletonNegativeId = "skeleton.negative-id";
inline constexpr std::string_view kFlexHasTriangles = "flex.has-triangles";
inline constexpr std::string_view kFlexFrameCountMismatch = "flex.frame-count-mismatch";
inline constexpr std::string_view kCodUnsupported = "cod.unsupported";
inline constexpr std::string_view kCodVersionFeature = "cod.version-feature";
inline constexpr std::string_view kCodDuplicateIndex = "cod.duplicate-index";
inline constexpr std::string_view kCodCornerIncomplete = "cod.corner-incomplete";
inline constexpr std::string_view kCodUvCount = "cod.uv-count";
inline constexpr std::string_view kCodFractionalFrame = "cod.fractional-frame";
inline constexpr std::string_view kWriteQuantiseClamp = "write.quantise-clamp";
inline constexpr std::string_view kWriteNonFinite = "write.non-finite";
inline constexpr std::string_view kWriteBadName = "write.bad-name";
inline constexpr std::string_view kWriteVersionDropped = "write.version-dropped";
// ---- material.* (issue 18) ----
inline constexpr std::string_view kMaterialMissing = "material.missing";
inline constexpr std::string_view kMaterialTextureMissing = "material.texture-missing";
inline constexpr std::string_view kMaterialVmtSyntax = "material.vmt-syntax";
inline constexpr std::string_view kMaterialTextureSize = "material.texture-size";
// ---- io.* (issue 15) ----
inline constexpr std::string_view kIoUnreadable = "io.unreadable";
inline constexpr std::string_view kIoLfsPointer = "io.lfs-pointer";
// ---- dmx.* (issue 19) ----
inline constexpr std::string_view kDmxSyntax = "dmx.syntax";
inline constexpr std::string_view kDmxBadReference = "dmx.bad-reference";
inline constexpr std::string_view kDmxAttributeType = "dmx.attribute-type";
inline constexpr std::string_view kDmxMissingAttribute = "dmx.missing-attribute";
inline constexpr std::string_view kDmxFaceIndex = "dmx.face-index";
inline constexpr std::string_view kDmxEncodingUnsupported = "dmx.encoding-unsupported";
inline constexpr std::string_view kDmxWriteLoss = "dmx.write-loss";
// ---- syntax.truncated, write.data-dropped (issue 15) ----
inline constexpr std::string_view kSyntaxTruncated = "syntax.truncated";
inline constexpr std::string_view kWriteDataDropped = "write.data-dropped";

// ---- qc.* (issue 17) ----
inline constexpr std::string_view kQcMissingFile = "qc.missing-file";
inline constexpr std::string_view kQcCaseMismatch = "qc.case-mismatch";
inline constexpr std::string_view kQcMissingTexture = "qc.missing-texture";
inline constexpr std::string_view kQcUnknownCommand = "qc.unknown-command";
inline constexpr std::string_view kQcUnknownBone = "qc.unknown-bone";
inline constexpr std::string_view kQcIgnoredBone = "qc.ignored-bone";
inline constexpr std::string_view kQcCaseVariantBone = "qc.case-variant-bone";
inline constexpr std::string_view kQcTexturegroupRows = "qc.texturegroup-rows";
inline constexpr std::string_view kQcSkinMaterialUnused = "qc.skin-material-unused";
inline constexpr std::string_view kQcDuplicateName = "qc.duplicate-name";
inline constexpr std::string_view kQcIncludeCycle = "qc.include-cycle";
inline constexpr std::string_view kQcUndefinedMacro = "qc.undefined-macro";
inline constexpr std::string_view kQcUndefinedVariable = "qc.undefined-variable";
inline constexpr std::string_view kQcBodygroupLimit = "qc.bodygroup-limit";
inline constexpr std::string_view kQcSequenceLimit = "qc.sequence-limit";
inline constexpr std::string_view kQcLodUnknownModel = "qc.lod-unknown-model";
inline constexpr std::string_view kQcLimit = "qc.limit";
inline constexpr std::string_view kQcSyntax = "qc.syntax";
inline constexpr std::string_view kQcIncludeModel = "qc.includemodel";
inline constexpr std::string_view kQcUnreadFile = "qc.unread-file";

// ---- compiled.* (issue 29) ----
inline constexpr std::string_view kCompiledCorrupt = "compiled.corrupt";
inline constexpr std::string_view kCompiledBadVersion = "compiled.bad-version";
inline constexpr std::string_view kCompiledChecksumMismatch = "compiled.checksum-mismatch";
inline constexpr std::string_view kCompiledMissingCompanion = "compiled.missing-companion";
inline constexpr std::string_view kCompiledUnreadCompanion = "compiled.unread-companion";
inline constexpr std::string_view kJiggleUnknownParameter = "jiggle.unknown-parameter";
inline constexpr std::string_view kJiggleClamped = "jiggle.clamped";
inline constexpr std::string_view kJiggleNoKind = "jiggle.no-kind";
inline constexpr std::string_view kJiggleConflictingKinds = "jiggle.conflicting-kinds";
inline constexpr std::string_view kJiggleZeroLength = "jiggle.zero-length";
inline constexpr std::string_view kJiggleMinAboveMax = "jiggle.min-above-max";
inline constexpr std::string_view kJiggleWideConstraint = "jiggle.wide-constraint";
inline constexpr std::string_view kJiggleDroppedBone = "jiggle.dropped-bone";
inline constexpr std::string_view kJiggleMovesNothing = "jiggle.moves-nothing";
inline constexpr std::string_view kFlexUnknownShape = "flex.unknown-shape";
inline constexpr std::string_view kFlexUnknownController = "flex.unknown-controller";
inline constexpr std::string_view kFlexRuleSyntax = "flex.rule-syntax";
inline constexpr std::string_view kFlexRuleMisread = "flex.rule-misread";
inline constexpr std::string_view kFlexEyelidRange = "flex.eyelid-range";
inline constexpr std::string_view kFlexControllerLimit = "flex.controller-limit";
inline constexpr std::string_view kFlexControllerRange = "flex.controller-range";
inline constexpr std::string_view kFlexControllerUnused = "flex.controller-unused";
inline constexpr std::string_view kFlexShapeUnreached = "flex.shape-unreached";
inline constexpr std::string_view kFlexCorrectiveMissingPart = "flex.corrective-missing-part";

// ---- phys.* (issue 31) ----
inline constexpr std::string_view kPhysCostlyCollision = "phys.costly-collision";
inline constexpr std::string_view kPhysTooManySolids = "phys.too-many-solids";
inline constexpr std::string_view kPhysNotConcave = "phys.not-concave";
inline constexpr std::string_view kPhysFlatPiece = "phys.flat-piece";
inline constexpr std::string_view kPhysVertexMultipleBones = "phys.vertex-multiple-bones";
inline constexpr std::string_view kPhysVertexUnknownBone = "phys.vertex-unknown-bone";
inline constexpr std::string_view kPhysConstraintNoSolid = "phys.constraint-no-solid";
inline constexpr std::string_view kPhysConstraintRange = "phys.constraint-range";
inline constexpr std::string_view kPhysMassRange = "phys.mass-range";
inline constexpr std::string_view kPhysMeshLarger = "phys.mesh-larger";
inline constexpr std::string_view kPhysUnknownOption = "phys.unknown-option";
inline constexpr std::string_view kPhysRagdollUnstable = "phys.ragdoll-unstable";

} // namespace rigscope::core::ids

namespace rigscope::core {

enum class CatalogSeverity : unsigned char { Off, Note, Warning, Error };

// One row of the check catalog: default severity per profile (goldsrc, source, source256, cod)
// and the "fires when" text (SARIF shortDescription).
struct CatalogEntry {
    std::string_view id;
    CatalogSeverity severity[4];
    std::string_view firesWhen;
};

std::span<const CatalogEntry> diagnosticCatalog() noexcept;
const CatalogEntry* findCatalogEntry(std::string_view id) noexcept;

} // namespace rigscope::core
