#include <thrust/device_vector.h>
#include <thrust/reduce.h>
int sum(const thrust::device_vector<int> &v) { return thrust::reduce(v.begin(), v.end()); }
