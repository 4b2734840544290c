#pragma once

// Every check function; registry.cpp lists them in its tables (one function per check).

#include "core/checks/registry.h"

namespace rigscope::core::checks {

// skeleton.cpp
void checkNoBones(const Model&, const Profile&, DiagnosticSink&);
void checkDuplicateBoneName(const Model&, const Profile&, DiagnosticSink&);
void checkBoneIdGap(const Model&, const Profile&, DiagnosticSink&);
void checkMultipleRoots(const Model&, const Profile&, DiagnosticSink&);
void checkBoneLimit(const Model&, const Profile&, DiagnosticSink&);
void checkBoneIdRange(const Model&, const Profile&, DiagnosticSink&);
void checkBoneNameLength(const Model&, const Profile&, DiagnosticSink&);
void checkUnreferencedBones(const Model&, const Profile&, DiagnosticSink&);
void checkMissingInFirstFrame(const Model&, const Profile&, DiagnosticSink&);
void checkMissingFrames(const Model&, const Profile&, DiagnosticSink&);
void checkReferenceAnimated(const Model&, const Profile&, DiagnosticSink&);
void checkFrameLimit(const Model&, const Profile&, DiagnosticSink&);

// weights.cpp
void checkWeightsSumToOne(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsNegative(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsZeroSum(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsZeroLink(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsNan(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsTooManyLinks(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsBelowCull(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsDuplicateLink(const Model&, const Profile&, DiagnosticSink&);
void checkWeightsParentMismatch(const Model&, const Profile&, DiagnosticSink&);

// mesh.cpp
void checkDegenerateTriangles(const Model&, const Profile&, DiagnosticSink&);
void checkMisdirectedNormals(const Model&, const Profile&, DiagnosticSink&);
void checkNormalLength(const Model&, const Profile&, DiagnosticSink&);
void checkMeshNan(const Model&, const Profile&, DiagnosticSink&);
void checkEmptyMaterial(const Model&, const Profile&, DiagnosticSink&);
void checkMaterialNameLength(const Model&, const Profile&, DiagnosticSink&);
void checkMaterialChars(const Model&, const Profile&, DiagnosticSink&);
void checkMaterialNotBmp(const Model&, const Profile&, DiagnosticSink&);
void checkNullMaterial(const Model&, const Profile&, DiagnosticSink&);
void checkMaterialChrome(const Model&, const Profile&, DiagnosticSink&);
void checkVertexLimit(const Model&, const Profile&, DiagnosticSink&); // + split, normals, budget
void checkTriangleLimit(const Model&, const Profile&, DiagnosticSink&);
void checkMaterialLimit(const Model&, const Profile&, DiagnosticSink&);
void checkDuplicateTriangles(const Model&, const Profile&, DiagnosticSink&);

// flex.cpp
void checkFlexUnsupported(const Model&, const Profile&, DiagnosticSink&);
void checkFlexEmptyShape(const Model&, const Profile&, DiagnosticSink&);
void checkFlexShapeName(const Model&, const Profile&, DiagnosticSink&);

// cod.cpp
void checkCodRootCount(const Model&, const Profile&, DiagnosticSink&);
void checkCodBoneMatrix(const Model&, const Profile&, DiagnosticSink&);
void checkCodNonUnitScale(const Model&, const Profile&, DiagnosticSink&);
void checkCodColorRange(const Model&, const Profile&, DiagnosticSink&);

// xref.cpp (scene checks: `self` against its reference)
void checkXrefAnimBoneMissing(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkXrefRefBoneMissing(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkXrefParentMismatch(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkXrefRestPose(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkXrefVtaVertexCount(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkFlexUnmatchedVertices(const SceneFile&, const SceneFile&, const Profile&,
                                DiagnosticSink&);
void checkFlexVertexLimit(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkFlexMultiBoneVertex(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);
void checkCodPartNotInModel(const SceneFile&, const SceneFile&, const Profile&, DiagnosticSink&);

} // namespace rigscope::core::checks
