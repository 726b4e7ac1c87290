//===--- ThreadIndex.cpp - Recognise CUDA's built-in index variables ------===//

#include "ast/ThreadIndex.h"
#include "ast/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;

namespace warp_tidy {

// The variables are recognised by name *and* by their special record type
// (clang's `__cuda_builtin_threadIdx_t`, or `uint3`/`dim3` with nvcc-style
// headers) so that a user variable called `threadIdx` does not count.
static BuiltinIndex classifyField(llvm::StringRef Var, llvm::StringRef Field) {
  char C = Field.size() == 1 ? Field[0] : 0;
  if (C != 'x' && C != 'y' && C != 'z')
    return BuiltinIndex::None;
  if (Var == "threadIdx")
    return C == 'x'   ? BuiltinIndex::ThreadIdxX
           : C == 'y' ? BuiltinIndex::ThreadIdxY
                      : BuiltinIndex::ThreadIdxZ;
  if (Var == "blockIdx")
    return BuiltinIndex::BlockIdx;
  if (Var == "blockDim")
    return C == 'x' ? BuiltinIndex::BlockDimX : BuiltinIndex::BlockDimYZ;
  if (Var == "gridDim")
    return BuiltinIndex::GridDim;
  return BuiltinIndex::None;
}

static llvm::StringRef builtinVarName(const Expr *Base) {
  Base = Base->IgnoreParenImpCasts();
  // Inside a PseudoObjectExpr's syntactic form the base is an opaque value.
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    if (OVE->getSourceExpr())
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return "";
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->getIdentifier() || !Var->hasGlobalStorage())
    return "";
  const auto *Record = Var->getType()->getAsCXXRecordDecl();
  if (!Record || !Record->getIdentifier())
    return "";
  llvm::StringRef RecordName = Record->getName();
  if (!RecordName.starts_with("__cuda_builtin_") && RecordName != "uint3" && RecordName != "dim3")
    return "";
  return Var->getName();
}

BuiltinIndex classifyBuiltinIndex(const Expr *E) {
  if (!E)
    return BuiltinIndex::None;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(E)) {
    const MSPropertyDecl *PD = Prop->getPropertyDecl();
    if (!PD || !PD->getIdentifier())
      return BuiltinIndex::None;
    return classifyField(builtinVarName(Prop->getBaseExpr()), PD->getName());
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const ValueDecl *Field = Member->getMemberDecl();
    if (!Field || !Field->getIdentifier())
      return BuiltinIndex::None;
    return classifyField(builtinVarName(Member->getBase()), Field->getName());
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->getIdentifier() && Var->getName() == "warpSize" && Var->hasGlobalStorage())
        return BuiltinIndex::WarpSize;
  return BuiltinIndex::None;
}

char builtinIndexComponent(const Expr *E) {
  if (!E || classifyBuiltinIndex(E) == BuiltinIndex::None ||
      classifyBuiltinIndex(E) == BuiltinIndex::WarpSize)
    return 0;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  const NamedDecl *Field = nullptr;
  if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(E))
    Field = Prop->getPropertyDecl();
  else if (const auto *Member = dyn_cast<MemberExpr>(E))
    Field = Member->getMemberDecl();
  if (!Field || !Field->getIdentifier() || Field->getName().size() != 1)
    return 0;
  return Field->getName()[0];
}

bool isBlockUniformResultCall(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  bool Builtin = Callee->getBuiltinID() != 0;
  if (!Builtin && !SM.isInSystemHeader(Callee->getLocation()))
    return false;
  llvm::StringRef Name = Callee->getName();
  return Name == "__syncthreads_or" || Name == "__syncthreads_and" ||
         Name == "__syncthreads_count" || Name == "syncthreads_or" || Name == "syncthreads_and" ||
         Name == "syncthreads_count" || Name == "__nvvm_bar0_or" || Name == "__nvvm_bar0_and" ||
         Name == "__nvvm_bar0_popc";
}

static bool inNamespaceNamed(const DeclContext *DC, llvm::StringRef Name) {
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == Name)
        return true;
  return false;
}

bool isThreadVaryingSourceCall(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  // Atomics return each lane's own old value; the CUDA spellings are
  // atomicAdd..., clang's __nvvm_atom_*, CUDA's __nv_atomic_*, libcu++'s fetch_*
  // members.
  bool Atomic = Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
                Name.starts_with("__atomic") || Name.starts_with("__hip_atomic") ||
                Name.starts_with("__nv_atomic") || Name.starts_with("fetch_") ||
                Name == "exchange" || Name.starts_with("compare_exchange");
  // Clocks (`clock()`, `clock64()`, `%globaltimer`) are not here: one read
  // is one instruction, and the lanes that execute it together get one
  // value. Lanes that read at different times are lanes already apart,
  // which is the divergence the control analysis tracks.
  bool PerThread = Name == "__activemask" || Name == "__lanemask_lt" || Name == "__lanemask_le" ||
                   Name == "__lanemask_gt" || Name == "__lanemask_ge" || Name == "__lanemask_eq" ||
                   Name == "__nvvm_read_ptx_sreg_laneid" || Name == "get_sreg_laneid" ||
                   Name.starts_with("curand");
  // The names are CUDA's: only its own declarations (a builtin, a system
  // header) are opaque sources. A project's `atomicAggInc` or `clock()`
  // wrapper has a body that the analysis reads like any other helper's.
  if (Atomic || PerThread)
    return isToolchainDeclaration(Callee);
  // Cooperative groups: a member giving the calling thread's rank/index.
  if (isa<CXXMethodDecl>(Callee) &&
      inNamespaceNamed(Callee->getDeclContext(), "cooperative_groups"))
    return Name == "thread_rank" || Name == "thread_index" || Name == "thread_id";
  return false;
}

bool isLaneVaryingAsm(const char *AsmText, unsigned Length) {
  llvm::StringRef Text(AsmText, Length);
  // Not %clock, %clock64 or %globaltimer: see isThreadVaryingSourceCall.
  return Text.contains("%laneid") || Text.contains("%tid") || Text.contains("%lanemask");
}

} // namespace warp_tidy
