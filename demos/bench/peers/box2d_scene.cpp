// A scene file run in Box2D 2.4.1. Version-1 scenes map one to one. Of version 2, Box2D 2.4 lacks
// capsules and rounded polygons (stood in for, with the exact mass data), and springs on revolute
// and prismatic joints (built from a soft weld and a wheel joint): the report lists each.

#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "box2d_filters.hpp"
#include "peer.hpp"

namespace rigid2d::peers {

namespace {

b2Vec2 toB2(Vec2 v) { return {v.x, v.y}; }

class Box2dScene final : public SceneRun {
public:
    Box2dScene(const SceneDesc& scene, const SceneOptions& options)
        : m_world(toB2(scene.gravity)), m_options(options) {
        if (!options.index.empty() && options.index != "dynamic_tree")
            throw UsageError("box2d has one broad phase, --index dynamic_tree; got '" +
                             options.index + "'");
        const bool sleep = options.sleep != "off";
        m_world.SetAllowSleeping(sleep);
        // Box2D's default: every dynamic body is swept against static ones, not only bullets.
        m_world.SetContinuousPhysics(options.continuous);
        const Box2dFilters filters(scene);
        if (filters.remappedBits()) m_notes.map("filter category bits remapped onto 2.4's 16 bits");
        if (filters.remappedGroups()) m_notes.map("filter groups renumbered into 2.4's int16");
        for (std::size_t b = 0; b < scene.bodies.size(); ++b)
            m_bodies.push_back(makeBody(scene, scene.bodies[b], b, filters, sleep));
        for (const JointDesc& joint : scene.joints) m_joints.push_back(makeJoint(joint));
    }

    std::string engine() const override { return "box2d-2.4.1"; }
    std::string broadphase() const override { return "dynamic_tree"; }

    void step(double dt) override {
        m_world.Step(static_cast<float>(dt), m_options.velocityIterations,
                     m_options.positionIterations);
        m_inverseDt = dt > 0 ? static_cast<float>(1.0 / dt) : 0.0f;
    }

    std::vector<BodyState> bodies() const override {
        std::vector<BodyState> out;
        out.reserve(m_bodies.size());
        for (const b2Body* body : m_bodies) {
            const b2Vec2 p = body->GetPosition(), v = body->GetLinearVelocity();
            out.push_back({p.x, p.y, v.x, v.y, body->GetAngle()});
        }
        return out;
    }

    std::vector<JointState> joints() const override {
        std::vector<JointState> out;
        for (const auto& pieces : m_joints) {
            JointState sum{0, 0, 0};
            for (b2Joint* piece : pieces) {
                const b2Vec2 force = piece->GetReactionForce(m_inverseDt);
                sum.fx += double{force.x};
                sum.fy += double{force.y};
                sum.torque += double{piece->GetReactionTorque(m_inverseDt)};
            }
            out.push_back(sum);
        }
        return out;
    }

    int awakeDynamicBodies() const override {
        int awake = 0;
        for (const b2Body* body : m_bodies)
            awake += body->GetType() == b2_dynamicBody && body->IsAwake();
        return awake;
    }

    std::string settingsJson() const override {
        char text[200];
        std::snprintf(text, sizeof text,
                      "\"velocity_iterations\": %d, \"position_iterations\": %d, \"sleep\": %s, "
                      "\"continuous\": %s",
                      m_options.velocityIterations, m_options.positionIterations,
                      m_options.sleep != "off" ? "true" : "false",
                      m_options.continuous ? "true" : "false");
        return text + m_notes.json();
    }

private:
    b2Body* makeBody(const SceneDesc& scene, const BodyDesc& desc, std::size_t index,
                     const Box2dFilters& filters, bool sleep) {
        b2BodyDef def;
        def.type = desc.def.type == BodyType::Static      ? b2_staticBody
                   : desc.def.type == BodyType::Kinematic ? b2_kinematicBody
                                                          : b2_dynamicBody;
        def.position = toB2(desc.def.position);
        def.angle = desc.def.angle;
        def.fixedRotation = hasFixedRotation(scene, desc);
        if (desc.def.type != BodyType::Static) {
            def.linearVelocity = toB2(desc.def.linearVelocity);
            // Box2D would integrate a given angular velocity even with a fixed rotation.
            def.angularVelocity = def.fixedRotation ? 0.0f : desc.def.angularVelocity;
        }
        def.linearDamping = desc.def.linearDamping;
        def.angularDamping = desc.def.angularDamping;
        def.gravityScale = desc.def.gravityScale;
        def.bullet = desc.def.bullet;
        def.allowSleep = sleep && desc.def.enableSleep;
        def.awake = desc.def.isAwake || !sleep; // nothing starts asleep where nothing sleeps
        b2Body* body = m_world.CreateBody(&def);
        for (std::size_t s = 0; s < desc.shapes.size(); ++s) {
            const ShapeDesc& shape = desc.shapes[s];
            b2FixtureDef fixture;
            fixture.density = shape.def.density;
            fixture.friction = shape.def.friction;
            fixture.restitution = shape.def.restitution;
            fixture.isSensor = shape.def.isSensor;
            fixture.filter = filters.map(shape.def.filter);
            addShape(body, fixture, shape, index, s);
        }
        // Box2D 2.4 has neither capsules nor rounded polygons: the body gets the exact shapes'
        // mass, centre and inertia instead of its stand-ins'.
        if (desc.def.type == BodyType::Dynamic && needsExactMass(desc)) {
            const MassData exact = exactMass(desc);
            if (exact.mass > 0.0f) {
                m_notes.map(
                    "bodies with a capsule or rounded polygon: exact mass data (SetMassData)");
                b2MassData data;
                data.mass = exact.mass;
                data.center = toB2(exact.center);
                // About the body origin, as Box2D 2.4 takes it.
                data.I = exact.rotationalInertia + exact.mass * b2Dot(data.center, data.center);
                body->SetMassData(&data);
            }
        }
        return body;
    }

    void addShape(b2Body* body, b2FixtureDef fixture, const ShapeDesc& shape, std::size_t body_,
                  std::size_t index) {
        switch (shape.kind) {
        case ShapeType::Circle: {
            b2CircleShape circle;
            circle.m_radius = shape.radius;
            circle.m_p = toB2(shape.center);
            fixture.shape = &circle;
            body->CreateFixture(&fixture);
            return;
        }
        case ShapeType::Box: {
            b2PolygonShape box;
            box.SetAsBox(shape.halfExtents.x, shape.halfExtents.y, toB2(shape.center), shape.angle);
            fixture.shape = &box;
            body->CreateFixture(&fixture);
            return;
        }
        case ShapeType::Polygon: {
            b2PolygonShape polygon;
            setPolygon(polygon, shape, body_, index);
            fixture.shape = &polygon;
            body->CreateFixture(&fixture);
            return;
        }
        case ShapeType::Capsule: addCapsule(body, fixture, shape); return;
        case ShapeType::Segment: {
            b2EdgeShape edge;
            edge.SetTwoSided(toB2(shape.point1), toB2(shape.point2));
            fixture.shape = &edge;
            body->CreateFixture(&fixture);
            return;
        }
        case ShapeType::ChainSegment: {
            // Box2D 2.4's chains are one-sided on the right too, with the same ghost vertices.
            std::vector<b2Vec2> points;
            for (const Vec2 v : shape.vertices) points.push_back(toB2(v));
            const auto n = static_cast<int32>(points.size());
            b2ChainShape chain;
            if (shape.loop)
                chain.CreateLoop(points.data(), n);
            else
                chain.CreateChain(points.data() + 1, n - 2, points.front(), points.back());
            fixture.shape = &chain;
            body->CreateFixture(&fixture);
            return;
        }
        }
    }

    // Box2D 2.4 has no rounded polygon (only its fixed 0.01 m skin): "grown" moves every face out
    // by the radius (the rounded polygon's faces, sharp corners), "core" leaves the radius out.
    void setPolygon(b2PolygonShape& polygon, const ShapeDesc& shape, std::size_t body,
                    std::size_t index) {
        const std::size_t n = shape.vertices.size();
        const bool grow = shape.radius > 0.0f && m_options.rounded == "grown";
        b2Vec2 points[b2_maxPolygonVertices];
        for (std::size_t i = 0; i < n; ++i) {
            double x = shape.vertices[i].x, y = shape.vertices[i].y;
            if (grow) {
                // The corner moves along the sum of its two edges' outward normals, by
                // radius / (1 + n1 . n2), so each face moves out by exactly the radius.
                const Vec2 before = shape.vertices[(i + n - 1) % n],
                           after = shape.vertices[(i + 1) % n];
                const double ex = x - double{before.x}, ey = y - double{before.y};
                const double fx = double{after.x} - x, fy = double{after.y} - y;
                const double e = std::hypot(ex, ey), f = std::hypot(fx, fy);
                const double n1x = ey / e, n1y = -ex / e, n2x = fy / f, n2y = -fx / f;
                const double scale = double{shape.radius} / (1.0 + n1x * n2x + n1y * n2y);
                x += scale * (n1x + n2x);
                y += scale * (n1y + n2y);
            }
            points[i].Set(static_cast<float>(x), static_cast<float>(y));
        }
        if (shape.radius > 0.0f)
            m_notes.approximate(grow ? "rounded polygon: grown by its radius, sharp corners"
                                     : "rounded polygon: radius left out (core polygon)");
        // b2PolygonShape::Set welds points closer than half the linear slop and asserts if fewer
        // than three are left.
        int distinct = 0;
        for (std::size_t i = 0; i < n; ++i) {
            bool weld = false;
            for (std::size_t j = 0; j < i; ++j)
                weld = weld || b2DistanceSquared(points[i], points[j]) <
                                   0.25f * b2_linearSlop * b2_linearSlop;
            distinct += weld ? 0 : 1;
        }
        if (distinct < 3)
            throw Unrepresentable(
                "body " + std::to_string(body) + ": field 'shapes[" + std::to_string(index) +
                "].vertices': Box2D 2.4 welds points closer than 0.0025 m, fewer than 3 remain");
        polygon.Set(points, static_cast<int32>(n));
    }

    // No capsule in 2.4: a box between the centres and a circle on each, half density each so the
    // fixtures weigh what the capsule does (the body's mass data are set exactly afterwards).
    void addCapsule(b2Body* body, b2FixtureDef fixture, const ShapeDesc& shape) {
        m_notes.approximate("capsule: a box and two circles");
        const Vec2 d = shape.point2 - shape.point1;
        const float length = std::hypot(d.x, d.y);
        b2CircleShape cap;
        cap.m_radius = shape.radius;
        if (length < b2_linearSlop) { // too short for a box
            cap.m_p = toB2(0.5f * (shape.point1 + shape.point2));
            fixture.shape = &cap;
            body->CreateFixture(&fixture);
            return;
        }
        b2PolygonShape middle;
        middle.SetAsBox(0.5f * length, shape.radius, toB2(0.5f * (shape.point1 + shape.point2)),
                        std::atan2(d.y, d.x));
        fixture.shape = &middle;
        body->CreateFixture(&fixture);
        fixture.density *= 0.5f;
        for (const Vec2 end : {shape.point1, shape.point2}) {
            cap.m_p = toB2(end);
            fixture.shape = &cap;
            body->CreateFixture(&fixture);
        }
    }

    std::vector<b2Joint*> makeJoint(const JointDesc& joint);

    b2World m_world;
    SceneOptions m_options;
    std::vector<b2Body*> m_bodies;
    std::vector<std::vector<b2Joint*>> m_joints;
    EngineNotes m_notes;
    float m_inverseDt = 0.0f;
};

std::vector<b2Joint*> Box2dScene::makeJoint(const JointDesc& joint) {
    b2Body* a = m_bodies[static_cast<std::size_t>(joint.bodyA)];
    b2Body* b = m_bodies[static_cast<std::size_t>(joint.bodyB)];
    const b2Vec2 anchor = toB2(joint.anchorA), axis = toB2(joint.axis);
    std::vector<b2Joint*> pieces;
    const auto add = [&](b2JointDef& def) {
        def.collideConnected = joint.collideConnected;
        pieces.push_back(m_world.CreateJoint(&def));
    };
    switch (joint.kind) {
    case JointKind::Revolute: {
        // 2.4's revolute joint has no spring: a weld joint at the anchor, soft in rotation, is
        // one; the revolute joint stays for a limit or a motor.
        const bool spring = joint.enableSpring && joint.hertz > 0.0f;
        if (!spring || joint.enableLimit || joint.enableMotor) {
            b2RevoluteJointDef def;
            def.Initialize(a, b, anchor);
            def.enableLimit = joint.enableLimit;
            def.lowerAngle = joint.lower;
            def.upperAngle = joint.upper;
            def.enableMotor = joint.enableMotor;
            def.motorSpeed = joint.motorSpeed;
            def.maxMotorTorque = joint.maxMotorTorque;
            add(def);
        }
        if (spring) {
            m_notes.approximate("revolute spring: a weld joint at the anchor, soft in rotation");
            b2WeldJointDef def;
            def.Initialize(a, b, anchor);
            b2AngularStiffness(def.stiffness, def.damping, joint.hertz, joint.dampingRatio, a, b);
            add(def);
        }
        break;
    }
    case JointKind::Distance: {
        b2DistanceJointDef def;
        def.Initialize(a, b, toB2(joint.anchorA), toB2(joint.anchorB));
        def.length = joint.length;
        if (joint.enableSpring) { // hertz 0: only the limits (a rope)
            def.minLength = joint.minLength;
            def.maxLength = joint.maxLength;
            b2LinearStiffness(def.stiffness, def.damping, joint.hertz, joint.dampingRatio, a, b);
        } else {
            def.minLength = def.maxLength = joint.length;
            def.stiffness = def.damping = 0.0f;
        }
        add(def);
        break;
    }
    case JointKind::Prismatic: {
        b2PrismaticJointDef def;
        def.Initialize(a, b, anchor, axis);
        def.enableLimit = joint.enableLimit;
        def.lowerTranslation = joint.lower;
        def.upperTranslation = joint.upper;
        def.enableMotor = joint.enableMotor;
        def.motorSpeed = joint.motorSpeed;
        def.maxMotorForce = joint.maxMotorForce;
        add(def);
        if (joint.enableSpring && joint.hertz > 0.0f) {
            // 2.4's prismatic joint has no spring; a wheel joint on the same axis has one.
            m_notes.approximate("prismatic spring: a wheel joint on the same anchor and axis");
            b2WheelJointDef wheel;
            wheel.Initialize(a, b, anchor, axis);
            b2LinearStiffness(wheel.stiffness, wheel.damping, joint.hertz, joint.dampingRatio, a,
                              b);
            add(wheel);
        }
        break;
    }
    case JointKind::Weld: {
        b2WeldJointDef def;
        def.Initialize(a, b, anchor);
        if (joint.angularHertz > 0.0f)
            b2AngularStiffness(def.stiffness, def.damping, joint.angularHertz,
                               joint.angularDampingRatio, a, b);
        if (joint.linearHertz > 0.0f)
            m_notes.approximate("weld linear_hertz: rigid (2.4's weld is soft only in rotation)");
        add(def);
        break;
    }
    case JointKind::Wheel: {
        b2WheelJointDef def;
        def.Initialize(a, b, anchor, axis);
        def.enableMotor = joint.enableMotor;
        def.motorSpeed = joint.motorSpeed;
        def.maxMotorTorque = joint.maxMotorTorque;
        if (joint.enableSpring)
            b2LinearStiffness(def.stiffness, def.damping, joint.hertz, joint.dampingRatio, a, b);
        else
            def.stiffness = def.damping = 0.0f;
        add(def);
        break;
    }
    }
    return pieces;
}

} // namespace

std::unique_ptr<SceneRun> makeBox2dScene(const SceneDesc& scene, const SceneOptions& options) {
    if (options.rounded != "grown" && options.rounded != "core")
        throw UsageError("--rounded must be grown or core; got '" + options.rounded + "'");
    return std::make_unique<Box2dScene>(scene, options);
}

} // namespace rigid2d::peers
