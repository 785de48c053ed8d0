// A scene file run in Chipmunk2D 7.0.3. Bodies, shapes (a capsule is Chipmunk's rounded segment,
// a rounded polygon its polygon with a radius), filters and sleeping map onto Chipmunk's own;
// what it lacks (gravity scale, Box2D's damping, a body that must not sleep) goes through a
// velocity function. Joints: chipmunk_joints.cpp.

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h> // cpSpace's two indexes, to put a cpSweep1D in their place

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <numeric>

#include "chipmunk_scene.hpp"

namespace rigid2d::peers {

namespace {

cpVect toCp(Vec2 v) { return cpv(v.x, v.y); }

// Box2D's mixing (friction sqrt(a b), restitution max(a, b)) in place of Chipmunk's products,
// set after Chipmunk has set its own.
cpBool mixLikeBox2d(cpArbiter* arbiter, cpSpace*, cpDataPointer) {
    CP_ARBITER_GET_SHAPES(arbiter, a, b);
    cpArbiterSetFriction(arbiter, std::sqrt(cpShapeGetFriction(a) * cpShapeGetFriction(b)));
    cpArbiterSetRestitution(arbiter, std::fmax(cpShapeGetElasticity(a), cpShapeGetElasticity(b)));
    return cpTrue;
}

// Box2D's positive group means "always collide, whatever the masks"; Chipmunk has no such rule.
// Shapes of positive groups get an open filter and this begin handler decides as Box2D would.
cpBool box2dFilter(cpArbiter* arbiter, cpSpace*, cpDataPointer) {
    CP_ARBITER_GET_SHAPES(arbiter, a, b);
    const auto* fa = static_cast<const Filter*>(cpShapeGetUserData(a));
    const auto* fb = static_cast<const Filter*>(cpShapeGetUserData(b));
    if (fa == nullptr || fb == nullptr || (fa->groupIndex <= 0 && fb->groupIndex <= 0))
        return cpTrue;
    if (fa->groupIndex == fb->groupIndex) return cpTrue;
    return (fa->categoryBits & fb->maskBits) != 0 && (fb->categoryBits & fa->maskBits) != 0;
}

void copyInto(void* shape, void* index) {
    cpSpatialIndexInsert(static_cast<cpSpatialIndex*>(index), shape,
                         static_cast<cpShape*>(shape)->hashid);
}

// Chipmunk has no cpSpaceUseSweep1D: this does for cpSweep1D what cpSpaceUseSpatialHash does for
// the hash, two new indexes holding the same shapes.
void useSweep1d(cpSpace* space) {
    cpSpatialIndex* fixed =
        cpSweep1DNew(reinterpret_cast<cpSpatialIndexBBFunc>(cpShapeGetBB), nullptr);
    cpSpatialIndex* moving =
        cpSweep1DNew(reinterpret_cast<cpSpatialIndexBBFunc>(cpShapeGetBB), fixed);
    cpSpatialIndexEach(space->staticShapes, copyInto, fixed);
    cpSpatialIndexEach(space->dynamicShapes, copyInto, moving);
    cpSpatialIndexFree(space->staticShapes);
    cpSpatialIndexFree(space->dynamicShapes);
    space->staticShapes = fixed;
    space->dynamicShapes = moving;
}

// What a body needs beyond Chipmunk's own velocity update.
struct BodyExtra {
    double gravityScale = 1, linearDamping = 0, angularDamping = 0;
    bool keepAwake = false;
};

void updateVelocity(cpBody* body, cpVect gravity, cpFloat damping, cpFloat dt) {
    const auto* extra = static_cast<const BodyExtra*>(cpBodyGetUserData(body));
    cpBodyUpdateVelocity(body, cpvmult(gravity, extra->gravityScale), damping, dt);
    // Box2D's damping: v *= 1 / (1 + h c).
    if (extra->linearDamping > 0)
        body->v = cpvmult(body->v, 1.0 / (1.0 + dt * extra->linearDamping));
    if (extra->angularDamping > 0) body->w *= 1.0 / (1.0 + dt * extra->angularDamping);
    if (extra->keepAwake) body->sleeping.idleTime = 0.0; // its component never falls asleep
}

// Half the larger side of the shape's bounding box in its body's frame.
double shapeSize(const ShapeDesc& shape) {
    std::vector<Vec2> points;
    double rounding = shape.radius;
    switch (shape.kind) {
    case ShapeType::Circle: return shape.radius;
    case ShapeType::Box: {
        const Polygon box = makeBox(shape.halfExtents, shape.center, shape.angle);
        points.assign(box.vertices, box.vertices + box.count);
        rounding = 0.0;
        break;
    }
    case ShapeType::Polygon: points = shape.vertices; break;
    case ShapeType::Capsule: points = {shape.point1, shape.point2}; break;
    case ShapeType::Segment:
    case ShapeType::ChainSegment:
        points = shape.kind == ShapeType::Segment ? std::vector<Vec2>{shape.point1, shape.point2}
                                                  : shape.vertices;
        rounding = 0.0;
        break;
    }
    const auto [minX, maxX] =
        std::minmax_element(points.begin(), points.end(), [](Vec2 a, Vec2 b) { return a.x < b.x; });
    const auto [minY, maxY] =
        std::minmax_element(points.begin(), points.end(), [](Vec2 a, Vec2 b) { return a.y < b.y; });
    return 0.5 * std::max(double{maxX->x} - double{minX->x}, double{maxY->y} - double{minY->y}) +
           rounding;
}

// The hash's default cell: twice the median shape size.
double medianCellSize(const SceneDesc& scene) {
    std::vector<double> sizes;
    for (const BodyDesc& body : scene.bodies)
        for (const ShapeDesc& shape : body.shapes) sizes.push_back(shapeSize(shape));
    if (sizes.empty()) return 1.0;
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<long>(sizes.size() / 2),
                     sizes.end());
    return std::max(2.0 * sizes[sizes.size() / 2], 1e-3);
}

class ChipmunkScene final : public SceneRun {
public:
    ChipmunkScene(const SceneDesc& scene, const SceneOptions& options) : m_options(options) {
        m_index = options.index.empty() ? "bbtree" : options.index;
        if (m_index != "bbtree" && m_index != "spatial_hash" && m_index != "sweep1d")
            throw UsageError("chipmunk --index must be bbtree, spatial_hash or sweep1d; got '" +
                             m_index + "'");
        if (options.mix != "native" && options.mix != "box2d")
            throw UsageError("--mix must be native or box2d; got '" + options.mix + "'");
        // Debian's Chipmunk is built without NDEBUG and printf()s a banner on its first space:
        // sent to stderr so that stdout holds only the report line.
        std::fflush(stdout);
        const int savedStdout = dup(1);
        if (savedStdout >= 0) dup2(2, 1);
        m_space = cpSpaceNew();
        std::fflush(stdout);
        if (savedStdout >= 0) {
            dup2(savedStdout, 1);
            close(savedStdout);
        }
        cpSpaceSetGravity(m_space, toCp(scene.gravity));
        cpSpaceSetIterations(m_space, options.iterations);
        if (options.slop >= 0) cpSpaceSetCollisionSlop(m_space, options.slop);
        m_sleeping = options.sleep == "on";
        if (m_sleeping) cpSpaceSetSleepTimeThreshold(m_space, 0.5); // Box2D's time to sleep
        if (options.mix == "box2d")
            cpSpaceAddDefaultCollisionHandler(m_space)->preSolveFunc = mixLikeBox2d;
        m_openGroups = needsBox2dGroups(scene);
        if (m_openGroups) {
            cpSpaceAddDefaultCollisionHandler(m_space)->beginFunc = box2dFilter;
            m_notes.map(
                "positive filter groups: open filter and a begin handler with Box2D's rule");
        }
        for (const BodyDesc& body : scene.bodies) m_bodies.push_back(makeBody(scene, body));
        for (const JointDesc& joint : scene.joints)
            m_joints.push_back(
                makeChipmunkJoint(m_space, m_bodies[static_cast<std::size_t>(joint.bodyA)],
                                  m_bodies[static_cast<std::size_t>(joint.bodyB)], joint, m_notes));
        startAsleep(scene);
        if (m_index == "spatial_hash") {
            m_hashDim = options.hashDim > 0 ? options.hashDim : medianCellSize(scene);
            m_hashCells = options.hashCells > 0
                              ? options.hashCells
                              : std::max(1LL, 2LL * static_cast<long long>(scene.bodies.size()));
            cpSpaceUseSpatialHash(m_space, m_hashDim, static_cast<int>(m_hashCells));
        } else if (m_index == "sweep1d") {
            useSweep1d(m_space);
        }
    }

    ~ChipmunkScene() override {
        cpSpaceFree(m_space); // the space's own data; bodies, shapes and constraints are ours
        for (const JointPieces& pieces : m_joints)
            for (const auto& piece : pieces) cpConstraintFree(piece.second);
        for (cpShape* shape : m_shapes) cpShapeFree(shape);
        for (cpBody* body : m_bodies) cpBodyFree(body);
    }
    ChipmunkScene(const ChipmunkScene&) = delete;
    ChipmunkScene& operator=(const ChipmunkScene&) = delete;

    std::string engine() const override { return "chipmunk-7.0.3"; }
    std::string broadphase() const override { return m_index; }

    void step(double dt) override {
        cpSpaceStep(m_space, dt);
        m_lastDt = dt;
    }

    std::vector<BodyState> bodies() const override {
        std::vector<BodyState> out;
        out.reserve(m_bodies.size());
        for (cpBody* body : m_bodies) {
            const cpVect p = cpBodyGetPosition(body), v = cpBodyGetVelocity(body);
            out.push_back({p.x, p.y, v.x, v.y, cpBodyGetAngle(body)});
        }
        return out;
    }

    std::vector<JointState> joints() const override {
        std::vector<JointState> out;
        for (const JointPieces& pieces : m_joints)
            out.push_back(chipmunkReaction(pieces, m_lastDt));
        return out;
    }

    int awakeDynamicBodies() const override {
        int awake = 0;
        for (cpBody* body : m_bodies)
            awake += cpBodyGetType(body) == CP_BODY_TYPE_DYNAMIC && !cpBodyIsSleeping(body);
        return awake;
    }

    std::string settingsJson() const override {
        char text[300];
        const int used = std::snprintf(
            text, sizeof text,
            "\"iterations\": %d, \"collision_slop\": %g, \"sleep\": %s, \"mix\": \"%s\"",
            m_options.iterations, cpSpaceGetCollisionSlop(m_space), m_sleeping ? "true" : "false",
            m_options.mix.c_str());
        if (m_index == "spatial_hash")
            std::snprintf(text + used, sizeof text - static_cast<std::size_t>(used),
                          ", \"hash_dim\": %g, \"hash_cells\": %lld", m_hashDim, m_hashCells);
        return text + m_notes.json();
    }

private:
    // Only where two filters of one positive group exclude each other by their masks does
    // Box2D's rule differ from Chipmunk's filters.
    static bool needsBox2dGroups(const SceneDesc& scene) {
        std::vector<Filter> positive;
        for (const BodyDesc& body : scene.bodies)
            for (const ShapeDesc& shape : body.shapes)
                if (shape.def.filter.groupIndex > 0) positive.push_back(shape.def.filter);
        for (const Filter& a : positive)
            for (const Filter& b : positive)
                if (a.groupIndex == b.groupIndex &&
                    ((a.categoryBits & b.maskBits) == 0 || (b.categoryBits & a.maskBits) == 0))
                    return true;
        return false;
    }

    cpShape* makeShape(cpBody* body, const ShapeDesc& shape) {
        switch (shape.kind) {
        case ShapeType::Circle: return cpCircleShapeNew(body, shape.radius, toCp(shape.center));
        case ShapeType::Box: {
            const double hx = shape.halfExtents.x, hy = shape.halfExtents.y;
            if (shape.angle == 0.0f) {
                const double cx = shape.center.x, cy = shape.center.y;
                return cpBoxShapeNew2(body, cpBBNew(cx - hx, cy - hy, cx + hx, cy + hy), 0.0);
            }
            const cpVect corners[4] = {cpv(-hx, -hy), cpv(hx, -hy), cpv(hx, hy), cpv(-hx, hy)};
            return cpPolyShapeNew(body, 4, corners,
                                  cpTransformRigid(toCp(shape.center), shape.angle), 0.0);
        }
        case ShapeType::Polygon: {
            std::vector<cpVect> points;
            for (const Vec2 v : shape.vertices) points.push_back(toCp(v));
            return cpPolyShapeNew(body, static_cast<int>(points.size()), points.data(),
                                  cpTransformIdentity, shape.radius);
        }
        case ShapeType::Capsule: // Chipmunk's capsule is a segment with a radius
            return cpSegmentShapeNew(body, toCp(shape.point1), toCp(shape.point2), shape.radius);
        case ShapeType::Segment:
            return cpSegmentShapeNew(body, toCp(shape.point1), toCp(shape.point2), 0.0);
        case ShapeType::ChainSegment:
            throw Unrepresentable("a chain (rigid2d's extension of version 2) is one shape per "
                                  "link in Chipmunk; this peer does not build them");
        }
        return nullptr;
    }

    void setFilter(cpShape* shape, const Filter& filter) {
        if (filter.groupIndex > 0 && m_openGroups) {
            cpShapeSetFilter(shape, CP_SHAPE_FILTER_ALL);
        } else {
            // Box2D's negative group g is Chipmunk's group -g: the same group never collides.
            const auto group =
                filter.groupIndex < 0 ? static_cast<cpGroup>(-std::int64_t{filter.groupIndex}) : 0;
            cpShapeSetFilter(shape, cpShapeFilterNew(group, filter.categoryBits, filter.maskBits));
        }
        if (m_openGroups) {
            m_filters.push_back(filter); // a deque: addresses stay put
            cpShapeSetUserData(shape, &m_filters.back());
        }
    }

    cpBody* makeBody(const SceneDesc& scene, const BodyDesc& desc) {
        const bool dynamic = desc.def.type == BodyType::Dynamic;
        cpBody* body = desc.def.type == BodyType::Static      ? cpBodyNewStatic()
                       : desc.def.type == BodyType::Kinematic ? cpBodyNewKinematic()
                                                              : cpBodyNew(0.0, 0.0);
        cpBodySetPosition(body, toCp(desc.def.position));
        if (desc.def.angle != 0.0f) cpBodySetAngle(body, desc.def.angle); // before the shapes
        cpSpaceAddBody(m_space, body);
        for (const ShapeDesc& desc_ : desc.shapes) {
            cpShape* shape = makeShape(body, desc_);
            cpShapeSetFriction(shape, desc_.def.friction);
            cpShapeSetElasticity(shape, desc_.def.restitution);
            cpShapeSetSensor(shape, desc_.def.isSensor ? cpTrue : cpFalse);
            setFilter(shape, desc_.def.filter);
            // A dynamic body's mass and moment accumulate from its shapes' densities.
            if (dynamic) cpShapeSetDensity(shape, desc_.def.density);
            cpSpaceAddShape(m_space, shape);
            m_shapes.push_back(shape);
        }
        if (dynamic) finishDynamic(scene, desc, body);
        if (desc.def.type != BodyType::Static) {
            cpBodySetVelocity(body, toCp(desc.def.linearVelocity));
            cpBodySetAngularVelocity(
                body, hasFixedRotation(scene, desc) ? 0.0 : double{desc.def.angularVelocity});
        }
        return body;
    }

    void finishDynamic(const SceneDesc& scene, const BodyDesc& desc, cpBody* body) {
        // Chipmunk's moments leave out the rounding of capsules and rounded polygons.
        if (needsExactMass(desc)) {
            const MassData exact = exactMass(desc);
            if (exact.mass > 0.0f) {
                m_notes.map("bodies with a capsule or rounded polygon: exact mass data");
                const cpVect position = cpBodyGetPosition(body);
                cpBodySetMass(body, exact.mass);
                cpBodySetCenterOfGravity(body, toCp(exact.center));
                cpBodySetPosition(body, position); // the origin stays where it was
                cpBodySetMoment(body, exact.rotationalInertia);
            }
        }
        if (!(cpBodyGetMass(body) > 0)) cpBodySetMass(body, 1.0); // Box2D's fallback
        if (hasFixedRotation(scene, desc)) {
            cpBodySetMoment(body, INFINITY);
        } else if (!(cpBodyGetMoment(body) > 0)) {
            cpBodySetMoment(body, 1.0);
        }
        const bool keepAwake = m_sleeping && !desc.def.enableSleep;
        if (desc.def.gravityScale != 1.0f || desc.def.linearDamping > 0.0f ||
            desc.def.angularDamping > 0.0f || keepAwake) {
            m_extras.push_back({desc.def.gravityScale, desc.def.linearDamping,
                                desc.def.angularDamping, keepAwake});
            cpBodySetUserData(body, &m_extras.back());
            cpBodySetVelocityUpdateFunc(body, updateVelocity);
        }
    }

    // Bodies that start asleep, only where sleeping is on. Chipmunk sleeps whole components and
    // joined bodies must sleep together: a component of joined bodies starts asleep when all of
    // its bodies do, else all start awake (as Box2D wakes a sleeper joined to an awake body).
    void startAsleep(const SceneDesc& scene) {
        const std::size_t n = scene.bodies.size();
        std::vector<std::size_t> parent(n);
        std::iota(parent.begin(), parent.end(), std::size_t{0});
        const auto root = [&](std::size_t i) {
            while (parent[i] != i) i = parent[i] = parent[parent[i]];
            return i;
        };
        std::vector<bool> asleep(n);
        for (std::size_t i = 0; i < n; ++i)
            asleep[i] =
                scene.bodies[i].def.type != BodyType::Dynamic || !scene.bodies[i].def.isAwake;
        for (const JointDesc& joint : scene.joints) {
            const auto a = static_cast<std::size_t>(joint.bodyA),
                       b = static_cast<std::size_t>(joint.bodyB);
            const BodyType ta = scene.bodies[a].def.type, tb = scene.bodies[b].def.type;
            if (ta == BodyType::Static || tb == BodyType::Static) continue;
            if (ta == BodyType::Kinematic) asleep[b] = false;
            if (tb == BodyType::Kinematic) asleep[a] = false;
            parent[root(a)] = root(b);
        }
        std::vector<bool> componentAsleep(n, true);
        for (std::size_t i = 0; i < n; ++i)
            componentAsleep[root(i)] = componentAsleep[root(i)] && asleep[i];
        std::vector<cpBody*> first(n, nullptr);
        for (std::size_t i = 0; i < n; ++i) {
            const BodyDesc& body = scene.bodies[i];
            if (body.def.type != BodyType::Dynamic || body.def.isAwake) continue;
            if (!m_sleeping) {
                m_notes.approximate("awake false: ignored (sleeping is off)");
                continue;
            }
            const std::size_t r = root(i);
            if (!componentAsleep[r]) {
                m_notes.approximate(
                    "awake false: awake where a joint links the body to an awake one");
                continue;
            }
            if (first[r] != nullptr) {
                cpBodySleepWithGroup(m_bodies[i], first[r]);
            } else {
                cpBodySleep(first[r] = m_bodies[i]);
            }
        }
    }

    SceneOptions m_options;
    std::string m_index;
    cpSpace* m_space = nullptr;
    bool m_sleeping = false;
    bool m_openGroups = false;
    std::vector<cpBody*> m_bodies;
    std::vector<cpShape*> m_shapes;
    std::deque<BodyExtra> m_extras;
    std::deque<Filter> m_filters;
    std::vector<JointPieces> m_joints;
    EngineNotes m_notes;
    double m_hashDim = 0;
    long long m_hashCells = 0;
    double m_lastDt = 0;
};

} // namespace

std::unique_ptr<SceneRun> makeChipmunkScene(const SceneDesc& scene, const SceneOptions& options) {
    return std::make_unique<ChipmunkScene>(scene, options);
}

} // namespace rigid2d::peers
