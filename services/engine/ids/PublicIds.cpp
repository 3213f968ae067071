#include "services/engine/ids/PublicIds.h"

#include "services/engine/sql/Sql.h"

#include <QSqlDriver>
#include <QtEndian>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Four rounds make a pseudo-random permutation (Luby-Rackoff) but only up to
// about 2^16 ids of 32-bit halves; eight keep a margin far past any table.
constexpr int Rounds = 8;
// Lowercase Crockford base32 (no i, l, o, u). 13 digits carry 65 bits, so
// the first carries the top 4 and is at most "f": one spelling per value.
constexpr char Alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";
constexpr qsizetype Width = 13;
// The driver property that keeps a connection's copy of legacy_ids.
constexpr char KeptProperty[] = "md.legacyIds";

QString textOf(quint64 value)
{
    QString text(Width, Qt::Uninitialized);
    for (qsizetype i = 0; i < Width; ++i)
        text[i] = QLatin1Char(Alphabet[(value >> (5 * (Width - 1 - i))) & 31]);
    return text;
}

int digitOf(char16_t c)
{
    for (int digit = 0; digit < 32; ++digit)
        if (Alphabet[digit] == c)
            return digit;
    return -1;
}

std::optional<quint64> valueOf(QStringView text)
{
    if (text.size() != Width)
        return std::nullopt;
    quint64 value = 0;
    for (qsizetype i = 0; i < Width; ++i) {
        const int digit = digitOf(text[i].unicode());
        if (digit < 0 || (i == 0 && digit >= 16))
            return std::nullopt;
        value = value << 5 | quint64(digit);
    }
    return value;
}

// A key as the counter form wrote it: digits only, the first not 0.
std::optional<qint64> legacyKeyOf(QStringView digits)
{
    if (digits.isEmpty() || digits.size() > 18 || digits.front().unicode() == u'0')
        return std::nullopt;
    for (const QChar c : digits)
        if (c.unicode() < u'0' || c.unicode() > u'9')
            return std::nullopt;
    return digits.toLongLong();
}

} // namespace

api::Result<PublicIds> PublicIds::of(const QSqlDatabase &db)
{
    auto secret = WorkspaceSecret::of(db);
    if (!secret)
        return secret.error();
    QSqlDriver *driver = db.driver(); // there: the secret was read through it
    QVariantList kept = driver->property(KeptProperty).toList();
    if (kept.size() != KindCount) {
        auto rows = queryRows(db, u"SELECT prefix, last_pk FROM legacy_ids"_s, {});
        if (!rows)
            return rows.error();
        kept = QVariantList(KindCount, QVariant(qint64(0)));
        for (const QVariantList &row : std::as_const(rows.value()))
            for (int k = 0; k < KindCount; ++k)
                if (row.at(0).toString() == prefixOf(Kind(k)))
                    kept[k] = row.at(1).toLongLong();
        driver->setProperty(KeptProperty, kept);
    }
    std::array<qint64, KindCount> legacyLastPk{};
    for (int k = 0; k < KindCount; ++k)
        legacyLastPk[k] = kept.at(k).toLongLong();
    return PublicIds(std::move(secret).value(), legacyLastPk);
}

QString PublicIds::idOf(const QSqlDatabase &db, Kind kind, qint64 pk)
{
    const auto ids = of(db);
    return ids ? ids.value().make(kind, pk) : QString();
}

api::Result<std::optional<qint64>> PublicIds::scopedKey(const QSqlDatabase &db, Kind kind,
                                                        QStringView id, const Scope &scope)
{
    // The tables whose rows carry their organization and environment.
    QString table;
    if (kind == Kind::ApiKey)
        table = u"api_keys"_s;
    else if (kind == Kind::WebhookEndpoint)
        table = u"webhook_endpoints"_s;
    else
        return api::ApiError::internal(u"no scoped table for ids %1"_s.arg(prefixOf(kind)));
    auto ids = of(db);
    if (!ids)
        return ids.error();
    const auto row = ids.value().parse(kind, id);
    if (!row)
        return std::optional<qint64>();
    auto found =
        queryRows(db, u"SELECT pk FROM "_s + table + u" WHERE pk = ? AND org_pk = ? AND env = ?"_s,
                  {row->pk, scope.orgPk, scope.envWord()});
    if (!found)
        return found.error();
    return found.value().isEmpty() ? std::optional<qint64>() : std::optional(row->pk);
}

QLatin1StringView PublicIds::prefixOf(Kind kind)
{
    static const std::array<QLatin1StringView, KindCount> prefixes{
        "audit_"_L1, "ledger_"_L1, "key_"_L1, "tq_"_L1, "alert_"_L1,
        "event_"_L1, "we_"_L1,     "msg_"_L1, "wd_"_L1, "stmt_"_L1};
    return prefixes[std::size_t(kind)];
}

QString PublicIds::make(Kind kind, qint64 pk) const
{
    return prefixOf(kind) + textOf(permute(kind, quint64(pk)));
}

std::optional<PublicIds::Row> PublicIds::parse(Kind kind, QStringView id) const
{
    const QLatin1StringView prefix = prefixOf(kind);
    if (!id.startsWith(prefix))
        return std::nullopt;
    const QStringView rest = id.sliced(prefix.size());
    // Thirteen digits are the keyed form, even all decimal: a legacy id that
    // long would need a trillion rows before migration 8.
    if (const auto value = valueOf(rest)) {
        const auto pk = qint64(unpermute(kind, *value));
        return pk > 0 ? std::optional(Row{pk, false}) : std::nullopt;
    }
    const auto pk = legacyKey(kind, rest);
    return pk ? std::optional(Row{*pk, true}) : std::nullopt;
}

QStringList PublicIds::spellings(Kind kind, qint64 pk) const
{
    QStringList all{make(kind, pk)};
    if (pk > 0 && pk <= m_legacyLastPk[std::size_t(kind)])
        all.append(prefixOf(kind) + QString::number(pk));
    return all;
}

QString PublicIds::current(Kind kind, const QString &stored) const
{
    const QLatin1StringView prefix = prefixOf(kind);
    if (!stored.startsWith(prefix))
        return stored;
    const QStringView rest = QStringView(stored).sliced(prefix.size());
    const auto pk = valueOf(rest) ? std::nullopt : legacyKey(kind, rest);
    return pk ? make(kind, *pk) : stored;
}

std::optional<qint64> PublicIds::legacyKey(Kind kind, QStringView digits) const
{
    const auto pk = legacyKeyOf(digits);
    if (!pk || *pk > m_legacyLastPk[std::size_t(kind)])
        return std::nullopt;
    return pk;
}

// One round's value: HMAC-SHA256 of the kind and the half, so each kind has
// a permutation of its own.
quint32 PublicIds::roundOf(Kind kind, int index, quint32 half) const
{
    const QLatin1StringView prefix = prefixOf(kind);
    QByteArray message("meterdesk id v1 ");
    message.append(prefix.data(), prefix.size());
    message.append(char(index));
    char bytes[sizeof half];
    qToBigEndian(half, bytes);
    message.append(bytes, sizeof bytes);
    return qFromBigEndian<quint32>(m_secret.mac(message).constData());
}

quint64 PublicIds::permute(Kind kind, quint64 value) const
{
    auto left = quint32(value >> 32);
    auto right = quint32(value);
    for (int i = 0; i < Rounds; ++i) {
        const quint32 next = left ^ roundOf(kind, i, right);
        left = right;
        right = next;
    }
    return quint64(left) << 32 | right;
}

quint64 PublicIds::unpermute(Kind kind, quint64 value) const
{
    auto left = quint32(value >> 32);
    auto right = quint32(value);
    for (int i = Rounds - 1; i >= 0; --i) {
        const quint32 previous = right ^ roundOf(kind, i, left);
        right = left;
        left = previous;
    }
    return quint64(left) << 32 | right;
}

} // namespace md::engine
