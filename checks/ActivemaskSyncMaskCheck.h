//===--- ActivemaskSyncMaskCheck.h - warp-activemask-sync-mask ------------===//
//
// Flags a collective whose mask comes from __activemask(), directly or
// through a variable. __activemask() only reports which lanes happen to be
// converged at that instant; it does not make them converge, and lanes that
// are about to arrive are missing from it. The Programming Guide calls such
// a mask invalid; the idiom is __ballot_sync(0xffffffff, cond) computed by
// the whole warp before the branch. Inline PTX counts on both sides: an
// asm collective whose mask operand comes from __activemask(), a variable
// written by `asm("activemask.b32 %0;" : "=r"(m))`, and a template that
// feeds its own `activemask` register to its collective.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ACTIVEMASKSYNCMASKCHECK_H
#define WARP_TIDY_ACTIVEMASKSYNCMASKCHECK_H

#include "UniformityCheck.h"

namespace warp_tidy {

class ActivemaskSyncMaskCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkCall(const clang::CallExpr *Call, const clang::FunctionDecl *FD,
                 const clang::ast_matchers::MatchFinder::MatchResult &Result);
  void checkAsm(const clang::GCCAsmStmt *Asm, const clang::FunctionDecl *FD,
                const clang::ast_matchers::MatchFinder::MatchResult &Result);
  bool collectsWholeWarp(const clang::Stmt *At, const clang::Stmt *Source,
                         const clang::FunctionDecl *FD, clang::ASTContext &Ctx) const;
  /// Reports \p Mask of the collective at \p At (named \p Name) when it
  /// comes from __activemask(); \p Wrapper / \p Inside: the helper called
  /// at \p At and its collective, when the mask is the helper's parameter.
  void judgeMask(const clang::Stmt *At, const clang::Expr *Mask, std::string Name,
                 CollectiveKind Kind, const clang::FunctionDecl *Wrapper, const clang::Stmt *Inside,
                 const clang::FunctionDecl *FD,
                 const clang::ast_matchers::MatchFinder::MatchResult &Result);
};

} // namespace warp_tidy

#endif
