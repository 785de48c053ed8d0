#pragma once
/// One function per scene file; `scene_registry.cpp` lists them. An explicit list instead of
/// self-registering static objects, because a static library drops objects nothing refers to.

#include "scene.hpp"

namespace rigid2d::demos {

SceneInfo rainScene();
SceneInfo pyramidScene();
SceneInfo stackScene();
SceneInfo cradleScene();
SceneInfo bulletsScene();
SceneInfo mixedScene();
SceneInfo sparseScene();
SceneInfo churnScene();
SceneInfo cullingScene();
SceneInfo meleeScene();
SceneInfo sensorsScene();
SceneInfo toppleScene();
SceneInfo dominoesScene();
SceneInfo rampScene();
SceneInfo landscapeScene();
SceneInfo bridgeScene();
SceneInfo hangingChainScene();
SceneInfo ragdollsScene();
SceneInfo carScene();
SceneInfo spinnerScene();
SceneInfo gatherScene();

} // namespace rigid2d::demos
