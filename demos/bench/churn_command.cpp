// rigid2d-bench churn: the broad-phase workload of demos/bench/BROADPHASE.md on one rigid2d
// broad phase, reported as the one JSON line the peers print (plus setup_ms and repeat).
//
//   setup (timed as setup_ms): insert every box, then one findPairs so the structure is built,
//                              as the Box2D peer runs its first UpdatePairs at setup
//   each frame: move the boxes (not timed); then, timed: tell the broad phase every new box
//               (one moveMany, or with --moves each one move per box), findPairs, exact test
//               of every reported pair

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "churn_workload.hpp"
#include "commands.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/error.hpp"
#include "timing.hpp"

namespace rigid2d::bench {

namespace {

constexpr const char* kUsage =
    "usage: rigid2d-bench churn --broadphase NAME [--n N] [--frames F] [--seed S] [--repeat K]\n"
    "                           [--moves batch|each] [--json-out FILE]\n"
    "  NAME: brute_force | grid | spatial_hash | sap | tree | hierarchical_hash | quadtree |\n"
    "        sorted_grid | auto\n"
    "  defaults: N 100000, F 100, S 42, K 1 (K > 1: K runs, the one with the median mean is "
    "reported)\n"
    "  --moves: the new boxes in one moveMany a frame (batch, the default) or one move each\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ChurnOptions {
    BroadPhaseType type = BroadPhaseType::Tree;
    bool typeGiven = false;
    long long count = 100000;
    long long frames = 100;
    std::uint64_t seed = 42;
    long long repeat = 1;
    bool batchMoves = true;
    std::string jsonOut;
};

struct ChurnRun {
    TimeStats frame;
    double setupMs = 0;
    std::uint64_t candidates = 0;
    std::uint64_t overlaps = 0;
};

long long parseInteger(std::string_view flag, const char* text, long long lo, long long hi) {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0' || value < lo || value > hi)
        throw UsageError(std::string(flag) + " must be an integer in [" + std::to_string(lo) +
                         ", " + std::to_string(hi) + "], got '" + text + "'");
    return value;
}

ChurnOptions parseOptions(int argc, char** argv) {
    ChurnOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--help" || flag == "-h") throw UsageError("");
        if (i + 1 >= argc) throw UsageError(std::string(flag) + " needs a value");
        const char* value = argv[++i];
        if (flag == "--broadphase") {
            try {
                options.type = broadPhaseTypeFromString(value);
            } catch (const Error& error) {
                throw UsageError(std::string("--broadphase: ") + error.what());
            }
            options.typeGiven = true;
        } else if (flag == "--n") {
            options.count = parseInteger(flag, value, 2, 100'000'000);
        } else if (flag == "--frames") {
            options.frames = parseInteger(flag, value, 1, 1'000'000);
        } else if (flag == "--seed") {
            options.seed = static_cast<std::uint64_t>(parseInteger(flag, value, 0, 1LL << 62));
        } else if (flag == "--repeat") {
            options.repeat = parseInteger(flag, value, 1, 1000);
        } else if (flag == "--moves") {
            if (std::string_view(value) != "batch" && std::string_view(value) != "each")
                throw UsageError("--moves must be batch or each, got '" + std::string(value) + "'");
            options.batchMoves = std::string_view(value) == "batch";
        } else if (flag == "--json-out") {
            options.jsonOut = value;
        } else {
            throw UsageError("unknown flag '" + std::string(flag) + "'");
        }
    }
    if (!options.typeGiven) throw UsageError("--broadphase is required");
    if (options.type == BroadPhaseType::BruteForce && options.count > 20000)
        throw UsageError("brute_force is O(N^2) per frame: only for --n <= 20000");
    return options;
}

AABB boxOf(const ChurnBoxes& boxes, std::size_t i) {
    return {{boxes.lowerX(i), boxes.lowerY(i)}, {boxes.upperX(i), boxes.upperY(i)}};
}

ChurnRun runOnce(const ChurnOptions& options) {
    ChurnBoxes boxes(static_cast<int>(options.count), options.seed);
    const auto count = static_cast<std::size_t>(options.count);
    std::unique_ptr<BroadPhase> broadPhase = makeBroadPhase(options.type);
    std::vector<ProxyPair> pairs;
    ChurnRun run;

    const auto setupStart = Clock::now();
    for (std::size_t i = 0; i < count; ++i) {
        // Inserted into an empty broad phase in order, box i gets id i.
        if (toIndex(broadPhase->insert(boxOf(boxes, i), i)) != i)
            throw std::logic_error("churn: ids are not handed out densely");
    }
    broadPhase->findPairs(pairs);
    run.setupMs = millisecondsBetween(setupStart, Clock::now());

    std::vector<float> lowerX(count), lowerY(count), upperX(count), upperY(count);
    std::vector<ProxyId> ids(count);
    for (std::size_t i = 0; i < count; ++i) ids[i] = ProxyId{static_cast<std::uint32_t>(i)};
    std::vector<AABB> newBoxes(count);
    std::vector<double> frameMs;
    frameMs.reserve(static_cast<std::size_t>(options.frames));
    for (long long frame = 0; frame < options.frames; ++frame) {
        boxes.move();
        for (std::size_t i = 0; i < count; ++i) {
            lowerX[i] = boxes.lowerX(i);
            lowerY[i] = boxes.lowerY(i);
            upperX[i] = boxes.upperX(i);
            upperY[i] = boxes.upperY(i);
        }
        const auto start = Clock::now();
        if (options.batchMoves) {
            // Gathered into boxes inside the timed part, as the one-move-each loop builds its.
            for (std::size_t i = 0; i < count; ++i)
                newBoxes[i] = {{lowerX[i], lowerY[i]}, {upperX[i], upperY[i]}};
            broadPhase->moveMany(ids, newBoxes);
        } else {
            for (std::size_t i = 0; i < count; ++i)
                broadPhase->move(ids[i], {{lowerX[i], lowerY[i]}, {upperX[i], upperY[i]}});
        }
        broadPhase->findPairs(pairs);
        std::uint64_t overlaps = 0;
        for (const ProxyPair& pair : pairs) {
            const auto a = toIndex(pair.a);
            const auto b = toIndex(pair.b);
            overlaps +=
                static_cast<std::uint64_t>(lowerX[a] <= upperX[b] && lowerX[b] <= upperX[a] &&
                                           lowerY[a] <= upperY[b] && lowerY[b] <= upperY[a]);
        }
        frameMs.push_back(millisecondsBetween(start, Clock::now()));
        run.candidates += pairs.size();
        run.overlaps += overlaps;
    }
    run.frame = summarize(std::move(frameMs));
    return run;
}

std::string formatReport(const ChurnOptions& options, const ChurnRun& run,
                         const std::vector<double>& means) {
    char buffer[512];
    std::snprintf(
        buffer, sizeof buffer,
        "{\"engine\": \"rigid2d\", \"broadphase\": \"%s\", \"n\": %lld, \"frames\": %lld, "
        "\"ms_per_frame\": {%s}, \"candidates\": %llu, \"overlaps\": %llu, "
        "\"setup_ms\": %.3f",
        std::string(toString(options.type)).c_str(), options.count, options.frames,
        statsFields(run.frame).c_str(), static_cast<unsigned long long>(run.candidates),
        static_cast<unsigned long long>(run.overlaps), run.setupMs);
    std::string line = buffer;
    if (options.seed != 42) line += ", \"seed\": " + std::to_string(options.seed);
    line += repeatField(means);
    line += ", \"settings\": {\"setup\": \"insert all, then one findPairs\", \"moves\": \"";
    line += options.batchMoves ? "batch" : "each";
    line += "\"}}";
    return line;
}

} // namespace

int runChurnCommand(int argc, char** argv) {
    ChurnOptions options;
    try {
        options = parseOptions(argc, argv);
    } catch (const UsageError& error) {
        if (error.what()[0] != '\0')
            std::fprintf(stderr, "rigid2d-bench churn: %s\n", error.what());
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::vector<ChurnRun> runs;
    try {
        for (long long r = 0; r < options.repeat; ++r) runs.push_back(runOnce(options));
    } catch (const Error& error) { // e.g. a broad phase this build does not implement
        std::fprintf(stderr, "rigid2d-bench churn: %s\n", error.what());
        return 2;
    }
    std::vector<double> means;
    for (const ChurnRun& run : runs) means.push_back(run.frame.mean);
    const ChurnRun& reported = runs[medianRunIndex(means)];
    return emitReport("churn", formatReport(options, reported, means), options.jsonOut);
}

} // namespace rigid2d::bench
