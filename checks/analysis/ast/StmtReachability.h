//===--- StmtReachability.h - Can one statement run after another? --------===//
//
// Source order is not execution order: a value written in the `then` arm of
// an `if` never reaches a read in its `else` arm, and one written in a
// `switch` case never reaches the next case's statements (after a break).
// Analyses that pick "the last write before a read" ask this class whether
// the write can reach the read at all, over the function's CFG.
//
// The CFG is built on the first question only: most functions ask none.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_STMTREACHABILITY_H
#define WARP_TIDY_ANALYSIS_STMTREACHABILITY_H

#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

class StmtReachability {
public:
  StmtReachability(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  ~StmtReachability();
  StmtReachability(const StmtReachability &) = delete;
  StmtReachability &operator=(const StmtReachability &) = delete;

  /// May \p To run after \p From, on some path of the function? True when
  /// the CFG does not place either (a lambda's body, a CFG that could not be
  /// built): the caller falls back on source order. Both statements must be
  /// in the function's body, \p From before \p To in source order.
  bool mayFollow(const clang::Stmt *From, const clang::Stmt *To);

private:
  struct Graph;
  const clang::FunctionDecl *FD;
  clang::ASTContext &Ctx;
  std::unique_ptr<Graph> G; ///< Built on the first question.
  bool Built = false;
};

} // namespace warp_tidy

#endif
