// rigid2d-viewer: an interactive window on the demo scenes. The world is drawn by the same Cairo
// frame code as the headless runner, uploaded to an SDL texture; Dear ImGui draws the panel.
#include <SDL.h>
#include <cairo.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "file_scene.hpp"
#include "frame.hpp"
#include "imgui_sdl_renderer.hpp"
#include "mouse_drag.hpp"
#include "rigid2d/error.hpp"
#include "scene.hpp"
#include "session.hpp"

namespace rigid2d::demos {
namespace {

constexpr const char* kUsage =
    "usage: rigid2d-viewer [--scene NAME|FILE] [--size N] [--broadphase NAME] [--width W --height "
    "H]\n"
    "                      [--threads N] [--frames N --screenshot FILE.png]\n"
    "  --threads N  step on N workers of a thread pool (default 1; same result)\n"
    "  --frames N --screenshot FILE  run N frames, save the window as PNG and exit\n"
    "mouse: left drags a body or spawns one on empty space, right drags the view, wheel zooms\n"
    "keys: space pause, S single step, R restart, F fit view\n";

struct ViewerOptions {
    std::string scene = "pyramid";
    int size = 0;
    BroadPhaseType broadPhase = WorldDef{}.broadPhase;
    int threads = 1;
    int width = 1280;
    int height = 800;
    int frames = 0; ///< 0 = until the window closes
    std::string screenshot;
};

ViewerOptions parse(int argc, char** argv) {
    ViewerOptions options;
    CommandLine line("rigid2d-viewer", kUsage, argc, argv);
    while (line.next()) {
        const std::string& flag = line.flag();
        if (flag == "--scene")
            options.scene = line.text();
        else if (flag == "--size")
            options.size = line.integer();
        else if (flag == "--broadphase")
            options.broadPhase = line.broadPhase();
        else if (flag == "--threads")
            options.threads = line.threads();
        else if (flag == "--width")
            options.width = line.integer();
        else if (flag == "--height")
            options.height = line.integer();
        else if (flag == "--frames")
            options.frames = line.integer();
        else if (flag == "--screenshot")
            options.screenshot = line.text();
        else
            line.unknown();
    }
    if (!findScene(options.scene) && !options.scene.ends_with(".json"))
        line.fail("no scene called '" + options.scene + "' (a scene file must end in .json)");
    if (options.width < 320 || options.height < 240 || options.width > 8192 ||
        options.height > 8192)
        line.fail("--width/--height must be at least 320 x 240");
    if (options.frames < 0 || options.size < 0) line.fail("--frames and --size must be >= 0");
    if (!options.screenshot.empty() && options.frames == 0)
        line.fail("--screenshot needs --frames N");
    return options;
}

/// The body under a world point, if it is dynamic.
class Viewer {
public:
    explicit Viewer(const ViewerOptions& options);
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    int run();

private:
    void openScene(SceneSource source, int size);
    void handleEvent(const SDL_Event& event);
    void pressLeft(Vec2 screen);
    void drawPanel();
    void renderWorld();
    void saveScreenshot(const std::string& path);

    ViewerOptions m_options;
    SDL_Window* m_window = nullptr;
    SDL_Renderer* m_renderer = nullptr;
    SDL_Texture* m_worldTexture = nullptr;
    cairo_surface_t* m_surface = nullptr;
    std::unique_ptr<ImGuiSdlRenderer> m_imgui;

    std::unique_ptr<Session> m_session;
    int m_sceneIndex = 0;
    int m_sizeInput = 0;
    Camera m_camera;
    FrameOptions m_frame;
    bool m_paused = false;
    bool m_stepOnce = false;
    bool m_running = true;
    bool m_panning = false;
    bool m_spawnBoxes = false;
    MouseDrag m_drag;
    std::string m_message;
};

Viewer::Viewer(const ViewerOptions& options) : m_options(options) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        throw std::runtime_error(std::string("SDL_Init: ") + SDL_GetError());
    m_window = SDL_CreateWindow("rigid2d viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                options.width, options.height, SDL_WINDOW_RESIZABLE);
    if (!m_window) throw std::runtime_error(std::string("SDL_CreateWindow: ") + SDL_GetError());
    m_renderer =
        SDL_CreateRenderer(m_window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!m_renderer) m_renderer = SDL_CreateRenderer(m_window, -1, SDL_RENDERER_SOFTWARE);
    if (!m_renderer) throw std::runtime_error(std::string("SDL_CreateRenderer: ") + SDL_GetError());

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the working directory
    ImGui::StyleColorsLight();
    ImGui_ImplSDL2_InitForSDLRenderer(m_window);
    m_imgui = std::make_unique<ImGuiSdlRenderer>(m_renderer);

    const auto scenes = sceneList();
    m_sceneIndex = -1;
    for (std::size_t i = 0; i < scenes.size(); ++i)
        if (scenes[i].name == options.scene) m_sceneIndex = static_cast<int>(i);
    openScene(m_sceneIndex >= 0 ? sourceOf(scenes[static_cast<std::size_t>(m_sceneIndex)])
                                : fileSceneSource(options.scene),
              options.size);
}

Viewer::~Viewer() {
    m_imgui.reset();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    if (m_surface) cairo_surface_destroy(m_surface);
    if (m_worldTexture) SDL_DestroyTexture(m_worldTexture);
    if (m_renderer) SDL_DestroyRenderer(m_renderer);
    if (m_window) SDL_DestroyWindow(m_window);
    SDL_Quit();
}

void Viewer::openScene(SceneSource source, int size) {
    const BroadPhaseType broadPhase = m_session ? m_session->broadPhase() : m_options.broadPhase;
    m_session = std::make_unique<Session>(std::move(source), size, broadPhase, m_options.threads);
    m_sizeInput = m_session->size();
    m_drag.forget();
    SDL_GetWindowSize(m_window, &m_camera.width, &m_camera.height);
    m_camera.fit(m_session->scene().view());
}

void Viewer::pressLeft(Vec2 screen) {
    World& world = m_session->world();
    const Vec2 point = m_camera.toWorld(screen);
    if (m_drag.press(world, point)) return;
    // Empty space: spawn a body there.
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = point;
    const BodyId body = world.createBody(def);
    if (m_spawnBoxes)
        world.createBox(body, ShapeDef{}, Box{{0.0f, 0.0f}, {0.5f, 0.5f}});
    else
        world.createCircle(body, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
}

void Viewer::handleEvent(const SDL_Event& event) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    const ImGuiIO& io = ImGui::GetIO();
    switch (event.type) {
    case SDL_QUIT: m_running = false; break;
    case SDL_MOUSEBUTTONDOWN:
        if (io.WantCaptureMouse) break;
        if (event.button.button == SDL_BUTTON_LEFT)
            pressLeft({static_cast<float>(event.button.x), static_cast<float>(event.button.y)});
        else
            m_panning = true;
        break;
    case SDL_MOUSEBUTTONUP:
        if (event.button.button == SDL_BUTTON_LEFT)
            m_drag.release(m_session->world());
        else
            m_panning = false;
        break;
    case SDL_MOUSEMOTION:
        if (m_panning)
            m_camera.panPixels(
                {static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel)});
        if (m_drag.active())
            m_drag.move(m_session->world(), m_camera.toWorld({static_cast<float>(event.motion.x),
                                                              static_cast<float>(event.motion.y)}));
        break;
    case SDL_MOUSEWHEEL: {
        if (io.WantCaptureMouse) break;
        int x = 0;
        int y = 0;
        SDL_GetMouseState(&x, &y);
        m_camera.zoomAt({static_cast<float>(x), static_cast<float>(y)},
                        std::pow(1.15f, static_cast<float>(event.wheel.y)));
        break;
    }
    case SDL_KEYDOWN:
        if (io.WantCaptureKeyboard) break;
        switch (event.key.keysym.sym) {
        case SDLK_SPACE: m_paused = !m_paused; break;
        case SDLK_s: m_stepOnce = true; break;
        case SDLK_r:
            m_drag.forget(); // the world is rebuilt
            m_session->restart();
            break;
        case SDLK_f: m_camera.fit(m_session->scene().view()); break;
        case SDLK_ESCAPE: m_running = false; break;
        default: break;
        }
        break;
    default: break;
    }
}

void Viewer::drawPanel() {
    // Top right, clear of the runner-style text panel corner and of most scenes' middle.
    ImGui::SetNextWindowPos({static_cast<float>(m_camera.width) - 370.0f, 10.0f},
                            ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize({360.0f, 0.0f}, ImGuiCond_FirstUseEver);
    ImGui::Begin("rigid2d");
    const auto scenes = sceneList();
    if (ImGui::BeginCombo("scene", m_session->name().c_str())) {
        for (std::size_t i = 0; i < scenes.size(); ++i) {
            const bool selected = static_cast<int>(i) == m_sceneIndex;
            if (ImGui::Selectable(std::string(scenes[i].name).c_str(), selected) && !selected) {
                m_sceneIndex = static_cast<int>(i);
                openScene(sourceOf(scenes[i]), 0);
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", std::string(scenes[i].description).c_str());
        }
        ImGui::EndCombo();
    }
    if (m_sceneIndex >= 0) {
        const SceneInfo& info = scenes[static_cast<std::size_t>(m_sceneIndex)];
        ImGui::InputInt(std::string(info.sizeMeaning).c_str(), &m_sizeInput);
        m_sizeInput = std::clamp(m_sizeInput, 1, 200000);
    }
    if (ImGui::Button("Restart")) {
        if (m_sceneIndex >= 0) {
            openScene(sourceOf(scenes[static_cast<std::size_t>(m_sceneIndex)]), m_sizeInput);
        } else {
            m_drag.forget(); // the world is rebuilt
            m_session->restart();
        }
    }
    ImGui::SameLine();
    ImGui::Checkbox("Pause", &m_paused);
    ImGui::SameLine();
    if (ImGui::Button("Step")) m_stepOnce = true;
    ImGui::SameLine();
    if (ImGui::Button("Fit view")) m_camera.fit(m_session->scene().view());
    ImGui::SameLine();
    if (ImGui::Button("Save")) {
        // The running world as a scene file in the working directory.
        const std::string path = m_session->name() + "-saved.json";
        try {
            saveSessionScene(*m_session, path, 600);
            m_message = "saved " + path;
        } catch (const std::exception& e) {
            m_message = e.what();
        }
    }
    // Rewind: the session keeps keyframes; dragging pauses and seeks (stepping again from an
    // earlier step takes a new path and drops the later ones).
    int shownStep = m_session->steps();
    if (m_session->latestStep() > m_session->earliestStep() &&
        ImGui::SliderInt("rewind (step)", &shownStep, m_session->earliestStep(),
                         m_session->latestStep())) {
        m_paused = true;
        m_drag.release(m_session->world()); // before the keyframe replaces the world's joints
        m_session->seek(shownStep);
    }

    const std::string current(toString(m_session->broadPhase()));
    if (ImGui::BeginCombo("broad phase", current.c_str())) {
        for (const BroadPhaseType type : kAllBroadPhaseTypes) {
            const std::string name(toString(type));
            if (ImGui::Selectable(name.c_str(), type == m_session->broadPhase())) {
                try {
                    m_session->setBroadPhase(type);
                    m_message.clear();
                } catch (const std::exception& e) {
                    m_message = e.what();
                }
            }
        }
        ImGui::EndCombo();
    }
    ImGui::Checkbox("broad-phase overlay", &m_frame.broadPhase);
    ImGui::SameLine();
    ImGui::Checkbox("AABBs", &m_frame.aabbs);
    ImGui::SameLine();
    ImGui::Checkbox("contacts", &m_frame.contacts);
    ImGui::TextUnformatted("click spawns:");
    ImGui::SameLine();
    if (ImGui::RadioButton("circle", !m_spawnBoxes)) m_spawnBoxes = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("box", m_spawnBoxes)) m_spawnBoxes = true;
    if (!m_message.empty()) ImGui::TextColored({0.8f, 0.1f, 0.1f, 1.0f}, "%s", m_message.c_str());
    ImGui::Separator();
    for (const std::string& line : panelLines(*m_session)) ImGui::TextUnformatted(line.c_str());
    ImGui::Separator();
    ImGui::TextDisabled("left: drag / spawn   right: pan   wheel: zoom");
    ImGui::TextDisabled("space: pause   S: step   R: restart   F: fit");
    ImGui::End();
}

void Viewer::renderWorld() {
    int width = 0;
    int height = 0;
    SDL_GetRendererOutputSize(m_renderer, &width, &height);
    if (!m_surface || cairo_image_surface_get_width(m_surface) != width ||
        cairo_image_surface_get_height(m_surface) != height) {
        if (m_surface) cairo_surface_destroy(m_surface);
        if (m_worldTexture) SDL_DestroyTexture(m_worldTexture);
        m_surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
        // Cairo's ARGB32 is a native-endian 0xAARRGGBB word, which is SDL's ARGB8888.
        m_worldTexture = SDL_CreateTexture(m_renderer, SDL_PIXELFORMAT_ARGB8888,
                                           SDL_TEXTUREACCESS_STREAMING, width, height);
    }
    m_camera.width = width;
    m_camera.height = height;
    cairo_t* cr = cairo_create(m_surface);
    FrameOptions frame = m_frame;
    frame.panel = false; // the ImGui panel shows the same lines
    renderFrame(cr, m_camera, *m_session, frame);
    cairo_destroy(cr);
    cairo_surface_flush(m_surface);
    SDL_UpdateTexture(m_worldTexture, nullptr, cairo_image_surface_get_data(m_surface),
                      cairo_image_surface_get_stride(m_surface));
    SDL_RenderCopy(m_renderer, m_worldTexture, nullptr, nullptr);
}

void Viewer::saveScreenshot(const std::string& path) {
    int width = 0;
    int height = 0;
    SDL_GetRendererOutputSize(m_renderer, &width, &height);
    cairo_surface_t* shot = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_surface_flush(shot);
    const int status = SDL_RenderReadPixels(m_renderer, nullptr, SDL_PIXELFORMAT_ARGB8888,
                                            cairo_image_surface_get_data(shot),
                                            cairo_image_surface_get_stride(shot));
    cairo_surface_mark_dirty(shot);
    const cairo_status_t written =
        status == 0 ? cairo_surface_write_to_png(shot, path.c_str()) : CAIRO_STATUS_WRITE_ERROR;
    cairo_surface_destroy(shot);
    if (status != 0)
        throw std::runtime_error(std::string("SDL_RenderReadPixels: ") + SDL_GetError());
    if (written != CAIRO_STATUS_SUCCESS) throw std::runtime_error("cannot write " + path);
    std::cout << path << "\n";
}

int Viewer::run() {
    for (int frame = 1; m_running; ++frame) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) handleEvent(event);
        if (!m_paused || m_stepOnce) {
            m_session->step();
            m_stepOnce = false;
        }
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        drawPanel();
        ImGui::Render();

        SDL_SetRenderDrawColor(m_renderer, 0, 0, 0, 255);
        SDL_RenderClear(m_renderer);
        renderWorld();
        m_imgui->render(*ImGui::GetDrawData());
        if (m_options.frames > 0 && frame >= m_options.frames) {
            if (!m_options.screenshot.empty()) saveScreenshot(m_options.screenshot);
            m_running = false;
        }
        SDL_RenderPresent(m_renderer);
    }
    return 0;
}

} // namespace
} // namespace rigid2d::demos

int main(int argc, char** argv) {
    using namespace rigid2d::demos;
    const ViewerOptions options = parse(argc, argv);
    try {
        Viewer viewer(options);
        return viewer.run();
    } catch (const std::exception& e) {
        std::cerr << "rigid2d-viewer: " << e.what() << "\n";
        return 1;
    }
}
