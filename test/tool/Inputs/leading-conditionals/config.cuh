#pragma once
// Decides, for every arch alike, whether the optional header is used.
#define USE_EXTRA_HELPERS 1
