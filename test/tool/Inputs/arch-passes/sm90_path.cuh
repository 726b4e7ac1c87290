  if (threadIdx.x < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
