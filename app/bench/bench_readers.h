#pragma once

#include <string>
#include <vector>

namespace rigscope::bench {

struct ReaderBenchOptions {
    std::string workDir = "/tmp/rigscope-bench"; // generated inputs live here
    double targetMegabytes = 100.0;              // size of the generated reference SMD
    int repeats = 3;                             // best of N
    std::string self;                            // argv[0], to measure memory in a child
    std::string corpusDir;                       // timed with `rigscope-cli check` when present
};

// Generates the inputs (deterministic), then prints per reader: MB/s, peak memory and the ratio
// against the from_chars floor measured in the same run. Returns 0.
int runReaderBench(const ReaderBenchOptions& opt);

// DMX rows (docs/dmx.md §6): the generated reference (a 20 MB SMD) as keyvalues2 against the
// from_chars floor (quoted items split), and the same generator scaled so its binary 2 DMX is
// `targetMegabytes`, against that model as SMD. Returns 0.
int runDmxBench(const ReaderBenchOptions& opt);

// Child-process entry: reads FILE with the registry (on up to `threads` threads, 0 = one per
// core) and prints "peak_kb=N seconds=S ...".
int measureReadChild(const std::string& file, int threads);

struct SmdBenchOptions {
    std::string workDir = "/tmp/rigscope-bench";
    double targetMegabytes = 100.0; // size of each generated SMD
    int repeats = 3;                // best of N
    std::string self;               // argv[0]: the floor runs as `self --floor FILE`
};

// Generates SMD inputs (random triangles and a welded sheet, LF and CRLF) and prints, per input,
// the floor process and `rigscope-cli info --no-checks` as whole processes: time, ratio, peak
// memory (app/bench/bench_smd.cpp). Returns 0.
int runSmdBench(const SmdBenchOptions& opt);

// Child-process entry of the floor: maps FILE and converts every numeric token with fast_float.
int floorProcess(const std::string& path);

// A child process run `repeats` times (output to /dev/null): the best wall time with the user
// and kernel time and page faults of that run (the child's getrusage: ru_utime, ru_stime,
// ru_minflt, ru_majflt), and
// the largest peak resident memory; seconds < 0 when it failed (bench_smd.cpp).
struct ProcessRun {
    double seconds = -1;
    double peakMb = 0;
    double userSeconds = 0;
    double sysSeconds = 0;
    long minorFaults = 0;
    long majorFaults = 0;
};
ProcessRun bestRun(const std::vector<std::string>& argv, int repeats);
// The columns of a run beside the floor's, in the same run: wall, user, sys and page faults
// (minor + major) of each, then the ratios wall, CPU (user + sys), faults. runHeader() names
// them. On a busy host compare the CPU and the faults: the wall time waits for a core.
std::string runHeader();
// The 1-minute load average (/proc/loadavg), "?" when unknown: the figures depend on it.
std::string loadAverage();
std::string runColumns(const ProcessRun& floor, const ProcessRun& run);

// The same for generated XMODEL_EXPORT / XANIM_EXPORT files, regular and irregular (tabs,
// comments, CRLF) (app/bench/bench_cod.cpp). Returns 0.
int runCodBench(const SmdBenchOptions& opt);

struct MaterialBenchOptions {
    std::string workDir = "/tmp/rigscope-bench";
    int textureSide = 1024; // each VTF's largest mip
    int repeats = 3;        // best of N
    std::string self;       // argv[0]: rigscope sits beside it
};

// A generated Source project of 200 materials (VMT + DXT1 VTF each, app/bench/bench_materials.cpp)
// opened by `rigscope --screenshot` with and without textures: time to the first frame, to the
// last texture, peak memory. Needs a display. Returns 0 when both runs drew.
int runMaterialBench(const MaterialBenchOptions& opt);

// The GUI as a child process with RIGSCOPE_TIMING set, best of `repeats` runs (times from the
// process start; -1 when it never drew). Needs a display (bench_materials.cpp).
struct GuiRun {
    double firstFrame = -1; // process start to the first frame drawn
    double texturesIn = -1; // process start to the last texture in place
    double total = -1;      // the whole process (screenshot written)
    double peakMb = 0;
};
GuiRun bestGuiRun(const std::vector<std::string>& args, int repeats);

struct MdlBenchOptions {
    std::string modelsDir; // real compiled models, searched recursively
    int repeats = 3;       // best of N
    std::string self;      // argv[0]: rigscope-cli and rigscope sit beside it
    std::string workDir = "/tmp/rigscope-bench";
};

// Compiled models (issue 29): `rigscope-cli info` on every model of --models=DIR in one process
// and on the largest alone, against a floor process that reads the same bytes (each model and
// its companions), then the GUI's first frame of the largest model against a one-triangle SMD
// (bench_mdl.cpp). Returns 0 when every run succeeded.
int runMdlBench(const MdlBenchOptions& opt);

// Child-process entry of the compiled floor: reads every FILE whole and sums its bytes.
int floorBytesProcess(int count, char** paths);

} // namespace rigscope::bench
