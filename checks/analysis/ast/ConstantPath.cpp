//===--- ConstantPath.cpp - The return a body reaches on constants --------===//

#include "ast/ConstantPath.h"
#include "ast/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace warp_tidy {
namespace {

/// Runs statements the way the program would, deciding branches by their
/// constant conditions. Each step reports how control leaves the statement.
class PathRunner {
public:
  enum class Exit { Next, Returned, Broke, Unknown };

  PathRunner(const ASTContext &Ctx, ConstantPath &Path) : Ctx(Ctx), Path(Path) {}

  Exit run(const Stmt *S) {
    if (!S || isa<NullStmt>(S))
      return Exit::Next;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      Path.Return = Ret;
      return Exit::Returned;
    }
    if (isa<BreakStmt>(S))
      return Exit::Broke;
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      return runAll(Block->body());
    if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      Path.Declarations.push_back(Decl);
      return Exit::Next;
    }
    if (const auto *If = dyn_cast<IfStmt>(S))
      return runIf(If);
    if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      return runSwitch(Switch);
    // `(void)item;` and other expressions that change nothing.
    if (const auto *E = dyn_cast<Expr>(S); E && !E->HasSideEffects(Ctx))
      return Exit::Next;
    return Exit::Unknown;
  }

private:
  template <typename Range> Exit runAll(Range Statements) {
    for (const Stmt *S : Statements)
      if (Exit E = run(S); E != Exit::Next)
        return E;
    return Exit::Next;
  }

  std::optional<llvm::APSInt> constantCondition(const Expr *Cond) {
    if (!Cond || Cond->HasSideEffects(Ctx))
      return std::nullopt;
    return foldInteger(Cond, Ctx);
  }

  Exit runIf(const IfStmt *If) {
    if (If->getInit() || If->getConditionVariable() || If->isConsteval())
      return Exit::Unknown;
    std::optional<llvm::APSInt> Cond = constantCondition(If->getCond());
    if (!Cond)
      return Exit::Unknown;
    return run(Cond->getBoolValue() ? If->getThen() : If->getElse());
  }

  /// A switch whose body is a block of labelled statements: control enters
  /// at the matching label (or `default`), falls through the labels after
  /// it, and leaves at `break` or the block's end.
  Exit runSwitch(const SwitchStmt *Switch) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
    std::optional<llvm::APSInt> Value = constantCondition(Switch->getCond());
    if (Switch->getInit() || Switch->getConditionVariable() || !Body || !Value ||
        !labelsAtTop(Switch, Body))
      return Exit::Unknown;
    std::optional<unsigned> Entry;
    std::optional<unsigned> Default;
    for (unsigned I = 0; I < Body->size() && !Entry; ++I)
      for (const Stmt *S = Body->body_begin()[I]; isa_and_nonnull<SwitchCase>(S);
           S = cast<SwitchCase>(S)->getSubStmt()) {
        if (isa<DefaultStmt>(S))
          Default = I;
        else if (matches(cast<CaseStmt>(S), *Value))
          Entry = I;
      }
    if (!Entry)
      Entry = Default;
    if (!Entry)
      return Exit::Next;
    for (unsigned I = *Entry; I < Body->size(); ++I) {
      const Stmt *S = Body->body_begin()[I];
      while (const auto *Label = dyn_cast<SwitchCase>(S))
        S = Label->getSubStmt();
      Exit E = run(S);
      if (E == Exit::Broke)
        return Exit::Next;
      if (E != Exit::Next)
        return E;
    }
    return Exit::Next;
  }

  /// Whether every label of \p Switch heads a statement of its block (not
  /// one inside a nested statement, as in Duff's device).
  static bool labelsAtTop(const SwitchStmt *Switch, const CompoundStmt *Body) {
    unsigned Labels = 0;
    for (const SwitchCase *C = Switch->getSwitchCaseList(); C; C = C->getNextSwitchCase())
      ++Labels;
    for (const Stmt *S : Body->body())
      for (; isa_and_nonnull<SwitchCase>(S); S = cast<SwitchCase>(S)->getSubStmt())
        --Labels;
    return Labels == 0;
  }

  bool matches(const CaseStmt *Case, const llvm::APSInt &Value) {
    std::optional<llvm::APSInt> Low = foldInteger(Case->getLHS(), Ctx);
    if (!Low)
      return false;
    std::optional<llvm::APSInt> High =
        Case->caseStmtIsGNURange() ? foldInteger(Case->getRHS(), Ctx) : Low;
    return High && llvm::APSInt::compareValues(*Low, Value) <= 0 &&
           llvm::APSInt::compareValues(Value, *High) <= 0;
  }

  const ASTContext &Ctx;
  ConstantPath &Path;
};

} // namespace

ConstantPath constantPath(const FunctionDecl *Def) {
  ConstantPath Path;
  if (!Def || !Def->hasBody() || Def->isDependentContext())
    return Path;
  PathRunner Runner(Def->getASTContext(), Path);
  if (Runner.run(Def->getBody()) != PathRunner::Exit::Returned)
    return ConstantPath();
  return Path;
}

const Expr *onlyReturnedExpr(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  ConstantPath Path = constantPath(Def);
  return Path.Return && Path.Declarations.empty() ? Path.Return->getRetValue() : nullptr;
}

} // namespace warp_tidy
