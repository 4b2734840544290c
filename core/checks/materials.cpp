#include "core/checks/materials.h"

#include <algorithm>
#include <set>

#include "core/diag/diagnostic_ids.h"

namespace rigscope::core {

std::uint32_t maxTextureSide(Profile profile) noexcept
{
    return profile == Profile::Source256 ? 8192 : 4096;
}

bool sourceMaterialLookup(const MaterialQuery& query, Profile profile) noexcept
{
    return !query.roots.empty() && (profile == Profile::Source || profile == Profile::Source256 ||
                                    profile == Profile::Auto);
}

std::vector<MaterialStatus> runMaterialChecks(const Model& model, const MaterialQuery& query,
                                              Profile profile, DiagnosticSink& sink,
                                              const std::vector<std::string>& extraNames)
{
    std::vector<MaterialStatus> out;
    if (!sourceMaterialLookup(query, profile)) {
        return out;
    }
    MaterialResolver resolver(query, maxTextureSide(profile));
    std::set<std::string> seenNames;
    std::set<std::string> seenVmts;
    struct Use {
        std::string name;
        SourceLoc where;
        std::int32_t material = -1;
    };
    std::vector<Use> uses;
    for (std::size_t i = 0; i < model.mesh.materials.size(); ++i) {
        const Material& m = model.mesh.materials[i];
        uses.push_back({m.name, m.where, std::int32_t(i)});
    }
    for (const std::string& n : extraNames) {
        uses.push_back({n, {}, -1});
    }
    for (const Use& use : uses) {
        MaterialStatus st = resolver.resolve(use.name);
        if (st.key.empty() || !seenNames.insert(st.key).second) {
            continue;
        }
        if (!st.found) {
            const std::size_t roots = query.roots.size();
            std::string message = "material '" + use.name + "' has no VMT: ";
            if (query.fromQc) {
                message += "searched " + std::to_string(st.searched.size()) + " path" +
                           (st.searched.size() == 1 ? "" : "s") + " ($cdmaterials x roots)";
            } else {
                message += "no " + st.key + ".vmt under materials/ of " + std::to_string(roots) +
                           (roots == 1 ? " root" : " roots") + " (no QC: by name alone)";
            }
            Diagnostic& d = sink.warning(ids::kMaterialMissing, use.where, std::move(message),
                                         {ElementRef::Kind::Material, use.material});
            for (const std::string& s : st.searched) {
                d.related.push_back({s, {}, "searched"});
            }
        } else if (seenVmts.insert(st.vmtPath).second) {
            for (Diagnostic& d : st.diagnostics) {
                sink.diagnostics().push_back(d);
            }
        }
        out.push_back(std::move(st));
    }
    return out;
}

} // namespace rigscope::core
