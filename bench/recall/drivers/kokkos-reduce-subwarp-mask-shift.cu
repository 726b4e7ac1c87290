// Instantiates Kokkos' CUDA parallel_reduce for a scalar sum (RangePolicy and TeamPolicy), whose kernels run CudaReductionsFunctor::scalar_intra_block_reduction/scalar_intra_warp_reduction, as core/unit_test/TestReduce.hpp does.
#include <Kokkos_Core.hpp>

struct warp_tidy_recall_sum {
  typedef double value_type;
  const double* x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& s) const { s += x[i]; }
  KOKKOS_INLINE_FUNCTION void operator()(const Kokkos::TeamPolicy<Kokkos::Cuda>::member_type& t, double& s) const
  {
    s += x[t.league_rank() * t.team_size() + t.team_rank()];
  }
};

double warp_tidy_recall_reduce(const double* x, int n)
{
  double r1 = 0, r2 = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda>(0, n), warp_tidy_recall_sum{x}, r1);
  Kokkos::parallel_reduce(Kokkos::TeamPolicy<Kokkos::Cuda>(n / 64, 64), warp_tidy_recall_sum{x}, r2);
  return r1 + r2;
}
