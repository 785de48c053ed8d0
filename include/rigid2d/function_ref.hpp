#pragma once
/// A non-owning reference to a callable, for callbacks that must not allocate (queries, ray casts).

#include <memory>
#include <type_traits>
#include <utility>

namespace rigid2d {

template <class Signature>
class FunctionRef;

/// Like `std::function_ref` (C++26): two pointers, no allocation, never empty. The referenced
/// callable must outlive the call it is passed to, which is always the case for a lambda passed
/// as an argument.
template <class R, class... Args>
class FunctionRef<R(Args...)> {
public:
    template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_invocable_r_v<R, F&, Args...>) FunctionRef(F&& f)
    noexcept // NOLINT(google-explicit-constructor): a callback parameter
        : m_object(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          m_invoke([](void* object, Args... args) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(object))(
                  std::forward<Args>(args)...);
          }) {}

    R operator()(Args... args) const { return m_invoke(m_object, std::forward<Args>(args)...); }

private:
    void* m_object;
    R (*m_invoke)(void*, Args...);
};

} // namespace rigid2d
