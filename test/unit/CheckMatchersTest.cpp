// Unit tests for analysis/CheckMatchers.h: the one-step call matchers the
// checks register must match exactly the calls clang's composed matchers
// they replaced match (`callee(functionDecl(hasAnyName(...)))`, and
// `callee(functionDecl(hasBody(stmt())))`), on every call of a unit: free
// functions, members, calls through a pointer, operators, constructors'
// bodies, templates' patterns and instantiations, and a call that names a
// declaration before the one with the body.
#include "matchers/CheckMatchers.h"
#include "CudaTestUnits.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace warp_tidy;

namespace {

const std::string Unit = test::cudaStandIns(
    "__device__ unsigned __shfl_sync(unsigned, unsigned, int);\n"
    "__device__ unsigned __shfl_down_sync(unsigned, unsigned, unsigned);\n"
    "namespace cooperative_groups { struct tile { __device__ unsigned shfl(unsigned, int) const; "
    "}; }\n"
    "__device__ inline unsigned systemHelper(unsigned v) { return v; }\n"
    "template <typename T> __device__ T systemTemplate(T v) { return v; }\n"
    "#define DEFINE_PROJECT_HELPER(name) __device__ unsigned name(unsigned v) { return v; }\n",
    R"cuda(
DEFINE_PROJECT_HELPER(fromSystemMacro)
struct Defaulted { Defaulted() = default; __device__ Defaulted(int) {} };
__device__ unsigned helper(unsigned v);            // declared first ...
__device__ unsigned viaEarlier(unsigned v) { return helper(v); }
__device__ unsigned helper(unsigned v) { return v + 1; }   // ... defined later
__device__ unsigned after(unsigned v) { return helper(v); }
struct Sum {
  unsigned total = 0;
  __device__ unsigned operator()(unsigned v) { return total += v; }
  __device__ unsigned shfl(unsigned v, int lane) const { return v + lane; }
};
namespace mine { __device__ unsigned __shfl_sync(unsigned m, unsigned v, int l) { return v; } }
template <typename T> __device__ T twice(T v) { return __shfl_sync(0xffffffff, v, 0) + helper(v); }
template <typename T> __device__ T dependent(T v) { return __shfl_down_sync(0xffffffff, v, 1) + T(); }
__global__ void k(unsigned v, cooperative_groups::tile t) {
  unsigned (*fp)(unsigned) = helper;
  Sum s;
  unsigned r = fp(v) + s(v) + s.shfl(v, 1) + t.shfl(v, 0) + mine::__shfl_sync(0, v, 1);
  r += twice(v) + twice(int(v)) + dependent(v) + viaEarlier(v) + after(v);
  auto lambda = [&](unsigned x) { return __shfl_sync(0xffffffff, x, 2); };
  r += lambda(r) + systemHelper(r) + systemTemplate(r) + fromSystemMacro(r);
  Defaulted d, e(1);
  __shfl_sync(0xffffffff, r, 3);
}
)cuda");

struct Agreement {
  unsigned Nodes = 0, Matched = 0, Disagreements = 0;
};

// Runs both matchers on every node of the unit that \p All matches (nodes
// of type Node).
template <typename Node, typename AllMatcher, typename Ours, typename Clangs>
Agreement compare(const AllMatcher &All, const Ours &OurMatcher, const Clangs &ClangMatcher) {
  Agreement A;
  std::unique_ptr<ASTUnit> AST = test::parseCudaUnit(Unit, {"-std=c++17"});
  if (!AST) {
    ADD_FAILURE() << "the unit does not parse";
    return A;
  }
  ASTContext &Ctx = AST->getASTContext();
  for (const BoundNodes &B : match(All.bind("node"), Ctx)) {
    const auto *N = B.getNodeAs<Node>("node");
    bool Mine = !match(OurMatcher, *N, Ctx).empty();
    bool Theirs = !match(ClangMatcher, *N, Ctx).empty();
    ++A.Nodes;
    A.Matched += Mine;
    if (Mine != Theirs) {
      ++A.Disagreements;
      ADD_FAILURE() << "ours " << Mine << ", clang's " << Theirs << " for the node at "
                    << N->getBeginLoc().printToString(Ctx.getSourceManager());
    }
  }
  return A;
}

TEST(CheckMatchers, CalleeNamesMatchWhatHasAnyNameMatches) {
  Agreement A = compare<CallExpr>(
      callExpr(), callExpr(calleeNamedAnyOf({"__shfl_sync", "__shfl_down_sync", "shfl", "helper"})),
      callExpr(
          callee(functionDecl(hasAnyName("__shfl_sync", "__shfl_down_sync", "shfl", "helper")))));
  EXPECT_EQ(A.Disagreements, 0u);
  EXPECT_GT(A.Nodes, 20u);
  // Matched: the shuffles (free, in the templates' instantiations, the
  // lambda's, the namespace's), both `shfl` members, `helper` by name.
  EXPECT_GT(A.Matched, 10u);
  EXPECT_LT(A.Matched, A.Nodes);
}

TEST(CheckMatchers, CalleeDefinitionMatchesWhatHasBodyMatches) {
  Agreement A = compare<CallExpr>(callExpr(), callExpr(calleeIsDefinitionWithBody()),
                                  callExpr(callee(functionDecl(hasBody(stmt())))));
  EXPECT_EQ(A.Disagreements, 0u);
  EXPECT_GT(A.Matched, 5u);
  EXPECT_LT(A.Matched, A.Nodes);
}

// The function matcher of the checks that analyse whole functions, on
// every declaration of the unit: definitions in the stand-in system header
// (a function, a template and its instantiation) and in the project (one
// from a system header's macro, a defaulted constructor, templates).
TEST(CheckMatchers, ProjectFunctionDefinitionsAreWhatClangsCompositionMatches) {
  Agreement A =
      compare<FunctionDecl>(functionDecl(), functionDecl(isProjectFunctionDefinition()),
                            functionDecl(isDefinition(), unless(isExpansionInSystemHeader())));
  EXPECT_EQ(A.Disagreements, 0u);
  EXPECT_GT(A.Matched, 10u);
  EXPECT_LT(A.Matched + 5, A.Nodes);
}

} // namespace
