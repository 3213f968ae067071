// No statement on a per-call path walks a whole organization (issue 35).
// The per-call paths run once through ApiOperations on a demo workspace
// with thousands of balances and SQLite's statistics (ANALYZE), with
// StatementLog listening; then each statement they prepared is explained
// (EXPLAIN QUERY PLAN) and fails the test when it scans a table that grows
// with the organization, or searches one through an index bounded only by
// the organization and environment. SQLite for now: PostgreSQL's plans
// (EXPLAIN (FORMAT JSON)) are the next step of the issue.
#include "services/engine/ApiOperations.h"
#include "services/engine/DemoWorkspace.h"
#include "services/engine/Sql.h"
#include "services/engine/SqliteStatement.h"
#include "services/engine/StatementLog.h"
#include "tests/engine/EngineFixture.h"

#include <QDateTime>
#include <QRegularExpression>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_queryplans000000000000000000000"_s;

// Tables whose rows grow with an organization's customers and usage.
const QSet<QString> Growing{u"balances"_s,         u"customers"_s,   u"customer_products"_s,
                            u"entities"_s,         u"ledger"_s,      u"usage_events"_s,
                            u"audit_log"_s,        u"track_queue"_s, u"rollovers"_s,
                            u"billing_controls"_s, u"usage_alerts"_s};

// What `sql` calls each table: alias (or the name itself) to table.
QHash<QString, QString> tablesOf(const QString &sql)
{
    static const QRegularExpression named(
        u"\\b(?:FROM|JOIN)\\s+(\\w+)(?:\\s+(?:AS\\s+)?(?!ON\\b|WHERE\\b|LEFT\\b|JOIN\\b|ORDER\\b)(\\w+))?"_s,
        QRegularExpression::CaseInsensitiveOption);
    QHash<QString, QString> tables;
    for (auto it = named.globalMatch(sql); it.hasNext();) {
        const auto match = it.next();
        tables.insert(match.captured(1), match.captured(1));
        if (match.hasCaptured(2))
            tables.insert(match.captured(2), match.captured(1));
    }
    return tables;
}

// The plan's steps that walk an organization, as sentences.
QStringList walksOf(const QSqlDatabase &db, const QString &sql)
{
    auto plan = engine::SqliteStatement::run(db, u"EXPLAIN QUERY PLAN "_s + sql, {});
    if (!plan)
        return {u"cannot explain: "_s + plan.error().message};
    static const QRegularExpression step(u"^(SCAN|SEARCH) (\\w+)(.*)$"_s);
    static const QRegularExpression bound(u"\\(([^)]*)\\)"_s);
    const QHash<QString, QString> tables = tablesOf(sql);
    QStringList details;
    QSet<QString> subqueries; // a FROM (SELECT …) x: scanning x reads what it made
    for (;;) {
        auto next = plan.value()->next();
        if (!next || !next.value())
            break;
        details.append(plan.value()->text(3));
        for (const auto prefix : {"CO-ROUTINE "_L1, "MATERIALIZE "_L1})
            if (details.last().startsWith(prefix))
                subqueries.insert(details.last().mid(prefix.size()).section(u' ', 0, 0));
    }
    QStringList walks;
    for (const QString &detail : std::as_const(details)) {
        const auto match = step.match(detail);
        if (!match.hasMatch())
            continue;
        const QString table = tables.value(match.captured(2), match.captured(2));
        if (!Growing.contains(table))
            continue;
        if (match.captured(1) == "SCAN"_L1) {
            if (!subqueries.contains(match.captured(2)))
                walks.append(u"%1: %2"_s.arg(table, detail));
            continue;
        }
        // A bare SEARCH is SQLite's min/max of the rowid (a key's allocation).
        if (match.captured(3).isEmpty())
            continue;
        // Bounded by what the index is searched on: more than org_pk and env.
        QStringList columns;
        for (const QString &term :
             bound.match(match.captured(3)).captured(1).split(u" AND "_s, Qt::SkipEmptyParts))
            columns.append(term.section(QRegularExpression(u"[=<>]"_s), 0, 0).trimmed());
        columns.removeAll(u"org_pk"_s);
        columns.removeAll(u"env"_s);
        if (columns.isEmpty())
            walks.append(u"%1: %2"_s.arg(table, detail));
    }
    return walks;
}

// Walks found and not fixed yet (issue 35 stays open for them): the
// statement's telltale, and what it is.
const char *knownWalk(const QString &sql)
{
    if (sql.contains(u"FROM usage_events x"_s))
        return "usage_events.list by customer walks the time index of the organization "
               "(docs/storage.md: one per-customer index on the usage path)";
    if (sql.contains(u"cp.product_pk = (SELECT"_s) || sql.contains(u"product_pk IN"_s))
        return "balances.list by plan walks the organization's balances";
    return nullptr;
}

} // namespace

class TestQueryPlans final : public QObject
{
    Q_OBJECT

    test::EngineFixture m_fixture;
    std::optional<engine::KeyContext> m_key;
    QSqlDatabase db() { return m_fixture.engine->database().connection().value(); }

private Q_SLOTS:
    void initTestCase()
    {
        MD_OPEN_FIXTURE(m_fixture);
        *m_fixture.now = QDateTime::currentMSecsSinceEpoch();
        engine::DemoOptions options;
        options.customers = 600;
        options.balancesPerCustomer = 8;
        options.nowMs = *m_fixture.now;
        options.testSecret = Key;
        QVERIFY(m_fixture.engine->loadWorkspace(engine::DemoWorkspace::build(options)).ok());
        auto key = m_fixture.engine->authenticate(Key);
        QVERIFY(key);
        m_key = key.value();
    }

    // The check catches the statement that made track_tokens collapse at
    // 210,000 balances: the customer's credit systems as an IN over their
    // balances, answered by walking every balance of the organization.
    void theOldResolverStatementIsCaught()
    {
        const QString old =
            u"SELECT c.pk, f.pk FROM customers c LEFT JOIN features f ON f.type ="
            " 'credit_system' AND f.pk IN (SELECT b.feature_pk FROM balances b WHERE b.org_pk ="
            " c.org_pk AND b.env = c.env AND b.customer_pk = c.pk) WHERE c.org_pk = ? AND c.env"
            " = ? AND c.id = ?"_s;
        // Without statistics, as the engine keeps its workspaces (this runs first).
        const QStringList walks = walksOf(db(), old);
        QVERIFY2(!walks.isEmpty(), "the old statement walks the organization's balances");
        QVERIFY(walks.first().startsWith(u"balances: "_s));
    }

    // The statements of every per-call path, explained.
    void perCallPathsSearchByCustomerOrKey()
    {
        engine::ApiOperations api(*m_fixture.engine);
        const engine::KeyContext &key = *m_key;
        engine::StatementLog::start();

        api::TrackTokensRequest call;
        call.customerId = u"acme-labs-0001"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 1000;
        call.outputTokens = 100;
        QVERIFY(api.trackTokens(key, call).ok()); // the credit system found from the balances
        call.featureId = u"ai_credits"_s;
        QVERIFY(api.trackTokens(key, call).ok());
        call.async = true;
        QVERIFY(api.trackTokens(key, call).ok());
        QVERIFY(m_fixture.engine->trackQueue().drain().ok());

        api::ListBalancesRequest list;
        list.customerId = call.customerId;
        QVERIFY(api.listBalances(key, list).ok());
        list.customerId.reset();
        list.featureId = u"api_calls"_s;
        QVERIFY(api.listBalances(key, list).ok());
        list.featureId.reset();
        list.planId = std::optional(u"pro"_s);
        QVERIFY(api.listBalances(key, list).ok());
        QVERIFY(api.customer(key, call.customerId).ok());
        api::LedgerRequest ledger;
        ledger.customerId = call.customerId;
        QVERIFY(api.listLedger(key, ledger).ok());
        api::PageRequest events;
        events.customerId = call.customerId;
        QVERIFY(api.listUsageEvents(key, events).ok());

        const QStringList statements = engine::StatementLog::stop();
        QVERIFY(statements.size() > 10);
        // Bounded whatever the statistics: as the engine keeps a workspace
        // (none), and as ANALYZE would leave it after thousands of rows.
        QStringList walks;
        for (const bool analyzed : {false, true}) {
            if (analyzed)
                QVERIFY(engine::execute(db(), u"ANALYZE"_s, {}).ok());
            for (const QString &sql : statements) {
                if (const auto known = knownWalk(sql)) {
                    qInfo("known, still to fix (issue 35): %s", known);
                    continue;
                }
                for (const QString &walk : walksOf(db(), sql))
                    walks.append(walk + u"\n    in: "_s + sql.simplified().left(300));
            }
        }
        QVERIFY2(walks.isEmpty(), qPrintable(walks.join(u"\n"_s)));
    }
};

QTEST_MAIN(TestQueryPlans)
#include "tst_queryplans.moc"
