// The workspace the token-ledger tests share: one customer ("cy") with four
// AI-credit rows and a rollover (22 dollars in all), one ("two") with two
// credit systems, one ("none") with none, and a catalogue where one input
// token costs exactly one dollar.
#pragma once

#include "tests/engine/EngineFixture.h"

#include <QByteArray>

namespace md::test::ledger {

// One customer with four AI-credit rows and a rollover, in no particular file order.
inline const QByteArray Workspace =
    R"({"format":"meterdesk-workspace","version":1,"organizations":[{
 "id":"org_l","slug":"ledger","name":"Ledger","created_at":1,
 "api_keys":[{"env":"test","secret":"sk_test_ledger000000000000000000000000","scopes":["*"],"created_at":1}],
 "test":{
  "features":[{"id":"ai","name":"AI","type":"credit_system","created_at":1,
               "credit_system":{"default_markup":null,"markups":[]}},
              {"id":"ai2","name":"AI two","type":"credit_system","created_at":1}],
  "products":[{"id":"pro","name":"Pro","version":1,"is_add_on":false,"is_default":false,
               "items":[{"feature_id":"ai"}],"created_at":1}],
  "customers":[
   {"id":"cy","created_at":1,
    "products":[{"id":"cp_cy","plan_id":"pro","status":"active","started_at":1,"created_at":1}],
    "balances":[
     {"id":"standalone_forever","feature_id":"ai","included_grant":0,"prepaid_grant":5,"remaining":5,"usage":0,"created_at":10},
     {"id":"standalone_expiring","feature_id":"ai","included_grant":0,"prepaid_grant":5,"remaining":5,"usage":0,
      "expires_at":4102444800000,"created_at":11},
     {"id":"plan_monthly","feature_id":"ai","customer_product_id":"cp_cy","included_grant":5,"prepaid_grant":0,
      "remaining":5,"usage":0,"reset":{"interval":"month","resets_at":4102444800000},"created_at":12,
      "rollovers":[{"granted":2,"balance":2,"expires_at":4102444800000}]},
     {"id":"plan_daily","feature_id":"ai","customer_product_id":"cp_cy","included_grant":5,"prepaid_grant":0,
      "remaining":5,"usage":0,"reset":{"interval":"day","resets_at":4102444800000},"created_at":13}]},
   {"id":"two","created_at":1,
    "balances":[{"id":"t1","feature_id":"ai","included_grant":0,"prepaid_grant":1,"remaining":1,"usage":0,"created_at":1},
                {"id":"t2","feature_id":"ai2","included_grant":0,"prepaid_grant":1,"remaining":1,"usage":0,"created_at":1}]},
   {"id":"none","created_at":1}]}}]})";

// A catalogue where one input token costs exactly one dollar.
inline const QByteArray Prices =
    R"({"providers":{"test":{"models":{"dollar":{"cost":{"input":1000000,"output":0}}}}}})";

// Loads Workspace and the Prices catalogue into the fixture's engine and
// answers the scope of the workspace's key; nullopt when that failed.
inline std::optional<engine::Scope> open(EngineFixture &fixture)
{
    if (!fixture.engine->loadWorkspace(jsonValue(Workspace)).ok())
        return std::nullopt;
    auto catalogue = engine::PriceCatalogue::fromJson(Prices);
    if (!catalogue)
        return std::nullopt;
    fixture.engine->setCatalogue(std::make_shared<engine::PriceCatalogue>(catalogue.value()));
    auto key =
        fixture.engine->authenticate(QStringLiteral("sk_test_ledger000000000000000000000000"));
    return key ? std::optional(key.value().scope) : std::nullopt;
}

} // namespace md::test::ledger
