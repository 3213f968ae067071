// What customers owe in their open billing periods so far (docs/billing.md,
// "What a customer owes so far"): the period's fixed prices, the lines its
// resets already wrote, each priced row's usage since its last reset when
// that reset closes within the period, and what rows that never reset have
// used past their grant and not been billed for. charges.preview reads
// one customer's; revenue.summary's include_open, many in batches.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/charges/Money.h"
#include "services/engine/sql/Dialect.h"

#include <QHash>
#include <QSqlDatabase>

namespace md::engine {

struct OpenPeriod
{
    qint64 customerPk = 0;
    qint64 start = 0;
    qint64 end = 0;
};

class OpenCharges final
{
public:
    // The currency an organization's charges are in (organizations.currency);
    // 500 for a stored code that is not one.
    static api::Result<Money> moneyOf(const QSqlDatabase &db, qint64 orgPk);

    // Each customer's lines, in order: fixed prices, reset lines, open usage.
    static api::Result<QHash<qint64, QList<api::ChargeLine>>>
    lines(const QSqlDatabase &db, Dialect dialect, const QList<OpenPeriod> &periods, qint64 nowMs,
          const Money &money);
};

} // namespace md::engine
