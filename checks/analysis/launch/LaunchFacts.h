//===--- LaunchFacts.h - What every launch in the unit says about a kernel -===//
//
// A kernel is often correct only because of what its launcher guarantees:
// ggml's `quantize_q8_1` returns early with `if (i0 >= ne0) return;` before a
// full-mask reduction, which is warp-uniform because its only launcher
// asserts `ne0 % 32 == 0`. The kernel alone does not say so, and the
// uniformity analysis would call the early return divergent.
//
// This file reads the launches of the translation unit and keeps, for each
// kernel parameter, the number of low bits that are zero in the argument of
// every launch:
//   - the argument's own value (a constant, `n * 32`, `(n + 31) / 32 * 32`,
//     a local whose only definition is such an expression), and
//   - what dominates the launch in its function: `GGML_ASSERT(n % 32 == 0)`,
//     `assert((n & 31) == 0)`, `if (n % 32 != 0) { abort(); }` or
//     `if (n % 32) return;` before it, on a variable never written after.
// Launches written as `kernel<<<...>>>(args)` count, and so do launches
// through a launcher template that receives the kernel as a parameter and
// forwards its own parameters to it (`launch(kernel, config, args...)`).
//
// Only kernels every launch of which this unit sees get facts: kernels with
// internal linkage (`static`, an anonymous namespace, and their template
// instantiations), and implicit instantiations of a kernel template defined
// in the unit's own file (another unit has no definition to instantiate),
// whose every reference is one of those launches. A kernel
// another unit may launch, or whose address escapes (`cudaLaunchKernel`, a
// table of kernels), has none.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LAUNCHFACTS_H
#define WARP_TIDY_ANALYSIS_LAUNCHFACTS_H

#include "launch/LaunchBlockShapes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CUDAKernelCallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

class LaunchFacts {
public:
  /// The facts of \p Ctx's unit, read on first use and kept in its
  /// UnitContext.
  static LaunchFacts &of(clang::ASTContext &Ctx);

  explicit LaunchFacts(clang::ASTContext &Ctx);
  ~LaunchFacts();

  /// Low bits of \p P (a parameter of a `__global__` function) that are zero
  /// in the argument of every launch of its kernel in this unit; 0 when
  /// nothing is known.
  unsigned knownZeroBits(const clang::ParmVarDecl *P);

  /// The block shapes the launches of \p Kernel written in this unit use
  /// (LaunchBlockShapes.h): for a template's specialization, those of the
  /// uses that name it, else those of every use of its pattern. Unlike knownZeroBits this also
  /// answers for kernels with external linkage, from the launches this unit
  /// shows: a caller that relies on the answer must say so. A kernel whose
  /// address is stored as a function pointer (returned, an initialiser, a
  /// table) is launched by every launch through a variable of that pointer
  /// type, unless the unit also launches from an address
  /// (cudaLaunchKernel) or launches that pointer type another way (a
  /// launcher's parameter, a field). nullopt when the kernel has no launch here, when
  /// one of them (or a use that may launch it, such as its address passed
  /// on) cannot be read.
  std::optional<llvm::SmallVector<BlockShape, 8>>
  launchBlockShapes(const clang::FunctionDecl *Kernel);

  /// Low bits of blockDim.x that are zero in every launch of \p Kernel
  /// written in this unit (its source function's, as launchBlockShapes),
  /// also where a launch's block is a run-time value: `dim3 block(rows *
  /// 128)` has seven. nullopt when the kernel has no launch here, or a use
  /// that may launch it (its address passed on) or a block argument this
  /// cannot read. Answers for kernels with external linkage as
  /// launchBlockShapes does.
  std::optional<unsigned> launchBlockXZeroBits(const clang::FunctionDecl *Kernel);

private:
  struct KernelFacts {
    bool Usable = false;                     ///< every launch seen, at least one
    llvm::SmallVector<unsigned, 8> ZeroBits; ///< per parameter
  };
  struct ShapeFacts {
    bool Readable = true;                    ///< every launch's shapes are constants
    bool Escapes = false;                    ///< a use that may launch it is not a launch here
    llvm::SmallVector<BlockShape, 8> Shapes; ///< of the launches that are
    /// Launches whose shapes are run-time values, and their callers.
    llvm::SmallVector<std::pair<const clang::CUDAKernelCallExpr *, const clang::FunctionDecl *>, 2>
        RunTimeShapes;
    std::optional<unsigned> XZeroBits; ///< launchBlockXZeroBits, once known
  };
  /// One launch of a kernel: the caller, the point, the arguments.
  struct Launch {
    const clang::FunctionDecl *Kernel;
    const clang::FunctionDecl *Caller;
    const clang::Stmt *At;
    bool ThroughLauncher;
    llvm::SmallVector<const clang::Expr *, 8> Args; ///< in Caller, or null when Inner has it
    const clang::FunctionDecl *Launcher = nullptr;
    const clang::Stmt *InnerAt = nullptr;
    llvm::SmallVector<const clang::Expr *, 8> Inner;
  };
  void collect();
  /// The facts of the kernel \p Key (a canonical declaration) from its
  /// launches, worked out on first use; null when it has none.
  const KernelFacts *kernelFacts(const clang::FunctionDecl *Key);
  /// The block shapes of \p Kernel's uses: its own when it is a template
  /// specialization named by some use, else its pattern's; null if none.
  ShapeFacts *findShapes(const clang::FunctionDecl *Kernel);

public:
  /// Which variables a host body writes (LaunchFacts.cpp; public for the
  /// helpers there that read launch arguments).
  class WrittenVariables;

private:
  clang::ASTContext &Ctx;
  bool Collected = false;
  /// Kernels every launch of which this unit sees, and those launches, until
  /// kernelFacts moves them into Kernels.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Launch>> Pending;
  std::unique_ptr<WrittenVariables> Written;
  llvm::DenseMap<const clang::FunctionDecl *, KernelFacts> Kernels;
  llvm::DenseMap<const clang::FunctionDecl *, ShapeFacts> Shapes;
};

} // namespace warp_tidy

#endif
