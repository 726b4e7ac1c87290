// Unit tests for analysis/CheckMatchers.h: the one-step call matchers the
// checks register must match exactly the calls clang's composed matchers
// they replaced match (`callee(functionDecl(hasAnyName(...)))`, and
// `callee(functionDecl(hasBody(stmt())))`), on every call of a unit: free
// functions, members, calls through a pointer, operators, constructors'
// bodies, templates' patterns and instantiations, and a call that names a
// declaration before the one with the body.
#include "analysis/CheckMatchers.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "CudaTestUnits.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace warp_tidy;

namespace {

const std::string Unit = test::cudaStandIns(
    "__device__ unsigned __shfl_sync(unsigned, unsigned, int);\n"
    "__device__ unsigned __shfl_down_sync(unsigned, unsigned, unsigned);\n"
    "namespace cooperative_groups { struct tile { __device__ unsigned shfl(unsigned, int) const; }; }\n"
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
  unsigned Calls = 0, Matched = 0, Disagreements = 0;
};

template <typename Ours, typename Clangs>
Agreement compare(ASTContext &Ctx, const Ours &OurMatcher, const Clangs &ClangMatcher) {
  Agreement A;
  for (const BoundNodes &B : match(callExpr().bind("call"), Ctx)) {
    const auto *Call = B.getNodeAs<CallExpr>("call");
    bool Mine = !match(OurMatcher, *Call, Ctx).empty();
    bool Theirs = !match(ClangMatcher, *Call, Ctx).empty();
    ++A.Calls;
    A.Matched += Mine;
    if (Mine != Theirs) {
      ++A.Disagreements;
      ADD_FAILURE() << "ours " << Mine << ", clang's " << Theirs << " for the call at "
                    << Call->getBeginLoc().printToString(Ctx.getSourceManager());
    }
  }
  return A;
}

TEST(CheckMatchers, CalleeNamesMatchWhatHasAnyNameMatches) {
  std::unique_ptr<ASTUnit> AST = test::parseCudaUnit(Unit, {"-std=c++17"});
  ASSERT_TRUE(AST);
  Agreement A = compare(
      AST->getASTContext(),
      callExpr(calleeNamedAnyOf({"__shfl_sync", "__shfl_down_sync", "shfl", "helper"})),
      callExpr(callee(functionDecl(hasAnyName("__shfl_sync", "__shfl_down_sync", "shfl",
                                              "helper")))));
  EXPECT_EQ(A.Disagreements, 0u);
  EXPECT_GT(A.Calls, 20u);
  // Matched: the shuffles (free, in the templates' instantiations, the
  // lambda's, the namespace's), both `shfl` members, `helper` by name.
  EXPECT_GT(A.Matched, 10u);
  EXPECT_LT(A.Matched, A.Calls);
}

TEST(CheckMatchers, CalleeDefinitionMatchesWhatHasBodyMatches) {
  std::unique_ptr<ASTUnit> AST = test::parseCudaUnit(Unit, {"-std=c++17"});
  ASSERT_TRUE(AST);
  Agreement A = compare(AST->getASTContext(), callExpr(calleeIsDefinitionWithBody()),
                        callExpr(callee(functionDecl(hasBody(stmt())))));
  EXPECT_EQ(A.Disagreements, 0u);
  EXPECT_GT(A.Matched, 5u);
  EXPECT_LT(A.Matched, A.Calls);
}

// The function matcher of the checks that analyse whole functions, on
// every declaration of the unit: definitions in the stand-in system header
// (a function, a template and its instantiation) and in the project (one
// from a system header's macro, a defaulted constructor, templates).
TEST(CheckMatchers, ProjectFunctionDefinitionsAreWhatClangsCompositionMatches) {
  std::unique_ptr<ASTUnit> AST = test::parseCudaUnit(Unit, {"-std=c++17"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  unsigned Functions = 0, Matched = 0;
  for (const BoundNodes &B : match(functionDecl().bind("fn"), Ctx)) {
    const auto *FD = B.getNodeAs<FunctionDecl>("fn");
    bool Mine = !match(functionDecl(isProjectFunctionDefinition()), *FD, Ctx).empty();
    bool Theirs =
        !match(functionDecl(isDefinition(), unless(isExpansionInSystemHeader())), *FD, Ctx)
             .empty();
    ++Functions;
    Matched += Mine;
    EXPECT_EQ(Mine, Theirs) << "function at "
                            << FD->getLocation().printToString(Ctx.getSourceManager());
  }
  EXPECT_GT(Matched, 10u);
  EXPECT_LT(Matched + 5, Functions);
}

} // namespace
