// The benchmark's quality figures against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "quality.hpp"

using namespace rigid2d;
using namespace rigid2d::bench;
using scene_file::parseScene;

namespace {

scene_file::SceneDesc scene(int version, const std::string& bodies,
                            const std::string& joints = "") {
    std::string text = R"({"format": "rigid2d-scene", "version": )" + std::to_string(version) +
                       R"(, "bounds": {"lower": [-10, -10], "upper": [10, 10]}, "bodies": [)" +
                       bodies + "]";
    if (!joints.empty()) text += R"(, "joints": [)" + joints + "]";
    return parseScene(text + "}", "q.json");
}

const std::string kUnitCircle =
    R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1}]})";

} // namespace

TEST_CASE("quality: two circles 1.5 m apart overlap by 0.5 m, energy is m v^2 / 2") {
    const auto s = scene(1, kUnitCircle + "," + kUnitCircle);
    const Quality q = measureQuality(s, {{0, 0, 3, 4, 0}, {1.5, 0, 0, 0, 0}});
    CHECK(q.dynamicBodies == 2);
    CHECK(q.overlaps == 1);
    CHECK(q.maxOverlap == doctest::Approx(0.5));
    CHECK(q.meanOverlap == doctest::Approx(0.5));
    CHECK(q.kineticEnergy == doctest::Approx(0.5 * std::numbers::pi * 25.0));
    CHECK(q.maxDisplacement == doctest::Approx(1.5));
    CHECK(q.meanDisplacement == doctest::Approx(0.75));
    CHECK_FALSE(q.jointError.has_value());
}

TEST_CASE("quality: a body outside the bounds or not finite has escaped and is not scored") {
    const auto s = scene(1, kUnitCircle + "," + kUnitCircle + "," + kUnitCircle);
    const Quality q =
        measureQuality(s, {{20, 0, 100, 0, 0}, {0, std::nan(""), 0, 0, 0}, {0, 0, 0, 0, 0}});
    CHECK(q.escaped == 2);
    CHECK(q.kineticEnergy == 0.0);
    CHECK(q.overlaps == 0);
}

TEST_CASE("quality: version-1 boxes stay axis-aligned, version-2 boxes turn with their body") {
    const std::string ground =
        R"({"type": "static", "position": [0, -1], "shapes": [{"kind": "box", "half_extents": [5, 1]}]})";
    const std::string crate =
        R"({"position": [0, 0], "fixed_rotation": true, "shapes": [{"kind": "box", "half_extents": [1, 1]}]})";
    // The crate's centre 0.9 m above the ground's top: sunk 0.1 m when axis-aligned.
    const Quality v1 =
        measureQuality(scene(1, ground + "," + crate), {{0, -1, 0, 0, 0}, {0, 0.9, 0, 0, 0.7854}});
    CHECK(v1.maxOverlap == doctest::Approx(0.1));
    // Turned 45 degrees, its lowest corner is sqrt(2) below the centre.
    const double angle = std::numbers::pi / 4;
    const Quality v2 =
        measureQuality(scene(2, ground + "," + crate), {{0, -1, 0, 0, 0}, {0, 1.3, 0, 0, angle}});
    CHECK(v2.overlaps == 1);
    CHECK(v2.maxOverlap == doctest::Approx(std::sqrt(2.0) - 1.3));
}

TEST_CASE("quality: a capsule and a rounded polygon by their cores and radii") {
    const std::string capsule =
        R"({"position": [0, 0], "shapes": [{"kind": "capsule", "center1": [-1, 0], "center2": [1, 0], "radius": 0.5}]})";
    const std::string square =
        R"({"position": [0, 0], "shapes": [{"kind": "polygon", "vertices": [[-1, -1], [1, -1], [1, 1], [-1, 1]], "radius": 0.25}]})";
    // The capsule's core 1.6 m above the square's centre: 1.5 + 0.25 - 1.6 = 0.15 of overlap.
    const Quality q =
        measureQuality(scene(2, capsule + "," + square), {{0, 1.6, 0, 0, 0}, {0, 0, 0, 0, 0}});
    CHECK(q.overlaps == 1);
    CHECK(q.maxOverlap == doctest::Approx(0.15));
    // Apart: the capsule's end 0.1 m beyond the rounded corner's reach.
    const double reach = 1.0 + (0.25 + 0.5 + 0.1) / std::sqrt(2.0);
    const Quality apart = measureQuality(scene(2, capsule + "," + square),
                                         {{2.0 + reach - 1.0, reach, 0, 0, 0}, {0, 0, 0, 0, 0}});
    CHECK(apart.overlaps == 0);
}

TEST_CASE("quality: shapes that may not collide are not counted (filters, joined bodies)") {
    const std::string grouped =
        R"({"position": [0, 0], "shapes": [{"kind": "circle", "radius": 1, "filter": {"group": -1}}]})";
    CHECK(measureQuality(scene(2, grouped + "," + grouped), {{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}})
              .overlaps == 0);
    const auto joined =
        scene(2, kUnitCircle + "," + kUnitCircle,
              R"({"type": "revolute", "body_a": 0, "body_b": 1, "anchor": [0.5, 0]})");
    const Quality q = measureQuality(joined, {{0, 0, 0, 0, 0}, {0.3, 0.4, 0, 0, 0}});
    CHECK(q.overlaps == 0);
    // The anchor sits on both bodies at the start; body B moved by (0.3, 0.4): 0.5 m apart.
    REQUIRE(q.jointError.has_value());
    CHECK(q.jointError->joints == 1);
    CHECK(q.jointError->max == doctest::Approx(0.5));
}

TEST_CASE("quality: a rope counts only what exceeds its length, and a turned prismatic axis") {
    const auto rope = scene(2, kUnitCircle + "," + kUnitCircle,
                            R"({"type": "distance", "body_a": 0, "body_b": 1, "anchor_a": [0, 0],
                                "anchor_b": [0, 0], "length": 2, "min_length": 0, "max_length": 2,
                                "enable_spring": true})");
    CHECK(measureQuality(rope, {{0, 0, 0, 0, 0}, {0, -1.5, 0, 0, 0}}).jointError->max == 0.0);
    CHECK(measureQuality(rope, {{0, 0, 0, 0, 0}, {0, -2.5, 0, 0, 0}}).jointError->max ==
          doctest::Approx(0.5));
    const auto slider = scene(
        2, kUnitCircle + "," + kUnitCircle,
        R"({"type": "prismatic", "body_a": 0, "body_b": 1, "anchor": [0, 0], "axis": [1, 0]})");
    // Body A turned a quarter: the axis is now vertical; B 0.7 m to the side of it.
    CHECK(measureQuality(slider, {{0, 0, 0, 0, std::numbers::pi / 2}, {0.7, 3, 0, 0, 0}})
              .jointError->max == doctest::Approx(0.7));
}

TEST_CASE("final states: NaN and Infinity are read, malformed files are refused") {
    const auto bodies = parseFinalState(
        R"({"bodies": [{"position": [NaN, 1], "velocity": [Infinity, -Infinity], "angle": 0.5}, {"position": [1, 2]}]})",
        "f.json");
    REQUIRE(bodies.size() == 2);
    CHECK(std::isnan(bodies[0].x));
    CHECK(std::isinf(bodies[0].vx));
    CHECK(bodies[0].angle == 0.5);
    CHECK(bodies[1].vx == 0.0);
    CHECK_THROWS_WITH_AS((void)parseFinalState(R"({"bodies": [{"velocity": [0, 0]}]})", "f.json"),
                         doctest::Contains("body 0: field 'position' is required"),
                         scene_file::SceneFileError);
    CHECK_THROWS_AS((void)measureQuality(scene(1, kUnitCircle), {}), scene_file::SceneFileError);
}
