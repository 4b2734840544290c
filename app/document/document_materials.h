#pragma once

// Where a document's materials are looked up (docs/materials.md): the model's folder, the
// roots the user gave, a QC project's or a compiled model's $cdmaterials; no Source lookup
// under the goldsrc and cod profiles. The checks and the viewport use the same sources.

#include <QtCore/QStringList>

#include "app/document/loaded_file.h"
#include "render/texture_loader.h"

namespace rigscope::app {

render::MaterialSources documentMaterialSources(const LoadedFile* primary, const QStringList& roots,
                                                core::Profile profile);

} // namespace rigscope::app
