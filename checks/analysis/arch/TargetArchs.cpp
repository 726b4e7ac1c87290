//===--- TargetArchs.cpp - The device architectures a compile targets -----===//

#include "arch/TargetArchs.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace warp_tidy {

// "sm_90a" / "compute_100f" / "80": family and arch-specific suffixes do not
// change the baseline feature level the checks reason about.
static unsigned parseOneArch(llvm::StringRef Name) {
  Name = Name.trim();
  if (!Name.consume_front("sm_") && !Name.consume_front("compute_"))
    (void)Name.consume_front("lto_");
  Name = Name.rtrim("af");
  unsigned Value = 0;
  if (Name.empty() || Name.getAsInteger(10, Value) || Value < 10 || Value > 199)
    return 0;
  return Value;
}

std::vector<unsigned> parseArchList(llvm::StringRef Text) {
  std::vector<unsigned> Out;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts)
    if (unsigned A = parseOneArch(Part))
      Out.push_back(A);
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

unsigned parseMinimumArch(llvm::StringRef Text) { return parseOneArch(Text); }

static unsigned deviceArch(const LangOptions &LO, const TargetInfo &TI) {
  if (!LO.CUDA || !LO.CUDAIsDevice)
    return 0;
  return parseOneArch(TI.getTargetOpts().CPU);
}

unsigned analysedDeviceArch(const ASTContext &Ctx) {
  return deviceArch(Ctx.getLangOpts(), Ctx.getTargetInfo());
}

// The macro's value as written on the command line, e.g. "75,80,90". Tokens
// are re-joined because the lexer splits "75,80" into three tokens.
static std::string macroText(const Preprocessor &PP) {
  const IdentifierInfo *II = PP.getIdentifierInfo(TargetArchsMacroName);
  const MacroInfo *MI = II ? PP.getMacroInfo(II) : nullptr;
  if (!MI)
    return "";
  std::string Text;
  for (const Token &T : MI->tokens())
    Text += PP.getSpelling(T);
  return Text;
}

static std::vector<unsigned> combine(const Preprocessor *PP, unsigned Current,
                                     unsigned MinimumArch) {
  std::vector<unsigned> Archs;
  if (PP)
    Archs = parseArchList(macroText(*PP));
  if (Archs.empty() && Current)
    Archs.push_back(Current);
  if (MinimumArch) {
    llvm::erase_if(Archs, [&](unsigned A) { return A < MinimumArch; });
    if (Archs.empty())
      Archs.push_back(MinimumArch);
  }
  return Archs;
}

std::vector<unsigned> targetArchs(const ASTContext &Ctx, const Preprocessor *PP,
                                  unsigned MinimumArch) {
  return combine(PP, analysedDeviceArch(Ctx), MinimumArch);
}

std::vector<unsigned> targetArchs(const Preprocessor &PP, unsigned MinimumArch) {
  return combine(&PP, deviceArch(PP.getLangOpts(), PP.getTargetInfo()), MinimumArch);
}

std::string describeArchs(const std::vector<unsigned> &Archs) {
  std::string Out;
  for (size_t I = 0; I < Archs.size(); ++I) {
    if (I)
      Out += I + 1 == Archs.size() ? " and " : ", ";
    Out += "sm_" + std::to_string(Archs[I]);
  }
  return Out;
}

} // namespace warp_tidy
