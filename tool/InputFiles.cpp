//===--- InputFiles.cpp - Files and directories named on the command line -===//

#include "InputFiles.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <set>

namespace warp_tidy {

bool isCudaSourceName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

std::string pathInDirectory(llvm::StringRef Path, llvm::StringRef Directory) {
  if (llvm::sys::path::is_absolute(Path) || Directory.empty())
    return Path.str();
  llvm::SmallString<256> Full(Directory);
  llvm::sys::path::append(Full, Path);
  return Full.str().str();
}

static std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

ExpandedInputs expandInputs(llvm::ArrayRef<std::string> Arguments) {
  ExpandedInputs Result;
  std::set<std::string> Seen;
  auto Add = [&](std::string Path) {
    if (Seen.insert(Path).second)
      Result.Files.push_back(std::move(Path));
  };

  for (const std::string &Arg : Arguments) {
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(Arg, Status)) {
      std::string Path = absolute(Arg);
      Result.Errors.try_emplace(Path, "cannot read '" + Arg + "': " + EC.message());
      Add(std::move(Path));
      continue;
    }
    if (Status.type() == llvm::sys::fs::file_type::directory_file) {
      std::vector<std::string> Found;
      std::error_code EC;
      for (llvm::sys::fs::recursive_directory_iterator It(Arg, EC), End; It != End && !EC;
           It.increment(EC)) {
        // Hidden directories (.git, .cache) and build trees never hold
        // sources the user wants linted.
        llvm::StringRef Name = llvm::sys::path::filename(It->path());
        if (It->type() == llvm::sys::fs::file_type::directory_file && Name.starts_with(".")) {
          It.no_push();
          continue;
        }
        if (isCudaSourceName(It->path()))
          Found.push_back(absolute(It->path()));
      }
      if (EC)
        Result.Errors.try_emplace(absolute(Arg), "cannot walk '" + Arg + "': " + EC.message());
      llvm::sort(Found);
      if (Found.empty())
        Result.Errors.try_emplace(absolute(Arg), "no .cu or .cuh files under '" + Arg + "'");
      if (Result.Errors.count(absolute(Arg)))
        Add(absolute(Arg));
      for (std::string &F : Found)
        Add(std::move(F));
      continue;
    }
    Add(absolute(Arg));
  }
  return Result;
}

} // namespace warp_tidy
