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
        " b.reset_interval_count, b.resets_at, b.price, b.expires_at, b.created_at, b.expired,"
        " r.granted, r.balance, r.expires_at, b.entity_pk, b.feature_pk, b.rollover"_s;
    return list;
}

api::Result<api::Price> BalanceRowReader::price(const QByteArray &stored, const QString &balanceId)
{
    const auto known = m_prices.constFind(stored);
    if (known != m_prices.cend())
        return *known;
    auto decoded = decodeStored<api::Price>(QVariant(QString::fromUtf8(stored)),
                                            u"price of balance %1"_s.arg(balanceId));
    if (decoded)
        m_prices.insert(stored, decoded.value());
    return decoded;
}

api::Result<api::RolloverRule> BalanceRowReader::rolloverRule(const QByteArray &stored,
                                                              const QString &balanceId)
{
    const auto known = m_rules.constFind(stored);
    if (known != m_rules.cend())
        return *known;
    auto decoded = decodeStored<api::RolloverRule>(QVariant(QString::fromUtf8(stored)),
                                                   u"rollover rule of balance %1"_s.arg(balanceId));
    if (decoded)
        m_rules.insert(stored, decoded.value());
    return decoded;
}

} // namespace md::engine
