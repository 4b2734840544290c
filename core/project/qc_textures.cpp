#include "core/project/qc_textures.h"

#include <set>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/qc/qc_diagnostic.h"
#include "core/io/file_buffer.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

std::string qcFolder(const QcProject& project)
{
    std::string d = directoryOf(project.file);
    return d == "." ? std::string() : d;
}

// The compiler loads the name's image type (Grab_Skin: .bmp, else "unknown graphics type";
// abstudiomdl: .bmp and .png, else "Unsupported graphics format").
bool loadable(const std::string& name, Profile p)
{
    return asciiIEndsWith(name, ".bmp") ||
           (p == Profile::Afterburner && asciiIEndsWith(name, ".png"));
}

std::string shown(const std::string& folder)
{
    return folder.empty() ? std::string(".") : folder;
}

} // namespace

std::vector<std::string> qcTextureFolders(const QcProject& project)
{
    const std::string qcDir = qcFolder(project);
    std::vector<std::string> out;
    for (const QcPath& p : project.cdTextures) {
        out.push_back(qcJoinPath(qcDir, p.path));
    }
    if (!out.empty()) {
        return out;
    }
    for (auto it = project.commands.rbegin(); it != project.commands.rend(); ++it) {
        if (it->name == "cd" && !it->args.empty()) {
            out.push_back(qcJoinPath(qcDir, it->args.front()));
            break;
        }
    }
    if (out.empty() || out.front() != qcDir) {
        out.push_back(qcDir);
    }
    return out;
}

std::string findQcTexture(const std::string& name, const std::vector<std::string>& folders,
                          QcFileSystem& fs, bool& caseMismatch)
{
    caseMismatch = false;
    std::string fallback;
    for (const std::string& folder : folders) {
        bool cm = false;
        std::string found = fs.find(folder, name, cm);
        if (found.empty()) {
            continue;
        }
        if (!cm) {
            return found;
        }
        if (fallback.empty()) {
            fallback = std::move(found);
        }
    }
    caseMismatch = !fallback.empty();
    return fallback;
}

std::vector<QcTexture> lookUpQcTextures(const QcProject& project, const QcCompiled& compiled,
                                        QcFileSystem& fs, std::vector<Diagnostic>& diagnostics)
{
    std::vector<QcTexture> out;
    const Profile profile = project.profile;
    if (!goldSrcStudiomdl(profile)) {
        return out;
    }
    const std::vector<std::string> folders = qcTextureFolders(project);
    std::set<std::string> seen;
    auto add = [&](const std::string& name, const QcWhere& at) {
        if (name.empty() || !seen.insert(asciiLower(name)).second || !loadable(name, profile)) {
            return;
        }
        QcTexture t;
        t.name = name;
        t.at = at;
        t.resolved = findQcTexture(name, folders, fs, t.caseMismatch);
        if (t.resolved.empty()) {
            std::string where;
            for (std::size_t i = 0; i < folders.size(); ++i) {
                where += (i == 0 ? "" : (i + 1 == folders.size() ? " and " : ", ")) +
                         std::string("'") + shown(folders[i]) + "'";
            }
            const bool cdTexture = !project.cdTextures.empty();
            Diagnostic d = diagnosticAt(
                Severity::Error, ids::kQcMissingTexture, at,
                "texture '" + name + "' is not found in " + where +
                    (cdTexture ? " ($cdtexture); studiomdl stops (\"not found\")"
                               : " (no $cdtexture: the $cd folder); studiomdl cannot read it"));
            for (const std::string& f : folders) {
                d.related.push_back({qcJoinPath(f, name), {}, "searched"});
            }
            diagnostics.push_back(std::move(d));
        }
        out.push_back(std::move(t));
    };
    // Body files in the order the QC names them (Grab_Triangles), then the skins' names
    // (Cmd_TextureGroup, which must follow the bodies).
    for (const QcBodygroup& g : project.bodygroups) {
        for (const QcBodyChoice& c : g.choices) {
            if (c.blank || c.fileRef < 0 ||
                static_cast<std::size_t>(c.fileRef) >= compiled.fileRead.size()) {
                continue;
            }
            const std::int32_t k = compiled.fileRead[static_cast<std::size_t>(c.fileRef)];
            if (k < 0 || static_cast<std::size_t>(k) >= compiled.reads.size()) {
                continue;
            }
            const QcCompiled::FileRead& fr = compiled.reads[static_cast<std::size_t>(k)];
            if (!fr.result.hasModel) {
                continue;
            }
            for (const Material& m : fr.result.model.mesh.materials) {
                add(m.name, {fr.path, m.where});
            }
        }
    }
    for (const QcTextureGroup& g : project.textureGroups) {
        for (std::size_t row = 0; row < g.rows.size(); ++row) {
            const QcWhere& at = row < g.rowAt.size() ? g.rowAt[row] : g.at;
            for (const std::string& name : g.rows[row]) {
                add(name, at);
            }
        }
    }
    return out;
}

} // namespace rigscope::core
