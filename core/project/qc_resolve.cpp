#include "core/project/qc_resolve.h"

#include <algorithm>
#include <set>

#include "core/diag/diagnostic_ids.h"
#include "core/io/file_buffer.h"
#include "core/text/ascii.h"

namespace rigscope::core {

namespace {

bool hasExtension(std::string_view path)
{
    const auto slash = path.find_last_of("/\\");
    const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto dot = base.find_last_of('.');
    return dot != std::string_view::npos && dot > 0 && dot + 1 < base.size();
}

} // namespace

bool isQcPath(std::string_view path)
{
    const std::string e = extensionLower(path);
    return e == "qc" || e == "qci";
}

const std::vector<std::string>* DiskQcFileSystem::listing(const std::string& dir)
{
    auto it = m_listed.find(dir);
    if (it == m_listed.end()) {
        std::vector<std::string> names;
        const bool ok = listDirectory(dir, names);
        m_listed[dir] = ok;
        if (ok) {
            m_listings[dir] = std::move(names);
        }
        it = m_listed.find(dir);
    }
    return it->second ? &m_listings[dir] : nullptr;
}

std::string DiskQcFileSystem::find(const std::string& dir, const std::string& relative,
                                   bool& caseMismatch)
{
    caseMismatch = false;
    if (relative.empty()) {
        return {};
    }
    std::string exact = qcJoinPath(dir, relative);
    if (isRegularFile(exact)) {
        return exact;
    }
    // Component by component, ignoring case, from the folder (or the root for absolute paths).
    std::string rel = relative;
    std::replace(rel.begin(), rel.end(), '\\', '/');
    std::string cur =
        (!rel.empty() && rel[0] == '/') ? std::string("/") : (dir.empty() ? "." : dir);
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= rel.size()) {
        std::size_t end = rel.find('/', start);
        if (end == std::string::npos) {
            end = rel.size();
        }
        std::string part = rel.substr(start, end - start);
        if (!part.empty() && part != ".") {
            parts.push_back(std::move(part));
        }
        start = end + 1;
    }
    bool mismatch = false;
    for (const std::string& part : parts) {
        if (part == "..") {
            cur = qcJoinPath(cur, "..");
            continue;
        }
        const std::vector<std::string>* names = listing(cur);
        if (!names) {
            return {};
        }
        std::string match;
        const std::string want = asciiLower(part);
        for (const std::string& n : *names) {
            if (n == part) {
                match = n;
                break;
            }
            if (match.empty() && asciiLower(n) == want) {
                match = n;
            }
        }
        if (match.empty()) {
            return {};
        }
        mismatch = mismatch || match != part;
        cur = cur == "/" ? "/" + match : (cur == "." ? match : cur + "/" + match);
    }
    if (!isRegularFile(cur)) {
        return {};
    }
    caseMismatch = mismatch;
    return cur;
}

bool DiskQcFileSystem::read(const std::string& path, std::string& bytes, std::string& error)
{
    FileReadResult r = readFile(path, 256ull << 20);
    if (!r.ok()) {
        error = r.error;
        return false;
    }
    bytes = std::move(r.bytes);
    return true;
}

void resolveQcFiles(QcProject& project, QcFileSystem& fs)
{
    const std::string qcDir = [&] {
        std::string d = directoryOf(project.file);
        return d == "." ? std::string() : d;
    }();
    std::set<std::pair<std::string, std::pair<std::string, std::uint32_t>>> reported;
    for (QcFileRef& f : project.files) {
        if (f.kind == QcFileRef::Kind::Include) {
            continue; // found (or reported) while reading
        }
        std::vector<std::string> names;
        // A `flexfile` without extension is a VTA: studiomdl loads it with Load_Source(vtafile,
        // "vta"), which tries that one extension (Faceposable-CSS-Models: `flexfile
        // "ct_gign_expressions"` beside ct_gign_expressions.VTA).
        const bool vta = f.kind == QcFileRef::Kind::Flex && asciiLower(f.command) == "flexfile";
        if (hasExtension(f.path)) {
            names.push_back(f.path);
        } else if (vta) {
            names.push_back(f.path + ".vta");
        } else {
            names.push_back(f.path + ".smd");
            names.push_back(f.path + ".dmx");
        }
        std::vector<std::string> dirs;
        if (!f.searchDir.empty()) {
            dirs.push_back(f.searchDir);
        }
        dirs.push_back(qcDir);
        if (f.scriptDir != qcDir) {
            dirs.push_back(f.scriptDir);
        }
        f.resolved.clear();
        f.caseMismatch = false;
        // Exact matches anywhere beat case-insensitive ones.
        std::string fallback;
        for (const std::string& name : names) {
            for (const std::string& d : dirs) {
                bool cm = false;
                std::string found = fs.find(d, name, cm);
                if (found.empty()) {
                    continue;
                }
                if (!cm) {
                    f.resolved = found;
                    break;
                }
                if (fallback.empty()) {
                    fallback = found;
                }
            }
            if (!f.resolved.empty()) {
                break;
            }
        }
        if (f.resolved.empty() && !fallback.empty()) {
            f.resolved = fallback;
            f.caseMismatch = true;
        }
        const auto key =
            std::make_pair(asciiLower(f.path), std::make_pair(f.at.file, f.at.where.line));
        if (!reported.insert(key).second) {
            continue;
        }
        Diagnostic d;
        d.file = f.at.file;
        d.where = f.at.where;
        if (f.resolved.empty()) {
            d.severity = Severity::Error;
            d.id = ids::kQcMissingFile;
            d.message = std::string(qcFileKindName(f.kind)) + " file '" + f.path + "' (" +
                        f.command + ") is not found" +
                        (hasExtension(f.path) ? std::string()
                         : vta                ? std::string("; tried .vta")
                                              : std::string("; tried .smd and .dmx"));
            project.diagnostics.push_back(std::move(d));
        } else if (f.caseMismatch) {
            d.severity = Severity::Note;
            d.id = ids::kQcCaseMismatch;
            d.message = "'" + f.path + "' found as '" + f.resolved +
                        "' only by ignoring case (it works on Windows)";
            project.diagnostics.push_back(std::move(d));
        }
    }
}

QcLoadResult loadQcProject(const std::string& path, Profile profile, QcFileSystem& fs)
{
    QcLoadResult out;
    std::string bytes, error;
    bool cm = false;
    const std::string found = fs.find("", path, cm);
    if (found.empty() || !fs.read(found, bytes, error)) {
        out.ioError =
            error.empty() ? "cannot open '" + path + "': No such file or directory" : error;
        return out;
    }
    out.readable = true;
    QcReadOptions opt;
    opt.fileName = path;
    opt.profile = profile;
    opt.fs = &fs;
    out.project = readQc(bytes, opt);
    resolveQcFiles(out.project, fs);
    return out;
}

QcLoadResult loadQcProject(const std::string& path, Profile profile)
{
    QcLoadResult out;
    FileReadResult r = readFile(path, 256ull << 20);
    if (!r.ok()) {
        out.ioError = r.error;
        return out;
    }
    out.readable = true;
    DiskQcFileSystem fs;
    QcReadOptions opt;
    opt.fileName = path;
    opt.profile = profile;
    opt.fs = &fs;
    out.project = readQc(r.bytes, opt);
    resolveQcFiles(out.project, fs);
    return out;
}

} // namespace rigscope::core
