#include "imgui_sdl_renderer.hpp"

#include <SDL.h>
#include <imgui.h>

#include <cstddef>
#include <stdexcept>

namespace rigid2d::demos {

ImGuiSdlRenderer::ImGuiSdlRenderer(SDL_Renderer* renderer) : m_renderer(renderer) {
    ImGuiIO& io = ImGui::GetIO();
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    SDL_Texture* texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32,
                                             SDL_TEXTUREACCESS_STATIC, width, height);
    if (!texture) throw std::runtime_error(std::string("SDL_CreateTexture: ") + SDL_GetError());
    SDL_UpdateTexture(texture, nullptr, pixels, 4 * width);
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND);
    io.Fonts->SetTexID(static_cast<ImTextureID>(texture));
    m_fontTexture = texture;
}

ImGuiSdlRenderer::~ImGuiSdlRenderer() {
    ImGui::GetIO().Fonts->SetTexID(nullptr);
    SDL_DestroyTexture(static_cast<SDL_Texture*>(m_fontTexture));
}

void ImGuiSdlRenderer::render(const ImDrawData& data) {
    // ImGui's vertices are in display coordinates offset by DisplayPos; the window and the
    // renderer output have the same size here (no high-DPI scaling requested).
    const ImVec2 origin = data.DisplayPos;
    SDL_Rect oldClip;
    const SDL_bool hadClip = SDL_RenderIsClipEnabled(m_renderer);
    SDL_RenderGetClipRect(m_renderer, &oldClip);
    for (int n = 0; n < data.CmdListsCount; ++n) {
        const ImDrawList& list = *data.CmdLists[n];
        const ImDrawVert* vertices = list.VtxBuffer.Data;
        const ImDrawIdx* indices = list.IdxBuffer.Data;
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            if (cmd.UserCallback) {
                cmd.UserCallback(&list, &cmd);
                continue;
            }
            const SDL_Rect clip{static_cast<int>(cmd.ClipRect.x - origin.x),
                                static_cast<int>(cmd.ClipRect.y - origin.y),
                                static_cast<int>(cmd.ClipRect.z - cmd.ClipRect.x),
                                static_cast<int>(cmd.ClipRect.w - cmd.ClipRect.y)};
            if (clip.w <= 0 || clip.h <= 0) continue;
            SDL_RenderSetClipRect(m_renderer, &clip);
            const ImDrawVert* first = vertices + cmd.VtxOffset;
            const auto* bytes = reinterpret_cast<const unsigned char*>(first);
            // ImGui packs colours as R, G, B, A bytes, the layout of SDL_Color.
            SDL_RenderGeometryRaw(
                m_renderer, static_cast<SDL_Texture*>(cmd.GetTexID()),
                reinterpret_cast<const float*>(bytes + offsetof(ImDrawVert, pos)),
                sizeof(ImDrawVert),
                reinterpret_cast<const SDL_Color*>(bytes + offsetof(ImDrawVert, col)),
                sizeof(ImDrawVert),
                reinterpret_cast<const float*>(bytes + offsetof(ImDrawVert, uv)),
                sizeof(ImDrawVert), list.VtxBuffer.Size - static_cast<int>(cmd.VtxOffset),
                indices + cmd.IdxOffset, static_cast<int>(cmd.ElemCount), sizeof(ImDrawIdx));
        }
    }
    SDL_RenderSetClipRect(m_renderer, hadClip ? &oldClip : nullptr);
}

} // namespace rigid2d::demos
