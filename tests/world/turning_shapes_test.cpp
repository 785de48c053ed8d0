// Shapes that turn (boxes on bodies that may rotate, polygons, capsules, segments) against
// closed forms: rolling and sliding on slopes, tipping, resting heights, ray casts; every broad
// phase steps them to the same bits; bad shapes are refused with the world unchanged.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "rigid2d/geometry.hpp"
#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

constexpr float kG = 10.0f;

float radians(float degrees) { return degrees * std::numbers::pi_v<float> / 180.0f; }

// A long static slope through the origin rising at `angle`, its surface the line y = x tan(angle):
// a thick box turned with its body, so the slope is a polygon.
void createSlope(World& world, float angle, float friction) {
    BodyDef def;
    def.angle = angle;
    const Vec2 down{std::sin(angle), -std::cos(angle)}; // into the slope
    def.position = 1.0f * down;
    ShapeDef shape;
    shape.friction = friction;
    world.createBox(world.createBody(def), shape, Box{{0.0f, 0.0f}, {200.0f, 1.0f}});
}

// A dynamic body resting on the slope at distance `along` up it, its centre `height` above the
// surface.
BodyId placeOnSlope(World& world, float angle, float along, float height) {
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.angle = angle;
    def.position = Vec2{std::cos(angle), std::sin(angle)} * along +
                   Vec2{-std::sin(angle), std::cos(angle)} * height;
    return world.createBody(def);
}

// Distance travelled along the slope (positive downhill) from `start`.
float downhill(const World& world, BodyId body, Vec2 start, float angle) {
    const Vec2 d = world.position(body) - start;
    return -(d.x * std::cos(angle) + d.y * std::sin(angle));
}

WorldDef noSleep() {
    WorldDef def;
    def.gravity = {0.0f, -kG};
    def.enableSleep = false;
    return def;
}

} // namespace

TEST_CASE("a disc rolls down a 30 degree slope at (2/3) g sin(angle)") {
    const float angle = radians(30.0f);
    World world(noSleep());
    createSlope(world, angle, 1.0f);
    const BodyId disc = placeOnSlope(world, angle, 20.0f, 0.5f);
    ShapeDef shape;
    shape.friction = 1.0f;
    world.createCircle(disc, shape, Circle{{0.0f, 0.0f}, 0.5f});
    stepFor(world, 0.25f); // settle onto the surface
    const Vec2 start = world.position(disc);
    const float seconds = 1.5f;
    const float v0 = std::hypot(world.linearVelocity(disc).x, world.linearVelocity(disc).y);
    stepFor(world, seconds);
    const float expected =
        v0 * seconds + 0.5f * (2.0f / 3.0f) * kG * std::sin(angle) * seconds * seconds;
    CHECK(downhill(world, disc, start, angle) == doctest::Approx(expected).epsilon(0.03));
    // Rolling without slipping: the rim speed equals the centre speed.
    const float speed = std::hypot(world.linearVelocity(disc).x, world.linearVelocity(disc).y);
    CHECK(std::fabs(world.angularVelocity(disc)) * 0.5f == doctest::Approx(speed).epsilon(0.02));
}

TEST_CASE(
    "a box on a 20 degree slope holds with friction 0.5 and slides at g (sin - mu cos) with 0.2") {
    const float angle = radians(20.0f);
    for (const float mu : {0.5f, 0.2f}) {
        CAPTURE(mu);
        World world(noSleep());
        createSlope(world, angle, mu);
        const BodyId box = placeOnSlope(world, angle, 10.0f, 0.5f);
        ShapeDef shape;
        shape.friction = mu;
        world.createBox(box, shape, Box{{0.0f, 0.0f}, {0.5f, 0.5f}});
        stepFor(world, 0.25f);
        const Vec2 start = world.position(box);
        const float v0 = std::hypot(world.linearVelocity(box).x, world.linearVelocity(box).y);
        const float seconds = 1.5f;
        stepFor(world, seconds);
        const float travelled = downhill(world, box, start, angle);
        if (mu == 0.5f) {
            CHECK(std::fabs(travelled) < 0.01f);
        } else {
            const float a = kG * (std::sin(angle) - mu * std::cos(angle));
            CHECK(travelled ==
                  doctest::Approx(v0 * seconds + 0.5f * a * seconds * seconds).epsilon(0.03));
        }
        CHECK(std::fabs(world.angle(box) - angle) < 0.01f); // slides flat, does not tumble
    }
}

TEST_CASE("on a rough 20 degree slope a tall thin box tips over and a wide low one does not") {
    const float angle = radians(20.0f);
    World world(noSleep());
    createSlope(world, angle, 2.0f);
    ShapeDef shape;
    shape.friction = 2.0f;
    // Tips when tan(angle) = 0.36 exceeds half width / half height.
    const BodyId tall = placeOnSlope(world, angle, 0.0f, 1.0f);
    world.createBox(tall, shape, Box{{0.0f, 0.0f}, {0.15f, 1.0f}});
    const BodyId wide = placeOnSlope(world, angle, 20.0f, 0.3f);
    world.createBox(wide, shape, Box{{0.0f, 0.0f}, {1.0f, 0.3f}});
    stepFor(world, 3.0f);
    CHECK(std::fabs(world.angle(tall) - angle) > 1.0f);
    CHECK(std::fabs(world.angle(wide) - angle) < 0.01f);
}

namespace {

struct Pyramid {
    std::vector<BodyId> boxes;
    std::vector<Vec2> start; // each box's position as built
};

/// Box2D v3's pyramid of unit boxes on a floor at y = 0: each row's boxes touch side by side and
/// sit across two boxes of the row below.
Pyramid buildPyramid(World& world, int rows) {
    Pyramid pyramid;
    for (int row = 0; row < rows; ++row)
        for (int i = 0; i < rows - row; ++i) {
            BodyDef def;
            def.type = BodyType::Dynamic;
            def.position = {static_cast<float>(i) - 0.5f * static_cast<float>(rows - row - 1),
                            0.5f + static_cast<float>(row)};
            const BodyId box = world.createBody(def);
            world.createBox(box, {}, Box{{0.0f, 0.0f}, {0.5f, 0.5f}});
            pyramid.boxes.push_back(box);
            pyramid.start.push_back(def.position);
        }
    return pyramid;
}

} // namespace

TEST_CASE("a pyramid of 10 rows of turning boxes stands and falls asleep") {
    World world = makeWorldWithFloor({}, 0.0f, 50.0f);
    const Pyramid pyramid = buildPyramid(world, 10);
    const std::vector<BodyId>& boxes = pyramid.boxes;
    const std::vector<Vec2>& start = pyramid.start;
    // Once it has settled, boxes move microns relative to each other: their manifolds are
    // carried over (manifold_cache.hpp) rather than collided anew.
    stepFor(world, 0.5f);
    CHECK(world.stats().reusedManifolds > world.stats().touchingContacts / 2);
    CHECK(stepUntilAsleep(world, 5.0f) > 0.0f);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const Vec2 d = world.position(boxes[i]) - start[i];
        CHECK(std::hypot(d.x, d.y) < 0.02f);
        CHECK(std::fabs(world.angle(boxes[i])) < 0.005f);
    }
}

TEST_CASE("a 40-row pyramid of turning boxes does not creep sideways") {
    // Every box rests on two nearly equal faces whose role of reference face swaps from step to
    // step. Contacts that lost their warm start at each swap let the stack shear sideways
    // by a metre at 100 rows; here a 40-row stack must stand within a few centimetres and sleep.
    World world = makeWorldWithFloor({}, 0.0f, 60.0f);
    const Pyramid pyramid = buildPyramid(world, 40);
    const std::vector<BodyId>& boxes = pyramid.boxes;
    const std::vector<Vec2>& start = pyramid.start;
    const float slept = stepUntilAsleep(world, 10.0f);
    float sideways = 0.0f, turned = 0.0f;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        sideways = std::max(sideways, std::fabs(world.position(boxes[i]).x - start[i].x));
        turned = std::max(turned, std::fabs(world.angle(boxes[i])));
    }
    CHECK(slept > 0.0f);
    CHECK(sideways < 0.03f);
    CHECK(turned < 0.01f);
}

TEST_CASE("a hexagon and a capsule dropped on a segment rest at their analytic heights") {
    World world;
    world.createSegment(world.createBody({}), {}, Segment{{-20.0f, 0.0f}, {20.0f, 0.0f}});
    BodyDef def;
    def.type = BodyType::Dynamic;
    // A hexagon with a vertex at angle 0 rests on a flat edge: centre sqrt(3)/2 R above the ground.
    const float r = 0.6f;
    std::vector<Vec2> points;
    for (int i = 0; i < 6; ++i) {
        const float a = static_cast<float>(i) * std::numbers::pi_v<float> / 3.0f;
        points.push_back({r * std::cos(a), r * std::sin(a)});
    }
    def.position = {-5.0f, 2.0f};
    const BodyId hexagon = world.createBody(def);
    world.createPolygon(hexagon, {}, makePolygon(points));
    // A lying capsule rests on its side: centre one radius above the ground.
    def.position = {5.0f, 2.0f};
    const BodyId capsule = world.createBody(def);
    world.createCapsule(capsule, {}, Capsule{{-0.7f, 0.0f}, {0.7f, 0.0f}, 0.3f});
    CHECK(stepUntilAsleep(world, 6.0f) > 0.0f);
    const float slop = world.def().linearSlop;
    CHECK(std::fabs(world.position(hexagon).y - std::sqrt(3.0f) / 2.0f * r) <= slop);
    CHECK(std::fabs(world.position(capsule).y - 0.3f) <= slop);
}

TEST_CASE("ray casts at every kind agree with closed forms") {
    World world;
    const BodyId ground = world.createBody({});
    BodyDef def;
    def.angle = radians(45.0f);
    def.position = {0.0f, 0.0f};
    const BodyId diamondBody = world.createBody(def); // a unit box turned 45 degrees: a diamond
    world.createBox(diamondBody, {}, Box{{0.0f, 0.0f}, {0.5f, 0.5f}});
    world.createCapsule(ground, {}, Capsule{{10.0f, -1.0f}, {10.0f, 1.0f}, 0.5f});
    world.createSegment(ground, {}, Segment{{20.0f, -1.0f}, {20.0f, 1.0f}});
    const float half = std::sqrt(0.5f); // the diamond's corner on the x axis
    const auto hit = world.castRayClosest({-5.0f, 0.0f}, {10.0f, 0.0f});
    REQUIRE(hit.has_value());
    CHECK(hit->point.x == doctest::Approx(-half).epsilon(1e-4));
    // Along y = 0.2 the diamond's face x + y = -half: hit at x = -half - 0.2, normal (-1,
    // -1)/sqrt2.
    const auto face = world.castRayClosest({-5.0f, 0.2f}, {10.0f, 0.0f});
    REQUIRE(face.has_value());
    CHECK(face->point.x == doctest::Approx(0.2f - half).epsilon(1e-4));
    CHECK(face->normal.x == doctest::Approx(-half).epsilon(1e-4));
    CHECK(face->normal.y == doctest::Approx(half).epsilon(1e-4));
    // The capsule's side at x = 9.5; its cap above y = 1 is a circle of radius 0.5.
    const auto side = world.castRayClosest({5.0f, 0.5f}, {10.0f, 0.0f});
    REQUIRE(side.has_value());
    CHECK(side->point.x == doctest::Approx(9.5f).epsilon(1e-4));
    const auto cap = world.castRayClosest({10.3f, 5.0f}, {0.0f, -10.0f});
    REQUIRE(cap.has_value());
    CHECK(cap->point.y == doctest::Approx(1.0f + std::sqrt(0.25f - 0.09f)).epsilon(1e-4));
    // The segment, from either side.
    const auto segment = world.castRayClosest({25.0f, 0.0f}, {-10.0f, 0.0f});
    REQUIRE(segment.has_value());
    CHECK(segment->point.x == doctest::Approx(20.0f).epsilon(1e-5));
    CHECK(segment->normal.x == doctest::Approx(1.0f));
}

TEST_CASE("a fast turning bullet box does not pass a thin static wall") {
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        CAPTURE(toString(type));
        WorldDef worldDef;
        worldDef.broadPhase = type;
        worldDef.gravity = {};
        World world(worldDef);
        const BodyId wall = world.createBody({});
        world.createBox(wall, {}, Box{{10.0f, 0.0f}, {0.05f, 5.0f}});
        for (const bool bullet : {true, false}) {
            BodyDef def;
            def.type = BodyType::Dynamic;
            def.position = {0.0f, bullet ? 2.0f : -2.0f};
            def.linearVelocity = {300.0f, 0.0f};
            def.angularVelocity = 20.0f;
            def.bullet = bullet;
            const BodyId box = world.createBody(def);
            world.createBox(box, {}, Box{{0.0f, 0.0f}, {0.2f, 0.1f}});
        }
        stepFor(world, 0.5f);
        world.forEachBody([&](BodyId b) {
            if (world.bodyType(b) == BodyType::Dynamic) CHECK(world.position(b).x < 10.0f);
        });
    }
}

TEST_CASE("turning shapes step to the same bits on every broad phase") {
    std::vector<std::uint64_t> hashes;
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        WorldDef def;
        def.broadPhase = type;
        World world = makeWorldWithFloor(def, 0.0f, 30.0f);
        for (int i = 0; i < 40; ++i) {
            BodyDef body;
            body.type = BodyType::Dynamic;
            body.position = {static_cast<float>(i % 8) * 1.3f - 5.0f,
                             1.0f + static_cast<float>(i / 8) * 1.5f};
            body.angle = 0.3f * static_cast<float>(i);
            const BodyId id = world.createBody(body);
            if (i % 3 == 0) world.createBox(id, {}, Box{{0.0f, 0.0f}, {0.5f, 0.3f}});
            if (i % 3 == 1)
                world.createCapsule(id, {}, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.25f});
            if (i % 3 == 2) world.createCircle(id, {}, Circle{{0.0f, 0.0f}, 0.4f});
        }
        stepFor(world, 3.0f);
        hashes.push_back(stateHash(world));
    }
    for (const std::uint64_t hash : hashes) CHECK(hash == hashes.front());
}

TEST_CASE(
    "bad polygons, capsules and segments are refused, naming the field, the world unchanged") {
    World world = makeWorldWithFloor();
    const BodyId body = createCircle(world, {0.0f, 3.0f}, 0.5f);
    stepFor(world, 0.2f);
    std::uint64_t hash = stateHash(world); // the state every refusal must leave
    const std::size_t proxies = world.broadPhase().size();
    const auto refused = [&](const char* field, auto&& call) {
        std::string message;
        try {
            call();
        } catch (const Error& e) {
            message = e.what();
        }
        CAPTURE(message);
        CHECK(message.find(field) != std::string::npos);
        CHECK(stateHash(world) == hash);
        CHECK(world.broadPhase().size() == proxies);
    };
    Polygon concave;
    concave.count = 4;
    concave.vertices[0] = {0, 0};
    concave.vertices[1] = {2, 0};
    concave.vertices[2] = {0.5f, 0.5f}; // inside the hull of the others
    concave.vertices[3] = {0, 2};
    refused("polygon", [&] { world.createPolygon(body, {}, concave); });
    Polygon tooMany;
    tooMany.count = 9;
    refused("polygon.count", [&] { world.createPolygon(body, {}, tooMany); });
    Polygon withNaN = makeBox({0.5f, 0.5f});
    withNaN.vertices[1].x = std::numeric_limits<float>::quiet_NaN();
    refused("polygon.vertices", [&] { world.createPolygon(body, {}, withNaN); });
    refused("capsule.radius", [&] {
        world.createCapsule(body, {}, Capsule{{0, 0}, {1, 0}, 0.0f});
    });
    refused("capsule.center2", [&] {
        world.createCapsule(body, {}, Capsule{{0, 0}, {0, 0}, 0.2f});
    });
    refused("body", [&] { world.createSegment(body, {}, Segment{{0, 0}, {1, 0}}); });
    refused("box.angle", [&] {
        world.createBox(body, {},
                        Box{{0, 0}, {0.5f, 0.5f}, std::numeric_limits<float>::infinity()});
    });
    // Beyond the reach, refused before any corner is computed: under the float traps an
    // overflowing corner would stop the test instead of the refusal.
    constexpr float kFar = 3e38f;
    refused("box.center", [&] {
        world.createBox(body, {}, Box{{-kFar, kFar}, {0.5f, 0.5f}, 0.3f});
    });
    refused("box.halfExtents", [&] { world.createBox(body, {}, Box{{0, 0}, {kFar, kFar}, 0.3f}); });
    refused("capsule.center1", [&] {
        world.createCapsule(body, {}, Capsule{{kFar, kFar}, {kFar, -kFar}, 0.2f});
    });
    refused("capsule.center2", [&] {
        world.createCapsule(body, {}, Capsule{{0, 0}, {kFar, kFar}, 0.2f});
    });
    // Segments need a body that does not move; the refusals leave it as created.
    const BodyId ground = world.createBody({});
    hash = stateHash(world);
    refused("segment.point1", [&] {
        world.createSegment(ground, {}, Segment{{kFar, kFar}, {-kFar, kFar}});
    });
    refused("segment.point2", [&] {
        world.createSegment(ground, {}, Segment{{0, 0}, {-kFar, kFar}});
    });
    const std::vector<Vec2> farChain{{-kFar, 0}, {0, 0}, {kFar, 0}, {kFar, kFar}};
    refused("def.points", [&] { world.createChain(ground, {.points = farChain}); });
    Polygon farSquare = makeBox({0.5f, 0.5f});
    for (int i = 0; i < 4; ++i) farSquare.vertices[i] *= kFar;
    refused("points", [&] { world.createPolygon(body, {}, farSquare); });
    CHECK_THROWS_AS((void)makePolygon(std::vector<Vec2>{{-kFar, -kFar}, {kFar, -kFar}, {0, kFar}}),
                    Error);
}
