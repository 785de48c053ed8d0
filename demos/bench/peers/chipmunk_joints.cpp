// Scene joints in Chipmunk2D 7.0.3, each built from Chipmunk's constraints:
//   revolute  = pivot + rotary limit + simple motor + damped rotary spring
//   distance  = pin (rigid) or slide (min/max) + damped spring
//   prismatic = groove (its ends are the limits) + gear (no relative turn) + linear motor + spring
//   weld      = pivot + gear (or a damped rotary spring when soft)
//   wheel     = groove + spring along the axis + simple motor
// Chipmunk has no linear motor: LinearMotor below is one, solved in Chipmunk's iterations.

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>

#include <cmath>
#include <numbers>

#include "chipmunk_scene.hpp"

// Declared in chipmunk_private.h (C only): initialises a constraint of a custom class.
extern "C" void cpConstraintInit(cpConstraint* constraint, const cpConstraintClass* klass,
                                 cpBody* a, cpBody* b);

namespace rigid2d::peers {

namespace {

// A groove standing for an unlimited axis reaches this far (m) either way; an axial spring hangs
// from a point this far behind the anchor on A, so its line of action is the axis.
constexpr double kGrooveReach = 1.0e5;
constexpr double kSpringArm = 1.0e3;

// Drives the speed of B's anchor relative to A's along an axis fixed in A, with a force limit.
struct LinearMotor {
    cpConstraint constraint; // first: Chipmunk sees a cpConstraint*
    cpVect axisA;            ///< unit, in A's frame
    cpVect anchorA, anchorB; ///< in each body's frame
    cpFloat speed;
    cpVect n, r1, r2;
    cpFloat armA, armB, mass, impulse;
};

LinearMotor* asMotor(cpConstraint* c) { return reinterpret_cast<LinearMotor*>(c); }

void applyMotor(LinearMotor* m, cpFloat j) {
    cpBody* a = m->constraint.a;
    cpBody* b = m->constraint.b;
    a->v = cpvsub(a->v, cpvmult(m->n, j * a->m_inv));
    a->w -= j * m->armA * a->i_inv;
    b->v = cpvadd(b->v, cpvmult(m->n, j * b->m_inv));
    b->w += j * m->armB * b->i_inv;
}

void motorPreStep(cpConstraint* c, cpFloat) {
    LinearMotor* m = asMotor(c);
    const cpBody* a = c->a;
    const cpBody* b = c->b;
    m->r1 = cpTransformVect(a->transform, cpvsub(m->anchorA, a->cog));
    m->r2 = cpTransformVect(b->transform, cpvsub(m->anchorB, b->cog));
    m->n = cpTransformVect(a->transform, m->axisA);
    const cpVect d = cpvsub(cpvadd(b->p, m->r2), cpvadd(a->p, m->r1));
    m->armA = cpvcross(cpvadd(d, m->r1), m->n);
    m->armB = cpvcross(m->r2, m->n);
    const cpFloat k =
        a->m_inv + b->m_inv + a->i_inv * m->armA * m->armA + b->i_inv * m->armB * m->armB;
    m->mass = k > 0 ? 1.0 / k : 0.0;
}

void motorApplyCached(cpConstraint* c, cpFloat dtCoef) {
    applyMotor(asMotor(c), asMotor(c)->impulse * dtCoef);
}

void motorApplyImpulse(cpConstraint* c, cpFloat dt) {
    LinearMotor* m = asMotor(c);
    const cpFloat speed =
        cpvdot(m->n, cpvsub(c->b->v, c->a->v)) + m->armB * c->b->w - m->armA * c->a->w;
    const cpFloat limit = c->maxForce * dt;
    const cpFloat before = m->impulse;
    m->impulse = cpfclamp(before + m->mass * (m->speed - speed), -limit, limit);
    applyMotor(m, m->impulse - before);
}

cpFloat motorImpulse(cpConstraint* c) { return cpfabs(asMotor(c)->impulse); }

const cpConstraintClass kLinearMotorClass = {motorPreStep, motorApplyCached, motorApplyImpulse,
                                             motorImpulse};

// Stiffness and damping of a spring of `hertz` and `ratio` on an effective mass (or moment).
void springConstants(double mass, double hertz, double ratio, double& k, double& c) {
    const double omega = 2.0 * std::numbers::pi * hertz;
    k = mass * omega * omega;
    c = 2.0 * mass * ratio * omega;
}

} // namespace

JointPieces makeChipmunkJoint(cpSpace* space, cpBody* a, cpBody* b, const JointDesc& joint,
                              EngineNotes& notes) {
    JointPieces pieces;
    if (!(a->m_inv + b->m_inv > 0)) {
        // Two non-dynamic bodies: nothing to solve, and Chipmunk's constraints would divide by 0.
        notes.map("joints between two non-dynamic bodies: left out (nothing to solve)");
        return pieces;
    }
    const auto add = [&](Piece kind, cpConstraint* c) {
        // collide_connected false: a constraint that does not collide its bodies keeps them apart.
        cpConstraintSetCollideBodies(c, joint.collideConnected ? cpTrue : cpFalse);
        cpSpaceAddConstraint(space, c);
        pieces.emplace_back(kind, c);
    };
    const auto local = [](cpBody* body, double x, double y) {
        return cpBodyWorldToLocal(body, cpv(x, y));
    };
    const double ax = joint.anchorA.x, ay = joint.anchorA.y, dx = joint.axis.x, dy = joint.axis.y;
    const double lower = joint.lower, upper = joint.upper;
    const double reference = cpBodyGetAngle(b) - cpBodyGetAngle(a); // the starting angle difference
    const double massEff = 1.0 / (a->m_inv + b->m_inv);
    const double inverseInertia = a->i_inv + b->i_inv;
    // Neither body turns (fixed rotation, static, kinematic): rotary pieces have nothing to do.
    const bool rotary = inverseInertia > 0;
    const double inertiaEff = rotary ? 1.0 / inverseInertia : 0.0;
    double k = 0, c = 0;
    const auto axialSpring = [&] {
        notes.approximate(
            "prismatic/wheel spring: a damped spring along the axis (explicit force)");
        springConstants(massEff, joint.hertz, joint.dampingRatio, k, c);
        add(Piece::Spring,
            cpDampedSpringNew(a, b, local(a, ax - kSpringArm * dx, ay - kSpringArm * dy),
                              local(b, ax, ay), kSpringArm, k, c));
    };
    const auto groove = [&](double lo, double hi) {
        add(Piece::Groove,
            cpGrooveJointNew(a, b, local(a, ax + lo * dx, ay + lo * dy),
                             local(a, ax + hi * dx, ay + hi * dy), local(b, ax, ay)));
    };
    const auto rotaryMotor = [&] {
        // cpSimpleMotor drives wA - wB to its rate; the scene's motor speed is wB - wA.
        cpConstraint* motor = cpSimpleMotorNew(a, b, -joint.motorSpeed);
        cpConstraintSetMaxForce(motor, joint.maxMotorTorque); // a torque on a rotary constraint
        add(Piece::Motor, motor);
    };
    switch (joint.kind) {
    case JointKind::Revolute:
        add(Piece::Pivot, cpPivotJointNew(a, b, cpv(ax, ay)));
        if (joint.enableLimit && rotary) // Chipmunk limits the absolute difference B - A
            add(Piece::RotaryLimit,
                cpRotaryLimitJointNew(a, b, reference + lower, reference + upper));
        if (joint.enableMotor && rotary) rotaryMotor();
        if (joint.enableSpring && joint.hertz > 0 && rotary) {
            notes.approximate("revolute spring: a damped rotary spring (explicit torque)");
            springConstants(inertiaEff, joint.hertz, joint.dampingRatio, k, c);
            add(Piece::RotarySpring, cpDampedRotarySpringNew(a, b, -reference, k, c));
        }
        break;
    case JointKind::Distance: {
        const cpVect pa = local(a, joint.anchorA.x, joint.anchorA.y);
        const cpVect pb = local(b, joint.anchorB.x, joint.anchorB.y);
        if (!joint.enableSpring || joint.minLength == joint.maxLength) {
            cpConstraint* pin = cpPinJointNew(a, b, pa, pb);
            cpPinJointSetDist(pin, joint.enableSpring ? joint.minLength : joint.length);
            add(Piece::Pin, pin);
        } else {
            add(Piece::Slide, cpSlideJointNew(a, b, pa, pb, joint.minLength, joint.maxLength));
            if (joint.hertz > 0) {
                notes.approximate("distance spring: a damped spring (explicit force)");
                springConstants(massEff, joint.hertz, joint.dampingRatio, k, c);
                add(Piece::Spring, cpDampedSpringNew(a, b, pa, pb, joint.length, k, c));
            }
        }
        break;
    }
    case JointKind::Prismatic: {
        notes.map("prismatic: a groove (its ends are the limits) and a gear (no relative turn)");
        if (joint.enableLimit && lower == upper) {
            add(Piece::Pivot, cpPivotJointNew2(a, b, local(a, ax + lower * dx, ay + lower * dy),
                                               local(b, ax, ay)));
        } else {
            groove(joint.enableLimit ? lower : -kGrooveReach,
                   joint.enableLimit ? upper : kGrooveReach);
        }
        if (rotary) add(Piece::Gear, cpGearJointNew(a, b, reference, 1.0));
        if (joint.enableMotor) {
            notes.map("prismatic motor: a linear motor constraint written for Chipmunk");
            auto* motor = static_cast<LinearMotor*>(cpcalloc(1, sizeof(LinearMotor)));
            cpConstraintInit(&motor->constraint, &kLinearMotorClass, a, b);
            const cpVect origin = local(a, ax, ay);
            motor->axisA = cpvnormalize(cpvsub(local(a, ax + dx, ay + dy), origin));
            motor->anchorA = origin;
            motor->anchorB = local(b, ax, ay);
            motor->speed = joint.motorSpeed;
            cpConstraintSetMaxForce(&motor->constraint, joint.maxMotorForce);
            add(Piece::LinearMotor, &motor->constraint);
        }
        if (joint.enableSpring && joint.hertz > 0) axialSpring();
        break;
    }
    case JointKind::Weld:
        notes.map("weld: a pivot and a gear");
        add(Piece::Pivot, cpPivotJointNew(a, b, cpv(ax, ay)));
        if (joint.angularHertz > 0 && rotary) {
            notes.approximate("weld angular_hertz: a damped rotary spring in place of the gear");
            springConstants(inertiaEff, joint.angularHertz, joint.angularDampingRatio, k, c);
            add(Piece::RotarySpring, cpDampedRotarySpringNew(a, b, -reference, k, c));
        } else if (rotary) {
            add(Piece::Gear, cpGearJointNew(a, b, reference, 1.0));
        }
        if (joint.linearHertz > 0) notes.approximate("weld linear_hertz: rigid (a pivot)");
        break;
    case JointKind::Wheel:
        notes.map("wheel: a groove along the axis");
        groove(-kGrooveReach, kGrooveReach);
        if (joint.enableSpring && joint.hertz > 0) axialSpring();
        if (joint.enableMotor && rotary) rotaryMotor();
        break;
    }
    return pieces;
}

JointState chipmunkReaction(const JointPieces& pieces, double dt) {
    cpVect force = cpvzero;
    double torque = 0;
    for (const auto& [kind, c] : pieces) {
        switch (kind) {
        case Piece::Pivot: force = cpvadd(force, reinterpret_cast<cpPivotJoint*>(c)->jAcc); break;
        case Piece::Groove: force = cpvadd(force, reinterpret_cast<cpGrooveJoint*>(c)->jAcc); break;
        case Piece::Pin: {
            const auto* pin = reinterpret_cast<cpPinJoint*>(c);
            force = cpvadd(force, cpvmult(pin->n, pin->jnAcc));
            break;
        }
        case Piece::Slide: {
            const auto* slide = reinterpret_cast<cpSlideJoint*>(c);
            force = cpvadd(force, cpvmult(slide->n, slide->jnAcc));
            break;
        }
        case Piece::Spring: {
            const auto* spring = reinterpret_cast<cpDampedSpring*>(c);
            force = cpvadd(force, cpvmult(spring->n, spring->jAcc));
            break;
        }
        case Piece::LinearMotor:
            force = cpvadd(force, cpvmult(asMotor(c)->n, asMotor(c)->impulse));
            break;
        case Piece::Gear: torque += reinterpret_cast<cpGearJoint*>(c)->jAcc; break;
        case Piece::RotaryLimit: torque += reinterpret_cast<cpRotaryLimitJoint*>(c)->jAcc; break;
        case Piece::Motor: torque += reinterpret_cast<cpSimpleMotor*>(c)->jAcc; break;
        case Piece::RotarySpring: {
            // Its impulse is not accumulated: the torque from the final angles and speeds.
            const auto* spring = reinterpret_cast<cpDampedRotarySpring*>(c);
            torque += dt * ((c->a->a - c->b->a - spring->restAngle) * spring->stiffness +
                            (c->a->w - c->b->w) * spring->damping);
            break;
        }
        }
    }
    const double inverseDt = dt > 0 ? 1.0 / dt : 0.0;
    return {force.x * inverseDt, force.y * inverseDt, torque * inverseDt};
}

} // namespace rigid2d::peers
