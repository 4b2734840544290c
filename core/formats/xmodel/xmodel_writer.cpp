// XMODEL_EXPORT writer (FORMATS.md §3.2, §6.3): version as stored (5/6/7, else 6), counts
// recomputed, shortest round-trip fixed floats, the stored line ending (CRLF for new files).
// The XMODEL_BIN writer (§5) writes the same records as tokens.
#include <cmath>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/cod/cod_record.h"
#include "core/formats/xbin/xbin.h"
#include "core/formats/xbin/xbin_out.h"
#include "core/formats/xmodel/xmodel.h"
#include "core/text/numbers.h"
#include "core/model/format_id.h"

namespace rigscope::core {

namespace {

bool isCodFormat(std::string_view f)
{
    return formatFamily(f) == FormatFamily::CodModel;
}

const MaterialParam kDefaultParams[] = {
    {"COLOR", {0, 0, 0, 1}},
    {"TRANSPARENCY", {0, 0, 0, 1}},
    {"AMBIENTCOLOR", {0, 0, 0, 1}},
    {"INCANDESCENCE", {0, 0, 0, 1}},
    {"COEFFS", {0.8f, 0}},
    {"GLOW", {0, 0}},
    {"REFRACTIVE", {6, 1}},
    {"SPECULARCOLOR", {-1, -1, -1, 1}},
    {"REFLECTIVECOLOR", {-1, -1, -1, 1}},
    {"REFLECTIVE", {-1, -1}},
    {"BLINN", {-1, -1}},
    {"PHONG", {-1}},
};

// The records of an XMODEL_EXPORT file (cod::TextOut) or XMODEL_BIN stream (xbin::TokenOut).
// A binary stream takes the version 7 forms (VERT32, TRI16) whenever they are needed, never
// the version 5 layout, no default material parameters and only the parameters it has tokens
// for; it returns how many it left out.
template <class Out> std::size_t writeRecords(Out& o, const Model& m, int version, bool bin)
{
    const Skeleton& s = m.skeleton;
    const Mesh& me = m.mesh;
    const bool v5 = version == 5 && !bin;
    const bool v7 = version == 7 || bin;
    o.kw("MODEL").nl();
    o.kw("VERSION").i(version).nl();
    o.nl();

    // ---- bones
    const cod::BoneNumbering bn = cod::boneNumbering(s.sourceIds);
    o.kw("NUMBONES").i(static_cast<std::int64_t>(s.size())).nl();
    for (std::size_t j : bn.order) {
        const JointIndex p = s.parents[j];
        o.kw("BONE")
            .i(bn.index[j])
            .i(p == kNoJoint ? -1 : bn.index[static_cast<std::size_t>(p)])
            .s(s.names[j])
            .nl();
    }
    o.nl();
    for (std::size_t j : bn.order) {
        o.kw("BONE").i(bn.index[j]).nl();
        o.kw("OFFSET").fs(s.bindPositions[j].data(), 3).nl();
        o.kw("SCALE").fs(s.bindScales[j].data(), 3).nl();
        const Mat3& a = s.bindAxes[j];
        for (int c = 0; c < 3; ++c) {
            const Vec3 col = a.col(c);
            o.kw(c == 0 ? "X" : (c == 1 ? "Y" : "Z")).fs(col.data(), 3).nl();
        }
        o.nl();
    }

    // ---- pool
    const std::size_t np = me.pointCount();
    const bool big = v7 && np > 65535;
    o.kw(big ? "NUMVERTS32" : "NUMVERTS").i(static_cast<std::int64_t>(np)).nl();
    std::vector<std::int32_t> js;
    std::vector<float> ws;
    for (std::size_t p = 0; p < np; ++p) {
        o.kw(big ? "VERT32" : "VERT").i(static_cast<std::int64_t>(p)).nl();
        o.kw("OFFSET").fs(me.pointPositions[p].data(), 3).nl();
        cod::pointInfluences(me, p, js, ws);
        o.kw("BONES").i(static_cast<std::int64_t>(js.size())).nl();
        for (std::size_t k = 0; k < js.size(); ++k) {
            o.kw("BONE").i(bn.index[static_cast<std::size_t>(js[k])]).f(ws[k]).nl();
        }
        o.nl();
    }

    // ---- faces
    const std::size_t nt = me.triangleCount();
    const bool needObject = me.objects.empty() && nt > 0;
    o.kw("NUMFACES").i(static_cast<std::int64_t>(nt)).nl();
    for (std::size_t t = 0; t < nt; ++t) {
        const std::uint32_t obj = me.triangleObjects.empty() ? 0 : me.triangleObjects[t];
        const std::uint32_t mat = me.triangleMaterials[t];
        o.kw(v7 && (obj > 255 || mat > 255) ? "TRI16" : "TRI").i(obj).i(mat).i(0).i(0).nl();
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t c = 3 * t + k;
            if (v5) {
                o.kw("VERT")
                    .i(me.cornerPoints[c])
                    .fs(me.cornerNormals[c].data(), 3)
                    .fs(me.cornerUvs[c].data(), 2)
                    .nl();
                continue;
            }
            o.kw(big ? "VERT32" : "VERT").i(me.cornerPoints[c]).nl();
            o.kw("NORMAL").fs(me.cornerNormals[c].data(), 3).nl();
            const Vec4 col = me.cornerColors.empty() ? Vec4::Ones() : me.cornerColors[c];
            o.kw("COLOR").fs(col.data(), 4).nl();
            o.kw("UV").i(me.uvSetCount).fs(me.cornerUvs[c].data(), 2);
            for (std::uint32_t u = 1; u < me.uvSetCount; ++u) {
                o.fs(me.cornerExtraUvs[c * (me.uvSetCount - 1) + (u - 1)].data(), 2);
            }
            o.nl();
        }
        o.nl();
    }

    // ---- objects, materials
    o.kw("NUMOBJECTS").i(needObject ? 1 : static_cast<std::int64_t>(me.objects.size())).nl();
    if (needObject) {
        o.kw("OBJECT").i(0).s("default").nl();
    }
    for (std::size_t i = 0; i < me.objects.size(); ++i) {
        o.kw("OBJECT").i(static_cast<std::int64_t>(i)).s(me.objects[i]).nl();
    }
    o.nl();
    o.kw("NUMMATERIALS").i(static_cast<std::int64_t>(me.materials.size())).nl();
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < me.materials.size(); ++i) {
        const Material& mat = me.materials[i];
        if (v5) {
            o.kw("MATERIAL").i(static_cast<std::int64_t>(i)).s(mat.images).nl();
            continue;
        }
        o.kw("MATERIAL").i(static_cast<std::int64_t>(i)).s(mat.name).s(mat.type).s(mat.images).nl();
        const bool defaults = mat.params.empty() && (!isCodFormat(m.format) || m.version == 5);
        if (defaults && !bin) {
            for (const MaterialParam& p : kDefaultParams) {
                o.kw(p.key).fs(p.values.data(), p.values.size()).nl();
            }
        }
        for (const MaterialParam& p : mat.params) {
            if (bin && !xbin::TokenOut::hasParam(p.key)) {
                ++dropped;
                continue;
            }
            o.kw(p.key).fs(p.values.data(), p.values.size()).nl();
        }
        o.nl();
    }
    return dropped;
}

// Version as stored (5/6/7), else 6; false with the error when the bones are SMD-style.
bool writable(const Model& m, DiagnosticSink& sink, int& version)
{
    if (m.skeleton.bindKind != PoseKind::ModelMatrix && !m.skeleton.empty()) {
        sink.error(
            ids::kWriteBadName, {1, 1, 0},
            "model holds SMD-style parent-relative bones; convert it with 'rigscope-cli convert'");
        return false;
    }
    version = isCodFormat(m.format) && m.version >= 5 && m.version <= 7 ? m.version : 6;
    return true;
}

} // namespace

WriteResult writeXmodel(const Model& m, const WriteContext& ctx)
{
    WriteResult res;
    DiagnosticSink sink(ctx.fileName);
    int version = 6;
    if (!writable(m, sink, version)) {
        res.diagnostics = sink.take();
        return res;
    }
    cod::TextOut o(formatTraits(m.format).binary ? 1 : static_cast<int>(m.lineEnding));
    cod::comments(o, m.headerComments);
    writeRecords(o, m, version, false);
    cod::finishDiagnostics(o, sink);
    if (version == 5 && (!m.mesh.cornerColors.empty() || m.mesh.uvSetCount > 1)) {
        sink.note(ids::kWriteVersionDropped, {1, 1, 0},
                  "version 5 keeps no vertex colours, extra UV sets or shading parameters");
    }
    res.bytes = std::move(o.text);
    res.diagnostics = sink.take();
    return res;
}

WriteResult writeXmodelBin(const Model& m, const WriteContext& ctx)
{
    DiagnosticSink sink(ctx.fileName);
    int version = 6;
    if (!writable(m, sink, version)) {
        WriteResult res;
        res.diagnostics = sink.take();
        return res;
    }
    xbin::TokenOut o;
    o.comments(m.headerComments);
    if (const std::size_t dropped = writeRecords(o, m, version, true); dropped > 0) {
        sink.warning(ids::kCodUnsupported, {1, 1, 0},
                     std::to_string(dropped) + " unknown material parameters not written");
    }
    return o.finish(sink);
}

} // namespace rigscope::core
