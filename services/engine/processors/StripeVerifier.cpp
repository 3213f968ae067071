#include "services/engine/processors/StripeVerifier.h"

#include "services/engine/customers/LinkedPlans.h"
#include "services/engine/processors/StripeAccess.h"
#include "services/engine/processors/StripeImport.h"
#include "services/engine/processors/StripeSubscription.h"

#include <QJsonArray>
#include <QSet>
#include <QUrl>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

using Subscriptions = QHash<QString, StripeSubscription>;

api::Result<Subscriptions> readEach(const StripeClient &client,
                                    const std::optional<QString> &account, const QSet<QString> &ids)
{
    Subscriptions found;
    for (const QString &id : ids) {
        StripeClient::Refusal refusal;
        auto object =
            client.get(u"/v1/subscriptions/"_s + QString::fromLatin1(QUrl::toPercentEncoding(id)),
                       {}, account, &refusal);
        if (!object && refusal.status == 404)
            continue; // gone: listed as a difference
        if (!object)
            return object.error();
        auto read = StripeSubscription::read(object.value());
        if (!read)
            return read.error();
        found.insert(id, read.value());
    }
    return found;
}

api::Result<Subscriptions> readAll(const StripeClient &client,
                                   const std::optional<QString> &account, const QSet<QString> &ids)
{
    Subscriptions found;
    std::optional<api::ApiError> problem;
    QUrlQuery query;
    query.addQueryItem(u"status"_s, u"all"_s);
    auto listed = client.list(u"/v1/subscriptions"_s, query, account, [&](const QJsonArray &page) {
        for (const QJsonValue &value : page) {
            const QString id = value.toObject().value("id"_L1).toString();
            if (!ids.contains(id))
                continue;
            auto read = StripeSubscription::read(value.toObject());
            if (!read) {
                problem = read.error();
                return false;
            }
            found.insert(id, read.value());
        }
        return true;
    });
    if (!listed)
        return listed.error();
    if (problem)
        return *problem;
    return found;
}

} // namespace

api::Result<api::ProcessorsVerifyResponse>
StripeVerifier::verify(const QSqlDatabase &db, const Scope &scope,
                       const api::ProcessorsVerifyRequest &request,
                       const StripeClient::Options &options)
{
    auto plans = LinkedPlans::inForce(db, scope, request.customerIds);
    if (!plans)
        return plans.error();
    api::ProcessorsVerifyResponse response;
    response.checked = plans.value().size();
    if (plans.value().isEmpty())
        return response;
    auto access = StripeAccess::of(db, scope);
    if (!access)
        return access.error();
    const StripeClient client = access.value().client(options);
    QSet<QString> ids;
    for (const LinkedPlan &plan : std::as_const(plans.value()))
        ids.insert(plan.subscriptionId);
    auto stripe = ids.size() <= ReadEachUpTo ? readEach(client, access.value().account, ids)
                                             : readAll(client, access.value().account, ids);
    if (!stripe)
        return stripe.error();
    for (const LinkedPlan &plan : std::as_const(plans.value())) {
        const auto differ = [&](const QString &field, const QString &meterdesk,
                                const QString &said) {
            if (meterdesk != said)
                response.differences.append(
                    {plan.customerId, plan.subscriptionId, plan.planId, field, meterdesk, said});
        };
        const auto found = stripe.value().constFind(plan.subscriptionId);
        if (found == stripe.value().cend()) {
            differ(u"subscription"_s, plan.subscriptionId, u"(none)"_s);
            continue;
        }
        differ(u"status"_s, plan.status, api::toWire(found->planStatus()).toString());
        const auto period = [&](const QString &field, qint64 meterdesk,
                                const std::optional<qint64> &said) {
            if (said && std::abs(*said - meterdesk) >= PeriodToleranceMs)
                differ(field, StripeImport::timeText(meterdesk), StripeImport::timeText(*said));
        };
        period(u"current_period_start"_s, plan.periodStart, found->currentPeriodStart);
        period(u"current_period_end"_s, plan.periodEnd, found->currentPeriodEnd);
        if (const StripeSubscription::Item *item = found->itemFor(plan.planId)) {
            differ(u"quantity"_s, QString::number(plan.quantity), QString::number(item->quantity));
            if (!item->meterdeskPlanId.isEmpty())
                differ(u"plan_id"_s, plan.planId, item->meterdeskPlanId);
        } else {
            differ(u"plan_id"_s, plan.planId, u"(no item for it)"_s);
        }
    }
    return response;
}

} // namespace md::engine
