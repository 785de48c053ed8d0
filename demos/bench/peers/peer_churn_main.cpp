// peer-churn: the broad-phase workload `churn` (demos/bench/BROADPHASE.md) in Box2D 2.4.1's or
// Chipmunk 7.0.3's broad phase, or all pairs; prints the report line rigid2d-bench churn prints.
// The boxes come from the same code as rigid2d-bench's (churn_workload.hpp), so every engine
// sees the same boxes bit for bit.

#include <cstdio>
#include <iostream>

#include "../timing.hpp"
#include "peer.hpp"
#include "peer_args.hpp"

using namespace rigid2d;
using namespace rigid2d::peers;

namespace {

constexpr const char* kUsage =
    "usage: peer-churn --engine box2d|chipmunk|brute [options]\n"
    "  --n N               boxes (default 100000; brute: at most 20000)\n"
    "  --frames F          frames (default 100)\n"
    "  --seed S            splitmix64 seed (default 42, the workload's)\n"
    "  --index NAME        chipmunk: bbtree (default) | spatial_hash | sweep1d;\n"
    "                      box2d: dynamic_tree; brute: all_pairs\n"
    "  --no-velocity-func  chipmunk bbtree: no velocity fattening (cpSpace sets one)\n"
    "  --no-touch-margin   chipmunk sweep1d: no one-ulp x margin (misses touching pairs)\n"
    "  --hash-dim D        chipmunk spatial_hash cell (default 2 x median larger half extent)\n"
    "  --hash-cells C      chipmunk spatial_hash table size (default 2 x N)\n"
    "  --time-limit SEC    stop after the frame that passes SEC seconds; the report then says\n"
    "                      \"truncated\": true\n";

std::unique_ptr<ChurnIndex> makeIndex(const std::string& engine, const ChurnOptions& options,
                                      long long count) {
    if (engine == "box2d") {
        if (!options.index.empty() && options.index != "dynamic_tree")
            throw UsageError("box2d has one broad phase, --index dynamic_tree");
        return makeBox2dChurn(options);
    }
    if (engine == "chipmunk") return makeChipmunkChurn(options);
    if (engine == "brute") {
        if (count > 20000) throw UsageError("brute is O(N^2) per frame: only for --n <= 20000");
        if (!options.index.empty() && options.index != "all_pairs")
            throw UsageError("brute has no --index");
        return makeBruteChurn();
    }
    throw UsageError(engine.empty()
                         ? "--engine is required"
                         : "--engine must be box2d, chipmunk or brute, got '" + engine + "'");
}

} // namespace

int main(int argc, char** argv) {
    std::string engine;
    long long count = 100000, frames = 100;
    std::uint64_t seed = 42;
    double timeLimit = 0;
    ChurnOptions options;
    std::unique_ptr<ChurnIndex> index;
    try {
        Args args(argc, argv);
        while (!args.done()) {
            const std::string flag = args.flag();
            if (flag == "--engine")
                engine = args.value(flag);
            else if (flag == "--n")
                count = args.integer(flag, 2, 100'000'000);
            else if (flag == "--frames")
                frames = args.integer(flag, 0, 100'000'000);
            else if (flag == "--seed")
                seed = static_cast<std::uint64_t>(args.integer(flag, 0, 1LL << 62));
            else if (flag == "--index")
                options.index = args.value(flag);
            else if (flag == "--no-velocity-func")
                options.velocityFunc = false;
            else if (flag == "--no-touch-margin")
                options.touchMargin = false;
            else if (flag == "--hash-dim")
                options.hashDim = args.number(flag, 1e-9, 1e12);
            else if (flag == "--hash-cells")
                options.hashCells = args.integer(flag, 1, 1LL << 30);
            else if (flag == "--time-limit")
                timeLimit = args.number(flag, 0.0, 1e9);
            else if (flag == "-h" || flag == "--help") {
                std::fputs(kUsage, stdout);
                return 0;
            } else
                throw UsageError("unknown option '" + flag + "'");
        }
        index = makeIndex(engine, options, count);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "peer-churn: %s\n%s", e.what(), kUsage);
        return 2;
    }

    bench::ChurnBoxes boxes(static_cast<int>(count), seed);
    const auto setupStart = bench::Clock::now();
    index->setup(boxes);
    const double setupMs = bench::millisecondsBetween(setupStart, bench::Clock::now());

    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(frames));
    std::uint64_t candidates = 0, overlaps = 0;
    bool truncated = false;
    const auto runStart = bench::Clock::now();
    for (long long frame = 0; frame < frames; ++frame) {
        boxes.move(); // the motion is not timed
        const auto start = bench::Clock::now();
        index->frame(boxes, candidates, overlaps);
        const auto end = bench::Clock::now();
        ms.push_back(bench::millisecondsBetween(start, end));
        if (timeLimit > 0 && frame + 1 < frames &&
            bench::millisecondsBetween(runStart, end) > timeLimit * 1000.0) {
            truncated = true;
            break;
        }
    }
    const bench::TimeStats stats = ms.empty() ? bench::TimeStats{} : bench::summarize(ms);
    std::string line = "{\"engine\": \"" + index->engine() + "\", \"broadphase\": \"" +
                       index->broadphase() + "\", \"n\": " + std::to_string(count) +
                       ", \"frames\": " + std::to_string(ms.size()) + ", \"ms_per_frame\": {" +
                       bench::statsFields(stats) +
                       "}, \"candidates\": " + std::to_string(candidates) +
                       ", \"overlaps\": " + std::to_string(overlaps);
    if (truncated) line += ", \"truncated\": true, \"frames_requested\": " + std::to_string(frames);
    char setup[64];
    std::snprintf(setup, sizeof setup, ", \"setup_ms\": %.3f", setupMs);
    line += setup;
    if (seed != 42) line += ", \"seed\": " + std::to_string(seed);
    line += ", \"settings\": {" + index->settingsJson() + "}}";
    std::cout << line << std::endl;
    return 0;
}
