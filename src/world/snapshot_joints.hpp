#pragma once
// The joints' part of a snapshot (world_snapshot.cpp writes and reads it after the events): every
// joint slot, each live body's joint list in list order (waking walks it, so its order is part of
// the state) and the free joint slots; on restore, every joint checked against the bodies as the
// create functions check a definition.

#include "core/byte_io.hpp"
#include "state/world_state.hpp"

namespace rigid2d::detail {

void writeJoints(const WorldState& s, ByteWriter& w);
/// Needs the bodies read; refuses (as World::restore) bytes no world could have written.
void readJoints(ByteReader& r, WorldState& s);

} // namespace rigid2d::detail
