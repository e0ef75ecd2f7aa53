#include "envs/launch_pad/launch_pad_cards.h"

#include <numeric>

#include "envs/core/config_record.h"

namespace rocketgym::launch_pad {
namespace {

constexpr const char* kCardNames[kNumCardTypes] = {"Observer",
                                                   "Explorer",
                                                   "Intrepid",
                                                   "Galactic",
                                                   "Metal",
                                                   "Fuel",
                                                   "Engineer",
                                                   "Inspector",
                                                   "Mission Controller",
                                                   "Jack of All Trades",
                                                   "Astronaut",
                                                   "Maximum Security",
                                                   "Oxygen",
                                                   "Quality Certificate",
                                                   "Launch Pad",
                                                   "Abort Mission",
                                                   "Big Red Button",
                                                   "Budget Cuts",
                                                   "Fast Track",
                                                   "Parts Supplier",
                                                   "Quality Check",
                                                   "Recruitment",
                                                   "Recycle Bin",
                                                   "Sabotage",
                                                   "Salvage",
                                                   "Surplus",
                                                   "Thief",
                                                   "Vacuum",
                                                   "Employee Contract",
                                                   "Overtime",
                                                   "Security System",
                                                   "Warehouse"};

constexpr const char* kCardKeys[kNumCardTypes] = {"observer",
                                                  "explorer",
                                                  "intrepid",
                                                  "galactic",
                                                  "metal",
                                                  "fuel",
                                                  "engineer",
                                                  "inspector",
                                                  "mission_controller",
                                                  "jack_of_all_trades",
                                                  "astronaut",
                                                  "maximum_security",
                                                  "oxygen",
                                                  "quality_certificate",
                                                  "launch_pad",
                                                  "abort_mission",
                                                  "big_red_button",
                                                  "budget_cuts",
                                                  "fast_track",
                                                  "parts_supplier",
                                                  "quality_check",
                                                  "recruitment",
                                                  "recycle_bin",
                                                  "sabotage",
                                                  "salvage",
                                                  "surplus",
                                                  "thief",
                                                  "vacuum",
                                                  "employee_contract",
                                                  "overtime",
                                                  "security_system",
                                                  "warehouse"};

constexpr const char* kZoneNames[kNumZones] = {"Construction Zone", "Quality Control Zone", "Launch Zone"};
constexpr const char* kZoneKeys[kNumZones] = {"construction", "quality_control", "launch"};

}  // namespace

const char* card_name(int card) { return card >= 0 && card < kNumCardTypes ? kCardNames[card] : "?"; }
const char* card_key(int card) { return card >= 0 && card < kNumCardTypes ? kCardKeys[card] : "?"; }
int card_from_key(const std::string& key) {
  for (int c = 0; c < kNumCardTypes; ++c)
    if (key == kCardKeys[c]) return c;
  return -1;
}
const char* zone_name(int zone) { return zone >= 0 && zone < kNumZones ? kZoneNames[zone] : "?"; }
const char* zone_key(int zone) { return zone >= 0 && zone < kNumZones ? kZoneKeys[zone] : "?"; }
int zone_from_key(const std::string& key) {
  for (int z = 0; z < kNumZones; ++z)
    if (key == kZoneKeys[z]) return z;
  return -1;
}

int Config::total_cards() const { return std::accumulate(count.begin(), count.end(), 0); }

Config load_config(const ConfigNode& root) {
  root.expect_keys(
      {"reward", "hand_limit", "warehouse_hand_limit", "rockets", "cards", "scoring", "variants"});
  Config c;
  c.reward = parse_reward_mode(root);
  c.hand_limit = root.get_int("hand_limit", 6, 1, 12);
  c.warehouse_hand_limit = root.get_int_at_least("warehouse_hand_limit", 8, "hand_limit", c.hand_limit, 16);

  // rockets: every kind with its count, Components needed and points.
  const ConfigNode rockets = root.child("rockets");
  rockets.expect_keys({"observer", "explorer", "intrepid", "galactic"});
  int rocket_total = 0;
  for (int k = 0; k < kNumRocketKinds; ++k) {
    const ConfigNode r = rockets.child(kCardKeys[k]);
    r.expect_keys({"count", "metal", "fuel", "points"});
    c.count[static_cast<std::size_t>(k)] = r.get_int("count", 0, 0, kMaxRocketSlots);
    c.rocket[static_cast<std::size_t>(k)] = {r.get_int("metal", 1, 0, 9), r.get_int("fuel", 1, 0, 9),
                                             r.get_int("points", 0, -100, 100)};
    rocket_total += c.count[static_cast<std::size_t>(k)];
  }
  if (rocket_total > kMaxRocketSlots)
    rockets.fail("at most " + std::to_string(kMaxRocketSlots) + " rockets in all (one slot each)");

  // cards: the count of every other card type; all must be listed.
  const ConfigNode cards = root.child("cards");
  std::vector<std::string> keys;
  for (int t = kMetal; t < kNumCardTypes; ++t) keys.emplace_back(kCardKeys[t]);
  cards.expect_keys(keys);
  for (int t = kMetal; t < kNumCardTypes; ++t) {
    const int lo = t == kLaunchPad ? 1 : 0;  // the game ends when every Launch Pad card is on the area
    const int hi = t == kLaunchPad ? 4 : 60;
    // For the docs: required (checked here), so get_int's fallback is never taken.
    declare_config_key(cards, kCardKeys[t], "", "", "required");
    if (!cards.has(kCardKeys[t])) cards.fail_key(kCardKeys[t], "missing card count");
    c.count[static_cast<std::size_t>(t)] = cards.get_int(kCardKeys[t], 0, lo, hi);
  }
  if (c.total_cards() > kMaxCards) cards.fail("at most " + std::to_string(kMaxCards) + " cards in the deck");
  if (c.total_cards() - c.count[kLaunchPad] < kMaxPlayers * c.hand_limit)
    cards.fail("the deck must deal a full hand to 4 players");

  const ConfigNode scoring = root.child_or_empty("scoring");
  if (!scoring.is_null()) {
    scoring.expect_keys({"astronaut_with_oxygen", "astronaut_without_oxygen", "certificate_in_launch_zone",
                         "no_mission_controller"});
    c.astronaut_with_oxygen = scoring.get_int("astronaut_with_oxygen", 4, -100, 100);
    c.astronaut_without_oxygen = scoring.get_int("astronaut_without_oxygen", -4, -100, 100);
    c.certificate_in_launch_zone = scoring.get_int("certificate_in_launch_zone", 3, -100, 100);
    c.no_mission_controller = scoring.get_int("no_mission_controller", -10, -100, 100);
  }

  const ConfigNode variants = root.child_or_empty("variants");
  if (!variants.is_null()) {
    variants.expect_keys({"short_game", "long_game", "super_powers", "negotiations"});
    c.short_game = variants.get_bool("short_game", false);
    c.long_game = variants.get_bool("long_game", false);
    c.super_powers = variants.get_bool("super_powers", false);
    c.negotiations = variants.get_bool("negotiations", false);
    if (c.short_game && c.long_game) variants.fail("short_game and long_game cannot both be on");
  }
  return c;
}

}  // namespace rocketgym::launch_pad
