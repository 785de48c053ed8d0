#pragma once
// A chain as the world stores it: one slot of a contiguous array, addressed by ChainId.index and
// checked by its generation. Its links are ordinary shapes (kind ChainSegment, Shape::chain names
// the slot), so everything below the world sees shapes only; the chain is what destroys them
// together and what a user asks for them.

#include <cstdint>
#include <vector>

#include "state/body.hpp"

namespace rigid2d::detail {

struct Chain {
    std::uint32_t generation = 0; ///< as Body::generation
    bool live = false;
    bool loop = false;
    std::uint32_t body = kNullIndex;
    std::vector<std::uint32_t> links; ///< shape slots, in chain order
};

} // namespace rigid2d::detail
