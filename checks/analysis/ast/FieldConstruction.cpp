//===--- FieldConstruction.cpp - Fields that keep their constructor's value ===//

#include "ast/FieldConstruction.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitContext.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"

using namespace clang;

namespace warp_tidy {

namespace {

/// The field of the class template's pattern that \p F was instantiated
/// from (stores in uninstantiated template code name that one), or null.
const FieldDecl *patternField(const FieldDecl *F) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(F->getParent());
  if (!Spec || !F->getIdentifier())
    return nullptr;
  const CXXRecordDecl *Pattern = nullptr;
  auto From = Spec->getSpecializedTemplateOrPartial();
  if (auto *T = From.dyn_cast<ClassTemplateDecl *>())
    Pattern = T->getTemplatedDecl();
  else if (auto *P = From.dyn_cast<ClassTemplatePartialSpecializationDecl *>())
    Pattern = P;
  if (!Pattern)
    return nullptr;
  for (const NamedDecl *D : Pattern->lookup(F->getDeclName()))
    if (const auto *PF = dyn_cast<FieldDecl>(D))
      return PF;
  return nullptr;
}

class StoreCollector : public RecursiveASTVisitor<StoreCollector> {
public:
  StoreCollector(const SourceManager &SM, llvm::DenseSet<const FieldDecl *> &Stored,
                 llvm::StringSet<> &ByName)
      : SM(SM), Stored(Stored), ByName(ByName) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    // Defaulted copies and moves copy a value built the same way.
    if (FD->doesThisDeclarationHaveABody() && !FD->isDefaulted())
      forEachStore(FD->getBody(), nullptr,
                   [&](const Expr *Target, const GCCAsmStmt *, unsigned) { record(Target); });
    return true;
  }

private:
  /// Every field \p Target stores into: `a.b.c = x` changes c, b and a.
  void record(const Expr *Target) {
    for (unsigned Depth = 0; Target && Depth < 16; ++Depth) {
      const Expr *E = Target->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MemberExpr>(E)) {
        if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
          Stored.insert(F->getCanonicalDecl());
        if (M->isArrow())
          return;
        Target = M->getBase();
        continue;
      }
      if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(E)) {
        ByName.insert(D->getMember().getAsString());
        return;
      }
      if (const auto *U = dyn_cast<UnresolvedMemberExpr>(E)) {
        ByName.insert(U->getMemberName().getAsString());
        return;
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
        Target = A->getBase();
        continue;
      }
      return;
    }
  }

  const SourceManager &SM;
  llvm::DenseSet<const FieldDecl *> &Stored;
  llvm::StringSet<> &ByName;
};

/// A function of the executing thread alone (see the header), in the member
/// initialiser of \p Of: a field initialised before it counts when it holds
/// such a value itself.
bool threadOnly(const Expr *E, const FieldDecl *Of, FieldStores &Stores, unsigned Depth = 0) {
  const ASTContext &Ctx = Of->getASTContext();
  if (!E || Depth > 32 || E->isValueDependent() || E->isTypeDependent())
    return false;
  if (E->isIntegerConstantExpr(Ctx))
    return true;
  if (classifyBuiltinIndex(E) != BuiltinIndex::None)
    return true;
  E = E->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = Ref->getDecl();
    if (isa<EnumConstantDecl>(D) || isa<NonTypeTemplateParmDecl>(D))
      return true;
    const auto *V = dyn_cast<VarDecl>(D);
    return V && V->isConstexpr();
  }
  if (const auto *Read = dyn_cast<MemberExpr>(E)) {
    // Fields are initialised in declaration order.
    const FieldDecl *Earlier = fieldOfThis(Read);
    return Earlier && Earlier->getParent() == Of->getParent() &&
           Earlier->getFieldIndex() < Of->getFieldIndex() && constructionValue(Earlier, Stores);
  }
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return threadOnly(Subst->getReplacement(), Of, Stores, Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    return Callee && Call->getNumArgs() == 0 && (!Method || Method->isStatic()) &&
           !isa<CXXOperatorCallExpr>(Call);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      return false;
    return threadOnly(UO->getSubExpr(), Of, Stores, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return false;
    return threadOnly(BO->getLHS(), Of, Stores, Depth + 1) &&
           threadOnly(BO->getRHS(), Of, Stores, Depth + 1);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return threadOnly(CO->getCond(), Of, Stores, Depth + 1) &&
           threadOnly(CO->getTrueExpr(), Of, Stores, Depth + 1) &&
           threadOnly(CO->getFalseExpr(), Of, Stores, Depth + 1);
  if (isa<ImplicitCastExpr, CStyleCastExpr, CXXStaticCastExpr, CXXFunctionalCastExpr>(E))
    return threadOnly(cast<CastExpr>(E)->getSubExpr(), Of, Stores, Depth + 1);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return threadOnly(EWC->getSubExpr(), Of, Stores, Depth + 1);
  return false;
}

/// The value a member initialiser gives (`f(x)`, `f{x}`, a default member
/// initialiser).
const Expr *initialValue(const CXXCtorInitializer *Init) {
  const Expr *E = Init->getInit();
  if (const auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(E))
    E = Default->getExpr();
  if (const auto *List = dyn_cast_or_null<InitListExpr>(E))
    E = List->getNumInits() == 1 ? List->getInit(0) : nullptr;
  return E;
}

} // namespace

void FieldStores::collect() {
  Collected = true;
  StoreCollector C(Ctx.getSourceManager(), Stored, StoredByName);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
}

FieldStores &FieldStores::of(ASTContext &Ctx) { return UnitContext::of(Ctx).get<FieldStores>(); }

bool FieldStores::isStoredInto(const FieldDecl *F) {
  if (!Collected)
    collect();
  if (Stored.contains(F->getCanonicalDecl()) ||
      (F->getIdentifier() && StoredByName.contains(F->getName())))
    return true;
  const FieldDecl *Pattern = patternField(F);
  return Pattern && Stored.contains(Pattern->getCanonicalDecl());
}

const Expr *constructionValue(const FieldDecl *F, FieldStores &Stores) {
  if (!F || F->isBitField() || !F->getType()->isIntegralOrEnumerationType())
    return nullptr;
  const auto *Class = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!Class || !Class->hasDefinition())
    return nullptr;
  const ASTContext &Ctx = F->getASTContext();
  const Expr *Value = nullptr;
  llvm::FoldingSetNodeID ValueID;
  for (const CXXConstructorDecl *Ctor : Class->ctors()) {
    if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!Ctor->hasBody(Def)) {
      // A constructor of a class template never instantiated here builds
      // no object in this unit; any other may run elsewhere.
      if (Ctor->getTemplateSpecializationKind() == TSK_ImplicitInstantiation || Ctor->isImplicit())
        continue;
      return nullptr;
    }
    const auto *Defined = cast<CXXConstructorDecl>(Def);
    if (Defined->isDelegatingConstructor())
      continue; // its target initialises the field
    const Expr *Init = nullptr;
    for (const CXXCtorInitializer *I : Defined->inits())
      if (I->isMemberInitializer() && I->getMember()->getCanonicalDecl() == F->getCanonicalDecl())
        Init = initialValue(I);
    if (!Init || !threadOnly(Init, F, Stores))
      return nullptr;
    llvm::FoldingSetNodeID ID;
    Init->Profile(ID, Ctx, /*Canonical=*/true);
    if (Value && ID != ValueID)
      return nullptr; // constructors that disagree
    Value = Init;
    ValueID = ID;
  }
  if (!Value || Stores.isStoredInto(F))
    return nullptr;
  return Value;
}

const FieldDecl *fieldOfThis(const MemberExpr *Read) {
  if (!Read || !isa<CXXThisExpr>(Read->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(Read->getMemberDecl());
}

const Expr *selectedArm(const Expr *E, const ASTContext &Ctx) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    const auto *CO = dyn_cast<ConditionalOperator>(E->IgnoreParenImpCasts());
    bool Cond = false;
    if (!CO || CO->getCond()->isValueDependent() ||
        !CO->getCond()->EvaluateAsBooleanCondition(Cond, Ctx))
      return E;
    E = Cond ? CO->getTrueExpr() : CO->getFalseExpr();
  }
  return E;
}

} // namespace warp_tidy
