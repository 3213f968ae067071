#include "services/engine/products/RewardUpdater.h"

#include "services/api/Promotion.h"
#include "services/api/WireCodec.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

class Updater final
{
public:
    Updater(const QSqlDatabase &db, const Scope &scope, qint64 rewardPk)
        : m_db(db)
        , m_scope(scope)
        , m_rewardPk(rewardPk)
    {}

    api::Result<api::Done> exists(const QString &table, const QString &id, api::ErrorCode code,
                                  const QString &path, const QString &what)
    {
        auto found = queryRows(
            m_db, u"SELECT 1 FROM %1 WHERE org_pk = ? AND env = ? AND id = ? LIMIT 1"_s.arg(table),
            {m_scope.orgPk, m_scope.envWord(), id});
        if (!found)
            return found.error();
        if (found.value().isEmpty())
            return ApiError::notFound(code, u"%1: %2 \"%3\" does not exist"_s.arg(path, what, id));
        return api::Done{};
    }

    // The reward's promo codes become `codes`, none of them another reward's.
    api::Result<api::Done> replaceCodes(const QStringList &codes, const QString &path)
    {
        for (qsizetype i = 0; i < codes.size(); ++i) {
            auto owner =
                queryRows(m_db,
                          u"SELECT r.id FROM promo_codes p JOIN rewards r ON r.pk = p.reward_pk"
                          " WHERE p.org_pk = ? AND p.env = ? AND p.code = ? AND p.reward_pk <> ?"_s,
                          {m_scope.orgPk, m_scope.envWord(), codes.at(i), m_rewardPk});
            if (!owner)
                return owner.error();
            if (!owner.value().isEmpty())
                return ApiError{
                    400, api::ErrorCode::DuplicatePromoCode,
                    u"%1[%2].code: \"%3\" is a promo code of reward \"%4\" already"_s.arg(path)
                        .arg(i)
                        .arg(codes.at(i), owner.value().first().first().toString())};
        }
        if (auto removed =
                execute(m_db, u"DELETE FROM promo_codes WHERE reward_pk = ?"_s, {m_rewardPk});
            !removed)
            return removed.error();
        for (const QString &code : codes)
            if (auto added = execute(
                    m_db,
                    u"INSERT INTO promo_codes (org_pk, env, code, reward_pk) VALUES (?, ?, ?, ?)"_s,
                    {m_scope.orgPk, m_scope.envWord(), code, m_rewardPk});
                !added)
                return added.error();
        return api::Done{};
    }

    template <typename Record> api::Result<api::Done> store(const Record &record)
    {
        return execute(m_db, u"UPDATE rewards SET record = ? WHERE pk = ?"_s,
                       {storedText(record), m_rewardPk});
    }

    api::Result<api::FeatureGrantRecord> apply(api::FeatureGrantRecord record,
                                               const api::FeatureGrantUpdate &update)
    {
        if (update.name)
            record.name = *update.name;
        if (update.grants)
            record.grants = *update.grants;
        if (update.promoCodes)
            record.promoCodes = *update.promoCodes;
        return put(record);
    }

    api::Result<api::CouponRecord> apply(api::CouponRecord record, const api::CouponUpdate &update)
    {
        if (update.name)
            record.name = *update.name;
        if (update.planIds)
            record.planIds = *update.planIds;
        if (update.promoCodes)
            record.promoCodes = *update.promoCodes;
        return put(record);
    }

    // Stores `record` as the reward: its features (or plans) must exist and
    // its promo codes be no other reward's.
    api::Result<api::FeatureGrantRecord> put(const api::FeatureGrantRecord &record)
    {
        for (qsizetype i = 0; i < record.grants.size(); ++i)
            if (auto found = exists(u"features"_s, record.grants.at(i).featureId,
                                    api::ErrorCode::FeatureNotFound,
                                    u"feature_grant.grants[%1].feature_id"_s.arg(i), u"feature"_s);
                !found)
                return found.error();
        QStringList codes;
        for (const api::FeatureGrantPromoCode &code : record.promoCodes)
            codes.append(code.code);
        if (auto replaced = replaceCodes(codes, u"feature_grant.promo_codes"_s); !replaced)
            return replaced.error();
        if (auto stored = store(record); !stored)
            return stored.error();
        return record;
    }

    api::Result<api::CouponRecord> put(const api::CouponRecord &record)
    {
        for (qsizetype i = 0; record.planIds && i < record.planIds->size(); ++i)
            if (auto found =
                    exists(u"products"_s, record.planIds->at(i), api::ErrorCode::ProductNotFound,
                           u"coupon.plan_ids[%1]"_s.arg(i), u"plan"_s);
                !found)
                return found.error();
        QStringList codes;
        for (const api::CouponPromoCode &code : record.promoCodes)
            codes.append(code.code);
        if (auto replaced = replaceCodes(codes, u"coupon.promo_codes"_s); !replaced)
            return replaced.error();
        if (auto stored = store(record); !stored)
            return stored.error();
        return record;
    }

private:
    QSqlDatabase m_db;
    Scope m_scope;
    qint64 m_rewardPk;
};

template <typename Record> api::Result<Record> storedRecord(const QVariant &text, const QString &id)
{
    return decodeStored<Record>(text, u"reward %1"_s.arg(id));
}

} // namespace

api::Result<api::UpdateRewardResponse>
RewardUpdater::update(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                      const api::UpdateRewardRequest &request)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto stored = queryRows(
        db, u"SELECT pk, kind, record FROM rewards WHERE org_pk = ? AND env = ? AND id = ?"_s,
        {scope.orgPk, scope.envWord(), request.rewardId});
    if (!stored)
        return stored.error();
    if (stored.value().isEmpty())
        return ApiError::notFound(
            api::ErrorCode::RewardNotFound,
            u"reward_id: reward \"%1\" does not exist"_s.arg(request.rewardId));
    const QVariantList row = stored.value().first();
    const QString kind = row.at(1).toString();
    const QString sent = request.coupon ? u"coupon"_s : u"feature_grant"_s;
    if (kind != sent)
        return ApiError{400, api::ErrorCode::InvalidRequest,
                        u"%1: reward \"%2\" is a %3; send \"%3\" to update it"_s.arg(
                            sent, request.rewardId, kind)};
    Updater updater(db, scope, row.at(0).toLongLong());
    api::UpdateRewardResponse response;
    if (request.coupon) {
        auto record = storedRecord<api::CouponRecord>(row.at(2), request.rewardId);
        if (!record)
            return record.error();
        auto updated = updater.apply(record.value(), *request.coupon);
        if (!updated)
            return updated.error();
        response.reward = updated.value();
    } else {
        auto record = storedRecord<api::FeatureGrantRecord>(row.at(2), request.rewardId);
        if (!record)
            return record.error();
        auto updated = updater.apply(record.value(), *request.featureGrant);
        if (!updated)
            return updated.error();
        response.reward = updated.value();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return response;
}

api::Result<api::RewardEntry> RewardUpdater::replace(const QSqlDatabase &db, Dialect dialect,
                                                     const Scope &scope,
                                                     const api::RewardEntry &reward, qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    const QString id = api::idOf(reward);
    const bool coupon = std::holds_alternative<api::CouponRecord>(reward.reward);
    const QString kind = coupon ? u"coupon"_s : u"feature_grant"_s;
    auto stored = queryRows(
        db, u"SELECT pk, created_at FROM rewards WHERE org_pk = ? AND env = ? AND id = ?"_s,
        {scope.orgPk, scope.envWord(), id});
    if (!stored)
        return stored.error();
    qint64 pk = 0;
    qint64 createdAt = nowMs;
    if (!stored.value().isEmpty()) {
        pk = stored.value().first().at(0).toLongLong();
        createdAt = stored.value().first().at(1).toLongLong();
        if (auto kept = execute(db, u"UPDATE rewards SET kind = ? WHERE pk = ?"_s, {kind, pk});
            !kept)
            return kept.error();
    } else {
        KeyAllocator keys(db, dialect);
        auto next = keys.next(u"rewards"_s);
        if (!next)
            return next.error();
        pk = next.value();
        if (auto added = execute(db,
                                 u"INSERT INTO rewards (pk, org_pk, env, id, kind, record,"
                                 " created_at) VALUES (?, ?, ?, ?, ?, '{}', ?)"_s,
                                 {pk, scope.orgPk, scope.envWord(), id, kind, createdAt});
            !added)
            return added.error();
    }
    Updater updater(db, scope, pk);
    api::RewardEntry result;
    if (coupon) {
        api::CouponRecord record = std::get<api::CouponRecord>(reward.reward);
        record.createdAt = createdAt;
        auto put = updater.put(record);
        if (!put)
            return put.error();
        result.reward = put.value();
    } else {
        api::FeatureGrantRecord record = std::get<api::FeatureGrantRecord>(reward.reward);
        record.createdAt = createdAt;
        auto put = updater.put(record);
        if (!put)
            return put.error();
        result.reward = put.value();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return result;
}

api::Result<bool> RewardUpdater::remove(const QSqlDatabase &db, const Scope &scope,
                                        const QString &rewardId)
{
    auto stored = queryRows(db, u"SELECT pk FROM rewards WHERE org_pk = ? AND env = ? AND id = ?"_s,
                            {scope.orgPk, scope.envWord(), rewardId});
    if (!stored)
        return stored.error();
    if (stored.value().isEmpty())
        return false;
    const QVariant pk = stored.value().first().first();
    for (const QString &statement :
         {u"DELETE FROM promo_codes WHERE reward_pk = ?"_s, u"DELETE FROM rewards WHERE pk = ?"_s})
        if (auto removed = execute(db, statement, {pk}); !removed)
            return removed.error();
    return true;
}

} // namespace md::engine
