// Many balances.track_tokens calls applied in one write transaction
// (docs/performance.md). Each call is planned against the batch's own view
// of the balances it touches, read once per (customer, entity, feature), so
// a call sees the deductions of the calls before it, in the order they were
// added; a refused call leaves that view as it was. flush() then writes each
// changed balance once, every usage event in multi-row statements, and the
// usage counted toward limits once per window. Until flush() nothing is
// written, which is also what lets the async check plan a call and drop it.
#pragma once

#include "services/api/BillingControls.h"
#include "services/api/TrackTokens.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/track/CallResolver.h"

#include <QSqlDatabase>

#include <limits>
#include <map>
#include <memory>

namespace md::engine {

// A feature's balance rows as a batch sees them: a customer's own, or one
// entity's (entityPk), in deduction order.
struct FeatureRows
{
    QList<api::BalanceRow> rows;
    Scope scope;
    std::optional<qint64> entityPk;
    qint64 featurePk = 0;
    // The first expiry among the rows (their own or their plan's): read
    // again from then on, since whether a row is active depends on the clock.
    qint64 validUntil = std::numeric_limits<qint64>::max();
};

// What a writer keeps from one batch to the next on SQLite, so a customer
// called again is not read again: the rows and billing controls its batches
// read and wrote. Valid only while no other connection has written (SQLite's
// PRAGMA data_version says so; a connection's own commits leave it alone),
// and each feature's rows until their first expiry.
class TrackCache final
{
public:
    using Owner = std::pair<qint64, qint64>; // customer and entity (-1: none)
    using FeatureOfOwner = std::tuple<qint64, qint64, qint64>;

    // Drops everything when another connection wrote since the last look.
    api::Result<api::Done> validate(const QSqlDatabase &db);
    void clear();

private:
    friend class TrackBatch;
    std::optional<qint64> m_dataVersion;
    std::map<FeatureOfOwner, FeatureRows> m_rows;
    std::map<Owner, api::BillingControls> m_controls;
};

class TrackBatch final
{
public:
    // `cache` (optional) is read from, and keep() writes to it.
    TrackBatch(const QSqlDatabase &db, Dialect dialect, qint64 nowMs, TrackCache *cache = nullptr);
    ~TrackBatch();
    Q_DISABLE_COPY_MOVE(TrackBatch)

    // PostgreSQL: locks the customers' rows in key order, before any add(),
    // so two servers' batches never wait for each other in a circle. SQLite
    // needs nothing: the writer holds the database's one write lock.
    // The same statement notes which of them have balances of the calls'
    // features due on the billing clock, so that catchUp() costs nothing
    // when none are.
    api::Result<api::Done> lockCustomers(QList<qint64> customerPks,
                                         const QList<qint64> &featurePks);

    // Brings the calls' customers' due balances up to date (resets,
    // rollovers, expiries, with their ledger entries), before any add():
    // a call lands wholly after the reset it meets. SQLite: one statement
    // when nothing is due.
    api::Result<api::Done> catchUp(const Scope &scope, const QList<ResolvedCall> &calls);

    // PostgreSQL: the balance rows and controls of all these calls (of one
    // scope) read in two statements, so a batch costs a constant number of
    // round trips rather than some per call. Elsewhere: nothing.
    api::Result<api::Done> prefetch(const Scope &scope, const QList<ResolvedCall> &calls);

    // Plans one call and keeps its writes for flush(). A 4xx is the call's
    // own answer (nothing kept); a 5xx means reading failed and the
    // transaction must be rolled back.
    api::Result<api::TrackTokensResponse> add(const Scope &scope,
                                              const api::TrackTokensRequest &request,
                                              const ResolvedCall &call,
                                              const std::optional<QString> &idempotencyKey);

    // balances.check: the feature's balance summary as the batch sees it
    // now (its rows read if need be), overage as the controls say; nullopt
    // when the customer (or entity) holds no row of it.
    api::Result<std::optional<api::BalanceSummary>> summary(const Scope &scope,
                                                            const ResolvedCall &call);

    // Writes what the calls added. Fails only when the database does (or,
    // for a batch of one call, when another server recorded its
    // Idempotency-Key meanwhile: 409).
    api::Result<api::Done> flush();
    // After the commit: what the batch read and wrote, kept in its cache.
    void keep();

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace md::engine
