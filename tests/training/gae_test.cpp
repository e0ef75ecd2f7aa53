// GAE on turn-based trajectories, checked against hand-computed values, and
// the trajectory store that feeds it.
#include "training/ppo/gae.h"

#include <catch2/catch.hpp>

#include "training/ppo/trajectory_store.h"

using namespace rocketgym::ppo;

TEST_CASE("GAE on one seat matches a hand computation", "[gae]") {
  // gamma = 1, lambda = 0.5, reward 1 on the last decision:
  //   d2 = 1 - (-0.1) = 1.1            A2 = 1.1
  //   d1 = -0.1 - 0.2 = -0.3           A1 = -0.3 + 0.5 * 1.1 = 0.25
  //   d0 = 0.2 - 0.5 = -0.3            A0 = -0.3 + 0.5 * 0.25 = -0.175
  const float values[3] = {0.5f, 0.2f, -0.1f};
  const float rewards[3] = {0.0f, 0.0f, 1.0f};
  float adv[3], ret[3];
  gae_single_seat(values, rewards, 3, 1.0f, 0.5f, adv, ret);
  CHECK(adv[2] == Approx(1.1f));
  CHECK(adv[1] == Approx(0.25f));
  CHECK(adv[0] == Approx(-0.175f));
  CHECK(ret[0] == Approx(0.325f));
  CHECK(ret[1] == Approx(0.45f));
  CHECK(ret[2] == Approx(1.0f));
}

TEST_CASE("GAE discounts with gamma and lambda", "[gae]") {
  // gamma = 0.9, lambda = 0.8: d1 = 1 - 0.2 = 0.8; d0 = 0.9 * 0.2 - 0.5 = -0.32;
  // A0 = -0.32 + 0.72 * 0.8 = 0.256.
  const float values[2] = {0.5f, 0.2f};
  const float rewards[2] = {0.0f, 1.0f};
  float adv[2], ret[2];
  gae_single_seat(values, rewards, 2, 0.9f, 0.8f, adv, ret);
  CHECK(adv[1] == Approx(0.8f));
  CHECK(adv[0] == Approx(0.256f));
  CHECK(ret[0] == Approx(0.756f));
}

TEST_CASE("turn-based GAE runs per seat over interleaved decisions", "[gae]") {
  // Seat 0 moves twice in a row (a multi-decision turn), then seat 1, seat 0,
  // seat 1. Seat 0 wins (+1), seat 1 loses (-1). With gamma = lambda = 1 the
  // advantage is the seat's final return minus its value.
  const int seats[5] = {0, 0, 1, 0, 1};
  const float values[5] = {0.1f, 0.2f, 0.3f, 0.4f, -0.5f};
  const float final_returns[2] = {1.0f, -1.0f};
  float adv[5], ret[5];
  gae_turn_based(seats, values, 5, final_returns, 2, 1.0f, 1.0f, adv, ret);
  CHECK(adv[0] == Approx(0.9f));
  CHECK(adv[1] == Approx(0.8f));
  CHECK(adv[3] == Approx(0.6f));
  CHECK(adv[2] == Approx(-1.3f));
  CHECK(adv[4] == Approx(-0.5f));
  for (int k : {0, 1, 3}) CHECK(ret[k] == Approx(1.0f));
  for (int k : {2, 4}) CHECK(ret[k] == Approx(-1.0f));
}

TEST_CASE("turn-based GAE equals single-seat GAE on each seat's subsequence", "[gae]") {
  const int seats[6] = {1, 0, 0, 1, 1, 0};
  const float values[6] = {0.3f, -0.2f, 0.1f, 0.6f, 0.2f, -0.4f};
  const float final_returns[2] = {-1.0f, 1.0f};
  float adv[6], ret[6];
  gae_turn_based(seats, values, 6, final_returns, 2, 0.95f, 0.7f, adv, ret);
  for (int seat = 0; seat < 2; ++seat) {
    float v[6], r[6], a[6], t[6];
    int idx[6], n = 0;
    for (int k = 0; k < 6; ++k)
      if (seats[k] == seat) idx[n] = k, v[n] = values[k], r[n] = 0.0f, ++n;
    r[n - 1] = final_returns[seat];
    gae_single_seat(v, r, n, 0.95f, 0.7f, a, t);
    for (int i = 0; i < n; ++i) {
      CHECK(adv[idx[i]] == Approx(a[i]));
      CHECK(ret[idx[i]] == Approx(t[i]));
    }
  }
}

TEST_CASE("the trajectory store computes targets when an episode ends and keeps unfinished ones", "[gae]") {
  TrajectoryStore store(/*envs*/ 2, /*players*/ 2, /*obs*/ 2, /*actions*/ 3, 4);
  const float v_a[2] = {0.5f, -0.5f}, v_b[2] = {0.1f, -0.1f}, v_c[2] = {0.2f, 0.0f}, v_d[2] = {0.0f, 0.0f};
  const int a = store.add(0, 0, 1, -0.7f, v_a);
  store.observation(a)[0] = 42.0f;
  const int b = store.add(0, 1, 2, -0.3f, v_b);
  const int c = store.add(1, 1, 0, -1.1f, v_c);  // env 1 keeps going
  store.observation(c)[1] = 7.0f;
  store.mask(c)[2] = 1;
  const int d = store.add(0, 0, 0, -0.2f, v_d);
  CHECK(store.ready_count() == 0);

  const float returns[2] = {1.0f, -1.0f};
  store.finish_episode(0, returns, 1.0f, 1.0f);
  CHECK(store.ready_count() == 3);
  // Seat 0: decisions a, d; seat 1: decision b. gamma = lambda = 1.
  CHECK(store.advantage(a) == Approx(1.0f - 0.5f));
  CHECK(store.advantage(d) == Approx(1.0f - 0.0f));
  CHECK(store.advantage(b) == Approx(-1.0f - 0.1f));
  // Value targets are viewer-relative: [own lambda-return, next seat's final return].
  CHECK(store.value_targets(a)[0] == Approx(1.0f));
  CHECK(store.value_targets(a)[1] == Approx(-1.0f));
  CHECK(store.value_targets(b)[0] == Approx(-1.0f));
  CHECK(store.value_targets(b)[1] == Approx(1.0f));

  store.compact();  // env 1's decision survives, moved to the front
  CHECK(store.size() == 1);
  CHECK(store.ready_count() == 0);
  CHECK(store.observation(0)[1] == 7.0f);
  CHECK(store.mask(0)[2] == 1);
  CHECK(store.action(0) == 0);
  CHECK(store.log_prob(0) == Approx(-1.1f));
  const float v_e[2] = {-0.4f, 0.0f};
  const int e = store.add(1, 1, 1, -0.5f, v_e);
  const float returns1[2] = {-1.0f, 1.0f};
  store.finish_episode(1, returns1, 1.0f, 1.0f);
  CHECK(store.ready_count() == 2);
  CHECK(store.advantage(0) == Approx(1.0f - 0.2f));  // the carried-over decision is in the same chain
  CHECK(store.advantage(e) == Approx(1.0f + 0.4f));
}

TEST_CASE("the trajectory store grows past its initial capacity", "[gae]") {
  TrajectoryStore store(1, 2, 3, 2, 16);
  const float v[2] = {0.0f, 0.0f};
  for (int k = 0; k < 100; ++k) {
    const int slot = store.add(0, k % 2, k % 2, -0.69f, v);
    store.observation(slot)[2] = static_cast<float>(k);
  }
  CHECK(store.observation(0)[2] == 0.0f);
  CHECK(store.observation(99)[2] == 99.0f);
  const float returns[2] = {0.0f, 0.0f};
  store.finish_episode(0, returns, 1.0f, 0.9f);
  CHECK(store.ready_slots().size() == 100);
}

TEST_CASE("potential-based shaping adds w * (phi(next) - phi(now)) per seat and telescopes", "[gae]") {
  // gamma = lambda = 1 and zero values: the advantage of a decision is the sum
  // of the seat's rewards from there on, i.e. its return plus
  // w * (0 - phi(now)), whatever the potentials in between.
  const int seats[5] = {0, 1, 0, 1, 0};
  const float values[5] = {0, 0, 0, 0, 0};
  const float potentials[5] = {-6.0f, -5.0f, -4.0f, -9.0f, -1.0f};
  const float final_returns[2] = {1.0f, -1.0f};
  float adv[5], ret[5];
  gae_turn_based(seats, values, 5, final_returns, 2, 1.0f, 1.0f, adv, ret, potentials, 0.1f);
  CHECK(adv[0] == Approx(1.0f + 0.6f));
  CHECK(adv[2] == Approx(1.0f + 0.4f));
  CHECK(adv[4] == Approx(1.0f + 0.1f));
  CHECK(adv[1] == Approx(-1.0f + 0.5f));
  CHECK(adv[3] == Approx(-1.0f + 0.9f));
  // lambda = 0: each advantage is the one-step shaped reward (no terminal
  // reward before the seat's last decision).
  gae_turn_based(seats, values, 5, final_returns, 2, 1.0f, 0.0f, adv, ret, potentials, 0.1f);
  CHECK(adv[0] == Approx(0.1f * (-4.0f + 6.0f)));
  CHECK(adv[1] == Approx(0.1f * (-9.0f + 5.0f)));
  CHECK(adv[3] == Approx(-1.0f + 0.9f));
  // Weight 0 is the unshaped computation.
  float adv0[5], ret0[5];
  gae_turn_based(seats, values, 5, final_returns, 2, 1.0f, 0.95f, adv, ret, potentials, 0.0f);
  gae_turn_based(seats, values, 5, final_returns, 2, 1.0f, 0.95f, adv0, ret0);
  for (int k = 0; k < 5; ++k) CHECK(adv[k] == Approx(adv0[k]));
}

TEST_CASE("with shaping the store shapes advantages but not value targets", "[gae]") {
  TrajectoryStore store(1, 2, 1, 2, 8);
  const float v[2] = {0.0f, 0.0f};
  const int a = store.add(0, 0, 0, -0.7f, v, -3.0f);
  const int b = store.add(0, 1, 0, -0.7f, v, -2.0f);
  const int c = store.add(0, 0, 1, -0.7f, v, -1.0f);
  store.compact();  // nothing ready: potentials move with their slots
  const float returns[2] = {1.0f, -1.0f};
  store.finish_episode(0, returns, 1.0f, 1.0f, 0.5f);
  CHECK(store.advantage(a) == Approx(1.0f + 1.5f));
  CHECK(store.advantage(c) == Approx(1.0f + 0.5f));
  CHECK(store.advantage(b) == Approx(-1.0f + 1.0f));
  CHECK(store.value_targets(a)[0] == Approx(1.0f));
  CHECK(store.value_targets(b)[0] == Approx(-1.0f));
  CHECK(store.value_targets(c)[0] == Approx(1.0f));
}
