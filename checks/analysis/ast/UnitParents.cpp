//===--- UnitParents.cpp - Parents of statements without clang's parent map ===//

#include "ast/UnitParents.h"
#include "ast/NodeKeys.h"
#include "ast/UnitContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/PointerUnion.h"
#include <atomic>

using namespace clang;

namespace warp_tidy {
namespace {

using Node = llvm::PointerUnion<const Stmt *, const Decl *, const Attr *>;

struct Parents {
  Node First, Last;
};

using ParentTable = llvm::DenseMap<const void *, Parents, NodeKeyInfo<const void *>>;

/// The unit's parent index, kept in its UnitContext.
struct ParentIndex {
  ParentTable Table;
  bool Built = false;
};

std::atomic<unsigned> Fallbacks{0};

// The declarations in RecursiveASTVisitor's order, with the settings of
// clang's parent map (instantiations and implicit code visited), so that a
// node reached more than once gets its parents in clang's order.
class IndexBuilder : public RecursiveASTVisitor<IndexBuilder> {
  using Base = RecursiveASTVisitor<IndexBuilder>;

public:
  explicit IndexBuilder(ParentTable &Table) : Table(Table) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }

  // Not indexed: what lies below them is answered by clang's map.
  bool TraverseTypeLoc(TypeLoc) { return true; }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc) { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    record(D);
    Stack.push_back(D);
    bool Result = Base::TraverseDecl(D);
    Stack.pop_back();
    return Result;
  }

  // Attributes hold expressions too: `__launch_bounds__(nwarps(...) * 32)`.
  bool TraverseAttr(Attr *A) {
    if (!A)
      return true;
    record(A);
    Stack.push_back(static_cast<const Attr *>(A));
    bool Result = Base::TraverseAttr(A);
    Stack.pop_back();
    return Result;
  }

  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    walk(S);
    return true;
  }

private:
  void record(const void *Key) {
    if (Stack.empty())
      return;
    Node Parent = Stack.back();
    auto [It, Inserted] = Table.try_emplace(Key, Parents{Parent, Parent});
    // clang's map appends a parent it has not seen yet; the only order
    // that matters here is the first and the latest new one.
    if (!Inserted && It->second.First != Parent)
      It->second.Last = Parent;
  }

  void walkTemplateArguments(llvm::ArrayRef<TemplateArgumentLoc> Args) {
    for (const TemplateArgumentLoc &Arg : Args)
      if (Arg.getArgument().getKind() == TemplateArgument::Expression)
        walk(Arg.getSourceExpression());
  }

  // The statement children RecursiveASTVisitor gives each node, with the
  // node as their parent; the nodes whose children it finds some other way
  // than children() are followed as it does, or (rare in device code) left
  // to clang's map.
  void walk(Stmt *S) {
    if (!S)
      return;
    record(S);
    Stack.push_back(static_cast<const Stmt *>(S));
    // One switch on the class (most nodes take the default): this runs
    // for every statement of every instantiation.
    switch (S->getStmtClass()) {
    case Stmt::DeclStmtClass:
      for (Decl *D : cast<DeclStmt>(S)->decls())
        TraverseDecl(D);
      break;
    case Stmt::LambdaExprClass: {
      auto *Lambda = cast<LambdaExpr>(S);
      for (unsigned I = 0, N = Lambda->capture_size(); I != N; ++I)
        TraverseLambdaCapture(Lambda, Lambda->capture_begin() + I, Lambda->capture_init_begin()[I]);
      TraverseDecl(Lambda->getLambdaClass());
      break;
    }
    case Stmt::InitListExprClass: {
      // Both forms, written first, each child with this node as parent.
      auto *List = cast<InitListExpr>(S);
      InitListExpr *Syntactic = List->isSemanticForm() ? List->getSyntacticForm() : List;
      InitListExpr *Semantic = List->isSemanticForm() ? List : List->getSemanticForm();
      if (Syntactic)
        walkChildren(Syntactic);
      if (Semantic && Semantic != Syntactic)
        walkChildren(Semantic);
      break;
    }
    case Stmt::PseudoObjectExprClass: {
      // `threadIdx.x` is one: the written form, then the semantic
      // expressions with their opaque values looked through.
      auto *Pseudo = cast<PseudoObjectExpr>(S);
      walk(Pseudo->getSyntacticForm());
      for (Expr *Semantic : Pseudo->semantics()) {
        if (auto *Opaque = dyn_cast<OpaqueValueExpr>(Semantic))
          Semantic = Opaque->getSourceExpr();
        walk(Semantic);
      }
      break;
    }
    case Stmt::GCCAsmStmtClass: {
      auto *Asm = cast<GCCAsmStmt>(S);
      walk(Asm->getAsmStringExpr());
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        walk(Asm->getInputConstraintExpr(I));
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        walk(Asm->getOutputConstraintExpr(I));
      for (unsigned I = 0; I < Asm->getNumClobbers(); ++I)
        walk(Asm->getClobberExpr(I));
      walkChildren(S);
      break;
    }
    case Stmt::DeclRefExprClass:
      walkTemplateArguments(cast<DeclRefExpr>(S)->template_arguments());
      break;
    case Stmt::DependentScopeDeclRefExprClass:
      walkTemplateArguments(cast<DependentScopeDeclRefExpr>(S)->template_arguments());
      break;
    case Stmt::MemberExprClass:
      walkTemplateArguments(cast<MemberExpr>(S)->template_arguments());
      walkChildren(S);
      break;
    case Stmt::CXXDependentScopeMemberExprClass:
      walkTemplateArguments(cast<CXXDependentScopeMemberExpr>(S)->template_arguments());
      walkChildren(S);
      break;
    case Stmt::ArrayInitLoopExprClass:
      if (OpaqueValueExpr *Common = cast<ArrayInitLoopExpr>(S)->getCommonExpr())
        walk(Common->getSourceExpr());
      walkChildren(S);
      break;
    // The expression of a default argument or member initialiser belongs
    // to its declaration first; the others follow rules of their own.
    // Below them, clang's map answers.
    case Stmt::CXXDefaultArgExprClass:
    case Stmt::CXXDefaultInitExprClass:
    case Stmt::BlockExprClass:
    case Stmt::CXXCatchStmtClass:
    case Stmt::MSDependentExistsStmtClass:
    case Stmt::GenericSelectionExprClass:
    case Stmt::RequiresExprClass:
    case Stmt::CoroutineBodyStmtClass:
    case Stmt::CoreturnStmtClass:
    case Stmt::CoawaitExprClass:
    case Stmt::DependentCoawaitExprClass:
    case Stmt::CoyieldExprClass:
    case Stmt::EmbedExprClass:
    case Stmt::CapturedStmtClass:
    case Stmt::SYCLKernelCallStmtClass:
      break;
    default:
      if (!isa<OMPExecutableDirective, OMPCanonicalLoop, OpenACCConstructStmt>(S))
        walkChildren(S);
      break;
    }
    Stack.pop_back();
  }

  void walkChildren(Stmt *S) {
    for (Stmt *C : S->children())
      walk(C);
  }

  ParentTable &Table;
  llvm::SmallVector<Node, 32> Stack;
};

const ParentTable &tableOf(ASTContext &Ctx) {
  ParentIndex &Index = UnitContext::of(Ctx).get<ParentIndex>();
  if (!Index.Built) {
    IndexBuilder(Index.Table).TraverseAST(Ctx);
    Index.Built = true;
  }
  return Index.Table;
}

DynTypedNode asDynTypedNode(Node N) {
  if (const auto *S = dyn_cast<const Stmt *>(N))
    return DynTypedNode::create(*S);
  if (const auto *A = dyn_cast<const Attr *>(N))
    return DynTypedNode::create(*A);
  return DynTypedNode::create(*cast<const Decl *>(N));
}

const void *keyOf(const DynTypedNode &N) {
  if (const auto *S = N.get<Stmt>())
    return S;
  if (const auto *D = N.get<Decl>())
    return D;
  if (const auto *A = N.get<Attr>())
    return A;
  return nullptr;
}

DynTypedNode parentFromClang(const DynTypedNode &N, ASTContext &Ctx, bool Last) {
  ++Fallbacks;
  DynTypedNodeList List = Ctx.getParents(N);
  if (List.empty())
    return DynTypedNode();
  return Last ? List[List.size() - 1] : List[0];
}

DynTypedNode lookup(const DynTypedNode &N, ASTContext &Ctx, bool Last) {
  if (const void *Key = keyOf(N)) {
    // The translation unit is everyone's root and nobody's child.
    if (N.get<TranslationUnitDecl>())
      return DynTypedNode();
    const ParentTable &Table = tableOf(Ctx);
    auto It = Table.find(Key);
    if (It != Table.end())
      return asDynTypedNode(Last ? It->second.Last : It->second.First);
  }
  return parentFromClang(N, Ctx, Last);
}

} // namespace

DynTypedNode firstParent(const DynTypedNode &N, ASTContext &Ctx) {
  return lookup(N, Ctx, /*Last=*/false);
}

DynTypedNode lastParent(const DynTypedNode &N, ASTContext &Ctx) {
  return lookup(N, Ctx, /*Last=*/true);
}

unsigned parentMapFallbacks() { return Fallbacks.load(); }

} // namespace warp_tidy
