//===--- Messages.h - The driver's own messages on stderr -----------------===//
//
// Errors, warnings and notes of the tool itself (not diagnostics of the
// code), in clang's layout with the tool's name: "warp-tidy: error: ...".
// Scripts and the lit tests match these words.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_MESSAGES_H
#define WARP_TIDY_TOOL_DRIVER_MESSAGES_H

#include "llvm/ADT/Twine.h"

namespace warp_tidy::driver {

void error(const llvm::Twine &Message);
void warning(const llvm::Twine &Message);
void note(const llvm::Twine &Message);

} // namespace warp_tidy::driver

#endif
