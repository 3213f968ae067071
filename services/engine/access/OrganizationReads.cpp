#include "services/engine/access/OrganizationReads.h"

#include "services/api/WireCodec.h"
#include "services/engine/balances/BalanceLister.h"
#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/ids/KeysetPage.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

api::Result<api::Page<api::OrganizationInfo>>
OrganizationReads::organizations(const QSqlDatabase &db, qint64 orgPk)
{
    auto query = runSql(db,
                        u"SELECT o.id, o.slug, o.name, m.id, o.test_account_id, o.live_account_id"
                        " FROM organizations o LEFT JOIN organizations m ON m.pk = o.master_org_pk"
                        " WHERE o.pk = ? OR o.master_org_pk = ? ORDER BY o.pk"_s,
                        {orgPk, orgPk});
    if (!query)
        return query.error();
    api::Page<api::OrganizationInfo> result;
    while (query.value().next()) {
        const QSqlQuery &q = query.value();
        result.list.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                            optionalText(q.value(3)), optionalText(q.value(4)),
                            optionalText(q.value(5))});
    }
    return result;
}

} // namespace md::engine
