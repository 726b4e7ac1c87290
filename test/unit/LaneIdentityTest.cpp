// Unit tests for the one lane-id recogniser (analysis/LaneIdentity.h) and the
// one "written after its initialiser" scan (analysis/LocalWrites.h): the forms
// it gives for each spelling of the lane id, thread index and warp index, the
// look-alikes it must refuse, and the writes the scan must see.
#include "lanes/LaneIdentity.h"
#include "CudaTestUnits.h"
#include "ast/LocalWrites.h"
#include "lanes/LaneExpressions.h"
#include "uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

// Stand-ins for CUDA's and cooperative groups' declarations
// (CudaTestUnits.h).
const std::string Prelude = test::cudaStandIns(R"cuda(
namespace cooperative_groups {
struct thread_block { __device__ unsigned thread_rank() const; };
template <unsigned N> struct thread_block_tile {
  __device__ unsigned thread_rank() const;
  __device__ unsigned meta_group_rank() const;
};
struct coalesced_group { __device__ unsigned thread_rank() const; };
} // namespace cooperative_groups
namespace cg = cooperative_groups;
)cuda",
                                               R"cuda(__device__ void use(long long);
)cuda");

struct Parsed : test::ProbedFunction {
  PositionForm form(unsigned I) { return positionForm(C.Uses.at(I), ctx()); }
};

std::unique_ptr<Parsed> parse(const std::string &Code, llvm::StringRef Function) {
  auto P = std::make_unique<Parsed>();
  if (!test::parseProbed(*P, Prelude + Code, Function))
    return nullptr;
  return P;
}

using K = PositionForm::FormKind;

} // namespace

// Every spelling of the lane id is the lane, by value.
TEST(LaneIdentity, LaneIdSpellings) {
  auto P = parse(R"cuda(
    __device__ unsigned laneId() { return threadIdx.x & 31; }
    __device__ unsigned laneLocal() { unsigned l = threadIdx.x % 32; return l; }
    __device__ unsigned laneAsm() {
      unsigned r;
      asm("mov.u32 %0, %%laneid;" : "=r"(r));
      return r;
    }
    __device__ unsigned laneTwoWays() {
      if (blockDim.x > 64) return threadIdx.x & 31;
      return threadIdx.x % warpSize;
    }
    __global__ void k(int n) {
      unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
      cg::thread_block_tile<32> warp;
      auto lambda = [] { return threadIdx.x & 31; };
      use(threadIdx.x % 32);                                  // 0
      use(threadIdx.x & 31);                                  // 1
      use(threadIdx.x % warpSize);                            // 2
      use(threadIdx.x & (warpSize - 1));                      // 3
      use(31 & threadIdx.x);                                  // 4
      use(gid % 32);                                          // 5
      use((threadIdx.x + blockDim.x * threadIdx.y) & 31);     // 6 linearised
      use((threadIdx.x + 32 * n) % 32);                       // 7
      use((long long)(threadIdx.x & 31));                     // 8
      use(laneId());                                          // 9
      use(laneLocal());                                       // 10
      use(laneAsm());                                         // 11
      use(laneTwoWays());                                     // 12
      use(__nvvm_read_ptx_sreg_laneid());                     // 13
      use(lambda());                                          // 14
      use(warp.thread_rank());                                // 15
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->C.Uses.size(), 16u);
  for (unsigned I = 0; I < 16; ++I)
    EXPECT_EQ(P->form(I).Kind, K::Lane) << "use " << I;
  // A 32-lane tile's rank is the lane, and says which tile it came from.
  EXPECT_NE(P->form(15).Group, nullptr);
  EXPECT_EQ(classifyLaneId(P->C.Uses[15], P->ctx()), LaneIdKind::TileRank);
  EXPECT_EQ(classifyLaneId(P->C.Uses[9], P->ctx()), LaneIdKind::WarpLane);
}

// Look-alikes that mention the thread's position but are not the lane.
TEST(LaneIdentity, NotTheLane) {
  auto P = parse(R"cuda(
    __device__ unsigned rotated() { return (threadIdx.x + 1) & 31; }
    __device__ unsigned twoForms() {
      if (blockDim.x > 64) return threadIdx.x & 31;
      return threadIdx.x;
    }
    __global__ void k(int n, int *p) {
      cg::thread_block_tile<16> half;
      cg::coalesced_group active;
      use((threadIdx.x + 1) % 32);         // 0 a rotation of the lanes
      use(threadIdx.y % 32);               // 1 the same in every lane
      use((threadIdx.x * 2) & 31);         // 2
      use(threadIdx.x % 16);               // 3
      use((threadIdx.x + n) & 31);         // 4 n is not a multiple of 32
      use((char)threadIdx.x & 31);         // 5 narrowing casts are not looked through
      use((char)(threadIdx.x + 200) % 32); // 6 (this one is no lane id)
      use(rotated());                      // 7
      use(twoForms());                     // 8 the returns disagree
      use(p[threadIdx.x] & 31);            // 9 data
      use(half.thread_rank());             // 10 a 16-lane tile's rank
      use(active.thread_rank());           // 11 a coalesced group's rank
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->C.Uses.size(), 12u);
  for (unsigned I : {0u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u})
    EXPECT_EQ(P->form(I).Kind, K::Other) << "use " << I;
  // threadIdx.y is the same across a warp when rows are whole warps.
  EXPECT_EQ(P->form(1).Kind, K::WarpUniform);
  EXPECT_EQ(P->form(10).Kind, K::GroupRank);
  EXPECT_EQ(P->form(10).GroupSize, 16u);
  EXPECT_EQ(P->form(11).Kind, K::GroupRank);
  EXPECT_EQ(P->form(11).GroupSize, 0u);
  // The syntactic checks see a rank within the group, not a warp lane.
  EXPECT_EQ(classifyLaneId(P->C.Uses[10], P->ctx()), LaneIdKind::TileRank);
  EXPECT_EQ(classifyLaneId(P->C.Uses[1], P->ctx()), LaneIdKind::None);
}

// Thread indices and warp indices.
TEST(LaneIdentity, ThreadAndWarpIndex) {
  auto P = parse(R"cuda(
    __device__ unsigned warpId() { return threadIdx.x / 32; }
    __global__ void k(int n) {
      unsigned tid = threadIdx.x;
      cg::thread_block block;
      cg::thread_block_tile<32> warp;
      cg::thread_block_tile<8> eighth;
      use(threadIdx.x);                    // 0 exact
      use(tid);                            // 1 exact
      use(block.thread_rank());            // 2 exact (warp-aligned blocks)
      use(threadIdx.x + 64);               // 3 not exact
      use(threadIdx.x / 32);               // 4 warp index
      use(tid >> 5);                       // 5 warp index
      use(threadIdx.x / warpSize);         // 6 warp index
      use(warpId());                       // 7 warp index
      use(warp.meta_group_rank());         // 8 warp index
      use(threadIdx.x / 64);               // 9 warp-uniform, not the warp index
      use((threadIdx.x + 32) / 32);        // 10 warp-uniform, not the warp index
      use(threadIdx.x & ~31u);             // 11 warp-uniform
      use(eighth.meta_group_rank());       // 12 an 8-lane tile's index
      use(threadIdx.x / 16);               // 13 varies within a warp
      use(blockDim.x * n);                 // 14 a multiple of 32
      use(n);                              // 15 a kernel argument
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->C.Uses.size(), 16u);
  for (unsigned I : {0u, 1u, 2u})
    EXPECT_TRUE(P->form(I).isExactThreadIdxX()) << "use " << I;
  EXPECT_EQ(P->form(3).Kind, K::ThreadX);
  EXPECT_FALSE(P->form(3).Exact);
  for (unsigned I : {4u, 5u, 6u, 7u, 8u})
    EXPECT_TRUE(P->form(I).isWarpIndex()) << "use " << I;
  for (unsigned I : {9u, 10u, 11u}) {
    EXPECT_EQ(P->form(I).Kind, K::WarpUniform) << "use " << I;
    EXPECT_FALSE(P->form(I).isWarpIndex()) << "use " << I;
  }
  EXPECT_EQ(P->form(12).Kind, K::GroupIndex);
  EXPECT_EQ(P->form(13).Kind, K::Other);
  EXPECT_EQ(P->form(14).Kind, K::WarpAligned);
  EXPECT_EQ(P->form(15).Kind, K::WarpUniform);
  EXPECT_TRUE(isWarpIndex(P->C.Uses[12], P->ctx())); // a group's partial slot
  EXPECT_FALSE(isWarpIndex(P->C.Uses[9], P->ctx()));
  EXPECT_TRUE(isThreadIdxX(P->C.Uses[1], P->ctx()));
  EXPECT_FALSE(isThreadIdxX(P->C.Uses[3], P->ctx()));
}

// Without warp-aligned blocks, threadIdx.y is no longer the same across a
// warp and a block's thread_rank() is no longer threadIdx.x modulo 32.
TEST(LaneIdentity, UnalignedBlocks) {
  auto P = parse(R"cuda(
    __global__ void k() {
      cg::thread_block block;
      use((threadIdx.x + blockDim.x * threadIdx.y) & 31);   // 0
      use(block.thread_rank());                             // 1
      use(threadIdx.y);                                     // 2
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  PositionEnvironment Unaligned(/*AssumeWarpAlignedBlocks=*/false);
  EXPECT_EQ(positionForm(P->C.Uses[0], P->ctx(), Unaligned).Kind, K::Other);
  EXPECT_EQ(positionForm(P->C.Uses[1], P->ctx(), Unaligned).Kind, K::Other);
  EXPECT_EQ(positionForm(P->C.Uses[2], P->ctx(), Unaligned).Kind, K::Other);
  PositionEnvironment Aligned;
  EXPECT_EQ(positionForm(P->C.Uses[0], P->ctx(), Aligned).Kind, K::Lane);
  EXPECT_EQ(positionForm(P->C.Uses[2], P->ctx(), Aligned).Kind, K::WarpUniform);
}

// A local stands for its initialiser only while nothing else writes it.
TEST(LaneIdentity, WrittenLocalsAreNotLooked) {
  auto P = parse(R"cuda(
    struct Bump { __device__ void operator()(unsigned &x) const { x += 3; } };
    __device__ void set(unsigned &x);
    __global__ void k() {
      unsigned a = threadIdx.x & 31;  a += 1;
      unsigned b = threadIdx.x & 31;  unsigned &rb = b; rb = 0;
      unsigned c = threadIdx.x & 31;  Bump bump; bump(c);
      unsigned d = threadIdx.x & 31;  set(d);
      unsigned e = threadIdx.x & 31;  unsigned *pe = &e;
      unsigned f = threadIdx.x & 31;  if constexpr (sizeof(int) == 2) f = 0;
      unsigned g = threadIdx.x & 31;  const unsigned &rg = g;
      use(a); use(b); use(c); use(d); use(e); use(f); use(g); use(rg); use(*pe);
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  for (unsigned I = 0; I < 5; ++I)
    EXPECT_EQ(P->form(I).Kind, K::Other) << "use " << I;
  EXPECT_EQ(P->form(5).Kind, K::Lane); // the write is in a discarded branch
  EXPECT_EQ(P->form(6).Kind, K::Lane); // a const reference cannot write it
}

// A local written later still holds its initialiser where it is read
// before every write, unless a loop around the read repeats a write.
TEST(LaneIdentity, ReadBeforeAnyWrite) {
  auto P = parse(R"cuda(
    __global__ void k(int n) {
      int tid = 256 * blockIdx.x + threadIdx.x;
      int lane = tid & 31;
      use(lane);
      tid = tid * 3;
      use(tid & 31);
      int t2 = threadIdx.x;
      for (int i = 0; i < n; ++i) {
        use(t2 & 31);
        t2 += 7;
      }
      for (int i = 0; i < n; ++i) {
        int t3 = threadIdx.x;
        use(t3 & 31);
        t3 += 7;
      }
      int t4 = threadIdx.x;
      auto later = [&] { use(t4 & 31); };
      t4 = 5;
      later();
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->form(0).Kind, K::Lane);  // tid is written only after
  EXPECT_EQ(P->form(1).Kind, K::Other); // read after the write
  EXPECT_EQ(P->form(2).Kind, K::Other); // the loop repeats t2's write
  EXPECT_EQ(P->form(3).Kind, K::Lane);  // t3 is declared afresh each round
  EXPECT_EQ(P->form(4).Kind, K::Other); // the lambda runs after t4's write
}

// A helper's parameter is what every call in the unit passes, when the
// unit holds every call (inline, internal or template helpers).
TEST(LaneIdentity, ParameterFromCallers) {
  const std::string Code = R"cuda(
    __device__ inline void count(unsigned tx, int w) { use(tx % 32); use(w); }
    __device__ void externHelper(unsigned tx) { use(tx % 32); }
    __device__ inline void mixed(unsigned tx) { use(tx % 32); }
    __device__ inline void rewritten(unsigned tx) { tx += 1; use(tx % 32); }
    __global__ void k1(const int *p) {
      const unsigned tx = threadIdx.x;
      count(tx, 3); externHelper(tx); mixed(tx); rewritten(tx);
    }
    __global__ void k2(const int *p) {
      count(threadIdx.x, 3); externHelper(threadIdx.x); mixed(p[threadIdx.x]);
      rewritten(threadIdx.x);
    })cuda";
  auto Count = parse(Code, "count");
  ASSERT_TRUE(Count);
  EXPECT_EQ(Count->form(0).Kind, K::Lane);
  EXPECT_EQ(Count->form(1).Kind, K::Constant);
  auto Extern = parse(Code, "externHelper");
  ASSERT_TRUE(Extern);
  EXPECT_EQ(Extern->form(0).Kind, K::Other); // another unit may call it
  auto Mixed = parse(Code, "mixed");
  ASSERT_TRUE(Mixed);
  EXPECT_EQ(Mixed->form(0).Kind, K::Other); // the callers disagree
  auto Rewritten = parse(Code, "rewritten");
  ASSERT_TRUE(Rewritten);
  EXPECT_EQ(Rewritten->form(0).Kind, K::Other);
}

// LocalWrites: which lane special register an asm output copies.
TEST(LocalWrites, LaneRegisters) {
  auto P = parse(R"cuda(
    __global__ void k() {
      unsigned lt, ge, eq, id, two, both, le;
      asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
      asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
      asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
      asm("mov.u32 %0, %%laneid;" : "=r"(id));
      asm("mov.u32 %0, %%lanemask_gt; mov.u32 %1, %%lanemask_le;" : "=r"(two), "=r"(le));
      asm("mov.u32 %0, %%lanemask_lt;" : "=r"(both));
      asm("mov.u32 %0, %%lanemask_gt;" : "=r"(both));
      use(lt + ge + eq + id + two + both + le);
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  auto V = [&](const char *Name) { return P->C.Vars.at(Name); };
  const LocalWriteFacts &W = localWritesOfBody(P->FD);
  EXPECT_EQ(W.laneRegisterOutput(V("lt")), LaneRegister::MaskLt);
  EXPECT_EQ(W.laneRegisterOutput(V("ge")), LaneRegister::MaskGe);
  EXPECT_EQ(W.laneRegisterOutput(V("eq")), LaneRegister::MaskEq);
  EXPECT_EQ(W.laneRegisterOutput(V("id")), LaneRegister::LaneId);
  EXPECT_TRUE(W.isLaneRegisterOutput(V("id")));
  EXPECT_FALSE(W.isLaneRegisterOutput(V("lt"))); // a mask is not the lane id
  // Two registers in one statement: each output gets the one moved into it.
  EXPECT_EQ(W.laneRegisterOutput(V("two")), LaneRegister::MaskGt);
  EXPECT_EQ(W.laneRegisterOutput(V("le")), LaneRegister::MaskLe);
  // Two different registers into one local: it holds neither everywhere.
  EXPECT_EQ(W.laneRegisterOutput(V("both")), LaneRegister::MaskLt);
  EXPECT_TRUE(W.isWrittenAfterInit(V("both")));
}

// LocalWrites: a local declared without an initialiser and assigned once has
// that one value; a second write, a loop around the assignment alone, or an
// initialiser take it away.
TEST(LocalWrites, OnlyAssignedValue) {
  auto P = parse(R"cuda(
    __global__ void k(int n) {
      int tid, lane, twice, inLoop, initialised = 0;
      tid = blockDim.x * blockIdx.x + threadIdx.x;
      lane = tid & 31;
      twice = 1;
      twice = 2;
      for (int i = 0; i < n; ++i)
        inLoop = i;
      initialised = 3;
      for (int j = 0; j < n; ++j) {
        int fresh;
        fresh = j;
        use(fresh);
      }
      use(tid + lane + twice + inLoop + initialised);
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  auto V = [&](const char *Name) { return P->C.Vars.at(Name); };
  const LocalWriteFacts &W = localWritesOfBody(P->FD);
  const Expr *Lane = W.onlyAssignedValue(V("lane"));
  ASSERT_TRUE(Lane);
  EXPECT_TRUE(isa<BinaryOperator>(Lane->IgnoreParenImpCasts()));
  EXPECT_TRUE(W.onlyAssignedValue(V("tid")));
  EXPECT_EQ(W.onlyAssignedValue(V("twice")), nullptr);
  EXPECT_EQ(W.onlyAssignedValue(V("inLoop")), nullptr); // a later round overwrites it
  EXPECT_EQ(W.onlyAssignedValue(V("initialised")), nullptr);
  EXPECT_TRUE(W.onlyAssignedValue(V("fresh"))); // declared in the loop: each round anew
  EXPECT_EQ(W.onlyAssignedValue(V("n")), nullptr);
}

// LocalWrites: what counts as a write, the lane register, scoped queries,
// and one scan per body per translation unit.
TEST(LocalWrites, Facts) {
  auto P = parse(R"cuda(
    struct Pair { int x, y; };
    __global__ void k(int n, int m) {
      int a = 1;
      Pair s = {1, 2};   s.y = 3;
      int arr[2] = {0, 0}; arr[1] = 5;
      unsigned lane;
      asm("mov.u32 %0, %%laneid;" : "=r"(lane));
      unsigned l2, w2;
      asm("mov.u32 %0, %%laneid; mov.u32 %1, %%warpid;" : "=r"(l2), "=r"(w2));
      unsigned initialised = 0;
      asm("mov.u32 %0, %%laneid;" : "=r"(initialised));
      n += 1;
      for (int i = 0; i < 4; ++i)
        a = a;
      use(a + s.x + arr[0] + lane + l2 + w2 + initialised + n + m);
    })cuda",
                 "k");
  ASSERT_TRUE(P);
  auto V = [&](const char *Name) { return P->C.Vars.at(Name); };
  const LocalWriteFacts &W = localWritesOfBody(P->FD);
  EXPECT_EQ(&W, localWritesOf(V("a"))); // one scan per body
  EXPECT_EQ(W.writesAfterInit(V("a")), 1u);
  EXPECT_TRUE(W.isWrittenAfterInit(V("s")));
  EXPECT_TRUE(W.isWrittenAfterInit(V("arr")));
  EXPECT_TRUE(W.isLaneRegisterOutput(V("lane")));
  EXPECT_FALSE(W.isWrittenAfterInit(V("lane")));
  EXPECT_TRUE(W.isLaneRegisterOutput(V("l2")));
  EXPECT_FALSE(W.isLaneRegisterOutput(V("w2"))); // the other output reads %warpid
  EXPECT_TRUE(W.isWrittenAfterInit(V("w2")));
  EXPECT_FALSE(W.isLaneRegisterOutput(V("initialised")));
  EXPECT_TRUE(W.isWrittenAfterInit(V("n")));
  EXPECT_FALSE(W.isWrittenAfterInit(V("m")));
  EXPECT_EQ(W.singleDefinition(V("a")), nullptr);
  EXPECT_EQ(W.singleDefinition(V("m")), nullptr); // a parameter has no initialiser
  EXPECT_EQ(W.singleDefinition(V("lane")), nullptr);
  // Scoped: `a` is written only inside the loop.
  const Stmt *Loop = nullptr;
  for (const Stmt *S : cast<CompoundStmt>(P->FD->getBody())->body())
    if (isa<ForStmt>(S))
      Loop = cast<ForStmt>(S)->getBody();
  ASSERT_TRUE(Loop);
  EXPECT_FALSE(isNeverWrittenIn(V("a"), Loop));
  EXPECT_TRUE(isNeverWrittenIn(V("n"), Loop));
}
