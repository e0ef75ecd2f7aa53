// `rocketgym play`: a person plays in the terminal against bots.
#include <iostream>
#include <limits>
#include <memory>
#include <random>

#include "envs/core/files.h"
#include "envs/core/game.h"
#include "envs/core/numbers.h"
#include "envs/core/quoted.h"
#include "envs/core/rng.h"
#include "generated/game_list.h"
#include "training/cli/answer_line.h"
#include "training/cli/commands.h"
#include "training/cli/options.h"
#include "training/players/kinds.h"
#include "training/players/kinds/human.h"
#include "training/players/player_base.h"
#include "training/table_limits.h"

namespace rocketgym::cli {
namespace {

struct PlayOptions {
  std::string game;
  int players = 2;
  std::string seats;
  uint64_t seed = 0;
  std::string config_file;
  std::vector<std::string> settings;
};

// The seats of --seats `text`, one a comma; without it, the human then
// heuristic bots. An empty seat (",human", "human,") is refused, not dropped.
std::vector<std::string> split_seats(const std::string& text, int players) {
  std::vector<std::string> seats;
  if (text.empty()) return players::default_seats(players);
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    seats.push_back(text.substr(start, comma - start));
    if (seats.back().empty())
      throw Error("--seats " + quote(text) + ": seat " + std::to_string(seats.size() - 1) + " is empty");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (static_cast<int>(seats.size()) != players)
    throw Error("--seats lists " + std::to_string(seats.size()) + (seats.size() == 1 ? " seat" : " seats") +
                " for " + std::to_string(players) + " players");
  return seats;
}

// The seats of a build without the training library: the kinds that need no
// network (kinds.h), made by their kind's factory, a fresh player per move
// (serve may ask from several threads).
SeatBot basic_seat_bot(const std::string& seat, const AnyGame& game) {
  const players::PlayerKind* kind = players::find_kind(seat);
  if (kind == nullptr || !kind->info().agent || kind->info().network) {
    std::string basic;
    for (const players::PlayerKind* k : players::player_kinds())
      if (!k->info().network) basic += (basic.empty() ? "" : ", ") + std::string(k->info().name);
    throw Error("unknown seat kind " + quote(seat) + " (" + basic +
                "; trained agents need the training build)");
  }
  const std::vector<std::string> words{seat};
  std::shared_ptr<const players::PlayerKind> settings = kind->read_text({seat, words});
  return visit_game(game.info().id, [&](auto g) -> SeatBot {
    using G = decltype(g);
    return
        [settings, id = game.info().id, who = "seat " + quote(seat)](const AnyState& state, uint64_t seed) {
          std::unique_ptr<players::UntypedPlayer> made = settings->make_player({id, 1, nullptr, nullptr});
          auto& player = dynamic_cast<players::Player<G>&>(*made);
          return players::act_once(player, state, seed, who);
        };
  });
}

}  // namespace

// The bot of each seat that is not a person's (an empty function there). With
// the training library, every bot comes from its player unit (make_bot).
std::vector<SeatBot> make_bots(const std::vector<std::string>& seats, const AnyGame& game, int players,
                               const SeatBotFactory& make_bot) {
  std::vector<SeatBot> bots;
  for (const std::string& seat : seats) {
    if (players::is_person_seat(seat))
      bots.emplace_back();
    else if (make_bot)
      bots.push_back(make_bot(seat, game, players));
    else
      bots.push_back(basic_seat_bot(seat, game));
  }
  return bots;
}

namespace {

// `text` without the spaces, tabs and carriage returns around it (a move
// typed as " 2 " or piped from a file with CRLF line ends).
std::string trimmed(const std::string& text) {
  const char* space = " \t\r";
  const std::size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

// Reads the human's choice from stdin (a terminal or a pipe of moves, one
// number a line); re-prompts on anything but a listed number. Returns -1 when
// they quit (q) or stdin ends.
int ask_human(const AnyState& state, int seat, const std::vector<Action>& legal) {
  for (std::size_t i = 0; i < legal.size(); ++i)
    std::cout << "  [" << i << "] " << files::printable(state.action_to_string(legal[i])) << "\n";
  while (true) {
    std::cout << "player " << seat << ", your choice (0-" << legal.size() - 1
              << ", q to quit): " << std::flush;
    std::string line;
    const AnswerRead read = read_answer(std::cin, line);
    if (read == AnswerRead::kEnd) {
      std::cout << "\n(end of input on stdin)\n";  // ends the prompt's line, then says why
      return -1;
    }
    if (read == AnswerRead::kTooLong) {
      std::cout << "the line is longer than " << kMaxAnswerLine
                << " characters: not one of the numbers above (0 to " << legal.size() - 1
                << ", or q to quit).\n";
      continue;
    }
    line = trimmed(line);
    if (line == "q" || line == "quit") return -1;
    // Plain decimal, as every number the CLI reads (numbers.h): no "+1",
    // "01" or "-0" (unsigned, so that a minus sign is refused).
    uint64_t pick = 0;
    if (read_whole<uint64_t>(line, 0, legal.size() - 1, pick) == NumberRead::ok)
      return static_cast<int>(pick);
    std::cout << quoted_answer(line) << " is not one of the numbers above (0 to " << legal.size() - 1
              << ", or q to quit).\n";
  }
}

void play(const PlayOptions& opt, const SeatBotFactory& make_bot) {
  auto game = load_game(opt.game, opt.config_file, ConfigNode::from_settings(opt.settings));
  game->check_players(opt.players);
  const auto seats = split_seats(opt.seats, opt.players);
  std::vector<SeatBot> bots;
  try {
    bots = make_bots(seats, *game, opt.players, make_bot);
  } catch (const Error& e) {
    throw Error("--seats " + quote(opt.seats) + ": " + e.what());  // which argument held the bad seat
  }
  int humans = 0;
  for (int p = 0; p < opt.players; ++p) humans += players::is_person_seat(seats[p]);
  const uint64_t seed = opt.seed ? opt.seed : static_cast<uint64_t>(std::random_device{}());
  auto state = game->new_state(opt.players, seed);
  Rng rng(derive_seed(seed, 1));
  std::cout << game->info().name << " — seed " << seed << "\n";  // (text from files is shown printable)
  while (!state->is_terminal()) {
    const int p = state->current_player();
    Action action;
    if (players::is_person_seat(seats[p])) {
      // The board as the seat to move sees it, never a bot's hand; people
      // sharing the terminal (hot seat) see each other's views.
      std::cout << "\n" << files::printable(state->observation_string(p));
      const auto legal = state->legal_actions();
      const int pick = ask_human(*state, p, legal);
      if (pick < 0) {
        std::cout << "Game abandoned.\n";
        return;
      }
      action = legal[static_cast<std::size_t>(pick)];
      // Named back, so that a transcript (moves piped in) shows what was
      // played; a secret one only to a person alone at the terminal (the
      // next person would read it).
      if (humans == 1 || state->is_public_action(action))
        std::cout << "player " << p << " (human): " << files::printable(state->action_to_string(action))
                  << "\n";
    } else {
      action = bots[static_cast<std::size_t>(p)](*state, rng.next());
      // A bot's secret move is not even announced where a person watches:
      // that it happened may show what the bot holds (who was asked to block
      // in Rocket Squad, a blind draw in The Last Blast). Without people,
      // everything is printed.
      if (humans == 0 || state->is_public_action(action))
        std::cout << "player " << p << " (" << files::printable(seats[p])
                  << "): " << files::printable(state->action_to_string(action)) << "\n";
    }
    state->apply(action);
  }
  // The game is over: every hand is shown (the final board and the scores).
  std::cout << "\n" << files::printable(state->to_string());
  const auto returns = state->returns();
  const auto scores = state->scores();
  for (int p = 0; p < opt.players; ++p)
    std::cout << "player " << p << " (" << files::printable(seats[p]) << "): score " << scores[p]
              << ", return " << returns[p] << "\n";
}

}  // namespace

void add_play_command(CLI::App& app, SeatBotFactory make_bot) {
  auto opt = std::make_shared<PlayOptions>();
  auto* cmd = app.add_subcommand(
      "play",
      "Play a game in the terminal against bots: your moves are read from stdin (a terminal or a pipe), "
      "one listed number a line; q or the end of stdin abandons the game");
  cmd->add_option("game", opt->game, "Game id (see `rocketgym list`)")->required();
  cmd->add_option("-p,--players", opt->players, "Number of players")
      ->check(whole_number(1, kLargestTableInput));
  cmd->add_option("--seats", opt->seats,
                  std::string("Comma-separated seats: ") + players::kind_name<players::Human>() +
                      " (you) or an agent, [NAME=]" + players::agent_grammar() +
                      " (default: human then heuristic bots)");
  cmd->add_option("--seed", opt->seed, "Seed (0 = random)")->check(seed("0 = a random seed"));
  add_path_option(cmd, "--config", opt->config_file, "Game config YAML (default: configs/games/<game>.yaml)");
  cmd->add_option("--set", opt->settings, "Override a config key, e.g. --set max_turns=50");
  cmd->callback([opt, make_bot] { play(*opt, make_bot); });
}

}  // namespace rocketgym::cli
