#include "app/bench/bench_readers.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/formats/registry.h"
#include "core/formats/dmx/dmx.h"
#include "core/ops/convert.h"
#include "core/ops/read_input.h"
#include "core/io/file_buffer.h"
#include "core/text/numbers.h"

namespace rigscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

// Small deterministic PRNG (xorshift64*), so inputs are the same bytes on every run.
struct Rng {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    std::uint64_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ull;
    }
    float unit() { return static_cast<float>(next() >> 40) / static_cast<float>(1 << 24); }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

void fixed6(std::string& out, float v)
{
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(v));
    out.append(buf, static_cast<std::size_t>(n));
}

constexpr std::size_t kSheetCells = 370; // 370^2 cells x 2 = 273,800 triangles >= 100 MB

// A reference SMD shaped like real exports: 128 bones, 2-4 links per corner, 6-decimal floats.
std::string makeReferenceSmd(double targetMb, std::size_t& triangles)
{
    Rng rng;
    std::string s;
    s.reserve(static_cast<std::size_t>(targetMb * 1.05e6));
    const int bones = 128;
    s += "version 1\nnodes\n";
    for (int b = 0; b < bones; ++b) {
        s += std::to_string(b) + " \"bone_" + std::to_string(b) + "\" " +
             std::to_string(b == 0 ? -1 : (b - 1) / 2) + "\n";
    }
    s += "end\nskeleton\ntime 0\n";
    for (int b = 0; b < bones; ++b) {
        s += std::to_string(b) + " ";
        for (int k = 0; k < 6; ++k) {
            fixed6(s, rng.unit() * 2 - 1);
            s += k < 5 ? " " : "\n";
        }
    }
    s += "end\ntriangles\n";
    triangles = 0;
    const std::size_t target = static_cast<std::size_t>(targetMb * 1e6);
    while (s.size() < target) {

        // Small triangles tiling a wavy 100 x 100 sheet (two per grid cell), as in a real mesh:
        // the same number of digits to parse as random points, but a realistic load to draw.
        const std::size_t cell = triangles / 2;
        const std::size_t row = cell / kSheetCells; // whole rows: integer division meant
        const float gx = static_cast<float>(cell % kSheetCells), gy = static_cast<float>(row);
        const std::size_t third = (cell % kSheetCells) * 3 / kSheetCells; // materials in bands
        s += third == 0 ? "body.tga\n" : (third == 1 ? "head.tga\n" : "arms.tga\n");
        static constexpr float kCorner[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}},
                                                   {{0, 0}, {1, 1}, {0, 1}}};
        for (int c = 0; c < 3; ++c) {
            // Everything a corner carries is a function of its grid point, so the corners that
            // share a point weld into one vertex, as in a real mesh.
            const std::uint32_t ix = static_cast<std::uint32_t>(gx + kCorner[triangles % 2][c][0]);
            const std::uint32_t iy = static_cast<std::uint32_t>(gy + kCorner[triangles % 2][c][1]);
            std::uint32_t h = ix * 73856093u ^ iy * 19349663u;
            h ^= h >> 13;
            h *= 0x5bd1e995u;
            h ^= h >> 15;
            const int first = static_cast<int>(h % static_cast<std::uint32_t>(bones));
            s += std::to_string(first);
            const float x = static_cast<float>(ix) * (100.0f / kSheetCells) - 50.0f;
            const float y = static_cast<float>(iy) * (100.0f / kSheetCells) - 50.0f;
            const float z = 5.0f * std::sin(0.2f * x) * std::cos(0.15f * y);
            for (const float v : {x, y, z}) {
                s += ' ';
                fixed6(s, v);
            }
            // The sheet's unit normal (counter-clockwise winding faces it, as FORMATS.md says).
            const float dx = std::cos(0.2f * x) * std::cos(0.15f * y);
            const float dy = -0.75f * std::sin(0.2f * x) * std::sin(0.15f * y);
            const float len = std::sqrt(dx * dx + dy * dy + 1.0f);
            for (const float v : {-dx / len, -dy / len, 1.0f / len}) {
                s += ' ';
                fixed6(s, v);
            }
            s += ' ';
            fixed6(s, (x + 50.0f) * 0.01f);
            s += ' ';
            fixed6(s, (y + 50.0f) * 0.01f);
            // 2 or 3 distinct bones, and 4 on one point in 64 (over Source's limit of 3).
            const int links = (h >> 8) % 64 == 0 ? 4 : 2 + static_cast<int>((h >> 16) % 2);
            s += ' ' + std::to_string(links);
            float left = 1.0f;
            for (int l = 0; l < links; ++l) {
                const float w = l + 1 == links ? left : left * 0.5f;
                left -= w;
                s += ' ' + std::to_string((first + l * 7) % bones) + ' ';
                fixed6(s, w);
            }
            s += '\n';
        }
        ++triangles;
    }
    s += "end\n";
    return s;
}

std::string makeAnimationSmd(int frames, int bones)
{
    Rng rng;
    std::string s = "version 1\nnodes\n";
    for (int b = 0; b < bones; ++b) {
        s += std::to_string(b) + " \"bone_" + std::to_string(b) + "\" " +
             std::to_string(b == 0 ? -1 : (b - 1) / 2) + "\n";
    }
    s += "end\nskeleton\n";
    for (int f = 0; f < frames; ++f) {
        s += "time " + std::to_string(f) + "\n";
        for (int b = 0; b < bones; ++b) {
            s += std::to_string(b);
            for (int k = 0; k < 6; ++k) {
                s += ' ';
                fixed6(s, rng.unit() * 2 - 1);
            }
            s += '\n';
        }
    }
    s += "end\n";
    return s;
}

// `smd` written as keyvalues2 with one index per point and per corner
// (DmxWriteOptions::shareIndices false): the DMX input the readers' ratios to the floor were
// set on (docs/dmx.md §6). False, with a line saying so, when it could not be written.
bool writePerCornerKv2(const std::string& smd, const std::string& out)
{
    const core::OpenedInput in = core::openInput(smd, core::Profile::Auto, {});
    core::DmxWriteOptions perCorner;
    perCorner.shareIndices = false;
    const core::WriteResult w =
        in.readable ? core::writeDmxWith(in.result.model, {out}, perCorner) : core::WriteResult{};
    if (!in.readable || !w.ok() ||
        !core::writeFileAtomic(out, w.bytes, core::WriteMode::Overwrite).empty()) {
        std::printf("could not write %s\n", out.c_str());
        return false;
    }
    return true;
}

// The floor: memory-map the file and convert every numeric token with from_chars, nothing else
// (no structure, no model). Timed from open() to munmap(), like a reader is timed from its
// readFile() to its model.
// `quoted`: '"' and ',' also end a token (keyvalues2 holds its numbers in quoted items such as
// `"0.5 1 2",`; without it the floor would skip every item's first number and every int item).
double floorPass(const std::string& path, double& checksum, bool quoted = false)
{
    const auto t0 = Clock::now();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 1e9;
    }
    struct stat st {};
    ::fstat(fd, &st);
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = size > 0 ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    ::close(fd);
    if (map == MAP_FAILED) {
        return 1e9;
    }
    ::madvise(map, size, MADV_SEQUENTIAL);
    const char* p = static_cast<const char*>(map);
    const char* end = p + size;
    double sum = 0;
    const auto blank = [quoted](char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' ||
               (quoted && (c == '"' || c == ','));
    };
    while (p < end) {
        while (p < end && blank(*p)) {
            ++p;
        }
        const char* q = p;
        while (q < end && !blank(*q)) {
            ++q;
        }
        if (q > p && ((*p >= '0' && *p <= '9') || *p == '-' || *p == '.')) {
            float v = 0;
            std::from_chars(p, q, v);
            sum += static_cast<double>(v);
        }
        p = q;
    }
    ::munmap(map, size);
    checksum = sum;
    return seconds(t0, Clock::now());
}

long peakKb()
{
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) {
        return -1;
    }
    char line[256];
    long kb = -1;
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, "VmHWM:", 6) == 0) {
            kb = std::strtol(line + 6, nullptr, 10);
        }
    }
    std::fclose(f);
    return kb;
}

struct ChildResult {
    long peakKb = -1;
    double seconds = 0;
    long baselineKb = 0;
    long modelKb = 0;
};

ChildResult runChild(const std::string& self, const std::string& file, int threads)
{
    ChildResult r;
    int fds[2];
    if (pipe(fds) != 0) {
        return r;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        const std::string t = std::to_string(threads);
        execl(self.c_str(), self.c_str(), "--measure-read", file.c_str(), t.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    char buf[512];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
        out.append(buf, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    std::sscanf(out.c_str(), "peak_kb=%ld seconds=%lf baseline_kb=%ld model_kb=%ld", &r.peakKb,
                &r.seconds, &r.baselineKb, &r.modelKb);
    return r;
}

template <typename T> std::size_t bytesOf(const std::vector<T>& v)
{
    return v.size() * sizeof(T);
}

// The final model's size: its contiguous arrays (what the renderer uploads and checks walk).
std::size_t modelBytes(const core::Model& m)
{
    const core::Mesh& x = m.mesh;
    std::size_t n = bytesOf(x.pointPositions) + bytesOf(x.pointParents) +
                    bytesOf(x.pointLinkState) + bytesOf(x.influenceOffsets) +
                    bytesOf(x.influenceJoints) + bytesOf(x.influenceWeights) +
                    bytesOf(x.pointWhere) + bytesOf(x.cornerPoints) + bytesOf(x.cornerNormals) +
                    bytesOf(x.cornerUvs) + bytesOf(x.cornerExtraUvs) + bytesOf(x.cornerColors) +
                    bytesOf(x.cornerWhere) + bytesOf(x.triangleMaterials) +
                    bytesOf(x.triangleObjects) + bytesOf(x.triangleWhere);
    for (const core::Animation& a : m.animations) {
        n += bytesOf(a.times) + bytesOf(a.frameWhere) + bytesOf(a.positions) +
             bytesOf(a.rotations) + bytesOf(a.axes) + bytesOf(a.scales) + bytesOf(a.explicitKey);
    }
    return n;
}

// Best wall time of a shell command over `repeats` runs; negative when it fails.
double timedCommand(const std::string& cmd, int repeats)
{
    double best = -1;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        const int rc = std::system((cmd + " >/dev/null 2>&1").c_str());
        const double t = seconds(t0, Clock::now());
        if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) > 1) {
            return -1;
        }
        best = best < 0 ? t : std::min(best, t);
    }
    return best;
}

std::string dirOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

bool executable(const std::string& path)
{
    return ::access(path.c_str(), X_OK) == 0;
}

void printTool(const char* what, double secs, const char* target)
{
    if (secs < 0) {
        std::printf("  %-44s %s\n", what, "skipped (not available here)");
    } else {
        std::printf("  %-44s %7.2f s   %s\n", what, secs, target);
    }
}

} // namespace

int measureReadChild(const std::string& file, int threads)
{
    const long before = peakKb();
    const auto t0 = Clock::now();
    core::FileReadResult bytes = core::readFile(file);
    core::ReadContext ctx;
    ctx.fileName = file;
    ctx.threads = static_cast<unsigned>(std::max(threads, 0));
    core::ReadResult r = core::readAny(bytes.bytes, ctx);
    const double s = seconds(t0, Clock::now());
    std::printf("peak_kb=%ld seconds=%f baseline_kb=%ld model_kb=%zu triangles=%zu fast_lines=%llu "
                "shares=%u\n",
                peakKb(), s, before, modelBytes(r.model) / 1024, r.model.mesh.triangleCount(),
                static_cast<unsigned long long>(r.stats.fastLines), r.stats.parallelShares);
    return 0;
}

int runReaderBench(const ReaderBenchOptions& opt)
{
    ::mkdir(opt.workDir.c_str(), 0755);
    std::printf("== readers (inputs in %s)\n", opt.workDir.c_str());
    std::size_t tris = 0;
    const std::string refPath = opt.workDir + "/bench_ref.smd";
    const std::string animPath = opt.workDir + "/bench_anim.smd";
    {
        const std::string ref = makeReferenceSmd(opt.targetMegabytes, tris);
        core::writeFileAtomic(refPath, ref, core::WriteMode::Overwrite);
        const std::string anim = makeAnimationSmd(2000, 96);
        core::writeFileAtomic(animPath, anim, core::WriteMode::Overwrite);
    }
    std::printf("generated %s (%zu triangles) and %s (2000 frames x 96 bones)\n", refPath.c_str(),
                tris, animPath.c_str());
    // The same models in the other formats, written by our own converters.
    std::vector<std::string> inputs{refPath, animPath};
    for (const auto& [in, ext] :
         {std::pair{refPath, ".smdx"}, std::pair{refPath, ".xmodel_export"},
          std::pair{animPath, ".smdx"}, std::pair{animPath, ".xanim_export"}}) {
        const std::string out = in.substr(0, in.size() - 4) + ext;
        const core::ConvertResult c = core::convertFile(in, out, true);
        if (c.written) {
            inputs.push_back(out);
        } else {
            std::printf("could not write %s: %s\n", out.c_str(), c.error.c_str());
        }
    }
    // DMX: the reference as keyvalues2 with one index per point and per corner (the form its
    // ratio to the floor is set on, as in `rigscope-bench dmx`: docs/dmx.md §6) and as binary 2.
    if (writePerCornerKv2(refPath, opt.workDir + "/bench_ref.dmx")) {
        inputs.push_back(opt.workDir + "/bench_ref.dmx");
    }
    {
        const std::string out = opt.workDir + "/bench_ref_binary.dmx";
        const core::ConvertResult c = core::convertFile(refPath, out, true, "dmx-binary");
        if (c.written) {
            inputs.push_back(out);
        } else {
            std::printf("could not write %s: %s\n", out.c_str(), c.error.c_str());
        }
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("%-42s %6s %8s %9s %8s %7s  %s\n", "input / reader", "MB", "MB/s", "vs floor",
                "peak MB", "budget", "target");
    std::printf("  (floor: map the file, every numeric token through std::from_chars, one thread;\n"
                "   budget: peak over 1.5 x model + file, target <= 1.00; %u cores here)\n",
                cores);
    for (const std::string& path : inputs) {
        const core::FileReadResult bytes = core::readFile(path);
        const double mb = static_cast<double>(bytes.bytes.size()) / 1e6;
        const bool binary = path.ends_with(".smdx") || path.ends_with("_binary.dmx");
        double floorRate = 0;
        if (!binary) {
            double best = 1e9, checksum = 0;
            for (int i = 0; i < opt.repeats; ++i) {
                best = std::min(best, floorPass(path, checksum, path.ends_with(".dmx")));
            }
            floorRate = mb / best;
            std::printf("%-42s %6.1f %8.1f %9s\n", (core::baseName(path) + " floor").c_str(), mb,
                        floorRate, "1.00x");
        }
        // Text readers on one thread and on every core; binary ones as they come.
        std::vector<int> threadCounts{binary ? 0 : 1};
        if (!binary && cores > 1) {
            threadCounts.push_back(static_cast<int>(cores));
        }
        for (const int threads : threadCounts) {
            double bestRead = 1e9;
            ChildResult worst;
            for (int i = 0; i < opt.repeats; ++i) {
                const ChildResult c = runChild(opt.self, path, threads);
                bestRead = std::min(bestRead, c.seconds);
                if (c.peakKb > worst.peakKb) {
                    worst = c;
                }
            }
            const double rate = mb / bestRead;
            const double used = static_cast<double>(worst.peakKb - worst.baselineKb) / 1024.0;
            const double allowed = (1.5 * static_cast<double>(worst.modelKb) +
                                    static_cast<double>(bytes.bytes.size()) / 1024.0) /
                                   1024.0;
            char ratio[32];
            const char* target = "";
            if (binary) {
                std::snprintf(ratio, sizeof ratio, "binary");
            } else {
                std::snprintf(ratio, sizeof ratio, "%.2fx", rate / floorRate);
                target = threads == 1 ? ">= 0.80x" : "> 1.00x";
            }
            const std::string name =
                core::baseName(path) + (binary ? std::string(" reader")
                                               : " reader, " + std::to_string(threads) +
                                                     (threads == 1 ? " thread" : " threads"));
            std::printf("%-42s %6.1f %8.1f %9s %8.1f %7.2f  %s\n", name.c_str(), mb, rate, ratio,
                        used, used / std::max(allowed, 1e-9), target);
        }
    }

    // Whole programs, timed from the outside (best of the repeats).
    std::printf("== programs\n");
    const std::string here = dirOf(opt.self);
    const std::string cli = here + "/rigscope-cli";
    const std::string gui = here + "/rigscope";
    const bool display = std::getenv("DISPLAY") != nullptr;
    const double firstFrame =
        executable(gui) && display
            ? timedCommand("'" + gui + "' '" + refPath + "' --screenshot '" + opt.workDir +
                               "/first_frame.png' --size 1280x720",
                           opt.repeats)
            : -1;
    printTool("rigscope bench_ref.smd -> first frame (PNG)", firstFrame, "target <= 1.5 s");
    const double info =
        executable(cli) ? timedCommand("'" + cli + "' info '" + refPath + "'", opt.repeats) : -1;
    printTool("rigscope-cli info bench_ref.smd", info, "");
    const double assimp = std::system("command -v assimp >/dev/null 2>&1") == 0
                              ? timedCommand("assimp info '" + refPath + "' -r", opt.repeats)
                              : -1;
    printTool("assimp info -r bench_ref.smd (assimp-utils)", assimp, "");
    if (assimp > 0 && info > 0) {
        std::printf("  %-44s %7.2fx\n", "rigscope-cli info / assimp info -r", info / assimp);
    }
    const double check =
        executable(cli) && !opt.corpusDir.empty() && ::access(opt.corpusDir.c_str(), R_OK) == 0
            ? timedCommand("'" + cli + "' check '" + opt.corpusDir + "'", opt.repeats)
            : -1;
    printTool("rigscope-cli check <corpus>", check, "target <= 2 s");
    return 0;
}

int runDmxBench(const ReaderBenchOptions& opt)
{
    ::mkdir(opt.workDir.c_str(), 0755);
    std::printf("== dmx (inputs in %s)\n", opt.workDir.c_str());
    const auto best = [&](const std::string& path, int threads) {
        ChildResult out;
        out.seconds = 1e9;
        for (int i = 0; i < opt.repeats; ++i) {
            const ChildResult c = runChild(opt.self, path, threads);
            if (c.peakKb > out.peakKb) {
                out.peakKb = c.peakKb;
            }
            out.seconds = std::min(out.seconds, c.seconds);
        }
        return out;
    };
    const auto sizeMb = [](const std::string& path) {
        struct stat st {};
        return ::stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) / 1e6 : 0.0;
    };
    const auto write = [](const std::string& in, const std::string& out, const std::string& to) {
        const core::ConvertResult c = core::convertFile(in, out, true, to);
        if (!c.written) {
            std::printf("could not write %s: %s\n", out.c_str(), c.error.c_str());
        }
        return c.written;
    };
    // 1. keyvalues2 against the floor: the generated reference (a 20 MB SMD) as keyvalues2
    // with one index per point and per corner. The 1.25x target was set on that form: the
    // floor parses the file's numbers, and with shared indices (the writer's default) the file
    // holds about a third of them while the reader builds the same corners (docs/dmx.md §6).
    std::size_t tris = 0;
    const std::string smallSmd = opt.workDir + "/bench_dmx_kv2.smd";
    const std::string kv2 = opt.workDir + "/bench_dmx_kv2.dmx";
    core::writeFileAtomic(smallSmd, makeReferenceSmd(20.0, tris), core::WriteMode::Overwrite);
    if (!writePerCornerKv2(smallSmd, kv2)) {
        return 1;
    }
    double floorBest = 1e9, checksum = 0;
    for (int i = 0; i < opt.repeats; ++i) {
        floorBest = std::min(floorBest, floorPass(kv2, checksum, true));
    }
    const ChildResult k = best(kv2, 1);
    std::printf("%-44s %7.1f MB %8.3f s\n", "bench_dmx_kv2.dmx floor (quoted numbers)", sizeMb(kv2),
                floorBest);
    std::printf("%-44s %7.1f MB %8.3f s  %5.2fx the floor (target <= 1.25x), peak %.0f MB\n",
                "bench_dmx_kv2.dmx reader, 1 thread", sizeMb(kv2), k.seconds, k.seconds / floorBest,
                static_cast<double>(k.peakKb) / 1024.0);
    // The same model as the writer writes it by default (shared indices): no target, since the
    // floor then parses about a third of the numbers the per-corner file holds.
    const std::string kv2Shared = opt.workDir + "/bench_dmx_kv2_shared.dmx";
    if (!write(smallSmd, kv2Shared, std::string())) {
        return 1;
    }
    double sharedFloor = 1e9;
    for (int i = 0; i < opt.repeats; ++i) {
        sharedFloor = std::min(sharedFloor, floorPass(kv2Shared, checksum, true));
    }
    const ChildResult ks = best(kv2Shared, 1);
    std::printf("%-44s %7.1f MB %8.3f s  %5.2fx the per-corner file's read, %5.2fx its own floor "
                "(no target), peak %.0f MB\n",
                "bench_dmx_kv2_shared.dmx reader, 1 thread", sizeMb(kv2Shared), ks.seconds,
                ks.seconds / k.seconds, ks.seconds / sharedFloor,
                static_cast<double>(ks.peakKb) / 1024.0);
    // 2. Binary 2 of opt.targetMegabytes against the same model as SMD (binary 2 is ~0.245 of
    // the generated SMD's size since the writer shares equal positions, normals and texture
    // coordinates; 0.705 with an index per corner).
    const std::string bigSmd = opt.workDir + "/bench_dmx_big.smd";
    const std::string bin = opt.workDir + "/bench_dmx_big_binary.dmx";
    core::writeFileAtomic(bigSmd, makeReferenceSmd(opt.targetMegabytes / 0.245, tris),
                          core::WriteMode::Overwrite);
    if (!write(bigSmd, bin, "dmx-binary")) {
        return 1;
    }
    const ChildResult b = best(bin, 0);
    const ChildResult s1 = best(bigSmd, 1);
    const ChildResult s2 = best(bigSmd, 0);
    std::printf("%zu triangles\n", tris);
    std::printf("%-44s %7.1f MB %8.3f s  peak %.0f MB\n", "bench_dmx_big.smd reader, 1 thread",
                sizeMb(bigSmd), s1.seconds, static_cast<double>(s1.peakKb) / 1024.0);
    std::printf("%-44s %7.1f MB %8.3f s  peak %.0f MB\n", "bench_dmx_big.smd reader, every core",
                sizeMb(bigSmd), s2.seconds, static_cast<double>(s2.peakKb) / 1024.0);
    std::printf("%-44s %7.1f MB %8.3f s  %5.2fx the SMD's 1-thread time, %5.2fx its "
                "every-core time (target <= 1.00x), peak %.0f MB\n",
                "bench_dmx_big_binary.dmx reader", sizeMb(bin), b.seconds, b.seconds / s1.seconds,
                b.seconds / s2.seconds, static_cast<double>(b.peakKb) / 1024.0);
    return 0;
}

} // namespace rigscope::bench
