#include "services/engine/processors/StripeImport.h"

#include "services/engine/processors/StripeAccess.h"

#include <QDateTime>
#include <QUrl>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

QString pathSegment(const QString &id)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

std::optional<QString> linkedSubscription(const api::Billable &billable)
{
    if (billable.processor != api::Processor::Stripe || !billable.link)
        return std::nullopt;
    return billable.link->subscriptionId;
}

qsizetype stripeIdentity(const api::ImportCustomerRequest &request)
{
    for (qsizetype i = 0; i < request.processors.size(); ++i)
        if (request.processors.at(i).type == api::Processor::Stripe)
            return i;
    return -1;
}

} // namespace

QString StripeImport::timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

api::Result<StripeImport::Prepared> StripeImport::prepare(const QSqlDatabase &db,
                                                          const Scope &scope,
                                                          const api::ImportCustomerRequest &request,
                                                          const StripeClient::Options &options)
{
    QList<std::optional<StripeSubscription>> subscriptions;
    QHash<QString, StripeSubscription> read; // a subscription of two plans is read once
    std::optional<StripeClient> client;
    std::optional<QString> account;
    for (qsizetype i = 0; i < request.billables.size(); ++i) {
        const auto id = linkedSubscription(request.billables.at(i));
        if (!id) {
            subscriptions.append(std::nullopt);
            continue;
        }
        if (!client) {
            auto access = StripeAccess::of(db, scope);
            if (!access) {
                ApiError error = access.error();
                error.message = u"billables[%1].link.subscription_id: "_s.arg(i) + error.message;
                return error;
            }
            client = access.value().client(options);
            account = access.value().account;
        }
        if (const auto known = read.constFind(*id); known != read.cend()) {
            subscriptions.append(*known);
            continue;
        }
        StripeClient::Refusal refusal;
        auto object =
            client->get(u"/v1/subscriptions/"_s + pathSegment(*id), {}, account, &refusal);
        if (!object && refusal.status == 404)
            return ApiError::notFound(
                api::ErrorCode::NotFound,
                u"billables[%1].link.subscription_id: Stripe has no subscription \"%2\" in this "
                "account (Stripe says: %3)"_s.arg(i)
                    .arg(*id, refusal.message));
        if (!object)
            return object.error();
        auto subscription = StripeSubscription::read(object.value());
        if (!subscription)
            return subscription.error();
        read.insert(*id, subscription.value());
        subscriptions.append(subscription.value());
    }
    if (!client)
        return Prepared{request, QList<ImportTerms>(request.billables.size()),
                        QList<QList<api::ProcessorDifference>>(request.billables.size())};
    // The customer: the one the body names, else the first subscription's.
    const qsizetype named = stripeIdentity(request);
    QString customerId = named >= 0 ? request.processors.at(named).id : QString();
    for (const auto &subscription : std::as_const(subscriptions))
        if (customerId.isEmpty() && subscription)
            customerId = subscription->customer;
    StripeClient::Refusal refusal;
    auto customer =
        client->get(u"/v1/customers/"_s + pathSegment(customerId), {}, account, &refusal);
    const QString path = named >= 0 ? u"processors[%1].id"_s.arg(named) : u"processors"_s;
    if (!customer && refusal.status == 404)
        return ApiError::notFound(api::ErrorCode::NotFound,
                                  u"%1: Stripe has no customer \"%2\" in this account (Stripe "
                                  "says: %3)"_s.arg(path, customerId, refusal.message));
    if (!customer)
        return customer.error();
    if (customer.value().value("deleted"_L1).toBool())
        return ApiError::invalidInputs(
            path, u"Stripe customer \"%1\" is deleted; it cannot be imported"_s.arg(customerId));
    api::CustomerData stripeCustomer;
    if (const QString name = customer.value().value("name"_L1).toString(); !name.isEmpty())
        stripeCustomer.name = name;
    if (const QString email = customer.value().value("email"_L1).toString(); !email.isEmpty())
        stripeCustomer.email = email;
    return reconcile(request, subscriptions, stripeCustomer);
}

api::Result<StripeImport::Prepared>
StripeImport::reconcile(const api::ImportCustomerRequest &request,
                        const QList<std::optional<StripeSubscription>> &subscriptions,
                        const api::CustomerData &stripeCustomer)
{
    Prepared prepared{request, QList<ImportTerms>(request.billables.size()),
                      QList<QList<api::ProcessorDifference>>(request.billables.size())};
    api::ImportCustomerRequest &out = prepared.request;
    qsizetype named = stripeIdentity(request);
    for (qsizetype i = 0; i < request.billables.size(); ++i) {
        if (!subscriptions.value(i))
            continue;
        const StripeSubscription &stripe = *subscriptions.at(i);
        if (named < 0) { // recorded as Stripe says
            out.processors.append({api::Processor::Stripe, stripe.customer});
            named = out.processors.size() - 1;
        } else if (out.processors.at(named).id != stripe.customer) {
            return ApiError::invalidInputs(
                u"billables[%1].link.subscription_id"_s.arg(i),
                u"Stripe subscription \"%1\" belongs to customer \"%2\", not \"%3\" (processors[%4].id)"_s
                    .arg(stripe.id, stripe.customer, out.processors.at(named).id)
                    .arg(named));
        }
        api::Billable &billable = out.billables[i];
        QList<api::ProcessorDifference> &differences = prepared.differences[i];
        const QString at = u"billables[%1]."_s.arg(i);
        const auto differ = [&](const QString &field, const QString &requested,
                                const QString &said) {
            if (requested != said)
                differences.append({at + field, requested, said});
        };
        const api::PlanStatus status = stripe.planStatus();
        if (billable.plan.status)
            differ(u"plan.status"_s, api::toWire(*billable.plan.status).toString(),
                   api::toWire(status).toString());
        billable.plan.status = status;
        if (billable.plan.startedAt)
            differ(u"plan.started_at"_s, timeText(*billable.plan.startedAt),
                   timeText(stripe.startedAt));
        billable.plan.startedAt = stripe.startedAt;
        if (billable.billingCycleAnchor)
            differ(u"billing_cycle_anchor"_s, timeText(*billable.billingCycleAnchor),
                   timeText(stripe.billingCycleAnchor));
        billable.billingCycleAnchor = stripe.billingCycleAnchor;
        const StripeSubscription::Item *item = stripe.itemFor(billable.plan.planId);
        if (item) {
            const api::Decimal quantity = api::Decimal::fromInteger(item->quantity);
            if (billable.plan.quantity)
                differ(u"plan.quantity"_s, billable.plan.quantity->toString(), quantity.toString());
            billable.plan.quantity = quantity;
            // A price whose metadata names its Meterdesk plan says which
            // plan it is; the body's plan is imported, the difference shown.
            if (!item->meterdeskPlanId.isEmpty())
                differ(u"plan.plan_id"_s, billable.plan.planId, item->meterdeskPlanId);
        }
        prepared.terms[i] = {stripe.status == "trialing"_L1 ? stripe.trialEnd : std::nullopt,
                             stripe.endsAt(), stripe.canceledAt};
    }
    if (named >= 0 && (stripeCustomer.name || stripeCustomer.email)) {
        api::CustomerData &data =
            out.customerData.emplace(request.customerData.value_or(api::CustomerData()));
        if (!data.name)
            data.name = stripeCustomer.name;
        if (!data.email)
            data.email = stripeCustomer.email;
    }
    return prepared;
}

} // namespace md::engine
