#include "models/import/StripePriceMapping.h"

#include "models/common/AmountFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSettings>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

const QString SettingsGroup = u"import/stripePrices"_s;
constexpr qint64 ReviewRenewalMs = 3LL * 24 * 3600 * 1000;

bool ended(const api::StripeSubscriptionInfo &s)
{
    return s.planStatus == api::PlanStatus::Canceled || s.planStatus == api::PlanStatus::Expired;
}

} // namespace

QList<StripePrice>
StripePriceMapping::prices(const QList<api::StripeSubscriptionInfo> &subscriptions,
                           const QHash<QString, QString> &productNames,
                           const QHash<QString, QString> &plans,
                           const QHash<QString, QString> &saved)
{
    QMap<QString, StripePrice> found; // by price id, so the list reads in order
    for (const api::StripeSubscriptionInfo &s : subscriptions)
        for (const api::StripeItemInfo &item : s.items) {
            StripePrice &price = found[item.priceId];
            ++price.subscriptions;
            if (!price.priceId.isEmpty())
                continue;
            price.priceId = item.priceId;
            price.productName = productNames.value(item.productId, item.productId);
            if (plans.contains(item.meterdeskPlanId)) {
                price.plan = item.meterdeskPlanId;
                price.match = StripePrice::Match::Metadata;
            } else if (plans.contains(item.lookupKey)) {
                price.plan = item.lookupKey;
                price.match = StripePrice::Match::LookupKey;
            } else if (const auto kept = saved.constFind(item.priceId);
                       kept != saved.cend() && (kept->isEmpty() || plans.contains(*kept))) {
                price.plan = *kept;
                price.match = StripePrice::Match::Saved;
            } else {
                for (auto plan = plans.cbegin(); plan != plans.cend(); ++plan)
                    if (plan.value().compare(price.productName, Qt::CaseInsensitive) == 0) {
                        price.plan = plan.key();
                        price.match = StripePrice::Match::ProductName;
                    }
            }
        }
    return found.values();
}

StripePriceMapping::Bodies
StripePriceMapping::bodies(const QList<api::StripeSubscriptionInfo> &subscriptions,
                           const QHash<QString, QString> &mapping, qint64 nowMs)
{
    Bodies out;
    QMap<QString, QList<const api::StripeSubscriptionInfo *>> byCustomer;
    for (const api::StripeSubscriptionInfo &s : subscriptions) {
        const bool mapped = std::any_of(s.items.cbegin(), s.items.cend(), [&](const auto &item) {
            return !mapping.value(item.priceId).isEmpty();
        });
        if (ended(s) || !mapped) {
            ++out.leftOut;
            continue;
        }
        byCustomer[s.customerId].append(&s);
    }
    for (auto customer = byCustomer.cbegin(); customer != byCustomer.cend(); ++customer) {
        QJsonArray billables;
        QStringList why;
        for (const api::StripeSubscriptionInfo *s : customer.value()) {
            for (const api::StripeItemInfo &item : s->items) {
                const QString plan = mapping.value(item.priceId);
                if (!plan.isEmpty())
                    billables.append(
                        QJsonObject{{u"processor"_s, u"stripe"_s},
                                    {u"link"_s, QJsonObject{{u"subscription_id"_s, s->id}}},
                                    {u"plan"_s, QJsonObject{{u"plan_id"_s, plan}}}});
            }
            if (s->planStatus == api::PlanStatus::PastDue)
                why.append(tr("%1 is %2").arg(s->id, s->status));
            if (s->endsAt)
                why.append(tr("%1 ends %2").arg(s->id, formatDate(*s->endsAt)));
            else if (s->currentPeriodEnd && *s->currentPeriodEnd - nowMs < ReviewRenewalMs)
                why.append(tr("%1 renews %2").arg(s->id, formatDate(*s->currentPeriodEnd)));
        }
        if (billables.size() > 1)
            why.append(tr("on %n plan(s)", "", int(billables.size())));
        const QJsonObject body{
            {u"customer_id"_s, customer.key()},
            {u"processors"_s,
             QJsonArray{QJsonObject{{u"type"_s, u"stripe"_s}, {u"id"_s, customer.key()}}}},
            {u"billables"_s, billables}};
        out.jsonLines += QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n';
        if (!why.isEmpty())
            out.review.insert(customer.key(), why.join(u"; "_s));
        ++out.customers;
    }
    return out;
}

QHash<QString, QString> StripePriceMapping::saved()
{
    QSettings settings;
    settings.beginGroup(SettingsGroup);
    QHash<QString, QString> mapping;
    for (const QString &price : settings.childKeys())
        mapping.insert(price, settings.value(price).toString());
    return mapping;
}

void StripePriceMapping::save(const QList<StripePrice> &prices)
{
    QSettings settings;
    settings.beginGroup(SettingsGroup);
    for (const StripePrice &price : prices)
        settings.setValue(price.priceId, price.plan);
}

} // namespace md::models
