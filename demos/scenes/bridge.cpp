// bridge: a rope bridge of planks hinged end to end between two static posts, with boxes and
// balls dropped on it; the planks sag into a catenary and carry the load through their joints.
// size = planks.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class BridgeScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float plankLength = 1.0f;
        const float span = plankLength * static_cast<float>(size);
        const float left = -0.5f * span;
        const float deckY = 10.0f;
        const BodyId leftPost =
            addBox(world, BodyType::Static, {left - 0.5f, deckY - 5.0f}, {0.5f, 5.0f});
        const BodyId rightPost =
            addBox(world, BodyType::Static, {-left + 0.5f, deckY - 5.0f}, {0.5f, 5.0f});
        ShapeDef plankShape;
        plankShape.density = 20.0f;
        plankShape.friction = 0.6f;
        BodyId previous = leftPost;
        for (int i = 0; i < size; ++i) {
            const float x = left + plankLength * (static_cast<float>(i) + 0.5f);
            const BodyId plank =
                world.createBody({.type = BodyType::Dynamic, .position = {x, deckY}});
            world.createBox(plank, plankShape, Box{{}, {0.5f * plankLength, 0.125f}, 0.0f});
            addHinge(world, previous, plank, {x - 0.5f * plankLength, deckY});
            previous = plank;
        }
        addHinge(world, previous, rightPost, {-left, deckY});

        // The load: a box or a ball above every third plank, at staggered heights.
        Random random(14);
        for (int i = 1; i < size; i += 3) {
            const float x = left + plankLength * static_cast<float>(i);
            const Vec2 at{x, deckY + 2.0f + random.uniform(0.0f, 4.0f)};
            if (i % 2 == 0) {
                const BodyId box = world.createBody({.type = BodyType::Dynamic,
                                                     .position = at,
                                                     .angle = random.uniform(-0.5f, 0.5f)});
                world.createBox(box, {}, Box{{}, {0.4f, 0.4f}, 0.0f});
            } else {
                addCircle(world, BodyType::Dynamic, at, 0.4f);
            }
        }
        m_bounds = {{left - 10.0f, -10.0f}, {-left + 10.0f, deckY + 20.0f}};
    }
};

} // namespace

SceneInfo bridgeScene() {
    return {"bridge", "a rope bridge of hinged planks between two posts, loaded with boxes",
            "planks", 40,
            12,       &makeScene<BridgeScene>};
}

} // namespace rigid2d::demos
