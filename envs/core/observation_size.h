// The number of floats of one observation of game G at a table of `players`:
// the product of its encoder's shape (the flat size the tools and tests allocate).
#pragma once

template <class G>
int observation_size(const typename G::Config& config, int players) {
  int size = 1;
  for (int d : G::Encoder::shape(config, players)) size *= d;
  return size;
}
