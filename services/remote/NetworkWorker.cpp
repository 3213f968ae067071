#include "services/remote/NetworkWorker.h"

#include "services/api/ErrorBody.h"
#include "services/api/JsonValue.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslError>

namespace md::remote {

using namespace Qt::StringLiterals;
using api::ApiError;

NetworkWorker::NetworkWorker(QString apiKey, int timeoutMs, QSslConfiguration tls)
    : m_apiKey(std::move(apiKey))
    , m_timeoutMs(timeoutMs)
    , m_tls(std::move(tls))
{}

NetworkWorker::~NetworkWorker() = default;

void NetworkWorker::post(const QUrl &url, const QByteArray &body,
                         const QList<std::pair<QByteArray, QByteArray>> &headers,
                         std::shared_ptr<QPromise<api::Result<QByteArray>>> promise)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    request.setRawHeader("Authorization", "Bearer " + m_apiKey.toUtf8());
    request.setRawHeader("x-api-version", "2.4.0");
    request.setTransferTimeout(m_timeoutMs);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (url.scheme() == "https"_L1)
        request.setSslConfiguration(m_tls);
    QNetworkReply *reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::finished, this, [reply, promise] {
        promise->addResult(outcome(reply));
        promise->finish();
        reply->deleteLater();
    });
}

api::Result<QByteArray> NetworkWorker::outcome(QNetworkReply *reply)
{
    const QString where = reply->url().toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = reply->readAll();
    if (status == 0) {
        switch (reply->error()) {
        case QNetworkReply::ConnectionRefusedError:
            return ApiError::local(
                u"connection_refused"_s,
                u"%1 refused the connection; check the server address and that the server is running"_s
                    .arg(where));
        case QNetworkReply::HostNotFoundError:
            return ApiError::local(
                u"host_not_found"_s,
                u"the host of %1 was not found; check the server address"_s.arg(where));
        case QNetworkReply::TimeoutError:
        case QNetworkReply::OperationCanceledError:
            return ApiError::local(
                u"timeout"_s,
                u"%1 did not answer in time; the server may be overloaded or unreachable"_s.arg(
                    where));
        case QNetworkReply::SslHandshakeFailedError:
            return ApiError::local(
                u"tls_error"_s,
                u"the secure connection to %1 failed: %2; check the server's certificate"_s.arg(
                    where, reply->errorString()));
        default:
            return ApiError::local(u"network_error"_s,
                                   u"%1: %2"_s.arg(where, reply->errorString()));
        }
    }
    if (status == 204)
        return QByteArray(); // no content (track_tokens with the async flag)
    // Parsed here only to tell a JSON answer from a proxy's HTML page; the
    // caller decodes the text, numbers exact.
    const auto document = api::JsonValue::parse(bytes, u"the answer"_s);
    if (!document || !document.value().isObject()) {
        return ApiError::received(
            status >= 400 ? status : 502, u"invalid_response"_s,
            u"%1 answered HTTP %2 with a body that is not a JSON object; is this a Meterdesk or billing server?"_s
                .arg(where)
                .arg(status));
    }
    if (status >= 400) {
        ApiError error = api::ErrorBody::read(status, bytes);
        if (error.code.isEmpty() || error.message.isEmpty())
            return ApiError::received(
                status, u"invalid_response"_s,
                u"%1 answered HTTP %2 without a {message, code} body"_s.arg(where).arg(status));
        return error;
    }
    return bytes;
}

} // namespace md::remote
