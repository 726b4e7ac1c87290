//===--- Barriers.cpp - Statements that order the memory of a block -------===//

#include "intrinsics/Barriers.h"
#include "ast/AstQueries.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace warp_tidy {

static bool isBarrierName(const FunctionDecl *Callee) {
  if (!Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  if (Name.starts_with("__syncthreads") || Name == "__barrier_sync" || Name == "__syncwarp" ||
      Name.starts_with("__nvvm_bar"))
    return true;
  // cooperative_groups: `block.sync()`, `tile.sync()`, `cg::sync(group)`.
  return Name == "sync";
}

bool isBarrier(const Stmt *S) {
  if (const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(S)) {
    std::string AsmText = Asm->getAsmString();
    llvm::StringRef Text = AsmText;
    return Text.contains("bar.sync") || Text.contains("barrier.sync") ||
           Text.contains("bar.warp.sync");
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !isBarrierName(Callee))
    return false;
  return Callee->getBuiltinID() != 0 || isToolchainDeclaration(Callee);
}

} // namespace warp_tidy
