//===--- ClangdDefaults.cpp - warp-clangd's defaults over clangd's ---------===//
//
// What makes warp-clangd work with no configuration, where stock clangd
// would publish no warp diagnostic at all:
//  - the warp-* checks are enabled by default, at a precedence between
//    `.clang-tidy` files and `.clangd`: a `.clang-tidy` with `Checks: -*,...`
//    does not silence them, `.clangd`'s `Remove: [warp-*]` does, and a
//    `.clang-tidy` that names warp checks itself is left to decide;
//  - clangd's fast-check filter (Strict by default) drops every check missing
//    from its table of measured checks; warp-* checks are declared fast,
//    which docs/editors.md backs with measured latencies;
//  - diagnostic links go to the project's check pages instead of
//    clang.llvm.org/extra/clang-tidy/checks/warp/, which does not exist;
//  - the version string names warp-clangd (--version, the LSP serverInfo,
//    clangd's log).
//
// clangd 22 has no extension point for any of these and does not install
// its headers. Each is one function that clangd calls across object files;
// warp-clangd is linked with `--wrap` for exactly those (tool/CMakeLists.txt),
// which binds clangd's calls to the __wrap_ definitions below and __real_ to
// the originals. Should a later clangd rename one, the link fails on the
// missing __real_ symbol rather than silently losing the behaviour. Only
// references (never layouts) of clangd's own types cross this boundary.
//
//===----------------------------------------------------------------------===//

#include "BuildInfo.h"
#include "DocsLocation.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include <optional>
#include <string>

namespace clang::clangd {
class ThreadsafeFS;
struct PublishDiagnosticsParams;
// clangd's TidyProvider.h: a step that edits the options for one file.
using TidyProvider = llvm::unique_function<void(tidy::ClangTidyOptions &, llvm::StringRef) const>;
TidyProvider provideDefaultChecks();
} // namespace clang::clangd

using clang::clangd::TidyProvider;

namespace {

constexpr llvm::StringLiteral WarpPrefix = "warp-";

/// True when a check list names warp checks itself (`warp-*`, `-warp-*`,
/// `warp-zero-mask`, ...): such a configuration is followed as written.
bool namesWarpChecks(llvm::StringRef Checks) {
  llvm::SmallVector<llvm::StringRef> Globs;
  Checks.split(Globs, ',');
  for (llvm::StringRef Glob : Globs)
    if (Glob.trim().ltrim('-').trim().starts_with(WarpPrefix))
      return true;
  return false;
}

/// Base of the check pages (DocsLocation.h), the same as SARIF's helpUri:
/// pages are <base><name without warp->.md.
const std::string &docsBase() {
  static int Anchor;
  static const std::string Base =
      warp_tidy::checkDocsBaseFor(llvm::sys::fs::getMainExecutable(nullptr, &Anchor));
  return Base;
}

} // namespace

// --- warp-* on by default ---------------------------------------------------
#define PROVIDE_TIDY_FILES_SYMBOL "_ZN5clang6clangd21provideClangTidyFilesERNS0_12ThreadsafeFSE"
TidyProvider
realProvideClangTidyFiles(clang::clangd::ThreadsafeFS &FS) asm("__real_" PROVIDE_TIDY_FILES_SYMBOL);
TidyProvider
wrapProvideClangTidyFiles(clang::clangd::ThreadsafeFS &FS) asm("__wrap_" PROVIDE_TIDY_FILES_SYMBOL);

// clangd applies, in order: .clang-tidy files (this provider), .clangd,
// its default checks (only into an empty list), its list of unusable checks.
TidyProvider wrapProvideClangTidyFiles(clang::clangd::ThreadsafeFS &FS) {
  return [Files = realProvideClangTidyFiles(FS), Defaults = clang::clangd::provideDefaultChecks()](
             clang::tidy::ClangTidyOptions &Opts, llvm::StringRef File) {
    Files(Opts, File);
    if (Opts.Checks && namesWarpChecks(*Opts.Checks))
      return;
    // With no .clang-tidy, clangd would use its default checks; adding
    // warp-* must not replace them.
    Defaults(Opts, File);
    Opts.Checks =
        Opts.Checks && !Opts.Checks->empty() ? *Opts.Checks + ",warp-*" : std::string("warp-*");
  };
}

// --- warp-* pass the fast-check filter --------------------------------------
#define IS_FAST_SYMBOL "_ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE"
std::optional<bool> realIsFastTidyCheck(llvm::StringRef Check) asm("__real_" IS_FAST_SYMBOL);
std::optional<bool> wrapIsFastTidyCheck(llvm::StringRef Check) asm("__wrap_" IS_FAST_SYMBOL);

std::optional<bool> wrapIsFastTidyCheck(llvm::StringRef Check) {
  if (Check.starts_with(WarpPrefix))
    return true;
  return realIsFastTidyCheck(Check);
}

// --- links to the project's check pages -------------------------------------
#define PUBLISH_TO_JSON_SYMBOL "_ZN5clang6clangd6toJSONERKNS0_24PublishDiagnosticsParamsE"
llvm::json::Value realPublishToJSON(const clang::clangd::PublishDiagnosticsParams &P) asm(
    "__real_" PUBLISH_TO_JSON_SYMBOL);
llvm::json::Value wrapPublishToJSON(const clang::clangd::PublishDiagnosticsParams &P) asm(
    "__wrap_" PUBLISH_TO_JSON_SYMBOL);

// clangd derives the link from the check name (clang-tidy's own site), so it
// is replaced where the notification is serialised.
llvm::json::Value wrapPublishToJSON(const clang::clangd::PublishDiagnosticsParams &P) {
  llvm::json::Value Result = realPublishToJSON(P);
  llvm::json::Object *Params = Result.getAsObject();
  llvm::json::Array *Diagnostics = Params ? Params->getArray("diagnostics") : nullptr;
  if (!Diagnostics)
    return Result;
  for (llvm::json::Value &Entry : *Diagnostics) {
    llvm::json::Object *Diagnostic = Entry.getAsObject();
    if (!Diagnostic)
      continue;
    std::optional<llvm::StringRef> Code = Diagnostic->getString("code");
    if (!Code || !Code->starts_with(WarpPrefix))
      continue;
    if (docsBase().empty())
      Diagnostic->erase("codeDescription");
    else
      (*Diagnostic)["codeDescription"] = llvm::json::Object{
          {"href", docsBase() + Code->drop_front(WarpPrefix.size()).str() + ".md"}};
  }
  return Result;
}

// --- the version names warp-clangd ------------------------------------------
#define VERSION_SYMBOL "_ZN5clang6clangd13versionStringB5cxx11Ev"
std::string realVersionString() asm("__real_" VERSION_SYMBOL);
std::string wrapVersionString() asm("__wrap_" VERSION_SYMBOL);

std::string wrapVersionString() {
  return "warp-clangd version " WARP_TIDY_VERSION " (" + realVersionString() + ")";
}
