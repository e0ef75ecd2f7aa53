#include "envs/lift_off/lift_off_config.h"

#include <algorithm>

#include "envs/core/config_record.h"
#include "envs/core/quoted.h"
#include "envs/core/yaml_document.h"

namespace rocketgym::lift_off {
namespace {

const char* const kColourNames[kNumColours] = {"red", "yellow", "blue", "green"};

const char* const kActionNames[] = {"money6",   "reward_l1",         "reward_l2",  "reward_l3",
                                    "buy_tech", "buy_tech_bulk",     "buy_green",  "sell_tech",
                                    "capacity", "buy_two_different", "exchange",   "buy_green_bulk",
                                    "lab",      "lab_cheap",         "propulsion", "station"};

std::string colour_list() {
  std::string out;
  for (const char* name : kColourNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

// The colour that `key` names.
int read_colour(const ConfigNode& node, const std::string& key) {
  declare_config_key(node, key, "one of", colour_list(), "required");
  const std::string text = node.get_string(key);
  for (int c = 0; c < kNumColours; ++c)
    if (text == kColourNames[c]) return c;
  node.fail("unknown colour " + quote(text) + " (allowed: " + colour_list() + ")");
}

// A list of levels, each 1 to 4, as a mask of bits 1 << level.
int read_levels(const ConfigNode& node, const std::string& key) {
  declare_config_key(node, key, "list of integers", "each 1 to " + std::to_string(kNumLevels), "required");
  int mask = 0;
  for (int lv : node.get_int_list(key)) {
    if (lv < 1 || lv > kNumLevels) node.fail_key(key, "levels are 1 to 4");
    mask |= 1 << lv;
  }
  return mask;
}

// What an objective's `counts` may name: exactly one of these (plus
// require_at_least_one beside missions_in_space).
const char* const kCountKinds[] = {"tech",
                                   "tech_sets",
                                   "missions_in_space",
                                   "mission_level_sets",
                                   "station_investments",
                                   "upgrades",
                                   "income",
                                   "lab_level",
                                   "money",
                                   "hourglass_missions_in_space"};

// Two kinds would silently count the first; none counts nothing.
void check_one_count(const ConfigNode& counts) {
  int named = 0;
  for (const char* kind : kCountKinds) named += counts.has(kind) ? 1 : 0;
  if (named == 0) counts.fail("names nothing to count");
  if (named > 1) counts.fail("names " + std::to_string(named) + " things to count; an objective counts one");
}

// A kind named by a flag (tech_sets: true) must say true: `false` would read
// as "not counted" while the objective counted it anyway.
void read_count_flag(const ConfigNode& counts, const std::string& key) {
  declare_config_key(counts, key, "true", "(names what the objective counts; one kind per objective)",
                     "not counted");
  if (!counts.get_bool(key, false)) counts.fail_key(key, "must be true: it names what the objective counts");
}

int parse_marker(const ConfigNode& node, const std::string& key) {
  const std::string m = node.get_choice(key, "none", {"none", "3", "4"});
  return m == "none" ? 0 : std::stoi(m);
}

// A list of exactly `n` integers in [lo, hi].
template <std::size_t N>
std::array<int, N> int_array(const ConfigNode& node, const std::string& key, int lo, int hi) {
  declare_config_key(node, key, "list of " + std::to_string(N) + " integers",
                     "each " + std::to_string(lo) + " to " + std::to_string(hi), "required");
  const auto items = node.child(key).items();
  if (items.size() != N) node.fail_key(key, "expected a list of " + std::to_string(N) + " integers");
  std::array<int, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = config_int(items[i], lo, hi);
  return out;
}

void load_setup(const ConfigNode& root, Config& c) {
  const ConfigNode s = root.child("setup");
  s.expect_keys({"start_money", "score_start_by_seat", "specialists_dealt", "specialist_draw_per_round"});
  c.start_money = s.get_int("start_money", 10, 0, 1000);
  c.score_start_by_seat = int_array<kMaxPlayers>(s, "score_start_by_seat", 0, 1000);
  c.specialists_dealt = s.get_int("specialists_dealt", 3, 3, 3);  // the draft needs exactly 3 in hand
  c.specialist_draw_per_round = s.get_int("specialist_draw_per_round", 2, 2, 2);

  const ConfigNode t = root.child("tracks");
  t.expect_keys(
      {"cost_start", "weight_start", "income_start", "income_max", "capacity_tokens", "propulsion_tokens"});
  c.cost_start = t.get_int("cost_start", 5, 0, 50);
  c.weight_start = t.get_int("weight_start", 1, 0, 20);
  c.income_start = t.get_int("income_start", 5, 0, 50);
  c.income_max = t.get_int_at_least("income_max", 9, "income_start", c.income_start, 50);
  c.capacity_tokens = t.get_int("capacity_tokens", 5, 0, 20);
  c.propulsion_tokens = t.get_int("propulsion_tokens", 5, 0, 20);

  const ConfigNode l = root.child("labs");
  l.expect_keys({"launch_vp", "level4_lab_symbol_capacity", "upgrade_costs"});
  const ConfigNode vp = l.child("launch_vp");
  vp.expect_keys({"phase1", "phase2"});
  c.launch_vp[0] = int_array<kNumLevels>(vp, "phase1", 0, 100);
  c.launch_vp[1] = int_array<kNumLevels>(vp, "phase2", 0, 100);
  c.level4_lab_symbol_capacity = l.get_int("level4_lab_symbol_capacity", 1, 0, 10);
  const ConfigNode up = l.child("upgrade_costs");
  up.expect_keys({"lab", "lab_cheap"});
  c.lab_cost = int_array<3>(up, "lab", 0, 100);
  c.lab_cheap_cost = int_array<3>(up, "lab_cheap", 0, 100);

  const ConfigNode m = root.child("missions_rules");
  m.expect_keys({"per_round", "draw", "max_per_deck", "extra_launch_discount"});
  c.missions_per_round = m.get_int("per_round", 3, 1, 3);
  c.mission_draw = m.get_int("draw", 3, 1, 10);
  c.max_per_deck = m.get_int("max_per_deck", 7, 1, 7);
  c.extra_launch_discount = m.get_int("extra_launch_discount", 2, 0, 50);

  const ConfigNode sp = root.child("specialist_rules");
  sp.expect_keys({"money_instead", "money3_banner", "vp5_banner"});
  c.money_instead = sp.get_int("money_instead", 2, 0, 100);
  c.money3_banner = sp.get_int("money3_banner", 3, 0, 100);
  c.vp5_banner = sp.get_int("vp5_banner", 5, 0, 100);

  const ConfigNode sc = root.child("scoring");
  sc.expect_keys({"green_vp", "money_per_vp", "objective_discard_money"});
  c.green_vp = sc.get_int("green_vp", 3, 0, 100);
  c.money_per_vp = sc.get_int("money_per_vp", 5, 1, 100);
  c.objective_discard_money = sc.get_int("objective_discard_money", 5, 0, 100);
}

void load_prices(const ConfigNode& root, Config& c) {
  const ConfigNode p = root.child("prices");
  p.expect_keys({"buy_tech", "buy_tech_bulk", "buy_tech_bulk_max", "buy_two_different", "buy_green",
                 "buy_green_bulk", "sell_tech", "capacity", "propulsion", "exchange_max", "money6",
                 "reward_l1", "reward_l2", "reward_l3"});
  c.buy_tech = p.get_int("buy_tech", 4, 0, 100);
  c.buy_tech_bulk = p.get_int("buy_tech_bulk", 3, 0, 100);
  c.buy_tech_bulk_max = p.get_int("buy_tech_bulk_max", 3, 1, 3);
  c.buy_two_different = p.get_int("buy_two_different", 6, 0, 100);
  c.buy_green = p.get_int("buy_green", 4, 0, 100);
  c.buy_green_bulk = int_array<2>(p, "buy_green_bulk", 0, 100);
  c.sell_tech = p.get_int("sell_tech", 6, 0, 100);
  c.capacity_price = p.get_int("capacity", 4, 0, 100);
  c.propulsion_price = p.get_int("propulsion", 2, 0, 100);
  c.exchange_max = p.get_int("exchange_max", 2, 1, 2);
  const ConfigNode m6 = p.child("money6");
  m6.expect_keys({"self", "others"});
  c.money6_self = m6.get_int("self", 6, 0, 100);
  c.money6_others = m6.get_int("others", 2, 0, 100);
  const char* reward_keys[3] = {"reward_l1", "reward_l2", "reward_l3"};
  for (int i = 0; i < 3; ++i) {
    const ConfigNode r = p.child(reward_keys[i]);
    r.expect_keys({"vp", "money", "others_vp"});
    c.reward_level[static_cast<std::size_t>(i)] = {r.get_int("vp", 0, 0, 100), r.get_int("money", 0, 0, 100),
                                                   r.get_int("others_vp", 0, 0, 100)};
  }
}

TechRequirement load_requirement(const ConfigNode& node) {
  TechRequirement req;
  declare_config_key(node, "", "", "1 to " + std::to_string(kMaxAlternatives) + " alternatives", "");
  const auto alternatives = node.items();
  if (alternatives.empty() || alternatives.size() > kMaxAlternatives)
    node.fail("expected 1 to " + std::to_string(kMaxAlternatives) + " alternatives");
  for (const auto& alt : alternatives) {
    alt.expect_keys({"red", "yellow", "blue", "green"});
    TechNeed need{};
    for (int col = 0; col < kNumColours; ++col)
      need[static_cast<std::size_t>(col)] = alt.get_int(kColourNames[col], 0, 0, 50);
    req.alternatives[static_cast<std::size_t>(req.num_alternatives++)] = need;
  }
  return req;
}

void load_requirements(const ConfigNode& root, Config& c) {
  const ConfigNode t = root.child("tech_requirements");
  t.expect_keys({"phase1", "phase2"});
  const char* phases[2] = {"phase1", "phase2"};
  for (int ph = 0; ph < 2; ++ph) {
    const ConfigNode p = t.child(phases[ph]);
    p.expect_keys({"1", "2", "3", "4"});
    for (int level = 1; level <= kNumLevels; ++level)
      c.tech_requirements[static_cast<std::size_t>(ph)][static_cast<std::size_t>(level - 1)] =
          load_requirement(p.child(std::to_string(level)));
  }
}

void load_station(const ConfigNode& root, Config& c) {
  const ConfigNode s = root.child("space_station");
  s.expect_keys({"spaces", "blocked", "final_cost", "vp", "vp_per_mission_in_space"});
  const int max_cost = 100;
  declare_config_key(s, "spaces", "list of 1 to " + std::to_string(kMaxStationSpaces) + " integers",
                     "each 0 to " + std::to_string(max_cost), "required");
  const auto spaces = s.get_int_list("spaces");
  if (spaces.empty() || spaces.size() > kMaxStationSpaces)
    s.fail_key("spaces", "expected 1 to " + std::to_string(kMaxStationSpaces) + " spaces");
  c.num_station_spaces = static_cast<int>(spaces.size());
  for (std::size_t i = 0; i < spaces.size(); ++i) {
    if (spaces[i] < 0 || spaces[i] > max_cost)
      s.fail_key("spaces", "cost out of range [0, " + std::to_string(max_cost) + "]");
    c.station_cost[i] = spaces[i];
  }
  const ConfigNode b = s.child("blocked");
  b.expect_keys({"2", "3", "4"});
  for (int n = 2; n <= kMaxPlayers; ++n) {
    uint32_t mask = 0;
    declare_config_key(b, std::to_string(n), "list of integers", "space indices, 0 to spaces − 1",
                       "none blocked");
    if (b.has(std::to_string(n)))
      for (int index : b.get_int_list(std::to_string(n))) {
        if (index < 0 || index >= c.num_station_spaces)
          b.fail_key(std::to_string(n), "space index " + std::to_string(index) + " out of range");
        mask |= 1u << index;
      }
    c.station_blocked_mask[static_cast<std::size_t>(n)] = mask;
  }
  c.station_final_cost = s.get_int("final_cost", 12, 0, 100);
  c.station_vp = s.get_int("vp", 5, 0, 100);
  c.station_vp_per_mission = s.get_int("vp_per_mission_in_space", 1, 0, 100);
}

void check_unique_id(const ConfigNode& node, const std::string& id, std::vector<std::string>& seen) {
  if (std::find(seen.begin(), seen.end(), id) != seen.end())
    node.fail_key("id", "duplicate card id " + quote(id));
  seen.push_back(id);
}

void load_specialists(const ConfigNode& root, Config& c) {
  std::vector<std::string> seen;
  declare_config_key(
      root, "specialists", "",
      "at most " + std::to_string(kMaxSpecialists) + "; with each player count (see `marker`), 9 per player",
      "");
  for (const auto& item : root.child("specialists").items()) {
    item.expect_keys({"id", "name", "banner", "actions", "marker"});
    SpecialistCard card;
    card.id = item.get_string("id");
    card.name = item.get_string("name");
    check_unique_id(item, card.id, seen);
    const std::string banner = item.get_choice(
        "banner", "",
        {"money3", "vp5", "extra_mission", "extra_launch", "capacity+1", "capacity+2", "capacity+3"});
    if (banner == "money3") card.banner = Banner::kMoney3;
    if (banner == "vp5") card.banner = Banner::kVp5;
    if (banner == "extra_mission") card.banner = Banner::kExtraMission;
    if (banner == "extra_launch") card.banner = Banner::kExtraLaunch;
    if (banner.rfind("capacity+", 0) == 0) {
      card.banner = Banner::kCapacity;
      card.capacity_bonus = banner.back() - '0';
    }
    std::string action_list;
    for (const char* name : kActionNames)
      action_list += (action_list.empty() ? "" : ", ") + std::string(name);
    declare_config_key(item, "actions", "list of 1 or 2 different names", action_list, "required");
    const auto actions = item.child("actions").items();
    if (actions.empty() || actions.size() > 2)
      item.fail_key("actions", "a specialist has one or two actions");
    for (const auto& a : actions) {
      const std::string name = a.as_string();
      int found = -1;
      for (int k = 0; k < static_cast<int>(SpecialistAction::kCount); ++k)
        if (name == kActionNames[k]) found = k;
      if (found < 0) a.fail("unknown specialist action " + quote(name));
      card.actions[static_cast<std::size_t>(card.num_actions++)] = static_cast<SpecialistAction>(found);
    }
    // Action ids name the rule action, not the slot, so both slots must differ.
    if (card.num_actions == 2 && card.actions[0] == card.actions[1])
      item.fail_key("actions", "the two actions of a specialist must differ");
    card.marker = parse_marker(item, "marker");
    c.specialists.push_back(card);
  }
  if (c.specialists.size() > kMaxSpecialists)
    root.fail_key("specialists", "at most " + std::to_string(kMaxSpecialists) + " specialist cards");
  // The phases end when the specialist deck is empty at the end of a round:
  // 3 dealt + 2 drawn in rounds 2-4 = 9 cards per player, so the deck for N
  // players must hold exactly 9N cards.
  for (int n = 2; n <= kMaxPlayers; ++n) {
    int count = 0;
    for (int i = 0; i < static_cast<int>(c.specialists.size()); ++i) count += c.specialist_in_game(i, n);
    const int needed = n * (c.specialists_dealt + 3 * c.specialist_draw_per_round);
    if (count != needed)
      root.fail_key("specialists",
                    "with " + std::to_string(n) + " players the deck holds " + std::to_string(count) +
                        " cards, but the four rounds of a phase need exactly " + std::to_string(needed));
  }
}

MissionType load_mission(const ConfigNode& item, int level) {
  item.expect_keys({"id", "name", "weight", "vp", "effect", "final", "multi", "copies"});
  MissionType m;
  m.id = item.get_string("id");
  m.name = item.get_string("name");
  m.level = level;
  m.weight = item.get_int("weight", 1, 1, 20);
  m.vp = item.get_int("vp", 0, 0, 100);
  m.multi = item.get_bool("multi", false);
  if (item.has("effect")) {
    const ConfigNode e = item.child("effect");
    e.expect_keys({"gain_tech", "gain_money", "income", "free_propulsion", "free_capacity"});
    if (e.has("gain_tech")) {
      const ConfigNode g = e.child("gain_tech");
      g.expect_keys({"red", "yellow", "blue", "green"});
      for (int col = 0; col < kNumColours; ++col)
        m.gain_tech[static_cast<std::size_t>(col)] = g.get_int(kColourNames[col], 0, 0, 10);
    }
    m.gain_money = e.get_int("gain_money", 0, 0, 100);
    m.income = e.get_int("income", 0, 0, 10);
    m.free_propulsion = e.get_int("free_propulsion", 0, 0, 10);
    m.free_capacity = e.get_int("free_capacity", 0, 0, 10);
  }
  if (item.has("final")) {
    const ConfigNode f = item.child("final");
    f.expect_keys({"per_tech", "per_tech_any", "per_income_over", "per_mission_level",
                   "per_station_investment", "per_upgrade"});
    const auto kinds = f.keys();
    if (kinds.size() != 1) f.fail("an hourglass effect has exactly one kind");
    const std::string kind = kinds[0];
    const ConfigNode k = f.child(kind);
    if (kind == "per_tech") {
      k.expect_keys({"colour", "vp"});
      m.final_effect = FinalEffect::kPerTech;
      m.final_colour = read_colour(k, "colour");
    } else if (kind == "per_tech_any") {
      k.expect_keys({"vp"});
      m.final_effect = FinalEffect::kPerTechAny;
    } else if (kind == "per_income_over") {
      k.expect_keys({"base", "vp"});
      m.final_effect = FinalEffect::kPerIncomeOver;
      m.final_base = k.get_int("base", 0, 0, 50);
    } else if (kind == "per_mission_level") {
      k.expect_keys({"levels", "vp"});
      m.final_effect = FinalEffect::kPerMissionLevel;
      m.final_levels_mask = read_levels(k, "levels");
    } else if (kind == "per_station_investment") {
      k.expect_keys({"vp"});
      m.final_effect = FinalEffect::kPerStationInvestment;
    } else {
      k.expect_keys({"vp"});
      m.final_effect = FinalEffect::kPerUpgrade;
    }
    m.final_vp = k.get_int("vp", 0, 0, 100);
  }
  const ConfigNode copies = item.child("copies");
  copies.expect_keys({"none", "3", "4"});
  m.copies = {copies.get_int("none", 0, 0, 8), copies.get_int("3", 0, 0, 8), copies.get_int("4", 0, 0, 8)};
  if (!m.multi && m.copies[0] + m.copies[1] + m.copies[2] == 0)
    item.fail_key("copies", "a mission needs a copy");
  return m;
}

void load_missions(const ConfigNode& root, Config& c) {
  const ConfigNode ms = root.child("missions");
  ms.expect_keys({"level1", "level2", "level3", "level4"});
  std::vector<std::string> seen;
  for (int level = 1; level <= kNumLevels; ++level) {
    const std::string key = "level" + std::to_string(level);
    declare_config_key(ms, key, "", "1 to " + std::to_string(kMaxDeckCards) + " cards with each player count",
                       "");
    for (const auto& item : ms.child(key).items()) {
      c.missions.push_back(load_mission(item, level));
      check_unique_id(item, c.missions.back().id, seen);
    }
    for (int n = 2; n <= kMaxPlayers; ++n) {
      int cards = 0;
      for (const auto& m : c.missions)
        if (m.level == level) cards += m.copies_for(n);
      if (cards > kMaxDeckCards || cards == 0)
        ms.fail_key(key, "the deck for " + std::to_string(n) + " players must hold 1 to " +
                             std::to_string(kMaxDeckCards) + " cards");
    }
  }
  if (c.missions.size() > kMaxMissionTypes)
    root.fail_key("missions", "at most " + std::to_string(kMaxMissionTypes) + " mission titles");
}

void load_objectives(const ConfigNode& root, Config& c) {
  std::vector<std::string> seen;
  declare_config_key(root, "objectives", "",
                     std::to_string(3 * kMaxPlayers) + " to " + std::to_string(kMaxObjectives) + " cards",
                     "");
  for (const auto& item : root.child("objectives").items()) {
    item.expect_keys({"id", "name", "counts", "tiers"});
    ObjectiveCard o;
    o.id = item.get_string("id");
    o.name = item.get_string("name");
    check_unique_id(item, o.id, seen);
    const ConfigNode k = item.child("counts");
    k.expect_keys({"tech", "tech_sets", "missions_in_space", "require_at_least_one", "mission_level_sets",
                   "station_investments", "upgrades", "income", "lab_level", "money",
                   "hourglass_missions_in_space"});
    check_one_count(k);
    if (k.has("tech")) {
      o.count = ObjectiveCount::kTech;
      o.colour = read_colour(k, "tech");
    } else if (k.has("tech_sets")) {
      read_count_flag(k, "tech_sets");
      o.count = ObjectiveCount::kTechSets;
    } else if (k.has("missions_in_space")) {
      o.count = ObjectiveCount::kMissionsInSpace;
      o.levels_mask = read_levels(k, "missions_in_space");
      o.required_level = k.get_int("require_at_least_one", 0, 1, kNumLevels);
    } else if (k.has("mission_level_sets")) {
      read_count_flag(k, "mission_level_sets");
      o.count = ObjectiveCount::kMissionLevelSets;
    } else if (k.has("station_investments")) {
      read_count_flag(k, "station_investments");
      o.count = ObjectiveCount::kStationInvestments;
    } else if (k.has("upgrades")) {
      o.count = ObjectiveCount::kUpgrades;
      declare_config_key(k, "upgrades", "list of names", "capacity, propulsion", "required");
      for (const auto& u : k.child("upgrades").items()) {
        const std::string name = u.as_string();
        if (name == "capacity")
          o.count_capacity = true;
        else if (name == "propulsion")
          o.count_propulsion = true;
        else
          u.fail("unknown upgrade " + quote(name) + " (allowed: capacity, propulsion)");
      }
    } else if (k.has("income")) {
      read_count_flag(k, "income");
      o.count = ObjectiveCount::kIncome;
    } else if (k.has("lab_level")) {
      read_count_flag(k, "lab_level");
      o.count = ObjectiveCount::kLabLevel;
    } else if (k.has("money")) {
      read_count_flag(k, "money");
      o.count = ObjectiveCount::kMoney;
    } else {  // check_one_count: the one kind left
      read_count_flag(k, "hourglass_missions_in_space");
      o.count = ObjectiveCount::kHourglassMissions;
    }
    declare_config_key(item, "tiers", "list of [min, max or null, vp]",
                       "min, vp ≥ 0; max ≥ min, or null for no maximum", "required");
    for (const auto& t : item.child("tiers").items()) {
      const auto row = t.items();
      if (row.size() != 3) t.fail("a tier is [min, max or null, vp]");
      ObjectiveTier tier;
      tier.min = row[0].as_int();
      tier.max = row[1].is_null() ? -1 : row[1].as_int();
      tier.vp = row[2].as_int();
      if (tier.min < 0 || tier.vp < 0 || (tier.max >= 0 && tier.max < tier.min))
        t.fail("invalid tier bounds");
      o.tiers.push_back(tier);
    }
    if (o.tiers.empty()) item.fail_key("tiers", "an objective needs at least one tier");
    c.objectives.push_back(o);
  }
  if (c.objectives.size() > kMaxObjectives)
    root.fail_key("objectives", "at most " + std::to_string(kMaxObjectives) + " objective cards");
  if (c.objectives.size() < 3u * kMaxPlayers)
    root.fail_key("objectives", "at least 12 objective cards are needed to deal three to four players");
}

}  // namespace

const char* colour_name(int colour) {
  return colour >= 0 && colour < kNumColours ? kColourNames[colour] : "?";
}

const char* specialist_action_name(SpecialistAction a) {
  const int i = static_cast<int>(a);
  return i >= 0 && i < static_cast<int>(SpecialistAction::kCount) ? kActionNames[i] : "?";
}

int MissionType::copies_for(int num_players) const {
  return copies[0] + (num_players >= 3 ? copies[1] : 0) + (num_players >= 4 ? copies[2] : 0);
}

int ObjectiveCard::points_for(int amount) const {
  int best = 0;
  for (const auto& t : tiers)
    if (amount >= t.min && (t.max < 0 || amount <= t.max)) best = std::max(best, t.vp);
  return best;
}

bool TechRequirement::met_by(const std::array<int, kNumColours>& tech) const {
  for (int a = 0; a < num_alternatives; ++a) {
    bool ok = true;
    for (int col = 0; col < kNumColours; ++col)
      ok = ok && tech[static_cast<std::size_t>(col)] >=
                     alternatives[static_cast<std::size_t>(a)][static_cast<std::size_t>(col)];
    if (ok) return true;
  }
  return false;
}

int Config::specialist_index(const std::string& id) const {
  for (std::size_t i = 0; i < specialists.size(); ++i)
    if (specialists[i].id == id) return static_cast<int>(i);
  return -1;
}
int Config::mission_index(const std::string& id) const {
  for (std::size_t i = 0; i < missions.size(); ++i)
    if (missions[i].id == id) return static_cast<int>(i);
  return -1;
}
int Config::objective_index(const std::string& id) const {
  for (std::size_t i = 0; i < objectives.size(); ++i)
    if (objectives[i].id == id) return static_cast<int>(i);
  return -1;
}

Config load_config(const ConfigNode& root) {
  root.expect_keys({"reward", "setup", "tracks", "labs", "missions_rules", "specialist_rules", "prices",
                    "scoring", "tech_requirements", "space_station", "specialists", "missions",
                    "objectives"});
  Config c;
  c.reward = parse_reward_mode(root);
  load_setup(root, c);
  load_prices(root, c);
  load_requirements(root, c);
  load_station(root, c);
  load_specialists(root, c);
  load_missions(root, c);
  load_objectives(root, c);
  return c;
}

}  // namespace rocketgym::lift_off
