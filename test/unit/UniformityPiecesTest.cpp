// Unit tests for the pieces of the uniformity analysis, one group per file
// under checks/analysis/uniformity/: each runs FunctionUniformity::Impl on a
// small CUDA snippet and asserts what that piece computed (local facts,
// divergent branches, ValueDeps, butterflies, prover answers, index forms,
// lane sets, sites, summaries). UniformityTest covers the public interface.
#include "CudaTestUnits.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

// Stand-ins for the intrinsics (CudaTestUnits.h).
const std::string Prelude = test::cudaStandIns(R"cuda(
__device__ int __shfl_sync(unsigned, int, int, int = 32);
__device__ int __shfl_xor_sync(unsigned, int, int, int = 32);
__device__ int __shfl_down_sync(unsigned, int, unsigned, int = 32);
__device__ void __syncwarp(unsigned = 0xffffffff);
)cuda",
                                               R"cuda(__device__ void use(int);
#define FULL 0xffffffffu
)cuda");

/// Everything of interest in one function, in source order.
struct Collected : RecursiveASTVisitor<Collected> {
  std::vector<const CallExpr *> Uses; // `use(x)` calls
  std::vector<const IfStmt *> Ifs;
  std::vector<const ForStmt *> Fors;
  std::map<std::string, const VarDecl *> Vars;
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      if (F->getIdentifier() && F->getName() == "use")
        Uses.push_back(C);
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    Ifs.push_back(S);
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    Fors.push_back(S);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->getIdentifier())
      Vars[V->getName().str()] = V;
    return true;
  }
};

struct Fixture {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *FD = nullptr;
  std::unique_ptr<FunctionUniformity::Impl> P;
  Collected C;

  WarpAnalysisCache &cache() { return WarpAnalysisCache::get(AST->getASTContext(), {}); }
  const FunctionDecl *function(llvm::StringRef Name) {
    return test::findFunction(AST->getASTContext(), Name);
  }
  unsigned blockOf(const Stmt *S) const { return P->BlockOf.lookup(S)->getBlockID(); }
  /// ValueDeps of the argument of the \p I-th `use(x)` where it is called.
  ValueDeps useDeps(unsigned I) {
    std::optional<FunctionUniformity::Impl::State> S = P->stateBefore(C.Uses[I]);
    EXPECT_TRUE(S.has_value());
    return S ? P->deps(C.Uses[I]->getArg(0), *S) : ThreadVarying;
  }
  /// The dataflow state at the end of branch block \p ID (where its
  /// condition is evaluated).
  FunctionUniformity::Impl::State stateAtBranch(unsigned ID) {
    return P->transferBlock(P->blockByID(ID), P->In[ID]);
  }
};

/// Parses \p Code and runs the per-function analysis on \p Name.
std::unique_ptr<Fixture> analyse(const std::string &Code, llvm::StringRef Name) {
  auto F = std::make_unique<Fixture>();
  F->AST = test::parseCudaUnit(Prelude + Code);
  F->FD = F->function(Name);
  if (!F->FD)
    return nullptr;
  F->P = std::make_unique<FunctionUniformity::Impl>(F->cache(), F->FD);
  if (!F->P->run())
    return nullptr;
  F->C.TraverseDecl(const_cast<FunctionDecl *>(F->FD));
  return F;
}

} // namespace

// LocalVariables.cpp: aliases, single definitions, writes, %laneid locals.
TEST(UniformityPieces, LocalVariables) {
  auto F = analyse(R"cuda(
    __global__ void k() {
      int a = threadIdx.x;
      int b = 0;
      b += 1;
      const int &r = a;
      unsigned l;
      asm("mov.u32 %0, %%laneid;" : "=r"(l));
      use(a); use(b); use(r); use(l);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  const VarDecl *A = F->C.Vars["a"], *B = F->C.Vars["b"], *R = F->C.Vars["r"], *L = F->C.Vars["l"];
  ASSERT_TRUE(A && B && R && L);
  EXPECT_EQ(F->P->resolve(R), A);
  EXPECT_EQ(F->P->resolve(A), A);
  ASSERT_NE(F->P->singleDefinition(A), nullptr);
  EXPECT_EQ(F->P->singleDefinition(A), A->getInit());
  EXPECT_EQ(F->P->singleDefinition(B), nullptr);
  EXPECT_TRUE(F->P->isMutated(B));
  EXPECT_FALSE(F->P->isMutated(A));
  EXPECT_TRUE(F->P->isAsmLaneVar(L));
  EXPECT_FALSE(F->P->isAsmLaneVar(A));
}

// ControlDivergence.cpp: divergent branches, early exits, sources.
TEST(UniformityPieces, ControlDivergence) {
  auto F = analyse(R"cuda(
    __global__ void k(int *p) {
      if (threadIdx.x < 5)
        return;
      if (blockIdx.x == 0)
        p[0] = 1;
      if (threadIdx.x & 1)
        p[1] = 2;
      use(0);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Ifs.size(), 3u);
  unsigned Exit = F->blockOf(F->C.Ifs[0]), Uniform = F->blockOf(F->C.Ifs[1]),
           Rejoin = F->blockOf(F->C.Ifs[2]);
  EXPECT_TRUE(F->P->Divergent.test(Exit));
  EXPECT_TRUE(F->P->ExitKind.test(Exit));
  EXPECT_TRUE(F->P->isExitBranch(F->P->blockByID(Exit)));
  EXPECT_FALSE(F->P->Divergent.test(Uniform));
  EXPECT_TRUE(F->P->Divergent.test(Rejoin));
  EXPECT_FALSE(F->P->ExitKind.test(Rejoin));
  EXPECT_FALSE(F->P->isExitBranch(F->P->blockByID(Rejoin)));
  // After the early exit only the lanes that stayed reach use(0).
  bool DataDecided = true;
  auto Sources = F->P->sourcesFor(F->P->BlockOf.lookup(F->C.Uses[0]), DataDecided);
  ASSERT_EQ(Sources.size(), 1u);
  EXPECT_EQ(Sources[0].Kind, DivergenceSource::EarlyExit);
  EXPECT_EQ(Sources[0].Terminator, F->C.Ifs[0]);
  EXPECT_TRUE(Sources[0].LaneComparison);
  EXPECT_FALSE(DataDecided);
}

// ValueAnalysis.cpp: ValueDeps sources, parameters, sync dependence.
TEST(UniformityPieces, ValueAnalysis) {
  auto F = analyse(R"cuda(
    __device__ void h(int x, int y) {
      int a = x + 1;
      int b = threadIdx.x;
      int c = blockIdx.x;
      int d = 0;
      if (threadIdx.x < 3)
        d = 1;
      use(a); use(b); use(c); use(d); use(y);
    })cuda",
                   "h");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Uses.size(), 5u);
  EXPECT_EQ(F->useDeps(0), parameterDep(0));
  EXPECT_EQ(F->useDeps(1), ThreadVarying);
  EXPECT_EQ(F->useDeps(2), ValueDeps(0));
  EXPECT_EQ(F->useDeps(3), ThreadVarying); // assigned under a divergent branch
  EXPECT_EQ(F->useDeps(4), parameterDep(1));
}

// ControlDivergence.cpp: the control dependences, computed for all blocks
// at once from the post-dominator tree, are the iterated post-dominance
// frontiers clang's ControlDependencyCalculator gives block by block, on
// control flow with loops, early exits, breaks, gotos, a switch and a loop
// that never reaches the exit.
TEST(UniformityPieces, ControlDependencesMatchClang) {
  const char *Code = R"cuda(
    __device__ void g(int *p, int n) {
      for (int i = 0; i < n; ++i) {
        if (p[i] < 0)
          continue;
        if (p[i] == 7)
          break;
        while (p[i] > threadIdx.x) {
          if (p[i] == 3)
            return;
          --p[i];
        }
      }
      switch (p[0]) {
      case 0: use(1); break;
      case 1: use(2);
      case 2: use(3); break;
      default:
        if (n) goto out;
      }
      do {
        use(4);
        if (p[1]) goto again;
      } while (p[2]);
    again:
      if (n > 3)
        for (;;)
          if (p[3]) use(5);
    out:
      use(n ? 6 : 7);
    }
    __device__ void h(int n) {
      while (true) {
        if (n) use(1);
      }
    })cuda";
  for (llvm::StringRef Name : {"g", "h"}) {
    auto F = analyse(Code, Name);
    ASSERT_TRUE(F) << Name.str();
    ControlDependencyCalculator Calc(F->P->Cfg.get());
    unsigned Dependences = 0;
    for (CFGBlock *B : *F->P->Cfg) {
      llvm::BitVector Expected(F->P->NumBlocks);
      for (CFGBlock *D : Calc.getControlDependencies(B))
        Expected.set(D->getBlockID());
      EXPECT_EQ(F->P->Controls[B->getBlockID()], Expected)
          << Name.str() << ": block " << B->getBlockID();
      Dependences += Expected.count();
    }
    EXPECT_GT(Dependences, 0u) << Name.str();
  }
}

// Uniformity.cpp / ValueAnalysis.cpp: the round that would only confirm the
// divergent set is skipped, and only that one.
TEST(UniformityPieces, ConfirmingRound) {
  // A lane test that guards no assignment: nothing the dataflow computed
  // changes once it is divergent, so one round settles the function.
  auto Guard = analyse(R"cuda(
    __global__ void k(int *p) {
      int v = threadIdx.x;
      if ((threadIdx.x & 31) == 0)
        use(v);
      use(v);
    })cuda",
                       "k");
  ASSERT_TRUE(Guard);
  ASSERT_EQ(Guard->C.Ifs.size(), 1u);
  EXPECT_EQ(Guard->P->Rounds, 1u);
  EXPECT_TRUE(Guard->P->Divergent.test(Guard->blockOf(Guard->C.Ifs[0])));
  EXPECT_EQ(Guard->useDeps(1), ThreadVarying);
  // A chain: `d` is assigned under the first divergent branch, which makes
  // the second branch divergent in the next round; that round must run.
  // The second branch guards no assignment, so no third round.
  auto Chain = analyse(R"cuda(
    __global__ void k(int *p) {
      int d = 0;
      if (threadIdx.x < 3)
        d = 1;
      if (d)
        use(2);
      use(d);
    })cuda",
                       "k");
  ASSERT_TRUE(Chain);
  ASSERT_EQ(Chain->C.Ifs.size(), 2u);
  EXPECT_EQ(Chain->P->Rounds, 2u);
  EXPECT_TRUE(Chain->P->Divergent.test(Chain->blockOf(Chain->C.Ifs[0])));
  EXPECT_TRUE(Chain->P->Divergent.test(Chain->blockOf(Chain->C.Ifs[1])));
  EXPECT_EQ(Chain->useDeps(1), ThreadVarying);
  // The taint questions of the analysis are not kept once it has run.
  EXPECT_TRUE(Chain->P->TaintLog.empty());
}

// Butterflies.cpp: a full xor butterfly, and a down-sweep that is not one.
TEST(UniformityPieces, Butterflies) {
  auto F = analyse(R"cuda(
    __global__ void k(int *p) {
      int v = p[threadIdx.x];
      for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(FULL, v, o);
      int w = p[threadIdx.x];
      for (int o = 16; o > 0; o /= 2)
        w += __shfl_down_sync(FULL, w, o);
      use(v); use(w);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Fors.size(), 2u);
  llvm::ArrayRef<const VarDecl *> Xor = F->P->butterflyResults(F->C.Fors[0]);
  ASSERT_EQ(Xor.size(), 1u);
  EXPECT_EQ(Xor[0], F->C.Vars["v"]);
  EXPECT_TRUE(F->P->butterflyResults(F->C.Fors[1]).empty());
  EXPECT_EQ(F->useDeps(0), ValueDeps(0));
  EXPECT_EQ(F->useDeps(1), ThreadVarying);
}

// SymbolicView.cpp: conditions the taint calls varying, decided by the prover.
TEST(UniformityPieces, SymbolicView) {
  auto F = analyse(R"cuda(
    __global__ void k(int n) {
      int t = threadIdx.x + blockDim.x * threadIdx.y;
      if (t / 32 == 1)
        use(1);
      if (t % 2 == 0)
        use(2);
      int g = threadIdx.x >> 2;
      if (g < (n / 8) * 8)
        use(3);
      if (threadIdx.x / 8 < n)
        use(4);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Ifs.size(), 4u);
  auto Proved = [&](unsigned I, unsigned Group) {
    unsigned ID = F->blockOf(F->C.Ifs[I]);
    return F->P->provedUniform(ID, F->P->BranchCond[ID], F->stateAtBranch(ID), Group);
  };
  EXPECT_TRUE(Proved(0, 32));  // the hardware warp of a linear thread id
  EXPECT_FALSE(Proved(1, 32)); // odd and even lanes
  EXPECT_TRUE(Proved(2, 32));  // groups of 4, bound rounded to 8 groups
  EXPECT_FALSE(Proved(3, 32)); // 8-lane groups differ within a warp ...
  EXPECT_TRUE(Proved(3, 8));   // ... but not within an 8-lane tile
  EXPECT_FALSE(F->P->Divergent.test(F->blockOf(F->C.Ifs[0])));
  EXPECT_TRUE(F->P->Divergent.test(F->blockOf(F->C.Ifs[1])));
  EXPECT_FALSE(F->P->Divergent.test(F->blockOf(F->C.Ifs[2])));
  // The proofs read no induction variable, so the round that found the
  // second branch divergent is not run again to confirm them.
  EXPECT_EQ(F->P->Rounds, 1u);
}

// Uniformity.cpp, roundWouldRepeat(): a proof that leans on an induction
// variable moving in lockstep is asked again once a branch controlling its
// writes is found divergent, even when no taint() answer changed.
TEST(UniformityPieces, ProofsReadingLockstepAreConfirmed) {
  // Blocks are visited from the end of the function, so the first round
  // asks about the loop before it finds the branch of the extra step
  // divergent.
  auto F = analyse(R"cuda(
    __global__ void k(int n) {
      int i = threadIdx.x >> 2;
      if (threadIdx.x & 1)
        i += 8;
      for (; i < (n / 8) * 8; i += 8)
        use(i);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Fors.size(), 1u);
  ASSERT_EQ(F->C.Ifs.size(), 1u);
  EXPECT_TRUE(F->P->Divergent.test(F->blockOf(F->C.Ifs[0])));
  // Without the odd lanes' extra step, the prover clears `i < (n / 8) * 8`
  // (groups of 4 lanes, stepping by 8 groups in lockstep). Here the first
  // round's proof leaned on `i` moving in lockstep, which the divergent
  // step makes false (lanes 0 and 1 stand 8 apart), so another round ran
  // and the condition is divergent.
  EXPECT_TRUE(F->P->Divergent.test(F->blockOf(F->C.Fors[0])));
  EXPECT_GE(F->P->Rounds, 2u);
}

// An exit before the loop does not break the lockstep of the lanes that
// stay (FunctionAnalysis::leavesForGood): they all start at the formula and
// take the same steps, so the bound, a multiple of 8 groups of 4, is the
// same for all of them.
TEST(UniformityPieces, LanesThatLeaveDoNotBreakLockstep) {
  auto F = analyse(R"cuda(
    __global__ void k(int n) {
      if (threadIdx.x & 1)
        return;
      for (int i = threadIdx.x >> 2; i < (n / 8) * 8; i += 8)
        use(i);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Fors.size(), 1u);
  ASSERT_EQ(F->C.Ifs.size(), 1u);
  EXPECT_TRUE(F->P->Divergent.test(F->blockOf(F->C.Ifs[0])));
  EXPECT_FALSE(F->P->Divergent.test(F->blockOf(F->C.Fors[0])));
}

// IndexForms.cpp: how expressions relate to the lane, and lane splits.
TEST(UniformityPieces, IndexForms) {
  auto F = analyse(R"cuda(
    __global__ void k() {
      unsigned lane = threadIdx.x & 31;
      use(lane); use(threadIdx.x); use(threadIdx.x / 32); use(7);
      if (lane < 16)
        use(0);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->C.Uses.size(), 5u);
  auto Form = [&](unsigned I) {
    auto S = F->P->stateBefore(F->C.Uses[I]);
    return F->P->indexForm(F->C.Uses[I]->getArg(0), *S, 0);
  };
  EXPECT_EQ(Form(0).Kind, uniformity_detail::IndexForm::Lane);
  EXPECT_EQ(Form(1).Kind, uniformity_detail::IndexForm::ThreadX);
  EXPECT_EQ(Form(2).Kind, uniformity_detail::IndexForm::WarpUniform);
  EXPECT_EQ(Form(3).Kind, uniformity_detail::IndexForm::Constant);
  EXPECT_EQ(Form(3).Value, 7);
  unsigned ID = F->blockOf(F->C.Ifs[0]);
  auto Split = F->P->laneSplit(F->P->BranchCond[ID], F->stateAtBranch(ID));
  ASSERT_TRUE(Split.has_value());
  EXPECT_FALSE(Split->Uniform);
  EXPECT_EQ(Split->TrueMust, LaneSet::below(16));
  EXPECT_EQ(Split->TrueMay, LaneSet::below(16));
  EXPECT_EQ(Split->FalseMust, ~LaneSet::below(16));
}

// LaneReachability.cpp: Must / May lane sets at block entry.
TEST(UniformityPieces, LaneReachability) {
  auto F = analyse(R"cuda(
    __global__ void k(int *p) {
      unsigned lane = threadIdx.x % 32;
      if (lane < 8)
        use(1);
      if (p[lane] > 0)
        use(2);
      use(3);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  auto Must = [&](unsigned I) { return F->P->Must[F->blockOf(F->C.Uses[I])]; };
  auto May = [&](unsigned I) { return F->P->May[F->blockOf(F->C.Uses[I])]; };
  EXPECT_EQ(Must(0), LaneSet::below(8));
  EXPECT_EQ(May(0), LaneSet::below(8));
  EXPECT_EQ(Must(1), LaneSet::none()); // data decides
  EXPECT_EQ(May(1), LaneSet::all());
  EXPECT_EQ(Must(2), LaneSet::all());
  EXPECT_EQ(May(2), LaneSet::all());
}

// CollectiveSites.cpp: one site per collective, with the facts checks use.
TEST(UniformityPieces, CollectiveSites) {
  auto F = analyse(R"cuda(
    __global__ void k(int v) {
      unsigned lane = threadIdx.x % 32;
      if (lane < 16)
        v = __shfl_sync(FULL, v, 0);
      __syncwarp();
      use(v);
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->P->Sites.size(), 2u);
  const CollectiveSite &Shfl = F->P->Sites[0], &Sync = F->P->Sites[1];
  EXPECT_EQ(Shfl.Must, LaneSet::below(16));
  EXPECT_EQ(Shfl.May, LaneSet::below(16));
  ASSERT_EQ(Shfl.Divergence.size(), 1u);
  EXPECT_TRUE(Shfl.Divergence[0].LaneComparison);
  EXPECT_FALSE(Shfl.DataDecided);
  EXPECT_EQ(Shfl.Helper, nullptr);
  EXPECT_EQ(Sync.Must, LaneSet::all());
  EXPECT_TRUE(Sync.Divergence.empty());
}

// WarpAnalysisCache::traits keeps its answers by declaration: a prototype
// gets its definition's, whichever of the two is asked first, and a function
// without a body has none.
TEST(UniformityPieces, TraitsThroughPrototypes) {
  auto F = analyse(R"cuda(
    __device__ int early(int v);
    __device__ int late(int v);
    __device__ int plain(int v);
    __device__ int undefined(int v);
    __global__ void k(int v) { use(v); }
    __device__ int early(int v) { return __shfl_sync(FULL, v, 0); }
    __device__ int late(int v) { return __shfl_sync(FULL, v, 0); }
    __device__ int plain(int v) { return v + 1; }
  )cuda",
                   "k");
  ASSERT_TRUE(F);
  std::map<std::string, std::pair<const FunctionDecl *, const FunctionDecl *>> Decls;
  for (const Decl *D : F->AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getIdentifier()) {
      auto &[Proto, Def] = Decls[FD->getName().str()];
      (FD->doesThisDeclarationHaveABody() ? Def : Proto) = FD;
    }
  WarpAnalysisCache &Cache = F->cache();
  auto [EarlyProto, EarlyDef] = Decls["early"];
  auto [LateProto, LateDef] = Decls["late"];
  auto [PlainProto, PlainDef] = Decls["plain"];
  ASSERT_TRUE(EarlyProto && EarlyDef && LateProto && LateDef && PlainProto && PlainDef);
  EXPECT_TRUE(Cache.containsCollective(EarlyProto));
  EXPECT_TRUE(Cache.containsCollective(EarlyDef));
  EXPECT_TRUE(Cache.containsCollective(LateDef));
  EXPECT_TRUE(Cache.containsCollective(LateProto));
  EXPECT_FALSE(Cache.containsCollective(PlainProto));
  EXPECT_FALSE(Cache.containsCollective(PlainDef));
  EXPECT_EQ(Cache.readsVaryingSource(LateProto), Cache.readsVaryingSource(LateDef));
  const FunctionDecl *Undefined = Decls["undefined"].first;
  ASSERT_TRUE(Undefined);
  EXPECT_FALSE(Cache.containsCollective(Undefined));
  EXPECT_FALSE(Cache.containsCollective(Undefined)); // the remembered answer
}

// WarpAnalysisCache.cpp: traits, summaries of helpers, recursive cycles.
TEST(UniformityPieces, CacheAndSummaries) {
  auto F = analyse(R"cuda(
    __device__ int helper(int v) { return __shfl_sync(FULL, v, 0); }
    __device__ int twice(int x) { return x * 2; }
    __device__ int rec(int n, int v) {
      if (n == 0)
        return __shfl_sync(FULL, v, 0);
      return rec(n - 1, v);
    }
    __global__ void k(int v) {
      if (threadIdx.x % 32 < 4)
        use(helper(v) + twice(v) + rec(3, v));
    })cuda",
                   "k");
  ASSERT_TRUE(F);
  WarpAnalysisCache &Cache = F->cache();
  const FunctionDecl *Helper = F->function("helper"), *Twice = F->function("twice"),
                     *Rec = F->function("rec");
  EXPECT_TRUE(Cache.containsCollective(Helper));
  EXPECT_FALSE(Cache.containsCollective(Twice));
  EXPECT_TRUE(Cache.containsCollective(Rec));
  const FunctionSummary *HS = Cache.summary(Helper);
  ASSERT_NE(HS, nullptr);
  ASSERT_TRUE(HS->RequiredLanes.has_value());
  EXPECT_EQ(*HS->RequiredLanes, LaneSet::all());
  const FunctionSummary *RS = Cache.summary(Rec);
  ASSERT_NE(RS, nullptr);
  ASSERT_TRUE(RS->RequiredLanes.has_value());
  EXPECT_EQ(*RS->RequiredLanes, LaneSet::all());
  // The kernel's calls of both helpers are sites reached by lanes 0..3.
  unsigned HelperSites = 0;
  for (const CollectiveSite &S : F->P->Sites) {
    EXPECT_TRUE(S.Helper == Helper || S.Helper == Rec);
    EXPECT_EQ(S.Must, LaneSet::below(4));
    ++HelperSites;
  }
  EXPECT_EQ(HelperSites, 2u);
}
