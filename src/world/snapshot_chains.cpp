#include "world/snapshot_chains.hpp"

#include <cmath>

#include "rigid2d/geometry.hpp"
#include "world/snapshot_fields.hpp"

namespace rigid2d::detail {

namespace {
constexpr std::string_view kRestore = "World::restore";

void bad(bool ok, std::string_view what) { require(ok, kRestore, "bytes", what); }

bool same(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }

bool apart(Vec2 a, Vec2 b) {
    return std::hypot(double{b.x} - double{a.x}, double{b.y} - double{a.y}) >=
           double{kPolygonWeldDistance};
}

// Link `next` follows link `link` in a chain: they share a point, and each one's ghost is the
// other's far point.
bool joined(const Shape& link, const Shape& next) {
    const Vec2* a = link.polygon.vertices;
    const Vec2* b = next.polygon.vertices;
    return same(a[1], b[0]) && same(link.ghost2, b[1]) && same(next.ghost1, a[0]);
}

void readChain(ByteReader& r, WorldState& s, std::uint32_t index) {
    Chain& chain = s.chains[index];
    chain.body = r.get<std::uint32_t>();
    chain.loop = r.getBool();
    bad(chain.body < s.bodies.size() && s.bodies[chain.body].live &&
            s.bodies[chain.body].type != BodyType::Dynamic,
        "hold a chain on a body that does not exist or is dynamic");
    chain.links.resize(r.getCount(20));
    bad(!chain.links.empty() && chain.links.size() <= std::size_t{kMaxChainPoints} &&
            (!chain.loop || chain.links.size() >= 3),
        "hold a chain with an impossible link count");
    for (std::uint32_t& link : chain.links) {
        link = r.get<std::uint32_t>();
        bad(link < s.shapes.size() && s.shapes[link].live &&
                s.shapes[link].type == ShapeType::ChainSegment &&
                s.shapes[link].body == chain.body && s.shapes[link].chain == kNullIndex,
            "hold a chain link that is not an unclaimed chain segment of the chain's body");
        Shape& shape = s.shapes[link];
        SnapshotIn in(r.take(16), kRestore);
        in(shape.ghost1);
        in(shape.ghost2);
        shape.chain = index;
        bad(apart(shape.ghost1, shape.polygon.vertices[0]) &&
                apart(shape.polygon.vertices[1], shape.ghost2),
            "hold a chain link whose ghost vertex is on its end");
        s.checkShapeLimits(kRestore, "bytes", s.bodies[chain.body], shape);
    }
    const std::size_t n = chain.links.size();
    for (std::size_t i = 0; i + 1 < n; ++i)
        bad(joined(s.shapes[chain.links[i]], s.shapes[chain.links[i + 1]]),
            "hold a chain whose links do not join up");
    if (chain.loop)
        bad(joined(s.shapes[chain.links[n - 1]], s.shapes[chain.links[0]]),
            "hold a loop chain that does not close");
}
} // namespace

void writeChains(const WorldState& s, ByteWriter& w) {
    w.putCount(s.chains.size());
    for (const Chain& chain : s.chains) {
        w.put(chain.generation);
        w.put(chain.live);
        if (!chain.live) continue;
        w.put(chain.body);
        w.put(chain.loop);
        w.putCount(chain.links.size());
        for (const std::uint32_t link : chain.links) {
            w.put(link);
            SnapshotOut out(w.room(16));
            out(s.shapes[link].ghost1);
            out(s.shapes[link].ghost2);
        }
    }
    w.putCount(s.chainPool.freeList().size());
    for (const std::uint32_t index : s.chainPool.freeList()) w.put(index);
}

void readChains(ByteReader& r, WorldState& s) {
    s.chains.resize(r.getCount(5));
    for (std::uint32_t c = 0; c < s.chains.size(); ++c) {
        Chain& chain = s.chains[c];
        chain.generation = r.get<std::uint32_t>();
        chain.live = r.getBool();
        bad(!chain.live || chain.generation != 0, "hold a live chain of generation 0");
        if (chain.live) readChain(r, s, c);
    }
    for (const Shape& shape : s.shapes)
        bad(!shape.live || shape.type != ShapeType::ChainSegment || shape.chain != kNullIndex,
            "hold a chain segment that belongs to no chain");
    // The free list names exactly the dead slots that may be reused, each once (a slot whose
    // generation ran out is retired and in no list).
    s.chainPool.freeList().resize(r.getCount(4));
    std::vector<std::uint8_t> seen(s.chains.size(), 0);
    for (std::uint32_t& index : s.chainPool.freeList()) {
        index = r.get<std::uint32_t>();
        bad(index < s.chains.size() && !s.chains[index].live && s.chains[index].generation != 0 &&
                !seen[index],
            "hold a chain free list that names a live, retired or repeated slot");
        seen[index] = 1;
    }
    std::size_t dead = 0;
    for (const Chain& chain : s.chains) dead += !chain.live && chain.generation != 0 ? 1 : 0;
    bad(dead == s.chainPool.freeList().size(),
        "hold a chain free list that leaves out a free slot");
}

} // namespace rigid2d::detail
