// rigscope-bench mdl: compiled models (issue 29 item 5), on real models the user points at
// (--models=DIR; nothing here is generated, so nothing is tuned on them). Three rows, each a
// whole process against a floor process in the same run:
//  - many files: `rigscope-cli info --no-checks` on every model of DIR in one process, against
//    `rigscope-bench --floor-bytes` reading the same files (each .mdl with its companions);
//  - the largest model alone: `rigscope-cli info` (with its compiled checks) against its bytes;
//  - the first frame: `rigscope --screenshot` of the largest model against a one-triangle SMD
//    (the window's own start-up), both with RIGSCOPE_TIMING (needs a display).
// The issue sets no target: the ratios, sys time and page faults are printed for the record.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "app/bench/bench_readers.h"
#include "core/formats/mdl/compiled_files.h"
#include "core/io/file_buffer.h"

namespace rigscope::bench {

namespace {

namespace fs = std::filesystem;

struct ModelFiles {
    std::string mdl;
    std::vector<std::string> companions;
    std::uintmax_t bytes = 0;
};

std::uintmax_t sizeOf(const std::string& path)
{
    std::error_code ec;
    const std::uintmax_t n = fs::file_size(path, ec);
    return ec ? 0 : n;
}

// A model the window opens: IDST, not a GoldSrc NAMEt.mdl texture file beside its NAME.mdl.
bool isMainModel(const fs::path& p)
{
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) {
        return false;
    }
    char magic[4] = {};
    const bool idst = std::fread(magic, 1, 4, f) == 4 && std::string(magic, 4) == "IDST";
    std::fclose(f);
    const std::string stem = p.stem().string();
    if (!idst) {
        return false;
    }
    if (!stem.empty() && (stem.back() == 't' || stem.back() == 'T')) {
        std::error_code ec;
        return !fs::exists(p.parent_path() / (stem.substr(0, stem.size() - 1) + ".mdl"), ec);
    }
    return true;
}

std::vector<ModelFiles> findModels(const std::string& dir)
{
    std::vector<ModelFiles> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        std::string ext = p.extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (!it->is_regular_file() || ext != ".mdl" || !isMainModel(p)) {
            continue;
        }
        ModelFiles m;
        m.mdl = p.string();
        const core::CompiledCompanions c = core::findCompiledCompanions(m.mdl);
        for (const std::string& f : {c.vvd, c.vtx, c.phy, c.ani, c.textures, c.vbm}) {
            if (!f.empty()) {
                m.companions.push_back(f);
            }
        }
        for (const std::string& g : c.sequenceGroups) {
            if (!g.empty()) {
                m.companions.push_back(g);
            }
        }
        m.bytes = sizeOf(m.mdl);
        for (const std::string& f : m.companions) {
            m.bytes += sizeOf(f);
        }
        out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(),
              [](const ModelFiles& a, const ModelFiles& b) { return a.mdl < b.mdl; });
    return out;
}

void row(const char* name, double mb, const ProcessRun& floor, const ProcessRun& run)
{
    std::printf("%-24s %7.1f | %s %7.1f\n", name, mb, runColumns(floor, run).c_str(), run.peakMb);
}

} // namespace

int floorBytesProcess(int count, char** paths)
{
    std::uint64_t sum = 0;
    for (int i = 0; i < count; ++i) {
        const core::FileReadResult r = core::readFile(paths[i]);
        if (!r.ok()) {
            continue;
        }
        for (const char c : r.bytes) {
            sum += static_cast<unsigned char>(c);
        }
    }
    std::printf("%llu\n", static_cast<unsigned long long>(sum));
    return 0;
}

int runMdlBench(const MdlBenchOptions& opt)
{
    const std::string dir = opt.self.substr(0, opt.self.rfind('/') + 1);
    const std::string cli = dir + "rigscope-cli";
    if (opt.modelsDir.empty() || !fs::is_directory(opt.modelsDir)) {
        std::fprintf(stderr,
                     "rigscope-bench mdl: --models=DIR names no folder of compiled models\n");
        return 2;
    }
    const std::vector<ModelFiles> models = findModels(opt.modelsDir);
    if (models.empty()) {
        std::fprintf(stderr, "rigscope-bench mdl: no compiled model under %s\n",
                     opt.modelsDir.c_str());
        return 2;
    }
    std::vector<std::string> floorAll{opt.self, "--floor-bytes"};
    std::vector<std::string> infoAll{cli, "info", "--no-checks"};
    std::uintmax_t total = 0;
    const ModelFiles* largest = &models.front();
    for (const ModelFiles& m : models) {
        floorAll.push_back(m.mdl);
        floorAll.insert(floorAll.end(), m.companions.begin(), m.companions.end());
        infoAll.push_back(m.mdl);
        total += m.bytes;
        largest = m.bytes > largest->bytes ? &m : largest;
    }
    std::printf("== compiled models under %s: %zu models, %.1f MB with their companions "
                "(best of %d)\n",
                opt.modelsDir.c_str(), models.size(), static_cast<double>(total) / 1e6,
                opt.repeats);
    std::printf("  floor: `rigscope-bench --floor-bytes FILES` reads each .mdl and its companions "
                "whole; sys = kernel time,\n  faults = minor + major page faults of the best run; "
                "ratios = RigScope / floor; no target is set\n");
    std::printf("%-24s %7s | %s %7s\n", "run", "MB", runHeader().c_str(), "peak MB");
    const ProcessRun floor = bestRun(floorAll, opt.repeats);
    const ProcessRun info = bestRun(infoAll, opt.repeats);
    int rc = 0;
    if (floor.seconds <= 0 || info.seconds <= 0) {
        std::printf("many files: failed to run\n");
        rc = 1;
    } else {
        row("info, every model", static_cast<double>(total) / 1e6, floor, info);
    }
    std::vector<std::string> floorOne{opt.self, "--floor-bytes", largest->mdl};
    floorOne.insert(floorOne.end(), largest->companions.begin(), largest->companions.end());
    const ProcessRun floor1 = bestRun(floorOne, opt.repeats);
    const ProcessRun info1 = bestRun({cli, "info", largest->mdl}, opt.repeats);
    if (floor1.seconds <= 0 || info1.seconds <= 0) {
        std::printf("largest: failed to run\n");
        rc = 1;
    } else {
        row("info, the largest", static_cast<double>(largest->bytes) / 1e6, floor1, info1);
    }
    std::printf("  the largest: %s\n", largest->mdl.c_str());

    const std::string gui = dir + "rigscope";
    if (::access(gui.c_str(), X_OK) != 0 || !std::getenv("DISPLAY")) {
        std::printf("first frame: skipped (needs %s and a display; run under xvfb-run)\n",
                    gui.c_str());
        return rc;
    }
    ::mkdir(opt.workDir.c_str(), 0755);
    const std::string tiny = opt.workDir + "/one_triangle.smd";
    core::writeFileAtomic(tiny,
                          "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n"
                          "end\ntriangles\nm\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n"
                          "0 0 1 0 0 0 1 0 1\nend\n",
                          core::WriteMode::Overwrite);
    const std::string png = opt.workDir + "/mdl_first_frame.png";
    const GuiRun base = bestGuiRun({gui, "--no-config", tiny, "--screenshot", png}, opt.repeats);
    const GuiRun big =
        bestGuiRun({gui, "--no-config", largest->mdl, "--screenshot", png}, opt.repeats);
    if (base.firstFrame < 0 || big.firstFrame < 0) {
        std::printf("first frame: the window did not draw\n");
        return 1;
    }
    std::printf("%-24s %7s | %9s %9s %8s\n", "rigscope --screenshot", "", "1st frame", "whole",
                "peak MB");
    std::printf("%-24s %7s | %8.2fs %8.2fs %8.0f\n", "  one-triangle SMD", "", base.firstFrame,
                base.total, base.peakMb);
    std::printf("%-24s %7.1f | %8.2fs %8.2fs %8.0f\n", "  the largest model",
                static_cast<double>(largest->bytes) / 1e6, big.firstFrame, big.total, big.peakMb);
    std::printf("  first frame, largest / one triangle: %.2fx\n",
                big.firstFrame / std::max(base.firstFrame, 1e-9));
    return rc;
}

} // namespace rigscope::bench
