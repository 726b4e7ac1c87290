// RUN: %check_warp_tidy %s warp-invalid-shfl-width
//
// warp-invalid-shfl-width on inline PTX shfl.sync: the `c` operand packs the
// clamp value (bits 0-4) and the segment mask (bits 8-12, width = 32 -
// segment mask). A segment mask that is no power-of-two width, and offsets
// outside the width it encodes, are flagged; the encodings CUDA's own
// headers use stay silent.

__global__ void mustFlag(unsigned *out, unsigned v) {
  unsigned r;
  // Segment mask 0x0c: a 20-lane "width".
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x0c1f, 0xffffffff;" : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: inline PTX 'shfl.sync.idx.b32' control operand 0xc1f has segment mask 0xc (bits 8-12), which encodes a width of 20 lanes, not a power of two in [1, 32]: the result is undefined{{.*}} [warp-invalid-shfl-width]
  out[0] = r;
  // The control word as an operand that folds to a constant.
  asm volatile("shfl.sync.down.b32 %0, %1, 1, %2, 0xffffffff;" : "=r"(r) : "r"(v), "r"(0x051f));
  // CHECK-MESSAGES: :[[@LINE-1]]:88: warning: inline PTX 'shfl.sync.down.b32' control operand 0x51f has segment mask 0x5{{.*}}width of 27 lanes{{.*}} [warp-invalid-shfl-width]
  out[1] = r;
  // Width 16 (segment mask 0x10), butterfly lane mask 16 reaches across.
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x101f, 0xffffffff;" : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: inline PTX 'shfl.sync.bfly.b32' lane mask 16 is out of range for width 16{{.*}} [warp-invalid-shfl-width]
  out[2] = r;
  // Delta as large as the warp: every lane gets its own value back.
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, -1;" : "=r"(r) : "r"(v), "r"(32));
  // CHECK-MESSAGES: :[[@LINE-1]]:83: warning: inline PTX 'shfl.sync.down.b32' delta 32 is out of range for width 32{{.*}}no lane has a source 32 lanes above it{{.*}} [warp-invalid-shfl-width]
  out[3] = r;
  // Width 8: source lane 9 wraps to lane 1 of the segment.
  asm volatile("shfl.sync.idx.b32 %0, %1, 9, 0x181f, -1;" : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: inline PTX 'shfl.sync.idx.b32' source lane 9 is out of range for width 8: it is taken modulo 8 and reads lane 1 of the segment{{.*}} [warp-invalid-shfl-width]
  out[4] = r;
}

__global__ void mustStaySilent(unsigned *out, unsigned v, unsigned c, unsigned lane) {
  unsigned r;
  // CUDA's encodings: ((32 - width) << 8) | 0x1f, and (32 - width) << 8 for up.
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[0] = r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 8, 0x101f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[1] = r;
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0x1800, 0xffffffff;" : "=r"(r) : "r"(v));
  out[2] = r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 7, 0x181f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[3] = r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[4] = r;
  // Run-time control word and lane: nothing to judge.
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lane), "r"(c));
  out[5] = r;
  // Not shuffles: a vote's operands have no width.
  asm volatile("vote.sync.ballot.b32 %0, 1, 0xffffffff;" : "=r"(r));
  out[6] = r;
}
