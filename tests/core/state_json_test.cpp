// The state-document readers every game shares (envs/core/json.h), checked
// through each registered game's state_from_json: a bad field is refused with
// a SerializationError naming it, never accepted or crashed on.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "envs/core/game.h"
#include "envs/core/json.h"

using namespace rocketgym;
using nlohmann::json;

namespace {

// The error state_from_json gives for a document's text, or a note that it gave none.
std::string refusal_of_text(const AnyGame& game, const std::string& text) {
  try {
    game.state_from_json(text);
  } catch (const SerializationError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string refusal(const AnyGame& game, const json& doc) { return refusal_of_text(game, doc.dump()); }

}  // namespace

TEST_CASE("state documents: a bad 'rng' is refused by every game, naming the generator", "[json]") {
  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    auto game = load_game(id);
    const auto state = game->new_state(game->info().min_players, 11);
    const json good = json::parse(state->to_json());
    REQUIRE(good.contains("rng"));
    REQUIRE_NOTHROW(game->state_from_json(good.dump()));

    json doc = good;
    // The all-zero state: xoshiro256** would draw 0 forever, and a shuffle
    // waiting for another value would never end.
    doc["rng"] = json::array({0, 0, 0, 0});
    CHECK_THAT(refusal(*game, doc), Catch::Contains("'rng' must not be all zeros"));
    doc["rng"] = json::array({1, 2, 3});
    CHECK_THAT(refusal(*game, doc), Catch::Contains("'rng' must be a list of 4 unsigned integers"));
    doc["rng"] = json::array({1, 2, 3, -4});
    CHECK_THAT(refusal(*game, doc), Catch::Contains("'rng' must be a list of 4 unsigned integers"));
    doc["rng"] = json::array({1, 2, 3, "4"});
    CHECK_THAT(refusal(*game, doc), Catch::Contains("'rng' must be a list of 4 unsigned integers"));
    doc["rng"] = "1 2 3 4";
    CHECK_THAT(refusal(*game, doc), Catch::Contains("'rng' must be a list of 4 unsigned integers"));

    // Any four words but zeros are a state the generator can be in: the
    // position loads and plays on from it.
    doc["rng"] = json::array({0, 0, 0, 1});
    auto loaded = game->state_from_json(doc.dump());
    CHECK(json::parse(loaded->to_json())["rng"] == doc["rng"]);
  }
}

TEST_CASE("state documents: every game refuses a document that is not an object or lacks its fields",
          "[json]") {
  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    auto game = load_game(id);
    CHECK_THROWS_AS(game->state_from_json(""), SerializationError);
    CHECK_THROWS_AS(game->state_from_json("null"), SerializationError);
    CHECK_THROWS_AS(game->state_from_json("\"a string\""), SerializationError);
    CHECK_THROWS_AS(game->state_from_json("{\"rng\": [1, 2, 3, 4]"), SerializationError);  // cut short
    // Each top-level field left out in turn: refused with an error naming
    // that field, or (a field with a default) loaded into a valid position.
    const json good = json::parse(game->new_state(game->info().max_players, 5)->to_json());
    for (const auto& item : good.items()) {
      INFO("without " << item.key());
      json doc = good;
      doc.erase(item.key());
      std::unique_ptr<AnyState> loaded;
      try {
        loaded = game->state_from_json(doc.dump());
      } catch (const SerializationError& e) {
        CHECK_THAT(e.what(), Catch::Contains(item.key()));
        continue;
      }
      CHECK_NOTHROW(loaded->check_invariants());
    }
  }
}

namespace {

// `doc` as text with the value of `key` replaced by a list nested `levels` deep.
std::string with_nested_value(json doc, const std::string& key, int levels) {
  doc[key] = "@";
  std::string text = doc.dump();
  text.replace(text.find("\"@\""), 3,
               std::string(static_cast<std::size_t>(levels), '[') +
                   std::string(static_cast<std::size_t>(levels), ']'));
  return text;
}

}  // namespace

TEST_CASE("state documents: every game refuses deep nesting with the limit, never quoting the value",
          "[json]") {
  const std::string limit = "nested more than " + std::to_string(kMaxDocumentDepth) + " levels deep";
  const std::string deep(100000, '[');
  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    auto game = load_game(id);
    // Once a stack overflow: the document nested 100,000 deep, alone or as a field.
    CHECK_THAT(refusal_of_text(*game, deep + std::string(deep.size(), ']')), Catch::Contains(limit));
    const json good = json::parse(game->new_state(game->info().min_players, 3)->to_json());
    for (const auto& item : good.items()) {
      INFO(item.key());
      CHECK_THAT(refusal_of_text(*game, with_nested_value(good, item.key(), 100000)), Catch::Contains(limit));
      // Within the limit, the field is refused by name, its value not quoted.
      const std::string refused =
          refusal_of_text(*game, with_nested_value(good, item.key(), kMaxDocumentDepth - 1));
      CHECK_THAT(refused, Catch::Contains(item.key()) && !Catch::Contains("[["));
    }
  }
}

TEST_CASE("state documents: every game refuses a key given twice in one object, naming it", "[json]") {
  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    auto game = load_game(id);
    const std::string good = game->new_state(game->info().min_players, 3)->to_json();
    const std::string first_key = json::parse(good).begin().key();
    // The first field again, first: nlohmann alone would keep the later value.
    const std::string twice = "{\"" + first_key + "\": 0, " + good.substr(1);
    CHECK_THAT(refusal_of_text(*game, twice),
               Catch::Contains("state document: key '" + first_key + "' is given twice in one object"));
  }
}
