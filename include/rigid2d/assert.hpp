#pragma once
/// Internal-invariant failures are routed to a replaceable handler.

namespace rigid2d {

/// Called when an internal invariant fails (a bug in rigid2d, not a bad argument: those throw
/// `rigid2d::Error`). The default handler prints the message and aborts. A handler that returns
/// lets execution continue past the failed check, which is only useful to tests and tools.
using AssertHandler = void (*)(const char* condition, const char* message, const char* file,
                               int line);

/// Installs `handler` (nullptr restores the default) and returns the previous one.
AssertHandler setAssertHandler(AssertHandler handler) noexcept;

} // namespace rigid2d
