//===--- SwitchCoverage.cpp - Switches whose cases name every value -------===//

#include "ast/SwitchCoverage.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

using namespace clang;

namespace warp_tidy {

namespace {
constexpr uint64_t MaxValues = 256;

/// The values \p E can take, when its form bounds them to a small set.
std::optional<llvm::SmallVector<uint64_t, 16>> possibleValues(const Expr *E,
                                                              const ASTContext &Ctx) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = stripValue(E);
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    const Expr *Init = V ? singleAssignmentInit(V) : nullptr;
    if (!Init)
      break;
    E = Init;
  }
  const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  llvm::SmallVector<uint64_t, 16> Values;
  if (BO->getOpcode() == BO_And) {
    std::optional<int64_t> M = integerConstant(BO->getRHS(), Ctx);
    if (!M)
      M = integerConstant(BO->getLHS(), Ctx);
    if (!M || *M < 0 || *M >= int64_t(MaxValues))
      return std::nullopt;
    // Every submask of M.
    for (uint64_t Sub = uint64_t(*M);; Sub = (Sub - 1) & uint64_t(*M)) {
      Values.push_back(Sub);
      if (Sub == 0)
        break;
    }
    return Values;
  }
  if (BO->getOpcode() == BO_Rem && BO->getLHS()->getType()->isUnsignedIntegerType()) {
    std::optional<int64_t> N = integerConstant(BO->getRHS(), Ctx);
    if (!N || *N <= 0 || *N > int64_t(MaxValues))
      return std::nullopt;
    for (int64_t I = 0; I < *N; ++I)
      Values.push_back(uint64_t(I));
    return Values;
  }
  return std::nullopt;
}
} // namespace

bool switchCoversEveryValue(const SwitchStmt *S, const ASTContext &Ctx) {
  if (!S || !S->getCond())
    return false;
  llvm::DenseSet<uint64_t> Cases;
  for (const SwitchCase *C = S->getSwitchCaseList(); C; C = C->getNextSwitchCase()) {
    if (isa<DefaultStmt>(C))
      return false; // the default edge has a body of its own
    const auto *Case = cast<CaseStmt>(C);
    std::optional<int64_t> V = integerConstant(Case->getLHS(), Ctx);
    if (!V || Case->caseStmtIsGNURange())
      return false;
    Cases.insert(uint64_t(*V));
  }
  std::optional<llvm::SmallVector<uint64_t, 16>> Values = possibleValues(S->getCond(), Ctx);
  return Values && llvm::all_of(*Values, [&](uint64_t V) { return Cases.contains(V); });
}

} // namespace warp_tidy
