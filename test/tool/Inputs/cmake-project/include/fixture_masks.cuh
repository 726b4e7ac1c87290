#pragma once
// Only reachable through the include path CMake puts in an options file.
#define FIXTURE_FULL_MASK 0xffffffffu
