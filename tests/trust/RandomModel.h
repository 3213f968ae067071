// The model tst_randomops holds the engine to: what each sandbox balance
// must hold, worked out from the documented effects of the calls answered
// 200 (docs/api.md, docs/ledger.md), never from the engine's own arithmetic.
// tst_randomops.cpp says which answers it checks exactly and which only by
// conservation.
#pragma once

#include "services/api/BillingControls.h"
#include "services/api/ImportCustomer.h"
#include "services/api/JsonValue.h"
#include "services/api/Product.h"
#include "services/api/TrackTokens.h"

#include <QHash>
#include <QMap>
#include <QSet>

namespace md::test::randomops {

// The workspace's AI credit system, which every track call draws on.
inline const QString Credits = QStringLiteral("ai_credits");
// Its features that are not credit systems (premium_support is boolean).
inline const QStringList OtherFeatures{QStringLiteral("api_calls"), QStringLiteral("seats"),
                                       QStringLiteral("storage_gb"), QStringLiteral("messages"),
                                       QStringLiteral("premium_support")};

using api::Decimal;

struct ModelRollover
{
    Decimal balance;
    qint64 expiresAt = 0;
};

struct ModelBalance
{
    QString id;
    QString customerId;
    std::optional<QString> entityId;
    QString featureId;
    QString subscriptionId; // its customer product; empty for a standalone balance
    Decimal remaining;
    Decimal usage;
    QList<ModelRollover> rollovers; // as listed: soonest expiry first
    bool unlimited = false;
    std::optional<qint64> expiresAt; // a standalone balance's own expiry
    // The billing clock (docs/api.md, "The billing clock"): what a reset
    // restores, and when resets fall: the next one as the row was first
    // listed, the later ones counted from the anchor, as the engine counts.
    Decimal granted;
    struct Resets
    {
        api::ResetInterval interval = api::ResetInterval::Month;
        qint64 count = 1;
        qint64 anchor = 0;
        qint64 next = 0;
    };
    std::optional<Resets> resets;
    std::optional<api::RolloverRule> rule; // what a reset carries over
    bool clockExpired = false;             // its own end passed: nothing more happens to it
    // What it bills (docs/billing.md): its price, and of its grant what was bought.
    std::optional<api::Price> price;
    Decimal prepaid;

    // What the ledger says it holds: remaining plus rollovers.
    Decimal held() const;
    // What a capped call may take from it at `nowMs`: the positive parts of
    // its remaining and of its rollovers not yet expired.
    Decimal available(qint64 nowMs) const;
};

struct ModelSubscription
{
    QString id; // the customer product
    QString planId;
    qint64 version = 1;
    QString processor; // stripe or revenuecat; empty: none
    QString status;
    std::optional<qint64> expiresAt;

    // Active, trialing or past due: importing it again skips it.
    bool inForce() const;
    // What importing a plan of `status` is keyed to: the same plan from
    // the same processor (tst_randomops sends no subscription ids).
    bool sameKey(const QString &plan, const QString &fromProcessor) const
    {
        return planId == plan && processor == fromProcessor;
    }
};

struct ModelCustomer
{
    QString id;
    QMap<QString, QString> processors; // type -> the customer's id there
    QStringList entities;
    QList<ModelSubscription> subscriptions; // in the order they were made
};

// A catalogue model's prices per million tokens, whole dollars, by pool.
struct ModelPrice
{
    qint64 input = 0;
    qint64 output = 0;
    std::optional<qint64> cacheRead;
    std::optional<qint64> cacheWrite;
    std::optional<qint64> reasoning;
    std::optional<qint64> audioInput;
    std::optional<qint64> audioOutput;
};

// What a track call must cost (docs/api.md, balances.track_tokens, "Value").
struct Cost
{
    bool priceable = true; // false: too large to price, 400 invalid_request
    Decimal value;
    bool free = false; // a markup of -100
};

// One plan balance an import must create.
struct ExpectedRow
{
    QString featureId;
    Decimal included;
    Decimal prepaid;
    Decimal remaining;
    Decimal usage;
};

// What a billing.import must do, or that it must be refused.
struct ExpectedImport
{
    QString refusal;     // why the model says it must be refused; empty: it must succeed
    bool certain = true; // false: something the model does not decide (a free-text name)
    bool newCustomer = false;
    struct Attached
    {
        qsizetype billable = 0;
        bool skipped = false;
        // The subscription in force (already_active), or the ended one
        // already recorded (already_ended): its id, or "#<n>" for the one
        // billables[n] of the same import attached.
        QString skippedSubscription;
        QString skippedReason;
        // A canceled or expired plan ending the one in force: its id, or
        // "#<n>" as above. Nothing is attached then.
        QString endsSubscription;
        ModelSubscription subscription; // id filled in from the answer
        QList<ExpectedRow> rows;
    };
    QList<Attached> attached;
    QList<qsizetype> expiring; // indexes into the customer's subscriptions
};

class Model
{
public:
    // The sandbox of the workspace's first organization, its credit system
    // "ai_credits" and a models.dev catalogue of whole-dollar prices.
    static Model of(const api::JsonValue &workspace, const QByteArray &catalogue);

    QList<ModelBalance> balances; // in the order they became known
    QList<ModelCustomer> customers;
    // Sandbox plans by id and version, from the load and products answers.
    QMap<QString, QMap<qint64, QList<api::ProductItem>>> plans;
    QMap<QString, api::Product> newestProducts; // what an update starts from
    // Stored billing controls by owner ("customer" or "customer/entity").
    QMap<QString, api::BillingControls> controls;
    QSet<QString> usedKeys;      // Idempotency-Keys of applied track calls
    QStringList usedKeysInOrder; // the same, for choosing one again (a QSet's order varies)
    QMap<QString, ModelPrice> prices;
    QMap<QString, Decimal> markupByModel;
    QMap<QString, Decimal> markupByProvider;
    std::optional<Decimal> defaultMarkup;
    // What each sandbox customer's resets and purchases must have billed
    // (docs/billing.md), worked out here: the charge lines the workspace
    // came with, then each reset's usage past the grant and each purchase
    // (an import's, a reset's renewal), priced by Model::priced.
    QMap<QString, Decimal> billed;
    QMap<QString, QStringList> billedLines; // each amount of `billed`, for a failure's report
    // Production balances: only time passing changes them. Each with its
    // plan's end (max: none; min: its plan was expired).
    QMap<QString, std::pair<ModelBalance, qint64>> live;

    ModelBalance *balance(const QString &id);
    ModelCustomer *customer(const QString &id);
    const ModelCustomer *customer(const QString &id) const;
    ModelSubscription *subscription(const QString &customerId, const QString &id);
    void addBalance(const ModelBalance &balance);
    void addCustomer(const ModelCustomer &customer);
    void useKey(const QString &key);
    bool expired(const ModelBalance &balance, qint64 nowMs) const;
    // Time passing to `nowMs`: every balance's rollovers that end, its own
    // end, and its resets (usage back to 0, remaining back to its grant),
    // each in time order, none at or after its plan's end.
    // The sandbox's time is `nowMs`, production's `liveNowMs`: a sandbox
    // clock moved on (clock.race) leaves production where it was.
    void passTime(qint64 nowMs, qint64 liveNowMs);

    Cost cost(const api::TrackTokensRequest &request) const;
    // The controls a call for this owner is held to (docs/billing-controls.md,
    // "Whose controls apply").
    api::BillingControls controlsFor(const QString &customerId,
                                     const std::optional<QString> &entityId) const;
    // The customer's active rows a call draws on: its own, or the entity's.
    QList<const ModelBalance *> activeRows(const QString &customerId,
                                           const std::optional<QString> &entityId,
                                           const QString &featureId, qint64 nowMs) const;
    // Takes `value` from the row as the deduction order does: its unexpired
    // rollovers first (soonest first), then its remaining (never for an
    // unlimited row), which part is usage. False when that leaves what an
    // amount can hold.
    // The amount `raw` nano-units make, or nullopt: at 10^20 or past it
    // (docs/api.md, "Numbers"), whatever this build's Decimal allows.
    static std::optional<Decimal> amount(api::Int128 raw);
    // Whether taking `value` from the row could leave what an amount holds.
    static bool nearLimit(const ModelBalance &row, Decimal value);
    static bool take(ModelBalance &row, Decimal value, qint64 nowMs);

    ExpectedImport expectImport(const api::ImportCustomerRequest &request, qint64 nowMs) const;

    // What `units` come to at `price`, on the rule of docs/billing.md worked
    // out on its own: whole billing units rounded up, bands, flat amounts,
    // each product to the nano-unit, the line to cents, at most a trillion.
    static Decimal priced(const api::Price &price, Decimal units);
    // What a row's purchase comes to (its prepaid grant within max_purchase),
    // 0 for a row that buys nothing.
    static Decimal purchase(const ModelBalance &row);

private:
    QHash<QString, qsizetype> m_balanceIndex;
    QHash<QString, qsizetype> m_customerIndex;
};

} // namespace md::test::randomops
