// peer-scene: runs a scene file (demos/bench/FORMAT.md) in Box2D 2.4.1 or Chipmunk 7.0.3 and prints
// the one-line JSON report rigid2d-bench scene prints; optionally writes the final state.

#include <cstdio>
#include <fstream>
#include <iostream>

#include "../timing.hpp"
#include "peer.hpp"
#include "peer_args.hpp"

using namespace rigid2d;
using namespace rigid2d::peers;

namespace {

constexpr const char* kUsage =
    "usage: peer-scene --engine box2d|chipmunk --scene FILE.json [options]\n"
    "  --index NAME              chipmunk: bbtree (default) | spatial_hash | sweep1d;\n"
    "                            box2d: dynamic_tree (its only broad phase)\n"
    "  --steps N                 steps to run (default: the scene's)\n"
    "  --final-state FILE        write every body's final position, velocity and angle\n"
    "  --velocity-iterations N   box2d (default 8)\n"
    "  --position-iterations N   box2d (default 3)\n"
    "  --continuous on|off       box2d continuous collision (default on, Box2D's default)\n"
    "  --iterations N            chipmunk solver iterations (default 10)\n"
    "  --sleep default|on|off    sleeping (default: the library's: box2d on, chipmunk off)\n"
    "  --slop S                  chipmunk collision slop (default: the library's 0.1)\n"
    "  --mix native|box2d        chipmunk friction/restitution mixing (default native: products)\n"
    "  --hash-dim D              chipmunk spatial_hash cell (default 2 x median shape size)\n"
    "  --hash-cells C            chipmunk spatial_hash table size (default 2 x bodies)\n"
    "  --rounded grown|core      box2d: a rounded polygon grown by its radius (default) or bare\n";

// The joints array only for scenes with joints, so version-1 final states keep their form.
void writeFinalState(const std::string& path, const SceneRun& run, bool withJoints) {
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path);
    const std::vector<BodyState> bodies = run.bodies();
    out << "{\"bodies\": [\n";
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const BodyState& b = bodies[i];
        out << "{\"position\": [" << bench::jsonNumber(b.x) << ", " << bench::jsonNumber(b.y)
            << "], \"velocity\": [" << bench::jsonNumber(b.vx) << ", " << bench::jsonNumber(b.vy)
            << "], \"angle\": " << bench::jsonNumber(b.angle) << "}"
            << (i + 1 < bodies.size() ? ",\n" : "\n");
    }
    out << "]";
    if (withJoints) {
        const std::vector<JointState> joints = run.joints();
        out << ",\n\"joints\": [\n";
        for (std::size_t i = 0; i < joints.size(); ++i) {
            const JointState& j = joints[i];
            out << "{\"reaction_force\": [" << bench::jsonNumber(j.fx) << ", "
                << bench::jsonNumber(j.fy)
                << "], \"reaction_torque\": " << bench::jsonNumber(j.torque) << "}"
                << (i + 1 < joints.size() ? ",\n" : "\n");
        }
        out << "]";
    }
    out << "}\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

} // namespace

int main(int argc, char** argv) {
    std::string engine, scenePath, finalPath;
    long long steps = -1;
    bool box2dOnly = false, chipmunkOnly = false;
    SceneOptions options;
    try {
        Args args(argc, argv);
        while (!args.done()) {
            const std::string flag = args.flag();
            if (flag == "--engine")
                engine = args.oneOf(flag, {"box2d", "chipmunk"});
            else if (flag == "--scene")
                scenePath = args.value(flag);
            else if (flag == "--index")
                options.index = args.value(flag);
            else if (flag == "--steps")
                steps = args.integer(flag, 0, 1'000'000'000);
            else if (flag == "--final-state")
                finalPath = args.value(flag);
            else if (flag == "--velocity-iterations")
                options.velocityIterations = static_cast<int>(args.integer(flag, 1, 1000));
            else if (flag == "--position-iterations")
                options.positionIterations = static_cast<int>(args.integer(flag, 0, 1000));
            else if (flag == "--continuous") {
                options.continuous = args.oneOf(flag, {"on", "off"}) == "on";
                box2dOnly = true;
            } else if (flag == "--rounded") {
                options.rounded = args.oneOf(flag, {"grown", "core"});
                box2dOnly = true;
            } else if (flag == "--iterations")
                options.iterations = static_cast<int>(args.integer(flag, 1, 1000));
            else if (flag == "--sleep")
                options.sleep = args.oneOf(flag, {"default", "on", "off"});
            else if (flag == "--slop") {
                options.slop = args.number(flag, 0.0, 1e9);
                chipmunkOnly = true;
            } else if (flag == "--mix")
                options.mix = args.oneOf(flag, {"native", "box2d"});
            else if (flag == "--hash-dim")
                options.hashDim = args.number(flag, 1e-9, 1e12);
            else if (flag == "--hash-cells")
                options.hashCells = args.integer(flag, 1, 1LL << 30);
            else if (flag == "-h" || flag == "--help") {
                std::fputs(kUsage, stdout);
                return 0;
            } else
                throw UsageError("unknown option '" + flag + "'");
        }
        if (engine.empty()) throw UsageError("--engine is required");
        if (scenePath.empty()) throw UsageError("--scene is required");
        if (box2dOnly && engine != "box2d")
            throw UsageError("--continuous and --rounded are box2d options");
        if (chipmunkOnly && engine != "chipmunk") throw UsageError("--slop is a chipmunk option");
    } catch (const UsageError& e) {
        std::fprintf(stderr, "peer-scene: %s\n%s", e.what(), kUsage);
        return 2;
    }

    std::unique_ptr<SceneRun> run;
    scene_file::SceneDesc scene;
    try {
        scene = scene_file::readSceneFile(scenePath);
        run =
            engine == "box2d" ? makeBox2dScene(scene, options) : makeChipmunkScene(scene, options);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "peer-scene: %s\n%s", e.what(), kUsage);
        return 2;
    } catch (const std::exception& e) { // a refused file, or a scene this engine cannot hold
        std::fprintf(stderr, "peer-scene: error: %s\n", e.what());
        return 2;
    }
    if (steps < 0) steps = scene.steps;

    // Only the step calls are timed, one interval per step.
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(steps));
    for (long long i = 0; i < steps; ++i) {
        const auto start = bench::Clock::now();
        run->step(scene.timeStep);
        ms.push_back(bench::millisecondsBetween(start, bench::Clock::now()));
    }
    const bench::TimeStats stats = ms.empty() ? bench::TimeStats{} : bench::summarize(ms);
    char total[64];
    std::snprintf(total, sizeof total, ", \"total_ms\": %.3f", stats.total);
    std::cout << "{\"engine\": " << bench::jsonString(run->engine())
              << ", \"scene\": " << bench::jsonString(scene.name)
              << ", \"broadphase\": " << bench::jsonString(run->broadphase())
              << ", \"bodies\": " << scene.bodies.size() << ", \"steps\": " << steps
              << ", \"ms_per_step\": {" << bench::statsFields(stats) << "}" << total
              << ", \"awake_dynamic_bodies\": " << run->awakeDynamicBodies() << ", \"settings\": {"
              << run->settingsJson() << "}}" << std::endl;
    if (!finalPath.empty()) {
        try {
            writeFinalState(finalPath, *run, !scene.joints.empty());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "peer-scene: error: %s\n", e.what());
            return 1;
        }
    }
    return 0;
}
