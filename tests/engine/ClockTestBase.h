// What the billing clock's engine tests share (tst_billingclock,
// tst_clockadvance): the workspace tests/engine/data/clock.json opened at
// Jan 31 noon, its moments, and helpers that read balances, the ledger and
// counts back.
#pragma once

#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"

#include <QTest>

namespace md::test::clock {

using namespace Qt::StringLiterals;
using api::Decimal;

inline constexpr qint64 Day = 86'400'000;
inline constexpr qint64 Jan31Noon = 1738324800000;
inline constexpr qint64 Feb28 = 1740700800000;
inline constexpr qint64 Mar01 = 1740787200000;
inline constexpr qint64 Mar05 = 1741132800000;
inline constexpr qint64 Jun01 = 1748736000000;

inline Decimal dec(const char *text)
{
    return *Decimal::parse(QByteArrayView(text));
}

inline api::JsonValue clockWorkspace()
{
    return test::readJsonFile(QStringLiteral(MD_TEST_DATA_DIR "/clock.json"));
}

// A workspace of `n` customers with one monthly balance each, 10 used of
// 100, resetting at `resetsAt`; their billing periods open a year later, so
// the clock's steps are the balances' alone.
inline api::JsonValue manyDue(int n, qint64 resetsAt)
{
    QByteArray customers;
    for (int i = 0; i < n; ++i) {
        if (i)
            customers += ',';
        customers +=
            QStringLiteral(R"({"id":"c%1","name":"C","email":"c@example.com","created_at":1,)"
                           R"("balances":[{"id":"b%1","feature_id":"calls","included_grant":100,)"
                           R"("prepaid_grant":0,"remaining":90,"usage":10,"created_at":1,)"
                           R"("reset":{"interval":"month","resets_at":%2}}]})")
                .arg(i)
                .arg(resetsAt)
                .toUtf8();
    }
    return test::jsonValue(
        R"({"format":"meterdesk-workspace","version":1,"statements_from":)" +
        QByteArray::number(resetsAt + 366 * Day) +
        R"(,"organizations":[{"id":"org_m","slug":"many",)"
        R"("name":"Many","created_at":1,"test":{"features":[{"id":"calls","name":"Calls",)"
        R"("type":"single_use","created_at":1}],"customers":[)" +
        customers + "]}}]}");
}

class ClockTestBase : public QObject
{
protected:
    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_test;
    engine::Scope m_live;

    engine::ApiOperations api() { return engine::ApiOperations(*m_fixture->engine); }

    QHash<QString, api::BalanceRow> balancesOf(const QString &customer,
                                               const engine::Scope *scope = nullptr)
    {
        api::ListBalancesRequest request;
        request.customerId = customer;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        auto page = test::listBalances(*m_fixture->engine, scope ? *scope : m_test, request);
        if (!page)
            qFatal("list: %s", qPrintable(page.error().message));
        QHash<QString, api::BalanceRow> rows;
        for (const api::BalanceRow &row : page.value().list)
            rows.insert(row.id, row);
        return rows;
    }

    // A customer's ledger, oldest first.
    QList<api::LedgerEntry> ledgerOf(const QString &customer)
    {
        api::LedgerRequest request;
        request.customerId = customer;
        request.limit = 200;
        QList<api::LedgerEntry> entries;
        for (;;) {
            auto page = api().listLedger(test::everyScope(m_test), request);
            if (!page)
                qFatal("ledger: %s", qPrintable(page.error().message));
            entries += page.value().list; // newest first
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        std::reverse(entries.begin(), entries.end());
        return entries;
    }

    QStringList kindsOf(const QList<api::LedgerEntry> &entries, const QString &balance,
                        const QString &route)
    {
        QStringList kinds;
        for (const api::LedgerEntry &entry : entries)
            if (entry.balanceId == balance && entry.source.route == route)
                kinds << entry.kind;
        return kinds;
    }

    qint64 count(const QString &sql)
    {
        auto rows = engine::queryRows(m_fixture->engine->database().connection().value(), sql, {});
        return rows ? rows.value().first().first().toLongLong() : -1;
    }

    // The sandbox of manyDue()'s organization; key 0 when it is not loaded.
    engine::Scope manySandbox()
    {
        engine::Scope many{0, engine::Environment::Sandbox};
        const auto organizations = m_fixture->engine->organizations();
        if (organizations.ok())
            for (const engine::OrganizationRow &org : organizations.value())
                if (org.slug == "many"_L1)
                    many.orgPk = org.pk;
        return many;
    }

    // A call worth `dollars` of Cara's AI credits (init() prices the model).
    static api::TrackTokensRequest dollars(const QString &customer, qint64 dollars)
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = u"test/dollar"_s;
        call.inputTokens = dollars;
        return call;
    }

    void verifyLedger(engine::Engine &engine)
    {
        auto report = engine::LedgerVerifier::verify(engine.database().connection().value(),
                                                     engine.dialect());
        QVERIFY(report.ok());
        QVERIFY2(report.value().differences.isEmpty(),
                 qPrintable(report.value().differences.join(u'\n')));
    }

    // Opens the fixture at Jan 31 noon on clock.json, with a model whose
    // million input tokens cost one dollar.
    void setUp()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        *m_fixture->now = Jan31Noon;
        MD_OPEN_FIXTURE(*m_fixture);
        auto loaded = m_fixture->engine->loadWorkspace(clockWorkspace());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        auto catalogue = engine::PriceCatalogue::fromJson(
            R"({"providers":{"test":{"models":{"dollar":{"cost":{"input":1000000,"output":0}}}}}})");
        QVERIFY(catalogue.ok());
        m_fixture->engine->setCatalogue(
            std::make_shared<engine::PriceCatalogue>(catalogue.value()));
        const qint64 org = m_fixture->engine->organizations().value().first().pk;
        m_test = {org, engine::Environment::Sandbox};
        m_live = {org, engine::Environment::Production};
    }
};

} // namespace md::test::clock
