// Unit tests for the uniformity analysis: value uniformity, divergence,
// lane sets and summaries, on small CUDA snippets. A tiny header stands in
// for the CUDA headers (clang's own built-in variables, declared
// intrinsics) so that each test parses in milliseconds.
#include "uniformity/Uniformity.h"
#include "CudaTestUnits.h"
#include "ast/LocalWrites.h"
#include "lanes/LaneExpressions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

// Stand-ins for the intrinsics and atomics (CudaTestUnits.h).
const std::string Prelude = test::cudaStandIns(R"cuda(
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __shfl_sync(unsigned, int, int, int = 32);
__device__ int __shfl_down_sync(unsigned, int, unsigned, int = 32);
__device__ void __syncwarp(unsigned = 0xffffffff);
__device__ unsigned __activemask();
__device__ int atomicAdd(int *, int);
)cuda",
                                               R"cuda(__device__ void use(int);
#define FULL 0xffffffffu
)cuda");

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *find(llvm::StringRef Name) {
    return test::findFunction(AST->getASTContext(), Name);
  }
  UniformityRef analyse(llvm::StringRef Name, UniformityOptions Opts = {}) {
    return WarpAnalysisCache::get(AST->getASTContext(), Opts).analysis(find(Name));
  }
};

Parsed parse(const std::string &Code) {
  Parsed P;
  P.AST = test::parseCudaUnit(Prelude + Code);
  return P;
}

/// The arguments of every `use(x)` call in \p FD, in source order.
std::vector<const Expr *> uses(const FunctionDecl *FD) {
  struct V : RecursiveASTVisitor<V> {
    std::vector<const Expr *> Out;
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *F = C->getDirectCallee())
        if (F->getIdentifier() && F->getName() == "use")
          Out.push_back(C);
      return true;
    }
  } Visitor;
  Visitor.TraverseDecl(const_cast<FunctionDecl *>(FD));
  return Visitor.Out;
}

} // namespace

TEST(Uniformity, ValueSources) {
  Parsed P = parse(R"cuda(
    __shared__ int flag;
    __global__ void k(const int *in, int n, int *counter) {
      int lane = threadIdx.x & 31;
      int warp = threadIdx.x / 32;
      use(n);                                  // 0 param: uniform
      use(blockIdx.x * blockDim.x + gridDim.y); // 1 uniform
      use(warp + (threadIdx.x >> 5));           // 2 warp index: uniform
      use(threadIdx.y);                         // 3 uniform (aligned blocks)
      use(lane);                                // 4 varying
      use(in[threadIdx.x]);                     // 5 varying address
      use(in[warp]);                            // 6 uniform address
      use(atomicAdd(counter, 1));               // 7 varying
      use(__ballot_sync(FULL, lane < 3));       // 8 uniform
      use(__shfl_sync(FULL, lane, 0));          // 9 broadcast: uniform
      use(__shfl_sync(FULL, lane, lane ^ 1));   // 10 varying
      use(flag);                                // 11 shared, uniform address
      use(threadIdx.x % warpSize);              // 12 varying
    }
  )cuda");
  UniformityRef A = P.analyse("k");
  ASSERT_NE(A, nullptr);
  std::vector<const Expr *> U = uses(A->function());
  ASSERT_EQ(U.size(), 13u);
  const bool Varying[] = {false, false, false, false, true,  true, false,
                          true,  false, false, true,  false, true};
  for (unsigned I = 0; I < U.size(); ++I)
    EXPECT_EQ(A->isThreadVarying(U[I]), Varying[I]) << "use #" << I;

  // Without the aligned-blocks assumption threadIdx.y differs within a warp.
  UniformityOptions Unaligned;
  Unaligned.AssumeWarpAlignedBlocks = false;
  UniformityRef B = P.analyse("k", Unaligned);
  ASSERT_NE(B, nullptr);
  EXPECT_TRUE(B->isThreadVarying(uses(B->function())[3]));
}

TEST(Uniformity, PropagationThroughJoinsLoopsFieldsAndReferences) {
  Parsed P = parse(R"cuda(
    struct S { int a, b; };
    __global__ void k(const int *in, int n) {
      int lane = threadIdx.x & 31;
      int k = 0;
      if (lane < 3) k = 1;      // assigned under a divergent branch
      use(k);                   // 0 varying after the join
      int u = 0;
      if (n > 3) u = 1;         // uniform branch
      use(u);                   // 1 uniform
      int s = 0;
      for (int i = lane; i < n; i += 32) s += 1;  // varying trip count
      use(s);                   // 2 varying
      S st; st.a = 0; st.b = threadIdx.x;
      use(st.a);                // 3 uniform (fields are kept apart)
      int x = 0; int &r = x; r = lane;
      use(x);                   // 4 varying through the reference
      int y = lane; y = 5;
      use(y);                   // 5 uniform again after the overwrite
    }
  )cuda");
  UniformityRef A = P.analyse("k");
  ASSERT_NE(A, nullptr);
  std::vector<const Expr *> U = uses(A->function());
  ASSERT_EQ(U.size(), 6u);
  EXPECT_TRUE(A->isThreadVarying(U[0]));
  EXPECT_FALSE(A->isThreadVarying(U[1]));
  EXPECT_TRUE(A->isThreadVarying(U[2]));
  EXPECT_FALSE(A->isThreadVarying(U[3]));
  EXPECT_TRUE(A->isThreadVarying(U[4]));
  EXPECT_FALSE(A->isThreadVarying(U[5]));
}

TEST(Uniformity, LaneSetsAndControlDependence) {
  Parsed P = parse(R"cuda(
    __global__ void k(const int *in, int v) {
      int lane = threadIdx.x & 31;
      if (lane < 16) use(0);                          // 0: lanes 0-15
      if (lane >= 8 && lane < 16) use(1);             // 1: lanes 8-15
      if (threadIdx.x < 40) use(2);                   // 2: must 0-7, may all
      if (threadIdx.x < 64) use(3);                   // 3: uniform
      if (in[threadIdx.x] > v) use(4);                // 4: data decide
      if (lane == 0) use(5); else use(6);             // 5: lane 0, 6: lanes 1-31
      use(7);                                         // 7: everyone again
    }
  )cuda");
  UniformityRef A = P.analyse("k");
  ASSERT_NE(A, nullptr);
  std::vector<const Expr *> U = uses(A->function());
  ASSERT_EQ(U.size(), 8u);
  EXPECT_EQ(A->mustReach(U[0]), LaneSet::below(16));
  EXPECT_EQ(A->mayReach(U[0]), LaneSet::below(16));
  EXPECT_EQ(A->mustReach(U[1]), LaneSet(0x0000ff00));
  EXPECT_EQ(A->mustReach(U[2]), LaneSet::below(8));
  EXPECT_TRUE(A->mayReach(U[2]).isAll());
  EXPECT_TRUE(A->mustReach(U[3]).isAll());
  EXPECT_TRUE(A->divergenceAt(U[3]).empty());
  EXPECT_TRUE(A->mustReach(U[4]).isEmpty());
  EXPECT_TRUE(A->mayReach(U[4]).isAll());
  ASSERT_EQ(A->divergenceAt(U[4]).size(), 1u);
  EXPECT_FALSE(A->divergenceAt(U[4]).front().LaneComparison);
  EXPECT_EQ(A->mustReach(U[5]), LaneSet::single(0));
  EXPECT_EQ(A->mustReach(U[6]), ~LaneSet::single(0));
  EXPECT_TRUE(A->mustReach(U[7]).isAll());
  EXPECT_TRUE(A->divergenceAt(U[7]).empty());
}

TEST(Uniformity, SitesEarlyExitAndVoltaPattern) {
  Parsed P = parse(R"cuda(
    __global__ void k(const int *in, int n) {
      int v = in[threadIdx.x];
      int x;
      if (v > 0) x = __shfl_sync(FULL, v, 0);   // 0: covered by the else arm
      else x = __shfl_sync(FULL, -v, 0);        // 1
      if (v > 1) x += __shfl_sync(FULL, v, 0);  // 2: not covered
      if (v > n) return;
      x += __shfl_down_sync(FULL, x, 1);        // 3: after an early exit
      __syncwarp();                             // 4
      use(x);
    }
  )cuda");
  UniformityRef A = P.analyse("k");
  ASSERT_NE(A, nullptr);
  llvm::ArrayRef<CollectiveSite> S = A->sites();
  ASSERT_EQ(S.size(), 5u);
  EXPECT_TRUE(S[0].CoveredOnEveryPath);
  EXPECT_TRUE(S[1].CoveredOnEveryPath);
  EXPECT_FALSE(S[2].CoveredOnEveryPath);
  EXPECT_EQ(S[2].Divergence.size(), 1u);
  EXPECT_TRUE(S[3].Divergence.empty());
  EXPECT_EQ(S[3].EarlyExits.size(), 1u);
  EXPECT_TRUE(S[4].ImplicitMask);
  EXPECT_TRUE(S[4].Required->isAll());
}

TEST(Uniformity, Summaries) {
  Parsed P = parse(R"cuda(
    __device__ int reduce(int v) {
      for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL, v, o);
      return v;
    }
    __device__ int outer(int v) { return reduce(v) + 1; }
    __device__ bool warpAny(bool p) { return __any_sync(FULL, p); }
    __device__ int laneOf() { return threadIdx.x & 31; }
    __device__ int maybe(bool c, int v) { if (c) v = __shfl_sync(FULL, v, 0); return v; }
    __device__ int rec(int v, int d) { return d ? rec(v, d - 1) : __shfl_sync(FULL, v, 0); }
    __global__ void k(const int *in) {
      int v = in[threadIdx.x];
      if (v > 0) use(outer(v));
      if (warpAny(v > 1)) use(0);
      use(rec(v, 3));
    }
  )cuda");
  WarpAnalysisCache &Cache = WarpAnalysisCache::get(P.AST->getASTContext());
  const FunctionSummary *Reduce = Cache.summary(P.find("reduce"));
  ASSERT_NE(Reduce, nullptr);
  ASSERT_TRUE(Reduce->RequiredLanes.has_value());
  EXPECT_TRUE(Reduce->RequiredLanes->isAll());
  const FunctionSummary *Outer = Cache.summary(P.find("outer"));
  ASSERT_NE(Outer, nullptr);
  EXPECT_EQ(Outer->Witness, Reduce->Witness); // the note points at the shuffle itself
  EXPECT_EQ(Cache.summary(P.find("warpAny"))->ReturnDeps, 0u);
  EXPECT_TRUE(Cache.summary(P.find("laneOf"))->ReturnDeps & ThreadVarying);
  const FunctionSummary *Maybe = Cache.summary(P.find("maybe"));
  EXPECT_EQ(Maybe->RequirementConditions, parameterDep(0));
  // Recursion terminates.
  EXPECT_NE(Cache.summary(P.find("rec")), nullptr);

  UniformityRef K = Cache.analysis(P.find("k"));
  ASSERT_NE(K, nullptr);
  ASSERT_EQ(K->sites().size(), 3u); // outer(...), warpAny(...), rec(...)
  EXPECT_EQ(K->sites()[0].Helper, P.find("outer"));
  EXPECT_EQ(K->sites()[0].Divergence.size(), 1u);
  EXPECT_TRUE(K->sites()[1].Divergence.empty());
  EXPECT_TRUE(K->sites()[2].Divergence.empty());
  // if (warpAny(...)) is a uniform branch.
  EXPECT_TRUE(K->divergenceAt(uses(K->function())[1]).empty());
}

TEST(Uniformity, OnlyToolchainDeclarationsAreIntrinsicsAndAtomics) {
  Parsed P = parse(R"cuda(
    struct F2 { int x, y; };
    __device__ F2 __shfl_down(F2 v, unsigned d) {
      v.x = __shfl_down_sync(FULL, v.x, d);
      v.y = __shfl_down_sync(FULL, v.y, d);
      return v;
    }
    __device__ int atomicAggInc(int *counter) { return *counter; }
    __global__ void k(int *counter, F2 f) {
      use(atomicAdd(counter, 1));     // 0 CUDA's: each lane its own value
      use(atomicAggInc(counter));     // 1 the project's: analysed, uniform
      if (threadIdx.x < 16) f = __shfl_down(f, 1);
      *counter = f.x; // every lane works on: none has left
    }
  )cuda");
  WarpAnalysisCache &Cache = WarpAnalysisCache::get(P.AST->getASTContext());
  UniformityRef K = Cache.analysis(P.find("k"));
  ASSERT_NE(K, nullptr);
  std::vector<const Expr *> U = uses(K->function());
  ASSERT_EQ(U.size(), 2u);
  EXPECT_TRUE(K->isThreadVarying(U[0]));
  EXPECT_FALSE(K->isThreadVarying(U[1]));
  // The project's __shfl_down is a helper needing the whole warp.
  ASSERT_EQ(K->sites().size(), 1u);
  EXPECT_EQ(K->sites()[0].Helper, P.find("__shfl_down"));
  EXPECT_EQ(K->sites()[0].Divergence.size(), 1u);
}

TEST(Uniformity, ChainsLongerThanAnyRoundLimit) {
  // Each link is divergent only once the previous one is: one per round.
  std::string Chain;
  for (int I = 0; I < 12; ++I)
    Chain += "if (a" + std::to_string(I) + ") a" + std::to_string(I + 1) + " = 1;\n";
  std::string Decls;
  for (int I = 0; I <= 12; ++I)
    Decls += "int a" + std::to_string(I) + " = 0;\n";
  Parsed P = parse("__global__ void k(int v, int *out) {\n" + Decls +
                   "if ((threadIdx.x & 31) < 3) a0 = 1;\n" + Chain +
                   "if (a12) v = __shfl_sync(FULL, v, 0);\n*out = v;\n}\n");
  UniformityRef K = P.analyse("k");
  ASSERT_NE(K, nullptr);
  ASSERT_EQ(K->sites().size(), 1u);
  EXPECT_FALSE(K->sites()[0].Divergence.empty());
}

TEST(Uniformity, MutualRecursionIndependentOfOrder) {
  const char *Code = R"cuda(
    __device__ int second(int v, int d);
    __device__ int first(int v, int d) { return d ? second(v, d - 1) : __shfl_sync(FULL, v, 0); }
    __device__ int second(int v, int d) { return first(v, d); }
    __device__ int laneB(int d);
    __device__ int laneA(int d) { return d ? laneB(d - 1) : (int)(threadIdx.x & 31); }
    __device__ int laneB(int d) { return laneA(d); }
  )cuda";
  for (bool FirstAskedFirst : {true, false}) {
    Parsed P = parse(Code);
    WarpAnalysisCache &Cache = WarpAnalysisCache::get(P.AST->getASTContext());
    const char *Order[2] = {"first", "second"};
    if (!FirstAskedFirst)
      std::swap(Order[0], Order[1]);
    for (const char *Name : Order) {
      const FunctionSummary *S = Cache.summary(P.find(Name));
      ASSERT_NE(S, nullptr) << Name;
      ASSERT_TRUE(S->RequiredLanes.has_value()) << Name;
      EXPECT_TRUE(S->RequiredLanes->isAll()) << Name;
    }
    EXPECT_TRUE(Cache.summary(P.find(FirstAskedFirst ? "laneA" : "laneB"))->ReturnDeps &
                ThreadVarying);
    EXPECT_TRUE(Cache.summary(P.find(FirstAskedFirst ? "laneB" : "laneA"))->ReturnDeps &
                ThreadVarying);
  }
}

TEST(Uniformity, DiscardedConstexprBranchesAreNotCode) {
  Parsed P = parse(R"cuda(
    constexpr bool kNever = false;
    __device__ int never(int v) {
      if constexpr (kNever) v = __shfl_sync(FULL, v, 0);
      return v;
    }
    __device__ int always(int v) {
      if constexpr (!kNever) v = __shfl_sync(FULL, v, 0);
      return v;
    }
  )cuda");
  WarpAnalysisCache &Cache = WarpAnalysisCache::get(P.AST->getASTContext());
  EXPECT_FALSE(Cache.containsCollective(P.find("never")));
  EXPECT_TRUE(Cache.containsCollective(P.find("always")));
}

TEST(LaneSet, Describe) {
  EXPECT_EQ(LaneSet::below(16).describe(), "lanes 0-15");
  EXPECT_EQ((~LaneSet::below(16)).describe(), "lanes 16-31");
  EXPECT_EQ(LaneSet::single(3).describe(), "lane 3");
  EXPECT_EQ(LaneSet(0x00ff00ffu).describe(), "lanes 0-7 and 16-23");
  EXPECT_EQ(LaneSet::none().describe(), "no lane");
}

// Only the most recently used analyses are kept; one asked for again after
// eviction is recomputed and gives the same answers, and a function's
// summary stays available without its analysis.
TEST(Uniformity, EvictedAnalysesAreRecomputedWithTheSameResults) {
  std::string Code = R"cuda(
    __device__ int reduce(int v) {
      for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(FULL, v, o);
      return v;
    }
    __device__ int rec(int n) {
      if (n > 0) return rec(n - 1);
      return __shfl_sync(FULL, n, 0);
    }
  )cuda";
  const unsigned Kernels = WarpAnalysisCache::RecentCapacity + 4;
  for (unsigned I = 0; I < Kernels; ++I)
    Code += "__global__ void k" + std::to_string(I) +
            "(int *o) { if (threadIdx.x < 16) o[0] = reduce(threadIdx.x); o[1] = rec(o[2]); }\n";
  Parsed P = parse(Code);
  WarpAnalysisCache &Cache = WarpAnalysisCache::get(P.AST->getASTContext());

  UniformityRef First = Cache.analysis(P.find("k0"));
  ASSERT_NE(First, nullptr);
  ASSERT_EQ(First->sites().size(), 2u);
  const CollectiveSite FirstSite = First->sites()[0];
  const FunctionSummary *Reduce = Cache.summary(P.find("reduce"));
  ASSERT_NE(Reduce, nullptr);
  First.reset();
  for (unsigned I = 1; I < Kernels; ++I)
    ASSERT_NE(Cache.analysis(P.find("k" + std::to_string(I))), nullptr);

  // k0 and the helpers have left the recently used set; the summary pointer
  // handed out before is still the summary.
  unsigned RunBefore = Cache.analysesRun();
  EXPECT_EQ(Cache.summary(P.find("reduce")), Reduce);
  EXPECT_TRUE(Reduce->RequiredLanes && Reduce->RequiredLanes->isAll());
  EXPECT_EQ(Cache.analysesRun(), RunBefore);
  UniformityRef Again = Cache.analysis(P.find("k0"));
  EXPECT_EQ(Cache.analysesRun(), RunBefore + 1);
  ASSERT_NE(Again, nullptr);
  ASSERT_EQ(Again->sites().size(), 2u);
  const CollectiveSite &Site = Again->sites()[0];
  EXPECT_EQ(Site.Call, FirstSite.Call);
  EXPECT_EQ(Site.Helper, P.find("reduce"));
  EXPECT_EQ(Site.Must, FirstSite.Must);
  EXPECT_EQ(Site.May, FirstSite.May);
  EXPECT_EQ(Site.Divergence.size(), 1u);
  EXPECT_EQ(Site.Divergence.size(), FirstSite.Divergence.size());
  EXPECT_EQ(Again->sites()[1].Helper, P.find("rec"));
  // The directly recursive helper, recomputed, still sees its own call as
  // needing nothing (as on its first run).
  UniformityRef Rec = Cache.analysis(P.find("rec"));
  ASSERT_NE(Rec, nullptr);
  EXPECT_EQ(Rec->sites().size(), 1u);
  EXPECT_TRUE(Rec->summary().RequiredLanes && Rec->summary().RequiredLanes->isAll());
}

namespace {
/// The local named \p Name in \p FD.
const VarDecl *localNamed(const FunctionDecl *FD, llvm::StringRef Name) {
  struct V : RecursiveASTVisitor<V> {
    llvm::StringRef Name;
    const VarDecl *Found = nullptr;
    bool VisitVarDecl(VarDecl *D) {
      if (D->getName() == Name)
        Found = D;
      return true;
    }
  } Visitor;
  Visitor.Name = Name;
  Visitor.TraverseDecl(const_cast<FunctionDecl *>(FD));
  return Visitor.Found;
}
} // namespace

// The write-once query caches one body's writes per translation unit; one process that
// analyses unit after unit (clangd, the plugin) must get each unit's own
// answer without anybody resetting the cache.
TEST(LaneExpressions, WriteCacheFollowsTheTranslationUnit) {
  for (int Round = 0; Round < 4; ++Round) {
    bool Written = Round % 2;
    Parsed P = parse(std::string("__global__ void k(int *o) { int lane = threadIdx.x & 31; ") +
                     (Written ? "lane += 1; " : "") + "o[lane] = 0; }");
    const FunctionDecl *K = P.find("k");
    ASSERT_TRUE(K);
    const VarDecl *Lane = localNamed(K, "lane");
    ASSERT_TRUE(Lane);
    EXPECT_EQ(singleAssignmentInit(Lane) == nullptr, Written) << "round " << Round;
  }
}
