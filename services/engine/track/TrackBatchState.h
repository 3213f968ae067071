// What a TrackBatch holds between add() and flush(), shared by the file
// that plans calls (TrackBatch.cpp) and the one that writes them
// (TrackBatchWrites.cpp). Not for use elsewhere.
#pragma once

#include "services/engine/clock/MovedBalances.h"
#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/controls/CallLimits.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/track/CallPlan.h"
#include "services/engine/track/TrackBatch.h"

#include <set>

namespace md::engine::trackbatch {

using Owner = TrackCache::Owner;
using FeatureOfOwner = TrackCache::FeatureOfOwner;

inline Owner ownerOf(const ResolvedCall &call)
{
    return {call.customerPk, call.entityPk.value_or(-1)};
}

inline FeatureOfOwner featureOf(const ResolvedCall &call)
{
    return {call.customerPk, call.entityPk.value_or(-1), call.featurePk};
}

inline api::ApiError duplicateKey(const QString &key)
{
    return {409, api::ErrorCode::DuplicateIdempotencyKey,
            QStringLiteral("an event with Idempotency-Key \"%1\" was already recorded;"
                           " nothing was deducted")
                .arg(key)};
}

} // namespace md::engine::trackbatch

namespace md::engine {

struct TrackBatch::State
{
    QSqlDatabase db;
    Dialect dialect;
    qint64 nowMs;
    TrackCache *cache;
    KeyAllocator keys;

    using Rows = FeatureRows;
    std::map<trackbatch::FeatureOfOwner, Rows> rows; // the batch's view
    std::map<trackbatch::Owner, api::BillingControls> controls;
    struct Window
    {
        LimitWindow window;
        api::Decimal added; // by this batch, written at flush
    };
    std::map<trackbatch::FeatureOfOwner, QList<Window>> windows;
    std::set<QString> changed;     // ids of stored rows the batch changed
    std::set<QString> created;     // ids of rows the batch made (overflow with no row)
    std::set<QString> keysSeen;    // org/environment/Idempotency-Key
    std::set<qint64> dueCustomers; // PostgreSQL: locked customers with balances due

    struct Event
    {
        Scope scope;
        ResolvedCall call;
        api::TrackTokensRequest request;
        std::optional<QString> key;
    };
    QList<Event> events;
    // A usage entry for each row each call changed, and the index of the
    // call's event (its key is known only once the events are written).
    QList<BalanceLedger::Entry> ledger;
    QList<qsizetype> ledgerEvents;
    struct Alert
    {
        Scope scope;
        ResolvedCall call;
        BillingControlStore::FiredAlert fired;
    };
    QList<Alert> alerts;
    // Calls refused by a spend or usage limit: the window's first refusal
    // is told to the webhooks (balances.limit_reached).
    struct Reached
    {
        Scope scope;
        ResolvedCall call;
        QString customerId;
        std::optional<QString> entityId;
        QString kind; // usage, spend
        qint64 window = 0;
        api::ApiError refusal;
    };
    QList<Reached> reached;
    void noteRefusal(const Scope &scope, const api::TrackTokensRequest &request,
                     const ResolvedCall &call, const api::ApiError &refusal,
                     const QList<LimitWindow> &limits, const QList<api::BalanceRow> &read);
    api::Result<api::Done> tellReached();
    QVariantList changedRows; // PostgreSQL: ids, remaining and usage, as arrays
    // Balances the billing clock moved on before the calls (catchUp), by id:
    // written at flush as the calls left them, their entries before the calls'.
    std::map<QString, MovedBalances::Balance> clocked;
    QList<BalanceLedger::Entry> clockLedger;
    QList<ResetCharges::Line> clockBilled; // the clocked rows' reset lines

    State(const QSqlDatabase &database, Dialect d, qint64 now, TrackCache *kept)
        : db(database)
        , dialect(d)
        , nowMs(now)
        , cache(kept)
        , keys(database, d)
    {}

    api::Result<Rows *> rowsOf(const Scope &scope, const ResolvedCall &call);
    api::Result<const api::BillingControls *> controlsOf(const ResolvedCall &call);
    api::Result<QList<Window> *> windowsOf(const ResolvedCall &call,
                                           const api::BillingControls &controls);
    api::Result<bool> seenBefore(const Scope &scope, const QString &key) const;

    // The rows as the clock left them, for those it moved on (read before
    // its writes); the ones it expired are dropped.
    void patchClocked(QList<api::BalanceRow> &read) const;
    // Takes the calls' changes of clocked rows into what is written for them.
    MovedBalances clockedAsLeft();

    // SQLite: the clocked rows and their entries, before the calls'.
    api::Result<api::Done> writeClocked();
    api::Result<api::Done> writeRows();
    api::Result<api::Done> writeEvents();
    api::Result<api::Done> writeLimits();
    void noteLedger(const Scope &scope, const ResolvedCall &call, const CallPlan &plan,
                    const QList<api::BalanceRow> &before);
};

} // namespace md::engine
