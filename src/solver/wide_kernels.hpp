#pragma once
// The wide solver's kernels for one lane width, as a table of functions: the soft step
// (contact_solver.cpp) takes the table of the SIMD path chosen for the step (simd_path.hpp) and
// runs the same stages over blocks of that width. A table is the kernels of one lane type
// (wideKernelsOf in wide_kernel_table.hpp); the AVX2 and AVX-512 ones live in translation units
// of their own, compiled for their instruction sets, and only a CPU that has one calls into it.

#include <cstddef>

#include "solver/joint_types.hpp"
#include "solver/simd_path.hpp"
#include "solver/solver_types.hpp"
#include "solver/wide_contacts.hpp"
#include "solver/wide_joints.hpp"

namespace rigid2d::detail {

template <int W>
struct WideKernels {
    void (*warmStartContacts)(SolverState* bodies, const WideContact<W>* blocks, std::size_t count);
    void (*solveContacts)(SolverState* bodies, WideContact<W>* blocks, std::size_t count,
                          const WideSoftness& softness, float inverseH, float maxPushSpeed,
                          bool useBias);
    void (*restituteContacts)(SolverState* bodies, WideContact<W>* blocks,
                              const WideContactCold<W>* cold, std::size_t count, float threshold);
    void (*warmStartPoints)(SolverState* bodies, const WideJoint<W>* blocks, std::size_t count);
    void (*solvePoints)(SolverState* bodies, WideJoint<W>* blocks, std::size_t count,
                        const JointStep& step, bool useBias);
    void (*warmStartRevolutes)(SolverState* bodies, const WideRevolute<W>* blocks,
                               std::size_t count);
    void (*solveRevolutes)(SolverState* bodies, WideRevolute<W>* blocks, std::size_t count,
                           const JointStep& step, bool useBias);
};

/// The 4-wide kernels of `path` (Portable or Sse2, which must be available).
[[nodiscard]] const WideKernels<4>& wideKernels4(SimdPath path) noexcept;
/// The 8-wide AVX2 kernels; call only where simdPathAvailable(SimdPath::Avx2).
[[nodiscard]] const WideKernels<8>& avx2Kernels() noexcept;
/// The 8-wide AVX-512VL kernels; call only where simdPathAvailable(SimdPath::Avx512).
[[nodiscard]] const WideKernels<8>& avx512Kernels() noexcept;
/// The 8-wide kernels of `path` (which must be available), or null for a 4-wide path.
[[nodiscard]] const WideKernels<8>* wideKernels8(SimdPath path) noexcept;

} // namespace rigid2d::detail
