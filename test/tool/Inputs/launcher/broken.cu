// Does not compile: warp-tidy cannot analyse it; the compiler has the last word.
__global__ void broken(int *out) { out[0] = undeclared_value; }
