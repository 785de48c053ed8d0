#include <doctest/doctest.h>

#include <numbers>
#include <vector>

#include "rigid2d/error.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;

namespace {
constexpr float kPi = std::numbers::pi_v<float>;
}

TEST_CASE("a circle's mass and inertia are pi r^2 rho and m r^2 / 2") {
    const MassData m = computeMass(Circle{{1, -2}, 0.5f}, 4.0f);
    CHECK(m.mass == doctest::Approx(kPi * 0.25f * 4.0f));
    CHECK(m.center.x == doctest::Approx(1.0f));
    CHECK(m.center.y == doctest::Approx(-2.0f));
    CHECK(m.rotationalInertia == doctest::Approx(0.5f * m.mass * 0.25f));
}

TEST_CASE("a rectangle's inertia is m (w^2 + h^2) / 12 as a box, a polygon and a turned polygon") {
    const float w = 4.0f, h = 1.0f, density = 2.0f;
    const float mass = w * h * density, inertia = mass * (w * w + h * h) / 12.0f;
    const MassData box = computeMass(Box{{3, 7}, {w / 2, h / 2}}, density);
    CHECK(box.mass == doctest::Approx(mass));
    CHECK(box.rotationalInertia == doctest::Approx(inertia));
    CHECK(box.center.x == doctest::Approx(3.0f));
    for (const float angle : {0.0f, 0.3f, 2.0f}) {
        const MassData p = computeMass(makeBox({w / 2, h / 2}, {-20, 30}, angle), density);
        CHECK(p.mass == doctest::Approx(mass));
        CHECK(p.rotationalInertia == doctest::Approx(inertia).epsilon(1e-4));
        CHECK(p.center.x == doctest::Approx(-20.0f));
        CHECK(p.center.y == doctest::Approx(30.0f));
    }
}

TEST_CASE("a right triangle has its centroid at a third and inertia b h (b^2 + h^2) / 36 rho") {
    const MassData m = computeMass(makePolygon(std::vector<Vec2>{{0, 0}, {3, 0}, {0, 6}}), 1.0f);
    CHECK(m.mass == doctest::Approx(9.0f));
    CHECK(m.center.x == doctest::Approx(1.0f));
    CHECK(m.center.y == doctest::Approx(2.0f));
    CHECK(m.rotationalInertia == doctest::Approx(3.0f * 6.0f * (9.0f + 36.0f) / 36.0f));
}

TEST_CASE("a capsule is a rectangle and a disc") {
    const float r = 0.5f, length = 2.0f, density = 3.0f;
    const MassData m = computeMass(Capsule{{-1, 0}, {1, 0}, r}, density);
    const float rectMass = 2 * r * length * density, discMass = kPi * r * r * density;
    CHECK(m.mass == doctest::Approx(rectMass + discMass));
    CHECK(m.center.x == doctest::Approx(0.0f));
    // Rectangle about its centre plus two half discs whose centres sit 4r/(3 pi) beyond the ends.
    const float rect = rectMass * (length * length + 4 * r * r) / 12.0f;
    const float d = 4 * r / (3 * kPi);
    const float halfAboutOwn = 0.5f * discMass * (0.5f * r * r) - 0.5f * discMass * d * d;
    const float half = halfAboutOwn + 0.5f * discMass * (length / 2 + d) * (length / 2 + d);
    CHECK(m.rotationalInertia == doctest::Approx(rect + 2 * half));
    // Turned, it keeps mass and inertia.
    const MassData turned = computeMass(Capsule{{0, -1}, {0, 1}, r}, density);
    CHECK(turned.rotationalInertia == doctest::Approx(m.rotationalInertia));
}

TEST_CASE("a rounded square is the square, four strips and a full disc") {
    const float a = 2.0f, r = 0.25f;
    const MassData m =
        computeMass(makePolygon(std::vector<Vec2>{{0, 0}, {a, 0}, {a, a}, {0, a}}, r), 1.0f);
    CHECK(m.mass == doctest::Approx(a * a + 4 * a * r + kPi * r * r));
    CHECK(m.center.x == doctest::Approx(1.0f));
    CHECK(m.center.y == doctest::Approx(1.0f));
    // Square: a^4/6. Strips (a by r, centred a/2 + r/2 out): a r (a^2 + r^2)/12 + a r (a/2 +
    // r/2)^2. Corner quarter discs at distance a/sqrt2 from the centre, their centroids further
    // out.
    const float strips =
        4 * (a * r * (a * a + r * r) / 12 + a * r * (a / 2 + r / 2) * (a / 2 + r / 2));
    const float quarterArea = kPi * r * r / 4;
    const float dq = 4 * r * std::sin(kPi / 4) / (3 * kPi / 2); // centroid of a quarter disc
    const float ownAboutApex = quarterArea * r * r / 2;
    const float toCorner = a / std::sqrt(2.0f);
    const float corners =
        4 * (ownAboutApex + quarterArea * (toCorner * toCorner + 2 * toCorner * dq));
    CHECK(m.rotationalInertia == doctest::Approx(a * a * a * a / 6 + strips + corners));
}

TEST_CASE("computeMass refuses a negative or non-finite density and gives zero mass for zero") {
    CHECK_THROWS_AS((void)computeMass(Circle{}, -1.0f), Error);
    CHECK_THROWS_AS((void)computeMass(Circle{}, NAN), Error);
    const MassData m = computeMass(Box{}, 0.0f);
    CHECK(m.mass == 0.0f);
    CHECK(m.rotationalInertia == 0.0f);
}
