#include "core/ops/read_input.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "core/diag/diagnostic_ids.h"
#include "core/formats/content_sniff.h"
#include "core/formats/mdl/compiled_files.h"
#include "core/formats/mdl/compiled_model.h"
#include "core/formats/xanim/xanim.h"
#include "core/io/file_buffer.h"
#include "core/ops/qc_ops.h"
#include "core/project/qc_resolve.h"
#include "core/model/format_id.h"

namespace rigscope::core {

const FormatInfo* readerByName(std::string_view name) noexcept
{
    if (name.empty()) {
        return nullptr;
    }
    if (const FormatInfo* f = formatById(name)) {
        return f;
    }
    for (const FormatInfo& f : formats()) {
        for (std::string_view e : f.extensions) {
            if (e == name) {
                return &f;
            }
        }
    }
    return nullptr;
}

std::string readerNames()
{
    std::string s;
    for (const FormatInfo& f : formats()) {
        s += s.empty() ? "" : ", ";
        s += f.id;
    }
    return s;
}

ReadResult readInput(std::string_view bytes, const ReadContext& ctx, const std::string& forceReader)
{
    if (forceReader.empty()) {
        return readAny(bytes, ctx);
    }
    const FormatInfo* f = readerByName(forceReader);
    if (f == nullptr) {
        return readAny(bytes, ctx);
    }
    return readWith(*f, bytes, ctx);
}

bool isReadable(std::string_view bytes, const std::string& path, const std::string& forceReader)
{
    return readerByName(forceReader) != nullptr || detectFormat(bytes, path) != nullptr;
}

namespace {

// The compiled model's locations are lines of its component files; shown under the QC's name,
// its checks are located at the whole QC instead of at wrong lines (`check X.qc` checks each
// component with its own name and lines).
void forgetLocations(Model& m)
{
    for (auto* v : {&m.skeleton.where, &m.skeleton.bindWhere, &m.mesh.pointWhere,
                    &m.mesh.cornerWhere, &m.mesh.triangleWhere}) {
        std::fill(v->begin(), v->end(), SourceLoc{});
    }
    for (Material& mat : m.mesh.materials) {
        mat.where = {};
    }
    for (Animation& a : m.animations) {
        std::fill(a.frameWhere.begin(), a.frameWhere.end(), SourceLoc{});
    }
    for (FlexShape& f : m.flexShapes) {
        f.where = {};
    }
    for (VertexFrame& f : m.vertexFrames) {
        f.where = {};
        std::fill(f.lineWhere.begin(), f.lineWhere.end(), SourceLoc{});
    }
}

void openQc(OpenedInput& in, const OpenOptions& o)
{
    auto qc = std::make_shared<QcReport>(qcReportFromFile(in.path, o.profile));
    if (!qc->readable) {
        in.error = qc->ioError;
        return;
    }
    in.readable = true;
    std::error_code ec;
    const auto size = std::filesystem::file_size(in.path, ec);
    in.bytes = ec ? 0 : static_cast<std::uint64_t>(size);
    in.result.diagnostics = qc->diagnostics;
    if (o.qcView) {
        DiskQcFileSystem fs;
        QcCompileOptions options;
        options.allChoices = false;
        options.choices.assign(o.qcView->choices.begin(), o.qcView->choices.end());
        options.skin = o.qcView->skin;
        options.lod = o.qcView->lod;
        QcCompiled shown = compileQc(qc->project, fs, options);
        forgetLocations(shown.model);
        in.result.hasModel = shown.hasModel;
        in.result.model = std::move(shown.model);
    } else {
        in.result.hasModel = qc->compiled.hasModel;
        in.result.model = std::move(qc->compiled.model);
    }
    in.qc = std::move(qc);
}

// An XANIM without notes takes them from its sibling NT_EXPORT (FORMATS.md §4.3).
void mergeSiblingNotetracks(const std::string& path, ReadResult& r)
{
    if (formatFamily(r.model.format) != FormatFamily::CodAnim || r.model.animations.empty() ||
        !r.model.animations.front().notes.empty()) {
        return;
    }
    const std::string nt = ntExportPathFor(path);
    if (nt.empty()) {
        return;
    }
    FileReadResult ntFile = readFile(nt);
    if (!ntFile.ok()) {
        return;
    }
    ReadContext nctx;
    nctx.fileName = nt;
    ReadResult ntr = readNtExport(ntFile.bytes, nctx);
    for (Diagnostic& d : ntr.diagnostics) {
        r.diagnostics.push_back(std::move(d));
    }
    if (ntr.hasModel) {
        DiagnosticSink sink(nt);
        mergeNotetracks(r.model, ntr.model, sink);
        for (Diagnostic& d : sink.take()) {
            r.diagnostics.push_back(std::move(d));
        }
    }
}

// The companions of a compiled model, read whole (each stays alive while the reader runs).
struct Companion {
    FileReadResult read;
    CompiledFile file;
};

Companion readCompanion(const std::string& path)
{
    Companion c;
    if (path.empty()) {
        return c;
    }
    c.read = readFile(path);
    if (c.read.ok()) {
        c.file.bytes = c.read.bytes;
        c.file.fileName = baseName(path);
        c.file.present = true;
    }
    return c;
}

// Keeps the entries of a per-id list whose id stays (`newCorner` >= 0), renumbered.
template <class T>
void keepIds(std::vector<T>& values, const std::vector<std::int32_t>& ids,
             const std::vector<std::int32_t>& newCorner)
{
    if (values.size() != ids.size()) {
        return;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::int32_t id = ids[i];
        if (id >= 0 && std::size_t(id) < newCorner.size() && newCorner[std::size_t(id)] >= 0) {
            values[kept++] = values[i];
        }
    }
    values.resize(kept);
}

void renumber(std::vector<std::int32_t>& ids, const std::vector<std::int32_t>& newCorner)
{
    std::size_t kept = 0;
    for (const std::int32_t id : ids) {
        if (id >= 0 && std::size_t(id) < newCorner.size() && newCorner[std::size_t(id)] >= 0) {
            ids[kept++] = newCorner[std::size_t(id)];
        }
    }
    ids.resize(kept);
}

// Keeps the triangles of the chosen model of each bodypart (`choices[b]`, 0 past the end as
// the engine's body 0, -1 none): the others' triangles leave the mesh (their objects stay), and
// the flex shapes' corner ids follow.
void showChoices(Model& model, const std::vector<std::vector<std::int32_t>>& choiceObjects,
                 const std::vector<int>& choices)
{
    Mesh& mesh = model.mesh;
    if (mesh.triangleObjects.size() != mesh.triangleCount()) {
        return;
    }
    std::vector<std::uint8_t> shown(mesh.objects.size(), 0);
    for (std::size_t b = 0; b < choiceObjects.size(); ++b) {
        const int c = b < choices.size() ? choices[b] : 0;
        if (c >= 0 && std::size_t(c) < choiceObjects[b].size()) {
            const std::int32_t obj = choiceObjects[b][std::size_t(c)];
            if (obj >= 0 && std::size_t(obj) < shown.size()) {
                shown[std::size_t(obj)] = 1;
            }
        }
    }
    const std::size_t extra = mesh.cornerExtraUvs.empty() ? 0 : mesh.uvSetCount - 1;
    const bool numbered = mesh.hasCornerVertices();
    std::vector<std::int32_t> newCorner(mesh.cornerCount(), -1);
    std::size_t kept = 0;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t obj = mesh.triangleObjects[t];
        if (obj >= shown.size() || !shown[obj]) {
            continue;
        }
        mesh.triangleMaterials[kept] = mesh.triangleMaterials[t];
        mesh.triangleObjects[kept] = obj;
        mesh.triangleWhere[kept] = mesh.triangleWhere[t];
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t from = 3 * t + c, to = 3 * kept + c;
            newCorner[from] = static_cast<std::int32_t>(to);
            mesh.cornerPoints[to] = mesh.cornerPoints[from];
            mesh.cornerNormals[to] = mesh.cornerNormals[from];
            mesh.cornerUvs[to] = mesh.cornerUvs[from];
            mesh.cornerWhere[to] = mesh.cornerWhere[from];
            if (!mesh.cornerColors.empty()) {
                mesh.cornerColors[to] = mesh.cornerColors[from];
            }
            if (numbered) {
                mesh.cornerVertices[to] = mesh.cornerVertices[from];
            }
            for (std::size_t k = 0; k < extra; ++k) {
                mesh.cornerExtraUvs[to * extra + k] = mesh.cornerExtraUvs[from * extra + k];
            }
        }
        ++kept;
    }
    if (kept == mesh.triangleCount()) {
        return;
    }
    mesh.triangleMaterials.resize(kept);
    mesh.triangleObjects.resize(kept);
    mesh.triangleWhere.resize(kept);
    mesh.cornerPoints.resize(3 * kept);
    mesh.cornerNormals.resize(3 * kept);
    mesh.cornerUvs.resize(3 * kept);
    mesh.cornerWhere.resize(3 * kept);
    if (!mesh.cornerColors.empty()) {
        mesh.cornerColors.resize(3 * kept);
    }
    mesh.cornerVertices.resize(numbered ? 3 * kept : 0);
    if (extra > 0) {
        mesh.cornerExtraUvs.resize(3 * kept * extra);
    }
    // Vertex animations (and the shapes derived from them) list corners.
    for (VertexFrame& f : model.vertexFrames) {
        keepIds(f.positions, f.ids, newCorner);
        keepIds(f.normals, f.ids, newCorner);
        keepIds(f.wrinkles, f.ids, newCorner);
        keepIds(f.lineWhere, f.ids, newCorner);
        renumber(f.ids, newCorner);
    }
    for (FlexShape& s : model.flexShapes) {
        keepIds(s.deltaPositions, s.ids, newCorner);
        keepIds(s.deltaNormals, s.ids, newCorner);
        keepIds(s.deltaWrinkles, s.ids, newCorner);
        renumber(s.ids, newCorner);
    }
}

// A compiled model: the .mdl's bytes plus the companions found beside it (issue 29).
void openCompiled(OpenedInput& in, std::string_view bytes, const std::string& name,
                  const OpenOptions& o)
{
    const CompiledCompanions found = findCompiledCompanions(in.path, bytes);
    ReadContext ctx;
    ctx.fileName = name;
    ctx.profile = o.profile;
    CompiledReadResult r;
    CompiledReadOptions options;
    if (o.qcView) { // the window's choices: the .vtx LOD and the skin family drawn
        options.lod = std::max(0, o.qcView->lod);
        options.skin = std::max(0, o.qcView->skin);
    }
    const CompiledFile mdl{bytes, name, true};
    if (bytes.size() >= 8 && bytes[4] == 10 && bytes[5] == 0 && bytes[6] == 0 && bytes[7] == 0) {
        GoldsrcMdlFiles files;
        files.mdl = mdl;
        const Companion textures = readCompanion(found.textures);
        files.textures = textures.file;
        std::vector<Companion> groups;
        groups.reserve(found.sequenceGroups.size());
        for (const std::string& g : found.sequenceGroups) {
            groups.push_back(readCompanion(g));
            files.sequenceGroups.push_back(groups.back().file);
        }
        const Companion vbm = readCompanion(found.vbm);
        files.vbm = vbm.file;
        r = readGoldsrcMdl(files, ctx, options);
    } else {
        SourceMdlFiles files;
        files.mdl = mdl;
        const Companion vvd = readCompanion(found.vvd), vtx = readCompanion(found.vtx),
                        phy = readCompanion(found.phy), ani = readCompanion(found.ani);
        files.vvd = vvd.file;
        files.vtx = vtx.file;
        files.phy = phy.file;
        files.ani = ani.file;
        r = readSourceMdl(files, ctx, options);
    }
    if (o.qcView) { // one model per bodypart, as the engine draws a `body` value
        showChoices(r.model, r.info.choiceObjects, o.qcView->choices);
    }
    in.readable = true;
    in.result.hasModel = r.hasModel;
    in.result.model = std::move(r.model);
    in.result.diagnostics = std::move(r.diagnostics);
    in.compiled = std::make_shared<const CompiledModelInfo>(std::move(r.info));
}

Diagnostic failureDiagnostic(std::string_view id, std::string message, std::string file)
{
    Diagnostic d;
    d.severity = Severity::Error;
    d.id = id;
    d.message = std::move(message);
    d.file = std::move(file);
    d.fixedSeverity = true;
    return d;
}

} // namespace

OpenedInput openInput(const std::string& path, const OpenOptions& o)
{
    const auto start = std::chrono::steady_clock::now();
    OpenedInput in;
    in.path = path;
    const std::string name = o.diagnosticName.empty() ? path : o.diagnosticName;
    auto finish = [&]() -> OpenedInput {
        in.loadMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (!in.readable && in.failure.id.empty()) {
            in.failure = failureDiagnostic(ids::kIoUnreadable, in.error, name);
        }
        return std::move(in);
    };
    if (isQcPath(path)) {
        openQc(in, o);
        return finish();
    }
    MappedFile file(path);
    if (!file.ok()) {
        in.error = file.error();
        return finish();
    }
    in.bytes = file.bytes().size();
    if (o.forceReader.empty() && sniffCompiledMdl(file.bytes().substr(0, 8)) == 100) {
        openCompiled(in, file.bytes(), name, o);
        if (!file.unchanged()) {
            in.readable = false;
            in.result = ReadResult{};
            in.compiled.reset();
            in.error = file.error();
        }
        return finish();
    }
    if (!isReadable(file.bytes(), path, o.forceReader)) {
        const std::string_view why = unknownFormatReason(file.bytes());
        in.error = "'" + path + "': " + std::string(why);
        if (why == compiledFileReason(file.bytes())) {
            in.failure = failureDiagnostic(ids::kSyntaxCompiledFile, std::string(why), name);
            in.failure.binary = true;
        } else {
            in.failure = failureDiagnostic(why == "file is empty" ? ids::kSyntaxEmptyFile
                                                                  : ids::kSyntaxBadVersion,
                                           std::string(why), name);
            in.failure.where = {1, 1, 0};
        }
        return finish();
    }
    ReadContext ctx;
    ctx.fileName = name;
    ctx.profile = o.profile;
    in.result = readInput(file.bytes(), ctx, o.forceReader);
    if (!file.unchanged()) { // written meanwhile: what was parsed is no version of the file
        in.result = ReadResult{};
        in.error = file.error();
        return finish();
    }
    in.readable = true;
    if (o.notetracks && in.result.hasModel) {
        mergeSiblingNotetracks(path, in.result);
    }
    return finish();
}

OpenedInput openInput(const std::string& path, Profile profile, const std::string& forceReader)
{
    OpenOptions o;
    o.profile = profile;
    o.forceReader = forceReader;
    return openInput(path, o);
}

} // namespace rigscope::core
