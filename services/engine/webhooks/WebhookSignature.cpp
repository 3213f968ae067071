#include "services/engine/webhooks/WebhookSignature.h"

#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {
constexpr QLatin1StringView Prefix = "whsec_"_L1;
}

QString WebhookSignature::newSecret()
{
    QByteArray bytes(SecretBytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          SecretBytes / sizeof(quint32));
    return Prefix + QString::fromLatin1(bytes.toBase64());
}

QString WebhookSignature::sign(const QString &secret, const QString &messageId,
                               qint64 timestampSeconds, const QByteArray &body)
{
    if (!secret.startsWith(Prefix))
        return {};
    const auto key = QByteArray::fromBase64Encoding(secret.sliced(Prefix.size()).toLatin1(),
                                                    QByteArray::AbortOnBase64DecodingErrors);
    if (!key || key.decoded.isEmpty())
        return {};
    QMessageAuthenticationCode mac(QCryptographicHash::Sha256, key.decoded);
    mac.addData(messageId.toUtf8());
    mac.addData(".");
    mac.addData(QByteArray::number(timestampSeconds));
    mac.addData(".");
    mac.addData(body);
    return u"v1,"_s + QString::fromLatin1(mac.result().toBase64());
}

QByteArray WebhookSignature::header(const QStringList &secrets, const QString &messageId,
                                    qint64 timestampSeconds, const QByteArray &body)
{
    QStringList signatures;
    for (const QString &secret : secrets)
        if (const QString signature = sign(secret, messageId, timestampSeconds, body);
            !signature.isEmpty())
            signatures.append(signature);
    return signatures.join(u' ').toLatin1();
}

} // namespace md::engine
