// Standard Webhooks signing (https://www.standardwebhooks.com): a secret is
// "whsec_" and the base64 of random bytes; a signature is "v1," and the
// base64 of HMAC-SHA256 over "id.timestamp.body" under those bytes, so any
// receiver built on the standardwebhooks or Svix libraries checks ours.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace md::engine {

class WebhookSignature final
{
public:
    static constexpr qsizetype SecretBytes = 32;

    // A new secret from the system's random source.
    static QString newSecret();
    // "v1,<base64>" of one secret; empty for a secret that is not whsec_ base64.
    static QString sign(const QString &secret, const QString &messageId, qint64 timestampSeconds,
                        const QByteArray &body);
    // The webhook-signature header: one signature per secret, space-separated.
    static QByteArray header(const QStringList &secrets, const QString &messageId,
                             qint64 timestampSeconds, const QByteArray &body);
};

} // namespace md::engine
