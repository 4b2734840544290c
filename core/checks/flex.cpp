// flex.* checks on one VTA (CHECKS.md §4.5); the ones that need the reference are in xref.cpp.
#include <unordered_map>

#include "core/checks/check_util.h"
#include "core/checks/checks.h"

namespace rigscope::core::checks {

void checkFlexUnsupported(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    // vbmcompiler reads a body's VTA (`$body NAME FILE flex VTA`) into the .vbm (vtaparser.cpp).
    if (p != Profile::Pathos && (m.kind == ModelKind::Flex || !m.vertexFrames.empty())) {
        sink.error(ids::kFlexUnsupported, {1, 1, 0}, "GoldSrc studiomdl has no flex support");
    }
}

void checkFlexEmptyShape(const Model& m, const Profile&, DiagnosticSink& sink)
{
    for (std::size_t s = 0; s < m.flexShapes.size(); ++s) {
        const FlexShape& shape = m.flexShapes[s];
        bool kept = false;
        for (std::size_t i = 0; i < shape.ids.size() && !kept; ++i) {
            kept = deltaKept(shape.deltaPositions[i], shape.deltaNormals[i]);
        }
        if (!kept) {
            sink.note(ids::kFlexEmptyShape, shape.where,
                      "shape " + quoted(shape.name) + " moves nothing studiomdl keeps",
                      {K::Shape, static_cast<std::int32_t>(s)});
        }
    }
}

void checkFlexShapeName(const Model& m, const Profile& p, DiagnosticSink& sink)
{
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t k = 1; k < m.vertexFrames.size(); ++k) {
        const VertexFrame& f = m.vertexFrames[k];
        const ElementRef ref{K::Shape, static_cast<std::int32_t>(k - 1)};
        if (f.name.empty()) {
            Diagnostic& d =
                sink.note(ids::kFlexShapeName, f.where,
                          "shape " + std::to_string(k) + " has no '# name'; it shows as 'frame " +
                              std::to_string(k) + "'",
                          ref);
            grade(d, p, Severity::Note);
            continue;
        }
        if (f.name.find(' ') != std::string::npos) {
            sink.warning(ids::kFlexShapeName, f.where,
                         "shape name " + quoted(f.name) + " has a space; QC flex names break", ref);
        }
        auto [it, inserted] = seen.try_emplace(asciiLower(f.name), k);
        if (!inserted) {
            Diagnostic& d = sink.warning(ids::kFlexShapeName, f.where,
                                         "shape name " + quoted(f.name) + " repeats shape " +
                                             std::to_string(it->second),
                                         ref);
            d.related.push_back({sink.file(), m.vertexFrames[it->second].where, "first used here"});
        }
    }
}

} // namespace rigscope::core::checks
