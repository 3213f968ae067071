#include "services/engine/workspace/StatementLoader.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/charges/Money.h"
#include "services/engine/charges/UsageCharge.h"
#include "services/engine/sql/StoredJson.h"

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonReader;

namespace {

// A line with its amount in whole minor units, as the engine writes them
// (docs/billing.md, "Money is exact"); the reader fails on one that is not.
api::ChargeLine lineOf(const JsonReader &reader, const Money &money)
{
    api::ChargeLine line = api::ChargeLine::read(reader);
    if (reader.ok() && UsageCharges::rounded(line.amount, money.minorDigits()) != line.amount)
        reader.field("amount"_L1)
            .fail(u"must be in whole minor units of %1 (%2 decimals), as every line's amount is"
                  " rounded"_s.arg(money.code())
                      .arg(money.minorDigits()));
    return line;
}

QList<api::ChargeLine> linesOf(const JsonReader &reader, const Money &money)
{
    QList<api::ChargeLine> lines;
    for (const JsonReader &line : reader.array())
        lines.append(lineOf(line, money));
    return lines;
}

} // namespace

api::Result<api::Done> StatementLoader::load(const JsonReader &customer, const Scope &scope,
                                             qint64 customerPk, std::optional<qint64> openFrom)
{
    QSet<qint64> starts;
    for (const JsonReader &statement :
         customer.field("statements"_L1).optArray().value_or(QList<JsonReader>()))
        if (auto loaded = this->statement(statement, scope, customerPk, openFrom, starts); !loaded)
            return loaded.error();
    QSet<QString> seen;
    for (const JsonReader &line :
         customer.field("charge_lines"_L1).optArray().value_or(QList<JsonReader>()))
        if (auto loaded = chargeLine(line, scope, customerPk, seen); !loaded)
            return loaded.error();
    return api::Done{};
}

api::Result<api::Done> StatementLoader::statement(const JsonReader &statement, const Scope &scope,
                                                  qint64 customerPk, std::optional<qint64> openFrom,
                                                  QSet<qint64> &starts)
{
    statement.object();
    const JsonReader startReader = statement.field("period_start"_L1);
    const qint64 start = startReader.integer();
    const JsonReader endReader = statement.field("period_end"_L1);
    const qint64 end = endReader.integer();
    const JsonReader currencyReader = statement.field("currency"_L1);
    const QString currency = currencyReader.string();
    const QList<api::ChargeLine> lines = linesOf(statement.field("lines"_L1), m_state.money);
    const qint64 closedAt = statement.field("closed_at"_L1).integer();
    if (statement.ok() && end <= start)
        endReader.fail(u"must be after period_start (%1)"_s.arg(start));
    else if (statement.ok() && openFrom && end > *openFrom)
        endReader.fail(u"must not pass the open period's start, statement_from (%1): a closed"
                       " period ends before the open one begins"_s.arg(*openFrom));
    if (statement.ok() && currency != m_state.money.code())
        currencyReader.fail(
            u"must be \"%1\", the organization's currency"_s.arg(m_state.money.code()));
    if (statement.ok() && starts.contains(start))
        startReader.fail(
            u"a second statement for the period from %1: a period closes once"_s.arg(start));
    MD_CHECK(statement)
    starts.insert(start);
    std::map<api::ChargeKind, qint64> byKind;
    const qint64 month = api::BillingPeriod::containing(api::ResetInterval::Month, 0, start).first;
    for (const api::ChargeLine &line : lines) {
        auto minor = m_state.money.minorOf(line.amount);
        if (!minor)
            return minor.error();
        byKind[line.kind] += minor.value();
        m_state.revenue.add(scope, month, line, minor.value());
    }
    if (auto total = Money::total(lines); !total)
        return total.error();
    auto pk = m_state.key(u"statements"_s);
    if (!pk)
        return pk.error();
    return m_state.add(u"statements"_s,
                       {pk.value(), scope.orgPk, scope.envWord(), customerPk, start, end, currency,
                        storedText(lines), byKind[api::ChargeKind::Fixed],
                        byKind[api::ChargeKind::Usage], byKind[api::ChargeKind::Prepaid],
                        byKind[api::ChargeKind::Credits], closedAt});
}

api::Result<api::Done> StatementLoader::chargeLine(const JsonReader &line, const Scope &scope,
                                                   qint64 customerPk, QSet<QString> &seen)
{
    line.object();
    const JsonReader atReader = line.field("at"_L1);
    const qint64 at = atReader.integer();
    const QString balanceId = nonEmptyId(line.field("balance_id"_L1));
    const bool advance = line.field("advance"_L1).optBoolean().value_or(false);
    const api::ChargeLine charge = lineOf(line.field("line"_L1), m_state.money);
    // The table's key: one line per reset (or purchase) of a row.
    const QString key = u"%1/%2/%3"_s.arg(at).arg(int(advance)).arg(balanceId);
    if (line.ok() && seen.contains(key))
        atReader.fail(
            u"a second line of balance %1 at %2: a reset bills once"_s.arg(balanceId).arg(at));
    MD_CHECK(line)
    seen.insert(key);
    auto pk = m_state.key(u"charge_lines"_s);
    if (!pk)
        return pk.error();
    return m_state.add(u"charge_lines"_s, {pk.value(), scope.orgPk, scope.envWord(), customerPk, at,
                                           balanceId, storedText(charge), int(advance)});
}

} // namespace md::engine
