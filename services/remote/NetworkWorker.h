// The QNetworkAccessManager side of RemoteBackend, living on its own thread.
#pragma once

#include "services/api/Result.h"

#include <QByteArray>
#include <QObject>
#include <QPromise>
#include <QSslConfiguration>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace md::remote {

class NetworkWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NetworkWorker)

public:
    NetworkWorker(QString apiKey, int timeoutMs, QSslConfiguration tls);
    ~NetworkWorker() override;

    // Called on the worker's thread only.
    void post(const QUrl &url, const QByteArray &body,
              const QList<std::pair<QByteArray, QByteArray>> &headers,
              std::shared_ptr<QPromise<api::Result<QByteArray>>> promise);

private:
    static api::Result<QByteArray> outcome(QNetworkReply *reply);

    QString m_apiKey;
    int m_timeoutMs;
    QSslConfiguration m_tls;
    QNetworkAccessManager *m_network = nullptr;
};

} // namespace md::remote
