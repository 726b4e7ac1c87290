// Unit tests for analysis/ast/ConstantPath.h: the return a body reaches when
// its branches are decided by constants, and no return when a branch, loop
// or effect is decided at run time.
#include "ast/ConstantPath.h"
#include "CudaTestUnits.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

/// The integer literal \p Name's constant path returns, -1 for another
/// returned expression, or nullopt when the body has no constant path.
/// \p Name is a function, or `name<N>` for an instantiation of a template.
std::optional<int64_t> returnedLiteral(const std::string &Code, llvm::StringRef Name,
                                       std::optional<int64_t> TemplateArg = std::nullopt) {
  std::unique_ptr<ASTUnit> AST =
      test::parseCudaUnit(test::cudaStandIns("", "") + Code, {"-std=c++17"});
  if (!AST) {
    ADD_FAILURE() << "the unit does not parse";
    return std::nullopt;
  }
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Def = nullptr;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *Template = dyn_cast<FunctionTemplateDecl>(D);
    if (!TemplateArg || !Template || Template->getName() != Name)
      continue;
    for (const FunctionDecl *Spec : Template->specializations())
      if (Spec->getTemplateSpecializationArgs()->get(0).getAsIntegral() == *TemplateArg)
        Def = Spec;
  }
  if (!TemplateArg)
    Def = test::findFunction(Ctx, Name);
  if (!Def) {
    ADD_FAILURE() << "no function " << Name.str();
    return std::nullopt;
  }
  ConstantPath Path = constantPath(Def);
  if (!Path.Return)
    return std::nullopt;
  const auto *Literal = dyn_cast<IntegerLiteral>(Path.Return->getRetValue()->IgnoreImpCasts());
  return Literal ? int64_t(Literal->getValue().getSExtValue()) : -1;
}

const char *const Selectors = R"(
template <int dim> __device__ int bySwitch(int item) {
  (void)item;
  switch (dim) {
  case 1:
    return 10;
  case 2:
  case 3:
    return 20;
  default:
    break;
  }
  return 30;
}
template <int dim> __device__ int byIf(int item) {
  if (dim == 0) { return 1; }
  if (dim == 1) { return 2; }
  return 3;
}
template <int dim> __device__ int fallThrough() {
  int r = 0;
  switch (dim) {
  case 1:
    ;
  case 2:
    return 5;
  }
  return 6;
}
__device__ int useAll() {
  return bySwitch<1>(0) + bySwitch<3>(0) + bySwitch<7>(0) + byIf<1>(0) + byIf<5>(0) +
         fallThrough<1>() + fallThrough<4>();
}
)";

TEST(ConstantPath, SwitchOnATemplateConstantTakesItsCase) {
  EXPECT_EQ(returnedLiteral(Selectors, "bySwitch", 1), 10);
  EXPECT_EQ(returnedLiteral(Selectors, "bySwitch", 3), 20);
  // `default: break;` leaves the switch for the return after it.
  EXPECT_EQ(returnedLiteral(Selectors, "bySwitch", 7), 30);
}

TEST(ConstantPath, IfChainOnATemplateConstantTakesItsBranch) {
  EXPECT_EQ(returnedLiteral(Selectors, "byIf", 1), 2);
  EXPECT_EQ(returnedLiteral(Selectors, "byIf", 5), 3);
}

TEST(ConstantPath, CasesFallThroughAndUnmatchedSwitchesAreSkipped) {
  EXPECT_EQ(returnedLiteral(Selectors, "fallThrough", 1), 5);
  EXPECT_EQ(returnedLiteral(Selectors, "fallThrough", 4), 6);
}

TEST(ConstantPath, RunTimeBranchesLoopsAndEffectsHaveNoPath) {
  const char *Code = R"(
__device__ int sink;
__device__ int byMode(int mode) {
  switch (mode) {
  case 0:
    return 1;
  }
  return 2;
}
__device__ int looped() {
  for (int i = 0; i < 2; ++i)
    ;
  return 1;
}
__device__ int stores() {
  sink = 1;
  return 1;
}
__device__ int plain() {
  const int k = 4;
  return 7;
}
)";
  EXPECT_EQ(returnedLiteral(Code, "byMode"), std::nullopt);
  EXPECT_EQ(returnedLiteral(Code, "looped"), std::nullopt);
  EXPECT_EQ(returnedLiteral(Code, "stores"), std::nullopt);
  EXPECT_EQ(returnedLiteral(Code, "plain"), 7);
}

} // namespace
