// Unit tests for analysis/DiscardedBranches.h: the index of statements in
// discarded `if constexpr` branches must answer, for every statement of a
// unit, what the walk up clang's parent map answers (it replaced that walk),
// on ordinary functions, template patterns and their instantiations,
// generic and plain lambdas, nested and dependent conditions.
#include "ast/DiscardedBranches.h"
#include "AllNodes.h"
#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

struct Counts {
  unsigned Statements = 0, Discarded = 0, Mismatches = 0;
};

Counts compare(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST =
      test::parseCudaUnit(test::parentTestPrelude() + Code, {"-std=c++17"});
  Counts C;
  if (!AST) {
    ADD_FAILURE() << "the unit does not parse";
    return C;
  }
  ASTContext &Ctx = AST->getASTContext();
  for (const DynTypedNode &Node : test::allNodes(Ctx)) {
    const auto *S = Node.get<Stmt>();
    if (!S)
      continue;
    // An instantiation's discarded branch is an empty block standing in for
    // it; the parent walk calls that block discarded, the index does not.
    // It holds nothing, and the analyses ask about calls and values only.
    if (const auto *Block = dyn_cast<CompoundStmt>(S); Block && Block->body_empty())
      continue;
    bool Indexed = isInDiscardedBranch(S, Ctx);
    bool Walked = isInDiscardedBranchByParents(S, Ctx);
    ++C.Statements;
    C.Discarded += Indexed;
    if (Indexed != Walked) {
      ++C.Mismatches;
      ADD_FAILURE() << "index " << Indexed << ", parent walk " << Walked << " for a "
                    << S->getStmtClassName() << " at "
                    << S->getBeginLoc().printToString(Ctx.getSourceManager());
    }
  }
  return C;
}

TEST(DiscardedBranches, OrdinaryFunctions) {
  Counts C = compare(R"cuda(
constexpr bool Wide = false;
__device__ void f(unsigned v) {
  if constexpr (Wide) {
    use(__shfl_sync(0xffffffff, v, 0));
    if constexpr (!Wide) use(1); else use(2);
  } else {
    use(__shfl_sync(0x0000ffff, v, 0));
  }
  if constexpr (sizeof(int) == 4) use(3);
  if (v) use(4);
}
)cuda");
  EXPECT_EQ(C.Mismatches, 0u);
  EXPECT_GT(C.Discarded, 5u); // the whole then-branch, nested ifs included
}

TEST(DiscardedBranches, TemplatesAndTheirInstantiations) {
  Counts C = compare(R"cuda(
template <int N> __device__ void g(unsigned v) {
  if constexpr (N > 16) {
    use(__shfl_sync(0xffffffff, v, 0));
  } else {
    __syncwarp();
  }
  if constexpr (sizeof(long) == 2) { __syncwarp(); use(5); }
  __syncwarp();
}
template <typename T> struct Box {
  __device__ void put(T v) { if constexpr (sizeof(T) == 8) use(6); else use(unsigned(v)); }
};
__global__ void k(unsigned v) {
  g<8>(v); g<32>(v);
  Box<int>().put(1); Box<double>().put(2.0);
}
)cuda");
  EXPECT_EQ(C.Mismatches, 0u);
  EXPECT_GT(C.Discarded, 3u);
}

TEST(DiscardedBranches, Lambdas) {
  Counts C = compare(R"cuda(
__device__ void h(unsigned v) {
  if constexpr (false) {
    auto l = [&](unsigned x) { use(__shfl_sync(0xffffffff, x, 0)); };
    l(v);
  }
  auto generic = [](auto x) {
    if constexpr (sizeof(x) == 4) use(7); else use(8);
  };
  generic(1); generic(1.0);
  [=] { if constexpr (true) use(v); else use(9); }();
}
)cuda");
  EXPECT_EQ(C.Mismatches, 0u);
  EXPECT_GT(C.Discarded, 4u);
}

} // namespace
