// Launch Pad card types, zones and the card-data config (configs/games/launch_pad.yaml).
//
// Cards of one type are interchangeable (ruling 1), so a hand or a pile is
// described by card types; a card's "id" in this engine is its type.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "envs/core/config.h"
#include "envs/core/returns.h"

namespace rocketgym::launch_pad {

constexpr int kMaxPlayers = 4;
constexpr int kNumZones = 3;
constexpr int kMaxRocketSlots = 24;  // rocket slots per player; the default deck has 21 rockets
constexpr int kMaxCards = 160;       // capacity of every pile; the default deck has 140 cards

// The three Game Zones, in the order a rocket advances through them.
enum Zone : int { kConstructionZone = 0, kQualityControlZone = 1, kLaunchZone = 2 };

// The 32 card types, grouped by kind in Card Reference order. The order is
// part of the action ids and observations: append, never reorder.
// clang-format off
enum Card : int {
  // rockets
  kObserver, kExplorer, kIntrepid, kGalactic,
  // components
  kMetal, kFuel,
  // experts
  kEngineer, kInspector, kMissionController, kJackOfAllTrades,
  // bonus cards
  kAstronaut, kMaximumSecurity, kOxygen, kQualityCertificate,
  // the game clock
  kLaunchPad,
  // action cards
  kAbortMission, kBigRedButton, kBudgetCuts, kFastTrack, kPartsSupplier, kQualityCheck, kRecruitment,
  kRecycleBin, kSabotage, kSalvage, kSurplus, kThief, kVacuum,
  // specialty cards
  kEmployeeContract, kOvertime, kSecuritySystem, kWarehouse,
  kNumCardTypes
};
// clang-format on

constexpr int kNumRocketKinds = 4;
constexpr int kNumBonusTypes = 4;      // Astronaut, Maximum Security, Oxygen, Quality Certificate
constexpr int kNumSpecialtyTypes = 4;  // Employee Contract, Overtime, Security System, Warehouse

inline bool is_rocket(int c) { return c >= kObserver && c <= kGalactic; }
inline bool is_expert(int c) { return c >= kEngineer && c <= kJackOfAllTrades; }
inline bool is_bonus(int c) { return c >= kAstronaut && c <= kQualityCertificate; }
inline bool is_action_card(int c) { return c >= kAbortMission && c <= kVacuum; }
inline bool is_specialty(int c) { return c >= kEmployeeContract && c <= kWarehouse; }
inline int bonus_index(int c) { return c - kAstronaut; }
inline int specialty_index(int c) { return c - kEmployeeContract; }

const char* card_name(int card);            // rulebook words: "Mission Controller"
const char* card_key(int card);             // config / JSON key: "mission_controller"
int card_from_key(const std::string& key);  // -1 if unknown
const char* zone_name(int zone);            // "Construction Zone"
const char* zone_key(int zone);             // "construction"
int zone_from_key(const std::string& key);  // -1 if unknown

struct RocketSpec {
  int metal = 0;
  int fuel = 0;
  int points = 0;
};

// Card data, scoring table and variant switches. Immutable once loaded.
struct Config {
  std::array<int, kNumCardTypes> count{};  // copies of each card type in the deck
  std::array<RocketSpec, kNumRocketKinds> rocket{};
  int hand_limit = 6;
  int warehouse_hand_limit = 8;
  // Scoring table (rockets score their printed points).
  int astronaut_with_oxygen = 4;
  int astronaut_without_oxygen = -4;
  int certificate_in_launch_zone = 3;
  int no_mission_controller = -10;
  // Optional rules.
  bool short_game = false;
  bool long_game = false;
  bool super_powers = false;
  bool negotiations = false;
  RewardMode reward = RewardMode::kRank;

  int total_cards() const;
};

// Reads the YAML config; any bad key or value is a ConfigError naming file:line:key.
Config load_config(const ConfigNode& root);

}  // namespace rocketgym::launch_pad
