//===--- CudaTestUnits.h - Small CUDA units for the analysis unit tests ---===//
//
// The unit tests parse a few lines of device code against stand-ins for
// CUDA's declarations. A line marker puts the stand-ins in a system header,
// where CUDA's own are, because only declarations from there count as
// intrinsics; the test's code follows as "input.cu".
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TEST_UNIT_CUDATESTUNITS_H
#define WARP_TIDY_TEST_UNIT_CUDATESTUNITS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warp_tidy::test {

/// The stand-in system header with \p Declarations, then the start of
/// input.cu with \p InputPrologue.
inline std::string cudaStandIns(const std::string &Declarations, const std::string &InputPrologue) {
  return "# 1 \"cuda_stand_in.h\" 3\n"
         "#define __device__ __attribute__((device))\n"
         "#define __global__ __attribute__((global))\n"
         "#define __shared__ __attribute__((shared))\n"
         "#include \"__clang_cuda_builtin_vars.h\"\n" +
         Declarations + "# 1 \"input.cu\"\n" + InputPrologue;
}

/// Parses \p Code as a device-side CUDA unit (sm_75, no CUDA installation).
inline std::unique_ptr<clang::ASTUnit> parseCudaUnit(const std::string &Code,
                                                     std::vector<std::string> ExtraArgs = {}) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_75",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "-Wno-unknown-cuda-version",
                                   "-resource-dir",
                                   WARP_TIDY_CLANG_RESOURCE_DIR,
                                   "-isystem",
                                   std::string(WARP_TIDY_CLANG_RESOURCE_DIR) + "/include"};
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}

/// The top-level function \p Name with a body, or null.
inline const clang::FunctionDecl *findFunction(clang::ASTContext &Ctx, llvm::StringRef Name) {
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getIdentifier() && FD->getName() == Name && FD->hasBody())
        return FD;
  return nullptr;
}

/// The arguments of the `use(x)` calls and the named variables (locals and
/// parameters) of the code it traverses: the probes of a test unit.
struct UsesAndVars : clang::RecursiveASTVisitor<UsesAndVars> {
  std::vector<const clang::Expr *> Uses;
  std::map<std::string, const clang::VarDecl *> Vars;
  bool VisitCallExpr(clang::CallExpr *C) {
    if (const clang::FunctionDecl *F = C->getDirectCallee())
      if (F->getIdentifier() && F->getName() == "use")
        Uses.push_back(C->getArg(0));
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    if (V->getIdentifier())
      Vars[V->getName().str()] = V;
    return true;
  }
};

/// A unit parsed from CUDA code, one function of it with a body, and that
/// function's probes.
struct ProbedFunction {
  std::unique_ptr<clang::ASTUnit> AST;
  const clang::FunctionDecl *FD = nullptr;
  UsesAndVars C;
  clang::ASTContext &ctx() { return AST->getASTContext(); }
};

/// Parses \p Code (C++17) into \p P and probes its function \p Name; false
/// when the code does not parse or has no such function.
inline bool parseProbed(ProbedFunction &P, const std::string &Code, llvm::StringRef Name) {
  P.AST = parseCudaUnit(Code, {"-std=c++17"});
  if (!P.AST)
    return false;
  P.FD = findFunction(P.ctx(), Name);
  if (!P.FD)
    return false;
  P.C.TraverseDecl(const_cast<clang::FunctionDecl *>(P.FD));
  return true;
}

} // namespace warp_tidy::test

#endif
