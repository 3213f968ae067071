// Reads from Stripe (docs/processors.md, "Reading Stripe"): GET requests
// only, never a write to the processor. Each call runs on the calling
// thread (Qt Network, a local event loop) with one deadline per attempt.
// 429 and 5xx answers, and no answer at all, are tried again with a
// growing wait (Retry-After when Stripe gives one, at most
// Options::longestWait). Lists are paged with `starting_after`. A key is
// sent as a bearer token and never appears in an error, which names it by
// its hint; Stripe's refusals keep its words: "Stripe says: …".
#pragma once

#include "services/api/Result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

#include <chrono>
#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace md::engine {

class StripeClient final
{
public:
    static constexpr QLatin1StringView DefaultBase{"https://api.stripe.com"};

    struct Options
    {
        QUrl base{QString(DefaultBase)}; // scheme, host and port, without /v1
        // Someone waits on every read (an import, a check, a link, a key):
        // with Stripe down a read gives up within 26 s, before a client's
        // 30 s (three attempts of 8 s, waits of at most 5 s).
        std::chrono::milliseconds deadline{8'000};
        int attempts = 3;
        std::chrono::milliseconds firstWait{500}; // then doubled
        std::chrono::milliseconds longestWait{5'000};
    };

    // What Stripe answered when it refused (a 4xx other than 429).
    struct Refusal
    {
        int status = 0;
        QString code; // Stripe's error code, when it gave one
        QString message;
    };

    StripeClient(QString secret, Options options);

    // GET `path` (from /v1/), as the connected `account` when given.
    // Refusals are 502 processor_refused, "Stripe says: …" (and `refusal`,
    // when asked, holds Stripe's own words); no usable answer after every
    // attempt is 503 processor_unavailable.
    api::Result<QJsonObject> get(const QString &path, const QUrlQuery &query = {},
                                 const std::optional<QString> &account = std::nullopt,
                                 Refusal *refusal = nullptr) const;
    // Every page of a list: `onPage` is given each page's objects and
    // returns false to stop early.
    api::Result<api::Done> list(const QString &path, QUrlQuery query,
                                const std::optional<QString> &account,
                                const std::function<bool(const QJsonArray &)> &onPage) const;

private:
    api::Result<QJsonObject> fetch(QNetworkAccessManager &network, const QString &path,
                                   const QUrlQuery &query, const std::optional<QString> &account,
                                   Refusal *refusal) const;

    QString m_secret;
    Options m_options;
};

} // namespace md::engine
