// checkpoint: a trained network, playing the most probable legal action
// (greedy, the default) or a draw from its masked policy (sample). A bare
// path ending in .ckpt is a checkpoint.
#include "training/players/kinds/torch/checkpoint.h"

#include <filesystem>

#include "generated/game_list.h"
#include "training/players/player.h"

namespace rocketgym::players {

namespace {

// A network playing its policy: the most probable legal action or a draw.
template <class G>
class NetworkPlayer final : public Player<G> {
 public:
  NetworkPlayer(PolicyValueNet net, bool greedy, const PlayerOptions& o)
      : runner_(std::move(net), o.device, o.max_batch), greedy_(greedy), network_threads_(o.network_threads) {
    runner_.use_sparse_rows();  // an mlp in plain C++, its non-zero inputs, its legal moves (policy_runner.h)
  }

  // Each row is encoded, evaluated and picked in one parallel loop
  // (PolicyRunner::evaluate_policy): acting needs no value.
  void act(Decision<G>* d, int count) override {
    const detail::ScopedOpenMpThreads forward_threads(network_threads_);
    for (int first = 0; first < count; first += runner_.max_batch()) {
      const int n = std::min(runner_.max_batch(), count - first);
      Decision<G>* batch = d + first;
      auto write_row = [&](int k) { write(batch[k], k); };
      auto read_row = [&](int k) { batch[k].action = runner_.choose(k, greedy_, *batch[k].rng); };
      runner_.evaluate_policy(n, write_row, read_row);
    }
  }

  // Groups need the network in plain C++ (PolicyRunner::evaluate_group).
  int group_rows() const override { return runner_.lean() ? runner_.max_batch() : 0; }
  void prepare_groups() override { runner_.prepare_groups(); }
  void act_group(Decision<G>* d, int count, int first_row) override {
    for (int k = 0; k < count; ++k) write(d[k], first_row + k);
    runner_.evaluate_group(first_row, count);
    for (int k = 0; k < count; ++k) d[k].action = runner_.choose(first_row + k, greedy_, *d[k].rng);
  }

  void evaluate(const float* observations, const uint8_t* masks, int count, int players, float* probabilities,
                float* values) override {
    const detail::ScopedOpenMpThreads forward_threads(network_threads_);
    detail::evaluate_rows<G>(runner_, observations, masks, count, players, probabilities, values);
  }

 private:
  // The decision's observation and legal mask into the runner's row `row`.
  void write(const Decision<G>& d, int row) {
    if (d.observation)
      std::memcpy(runner_.observation_row(row), d.observation,
                  sizeof(float) * static_cast<std::size_t>(runner_.net()->spec().observation_size()));
    else
      G::Encoder::encode(*d.state, d.seat, runner_.observation_row(row));
    if (d.mask)
      std::memcpy(runner_.mask_row(row), d.mask, static_cast<std::size_t>(G::info().num_actions));
    else
      d.state->legal_actions_mask(runner_.mask_row(row));
  }

  PolicyRunner runner_;
  bool greedy_;
  int network_threads_;
};

}  // namespace

const KindInfo& Checkpoint::row() {
  static const KindInfo row{
      "checkpoint",
      "checkpoint:PATH[:greedy|:sample]",
      "PATH.ckpt",
      {"path", "mode"},
      "a trained network: the most probable legal action (default) or a draw from its masked policy; a bare "
      "path ending in `.ckpt` is `checkpoint:PATH`",
      true,
      true,
      30};
  return row;
}

std::unique_ptr<PlayerKind> Checkpoint::read_text(const SpecWords& in) const {
  in.at_most(3);
  auto c = std::make_unique<Checkpoint>(in.required(1, "checkpoint needs a path"));
  if (in.words.size() == 3) {
    const std::string& mode = in.words[2];
    if (mode != "greedy" && mode != "sample") in.fail("mode '" + mode + "' is not greedy or sample");
    c->greedy = mode == "greedy";
  }
  return c;
}

std::unique_ptr<PlayerKind> Checkpoint::read_yaml(const ConfigNode& node) const {
  auto c = std::make_unique<Checkpoint>(node.get_string("path"),
                                        node.get_choice("mode", "greedy", {"greedy", "sample"}) == "greedy");
  check_path(node, "path", c->path);
  return c;
}

std::unique_ptr<PlayerKind> Checkpoint::read_alias(const std::string& text) const {
  const std::string tail = ".ckpt";  // a bare checkpoint path: checkpoint:PATH, greedy
  if (text.size() < tail.size() || text.compare(text.size() - tail.size(), tail.size(), tail) != 0)
    return nullptr;
  return std::make_unique<Checkpoint>(text, true);
}

std::string Checkpoint::text() const {
  // A path holding ':' reads back only as a bare PATH.ckpt (greedy).
  if (path.find(':') != std::string::npos) return path;
  return std::string(row().name) + ":" + path + (greedy ? "" : ":sample");
}

void Checkpoint::write_yaml(YAML::Node& mapping) const {
  mapping["path"] = path;
  mapping["mode"] = greedy ? "greedy" : "sample";
}

std::string Checkpoint::default_name() const {
  std::string name = std::filesystem::path(path).stem().string();
  // runs/<run>/checkpoints/latest.ckpt reads better as the run's name
  const auto parent = std::filesystem::path(path).parent_path();
  if (parent.filename() == "checkpoints" && parent.has_parent_path())
    name = parent.parent_path().filename().string() + "/" + name;
  return name + (greedy ? "" : ":sample");
}

PlayedAs Checkpoint::played_as() const { return {row().name, path, greedy, 0}; }

std::string* Checkpoint::checkpoint_file() { return &path; }

bool Checkpoint::needs_network() const { return true; }

std::unique_ptr<UntypedPlayer> Checkpoint::make_player(const PlayerSetup& setup) const {
  return visit_game(setup.game, [&](auto g) -> std::unique_ptr<UntypedPlayer> {
    return std::make_unique<NetworkPlayer<decltype(g)>>(setup.spec->net, greedy, *setup.options);
  });
}

const PlayerKind& checkpoint_kind() {
  static const Checkpoint kind;
  return kind;
}

}  // namespace rocketgym::players
