//===--- LocalWrites.h - Which locals are written after their initialiser -===//
//
// Many questions about a local variable reduce to "does it still hold its
// initialiser wherever it is read?": a lane id kept in `lane`, a mask kept in
// `mask`, a parameter a helper never changes. This file answers them with one
// scan of a function body. The per-body results are kept in the unit's
// UnitContext (localWritesOfBody), so every check and the uniformity analysis
// share one scan per body, and a later translation unit of the same process
// (clangd, the clang-tidy plugin) can never be answered from a stale one.
//
// A write is anything that may change the variable after its declaration: an
// assignment (also to a field or an element of a local array), ++/--, taking
// its address, binding it to a non-const reference (a reference local, a
// reference parameter of a call, including a member operator's), or an inline
// asm output. Discarded `if constexpr` branches are not code and are skipped.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LOCALWRITES_H
#define WARP_TIDY_ANALYSIS_LOCALWRITES_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang {
class BinaryOperator;
class CallExpr;
class DeclRefExpr;
class GCCAsmStmt;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace warp_tidy {

/// A PTX special register of the lane's position that inline asm can copy
/// into a local: %laneid, and the masks of the lanes below, at or below,
/// above, at or above, and at the lane (%lanemask_lt ... %lanemask_eq).
enum class LaneRegister { LaneId, MaskLt, MaskLe, MaskGt, MaskGe, MaskEq };

/// The writes of the local variables and parameters of one function body.
class LocalWriteFacts {
public:
  /// Scans \p Body once.
  explicit LocalWriteFacts(const clang::Stmt *Body);

  /// Writes of \p V other than its initialiser, not counting the asm outputs
  /// that make it a lane register (see isLaneRegister).
  unsigned writesAfterInit(const clang::VarDecl *V) const;
  bool isWrittenAfterInit(const clang::VarDecl *V) const { return writesAfterInit(V) != 0; }

  /// True when \p V has no initialiser and is filled by inline asm reading
  /// the `%laneid` special register (`asm("mov.u32 %0, %%laneid;" : "=r"(v))`).
  /// It holds the hardware lane id wherever it is read only when it has no
  /// other write too (!isWrittenAfterInit).
  bool isLaneRegisterOutput(const clang::VarDecl *V) const;
  /// The special register inline asm fills \p V with, as for
  /// isLaneRegisterOutput (`%%lanemask_lt` too); none when V is no such
  /// output or two registers are written to it.
  std::optional<LaneRegister> laneRegisterOutput(const clang::VarDecl *V) const;

  /// The initialiser of \p V when it is a local (not a parameter, not
  /// static) with an initialiser and no other write; null otherwise.
  const clang::Expr *singleDefinition(const clang::VarDecl *V) const;

  /// The value \p V holds where \p Read reads it, when that is its
  /// initialiser: the single definition, or the initialiser of a local
  /// written later when every write comes after \p Read in the body and
  /// no loop or lambda around \p Read leaves out V's declaration (`int tid
  /// = ...; int lane = tid & 31; ... tid = ...`). Null otherwise, and for
  /// references and bodies with goto.
  const clang::Expr *initialiserAt(const clang::VarDecl *V, const clang::DeclRefExpr *Read) const;

  /// The value of a local declared without an initialiser and written once,
  /// by a plain assignment (`int lane; ... lane = tid & 31;`): its right-hand
  /// side. A read the assignment does not reach finds no defined value, so
  /// that value is the only one any read can see. Null when the assignment
  /// may run again after a read (a loop or lambda around it leaves out V's
  /// declaration), for references, class types and bodies with goto.
  const clang::Expr *onlyAssignedValue(const clang::VarDecl *V) const;

private:
  struct VarWrites {
    unsigned Writes = 0;
    /// The last plain `V = value` seen, and how many there are.
    const clang::BinaryOperator *Assignment = nullptr;
    unsigned PlainAssignments = 0;
    unsigned LaneRegisterWrites = 0;
    LaneRegister Register = LaneRegister::LaneId; ///< of the LaneRegisterWrites
    /// Where each write (other than a lane register's) begins.
    llvm::SmallVector<clang::SourceLocation, 2> Sites;
  };
  llvm::DenseMap<const clang::VarDecl *, VarWrites> ByVar;
  /// Loops and lambdas of the body: code in them may run again after code
  /// that follows it in the text.
  std::vector<clang::SourceRange> RepeatingScopes;
  bool HasJumps = false;
};

/// Calls \p OnStore(lvalue, asm, output) for every lvalue \p S may store
/// into (the writes of the file comment, whatever the lvalue's root): an
/// assignment's or ++/--'s operand, an address taken, an initialiser bound
/// to a non-const reference, an argument bound to a non-const reference
/// parameter (except those of \p ReadOnlyCall), and each output of an
/// inline asm (then \p asm is the statement and \p output the index).
void forEachStore(
    const clang::Stmt *S, const clang::CallExpr *ReadOnlyCall,
    llvm::function_ref<void(const clang::Expr *, const clang::GCCAsmStmt *, unsigned)> OnStore);

/// The local variable or parameter an lvalue stores into: `x`, `s.f`,
/// `a[i]` (a local array) all store into their root variable; null for a
/// store through a pointer or into a global.
const clang::VarDecl *storedLocal(const clang::Expr *LValue);

/// The facts of \p FD's body (it must have one), scanned once per unit.
const LocalWriteFacts &localWritesOfBody(const clang::FunctionDecl *FD);

/// Whether a call of \p Callee may change the argument it binds to parameter
/// \p Index (a non-const reference): true unless the callee's definition is
/// seen and its body never writes the parameter (in the sense above, so
/// passing it on by non-const reference counts as a write). A getter that
/// takes its index as `T &` (GpuBTree's `getAddressPtr(AddressT &)`) leaves
/// the caller's variable as it was.
bool callMayWriteReferenceParameter(const clang::FunctionDecl *Callee, unsigned Index);

/// The facts of the body \p V belongs to, from its translation unit's cache;
/// null when \p V is not a local or parameter of a function with a body.
const LocalWriteFacts *localWritesOf(const clang::VarDecl *V);

/// The initialiser of \p V when it is a local never written after it (see
/// LocalWriteFacts::singleDefinition), from the cached facts.
const clang::Expr *singleAssignmentInit(const clang::VarDecl *V);

/// LocalWriteFacts::initialiserAt for the variable \p Read names, from the
/// cached facts.
const clang::Expr *initialiserReadAt(const clang::DeclRefExpr *Read);

/// LocalWriteFacts::onlyAssignedValue, from the cached facts.
const clang::Expr *onlyAssignedValue(const clang::VarDecl *V);

/// True when \p Var is never written (in the sense above) within \p Scope,
/// a statement of its function, e.g. a loop body: one uncached scan of that
/// statement. The reference parameters of \p ReadOnlyCall, when given, are
/// known not to be written (a launcher that only forwards its arguments to a
/// kernel, whose parameters are values).
bool isNeverWrittenIn(const clang::VarDecl *Var, const clang::Stmt *Scope,
                      const clang::CallExpr *ReadOnlyCall = nullptr);

/// Every variable isNeverWrittenIn(V, \p Scope, \p ReadOnlyCall) is false
/// for, from one scan: for a caller that asks about many variables of one
/// scope.
llvm::DenseSet<const clang::VarDecl *> writtenIn(const clang::Stmt *Scope,
                                                 const clang::CallExpr *ReadOnlyCall = nullptr);

} // namespace warp_tidy

#endif
