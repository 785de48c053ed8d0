#include "solver/wide_joints.hpp"

#include <cstddef>

#include "core/prefetch.hpp"
#include "solver/joint_math.hpp"

namespace rigid2d::detail {

namespace {

constexpr std::size_t kJointsAhead = 8;

// Lane `lane` of `w` from `c`; a missing joint gets the static slot, zero masses and impulse.
template <int W>
void setLane(WideJoint<W>& w, std::size_t lane, std::uint32_t index, const JointConstraint* c) {
    w.joint[lane] = index;
    w.bodyA[lane] = c != nullptr ? c->bodyA : 0;
    w.bodyB[lane] = c != nullptr ? c->bodyB : 0;
    w.frameAX[lane] = c != nullptr ? c->frameA.x : 0.0f;
    w.frameAY[lane] = c != nullptr ? c->frameA.y : 0.0f;
    w.frameBX[lane] = c != nullptr ? c->frameB.x : 0.0f;
    w.frameBY[lane] = c != nullptr ? c->frameB.y : 0.0f;
    w.deltaCenterX[lane] = c != nullptr ? c->deltaCenter.x : 0.0f;
    w.deltaCenterY[lane] = c != nullptr ? c->deltaCenter.y : 0.0f;
    w.mA[lane] = c != nullptr ? c->mA : 0.0f;
    w.iA[lane] = c != nullptr ? c->iA : 0.0f;
    w.mB[lane] = c != nullptr ? c->mB : 0.0f;
    w.iB[lane] = c != nullptr ? c->iB : 0.0f;
    w.impulseX[lane] = c != nullptr ? c->impulses.linear.x : 0.0f;
    w.impulseY[lane] = c != nullptr ? c->impulses.linear.y : 0.0f;
}

// The softness of a revolute's spring, made once for a run of joints with the same settings: the
// joints of a ragdoll, a bridge or a chain mostly share them, and it takes two divisions.
class SoftnessMemo {
public:
    explicit SoftnessMemo(float h) : m_h(h) {}

    [[nodiscard]] Softness operator()(const JointParams& p) {
        if (!m_made || p.hertz != m_hertz || p.dampingRatio != m_dampingRatio) {
            m_made = true;
            m_hertz = p.hertz;
            m_dampingRatio = p.dampingRatio;
            m_softness = makeSoftness(p.hertz, p.dampingRatio, m_h);
        }
        return m_softness;
    }

private:
    float m_h;
    bool m_made = false;
    float m_hertz = 0.0f, m_dampingRatio = 0.0f;
    Softness m_softness{};
};

// Lane `lane` of `w` from the revolute joint `c` (nullptr: an unused lane). A row the joint does
// not have gets zeros, so that its arithmetic, done and then discarded, stays finite.
template <int W>
void setRevoluteLane(WideRevolute<W>& w, std::size_t lane, std::uint32_t index,
                     const JointConstraint* c, const JointStep& step, SoftnessMemo& springs) {
    setLane(w.point, lane, index, c);
    const JointParams& p = c != nullptr ? *c->params : kDefaultJointParams;
    const JointImpulses j = c != nullptr ? c->impulses : JointImpulses{};
    const bool spring = p.enableSpring && p.hertz > 0.0f;
    const Softness soft = spring ? springs(p) : Softness{};
    w.deltaAngle[lane] = c != nullptr ? c->deltaAngle : 0.0f;
    w.axialMass[lane] = c != nullptr ? inverseOrZero(c->iA + c->iB) : 0.0f; // prepareRevolute
    w.springOn[lane] = spring ? 1.0f : 0.0f;
    w.springBiasRate[lane] = soft.biasRate;
    w.springMassScale[lane] = soft.massScale;
    w.springImpulseScale[lane] = soft.impulseScale;
    w.motorOn[lane] = p.enableMotor ? 1.0f : 0.0f;
    w.motorSpeed[lane] = p.enableMotor ? p.motorSpeed : 0.0f;
    w.maxMotorImpulse[lane] = p.enableMotor ? step.h * p.maxMotorForce : 0.0f;
    w.limitOn[lane] = p.enableLimit ? 1.0f : 0.0f;
    w.lower[lane] = p.enableLimit ? p.lower : 0.0f;
    w.upper[lane] = p.enableLimit ? p.upper : 0.0f;
    w.springImpulse[lane] = j.spring;
    w.motorImpulse[lane] = j.motor;
    w.lowerImpulse[lane] = j.lower;
    w.upperImpulse[lane] = j.upper;
}

} // namespace

template <int W>
void packWideJoints(std::span<const JointConstraint> joints,
                    std::span<const WideJointCandidate> candidates,
                    std::span<const std::uint32_t> order, std::span<const JointSegment> segments,
                    const JointStep& step, std::vector<WideJoint<W>>& points,
                    std::vector<WideRevolute<W>>& revolutes, std::span<JointBlocksAt> blocksAt) {
    points.clear();
    revolutes.clear();
    SoftnessMemo springs(step.h);
    for (std::size_t k = 0; k < segments.size(); ++k) {
        blocksAt[k] = {static_cast<std::uint32_t>(points.size()),
                       static_cast<std::uint32_t>(revolutes.size())};
        // Each segment starts new blocks: the lanes of a block must share no movable body.
        std::size_t pointLanes = 0, revoluteLanes = 0;
        const std::span<const std::uint32_t> colour =
            order.subspan(segments[k].orderBegin, segments[k].count);
        for (std::size_t n = 0; n < colour.size(); ++n) {
            // Colour order skips through the joint array: fetch the records a few lanes ahead,
            // as far as their lanes read (a point joint's first line).
            if (n + kJointsAhead < colour.size()) {
                const WideJointCandidate& ahead = candidates[colour[n + kJointsAhead]];
                prefetchBytes(&joints[ahead.joint],
                              ahead.kind == WideJointKind::Point
                                  ? offsetof(JointConstraint, impulses) + sizeof(Vec2)
                                  : offsetof(JointConstraint, axialMass));
            }
            const std::uint32_t candidate = colour[n];
            const std::uint32_t index = candidates[candidate].joint;
            const JointConstraint& c = joints[index];
            if (candidates[candidate].kind == WideJointKind::Point) {
                if (pointLanes % W == 0) points.emplace_back();
                setLane(points.back(), pointLanes++ % W, index, &c);
            } else {
                if (revoluteLanes % W == 0) revolutes.emplace_back();
                setRevoluteLane(revolutes.back(), revoluteLanes++ % W, index, &c, step, springs);
            }
        }
        for (; pointLanes % W != 0; ++pointLanes)
            setLane(points.back(), pointLanes % W, kNoWideJoint, nullptr);
        for (; revoluteLanes % W != 0; ++revoluteLanes)
            setRevoluteLane(revolutes.back(), revoluteLanes % W, kNoWideJoint, nullptr, step,
                            springs);
    }
    blocksAt[segments.size()] = {static_cast<std::uint32_t>(points.size()),
                                 static_cast<std::uint32_t>(revolutes.size())};
}

template <int W>
void storeWideJointImpulses(std::span<const WideJoint<W>> points,
                            std::span<const WideRevolute<W>> revolutes,
                            std::span<JointConstraint> joints) {
    for (const WideJoint<W>& w : points) {
        for (std::size_t lane = 0; lane < W; ++lane) {
            if (w.joint[lane] == kNoWideJoint) continue;
            joints[w.joint[lane]].impulses.linear = {w.impulseX[lane], w.impulseY[lane]};
        }
    }
    for (const WideRevolute<W>& w : revolutes) {
        for (std::size_t lane = 0; lane < W; ++lane) {
            if (w.point.joint[lane] == kNoWideJoint) continue;
            JointImpulses& j = joints[w.point.joint[lane]].impulses;
            j.linear = {w.point.impulseX[lane], w.point.impulseY[lane]};
            j.spring = w.springImpulse[lane];
            j.motor = w.motorImpulse[lane];
            j.lower = w.lowerImpulse[lane];
            j.upper = w.upperImpulse[lane];
        }
    }
}

template void packWideJoints<4>(std::span<const JointConstraint>,
                                std::span<const WideJointCandidate>, std::span<const std::uint32_t>,
                                std::span<const JointSegment>, const JointStep&,
                                std::vector<WideJoint<4>>&, std::vector<WideRevolute<4>>&,
                                std::span<JointBlocksAt>);
template void packWideJoints<8>(std::span<const JointConstraint>,
                                std::span<const WideJointCandidate>, std::span<const std::uint32_t>,
                                std::span<const JointSegment>, const JointStep&,
                                std::vector<WideJoint<8>>&, std::vector<WideRevolute<8>>&,
                                std::span<JointBlocksAt>);
template void storeWideJointImpulses<4>(std::span<const WideJoint<4>>,
                                        std::span<const WideRevolute<4>>,
                                        std::span<JointConstraint>);
template void storeWideJointImpulses<8>(std::span<const WideJoint<8>>,
                                        std::span<const WideRevolute<8>>,
                                        std::span<JointConstraint>);

} // namespace rigid2d::detail
