#include "training/arena/results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>

#include "envs/core/files.h"
#include "training/csv_writer.h"
#include "training/players/kinds/random.h"

namespace rocketgym::arena {

float win_share(const GameRecord& game, int seat) {
  float best = game.returns[0];
  for (int s = 1; s < game.num_players; ++s) best = std::max(best, game.returns[static_cast<std::size_t>(s)]);
  if (game.returns[static_cast<std::size_t>(seat)] != best) return 0.0f;
  int sharing = 0;
  for (int s = 0; s < game.num_players; ++s) sharing += game.returns[static_cast<std::size_t>(s)] == best;
  return 1.0f / static_cast<float>(sharing);
}

Interval wilson_interval(double score, double n) {
  if (n <= 0.0) return {0.0, 1.0};
  const double z = 1.959963984540054, p = score / n, z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::vector<Ordering> orderings_of(const GameRecord& game) {
  // Seats sorted best first; equal returns form tie groups.
  std::vector<int> seats(static_cast<std::size_t>(game.num_players));
  std::iota(seats.begin(), seats.end(), 0);
  std::stable_sort(seats.begin(), seats.end(), [&](int a, int b) {
    return game.returns[static_cast<std::size_t>(a)] > game.returns[static_cast<std::size_t>(b)];
  });
  std::vector<std::vector<int>> groups;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (i == 0 || game.returns[static_cast<std::size_t>(seats[i])] !=
                      game.returns[static_cast<std::size_t>(seats[i - 1])])
      groups.emplace_back();
    groups.back().push_back(game.agent[static_cast<std::size_t>(seats[i])]);
  }
  std::vector<Ordering> out{Ordering{{}, 1.0}};
  for (const auto& group : groups) {
    std::vector<Ordering> next;
    const auto k = group.size();
    for (const Ordering& prefix : out)
      for (std::size_t r = 0; r < k; ++r) {
        Ordering o = prefix;
        o.weight /= static_cast<double>(k);
        for (std::size_t i = 0; i < k; ++i) o.order.push_back(group[(r + i) % k]);
        next.push_back(std::move(o));
      }
    out = std::move(next);
  }
  return out;
}

std::vector<double> plackett_luce_ratings(const std::vector<Ordering>& given, int num_agents,
                                          double prior_games) {
  std::vector<Ordering> orderings = given;
  for (int a = 0; a < num_agents; ++a)
    for (int b = a + 1; b < num_agents; ++b) {
      orderings.push_back({{a, b}, prior_games / 2});
      orderings.push_back({{b, a}, prior_games / 2});
    }
  const auto n = static_cast<std::size_t>(num_agents);
  // wins[t]: weighted number of stages (choices from the remaining set) won by t.
  std::vector<double> wins(n, 0.0), strength(n, 1.0), denom(n);
  for (const auto& o : orderings)
    for (std::size_t j = 0; j + 1 < o.order.size(); ++j)
      wins[static_cast<std::size_t>(o.order[j])] += o.weight;
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::fill(denom.begin(), denom.end(), 0.0);
    for (const auto& o : orderings) {
      // Walk the stages from the back so each remaining-set sum is cumulative.
      const auto m = o.order.size();
      std::vector<double> tail(m + 1, 0.0);
      for (std::size_t j = m; j-- > 0;)
        tail[j] = tail[j + 1] + strength[static_cast<std::size_t>(o.order[j])];
      double running = 0.0;  // sum over stages j <= position of 1 / tail[j]
      for (std::size_t j = 0; j < m; ++j) {
        if (j + 1 < m) running += o.weight / tail[j];
        denom[static_cast<std::size_t>(o.order[j])] += running;
      }
    }
    double change = 0.0, log_sum = 0.0;
    for (std::size_t t = 0; t < n; ++t) {
      const double updated = denom[t] > 0 ? wins[t] / denom[t] : strength[t];
      change = std::max(change, std::fabs(std::log(updated) - std::log(strength[t])));
      strength[t] = updated;
      log_sum += std::log(updated);
    }
    for (auto& s : strength) s /= std::exp(log_sum / static_cast<double>(n));
    if (change < 1e-10) break;
  }
  std::vector<double> ratings(n);
  for (std::size_t t = 0; t < n; ++t) ratings[t] = 400.0 * std::log10(strength[t]);
  return ratings;
}

ArenaReport analyze(const std::vector<GameRecord>& games, const std::vector<std::string>& names,
                    int num_players) {
  ArenaReport r;
  const auto k = names.size();
  r.num_players = num_players;
  r.games = static_cast<int>(games.size());
  r.rating_model = num_players == 2 ? "Bradley-Terry" : "Plackett-Luce";
  r.agents.resize(k);
  r.seats.resize(static_cast<std::size_t>(num_players));
  r.head_to_head.assign(k, std::vector<double>(k, 0.0));
  r.head_to_head_count.assign(k, std::vector<int>(k, 0));
  std::vector<double> seat_wins(static_cast<std::size_t>(num_players), 0.0);
  std::vector<Ordering> orderings;
  double decisions = 0.0;
  for (std::size_t a = 0; a < k; ++a) r.agents[a].name = names[a];
  for (const GameRecord& g : games) {
    r.truncated += g.truncated;
    decisions += g.decisions;
    for (int s = 0; s < g.num_players; ++s) {
      const auto seat = static_cast<std::size_t>(s);
      const float share = win_share(g, s);
      AgentSummary& a = r.agents[static_cast<std::size_t>(g.agent[seat])];
      a.games += 1;
      a.wins += share;
      a.mean_return += g.returns[seat];
      r.seats[seat].games += 1;
      seat_wins[seat] += share;
      r.seats[seat].mean_return += g.returns[seat];
      for (int t = 0; t < g.num_players; ++t) {
        const auto other = static_cast<std::size_t>(t);
        const auto i = static_cast<std::size_t>(g.agent[seat]), j = static_cast<std::size_t>(g.agent[other]);
        if (i == j) continue;
        const double ahead = g.returns[seat] > g.returns[other]    ? 1.0
                             : g.returns[seat] == g.returns[other] ? 0.5
                                                                   : 0.0;
        r.head_to_head[i][j] += ahead;
        r.head_to_head_count[i][j] += 1;
      }
    }
    for (auto& o : orderings_of(g)) orderings.push_back(std::move(o));
  }
  r.mean_decisions = games.empty() ? 0.0 : decisions / static_cast<double>(games.size());
  const std::vector<double> ratings = plackett_luce_ratings(orderings, static_cast<int>(k));
  // Anchor the scale at the random agent when there is one: "Elo above random".
  double anchor = 0.0;
  for (std::size_t a = 0; a < k; ++a)
    if (names[a] == players::kind_name<players::Random>()) anchor = ratings[a];
  for (std::size_t a = 0; a < k; ++a) {
    AgentSummary& s = r.agents[a];
    s.win_rate = s.games ? s.wins / s.games : 0.0;
    s.win_interval = wilson_interval(s.wins, s.games);
    s.mean_return = s.games ? s.mean_return / s.games : 0.0;
    s.rating = ratings[a] - anchor;
    for (std::size_t b = 0; b < k; ++b)
      if (r.head_to_head_count[a][b]) r.head_to_head[a][b] /= r.head_to_head_count[a][b];
  }
  for (std::size_t s = 0; s < r.seats.size(); ++s) {
    SeatSummary& seat = r.seats[s];
    seat.win_rate = seat.games ? seat_wins[s] / seat.games : 0.0;
    seat.win_interval = wilson_interval(seat_wins[s], seat.games);
    seat.advantage = seat.win_rate - 1.0 / num_players;
    seat.mean_return = seat.games ? seat.mean_return / seat.games : 0.0;
  }
  return r;
}

namespace {

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string percent(double v) { return fmt("%.1f%%", 100.0 * v); }

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

Interval head_to_head_interval(const ArenaReport& r, std::size_t i, std::size_t j) {
  const double n = r.head_to_head_count[i][j];
  return wilson_interval(r.head_to_head[i][j] * n, n);
}

std::string format_table(const ArenaReport& r) {
  std::ostringstream out;
  std::size_t w = 6;
  for (const auto& a : r.agents) w = std::max(w, a.name.size() + 2);
  out << r.games << " games, " << r.num_players << " players, " << r.truncated << " truncated, "
      << fmt("%.1f", r.mean_decisions) << " decisions per game\n\n";
  out << pad("agent", w) << pad("rating", 9) << pad("games", 8) << pad("win rate", 10)
      << pad("95% interval", 18) << "mean return\n";
  std::vector<std::size_t> order(r.agents.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](auto a, auto b) { return r.agents[a].rating > r.agents[b].rating; });
  for (auto i : order) {
    const auto& a = r.agents[i];
    out << pad(a.name, w) << pad(fmt("%+.0f", a.rating), 9) << pad(std::to_string(a.games), 8)
        << pad(percent(a.win_rate), 10)
        << pad("[" + percent(a.win_interval.low) + ", " + percent(a.win_interval.high) + "]", 18)
        << fmt("%+.3f", a.mean_return) << "\n";
  }
  out << "\nhead to head (row finishes ahead of column; ties count half)\n" << pad("", w);
  for (const auto& a : r.agents) out << pad(a.name, std::max<std::size_t>(8, a.name.size() + 2));
  out << "\n";
  for (std::size_t i = 0; i < r.agents.size(); ++i) {
    out << pad(r.agents[i].name, w);
    for (std::size_t j = 0; j < r.agents.size(); ++j) {
      const std::size_t cw = std::max<std::size_t>(8, r.agents[j].name.size() + 2);
      out << pad(r.head_to_head_count[i][j] ? percent(r.head_to_head[i][j]) : "-", cw);
    }
    out << "\n";
  }
  out << "\npairs (row ahead of column, 95% interval)\n";
  for (std::size_t i = 0; i < r.agents.size(); ++i)
    for (std::size_t j = i + 1; j < r.agents.size(); ++j) {
      const int n = r.head_to_head_count[i][j];
      if (n == 0) continue;
      const Interval ci = head_to_head_interval(r, i, j);
      out << "  " << r.agents[i].name << " vs " << r.agents[j].name << ": " << percent(r.head_to_head[i][j])
          << " [" << percent(ci.low) << ", " << percent(ci.high) << "] over " << n << "\n";
    }
  out << "\nseat advantage (win rate of whoever sat there; fair share " << percent(1.0 / r.num_players)
      << ")\n";
  for (std::size_t s = 0; s < r.seats.size(); ++s) {
    const auto& seat = r.seats[s];
    out << "  seat " << s << ": " << percent(seat.win_rate) << " [" << percent(seat.win_interval.low) << ", "
        << percent(seat.win_interval.high) << "]  advantage " << fmt("%+.1f", 100.0 * seat.advantage)
        << " points\n";
  }
  out << "\nratings: " << r.rating_model << " on the Elo scale"
      << (std::any_of(r.agents.begin(), r.agents.end(),
                      [](const auto& a) { return a.name == players::kind_name<players::Random>(); })
              ? ", random = 0"
              : ", mean 0")
      << "\n";
  return out.str();
}

Json report_to_json(const ArenaReport& r) {
  Json doc{{"games", r.games},
           {"num_players", r.num_players},
           {"truncated", r.truncated},
           {"mean_decisions", r.mean_decisions},
           {"rating_model", r.rating_model}};
  Json agents = Json::array();
  for (const auto& a : r.agents)
    agents.push_back({{"name", a.name},
                      {"games", a.games},
                      {"wins", a.wins},
                      {"win_rate", a.win_rate},
                      {"win_rate_low", a.win_interval.low},
                      {"win_rate_high", a.win_interval.high},
                      {"mean_return", a.mean_return},
                      {"rating", a.rating}});
  doc["agents"] = agents;
  Json seats = Json::array();
  for (std::size_t s = 0; s < r.seats.size(); ++s)
    seats.push_back({{"seat", s},
                     {"games", r.seats[s].games},
                     {"win_rate", r.seats[s].win_rate},
                     {"win_rate_low", r.seats[s].win_interval.low},
                     {"win_rate_high", r.seats[s].win_interval.high},
                     {"advantage", r.seats[s].advantage},
                     {"mean_return", r.seats[s].mean_return}});
  doc["seats"] = seats;
  doc["head_to_head"] = r.head_to_head;
  doc["head_to_head_count"] = r.head_to_head_count;
  Json low = Json::array(), high = Json::array();
  for (std::size_t i = 0; i < r.agents.size(); ++i) {
    low.push_back(Json::array());
    high.push_back(Json::array());
    for (std::size_t j = 0; j < r.agents.size(); ++j) {
      const Interval ci = head_to_head_interval(r, i, j);
      low.back().push_back(r.head_to_head_count[i][j] ? ci.low : 0.0);
      high.back().push_back(r.head_to_head_count[i][j] ? ci.high : 0.0);
    }
  }
  doc["head_to_head_low"] = low;
  doc["head_to_head_high"] = high;
  return doc;
}

void write_csv(const ArenaReport& r, const std::vector<GameRecord>& games, const std::string& folder) {
  std::filesystem::create_directories(folder);
  {
    CsvWriter csv;
    csv.row("agent", "rating", "games", "wins", "win_rate", "win_rate_low", "win_rate_high", "mean_return");
    for (const auto& a : r.agents)
      csv.row(a.name, a.rating, a.games, a.wins, a.win_rate, a.win_interval.low, a.win_interval.high,
              a.mean_return);
    write_text_file(folder + "/agents.csv", csv.str());
  }
  {
    CsvWriter csv;
    csv.row("agent", "opponent", "pairs", "score", "score_low", "score_high");
    for (std::size_t i = 0; i < r.agents.size(); ++i)
      for (std::size_t j = 0; j < r.agents.size(); ++j)
        if (r.head_to_head_count[i][j]) {
          const Interval ci = head_to_head_interval(r, i, j);
          csv.row(r.agents[i].name, r.agents[j].name, r.head_to_head_count[i][j], r.head_to_head[i][j],
                  ci.low, ci.high);
        }
    write_text_file(folder + "/head_to_head.csv", csv.str());
  }
  {
    CsvWriter csv;
    csv.row("seat", "games", "win_rate", "win_rate_low", "win_rate_high", "advantage", "mean_return");
    for (std::size_t s = 0; s < r.seats.size(); ++s)
      csv.row(s, r.seats[s].games, r.seats[s].win_rate, r.seats[s].win_interval.low,
              r.seats[s].win_interval.high, r.seats[s].advantage, r.seats[s].mean_return);
    write_text_file(folder + "/seats.csv", csv.str());
  }
  {
    CsvWriter csv;
    csv << "lineup"
        << "rotation"
        << "seed"
        << "truncated"
        << "decisions";
    for (int s = 0; s < r.num_players; ++s) csv << "agent" + std::to_string(s);
    for (int s = 0; s < r.num_players; ++s) csv << "return" + std::to_string(s);
    csv.end_row();
    for (const auto& g : games) {
      csv << g.lineup << g.rotation << g.seed << g.truncated << g.decisions;
      for (int s = 0; s < g.num_players; ++s)
        csv << r.agents[static_cast<std::size_t>(g.agent[static_cast<std::size_t>(s)])].name;
      for (int s = 0; s < g.num_players; ++s) csv << g.returns[static_cast<std::size_t>(s)];
      csv.end_row();
    }
    write_text_file(folder + "/games.csv", csv.str());
  }
}

void write_text_file(const std::string& file, const std::string& text) {
  try {
    files::write_file_atomically(file, text, "result file");  // the file rule (envs/core/files.h)
  } catch (const files::FileError& e) {
    throw Error("cannot write '" + file + "': " + e.what());
  }
}

}  // namespace rocketgym::arena
