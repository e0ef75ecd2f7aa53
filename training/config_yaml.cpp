#include "training/config_yaml.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "envs/core/numbers.h"
#include "envs/core/parallel.h"
#include "training/table_limits.h"

namespace rocketgym {

namespace {

// A snapshot time's upper bound (as budget.minutes'): keeps file names short.
constexpr double kMaxSnapshotMinutes = 1e7;

// run.snapshot_minutes: sorted, each time once.
void read_snapshot_minutes(const ConfigNode& r, std::vector<double>& snapshot_minutes) {
  if (!r.has("snapshot_minutes")) return;
  const ConfigNode list = r.child("snapshot_minutes");
  if (!list.is_sequence()) r.fail_key("snapshot_minutes", "must be a list of minutes, e.g. [5, 10, 20, 30]");
  snapshot_minutes.clear();
  for (const ConfigNode& item : list.items()) {
    double m = -1.0;
    if (item.yaml().IsScalar() && item.yaml().Tag() != "!")  // a quoted "5" is text
      read_number(item.yaml().Scalar(), 0.0, kMaxSnapshotMinutes, m);
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

}  // namespace

const KeyTable<RunSettings>& run_keys() {
  static const KeyTable<RunSettings> table = [] {
    KeyTable<RunSettings> t;
    t.text("dir", &RunSettings::run_dir, "the run folder: config.yaml, metrics.csv, checkpoints/, plots");
    t.seed("seed", &RunSettings::seed, "the run's seed");
    t.whole("threads", &RunSettings::threads, 1, kMaxThreads,
            "LibTorch intra-op threads and env or search threads");
    t.choice<std::string>("device", &RunSettings::device, {{"cpu", "cpu"}, {"cuda", "cuda"}},
                          "where the network runs");
    t.whole("checkpoint_every", &RunSettings::checkpoint_every, 1, 1 << 20, "iterations between checkpoints");
    t.whole("eval_every", &RunSettings::eval_every, 0, 1 << 20,
            "iterations between greedy evaluations against random and heuristic (0 = none)");
    t.whole("eval_games", &RunSettings::eval_games, 1, kMaxScheduledGames,
            "games per evaluation and opponent");
    KeyTable<RunSettings>::Key minutes;
    minutes.name = "snapshot_minutes";
    minutes.type = "list of numbers";
    minutes.range = "each above 0, at most " + number_text(kMaxSnapshotMinutes);
    minutes.doc =
        "also keep checkpoints/minute_<m>.ckpt after m minutes of training (fractions too: "
        "minute_000.25.ckpt)";
    minutes.read = [](const ConfigNode& r, RunSettings& c) { read_snapshot_minutes(r, c.snapshot_minutes); };
    minutes.write = [](YAML::Node& out, const RunSettings& c) {
      out["snapshot_minutes"] = c.snapshot_minutes;
    };
    minutes.text = [](const RunSettings& c) {
      std::string text;
      for (double m : c.snapshot_minutes) text += (text.empty() ? "" : ", ") + number_text(m);
      return "[" + text + "]";
    };
    t.custom(std::move(minutes));
    t.flag("plot", &RunSettings::plot, "draw the learning curves (needs /usr/bin/python3 with matplotlib)");
    t.whole("ranks", &RunSettings::ranks, 1, 1 << 20,
            "written by the trainer: processes in the run (torchrun); the launcher decides");
    t.text("warm_start", &RunSettings::warm_start,
           "a checkpoint a fresh run starts from (empty: fresh weights): its weights carry over, the first "
           "layer mapped by observation block name, the value head widened (docs/training.md, warm start)")
        .default_shown("\"\"");
    t.text("warm_start_layout", &RunSettings::warm_start_layout,
           "the observation layout warm_start was trained with: `rocketgym describe <game>` JSON of its "
           "version (empty: the layout the checkpoint records, or, if it records none, the game's own when "
           "the sizes agree)")
        .default_shown("\"\"");
    return t;
  }();
  return table;
}

const KeyTable<NetConfig>& model_keys() {
  static const KeyTable<NetConfig> table = [] {
    KeyTable<NetConfig> t;
    t.choice<std::string>(
        "kind", &NetConfig::kind, {{"auto", "auto"}, {"mlp", "mlp"}, {"conv", "conv"}},
        "the trunk: mlp, conv (C x H x W observations), or auto (conv for those, else mlp)");
    t.whole("hidden", &NetConfig::hidden, 4, 4096, "trunk width");
    t.whole("blocks", &NetConfig::blocks, 0, 32, "residual blocks");
    t.whole("channels", &NetConfig::channels, 1, 1024, "conv trunk channels");
    return t;
  }();
  return table;
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
