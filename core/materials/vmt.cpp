#include "core/materials/vmt.h"

#include <charconv>
#include <cstdint>

#include "core/diag/diagnostic_ids.h"
#include "core/materials/keyvalues.h"

namespace rigscope::core {

namespace {

constexpr int kMaxIncludeDepth = 8;
constexpr int kEngineDxLevel = 95; // a PC at DirectX 9 (shader model 3) level
constexpr int kEngineGpuLevel = 3; // the highest GPU class

std::optional<int> dxLevel(std::string_view s)
{
    // "dx90", "dx90_20b", "dx80", "dx95"
    if (s.size() < 3 || !equalsNoCase(s.substr(0, 2), "dx")) {
        return std::nullopt;
    }
    s.remove_prefix(2);
    int level = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), level);
    if (ec != std::errc() || end == s.data()) {
        return std::nullopt;
    }
    const std::string_view rest(end, std::size_t(s.data() + s.size() - end));
    if (equalsNoCase(rest, "_20b")) {
        return level + 2;
    }
    return rest.empty() ? std::optional<int>(level) : std::nullopt;
}

// Comparison prefix of a block condition: ">=dx90", "GPU<2". nullopt = not a condition.
std::optional<bool> compare(std::string_view s, int have,
                            std::optional<int> (*parse)(std::string_view))
{
    std::string_view op;
    for (std::string_view o : {">=", "<=", ">", "<"}) {
        if (s.substr(0, o.size()) == o) {
            op = o;
            break;
        }
    }
    const auto want = parse(s.substr(op.size()));
    if (!want) {
        return std::nullopt;
    }
    if (op == ">=") {
        return have >= *want;
    }
    if (op == "<=") {
        return have <= *want;
    }
    if (op == ">") {
        return have > *want;
    }
    if (op == "<") {
        return have < *want;
    }
    return have == *want;
}

std::optional<int> plainNumber(std::string_view s)
{
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
        return std::nullopt;
    }
    return v;
}

// Whether a shader's sub-block applies: nullopt when the key is no condition (Proxies and the
// like, skipped).
std::optional<bool> blockApplies(std::string_view key)
{
    if (auto r = compare(key, kEngineDxLevel, dxLevel)) {
        return r;
    }
    if (key.size() > 3 && equalsNoCase(key.substr(0, 3), "gpu")) {
        return compare(key.substr(3), kEngineGpuLevel, plainNumber);
    }
    if (equalsNoCase(key, "hdr") || equalsNoCase(key, "srgb_pc")) {
        return true;
    }
    if (equalsNoCase(key, "ldr") || equalsNoCase(key, "360") || equalsNoCase(key, "srgb") ||
        equalsNoCase(key, "lowfill") || equalsNoCase(key, "ps3")) {
        return false;
    }
    return std::nullopt;
}

// "srgb?$basetexture", "!360?$x": the key without its prefix and whether it applies.
std::pair<std::string_view, bool> prefixedKey(std::string_view key)
{
    const std::size_t q = key.find('?');
    if (q == std::string_view::npos) {
        return {key, true};
    }
    std::string_view cond = key.substr(0, q);
    bool negate = false;
    if (!cond.empty() && cond.front() == '!') {
        negate = true;
        cond.remove_prefix(1);
    }
    const bool holds = blockApplies(cond).value_or(false);
    return {key.substr(q + 1), negate ? !holds : holds};
}

void setParam(std::vector<VmtParam>& params, const KvNode& n, std::string_view key,
              const std::string& file, bool overrideExisting, bool onlyExisting)
{
    const std::string lower = toLowerAscii(key);
    for (VmtParam& p : params) {
        if (p.key == lower) {
            if (overrideExisting) {
                p.value = n.value;
                p.file = file;
                p.where = n.where;
            }
            return;
        }
    }
    if (!onlyExisting) {
        params.push_back({lower, n.value, file, n.where});
    }
}

// Adds the values of `block` (first one of a key wins), then applies the conditional
// sub-blocks that hold for this engine (they override).
void flatten(const KvNode& block, const std::string& file, std::vector<VmtParam>& params,
             bool overrideExisting, bool onlyExisting, int depth = 0)
{
    for (const KvNode& c : block.children) {
        if (c.block || (!c.condition.empty() && !kvConditionHolds(c.condition))) {
            continue;
        }
        const auto [key, holds] = prefixedKey(c.key);
        if (holds) {
            setParam(params, c, key, file, overrideExisting, onlyExisting);
        }
    }
    if (depth > 8) {
        return;
    }
    for (const KvNode& c : block.children) {
        if (!c.block || (!c.condition.empty() && !kvConditionHolds(c.condition))) {
            continue;
        }
        if (blockApplies(c.key).value_or(false)) {
            flatten(c, file, params, true, onlyExisting, depth + 1);
        }
    }
}

const KvNode* shaderBlock(const KvDocument& doc, const std::string& file, DiagnosticSink& sink)
{
    for (const KvNode& n : doc.roots) {
        if (n.block) {
            return &n;
        }
        sink.error(ids::kMaterialVmtSyntax, n.where,
                   "expected a shader block, got the value of key '" + n.key.substr(0, 64) + "'");
        return nullptr;
    }
    DiagnosticSink& s = sink;
    s.error(ids::kMaterialVmtSyntax, SourceLoc{1, 1, 0}, "no shader block in " + file);
    return nullptr;
}

Vmt readVmtImpl(std::span<const std::byte> bytes, const std::string& file,
                const VmtIncludeLoader& loadInclude, DiagnosticSink& sink,
                std::vector<std::string>& chain)
{
    Vmt vmt;
    DiagnosticSink local(file);
    const KvDocument doc = parseKeyValues(bytes, local, ids::kMaterialVmtSyntax);
    for (Diagnostic& d : local.diagnostics()) {
        d.file = file;
        sink.diagnostics().push_back(std::move(d));
    }
    DiagnosticSink here(file);
    const KvNode* root = shaderBlock(doc, file, here);
    for (Diagnostic& d : here.diagnostics()) {
        sink.diagnostics().push_back(std::move(d));
    }
    if (!root) {
        return vmt;
    }
    auto report = [&](SourceLoc where, std::string message) {
        Diagnostic& d = sink.error(ids::kMaterialVmtSyntax, where, std::move(message));
        d.file = file;
    };
    vmt.readable = true;
    vmt.shader = root->key;
    if (!equalsNoCase(root->key, "patch")) {
        flatten(*root, file, vmt.params, false, false);
        return vmt;
    }
    const KvNode* include = root->find("include");
    if (!include || include->block) {
        report(root->where, "patch material without an 'include' key");
        vmt.readable = false;
        return vmt;
    }
    const std::string name = include->value;
    for (const std::string& seen : chain) {
        if (equalsNoCase(seen, normaliseMaterialPath(name))) {
            report(include->valueWhere, "patch includes '" + name + "', which includes this one");
            vmt.readable = false;
            return vmt;
        }
    }
    if (int(chain.size()) >= kMaxIncludeDepth) {
        report(include->valueWhere,
               "patch includes nested deeper than " + std::to_string(kMaxIncludeDepth) + " levels");
        vmt.readable = false;
        return vmt;
    }
    std::optional<IncludedFile> inc = loadInclude ? loadInclude(name) : std::nullopt;
    if (!inc) {
        report(include->valueWhere, "patch includes '" + name + "', found in no root");
        vmt.readable = false;
        return vmt;
    }
    chain.push_back(normaliseMaterialPath(name));
    Vmt base =
        readVmtImpl(std::as_bytes(std::span(inc->bytes)), inc->path, loadInclude, sink, chain);
    chain.pop_back();
    vmt.shader = base.shader;
    vmt.params = std::move(base.params);
    vmt.includes.push_back(inc->path);
    for (std::string& s : base.includes) {
        vmt.includes.push_back(std::move(s));
    }
    vmt.readable = base.readable;
    if (const KvNode* insert = root->find("insert"); insert && insert->block) {
        flatten(*insert, file, vmt.params, true, false);
    }
    if (const KvNode* replace = root->find("replace"); replace && replace->block) {
        flatten(*replace, file, vmt.params, true, true);
    }
    return vmt;
}

bool parseFloat(std::string_view s, float& out)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    if (!s.empty() && s.front() == '+') {
        s.remove_prefix(1);
    }
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end != s.data();
}

// "[1 0.5 0.5]", "{255 128 128}" (0-255), or a single number.
std::array<float, 3> parseColor(std::string_view s)
{
    std::array<float, 3> c{1, 1, 1};
    bool bytes = false;
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    if (!s.empty() && (s.front() == '[' || s.front() == '{')) {
        bytes = s.front() == '{';
        s.remove_prefix(1);
    } else {
        float v = 1;
        if (parseFloat(s, v)) {
            c = {v, v, v};
        }
        return c;
    }
    for (float& channel : c) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
            s.remove_prefix(1);
        }
        float v = 0;
        if (!parseFloat(s, v)) {
            return {1, 1, 1};
        }
        channel = bytes ? v / 255.0f : v;
        while (!s.empty() && s.front() != ' ' && s.front() != '\t') {
            s.remove_prefix(1);
        }
    }
    return c;
}

} // namespace

const VmtParam* Vmt::find(std::string_view key) const noexcept
{
    for (const VmtParam& p : params) {
        if (equalsNoCase(p.key, key)) {
            return &p;
        }
    }
    return nullptr;
}

std::string Vmt::value(std::string_view key) const
{
    const VmtParam* p = find(key);
    return p ? p->value : std::string();
}

bool Vmt::flag(std::string_view key) const
{
    const VmtParam* p = find(key);
    if (!p) {
        return false;
    }
    float v = 0;
    return parseFloat(p->value, v) && v != 0.0f;
}

VmtLook vmtLook(const Vmt& vmt)
{
    VmtLook look;
    look.baseTexture = normaliseMaterialPath(vmt.value("$basetexture"));
    look.baseTexture2 = normaliseMaterialPath(vmt.value("$basetexture2"));
    look.bumpMap = normaliseMaterialPath(vmt.value("$bumpmap"));
    if (look.bumpMap.empty()) {
        look.bumpMap = normaliseMaterialPath(vmt.value("$normalmap"));
    }
    look.translucent = vmt.flag("$translucent");
    look.alphaTest = vmt.flag("$alphatest");
    if (const VmtParam* ref = vmt.find("$alphatestreference")) {
        float v = 0.5f;
        if (parseFloat(ref->value, v) && v >= 0.0f && v <= 1.0f) {
            look.alphaTestReference = v;
        }
    }
    look.additive = vmt.flag("$additive");
    look.noCull = vmt.flag("$nocull");
    look.selfIllum = vmt.flag("$selfillum");
    look.phong = vmt.flag("$phong");
    look.envMap = !vmt.value("$envmap").empty();
    if (const VmtParam* c = vmt.find("$color")) {
        look.color = parseColor(c->value);
    }
    if (const VmtParam* c = vmt.find("$color2")) {
        look.color2 = parseColor(c->value);
    }
    return look;
}

Vmt readVmt(std::span<const std::byte> bytes, const std::string& file,
            const VmtIncludeLoader& loadInclude, DiagnosticSink& sink)
{
    std::vector<std::string> chain;
    return readVmtImpl(bytes, file, loadInclude, sink, chain);
}

std::string normaliseMaterialPath(std::string_view name)
{
    std::string out;
    out.reserve(name.size());
    for (char c : name) {
        if (c == '\\') {
            c = '/';
        }
        if (c == '/' && (out.empty() || out.back() == '/')) {
            continue; // leading and doubled separators
        }
        out.push_back(c);
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) {
        out.pop_back();
    }
    const std::size_t slash = out.rfind('/');
    const std::size_t dot = out.rfind('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
        out.erase(dot);
    }
    if (!out.empty() && out.back() == '/') {
        out.pop_back();
    }
    return toLowerAscii(out);
}

} // namespace rigscope::core
