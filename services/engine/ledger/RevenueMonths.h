// revenue_months (docs/billing.md, "Revenue"): what closed statements came
// to, by the UTC month their period starts in, product, feature and kind,
// in minor units of the currency (charges/Money). Kept by the transaction
// that closes the statements (statements/StatementCloser), so
// revenue.summary reads a few rows a month, not every statement; `workspace
// verify` (LedgerVerifier) adds the statements up again to check it.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <map>
#include <tuple>

namespace md::engine {

class RevenueMonths final
{
public:
    // (org, env, month, product, feature, kind): '' for no product or no feature.
    using Key = std::tuple<qint64, QString, qint64, QString, QString, QString>;

    void add(const Scope &scope, qint64 month, const api::ChargeLine &line, qint64 minor);
    const std::map<Key, qint64> &sums() const { return m_sums; }

    // Adds these sums to the kept rows.
    api::Result<api::Done> write(const QSqlDatabase &db) const;

    // Every statement added up again, in batches: what `workspace verify`
    // compares with the kept rows. A damaged statement is a 500.
    static api::Result<RevenueMonths> recount(const QSqlDatabase &db);
    // The kept rows as they are.
    static api::Result<RevenueMonths> kept(const QSqlDatabase &db);
    // Where the kept rows and the statements disagree, one line each.
    static api::Result<QStringList> differences(const QSqlDatabase &db);

private:
    std::map<Key, qint64> m_sums;
};

} // namespace md::engine
