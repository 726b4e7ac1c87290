//===--- NvccTranslation.cpp - nvcc command lines to clang ones -----------===//
//
// The flag lists below come from `nvcc --help` (CUDA 13.0). nvcc accepts both
// `-flag value` and `-flag=value` for every flag with a value, and long
// (`--flag`) and short (`-f`) spellings; the matcher handles all four.
//
//===----------------------------------------------------------------------===//

#include "NvccTranslation.h"
#include "InputFiles.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <optional>
#include <set>

namespace warp_tidy {
namespace {

/// nvcc flags that take a value and only matter for code generation, the
/// host compiler, the linker or nvcc's own front end: dropped with their
/// value.
const char *const DroppedWithValue[] = {
    "-ccbin",
    "--compiler-bindir",
    "-code",
    "--gpu-code",
    "-Xptxas",
    "--ptxas-options",
    "-Xnvlink",
    "--nvlink-options",
    "-Xlinker",
    "--linker-options",
    "-Xcudafe",
    "-Xarchive",
    "--archive-options",
    "-cudart",
    "--cudart",
    "-cudadevrt",
    "--cudadevrt",
    "-default-stream",
    "--default-stream",
    "-maxrregcount",
    "--maxrregcount",
    "-t",
    "--threads",
    "-split-compile",
    "--split-compile",
    "-diag-suppress",
    "--diag-suppress",
    "-diag-warn",
    "--diag-warn",
    "-diag-error",
    "--diag-error",
    "-ftz",
    "--ftz",
    "-prec-div",
    "--prec-div",
    "-prec-sqrt",
    "--prec-sqrt",
    "-fmad",
    "--fmad",
    "-odir",
    "--output-directory",
    "-dependency-output",
    "--dependency-output",
    "-ldir",
    "--library-path",
    "-l",
    "--library",
    "-Wno-deprecated-gpu-targets",
    "-time",
    "--time",
    "-keep-dir",
    "--keep-dir",
    "-ext-lambda-captures-this",
    "-arch-ls",
    "-ewp",
    "-Xfatbin",
    "--fatbin-options",
    "-dlto",
    "-gen-opt-lto",
    "-jump-table-density",
    "--jump-table-density",
    "-extra-device-vectorization",
    "-Ofc",
    "--Ofast-compile",
    "-frandom-seed",
    "-split-compile-extended",
    "-static-global-template-stub",
    "--static-global-template-stub",
    "-device-entity-has-hidden-visibility",
    "--device-entity-has-hidden-visibility",
};

/// nvcc flags without a value that clang does not need: dropped.
const char *const DroppedAlone[] = {
    "-forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-linker",
    "--forward-unknown-to-host-linker",
    "-lineinfo",
    "--generate-line-info",
    "-use_fast_math",
    "--use_fast_math",
    "-res-usage",
    "--resource-usage",
    "-keep",
    "--keep",
    "-Wno-deprecated-gpu-targets",
    "-Wno-deprecated-declarations-nvcc",
    "--display-error-number",
    "-err-no",
    "--no-display-error-number",
    "-no-err-no",
    "-dlink",
    "--device-link",
    "-dlto",
    "--dlink-time-opt",
    "-link",
    "--link",
    "-lib",
    "--lib",
    "-src-in-ptx",
    "--source-in-ptx",
    "-restrict",
    "--restrict",
    "-Wreorder",
    "-Wext-lambda-captures-this",
    "-Wdefault-stream-launch",
    "-Wmissing-launch-bounds",
    "-w",
    "--disable-warnings",
    "-allow-unsupported-compiler",
    "--allow-unsupported-compiler",
    "-noprof",
    "--dont-use-profile",
    "-nohdinitlist",
    "--no-host-device-initializer-list",
    "-nohdmoveforward",
    "--no-host-device-move-forward",
    "-v",
    "--verbose",
    "-MP",
    "--generate-nonsystem-dependencies-with-compile",
    "-static-global-template-stub=true",
    "-static-global-template-stub=false",
};

/// nvcc long spellings of flags clang has under another name.
struct Rename {
  const char *Nvcc;
  const char *Clang;
  bool Joined; ///< Clang form takes `=value` (else a separate value).
};
const Rename Renamed[] = {
    {"--include-path", "-I", false},
    {"--system-include", "-isystem", false},
    {"--define-macro", "-D", false},
    {"--undefine-macro", "-U", false},
    {"--pre-include", "-include", false},
    {"--output-file", "-o", false},
    {"--compile", "-c", false},
    {"--optimize", "-O", false},
    {"--std", "-std=", true},
    {"-std", "-std=", true},
};

/// Matches \p Token against a flag that takes a value, in any of nvcc's
/// spellings. On a match fills \p Value (consuming the next token when the
/// value is separate) and advances \p I.
bool takeValue(llvm::ArrayRef<std::string> Tokens, size_t &I, llvm::StringRef Flag,
               std::string &Value) {
  llvm::StringRef Token = Tokens[I];
  if (Token == Flag) {
    if (I + 1 >= Tokens.size())
      return false;
    Value = Tokens[++I];
    return true;
  }
  if (Token.starts_with(Flag) && Token.size() > Flag.size() && Token[Flag.size()] == '=') {
    Value = Token.drop_front(Flag.size() + 1).str();
    return true;
  }
  return false;
}

/// Reads `--options-file` / `@file` contents, tokenised like a shell would,
/// relative paths resolved against the command's directory.
void expandResponseFile(llvm::StringRef Path, llvm::StringRef Directory,
                        std::vector<std::string> &Out, unsigned Depth) {
  std::string Full = pathInDirectory(Path, Directory);
  auto Buffer = llvm::MemoryBuffer::getFile(Full);
  if (!Buffer || Depth > 8) {
    // Keep going without it: the unit may still parse; if an include path
    // was inside, clang will say which header it could not find.
    Out.push_back("--warp-tidy-unreadable-options-file=" + Full);
    return;
  }
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Words;
  llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Words);
  for (const char *W : Words) {
    llvm::StringRef Word(W);
    if (Word.consume_front("@"))
      expandResponseFile(Word, Directory, Out, Depth + 1);
    else
      Out.push_back(Word.str());
  }
}

/// Architectures named by one `-gencode` value such as
/// `arch=compute_80,code=[compute_80,sm_80]`: the virtual `arch=` decides
/// which features (and which __CUDA_ARCH__) the device code is compiled for.
void archsFromGencode(llvm::StringRef Spec, std::vector<unsigned> &Archs) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Spec.split(Parts, ',');
  bool SawArch = false;
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim().trim("\"'");
    if (Part.consume_front("arch=")) {
      if (unsigned A = parseArchName(Part)) {
        Archs.push_back(A);
        SawArch = true;
      }
    }
  }
  if (SawArch)
    return;
  // `code=sm_80` alone.
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim().trim("[]\"'");
    Part.consume_front("code=");
    if (unsigned A = parseArchName(Part.trim("[]")))
      Archs.push_back(A);
  }
}

/// Values of nvcc's -arch: a name, a comma list, or a keyword.
void archsFromArchFlag(llvm::StringRef Value, unsigned OldestArch, std::vector<unsigned> &Archs,
                       bool &Native) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Value.split(Parts, ',');
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Part == "native") {
      Native = true;
    } else if (Part == "all" || Part == "all-major") {
      // What `nvcc -arch=all|all-major --dryrun` expands to (CUDA 13.0):
      // every known arch from the toolkit's oldest on, or, for all-major,
      // the oldest plus every sm_X0. The oldest bounds what code must
      // compile for; the rest matter for NV_IS_EXACTLY_SM_xx branches and
      // for the messages.
      static const unsigned Known[] = {50, 52, 53, 60, 61, 62,  70,  72,  75,  80,
                                       86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
      Archs.push_back(OldestArch);
      for (unsigned A : Known)
        if (A >= OldestArch && (Part == "all" || A % 10 == 0))
          Archs.push_back(A);
    } else if (unsigned A = parseArchName(Part)) {
      Archs.push_back(A);
    }
  }
}

/// Host-compiler flags passed through -Xcompiler that change what the
/// preprocessor sees; everything else there concerns host code generation.
bool isPreprocessorFlag(llvm::StringRef Flag) {
  return Flag.starts_with("-D") || Flag.starts_with("-U") || Flag.starts_with("-I") ||
         Flag.starts_with("-isystem") || Flag.starts_with("-std=") || Flag.starts_with("-include");
}

/// Args past argv[0] with response files (`@file`, `--options-file`)
/// expanded and clang's -Xarch_ flags resolved for a device analysis, so
/// that every flag is seen by the translation.
std::vector<std::string> expandArguments(llvm::ArrayRef<std::string> Args,
                                         llvm::StringRef Directory) {
  std::vector<std::string> Tokens;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef T = Args[I];
    if (T.starts_with("@")) {
      expandResponseFile(T.drop_front(), Directory, Tokens, 0);
    } else if ((T == "--options-file" || T == "-optf") && I + 1 < Args.size()) {
      expandResponseFile(Args[++I], Directory, Tokens, 0);
    } else if (T.starts_with("--options-file=") || T.starts_with("-optf=")) {
      expandResponseFile(T.split('=').second, Directory, Tokens, 0);
    } else if (T == "-Xarch_device") {
      // clang's "pass the next flag to the device compilation only": the
      // analysis *is* the device compilation, so the flag applies as is.
      continue;
    } else if (T == "-Xarch_host" && I + 1 < Args.size()) {
      ++I; // host-only flag: not part of a device analysis
    } else if (T.starts_with("-Xarch_device") || T.starts_with("-Xarch_host")) {
      // `-Xarch_device=-DX` style is not a clang spelling; drop it.
      continue;
    } else {
      Tokens.push_back(T.str());
    }
  }
  return Tokens;
}

// Each take* below looks at Tokens[I]: if it is one of its flags, it
// records what the flag means in Out (and the clang flags it becomes in
// Result), moves I past the flag's value and returns true.

/// Architectures: collected, re-added by the caller as one clang flag.
bool takeArchFlag(llvm::ArrayRef<std::string> Tokens, size_t &I, unsigned OldestArch,
                  TranslatedCommand &Out) {
  llvm::StringRef T = Tokens[I];
  std::string Value;
  if (takeValue(Tokens, I, "-arch", Value) || takeValue(Tokens, I, "--gpu-architecture", Value)) {
    archsFromArchFlag(Value, OldestArch, Out.Archs, Out.HasNativeArch);
    return true;
  }
  if (takeValue(Tokens, I, "-gencode", Value) || takeValue(Tokens, I, "--generate-code", Value)) {
    archsFromGencode(Value, Out.Archs);
    return true;
  }
  if (takeValue(Tokens, I, "--cuda-gpu-arch", Value) ||
      takeValue(Tokens, I, "--offload-arch", Value)) {
    archsFromArchFlag(Value, OldestArch, Out.Archs, Out.HasNativeArch);
    return true;
  }
  return T == "--no-cuda-gpu-arch" || T.starts_with("--no-offload-arch");
}

/// Flags without a clang counterpart in Result: the mode flags the caller
/// sets itself, an unreadable response file, and the flags that only
/// change what nvcc predefines (clang accepts the code they allow anyway:
/// constexpr host functions and __device__ lambdas).
bool takeModeFlag(llvm::StringRef T, TranslatedCommand &Out) {
  if (T == "--cuda-device-only" || T == "--cuda-host-only" || T == "--cuda-compile-host-device" ||
      T == "-nocudalib" || T.starts_with("--cuda-path=") || T == "-fsyntax-only")
    return true;
  if (T.starts_with("--warp-tidy-unreadable-options-file=")) {
    Out.Unknown.push_back("--options-file " + T.split('=').second.str() + " (unreadable)");
    return true;
  }
  if (T == "-expt-relaxed-constexpr" || T == "--expt-relaxed-constexpr") {
    Out.RelaxedConstexpr = true;
    return true;
  }
  if (T == "-expt-extended-lambda" || T == "--expt-extended-lambda" || T == "-extended-lambda" ||
      T == "--extended-lambda") {
    Out.ExtendedLambda = true;
    return true;
  }
  if (T == "-G" || T == "--device-debug") {
    Out.DeviceDebug = true;
    return true;
  }
  return false;
}

/// Language: nvcc's `-x` applies to every input wherever it stands;
/// clang's `-xcuda` is one token.
bool takeLanguage(llvm::ArrayRef<std::string> Tokens, size_t &I, TranslatedCommand &Out,
                  std::vector<std::string> &Result) {
  llvm::StringRef T = Tokens[I];
  std::string Value;
  bool JoinedLanguage = T.size() > 2 && T.starts_with("-x") && T[2] != '=';
  if (JoinedLanguage)
    Value = T.drop_front(2).str();
  if (!JoinedLanguage && !takeValue(Tokens, I, "-x", Value) && !takeValue(Tokens, I, "--x", Value))
    return false;
  if (Value == "cu" || Value == "cuda") {
    Out.IsCuda = true;
    Value = "cuda";
  }
  Result.push_back("-x");
  Result.push_back(Value);
  return true;
}

/// Relocatable device code.
bool takeRelocatableCode(llvm::ArrayRef<std::string> Tokens, size_t &I, TranslatedCommand &Out,
                         std::vector<std::string> &Result) {
  llvm::StringRef T = Tokens[I];
  std::string Value;
  if (takeValue(Tokens, I, "-rdc", Value) ||
      takeValue(Tokens, I, "--relocatable-device-code", Value)) {
    if (Value == "true") {
      Result.push_back("-fgpu-rdc");
      Out.RelocatableCode = true;
    }
    return true;
  }
  if (T == "-dc" || T == "--device-c") {
    Out.RelocatableCode = true;
    Result.push_back("-fgpu-rdc");
    Result.push_back("-c");
    return true;
  }
  if (T == "-dw" || T == "--device-w") {
    Result.push_back("-c");
    return true;
  }
  return false;
}

/// Host compiler pass-through: keep what the preprocessor sees.
bool takeHostCompilerFlags(llvm::ArrayRef<std::string> Tokens, size_t &I,
                           std::vector<std::string> &Result) {
  std::string Value;
  if (!takeValue(Tokens, I, "-Xcompiler", Value) &&
      !takeValue(Tokens, I, "--compiler-options", Value))
    return false;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Value).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim().trim("\"");
    if (isPreprocessorFlag(P))
      Result.push_back(P.str());
  }
  return true;
}

/// Renamed long spellings.
bool takeRenamed(llvm::ArrayRef<std::string> Tokens, size_t &I, std::vector<std::string> &Result) {
  llvm::StringRef T = Tokens[I];
  std::string Value;
  for (const Rename &R : Renamed) {
    if (takeValue(Tokens, I, R.Nvcc, Value)) {
      if (R.Joined) {
        Result.push_back(std::string(R.Clang) + Value);
      } else if (llvm::StringRef(R.Clang) == "-O") {
        Result.push_back("-O" + Value);
      } else {
        Result.push_back(R.Clang);
        Result.push_back(Value);
      }
      return true;
    }
    if (T == R.Nvcc && llvm::StringRef(R.Clang) == "-c") {
      Result.push_back("-c");
      return true;
    }
  }
  return false;
}

/// nvcc-only flags: dropped (with their value).
bool takeNvccOnly(llvm::ArrayRef<std::string> Tokens, size_t &I) {
  llvm::StringRef T = Tokens[I];
  std::string Value;
  for (const char *Flag : DroppedWithValue)
    if (takeValue(Tokens, I, Flag, Value))
      return true;
  // nvcc's `-Werror <kind>[,<kind>]` takes a value, clang's `-Werror` not.
  if (T == "-Werror" && I + 1 < Tokens.size() &&
      llvm::StringRef(Tokens[I + 1]).contains_insensitive("warning") |
          llvm::StringRef(Tokens[I + 1]).contains("-call") |
          llvm::StringRef(Tokens[I + 1]).contains("reorder") |
          llvm::StringRef(Tokens[I + 1]).contains("deprecated") |
          llvm::StringRef(Tokens[I + 1]).contains("launch")) {
    ++I;
    return true;
  }
  return llvm::is_contained(DroppedAlone, T) || T.starts_with("-Werror=") ||
         T.starts_with("--Werror") || T.starts_with("-Wno-deprecated-gpu");
}

/// The clang flags for \p Tokens (the nvcc ones rewritten or dropped),
/// what they say about the compile recorded in \p Out.
std::vector<std::string> translateTokens(llvm::ArrayRef<std::string> Tokens, unsigned OldestArch,
                                         TranslatedCommand &Out) {
  std::vector<std::string> Result;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    llvm::StringRef T = Tokens[I];
    if (takeArchFlag(Tokens, I, OldestArch, Out) || takeModeFlag(T, Out) ||
        takeLanguage(Tokens, I, Out, Result) || takeRelocatableCode(Tokens, I, Out, Result) ||
        takeHostCompilerFlags(Tokens, I, Result) || takeRenamed(Tokens, I, Result) ||
        takeNvccOnly(Tokens, I))
      continue;
    if (!T.starts_with("-") && isCudaSourceName(T))
      Out.IsCuda = true;
    Result.push_back(T.str());
  }
  return Result;
}

/// The indices of \p Result to drop: whatever clang's own option table does
/// not know (recorded in Out.Unknown; one warning, from the caller).
std::set<unsigned> unknownFlags(const llvm::opt::InputArgList &Parsed, unsigned MissingIndex,
                                unsigned MissingCount, llvm::ArrayRef<std::string> Result,
                                TranslatedCommand &Out) {
  std::set<unsigned> Drop;
  for (const llvm::opt::Arg *A : Parsed.filtered(clang::options::OPT_UNKNOWN)) {
    Drop.insert(A->getIndex());
    Out.Unknown.push_back(A->getAsString(Parsed));
  }
  if (MissingCount) {
    // A flag at the very end lacks its value; drop it rather than let clang
    // fail on it.
    Drop.insert(MissingIndex);
    Out.Unknown.push_back(Result[MissingIndex]);
  }
  return Drop;
}

/// A language given after the last input (`warp-tidy a.cpp -- -x cu`
/// appends it there) would apply to no input in clang; nvcc applies it to
/// all of them, and that is what the user meant: the indices of such `-x`
/// flags and their values, to move before the first input (\p FirstInput).
std::vector<unsigned> languagesAfterInputs(const llvm::opt::InputArgList &Parsed,
                                           llvm::ArrayRef<std::string> Result,
                                           const std::set<unsigned> &Drop,
                                           std::optional<unsigned> &FirstInput) {
  std::optional<unsigned> LastInput;
  for (const llvm::opt::Arg *A : Parsed.filtered(clang::options::OPT_INPUT)) {
    if (Drop.count(A->getIndex()))
      continue;
    if (!FirstInput)
      FirstInput = A->getIndex();
    LastInput = A->getIndex();
  }
  std::vector<unsigned> Hoisted;
  if (LastInput)
    for (const llvm::opt::Arg *A : Parsed.filtered(clang::options::OPT_x))
      if (A->getIndex() > *LastInput && Result[A->getIndex()] == "-x" &&
          A->getIndex() + 1 < Result.size()) {
        Hoisted.push_back(A->getIndex());
        Hoisted.push_back(A->getIndex() + 1);
      }
  return Hoisted;
}

/// Out.Args: "clang++" and \p Result as clang reads it, unknown flags
/// dropped and late languages moved before the first input.
void finishArgs(llvm::ArrayRef<std::string> Result, TranslatedCommand &Out) {
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  llvm::SmallVector<const char *, 64> Argv;
  for (const std::string &A : Result)
    Argv.push_back(A.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed = Table.ParseArgs(
      Argv, MissingIndex, MissingCount, llvm::opt::Visibility(clang::options::ClangOption));
  std::set<unsigned> Drop = unknownFlags(Parsed, MissingIndex, MissingCount, Result, Out);
  std::optional<unsigned> FirstInput;
  std::vector<unsigned> Hoisted = languagesAfterInputs(Parsed, Result, Drop, FirstInput);
  Out.Args.push_back("clang++");
  for (unsigned Index = 0; Index < Result.size(); ++Index) {
    if (FirstInput && Index == *FirstInput)
      for (unsigned H : Hoisted)
        Out.Args.push_back(Result[H]);
    if (!Drop.count(Index) && !llvm::is_contained(Hoisted, Index))
      Out.Args.push_back(Result[Index]);
  }
}
} // namespace

std::vector<std::string> nvccPredefinedMacros(const TranslatedCommand &Command,
                                              const NvccVersion &Version) {
  if (!Command.FromNvcc)
    return {};
  // As `nvcc -E -Xcompiler -dM` lists them (CUDA 13.0).
  std::vector<std::string> Flags = {"-D__NVCC__=1",
                                    "-D__CUDACC_VER_MAJOR__=" + std::to_string(Version.Major),
                                    "-D__CUDACC_VER_MINOR__=" + std::to_string(Version.Minor),
                                    "-D__CUDACC_VER_BUILD__=" + std::to_string(Version.Build)};
  if (Command.RelaxedConstexpr)
    Flags.push_back("-D__CUDACC_RELAXED_CONSTEXPR__=1");
  if (Command.ExtendedLambda)
    Flags.push_back("-D__CUDACC_EXTENDED_LAMBDA__=1");
  if (Command.RelocatableCode)
    Flags.push_back("-D__CUDACC_RDC__=1");
  if (Command.DeviceDebug)
    Flags.push_back("-D__CUDACC_DEBUG__=1");
  return Flags;
}

unsigned parseArchName(llvm::StringRef Name) {
  Name = Name.trim();
  // "sm_80", "compute_80", "lto_80" and the bare "80" all name arch 80.
  for (llvm::StringRef Prefix : {"sm_", "compute_", "lto_"})
    if (Name.consume_front(Prefix))
      break;
  // Family- and arch-specific suffixes (sm_90a, sm_100f) do not change the
  // baseline feature level.
  Name = Name.rtrim("af");
  unsigned Value = 0;
  if (Name.empty() || Name.getAsInteger(10, Value) || Value < 10 || Value > 199)
    return 0;
  return Value;
}

bool isNvcc(llvm::StringRef Compiler) {
  llvm::StringRef Name = llvm::sys::path::filename(Compiler);
  Name.consume_back(".exe");
  return Name == "nvcc";
}

TranslatedCommand translateCompileCommand(llvm::ArrayRef<std::string> Args,
                                          llvm::StringRef Directory, unsigned OldestArch) {
  TranslatedCommand Out;
  if (Args.empty())
    return Out;
  Out.FromNvcc = isNvcc(Args.front());
  std::vector<std::string> Tokens = expandArguments(Args, Directory);
  std::vector<std::string> Result = translateTokens(Tokens, OldestArch, Out);
  // Whatever is left must be a flag clang knows.
  finishArgs(Result, Out);
  llvm::sort(Out.Archs);
  Out.Archs.erase(std::unique(Out.Archs.begin(), Out.Archs.end()), Out.Archs.end());
  return Out;
}

} // namespace warp_tidy
