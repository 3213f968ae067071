// ApiOperations' routes of the record (docs/ledger.md): the audit log, a
// balance's ledger, and the hand adjustment and the balance made by hand
// that write to both.
#include "services/engine/ApiOperations.h"

#include "services/engine/AuditedWrite.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/ledger/BalanceAdjuster.h"
#include "services/engine/ledger/BalanceCreator.h"
#include "services/engine/ledger/BalanceLedger.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {
const QString ReadScope = u"balances:read"_s;
} // namespace

api::Result<api::Page<api::AuditEntry>>
ApiOperations::listAuditLog(const KeyContext &key, const api::AuditLogRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return AuditTrail::list(db, key.scope, request); });
}

api::Result<api::Page<api::LedgerEntry>>
ApiOperations::listLedger(const KeyContext &key, const api::LedgerRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    if (auto current = upToDate(key, request.customerId); !current)
        return current.error();
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return BalanceLedger::list(db, key.scope, request); });
}

api::Result<api::LedgerEntry> ApiOperations::adjustBalance(const KeyContext &key,
                                                           const api::BalanceAdjustment &request)
{
    if (const auto denied = key.missingScope(u"balances:write"_s))
        return *denied;
    // A reset due first: an adjustment made before it would be undone by it.
    if (auto current = upToDate(key, std::nullopt, request.balanceId); !current)
        return current.error();
    using api::JsonValue;
    api::Decimal before;
    return AuditedWrite::run<api::LedgerEntry>(
        m_engine, key, {u"balance.adjust"_s, u"balance"_s, request.balanceId},
        [&](const QSqlDatabase &db) -> api::Result<JsonValue> {
            auto remaining = BalanceAdjuster::remaining(db, key.scope, request.balanceId);
            if (!remaining)
                return remaining.error();
            before = remaining.value();
            return JsonValue::object({{"remaining"_L1, before}});
        },
        [&](const QSqlDatabase &db) {
            return BalanceAdjuster::adjust(db, m_engine.dialect(), key.scope, request,
                                           m_engine.now(key.scope));
        },
        [&](const api::LedgerEntry &entry) {
            return JsonValue::object(
                {{"remaining"_L1, before.plus(request.amount).value_or(before)},
                 {"adjustment"_L1, request.amount},
                 {"reason"_L1, request.reason},
                 {"ledger_id"_L1, entry.id}});
        });
}

api::Result<api::LedgerEntry> ApiOperations::createBalance(const KeyContext &key,
                                                           const api::BalanceCreation &request)
{
    if (const auto denied = key.missingScope(u"balances:write"_s))
        return *denied;
    using api::JsonValue;
    return AuditedWrite::run<api::LedgerEntry>(
        m_engine, key, {u"balance.create"_s, u"balance"_s, QString()},
        [](const QSqlDatabase &) -> api::Result<JsonValue> { return JsonValue::null(); },
        [&](const QSqlDatabase &db) {
            return BalanceCreator::create(db, m_engine.dialect(), key.scope, request,
                                          m_engine.now(key.scope));
        },
        [&](const api::LedgerEntry &entry) {
            return std::pair{
                entry.balanceId,
                JsonValue::object(
                    {{"customer_id"_L1, request.customerId},
                     {"entity_id"_L1,
                      request.entityId ? JsonValue(*request.entityId) : JsonValue::null()},
                     {"feature_id"_L1, request.featureId},
                     {"remaining"_L1, request.amount},
                     {"expires_at"_L1,
                      request.expiresAt ? JsonValue(*request.expiresAt) : JsonValue::null()},
                     {"reason"_L1, request.reason},
                     {"ledger_id"_L1, entry.id}})};
        });
}

} // namespace md::engine
