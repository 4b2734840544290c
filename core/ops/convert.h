#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/formats/registry.h"
#include "core/pose/pose_types.h"

namespace rigscope::core {

// `rigscope-cli convert` (UX.md): read by content, write the format the output extension names,
// atomically, never over the input, never over an existing file unless forced.
struct ConvertResult {
    int exitCode = 0; // 0 ok, 1 errors in the input or lossy failure, 2 usage / I/O
    bool written = false;
    std::string error;                     // usage / I/O message (exit 2)
    std::string inputFormat, outputFormat; // FormatInfo ids
    std::vector<Diagnostic> diagnostics;   // reader, conversion (loss notes) and writer, in order
};

// `rigscope-cli convert` options (UX.md "Command line").
struct ConvertOptions {
    bool force = false;
    std::string toFormat; // --to: a FormatInfo id or extension; empty = OUT's extension
    Profile profile =
        Profile::Auto; // grades the reader's diagnostics; `compiled` weights follow it
    // --frames=A:B: keep the frames the file numbers A..B (inclusive, the file's own numbers,
    // never re-based); an open end keeps the rest.
    bool hasFrames = false;
    std::optional<double> firstFrame, lastFrame;
    WeightView weights = WeightView::Authored; // compiled: bake what the compiler will see
    std::string forceReader; // --force-reader: a FormatInfo id; empty = by content
    // --flex=VTA (DMX output only, convertFile): the VTA's shapes matched onto the input's
    // corners as studiomdl matches them (core/build/flex_match.h), written as delta states.
    std::string flexPath;
};

// Replaces `reference`'s flex shapes with `vta`'s, matched onto its corners (flex_match.h);
// match diagnostics (xref.vta-vertex-count, flex.unmatched-vertices) go to `sink`, whose file
// should be the VTA. Returns the number of shapes.
std::size_t mergeVtaShapes(Model& reference, const Model& vta, DiagnosticSink& sink);

// Output extensions convert can write: smd vta smdx xmodel_export xanim_export xmodel_bin
// xanim_bin nt_export. `toFormat` (a FormatInfo id or extension) overrides the extension.
ConvertResult convertFile(const std::string& inPath, const std::string& outPath, bool force,
                          const std::string& toFormat = {});
ConvertResult convertFile(const std::string& inPath, const std::string& outPath,
                          const ConvertOptions& options);
// The same on bytes already read (no file I/O); `outName` picks the writer.
ConvertResult convertModel(const ReadResult& in, const std::string& inName,
                           const std::string& outName, const std::string& toFormat,
                           std::string& bytes);
ConvertResult convertModel(const ReadResult& in, const std::string& inName,
                           const std::string& outName, const ConvertOptions& options,
                           std::string& bytes);

// CoD (model-space OFFSET + X/Y/Z columns, VERT pool, clockwise, v down) to the SMD family
// (parent-relative position + Euler XYZ of core/model/rotation.h, point i == corner i,
// counter-clockwise, v up). Local = parent^-1 * model. Notes what SMD cannot carry: scale, vertex
// colours, extra UV sets, shading parameters, objects, notetracks. Models already in the SMD
// family are returned unchanged.
Model toSmdFamily(const Model& m, DiagnosticSink& sink);
// The reverse, for SMD -> XMODEL / XANIM: model-space bones (model = parent * local), pool =
// the SMD points, winding and V flipped back. `animation` makes animations[0] an XANIM (parts =
// bones, model-space keys); otherwise the model is a reference with its bind pose only.
Model toCodFamily(const Model& m, bool animation, DiagnosticSink& sink);

// The Euler convention and its conversions: core/model/rotation.h.

} // namespace rigscope::core
