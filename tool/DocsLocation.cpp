//===--- DocsLocation.cpp - Where a check's page is for the user ----------===//

#include "DocsLocation.h"
#include "BuildInfo.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace warp_tidy {
namespace {

std::string withSlash(std::string Base) {
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  return Base;
}

std::string fileUrl(StringRef Dir) {
  SmallString<256> Abs(Dir);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return withSlash("file://" + Abs.str().str());
}

/// The installed pages: share/doc/warp-tidy/docs/checks under the prefix,
/// which is one level above bin/warp-tidy and three above
/// lib/warp-tidy/bin/warp-clangd.
std::optional<std::string> installedDocs(StringRef Executable) {
  if (Executable.empty())
    return std::nullopt;
  StringRef Dir = sys::path::parent_path(Executable);
  for (unsigned Up = 0; Up < 3 && !Dir.empty(); ++Up) {
    Dir = sys::path::parent_path(Dir);
    SmallString<256> Docs(Dir);
    sys::path::append(Docs, "share", "doc", "warp-tidy");
    sys::path::append(Docs, "docs", "checks");
    if (sys::fs::is_directory(Docs))
      return fileUrl(Docs);
  }
  return std::nullopt;
}

bool isPublished(StringRef Url) {
  return Url.starts_with("https://") || Url.starts_with("http://");
}

} // namespace

std::string checkDocsBase(const DocsSources &From) {
  if (From.Environment)
    return withSlash(*From.Environment);
  if (isPublished(From.Configured))
    return withSlash(From.Configured);
  if (std::optional<std::string> Installed = installedDocs(From.Executable))
    return *Installed;
  if (!From.SourceDocs.empty() && sys::fs::is_directory(From.SourceDocs))
    return fileUrl(From.SourceDocs);
  return "";
}

std::string checkDocsBaseFor(StringRef Executable) {
  DocsSources From;
  From.Environment = sys::Process::GetEnv("WARP_TIDY_DOCS_URL");
  From.Configured = WARP_TIDY_DOCS_URL;
  From.Executable = Executable.str();
  From.SourceDocs = WARP_TIDY_SOURCE_DOCS;
  return checkDocsBase(From);
}

} // namespace warp_tidy
