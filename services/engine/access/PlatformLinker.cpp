#include "services/engine/access/PlatformLinker.h"

#include "services/engine/processors/ProcessorKeys.h"
#include "services/engine/sql/Sql.h"

#include <QUrl>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

ApiError notFound(const QString &message)
{
    return ApiError{404, api::ErrorCode::NotFound, message};
}

// The tenant's key and id, when the platform made it.
api::Result<QVariantList> tenantOf(const QSqlDatabase &db, const Scope &platform,
                                   const api::LinkOrganizationRequest &request)
{
    auto tenant = queryRows(db, u"SELECT pk, id, master_org_pk FROM organizations WHERE slug = ?"_s,
                            {request.organizationSlug});
    if (!tenant)
        return tenant.error();
    // Another platform's tenant reads exactly like one that does not exist.
    if (tenant.value().isEmpty() || tenant.value().first().at(2).isNull() ||
        tenant.value().first().at(2).toLongLong() != platform.orgPk)
        return notFound(u"organization_slug: this platform created no organization \"%1\""_s.arg(
            request.organizationSlug));
    return tenant.value().first();
}

} // namespace

api::Result<api::Done> PlatformLinker::reachable(const QSqlDatabase &db, const Scope &platform,
                                                 const api::LinkOrganizationRequest &request,
                                                 const StripeClient::Options &stripe)
{
    // A live account moves real money: only a live key may link one
    // (docs/api.md, "Platform links"); a live key may link both.
    if (request.liveAccountId && platform.env != Environment::Production)
        return ApiError{403, api::ErrorCode::LiveKeyRequired,
                        u"live_account_id: linking a live Stripe account needs a live key; this "
                        "key is a test key"_s};
    auto tenant = tenantOf(db, platform, request);
    if (!tenant)
        return tenant.error();
    for (const auto &[account, env] : {std::pair(request.testAccountId, Environment::Sandbox),
                                       std::pair(request.liveAccountId, Environment::Production)}) {
        if (!account)
            continue;
        const QString word = environmentWord(env);
        auto key = ProcessorKeys::secret(db, {platform.orgPk, env});
        if (!key && key.error().status == 404)
            return notFound(u"%1_account_id: the platform has no %1 Stripe secret key connected; "
                            "connect it before linking %1 accounts (meterdesk-server processors "
                            "connect --env %1)"_s.arg(word));
        if (!key)
            return key.error();
        // The master account must reach the account (rule 3): Stripe says.
        StripeClient::Refusal refusal;
        auto found = StripeClient(key.value(), stripe)
                         .get(u"/v1/accounts/%1"_s.arg(
                                  QString::fromLatin1(QUrl::toPercentEncoding(*account))),
                              {}, std::nullopt, &refusal);
        if (!found && (refusal.status == 403 || refusal.status == 404))
            return notFound(u"%1_account_id: the platform's %1 Stripe account cannot access "
                            "\"%2\"; connect it to the platform first (Stripe says: %3)"_s.arg(
                                word, *account, refusal.message));
        if (!found)
            return found.error();
    }
    return api::Done{};
}

api::Result<api::LinkOrganizationResponse>
PlatformLinker::link(const QSqlDatabase &db, Dialect dialect, const Scope &platform,
                     const api::LinkOrganizationRequest &request, qint64 nowMs)
{
    // Links are rare: one at a time, so two tenants cannot take one account
    // at once (SQLite's writer lock does this already).
    if (dialect == Dialect::Postgres)
        if (auto locked = queryRows(db, u"SELECT pg_advisory_xact_lock(764001)"_s, {}); !locked)
            return locked.error();
    auto tenant = tenantOf(db, platform, request);
    if (!tenant)
        return tenant.error();
    const struct
    {
        const std::optional<QString> &account;
        QString env;
    } accounts[] = {{request.testAccountId, u"test"_s}, {request.liveAccountId, u"live"_s}};
    const qint64 tenantPk = tenant.value().first().toLongLong();
    // One payment account, one tenant: its charges must have one owner.
    for (const auto &[account, env] : accounts) {
        if (!account)
            continue;
        auto owner = queryRows(
            db, u"SELECT slug FROM organizations WHERE %1_account_id = ? AND pk <> ?"_s.arg(env),
            {*account, tenantPk});
        if (!owner)
            return owner.error();
        if (!owner.value().isEmpty())
            return ApiError{409, api::ErrorCode::AccountAlreadyLinked,
                            u"%1_account_id: \"%2\" is linked to another organization already; "
                            "one Stripe account belongs to one tenant"_s.arg(env, *account)};
    }
    if (auto updated =
            execute(db,
                    u"UPDATE organizations SET test_account_id = COALESCE(?, test_account_id),"
                    " live_account_id = COALESCE(?, live_account_id), linked_at = ? WHERE pk = ?"_s,
                    {request.testAccountId ? QVariant(*request.testAccountId) : QVariant(),
                     request.liveAccountId ? QVariant(*request.liveAccountId) : QVariant(), nowMs,
                     tenantPk});
        !updated)
        return updated.error();
    QStringList linked;
    if (request.testAccountId)
        linked.append(u"test account %1"_s.arg(*request.testAccountId));
    if (request.liveAccountId)
        linked.append(u"live account %1"_s.arg(*request.liveAccountId));
    return api::LinkOrganizationResponse{
        u"Organization \"%1\" is linked to Stripe (%2)"_s.arg(request.organizationSlug,
                                                              linked.join(u", "_s)),
        {tenant.value().at(1).toString(), request.organizationSlug}};
}

} // namespace md::engine
