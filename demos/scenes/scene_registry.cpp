#include <array>

#include "scene_list.hpp"

namespace rigid2d::demos {

std::span<const SceneInfo> sceneList() {
    static const std::array kScenes{
        rainScene(),    pyramidScene(),      stackScene(),    cradleScene(),  bulletsScene(),
        mixedScene(),   sparseScene(),       churnScene(),    cullingScene(), meleeScene(),
        sensorsScene(), toppleScene(),       dominoesScene(), rampScene(),    landscapeScene(),
        bridgeScene(),  hangingChainScene(), ragdollsScene(), carScene(),     spinnerScene(),
        gatherScene(),
    };
    return kScenes;
}

const SceneInfo* findScene(std::string_view name) {
    for (const SceneInfo& info : sceneList())
        if (info.name == name) return &info;
    return nullptr;
}

} // namespace rigid2d::demos
