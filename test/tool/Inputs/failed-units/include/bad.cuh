// Does not compile: every unit that includes it fails, though none has an
// error of its own.
__device__ int bad_helper() { return undeclared_name; }
