#include "services/engine/processors/StripeListing.h"

#include "services/engine/processors/StripeAccess.h"
#include "services/engine/processors/StripeSubscription.h"

#include <QJsonArray>

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<api::StripeSubscriptionsPage>
StripeListing::page(const QSqlDatabase &db, const Scope &scope,
                    const api::StripeSubscriptionsRequest &request,
                    const StripeClient::Options &options)
{
    auto access = StripeAccess::of(db, scope);
    if (!access)
        return access.error();
    const StripeClient client = access.value().client(options);
    QUrlQuery query;
    query.addQueryItem(u"status"_s, u"all"_s);
    query.addQueryItem(u"limit"_s, QString::number(request.limit));
    if (request.startingAfter)
        query.addQueryItem(u"starting_after"_s, *request.startingAfter);
    auto listed = client.get(u"/v1/subscriptions"_s, query, access.value().account);
    if (!listed)
        return listed.error();
    api::StripeSubscriptionsPage page;
    page.hasMore = listed.value().value("has_more"_L1).toBool();
    const QJsonArray data = listed.value().value("data"_L1).toArray();
    for (const QJsonValue &value : data) {
        auto read = StripeSubscription::read(value.toObject());
        if (!read)
            return read.error();
        const StripeSubscription &s = read.value();
        api::StripeSubscriptionInfo info{s.id,           s.customer,  s.status,
                                         s.planStatus(), s.startedAt, s.currentPeriodEnd,
                                         s.endsAt(),     {}};
        for (const StripeSubscription::Item &item : s.items)
            info.items.append({item.priceId, item.productId, item.meterdeskPlanId, item.lookupKey,
                               item.quantity});
        page.data.append(info);
    }
    if (request.startingAfter)
        return page;
    auto products =
        client.list(u"/v1/products"_s, {}, access.value().account, [&](const QJsonArray &found) {
            for (const QJsonValue &product : found)
                page.products.append({product.toObject().value("id"_L1).toString(),
                                      product.toObject().value("name"_L1).toString()});
            return true;
        });
    if (!products)
        return products.error();
    return page;
}

} // namespace md::engine
