#include "services/engine/processors/ProcessorKeys.h"

#include "services/engine/ids/WorkspaceSecret.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"

#include <QRandomGenerator>

#include <openssl/evp.h>

#include <memory>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

constexpr int NonceBytes = 12;
constexpr int TagBytes = 16;

// The sealing key of the workspace, and what binds a sealed key to its row.
QByteArray sealingKey(const WorkspaceSecret &secret)
{
    return secret.mac(QByteArrayLiteral("processor-key-seal"));
}

QByteArray bindingOf(const Scope &scope)
{
    return "processor-key:" + QByteArray::number(scope.orgPk) + ':' + scope.envWord().toLatin1();
}

// AES-256-GCM one way or the other (EVP_Cipher*, `encrypt` 1 or 0): `text`
// through it, with `binding` authenticated beside it; the tag is written
// when sealing and checked when opening. None when OpenSSL refuses, or
// the tag does not match.
std::optional<QByteArray> gcm(int encrypt, const QByteArray &key, const QByteArray &nonce,
                              const QByteArray &binding, const QByteArray &text, QByteArray &tag)
{
    const auto bytes = [](const QByteArray &b) {
        return reinterpret_cast<const unsigned char *>(b.constData());
    };
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(),
                                                                        &EVP_CIPHER_CTX_free);
    QByteArray out(text.size(), Qt::Uninitialized);
    auto *written = reinterpret_cast<unsigned char *>(out.data());
    int length = 0;
    int last = 0;
    if (!ctx ||
        EVP_CipherInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key), bytes(nonce),
                          encrypt) != 1 ||
        EVP_CipherUpdate(ctx.get(), nullptr, &length, bytes(binding), int(binding.size())) != 1 ||
        EVP_CipherUpdate(ctx.get(), written, &length, bytes(text), int(text.size())) != 1 ||
        (!encrypt &&
         EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, TagBytes, tag.data()) != 1) ||
        EVP_CipherFinal_ex(ctx.get(), written + length, &last) != 1 ||
        (encrypt &&
         EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, TagBytes, tag.data()) != 1))
        return std::nullopt;
    return out;
}

// nonce | ciphertext | tag
std::optional<QByteArray> seal(const QByteArray &key, const QByteArray &binding,
                               const QByteArray &plain)
{
    QByteArray nonce(NonceBytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(nonce.data()),
                                          NonceBytes / 4);
    QByteArray tag(TagBytes, Qt::Uninitialized);
    const auto sealed = gcm(1, key, nonce, binding, plain, tag);
    if (!sealed)
        return std::nullopt;
    return nonce + *sealed + tag;
}

std::optional<QByteArray> open(const QByteArray &key, const QByteArray &binding,
                               const QByteArray &sealed)
{
    if (sealed.size() < NonceBytes + TagBytes)
        return std::nullopt;
    QByteArray tag = sealed.right(TagBytes);
    return gcm(0, key, sealed.left(NonceBytes), binding,
               sealed.mid(NonceBytes, sealed.size() - NonceBytes - TagBytes), tag);
}

api::Result<api::Done> markConnected(const QSqlDatabase &db, const Scope &scope, bool connected)
{
    return execute(
        db, u"UPDATE organizations SET %1_secret_connected = ? WHERE pk = ?"_s.arg(scope.envWord()),
        {int(connected), scope.orgPk});
}

api::Result<api::Done> audit(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                             const std::optional<api::AuditActor> &actor, const QString &action,
                             const QString &env, const std::optional<QString> &before,
                             const std::optional<QString> &after, qint64 nowMs)
{
    // Its last four characters only: the audit log names no key's kind.
    const auto hint = [](const std::optional<QString> &h) {
        return h ? api::JsonValue::object({{"ends_with"_L1, h->right(4)}}) : api::JsonValue::null();
    };
    return AuditTrail::record(db, dialect, scope, actor.value_or(AuditTrail::consoleUser()),
                              {action, u"processor_key"_s, env, hint(before), hint(after)}, nowMs);
}

std::optional<QString> hintNow(const QSqlDatabase &db, const Scope &scope,
                               api::Result<api::Done> &failed)
{
    auto rows = queryRows(db, u"SELECT hint FROM processor_keys WHERE org_pk = ? AND env = ?"_s,
                          {scope.orgPk, scope.envWord()});
    if (!rows) {
        failed = rows.error();
        return std::nullopt;
    }
    if (rows.value().isEmpty())
        return std::nullopt;
    return rows.value().first().first().toString();
}

} // namespace

QString ProcessorKeys::hintOf(const QString &secret)
{
    const qsizetype prefix = secret.indexOf(u'_', secret.indexOf(u'_') + 1) + 1;
    return secret.left(prefix > 0 && prefix <= 8 ? prefix : 3) + u"…"_s + secret.right(4);
}

std::optional<QString> ProcessorKeys::problemOf(const QString &secret, Environment env)
{
    const QString mode = environmentWord(env);
    if (!secret.startsWith(u"sk_%1_"_s.arg(mode)) && !secret.startsWith(u"rk_%1_"_s.arg(mode)))
        return u"a %1 key starts with sk_%1_ (a secret key) or rk_%1_ (a restricted key)"_s.arg(
            mode);
    if (secret.size() < 16 || secret.size() > 255)
        return u"is %1 characters long; a Stripe key has 16 to 255"_s.arg(secret.size());
    for (const QChar c : secret)
        if (c.unicode() <= 0x20 || c.unicode() >= 0x7f)
            return u"holds a space or a character that is not printable ASCII"_s;
    return std::nullopt;
}

api::Result<ProcessorKeys::Connected>
ProcessorKeys::connect(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                       const QString &secret, qint64 nowMs,
                       const std::optional<api::AuditActor> &actor)
{
    if (const auto problem = problemOf(secret, scope.env))
        return ApiError::invalidInputs(u"secret"_s, *problem);
    auto workspace = WorkspaceSecret::of(db);
    if (!workspace)
        return workspace.error();
    const auto sealed = seal(sealingKey(workspace.value()), bindingOf(scope), secret.toUtf8());
    if (!sealed)
        return ApiError::internal(u"the processor key could not be sealed (OpenSSL)"_s);
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    api::Result<api::Done> failed = api::Done{};
    const std::optional<QString> before = hintNow(db, scope, failed);
    if (!failed)
        return failed.error();
    const Connected connected{scope.envWord(), hintOf(secret), nowMs};
    if (auto gone = execute(db, u"DELETE FROM processor_keys WHERE org_pk = ? AND env = ?"_s,
                            {scope.orgPk, scope.envWord()});
        !gone)
        return gone.error();
    if (auto stored =
            execute(db,
                    u"INSERT INTO processor_keys (org_pk, env, sealed, hint, connected_at)"
                    " VALUES (?, ?, ?, ?, ?)"_s,
                    {scope.orgPk, scope.envWord(), QString::fromLatin1(sealed->toBase64()),
                     connected.hint, nowMs});
        !stored)
        return stored.error();
    if (auto marked = markConnected(db, scope, true); !marked)
        return marked.error();
    if (auto recorded = audit(db, dialect, scope, actor, u"processor_key.connect"_s,
                              scope.envWord(), before, connected.hint, nowMs);
        !recorded)
        return recorded.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return connected;
}

api::Result<api::Done> ProcessorKeys::disconnect(const QSqlDatabase &db, Dialect dialect,
                                                 const Scope &scope, qint64 nowMs,
                                                 const std::optional<api::AuditActor> &actor)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    api::Result<api::Done> failed = api::Done{};
    const std::optional<QString> before = hintNow(db, scope, failed);
    if (!failed)
        return failed.error();
    if (!before)
        return ApiError{404, api::ErrorCode::NotFound,
                        u"no %1 processor key is connected"_s.arg(scope.envWord())};
    if (auto gone = execute(db, u"DELETE FROM processor_keys WHERE org_pk = ? AND env = ?"_s,
                            {scope.orgPk, scope.envWord()});
        !gone)
        return gone.error();
    if (auto marked = markConnected(db, scope, false); !marked)
        return marked.error();
    if (auto recorded = audit(db, dialect, scope, actor, u"processor_key.disconnect"_s,
                              scope.envWord(), before, std::nullopt, nowMs);
        !recorded)
        return recorded.error();
    return transaction.commit();
}

api::Result<QList<ProcessorKeys::Connected>> ProcessorKeys::list(const QSqlDatabase &db,
                                                                 qint64 orgPk)
{
    auto rows = queryRows(
        db, u"SELECT env, hint, connected_at FROM processor_keys WHERE org_pk = ? ORDER BY env"_s,
        {orgPk});
    if (!rows)
        return rows.error();
    QList<Connected> connected;
    for (const QVariantList &row : std::as_const(rows.value()))
        connected.append({row.at(0).toString(), row.at(1).toString(), row.at(2).toLongLong()});
    return connected;
}

api::Result<QString> ProcessorKeys::secret(const QSqlDatabase &db, const Scope &scope)
{
    auto rows = queryRows(db, u"SELECT sealed FROM processor_keys WHERE org_pk = ? AND env = ?"_s,
                          {scope.orgPk, scope.envWord()});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return ApiError{404, api::ErrorCode::NotFound,
                        u"no %1 Stripe secret key is connected; connect one with "
                        "`meterdesk-server processors connect --env %1`"_s.arg(scope.envWord())};
    auto workspace = WorkspaceSecret::of(db);
    if (!workspace)
        return workspace.error();
    const auto opened =
        open(sealingKey(workspace.value()), bindingOf(scope),
             QByteArray::fromBase64(rows.value().first().first().toString().toLatin1()));
    if (!opened)
        return ApiError::internal(
            u"the %1 processor key does not open with this workspace's secret; connect it "
            "again"_s.arg(scope.envWord()));
    return QString::fromUtf8(*opened);
}

} // namespace md::engine
