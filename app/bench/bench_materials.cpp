// rigscope-bench materials (issue 18): a generated Source project with 200 materials, each a
// VMT with its own DXT1 VTF, opened by the GUI with and without textures. Times the first frame
// (the viewport's "first frame" mark: its first render with the model is done; textures stream in
// after it) and the moment the last texture is in place, and the peak memory against the mip
// cap's bound. The GUI runs as a child process (`rigscope --screenshot` with
// RIGSCOPE_TIMING set): it needs a display (DISPLAY, or run the bench under xvfb-run).
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app/bench/bench_readers.h"
#include "core/io/file_buffer.h"
#include "tests/support/vtf_encoder.h"

namespace rigscope::bench {

namespace {

constexpr int kMaterials = 200;
constexpr int kColumns = 20;
constexpr int kTextureCap = 2048; // render::kTextureMaxSide

double now()
{
    timeval tv{};
    ::gettimeofday(&tv, nullptr);
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

std::string materialName(int i)
{
    char name[16];
    std::snprintf(name, sizeof name, "mat%03d", i);
    return name;
}

// A 20 x 10 wall of quads, one material each, facing -Y (the front camera).
std::string wallSmd()
{
    std::string s = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                    "triangles\n";
    char line[160];
    for (int i = 0; i < kMaterials; ++i) {
        const float x0 = static_cast<float>(i % kColumns) * 2.0f;
        const float z0 = static_cast<float>(i / kColumns) * 2.0f;
        const float x1 = x0 + 1.9f, z1 = z0 + 1.9f;
        const auto v = [&](float x, float z, float u, float w) {
            std::snprintf(line, sizeof line, "0 %g 0 %g 0 -1 0 %g %g\n", static_cast<double>(x),
                          static_cast<double>(z), static_cast<double>(u), static_cast<double>(w));
            s += line;
        };
        const std::string m = materialName(i) + "\n";
        s += m;
        v(x0, z0, 0, 0), v(x1, z0, 1, 0), v(x1, z1, 1, 1);
        s += m;
        v(x0, z0, 0, 0), v(x1, z1, 1, 1), v(x0, z1, 0, 1);
    }
    return s + "end\n";
}

// Material i's texture: its own hue in stripes and a diagonal, `side` square.
core::RgbaImage textureFor(int i, std::uint32_t side)
{
    core::RgbaImage img;
    img.width = img.height = side;
    img.pixels.resize(std::size_t(side) * side * 4);
    const double hue = 6.0 * static_cast<double>(i) / kMaterials;
    const auto channel = [&](double offset) {
        const double h = std::fmod(hue + offset, 6.0);
        const double c = std::clamp(std::fabs(h - 3.0) - 1.0, 0.0, 1.0);
        return static_cast<std::uint8_t>(40 + 200 * c);
    };
    const std::uint8_t r = channel(0), g = channel(4), b = channel(2);
    for (std::uint32_t y = 0; y < side; ++y) {
        for (std::uint32_t x = 0; x < side; ++x) {
            const bool dark = ((x / (side / 8)) % 2 == 0) || (x + y) % (side / 4) < side / 32;
            std::uint8_t* p = img.pixels.data() + (std::size_t(y) * side + x) * 4;
            p[0] = dark ? r / 3 : r;
            p[1] = dark ? g / 3 : g;
            p[2] = dark ? b / 3 : b;
            p[3] = 255;
        }
    }
    return img;
}

bool writeFile(const std::string& path, const std::string& bytes)
{
    return core::writeFileAtomic(path, bytes, core::WriteMode::Overwrite).empty();
}

// Writes the project once (the VTFs take a while to compress); returns the QC's path.
std::string makeProject(const std::string& dir, std::uint32_t side, double& textureMb)
{
    const std::string matDir = dir + "/materials/models/bench";
    for (const std::string& d :
         {dir, dir + "/materials", dir + "/materials/models", matDir, dir + "/modelsrc"}) {
        ::mkdir(d.c_str(), 0755);
    }
    writeFile(dir + "/modelsrc/wall.smd", wallSmd());
    writeFile(dir + "/modelsrc/wall.qc", "$modelname \"bench/wall.mdl\"\n"
                                         "$cdmaterials \"models/bench\"\n"
                                         "$body wall \"wall.smd\"\n"
                                         "$sequence idle \"wall.smd\"\n");
    textureMb = 0;
    for (int i = 0; i < kMaterials; ++i) {
        const std::string name = materialName(i);
        writeFile(matDir + "/" + name + ".vmt", "\"VertexLitGeneric\"\n{\n\t\"$basetexture\" "
                                                "\"models/bench/" +
                                                    name + "_color\"\n}\n");
        const std::string vtfPath = matDir + "/" + name + "_color.vtf";
        struct stat st {};
        if (::stat(vtfPath.c_str(), &st) != 0) {
            writeFile(vtfPath, test::encodeVtf(textureFor(i, side), core::VtfFormat::Dxt1));
            ::stat(vtfPath.c_str(), &st);
        }
        textureMb += static_cast<double>(st.st_size) / 1e6;
    }
    return dir + "/modelsrc/wall.qc";
}

// Runs the GUI once with RIGSCOPE_TIMING and reads its marks from stderr.
GuiRun runGui(const std::vector<std::string>& args)
{
    GuiRun out;
    int fds[2];
    if (::pipe(fds) != 0) {
        return out;
    }
    const double start = now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(fds[1], 2);
        ::close(fds[0]);
        ::close(fds[1]);
        std::freopen("/dev/null", "w", stdout);
        ::setenv("RIGSCOPE_TIMING", "1", 1);
        std::vector<char*> argv;
        for (const std::string& a : args) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    std::string err;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) {
        err.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    rusage ru{};
    ::wait4(pid, &status, 0, &ru);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fputs(err.c_str(), stderr);
        return out;
    }
    out.total = now() - start;
    out.peakMb = static_cast<double>(ru.ru_maxrss) / 1024.0;
    std::size_t at = 0;
    while ((at = err.find("rigscope-timing ", at)) != std::string::npos) {
        at += 16;
        const double t = std::atof(err.c_str() + at) - start;
        const std::size_t space = err.find(' ', at), eol = err.find('\n', at);
        const std::string stage = err.substr(space + 1, eol - space - 1);
        if (stage == "first frame" && out.firstFrame < 0) {
            out.firstFrame = t;
        } else if (stage == "scene: textures") {
            out.texturesIn = t;
        }
    }
    return out;
}

} // namespace

GuiRun bestGuiRun(const std::vector<std::string>& args, int repeats)
{
    GuiRun b;
    for (int i = 0; i < repeats; ++i) {
        const GuiRun r = runGui(args);
        if (r.firstFrame < 0) {
            continue;
        }
        if (b.firstFrame < 0 || r.firstFrame < b.firstFrame) {
            b.firstFrame = r.firstFrame;
        }
        if (r.texturesIn >= 0 && (b.texturesIn < 0 || r.texturesIn < b.texturesIn)) {
            b.texturesIn = r.texturesIn;
        }
        if (b.total < 0 || r.total < b.total) {
            b.total = r.total;
        }
        b.peakMb = std::max(b.peakMb, r.peakMb);
    }
    return b;
}

int runMaterialBench(const MaterialBenchOptions& opt)
{
    ::mkdir(opt.workDir.c_str(), 0755);
    const std::string dir = opt.workDir + "/materials200";
    const auto side = static_cast<std::uint32_t>(opt.textureSide);
    double textureMb = 0;
    std::fflush(stdout);
    const double t0 = now();
    const std::string qc = makeProject(dir, side, textureMb);
    std::printf("== materials (input %s: %d materials, one %ux%u DXT1 VTF each with mips, "
                "%.1f MB of VTF; written in %.1f s)\n",
                qc.c_str(), kMaterials, side, side, textureMb, now() - t0);
    std::string gui = opt.self;
    gui = gui.substr(0, gui.find_last_of('/') + 1) + "rigscope";
    if (::access(gui.c_str(), X_OK) != 0 || !std::getenv("DISPLAY")) {
        std::printf("  needs %s and a display (run under xvfb-run)\n", gui.c_str());
        return 1;
    }
    std::fflush(stdout); // before the children fork
    const std::string loadBefore = loadAverage();
    const std::string png = opt.workDir + "/materials200.png";
    const std::vector<std::string> base{gui, "--no-config", qc,        "--screenshot",
                                        png, "--size",      "1280x720"};
    std::vector<std::string> flat = base;
    flat.emplace_back("--no-textures");
    const GuiRun without = bestGuiRun(flat, opt.repeats);
    const GuiRun with = bestGuiRun(base, opt.repeats);
    // Bound: every texture at the model's cap (render::ModelScene: 2048 halved until the
    // model's textures fit 512 MB; RGBA, mips a third more) once, in the GL texture (the scene
    // keeps no decoded copy), plus the texture cache's 64 MB, over the run without textures.
    double capSide = kTextureCap;
    while (capSide > 256 && kMaterials * capSide * capSide * 4 > 512.0 * 1024 * 1024) {
        capSide /= 2;
    }
    capSide = std::min<double>(side, capSide);
    const double perTexture = capSide * capSide * 4.0 * 4.0 / 3.0 / 1e6;
    std::printf("%-46s %8s %12s %9s\n", "rigscope --screenshot, best of runs", "1st frame",
                "textures in", "peak MB");
    std::printf("%-46s %7.2fs %12s %9.0f\n", "  --no-textures", without.firstFrame, "-",
                without.peakMb);
    std::printf("%-46s %7.2fs %11.2fs %9.0f\n", "  textured (stream in after the first frame)",
                with.firstFrame, with.texturesIn, with.peakMb);
    std::printf("  first frame textured / untextured: %.2fx (target: no stall, <= 1.25x)\n",
                with.firstFrame / std::max(without.firstFrame, 1e-9));
    std::printf("  texture memory: %.0f MB over the untextured run; bound at the model's cap "
                "(%.0f px): %d x %.1f MB + 64 MB of cache = %.0f MB\n",
                with.peakMb - without.peakMb, capSide, kMaterials, perTexture,
                kMaterials * perTexture + 64.0 * 1.048576);
    std::printf("  load average before / after: %s / %s\n", loadBefore.c_str(),
                loadAverage().c_str());
    return with.firstFrame > 0 && without.firstFrame > 0 ? 0 : 1;
}

} // namespace rigscope::bench
