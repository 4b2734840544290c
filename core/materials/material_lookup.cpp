#include "core/materials/material_lookup.h"

#include <algorithm>
#include <bit>

#include "core/diag/diagnostic_ids.h"
#include "core/materials/keyvalues.h"

namespace rigscope::core {

namespace {

constexpr std::size_t kMaxIndexedFiles = 200000;
constexpr int kMaxIndexDepth = 24;
constexpr std::uint64_t kMaxVmtBytes = 1u << 20;

std::string join(const std::string& a, const std::string& b)
{
    if (a.empty() || a == ".") {
        return b;
    }
    return a.back() == '/' ? a + b : a + "/" + b;
}

// The folder above `dir`, spelled relative when `dir` is: "a/b" -> "a", "a" -> ".", "." -> "..",
// ".." -> "../..". Empty at the file-system root.
std::string parentOf(const std::string& dir)
{
    if (dir == "/" || dir.empty()) {
        return {};
    }
    if (dir == ".") {
        return "..";
    }
    const std::size_t slash = dir.find_last_of('/');
    const std::string last = slash == std::string::npos ? dir : dir.substr(slash + 1);
    if (last == "..") {
        return dir + "/..";
    }
    if (slash == std::string::npos) {
        return ".";
    }
    return slash == 0 ? "/" : dir.substr(0, slash);
}

bool hasEntryNoCase(const std::vector<DirectoryEntry>& entries, std::string_view name,
                    bool directory)
{
    return std::any_of(entries.begin(), entries.end(), [&](const DirectoryEntry& e) {
        return e.directory == directory && equalsNoCase(e.name, name);
    });
}

std::string entryNoCase(const std::vector<DirectoryEntry>& entries, std::string_view name)
{
    for (const DirectoryEntry& e : entries) {
        if (equalsNoCase(e.name, name)) {
            return e.name;
        }
    }
    return {};
}

std::string quote(std::string_view s)
{
    return "'" + std::string(s.substr(0, 120)) + "'";
}

} // namespace

std::string describeTexture(const VtfInfo& info)
{
    return std::to_string(info.width) + " x " + std::to_string(info.height) + " " +
           std::string(vtfFormatName(info.format)) + ", VTF " + std::to_string(info.versionMajor) +
           "." + std::to_string(info.versionMinor) + ", " + std::to_string(info.mipCount) +
           (info.mipCount == 1 ? " mip" : " mips");
}

std::string materialRootFolder(const std::string& dir)
{
    std::string d = dir;
    while (d.size() > 1 && d.back() == '/') {
        d.pop_back();
    }
    const std::size_t slash = d.find_last_of('/');
    const std::string_view last =
        slash == std::string::npos ? std::string_view(d) : std::string_view(d).substr(slash + 1);
    if (!equalsNoCase(last, "materials") || hasEntryNoCase(listDirectory(d), "materials", true)) {
        return dir;
    }
    const std::string up = parentOf(d);
    return up.empty() ? dir : up;
}

std::vector<std::string> nearbyMaterialRoots(const std::string& modelPath, int levels)
{
    constexpr std::size_t kMaxSubfolders = 256;
    std::vector<std::string> out;
    std::string from; // the model's own folder first: its subfolders too
    std::string dir = directoryOf(modelPath);
    for (int level = 0; level < levels && !dir.empty() && out.empty(); ++level) {
        for (const DirectoryEntry& e : listDirectory(dir, kMaxSubfolders)) {
            if (!e.directory || e.name.starts_with('.')) {
                continue;
            }
            const std::string sub = join(dir, e.name);
            if (!from.empty() && sameFile(sub, from)) {
                continue; // the way up: searched already
            }
            const std::vector<DirectoryEntry> inner = listDirectory(sub);
            if (hasEntryNoCase(inner, "materials", true) ||
                !entryNoCase(inner, "gameinfo.txt").empty()) {
                out.push_back(sub);
            }
        }
        std::sort(out.begin(), out.end());
        const std::string up = parentOf(dir);
        if (up.empty() || sameFile(up, dir)) {
            break;
        }
        from = dir;
        dir = up;
    }
    return out;
}

void appendRoots(std::vector<MaterialRoot>& roots, const std::vector<MaterialRoot>& more)
{
    for (MaterialRoot r : more) {
        r.path = materialRootFolder(r.path);
        const bool seen = std::any_of(roots.begin(), roots.end(), [&](const MaterialRoot& o) {
            return o.path == r.path || sameFile(o.path, r.path);
        });
        if (!seen) {
            roots.push_back(r);
        }
    }
}

std::vector<std::string> gameInfoSearchPaths(const std::string& gameInfoPath)
{
    std::vector<std::string> out;
    const FileReadResult file = readFile(gameInfoPath, kMaxVmtBytes);
    if (!file.ok()) {
        return out;
    }
    DiagnosticSink ignored(gameInfoPath);
    const KvDocument doc =
        parseKeyValues(std::as_bytes(std::span(file.bytes)), ignored, ids::kMaterialVmtSyntax);
    const std::string gameDir = directoryOf(gameInfoPath);
    const std::string baseDir = parentOf(gameDir);
    const KvNode* paths = nullptr;
    for (const KvNode& root : doc.roots) {
        if (const KvNode* fs = root.find("FileSystem")) {
            paths = fs->find("SearchPaths");
        }
    }
    if (!paths) {
        return out;
    }
    for (const KvNode& e : paths->children) {
        if (e.block || toLowerAscii(e.key).find("game") == std::string::npos) {
            continue;
        }
        std::string v = e.value;
        std::replace(v.begin(), v.end(), '\\', '/');
        std::string dir;
        auto strip = [&](std::string_view token, const std::string& base) {
            if (v.size() >= token.size() && equalsNoCase(v.substr(0, token.size()), token)) {
                dir = join(base, v.substr(token.size()));
                return true;
            }
            return false;
        };
        if (!strip("|gameinfo_path|", gameDir) && !strip("|all_source_engine_paths|", baseDir)) {
            dir = (!v.empty() && v.front() == '/') ? v : join(baseDir, v);
        }
        while (dir.size() > 1 && (dir.back() == '/' || dir.ends_with("/."))) {
            dir.erase(dir.size() - (dir.back() == '/' ? 1 : 2));
        }
        if (dir.empty()) {
            dir = ".";
        }
        if (toLowerAscii(dir).ends_with(".vpk")) {
            continue; // packed content is not read
        }
        if (dir.ends_with("/*")) {
            const std::string parent = dir.substr(0, dir.size() - 2);
            for (const DirectoryEntry& sub : listDirectory(parent, 4096)) {
                if (sub.directory) {
                    out.push_back(join(parent, sub.name));
                }
            }
            continue;
        }
        if (isDirectory(dir) && std::find(out.begin(), out.end(), dir) == out.end()) {
            out.push_back(dir);
        }
    }
    return out;
}

std::vector<MaterialRoot> discoverMaterialRoots(const std::string& modelPath)
{
    std::vector<MaterialRoot> roots;
    std::string dir = directoryOf(modelPath);
    for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
        const std::vector<DirectoryEntry> entries = listDirectory(dir);
        const bool materials = hasEntryNoCase(entries, "materials", true);
        const std::string gameInfo = entryNoCase(entries, "gameinfo.txt");
        if (materials || !gameInfo.empty()) {
            if (materials) {
                roots.push_back({dir, "found above the model"});
            }
            if (!gameInfo.empty()) {
                std::vector<MaterialRoot> more;
                for (const std::string& p : gameInfoSearchPaths(join(dir, gameInfo))) {
                    more.push_back({p, "gameinfo.txt SearchPaths"});
                }
                appendRoots(roots, more);
            }
            break;
        }
        const std::string up = parentOf(dir);
        if (up.empty() || sameFile(up, dir)) {
            break;
        }
        dir = up;
    }
    return roots;
}

MaterialResolver::MaterialResolver(MaterialQuery query, std::uint32_t maxTextureSide)
    : m_query(std::move(query)), m_maxTextureSide(maxTextureSide)
{
}

const std::vector<DirectoryEntry>& MaterialResolver::listing(const std::string& dir)
{
    auto it = m_listings.find(dir);
    if (it == m_listings.end()) {
        it = m_listings.emplace(dir, listDirectory(dir)).first;
    }
    return it->second;
}

std::string MaterialResolver::findNoCase(const std::string& base, const std::string& relative)
{
    std::string exact = join(base, relative);
    if (fileExists(exact)) {
        return exact;
    }
    std::string at = base;
    std::size_t start = 0;
    while (start <= relative.size()) {
        std::size_t slash = relative.find('/', start);
        if (slash == std::string::npos) {
            slash = relative.size();
        }
        const std::string_view part(relative.data() + start, slash - start);
        start = slash + 1;
        if (part.empty() || part == ".") {
            continue;
        }
        const std::string name = entryNoCase(listing(at), part);
        if (name.empty()) {
            return {};
        }
        at = join(at, name);
    }
    return at;
}

const std::multimap<std::string, std::string>& MaterialResolver::nameIndex(const std::string& root)
{
    auto it = m_indexes.find(root);
    if (it != m_indexes.end()) {
        return it->second;
    }
    std::multimap<std::string, std::string> index;
    const std::string materials = findNoCase(root, "materials");
    std::vector<std::pair<std::string, int>> stack;
    if (!materials.empty()) {
        stack.push_back({materials, 0});
    }
    std::size_t files = 0;
    while (!stack.empty() && files < kMaxIndexedFiles) {
        const auto [dir, depth] = stack.back();
        stack.pop_back();
        for (const DirectoryEntry& e : listDirectory(dir)) {
            if (e.directory) {
                if (depth < kMaxIndexDepth) {
                    stack.push_back({join(dir, e.name), depth + 1});
                }
            } else if (toLowerAscii(e.name).ends_with(".vmt")) {
                index.emplace(toLowerAscii(e.name.substr(0, e.name.size() - 4)), join(dir, e.name));
                ++files;
            }
        }
    }
    // Deterministic choice among equal names: shortest path, then by name.
    return m_indexes.emplace(root, std::move(index)).first->second;
}

std::string MaterialResolver::findTexture(const std::string& textureName)
{
    const std::string key = normaliseMaterialPath(textureName);
    if (key.empty()) {
        return {};
    }
    for (const MaterialRoot& root : m_query.roots) {
        std::string p = findNoCase(root.path, "materials/" + key + ".vtf");
        if (!p.empty()) {
            return p;
        }
    }
    return {};
}

MaterialStatus MaterialResolver::resolve(const std::string& materialName)
{
    MaterialStatus st;
    st.name = materialName;
    st.key = normaliseMaterialPath(materialName);
    if (st.key.empty()) {
        return st;
    }
    if (m_query.fromQc) {
        std::vector<std::string> cds = m_query.cdMaterials;
        if (cds.empty()) {
            cds.push_back({});
        }
        for (const std::string& cd : cds) {
            std::string folder = normaliseMaterialPath(cd + "/x");
            folder.resize(folder.size() - 1); // keep the folder, '/'-terminated
            for (const MaterialRoot& root : m_query.roots) {
                const std::string rel = "materials/" + folder + st.key + ".vmt";
                st.searched.push_back(join(root.path, rel));
                if (!st.found) {
                    std::string p = findNoCase(root.path, rel);
                    if (!p.empty()) {
                        st.found = true;
                        st.vmtPath = std::move(p);
                    }
                }
            }
        }
    } else {
        // No QC: materials/<name>.vmt, else a file of that name anywhere under materials/.
        for (const MaterialRoot& root : m_query.roots) {
            st.searched.push_back(join(root.path, "materials/"));
            if (st.found) {
                continue;
            }
            std::string p = findNoCase(root.path, "materials/" + st.key + ".vmt");
            if (p.empty()) {
                const std::size_t slash = st.key.rfind('/');
                const std::string base =
                    slash == std::string::npos ? st.key : st.key.substr(slash + 1);
                const auto& index = nameIndex(root.path);
                auto [lo, hi] = index.equal_range(base);
                for (auto i = lo; i != hi; ++i) {
                    if (p.empty() || i->second.size() < p.size() ||
                        (i->second.size() == p.size() && i->second < p)) {
                        p = i->second;
                    }
                }
            }
            if (!p.empty()) {
                st.found = true;
                st.byNameAlone = true;
                st.vmtPath = std::move(p);
            }
        }
    }
    if (st.found) {
        readMaterial(st);
    }
    return st;
}

void MaterialResolver::readMaterial(MaterialStatus& st)
{
    const FileReadResult file = readFile(st.vmtPath, kMaxVmtBytes);
    DiagnosticSink sink(st.vmtPath);
    if (!file.ok()) {
        sink.error(ids::kMaterialVmtSyntax, SourceLoc{1, 1, 0}, file.error);
        st.diagnostics = sink.take();
        return;
    }
    auto loader = [this](const std::string& name) -> std::optional<IncludedFile> {
        std::string rel = name;
        std::replace(rel.begin(), rel.end(), '\\', '/');
        for (const MaterialRoot& root : m_query.roots) {
            std::string p = findNoCase(root.path, rel);
            if (p.empty() && !toLowerAscii(rel).ends_with(".vmt")) {
                p = findNoCase(root.path, rel + ".vmt");
            }
            if (!p.empty()) {
                FileReadResult f = readFile(p, kMaxVmtBytes);
                if (f.ok()) {
                    return IncludedFile{p, std::move(f.bytes)};
                }
            }
        }
        return std::nullopt;
    };
    st.vmt = readVmt(std::as_bytes(std::span(file.bytes)), st.vmtPath, loader, sink);
    st.look = vmtLook(st.vmt);
    st.diagnostics = sink.take();
    if (!st.vmt.readable) {
        return;
    }
    for (const char* key : {"$basetexture", "$basetexture2", "$bumpmap", "$normalmap"}) {
        const VmtParam* p = st.vmt.find(key);
        if (p && !p->value.empty()) {
            checkTexture(st, key, p->value, p, std::string_view(key) == "$basetexture");
        }
    }
}

void MaterialResolver::checkTexture(MaterialStatus& st, const std::string& key,
                                    const std::string& value, const VmtParam* param, bool isBase)
{
    // Render targets and engine textures ("_rt_…") are made at run time.
    const std::string norm = normaliseMaterialPath(value);
    if (norm.empty() || norm.starts_with("_rt_") || norm.starts_with("_")) {
        return;
    }
    const std::string path = findTexture(value);
    Diagnostic d;
    d.file = param->file;
    d.where = param->where;
    if (path.empty()) {
        if (isBase) {
            st.baseTextureMissing = true;
        }
        d.severity = Severity::Warning;
        d.id = ids::kMaterialTextureMissing;
        d.message = key + " " + quote(value) + " has no VTF: no materials/" + norm + ".vtf in " +
                    std::to_string(m_query.roots.size()) +
                    (m_query.roots.size() == 1 ? " root" : " roots");
        st.diagnostics.push_back(std::move(d));
        return;
    }
    if (isBase) {
        st.baseTexturePath = path;
    }
    std::int64_t mtime = 0;
    std::uint64_t size = 0;
    fileStamp(path, mtime, size);
    const FileReadResult head = readFileHead(path, 4096);
    const VtfReadResult info = readVtfInfo(std::as_bytes(std::span(head.bytes)), size);
    Diagnostic t;
    t.file = path;
    t.binary = true;
    t.severity = Severity::Warning;
    if (!head.ok() || !info.ok()) {
        if (isBase) {
            st.baseTexturePath.clear();
            st.baseTextureMissing = true;
        }
        t.id = ids::kMaterialTextureMissing;
        t.where.offset = info.errorOffset;
        t.message = "texture unreadable: " + (head.ok() ? info.error : head.error);
        st.diagnostics.push_back(std::move(t));
        return;
    }
    if (isBase) {
        st.baseTextureInfo = info.info;
        st.baseTextureReadable = true;
    }
    const std::uint32_t w = info.info.width, h = info.info.height;
    t.id = ids::kMaterialTextureSize;
    t.where.offset = 16;
    const std::string dims = std::to_string(w) + " x " + std::to_string(h);
    if (!std::has_single_bit(w) || !std::has_single_bit(h)) {
        t.message = "texture " + dims + " is not a power of two on each side";
        st.diagnostics.push_back(t);
    } else if (w > m_maxTextureSide || h > m_maxTextureSide) {
        t.message = "texture " + dims + " is larger than " + std::to_string(m_maxTextureSide) +
                    " on a side";
        st.diagnostics.push_back(t);
    }
}

} // namespace rigscope::core
