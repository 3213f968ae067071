#include "services/engine/workspace/WorkspaceTables.h"

namespace md::engine {

using namespace Qt::StringLiterals;

const QList<WorkspaceTable> &WorkspaceTable::all()
{
    static const QList<WorkspaceTable> tables{
        {u"organizations"_s,
         {u"pk"_s, u"id"_s, u"slug"_s, u"name"_s, u"master_org_pk"_s, u"test_secret_connected"_s,
          u"live_secret_connected"_s, u"test_account_id"_s, u"live_account_id"_s, u"linked_at"_s,
          u"created_at"_s}},
        {u"processor_access"_s, {u"org_pk"_s, u"env"_s, u"account_id"_s}},
        {u"api_keys"_s,
         {u"pk"_s, u"org_pk"_s, u"env"_s, u"prefix"_s, u"hash"_s, u"scopes"_s, u"name"_s,
          u"created_at"_s}},
        {u"features"_s,
         {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"name"_s, u"type"_s, u"default_markup"_s,
          u"created_at"_s}},
        {u"credit_markups"_s, {u"feature_pk"_s, u"provider"_s, u"model"_s, u"markup"_s}},
        {u"products"_s,
         {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"version"_s, u"name"_s, u"group_name"_s,
          u"is_add_on"_s, u"is_default"_s, u"archived"_s, u"items"_s, u"free_trial"_s,
          u"created_at"_s}},
        {u"customers"_s,
         {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"name"_s, u"email"_s, u"fingerprint"_s,
          u"metadata"_s, u"send_email_receipts"_s, u"disable_pooled_balance"_s,
          u"disable_overage_billing"_s, u"created_at"_s}},
        {u"customer_processors"_s, {u"customer_pk"_s, u"type"_s, u"external_id"_s}},
        {u"entities"_s,
         {u"pk"_s, u"customer_pk"_s, u"id"_s, u"feature_id"_s, u"name"_s, u"created_at"_s}},
        {u"customer_products"_s,
         {u"pk"_s, u"id"_s, u"customer_pk"_s, u"product_pk"_s, u"processor"_s, u"subscription_id"_s,
          u"schedule_id"_s, u"status"_s, u"quantity"_s, u"started_at"_s, u"current_period_start"_s,
          u"current_period_end"_s, u"trial_ends_at"_s, u"canceled_at"_s, u"expires_at"_s,
          u"created_at"_s}},
        {u"balances"_s,
         {u"pk"_s,
          u"id"_s,
          u"org_pk"_s,
          u"env"_s,
          u"customer_pk"_s,
          u"entity_pk"_s,
          u"feature_pk"_s,
          u"customer_product_pk"_s,
          u"included_grant"_s,
          u"prepaid_grant"_s,
          u"remaining"_s,
          u"usage"_s,
          u"unlimited"_s,
          u"overage_allowed"_s,
          u"reset_interval"_s,
          u"reset_interval_count"_s,
          u"resets_at"_s,
          u"price"_s,
          u"expires_at"_s,
          u"created_at"_s}},
        {u"rollovers"_s, {u"pk"_s, u"balance_pk"_s, u"granted"_s, u"balance"_s, u"expires_at"_s}},
        {u"rewards"_s,
         {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"kind"_s, u"record"_s, u"created_at"_s}},
        {u"promo_codes"_s, {u"org_pk"_s, u"env"_s, u"code"_s, u"reward_pk"_s}},
        {u"billing_controls"_s, {u"customer_pk"_s, u"entity_pk"_s, u"controls"_s, u"updated_at"_s}},
        {u"usage_events"_s,
         {u"pk"_s, u"org_pk"_s, u"env"_s, u"customer_pk"_s, u"entity_pk"_s, u"feature_pk"_s,
          u"model_id"_s, u"tokens"_s, u"value"_s, u"properties"_s, u"timestamp"_s,
          u"idempotency_key"_s, u"created_at"_s}},
    };
    return tables;
}

} // namespace md::engine
