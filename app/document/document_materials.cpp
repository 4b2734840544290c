#include "app/document/document_materials.h"

#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

render::MaterialSources documentMaterialSources(const LoadedFile* p, const QStringList& roots,
                                                core::Profile profile)
{
    if (!p) {
        return {};
    }
    std::vector<std::string> cds;
    const core::QcReport* qc = p->qc.get();
    if (qc) {
        cds = core::qcMaterialFolders(*qc);
    } else if (p->compiled) { // a compiled model's $cdmaterials, as the engine looks them up
        cds = p->compiled->cdMaterials;
    }
    const bool source = profile != core::Profile::GoldSrc && profile != core::Profile::Cod;
    render::MaterialSources s =
        render::materialSourcesFor(p->path, roots, qc || p->compiled ? &cds : nullptr, source);
    if (qc) {
        render::addQcTextureSettings(s, p->path, qc->project);
    }
    return s;
}

} // namespace rigscope::app
