#include "core/ops/compiled_report.h"

#include "core/ops/info.h"
#include "core/text/numbers.h"

namespace rigscope::core {

namespace {

std::string boneName(const CompiledModelInfo& c, std::int32_t bone)
{
    return bone >= 0 && static_cast<std::size_t>(bone) < c.bones.size()
               ? c.bones[static_cast<std::size_t>(bone)].name
               : std::string();
}

void writeVec(JsonWriter& w, const Vec3& v)
{
    w.beginArray().value(v.x()).value(v.y()).value(v.z()).endArray();
}

} // namespace

std::int64_t defaultBodyTriangles(const CompiledModelInfo& c)
{
    std::int64_t n = 0;
    for (const CompiledBodypart& bp : c.bodyparts) {
        if (!bp.models.empty()) {
            n += bp.models.front().triangles;
        }
    }
    return n;
}

void writeCompiledJson(JsonWriter& w, const CompiledModelInfo& c)
{
    w.key("engine").value(c.engine);
    if (!c.variant.empty()) {
        w.key("variant").value(c.variant); // "afterburner": magic 'AFTB'
    }
    w.key("checksum").value(c.checksum);
    w.key("modelName").value(c.name);
    w.key("companions").beginObject();
    w.key("vvd").value(c.hasVvd).key("vtx").value(c.hasVtx).endObject();
    w.key("boneNames").beginArray();
    for (const CompiledBone& b : c.bones) {
        w.value(b.name);
    }
    w.endArray();
    // The same keys `info X.qc --json` gives for the $jigglebone commands (docs/jiggle.md).
    w.key("jiggleBones").beginArray();
    for (const CompiledBone& b : c.bones) {
        if (b.jiggle) {
            w.beginObject().key("bone").value(b.name).key("kinds").beginArray();
            for (const std::string& k : b.jiggle->kinds()) {
                w.value(k);
            }
            w.endArray().key("length").value(b.jiggle->length).endObject();
        }
    }
    w.endArray();
    w.key("lods").value(c.lods);
    w.key("bodyparts").beginArray();
    for (const CompiledBodypart& bp : c.bodyparts) {
        w.beginObject().key("name").value(bp.name).key("models").beginArray();
        for (const CompiledSubModel& m : bp.models) {
            w.beginObject();
            w.key("name").value(m.name);
            w.key("vertices").value(m.vertices);
            w.key("lodVertices").beginArray();
            for (const std::int32_t v : m.lodVertices) {
                w.value(v);
            }
            w.endArray();
            w.key("triangles").value(m.triangles);
            w.key("lodTriangles").beginArray();
            for (const std::int32_t t : m.lodTriangles) {
                w.value(t);
            }
            w.endArray();
            w.key("eyeballs").value(static_cast<std::uint64_t>(m.eyeballs.size()));
            w.endObject();
        }
        w.endArray().endObject();
    }
    w.endArray();
    w.key("defaultBodyTriangles").value(defaultBodyTriangles(c));
    w.key("materialNames").beginArray();
    for (const CompiledTexture& t : c.textures) {
        w.value(t.name);
    }
    w.endArray();
    w.key("cdmaterials").beginArray();
    for (const std::string& d : c.cdMaterials) {
        w.value(d);
    }
    w.endArray();
    w.key("skins").beginArray();
    for (const std::vector<std::string>& family : c.skinMaterialNames()) {
        w.beginArray();
        for (const std::string& m : family) {
            w.value(m);
        }
        w.endArray();
    }
    w.endArray();
    w.key("sequences").beginArray();
    for (std::size_t i = 0; i < c.sequences.size(); ++i) {
        const CompiledSequence& s = c.sequences[i];
        w.beginObject();
        w.key("name").value(s.name);
        w.key("activity").value(s.activityName);
        w.key("frames").value(s.frames);
        w.key("fps").value(s.fps);
        w.key("looping").value(s.looping);
        w.key("delta").value(s.delta);
        w.key("events").value(static_cast<std::uint64_t>(s.events.size()));
        w.key("decoded").value(i < c.sequenceAnimation.size() && c.sequenceAnimation[i] >= 0);
        w.endObject();
    }
    w.endArray();
    w.key("attachments").beginArray();
    for (const CompiledAttachment& a : c.attachments) {
        w.beginObject().key("name").value(a.name).key("bone").value(boneName(c, a.bone));
        w.endObject();
    }
    w.endArray();
    w.key("hitboxes").value(static_cast<std::uint64_t>(c.hitboxCount()));
    w.key("hitboxSets").beginArray();
    for (const CompiledHitboxSet& set : c.hitboxSets) {
        w.beginObject().key("name").value(set.name).key("boxes").beginArray();
        for (const CompiledHitbox& h : set.boxes) {
            w.beginObject();
            w.key("bone").value(boneName(c, h.bone));
            w.key("group").value(h.group);
            w.key("min");
            writeVec(w, h.min);
            w.key("max");
            writeVec(w, h.max);
            w.endObject();
        }
        w.endArray().endObject();
    }
    w.endArray();
    w.key("poseParameters").beginArray();
    for (const CompiledPoseParameter& p : c.poseParameters) {
        w.beginObject().key("name").value(p.name).key("start").value(p.start);
        w.key("end").value(p.end).endObject();
    }
    w.endArray();
    w.key("flexControllers").beginArray();
    for (const CompiledFlexController& f : c.flexControllers) {
        w.beginObject().key("name").value(f.name).key("type").value(f.type);
        w.key("min").value(f.min).key("max").value(f.max).endObject();
    }
    w.endArray();
    w.key("includeModels").beginArray();
    for (const CompiledIncludeModel& m : c.includeModels) {
        w.value(m.name);
    }
    w.endArray();
    if (c.physics.present) {
        const CompiledPhysics& ph = c.physics;
        w.key("physics").beginObject();
        w.key("solids").value(static_cast<std::uint64_t>(ph.solids.size()));
        w.key("convexPieces").value(static_cast<std::uint64_t>(ph.convexPieces()));
        w.key("mass").value(ph.mass());
        w.key("constraints").value(static_cast<std::uint64_t>(ph.constraints.size()));
        w.key("bodies").beginArray();
        for (const CompiledPhysicsSolid& s : ph.solids) {
            w.beginObject().key("name").value(s.name).key("pieces");
            w.value(static_cast<std::uint64_t>(s.pieces.size())).key("mass").value(s.mass);
            w.key("surfaceProp").value(s.surfaceProp).endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.key("illumPosition");
    writeVec(w, c.illumPosition);
    w.key("hull").beginObject().key("min");
    writeVec(w, c.hullMin);
    w.key("max");
    writeVec(w, c.hullMax);
    w.endObject();
}

std::string compiledText(const CompiledModelInfo& c, bool verbose)
{
    std::string o;
    auto line = [&o](const std::string& k, const std::string& v) {
        o += "  " + k;
        o.append(k.size() < 12 ? 12 - k.size() : 1, ' ');
        o += v + "\n";
    };
    line("compiled", c.engine + " v" + std::to_string(c.version) +
                         (c.variant == "afterburner" ? " (Afterburner, magic 'AFTB')" : "") +
                         " \"" + c.name + "\"" +
                         (c.engine == "source" ? std::string(c.hasVvd ? ", .vvd" : ", no .vvd") +
                                                     (c.hasVtx ? ", .vtx" : ", no .vtx")
                                               : std::string()));
    std::string parts;
    for (const CompiledBodypart& bp : c.bodyparts) {
        parts += (parts.empty() ? "" : "; ") + bp.name + " (";
        for (std::size_t i = 0; i < bp.models.size(); ++i) {
            const CompiledSubModel& m = bp.models[i];
            parts += (i ? ", " : "") + (m.name.empty() ? std::string("blank") : m.name) + " " +
                     std::to_string(m.vertices) + "v/" + std::to_string(m.triangles) + "t";
        }
        parts += ")";
    }
    line("bodyparts", std::to_string(c.bodyparts.size()) + (parts.empty() ? "" : ": " + parts));
    line("lods", std::to_string(c.lods));
    line("skins", std::to_string(c.skins.size()) + " famil" + (c.skins.size() == 1 ? "y" : "ies") +
                      " of " + std::to_string(c.skinReferences));
    std::size_t decoded = 0;
    for (const std::int32_t a : c.sequenceAnimation) {
        decoded += a >= 0 ? 1 : 0;
    }
    line("sequences",
         std::to_string(c.sequences.size()) + " (" + std::to_string(decoded) + " decoded)");
    if (verbose) {
        for (const CompiledSequence& s : c.sequences) {
            std::string fps;
            appendFloat(fps, s.fps);
            o += "    " + s.name + (s.activityName.empty() ? "" : " [" + s.activityName + "]") +
                 ": " + std::to_string(s.frames) + " frames at " + fps + " fps" +
                 (s.looping ? ", loop" : "") + (s.delta ? ", delta" : "") + "\n";
        }
    }
    line("attachments", std::to_string(c.attachments.size()));
    if (verbose) {
        for (const CompiledAttachment& a : c.attachments) {
            o += "    " + a.name + " on " + boneName(c, a.bone) + "\n";
        }
    }
    line("hitboxes", std::to_string(c.hitboxCount()) + " in " +
                         std::to_string(c.hitboxSets.size()) + " set" +
                         (c.hitboxSets.size() == 1 ? "" : "s"));
    if (verbose) {
        for (const CompiledHitboxSet& set : c.hitboxSets) {
            for (const CompiledHitbox& h : set.boxes) {
                o += "    " + set.name + ": " + boneName(c, h.bone) + " group " +
                     std::to_string(h.group) + " " + vecText(h.min) + " .. " + vecText(h.max) +
                     "\n";
            }
        }
    }
    if (c.physics.present) {
        std::string mass;
        appendFloat(mass, c.physics.mass());
        line("physics", std::to_string(c.physics.solids.size()) + " solid" +
                            (c.physics.solids.size() == 1 ? "" : "s") + ", " +
                            std::to_string(c.physics.convexPieces()) + " convex pieces, " + mass +
                            " kg");
    }
    if (!c.poseParameters.empty()) {
        line("pose params", std::to_string(c.poseParameters.size()));
    }
    if (!c.flexControllers.empty()) {
        line("flex ctrls", std::to_string(c.flexControllers.size()));
    }
    if (!c.includeModels.empty()) {
        std::string inc;
        for (const CompiledIncludeModel& m : c.includeModels) {
            inc += (inc.empty() ? "" : ", ") + m.name;
        }
        line("includes", inc);
    }
    return o;
}

} // namespace rigscope::core
