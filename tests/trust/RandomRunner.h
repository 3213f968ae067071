// Runs tst_randomops' operations through engine::ApiOperations, as
// meterdesk-server does (the body decoded as the wire is, then the route),
// and holds each answer to the model: what it must refuse, what it must
// accept, and what a 200 must have done. Whatever breaks that is a problem,
// one sentence each.
#pragma once

#include "services/engine/ApiOperations.h"
#include "tests/trust/RandomOperations.h"

#include <QThreadPool>

#include <atomic>

namespace md::test::randomops {

// "404 customer_not_found: …", for reports.
QString said(const api::ApiError &error);

class Runner final
{
public:
    Runner(engine::Engine &engine, engine::KeyContext key, engine::KeyContext liveKey, Model &model,
           std::atomic<qint64> &now);

    // Runs `ops` (more than one only for grouped track calls, sent at once)
    // and fills in each one's answer.
    void run(const QList<Operation *> &ops, OperationMaker &maker);

    // Every sandbox balance against the model: remaining, usage, rollovers,
    // status, owner.
    void compareBalances();
    // Production balances: nothing the sequence does may change them.
    void compareLive();
    // `workspace verify` (LedgerVerifier), the database's own checks, the
    // statements' periods, and what was billed against the model.
    void verifyLedger();
    // The audit entries written since the last look, in both environments:
    // each records a change, and each adjustment or balance made answered
    // 200 has one.
    void checkAudit();

    const QStringList &problems() const { return m_problems; }
    // The sandbox's now: the test's clock, plus how far clock.race moved it on.
    qint64 now() const { return m_now.load() + m_ahead; }

private:
    // Each sandbox customer's charge lines add up to what the model's
    // resets and purchases billed.
    void billedAsTheModelSays(const QSqlDatabase &db);

    struct Call
    {
        Operation *op = nullptr;
        std::optional<api::TrackTokensRequest> request;
        std::optional<api::Result<api::TrackTokensResponse>> answer;
    };
    struct Pending
    {
        qint64 tag = 0; // the call's properties.op
        api::TrackTokensRequest request;
        std::optional<QString> key;
        Cost cost;
    };
    // Why the model says a call must be refused, with the status and code;
    // `limited` when billing controls may refuse it (429, 402).
    struct Refusals
    {
        QList<std::tuple<int, QString, QString>> faults;
        bool limited = false;
        // A row it may draw on is within its cost of the largest amount, and a
        // usage limit may clamp the cost: 400 invalid_inputs may come or not.
        bool nearLimit = false;
    };

    void problem(const Operation &op, const QString &what);
    // True for a 4xx; anything else (a 5xx above all) is a problem.
    bool refusalIsSound(const Operation &op, const api::ApiError &error);
    QList<api::BalanceRow> list(const engine::KeyContext &key, std::optional<QString> customerId,
                                std::optional<QString> featureId);
    bool overflows(const api::TrackTokensRequest &request) const;

    void runTracks(const QList<Operation *> &ops);
    Refusals refusalsOf(const api::TrackTokensRequest &request,
                        const std::optional<QString> &key) const;
    void checkTrack(Call &call);
    void applyTrack(Operation &op, const api::TrackTokensRequest &request,
                    const std::optional<QString> &key, const api::TrackTokensResponse &answer);
    void drain(Operation &op);
    void settle(const Operation &op, const QString &customerId, const QList<Pending> &applied);
    // Whether the customer's stored calls could take a credit balance past
    // the largest amount, which fails them once applied.
    bool nearLimit(const QString &customerId) const;
    void failedEvents(Operation &op, OperationMaker &maker);
    void adjust(Operation &op);
    void create(Operation &op);
    void import(Operation &op);
    void importedRows(const Operation &op, const api::ImportCustomerRequest &request,
                      const ExpectedImport &expected, const api::ImportCustomerResponse &answer);
    void product(Operation &op);
    void reward(Operation &op);
    void controls(Operation &op);
    void promote(Operation &op, OperationMaker &maker);
    void link(Operation &op);
    void clockRace(Operation &op);

    engine::Engine &m_engine;
    engine::ApiOperations m_api;
    engine::KeyContext m_key;
    engine::KeyContext m_liveKey;
    Model &m_model;
    std::atomic<qint64> &m_now;
    qint64 m_ahead = 0;   // the sandbox's offset, from clock.race
    QThreadPool m_racers; // clock.race's advances, on threads kept for the run
    QStringList m_problems;
    QList<Pending> m_pending;       // async calls accepted, not yet applied
    QMap<qint64, Pending> m_failed; // by tag: accepted, then failed
    std::optional<api::EnvironmentPromotion> m_lastPromotion;
    // Ledger ids of adjustments and balances made answered 200, not yet audited.
    QStringList m_adjustments;
    QStringList m_creations;
    QString m_auditSeen[2]; // the newest audit entry looked at, sandbox and production
};

} // namespace md::test::randomops
