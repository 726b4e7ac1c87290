// Instantiates cugraph::transform_e with a packed-bool (bool) edge property output (hence detail::transform_e_packed_bool), as cpp/tests/prims/mg_transform_e.cu does with result_t = bool.
// transform_e.cuh relies on headers its includers bring first: the prims mg_transform_e.cu includes before it.
#include <prims/count_if_e.cuh>
#include <prims/edge_bucket.cuh>
#include <prims/fill_edge_property.cuh>
#include <prims/transform_e.cuh>

#include <cugraph/edge_property.hpp>

namespace {
using graph_view = cugraph::graph_view_t<int32_t, int32_t, false, false>;

struct less_src_dst {
  __device__ bool operator()(int32_t src, int32_t dst, thrust::nullopt_t, thrust::nullopt_t,
                             thrust::nullopt_t) const
  {
    return src < dst;
  }
};
}  // namespace

void warp_tidy_recall_transform_e(raft::handle_t const& handle, graph_view const& view,
                                  cugraph::edge_property_t<graph_view, bool>& out)
{
  cugraph::transform_e(handle, view, cugraph::edge_src_dummy_property_t{}.view(),
                       cugraph::edge_dst_dummy_property_t{}.view(),
                       cugraph::edge_dummy_property_t{}.view(), less_src_dst{}, out.mutable_view());
}
