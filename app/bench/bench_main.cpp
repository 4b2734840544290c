// rigscope-bench: pose + flex + skinning throughput on a generated rig (issue 5).
//
//   rigscope-bench [--frames=N] [--repeats=N] [--threads=1|2] [--corners]
//
// Generates a deterministic 100k-triangle grid (224 x 224 quads), 128 bones in 16 chains,
// 4 links per vertex, an Euler animation and 8 sparse flex shapes, all in memory. Each frame
// samples the animation, retargets, runs local -> model, sets flex weights, morphs and skins
// positions and normals. The baseline, measured in the same run, copies the same positions and
// normals once per frame. Prints ms per frame (best of the repeats) and the ratio.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/build/weld.h"
#include "core/model/model.h"
#include "core/pose/animation_binding.h"
#include "core/pose/flex_binding.h"
#include "core/pose/pose_rig.h"
#include "app/bench/bench_readers.h"

using namespace rigscope::core;

namespace {

constexpr int kGrid = 224; // quads per side: 2 * 224 * 224 = 100352 triangles
constexpr int kBones = 128;
constexpr int kChain = 8; // bones per chain under the root (16 chains, the last one short)
constexpr int kLinks = 4;
constexpr int kShapes = 8;
constexpr int kAnimFrames = 120;

// Deterministic, platform-independent pseudo-random numbers (no <random> distributions).
struct Lcg {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    float next()
    {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<float>((s >> 40) & 0xFFFFFF) / static_cast<float>(0x1000000);
    }
};

struct Scene {
    Model ref;
    Model vta;
    WeldedMesh welded;
};

Scene makeScene()
{
    Scene sc;
    Model& m = sc.ref;
    m.format = "smd";
    m.kind = ModelKind::Reference;
    Skeleton& s = m.skeleton;
    s.bindKind = PoseKind::LocalEulerXYZ;
    for (int i = 0; i < kBones; ++i) {
        const JointIndex parent = i == 0 ? kNoJoint : ((i - 1) % kChain == 0 ? 0 : i - 1);
        s.addJoint("bone" + std::to_string(i), parent, i, {});
    }
    s.bindPositions.resize(kBones);
    s.bindRotations.resize(kBones);
    for (int i = 0; i < kBones; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (i == 0) {
            s.bindPositions[k] = Vec3::Zero();
            s.bindRotations[k] = Vec3::Zero();
        } else if ((i - 1) % kChain == 0) {
            const float a = static_cast<float>((i - 1) / kChain) * 0.3927f; // 16 directions
            s.bindPositions[k] = Vec3(5.0f * std::cos(a), 5.0f * std::sin(a), 0.0f);
            s.bindRotations[k] = Vec3(0.0f, 0.0f, a);
        } else {
            s.bindPositions[k] = Vec3(6.0f, 0.0f, 0.0f);
            s.bindRotations[k] = Vec3(0.0f, 0.05f, 0.0f);
        }
    }
    s.bindAxes.assign(kBones, Mat3::Identity());
    s.bindScales.assign(kBones, Vec3::Ones());
    s.bindHasScale.assign(kBones, 0);
    s.bindWhere.resize(kBones);

    // animation: every bone, every frame (Euler), smooth waves
    Animation a;
    a.kind = PoseKind::LocalEulerXYZ;
    a.jointCount = kBones;
    a.fps = 30.0f;
    for (int f = 0; f < kAnimFrames; ++f) {
        const std::size_t fi = a.appendFrame(f, {});
        for (int j = 0; j < kBones; ++j) {
            const std::size_t k = a.key(fi, static_cast<std::size_t>(j));
            const float ph = 0.1f * static_cast<float>(f) + 0.37f * static_cast<float>(j);
            a.positions[k] = s.bindPositions[static_cast<std::size_t>(j)];
            a.rotations[k] =
                s.bindRotations[static_cast<std::size_t>(j)] +
                Vec3(0.2f * std::sin(ph), 0.15f * std::cos(ph), 0.1f * std::sin(2 * ph));
        }
    }
    m.animations.push_back(std::move(a));

    // mesh: an XMODEL-style shared pool of grid points; corners index them
    Mesh& mesh = m.mesh;
    Lcg rng;
    const int side = kGrid + 1;
    mesh.influenceOffsets.push_back(0);
    for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
            const float fx = static_cast<float>(x) / kGrid * 100.0f - 50.0f;
            const float fy = static_cast<float>(y) / kGrid * 100.0f - 50.0f;
            mesh.pointPositions.emplace_back(fx, fy,
                                             2.0f * std::sin(0.1f * fx) * std::cos(0.1f * fy));
            const int b0 = 1 + (x * 7 + y * 13) % (kBones - 1);
            const JointIndex joints[kLinks] = {b0, 1 + (b0 + 1) % (kBones - 1),
                                               1 + (b0 + 17) % (kBones - 1), 0};
            float w[kLinks];
            float sum = 0;
            for (float& v : w) {
                v = 0.1f + rng.next();
                sum += v;
            }
            mesh.pointParents.push_back(joints[0]);
            mesh.pointLinkState.push_back(LinkState::List);
            for (int l = 0; l < kLinks; ++l) {
                mesh.influenceJoints.push_back(joints[l]);
                mesh.influenceWeights.push_back(w[l] / sum);
            }
            mesh.influenceOffsets.push_back(
                static_cast<std::uint32_t>(mesh.influenceJoints.size()));
            mesh.pointWhere.push_back({});
        }
    }
    auto corner = [&](int x, int y) {
        const auto p = static_cast<std::uint32_t>(y * side + x);
        mesh.cornerPoints.push_back(p);
        mesh.cornerNormals.push_back(
            Vec3(0.1f * std::sin(0.05f * static_cast<float>(x)), 0.0f, 1.0f).normalized());
        mesh.cornerUvs.emplace_back(static_cast<float>(x) / kGrid, static_cast<float>(y) / kGrid);
        mesh.cornerWhere.push_back({});
    };
    for (int y = 0; y < kGrid; ++y) {
        for (int x = 0; x < kGrid; ++x) {
            corner(x, y);
            corner(x + 1, y);
            corner(x + 1, y + 1);
            corner(x, y);
            corner(x + 1, y + 1);
            corner(x, y + 1);
            mesh.triangleMaterials.push_back(0);
            mesh.triangleMaterials.push_back(0);
            mesh.triangleWhere.resize(mesh.triangleMaterials.size());
        }
    }
    mesh.materials.push_back({"skin.bmp", {}, {}, {}, {}});

    // VTA: base = every corner (ids 3t + c), shapes move a sparse 5 % of the corners each
    Model& vta = sc.vta;
    VertexFrame base;
    for (std::size_t c = 0; c < mesh.cornerCount(); ++c) {
        base.ids.push_back(static_cast<std::int32_t>(c));
        base.positions.push_back(mesh.pointPositions[mesh.cornerPoints[c]]);
        base.normals.push_back(mesh.cornerNormals[c]);
    }
    vta.vertexFrames.push_back(std::move(base));
    for (int sIndex = 0; sIndex < kShapes; ++sIndex) {
        FlexShape shape;
        shape.name = "shape" + std::to_string(sIndex);
        for (std::size_t c = static_cast<std::size_t>(sIndex); c < mesh.cornerCount(); c += 20) {
            shape.ids.push_back(static_cast<std::int32_t>(c));
            shape.deltaPositions.emplace_back(0.0f, 0.0f, 0.5f + rng.next());
            shape.deltaNormals.emplace_back(0.0f, 0.01f, 0.0f);
        }
        vta.flexShapes.push_back(std::move(shape));
    }
    sc.welded = weldMesh(mesh);
    return sc;
}

// A persistent helper thread that skins the second half of the vertices (no per-frame
// allocation: one mutex, one condition variable, a generation counter).
class SkinHelper {
public:
    SkinHelper(const SkinTarget& target, const FlexTargets& flex, PoseBuffers& buffers)
        : m_target(target), m_flex(flex), m_buffers(buffers), m_thread([this] { loop(); })
    {
    }
    ~SkinHelper()
    {
        {
            std::lock_guard lock(m_mutex);
            m_quit = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }
    void start(std::size_t begin, std::size_t end)
    {
        {
            std::lock_guard lock(m_mutex);
            m_begin = begin;
            m_end = end;
            ++m_generation;
        }
        m_wake.notify_one();
    }
    void wait()
    {
        std::unique_lock lock(m_mutex);
        m_doneCv.wait(lock, [this] { return m_done == m_generation; });
    }

private:
    void loop()
    {
        std::uint64_t seen = 0;
        for (;;) {
            std::size_t b = 0, e = 0;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&] { return m_quit || m_generation != seen; });
                if (m_quit) {
                    return;
                }
                seen = m_generation;
                b = m_begin;
                e = m_end;
            }
            skinRange(m_target, &m_flex, m_buffers, b, e);
            {
                std::lock_guard lock(m_mutex);
                m_done = seen;
            }
            m_doneCv.notify_one();
        }
    }

    const SkinTarget& m_target;
    const FlexTargets& m_flex;
    PoseBuffers& m_buffers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_doneCv;
    std::uint64_t m_generation = 0;
    std::uint64_t m_done = 0;
    std::size_t m_begin = 0, m_end = 0;
    bool m_quit = false;
    std::thread m_thread;
};

double msSince(std::chrono::steady_clock::time_point t0, int frames)
{
    const std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
    return d.count() / frames;
}

struct Options {
    int frames = 300;
    int repeats = 5;
    int threads = 1;
    bool corners = false; // skin one vertex per corner (unwelded, 3 per triangle)
};

bool parseArgs(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char* key, int& out) {
            const std::string k = std::string(key) + "=";
            if (a.rfind(k, 0) != 0) {
                return false;
            }
            out = std::atoi(a.c_str() + k.size());
            return true;
        };
        if (a == "pose") {
            continue;
        }
        if (a == "--corners") {
            o.corners = true;
        } else if (!value("--frames", o.frames) && !value("--repeats", o.repeats) &&
                   !value("--threads", o.threads)) {
            std::fprintf(stderr, "usage: rigscope-bench [pose] [--frames=N] [--repeats=N] "
                                 "[--threads=1|2] [--corners]\n");
            return false;
        }
    }
    o.frames = std::max(1, o.frames);
    o.repeats = std::max(1, o.repeats);
    o.threads = std::clamp(o.threads, 1, 2);
    return true;
}

} // namespace

int runPoseBench(int argc, char** argv)
{
    Options opt;
    if (!parseArgs(argc, argv, opt)) {
        return 2;
    }
    const auto g0 = std::chrono::steady_clock::now();
    const Scene sc = makeScene();
    const Model& ref = sc.ref;
    const PoseRig rig = makePoseRig(ref.skeleton);
    const Animation& anim = ref.animations.front();
    const AnimationBinding binding = bindAnimation(ref.skeleton, ref.skeleton, anim.kind);

    SkinTarget target;
    FlexTargets flex;
    if (opt.corners) {
        // one vertex per corner: what an SMD's raw points are (point i == corner i)
        std::vector<std::uint32_t> identity(ref.mesh.cornerCount());
        for (std::size_t c = 0; c < identity.size(); ++c) {
            identity[c] = static_cast<std::uint32_t>(c);
        }
        target.positions.reserve(identity.size());
        for (std::uint32_t p : ref.mesh.cornerPoints) {
            target.positions.push_back(ref.mesh.pointPositions[p]);
        }
        target.normals = ref.mesh.cornerNormals;
        target.influences =
            remapInfluences(effectiveInfluences(ref.mesh, ref.skeleton.size(), Profile::Source,
                                                WeightView::Authored),
                            ref.mesh.cornerPoints);
        flex = bindFlexShapes(ref.mesh, sc.vta, identity);
    } else {
        target = makeSkinTarget(ref.mesh, ref.skeleton.size(), sc.welded, Profile::Source,
                                WeightView::Authored);
        flex = bindFlexShapes(ref.mesh, sc.vta, sc.welded.cornerVertex);
    }
    PoseBuffers buf;
    buf.resize(rig.jointCount(), anim.jointCount, target.vertexCount(), true, flex.shapeCount());
    const double setupMs = msSince(g0, 1);

    std::printf("rigscope-bench pose: %zu triangles, %zu bones, %zu links per vertex, %zu shapes "
                "(%zu deltas)\n",
                ref.mesh.triangleCount(), ref.skeleton.size(), target.influences.maxLinks(),
                flex.shapeCount(), flex.targets.size());
    std::printf("  skinned vertices: %zu (%s), threads: %d, setup %.1f ms\n", target.vertexCount(),
                opt.corners ? "one per corner" : "welded render vertices", opt.threads, setupMs);

    std::unique_ptr<SkinHelper> helper;
    if (opt.threads == 2) {
        helper = std::make_unique<SkinHelper>(target, flex, buf);
    }
    const std::size_t n = target.vertexCount();
    const std::size_t half = n / 2;

    bool ok = true;
    double best = 1e30;
    double bestCopy = 1e30;
    std::vector<Vec3> copyPositions(n), copyNormals(n);
    float checksum = 0.0f;
    for (int rep = 0; rep < opt.repeats; ++rep) {
        // baseline: a plain loop copying the positions and normals
        auto t0 = std::chrono::steady_clock::now();
        for (int f = 0; f < opt.frames; ++f) {
            const float bump = static_cast<float>(f) * 1e-6f;
            for (std::size_t v = 0; v < n; ++v) {
                copyPositions[v] = target.positions[v];
                copyNormals[v] = target.normals[v];
            }
            copyPositions[static_cast<std::size_t>(f) % n].x() += bump; // keep the loop alive
        }
        bestCopy = std::min(bestCopy, msSince(t0, opt.frames));
        checksum += copyPositions[0].x();

        t0 = std::chrono::steady_clock::now();
        for (int f = 0; f < opt.frames; ++f) {
            const double frame = std::fmod(static_cast<double>(f) * 0.5, kAnimFrames - 1.0);
            for (std::size_t s = 0; s < buf.flexWeights.size(); ++s) {
                buf.flexWeights[s] =
                    0.5f + 0.5f * std::sin(0.05f * static_cast<float>(f) + static_cast<float>(s));
            }
            ok = ok && evaluatePose(rig, &anim, &binding, frameAtIndex(anim, frame),
                                    Interpolation::Slerp, buf);
            ok = ok && prepareSkin(rig, target, &flex, buf);
            if (helper) {
                helper->start(half, n);
                ok = ok && skinRange(target, &flex, buf, 0, half);
                helper->wait();
            } else {
                ok = ok && skinRange(target, &flex, buf, 0, n);
            }
        }
        best = std::min(best, msSince(t0, opt.frames));
        checksum += buf.positions[n / 3].z();
    }
    if (!ok) {
        std::fputs("rigscope-bench: a pose job refused its input\n", stderr);
        return 1;
    }
    std::printf("  pose + morph + skin: %8.3f ms/frame (best of %d x %d frames)\n", best,
                opt.repeats, opt.frames);
    std::printf("  baseline copy:       %8.3f ms/frame (positions + normals, same run)\n",
                bestCopy);
    std::printf("  ratio:               %8.1fx\n", best / std::max(bestCopy, 1e-9));
    std::printf("  target <= 5 ms:      %s\n", best <= 5.0 ? "met" : "MISSED");
    std::printf("  (checksum %g)\n", static_cast<double>(checksum));
    return 0;
}

int main(int argc, char** argv)
{
    const std::string verb = argc > 1 ? argv[1] : "all";
    if (verb == "--floor" && argc > 2) {
        return rigscope::bench::floorProcess(argv[2]);
    }
    if (verb == "--floor-bytes") {
        return rigscope::bench::floorBytesProcess(argc - 2, argv + 2);
    }
    if (verb == "--measure-read" && argc > 2) {
        return rigscope::bench::measureReadChild(argv[2], argc > 3 ? std::atoi(argv[3]) : 0);
    }
    if (verb == "--help" || verb == "-h") {
        std::puts(
            "usage: rigscope-bench [all|smd|cod|readers|dmx|pose|materials|mdl] [options]\n"
            "  smd [--mb=N] [--repeats=N] [--dir=D]  rigscope-cli info --no-checks on generated "
            "SMD "
            "(random / welded sheet, LF / CRLF) against the fast_float floor process\n"
            "  cod [--mb=N] [--repeats=N] [--dir=D]  the same on generated XMODEL / XANIM "
            "(regular / irregular)\n"
            "  readers [--mb=N] [--repeats=N] [--dir=D] [--corpus=DIR]  generated inputs, MB/s, "
            "peak memory, "
            "ratio to the from_chars floor\n"
            "  dmx [--mb=N] [--repeats=N] [--dir=D]  keyvalues2 against its floor; an N MB binary "
            "DMX against the same model as SMD\n"
            "  pose [--frames=N] [--repeats=N] [--threads=1|2] [--corners]  pose + morph + skin "
            "per frame\n"
            "  materials [--side=N] [--repeats=N] [--dir=D]  200 VMT + VTF materials: rigscope's "
            "first frame with and without textures, textures in, peak memory (needs a display)\n"
            "  mdl --models=DIR [--repeats=N]  compiled models: info on every model and on the "
            "largest against reading their bytes; the largest's first frame (needs a display)");
        return 0;
    }
    if (verb == "materials") {
        rigscope::bench::MaterialBenchOptions mo;
        mo.self = argv[0];
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a.rfind("--side=", 0) == 0) {
                mo.textureSide = std::clamp(std::atoi(a.c_str() + 7), 16, 8192);
            } else if (a.rfind("--repeats=", 0) == 0) {
                mo.repeats = std::max(1, std::atoi(a.c_str() + 10));
            } else if (a.rfind("--dir=", 0) == 0) {
                mo.workDir = a.substr(6);
            }
        }
        return rigscope::bench::runMaterialBench(mo);
    }
    if (verb == "mdl") {
        rigscope::bench::MdlBenchOptions mo;
        mo.self = argv[0];
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a.rfind("--models=", 0) == 0) {
                mo.modelsDir = a.substr(9);
            } else if (a.rfind("--repeats=", 0) == 0) {
                mo.repeats = std::max(1, std::atoi(a.c_str() + 10));
            } else if (a.rfind("--dir=", 0) == 0) {
                mo.workDir = a.substr(6);
            }
        }
        return rigscope::bench::runMdlBench(mo);
    }
    int rc = 0;
    if (verb == "smd" || verb == "cod" || verb == "all") {
        rigscope::bench::SmdBenchOptions so;
        so.self = argv[0];
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a.rfind("--mb=", 0) == 0) {
                so.targetMegabytes = std::atof(a.c_str() + 5);
            } else if (a.rfind("--repeats=", 0) == 0) {
                so.repeats = std::max(1, std::atoi(a.c_str() + 10));
            } else if (a.rfind("--dir=", 0) == 0) {
                so.workDir = a.substr(6);
            }
        }
        if (verb != "cod") {
            rc = rigscope::bench::runSmdBench(so);
        }
        if (verb != "smd") {
            rc = std::max(rc, rigscope::bench::runCodBench(so));
        }
        if (verb == "smd" || verb == "cod") {
            return rc;
        }
    }
    if (verb == "readers" || verb == "all") {
        rigscope::bench::ReaderBenchOptions ro;
        ro.self = argv[0];
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a.rfind("--mb=", 0) == 0) {
                ro.targetMegabytes = std::atof(a.c_str() + 5);
            } else if (a.rfind("--repeats=", 0) == 0) {
                ro.repeats = std::max(1, std::atoi(a.c_str() + 10));
            } else if (a.rfind("--dir=", 0) == 0) {
                ro.workDir = a.substr(6);
            } else if (a.rfind("--corpus=", 0) == 0) {
                ro.corpusDir = a.substr(9);
            }
        }
        rc = rigscope::bench::runReaderBench(ro);
        if (verb == "readers") {
            return rc;
        }
    }
    if (verb == "dmx" || verb == "all") {
        rigscope::bench::ReaderBenchOptions ro;
        ro.self = argv[0];
        for (int i = 2; verb == "dmx" && i < argc; ++i) {
            const std::string a = argv[i];
            if (a.rfind("--mb=", 0) == 0) {
                ro.targetMegabytes = std::atof(a.c_str() + 5);
            } else if (a.rfind("--repeats=", 0) == 0) {
                ro.repeats = std::max(1, std::atoi(a.c_str() + 10));
            } else if (a.rfind("--dir=", 0) == 0) {
                ro.workDir = a.substr(6);
            }
        }
        rc = std::max(rc, rigscope::bench::runDmxBench(ro));
        if (verb == "dmx") {
            return rc;
        }
    }
    if (verb == "pose" || verb == "all") {
        std::vector<char*> args{argv[0]};
        for (int i = 2; verb == "pose" && i < argc; ++i) {
            args.push_back(argv[i]);
        }
        return std::max(rc, runPoseBench(static_cast<int>(args.size()), args.data()));
    }
    std::fprintf(stderr, "rigscope-bench: unknown verb '%s' (try --help)\n", verb.c_str());
    return 2;
}
