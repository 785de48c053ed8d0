#pragma once
// The chains of a snapshot: a section after the events (world_snapshot.cpp writes the rest).
//
//   chain slot count, then per slot: generation, live; for a live chain its body, loop flag,
//   link count, and per link its shape slot and ghost vertices; then the free chain slots.
//
// The links themselves are shapes and travel with the shapes; this section says which shapes
// form which chain, so restore can check that each chain's links join up as createChain made
// them (each link's ends and ghosts are its neighbours' points).

#include "core/byte_io.hpp"
#include "state/world_state.hpp"

namespace rigid2d::detail {

void writeChains(const WorldState& state, ByteWriter& w);
/// Reads the section into a state whose shapes are read (and checked) already; refuses, naming
/// `World::restore`, chains whose links are not a live, unclaimed ChainSegment shape of the
/// chain's non-dynamic body, do not join up, or leave a ChainSegment shape out.
void readChains(ByteReader& r, WorldState& state);

} // namespace rigid2d::detail
