//===--- DiscardedBranches.cpp - Code the compiler discards ---------------===//
//
// Every check asks, for each call it matches, whether the call sits in a
// discarded `if constexpr` branch. Answering by walking up clang's parent
// map makes the first question build that map for the whole unit: a
// traversal of every node, template instantiations included, that cost
// about 5% of the parse on ggml's template-heavy units, before any check
// ran. The answer does not need it:
//
//  - a template instantiation holds no discarded branch: clang does not
//    instantiate one (TreeTransform puts an empty block in its place), so
//    none of its nodes is reused by an instantiation either;
//  - in code that is not instantiated (ordinary functions, template
//    patterns, the lambdas written in them) every statement has one parent.
//
// So the statements below a discarded branch of the unit's written code are
// exactly those whose chain of parents passes through one, and one walk of
// the written code (no instantiations, no parent stack) finds them all.
//
//===----------------------------------------------------------------------===//

#include "ast/DiscardedBranches.h"
#include "ast/AstQueries.h"
#include "ast/UnitContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warp_tidy {
namespace {

using StmtSet = llvm::DenseSet<const Stmt *>;

void addSubtree(const Stmt *S, StmtSet &Out) {
  if (!S || !Out.insert(S).second)
    return;
  for (const Stmt *C : S->children())
    addSubtree(C, Out);
}

// The written code only: RecursiveASTVisitor's defaults skip template
// instantiations and implicit code, and it honours the context's traversal
// scope, as the parent map does.
class DiscardedCollector : public RecursiveASTVisitor<DiscardedCollector> {
public:
  explicit DiscardedCollector(StmtSet &Out) : Out(Out) {}
  bool shouldWalkTypesOfTypeLocs() const { return false; }
  bool VisitIfStmt(IfStmt *If) {
    addSubtree(discardedBranch(If), Out);
    return true;
  }

private:
  StmtSet &Out;
};

/// The unit's discarded statements, kept in its UnitContext.
struct DiscardedIndex {
  StmtSet Statements;
  bool Built = false;
};

} // namespace

const llvm::DenseSet<const Stmt *> &discardedStatements(ASTContext &Ctx) {
  DiscardedIndex &Index = UnitContext::of(Ctx).get<DiscardedIndex>();
  if (!Index.Built) {
    DiscardedCollector(Index.Statements).TraverseAST(Ctx);
    Index.Built = true;
  }
  return Index.Statements;
}

bool isInDiscardedBranch(const Stmt *S, ASTContext &Ctx) {
  return S && discardedStatements(Ctx).contains(S);
}

bool isInDiscardedBranchByParents(const Stmt *S, ASTContext &Ctx) {
  if (!S)
    return false;
  DynTypedNode Node = DynTypedNode::create(*S);
  // Bounded like enclosingFunction; lambdas are looked through (a lambda
  // written in a discarded branch is discarded with it).
  for (unsigned I = 0; I < 512; ++I) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *P = Parent.get<Stmt>())
      if (const Stmt *Discarded = discardedBranch(P))
        if (Node.get<Stmt>() == Discarded)
          return true;
    if (Parent.get<TranslationUnitDecl>())
      return false;
    Node = Parent;
  }
  return false;
}

} // namespace warp_tidy
