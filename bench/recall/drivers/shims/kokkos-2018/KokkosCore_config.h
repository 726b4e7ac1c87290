// Stand-in for the KokkosCore_config.h that Kokkos' CMake generates from core/cmake/KokkosCore_config.h.in:
// a CUDA + Serial build for Volta/Turing with CUDA lambdas, compiled by clang (KOKKOS_IMPL_CUDA_CLANG_WORKAROUND).
#if !defined(KOKKOS_MACROS_HPP) || defined(KOKKOS_CORE_CONFIG_H)
#error "Don't include KokkosCore_config.h directly; include Kokkos_Macros.hpp instead."
#else
#define KOKKOS_CORE_CONFIG_H
#endif
#define KOKKOS_ENABLE_CUDA
#define KOKKOS_ENABLE_SERIAL
#define KOKKOS_ENABLE_CUDA_LAMBDA
#define KOKKOS_IMPL_CUDA_CLANG_WORKAROUND
#define KOKKOS_ARCH_VOLTA70 1
