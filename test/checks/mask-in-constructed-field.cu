// RUN: %check_warp_tidy %s warp-mask-excludes-caller,warp-inconsistent-mask
//
// A lane mask kept in a field: set once by the constructor's member
// initialiser, read by the methods (CUB's WarpReduceShfl and WarpScanShfl).
// A read of such a field through `this` stands for the constructor's
// expression when every constructor gives the same one, it is a function of
// the thread alone (constants, thread indices, lane helpers, earlier such
// fields) and nothing stores into the field afterwards
// (analysis/FieldConstruction.h). The mask reaches the collective as an
// intrinsic's argument, an inline-PTX operand or a wrapper's argument.

__device__ __forceinline__ unsigned laneId() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ int shuffleDown(int v, int offset, unsigned mask) {
  return __shfl_down_sync(mask, v, offset);
}

// CUB before its fix: the 16-lane mask shifted by the sub-warp index
// instead of index * 16, so lanes 17-31 pass a mask without their bit.
template <int Width> struct SubWarpReduce {
  unsigned member_mask;
  __device__ SubWarpReduce()
      : member_mask((0xffffffffu >> (32 - Width)) << (laneId() / Width)) {}
  __device__ int viaIntrinsic(int v) {
    return v + __shfl_down_sync(member_mask, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: mask of __shfl_down_sync is computed from the lane and leaves the calling lane out: lane 17 executes the call and passes 0x0001fffe, without its own bit{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :27:21: note: the mask is computed from the lane here
  }
  __device__ int viaPtx(int v) {
    int out;
    asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(out) : "r"(v), "r"(member_mask));
    // CHECK-MESSAGES: :[[@LINE-1]]:86: warning: mask of __shfl_down_sync is computed from the lane and leaves the calling lane out: lane 17 executes the call and passes 0x0001fffe, without its own bit{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :27:21: note: the mask is computed from the lane here
    return out;
  }
  __device__ int viaWrapper(int v) {
    return shuffleDown(v, 1, this->member_mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: mask of 'shuffleDown' is computed from the lane and leaves the calling lane out: lane 17 executes the call and passes 0x0001fffe, without its own bit{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :27:21: note: the mask is computed from the lane here
  }
};

// CUB after its fix: shifted by the sub-warp's first lane, computed from an
// earlier field. Every lane has its bit and each half agrees: silent.
template <int Width> struct FixedSubWarpReduce {
  unsigned lane_id;
  unsigned member_mask;
  __device__ FixedSubWarpReduce()
      : lane_id(laneId()),
        member_mask((0xffffffffu >> (32 - Width)) << ((lane_id / Width) * Width)) {}
  __device__ int reduce(int v) {
    int out;
    asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(out) : "r"(v), "r"(member_mask));
    return v + shuffleDown(out, 2, member_mask);
  }
};

// Each lane has its bit, but lanes disagree: lane 0 names lanes 0-7, lane 1
// names lanes 1-8 with another mask.
struct SlidingWindow {
  unsigned window;
  __device__ SlidingWindow() : window(0xffu << (threadIdx.x % 32)) {}
  __device__ int step(int v) {
    return __shfl_xor_sync(window, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: lanes 0 and 1 pass different masks to __shfl_xor_sync{{.*}}[warp-inconsistent-mask]
    // CHECK-MESSAGES: :[[@LINE-4]]:39: note: the mask is computed from the lane here
  }
};

// Must stay silent: the field is not a function of the thread alone, or may
// change after construction, or the constructors disagree.
struct FromParameter {
  unsigned mask;
  __device__ explicit FromParameter(unsigned m) : mask(m) {}
  __device__ int step(int v) { return __shfl_xor_sync(mask, v, 1); }
};

struct WrittenLater {
  unsigned mask;
  __device__ WrittenLater() : mask(1u << (threadIdx.x % 32)) {}
  __device__ void widen() { mask = 0xffffffffu; }
  __device__ int step(int v) { return __shfl_xor_sync(mask, v, 1); }
};

struct WrittenOutside {
  unsigned mask;
  __device__ WrittenOutside() : mask(0xffffu << (threadIdx.x % 32)) {}
  __device__ int step(int v) { return __shfl_xor_sync(mask, v, 1); }
};

struct TwoConstructors {
  unsigned mask;
  __device__ TwoConstructors() : mask(0xffffu << (threadIdx.x % 32)) {}
  __device__ explicit TwoConstructors(int) : mask(0xffffffffu) {}
  __device__ int step(int v) { return __shfl_xor_sync(mask, v, 1); }
};

__global__ void kernel(const int *in, int *out) {
  int v = in[threadIdx.x];
  SubWarpReduce<16> r;
  v = r.viaIntrinsic(v) + r.viaPtx(v) + r.viaWrapper(v);
  FixedSubWarpReduce<16> f;
  v += f.reduce(v);
  SlidingWindow w;
  v += w.step(v);
  FromParameter p(__activemask());
  v += p.step(v);
  WrittenLater l;
  l.widen();
  v += l.step(v);
  WrittenOutside o;
  o.mask = 0xffffffffu;
  v += o.step(v);
  TwoConstructors t, u(1);
  v += t.step(v) + u.step(v);
  out[threadIdx.x] = v;
}
