// gather: bodies spread over a world 480 m wide, all thrown into one pit, where they pile up:
// a sparse world in flight, then a dense heap, whose broad-phase costs differ in kind (the
// runner's and the viewer's panel names the kind `auto` runs). The layout of `gather` in
// demos/bench/scenes/generate.py, the file the benchmark runs beside the peers. size = bodies.
#include <cmath>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kHalfWidth = 240.0f; ///< the lattice spans x in [-kHalfWidth, kHalfWidth]
constexpr float kPit = 40.0f;        ///< half the width of the pit
constexpr float kWall = 50.0f;       ///< height of the pit's walls
constexpr int kColumns = 75;
constexpr float kGravity = 10.0f;

class GatherScene final : public Scene {
public:
    void build(World& world, int size) override {
        world.setGravity({0.0f, -kGravity});
        addContainer(world, {{-kPit, 0.0f}, {kPit, kWall}}, 2.0f);
        // Ground on both sides, for what falls short or bounces out.
        addBox(world, BodyType::Static, {0.0f, -3.0f}, {kHalfWidth + 20.0f, 1.0f});
        ShapeDef shape;
        shape.friction = 0.4f;
        // A jittered lattice between 20 and 140 m up. The jitter is the fractional part of a
        // multiple of the golden ratio, as in the generator.
        const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
        const double halfWidth = kHalfWidth, pit = kPit, wall = kWall, gravity = kGravity;
        const int rows = (size + kColumns - 1) / kColumns;
        const double pitchX = 2.0 * halfWidth / kColumns;
        const double pitchY = 120.0 / rows;
        for (int index = 0; index < size; ++index) {
            const int row = index / kColumns;
            const int column = index % kColumns;
            const double jitterX = std::fmod(index * golden, 1.0) - 0.5;
            const double jitterY = std::fmod(index * golden * golden, 1.0) - 0.5;
            const double x = -halfWidth + (column + 0.5 + 0.8 * jitterX) * pitchX;
            const double y = 20.0 + (row + 0.5 + 0.8 * jitterY) * pitchY;
            // Over the pit (x in the pit, 5 m above its walls) after `flight` seconds, still
            // falling: the farther bodies fly longer, so they land over about two seconds.
            const double targetX = (pit - 5.0) * (2.0 * std::fmod(index * golden * 3.0, 1.0) - 1.0);
            const double flight = 3.0 + 2.0 * std::abs(x) / halfWidth;
            const Vec2 velocity{
                static_cast<float>((targetX - x) / flight),
                static_cast<float>((wall + 5.0 - y) / flight + 0.5 * gravity * flight)};
            const Vec2 position{static_cast<float>(x), static_cast<float>(y)};
            if (index % 2 == 0)
                addCircle(world, BodyType::Dynamic, position, 0.45f, shape, velocity);
            else
                addBox(world, BodyType::Dynamic, position, {0.4f, 0.4f}, shape, velocity);
        }
        m_bounds = {{-kHalfWidth - 20.0f, -20.0f}, {kHalfWidth + 20.0f, 260.0f}};
    }
};

} // namespace

SceneInfo gatherScene() {
    return {"gather", "bodies thrown from across a wide world into one pit: sparse, then dense",
            "bodies", 3000,
            150,      &makeScene<GatherScene>};
}

} // namespace rigid2d::demos
