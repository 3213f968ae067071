// The reward form's model, as ProductEdit is the product's: a coupon (name,
// plans, promo codes with a redemption limit and first-time-only) or a
// feature grant (name, grants with their expiry, promo codes with max uses)
// as typed, the request it makes (checked by the wire decoder), the
// field-by-field changes, and the request that undoes a saved change.
#pragma once

#include "models/common/FieldChange.h"
#include "services/api/UpdateReward.h"

#include <QCoreApplication>

namespace md::models {

// A stored reward, decoded.
using Reward = std::variant<api::CouponRecord, api::FeatureGrantRecord>;

struct RewardForm
{
    struct Grant
    {
        QString featureId;
        QString included;
        QString expiryType; // day, week, month, year; empty: never
        qint64 expiryLength = 1;
    };
    struct Code
    {
        QString code;
        qint64 limit = 0;           // max_uses, or global_max_redemption for coupons
        bool firstTimeOnly = false; // coupons only
    };

    bool coupon = false;
    QString name;
    QString planIds;     // coupons: comma-separated
    QList<Grant> grants; // feature grants
    QList<Code> codes;

    static RewardForm from(const Reward &reward);
};

class RewardEdit final
{
    Q_DECLARE_TR_FUNCTIONS(RewardEdit)

public:
    static QString id(const Reward &reward);
    static QString name(const Reward &reward);
    static api::Result<api::UpdateRewardRequest> request(const Reward &before,
                                                         const RewardForm &form);
    static QList<FieldChange> changes(const Reward &before,
                                      const api::UpdateRewardRequest &request);
    static api::UpdateRewardRequest undo(const Reward &before, const Reward &after);
};

} // namespace md::models
