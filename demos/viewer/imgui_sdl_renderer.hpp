#pragma once
/// Draws Dear ImGui's output with an SDL_Renderer (SDL_RenderGeometryRaw). Debian's libimgui
/// ships the SDL2 platform backend compiled but not the SDL_Renderer one, and SDL's renderer
/// (with its software fallback) is what lets the viewer run under Xvfb with no GPU.

struct SDL_Renderer;
struct ImDrawData;

namespace rigid2d::demos {

class ImGuiSdlRenderer {
public:
    /// Uploads ImGui's font atlas; an ImGui context must exist.
    explicit ImGuiSdlRenderer(SDL_Renderer* renderer);
    ~ImGuiSdlRenderer();
    ImGuiSdlRenderer(const ImGuiSdlRenderer&) = delete;
    ImGuiSdlRenderer& operator=(const ImGuiSdlRenderer&) = delete;

    void render(const ImDrawData& data);

private:
    SDL_Renderer* m_renderer;
    void* m_fontTexture = nullptr;
};

} // namespace rigid2d::demos
