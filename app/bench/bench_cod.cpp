// rigscope-bench cod: whole processes on generated Call of Duty text files (issue 16). Four
// inputs of about --mb MB each: an XMODEL_EXPORT (64 bones, one weight a vertex, every face
// corner with NORMAL / COLOR / UV) and an XANIM_EXPORT (96 parts), each regular (LF, no
// comment, the layout the exporters write) and irregular (CRLF, tab-indented record lines,
// `//` comment lines and comments after the fields every few records, a comment at the end).
// For each, the floor process (`rigscope-bench --floor FILE`) and `rigscope-cli info
// --no-checks FILE` run as child processes in the same run, as for SMD (bench_smd.cpp).
#include <cstdint>
#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "app/bench/bench_readers.h"
#include "core/io/file_buffer.h"

namespace rigscope::bench {

namespace {

// A deterministic number stream in [0, 1) (xorshift).
struct CodRng {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    double unit()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return static_cast<double>(s >> 11) / 9007199254740992.0;
    }
};

// Lines of a generated file: `sub` lines are indented with a tab when irregular, `comment` adds
// a `//` comment line or a comment after the fields every so often.
class CodText {
public:
    explicit CodText(bool irregular) : m_irregular(irregular), m_nl(irregular ? "\r\n" : "\n") {}
    std::string text;

    void line(const std::string& s) { end(s); }
    void sub(const std::string& s) { end(m_irregular ? "\t" + s : s); }
    void nums(std::string s, int n, double scale)
    {
        for (int i = 0; i < n; ++i) {
            char buf[32];
            std::snprintf(buf, sizeof buf, " %.6f", scale * (2.0 * m_rng.unit() - 1.0));
            s += buf;
        }
        sub(s);
    }
    int pick(int n) { return static_cast<int>(m_rng.unit() * n); }
    void blank() { text += m_nl; }
    void finish()
    {
        if (m_irregular) {
            line("// end of the generated file");
        }
    }

private:
    bool m_irregular;
    const char* m_nl;
    CodRng m_rng;
    std::uint64_t m_lines = 0;

    void end(const std::string& s)
    {
        text += s;
        ++m_lines;
        if (m_irregular && m_lines % 53 == 0) {
            text += "  // exported by a hand-edited pipeline";
        }
        text += m_nl;
        if (m_irregular && m_lines % 97 == 0) {
            text += "// a comment line" + std::string(m_nl);
        }
    }
};

std::string makeXmodel(std::size_t bytes, bool irregular, std::size_t& triangles)
{
    CodText t(irregular);
    t.line("MODEL");
    t.line("VERSION 6");
    t.blank();
    constexpr int kBones = 64;
    t.line("NUMBONES " + std::to_string(kBones));
    for (int b = 0; b < kBones; ++b) {
        t.line("BONE " + std::to_string(b) + " " + std::to_string(b - 1) + " \"bone_" +
               std::to_string(b) + "\"");
    }
    t.blank();
    for (int b = 0; b < kBones; ++b) {
        t.line("BONE " + std::to_string(b));
        t.nums("OFFSET", 3, 10.0);
        t.sub("SCALE 1.000000 1.000000 1.000000");
        t.sub("X 1.000000 0.000000 0.000000");
        t.sub("Y 0.000000 1.000000 0.000000");
        t.sub("Z 0.000000 0.000000 1.000000");
        t.blank();
    }
    // About 470 bytes a vertex and its face (one face a vertex).
    const auto n = static_cast<int>(bytes / 470 + 1);
    t.line("NUMVERTS " + std::to_string(n));
    for (int v = 0; v < n; ++v) {
        t.line("VERT " + std::to_string(v));
        t.nums("OFFSET", 3, 100.0);
        t.sub("BONES 1");
        t.sub("BONE " + std::to_string(t.pick(kBones)) + " 1.000000");
        t.blank();
    }
    t.line("NUMFACES " + std::to_string(n));
    for (int f = 0; f < n; ++f) {
        t.line("TRI 0 0 0 0");
        for (int c = 0; c < 3; ++c) {
            t.sub("VERT " + std::to_string(t.pick(n)));
            t.nums("NORMAL", 3, 1.0);
            t.sub("COLOR 1.000000 1.000000 1.000000 1.000000");
            t.nums("UV 1", 2, 1.0);
        }
        t.blank();
    }
    triangles = static_cast<std::size_t>(n);
    t.line("NUMOBJECTS 1");
    t.line("OBJECT 0 \"body\"");
    t.blank();
    t.line("NUMMATERIALS 1");
    t.line("MATERIAL 0 \"skin\" \"Lambert\" \"skin.tga\"");
    t.line("COLOR 0.000000 0.000000 0.000000 1.000000");
    t.line("PHONG -1.000000");
    t.finish();
    return std::move(t.text);
}

std::string makeXanim(std::size_t bytes, bool irregular, std::size_t& frames)
{
    CodText t(irregular);
    t.line("ANIMATION");
    t.line("VERSION 3");
    t.blank();
    constexpr int kParts = 96;
    t.line("NUMPARTS " + std::to_string(kParts));
    for (int p = 0; p < kParts; ++p) {
        t.line("PART " + std::to_string(p) + " \"part_" + std::to_string(p) + "\"");
    }
    t.blank();
    t.line("FRAMERATE 30");
    // About 160 bytes a part a frame.
    const auto n = static_cast<int>(bytes / (160 * kParts) + 1);
    t.line("NUMFRAMES " + std::to_string(n));
    for (int f = 0; f < n; ++f) {
        t.line("FRAME " + std::to_string(f));
        for (int p = 0; p < kParts; ++p) {
            t.line("PART " + std::to_string(p));
            t.nums("OFFSET", 3, 50.0);
            t.nums("X", 3, 1.0);
            t.nums("Y", 3, 1.0);
            t.nums("Z", 3, 1.0);
            t.blank();
        }
    }
    frames = static_cast<std::size_t>(n);
    t.line("NOTETRACKS");
    t.blank();
    t.line("NUMTRACKS 0");
    t.finish();
    return std::move(t.text);
}

} // namespace

int runCodBench(const SmdBenchOptions& opt)
{
    ::mkdir(opt.workDir.c_str(), 0755);
    const std::string cli = opt.self.substr(0, opt.self.rfind('/') + 1) + "rigscope-cli";
    if (::access(cli.c_str(), X_OK) != 0) {
        std::fprintf(stderr, "rigscope-bench cod: %s not found (build rigscope-cli)\n",
                     cli.c_str());
        return 1;
    }
    const auto bytes = static_cast<std::size_t>(opt.targetMegabytes * 1e6);
    const std::string loadBefore = loadAverage();
    std::printf("== CoD text, whole processes (inputs in %s; best of %d)\n", opt.workDir.c_str(),
                opt.repeats);
    std::printf("  irregular: CRLF, tab-indented record lines, comment lines and comments after\n"
                "  the fields every few records\n");
    std::printf("  sys = kernel time, faults = minor + major page faults of the best run\n");
    std::printf("%-34s %6s %9s | %-30s | %-30s | %-22s %6s  %s\n", "input", "MB", "tris/frms",
                "floor", "info --no-checks", "ratio", "peak", "target: <= 1.25x");
    std::printf("%-34s %6s %9s | %s %6s\n", "", "", "", runHeader().c_str(), "MB");
    bool met = true;
    for (const bool anim : {false, true}) {
        for (const bool irregular : {false, true}) {
            const std::string name = std::string(anim ? "cod_anim" : "cod_model") +
                                     (irregular ? "_irregular" : "_regular") +
                                     (anim ? ".xanim_export" : ".xmodel_export");
            const std::string path = opt.workDir + "/" + name;
            std::size_t items = 0;
            const std::string text =
                anim ? makeXanim(bytes, irregular, items) : makeXmodel(bytes, irregular, items);
            core::writeFileAtomic(path, text, core::WriteMode::Overwrite);
            const ProcessRun floor = bestRun({opt.self, "--floor", path}, opt.repeats);
            const ProcessRun info = bestRun({cli, "info", "--no-checks", path}, opt.repeats);
            if (floor.seconds <= 0 || info.seconds <= 0) {
                std::printf("%-34s failed to run\n", name.c_str());
                met = false;
                continue;
            }
            const double ratio = info.seconds / floor.seconds;
            met = met && ratio <= 1.25;
            std::printf("%-34s %6.1f %9zu | %s %6.1f  %s\n", name.c_str(),
                        static_cast<double>(text.size()) / 1e6, items,
                        runColumns(floor, info).c_str(), info.peakMb,
                        ratio <= 1.25 ? "met" : "MISSED");
        }
    }
    std::printf("  CoD targets: %s (load average %s before, %s after)\n", met ? "met" : "MISSED",
                loadBefore.c_str(), loadAverage().c_str());
    return 0;
}

} // namespace rigscope::bench
