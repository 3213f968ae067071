// Compact storage for many balance rows: a million rows must fit in a few
// hundred MiB. Ids shared by many rows (customer, entity, feature, plan) are
// stored once, like price configurations and reset intervals; a row keeps
// small indexes and its exact amounts. Rows come back whole on request.
#pragma once

#include "services/api/Balance.h"

#include <QHash>
#include <QList>
#include <QStringList>

namespace md::models {

class BalanceRowStore final
{
public:
    void append(const api::BalanceRow &row);
    void clear();
    qsizetype size() const { return m_rows.size(); }
    api::BalanceRow at(qsizetype index) const;
    // Adds `amount` to the remaining of the row `id` (an adjustment written
    // elsewhere); its index, or -1 when no row has that id.
    qsizetype addToRemaining(const QString &id, api::Decimal amount);

private:
    struct Row
    {
        QString id;
        api::Decimal includedGrant;
        api::Decimal prepaidGrant;
        api::Decimal remaining;
        api::Decimal usage;
        qint64 createdAt = 0;
        qint64 expiresAt = 0;
        qint64 resetsAt = 0;
        qint32 customer = -1;
        qint32 entity = -1;
        qint32 feature = -1;
        qint32 plan = -1;
        qint32 price = -1;
        qint32 rollovers = -1;
        qint32 resetCount = 0;
        qint32 rule = -1; // the reset's rollover rule
        qint8 reset = -1; // ResetInterval, -1 without a reset
        bool unlimited = false;
        bool expired = false;
        bool hasExpiry = false;
        bool hasResetsAt = false;
        bool hasResetCount = false;
    };

    qint32 intern(const QString &text);
    template <typename T> static qint32 internShared(QList<T> &list, const T &value);

    QList<Row> m_rows;
    QStringList m_strings;
    QHash<QString, qint32> m_stringIndex;
    QList<api::Price> m_prices;
    QList<api::RolloverRule> m_rules;
    QList<QList<api::Rollover>> m_rollovers;
};

} // namespace md::models
