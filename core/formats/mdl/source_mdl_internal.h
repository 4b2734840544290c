#pragma once

// Shared between the Source .mdl reader files (header walk, meshes, animations).

#include "core/diag/diagnostic.h"
#include "core/diag/diagnostic_ids.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/mdl/mdl_bytes.h"

namespace rigscope::core::mdl {

// One binary file under reading: its bytes and where its diagnostics go.
struct FileReader {
    Bytes b;
    DiagnosticSink sink;

    FileReader(std::string_view bytes, std::string name) : b(bytes), sink(std::move(name), true) {}

    void corrupt(std::int64_t at, std::string message)
    {
        sink.error(ids::kCompiledCorrupt,
                   SourceLoc{0, 0, static_cast<std::uint64_t>(at < 0 ? 0 : at)},
                   std::move(message));
    }
    // `count` records of `stride` bytes at `base + index` fit; else reports at `field`.
    bool fits(std::int64_t field, std::int64_t base, std::int64_t count, std::int64_t index,
              std::int64_t stride, std::string_view what);
    // The NUL-terminated name at `base + index` (empty when outside the file).
    std::string name(std::int64_t base, std::int64_t index) const
    {
        return index == 0 ? std::string() : b.cstr(base + index, 256);
    }
};

// The skin table (Source and GoldSrc share it): reference count, family count and offset at
// `field`, +4, +8; 16-bit texture indices below `textures` (others are reported, named `noun`,
// and read as 0).
void readSkinTable(FileReader& f, std::int64_t field, std::int64_t textures, std::string_view noun,
                   CompiledModelInfo& info);

// Source bone animation (source_mdl_anim.cpp): decodes the sequences into model.animations.
struct AnimSources {
    FileReader* mdl = nullptr;
    Bytes ani; // the .ani bytes (may be empty)
    std::string aniName;
    std::int64_t animBlockIndex = 0; // header fields
    std::int32_t animBlocks = 0;
};
void decodeSourceAnimations(AnimSources& src, CompiledReadResult& r,
                            const CompiledReadOptions& options);

// Faces and IK (source_mdl_flex.cpp): the flex rules and IK tables of the header, the meshes'
// vertex animations (after readBodyparts), and the Model's vertex frames / flex shapes made
// from them (after the mesh is built).
void readFlexRules(FileReader& f, CompiledModelInfo& info);
void readIk(FileReader& f, CompiledModelInfo& info);
void readVertexAnimations(FileReader& f, CompiledModelInfo& info);
void buildFlexShapes(const CompiledModelInfo& info, Model& model);

// Valve's float16 (no infinities: exponent 31 is the largest value) as a float.
float halfToFloat(std::uint16_t h) noexcept;

// Quaternion (x, y, z, w) -> Euler XYZ radians of R = Rz * Ry * Rx (the SMD convention), in
// double.
Vec3 quaternionToEuler(double x, double y, double z, double w) noexcept;
// The inverse: Euler XYZ radians -> quaternion (x, y, z, w).
Vec4 eulerToQuaternion(const Vec3& e) noexcept;

} // namespace rigscope::core::mdl
