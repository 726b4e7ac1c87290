#pragma once
__device__ inline unsigned extraVote(int v) { return __ballot_sync(0, v); }
