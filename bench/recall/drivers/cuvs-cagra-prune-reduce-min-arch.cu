// Instantiates cuVS CAGRA's prune_graph_gpu<uint32_t> and merge_graph_gpu<uint32_t> (hence kern_fused_prune and kern_merge_graph/warp_pos_in_array), the steps graph::optimize runs for cagra_build.cuh.
#include <cstdint>

// clang (unlike nvcc) rejects utils.hpp's __host__ __device__ specializations of a primary template
// declared without target attributes; declaring the primary __host__ __device__ first lets them match.
namespace cuvs::neighbors::cagra::detail::utils {
template <class T>
__host__ __device__ constexpr unsigned size_of();
}

#include "neighbors/detail/cagra/graph_core.cuh"

void warp_tidy_recall_cagra_optimize(raft::resources const& res, uint32_t* knn_graph, uint64_t graph_size,
                                     uint64_t knn_degree, uint32_t* out_graph, uint64_t out_degree,
                                     const uint32_t* rev_graph, uint32_t* rev_count, uint32_t* mst_graph,
                                     uint32_t* mst_edges)
{
  namespace g = cuvs::neighbors::cagra::detail::graph;
  g::prune_graph_gpu<uint32_t>(res, knn_graph, graph_size, knn_degree, out_graph, out_degree);
  g::merge_graph_gpu<uint32_t>(res, out_graph, rev_graph, rev_count, mst_graph, mst_edges, graph_size,
                               out_degree, true);
}
