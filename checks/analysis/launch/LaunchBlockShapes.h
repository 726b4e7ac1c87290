//===--- LaunchBlockShapes.h - The block shapes a launch can use ----------===//
//
// The second argument of `kernel<<<grid, block>>>(...)` fixes blockDim for
// that launch. Launchers usually compute it on the host from a few constants:
//
//     int threads = THREADS;                // 256
//     if (n > 16384) threads <<= 1;
//     else if (n > 32768) threads <<= 2;
//     dim3 block_dim(threads);
//     kernel<<<grid, block_dim>>>(...);
//
// This file evaluates such an argument to the set of shapes it can take:
// integer constants, locals whose writes (outside loops) are each applied or
// not, in source order, arithmetic and `?:` over those, and `dim3` built from
// them. The set may hold shapes no execution reaches (each write is taken as
// optional), never miss one. A `dim3` local set field by field before the
// launch (`dim3 block; block.x = 256;`) is read the same way, except that a
// field write outside any branch replaces the field's earlier values. A
// shape with more than 1024 threads cannot be launched and is dropped.
// Anything else (a parameter, a call, a loop) makes the launch's shapes
// unknown.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LAUNCHBLOCKSHAPES_H
#define WARP_TIDY_ANALYSIS_LAUNCHBLOCKSHAPES_H

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class CUDAKernelCallExpr;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// One blockDim a launch can use, and the launch.
struct BlockShape {
  unsigned X = 1, Y = 1, Z = 1;
  const clang::Stmt *Launch = nullptr;
  unsigned threads() const { return X * Y * Z; }
  bool operator==(const BlockShape &O) const { return X == O.X && Y == O.Y && Z == O.Z; }
};

/// The shapes \p Launch (in host function \p Caller) can launch with;
/// nullopt when they cannot be read.
std::optional<llvm::SmallVector<BlockShape, 8>>
blockShapesOfLaunch(const clang::CUDAKernelCallExpr *Launch, const clang::FunctionDecl *Caller,
                    clang::ASTContext &Ctx);

/// The expression that gives \p Launch's blockDim.x: the block argument
/// itself when it is an integer, the first argument of the `dim3` it
/// builds, or of the never-written local `dim3` it names. Null when the
/// argument is none of those. For launches whose shapes are run-time values
/// (`dim3 block(rows * 128)`), what is still known is the low bits of this
/// expression (LaunchFacts::launchBlockXZeroBits).
const clang::Expr *blockXExpression(const clang::CUDAKernelCallExpr *Launch,
                                    clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
