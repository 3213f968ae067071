#include "services/engine/processors/StripeClient.h"

#include "services/engine/processors/ProcessorKeys.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QThread>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

StripeClient::StripeClient(QString secret, Options options)
    : m_secret(std::move(secret))
    , m_options(std::move(options))
{}

api::Result<QJsonObject> StripeClient::get(const QString &path, const QUrlQuery &query,
                                           const std::optional<QString> &account,
                                           Refusal *refusal) const
{
    QNetworkAccessManager network;
    return fetch(network, path, query, account, refusal);
}

api::Result<api::Done>
StripeClient::list(const QString &path, QUrlQuery query, const std::optional<QString> &account,
                   const std::function<bool(const QJsonArray &)> &onPage) const
{
    QNetworkAccessManager network; // one for every page: its connection is kept
    if (!query.hasQueryItem(u"limit"_s))
        query.addQueryItem(u"limit"_s, u"100"_s);
    for (;;) {
        auto page = fetch(network, path, query, account, nullptr);
        if (!page)
            return page.error();
        const QJsonArray data = page.value().value("data"_L1).toArray();
        if (!onPage(data) || !page.value().value("has_more"_L1).toBool() || data.isEmpty())
            return api::Done{};
        const QString last = data.last().toObject().value("id"_L1).toString();
        if (last.isEmpty())
            return ApiError{
                502, api::ErrorCode::ProcessorRefused,
                u"Stripe's list %1 has an object without an id; it cannot be paged"_s.arg(path)};
        query.removeAllQueryItems(u"starting_after"_s);
        query.addQueryItem(u"starting_after"_s, last);
    }
}

api::Result<QJsonObject> StripeClient::fetch(QNetworkAccessManager &network, const QString &path,
                                             const QUrlQuery &query,
                                             const std::optional<QString> &account,
                                             Refusal *refusal) const
{
    QUrl url = m_options.base;
    url.setPath(url.path().chopped(url.path().endsWith(u'/') ? 1 : 0) + path);
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + m_secret.toUtf8());
    if (account)
        request.setRawHeader("Stripe-Account", account->toUtf8());
    request.setTransferTimeout(int(m_options.deadline.count()));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    const QString where = url.host() + (url.port() > 0 ? u":%1"_s.arg(url.port()) : QString());
    QString lastProblem;
    std::chrono::milliseconds wait = m_options.firstWait;
    for (int attempt = 1; attempt <= std::max(1, m_options.attempts); ++attempt) {
        std::unique_ptr<QNetworkReply> reply(network.get(request));
        QEventLoop loop;
        QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        const QByteArray body = reply->readAll();
        std::optional<std::chrono::milliseconds> retryAfter;
        if (!status.isValid()) {
            lastProblem = reply->error() == QNetworkReply::OperationCanceledError
                              ? u"no answer within %1 ms"_s.arg(m_options.deadline.count())
                              : reply->errorString();
        } else if (const int code = status.toInt(); code >= 200 && code < 300) {
            QJsonParseError parsed;
            const QJsonDocument document = QJsonDocument::fromJson(body, &parsed);
            if (parsed.error != QJsonParseError::NoError || !document.isObject())
                return ApiError{502, api::ErrorCode::ProcessorRefused,
                                u"Stripe answered GET %1 with something that is not a JSON "
                                "object"_s.arg(path)};
            return document.object();
        } else if (code == 429 || code >= 500) {
            lastProblem = u"HTTP %1"_s.arg(code);
            bool ok = false;
            const int seconds = reply->rawHeader("Retry-After").trimmed().toInt(&ok);
            if (ok && seconds >= 0)
                retryAfter = std::chrono::seconds(seconds);
        } else {
            const QJsonObject error =
                QJsonDocument::fromJson(body).object().value("error"_L1).toObject();
            Refusal said{code, error.value("code"_L1).toString(),
                         error.value("message"_L1).toString()};
            if (said.message.isEmpty())
                said.message = u"HTTP %1"_s.arg(code);
            // Stripe shows a key partly (sk_test_abc****1234); only the hint
            // is ever repeated.
            static const QRegularExpression keyLike(u"\\b[sr]k_(test|live)_[A-Za-z0-9*]+"_s);
            said.message.replace(keyLike, ProcessorKeys::hintOf(m_secret));
            if (refusal)
                *refusal = said;
            return ApiError{502, api::ErrorCode::ProcessorRefused,
                            u"Stripe says: %1 (GET %2, key %3)"_s.arg(
                                said.message, path, ProcessorKeys::hintOf(m_secret))};
        }
        if (attempt == m_options.attempts)
            break;
        QThread::msleep(
            quint64(std::min(retryAfter.value_or(wait), m_options.longestWait).count()));
        wait *= 2;
    }
    return ApiError{503, api::ErrorCode::ProcessorUnavailable,
                    u"Stripe could not be reached at %1 after %2 attempts (%3); try again "
                    "later"_s.arg(where)
                        .arg(m_options.attempts)
                        .arg(lastProblem)};
}

} // namespace md::engine
