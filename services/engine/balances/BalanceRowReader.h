// Balance rows read from a statement whose columns are BalanceRowReader's
// (BalanceLister): over Qt SQL (QtRows) or SQLite's own API
// (SqliteStatement), which offer the same few accessors.
#pragma once

#include "services/api/Balance.h"
#include "services/api/Result.h"

#include <QHash>
#include <QSqlQuery>

namespace md::engine {

// A Qt SQL query with SqliteStatement's accessors.
class QtRows final
{
public:
    explicit QtRows(QSqlQuery &query)
        : m_query(query)
    {}
    api::Result<bool> next() { return m_query.next(); }
    void finish() { m_query.finish(); }
    bool isNull(int column) const { return m_query.value(column).isNull(); }
    qint64 integer(int column) const { return m_query.value(column).toLongLong(); }
    QVariant value(int column) const { return m_query.value(column); }
    QString text(int column) const { return m_query.value(column).toString(); }
    QByteArray utf8(int column) const { return text(column).toUtf8(); }
    api::Decimal amount(int column) const
    {
        return api::Decimal::parse(text(column)).value_or(api::Decimal());
    }

private:
    QSqlQuery &m_query;
};

class BalanceRowReader final
{
public:
    // The SELECT list every reader's statement starts with: a balance with
    // its ids, status and one rollover (further rows of the same balance
    // carry the others), then its entity and feature keys and its rollover rule.
    static const QString &columns();

    // Column 0 is the balance's key, 1 its customer's.
    template <typename Rows> static qint64 balanceKey(const Rows &rows) { return rows.integer(0); }
    template <typename Rows> static qint64 customerKey(const Rows &rows) { return rows.integer(1); }
    template <typename Rows> static std::optional<qint64> entityKey(const Rows &rows)
    {
        return rows.isNull(22) ? std::nullopt : std::optional(rows.integer(22));
    }
    template <typename Rows> static qint64 featureKey(const Rows &rows) { return rows.integer(23); }

    template <typename Rows> static api::Rollover rollover(const Rows &rows)
    {
        return {rows.amount(19), rows.amount(20), rows.integer(21)};
    }

    template <typename Rows> api::Result<api::BalanceRow> read(const Rows &rows)
    {
        api::BalanceRow row;
        row.id = rows.text(2);
        row.customerId = rows.text(3);
        row.entityId = text(rows, 4);
        row.featureId = rows.text(5);
        row.planId = text(rows, 6);
        row.includedGrant = rows.amount(7);
        row.prepaidGrant = rows.amount(8);
        row.remaining = rows.amount(9);
        row.usage = rows.amount(10);
        row.unlimited = rows.integer(11) != 0;
        if (!rows.isNull(12)) {
            api::Reset reset;
            reset.interval =
                api::resetIntervalFromWire(rows.text(12)).value_or(api::ResetInterval::Multiple);
            reset.intervalCount = integer(rows, 13);
            reset.resetsAt = integer(rows, 14);
            if (!rows.isNull(24)) {
                auto rule = rolloverRule(rows.utf8(24), row.id);
                if (!rule)
                    return rule.error();
                reset.rollover = rule.value();
            }
            row.reset = reset;
        }
        if (!rows.isNull(15)) {
            auto price = this->price(rows.utf8(15), row.id);
            if (!price)
                return price.error();
            row.price = price.value();
        }
        row.expiresAt = integer(rows, 16);
        row.createdAt = rows.integer(17);
        row.status =
            rows.integer(18) != 0 ? api::BalanceStatus::Expired : api::BalanceStatus::Active;
        if (!rows.isNull(21))
            row.rollovers.append(rollover(rows));
        return row;
    }

    // Reads the balances of `rows`, at most `limit`: `keep(rows, row)` stores
    // each and returns the stored one, to which the balance's further rows
    // add their rollovers. True when a balance was left unread (the page is
    // full).
    template <typename Rows, typename Keep>
    api::Result<bool> readAll(Rows &rows, qsizetype limit, Keep &&keep)
    {
        api::BalanceRow *last = nullptr; // valid until the next keep()
        qint64 lastKey = 0;
        qsizetype taken = 0;
        for (;;) {
            auto more = rows.next();
            if (!more)
                return more.error();
            if (!more.value())
                break;
            const qint64 key = balanceKey(rows);
            if (last && key == lastKey) {
                last->rollovers.append(rollover(rows));
                continue;
            }
            if (taken == limit) {
                rows.finish();
                return true;
            }
            auto row = read(rows);
            if (!row)
                return row.error();
            last = &keep(rows, std::move(row.value()));
            lastKey = key;
            ++taken;
        }
        rows.finish();
        return false;
    }

private:
    template <typename Rows> static std::optional<QString> text(const Rows &rows, int column)
    {
        return rows.isNull(column) ? std::nullopt : std::optional(rows.text(column));
    }
    template <typename Rows> static std::optional<qint64> integer(const Rows &rows, int column)
    {
        return rows.isNull(column) ? std::nullopt : std::optional(rows.integer(column));
    }
    // Rows of one plan share a price and a rollover rule: each text is decoded
    // once per reader.
    api::Result<api::Price> price(const QByteArray &stored, const QString &balanceId);
    api::Result<api::RolloverRule> rolloverRule(const QByteArray &stored, const QString &balanceId);

    QHash<QByteArray, api::Price> m_prices;
    QHash<QByteArray, api::RolloverRule> m_rules;
};

} // namespace md::engine
