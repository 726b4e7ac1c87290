//===--- Barriers.h - Statements that order the memory of a block ---------===//
//
// A barrier ends a phase: what threads stored before it, every thread of the
// block (`__syncthreads`, `bar.sync`, a thread_block's `sync()`) or of the
// warp (`__syncwarp`, a tile's `sync()`) sees after it, and nothing stored
// after it is seen before. Shared memory that is written only in other
// phases holds one value while a phase reads it.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_INTRINSICS_BARRIERS_H
#define WARP_TIDY_INTRINSICS_BARRIERS_H

namespace clang {
class Stmt;
} // namespace clang

namespace warp_tidy {

/// True for a call of a block or warp barrier (the toolchain's own:
/// `__syncthreads*`, `__barrier_sync`, `__syncwarp`, clang's
/// `__nvvm_bar*` builtins, cooperative-groups `sync()` members and
/// `cooperative_groups::sync(g)`) or inline PTX holding `bar.sync`,
/// `barrier.sync` or `bar.warp.sync`.
bool isBarrier(const clang::Stmt *S);

} // namespace warp_tidy

#endif
