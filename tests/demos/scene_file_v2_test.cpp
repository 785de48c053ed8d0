// Scene format version 2: rotating shapes, polygons, capsules, segments, filters, body settings
// and joints; read, written back unchanged, refused with the joint or body and field named.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "scene_file.hpp"

using namespace rigid2d;
using namespace rigid2d::scene_file;

namespace {

std::string v2(const std::string& bodies, const std::string& joints = "") {
    std::string text =
        R"({"format": "rigid2d-scene", "version": 2, "name": "t", "bodies": [)" + bodies + "]";
    if (!joints.empty()) text += R"(, "joints": [)" + joints + "]";
    return text + "}";
}

const std::string kGround =
    R"({"type": "static", "position": [0, 0], "shapes": [{"kind": "segment", "point1": [-5, 0], "point2": [5, 0]}]})";
const std::string kBall = R"({"position": [0, 2], "shapes": [{"kind": "circle", "radius": 0.5}]})";

std::string refusal(const std::string& text) {
    try {
        (void)parseScene(text, "s.json");
    } catch (const SceneFileError& e) {
        return e.what();
    }
    FAIL("accepted: " << text);
    return {};
}

} // namespace

TEST_CASE("version 2 reads every shape kind, body setting and filter") {
    const SceneDesc scene =
        parseScene(v2(kGround + R"(, {"position": [1, 2], "angle": 0.5, "fixed_rotation": true,
            "linear_damping": 0.1, "angular_damping": 0.2, "gravity_scale": -1,
            "allow_sleep": false, "awake": false, "shapes": [
            {"kind": "box", "center": [0, 1], "half_extents": [1, 0.5], "angle": 0.25},
            {"kind": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": 0.05,
             "filter": {"category": 2, "mask": 4294967293, "group": -3}},
            {"kind": "capsule", "center1": [-1, 0], "center2": [1, 0], "radius": 0.25}]})"),
                   "s.json");
    REQUIRE(scene.version == 2);
    REQUIRE(scene.bodies.size() == 2);
    CHECK(scene.bodies[0].shapes[0].kind == ShapeType::Segment);
    CHECK(scene.bodies[0].shapes[0].point2 == Vec2{5, 0});
    const BodyDesc& body = scene.bodies[1];
    CHECK(body.def.angle == 0.5f);
    CHECK(body.def.fixedRotation);
    CHECK(body.def.linearDamping == 0.1f);
    CHECK(body.def.angularDamping == 0.2f);
    CHECK(body.def.gravityScale == -1.0f);
    CHECK_FALSE(body.def.enableSleep);
    CHECK_FALSE(body.def.isAwake);
    CHECK(body.shapes[0].angle == 0.25f);
    CHECK(body.shapes[1].kind == ShapeType::Polygon);
    CHECK(body.shapes[1].vertices.size() == 3);
    CHECK(body.shapes[1].radius == 0.05f);
    CHECK(body.shapes[1].def.filter.categoryBits == 2u);
    CHECK(body.shapes[1].def.filter.maskBits == 4294967293u);
    CHECK(body.shapes[1].def.filter.groupIndex == -3);
    CHECK(body.shapes[2].kind == ShapeType::Capsule);
    CHECK(body.shapes[2].point1 == Vec2{-1, 0});
    CHECK(body.shapes[2].radius == 0.25f);
}

TEST_CASE("version 2 reads every joint kind with its defaults") {
    const SceneDesc scene = parseScene(
        v2(kGround + "," + kBall,
           R"({"type": "revolute", "body_a": 0, "body_b": 1, "anchor": [0, 1], "enable_limit": true,
               "lower_angle": -0.5, "upper_angle": 0.5, "enable_motor": true, "motor_speed": 2,
               "max_motor_torque": 10},
              {"type": "distance", "body_a": 0, "body_b": 1, "anchor_a": [0, 0], "anchor_b": [3, 4],
               "min_length": 0},
              {"type": "prismatic", "body_a": 0, "body_b": 1, "anchor": [0, 0], "axis": [0, 2],
               "max_motor_force": 5, "collide_connected": true},
              {"type": "weld", "body_a": 1, "body_b": 0, "anchor": [0, 1], "angular_hertz": 3},
              {"type": "wheel", "body_a": 0, "body_b": 1, "anchor": [0, 2], "axis": [0, 1]})"),
        "s.json");
    REQUIRE(scene.joints.size() == 5);
    const JointDesc& revolute = scene.joints[0];
    CHECK(revolute.kind == JointKind::Revolute);
    CHECK(revolute.enableLimit);
    CHECK(revolute.lower == -0.5f);
    CHECK(revolute.maxMotorTorque == 10.0f);
    const JointDesc& distance = scene.joints[1];
    CHECK(distance.length == 5.0f); // the anchors' starting distance
    CHECK(distance.minLength == 0.0f);
    CHECK(distance.maxLength == 5.0f);
    const JointDesc& prismatic = scene.joints[2];
    CHECK(prismatic.axis == Vec2{0, 1}); // normalised
    CHECK(prismatic.maxMotorForce == 5.0f);
    CHECK(prismatic.collideConnected);
    CHECK(scene.joints[3].angularHertz == 3.0f);
    const JointDesc& wheel = scene.joints[4];
    CHECK(wheel.enableSpring); // the wheel's defaults: a suspension
    CHECK(wheel.hertz == 1.0f);
    CHECK(wheel.dampingRatio == 0.7f);

    // Written and read back: the same document, byte for byte.
    const std::string text = sceneToJson(scene);
    CHECK(text.find("\"version\":2") != std::string::npos);
    CHECK(sceneToJson(parseScene(text, "copy.json")) == text);
}

// Found by the scene_reader fuzz target (tests/fuzz/corpus/scene_reader/crash-axis-round-trip):
// an axis the reader normalised was normalised again when read back, and its last bits moved.
TEST_CASE("a normalised joint axis reads back to the same floats") {
    const SceneDesc scene = parseScene(
        v2(kGround + "," + kBall,
           R"({"type": "prismatic", "body_a": 0, "body_b": 1, "anchor": [0, 2], "axis": [9, 1]})"),
        "s.json");
    const std::string text = sceneToJson(scene);
    const SceneDesc again = parseScene(text, "copy.json");
    CHECK(again.joints[0].axis.x == scene.joints[0].axis.x);
    CHECK(again.joints[0].axis.y == scene.joints[0].axis.y);
    CHECK(sceneToJson(again) == text);
}

TEST_CASE("version 2 refusals name the body or joint and the field") {
    const auto body = [](const std::string& shape) {
        return v2(R"({"position": [0, 0], "shapes": [)" + shape + "]}");
    };
    CHECK(
        refusal(body(R"({"kind": "polygon", "vertices": [[0, 0], [0, 1], [1, 0]]})")) ==
        "s.json: body 0: field 'shapes[0].vertices': must list a convex polygon counter-clockwise "
        "(vertex 1 does not turn left)");
    CHECK(refusal(body(R"({"kind": "polygon", "vertices": [[0, 0], [1, 0]]})"))
              .find("field 'shapes[0].vertices': must hold 3 to 8 points") != std::string::npos);
    CHECK(refusal(body(R"({"kind": "polygon", "vertices": [[0, 0], [0.001, 0], [0, 0.001]]})"))
              .find("area") != std::string::npos);
    CHECK(refusal(
              body(R"({"kind": "capsule", "center1": [0, 0], "center2": [0, 0], "radius": 1})")) ==
          "s.json: body 0: field 'shapes[0].center2': must differ from the first point");
    CHECK(refusal(body(R"({"kind": "segment", "point1": [0, 0], "point2": [1, 0]})")) ==
          "s.json: body 0: field 'shapes': a dynamic body needs a shape with area (not only "
          "segments)");
    CHECK(refusal(body(R"({"kind": "circle", "radius": 1, "filter": {"mask": -1}})"))
              .find("field 'shapes[0].filter.mask': must be a whole number") != std::string::npos);
    CHECK(refusal(body(R"({"kind": "circle", "radius": 1, "restitution": 2})")) ==
          "s.json: body 0: field 'shapes[0].restitution': must be <= 1, got 2");
    CHECK(refusal(body(R"({"kind": "circle", "radius": 1, "density": 3e38})"))
              .find("body 0: field 'shapes[0].density': gives the shape a mass above 1e20 kg") !=
          std::string::npos);
    CHECK(refusal(body(R"({"kind": "circle", "radius": 1e400})")) ==
          "s.json: body 0: field 'shapes[0].radius': must be finite, got 1e400");
    CHECK(refusal(body(R"({"kind": "ellipse"})"))
              .find("'shapes[0].kind': must be \"circle\", \"box\"") != std::string::npos);

    const auto joint = [](const std::string& text) { return v2(kGround + "," + kBall, text); };
    CHECK(refusal(joint(R"({"type": "revolute", "body_a": 0, "body_b": 2, "anchor": [0, 0]})")) ==
          "s.json: joint 0: field 'body_b': must be a whole number in [0, 1], got 2");
    CHECK(refusal(joint(R"({"type": "revolute", "body_a": 1, "body_b": 1, "anchor": [0, 0]})")) ==
          "s.json: joint 0: field 'body_b': must differ from body_a");
    CHECK(refusal(joint(R"({"type": "revolute", "body_a": 0, "body_b": 1})")) ==
          "s.json: joint 0: field 'anchor': is required");
    CHECK(refusal(joint(R"({"type": "revolute", "body_a": 0, "body_b": 1, "anchor": [0, 0],
                            "lower_angle": 1, "upper_angle": 0})")) ==
          "s.json: joint 0: field 'lower_angle': must be <= upper_angle (0), got 1");
    CHECK(
        refusal(joint(
            R"({"type": "wheel", "body_a": 0, "body_b": 1, "anchor": [0, 0], "axis": [0, 0]})")) ==
        "s.json: joint 0: field 'axis': must be a non-zero vector");
    CHECK(refusal(joint(R"({"type": "rope", "body_a": 0, "body_b": 1})")).find("field 'type'") !=
          std::string::npos);
    CHECK(refusal(v2(kGround + "," + kGround,
                     R"({"type": "weld", "body_a": 0, "body_b": 1, "anchor": [0, 0]})")) ==
          "s.json: joint 0: field 'body_b': must not be static when body_a is static");
}

TEST_CASE("version 1 keeps its meaning: no version-2 kinds, and the writer refuses to downgrade") {
    const std::string v1 = R"({"format": "rigid2d-scene", "version": 1, "bodies": [
        {"position": [0, 0], "fixed_rotation": true,
         "shapes": [{"kind": "box", "half_extents": [1, 1], "angle": 1}]}]})";
    const SceneDesc scene = parseScene(v1, "s.json");
    // Version-2 fields are unknown fields in version 1, so ignored.
    CHECK_FALSE(scene.bodies[0].def.fixedRotation);
    CHECK(scene.bodies[0].shapes[0].angle == 0.0f);
    CHECK(refusal(R"({"format": "rigid2d-scene", "version": 1, "bodies": [{"position": [0, 0],
                     "shapes": [{"kind": "capsule", "center1": [0, 0], "center2": [1, 0], "radius": 1}]}]})")
              .find("must be \"circle\" or \"box\" (version 1)") != std::string::npos);

    SceneDesc upgraded = scene;
    upgraded.bodies[0].shapes[0].angle = 0.5f;
    CHECK_THROWS_WITH_AS((void)sceneToJson(upgraded), doctest::Contains("turned boxes"),
                         SceneFileError);
    upgraded.version = 2;
    CHECK(parseScene(sceneToJson(upgraded), "s.json").bodies[0].shapes[0].angle == 0.5f);
}

TEST_CASE("buildScene builds every kind of shape") {
    World world;
    const auto build = [&](const std::string& text) {
        try {
            (void)buildScene(parseScene(text, "s.json"), world);
        } catch (const SceneFileError& e) {
            return std::string(e.what());
        }
        return std::string("built");
    };
    // Every kind of shape: segments, boxes that turn and boxes that cannot.
    CHECK(build(v2(kGround)) == "built");
    CHECK(build(v2(kBall + R"(, {"position": [0, 5], "fixed_rotation": true,
                   "shapes": [{"kind": "box", "half_extents": [1, 1]}]},
                   {"position": [3, 5], "shapes": [{"kind": "box", "half_extents": [1, 1]}]})")) ==
          "built");
    CHECK(world.bodyCount() == 4);
    std::vector<ShapeType> kinds;
    world.forEachBody([&](BodyId b) {
        world.forEachShape(b, [&](ShapeId x) { kinds.push_back(world.shapeType(x)); });
    });
    CHECK(kinds == std::vector<ShapeType>{ShapeType::Segment, ShapeType::Circle, ShapeType::Box,
                                          ShapeType::Polygon});
}

TEST_CASE("captureScene writes turning shapes as version 2, and the file builds the same world") {
    World world;
    world.createSegment(world.createBody({}), {}, Segment{{-10.0f, 0.0f}, {10.0f, 0.0f}});
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = {0.0f, 2.0f};
    def.angle = 0.3f;
    world.createBox(world.createBody(def), {}, Box{{0.0f, 0.0f}, {0.5f, 0.25f}});
    def.position = {2.0f, 2.0f};
    world.createCapsule(world.createBody(def), {}, Capsule{{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.2f});
    def.position = {4.0f, 2.0f};
    def.angle = 0.0f;
    def.fixedRotation = true;
    world.createBox(world.createBody(def), {}, Box{{0.0f, 0.0f}, {0.5f, 0.5f}});
    const SceneDesc scene = captureScene(world, "captured", 1.0f / 60.0f, 10, std::nullopt);
    CHECK(scene.version == 2);
    World rebuilt;
    (void)buildScene(parseScene(sceneToJson(scene), "captured.json"), rebuilt);
    std::vector<ShapeType> kinds, rebuiltKinds;
    std::vector<float> masses, rebuiltMasses;
    const auto collect = [](const World& w, std::vector<ShapeType>& k, std::vector<float>& m) {
        w.forEachBody([&](BodyId b) {
            m.push_back(w.mass(b));
            w.forEachShape(b, [&](ShapeId x) { k.push_back(w.shapeType(x)); });
        });
    };
    collect(world, kinds, masses);
    collect(rebuilt, rebuiltKinds, rebuiltMasses);
    CHECK(rebuiltKinds == kinds);
    REQUIRE(rebuiltMasses.size() == masses.size());
    for (std::size_t i = 0; i < masses.size(); ++i)
        CHECK(rebuiltMasses[i] == doctest::Approx(masses[i]).epsilon(1e-5));
}

TEST_CASE("chains (an extension of version 2) are saved whole and build the same links") {
    World world;
    const BodyId ground = world.createBody({});
    const std::vector<Vec2> open = {{4, 1}, {3, 0}, {1, 0.5f}, {-1, 0}, {-3, 0.5f}, {-4, 1}};
    const std::vector<Vec2> loop = {{10, 0}, {12, 0}, {12, 2}, {10, 2}};
    world.createChain(ground, {.points = open, .friction = 0.2f});
    world.createChain(ground, {.points = loop, .loop = true, .restitution = 0.5f});
    const SceneDesc scene = captureScene(world, "chains", 1.0f / 60.0f, 10, std::nullopt);
    REQUIRE(scene.bodies.size() == 1);
    REQUIRE(scene.bodies[0].shapes.size() == 2); // one desc per chain, not per link
    const std::string text = sceneToJson(scene);
    CHECK(text.find(R"("kind":"chain")") != std::string::npos);
    const SceneDesc read = parseScene(text, "chains.json");
    CHECK(sceneToJson(read) == text);
    World rebuilt;
    (void)buildScene(read, rebuilt);
    std::vector<ChainSegment> links, rebuiltLinks;
    std::vector<float> friction, rebuiltFriction;
    const auto collect = [](const World& w, std::vector<ChainSegment>& out, std::vector<float>& f) {
        w.forEachBody([&](BodyId b) {
            w.forEachShape(b, [&](ShapeId x) {
                out.push_back(w.shapeChainSegment(x));
                f.push_back(w.friction(x));
            });
        });
    };
    collect(world, links, friction);
    collect(rebuilt, rebuiltLinks, rebuiltFriction);
    REQUIRE(rebuiltLinks.size() == links.size());
    CHECK(links.size() == 3 + 4);
    for (std::size_t i = 0; i < links.size(); ++i) {
        CHECK(rebuiltLinks[i].ghost1 == links[i].ghost1);
        CHECK(rebuiltLinks[i].segment.point1 == links[i].segment.point1);
        CHECK(rebuiltLinks[i].segment.point2 == links[i].segment.point2);
        CHECK(rebuiltLinks[i].ghost2 == links[i].ghost2);
    }
    CHECK(rebuiltFriction == friction);
    CHECK(
        refusal(
            v2(R"({"type": "static", "position": [0, 0], "shapes": [{"kind": "chain", "points": [[0, 0], [1, 0], [2, 0]]}]})"))
            .find("points") != std::string::npos);
}

namespace {

// Every kind of joint, each setting away from its default, anchors and axes exact in binary so
// that a world that keeps them in its bodies' frames gives them back to the last bit.
const std::string kJointBodies =
    kGround + R"(, {"position": [0, 2], "shapes": [{"kind": "circle", "radius": 0.5}]},
                  {"position": [2, 2], "shapes": [{"kind": "circle", "radius": 0.5}]},
                  {"position": [4, 2], "shapes": [{"kind": "box", "half_extents": [0.5, 0.25]}]})";
const std::string kEveryJoint =
    R"({"type": "revolute", "body_a": 0, "body_b": 1, "anchor": [0, 3], "enable_limit": true,
        "lower_angle": -0.5, "upper_angle": 0.75, "enable_motor": true, "motor_speed": 2,
        "max_motor_torque": 10, "enable_spring": true, "hertz": 4, "damping_ratio": 0.5},
       {"type": "distance", "body_a": 1, "body_b": 2, "anchor_a": [0, 2], "anchor_b": [2, 2.5],
        "length": 2, "min_length": 1.5, "max_length": 3, "enable_spring": true, "hertz": 2,
        "damping_ratio": 0.25, "collide_connected": true},
       {"type": "prismatic", "body_a": 0, "body_b": 2, "anchor": [2, 2], "axis": [0, 1],
        "enable_limit": true, "lower_translation": -1, "upper_translation": 2,
        "enable_motor": true, "motor_speed": 0.5, "max_motor_force": 50},
       {"type": "weld", "body_a": 2, "body_b": 3, "anchor": [3, 2], "linear_hertz": 5,
        "angular_hertz": 3, "linear_damping_ratio": 0.5, "angular_damping_ratio": 0.125},
       {"type": "wheel", "body_a": 3, "body_b": 1, "anchor": [0, 2], "axis": [1, 0],
        "hertz": 2.5, "damping_ratio": 0.5, "enable_motor": true, "motor_speed": -3,
        "max_motor_torque": 20})";

} // namespace

TEST_CASE("buildScene builds every kind of joint with its settings, in file order") {
    const SceneDesc scene = parseScene(v2(kJointBodies, kEveryJoint), "j.json");
    World world;
    std::vector<JointId> joints;
    const std::vector<BodyId> bodies = buildScene(scene, world, &joints);
    REQUIRE(joints.size() == 5);
    CHECK(world.jointCount() == 5);
    const std::vector<JointType> kinds{JointType::Revolute, JointType::Distance,
                                       JointType::Prismatic, JointType::Weld, JointType::Wheel};
    for (std::size_t i = 0; i < joints.size(); ++i) {
        CHECK(world.jointType(joints[i]) == kinds[i]);
        const auto a = static_cast<std::size_t>(scene.joints[i].bodyA);
        const auto b = static_cast<std::size_t>(scene.joints[i].bodyB);
        CHECK(world.jointBodyA(joints[i]) == bodies[a]);
        CHECK(world.jointBodyB(joints[i]) == bodies[b]);
    }
    CHECK(world.jointAnchorA(joints[0]) == Vec2{0, 3});
    CHECK(world.jointUpperLimit(joints[0]) == 0.75f);
    CHECK(world.jointMaxMotorForce(joints[0]) == 10.0f);
    CHECK(world.jointSpringHertz(joints[0]) == 4.0f);
    CHECK(world.jointAnchorB(joints[1]) == Vec2{2, 2.5f});
    CHECK(world.jointLength(joints[1]) == 2.0f);
    CHECK(world.jointLowerLimit(joints[1]) == 1.5f);
    CHECK(world.jointCollideConnected(joints[1]));
    CHECK(world.jointAxis(joints[2]) == Vec2{0, 1});
    CHECK(world.jointMaxMotorForce(joints[2]) == 50.0f);
    CHECK(world.jointSpringHertz(joints[3]) == 5.0f);
    CHECK(world.weldAngularSpringDampingRatio(joints[3]) == 0.125f);
    CHECK(world.jointMotorSpeed(joints[4]) == -3.0f);
    CHECK(world.jointSpringDampingRatio(joints[4]) == 0.5f);

    // A hand-built scene whose joint names a body it does not have: refused, nothing created.
    SceneDesc bad = scene;
    bad.joints[3].bodyB = 4;
    World empty;
    CHECK_THROWS_WITH_AS((void)buildScene(bad, empty),
                         doctest::Contains("joint 3: body 4 is not one of the scene's 4 bodies"),
                         SceneFileError);
    CHECK(empty.bodyCount() == 0);
}

TEST_CASE("joints round-trip: read, build, capture and write give the file's joints back") {
    const SceneDesc scene = parseScene(v2(kJointBodies, kEveryJoint), "j.json");
    World world;
    const std::vector<BodyId> bodies = buildScene(scene, world);
    // A drag in progress is not part of the scene.
    world.createMouseJoint({.body = bodies[1], .target = {0, 2}, .maxForce = 100});
    SceneDesc captured = captureScene(world, scene.name, scene.timeStep, scene.steps, std::nullopt);
    CHECK(captured.version == 2);
    REQUIRE(captured.joints.size() == 5);
    // Bodies are compared by the capture tests above (densities come back only to rounding).
    captured.bodies = scene.bodies;
    CHECK(sceneToJson(captured) == sceneToJson(scene));
}

TEST_CASE("a joint captured mid-run keeps its limits where they were in the world") {
    World world;
    const BodyId post = world.createBody({});
    world.createCircle(post, {}, Circle{{}, 0.1f});
    const BodyId arm = world.createBody({.type = BodyType::Dynamic, .position = {1, 0}});
    world.createBox(arm, {}, Box{{}, {1, 0.1f}, 0});
    RevoluteJointDef def;
    def.bodyA = post;
    def.bodyB = arm;
    def.enableLimit = true;
    def.lowerAngle = -1.0f;
    def.upperAngle = 0.5f;
    const JointId hinge = world.createRevoluteJoint(def);
    for (int i = 0; i < 20; ++i) world.step(1.0f / 60.0f);
    const float turned = world.jointAngle(hinge);
    REQUIRE(turned < -0.1f); // the arm has swung down under gravity
    const SceneDesc scene = captureScene(world, "mid", 1.0f / 60.0f, 60, std::nullopt);
    REQUIRE(scene.joints.size() == 1);
    CHECK(scene.joints[0].anchorA == world.jointAnchorA(hinge));
    CHECK(scene.joints[0].lower == doctest::Approx(-1.0f - turned));
    CHECK(scene.joints[0].upper == doctest::Approx(0.5f - turned));
    World rebuilt;
    std::vector<JointId> joints;
    (void)buildScene(parseScene(sceneToJson(scene), "mid.json"), rebuilt, &joints);
    // The rebuilt arm stops at the same angle in the world as the original would.
    for (int i = 0; i < 120; ++i) {
        world.step(1.0f / 60.0f);
        rebuilt.step(1.0f / 60.0f);
    }
    CHECK(rebuilt.angle(rebuilt.jointBodyB(joints[0])) ==
          doctest::Approx(world.angle(arm)).epsilon(0.02));
    CHECK(world.angle(arm) == doctest::Approx(-1.0f).epsilon(0.05));
}

TEST_CASE("the final state lists each joint's reaction, in the given order, only with joints") {
    const SceneDesc scene = parseScene(v2(kJointBodies, kEveryJoint), "j.json");
    World world;
    std::vector<JointId> joints;
    const std::vector<BodyId> bodies = buildScene(scene, world, &joints);
    world.step(1.0f / 60.0f);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "rigid2d_final_state_joints_test.json";
    const auto read = [&] {
        std::ifstream file(path);
        std::ostringstream text;
        text << file.rdbuf();
        return text.str();
    };
    writeFinalState(world, bodies, {}, path);
    CHECK(read().find("joints") == std::string::npos);
    writeFinalState(world, bodies, joints, path);
    const std::string text = read();
    std::size_t count = 0;
    for (std::size_t at = text.find("reaction_force"); at != std::string::npos;
         at = text.find("reaction_force", at + 1))
        ++count;
    CHECK(count == 5);
    CHECK(text.find("],\n\"joints\": [\n  {\"reaction_force\"") != std::string::npos);
    std::filesystem::remove(path);
}
