// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// warp-divergent-full-mask on tile collectives under conditions that read
// memory: a load from memory the kernel does not write, at an address that
// no two lanes of one tile can differ in (`rowPtr[gid / N]` for N-lane
// tiles), is the same value in every lane of the tile, so a branch on it
// does not split the tile. Tiles of 2, 4, 8 and 16 lanes; the row's bounds
// read before a loop that advances them; a field of a struct read at the
// tile's index. A load at a per-lane address, or from memory the kernel
// writes, still splits the tile. Silence is asserted by default.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Slot {
  int key;
  int value;
};

// ------------------------------------------------------- must stay silent

// One row per tile: the row's length is the same in the tile's lanes, and
// the loop runs over whole tiles.
template <int N>
__global__ void rowBallots(const int *__restrict__ rowPtr, const int *__restrict__ cols,
                           int *out) {
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / N;
  const int begin = rowPtr[row];
  const int size = rowPtr[row + 1] - begin;
  int count = 0;
  for (int i = tile.thread_rank(); i < (size + N - 1) / N * N; i += N)
    count += __popc(tile.ballot(i < size && cols[begin + i] > row));
  if (tile.thread_rank() == 0)
    out[row] = count;
}
template __global__ void rowBallots<2>(const int *__restrict__, const int *__restrict__, int *);
template __global__ void rowBallots<4>(const int *__restrict__, const int *__restrict__, int *);
template __global__ void rowBallots<8>(const int *__restrict__, const int *__restrict__, int *);
template __global__ void rowBallots<16>(const int *__restrict__, const int *__restrict__, int *);

// The row's bounds are read before a loop that advances `begin` by a
// per-lane amount: where `size` is defined, only the load has happened.
__global__ void advancingBegin(const int *__restrict__ rowPtr, const int *__restrict__ cols,
                               int *out) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 4;
  int begin = rowPtr[row];
  const int size = rowPtr[row + 1] - begin;
  int done = 0;
  while (done < size) {
    unsigned m = tile.ballot(cols[begin + tile.thread_rank()] > 0);
    begin += __popc(m) + (cols[begin] & 1);
    done += 4;
  }
  out[row] = begin;
}

// A field of a table entry read at the tile's index (a hash table probe):
// the kernel writes only `out`, so the table does not change under it.
__global__ void probe(Slot *table, int *out) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const int slot = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
  int found = 0;
  if (table[slot].key != -1)
    found = tile.any(table[slot].value == static_cast<int>(tile.thread_rank()));
  out[blockIdx.x * blockDim.x + threadIdx.x] = found;
}

// Shared memory filled in one phase and read in the next: no store reaches
// the read without passing the barrier, so lanes that read one slot read one
// value (StopThePop's per-tile ids in shared memory).
__global__ void sharedRowsAfterBarrier(const int *__restrict__ ids, int *out) {
  __shared__ int rows[64];
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  for (int k = 0; k < 4; ++k) {
    if (threadIdx.x < 64)
      rows[threadIdx.x] = ids[(blockIdx.x * 4 + k) * 64 + threadIdx.x];
    __syncthreads();
    int v = 0;
    if (rows[threadIdx.x / 4] > 0)
      v = tile.ballot(out[threadIdx.x] > 0);
    out[threadIdx.x] += v;
    __syncthreads();
  }
}

// A value one lane computes and cg::invoke_one_broadcast hands to the whole
// tile (Gallatin's table levels) is the tile's, however the lane got it.
__global__ void broadcastLevels(const int *__restrict__ levels, int *out) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  int level = cg::invoke_one_broadcast(tile, [&]() { return levels[threadIdx.x]; });
  int v = 0;
  while (level > 0) {
    v += tile.ballot(out[threadIdx.x] > level);
    level = cg::invoke_one_broadcast(tile, [&]() { return level - 1 - (threadIdx.x & 1); });
  }
  out[threadIdx.x] = v;
}

// ---------------------------------------------------------- must flag

// Rows of 2 lanes but tiles of 4: two rows share a tile.
__global__ void rowPerPair(const int *__restrict__ rowPtr, int *out) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 2;
  int v = 0;
  if (rowPtr[row] > 0)
    v = tile.ballot(out[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread_block_tile::ballot with the implicit mask of its 4-lane tile is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a 4-lane tile, so only some lanes take the path to the collective
  out[threadIdx.x] = v;
}

// The kernel writes the memory it branches on, through the same pointer:
// another lane's store may land between two lanes' reads.
__global__ void writtenTable(int *rowPtr, int *out) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 4;
  rowPtr[blockIdx.x * blockDim.x + threadIdx.x] += 1;
  int v = 0;
  if (rowPtr[row] > 0)
    v = tile.ballot(out[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread_block_tile::ballot with the implicit mask of its 4-lane tile{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a 4-lane tile{{.*}}
  out[threadIdx.x] = v;
}

// A per-lane element decides, although the tile's row is shared.
__global__ void perLaneElement(const int *__restrict__ rowPtr, const int *__restrict__ cols,
                               int *out) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
  int v = 0;
  if (cols[rowPtr[row] + tile.thread_rank()] > 0)
    v = tile.ballot(out[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread_block_tile::ballot with the implicit mask of its 8-lane tile{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a 8-lane tile{{.*}}
  out[threadIdx.x] = v;
}

// The same without the barrier that ends the loop's phase: the next
// iteration's stores can land between two lanes' reads.
__global__ void sharedRowsRewritten(const int *__restrict__ ids, int *out) {
  __shared__ int rows[64];
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  for (int k = 0; k < 4; ++k) {
    if (threadIdx.x < 64)
      rows[threadIdx.x] = ids[(blockIdx.x * 4 + k) * 64 + threadIdx.x];
    __syncthreads();
    int v = 0;
    if (rows[threadIdx.x / 4] > 0)
      v = tile.ballot(out[threadIdx.x] > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: thread_block_tile::ballot with the implicit mask of its 4-lane tile{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition differs between the lanes of a 4-lane tile{{.*}}
    out[threadIdx.x] += v;
  }
}
