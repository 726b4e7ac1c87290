// Unit tests for where check-page links point (tool/DocsLocation.h): each
// source in its order, and no link rather than a dead one.
#include "DocsLocation.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace warp_tidy;

namespace {

/// A fresh directory tree for one test, removed at the end.
struct TempTree {
  llvm::SmallString<128> Root;
  TempTree() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("docs-location", Root)); }
  ~TempTree() { llvm::sys::fs::remove_directories(Root); }
  std::string make(llvm::StringRef Relative) {
    llvm::SmallString<128> P(Root);
    llvm::sys::path::append(P, Relative);
    EXPECT_FALSE(llvm::sys::fs::create_directories(P));
    return P.str().str();
  }
  std::string path(llvm::StringRef Relative) {
    llvm::SmallString<128> P(Root);
    llvm::sys::path::append(P, Relative);
    return P.str().str();
  }
};

} // namespace

TEST(DocsLocation, EachSourceInItsOrder) {
  TempTree T;
  std::string Installed = T.make("prefix/share/doc/warp-tidy/docs/checks");
  T.make("prefix/bin");
  std::string Source = T.make("src/docs/checks");
  DocsSources From;
  From.Executable = T.path("prefix/bin/warp-tidy");
  From.SourceDocs = Source;
  From.Configured = "https://example.org/pages/checks";
  From.Environment = "https://mirror.example/checks/";
  EXPECT_EQ(checkDocsBase(From), "https://mirror.example/checks/");
  From.Environment.reset();
  EXPECT_EQ(checkDocsBase(From), "https://example.org/pages/checks/");
  // A file:// base configured into a build names the build machine: not
  // taken as published.
  From.Configured = "file:///home/builder/warp-tidy/docs/checks/";
  EXPECT_EQ(checkDocsBase(From), "file://" + Installed + "/");
  From.Configured.clear();
  EXPECT_EQ(checkDocsBase(From), "file://" + Installed + "/");
  // warp-clangd lives in lib/warp-tidy/bin.
  From.Executable = T.path("prefix/lib/warp-tidy/bin/warp-clangd");
  EXPECT_EQ(checkDocsBase(From), "file://" + Installed + "/");
  // A build tree: the source tree's pages while they exist.
  From.Executable = T.path("build/bin/warp-tidy");
  EXPECT_EQ(checkDocsBase(From), "file://" + Source + "/");
}

TEST(DocsLocation, NoLinkRatherThanADeadOne) {
  TempTree T;
  DocsSources From;
  From.Executable = T.path("elsewhere/bin/warp-tidy");
  From.SourceDocs = T.path("gone/docs/checks"); // the build machine's tree
  EXPECT_EQ(checkDocsBase(From), "");
}
