// Instantiates raft::sparse::distance::detail::faster_dot_on_csr<int, float> (hence faster_dot_on_csr_kernel), the call linalg/detail/masked_matmul.cuh (masked_matmul) makes; utils.cuh is included through that header.
#include <raft/sparse/linalg/detail/masked_matmul.cuh>  // includes distance/detail/utils.cuh after the raft core headers it needs

void warp_tidy_recall_faster_dot(raft::resources const& handle, float* dot, int nnz, const int* indptr,
                                 const int* cols, const float* A, const float* B, int rows, int dim)
{
  raft::sparse::distance::detail::faster_dot_on_csr<int, float>(handle, dot, nnz, indptr, cols, A, B, rows, dim);
}
