// Forced include (-include) for the real-code evaluation: nvcc's headers give
// host code the global min(a, b) / max(a, b) overloads for integer and
// floating-point arguments of mixed types; clang's CUDA headers give them to
// device code only, so host launch code such as dim3 block(min(n, 1024))
// does not compile with clang. These host-only templates stand in for them.
#pragma once
#include <type_traits>

template <typename A, typename B,
          typename = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>>>
__host__ inline std::common_type_t<A, B> min(A a, B b)
{
  return b < a ? b : a;
}

template <typename A, typename B,
          typename = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>>>
__host__ inline std::common_type_t<A, B> max(A a, B b)
{
  return a < b ? b : a;
}
