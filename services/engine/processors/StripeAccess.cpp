#include "services/engine/processors/StripeAccess.h"

#include "services/engine/processors/ProcessorKeys.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

api::Result<StripeAccess> StripeAccess::of(const QSqlDatabase &db, const Scope &scope)
{
    auto organization = queryRows(
        db,
        u"SELECT slug, master_org_pk, %1_account_id FROM organizations WHERE pk = ?"_s.arg(
            scope.envWord()),
        {scope.orgPk});
    if (!organization)
        return organization.error();
    if (organization.value().isEmpty())
        return ApiError::internal(u"the key's organization is gone"_s);
    const QVariantList row = organization.value().first();
    if (row.at(1).isNull()) {
        auto own = ProcessorKeys::secret(db, scope);
        if (!own)
            return own.error().status == 404
                       ? ApiError{404, api::ErrorCode::NotFound,
                                  u"reading Stripe needs the organization's %1 secret key; "
                                  "connect it with `meterdesk-server processors connect --org %2 "
                                  "--env %1 --secret-file FILE`"_s.arg(scope.envWord(),
                                                                       row.at(0).toString())}
                       : own.error();
        return StripeAccess{own.value(), std::nullopt};
    }
    if (row.at(2).toString().isEmpty())
        return ApiError{404, api::ErrorCode::NotFound,
                        u"organization \"%1\" has no %2 Stripe account linked; the platform "
                        "links one (POST /v1/platform/organizations/stripe)"_s.arg(
                            row.at(0).toString(), scope.envWord())};
    auto platform = ProcessorKeys::secret(db, {row.at(1).toLongLong(), scope.env});
    if (!platform)
        return platform.error().status == 404
                   ? ApiError{404, api::ErrorCode::NotFound,
                              u"organization \"%1\" reads Stripe with its platform's %2 secret "
                              "key, and the platform has none connected"_s.arg(row.at(0).toString(),
                                                                               scope.envWord())}
                   : platform.error();
    return StripeAccess{platform.value(), row.at(2).toString()};
}

} // namespace md::engine
