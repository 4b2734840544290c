#include "core/ops/material_report.h"

namespace rigscope::core {

MaterialLookupReport lookUpModelMaterials(const std::string& file, const Model& model,
                                          Profile profile, const CheckOptions& opt)
{
    MaterialLookupReport r;
    r.asked = true;
    r.profile = profile;
    r.query = materialQueryFor(file, opt);
    r.sourceLookup = sourceMaterialLookup(r.query, profile);
    MaterialResolver resolver(r.query, maxTextureSide(profile));
    for (const Material& m : model.mesh.materials) {
        if (r.sourceLookup) {
            r.materials.push_back(resolver.resolve(m.name));
        } else {
            MaterialStatus st;
            st.name = m.name;
            st.key = normaliseMaterialPath(m.name);
            r.materials.push_back(std::move(st));
        }
    }
    return r;
}

std::string materialLookupText(const MaterialLookupReport& r)
{
    std::string o = "  material lookup: ";
    if (!r.sourceLookup) {
        o += r.query.roots.empty() && !goldSrcFamily(r.profile) && r.profile != Profile::Cod
                 ? "no material root (give --material-root DIR, or keep the model under a "
                   "folder with materials/ or gameinfo.txt)\n"
                 : "none under the " + std::string(profileName(r.profile)) +
                       " profile (textures are image files named by the materials)\n";
        return o;
    }
    o += std::to_string(r.query.roots.size()) + (r.query.roots.size() == 1 ? " root" : " roots");
    if (r.query.fromQc) {
        o += ", $cdmaterials";
        for (const std::string& cd : r.query.cdMaterials) {
            o += " " + cd;
        }
        if (r.query.cdMaterials.empty()) {
            o += " (none: materials/ itself)";
        }
        o += "\n";
    } else {
        o += ", no QC: by name alone\n";
    }
    for (const MaterialRoot& root : r.query.roots) {
        o += "    root " + root.path + "  (" + root.origin + ")\n";
    }
    for (const MaterialStatus& st : r.materials) {
        o += "    " + st.name + "\n";
        if (!st.found) {
            o += "      VMT           missing (the game draws the checkerboard)\n";
            for (const std::string& s : st.searched) {
                o += "      searched      " + s + "\n";
            }
            continue;
        }
        o += "      VMT           " + st.vmtPath +
             (st.byNameAlone ? "  (no QC: found by name alone)" : "") + "\n";
        if (!st.vmt.readable) {
            o += "      shader        unreadable VMT\n";
            continue;
        }
        o += "      shader        " + st.vmt.shader + "\n";
        std::string base = st.look.baseTexture.empty() ? "none" : st.look.baseTexture;
        if (!st.baseTexturePath.empty()) {
            base += "  " + st.baseTexturePath;
        } else if (st.baseTextureMissing) {
            base += "  (missing: checkerboard)";
        }
        o += "      base texture  " + base + "\n";
        if (st.baseTextureReadable) {
            o += "      texture size  " + describeTexture(st.baseTextureInfo) + "\n";
        }
    }
    return o;
}

void writeMaterialLookupJson(JsonWriter& w, const MaterialLookupReport& r)
{
    w.beginObject();
    w.key("sourceLookup").value(r.sourceLookup);
    w.key("fromQc").value(r.query.fromQc);
    w.key("cdmaterials").beginArray();
    for (const std::string& cd : r.query.cdMaterials) {
        w.value(cd);
    }
    w.endArray();
    w.key("roots").beginArray();
    for (const MaterialRoot& root : r.query.roots) {
        w.beginObject().key("path").value(root.path).key("origin").value(root.origin).endObject();
    }
    w.endArray();
    w.key("materials").beginArray();
    for (const MaterialStatus& st : r.materials) {
        w.beginObject();
        w.key("name").value(st.name);
        w.key("found").value(st.found);
        if (st.found) {
            w.key("vmt").value(st.vmtPath);
            w.key("byNameAlone").value(st.byNameAlone);
            w.key("readable").value(st.vmt.readable);
            w.key("shader").value(st.vmt.shader);
            w.key("baseTexture").value(st.look.baseTexture);
            w.key("baseTextureMissing").value(st.baseTextureMissing);
            if (st.baseTexturePath.empty()) {
                w.key("texture").null();
            } else {
                w.key("texture").beginObject().key("path").value(st.baseTexturePath);
                if (st.baseTextureReadable) {
                    const VtfInfo& i = st.baseTextureInfo;
                    w.key("width").value(i.width).key("height").value(i.height);
                    w.key("format").value(vtfFormatName(i.format));
                    w.key("version").value(std::to_string(i.versionMajor) + "." +
                                           std::to_string(i.versionMinor));
                    w.key("mips").value(i.mipCount);
                }
                w.endObject();
            }
        }
        if (r.sourceLookup) {
            w.key("searched").beginArray();
            for (const std::string& s : st.searched) {
                w.value(s);
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

} // namespace rigscope::core
