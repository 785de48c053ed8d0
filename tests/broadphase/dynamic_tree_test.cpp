// The dynamic tree's costs (perimeters) and fat boxes near the float's reach: taken in double, so
// a box 3e38 m out or 6e38 m wide neither overflows (a trap under the tests' float traps; found
// by the api_ops fuzzer through the world's static-shape index) nor changes what queries find.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "broadphase/dynamic_tree.hpp"

using namespace rigid2d;

TEST_CASE("dynamic tree: boxes near the float's reach insert, move and are found") {
    detail::DynamicTree tree;
    const std::vector<AABB> boxes = {
        {{3e38f, 3e38f}, {3.2e38f, 3.3e38f}},         {{-3.3e38f, -3e38f}, {-3.1e38f, -2.9e38f}},
        {{-3.4e38f, -1.0f}, {3.4e38f, 1.0f}},         {{0.0f, 0.0f}, {1.0f, 1.0f}},
        {{3.39e38f, -3.39e38f}, {3.4e38f, -3.3e38f}}, {{-1.0f, -3.4e38f}, {1.0f, 3.4e38f}},
    };
    std::vector<ProxyId> ids;
    for (std::size_t i = 0; i < boxes.size(); ++i) ids.push_back(tree.insert(boxes[i], i));
    tree.validate();
    tree.move(ids[3], {{2e38f, 2e38f}, {3e38f, 3e38f}});
    tree.move(ids[0], {{-1.0f, -1.0f}, {1.0f, 1.0f}});
    tree.validate();
    std::vector<std::uint64_t> found;
    tree.query({{-2.0f, -2.0f}, {2.0f, 2.0f}}, [&](ProxyId id) {
        found.push_back(tree.userData(id));
        return true;
    });
    std::sort(found.begin(), found.end());
    CHECK(found == std::vector<std::uint64_t>{0, 2, 5});
}
