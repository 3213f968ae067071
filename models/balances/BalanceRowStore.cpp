#include "models/balances/BalanceRowStore.h"

namespace md::models {

qint32 BalanceRowStore::intern(const QString &text)
{
    auto found = m_stringIndex.constFind(text);
    if (found != m_stringIndex.cend())
        return *found;
    const auto index = qint32(m_strings.size());
    m_strings.append(text);
    m_stringIndex.insert(text, index);
    return index;
}

template <typename T> qint32 BalanceRowStore::internShared(QList<T> &list, const T &value)
{
    // Prices and rollover rules repeat across customers; the few distinct
    // ones are scanned.
    for (qsizetype i = list.size() - 1; i >= 0 && i >= list.size() - 64; --i)
        if (list.at(i) == value)
            return qint32(i);
    list.append(value);
    return qint32(list.size() - 1);
}

void BalanceRowStore::append(const api::BalanceRow &row)
{
    Row compact;
    compact.id = row.id;
    compact.includedGrant = row.includedGrant;
    compact.prepaidGrant = row.prepaidGrant;
    compact.remaining = row.remaining;
    compact.usage = row.usage;
    compact.createdAt = row.createdAt;
    compact.hasExpiry = row.expiresAt.has_value();
    compact.expiresAt = row.expiresAt.value_or(0);
    compact.customer = intern(row.customerId);
    compact.feature = intern(row.featureId);
    compact.entity = row.entityId ? intern(*row.entityId) : -1;
    compact.plan = row.planId ? intern(*row.planId) : -1;
    compact.price = row.price ? internShared(m_prices, *row.price) : -1;
    if (!row.rollovers.isEmpty()) {
        compact.rollovers = qint32(m_rollovers.size());
        m_rollovers.append(row.rollovers);
    }
    if (row.reset) {
        compact.reset = qint8(row.reset->interval);
        compact.hasResetsAt = row.reset->resetsAt.has_value();
        compact.resetsAt = row.reset->resetsAt.value_or(0);
        compact.hasResetCount = row.reset->intervalCount.has_value();
        compact.resetCount = qint32(row.reset->intervalCount.value_or(0));
        if (row.reset->rollover)
            compact.rule = internShared(m_rules, *row.reset->rollover);
    }
    compact.unlimited = row.unlimited;
    compact.expired = row.status == api::BalanceStatus::Expired;
    m_rows.append(std::move(compact));
}

void BalanceRowStore::clear()
{
    m_rows.clear();
    m_strings.clear();
    m_stringIndex.clear();
    m_prices.clear();
    m_rules.clear();
    m_rollovers.clear();
}

qsizetype BalanceRowStore::addToRemaining(const QString &id, api::Decimal amount)
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).id == id) {
            Row &row = m_rows[i];
            row.remaining = row.remaining.plus(amount).value_or(row.remaining);
            return i;
        }
    return -1;
}

api::BalanceRow BalanceRowStore::at(qsizetype index) const
{
    const Row &compact = m_rows.at(index);
    api::BalanceRow row;
    row.id = compact.id;
    row.includedGrant = compact.includedGrant;
    row.prepaidGrant = compact.prepaidGrant;
    row.remaining = compact.remaining;
    row.usage = compact.usage;
    row.createdAt = compact.createdAt;
    if (compact.hasExpiry)
        row.expiresAt = compact.expiresAt;
    row.customerId = m_strings.at(compact.customer);
    row.featureId = m_strings.at(compact.feature);
    if (compact.entity >= 0)
        row.entityId = m_strings.at(compact.entity);
    if (compact.plan >= 0)
        row.planId = m_strings.at(compact.plan);
    if (compact.price >= 0)
        row.price = m_prices.at(compact.price);
    if (compact.rollovers >= 0)
        row.rollovers = m_rollovers.at(compact.rollovers);
    if (compact.reset >= 0) {
        api::Reset reset;
        reset.interval = api::ResetInterval(compact.reset);
        if (compact.hasResetsAt)
            reset.resetsAt = compact.resetsAt;
        if (compact.hasResetCount)
            reset.intervalCount = compact.resetCount;
        if (compact.rule >= 0)
            reset.rollover = m_rules.at(compact.rule);
        row.reset = reset;
    }
    row.unlimited = compact.unlimited;
    row.status = compact.expired ? api::BalanceStatus::Expired : api::BalanceStatus::Active;
    return row;
}

} // namespace md::models
