#include "services/engine/access/PortalPage.h"

#include "services/engine/access/PortalLinks.h"
#include "services/engine/customers/CustomerReads.h"

#include <QDateTime>
#include <QUrl>

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 UsageDays = 30;

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

QString date(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(u"yyyy-MM-dd"_s);
}

QString page(const QString &title, const QString &body)
{
    return u"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           "<title>%1</title><style>"
           "body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:52rem;"
           "padding:0 1rem;color:#1d2430}"
           "table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}"
           "th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #dde2ea}"
           "td.n{text-align:right;font-variant-numeric:tabular-nums}"
           "a.back{display:inline-block;margin-bottom:1rem;padding:.4rem .9rem;"
           "border:1px solid #8a94a6;border-radius:4px;color:inherit;text-decoration:none}"
           "</style></head><body>%2</body></html>"_s.arg(escaped(title), body);
}

PortalPage::Answer problem(int status, const QString &message)
{
    return {status, page(u"Billing portal"_s,
                         u"<h1>Billing portal</h1><p id=\"problem\">%1</p>"_s.arg(escaped(message)))
                        .toUtf8()};
}

QString backButton(const QString &returnUrl)
{
    const QUrl url(returnUrl);
    if (returnUrl.isEmpty() || !url.isValid() ||
        (url.scheme() != "https"_L1 && url.scheme() != "http"_L1))
        return {};
    return u"<a class=\"back\" id=\"back\" href=\"%1\">&larr; Back</a>"_s.arg(
        escaped(url.toString(QUrl::FullyEncoded)));
}

} // namespace

PortalPage::Answer PortalPage::render(const QSqlDatabase &db,
                                      const api::Result<PortalLinks::Link> &link, qint64 shownAtMs)
{
    if (!link)
        return problem(link.error().status, link.error().message);
    auto customer =
        CustomerReads::customer(db, link.value().scope, link.value().customerId, shownAtMs);
    if (!customer)
        return problem(customer.error().status == 404 ? 404 : 500,
                       customer.error().status == 404
                           ? u"This customer no longer exists."_s
                           : u"The portal cannot be shown just now. Try again shortly."_s);
    const api::Customer &c = customer.value();

    QString body = backButton(link.value().returnUrl);
    body +=
        u"<h1>%1</h1><p>%2</p>"_s.arg(escaped(c.name.isEmpty() ? c.id : c.name), escaped(c.email));
    body += u"<h2>Plans</h2><table id=\"plans\"><tr><th>Plan</th><th>Status</th>"
            "<th>Current period ends</th></tr>"_s;
    for (const api::Subscription &plan : c.subscriptions)
        body += u"<tr><td>%1</td><td>%2</td><td>%3</td></tr>"_s.arg(
            escaped(plan.planId), QString(api::toWire(plan.status)),
            plan.currentPeriodEnd ? date(plan.currentPeriodEnd) : u"—"_s);
    if (c.subscriptions.isEmpty())
        body += u"<tr><td colspan=\"3\">No plans.</td></tr>"_s;
    body += u"</table><h2>Balances</h2><table id=\"balances\"><tr><th>Feature</th>"
            "<th>Remaining</th><th>Granted</th><th>Used</th><th>Next reset</th></tr>"_s;
    for (const api::BalanceSummary &balance : c.balances)
        body += u"<tr><td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td>"
                "<td class=\"n\">%4</td><td>%5</td></tr>"_s.arg(
                    escaped(balance.featureId),
                    balance.unlimited ? u"unlimited"_s : balance.remaining.toString(),
                    balance.unlimited ? u"unlimited"_s : balance.granted.toString(),
                    balance.usage.toString(),
                    balance.nextResetAt ? date(*balance.nextResetAt) : u"—"_s);
    if (c.balances.isEmpty())
        body += u"<tr><td colspan=\"5\">No balances.</td></tr>"_s;
    body += u"</table>"_s;

    // Usage of the last 30 days per model, summed exactly.
    api::PageRequest request;
    request.customerId = c.id;
    request.from = shownAtMs - UsageDays * 24 * 3600 * 1000;
    request.limit = 200;
    std::map<QString, std::pair<api::Decimal, qint64>> byModel;
    for (int pages = 0; pages < 50; ++pages) {
        auto events = CustomerReads::usageEvents(db, link.value().scope, request);
        if (!events)
            break;
        for (const api::UsageEvent &event : events.value().list) {
            auto &[value, count] = byModel[event.modelId.value_or(event.featureId)];
            value = value.plus(event.value).value_or(value);
            ++count;
        }
        if (!events.value().hasMore || !events.value().nextCursor)
            break;
        request.startCursor = *events.value().nextCursor;
    }
    if (!byModel.empty()) {
        body += u"<h2>Usage, last %1 days</h2><table id=\"usage\"><tr><th>Model</th>"
                "<th>Calls</th><th>Credits used</th></tr>"_s.arg(UsageDays);
        for (const auto &[model, total] : byModel)
            body += u"<tr><td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td></tr>"_s.arg(
                escaped(model), QString::number(total.second), total.first.toString());
        body += u"</table>"_s;
    }
    body += u"<p><small>This page is read only. The link expires on %1 UTC.</small></p>"_s.arg(
        QDateTime::fromMSecsSinceEpoch(link.value().expiresAt, Qt::UTC)
            .toString(u"yyyy-MM-dd HH:mm"_s));
    return {200,
            page(u"Billing portal: %1"_s.arg(c.name.isEmpty() ? c.id : c.name), body).toUtf8()};
}

} // namespace md::engine
