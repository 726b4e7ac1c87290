//===--- DocsLocation.h - Where a check's page is for the user ------------===//
//
// SARIF's helpUri and warp-clangd's diagnostic links name a check's page
// as <base><check without warp->.md. A link must open on the machine that
// reads it, so the base is chosen when the tool runs, first found:
//   1. $WARP_TIDY_DOCS_URL;
//   2. a published base the build was configured with (an http(s) URL in
//      the WARP_TIDY_DOCS_URL CMake variable; the Actions recipe sets one);
//   3. the pages installed with the binary (<prefix>/share/doc/warp-tidy/
//      docs/checks/, what `cmake --install` and the .deb put there);
//   4. the source tree the binary was built from, when it still exists
//      (a developer's own build);
//   5. none: no link, rather than one into another machine's file system.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DOCSLOCATION_H
#define WARP_TIDY_TOOL_DOCSLOCATION_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace warp_tidy {

/// What the choice above depends on, so that it can be tested.
struct DocsSources {
  std::optional<std::string> Environment; ///< $WARP_TIDY_DOCS_URL
  std::string Configured;                 ///< the CMake variable
  std::string Executable;                 ///< the running binary's path
  std::string SourceDocs;                 ///< <source tree>/docs/checks
};

/// The base of the check pages (ending in '/'), or "" when none is known.
std::string checkDocsBase(const DocsSources &From);

/// checkDocsBase for the running tool (\p Executable) with this build's
/// configuration and environment.
std::string checkDocsBaseFor(llvm::StringRef Executable);

} // namespace warp_tidy

#endif
