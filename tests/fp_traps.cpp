// Floating-point traps (issue 12): every test case runs with invalid, divide-by-zero and overflow
// raising SIGFPE, so a NaN or an infinity made anywhere inside the engine fails the test that made
// it (doctest reports the signal and the test case) instead of passing through unnoticed.
// Refused arguments are tested too: validation must look at a NaN or infinity without computing
// with it. The tests of demos/ (scene files parsed by a JSON library whose number parser may
// overflow, pictures drawn by cairo) are not physics and run without traps. glibc only
// (feenableexcept); elsewhere the listener does nothing.
//
// The test presets build with -fno-tree-slp-vectorize: GCC 12 at -O2 turns a two-float operation
// (a vec2 divided by a scalar) into a four-lane divps whose upper lanes hold stale register
// contents, and a trap then fires on a NaN the program never uses (a rare SIGFPE, seen under
// load). The flag changes no result, only which instructions compute it. Builds without it (a
// Release build of the tests) get RIGID2D_TEST_FP_TRAPS=0 from tests/CMakeLists.txt and run
// untrapped.
#include <doctest/doctest.h>

#include <cfenv>
#include <string_view>

namespace {

constexpr int kTrapped = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW;

struct FloatingPointTraps : doctest::IReporter {
    explicit FloatingPointTraps(const doctest::ContextOptions&) {}

    void test_case_start(const doctest::TestCaseData& test) override {
#if defined(__GLIBC__) && RIGID2D_TEST_FP_TRAPS
        std::feclearexcept(FE_ALL_EXCEPT);
        const std::string_view file = test.m_file.c_str();
        if (file.find("/tests/demos/") == std::string_view::npos) feenableexcept(kTrapped);
#else
        (void)test;
#endif
    }
    void test_case_end(const doctest::CurrentTestCaseStats&) override {
#if defined(__GLIBC__) && RIGID2D_TEST_FP_TRAPS
        fedisableexcept(kTrapped);
#endif
    }
    void test_case_exception(const doctest::TestCaseException&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

} // namespace

REGISTER_LISTENER("floating_point_traps", 1, FloatingPointTraps);
