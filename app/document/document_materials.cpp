#include "app/document/document_materials.h"

#include <cstring>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>

#include "core/formats/mdl/compiled_model.h"
#include "core/ops/qc_ops.h"

namespace rigscope::app {

namespace {

// An Afterburner model's texture kept on disk: its record names a file under the game's
// textures/ folder ("mdl/rBench.png"), the game folder being one that holds the model's folder
// (game/models/X.mdl: game/textures/mdl/rBench.png). Empty when none holds it.
QString diskTexture(const QString& modelPath, const std::string& name)
{
    QDir dir = QFileInfo(modelPath).absoluteDir();
    for (int up = 0; up < 8; ++up) {
        const QString found =
            render::findTexture(name, {}, {dir.filePath(QStringLiteral("textures"))});
        if (!found.isEmpty()) {
            return found;
        }
        if (!dir.cdUp()) {
            break;
        }
    }
    return {};
}

// A GoldSrc model's own 8-bit textures (in the .mdl or its T.mdl), registered for the viewer;
// an Afterburner model's PNG files found on disk.
void addEmbeddedTextures(render::MaterialSources& s, const QString& modelPath,
                         const core::CompiledModelInfo& c)
{
    for (const core::CompiledTexture& t : c.textures) {
        if (c.variant == "afterburner" && t.indices.empty()) {
            if (const QString path = diskTexture(modelPath, t.name); !path.isEmpty()) {
                s.embedded.push_back({t.name, path, t.flags});
            }
            continue;
        }
        const auto pixels = std::size_t(t.width) * std::size_t(t.height);
        if (t.width <= 0 || t.height <= 0 || t.indices.size() < pixels || t.palette.size() < 768) {
            continue;
        }
        QImage image(t.width, t.height, QImage::Format_Indexed8);
        QList<QRgb> colors(256);
        for (int i = 0; i < 256; ++i) {
            colors[i] = qRgb(t.palette[std::size_t(i) * 3], t.palette[std::size_t(i) * 3 + 1],
                             t.palette[std::size_t(i) * 3 + 2]);
        }
        image.setColorTable(colors);
        for (int y = 0; y < t.height; ++y) {
            std::memcpy(image.scanLine(y), t.indices.data() + std::size_t(y) * std::size_t(t.width),
                        std::size_t(t.width));
        }
        const QString name = QString::fromStdString(t.name);
        s.embedded.push_back(
            {t.name, render::registerEmbeddedTexture(modelPath, name, image), t.flags});
    }
}

} // namespace

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
    const bool source = !core::goldSrcFamily(profile) && profile != core::Profile::Cod;
    render::MaterialSources s =
        render::materialSourcesFor(p->path, roots, qc || p->compiled ? &cds : nullptr, source);
    if (qc) {
        render::addQcTextureSettings(s, qc->project, qc->textures);
    }
    if (p->compiled) {
        addEmbeddedTextures(s, p->path, *p->compiled);
    }
    return s;
}

} // namespace rigscope::app
