//===--- Messages.cpp - The driver's own messages on stderr ---------------===//

#include "driver/Messages.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace warp_tidy::driver {

void error(const Twine &Message) { WithColor::error(errs(), "warp-tidy") << Message << "\n"; }

void warning(const Twine &Message) { WithColor::warning(errs(), "warp-tidy") << Message << "\n"; }

void note(const Twine &Message) { WithColor::note(errs(), "warp-tidy") << Message << "\n"; }

} // namespace warp_tidy::driver
