// A checkpoint's metadata (models/checkpoint.h): its JSON form, the checked
// reads of `extra` (the zoo's recommended search among them) and whether a
// checkpoint fits a game.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/quoted.h"
#include "models/checkpoint.h"

namespace rocketgym {

namespace {

// An observation's element count must fit NetSpec::observation_size()'s int.
constexpr int64_t kMaxObservationCells = (int64_t{1} << 31) - 1;

// A value of the file in a message: JSON (escaped), at most 60 characters.
std::string shown(const Json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string shape_text(const std::vector<int>& shape) {
  std::string out;
  for (int d : shape) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

// A counter of the run (learner decisions, updates): a whole number >= 0.
int64_t json_get_count(const Json& doc, const char* key) {
  const auto v = json_get<int64_t>(doc, key);
  if (v < 0)
    throw SerializationError(std::string("field '") + key + "' is " + std::to_string(v) +
                             ", expected a whole number >= 0");
  return v;
}

}  // namespace

NetSpec CheckpointMeta::net_spec() const {
  NetSpec spec;
  spec.config = net;
  spec.observation_shape = observation_shape;
  spec.num_actions = num_actions;
  spec.num_players = num_players;
  return spec;
}

std::vector<int> CheckpointMeta::served_players() const {
  return players.empty() ? std::vector<int>{num_players} : players;
}

bool CheckpointMeta::serves(int table_players) const {
  const std::vector<int> served = served_players();
  return std::find(served.begin(), served.end(), table_players) != served.end();
}

std::string player_counts_text(const std::vector<int>& counts) {
  std::string out;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (k > 0) out += k + 1 == counts.size() ? " and " : ", ";
    out += std::to_string(counts[k]);
  }
  return out + (counts.size() == 1 && counts[0] == 1 ? " player" : " players");
}

Json CheckpointMeta::to_json() const {
  Json doc{{"format", "rocketgym-checkpoint"},
           {"game", game},
           {"game_version", game_version},
           {"num_players", num_players},
           {"observation_shape", observation_shape},
           {"num_actions", num_actions},
           {"encoder", encoder},
           {"net", net.to_json()},
           {"step", step},
           {"iteration", iteration},
           {"extra", extra},
           {"weights", half_precision ? "float16" : "float32"}};
  if (!players.empty()) doc["players"] = players;
  if (!layout.empty()) {
    Json blocks = Json::array();
    for (const LayoutBlock& b : layout) blocks.push_back(Json{{"name", b.name}, {"size", b.size}});
    doc["observation_layout"] = blocks;
  }
  return doc;
}

CheckpointMeta CheckpointMeta::from_json(const Json& doc) {
  CheckpointMeta m;
  m.game = json_get<std::string>(doc, "game");
  m.game_version = json_get<int>(doc, "game_version");
  m.num_players = json_get_int(doc, "num_players", 1, 64);
  if (doc.contains("players")) {  // absent in files written before mixed tables: num_players only
    m.players = json_get<std::vector<int>>(doc, "players");
    if (m.players.empty()) throw SerializationError("players is an empty list");
    for (std::size_t k = 0; k < m.players.size(); ++k)
      if (m.players[k] < 1 || m.players[k] > m.num_players || (k > 0 && m.players[k] <= m.players[k - 1]))
        throw SerializationError("players must list ascending table sizes from 1 to num_players (" +
                                 std::to_string(m.num_players) + ", the value head's outputs), not " +
                                 Json(m.players).dump());
  }
  m.observation_shape = json_get<std::vector<int>>(doc, "observation_shape");
  int64_t cells = 1;
  for (int d : m.observation_shape) {
    if (d < 1) throw SerializationError("observation_shape has a non-positive dimension");
    cells *= d;
    if (cells > kMaxObservationCells)
      throw SerializationError("observation_shape has more than " + std::to_string(kMaxObservationCells) +
                               " elements");
  }
  m.num_actions = json_get_int(doc, "num_actions", 1, 1 << 24);
  if (doc.contains("observation_layout")) {  // absent in files written before it
    const Json blocks = json_get<Json>(doc, "observation_layout");
    if (!blocks.is_array()) throw SerializationError("observation_layout must be a list of blocks");
    int64_t offset = 0;
    for (const Json& block : blocks) {
      LayoutBlock b;
      b.name = json_get<std::string>(block, "name");
      b.size = json_get_int(block, "size", 1, std::numeric_limits<int>::max());
      b.offset = static_cast<int>(offset);
      offset += b.size;
      if (offset > cells)
        throw SerializationError("observation_layout has more numbers than observation_shape");
      m.layout.push_back(std::move(b));
    }
    if (offset != cells)
      throw SerializationError("observation_layout covers " + std::to_string(offset) +
                               " numbers, observation_shape " + std::to_string(cells));
  }
  m.encoder = json_get<std::string>(doc, "encoder");
  // Another name is an edited file, whose observations no encoder of this build writes.
  if (m.encoder != kDefaultEncoder)
    throw SerializationError("encoder is " + shown(Json(m.encoder)) + ", not " +
                             Json(kDefaultEncoder).dump() + " (each game has one encoder)");
  m.net = NetConfig::from_json(json_get<Json>(doc, "net"));
  m.step = json_get_count(doc, "step");
  m.iteration = json_get_count(doc, "iteration");
  m.extra = json_get<Json>(doc, "extra");
  if (!m.extra.is_object())
    throw SerializationError(std::string("field 'extra' must be a mapping, not ") + m.extra.type_name());
  if (doc.contains("weights")) {  // absent in files written before exports existed: float32
    const auto weights = json_get<std::string>(doc, "weights");
    if (weights != "float16" && weights != "float32")
      throw SerializationError("weights is " + quote(weights) + ", not float32 or float16");
    m.half_precision = weights == "float16";
  }
  return m;
}

namespace {

// A field of `extra` by its dotted key ("zoo.simulations"), or null when absent.
const Json* extra_field(const Json& extra, const std::string& key) {
  const Json* at = &extra;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t dot = key.find('.', begin);
    const std::string part = key.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
    if (!at->is_object() || !at->contains(part)) return nullptr;
    at = &(*at)[part];
    if (dot == std::string::npos) return at;
    begin = dot + 1;
  }
}

[[noreturn]] void bad_extra(const CheckpointMeta& meta, const std::string& key, const Json& value,
                            const std::string& expected) {
  const std::string file = meta.source.empty() ? "checkpoint metadata" : "checkpoint '" + meta.source + "'";
  throw CheckpointError(file + ": extra." + key + " is " + shown(value) + ", expected " + expected +
                        " (was the file edited? rewrite it with rocketgym export or retrain)");
}

}  // namespace

void CheckpointMeta::require_extra(std::initializer_list<const char*> keys) const {
  for (const char* key : keys)
    if (!extra_field(extra, key)) {
      const std::string file = source.empty() ? "checkpoint metadata" : "checkpoint '" + source + "'";
      throw CheckpointError(file + ": extra." + key +
                            " is missing (every checkpoint of a training run records it; was the file "
                            "edited? put the run's own latest.ckpt back, or start a new run)");
    }
}

int64_t CheckpointMeta::extra_count(const char* key, int64_t fallback) const {
  const Json* value = extra_field(extra, key);
  if (!value) return fallback;
  if (!value->is_number_integer() || (!value->is_number_unsigned() && value->get<int64_t>() < 0) ||
      (value->is_number_unsigned() && value->get_ref<const Json::number_unsigned_t&>() >
                                          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
    bad_extra(*this, key, *value, "a whole number >= 0");
  return value->is_number_unsigned() ? static_cast<int64_t>(value->get_ref<const Json::number_unsigned_t&>())
                                     : value->get_ref<const Json::number_integer_t&>();
}

double CheckpointMeta::extra_number(const char* key, double fallback, double lo, double hi) const {
  const Json* value = extra_field(extra, key);
  if (!value) return fallback;
  const double v = value->is_number() ? value->get<double>() : lo - 1.0;
  if (!value->is_number() || !(v >= lo && v <= hi))
    bad_extra(*this, key, *value, "a number in [" + Json(lo).dump() + ", " + Json(hi).dump() + "]");
  return v;
}

std::string CheckpointMeta::extra_text(const char* key, const std::string& fallback) const {
  const Json* value = extra_field(extra, key);
  if (!value) return fallback;
  if (!value->is_string()) bad_extra(*this, key, *value, "a text");
  return value->get<std::string>();
}

std::vector<std::string> CheckpointMeta::extra_texts(const char* key) const {
  const Json* value = extra_field(extra, key);
  if (!value) return {};
  std::vector<std::string> out;
  if (value->is_array())
    for (const Json& item : *value) {
      if (!item.is_string()) break;
      out.push_back(item.get<std::string>());
    }
  if (!value->is_array() || out.size() != value->size()) bad_extra(*this, key, *value, "a list of texts");
  return out;
}

int CheckpointMeta::zoo_simulations(int players) const {
  if (const Json* zoo = extra_field(extra, "zoo"); zoo && !zoo->is_object())
    bad_extra(*this, "zoo", *zoo, "a mapping such as {\"simulations\": 64}");
  if (const Json* sizes = extra_field(extra, "zoo.players"); sizes && !sizes->is_object())
    bad_extra(*this, "zoo.players", *sizes,
              "a mapping of table sizes such as {\"3\": {\"simulations\": 16}}");
  // The table size's own recommendation, else the one for every size.
  std::string key = "zoo.players." + std::to_string(players);
  if (const Json* size = extra_field(extra, key); size && !size->is_object())
    bad_extra(*this, key, *size, "a mapping such as {\"simulations\": 16}");
  key = extra_field(extra, key + ".simulations") ? key + ".simulations" : "zoo.simulations";
  const int64_t simulations = extra_count(key.c_str(), 0);
  if (simulations > kMaxZooSimulations)
    bad_extra(*this, key, *extra_field(extra, key),
              "at most " + std::to_string(kMaxZooSimulations) + " simulations");
  return static_cast<int>(simulations);
}

void check_checkpoint_matches(const CheckpointMeta& meta, const std::string& path, const std::string& game,
                              int num_players, const std::vector<int>& observation_shape, int num_actions) {
  if (meta.game != game)
    throw CheckpointError("checkpoint " + quote(path) + " was trained for game " + quote(meta.game) +
                          ", not '" + game + "'");
  const int version = Registry::instance().find(game).info.version;
  if (meta.game_version != version)
    throw CheckpointError("checkpoint " + quote(path) + " was trained for version " +
                          std::to_string(meta.game_version) + " of " + game +
                          " (its rules and encoding); this build has version " + std::to_string(version) +
                          ": retrain, or use it with the rocketgym it was trained with");
  if (!meta.serves(num_players))
    throw CheckpointError("checkpoint " + quote(path) + " was trained for " +
                          player_counts_text(meta.served_players()) + ", not " + std::to_string(num_players) +
                          " (a network serves the table sizes it was trained for; train one with "
                          "game.players listing " +
                          std::to_string(num_players) +
                          ", e.g. [2, 3, 4], or warm-start one from this file)");
  if (meta.observation_shape != observation_shape || meta.num_actions != num_actions)
    throw CheckpointError("checkpoint " + quote(path) + " expects observations " +
                          shape_text(meta.observation_shape) + " and " + std::to_string(meta.num_actions) +
                          " actions; the game now has " + shape_text(observation_shape) + " and " +
                          std::to_string(num_actions) + " (the encoder or rules changed)");
}

}  // namespace rocketgym
