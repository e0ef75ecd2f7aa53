// Two rules of a player sitting at a table of one game, shared by the
// opponent env (opponent_env.h) and Python agents (python/src/python_player.h):
// how a spec names "this game's zoo bot", and why an answer cannot be played.
#pragma once

#include <string>

#include "envs/core/game.h"
#include "training/players/player_spec.h"

namespace rocketgym::players {

// parse_player() at a table of game `game_id`, where a kind's name alone (or
// NAME=KIND) stands for what the kind says it is there
// (PlayerKind::at_table): a bare `zoo` is that game's zoo bot, zoo:GAME_ID.
inline PlayerSpec parse_player(const std::string& text, const std::string& game_id) {
  const auto eq = text.rfind('=');
  if (eq == 0) return parse_player(text);  // no NAME before the '='
  const std::string word = eq == std::string::npos ? text : text.substr(eq + 1);
  const PlayerKind* kind = find_kind(word);
  if (kind == nullptr || !kind->info().agent) return parse_player(text);
  return parse_player(text.substr(0, text.size() - word.size()) + kind->at_table(game_id));
}

// Why `a` cannot be played in `state` ("out of range [0, 419]", "'take 3' is
// not legal"), or "" when it can: the message of an agent's bad answer.
template <class G>
std::string action_fault(const typename G::State& state, Action a) {
  const int actions = G::info().num_actions;
  if (a < 0 || a >= actions) return "out of range [0, " + std::to_string(actions - 1) + "]";
  if (!state.is_legal(a)) return "'" + state.action_to_string(a) + "' is not legal";
  return "";
}

}  // namespace rocketgym::players
