#include "core/diag/limits.h"

namespace rigscope::core {

Limits limitsFor(Profile p, const Model* model) noexcept
{
    Limits l;
    switch (p) {
    case Profile::GoldSrc:
        l.bones = 127;
        l.boneNameLength = 31;
        l.weightsPerVertex = 1;
        l.uniqueVertices = 2048;
        l.uniqueNormals = 2048;
        l.triangles = 20000;
        l.materials = 100;
        l.materialNameLength = 63;
        l.framesPerAnimation = 2048;
        break;
    case Profile::Auto:
    case Profile::Source:
    case Profile::Source256:
        l.bones = p == Profile::Source256 ? 255 : 127;
        l.boneNameLength = 127;
        l.weightsPerVertex = 3;
        l.weightCull = 0.05f;
        l.uniqueVertices = 65536;
        l.vertexSplit = 21845; // reported by source256 only (catalog), on demand elsewhere
        l.triangles = 65536;
        l.materials = 32;
        l.materialNameLength = p == Profile::Source256 ? 259 : 63;
        l.framesPerAnimation = 2000;
        l.flexedVertices = 10000;
        break;
    case Profile::Afterburner:
        // abstudiomdl (docs/profiles.md "afterburner"), as its binary compares: 16,384 vertices
        // and 16,384 normals per model ("too many vertices in model", "too many normals in
        // model"), 256 textures ("too many textures in model"); the rest as GoldSrc's.
        l = limitsFor(Profile::GoldSrc, model);
        l.uniqueVertices = 16384;
        l.uniqueNormals = 16384;
        l.materials = 256;
        break;
    case Profile::Pathos:
        // vbmcompiler (Pathos), docs/profiles.md "pathos": the bone table stops at 128
        // (studiocompiler.cpp CreateBoneTable, MAXSTUDIOBONES in shared/studio.h); 4 links per
        // vertex, the first four as written, links of weight <= 0.001 dropped
        // (geometrysmdparser.cpp, compiler_types.cpp addWeightInfo, MAX_VBM_BONEWEIGHTS in
        // shared/vbmformat.h); the .mdl's own geometry stops at 2,048 vertices or normals per
        // model unless -l or -s is given (geometrysmdparser.cpp, MAXSTUDIOVERTS_REF); names
        // are cut to the v10 .mdl's fields (studiocompiler.cpp WriteBoneData, WriteTextures).
        l.bones = 127;
        l.boneNameLength = 31;
        l.weightsPerVertex = 4;
        l.weightCull = 0.001f;
        l.uniqueVertices = 2047;
        l.uniqueNormals = 2047;
        l.vertexLimitIsNote = true;
        l.materials = 100;
        l.materialNameLength = 63;
        break;
    case Profile::Cod: {
        // XMODEL v5/v6 index vertices with UShort and objects/materials with uint8; v7 widens both.
        const bool v7 = model && model->version >= 7;
        l.uniqueVertices = v7 ? 0 : 65535;
        l.materials = v7 ? 0 : 255;
        break;
    }
    }
    return l;
}

} // namespace rigscope::core
