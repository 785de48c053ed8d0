#pragma once
// What the CPU the library runs on can do, asked once, for code paths chosen at run time.

namespace rigid2d::detail {

/// True where the CPU and the operating system run AVX2 code (the CPUID flag, and the OS saving
/// the 256-bit registers). Always false off x86 or where the compiler cannot ask.
[[nodiscard]] bool cpuHasAvx2() noexcept;
/// True where the CPU and the operating system run AVX-512 Foundation, VL and DQ code (the CPUID
/// flags, and the OS saving the opmask and 512-bit register state). Always false off x86 or where
/// the compiler cannot ask.
[[nodiscard]] bool cpuHasAvx512() noexcept;

} // namespace rigid2d::detail
