#pragma once
// Included by every unit of the project: its finding is reported once.
__device__ inline unsigned header_vote(int v) {
  return __ballot_sync(0, v > 0);
}
