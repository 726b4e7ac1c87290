//===--- SymbolicView.h - What locals and helpers stand for, for the prover ===//
//
// Private to the uniformity analysis. The SymbolicEnvironment that
// SymbolicTranslator consults while it writes a branch condition as a term:
// a local with a single definition stands for that definition (read in the
// dataflow state where it was made), an induction variable whose writes run
// in lockstep for its initial value plus one uniform unknown per step, a
// `mov %laneid` local for the hardware lane, a helper that only returns an
// expression for that expression of its arguments, cooperative-groups ranks
// for their linear-thread-id arithmetic. Everything else is a leaf, uniform
// or per-lane as the value dataflow says.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_UNIFORMITY_SYMBOLICVIEW_H
#define WARP_TIDY_ANALYSIS_UNIFORMITY_SYMBOLICVIEW_H

#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "uniformity/FunctionAnalysis.h"
#include "llvm/ADT/DenseMap.h"

namespace warp_tidy {

struct FunctionUniformity::Impl::SymbolicView final : SymbolicEnvironment {
  SymbolicView(Impl &P, const State &S, const clang::Stmt *Point) : P(P), S(&S), Point(Point) {}
  Impl &P;
  const State *S;           ///< the dataflow state where leaves are read
  const clang::Stmt *Point; ///< names that place in leaf keys
  /// The question asked: the same in every lane of Group, for the
  /// condition of block ProvingBlock (see writesInLockstep).
  LaneGroup Group;
  unsigned ProvingBlock = ~0u;
  unsigned Inlining = 0;
  unsigned Substitutions = 0;
  unsigned FieldDepth = 0; ///< fields being read through their initialisers
  llvm::DenseMap<const clang::ParmVarDecl *, TermRef> Bindings;
  /// The const locals of the helper being inlined, by what their
  /// initialisers translate to (helperBody).
  llvm::DenseMap<const clang::VarDecl *, TermRef> HelperLocals;

  const void *point() const override { return Point; }

  bool isUniform(const clang::Expr *E) override;
  bool isUnchangingMemory(const clang::Expr *E) override;
  /// A load at an address that no two lanes of one group of the question
  /// can differ in is one value for the group: a uniform leaf named by the
  /// address and the point (then rounding and strides over it are seen as
  /// over any uniform bound); otherwise a Load.
  TermRef memoryValue(TermRef Address, unsigned Width, SymbolicTranslator &T) override;

  /// Translates \p E as it is evaluated at \p At (a statement of this
  /// function's CFG).
  TermRef translateAt(const clang::Expr *E, const clang::Stmt *At, SymbolicTranslator &T);

  TermRef variable(const clang::VarDecl *V, const clang::Expr *Ref, SymbolicTranslator &T) override;

  /// Init + the sum of the steps taken so far. Every lane of the warp took
  /// the same steps (they run in lockstep), so each step's total is one
  /// uniform unknown; it keeps the low zero bits every step has (a sum of
  /// multiples of 32 is a multiple of 32).
  TermRef inductionValue(const clang::VarDecl *V, const Induction &I, unsigned W,
                         SymbolicTranslator &T);

  TermRef call(const clang::CallExpr *Call, SymbolicTranslator &T) override;

  /// A call whose result depends on its arguments alone, whatever its body
  /// (the callee reads no thread-varying source and runs no collective):
  /// lanes that pass equal arguments get equal results, so the call is that
  /// function applied to the translated arguments (TermBuilder::apply). A
  /// hash of a tile-uniform key, a score read at a tile-uniform index.
  /// Null for member calls (their object is state the terms cannot hold).
  TermRef application(const clang::CallExpr *Call, SymbolicTranslator &T);

  /// The value \p Call returns, or with \p Field the value of that field of
  /// the aggregate it returns (`return uint2{tidx / N, tidx % N};`), for a
  /// helper whose body is const locals and one return (helperBody): the
  /// helper's expression with the call's arguments bound. Null otherwise.
  TermRef inlineHelper(const clang::CallExpr *Call, const clang::FieldDecl *Field,
                       SymbolicTranslator &T);

  /// `k_idx.x` for a local aggregate `k_idx` defined once, by a braced list
  /// or by a call inlineHelper can see through: that field's value.
  TermRef localAggregateField(const clang::MemberExpr *Read, SymbolicTranslator &T);

  /// A field of `this` that holds its constructor's value
  /// (FieldConstruction.h) stands for that value when it is a function of
  /// the thread alone.
  TermRef field(const clang::MemberExpr *Read, SymbolicTranslator &T) override;

  TermRef linearThreadId(TermBuilder &Terms);
};

} // namespace warp_tidy

#endif // WARP_TIDY_ANALYSIS_UNIFORMITY_SYMBOLICVIEW_H
