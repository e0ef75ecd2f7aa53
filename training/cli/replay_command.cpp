// `rocketgym replay FILE [--game N] [--seat S]`: steps through a recorded
// game (envs/core/game_record.h; written by `rocketgym arena --records`) in
// the terminal, from one seat's view or the full board. On a terminal it
// waits for a key at each position (Enter or n: next, p: previous, q: quit);
// with stdin not a terminal it prints the whole game once.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "envs/core/files.h"
#include "envs/core/game_record.h"
#include "envs/core/quoted.h"
#include "training/cli/answer_line.h"
#include "training/cli/commands.h"
#include "training/cli/options.h"
#include "training/cli/seen_moves.h"

namespace rocketgym::cli {
namespace {

struct ReplayOptions {
  std::string file;
  int game = 0;
  int seat = -1;  // -1: the full board
};

constexpr std::size_t kRecentMoves = 10;  // moves shown before the position on a terminal

class Replay {
 public:
  Replay(const LoadedRecord& loaded, int seat)
      : loaded_(loaded), record_(loaded.record), seat_(seat), seen_(moves_seen_by(loaded, seat)) {}

  // The moves the seat sees (seen_moves.h): positions and numbers count only
  // those, so that no gap shows another seat's secret move.
  std::size_t moves() const { return seen_.count(); }

  // The seat's position k: the record's position before its move k.
  std::unique_ptr<AnyState> state_at(std::size_t k) const { return loaded_.state_at(seen_.position(k)); }

  // The text of the seat's move k, played from `before` (its position k).
  std::string move_text(const AnyState& before, std::size_t k) const {
    const int actor = before.current_player();
    const Action action = record_.actions[seen_.at[k]];
    return std::to_string(k + 1) + ". player " + std::to_string(actor) + " (" + name(actor) +
           "): " + before.action_to_string(action);
  }

  std::string board(const AnyState& state) const {
    return seat_ >= 0 ? state.observation_string(seat_) : state.to_string();
  }

  void print_header(std::ostream& out) const {
    out << loaded_.game->info().name << " (" << shortened(loaded_.source) << "), seed " << record_.seed
        << ", " << record_.num_players << " players:";
    for (int p = 0; p < record_.num_players; ++p) out << (p ? ", " : " ") << p << " " << name(p);
    out << (seat_ >= 0 ? "; seen from seat " + std::to_string(seat_) : std::string("; the full board"))
        << "\n";
  }

  void print_returns(std::ostream& out) const {
    out << "returns:";
    for (int p = 0; p < record_.num_players; ++p)
      out << (p ? ", " : " ") << "player " << p << " " << record_.returns[static_cast<std::size_t>(p)];
    out << "\n";
  }

  // Every position and move in turn, then the returns.
  void print_all(std::ostream& out) const {
    print_header(out);
    for (std::size_t k = 0; k < moves(); ++k) {
      const auto state = state_at(k);
      out << "\n" << board(*state) << move_text(*state, k) << "\n";
    }
    out << "\n" << board(*state_at(moves()));
    print_returns(out);
  }

  // Position k (before move k): the last moves, the board, the next move.
  void print_position(std::ostream& out, std::size_t k) const {
    out << "\n--- position " << k << " of " << moves() << " ---\n";
    const std::size_t first = k > kRecentMoves ? k - kRecentMoves : 0;
    for (std::size_t i = first; i < k; ++i) out << "  " << move_text(*state_at(i), i) << "\n";
    const auto state = state_at(k);
    out << board(*state);
    if (k < moves())
      out << "next: " << move_text(*state, k) << "\n";
    else
      print_returns(out);
  }

 private:
  // A seat's name as read from the file, escaped on its own (envs/core/quoted.h):
  // the reader keeps to the names the arena writes, and a line break or a
  // long name in a file would still never forge a line nor flood the output.
  std::string name(int seat) const { return shortened(record_.players[static_cast<std::size_t>(seat)]); }

  const LoadedRecord& loaded_;
  const RecordedGame& record_;
  int seat_;
  SeenMoves seen_;
};

// Steps through the game on the keys read from stdin, one a line; q or the
// end of stdin leaves.
void interact(const Replay& replay) {
  std::size_t k = 0;
  while (true) {
    std::ostringstream position;
    replay.print_position(position, k);
    std::cout << files::printable(position.str());
    std::cout << "[Enter/n] next  [p] previous  [q] quit: " << std::flush;
    std::string line;
    const AnswerRead read = read_answer(std::cin, line);
    if (read == AnswerRead::kEnd) {
      std::cout << "\n";  // the shell's prompt then starts on a line of its own
      return;
    }
    if (read == AnswerRead::kTooLong) {
      std::cout << "the line is longer than " << kMaxAnswerLine
                << " characters: Enter or n for the next move, p for the previous, q to quit\n";
      continue;
    }
    if (line == "q") return;
    if (line.empty() || line == "n") {
      if (k == replay.moves()) std::cout << "(the game is over: p for the previous move, q to quit)\n";
      k = std::min(k + 1, replay.moves());
    } else if (line == "p") {
      if (k == 0) std::cout << "(this is the first position: Enter or n for the next move)\n";
      k = k > 0 ? k - 1 : 0;
    } else {
      std::cout << quoted_answer(line) << ": Enter or n for the next move, p for the previous, q to quit\n";
    }
  }
}

void replay(const ReplayOptions& opt) {
  // Games 0 to N only are read and checked: the ones after game N cost time
  // and memory and are not shown.
  const std::vector<LoadedRecord> records =
      load_records_to_show(opt.file, static_cast<std::size_t>(opt.game) + 1);
  if (opt.game >= static_cast<int>(records.size()))
    throw Error("--game " + std::to_string(opt.game) + ": " + quote(opt.file) + " holds " +
                std::to_string(records.size()) + " games (0 to " + std::to_string(records.size() - 1) + ")");
  const LoadedRecord& loaded = records[static_cast<std::size_t>(opt.game)];
  if (opt.seat >= loaded.record.num_players)
    throw Error("--seat " + std::to_string(opt.seat) + ": the game has " +
                std::to_string(loaded.record.num_players) + " seats (0 to " +
                std::to_string(loaded.record.num_players - 1) + ")");
  // The player names come from the file: each escaped (Replay::name). The
  // whole text is shown as printable text too (envs/core/files.h), never as
  // raw control bytes.
  const Replay r(loaded, opt.seat);
  std::ostringstream text;
  if (::isatty(STDIN_FILENO)) {
    r.print_header(text);
    std::cout << files::printable(text.str());
    interact(r);
  } else {
    r.print_all(text);
    std::cout << files::printable(text.str());
  }
}

}  // namespace

void add_replay_command(CLI::App& app) {
  auto opt = std::make_shared<ReplayOptions>();
  auto* cmd = app.add_subcommand(
      "replay",
      "Step through a recorded game (rocketgym arena --records): Enter or n next, p previous, q quit; "
      "with stdin not a terminal, prints the whole game");
  add_path_option(cmd, "file", opt->file, "records file (one JSON line per game)")->required();
  cmd->add_option("--game", opt->game, "which game of the file, counted from 0 (default 0)")
      ->check(whole_number(0, 1 << 30));
  cmd->add_option("--seat", opt->seat, "show what this seat may see (default: the full board)")
      ->check(whole_number(0, 63));
  cmd->callback([opt] { replay(*opt); });
}

}  // namespace rocketgym::cli
