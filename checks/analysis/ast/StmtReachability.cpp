//===--- StmtReachability.cpp - Can one statement run after another? ------===//

#include "ast/StmtReachability.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/CFGReachabilityAnalysis.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"

using namespace clang;

namespace warp_tidy {

struct StmtReachability::Graph {
  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<CFGStmtMap> Blocks;
  std::unique_ptr<CFGReverseBlockReachabilityAnalysis> Reach;
};

StmtReachability::StmtReachability(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}

StmtReachability::~StmtReachability() = default;

bool StmtReachability::mayFollow(const Stmt *From, const Stmt *To) {
  if (!Built) {
    Built = true;
    Stmt *Body = FD->getBody();
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    // Edges a constant condition never takes are not paths; an `if
    // constexpr` arm that was discarded is not code either.
    Options.PruneTriviallyFalseEdges = true;
    auto Fresh = std::make_unique<Graph>();
    Fresh->Cfg = CFG::buildCFG(FD, Body, &Ctx, Options);
    if (Fresh->Cfg) {
      Fresh->Parents = std::make_unique<ParentMap>(Body);
      Fresh->Blocks = std::make_unique<CFGStmtMap>(*Fresh->Cfg, *Fresh->Parents);
      Fresh->Reach = std::make_unique<CFGReverseBlockReachabilityAnalysis>(*Fresh->Cfg);
      G = std::move(Fresh);
    }
  }
  if (!G)
    return true;
  const CFGBlock *A = G->Blocks->getBlock(From);
  const CFGBlock *B = G->Blocks->getBlock(To);
  if (!A || !B || A == B)
    return true; // one block: source order holds
  return G->Reach->isReachable(A, B);
}

} // namespace warp_tidy
