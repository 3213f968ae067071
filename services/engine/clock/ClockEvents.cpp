#include "services/engine/clock/ClockEvents.h"

#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString ResetType = u"balances.reset"_s;
const QString ExpiredType = u"balances.expired"_s;

// One event: a reset's two entries (usage back to zero, then the grant)
// are one reset of one balance at one moment.
struct Told
{
    const BalanceLedger::Entry *first = nullptr;
    api::Decimal amount;
    api::Decimal balanceAfter;
};

// The ids of some customers' or features' keys.
api::Result<QHash<qint64, QString>> idsOf(const QSqlDatabase &db, Dialect dialect,
                                          const QString &table, const QList<qint64> &pks)
{
    QVariantList binds;
    auto rows = queryRows(
        db, u"SELECT pk, id FROM %1 WHERE "_s.arg(table) + inKeys(dialect, u"pk"_s, pks, binds),
        binds);
    if (!rows)
        return rows.error();
    QHash<qint64, QString> ids;
    for (const QVariantList &row : std::as_const(rows.value()))
        ids.insert(row.at(0).toLongLong(), row.at(1).toString());
    return ids;
}

} // namespace

api::Result<api::Done> ClockEvents::tell(const QSqlDatabase &db, Dialect dialect,
                                         const QList<BalanceLedger::Entry> &entries, qint64 nowMs,
                                         KeyAllocator *keys)
{
    // By environment, then in the order the clock wrote them.
    std::map<std::pair<qint64, QString>, QList<const BalanceLedger::Entry *>> byScope;
    for (const BalanceLedger::Entry &entry : entries)
        if (entry.kind == "reset"_L1 || entry.kind == "expiry"_L1)
            byScope[{entry.scope.orgPk, entry.scope.envWord()}].append(&entry);
    for (const auto &[key, scoped] : byScope) {
        Scope scope = scoped.first()->scope;
        scope.keyPk = 0;
        WebhookOutbox outbox(db, dialect, scope, nowMs, keys);
        auto resets = outbox.wants(ResetType);
        if (!resets)
            return resets.error();
        auto expiries = outbox.wants(ExpiredType);
        if (!expiries)
            return expiries.error();
        if (!resets.value() && !expiries.value())
            continue;
        QList<std::tuple<QString, QString, qint64>> order; // balance, kind, moment
        std::map<std::tuple<QString, QString, qint64>, Told> told;
        QList<qint64> customers;
        QList<qint64> features;
        for (const BalanceLedger::Entry *entry : scoped) {
            if (entry->kind == "reset"_L1 ? !resets.value() : !expiries.value())
                continue;
            const auto id = std::tuple{entry->balanceId, entry->kind, entry->at.value_or(nowMs)};
            auto [it, added] = told.try_emplace(id, Told{entry, {}, {}});
            if (added) {
                order.append(id);
                customers.append(entry->customerPk);
                features.append(entry->featurePk);
            }
            it->second.amount = it->second.amount.runningSum(entry->amount);
            it->second.balanceAfter = entry->balanceAfter;
        }
        if (order.isEmpty())
            continue;
        auto customerIds = idsOf(db, dialect, u"customers"_s, customers);
        if (!customerIds)
            return customerIds.error();
        auto featureIds = idsOf(db, dialect, u"features"_s, features);
        if (!featureIds)
            return featureIds.error();
        for (const auto &id : std::as_const(order)) {
            const Told &one = told.at(id);
            const bool reset = std::get<1>(id) == "reset"_L1;
            using api::JsonValue;
            const JsonValue data = JsonValue::object(
                {{"customer_id"_L1,
                  JsonValue::string(customerIds.value().value(one.first->customerPk))},
                 {"feature_id"_L1,
                  JsonValue::string(featureIds.value().value(one.first->featurePk))},
                 {"balance_id"_L1, JsonValue::string(one.first->balanceId)},
                 {"at"_L1, JsonValue::number(std::get<2>(id))},
                 {reset ? "amount"_L1 : "expired"_L1, reset ? one.amount : one.amount.negated()},
                 {"remaining"_L1, one.balanceAfter}});
            if (auto added = outbox.add(reset ? ResetType : ExpiredType, data); !added)
                return added.error();
        }
    }
    return api::Done{};
}

} // namespace md::engine
