#include "services/engine/access/ApiKeys.h"

#include "services/engine/sql/StoredJson.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace md::engine {

using namespace Qt::StringLiterals;

NewApiKey ApiKeys::generate(Environment env)
{
    static constexpr char Alphabet[] =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString secret = env == Environment::Sandbox ? u"sk_test_"_s : u"sk_live_"_s;
    QRandomGenerator *random = QRandomGenerator::system();
    for (int i = 0; i < 32; ++i)
        secret.append(QLatin1Char(Alphabet[random->bounded(62)]));
    return {secret, prefixOf(secret), hashOf(secret)};
}

QString ApiKeys::hashOf(const QString &secret)
{
    return u"sha256:"_s +
           QString::fromLatin1(
               QCryptographicHash::hash(secret.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString ApiKeys::prefixOf(const QString &secret)
{
    return secret.left(12);
}

std::optional<Environment> ApiKeys::environmentOf(const QString &secret)
{
    if (secret.startsWith("sk_test_"_L1) && secret.size() > 8)
        return Environment::Sandbox;
    if (secret.startsWith("sk_live_"_L1) && secret.size() > 8)
        return Environment::Production;
    return std::nullopt;
}

bool ApiKeys::sameHash(const QString &a, const QString &b)
{
    if (a.size() != b.size())
        return false;
    char16_t difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= a.at(i).unicode() ^ b.at(i).unicode();
    return difference == 0;
}

const QStringList &ApiKeys::knownScopes()
{
    return api::apiKeyScopes();
}

api::JsonValue ApiKeys::described(api::ApiKey key)
{
    key.secret.reset();
    key.prefix.clear();     // of the secret: an audit entry holds nothing of one
    key.lastUsedAt.reset(); // use is not a change anyone made
    return jsonOf(key);
}

} // namespace md::engine
