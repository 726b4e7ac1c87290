//===--- Worker.cpp - The analysis of one file, in a child process --------===//

#include "driver/Worker.h"
#include "ArchPasses.h"
#include "DiagnosticKinds.h"
#include "DiagnosticsSerialization.h"
#include "NvccAsmEscapes.h"
#include "PrecompiledPrologue.h"
#include "ResultCache.h"
#include "driver/Configuration.h"
#include "driver/ExitStatus.h"
#include "driver/Messages.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace clang::tidy;

namespace warp_tidy::driver {
namespace {

// Records every file the analysis reads (the main file and each header, the
// toolkit's included), with the size and time it had when it was opened: the
// dependency list of a cache entry.
class TrackingFileSystem : public vfs::ProxyFileSystem {
public:
  struct Opened {
    uint64_t Size;
    int64_t MTimeNs;
  };
  using ProxyFileSystem::ProxyFileSystem;

  ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (File) {
      if (auto Status = (*File)->status())
        Files.try_emplace(dependencyPath(Path, *this),
                          Opened{Status->getSize(), mtimeNs(Status->getLastModificationTime())});
    }
    return File;
  }

  StringMap<Opened> Files;
};

// Out of memory under --memory-limit: a distinct exit status the parent
// reports as this file's error (not as a crash).
void exitOutOfMemory(void *, const char *, bool) {
  static const char Message[] = "warp-tidy: worker: out of memory\n";
  (void)!::write(2, Message, sizeof(Message) - 1);
  ::_exit(ExitOutOfMemory);
}

// The address-space limit makes an exploding analysis fail its allocation
// (exit ExitOutOfMemory) instead of taking the machine down.
void limitWorkerMemory(StringRef Limit) {
  std::optional<uint64_t> Bytes = parseByteSize(Limit);
  if (!Bytes || !*Bytes)
    return;
  struct rlimit Limits;
  Limits.rlim_cur = Limits.rlim_max = *Bytes;
  setrlimit(RLIMIT_AS, &Limits);
  install_bad_alloc_error_handler(exitOutOfMemory);
  install_out_of_memory_new_handler();
}

bool workerTestHook(const char *Variable, StringRef WorkerFile) {
  auto Value = sys::Process::GetEnv(Variable);
  return Value && !Value->empty() && WorkerFile.contains(*Value);
}

// Test hooks: let the lit suite check how a crashing, hanging or exploding
// analysis is reported.
void runTestHooks(StringRef WorkerFile) {
  if (workerTestHook("WARP_TIDY_TEST_CRASH_IN_WORKER", WorkerFile))
    std::abort();
  if (workerTestHook("WARP_TIDY_TEST_HANG_IN_WORKER", WorkerFile))
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  if (workerTestHook("WARP_TIDY_TEST_EXPLODE_IN_WORKER", WorkerFile)) {
    // Bounded (64 GiB of address space, pages untouched): if the limit were
    // not applied, the test sees a crash, and the machine is not harmed.
    static std::vector<void *> Kept;
    for (int I = 0; I < 1024; ++I)
      Kept.push_back(safe_malloc(64 << 20));
    std::abort();
  }
}

// The shared precompiled prologue lives next to the result cache (and is
// evicted with it); --no-pch turns it off. So does --vfsoverlay: a PCH is
// shared by flags, and the overlay could remap a header it holds.
PrologueSettings prologueSettings(const DriverOptions &Opts) {
  PrologueSettings S;
  if (!Opts.NoPch && !Opts.CacheDirectory.empty() && Opts.VfsOverlay.empty())
    S.Directory = prologueDirectory(Opts.CacheDirectory);
  if (Opts.WorkerPchLines != ~0u)
    S.LeadingLines = Opts.WorkerPchLines;
  return S;
}

struct Analysis {
  std::vector<ClangTidyError> Errors;
  ArchPassSummary Passes;
  PrologueOutcome Prologue;
};

Analysis analyse(const DriverOptions &Opts, ClangTidyContext &Context,
                 const WarpCompilationDatabase &Database,
                 IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS) {
  // One pass per arch variant with warp code (ArchPasses.h), usually one,
  // each over the shared prologue when it is on (PrecompiledPrologue.h).
  Analysis A;
  A.Errors = runArchPasses(Context, Database, Opts.WorkerFile, BaseFS, Opts.FixNotes,
                           prologueSettings(Opts), A.Prologue, Opts.MaxArchPasses, A.Passes);
  // Inline asm written for nvcc (`%laneid` in an asm with operands): read it
  // as nvcc does, in memory, rather than leave the unit unanalysed
  // (NvccAsmEscapes.h). Each round doubles the `%`s clang named; one asm
  // statement reports one at a time. No PCH: its headers would hold the
  // edited text under the key of the files on disk.
  AsmEscapeEdits AsmEdits;
  for (unsigned Round = 0; Round < 16 && AsmEdits.addEditsFor(A.Errors, *BaseFS); ++Round) {
    PrologueSettings NoPch = prologueSettings(Opts);
    NoPch.Directory.clear();
    A.Passes = ArchPassSummary();
    A.Prologue = PrologueOutcome();
    A.Errors = runArchPasses(Context, Database, Opts.WorkerFile, AsmEdits.overlay(BaseFS),
                             Opts.FixNotes, NoPch, A.Prologue, Opts.MaxArchPasses, A.Passes);
  }
  if (!AsmEdits.empty()) {
    AsmEdits.mapBack(A.Errors);
    if (sys::Process::GetEnv("WARP_TIDY_DEBUG_ASM"))
      errs() << "warp-tidy: debug: asm: read the '%' escapes of inline asm as nvcc does\n";
  }
  return A;
}

/// The files the analysis read, stamped now; false in \p Cacheable when one
/// changed while it was read (it has no single content to record).
std::vector<FileStamp> dependencies(const TrackingFileSystem &Tracker,
                                    const PrologueOutcome &Prologue, bool &Cacheable) {
  std::vector<FileStamp> Deps;
  std::vector<std::string> Paths;
  for (const auto &Entry : Tracker.Files)
    if (!Prologue.isPrologueFile(Entry.getKey()))
      Paths.push_back(Entry.getKey().str());
  llvm::sort(Paths);
  for (const std::string &P : Paths) {
    const TrackingFileSystem::Opened &O = Tracker.Files.find(P)->second;
    std::optional<FileStamp> S = stampFile(P);
    if (!S || S->Size != O.Size || S->MTimeNs != O.MTimeNs) {
      if (sys::Process::GetEnv("WARP_TIDY_DEBUG_CACHE"))
        errs() << "warp-tidy: debug: not cacheable: " << P << " changed while read (" << O.Size
               << "/" << O.MTimeNs << " -> "
               << (S ? std::to_string(S->Size) + "/" + std::to_string(S->MTimeNs) : "gone")
               << ")\n";
      Cacheable = false;
      continue;
    }
    Deps.push_back(std::move(*S));
  }
  // The prologue's headers were read into the PCH, not by this analysis:
  // they are dependencies all the same.
  mergeStamps(Deps, Prologue.Deps);
  return Deps;
}

int writeResult(StringRef Path, const Analysis &A, const TrackingFileSystem &Tracker) {
  // Cacheable only when the result depends on nothing but the files read:
  // a unit that does not compile may be fixed by a header appearing.
  bool Cacheable = !llvm::any_of(A.Errors, isCompilerError);
  std::vector<FileStamp> Deps = dependencies(Tracker, A.Prologue, Cacheable);
  if (Deps.empty())
    Cacheable = false;
  json::Object Out{{"diagnostics", diagnosticsToJson(A.Errors)},
                   {"deps", stampsToJson(Deps)},
                   {"cacheable", Cacheable},
                   {"archPasses", archPassSummaryToJson(A.Passes)}};
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC) {
    error("cannot write '" + Path + "': " + EC.message());
    return ExitToolError;
  }
  OS << json::Value(std::move(Out));
  OS.close();
  return OS.has_error() ? ExitToolError : ExitClean;
}

} // namespace

int runWorker(const DriverOptions &Opts, ClangTidyContext &Context,
              const WarpCompilationDatabase &Database) {
  limitWorkerMemory(Opts.WorkerMemoryLimit);
  runTestHooks(Opts.WorkerFile);
  auto Tracker = makeIntrusiveRefCnt<TrackingFileSystem>(vfs::getRealFileSystem());
  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Tracker);
  if (!Opts.VfsOverlay.empty()) {
    IntrusiveRefCntPtr<vfs::FileSystem> Overlay = loadVfsOverlay(Opts.VfsOverlay, Tracker);
    if (!Overlay)
      return ExitToolError;
    BaseFS->pushOverlay(Overlay);
  }
  Analysis A = analyse(Opts, Context, Database, BaseFS);
  return writeResult(Opts.WorkerOutput, A, *Tracker);
}

} // namespace warp_tidy::driver
