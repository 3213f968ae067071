#include "services/engine/customers/LinkedPlans.h"

#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<QList<LinkedPlan>> LinkedPlans::inForce(const QSqlDatabase &db, const Scope &scope,
                                                    const std::optional<QStringList> &customerIds)
{
    QString sql =
        u"SELECT c.id, cp.subscription_id, p.id, cp.status, cp.quantity,"
        " cp.current_period_start, cp.current_period_end FROM customer_products cp"
        " JOIN customers c ON c.pk = cp.customer_pk JOIN products p ON p.pk = cp.product_pk"
        " WHERE c.org_pk = ? AND c.env = ? AND cp.processor = 'stripe'"
        " AND cp.subscription_id IS NOT NULL AND cp.status <> 'expired'"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (customerIds) {
        if (customerIds->isEmpty())
            return QList<LinkedPlan>();
        sql += u" AND c.id IN (%1)"_s.arg(QStringList(customerIds->size(), u"?"_s).join(u','));
        for (const QString &id : *customerIds)
            binds << id;
    }
    auto rows = queryRows(db, sql + u" ORDER BY c.id, cp.pk"_s, binds);
    if (!rows)
        return rows.error();
    QList<LinkedPlan> plans;
    plans.reserve(rows.value().size());
    for (const QVariantList &row : std::as_const(rows.value()))
        plans.append({row.at(0).toString(), row.at(1).toString(), row.at(2).toString(),
                      row.at(3).toString(), row.at(4).toLongLong(), row.at(5).toLongLong(),
                      row.at(6).toLongLong()});
    return plans;
}

} // namespace md::engine
