#include "services/engine/balances/BalanceRowReader.h"

#include "services/api/WireCodec.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;

const QString &BalanceRowReader::columns()
{
    static const QString list =
        u"SELECT b.pk, b.customer_pk, b.id,"
        " (SELECT id FROM customers WHERE pk = b.customer_pk),"
        " (SELECT id FROM entities WHERE pk = b.entity_pk),"
        " (SELECT id FROM features WHERE pk = b.feature_pk),"
        " (SELECT id FROM products WHERE pk = b.product_pk),"
        " b.included_grant, b.prepaid_grant, b.remaining, b.usage, b.unlimited, b.reset_interval,"
        " b.reset_interval_count, b.resets_at, b.price, b.expires_at, b.created_at, "
        "b.listed_expired,"
        " r.granted, r.balance, r.expires_at, b.entity_pk, b.feature_pk, b.rollover"_s;
    return list;
}

namespace {

// Decodes a stored JSON text once per reader: the rows of one plan share it.
// `what` names it in an error ("price of balance %1"), made only on a miss.
template <typename T>
api::Result<T> decodeOnce(QHash<QByteArray, T> &known, const QByteArray &stored,
                          const QString &what, const QString &balanceId)
{
    const auto found = known.constFind(stored);
    if (found != known.cend())
        return *found;
    auto decoded = decodeStored<T>(QVariant(QString::fromUtf8(stored)), what.arg(balanceId));
    if (decoded)
        known.insert(stored, decoded.value());
    return decoded;
}

} // namespace

api::Result<api::Price> BalanceRowReader::price(const QByteArray &stored, const QString &balanceId)
{
    return decodeOnce(m_prices, stored, u"price of balance %1"_s, balanceId);
}

api::Result<api::RolloverRule> BalanceRowReader::rolloverRule(const QByteArray &stored,
                                                              const QString &balanceId)
{
    return decodeOnce(m_rules, stored, u"rollover rule of balance %1"_s, balanceId);
}

} // namespace md::engine
