//===--- FieldConstruction.h - Fields that keep their constructor's value -===//
//
// Warp code often keeps a lane mask or a lane id in a field set once, in
// the constructor's member initialisers, and read by the methods (CUB's
// WarpReduceShfl: `member_mask((0xffffffff >> (32 - W)) << (LaneId() / W))`,
// then `"r"(member_mask)` in its shuffles). Inside a method that field holds
// what the constructor computed, in the same thread, when:
//
//   * every constructor of the class that is not a copy or a move (those
//     copy the value of another object built the same way) initialises it
//     in its member initialisers, all with the same expression;
//   * that expression is a function of the thread alone: constants
//     (literals, enumerators, template arguments, constexpr values), the
//     builtin thread and block indices, and calls without arguments of
//     free functions (the lane helpers, `LaneId()`), and fields initialised
//     before it that hold such a value themselves (CUB's fixed
//     `member_mask`, computed from `lane_id`); no constructor parameter, no
//     other field, no global;
//   * nothing in the translation unit's code stores into the field after
//     construction (an assignment, ++/--, its address taken, a non-const
//     reference bound to it, an asm output: LocalWrites' forEachStore), in a
//     method or anywhere else (the field may be public), counting any
//     dependent member store of that name in a template.
//
// Then a read of the field through `this` can stand for the expression.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_FIELDCONSTRUCTION_H
#define WARP_TIDY_ANALYSIS_FIELDCONSTRUCTION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace clang {
class ASTContext;
class Expr;
class FieldDecl;
class MemberExpr;
} // namespace clang

namespace warp_tidy {

/// Which fields the code of one translation unit stores into outside the
/// member initialisers. One scan of the unit's function bodies (template
/// instantiations included, system headers not), made on first use.
class FieldStores {
public:
  /// The stores of \p Ctx's unit, kept in its UnitContext.
  static FieldStores &of(clang::ASTContext &Ctx);

  explicit FieldStores(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  bool isStoredInto(const clang::FieldDecl *F);

private:
  void collect();
  clang::ASTContext &Ctx;
  bool Collected = false;
  llvm::DenseSet<const clang::FieldDecl *> Stored;
  llvm::StringSet<> StoredByName; ///< dependent member stores in templates
};

/// The expression every constructor initialises \p F with, when a read of
/// \p F through `this` in a method stands for it (see the file comment);
/// null otherwise.
const clang::Expr *constructionValue(const clang::FieldDecl *F, FieldStores &Stores);

/// \p Read's field, when \p Read reads a field of `this` (`member_mask`,
/// `this->member_mask`).
const clang::FieldDecl *fieldOfThis(const clang::MemberExpr *Read);

/// \p E with the arms of `?:` whose condition is a constant taken (CUB's
/// `IS_ARCH_WARP ? 0xffffffff : ...` in one instantiation): where a note
/// should point.
const clang::Expr *selectedArm(const clang::Expr *E, const clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
