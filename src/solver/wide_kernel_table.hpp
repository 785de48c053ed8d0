#pragma once
// The table of the kernels of one lane type, for the translation units that instantiate them.

#include "solver/wide_contact_kernels.hpp"
#include "solver/wide_joint_kernels.hpp"
#include "solver/wide_kernels.hpp"

namespace rigid2d::detail {

template <class F>
[[nodiscard]] constexpr WideKernels<F::width> wideKernelsOf() noexcept {
    return {&warmStartWide<F>,       &solveWide<F>,       &restituteWide<F>,
            &warmStartWideJoints<F>, &solveWideJoints<F>, &warmStartWideRevolutes<F>,
            &solveWideRevolutes<F>};
}

} // namespace rigid2d::detail
