//===--- BuildInfo.h - What the build tells the tools about themselves ----===//
//
// tool/CMakeLists.txt defines these for warp-tidy and warp-clangd (the
// project's version, a published base address of the check pages and the
// source tree's copy of them, clang's resource directory). The defaults keep a file compiled
// without them (an editor's or another build's view of it) building.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_BUILDINFO_H
#define WARP_TIDY_TOOL_BUILDINFO_H

#ifndef WARP_TIDY_VERSION
#define WARP_TIDY_VERSION "unknown"
#endif
#ifndef WARP_TIDY_DOCS_URL
#define WARP_TIDY_DOCS_URL ""
#endif
#ifndef WARP_TIDY_SOURCE_DOCS
#define WARP_TIDY_SOURCE_DOCS ""
#endif
#ifndef WARP_TIDY_CLANG_RESOURCE_DIR
#define WARP_TIDY_CLANG_RESOURCE_DIR ""
#endif

#endif
