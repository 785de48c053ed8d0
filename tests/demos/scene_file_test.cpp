#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>

#include "scene_file.hpp"

using namespace rigid2d;
using namespace rigid2d::scene_file;

namespace {

// A valid document with two bodies; the refusal cases below each break one field of it.
std::string document(const std::string& secondBody, const std::string& header = "") {
    return R"({"format": "rigid2d-scene", "version": 1, "name": "t", )" + header +
           R"( "bodies": [
        {"type": "static", "position": [0, 0],
         "shapes": [{"kind": "box", "center": [0, -1], "half_extents": [10, 1]}]},
        )" +
           secondBody + "]}";
}

const std::string kCircleBody =
    R"({"position": [1, 2], "shapes": [{"kind": "circle", "radius": 0.5}]})";

std::string refusal(const std::string& text) {
    try {
        (void)parseScene(text, "scene.json");
    } catch (const SceneFileError& e) {
        return e.what();
    }
    FAIL("accepted: " << text);
    return {};
}

void checkSame(const SceneDesc& a, const SceneDesc& b) {
    CHECK(a.name == b.name);
    CHECK(a.gravity == b.gravity);
    CHECK(a.timeStep == b.timeStep);
    CHECK(a.steps == b.steps);
    CHECK(a.hasBounds == b.hasBounds);
    CHECK(a.bounds == b.bounds);
    REQUIRE(a.bodies.size() == b.bodies.size());
    for (std::size_t i = 0; i < a.bodies.size(); ++i) {
        const BodyDesc& x = a.bodies[i];
        const BodyDesc& y = b.bodies[i];
        CAPTURE(i);
        CHECK(x.def.type == y.def.type);
        CHECK(x.def.position == y.def.position);
        CHECK(x.def.angle == y.def.angle);
        CHECK(x.def.linearVelocity == y.def.linearVelocity);
        CHECK(x.def.angularVelocity == y.def.angularVelocity);
        CHECK(x.def.bullet == y.def.bullet);
        REQUIRE(x.shapes.size() == y.shapes.size());
        for (std::size_t k = 0; k < x.shapes.size(); ++k) {
            CHECK(x.shapes[k].kind == y.shapes[k].kind);
            CHECK(x.shapes[k].center == y.shapes[k].center);
            CHECK(x.shapes[k].radius == y.shapes[k].radius);
            CHECK(x.shapes[k].halfExtents == y.shapes[k].halfExtents);
            CHECK(x.shapes[k].def.density == y.shapes[k].def.density);
            CHECK(x.shapes[k].def.friction == y.shapes[k].def.friction);
            CHECK(x.shapes[k].def.restitution == y.shapes[k].def.restitution);
            CHECK(x.shapes[k].def.isSensor == y.shapes[k].def.isSensor);
        }
    }
}

} // namespace

TEST_CASE("parseScene reads every field and fills FORMAT.md's defaults") {
    const SceneDesc scene =
        parseScene(document(R"({"type": "kinematic", "position": [1, 2], "velocity": [3, -4],
                     "angular_velocity": 0.5, "bullet": true, "unknown_field": {"x": 1},
                     "shapes": [{"kind": "circle", "radius": 0.25, "center": [0.5, 0],
                                 "density": 2, "friction": 0.1, "restitution": 0.9,
                                 "sensor": true}]})",
                            R"("gravity": [0, -9.8], "time_step": 0.01, "steps": 42,
                    "bounds": {"lower": [-5, -6], "upper": [7, 8]},)"),
                   "scene.json");
    CHECK(scene.name == "t");
    CHECK(scene.gravity == Vec2{0, -9.8f});
    CHECK(scene.timeStep == 0.01f);
    CHECK(scene.steps == 42);
    REQUIRE(scene.hasBounds);
    CHECK(scene.bounds == AABB{{-5, -6}, {7, 8}});
    REQUIRE(scene.bodies.size() == 2);
    const BodyDesc& ground = scene.bodies[0];
    CHECK(ground.def.type == BodyType::Static);
    REQUIRE(ground.shapes.size() == 1);
    CHECK(ground.shapes[0].kind == ShapeType::Box);
    CHECK(ground.shapes[0].center == Vec2{0, -1});
    CHECK(ground.shapes[0].halfExtents == Vec2{10, 1});
    CHECK(ground.shapes[0].def.density == 1.0f);
    CHECK(ground.shapes[0].def.friction == 0.6f);
    CHECK(ground.shapes[0].def.restitution == 0.0f);
    CHECK_FALSE(ground.shapes[0].def.isSensor);
    const BodyDesc& mover = scene.bodies[1];
    CHECK(mover.def.type == BodyType::Kinematic);
    CHECK(mover.def.position == Vec2{1, 2});
    CHECK(mover.def.linearVelocity == Vec2{3, -4});
    CHECK(mover.def.angularVelocity == 0.5f);
    CHECK(mover.def.bullet);
    CHECK(mover.shapes[0].radius == 0.25f);
    CHECK(mover.shapes[0].center == Vec2{0.5f, 0});
    CHECK(mover.shapes[0].def.density == 2.0f);
    CHECK(mover.shapes[0].def.friction == 0.1f);
    CHECK(mover.shapes[0].def.restitution == 0.9f);
    CHECK(mover.shapes[0].def.isSensor);

    const SceneDesc defaults =
        parseScene(R"({"format": "rigid2d-scene", "version": 1, "bodies": [)" + kCircleBody + "]}",
                   "dir/rain.json");
    CHECK(defaults.name == "rain");
    CHECK(defaults.gravity == Vec2{0, -10});
    CHECK(defaults.timeStep == 1.0f / 60);
    CHECK(defaults.steps == 600);
    CHECK_FALSE(defaults.hasBounds);
    CHECK(defaults.bodies[0].def.type == BodyType::Dynamic);
    CHECK(defaults.bodies[0].def.linearVelocity == Vec2{0, 0});
    CHECK_FALSE(defaults.bodies[0].def.bullet);
}

TEST_CASE("sceneToJson and parseScene round-trip every field bit for bit") {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> any(-1000.0f, 1000.0f);
    std::uniform_real_distribution<float> size(1e-4f, 50.0f);
    SceneDesc scene;
    scene.name = "round \"trip\"";
    scene.gravity = {0.1f, -9.81f};
    scene.timeStep = 1.0f / 240;
    scene.steps = 17;
    scene.hasBounds = true;
    scene.bounds = {{-100.5f, -3}, {100.25f, 400}};
    for (int i = 0; i < 200; ++i) {
        BodyDesc body;
        body.def.type = static_cast<BodyType>(i % 3);
        body.def.position = {any(random), any(random)};
        body.def.angle = i % 2 == 0 ? 0.0f : any(random);
        body.def.linearVelocity = {any(random), any(random)};
        body.def.angularVelocity = i % 5 == 0 ? 0.0f : any(random);
        body.def.bullet = i % 7 == 0;
        for (int k = 0; k <= i % 3; ++k) {
            ShapeDesc shape;
            shape.kind = (i + k) % 2 == 0 ? ShapeType::Circle : ShapeType::Box;
            shape.center = {any(random), any(random)};
            if (shape.kind == ShapeType::Circle) {
                shape.radius = size(random);
            } else {
                shape.halfExtents = {size(random), size(random)};
            }
            shape.def.density = size(random);
            shape.def.friction = size(random) / 50;
            shape.def.restitution = size(random) / 50;
            shape.def.isSensor = k == 2;
            body.shapes.push_back(shape);
        }
        scene.bodies.push_back(body);
    }
    const std::string text = sceneToJson(scene);
    checkSame(parseScene(text, "x.json"), scene);
    // Written floats are the short forms, not the widened doubles.
    CHECK(text.find("0.004166667") != std::string::npos);

    const auto path = std::filesystem::temp_directory_path() / "rigid2d_scene_round_trip.json";
    writeSceneFile(scene, path);
    checkSame(readSceneFile(path), scene);
    std::filesystem::remove(path);

    SceneDesc empty;
    empty.name = "empty";
    checkSame(parseScene(sceneToJson(empty), "e.json"), empty);
}

TEST_CASE("every refusal names the file, the body index and the field") {
    struct Case {
        std::string body;
        std::string expected;
    };
    const Case cases[] = {
        {R"({"shapes": [{"kind": "circle", "radius": 1}]})",
         "scene.json: body 1: field 'position': is required"},
        {R"({"position": [1], "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'position': must be an array of 2 numbers, got an array of 1"},
        {R"({"position": [1, "2"], "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'position[1]': must be a number, got string"},
        {R"({"position": [NaN, 2], "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'position[0]': must be finite, got NaN"},
        {R"({"position": [0, 0], "velocity": [Infinity, 0], "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'velocity[0]': must be finite, got Infinity"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": -Infinity}]})",
         "body 1: field 'shapes[0].radius': must be finite, got -Infinity"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1e40}]})",
         "body 1: field 'shapes[0].radius': must be finite (as a float), got 1e+40"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": -1}]})",
         "scene.json: body 1: field 'shapes[0].radius': must be > 0, got -1"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle"}]})",
         "body 1: field 'shapes[0].radius': is required"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1}, {"kind": "box", "half_extents": [1, 0]}]})",
         "body 1: field 'shapes[1].half_extents[1]': must be > 0, got 0"},
        {R"({"position": [0, 0], "shapes": [{"kind": "box"}]})",
         "body 1: field 'shapes[0].half_extents': is required"},
        {R"({"position": [0, 0], "shapes": [{"kind": "polygon"}]})",
         "body 1: field 'shapes[0].kind': must be \"circle\" or \"box\" (version 1), got \"polygon\""},
        {R"({"position": [0, 0], "shapes": [{"radius": 1}]})",
         "body 1: field 'shapes[0].kind': is required"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1, "density": -2}]})",
         "body 1: field 'shapes[0].density': must be >= 0, got -2"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1, "friction": "high"}]})",
         "body 1: field 'shapes[0].friction': must be a number, got string"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1, "sensor": 1}]})",
         "body 1: field 'shapes[0].sensor': must be true or false, got number"},
        {R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1, "center": [0, NaN]}]})",
         "body 1: field 'shapes[0].center[1]': must be finite, got NaN"},
        {R"({"position": [0, 0], "shapes": []})", "body 1: field 'shapes': must hold at least one"},
        {R"({"position": [0, 0]})", "body 1: field 'shapes': is required"},
        {R"({"position": [0, 0], "shapes": {}})", "body 1: field 'shapes': must be an array"},
        {R"({"type": "ghost", "position": [0, 0], "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'type': must be \"static\", \"kinematic\" or \"dynamic\", got \"ghost\""},
        {R"({"position": [0, 0], "bullet": "yes", "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'bullet': must be true or false, got string"},
        {R"({"position": [0, 0], "angular_velocity": NaN, "shapes": [{"kind": "circle", "radius": 1}]})",
         "body 1: field 'angular_velocity': must be finite, got NaN"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.body);
        const std::string message = refusal(document(c.body));
        CHECK_MESSAGE(message.find(c.expected) != std::string::npos, message);
    }
}

TEST_CASE("refusals of the document's own fields name the field") {
    const std::string body = kCircleBody;
    const auto withHeader = [&](const std::string& header) {
        return std::string(R"({"bodies": [)") + body + "], " + header + "}";
    };
    CHECK(refusal(withHeader(R"("version": 1)")) == "scene.json: field 'format': is required");
    CHECK(refusal(withHeader(R"("format": "box2d", "version": 1)")) ==
          "scene.json: field 'format': must be \"rigid2d-scene\", got \"box2d\"");
    CHECK(refusal(withHeader(R"("format": "rigid2d-scene", "version": 3)")) ==
          "scene.json: field 'version': must be 1 or 2 (the versions this reader knows), got 3");
    CHECK(refusal(withHeader(R"("format": "rigid2d-scene")")) ==
          "scene.json: field 'version': is required");
    const std::string ok = R"("format": "rigid2d-scene", "version": 1, )";
    CHECK(refusal(withHeader(ok + R"("time_step": 0)")) ==
          "scene.json: field 'time_step': must be > 0, got 0");
    CHECK(refusal(withHeader(ok + R"("time_step": NaN)")) ==
          "scene.json: field 'time_step': must be finite, got NaN");
    CHECK(refusal(withHeader(ok + R"("steps": -1)")) ==
          "scene.json: field 'steps': must be a whole number >= 0, got -1");
    CHECK(refusal(withHeader(ok + R"("steps": 2.5)")) ==
          "scene.json: field 'steps': must be a whole number >= 0, got 2.5");
    CHECK(refusal(withHeader(ok + R"("gravity": [0, -Infinity])")) ==
          "scene.json: field 'gravity[1]': must be finite, got -Infinity");
    CHECK(refusal(withHeader(ok + R"("bounds": {"lower": [0, 0], "upper": [-1, 1]})")) ==
          "scene.json: field 'bounds': must have lower <= upper");
    CHECK(refusal(withHeader(ok + R"("bounds": {"lower": [0, 0]})")) ==
          "scene.json: field 'bounds.upper': is required");
    CHECK(refusal(withHeader(ok + R"("name": 3)")) ==
          "scene.json: field 'name': must be a string, got number");
    CHECK(refusal(R"({"format": "rigid2d-scene", "version": 1})") ==
          "scene.json: field 'bodies': is required");
    CHECK(refusal(R"({"format": "rigid2d-scene", "version": 1, "bodies": [3]})") ==
          "scene.json: body 0: field '': must be an object, got number");
    CHECK(refusal("[1, 2]").find("must be a JSON object") != std::string::npos);
    CHECK(refusal("{\"format\": ").find("scene.json: not valid JSON") == 0);
    // The NaN/Infinity words inside strings are text, not numbers.
    const SceneDesc named = parseScene(
        R"({"format": "rigid2d-scene", "version": 1, "name": "NaN \"Infinity\"", "bodies": []})",
        "s.json");
    CHECK(named.name == "NaN \"Infinity\"");
}

TEST_CASE("readSceneFile names an unreadable file") {
    const auto missing = std::filesystem::temp_directory_path() / "rigid2d_no_such_scene.json";
    CHECK_THROWS_WITH_AS((void)readSceneFile(missing), doctest::Contains("cannot open the file"),
                         SceneFileError);
}

TEST_CASE("the public benchmark scenes parse and write back unchanged") {
    const std::filesystem::path dir = RIGID2D_BENCH_SCENES_DIR;
    if (!std::filesystem::is_directory(dir)) {
        MESSAGE("no generated scenes at " << dir.string());
        return;
    }
    int parsed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        CAPTURE(entry.path().string());
        const SceneDesc scene = readSceneFile(entry.path());
        CHECK_FALSE(scene.bodies.empty());
        CHECK(scene.hasBounds);
        // Writing and reading back is a fixed point (one check, not one per field: 10 000 bodies).
        const std::string text = sceneToJson(scene);
        CHECK(sceneToJson(parseScene(text, "copy.json")) == text);
        ++parsed;
    }
    CHECK(parsed > 0);
}
