// Lift Off: the card data and rule numbers, loaded from configs/games/lift_off.yaml.
// Everything a user may want to edit (cards, prices, tracks, requirement tables)
// lives here; the engine in lift_off.h only reads it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/returns.h"

namespace rocketgym::lift_off {

// Fixed capacities: the action space and the observation shape are sized by
// these, so a config may hold at most this many cards of each kind.
constexpr int kMaxPlayers = 4;
constexpr int kMaxSpecialists = 48;
constexpr int kMaxMissionTypes = 64;  // distinct mission titles over all four levels
constexpr int kMaxDeckCards = 40;     // physical cards in one mission level deck
constexpr int kMaxObjectives = 32;
constexpr int kNumLevels = 4;
constexpr int kNumColours = 4;
constexpr int kMaxStationSpaces = 16;
constexpr int kMaxAlternatives = 4;

enum Colour : int { kRed = 0, kYellow = 1, kBlue = 2, kGreen = 3 };
const char* colour_name(int colour);

enum class Banner : uint8_t { kMoney3, kVp5, kExtraMission, kExtraLaunch, kCapacity };

// The specialist actions of the rulebook, one value per printed icon.
enum class SpecialistAction : uint8_t {
  kMoney6,
  kRewardL1,
  kRewardL2,
  kRewardL3,
  kBuyTech,
  kBuyTechBulk,
  kBuyGreen,
  kSellTech,
  kCapacity,
  kBuyTwoDifferent,
  kExchange,
  kBuyGreenBulk,
  kLab,
  kLabCheap,
  kPropulsion,
  kStation,
  kCount
};
const char* specialist_action_name(SpecialistAction a);

struct SpecialistCard {
  std::string id, name;
  Banner banner = Banner::kMoney3;
  int capacity_bonus = 0;  // for Banner::kCapacity: +1..+3
  int num_actions = 0;
  std::array<SpecialistAction, 2> actions{};
  int marker = 0;  // 0 = all player counts, 3 = 3-4 players, 4 = 4 players
};

enum class FinalEffect : uint8_t {
  kNone,
  kPerTech,               // vp per own tech of `colour`
  kPerTechAny,            // vp per own tech card of any colour
  kPerIncomeOver,         // vp * (income - base)
  kPerMissionLevel,       // vp per own mission in space whose level is in `levels_mask`
  kPerStationInvestment,  // vp per own station investment
  kPerUpgrade,            // vp per own capacity + propulsion upgrade
};

struct MissionType {
  std::string id, name;
  int level = 1;  // 1..4
  int weight = 1;
  int vp = 0;
  // Immediate effect (when the mission reaches space).
  std::array<int, kNumColours> gain_tech{};
  int gain_money = 0, income = 0, free_propulsion = 0, free_capacity = 0;
  // Hourglass effect (final scoring).
  FinalEffect final_effect = FinalEffect::kNone;
  int final_vp = 0, final_colour = 0, final_base = 0, final_levels_mask = 0;
  bool multi = false;           // a player may own several copies (Trading Post)
  std::array<int, 3> copies{};  // physical copies with marker none / "3" / "4"
  int copies_for(int num_players) const;
  bool has_hourglass() const { return final_effect != FinalEffect::kNone; }
};

enum class ObjectiveCount : uint8_t {
  kTech,              // tech cards of `colour`
  kTechSets,          // min over the four colours
  kMissionsInSpace,   // missions in space with level in `levels_mask` (optionally requiring one of
                      // `required_level`)
  kMissionLevelSets,  // min over levels 1..4 of missions in space
  kStationInvestments,
  kUpgrades,  // capacity and/or propulsion upgrades (`count_capacity`, `count_propulsion`)
  kIncome,
  kLabLevel,
  kMoney,
  kHourglassMissions,
};

struct ObjectiveTier {
  int min = 0, max = 0, vp = 0;  // max < 0 = no upper bound
};

struct ObjectiveCard {
  std::string id, name;
  ObjectiveCount count = ObjectiveCount::kTech;
  int colour = 0, levels_mask = 0, required_level = 0;
  bool count_capacity = false, count_propulsion = false;
  std::vector<ObjectiveTier> tiers;
  int points_for(int amount) const;  // the highest tier that applies, else 0
};

// One alternative of a tech requirement: minimum counts per colour.
using TechNeed = std::array<int, kNumColours>;
struct TechRequirement {
  int num_alternatives = 0;
  std::array<TechNeed, kMaxAlternatives> alternatives{};
  bool met_by(const std::array<int, kNumColours>& tech) const;
};

struct RewardPrice {
  int vp = 0, money = 0, others_vp = 0;
};

struct Config {
  RewardMode reward = RewardMode::kRank;
  // setup
  int start_money = 10;
  std::array<int, kMaxPlayers> score_start_by_seat{};
  int specialists_dealt = 3, specialist_draw_per_round = 2;
  // tracks
  int cost_start = 5, weight_start = 1, income_start = 5, income_max = 9;
  int capacity_tokens = 5, propulsion_tokens = 5;
  // labs: index [level - 1]
  std::array<std::array<int, kNumLevels>, 2> launch_vp{};  // [phase - 1][level - 1]
  int level4_lab_symbol_capacity = 1;
  std::array<int, 3> lab_cost{}, lab_cheap_cost{};  // target level 2, 3, 4
  // missions
  int missions_per_round = 3, mission_draw = 3, max_per_deck = 7, extra_launch_discount = 2;
  // specialists
  int money_instead = 2, money3_banner = 3, vp5_banner = 5;
  // prices
  int buy_tech = 4, buy_tech_bulk = 3, buy_tech_bulk_max = 3, buy_two_different = 6, buy_green = 4;
  std::array<int, 2> buy_green_bulk{};
  int sell_tech = 6, capacity_price = 4, propulsion_price = 2, exchange_max = 2;
  int money6_self = 6, money6_others = 2;
  std::array<RewardPrice, 3> reward_level{};  // reward_l1..l3
  // scoring
  int green_vp = 3, money_per_vp = 5, objective_discard_money = 5;
  // [phase - 1][level - 1]
  std::array<std::array<TechRequirement, kNumLevels>, 2> tech_requirements{};
  // space station
  int num_station_spaces = 0;
  std::array<int, kMaxStationSpaces> station_cost{};
  std::array<uint32_t, kMaxPlayers + 1> station_blocked_mask{};  // by number of players
  int station_final_cost = 12, station_vp = 5, station_vp_per_mission = 1;
  // cards
  std::vector<SpecialistCard> specialists;
  std::vector<MissionType> missions;  // level 1 types first, then 2, 3, 4
  std::vector<ObjectiveCard> objectives;

  int specialist_index(const std::string& id) const;  // -1 if unknown
  int mission_index(const std::string& id) const;
  int objective_index(const std::string& id) const;
  bool specialist_in_game(int card, int num_players) const {
    return specialists[static_cast<std::size_t>(card)].marker <= num_players;
  }
};

// Reads and validates the whole config; every problem is a ConfigError
// naming the file, line and key.
Config load_config(const ConfigNode& root);

}  // namespace rocketgym::lift_off
