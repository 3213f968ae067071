#include "services/engine/ids/CursorSeal.h"

#include "services/engine/ids/SameBytes.h"

#include <QtEndian>

namespace md::engine {

namespace {

constexpr auto Encoding = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;
// 128 bits: a forged cursor is accepted once in 2^128 tries.
constexpr qsizetype AuthenticatorSize = 16;
constexpr qsizetype KeySize = 8;

void applyStream(QByteArray &bytes, const QByteArray &stream)
{
    for (qsizetype i = 0; i < bytes.size(); ++i)
        bytes[i] = char(bytes.at(i) ^ stream.at(i));
}

} // namespace

api::Result<CursorSeal> CursorSeal::of(const QSqlDatabase &db, const Scope &scope,
                                       QByteArrayView tag)
{
    auto secret = WorkspaceSecret::of(db);
    if (!secret)
        return secret.error();
    // Self-delimiting, so no two lists or scopes share one context.
    QByteArray context("meterdesk cursor v1 ");
    context.append(char(tag.size()));
    context.append(tag);
    char organization[sizeof(quint64)];
    qToBigEndian(quint64(scope.orgPk), organization);
    context.append(organization, sizeof organization);
    context.append(scope.env == Environment::Production ? 'l' : 't');
    return CursorSeal(std::move(secret).value(), std::move(context));
}

QString CursorSeal::seal(const QList<qint64> &keys) const
{
    QByteArray plain(keys.size() * KeySize, Qt::Uninitialized);
    for (qsizetype i = 0; i < keys.size(); ++i)
        qToBigEndian(quint64(keys.at(i)), plain.data() + i * KeySize);
    const QByteArray authenticator = authenticatorOf(plain);
    applyStream(plain, keyStream(authenticator, plain.size()));
    const QByteArray sealed = authenticator + plain;
    return QString::fromLatin1(sealed.toBase64(Encoding));
}

std::optional<QList<qint64>> CursorSeal::open(const QString &text, qsizetype keyCount) const
{
    const qsizetype size = AuthenticatorSize + keyCount * KeySize;
    if (text.size() != (size * 4 + 2) / 3)
        return std::nullopt;
    const auto decoded = QByteArray::fromBase64Encoding(
        text.toLatin1(), Encoding | QByteArray::AbortOnBase64DecodingErrors);
    // One spelling per cursor: no padding, no stray bits in the last digit.
    if (!decoded || decoded.decoded.size() != size ||
        QString::fromLatin1(decoded.decoded.toBase64(Encoding)) != text)
        return std::nullopt;
    const QByteArray authenticator = decoded.decoded.first(AuthenticatorSize);
    QByteArray plain = decoded.decoded.sliced(AuthenticatorSize);
    applyStream(plain, keyStream(authenticator, plain.size()));
    if (!sameBytes(authenticatorOf(plain), authenticator))
        return std::nullopt;
    QList<qint64> keys;
    for (qsizetype i = 0; i < keyCount; ++i)
        keys.append(qint64(qFromBigEndian<quint64>(plain.constData() + i * KeySize)));
    return keys;
}

QByteArray CursorSeal::authenticatorOf(const QByteArray &keys) const
{
    const QByteArray message = m_context + keys;
    return m_secret.mac(message).first(AuthenticatorSize);
}

// At least `size` bytes drawn from the authenticator (counter mode over HMAC).
QByteArray CursorSeal::keyStream(const QByteArray &authenticator, qsizetype size) const
{
    QByteArray stream;
    for (char block = 0; stream.size() < size; ++block) {
        QByteArray message("meterdesk cursor stream v1 ");
        message += authenticator;
        message += block;
        stream += m_secret.mac(message);
    }
    return stream;
}

} // namespace md::engine
