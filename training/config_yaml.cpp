#include "training/config_yaml.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rocketgym {

namespace {

// A snapshot time's upper bound (as budget.minutes'): keeps file names short.
constexpr double kMaxSnapshotMinutes = 1e7;

}  // namespace

void RunSettings::read_run_block(const ConfigNode& root) {
  const ConfigNode r = root.child_or_empty("run");
  if (r.is_null()) return;
  r.expect_keys({"dir", "seed", "threads", "device", "checkpoint_every", "eval_every", "eval_games",
                 "snapshot_minutes", "plot", "ranks"});
  run_dir = r.get_string("dir", run_dir);
  seed = static_cast<uint64_t>(r.get_int("seed", 1, 0, std::numeric_limits<int>::max()));
  threads = r.get_int("threads", threads, 1, 256);
  device = r.get_choice("device", device, {"cpu", "cuda"});
  checkpoint_every = r.get_int("checkpoint_every", checkpoint_every, 1, 1 << 20);
  eval_every = r.get_int("eval_every", eval_every, 0, 1 << 20);
  eval_games = r.get_int("eval_games", eval_games, 1, 1 << 20);
  if (r.has("snapshot_minutes")) {
    const ConfigNode list = r.child("snapshot_minutes");
    if (!list.is_sequence())
      r.fail_key("snapshot_minutes", "must be a list of minutes, e.g. [5, 10, 20, 30]");
    snapshot_minutes.clear();
    for (const ConfigNode& item : list.items()) {
      const double m = item.yaml().as<double>(-1.0);
      if (!(m > 0.0 && m <= kMaxSnapshotMinutes))
        item.fail("a snapshot time must be a positive number of minutes, at most " +
                  std::to_string(static_cast<int>(kMaxSnapshotMinutes)));
      snapshot_minutes.push_back(m);
    }
    std::sort(snapshot_minutes.begin(), snapshot_minutes.end());
    // The same time twice is one snapshot.
    snapshot_minutes.erase(std::unique(snapshot_minutes.begin(), snapshot_minutes.end()),
                           snapshot_minutes.end());
  }
  plot = r.get_bool("plot", plot);
  ranks = r.get_int("ranks", ranks, 1, 1 << 20);
}

void RunSettings::write_run_block(YAML::Node& root) const {
  YAML::Node r = root["run"];
  r["dir"] = run_dir;
  r["seed"] = seed;
  r["threads"] = threads;
  r["device"] = device;
  r["checkpoint_every"] = checkpoint_every;
  r["eval_every"] = eval_every;
  r["eval_games"] = eval_games;
  r["snapshot_minutes"] = snapshot_minutes;
  r["plot"] = plot;
  r["ranks"] = ranks;
}

MinuteSnapshots::MinuteSnapshots(const std::vector<double>& minutes, double elapsed_seconds_before)
    : minutes_(minutes) {
  while (done_ < minutes_.size() && minutes_[done_] * 60.0 <= elapsed_seconds_before) ++done_;
}

std::string MinuteSnapshots::next_due(double elapsed_seconds) {
  if (done_ >= minutes_.size() || minutes_[done_] * 60.0 > elapsed_seconds) return "";
  return file_name(minutes_[done_++]);
}

std::string MinuteSnapshots::file_name(double minutes) {
  // The shortest decimals that read back as this very number: two different
  // times never print alike (the name once rounded to whole minutes, and
  // 0.02, 0.04 and 0.3 minutes all wrote minute_000.ckpt).
  char digits[64];
  const auto written = std::to_chars(digits, digits + sizeof(digits), minutes, std::chars_format::fixed);
  std::string text(digits, written.ptr);
  const std::size_t point = text.find('.');
  const std::size_t whole = point == std::string::npos ? text.size() : point;
  if (whole < 3) text.insert(0, 3 - whole, '0');  // minute_005: names sort by time up to 999 minutes
  return "checkpoints/minute_" + text + ".ckpt";
}

const std::vector<std::string>& RunSettings::rank_local_keys() {
  static const std::vector<std::string> keys{"run.dir", "run.threads", "run.device", "run.plot", "run.ranks"};
  return keys;
}

void write_game_and_model(YAML::Node& root, const GameSetup& game, const NetConfig& net) {
  root["game"]["id"] = game.id;
  root["game"]["players"] = game.players;
  root["game"]["config"] = game.config_file;
  if (!game.overrides.is_null()) root["game"]["overrides"] = YAML::Clone(game.overrides.yaml());
  root["model"]["kind"] = net.kind;
  root["model"]["hidden"] = net.hidden;
  root["model"]["blocks"] = net.blocks;
  root["model"]["channels"] = net.channels;
}

namespace {

std::string flow_text(const YAML::Node& node) {
  if (!node.IsDefined()) return "(absent)";
  if (node.IsNull()) return "null";
  YAML::Emitter out;
  out << YAML::Flow << node;
  std::string text = out.c_str();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

void collect_differences(const YAML::Node& first, const YAML::Node& second, const std::string& key,
                         std::vector<ConfigDifference>& out) {
  auto differ = [&] { out.push_back({key, flow_text(first), flow_text(second)}); };
  const bool both_defined = first.IsDefined() && second.IsDefined();
  if (!both_defined) {
    if (first.IsDefined() != second.IsDefined()) differ();
    return;
  }
  if (first.IsMap() && second.IsMap()) {
    auto child = [&](const std::string& name) { return key.empty() ? name : key + "." + name; };
    for (const auto& entry : first) {
      const std::string name = entry.first.as<std::string>();
      collect_differences(entry.second, second[name], child(name), out);
    }
    for (const auto& entry : second) {
      const std::string name = entry.first.as<std::string>();
      if (!first[name].IsDefined()) collect_differences(first[name], entry.second, child(name), out);
    }
  } else if (first.IsSequence() && second.IsSequence() && first.size() == second.size()) {
    for (std::size_t i = 0; i < first.size(); ++i)
      collect_differences(first[i], second[i], key + "[" + std::to_string(i) + "]", out);
  } else if (first.Type() != second.Type() || (first.IsScalar() && first.Scalar() != second.Scalar()) ||
             first.IsSequence()) {  // lists of different lengths
    differ();
  }
}

}  // namespace

std::vector<ConfigDifference> config_differences(const YAML::Node& first, const YAML::Node& second) {
  std::vector<ConfigDifference> out;
  collect_differences(first, second, "", out);
  return out;
}

std::string describe_differences(const std::vector<ConfigDifference>& differences,
                                 const std::string& first_name, const std::string& second_name) {
  constexpr std::size_t kShown = 4;
  std::string text;
  for (std::size_t i = 0; i < differences.size() && i < kShown; ++i) {
    const ConfigDifference& d = differences[i];
    text += (i ? "; " : "") + (d.key.empty() ? std::string("the whole document") : d.key) + " (" +
            first_name + ": " + d.first + ", " + second_name + ": " + d.second + ")";
  }
  if (differences.size() > kShown) text += "; and " + std::to_string(differences.size() - kShown) + " more";
  return text;
}

std::string resolved_config_text(const YAML::Node& root) {
  YAML::Emitter out;
  out << root;
  return std::string("# Resolved training config (defaults filled in), written by rocketgym train.\n") +
         "# run.ranks: how many processes ran it (torchrun); the launcher decides, the value is not used.\n" +
         out.c_str() + "\n";
}

}  // namespace rocketgym
