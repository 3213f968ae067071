// The balance ledger (docs/ledger.md): each change of a balance adds rows
// that say what changed, what the balance then held and where the change
// came from; the rows add up to every balance (LedgerVerifier, the trial
// balance of `workspace verify`), and nothing can change them once added.
// Runs on SQLite and PostgreSQL.
#include "services/api/WireCodec.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/BalanceAdjuster.h"
#include "services/engine/ledger/BalanceCreator.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/ledger/LedgerRepair.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/ledger/UsageDays.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/LedgerWorkspace.h"
#include "tests/engine/ScopeRoutes.h"

using namespace md;
using namespace Qt::StringLiterals;
using api::Decimal;

class TestBalanceLedger final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_scope;

    QSqlDatabase db() { return m_fixture->engine->database().connection().value(); }
    engine::Dialect dialect() { return m_fixture->engine->dialect(); }

    api::Result<api::TrackTokensResponse> track(const QString &customer, qint64 dollars,
                                                bool overflow = false)
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = u"test/dollar"_s;
        call.inputTokens = dollars;
        call.featureId = u"ai"_s;
        if (overflow)
            call.overageBehavior = api::OverageBehavior::Overflow;
        return m_fixture->engine->trackTokens(m_scope, call, std::nullopt);
    }

    QList<api::LedgerEntry> ledger(const QString &customer,
                                   std::optional<QString> feature = std::nullopt)
    {
        api::LedgerRequest request;
        request.customerId = customer;
        request.featureId = std::move(feature);
        request.limit = 200;
        auto page = m_fixture->engine->withConnection([&](const QSqlDatabase &connection) {
            return engine::BalanceLedger::list(connection, m_scope, request);
        });
        if (!page)
            qFatal("ledger.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

    QStringList differences()
    {
        auto report = engine::LedgerVerifier::verify(db(), dialect());
        if (!report)
            return {report.error().message};
        return report.value().differences;
    }

    // What the balance holds now: remaining plus rollovers.
    Decimal held(const QString &customer, const QString &balanceId)
    {
        api::ListBalancesRequest all;
        all.customerId = customer;
        all.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        const auto page = test::listBalances(*m_fixture->engine, m_scope, all);
        for (const api::BalanceRow &row : page.value().list)
            if (row.id == balanceId)
                return engine::BalanceLedger::held(row);
        qFatal("no balance %s", qPrintable(balanceId));
    }

    api::Result<api::ImportCustomerResponse> import(const QByteArray &json)
    {
        auto request = api::decodeBody<api::ImportCustomerRequest>(json);
        if (!request)
            qFatal("bad import: %s", qPrintable(request.error().message));
        return test::importCustomer(*m_fixture->engine, m_scope, request.value());
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>(); // a fresh workspace for each case
        MD_OPEN_FIXTURE(*m_fixture);
        const auto scope = test::ledger::open(*m_fixture);
        QVERIFY(scope);
        m_scope = *scope;
    }

    void aLoadOpensEachBalanceWithWhatItHolds()
    {
        const QList<api::LedgerEntry> entries = ledger(u"cy"_s);
        QCOMPARE(entries.size(), 4);
        for (const api::LedgerEntry &entry : entries) {
            QCOMPARE(entry.kind, u"import"_s);
            QCOMPARE(entry.amount, held(u"cy"_s, entry.balanceId));
            QCOMPARE(entry.balanceAfter, entry.amount);
            QCOMPARE(entry.source.route, u"workspace.load"_s);
            QVERIFY(!entry.source.keyId && !entry.source.eventId);
        }
        // The monthly row's rollover is part of what it holds.
        QCOMPARE(held(u"cy"_s, u"plan_monthly"_s), Decimal::fromInteger(7));
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    void aCallAddsOneRowPerBalanceItDrewOn()
    {
        QVERIFY(track(u"cy"_s, 20).ok());
        QList<api::LedgerEntry> usage;
        for (const api::LedgerEntry &entry : ledger(u"cy"_s))
            if (entry.kind == "usage"_L1)
                usage.append(entry);
        QCOMPARE(usage.size(), 4); // the rollover's row, daily, expiring, forever
        Decimal total;
        for (const api::LedgerEntry &entry : std::as_const(usage)) {
            total = total.plus(entry.amount).value();
            QCOMPARE(entry.balanceAfter, held(u"cy"_s, entry.balanceId));
            QCOMPARE(entry.featureId, u"ai"_s);
            QCOMPARE(entry.source.route, u"balances.track_tokens"_s);
            QCOMPARE(entry.source.keyId,
                     engine::PublicIds::idOf(db(), engine::PublicIds::Kind::ApiKey, m_scope.keyPk));
            QCOMPARE(entry.source.eventId, usage.first().source.eventId); // one call, one event
            QVERIFY(entry.source.eventId);
            QVERIFY(!entry.usage.isNegative()); // a rollover's part is no usage of the row
        }
        QCOMPARE(total, Decimal::fromInteger(-20));
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    void overflowOntoANewRowIsInTheLedger()
    {
        QVERIFY(track(u"none"_s, 3, true).ok());
        const QList<api::LedgerEntry> entries = ledger(u"none"_s);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().kind, u"usage"_s);
        QCOMPARE(entries.first().amount, Decimal::fromInteger(-3));
        QCOMPARE(entries.first().balanceAfter, Decimal::fromInteger(-3));
        QCOMPARE(entries.first().usage, Decimal::fromInteger(3));
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    void queuedCallsKeepTheirKey()
    {
        api::TrackTokensRequest call;
        call.customerId = u"two"_s;
        call.modelId = u"test/dollar"_s;
        call.inputTokens = 1;
        call.featureId = u"ai"_s;
        call.async = true;
        QVERIFY(m_fixture->engine->trackQueue().enqueue(m_scope, call, std::nullopt).ok());
        QCOMPARE(m_fixture->engine->trackQueue().drain().value(), 1);
        const QList<api::LedgerEntry> entries = ledger(u"two"_s, u"ai"_s);
        QCOMPARE(entries.first().kind, u"usage"_s);
        QCOMPARE(entries.first().source.keyId,
                 engine::PublicIds::idOf(db(), engine::PublicIds::Kind::ApiKey, m_scope.keyPk));
        QCOMPARE(entries.first().balanceAfter, Decimal());
        QCOMPARE(ledger(u"two"_s, u"ai2"_s).size(), 1); // the filter keeps the other feature out
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    void anImportGrantsThenExpires()
    {
        QVERIFY(import(R"({"customer_id":"imp","processors":[{"type":"stripe","id":"cus_imp"}],
            "billables":[{"plan":{"plan_id":"pro","feature_quantities":[{"feature_id":"ai","quantity":10}],
            "balances":[{"feature_id":"ai","usage":4}]}}]})")
                    .ok());
        QList<api::LedgerEntry> entries = ledger(u"imp"_s);
        QCOMPARE(entries.size(), 2); // newest first
        QCOMPARE(entries.at(1).kind, u"grant"_s);
        QCOMPARE(entries.at(1).amount, Decimal::fromInteger(10));
        QCOMPARE(entries.at(0).kind, u"import"_s);
        QCOMPARE(entries.at(0).amount, Decimal::fromInteger(-4));
        QCOMPARE(entries.at(0).usage, Decimal::fromInteger(4));
        QCOMPARE(entries.at(0).balanceAfter, Decimal::fromInteger(6));
        QCOMPARE(entries.at(0).source.route, u"customers.import"_s);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));

        // The same processor, the plan left out: the plan expires, its balance gives up all.
        QVERIFY(import(R"({"customer_id":"imp","processors":[{"type":"stripe","id":"cus_imp"}],
            "billables":[]})")
                    .ok());
        entries = ledger(u"imp"_s);
        QCOMPARE(entries.size(), 3);
        QCOMPARE(entries.first().kind, u"expiry"_s);
        QCOMPARE(entries.first().amount, Decimal::fromInteger(-6));
        QCOMPARE(entries.first().balanceAfter, Decimal());
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    // Imports customer "imp" on plan pro, then leaves the plan out: its
    // balance expires with an expiry entry. The balance's id.
    QString expiredBalance()
    {
        if (!import(R"({"customer_id":"imp","processors":[{"type":"stripe","id":"cus_imp"}],
            "billables":[{"plan":{"plan_id":"pro","feature_quantities":[{"feature_id":"ai","quantity":10}],
            "balances":[{"feature_id":"ai","usage":4}]}}]})")
                 .ok() ||
            !import(R"({"customer_id":"imp","processors":[{"type":"stripe","id":"cus_imp"}],
            "billables":[]})")
                 .ok())
            qFatal("the import failed");
        return ledger(u"imp"_s).first().balanceId;
    }

    // An expired balance holds nothing: adjusting it is refused and writes
    // nothing (it once wrote an entry the trial balance could not agree with).
    void anExpiredBalanceCannotBeAdjusted()
    {
        const QString balance = expiredBalance();
        const qsizetype entries = ledger(u"imp"_s).size();
        engine::WriteTransaction transaction(db(), dialect());
        QVERIFY(transaction.begin().ok());
        const auto adjusted = engine::BalanceAdjuster::adjust(
            db(), dialect(), m_scope, {balance, Decimal::fromInteger(1), u"repro"_s},
            m_fixture->engine->now());
        QVERIFY(!adjusted);
        QCOMPARE(adjusted.error().status, 409);
        QCOMPARE(adjusted.error().code, u"balance_expired"_s);
        QVERIFY(adjusted.error().message.contains(balance));
        QVERIFY(transaction.commit().ok());
        QCOMPARE(ledger(u"imp"_s).size(), entries);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    // balances.create: a boolean feature holds no amount, so it is refused
    // and nothing written; a balance made of another feature balances.
    void aBalanceIsMadeOnlyOfAFeatureWithAnAmount()
    {
        QVERIFY(
            engine::execute(db(),
                            u"INSERT INTO features (pk, org_pk, env, id, name, type, created_at)"
                            " VALUES ((SELECT MAX(pk) + 1000 FROM features), ?, ?,"
                            " 'beta_access', 'Beta access', 'boolean', 0)"_s,
                            {m_scope.orgPk, m_scope.envWord()})
                .ok());
        const qsizetype entries = ledger(u"none"_s).size();
        const auto create = [&](const QString &feature) {
            engine::WriteTransaction transaction(db(), dialect());
            if (!transaction.begin())
                qFatal("no transaction");
            auto made = engine::BalanceCreator::create(
                db(), dialect(), m_scope,
                {u"none"_s, feature, std::nullopt, Decimal::fromInteger(2), std::nullopt, u"why"_s},
                m_fixture->engine->now());
            if (!transaction.commit())
                qFatal("no commit");
            return made;
        };
        const auto refused = create(u"beta_access"_s);
        QVERIFY(!refused);
        QCOMPARE(refused.error().status, 400);
        QVERIFY2(refused.error().message.startsWith(u"feature_id: "_s),
                 qPrintable(refused.error().message));
        QCOMPARE(ledger(u"none"_s).size(), entries);
        const auto made = create(u"ai"_s);
        QVERIFY2(made, made ? "" : qPrintable(made.error().message));
        QCOMPARE(held(u"none"_s, made.value().balanceId), Decimal::fromInteger(2));
        QCOMPARE(ledger(u"none"_s).size(), entries + 1);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    // A workspace the old fault damaged: one compensating entry takes the
    // balance back to zero, nothing is deleted, and verify accepts it.
    void aDamagedWorkspaceIsRepairedByACompensatingEntry()
    {
        const QString balance = expiredBalance();
        const Decimal remaining = held(u"imp"_s, balance);
        {
            // What balances.adjust wrote before it refused expired balances.
            engine::WriteTransaction transaction(db(), dialect());
            QVERIFY(transaction.begin().ok());
            const auto keys = engine::queryRows(
                db(), u"SELECT customer_pk, feature_pk FROM balances WHERE id = ?"_s, {balance});
            QVERIFY(keys && keys.value().size() == 1);
            const Decimal after = *remaining.plus(Decimal::fromInteger(1));
            QVERIFY(engine::execute(db(), u"UPDATE balances SET remaining = ? WHERE id = ?"_s,
                                    {after.toString(), balance})
                        .ok());
            QVERIFY(engine::BalanceLedger::write(
                        db(), dialect(), u"balances.adjust"_s, m_fixture->engine->now(),
                        {{m_scope, keys.value().first().at(0).toLongLong(),
                          keys.value().first().at(1).toLongLong(), balance, u"adjustment"_s,
                          Decimal::fromInteger(1), after, Decimal(), std::nullopt, std::nullopt}})
                        .ok());
            QVERIFY(transaction.commit().ok());
        }
        QCOMPARE(differences().size(), 2); // the entry's balance_after, and the total
        const qsizetype entries = ledger(u"imp"_s).size();

        const auto repaired =
            engine::LedgerRepair::repair(db(), dialect(), m_fixture->engine->now());
        QVERIFY2(repaired, qPrintable(repaired ? QString() : repaired.error().message));
        QCOMPARE(repaired.value().repaired.size(), 1);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
        const QList<api::LedgerEntry> after = ledger(u"imp"_s);
        QCOMPARE(after.size(), entries + 1);
        QCOMPARE(after.first().kind, u"adjustment"_s);
        QCOMPARE(after.first().amount, Decimal::fromInteger(-1));
        QCOMPARE(after.first().balanceAfter, Decimal());
        QCOMPARE(after.first().source.route, engine::LedgerRepair::Route);
        QCOMPARE(held(u"imp"_s, balance), remaining);

        // A sound workspace: nothing more to repair, nothing written.
        QCOMPARE(engine::LedgerRepair::repair(db(), dialect(), m_fixture->engine->now())
                     .value()
                     .repaired.size(),
                 0);
        QCOMPARE(ledger(u"imp"_s).size(), entries + 1);
    }

    void aDryRunLeavesNoRows()
    {
        QVERIFY(import(R"({"customer_id":"cy","dry_run":true,
            "billables":[{"plan":{"plan_id":"pro"}}]})")
                    .ok());
        QCOMPARE(ledger(u"cy"_s).size(), 4);
    }

    void rowsCannotBeChangedOrRemoved_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("update") << u"UPDATE ledger SET amount = '1000'"_s;
        QTest::newRow("delete") << u"DELETE FROM ledger"_s;
    }
    void rowsCannotBeChangedOrRemoved()
    {
        QFETCH(QString, sql);
        auto changed = engine::runSql(db(), sql);
        QVERIFY(!changed.ok());
        QVERIFY2(changed.error().message.contains(u"append-only"_s),
                 qPrintable(changed.error().message));
        QVERIFY(differences().isEmpty());
    }

    void theTrialBalanceNamesWhatDiffers()
    {
        QVERIFY(engine::runSql(db(), u"UPDATE balances SET remaining = '4.5'"
                                     " WHERE id = 'standalone_forever'"_s)
                    .ok());
        const QStringList found = differences();
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.first().contains(u"standalone_forever holds 4.5"_s),
                 qPrintable(found.first()));
        QVERIFY2(found.first().contains(u"add up to 5"_s), qPrintable(found.first()));
    }

    // PostgreSQL keeps no foreign key on usage events (migration 13): the
    // trial balance names an event whose customer is gone.
    void anEventOfAMissingCustomerIsNamed()
    {
        const bool sqlite = dialect() == engine::Dialect::Sqlite;
        if (sqlite) // SQLite keeps its constraint: set aside, as a damaged file might be
            QVERIFY(engine::runSql(db(), u"PRAGMA foreign_keys=OFF"_s).ok());
        const auto inserted = engine::runSql(
            db(), u"INSERT INTO usage_events (pk, org_pk, env, customer_pk, feature_pk, tokens,"
                  " value, properties, timestamp, created_at)"
                  " SELECT 987654, org_pk, env, 123456789, feature_pk, '{}', '1', '{}', 0, 0"
                  " FROM balances LIMIT 1"_s);
        if (sqlite)
            QVERIFY(engine::runSql(db(), u"PRAGMA foreign_keys=ON"_s).ok());
        QVERIFY(inserted.ok());
        const QStringList found = differences();
        QCOMPARE(found.size(), 2);
        QVERIFY2(found.first().startsWith(u"usage event 987654 names customer key 123456789"_s),
                 qPrintable(found.first()));
        // Written behind the engine's back, it is in no day of the rollup either.
        QVERIFY2(found.last().startsWith(u"usage_days of organization key"_s) &&
                     found.last().contains(u"holds nothing, but the events add up to 1 events"_s),
                 qPrintable(found.last()));
    }

    // Migration 17 adds up the events recorded before it; the rollup then
    // answers the days usage_events.totals reads.
    void migration17AddsUpTheEventsBeforeIt()
    {
        constexpr qint64 Day = engine::UsageDays::DayMs;
        for (int day = 0; day < 3; ++day) {
            *m_fixture->now = 40 * Day + day * Day + 5000;
            QVERIFY(track(u"cy"_s, day + 1).ok());
        }
        for (const QString &sql :
             test::TestDatabase::withoutBalanceSums() +
                 QStringList{u"DROP TABLE usage_days"_s,
                             u"DELETE FROM schema_version WHERE version >= 17"_s})
            QVERIFY2(engine::runSql(db(), sql).ok(), qPrintable(sql));
        m_fixture->engine.reset();
        MD_OPEN_FIXTURE(*m_fixture);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
        auto rows = engine::runSql(db(), u"SELECT count(*), sum(events) FROM usage_days"_s);
        QVERIFY(rows.ok() && rows.value().next());
        QCOMPARE(rows.value().value(0).toInt(), 3); // a row a day: one customer, feature, model
        QCOMPARE(rows.value().value(1).toInt(), 3);
        api::UsageTotalsRequest whole;
        whole.from = 40 * Day;
        whole.to = 43 * Day;
        const auto totals = test::usageTotals(*m_fixture->engine, m_scope, whole);
        QVERIFY(totals.ok());
        QCOMPARE(totals.value().total.events, 3);
        QCOMPARE(totals.value().total.cost, Decimal::fromInteger(6));
    }

    // The usage_days rollup is kept by every write of events, and a row that
    // differs from the events is named (issue 53).
    void theUsageRollupIsCheckedAgainstTheEvents()
    {
        QVERIFY(track(u"cy"_s, 2).ok());
        QVERIFY(track(u"cy"_s, 3).ok());
        QVERIFY(differences().isEmpty());
        const auto changed = engine::runSql(
            db(), u"UPDATE usage_days SET tokens = tokens + 1 WHERE day = (SELECT min(day)"
                  " FROM usage_days)"_s);
        QVERIFY(changed.ok());
        const QStringList found = differences();
        QVERIFY(!found.isEmpty());
        for (const QString &line : found)
            QVERIFY2(line.startsWith(u"usage_days of organization key"_s), qPrintable(line));
        QVERIFY(engine::UsageDays::rebuild(db(), dialect()).ok());
        QVERIFY(differences().isEmpty());
    }

    void balancesFromBeforeTheLedgerAreOpened()
    {
        // As a database from before migration 6: balances, no ledger rows.
        const QStringList unlock = dialect() == engine::Dialect::Sqlite
                                       ? QStringList{u"DROP TRIGGER ledger_no_delete"_s}
                                       : QStringList{u"DROP TRIGGER ledger_no_change ON ledger"_s};
        for (const QString &sql : unlock + QStringList{u"DELETE FROM ledger"_s})
            QVERIFY(engine::runSql(db(), sql).ok());
        QCOMPARE(differences().size(), 6); // none of the six balances has an entry
        QVERIFY(engine::LedgerVerifier::openExisting(db(), dialect()).ok());
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
        QCOMPARE(ledger(u"cy"_s).first().source.route, u"migration"_s);
    }

    void listErrorsNameWhatToFix()
    {
        api::LedgerRequest request;
        request.customerId = u"nobody"_s;
        auto answer = m_fixture->engine->withConnection([&](const QSqlDatabase &connection) {
            return engine::BalanceLedger::list(connection, m_scope, request);
        });
        QCOMPARE(answer.error().status, 404);
        QVERIFY(answer.error().message.contains(u"nobody"_s));
        request.customerId = u"cy"_s;
        request.featureId = u"nothing"_s;
        answer = m_fixture->engine->withConnection([&](const QSqlDatabase &connection) {
            return engine::BalanceLedger::list(connection, m_scope, request);
        });
        QCOMPARE(answer.error().code, u"feature_not_found"_s);
    }
};

QTEST_GUILESS_MAIN(TestBalanceLedger)
#include "tst_balanceledger.moc"
