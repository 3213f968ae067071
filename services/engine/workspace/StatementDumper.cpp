#include "services/engine/workspace/StatementDumper.h"

#include "services/engine/workspace/DumpRows.h"

namespace md::engine {

using namespace dump;

api::Result<api::Done> StatementDumper::dump(const QSqlDatabase &db, qint64 orgPk,
                                             const QString &env,
                                             QHash<qint64, JsonValue> &statements,
                                             QHash<qint64, JsonValue> &chargeLines)
{
    const QVariantList binds{orgPk, env};
    MD_TRY(eachRow(db,
                   u"SELECT customer_pk, period_start, period_end, currency, lines, closed_at"
                   " FROM statements WHERE org_pk = ? AND env = ?"
                   " ORDER BY customer_pk, period_start"_s,
                   binds, [&](const QSqlQuery &q) {
                       statements[q.value(0).toLongLong()].append(
                           JsonValue::object({{"period_start"_L1, q.value(1).toLongLong()},
                                              {"period_end"_L1, q.value(2).toLongLong()},
                                              {"currency"_L1, q.value(3).toString()},
                                              {"lines"_L1, stored(q.value(4))},
                                              {"closed_at"_L1, q.value(5).toLongLong()}}));
                   }))
    MD_TRY(eachRow(db,
                   u"SELECT customer_pk, at, balance_id, advance, line FROM charge_lines"
                   " WHERE org_pk = ? AND env = ? ORDER BY customer_pk, at, advance, pk"_s,
                   binds, [&](const QSqlQuery &q) {
                       chargeLines[q.value(0).toLongLong()].append(
                           JsonValue::object({{"at"_L1, q.value(1).toLongLong()},
                                              {"balance_id"_L1, q.value(2).toString()},
                                              {"advance"_L1, q.value(3).toInt() != 0},
                                              {"line"_L1, stored(q.value(4))}}));
                   }))
    return api::Done{};
}

} // namespace md::engine
