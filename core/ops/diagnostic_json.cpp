#include "core/ops/diagnostic_json.h"

#include "core/checks/registry.h"

namespace rigscope::core {

std::string elementName(const Model& m, const ElementRef& e)
{
    using Kd = ElementRef::Kind;
    if (e.index < 0) {
        return {};
    }
    const auto i = static_cast<std::size_t>(e.index);
    switch (e.kind) {
    case Kd::Joint:
    case Kd::Part:
        return i < m.skeleton.size() ? m.skeleton.names[i] : std::string();
    case Kd::Material:
        return i < m.mesh.materials.size() ? m.mesh.materials[i].name : std::string();
    case Kd::Shape:
        return i < m.flexShapes.size() ? m.flexShapes[i].name : std::string();
    default:
        return {};
    }
}

void writeDiagnosticJson(JsonWriter& w, const Diagnostic& d, Profile profile,
                         const std::string& objectName)
{
    w.beginObject();
    w.key("file").value(d.file);
    w.key("line").value(d.binary ? 0u : (d.where.line == 0 ? 1u : d.where.line));
    w.key("col").value(d.binary ? 0u : (d.where.column == 0 ? 1u : d.where.column));
    w.key("offset");
    if (d.binary) {
        w.value(static_cast<std::uint64_t>(d.where.offset));
    } else {
        w.null();
    }
    w.key("severity").value(severityName(d.severity));
    w.key("id").value(d.id);
    w.key("message").value(d.message);
    w.key("profile").value(profileName(profile));
    w.key("object");
    if (d.element.kind == ElementRef::Kind::None) {
        w.null();
    } else {
        w.beginObject();
        w.key("kind").value(elementKindName(d.element.kind));
        w.key("index").value(d.element.index);
        w.key("name");
        if (objectName.empty()) {
            w.null();
        } else {
            w.value(objectName);
        }
        w.endObject();
    }
    w.key("fix").value(fixHint(d.id));
    w.key("related").beginArray();
    for (const RelatedNote& r : d.related) {
        w.beginObject();
        w.key("file").value(r.file);
        w.key("line").value(r.where.line == 0 ? 1u : r.where.line);
        w.key("col").value(r.where.column == 0 ? 1u : r.where.column);
        w.key("message").value(r.message);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void writeDiagnosticsJson(JsonWriter& w, const std::vector<Diagnostic>& diagnostics,
                          Profile profile, const std::vector<std::string>& objectNames)
{
    w.key("diagnostics").beginArray();
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
        if (diagnostics[i].omitted == 0) {
            writeDiagnosticJson(w, diagnostics[i], profile,
                                i < objectNames.size() ? objectNames[i] : std::string());
        }
    }
    w.endArray();
    w.key("omitted").beginArray();
    for (const Diagnostic& d : diagnostics) {
        if (d.omitted > 0) {
            w.beginObject();
            w.key("id").value(d.id);
            w.key("severity").value(severityName(d.severity));
            w.key("count").value(static_cast<std::uint64_t>(d.omitted));
            w.endObject();
        }
    }
    w.endArray();
}

} // namespace rigscope::core
