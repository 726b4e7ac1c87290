// A host-only header: no device code, so it stays C++ (a CUDA parse would
// still succeed; what matters is that no CUDA settings are forced on it).
#pragma once
inline int hostOnly(int v) { return v + 1; }
