// Instantiates cuML's balanced_coo_pairwise_generalized_spmv<int, float> with Product/Sum/AtomicAdd (hence balanced_coo_generalized_spmv_kernel), as cpp/test/prims/sparse/dist_coo_spmv.cu does.
#include <sparse/distance/coo_spmv.cuh>
#include <sparse/distance/operators.cuh>

void warp_tidy_recall_coo_spmv(float* out, const raft::sparse::distance::distances_config_t<int, float>& config,
                               int* coo_rows_b)
{
  using namespace raft::sparse::distance;
  balanced_coo_pairwise_generalized_spmv<int, float>(out, config, coo_rows_b, Product(), Sum(), AtomicAdd());
}
