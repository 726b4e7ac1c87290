//===--- UniformityCheck.cpp - Base of the checks on the uniformity analysis =//

#include "UniformityCheck.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

namespace warp_tidy {

// String options: the bool overloads of OptionsView are not usable from this
// out-of-tree build (their mangling differs from Debian's archive).
static bool parseBool(llvm::StringRef Value) {
  return !Value.equals_insensitive("false") && Value != "0";
}

UniformityCheck::UniformityCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : WarpCheck(Name, Context) {
  Uniformity.AssumeWarpAlignedBlocks =
      parseBool(Options.getLocalOrGlobal("AssumeWarpAlignedBlocks", "true"));
}

void UniformityCheck::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AssumeWarpAlignedBlocks",
                Uniformity.AssumeWarpAlignedBlocks ? "true" : "false");
}

UniformityRef UniformityCheck::collectiveAnalysis(const clang::FunctionDecl *FD,
                                                  clang::ASTContext &Ctx) const {
  if (!FD || FD->isDependentContext())
    return nullptr;
  WarpAnalysisCache &Cache = analysisCache(Ctx);
  return Cache.containsCollective(FD) ? Cache.analysis(FD) : nullptr;
}

bool UniformityCheck::reachedByWholeWarp(const clang::Stmt *S, const clang::FunctionDecl *Fn,
                                         clang::ASTContext &Ctx) const {
  if (!Fn || !Fn->hasAttr<clang::CUDAGlobalAttr>() || Fn->isDependentContext() ||
      !Uniformity.AssumeWarpAlignedBlocks)
    return false;
  UniformityRef Analysis = analysisCache(Ctx).analysis(Fn);
  if (!Analysis)
    return false;
  return Analysis->mustReach(S).isAll() && Analysis->divergenceAt(S).empty();
}

} // namespace warp_tidy
