//===--- WarpCollective.h - One view of a collective, call or inline PTX --===//
//
// A warp collective reaches the checks in two spellings: a call of a CUDA
// intrinsic (`__shfl_xor_sync(m, v, 16)`, CollectiveCalls.h) or an inline
// `asm` statement whose template holds the PTX instruction
// (`shfl.sync.bfly.b32 %0, %1, 16, 0x1f, -1;`, InlinePtx.h). A check that
// judges a kind of collective asks for this view and gets the same facts
// from either: the intrinsic (or the intrinsic with the same semantics), the
// mask, value, lane/delta and width operands, each an expression of the
// program or an immediate written in the PTX template.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_WARPCOLLECTIVE_H
#define WARP_TIDY_ANALYSIS_WARPCOLLECTIVE_H

#include "intrinsics/WarpIntrinsics.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class GCCAsmStmt;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// An operand of a collective: an expression of the program (a call
/// argument, an asm statement's operand) or an immediate of a PTX template.
struct CollectiveOperand {
  const clang::Expr *E = nullptr;
  std::optional<int64_t> Immediate;

  bool present() const { return E || Immediate; }
  /// The immediate, or the expression folded to a constant (as written,
  /// before conversions); std::nullopt when neither is known.
  std::optional<int64_t> constant(const clang::ASTContext &Ctx) const;
};

/// A warp collective at one statement.
struct WarpCollective {
  /// The CallExpr or the GCCAsmStmt.
  const clang::Stmt *At = nullptr;
  /// The intrinsic called, or for inline PTX the one with the same semantics
  /// and architecture needs (shfl.sync.bfly: __shfl_xor_sync).
  const WarpIntrinsic *Intrinsic = nullptr;
  /// For inline PTX: the instruction as written ("shfl.sync.bfly.b32").
  std::string PtxInstruction;
  CollectiveOperand Mask;
  CollectiveOperand Value;
  CollectiveOperand LaneOrDelta;
  /// For inline PTX: the operand the result is written to (`d`).
  CollectiveOperand Destination;
  /// A call's `width` argument (defaulted ones included).
  CollectiveOperand Width;
  /// shfl.sync's `c` operand: clamp value and segment mask, which encodes
  /// the width (InlinePtx.h: shuffleWidthFromControl).
  CollectiveOperand ShuffleControl;
  /// For inline PTX: the mask is a register an `activemask` earlier in the
  /// same template wrote.
  bool MaskFromActivemaskInTemplate = false;
  /// The PTX instruction has a guard predicate (`@p`) inside the template.
  bool GuardedInTemplate = false;
  /// The mask was not written (`__syncwarp()`) or the collective is
  /// implicitly warp-wide (wmma, tiles).
  bool ImplicitFullMask = false;

  bool isInlinePtx() const { return !PtxInstruction.empty(); }
  const clang::CallExpr *call() const;
  const clang::GCCAsmStmt *asmStmt() const;
  /// How messages name it: "__shfl_xor_sync", or "inline PTX
  /// 'shfl.sync.bfly.b32'".
  std::string displayName() const;
  /// The mask's value when an immediate, a constant expression or a local
  /// initialised with one and never written (resolveMaskConstant()).
  std::optional<uint32_t> maskConstant(const clang::ASTContext &Ctx) const;
  /// Where the mask is written: its expression, or for an immediate the
  /// template; the statement when the mask is implicit.
  clang::SourceLocation maskLoc() const;
  clang::SourceRange maskRange() const;
  /// Where an operand is written (as maskLoc, for any operand).
  clang::SourceLocation operandLoc(const CollectiveOperand &Op) const;
};

/// Every warp collective at \p S: one for a call of an intrinsic, one per
/// recognised instruction for an inline asm statement, none otherwise.
llvm::SmallVector<WarpCollective, 1> warpCollectivesAt(const clang::Stmt *S);

/// The first warp collective at \p S (a statement's one collective in all
/// but unusual templates); std::nullopt when there is none.
std::optional<WarpCollective> warpCollectiveAt(const clang::Stmt *S);

/// The first collective of an asm statement that is not __activemask (the
/// instruction that needs converged lanes), if any.
std::optional<WarpCollective> asmCollectiveNeedingLanes(const clang::GCCAsmStmt *Asm);

/// True when output \p OutputIndex of \p Asm is the destination of a PTX
/// collective whose result is the same in every participating lane (a
/// vote, a ballot, a reduction, match.all), as the value analysis treats
/// the intrinsics' results.
bool inlinePtxResultIsWarpUniform(const clang::GCCAsmStmt *Asm, unsigned OutputIndex);

} // namespace warp_tidy

#endif
