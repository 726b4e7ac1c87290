//===--- StmtReachability.cpp - Can one statement run after another? ------===//

#include "ast/StmtReachability.h"
#include "ast/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace warp_tidy {

CfgPosition positionIn(const CFGBlock *B, const Stmt *S) {
  unsigned I = 0;
  for (const CFGElement &E : *B) {
    if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>(); CS && CS->getStmt() == S)
      return {B, I};
    ++I;
  }
  return {B, I};
}

namespace {

/// For a `for` loop whose counter starts at a constant and whose test
/// compares it with a constant: does the first test hold?
std::optional<bool> firstTestHolds(const ForStmt *For, const ASTContext &Ctx) {
  const VarDecl *Counter = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()); DS && DS->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = Counter ? Counter->getInit() : nullptr;
  }
  const auto *Test = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Counter || !Test || !Test->isComparisonOp())
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(Test->getLHS()->IgnoreParenImpCasts());
  std::optional<int64_t> First = integerConstant(Start, Ctx);
  std::optional<int64_t> Bound = integerConstant(Test->getRHS(), Ctx);
  if (!Ref || Ref->getDecl() != Counter || !First || !Bound)
    return std::nullopt;
  return compareIntegers(Test->getOpcode(), *First, *Bound);
}

bool holdsStmt(const CFGBlock *B, const Stmt *S) {
  return S && llvm::any_of(*B, [&](const CFGElement &E) {
           std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
           return CS && CS->getStmt() == S;
         });
}

/// The successors of \p B a path arriving from \p Pred can take: only the
/// body of a `for` loop whose first test holds, when \p Pred is not the
/// loop's increment (the path enters the loop for the first time).
llvm::SmallVector<const CFGBlock *, 2> successorsFrom(const CFGBlock *B, const CFGBlock *Pred,
                                                      const ASTContext &Ctx) {
  llvm::SmallVector<const CFGBlock *, 2> Out;
  const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
  // Without an increment, the way around the loop is not told apart from
  // the way in: no rule then.
  if (For && For->getInc() && B->succ_size() == 2 && Pred && !holdsStmt(Pred, For->getInc())) {
    std::optional<bool> Holds = firstTestHolds(For, Ctx);
    if (Holds) {
      Out.push_back(*(B->succ_begin() + (*Holds ? 0 : 1)));
      return Out;
    }
  }
  Out.append(B->succ_begin(), B->succ_end());
  return Out;
}

} // namespace

bool reachesAvoiding(const ASTContext &Ctx, unsigned NumBlocks, CfgPosition From, CfgPosition To,
                     llvm::ArrayRef<CfgPosition> Kills) {
  // Is a kill in block B strictly between indices Lo and Hi?
  auto KilledBetween = [&](const CFGBlock *B, unsigned Lo, unsigned Hi) {
    return llvm::any_of(
        Kills, [&](const CfgPosition &K) { return K.Block == B && K.Index > Lo && K.Index < Hi; });
  };
  if (From.Block == To.Block && From.Index < To.Index)
    return !KilledBetween(From.Block, From.Index, To.Index);
  if (KilledBetween(From.Block, From.Index, ~0u))
    return false; // killed before leaving From's block
  // Every other path leaves From's block and enters To's at its start. A
  // block is visited once per predecessor kind: a loop header reached from
  // outside may allow fewer edges than one reached around the loop.
  llvm::BitVector Seen(2 * NumBlocks);
  llvm::SmallVector<std::pair<const CFGBlock *, const CFGBlock *>, 16> Work;
  for (const CFGBlock *S : From.Block->succs())
    Work.push_back({S, From.Block});
  while (!Work.empty()) {
    auto [B, Pred] = Work.pop_back_val();
    if (!B)
      continue;
    const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
    bool Around = For && holdsStmt(Pred, For->getInc());
    unsigned Slot = 2 * B->getBlockID() + (Around ? 1 : 0);
    if (Seen.test(Slot))
      continue;
    Seen.set(Slot);
    if (B == To.Block) {
      if (!llvm::any_of(Kills,
                        [&](const CfgPosition &K) { return K.Block == B && K.Index < To.Index; }))
        return true;
      continue; // every way into To passes a kill first
    }
    if (llvm::any_of(Kills, [&](const CfgPosition &K) { return K.Block == B; }))
      continue;
    for (const CFGBlock *S : successorsFrom(B, Pred, Ctx))
      Work.push_back({S, B});
  }
  return false;
}

llvm::BitVector liveBlocks(const CFG &Cfg, const ASTContext &Ctx) {
  llvm::BitVector Live(Cfg.getNumBlockIDs());
  llvm::SmallVector<std::pair<const CFGBlock *, const CFGBlock *>, 16> Work = {
      {&Cfg.getEntry(), nullptr}};
  // A block is expanded once per way in: from outside its loop, or around.
  llvm::BitVector Seen(2 * Cfg.getNumBlockIDs());
  while (!Work.empty()) {
    auto [B, Pred] = Work.pop_back_val();
    if (!B)
      continue;
    const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
    bool Around = For && Pred && holdsStmt(Pred, For->getInc());
    unsigned Slot = 2 * B->getBlockID() + (Around ? 1 : 0);
    if (Seen.test(Slot))
      continue;
    Seen.set(Slot);
    Live.set(B->getBlockID());
    for (const CFGBlock *S : successorsFrom(B, Pred, Ctx))
      Work.push_back({S, B});
  }
  return Live;
}

struct StmtReachability::Graph {
  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<CFGStmtMap> Blocks;
};

StmtReachability::StmtReachability(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}

StmtReachability::~StmtReachability() = default;

CfgPosition StmtReachability::locate(const Stmt *S) const {
  const CFGBlock *B = G->Blocks->getBlock(S);
  if (!B)
    return {};
  for (const Stmt *P = S; P; P = G->Parents->getParent(P)) {
    CfgPosition Pos = positionIn(B, P);
    if (Pos.Index < B->size())
      return Pos;
  }
  return {B, static_cast<unsigned>(B->size())};
}

bool StmtReachability::mayFollow(const Stmt *From, const Stmt *To,
                                 llvm::ArrayRef<const Stmt *> Kills) {
  if (!Built) {
    Built = true;
    Stmt *Body = FD->getBody();
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    // Edges a constant condition never takes are not paths.
    Options.PruneTriviallyFalseEdges = true;
    auto Fresh = std::make_unique<Graph>();
    Fresh->Cfg = CFG::buildCFG(FD, Body, &Ctx, Options);
    if (Fresh->Cfg) {
      Fresh->Parents = std::make_unique<ParentMap>(Body);
      Fresh->Blocks = std::make_unique<CFGStmtMap>(*Fresh->Cfg, *Fresh->Parents);
      G = std::move(Fresh);
    }
  }
  if (!G)
    return true;
  CfgPosition A = locate(From), B = locate(To);
  if (!A.Block || !B.Block)
    return true;
  llvm::SmallVector<CfgPosition, 4> KillAt;
  for (const Stmt *K : Kills)
    if (CfgPosition P = locate(K); P.Block)
      KillAt.push_back(P);
  // One element holding both (a lambda's body, an expression the CFG keeps
  // whole): source order, which the caller already checked.
  if (A.Block == B.Block && A.Index == B.Index)
    return true;
  return reachesAvoiding(Ctx, G->Cfg->getNumBlockIDs(), A, B, KillAt);
}

} // namespace warp_tidy
