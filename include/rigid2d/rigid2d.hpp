#pragma once
/// Umbrella header: everything a user of rigid2d needs.

#include "rigid2d/assert.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/debug_draw.hpp"
#include "rigid2d/error.hpp"
#include "rigid2d/events.hpp"
#include "rigid2d/function_ref.hpp"
#include "rigid2d/geometry.hpp"
#include "rigid2d/ids.hpp"
#include "rigid2d/log.hpp"
#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"
#include "rigid2d/version.hpp"
#include "rigid2d/world.hpp"
