#include "services/engine/products/ProductReads.h"

#include "services/api/WireCodec.h"
#include "services/engine/balances/BalanceLister.h"
#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/ids/KeysetPage.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

api::Result<api::Page<api::FeatureInfo>> ProductReads::features(const QSqlDatabase &db,
                                                                const Scope &scope)
{
    auto query = runSql(
        db,
        u"SELECT pk, id, name, type, default_markup FROM features WHERE org_pk = ? AND env = ?"
        " ORDER BY pk"_s,
        {scope.orgPk, scope.envWord()});
    if (!query)
        return query.error();
    api::Page<api::FeatureInfo> result;
    QHash<qint64, qsizetype> index;
    while (query.value().next()) {
        const QSqlQuery &q = query.value();
        api::FeatureInfo feature{
            q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), {}, {}};
        if (!q.value(4).isNull())
            feature.defaultMarkup = Decimal::parse(q.value(4).toString());
        index.insert(q.value(0).toLongLong(), result.list.size());
        result.list.append(feature);
    }
    auto markups =
        runSql(db,
               u"SELECT m.feature_pk, m.provider, m.model, m.markup FROM credit_markups m"
               " JOIN features f ON f.pk = m.feature_pk WHERE f.org_pk = ? AND f.env = ?"
               " ORDER BY m.feature_pk, m.provider, m.model"_s,
               {scope.orgPk, scope.envWord()});
    if (!markups)
        return markups.error();
    while (markups.value().next()) {
        const QSqlQuery &m = markups.value();
        const QString model = m.value(2).toString();
        result.list[index.value(m.value(0).toLongLong())].markups.append(
            {m.value(1).toString(), model.isEmpty() ? std::nullopt : std::optional(model),
             Decimal::parse(m.value(3).toString()).value_or(Decimal())});
    }
    return result;
}

api::Result<api::Page<api::Product>> ProductReads::products(const QSqlDatabase &db,
                                                            const Scope &scope)
{
    auto query = runSql(
        db,
        u"SELECT id, version, name, group_name, is_add_on, is_default, archived, items, free_trial,"
        " created_at FROM products WHERE org_pk = ? AND env = ? ORDER BY id, version"_s,
        {scope.orgPk, scope.envWord()});
    if (!query)
        return query.error();
    api::Page<api::Product> result;
    while (query.value().next()) {
        const QSqlQuery &q = query.value();
        api::Product product;
        product.id = q.value(0).toString();
        product.version = q.value(1).toLongLong();
        product.name = q.value(2).toString();
        product.group = optionalText(q.value(3));
        product.isAddOn = q.value(4).toInt() != 0;
        product.isDefault = q.value(5).toInt() != 0;
        product.archived = q.value(6).toInt() != 0;
        product.env = scope.env;
        product.createdAt = q.value(9).toLongLong();
        const QString what = u"product %1"_s.arg(product.id);
        auto items = decodeStored(q.value(7), what, &api::readList<api::ProductItem>);
        if (!items)
            return items.error();
        product.items = items.value();
        if (!q.value(8).isNull()) {
            auto trial = decodeStored<api::FreeTrial>(q.value(8), what);
            if (!trial)
                return trial.error();
            product.freeTrial = trial.value();
        }
        result.list.append(product);
    }
    return result;
}

api::Result<api::Page<api::RewardEntry>> ProductReads::rewards(const QSqlDatabase &db,
                                                               const Scope &scope)
{
    auto query =
        runSql(db, u"SELECT kind, record FROM rewards WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
               {scope.orgPk, scope.envWord()});
    if (!query)
        return query.error();
    api::Page<api::RewardEntry> result;
    while (query.value().next()) {
        // Stored as `{kind: record}`'s record; read back through the record
        // types, so a list shows a reward exactly as rewards.update answers.
        const QString kind = query.value().value(0).toString();
        auto reward = decodeStored(query.value().value(1), u"reward"_s,
                                   [&](const api::JsonReader &r) -> api::RewardEntry {
                                       if (kind == "coupon"_L1)
                                           return {api::CouponRecord::read(r)};
                                       return {api::FeatureGrantRecord::read(r)};
                                   });
        if (!reward)
            return reward.error();
        result.list.append(reward.value());
    }
    return result;
}

} // namespace md::engine
