// rigid2d-demo: runs a scene headless at 60 Hz and writes pictures of it (PNGs of chosen frames
// and an animated GIF), drawn through the engine's DebugDraw interface with Cairo.
#include <cairo.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "file_scene.hpp"
#include "frame.hpp"
#include "gif_writer.hpp"
#include "rigid2d/error.hpp"
#include "scene.hpp"
#include "session.hpp"

namespace rigid2d::demos {
namespace {

constexpr const char* kUsage =
    "usage: rigid2d-demo --scene NAME|FILE [options]\n"
    "  --scene NAME|FILE   a scene of --list, or a JSON scene file (.json)\n"
    "  --broadphase NAME   brute_force, grid, spatial_hash, sap, tree, hierarchical_hash, "
    "quadtree,\n"
    "                      sorted_grid, auto\n"
    "  --seconds T         simulated time at 60 Hz (default 5)\n"
    "  --size N            the scene's size parameter (default: the scene's own)\n"
    "  --threads N         step on N workers of a thread pool (default 1; same result)\n"
    "  --out DIR           where pictures go (default out)\n"
    "  --frames LIST       steps to save as PNG, comma-separated, 'last' allowed\n"
    "                      (default: a quarter, half, three quarters and last)\n"
    "  --contacts          draw contact points\n"
    "  --aabbs             draw fat AABBs\n"
    "  --no-overlay        no broad-phase structure\n"
    "  --no-panel          no text panel of counts and stage times\n"
    "  --no-gif            PNGs only\n"
    "  --save FILE         also write the final state as a JSON scene file\n"
    "  --width W --height H  picture size in pixels (default 800 x 600)\n"
    "  --list              list the scenes and exit\n";

struct Options {
    std::string scene;
    std::optional<BroadPhaseType> broadPhase;
    float seconds = 5.0f;
    int size = 0;
    int threads = 1;
    std::string out = "out";
    std::string frames;
    FrameOptions frame;
    bool gif = true;
    std::string save;
    int width = 800;
    int height = 600;
    bool list = false;
};

[[noreturn]] void usageError(const std::string& message) {
    commandLineError("rigid2d-demo", kUsage, message);
}

Options parse(int argc, char** argv) {
    Options options;
    CommandLine line("rigid2d-demo", kUsage, argc, argv);
    while (line.next()) {
        const std::string& flag = line.flag();
        if (flag == "--scene")
            options.scene = line.text();
        else if (flag == "--broadphase")
            options.broadPhase = line.broadPhase();
        else if (flag == "--seconds")
            options.seconds = line.number(0.0f, 3600.0f);
        else if (flag == "--size")
            options.size = line.integer();
        else if (flag == "--threads")
            options.threads = line.threads();
        else if (flag == "--out")
            options.out = line.text();
        else if (flag == "--frames")
            options.frames = line.text();
        else if (flag == "--contacts")
            options.frame.contacts = true;
        else if (flag == "--aabbs")
            options.frame.aabbs = true;
        else if (flag == "--no-overlay")
            options.frame.broadPhase = false;
        else if (flag == "--no-panel")
            options.frame.panel = false;
        else if (flag == "--no-gif")
            options.gif = false;
        else if (flag == "--save")
            options.save = line.text();
        else if (flag == "--width")
            options.width = line.integer();
        else if (flag == "--height")
            options.height = line.integer();
        else if (flag == "--list")
            options.list = true;
        else
            line.unknown();
    }
    if (options.width < 64 || options.height < 64 || options.width > 8192 || options.height > 8192)
        line.fail("--width and --height must be in [64, 8192]");
    if (options.size < 0) line.fail("--size must be > 0");
    return options;
}

/// The steps whose state is saved as PNG.
std::set<int> pickFrames(const std::string& list, int lastStep) {
    std::set<int> frames;
    if (list.empty()) {
        for (int quarter = 1; quarter <= 4; ++quarter) frames.insert(lastStep * quarter / 4);
        return frames;
    }
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, comma - start);
        const std::optional<int> step = item == "last" ? lastStep : parseInt(item);
        if (!step || *step < 0 || *step > lastStep)
            usageError("--frames: '" + item + "' is not a step in 0.." + std::to_string(lastStep));
        frames.insert(*step);
        start = comma + 1;
    }
    return frames;
}

SceneSource sceneSource(const std::string& name) {
    if (const SceneInfo* info = findScene(name)) return sourceOf(*info);
    const bool looksLikeFile =
        name.find('/') != std::string::npos || (name.size() > 5 && name.ends_with(".json"));
    if (looksLikeFile) return fileSceneSource(name);
    usageError("no scene called '" + name + "' (see --list)");
}

struct Surface {
    cairo_surface_t* surface;
    cairo_t* cr;
    Surface(int width, int height)
        : surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)),
          cr(cairo_create(surface)) {}
    ~Surface() {
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
    }
    Surface(const Surface&) = delete;
    Surface& operator=(const Surface&) = delete;
};

std::string stepLabel(int step) {
    char text[16];
    std::snprintf(text, sizeof text, "%05d", step);
    return text;
}

int run(const Options& options) {
    Session session(sceneSource(options.scene), options.size,
                    options.broadPhase.value_or(WorldDef{}.broadPhase), options.threads);
    const int lastStep = std::max(1, static_cast<int>(options.seconds / kSceneTimeStep + 0.5f));
    const std::set<int> pngFrames = pickFrames(options.frames, lastStep);

    std::filesystem::create_directories(options.out);
    std::string base = session.name();
    if (const auto slash = base.find_last_of('/'); slash != std::string::npos)
        base.erase(0, slash + 1);
    if (base.ends_with(".json")) base.resize(base.size() - 5);
    const std::filesystem::path outDir(options.out);

    // The camera frames the scene's view as built; it does not follow bodies, so motion shows.
    Camera camera;
    camera.width = options.width;
    camera.height = options.height;
    camera.fit(session.scene().view());
    Surface full(options.width, options.height);

    // The GIF is at most 480 px wide and at ~15 frames per second, 240 frames at most, to stay
    // small.
    const float gifScale = std::min(1.0f, 480.0f / static_cast<float>(options.width));
    Camera gifCamera = camera;
    gifCamera.width = std::max(32, static_cast<int>(static_cast<float>(options.width) * gifScale));
    gifCamera.height =
        std::max(32, static_cast<int>(static_cast<float>(options.height) * gifScale));
    gifCamera.pixelsPerMeter = camera.pixelsPerMeter * gifScale;
    const int gifEvery = std::max(4, (lastStep + 239) / 240);
    std::unique_ptr<Surface> gifSurface;
    std::unique_ptr<GifWriter> gif;
    const std::string gifPath = (outDir / (base + ".gif")).string();
    if (options.gif) {
        gifSurface = std::make_unique<Surface>(gifCamera.width, gifCamera.height);
        gif = std::make_unique<GifWriter>(gifPath, gifCamera.width, gifCamera.height,
                                          gifEvery * 100 / 60);
    }

    FrameOptions gifFrame = options.frame;
    gifFrame.panel = false; // unreadable at GIF size and colours

    std::vector<std::string> written;
    const auto started = std::chrono::steady_clock::now();
    auto lastProgress = started;
    bool progressShown = false;
    for (int step = 0;; ++step) {
        if (pngFrames.contains(step)) {
            renderFrame(full.cr, camera, session, options.frame);
            cairo_surface_flush(full.surface);
            const std::string path = (outDir / (base + "_" + stepLabel(step) + ".png")).string();
            if (cairo_surface_write_to_png(full.surface, path.c_str()) != CAIRO_STATUS_SUCCESS)
                throw std::runtime_error("cannot write " + path);
            written.push_back(path);
        }
        if (gif && (step % gifEvery == 0 || step == lastStep)) {
            renderFrame(gifSurface->cr, gifCamera, session, gifFrame);
            cairo_surface_flush(gifSurface->surface);
            gif->addFrame(cairo_image_surface_get_data(gifSurface->surface),
                          cairo_image_surface_get_stride(gifSurface->surface));
        }
        if (step == lastStep) break;
        session.step();

        const auto now = std::chrono::steady_clock::now();
        if (now - started > std::chrono::seconds(1) &&
            now - lastProgress > std::chrono::milliseconds(200)) {
            lastProgress = now;
            progressShown = true;
            std::fprintf(stderr, "\rrigid2d-demo: %s step %d/%d (%.0f%%), %.2f ms/step   ",
                         base.c_str(), step + 1, lastStep, 100.0 * (step + 1) / lastStep,
                         static_cast<double>(session.world().stats().totalMs));
        }
    }
    if (progressShown) std::fprintf(stderr, "\n");
    if (gif) {
        gif->close();
        written.push_back(gifPath);
    }
    if (!options.save.empty()) {
        saveSessionScene(session, options.save, lastStep);
        written.push_back(options.save);
    }
    for (const std::string& path : written) std::cout << path << "\n";
    return 0;
}

} // namespace
} // namespace rigid2d::demos

int main(int argc, char** argv) {
    using namespace rigid2d::demos;
    const Options options = parse(argc, argv);
    if (options.list) {
        for (const SceneInfo& info : sceneList())
            std::printf("%-10s %s (size = %.*s, default %d)\n", std::string(info.name).c_str(),
                        std::string(info.description).c_str(),
                        static_cast<int>(info.sizeMeaning.size()), info.sizeMeaning.data(),
                        info.defaultSize);
        return 0;
    }
    if (options.scene.empty()) usageError("--scene is required");
    try {
        return run(options);
    } catch (const std::exception& e) {
        std::cerr << "rigid2d-demo: " << e.what() << "\n";
        return 1;
    }
}
