#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "rigid2d/error.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;

namespace {

float crossOf(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

// Convex, counter-clockwise, unit normals pointing away from every other vertex.
void checkWellFormed(const Polygon& p) {
    REQUIRE(p.count >= 3);
    for (int i = 0; i < p.count; ++i) {
        const Vec2 a = p.vertices[i], b = p.vertices[(i + 1) % p.count];
        const Vec2 c = p.vertices[(i + 2) % p.count];
        CHECK(crossOf(b - a, c - b) > 0.0f);
        CHECK(std::hypot(p.normals[i].x, p.normals[i].y) == doctest::Approx(1.0f));
        for (int j = 0; j < p.count; ++j)
            CHECK(p.normals[i].x * (p.vertices[j].x - a.x) +
                      p.normals[i].y * (p.vertices[j].y - a.y) <=
                  1e-5f);
    }
}

std::string refusal(std::vector<Vec2> points, float radius = 0.0f) {
    try {
        (void)makePolygon(points, radius);
    } catch (const Error& e) {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST_CASE("makePolygon keeps the hull and drops interior and edge points, in any input order") {
    const std::vector<Vec2> points{{0, 0}, {1, 1}, {2, 0}, {1, 0}, {2, 2}, {0, 2}, {1, 2}};
    const Polygon p = makePolygon(points);
    CHECK(p.count == 4);
    checkWellFormed(p);
    CHECK(p.centroid.x == doctest::Approx(1.0f));
    CHECK(p.centroid.y == doctest::Approx(1.0f));

    // A clockwise triangle comes back counter-clockwise, with its centroid at the vertex mean.
    const Polygon t = makePolygon(std::vector<Vec2>{{0, 0}, {0, 3}, {3, 0}}, 0.25f);
    CHECK(t.count == 3);
    CHECK(t.radius == 0.25f);
    checkWellFormed(t);
    CHECK(t.centroid.x == doctest::Approx(1.0f));
    CHECK(t.centroid.y == doctest::Approx(1.0f));
}

TEST_CASE("makePolygon drops a vertex that barely bends the outline") {
    const Polygon p =
        makePolygon(std::vector<Vec2>{{0, 0}, {1, -0.00001f}, {2, 0}, {2, 1}, {0, 1}});
    CHECK(p.count == 4);
    checkWellFormed(p);
}

TEST_CASE("makePolygon refuses degenerate input and names the field") {
    CHECK(refusal({{0, 0}, {1, 1}, {2, 2}, {3, 3}}).find("one line") != std::string::npos);
    CHECK(refusal({{0, 0}, {1, 0}, {1, 0}, {0, 1}}).find("duplicate") != std::string::npos);
    CHECK(refusal({{0, 0}, {0.001f, 0}, {0, 0.001f}}).find("area") != std::string::npos);
    CHECK(refusal({{0, 0}, {1, 0}}).find("points.size()") != std::string::npos);
    CHECK(refusal(std::vector<Vec2>(9, Vec2{0, 0})).find("points.size()") != std::string::npos);
    CHECK(refusal({{0, 0}, {1, 0}, {0, NAN}}).find("makePolygon: points") == 0);
    CHECK(refusal({{0, 0}, {1, 0}, {0, 1}}, -1.0f).find("radius") != std::string::npos);
    CHECK(refusal({{0, 0}, {1, 0}, {0, 1}}, INFINITY).find("radius") != std::string::npos);
}

TEST_CASE("makeBox turns and moves a box and keeps its normals unit") {
    const Polygon b = makeBox({2, 1}, {5, 0}, 0.5f * 3.14159265f);
    CHECK(b.count == 4);
    checkWellFormed(b);
    CHECK(b.centroid == Vec2{5, 0});
    // Turned a quarter: the long side now runs along y.
    float minY = 1e9f, maxY = -1e9f;
    for (int i = 0; i < 4; ++i) {
        minY = std::fmin(minY, b.vertices[i].y);
        maxY = std::fmax(maxY, b.vertices[i].y);
    }
    CHECK(maxY - minY == doctest::Approx(4.0f));
    CHECK_THROWS_AS((void)makeBox({0, 1}), Error);
    CHECK_THROWS_AS((void)makeBox({1, 1}, {0, 0}, NAN), Error);
}

TEST_CASE("makePolygon: nearly collinear points never give more hull vertices than points (found "
          "by the fuzzer)") {
    // Float rounding of the turn test could make the monotone chains revisit a point, and the
    // hull then overflowed the polygon's eight vertices.
    std::mt19937 random(5);
    std::uniform_real_distribution<float> along(-1.0f, 1.0f), jitter(-1e-6f, 1e-6f);
    for (int i = 0; i < 3000; ++i) {
        std::vector<Vec2> points;
        const float offset = 1e3f * static_cast<float>(i % 7);
        for (int k = 0; k < kMaxPolygonVertices; ++k) {
            const float t = along(random);
            points.push_back({offset + t, offset + 0.5f * t + jitter(random)});
        }
        try {
            const Polygon polygon = makePolygon(points);
            CHECK(polygon.count <= static_cast<int>(points.size()));
        } catch (const Error&) {
        }
    }
}
