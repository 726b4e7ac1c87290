//===--- SymbolicTranslation.h - clang expressions as symbolic terms -------===//
//
// Writes an integer (or boolean) clang expression as a Term (SymbolicTerm.h)
// with C's semantics: the width and signedness of each operation come from
// its clang type, implicit conversions become extensions and truncations,
// `&&`/`||`/`!`/`?:` become bit operations and selects.
//
// What a variable or a call stands for is not the translator's business: it
// asks a SymbolicEnvironment (the uniformity analysis knows each local's
// definitions, loop updates and whether a value is warp-uniform). Whatever
// neither can see through becomes a leaf: uniform when the environment says
// every lane holds the same value, per-lane otherwise. A read of memory the
// environment calls unchanging, at a lane-dependent address, is a Load of
// its address (pointer arithmetic, element sizes and field offsets from the
// AST's layout), so lanes that share an address share the value.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SYMBOLICTRANSLATION_H
#define WARP_TIDY_ANALYSIS_SYMBOLICTRANSLATION_H

#include "symbolic/SymbolicTerm.h"
#include "clang/AST/OperationKinds.h"

namespace clang {
class ASTContext;
class CallExpr;
class CompoundAssignOperator;
class Expr;
class MemberExpr;
class QualType;
class VarDecl;
} // namespace clang

namespace warp_tidy {

class SymbolicTranslator;

class SymbolicEnvironment {
public:
  virtual ~SymbolicEnvironment();
  /// The term a read of \p V stands for here; null to let the translator
  /// make a leaf of \p Ref (uniform when isUniform(Ref)).
  virtual TermRef variable(const clang::VarDecl *V, const clang::Expr *Ref,
                           SymbolicTranslator &T) = 0;
  /// The term the call's result stands for; null for a leaf.
  virtual TermRef call(const clang::CallExpr *Call, SymbolicTranslator &T) = 0;
  /// The term a read of a field stands for; null for a leaf.
  virtual TermRef field(const clang::MemberExpr *Read, SymbolicTranslator &T) { return nullptr; }
  /// Whether every lane of a warp holds the same value of \p E here.
  virtual bool isUniform(const clang::Expr *E) = 0;
  /// Whether the memory the lvalue \p E reads cannot change while the
  /// function runs (MemoryWrites.h); then a read of it is a function of its
  /// address. No by default.
  virtual bool isUnchangingMemory(const clang::Expr *E) { return false; }
  /// What a read of unchanging memory at the lane-dependent \p Address
  /// stands for: by default a Load of it.
  virtual TermRef memoryValue(TermRef Address, unsigned Width, SymbolicTranslator &T);
  /// A key naming the program point leaves are taken at (two reads of the
  /// same variable at different points may differ).
  virtual const void *point() const = 0;
};

class SymbolicTranslator {
public:
  /// \p AlignedBlocks: blockDim.x is a multiple of 32 (AssumeWarpAlignedBlocks).
  SymbolicTranslator(clang::ASTContext &Ctx, TermBuilder &Terms, SymbolicEnvironment &Env,
                     bool AlignedBlocks)
      : Ctx(Ctx), Terms(Terms), Env(Env), AlignedBlocks(AlignedBlocks) {}

  /// The term of \p E (any type: a floating-point value is an opaque 64-bit
  /// term, equal in lanes that compute it from equal inputs; other
  /// non-integers become leaves).
  TermRef translate(const clang::Expr *E);
  /// A leaf for \p E, uniform or per-lane as the environment judges it.
  TermRef leaf(const clang::Expr *E);
  /// The value \p CAO stores (`v /= 32` is `v / 32`, \p CAO's left operand
  /// read as the environment sees it where the assignment is made).
  TermRef compoundAssignment(const clang::CompoundAssignOperator *CAO);

  TermBuilder &terms() { return Terms; }
  clang::ASTContext &context() { return Ctx; }
  /// The width a value of type \p T has in terms (64 for non-integers).
  unsigned widthOf(clang::QualType T) const;

private:
  TermRef translateInteger(const clang::Expr *E, unsigned Width);
  TermRef translateFloating(const clang::Expr *E);
  /// Operation \p Key (an opcode or cast kind of \p Family) applied to
  /// \p Operands: a pure function of them, nothing else known.
  TermRef opaque(const char *Family, unsigned Key, llvm::ArrayRef<TermRef> Operands,
                 unsigned Width);
  TermRef binaryOperator(const clang::Expr *E, unsigned Width);
  /// \p Op applied to \p A and \p B, the operands \p L and \p R of \p E
  /// already converted to \p Width bits.
  TermRef arithmetic(const clang::Expr *E, clang::BinaryOperatorKind Op, const clang::Expr *L,
                     const clang::Expr *R, TermRef A, TermRef B, unsigned Width, bool Signed,
                     bool NoWrap);
  TermRef blockBase(const clang::Expr *L, const clang::Expr *R, TermRef A, TermRef B,
                    unsigned Width);
  /// A read of unchanging memory at a lane-dependent address as a Load of
  /// that address; null when it is not one (the caller makes a leaf).
  TermRef memoryRead(const clang::Expr *LValue, unsigned Width);
  /// The address of the memory lvalue \p E (`p[i]`, `*q`, `p->f`,
  /// `a[i].f`), or of a pointer value, as a 64-bit term; null when it is not
  /// one whose layout is known.
  TermRef address(const clang::Expr *E);
  TermRef pointerValue(const clang::Expr *E);
  TermRef scaledIndex(const clang::Expr *Index, uint64_t Size);

  clang::ASTContext &Ctx;
  TermBuilder &Terms;
  SymbolicEnvironment &Env;
  bool AlignedBlocks;
  unsigned Depth = 0;
};

} // namespace warp_tidy

#endif
