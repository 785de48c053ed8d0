// hanging_chain: capsule links hinged end to end hang from a static pin, start out level and swing
// down with a heavy ball at the free end, over a row of pegs they strike, and settle against
// one of them. size = links.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class HangingChainScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float linkLength = 1.0f;
        const float top = linkLength * static_cast<float>(size) + 5.0f;
        const BodyId pin = addCircle(world, BodyType::Static, {0.0f, top}, 0.2f);
        ShapeDef linkShape;
        linkShape.density = 5.0f;
        BodyId previous = pin;
        for (int i = 0; i < size; ++i) {
            const float x = linkLength * (static_cast<float>(i) + 0.5f);
            const BodyId link = world.createBody({.type = BodyType::Dynamic, .position = {x, top}});
            world.createCapsule(
                link, linkShape,
                Capsule{{-0.5f * linkLength, 0.0f}, {0.5f * linkLength, 0.0f}, 0.125f});
            addHinge(world, previous, link, {x - 0.5f * linkLength, top});
            previous = link;
        }
        const float end = linkLength * static_cast<float>(size);
        ShapeDef weight;
        weight.density = 20.0f;
        const BodyId ball = addCircle(world, BodyType::Dynamic, {end + 0.5f, top}, 0.5f, weight);
        addHinge(world, previous, ball, {end, top});

        // Pegs below the swing, for the chain to wrap around and slide off.
        for (int i = 1; i <= 3; ++i) {
            const float x = 0.25f * end * static_cast<float>(i) - 0.5f * end;
            addCircle(world, BodyType::Static, {x, top - 0.6f * end}, 0.3f);
        }
        addBox(world, BodyType::Static, {0.0f, -0.5f}, {2.0f * end, 0.5f});
        m_bounds = {{-2.0f * end - 5.0f, -5.0f}, {2.0f * end + 5.0f, top + end}};
        m_view = {{-end - 2.0f, top - end - 2.0f}, {end + 2.0f, top + 2.0f}};
    }

    [[nodiscard]] AABB view() const override { return m_view; }

private:
    AABB m_view{};
};

} // namespace

SceneInfo hangingChainScene() {
    return {"hanging_chain",
            "a hinged chain with a weight swings down from a pin over pegs",
            "links",
            30,
            10,
            &makeScene<HangingChainScene>};
}

} // namespace rigid2d::demos
