#include "services/engine/statements/StatementCloser.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/charges/Money.h"
#include "services/engine/clock/ResetCharges.h"
#include "services/engine/customers/CustomerPlans.h"
#include "services/engine/customers/OneOffCharges.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/RevenueMonths.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString ClosedType = u"statement.closed"_s;

// Opens the first period of customers that have none: the one holding now.
api::Result<qint64> openFirst(const QSqlDatabase &db, Dialect dialect, const ClockApplier::Due &due,
                              qint64 nowMs, const QList<Scope> &except)
{
    QVariantList binds;
    const QString where = ClockApplier::customersOf(dialect, due, except, binds);
    binds.append(StatementCloser::MaxCustomers);
    auto picked = queryRows(db,
                            u"SELECT c.pk FROM customers c WHERE c.statement_due_at IS NULL"_s +
                                where + u" LIMIT ?"_s,
                            binds);
    if (!picked)
        return picked.error();
    QList<qint64> pks;
    QList<std::pair<qint64, qint64>> atNow;
    for (const QVariantList &row : std::as_const(picked.value())) {
        pks.append(row.at(0).toLongLong());
        atNow.append({pks.last(), nowMs});
    }
    // In key order, as every writer takes them (PostgreSQL).
    if (auto locked = ClockApplier::lockCustomers(db, dialect, pks); !locked)
        return locked.error();
    if (auto opened = CustomerPlans::openFirstPeriods(db, dialect, atNow); !opened)
        return opened.error();
    return qint64(pks.size());
}

struct Customer
{
    qint64 pk = 0;
    Scope scope;
    QString id;
    qint64 from = 0;
    qint64 due = 0;
    Money money;
};

} // namespace

api::Result<bool> StatementCloser::anyDue(const QSqlDatabase &db, Dialect dialect,
                                          const ClockApplier::Due &due, qint64 nowMs)
{
    // Two probes, each one index's: none opened yet, or one ended.
    for (const QString &condition :
         {u"c.statement_due_at IS NULL"_s, u"c.statement_due_at <= ?"_s}) {
        QVariantList binds;
        if (condition.contains(u'?'))
            binds.append(nowMs);
        const QString where = ClockApplier::customersOf(dialect, due, {}, binds);
        auto found = queryRows(
            db, u"SELECT 1 FROM customers c WHERE "_s + condition + where + u" LIMIT 1"_s, binds);
        if (!found)
            return found.error();
        if (!found.value().isEmpty())
            return true;
    }
    return false;
}

api::Result<StatementCloser::Tally> StatementCloser::apply(const QSqlDatabase &db, Dialect dialect,
                                                           const ClockApplier::Due &due,
                                                           qint64 nowMs, const QList<Scope> &except)
{
    Tally tally;
    auto opened = openFirst(db, dialect, due, nowMs, except);
    if (!opened)
        return opened.error();
    tally.opened = opened.value();
    tally.more = tally.opened >= MaxCustomers;

    QVariantList binds{nowMs};
    const QString where = ClockApplier::customersOf(dialect, due, except, binds);
    binds.append(MaxCustomers);
    auto picked = queryRows(db,
                            u"SELECT c.pk FROM customers c WHERE c.statement_due_at <= ?"_s +
                                where + u" ORDER BY c.statement_due_at LIMIT ?"_s,
                            binds);
    if (!picked)
        return picked.error();
    if (picked.value().isEmpty())
        return tally;
    QList<qint64> pks;
    for (const QVariantList &row : std::as_const(picked.value()))
        pks.append(row.at(0).toLongLong());
    tally.more = tally.more || pks.size() >= MaxCustomers;
    if (auto locked = ClockApplier::lockCustomers(db, dialect, pks); !locked)
        return locked.error();
    // Every reset up to now writes its line before a period closes.
    for (;;) {
        ClockApplier::Due theirs;
        theirs.customerPks = pks;
        auto clocked = ClockApplier::apply(db, dialect, theirs, nowMs, u"clock"_s);
        if (!clocked)
            return clocked.error();
        if (clocked.value().balances < ClockApplier::MaxRows)
            break;
    }
    // Read again under the lock: what another server closed is not due.
    QVariantList again;
    const QString which = inKeys(dialect, u"c.pk"_s, pks, again);
    again.append(nowMs);
    auto rows = queryRows(db,
                          u"SELECT c.pk, c.org_pk, c.env, c.id, c.statement_from,"
                          " c.statement_due_at, o.currency FROM customers c"
                          " JOIN organizations o ON o.pk = c.org_pk WHERE "_s +
                              which + u" AND c.statement_due_at <= ? ORDER BY c.pk"_s,
                          again);
    if (!rows)
        return rows.error();
    QList<Customer> customers;
    qint64 earliest = std::numeric_limits<qint64>::max();
    for (const QVariantList &row : std::as_const(rows.value())) {
        Customer c;
        c.pk = row.at(0).toLongLong();
        c.scope = {row.at(1).toLongLong(),
                   environmentFromWord(row.at(2).toString()).value_or(Environment::Sandbox)};
        c.id = row.at(3).toString();
        c.from = row.at(4).toLongLong();
        c.due = row.at(5).toLongLong();
        c.money = Money::of(row.at(6).toString()).value_or(Money());
        earliest = std::min(earliest, c.from);
        customers.append(c);
    }
    QList<qint64> closing;
    for (const Customer &c : std::as_const(customers))
        closing.append(c.pk);
    auto plans = CustomerPlans::of(db, dialect, closing);
    if (!plans)
        return plans.error();
    auto resets = ResetCharges::read(db, dialect, closing, earliest, nowMs);
    if (!resets)
        return resets.error();
    auto oneOff = OneOffCharges::read(db, dialect, closing);
    if (!oneOff)
        return oneOff.error();
    qsizetype nextOneOff = 0;
    QList<ResetCharges::Line> oneOffBilled; // written with the statements
    auto ids = PublicIds::of(db);
    if (!ids)
        return ids.error();

    KeyAllocator keys(db, dialect);
    RevenueMonths revenue;
    struct Told
    {
        std::optional<WebhookOutbox> outbox;
        bool wanted = false;
    };
    std::map<std::pair<qint64, QString>, Told> outboxes;
    qsizetype nextReset = 0;
    for (const Customer &c : std::as_const(customers)) {
        const QList<CustomerPlan> &theirPlans = plans.value()[c.pk];
        qint64 start = c.from;
        qint64 end = c.due;
        // One outbox per environment, asked once whether anyone listens.
        auto [told, made] = outboxes.try_emplace({c.scope.orgPk, c.scope.envWord()});
        if (made) {
            told->second.outbox.emplace(db, dialect, c.scope, nowMs, &keys);
            auto wanted = told->second.outbox->wants(ClosedType);
            if (!wanted)
                return wanted.error();
            told->second.wanted = wanted.value();
        }
        while (end <= nowMs && tally.closed < MaxStatements) {
            auto fixed = CustomerPlans::fixedLines(theirPlans, start, end, c.money.minorDigits());
            if (!fixed)
                return fixed.error();
            QList<api::ChargeLine> lines = std::move(fixed).value();
            // The reset and purchase lines of the period, in the customer's order.
            const QList<ResetCharges::Line> &billed = resets.value();
            while (nextReset < billed.size() && (billed.at(nextReset).customerPk < c.pk ||
                                                 (billed.at(nextReset).customerPk == c.pk &&
                                                  billed.at(nextReset).before(start))))
                ++nextReset;
            while (nextReset < billed.size() && billed.at(nextReset).customerPk == c.pk &&
                   billed.at(nextReset).within(start, end))
                lines.append(billed.at(nextReset++).line);
            // What rows that never reset used past the grant since the last
            // statement: on the first this step closes.
            while (nextOneOff < oneOff.value().size() &&
                   oneOff.value().at(nextOneOff).customerPk <= c.pk) {
                const OneOffCharges::Row &row = oneOff.value().at(nextOneOff++);
                if (row.customerPk != c.pk)
                    continue;
                auto line = OneOffCharges::line(row, c.money);
                if (!line)
                    return line.error();
                if (!line.value())
                    continue;
                lines.append(*line.value());
                oneOffBilled.append({c.scope, c.pk, end, row.balanceId, *line.value(), false});
            }
            auto total = Money::total(lines);
            if (!total)
                return total.error();
            std::map<api::ChargeKind, qint64> byKind;
            const qint64 month =
                api::BillingPeriod::containing(api::ResetInterval::Month, 0, start).first;
            for (const api::ChargeLine &line : std::as_const(lines)) {
                auto minor = c.money.minorOf(line.amount);
                if (!minor)
                    return minor.error();
                byKind[line.kind] += minor.value();
                revenue.add(c.scope, month, line, minor.value());
            }
            auto pk = keys.next(u"statements"_s);
            if (!pk)
                return pk.error();
            if (auto added = execute(
                    db,
                    u"INSERT INTO statements (pk, org_pk, env, customer_pk, period_start,"
                    " period_end, currency, lines, fixed_minor, usage_minor, prepaid_minor,"
                    " credits_minor, closed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                    {pk.value(), c.scope.orgPk, c.scope.envWord(), c.pk, start, end, c.money.code(),
                     storedText(lines), byKind[api::ChargeKind::Fixed],
                     byKind[api::ChargeKind::Usage], byKind[api::ChargeKind::Prepaid],
                     byKind[api::ChargeKind::Credits], nowMs});
                !added)
                return added.error();
            ++tally.closed;
            if (told->second.wanted) {
                using api::JsonValue;
                const JsonValue data = JsonValue::object(
                    {{"statement_id"_L1,
                      JsonValue::string(ids.value().make(PublicIds::Kind::Statement, pk.value()))},
                     {"customer_id"_L1, JsonValue::string(c.id)},
                     {"period_start"_L1, JsonValue::number(start)},
                     {"period_end"_L1, JsonValue::number(end)},
                     {"currency"_L1, JsonValue::string(c.money.code())},
                     {"total"_L1, total.value()}});
                if (auto sent = told->second.outbox->add(ClosedType, data); !sent)
                    return sent.error();
            }
            // The next period starts where this one ended, whatever the
            // plans did meanwhile: no gap, no overlap.
            const qint64 next = CustomerPlans::periodAt(theirPlans, end).second;
            start = end;
            end = next;
        }
        tally.more = tally.more || end <= nowMs;
        if (auto moved = execute(db,
                                 u"UPDATE customers SET statement_from = ?, statement_due_at = ?"
                                 " WHERE pk = ? AND statement_due_at = ?"_s,
                                 {start, end, c.pk, c.due});
            !moved)
            return moved.error();
    }
    if (auto written = ResetCharges::write(db, oneOffBilled, keys); !written)
        return written.error();
    if (auto kept = revenue.write(db); !kept)
        return kept.error();
    return tally;
}

} // namespace md::engine
