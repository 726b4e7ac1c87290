// Reached through CMake's includes_CUDA.rsp only.
#define NO_LANES (FIXTURE_MASK)
