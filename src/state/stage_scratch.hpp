#pragma once
// The scratch arrays of the step's stages (src/step, one struct per stage but solve, whose
// arrays are the solver's): reused from step to step so that a step allocates nothing once
// warmed up. A stage's struct is written by that stage only and means nothing between steps, but
// for the contact stage's heads (below).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/parallel_for.hpp"
#include "island/sleep_islands.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// find_pairs.cpp
struct PairStageScratch {
    std::vector<ProxyId> movedProxies;   ///< the question to the broad phase (findPairsOf)
    std::vector<ProxyPair> movedPairs;   ///< its answer
    std::vector<std::uint64_t> pairKeys; ///< per moved pair: its key if new, else 0
    std::vector<std::uint64_t> newPairs; ///< pair keys without a contact yet, sorted
};

/// update_contacts.cpp (runs in pieces, core/parallel_for.hpp)
struct ContactStageScratch {
    struct Counts {
        std::ptrdiff_t solvable = 0; ///< change of `solvable` by the piece's heads
        std::size_t reused = 0;      ///< manifolds reused from their cache
    };
    /// What the gather and the continuous stage read of a contact, so that they need not fetch
    /// the contact (232 bytes) to learn whether it is solved, whether it bounces, and which of
    /// its shapes is a segment or chain link.
    struct Head {
        std::uint32_t bodyA = 0, bodyB = 0;
        /// Contact::thinShape: what the continuous stage needs of a contact with a static body
        /// (stopCentresAtThinWalls).
        std::uint32_t thinShape = kNullIndex;
        std::uint16_t solvable = 0; ///< live, touching and not a sensor
        std::uint16_t bouncy = 0;   ///< solvable, with a restitution
    };
    std::vector<std::uint8_t> updates; ///< contact slot -> what its narrow phase found
    /// Contact slot -> its Head. Kept between steps (a contact between two sleeping bodies does
    /// not change, so a sparse stage leaves its head as it is); destroyContact clears a head.
    std::vector<Head> heads;
    std::size_t solvable = 0;  ///< heads with `solvable` set: the solid touching contacts
    bool headsCurrent = false; ///< every head is its contact's (not yet in a restored world)
    /// This step's stage updated only the contacts of awake bodies, those marked in `visited`
    /// (contact slot -> 1); otherwise it updated all.
    bool sparse = false;
    std::vector<std::uint8_t> visited;
    std::vector<Counts> workerCounts; ///< per worker index, summed after

    /// The first contact slot from `c` on, below `end`, that this step's stage updated.
    [[nodiscard]] std::uint32_t nextUpdated(std::uint32_t c, std::uint32_t end) const noexcept {
        if (!sparse) return c;
        return static_cast<std::uint32_t>(
            nextMarked(std::span<const std::uint8_t>(visited).first(end), c));
    }
    /// A head's `bouncy`: solvable, with a restitution.
    [[nodiscard]] static std::uint16_t bouncyFlag(std::uint32_t solvable,
                                                  float restitution) noexcept {
        return solvable != 0 && restitution != 0.0f ? 1 : 0;
    }
    /// A contact's restitution set outside the stage (World::setRestitution): its head follows,
    /// since a sparse stage does not visit a sleeping pair to rewrite it.
    void restitutionChanged(std::uint32_t contact, float restitution) noexcept {
        if (contact < heads.size())
            heads[contact].bouncy = bouncyFlag(heads[contact].solvable, restitution);
    }
    /// A destroyed contact's head: no longer solved, no longer counted.
    void clearHead(std::uint32_t contact) noexcept {
        if (contact >= heads.size()) return;
        solvable -= heads[contact].solvable;
        heads[contact].solvable = 0;
        heads[contact].bouncy = 0;
    }
};

/// continuous.cpp
struct ContinuousStageScratch {
    std::vector<std::uint32_t> candidates; ///< awake indices whose path is swept
    /// (solver slot, wall shape) for each point of a body on a static segment or chain link,
    /// sorted.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> wallTouches;
    /// Solver slot -> the translation (largest axis) above which the body's path is swept:
    /// its smallest extent, -1 for a bullet, infinity for a body that is not dynamic. Written by
    /// the gather, which reads the body records anyway, so the test per body stays in cache.
    std::vector<float> sweepAbove;
    /// Solver slot -> the square of the body's speed as the step began (its closing speed on a
    /// static shape, contactMargin, is the root). Written by the gather, like sweepAbove; the
    /// root is taken only for the few bodies that need it.
    std::vector<float> startSpeedSq;
};

/// refit_proxies.cpp (the new fat boxes run in pieces)
struct RefitStageScratch {
    /// A renewed fat box for the broad phase, and whether its shape newly joins the moved list.
    struct ShapeMove {
        AABB box;
        ProxyId proxy;
        std::uint32_t shape;
        bool newlyMoved;
    };
    std::vector<std::uint8_t> shapeRefits; ///< shape slot -> what renewing its box did (a Refit)
    std::vector<std::uint8_t> bodyRefits;  ///< awake index -> how its moves are told (a Told)
    std::vector<ShapeMove> moves;          ///< awake index -> its one move, when told so
};

/// sleep.cpp
struct SleepStageScratch {
    std::vector<float> sleepTimes;          ///< by awake index (written by the solve stage)
    bool anyRested = false;                 ///< a body has rested for timeToSleep (the same)
    std::vector<std::uint32_t> islandLinks; ///< pairs of awake indices a contact or joint joins
    SleepIslands islands;                   ///< by awake index
};

} // namespace rigid2d::detail
