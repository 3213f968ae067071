#include "services/engine/workspace/BalanceLoader.h"

#include "services/api/Balance.h"
#include "services/api/WireCodec.h"
#include "services/engine/clock/BalanceClock.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonReader;

api::Result<api::Done> BalanceLoader::load(const JsonReader &balance, const Scope &scope,
                                           qint64 customerPk,
                                           const QHash<QString, qint64> &entities,
                                           const QHash<QString, qint64> &customerProducts)
{
    balance.object();
    const JsonReader idReader = balance.field("id"_L1);
    const QString id = nonEmptyId(idReader);
    const JsonReader featureReader = balance.field("feature_id"_L1);
    const QString featureId = featureReader.string();
    if (balance.ok() && !m_state.features.contains(featureId))
        featureReader.fail(u"feature \"%1\" is not defined in this environment"_s.arg(featureId));
    const JsonReader cpReader = balance.field("customer_product_id"_L1);
    const std::optional<QString> cpId =
        cpReader.isMissing() ? std::nullopt : cpReader.nullableString();
    if (balance.ok() && cpId && !customerProducts.contains(*cpId))
        cpReader.fail(
            u"customer product \"%1\" is not one of this customer's products"_s.arg(*cpId));
    const JsonReader entityReader = balance.field("entity_id"_L1);
    const std::optional<QString> entityId =
        entityReader.isMissing() ? std::nullopt : entityReader.nullableString();
    if (balance.ok() && entityId && !entities.contains(*entityId))
        entityReader.fail(u"entity \"%1\" is not one of this customer's entities"_s.arg(*entityId));
    const api::Decimal included = balance.field("included_grant"_L1).nonNegativeDecimal();
    const api::Decimal prepaid = balance.field("prepaid_grant"_L1).nonNegativeDecimal();
    const api::Decimal remaining = balance.field("remaining"_L1).decimal();
    const api::Decimal usage = balance.field("usage"_L1).nonNegativeDecimal();
    const bool unlimited = balance.field("unlimited"_L1).optBoolean().value_or(false);
    const bool overage = balance.field("overage_allowed"_L1).optBoolean().value_or(false);
    const JsonReader resetReader = balance.field("reset"_L1);
    std::optional<api::Reset> reset;
    if (!resetReader.isMissingOrNull())
        reset = api::Reset::read(resetReader);
    const JsonReader priceReader = balance.field("price"_L1);
    std::optional<api::Price> price;
    if (!priceReader.isMissingOrNull())
        price = api::Price::read(priceReader);
    const JsonReader expiresReader = balance.field("expires_at"_L1);
    const std::optional<qint64> expiresAt =
        expiresReader.isMissing() ? std::nullopt : expiresReader.nullableInteger();
    const qint64 createdAt = balance.field("created_at"_L1).integer();
    // The billing clock's fields (docs/workspace-format.md), all optional.
    const JsonReader anchorReader = balance.field("reset_anchor"_L1);
    const std::optional<qint64> resetAnchor =
        anchorReader.isMissing() ? std::nullopt : anchorReader.nullableInteger();
    const JsonReader ruleReader = balance.field("rollover"_L1);
    std::optional<api::RolloverRule> rule;
    if (!ruleReader.isMissingOrNull())
        rule = api::RolloverRule::read(ruleReader);
    const JsonReader expiredReader = balance.field("expired_at"_L1);
    const std::optional<qint64> expiredAt =
        expiredReader.isMissing() ? std::nullopt : expiredReader.nullableInteger();
    const QList<api::Rollover> rollovers =
        balance.field("rollovers"_L1).isMissing()
            ? QList<api::Rollover>()
            : api::readList<api::Rollover>(balance.field("rollovers"_L1));
    MD_CHECK(balance)
    if (m_state.balanceIds.contains(id))
        idReader.fail(u"balance \"%1\" appears twice"_s.arg(id));
    MD_CHECK(balance)
    m_state.balanceIds.insert(id);
    const bool planExpired =
        cpId && m_state.expiredProducts.contains(customerProducts.value(*cpId));
    ClockedBalance clocked;
    clocked.interval = reset ? reset->interval : api::ResetInterval::OneOff;
    clocked.resetsAt = reset ? reset->resetsAt : std::nullopt;
    clocked.standalone = !cpId;
    clocked.expiresAt = expiresAt;
    clocked.expired = expiredAt.has_value();
    clocked.rollovers = rollovers;
    // Nothing falls due for a balance whose plan ended.
    const std::optional<qint64> dueAt = planExpired ? std::nullopt : BalanceClock::dueAt(clocked);
    auto pk = m_state.key(u"balances"_s);
    if (!pk)
        return pk.error();
    if (auto added = m_state.add(
            u"balances"_s, {pk.value(),
                            id,
                            scope.orgPk,
                            scope.envWord(),
                            customerPk,
                            entityId ? QVariant(entities.value(*entityId)) : QVariant(),
                            m_state.features.value(featureId),
                            cpId ? QVariant(customerProducts.value(*cpId)) : QVariant(),
                            included.toString(),
                            prepaid.toString(),
                            remaining.toString(),
                            usage.toString(),
                            int(unlimited),
                            int(overage),
                            reset ? QVariant(QString(api::toWire(reset->interval))) : QVariant(),
                            reset ? orNull(reset->intervalCount) : QVariant(),
                            reset ? orNull(reset->resetsAt) : QVariant(),
                            price ? QVariant(storedText(*price)) : QVariant(),
                            orNull(expiresAt),
                            createdAt,
                            orNull(resetAnchor ? resetAnchor : clocked.resetsAt),
                            rule ? QVariant(storedText(*rule)) : QVariant(),
                            orNull(expiredAt),
                            orNull(dueAt),
                            int(cpId ? planExpired : expiredAt.has_value())});
        !added)
        return added.error();
    ++m_state.summary.balances;
    for (const api::Rollover &rollover : rollovers) {
        auto rolloverPk = m_state.key(u"rollovers"_s);
        if (!rolloverPk)
            return rolloverPk.error();
        if (auto added = m_state.add(u"rollovers"_s,
                                     {rolloverPk.value(), pk.value(), rollover.granted.toString(),
                                      rollover.balance.toString(), rollover.expiresAt});
            !added)
            return added.error();
    }
    return opening(scope, customerPk, featureId, id, remaining, usage, rollovers,
                   planExpired || expiredAt);
}

api::Result<api::Done> BalanceLoader::opening(const Scope &scope, qint64 customerPk,
                                              const QString &featureId, const QString &balanceId,
                                              api::Decimal remaining, api::Decimal usage,
                                              const QList<api::Rollover> &rollovers, bool expired)
{
    api::BalanceRow row;
    row.remaining = remaining;
    row.rollovers = rollovers;
    const api::Decimal held = BalanceLedger::held(row);
    const auto add = [&](const QString &kind, api::Decimal amount, api::Decimal after,
                         api::Decimal used) -> api::Result<api::Done> {
        auto pk = m_state.key(u"ledger"_s);
        if (!pk)
            return pk.error();
        return m_state.add(u"ledger"_s, {pk.value(), scope.orgPk, scope.envWord(), customerPk,
                                         m_state.features.value(featureId), balanceId, m_state.now,
                                         kind, amount.toString(), after.toString(), used.toString(),
                                         u"workspace.load"_s});
    };
    if (auto added = add(u"import"_s, held, held, usage); !added || !expired)
        return added;
    return add(u"expiry"_s, held.negated(), api::Decimal(), api::Decimal());
}

} // namespace md::engine
