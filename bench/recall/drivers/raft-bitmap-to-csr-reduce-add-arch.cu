// Instantiates raft::sparse::convert::detail::bitmap_to_csr<uint32_t, int> (hence calc_nnz_by_rows_kernel), as cpp/test/sparse/convert_csr.cu does through convert::bitmap_to_csr.
#include <raft/sparse/convert/detail/bitmap_to_csr.cuh>

void warp_tidy_recall_bitmap_to_csr(raft::resources const& handle, const uint32_t* bitmap, int rows,
                                    int cols, int* indptr, int* indices)
{
  raft::sparse::convert::detail::bitmap_to_csr<uint32_t, int>(handle, bitmap, rows, cols, indptr, indices);
}
