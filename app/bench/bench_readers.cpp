#include "app/bench/bench_readers.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/formats/registry.h"
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

// A reference SMD shaped like real exports: 128 bones, 2-4 links per corner, 6-decimal floats.
std::string makeReferenceSmd(double targetMb, std::size_t& triangles)
{
    Rng rng;
    std::string s;
    s.reserve(static_cast<std::size_t>(targetMb * 1.05e6));
    const int bones = 128;
    s += "version 1\nnodes\n";
    for (int b = 0; b < bones; ++b) {
        s += std::to_string(b) + " \"bone_" + std::to_string(b) + "\" " + std::to_string(b == 0 ? -1 : (b - 1) / 2) + "\n";
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
        s += triangles % 3 == 0 ? "body.tga\n" : (triangles % 3 == 1 ? "head.tga\n" : "arms.tga\n");
        for (int c = 0; c < 3; ++c) {
            const int parent = rng.below(bones);
            s += std::to_string(parent);
            for (int k = 0; k < 3; ++k) {
                s += ' ';
                fixed6(s, rng.unit() * 100 - 50);
            }
            for (int k = 0; k < 3; ++k) {
                s += ' ';
                fixed6(s, rng.unit() * 2 - 1);
            }
            s += ' ';
            fixed6(s, rng.unit());
            s += ' ';
            fixed6(s, rng.unit());
            const int links = 2 + rng.below(3);
            s += ' ' + std::to_string(links);
            float left = 1.0f;
            for (int l = 0; l < links; ++l) {
                const float w = l + 1 == links ? left : left * 0.5f;
                left -= w;
                s += ' ' + std::to_string(rng.below(bones)) + ' ';
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
        s += std::to_string(b) + " \"bone_" + std::to_string(b) + "\" " + std::to_string(b == 0 ? -1 : (b - 1) / 2) + "\n";
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

// The floor: convert every numeric token of the buffer with from_chars, nothing else.
double floorPass(std::string_view text, double& checksum)
{
    const auto t0 = Clock::now();
    const char* p = text.data();
    const char* end = p + text.size();
    double sum = 0;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) {
            ++p;
        }
        const char* q = p;
        while (q < end && *q != ' ' && *q != '\n' && *q != '\r' && *q != '\t') {
            ++q;
        }
        if (q > p && ((*p >= '0' && *p <= '9') || *p == '-' || *p == '.')) {
            float v = 0;
            std::from_chars(p, q, v);
            sum += static_cast<double>(v);
        }
        p = q;
    }
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
};

ChildResult runChild(const std::string& self, const std::string& file)
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
        execl(self.c_str(), self.c_str(), "--measure-read", file.c_str(), static_cast<char*>(nullptr));
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
    std::sscanf(out.c_str(), "peak_kb=%ld seconds=%lf", &r.peakKb, &r.seconds);
    return r;
}

} // namespace

int measureReadChild(const std::string& file)
{
    const long before = peakKb();
    const auto t0 = Clock::now();
    core::FileReadResult bytes = core::readFile(file);
    core::ReadContext ctx;
    ctx.fileName = file;
    core::ReadResult r = core::readAny(bytes.bytes, ctx);
    const double s = seconds(t0, Clock::now());
    std::printf("peak_kb=%ld seconds=%f baseline_kb=%ld triangles=%zu\n", peakKb(), s, before,
                r.model.mesh.triangleCount());
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
    std::printf("generated %s (%zu triangles) and %s (2000 frames x 96 bones)\n", refPath.c_str(), tris,
                animPath.c_str());
    std::printf("%-28s %10s %10s %12s %10s\n", "input / reader", "MB", "MB/s", "peak MB", "vs floor");
    for (const std::string& path : {refPath, animPath}) {
        core::FileReadResult bytes = core::readFile(path);
        const double mb = static_cast<double>(bytes.bytes.size()) / 1e6;
        double best = 1e9, checksum = 0;
        for (int i = 0; i < opt.repeats; ++i) {
            best = std::min(best, floorPass(bytes.bytes, checksum));
        }
        const double floorRate = mb / best;
        std::printf("%-28s %10.1f %10.1f %12s %10s\n", (core::baseName(path) + " floor").c_str(), mb,
                    floorRate, "-", "1.00x");
        double bestRead = 1e9;
        long peak = -1;
        for (int i = 0; i < opt.repeats; ++i) {
            const ChildResult c = runChild(opt.self, path);
            bestRead = std::min(bestRead, c.seconds);
            peak = std::max(peak, c.peakKb);
        }
        const double rate = mb / bestRead;
        std::printf("%-28s %10.1f %10.1f %12.1f %9.2fx\n", (core::baseName(path) + " smd reader").c_str(), mb,
                    rate, static_cast<double>(peak) / 1024.0, rate / floorRate);
    }
    return 0;
}

} // namespace rigscope::bench
