#include <doctest/doctest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "geometry/time_of_impact.hpp"

using namespace rigid2d;
using detail::WorldShape;

namespace {

WorldShape circle(Vec2 center, float radius) { return {true, center, radius, {}}; }
WorldShape box(Vec2 center, Vec2 halfExtents) { return {false, center, 0, halfExtents}; }

// Exact distance between two world shapes, for checking where a TOI leaves the moving one.
float distanceBetween(const WorldShape& a, const WorldShape& b) {
    const Vec2 core =
        (a.isCircle ? Vec2{0, 0} : a.halfExtents) + (b.isCircle ? Vec2{0, 0} : b.halfExtents);
    const float radius = (a.isCircle ? a.radius : 0.0f) + (b.isCircle ? b.radius : 0.0f);
    const Vec2 d = glm::abs(a.center - b.center);
    const Vec2 outside = glm::max(d - core, Vec2{0, 0});
    return glm::length(outside) - radius;
}

} // namespace

TEST_CASE("timeOfImpact circle against circle: head-on, separation, grazing, miss") {
    // Radii 1 and 1, centres 10 m apart, moving 10 m: touch when the gap (8 m) closes.
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {10, 0}, circle({10, 0}, 1), 0) ==
          doctest::Approx(0.8f));
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {10, 0}, circle({10, 0}, 1), 0.5f) ==
          doctest::Approx(0.75f));
    // Offset 2 = rA + rB: grazing contact at the closest approach x = 10.
    CHECK(detail::timeOfImpact(circle({0, 2}, 1), {20, 0}, circle({10, 0}, 1), 0) ==
          doctest::Approx(0.5f));
    CHECK(detail::timeOfImpact(circle({0, 2.01f}, 1), {20, 0}, circle({10, 0}, 1), 0) == 1.0f);
    // Stops short of reaching: never touches within the step.
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {7, 0}, circle({10, 0}, 1), 0) == 1.0f);
}

TEST_CASE("timeOfImpact box against box: faces and the sharp corner of the summed box") {
    // Half extents 1 + 1 = 2 in x: the centre must stop at x = 8.
    CHECK(detail::timeOfImpact(box({0, 0}, {1, 1}), {10, 0}, box({10, 0}, {1, 1}), 0) ==
          doctest::Approx(0.8f));
    // At 45 degrees onto the corner (8, 2) of the summed box, from (0, 10).
    CHECK(detail::timeOfImpact(box({0, 10}, {1, 1}), {10, -10}, box({10, 0}, {1, 1}), 0) ==
          doctest::Approx(0.8f));
    // With a separation the summed box gets rounded corners of radius s; diagonal approach to the
    // corner (8, 2): the centre stops at distance 1 from it, (8 - 1/sqrt2, 2 + 1/sqrt2).
    const float t = detail::timeOfImpact(box({0, 10}, {1, 1}), {10, -10}, box({10, 0}, {1, 1}), 1);
    CHECK(t == doctest::Approx((8.0f - 1.0f / std::sqrt(2.0f)) / 10.0f));
}

TEST_CASE("timeOfImpact circle against box hits the rounded corner at 45 degrees") {
    // Box half extents (1, 1) at the origin, circle radius 1 approaching the corner (1, 1)
    // diagonally from (5, 5): the centre stops one radius from the corner, at 1 + 1/sqrt2.
    const WorldShape fixed = box({0, 0}, {1, 1});
    const float t = detail::timeOfImpact(circle({5, 5}, 1), {-4, -4}, fixed, 0);
    const float expected = (5.0f - (1.0f + 1.0f / std::sqrt(2.0f))) / 4.0f;
    CHECK(t == doctest::Approx(expected));
    // The sharp corner of the unrounded sum (2, 2) would have given 0.75: the rounding matters.
    CHECK(t > 0.76f);
    // Same shapes swapped (box moving at a fixed circle) is the mirror problem.
    CHECK(detail::timeOfImpact(box({0, 0}, {1, 1}), {4, 4}, circle({5, 5}, 1), 0) ==
          doctest::Approx(expected));
    // Starting in the corner square of the grown box but outside the rounded corner.
    const float near = detail::timeOfImpact(circle({1.9f, 1.9f}, 1), {-1, -1}, fixed, 0);
    CHECK(near == doctest::Approx((0.9f - 1.0f / std::sqrt(2.0f))));
    // In that square, moving sideways past the rounded corner: no contact.
    CHECK(detail::timeOfImpact(circle({1.9f, 1.9f}, 1), {1, -1}, fixed, 0) == 1.0f);
}

TEST_CASE("timeOfImpact circle against box faces") {
    const WorldShape fixed = box({0, 0}, {1, 2});
    CHECK(detail::timeOfImpact(circle({-5, 1}, 0.5f), {10, 0}, fixed, 0) == doctest::Approx(0.35f));
    CHECK(detail::timeOfImpact(circle({0.5f, 6}, 0.5f), {0, -10}, fixed, 0.1f) ==
          doctest::Approx(0.34f));
}

TEST_CASE("timeOfImpact stops a 400 m/s bullet before a thin wall") {
    // Circle of 0.1 m at 400 m/s for one 1/60 s step crosses 6.67 m; the wall is 0.1 m thick.
    const WorldShape bullet = circle({0, 0}, 0.1f);
    const WorldShape wall = box({3, 0}, {0.05f, 1});
    const Vec2 translation{400.0f / 60.0f, 0.0f};
    const float separation = 0.005f;
    const float t = detail::timeOfImpact(bullet, translation, wall, separation);
    REQUIRE(t < 1.0f);
    const WorldShape stopped = circle(bullet.center + t * translation, 0.1f);
    const float gap = distanceBetween(stopped, wall);
    CHECK(gap >= 0.0f);
    CHECK(gap == doctest::Approx(separation).epsilon(1e-3));
    CHECK(stopped.center.x < wall.center.x);
}

TEST_CASE("timeOfImpact: already within the separation gives 0, no motion or moving away gives 1") {
    // Overlapping.
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {10, 0}, circle({1, 0}, 1), 0) == 0.0f);
    CHECK(detail::timeOfImpact(box({0, 0}, {1, 1}), {1, 0}, box({1.5f, 0}, {1, 1}), 0) == 0.0f);
    // Apart, but closer than the separation asked for.
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {10, 0}, circle({2.05f, 0}, 1), 0.1f) == 0.0f);
    // Zero translation far away, and moving away.
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {0, 0}, circle({5, 0}, 1), 0) == 1.0f);
    CHECK(detail::timeOfImpact(circle({0, 0}, 1), {-10, 0}, box({5, 0}, {1, 1}), 0) == 1.0f);
    CHECK(detail::timeOfImpact(box({0, 0}, {1, 1}), {0, 10}, box({5, 0}, {1, 1}), 0) == 1.0f);
}
