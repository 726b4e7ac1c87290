// Unit tests for analysis/UnitParents.h: for every statement and
// declaration of a unit (template instantiations and implicit code
// included), the index's first and last parents must be the first and last
// of clang's parent map, which it replaced. Nodes it does not hold are
// answered by clang's map itself, so they agree by construction; the tests
// also check that the nodes the analyses walk through (bodies, locals,
// lambdas, initialiser lists, asm) are held.
#include "ast/UnitParents.h"
#include "AllNodes.h"
#include "ast/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

std::string describe(const DynTypedNode &N, const SourceManager &SM) {
  std::string Text = N.getNodeKind().asStringRef().str();
  return Text + " at " + N.getSourceRange().getBegin().printToString(SM);
}

// Compares both answers on every node; returns how many nodes the index
// answered itself (the rest went to clang's map).
unsigned compare(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST =
      test::parseCudaUnit(test::parentTestPrelude() + Code, {"-std=c++17"});
  if (!AST) {
    ADD_FAILURE() << "the unit does not parse";
    return 0;
  }
  ASTContext &Ctx = AST->getASTContext();
  unsigned Before = parentMapFallbacks(), Asked = 0;
  for (const DynTypedNode &N : test::allNodes(Ctx)) {
    DynTypedNodeList Clang = Ctx.getParents(N);
    DynTypedNode First = firstParent(N, Ctx), Last = lastParent(N, Ctx);
    Asked += 2;
    if (Clang.empty()) {
      EXPECT_TRUE(isNone(First) && isNone(Last)) << describe(N, Ctx.getSourceManager());
      continue;
    }
    EXPECT_TRUE(First == Clang[0]) << "first parent of " << describe(N, Ctx.getSourceManager());
    EXPECT_TRUE(Last == Clang[Clang.size() - 1])
        << "last parent of " << describe(N, Ctx.getSourceManager());
  }
  return Asked - (parentMapFallbacks() - Before);
}

// enclosingCallable() must find what clang's forCallable matcher binds, on
// every call of the unit (a shared node's latest instantiation; a lambda's
// call operator, for its body and its init captures alike; a default
// argument's function), and nothing for a call outside any function.
// Returns how many calls had a callable.
unsigned compareCallables(const std::string &Code) {
  using namespace clang::ast_matchers;
  std::unique_ptr<ASTUnit> AST =
      test::parseCudaUnit(test::parentTestPrelude() + Code, {"-std=c++17"});
  if (!AST) {
    ADD_FAILURE() << "the unit does not parse";
    return 0;
  }
  ASTContext &Ctx = AST->getASTContext();
  llvm::DenseMap<const CallExpr *, const FunctionDecl *> ClangAnswer;
  for (const BoundNodes &B :
       match(traverse(TK_AsIs, callExpr(forCallable(functionDecl().bind("fn"))).bind("call")), Ctx))
    ClangAnswer[B.getNodeAs<CallExpr>("call")] = B.getNodeAs<FunctionDecl>("fn");
  unsigned Compared = 0;
  for (const BoundNodes &B : match(traverse(TK_AsIs, callExpr().bind("call")), Ctx)) {
    const auto *Call = B.getNodeAs<CallExpr>("call");
    const FunctionDecl *Ours = enclosingCallable(Call, Ctx);
    EXPECT_EQ(Ours, ClangAnswer.lookup(Call))
        << "call at " << Call->getBeginLoc().printToString(Ctx.getSourceManager());
    Compared += Ours != nullptr;
  }
  return Compared;
}

// Templates whose instantiations share nodes with their pattern (the
// non-dependent `lane`), a `__launch_bounds__` expression, explicit
// instantiations, a class template's method.
const std::string TemplateUnit = R"cuda(
__attribute__((host)) __device__ constexpr int warps(int n) { return n / 32; }
template <int N>
__global__ void __attribute__((launch_bounds(warps(N) * 32, 1))) bounded(unsigned *p) {
  p[threadIdx.x] = N;
}
template <int N> __device__ unsigned g(unsigned v) {
  unsigned lane = threadIdx.x % 32;          // not dependent: shared
  if (lane < N) v += __shfl_sync(0xffffffff, v, 1);
  __syncwarp();
  if constexpr (N > 8) return v; else return lane;
}
template __global__ void bounded<64>(unsigned *);
template __global__ void bounded<128>(unsigned *);
template <typename T> struct Box {
  T value;
  __device__ T get() const { return value + T(threadIdx.x); }
};
__global__ void k(unsigned v) {
  use(g<4>(v) + g<16>(v) + g<32>(v));
  use(Box<unsigned>{v}.get());

}
)cuda";

TEST(UnitParents, EnclosingCallableIsForCallable) {
  unsigned Calls = compareCallables(TemplateUnit + R"cuda(
__device__ int table = warps(64);            // in no function
__device__ int scaled(int v, int w = warps(256)) { return v * w; }
__device__ void h(unsigned v, unsigned mask = 0xffffffff) {
  auto add = [&, w = v + warps(64)](unsigned x) { return __shfl_sync(mask, x + w, 0); };
  auto generic = [](auto x) { return x * 2; };
  use(add(v) + generic(1u) + unsigned(generic(2.0)) + g<4>(v) + g<16>(v) + scaled(v));
  __syncwarp();
}
)cuda");
  EXPECT_GT(Calls, 10u);
}

TEST(UnitParents, FunctionsLocalsAndControlFlow) {
  unsigned Indexed = compare(R"cuda(
struct Pair { unsigned a, b; };
__device__ unsigned f(unsigned v, int n) {
  unsigned lane = threadIdx.x & 31, sum = 0;
  Pair p{v, lane};
  int arr[2] = {1, 2};
  for (int i = 0; i < n; ++i) {
    if (lane < 16 && i > 0) sum += __shfl_sync(0xffffffff, v, i);
    else sum = lane ? sum : p.a;
  }
  for (int x : arr) sum += x;
  switch (n) { case 1: __syncwarp(); break; default: break; }
  unsigned r;
  asm volatile("mov.u32 %0, %1;" : "=r"(r) : "r"(sum));
  return r + p.b;
}
)cuda");
  EXPECT_GT(Indexed, 100u);
}

TEST(UnitParents, TemplatesShareNodesWithTheirInstantiations) {
  unsigned Indexed = compare(TemplateUnit);
  EXPECT_GT(Indexed, 100u);
}

TEST(UnitParents, LambdasAndDefaultArguments) {
  unsigned Indexed = compare(R"cuda(
__device__ void h(unsigned v, unsigned mask = 0xffffffff) {
  auto add = [&, w = v + 1](unsigned x) { return __shfl_sync(mask, x + w, 0); };
  auto generic = [](auto x) { return x * 2; };
  use(add(v) + generic(1u) + unsigned(generic(2.0)));
  __syncwarp();
}
)cuda");
  EXPECT_GT(Indexed, 50u);
}

} // namespace
