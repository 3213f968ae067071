// What a priced row that never resets owes (docs/billing.md, "Rows that
// never reset"): its usage past the grant not billed yet. Each statement
// that closes bills what was used past the grant since the last one (the
// first of a catch-up takes it all), as the difference of what the whole
// usage comes to and what the usage billed before came to, so tiers apply
// to the whole and the lines add up to what the whole comes to.
// charges.preview shows it as the open period's so far.
#pragma once

#include "services/api/Balance.h"
#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/charges/Money.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>

namespace md::engine {

class OneOffCharges final
{
public:
    struct Row
    {
        qint64 customerPk = 0;
        QString balanceId;
        QString featureId;
        std::optional<QString> planId;
        std::optional<QString> entityId;
        api::Price price;
        api::Decimal usage;
        api::Decimal grant;
        api::Decimal billedPast; // past the grant, billed by earlier statements
    };

    // These customers' priced rows that never reset, expired ones too (what
    // was used before the end is owed), by customer and key.
    static api::Result<QList<Row>> read(const QSqlDatabase &db, Dialect dialect,
                                        const QList<qint64> &customerPks);

    // The line of what is owed and not billed yet, or none.
    static api::Result<std::optional<api::ChargeLine>> line(const Row &row, const Money &money);
};

} // namespace md::engine
