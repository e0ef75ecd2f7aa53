// ismcts: information-set MCTS (training/mcts) over random playouts, over the
// heuristic bot's playouts (`:heuristic`, half the prior on its move;
// `:heuristic:4` averages 4 playouts per leaf; more search keys as
// `:KEY=VALUE`), or over a checkpoint's priors and values (`:PATH`).
#include "training/players/kinds/torch/ismcts.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <utility>
#include <vector>

#include "envs/core/quoted.h"
#include "generated/game_list.h"
#include "training/players/kinds/torch/search.h"
#include "training/players/player.h"

namespace rocketgym::players {

namespace {

// Information-set MCTS: with a network, all searches of a batch advance
// together and their leaves go in one forward pass; with playouts, the
// searches run in parallel, one rollout evaluator per thread.
template <class G>
class SearchPlayer final : public Player<G> {
 public:
  SearchPlayer(const mcts::Options& options, PolicyValueNet net, const PlayerOptions& o)
      : options_(options), threads_(std::max(1, o.threads)), interrupt_(o.interrupt) {
    options_.validate();
    if (net) {
      runner_ = std::make_unique<PolicyRunner>(std::move(net), o.device, o.max_batch);
      runner_->use_sparse_rows();  // the leaves' forward passes in plain C++ (an mlp on the CPU)
      network_ = std::make_unique<mcts::NetworkEvaluator<G>>(*runner_, threads_, options_);
    } else {
      for (int t = 0; t < threads_; ++t) rollouts_.emplace_back(options_);
    }
  }

  void act(Decision<G>* d, int count) override {
    // One search per decision of the batch, kept for the next batch: a
    // search restarts from its seed at every move, so which one serves a
    // game does not change the move.
    while (static_cast<int>(searches_.size()) < count) {
      searches_.push_back(std::make_unique<mcts::Search<G>>(options_));
      search_ptrs_.push_back(searches_.back().get());
    }
    for (int k = 0; k < count; ++k) searches_[static_cast<std::size_t>(k)]->reseed(d[k].search_seed);
    // A stop request (interrupt.h) is seen between batches of leaves or
    // between searches; the searches left unfinished answer nothing.
    if (network_) {
      for (int k = 0; k < count; ++k) searches_[static_cast<std::size_t>(k)]->start(*d[k].state);
      mcts::run_batched(search_ptrs_.data(), count, *network_, leaf_batch_,
                        [this] { return stop_requested(interrupt_); });
      if (interrupt_) interrupt_->check();
      for (int k = 0; k < count; ++k) d[k].action = searches_[static_cast<std::size_t>(k)]->choose_action();
      return;
    }
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
    for (int k = 0; k < count; ++k) {
      if (stop_requested(interrupt_)) continue;
      d[k].action = searches_[static_cast<std::size_t>(k)]->run(
          *d[k].state, rollouts_[static_cast<std::size_t>(omp_get_thread_num())]);
    }
    if (interrupt_) interrupt_->check();
  }

  void evaluate(const float* observations, const uint8_t* masks, int count, int players, float* probabilities,
                float* values) override {
    if (!runner_) Player<G>::evaluate(observations, masks, count, players, probabilities, values);
    detail::evaluate_rows<G>(*runner_, observations, masks, count, players, probabilities, values);
  }

 private:
  mcts::Options options_;
  int threads_;
  Interrupt* interrupt_;
  std::unique_ptr<PolicyRunner> runner_;
  std::unique_ptr<mcts::NetworkEvaluator<G>> network_;
  std::vector<mcts::RolloutEvaluator<G>> rollouts_;  // one per thread (they keep scratch buffers)
  std::vector<std::unique_ptr<mcts::Search<G>>> searches_;
  std::vector<mcts::Search<G>*> search_ptrs_;  // the same, for run_batched
  std::vector<mcts::Leaf<typename G::State>> leaf_batch_;
};

// The ismcts options the short form `ismcts:SIMULATIONS:heuristic[:PLAYOUTS]` stands for.
mcts::Options heuristic_playouts(int simulations, int playouts) {
  mcts::Options o;
  o.simulations = simulations;
  // Playouts by the game's heuristic bot, half the prior on its move: the
  // setting measured for Launchpad 23 (configs/arena/launchpad23_search.yaml).
  o.rollout_policy = mcts::RolloutPolicy::kHeuristic;
  o.heuristic_prior = 0.5;
  o.rollouts = playouts;
  return o;
}

// The word of the short form's heuristic playouts.
constexpr const char* kHeuristicWord = "heuristic";

// A KEY=VALUE's value as the short form takes it: a number or a word.
bool is_plain_value(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
  });
}

// The search keys after `ismcts:SIMULATIONS:heuristic[:PLAYOUTS]`, each
// `:KEY=VALUE` (e.g. :rollout_depth=8:c_puct=0.75), read by the key table
// over the short form's options: the ranges and refusals of the YAML keys.
// A key may be said once: neither twice as KEY=VALUE (which would win is not
// for the order to decide) nor as KEY=VALUE over what the short form says by
// position (`said`: SIMULATIONS, the word heuristic, PLAYOUTS when given).
mcts::Options read_search_settings(const SpecWords& in, std::size_t first, const mcts::Options& short_form,
                                   const std::vector<std::pair<std::string, std::string>>& said) {
  std::vector<std::string> settings(in.words.begin() + static_cast<std::ptrdiff_t>(first), in.words.end());
  if (settings.empty()) return short_form;
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const std::string& setting = settings[i];
    const auto eq = setting.find('=');
    if (eq == std::string::npos)
      in.fail("'" + setting +
              "' is not a search setting KEY=VALUE (ismcts:SIMULATIONS:heuristic[:PLAYOUTS][:KEY=VALUE...])");
    const std::string key = setting.substr(0, eq);
    // The value is one plain YAML scalar, a number or a word: no tag (!!str),
    // quote, flow collection or anchor that would make the text say more.
    if (!is_plain_value(setting.substr(eq + 1)))
      in.fail("search key '" + key +
              "': the value must be a plain number or word (letters, digits and _ - . + only)");
    for (std::size_t j = 0; j < i; ++j)
      if (settings[j].substr(0, settings[j].find('=')) == key)
        in.fail("search key '" + key + "' is given twice ('" + settings[j] + "' and '" + setting +
                "'): give it once");
    for (const auto& [name, how] : said)
      if (key == name)
        in.fail("search key '" + key + "' is given twice: by the short form (" + how + ") and as '" +
                setting + "'; give it once");
  }
  std::vector<ConfigNode::Setting> labelled;
  for (const std::string& setting : settings) labelled.push_back({setting, setting});
  const ConfigNode node = ConfigNode::from_labelled_settings(labelled, "agent " + quote(in.text));
  mcts::Options o = mcts::parse_options(node, short_form);
  mcts::check_unused_keys(node, o, false);
  return o;
}

using SearchKey = KeyTable<mcts::Options>::Key;

// The search keys whose value in `o` differs from `base`, in the key table's order.
std::vector<const SearchKey*> changed_keys(const mcts::Options& o, const mcts::Options& base = {}) {
  std::vector<const SearchKey*> changed;
  for (const auto& key : mcts::search_keys().keys())
    if (key.text(o) != key.text(base)) changed.push_back(&key);
  return changed;
}

// The search options that differ from mcts::Options{} as a YAML mapping
// (the YAML reader starts from those defaults). The seed is never written:
// the reader refuses it (every search is reseeded per game and move).
YAML::Node changed_mcts_keys(const mcts::Options& o) {
  YAML::Node m(YAML::NodeType::Map);
  for (const SearchKey* key : changed_keys(o)) key->write(m, o);
  return m;
}

bool same_options(const mcts::Options& a, const mcts::Options& b) {
  return changed_mcts_keys(a).size() == changed_mcts_keys(b).size() &&
         YAML::Dump(changed_mcts_keys(a)) == YAML::Dump(changed_mcts_keys(b));
}

}  // namespace

const KindInfo& Ismcts::row() {
  static const KindInfo row{
      "ismcts",
      "ismcts[:SIMULATIONS[:PATH|:heuristic[:PLAYOUTS][:KEY=VALUE...]]]",
      "",
      {"mcts", "checkpoint"},
      "information-set MCTS ([Search](search.md)): random playouts by default; `:heuristic` plays them by "
      "the "
      "heuristic bot with half the prior on its move (`:heuristic:4` averages 4 playouts per leaf; any other "
      "[search key](search.md#options-yaml-keys-all-optional) follows as `:KEY=VALUE`, read and refused as "
      "in "
      "YAML: Launchpad 23's strongest bot is `ismcts:1600:heuristic:c_puct=0.75:rollout_depth=8`; a key "
      "given "
      "twice, or one the short form already says (`simulations`, `rollout_policy`, and `rollouts` after "
      "PLAYOUTS: `ismcts:10:heuristic:simulations=20`), is refused naming it); `:PATH` uses a checkpoint's "
      "priors and values",
      true,
      true,
      40};
  return row;
}

std::unique_ptr<PlayerKind> Ismcts::read_text(const SpecWords& in) const {
  auto s = std::make_unique<Ismcts>();
  const auto& words = in.words;
  const bool heuristic = words.size() >= 3 && words[2] == kHeuristicWord;
  if (!heuristic) in.at_most(3);
  if (words.size() >= 2) s->mcts.simulations = read_count(in, 1, mcts::kSimulationsRange);
  if (heuristic) {
    const bool playouts = words.size() >= 4 && words[3].find('=') == std::string::npos;
    s->mcts = heuristic_playouts(
        s->mcts.simulations,
        playouts ? read_count(in, 3, mcts::kRolloutsRange, "playouts per leaf (rollouts)") : 1);
    std::vector<std::pair<std::string, std::string>> said{
        {mcts::kSimulationsRange.name, "SIMULATIONS " + words[1]}, {"rollout_policy", "the word heuristic"}};
    if (playouts) said.push_back({mcts::kRolloutsRange.name, "PLAYOUTS " + words[3]});
    s->mcts = read_search_settings(in, playouts ? 4 : 3, s->mcts, said);
  } else if (words.size() == 3) {
    s->network = words[2];  // a checkpoint as evaluator (./heuristic for a file of that name)
  }
  return s;
}

std::unique_ptr<PlayerKind> Ismcts::read_yaml(const ConfigNode& node) const {
  auto s = std::make_unique<Ismcts>();
  try {
    s->mcts = mcts::parse_options(node.child_or_empty("mcts"));
    s->mcts.validate();
  } catch (const ConfigError&) {
    throw;
  } catch (const Error& e) {
    node.fail_key("mcts", e.what());
  }
  s->network = node.get_string("checkpoint", "");
  check_path(node, "checkpoint", s->network);
  if (node.has("mcts")) mcts::check_unused_keys(node.child("mcts"), s->mcts, !s->network.empty());
  return s;
}

std::string Ismcts::text() const {
  const std::string count = std::string(row().name) + ":" + std::to_string(mcts.simulations);
  mcts::Options plain;
  plain.simulations = mcts.simulations;
  if (network.empty() && same_options(mcts, plain)) return count;
  if (!network.empty() && same_options(mcts, plain)) return count + ":" + network;
  if (network.empty() && mcts.rollout_policy == mcts::RolloutPolicy::kHeuristic) {
    // The short form, then `:KEY=VALUE` for each key it does not say.
    const mcts::Options short_form = heuristic_playouts(mcts.simulations, mcts.rollouts);
    std::string text =
        count + ":" + kHeuristicWord + (mcts.rollouts == 1 ? "" : ":" + std::to_string(mcts.rollouts));
    for (const SearchKey* key : changed_keys(mcts, short_form))
      text += ":" + key->name + "=" + key->text(mcts);
    return text;
  }
  throw Error("its search options have no command-line form");
}

std::string Ismcts::settings_text() const {
  std::string text;
  for (const SearchKey* key : changed_keys(mcts))
    if (key->name != mcts::kSimulationsRange.name)
      text += (text.empty() ? "" : ", ") + key->name + "=" + key->text(mcts);
  return text;
}

void Ismcts::write_yaml(YAML::Node& mapping) const {
  if (!network.empty()) mapping["checkpoint"] = network;
  if (const YAML::Node changed = changed_mcts_keys(mcts); changed.size() > 0) mapping["mcts"] = changed;
}

std::string Ismcts::default_name() const {
  const std::string sims = std::to_string(mcts.simulations);
  if (mcts.root == mcts::RootSelection::kGumbel && !network.empty())
    return kind_name<Search>() + sims + "+" + std::filesystem::path(network).stem().string();
  return row().name + sims + (network.empty() ? "" : "+net");
}

PlayedAs Ismcts::played_as() const { return {row().name, network, true, mcts.simulations}; }

std::string* Ismcts::checkpoint_file() { return network.empty() ? nullptr : &network; }

bool Ismcts::needs_network() const { return !network.empty(); }

std::unique_ptr<UntypedPlayer> Ismcts::make_player(const PlayerSetup& setup) const {
  return visit_game(setup.game, [&](auto g) -> std::unique_ptr<UntypedPlayer> {
    return std::make_unique<SearchPlayer<decltype(g)>>(mcts, setup.spec->net, *setup.options);
  });
}

const PlayerKind& ismcts_kind() {
  static const Ismcts kind;
  return kind;
}

}  // namespace rocketgym::players
