// Instantiates cuco::static_map<int64_t, int64_t>::insert over a pair iterator (8-byte keys and values: the back-to-back CAS branch) (hence detail::insert<block_size, 4>, which calls device_mutable_view::insert with a 4-thread tiled_partition), as tests/static_map/static_map_test.cu does.
#include <cuco/static_map.cuh>

void warp_tidy_recall_static_map_insert(cuco::static_map<int64_t, int64_t>& map, cuco::pair_type<int64_t, int64_t> const* first,
                                        cuco::pair_type<int64_t, int64_t> const* last)
{
  map.insert(first, last);
}
