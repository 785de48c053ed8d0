// rigid2d-bench scene: runs a scene file of demos/bench/FORMAT.md and prints FORMAT.md's one-line
// report, plus the mean time of each stage of the step, the setup time and the peak resident
// memory. Only World::step is timed (not loading the file, building the world or writing the
// final state). A scene with joints adds its joint error (FORMAT.md, "Quality") after the last step
// and the largest after any step, measured between steps, outside the timed calls.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "commands.hpp"
#include "json_numbers.hpp"
#include "quality.hpp"
#include "rigid2d/rigid2d.hpp"
#include "rigid2d/thread_pool.hpp"
#include "scene_file.hpp"
#include "timing.hpp"

namespace rigid2d::bench {

namespace {

constexpr const char* kUsage =
    "usage: rigid2d-bench scene --scene FILE [--broadphase NAME] [--steps N] [--final-state OUT]\n"
    "                           [--repeat K] [--json-out FILE] [--quality] [--snapshot-at K]\n"
    "                           [--threads N]\n"
    "  NAME: brute_force | grid | spatial_hash (default) | sap | tree | hierarchical_hash |\n"
    "        quadtree | sorted_grid | auto\n"
    "  --steps: default the scene's own; --repeat K: K runs, the one with the median mean is\n"
    "  reported; --final-state: FORMAT.md's final state of every body, in file order;\n"
    "  --quality: adds \"quality\", the figures `rigid2d-bench quality` gives for that state;\n"
    "  --snapshot-at K: after K steps the world is saved to bytes, destroyed, restored from them\n"
    "  and run on (the final state equals an uninterrupted run's); adds \"snapshot\": its bytes,\n"
    "  the median ms of 5 snapshots into a new buffer (snapshot_ms) and into a reused one\n"
    "  (snapshot_reused_ms), of 5 restores into a new world (restore_ms), and the median ms of\n"
    "  the steps after the restore (step_median_ms), which the other three should stay under\n"
    "  --threads N: the step on N workers of a rigid2d::ThreadPool (default 1: no pool, the\n"
    "  calling thread only); the final state is the same for every N\n";

struct SceneOptions {
    std::string scene;
    BroadPhaseType broadPhase = BroadPhaseType::SpatialHash;
    int steps = -1; ///< -1: the scene's own
    int repeat = 1;
    std::string finalState;
    std::string jsonOut;
    bool quality = false;
    int snapshotAt = -1; ///< -1: no snapshot
    int threads = 1;
};

/// Mean ms per step of each stage of World::step, in StepStats order.
struct StageMeans {
    double pairs = 0, contacts = 0, gather = 0, solve = 0, continuous = 0, refit = 0, sleep = 0;

    void add(const StepStats& s) {
        pairs += double(s.pairsMs);
        contacts += double(s.contactsMs);
        gather += double(s.gatherMs);
        solve += double(s.solveMs);
        continuous += double(s.continuousMs);
        refit += double(s.refitMs);
        sleep += double(s.sleepMs);
    }
    void divide(int steps) {
        for (double* stage : {&pairs, &contacts, &gather, &solve, &continuous, &refit, &sleep})
            *stage /= steps;
    }
};

/// What --snapshot-at measures: each time the median of kSnapshotRuns, since one save or restore
/// of a big world takes about a step and a single reading is at the mercy of the machine.
struct SnapshotTimes {
    std::size_t bytes = 0;
    double snapshotMs = 0, snapshotReusedMs = 0, restoreMs = 0;
    double stepMedianMs = 0; ///< the steps after the restore: the world that was saved
};
constexpr int kSnapshotRuns = 5;

struct SceneRun {
    TimeStats step;
    StageMeans stages;
    double setupMs = 0;
    int awakeDynamicBodies = 0;
    long worldKilobytes = 0;      ///< growth of the peak resident set while building and stepping
    std::vector<FinalBody> final; ///< with --quality: the final state, as a file would hold it
    SnapshotTimes snapshot;
    std::optional<JointError> jointError; ///< after the last step
    double jointErrorMaxOverRun = 0;      ///< the largest max after any step (NaN if one was)
    /// The kinds the broad phase ran, as "kind@first step" when it changed (auto switches).
    std::string kinds;
};

SceneOptions parseOptions(int argc, char** argv) {
    demos::CommandLine args("rigid2d-bench scene", kUsage, argc, argv);
    SceneOptions options;
    while (args.next()) {
        const std::string& flag = args.flag();
        if (flag == "--scene") {
            options.scene = args.text();
        } else if (flag == "--broadphase") {
            options.broadPhase = args.broadPhase();
        } else if (flag == "--steps") {
            options.steps = args.integer();
            if (options.steps < 1) args.fail("--steps must be at least 1");
        } else if (flag == "--repeat") {
            options.repeat = args.integer();
            if (options.repeat < 1 || options.repeat > 1000)
                args.fail("--repeat must be in [1, 1000]");
        } else if (flag == "--final-state") {
            options.finalState = args.text();
        } else if (flag == "--json-out") {
            options.jsonOut = args.text();
        } else if (flag == "--quality") {
            options.quality = true;
        } else if (flag == "--threads") {
            options.threads = args.threads();
        } else if (flag == "--snapshot-at") {
            options.snapshotAt = args.integer();
            if (options.snapshotAt < 0) args.fail("--snapshot-at must be at least 0");
        } else {
            args.unknown();
        }
    }
    if (options.scene.empty()) args.fail("--scene FILE is required");
    return options;
}

// The bodies' state now. `asWritten` rounds each number to the shortest decimal form a final-state
// file holds, so that scoring the file and scoring in process give the same figures; the error
// measured after every step skips that (it is slow, and no file is compared with it).
std::vector<FinalBody> finalBodies(const World& world, const std::vector<BodyId>& bodies,
                                   bool asWritten) {
    const auto number = [&](float x) {
        return asWritten ? scene_file::detail::shortestDouble(x) : double{x};
    };
    std::vector<FinalBody> final;
    final.reserve(bodies.size());
    for (const BodyId body : bodies) {
        const Vec2 p = world.position(body), v = world.linearVelocity(body);
        final.push_back(
            {number(p.x), number(p.y), number(v.x), number(v.y), number(world.angle(body))});
    }
    return final;
}

// The world goes through its bytes: a new World replaces it and the scene's ids are re-made for
// it (the same slots; a new world has its own serial). Every snapshot is the same bytes and every
// restore the same world, so the repeats only serve the timing; the last restore is run on.
void saveDestroyRestore(World& world, const WorldDef& def, std::vector<BodyId>& bodies,
                        std::vector<JointId>& joints, SnapshotTimes& times) {
    std::vector<double> ms;
    std::vector<std::uint8_t> bytes;
    for (int k = 0; k < kSnapshotRuns; ++k) {
        const auto start = Clock::now();
        bytes = world.snapshot();
        ms.push_back(millisecondsBetween(start, Clock::now()));
    }
    times.snapshotMs = summarize(std::move(ms)).median;
    times.bytes = bytes.size();
    ms.clear();
    std::vector<std::uint8_t> reused;
    world.snapshot(reused); // sizes the buffer, as a rollback loop's first frame would
    for (int k = 0; k < kSnapshotRuns; ++k) {
        const auto start = Clock::now();
        world.snapshot(reused);
        ms.push_back(millisecondsBetween(start, Clock::now()));
    }
    times.snapshotReusedMs = summarize(std::move(ms)).median;
    ms.clear();
    world = World(def); // the scheduler is not in the bytes: the new world brings its own
    for (int k = 0; k < kSnapshotRuns; ++k) {
        World restored(def);
        const auto start = Clock::now();
        restored.restore(bytes);
        ms.push_back(millisecondsBetween(start, Clock::now()));
        if (k + 1 == kSnapshotRuns) world = std::move(restored);
    }
    times.restoreMs = summarize(std::move(ms)).median;
    std::vector<BodyId> bySlot;
    world.forEachBody([&](BodyId body) {
        if (body.index >= bySlot.size()) bySlot.resize(std::size_t{body.index} + 1);
        bySlot[body.index] = body;
    });
    for (BodyId& body : bodies) body = bySlot.at(body.index);
    std::vector<JointId> jointBySlot;
    world.forEachJoint([&](JointId joint) {
        if (joint.index >= jointBySlot.size()) jointBySlot.resize(std::size_t{joint.index} + 1);
        jointBySlot[joint.index] = joint;
    });
    for (JointId& joint : joints) joint = jointBySlot.at(joint.index);
}

SceneRun runOnce(const scene_file::SceneDesc& scene, const SceneOptions& options, int steps,
                 bool writeFinalState, ThreadPool* pool) {
    SceneRun run;
    const long residentBefore = currentResidentKilobytes();
    const auto setupStart = Clock::now();
    WorldDef def{.gravity = scene.gravity, .broadPhase = options.broadPhase};
    if (pool != nullptr) pool->attach(def);
    World world(def);
    std::vector<JointId> joints;
    std::vector<BodyId> bodies = scene_file::buildScene(scene, world, &joints);
    run.setupMs = millisecondsBetween(setupStart, Clock::now());

    std::vector<double> stepMs;
    stepMs.reserve(static_cast<std::size_t>(steps));
    std::string lastKind;
    for (int i = 0; i < steps; ++i) {
        if (i == options.snapshotAt) saveDestroyRestore(world, def, bodies, joints, run.snapshot);
        const auto start = Clock::now();
        world.step(scene.timeStep);
        stepMs.push_back(millisecondsBetween(start, Clock::now()));
        run.stages.add(world.stats());
        const std::string_view kind = world.stats().broadPhase.active;
        if (kind != lastKind) {
            if (!run.kinds.empty()) run.kinds.push_back(' ');
            run.kinds.append(kind).append("@").append(std::to_string(i));
            lastKind = kind;
        }
        if (!joints.empty()) {
            const JointError now = *measureJoints(scene, finalBodies(world, bodies, false));
            // A joint that came apart to a non-finite error makes the run's max NaN.
            const double worst = now.nonfinite > 0 ? std::nan("") : now.max;
            if (!(worst <= run.jointErrorMaxOverRun)) run.jointErrorMaxOverRun = worst;
        }
    }
    run.worldKilobytes = std::max(0L, peakResidentKilobytes() - residentBefore);
    if (options.snapshotAt >= 0 && options.snapshotAt < steps)
        run.snapshot.stepMedianMs =
            summarize({stepMs.begin() + options.snapshotAt, stepMs.end()}).median;
    run.step = summarize(std::move(stepMs));
    run.stages.divide(steps);
    for (BodyId body : bodies)
        if (world.bodyType(body) == BodyType::Dynamic && world.isAwake(body))
            ++run.awakeDynamicBodies;
    if (writeFinalState) scene_file::writeFinalState(world, bodies, joints, options.finalState);
    if (options.quality || !joints.empty()) {
        std::vector<FinalBody> final = finalBodies(world, bodies, true);
        if (!joints.empty()) run.jointError = measureJoints(scene, final);
        if (options.quality) run.final = std::move(final);
    }
    return run;
}

std::string formatReport(const scene_file::SceneDesc& scene, const SceneOptions& options, int steps,
                         const SceneRun& run, const std::vector<double>& means) {
    char buffer[1024];
    const StageMeans& st = run.stages;
    std::snprintf(
        buffer, sizeof buffer,
        "{\"engine\": \"rigid2d\", \"scene\": \"%s\", \"broadphase\": \"%s\", \"bodies\": %zu, "
        "\"steps\": %d, \"ms_per_step\": {%s}, \"total_ms\": %.3f, \"awake_dynamic_bodies\": %d, "
        "\"stage_ms_mean\": {\"pairs\": %.4f, \"contacts\": %.4f, \"gather\": %.4f, "
        "\"solve\": %.4f, \"continuous\": %.4f, \"refit\": %.4f, \"sleep\": %.4f}, "
        "\"setup_ms\": %.3f, \"peak_rss_kb\": %ld, \"world_rss_kb\": %ld, \"threads\": %d",
        scene.name.c_str(), std::string(toString(options.broadPhase)).c_str(), scene.bodies.size(),
        steps, statsFields(run.step).c_str(), run.step.total, run.awakeDynamicBodies, st.pairs,
        st.contacts, st.gather, st.solve, st.continuous, st.refit, st.sleep, run.setupMs,
        peakResidentKilobytes(), run.worldKilobytes, options.threads);
    std::string report = buffer;
    if (run.jointError) {
        const JointError& e = *run.jointError;
        std::snprintf(buffer, sizeof buffer,
                      ", \"joint_error\": {\"joints\": %d, \"nonfinite\": %d, \"final_max\": %s, "
                      "\"final_mean\": %s, \"max_over_run\": %s}",
                      e.joints, e.nonfinite, jsonNumber(e.max).c_str(), jsonNumber(e.mean).c_str(),
                      jsonNumber(run.jointErrorMaxOverRun).c_str());
        report += buffer;
    }
    if (options.broadPhase == BroadPhaseType::Auto) report += ", \"kinds\": \"" + run.kinds + "\"";
    return report + repeatField(means) + "}";
}

} // namespace

int runSceneCommand(int argc, char** argv) {
    const SceneOptions options = parseOptions(argc, argv);
    try {
        const scene_file::SceneDesc scene = scene_file::readSceneFile(options.scene);
        const int steps = options.steps > 0 ? options.steps : scene.steps;
        // One pool for every run: its threads start once, outside the timed steps.
        std::unique_ptr<ThreadPool> pool;
        if (options.threads > 1) pool = std::make_unique<ThreadPool>(options.threads);
        std::vector<SceneRun> runs;
        std::vector<double> means;
        for (int r = 0; r < options.repeat; ++r) {
            // Every run is bit-identical (determinism), so the first one's final state stands
            // for all.
            runs.push_back(
                runOnce(scene, options, steps, r == 0 && !options.finalState.empty(), pool.get()));
            means.push_back(runs.back().step.mean);
        }
        const SceneRun& reported = runs[medianRunIndex(means)];
        std::string report = formatReport(scene, options, steps, reported, means);
        if (options.snapshotAt >= 0) {
            const SnapshotTimes& t = reported.snapshot;
            char buffer[256];
            std::snprintf(buffer, sizeof buffer,
                          ", \"snapshot\": {\"at_step\": %d, \"bytes\": %zu, \"runs\": %d, "
                          "\"snapshot_ms\": %.3f, \"snapshot_reused_ms\": %.3f, \"restore_ms\": "
                          "%.3f, \"step_median_ms\": %.3f}}",
                          options.snapshotAt, t.bytes, kSnapshotRuns, t.snapshotMs,
                          t.snapshotReusedMs, t.restoreMs, t.stepMedianMs);
            report.pop_back();
            report += buffer;
        }
        if (options.quality) {
            report.pop_back();
            report +=
                ", \"quality\": " + qualityJson(measureQuality(scene, runs.front().final)) + "}";
        }
        return emitReport("scene", report, options.jsonOut);
    } catch (const std::exception& error) { // SceneFileError names file, body and field
        std::fprintf(stderr, "rigid2d-bench scene: %s\n", error.what());
        return 1;
    }
}

} // namespace rigid2d::bench
