// Issue 34: random sequences of every write route, from a seeded generator,
// held to an independent model (RandomModel.h), on SQLite and PostgreSQL.
//
// The workspace is the demo (DemoWorkspace, 12 customers) with credit
// balances added that expire on the clock, carry rollovers, belong to an
// entity or are unlimited, and a catalogue of whole-dollar prices, so every
// call's value is exact. The operations (RandomOperations.cpp) are sync and
// async track calls (some handed over together, as one group-committed
// batch), adjustments, imports (new and existing customers, expired and
// canceled plans, plans left out so they expire, dry runs, quantities and
// grants up to the largest amount, the same import sent again), product, reward and
// billing-controls updates, promotions to production, platform links, retries and discards of
// failed events, the queue's worker draining, and time passing (the engine's clock, which now also
// resets, expires rollovers and ends balances: the model applies the same rule on its own,
// RandomModel::passTime; and the sandbox's clock moved by three clock.advance calls racing). Values
// are often extreme: 0, ±10^-9, ±(10^20 − 10^-9), 10^20, 2^53 tokens, unknown ids, expired
// balances, repeated Idempotency-Keys.
//
// What the model knows exactly, it checks exactly: an adjustment adds its
// amount to remaining; an import's plan balances are included × quantity,
// prepaid and the reported usage; a plan left out expires; time changes
// status, and at each reset (when they fall is the listing's) puts usage
// back to 0 and remaining to the grant, ends rollovers and standalone
// balances, and does nothing at or after a plan's end; a sync call costs
// what the catalogue and markups say; nothing may leave the range of
// amounts (below 10^20), so what would must be refused. A sync call's split
// among rows is the engine's, so for it the model checks conservation
// instead: each deduction comes from an
// active row of the call's owner (or, overflowing with none, from one new
// row), a capped call takes what fits and no more (less only under a usage
// limit), an overflowing one its whole value; the model then takes each
// deduction from that row's live rollovers first, then its remaining (the
// usage), and every balance must match it (remaining, usage, rollovers,
// status, owner) after every operation. Async calls are applied by the
// worker, where no answer names the rows: per customer, the credit rows
// must lose at most what the applied calls cost, exactly that when they all
// overflowed; the model then takes the rows as listed. Which limit refuses a
// call, alerts, usage-limit windows and reward contents are left to their
// own tests; a refusal's status and code are checked where the model can
// name the one thing wrong.
//
// After every operation: no 5xx, and every sandbox balance equals the
// model's. After every sequence: the queue drained, `workspace verify`
// (LedgerVerifier) finds nothing, each customer's statements follow one
// another without a hole, its charge lines add up to what the model bills
// (each reset's usage past the grant and each purchase, an import's or a
// renewal's, priced by the model's own reading of docs/billing.md, a line
// past a trillion billed at a trillion), production balances are as loaded, every
// audit entry written records a change (before != after) and every
// adjustment has its entry.
//
// MD_RANDOM_SEED (default 20260314) and MD_RANDOM_OPS (default 3000, in
// sequences of 50; a group of track calls sent at once counts as one) choose
// the run; `make fuzz` runs 200,000 (fuzz/run.sh). Every 2,000 operations
// start again on a fresh workspace, so the checks cost the same all along.
// On a failure the seed, the sequence and its operations with their answers
// are printed; the same seed and count replay it, on either database.
#include "services/engine/ApiOperations.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/RandomRunner.h"

#include <QElapsedTimer>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::JsonValue;
using test::randomops::Model;
using test::randomops::Operation;
using test::randomops::OperationMaker;
using test::randomops::Runner;

namespace {

constexpr qint64 Start = 1767225600000; // 2026-01-01, the workspace's now
constexpr qint64 Day = 24 * 3600 * 1000;
constexpr int SequenceLength = 50;
constexpr int SequencesPerWorkspace = 40; // 2,000 operations
const QString Secret = u"sk_test_random00000000000000000000000000"_s;

// Whole dollars per million tokens; with the demo's whole-percent markups
// every value is exact.
const QByteArray Catalogue = R"({"providers":{
 "test":{"models":{"dollar":{"name":"Dollar","cost":{"input":1000000,"output":2000000}},
                   "micro":{"name":"Micro","cost":{"input":1,"output":3,"cache_read":2,"reasoning":5}}}},
 "openai":{"models":{"gpt-4o-mini":{"name":"Free","cost":{"input":1,"output":1}},
                     "gpt-4.1":{"name":"GPT","cost":{"input":2,"output":8}}}},
 "anthropic":{"models":{"claude-3-5-haiku-20241022":{"name":"Haiku","cost":{"input":1,"output":5}}}},
 "google":{"models":{"gemini-2.0-flash":{"name":"Flash","cost":{"input":1,"output":4,"input_audio":7}}}}}})";

JsonValue creditRow(const QString &id, qint64 prepaid, const JsonValue &entity,
                    const JsonValue &expiresAt, bool unlimited)
{
    return JsonValue::object({{"id"_L1, id},
                              {"feature_id"_L1, u"ai_credits"_s},
                              {"customer_product_id"_L1, JsonValue::null()},
                              {"entity_id"_L1, entity},
                              {"included_grant"_L1, 0},
                              {"prepaid_grant"_L1, prepaid},
                              {"remaining"_L1, prepaid},
                              {"usage"_L1, 0},
                              {"unlimited"_L1, unlimited},
                              {"expires_at"_L1, expiresAt},
                              {"created_at"_L1, Start - Day},
                              {"rollovers"_L1, JsonValue::array()}});
}

// The demo, and credit balances that expire as the clock moves, carry
// rollovers, belong to an entity, or are unlimited.
JsonValue workspace()
{
    engine::DemoOptions options;
    options.customers = 12;
    options.liveCustomers = 2;
    options.nowMs = Start;
    options.testSecret = Secret;
    JsonValue demo = engine::DemoWorkspace::build(options);
    JsonValue organizations = demo.value("organizations"_L1);
    JsonValue organization = organizations.at(0);
    JsonValue sandbox = organization.value("test"_L1);
    JsonValue customers = sandbox.value("customers"_L1);
    for (qsizetype i = 0; i < customers.size(); ++i) {
        JsonValue customer = customers.at(i);
        JsonValue balances = customer.value("balances"_L1);
        if (i % 3 == 0)
            balances.append(creditRow(u"expiring_%1"_s.arg(i), 40, JsonValue::null(),
                                      JsonValue(Start + (i + 1) * Day), false));
        if (i == 5)
            balances.append(
                creditRow(u"unlimited_5"_s, 0, JsonValue::null(), JsonValue::null(), true));
        const JsonValue &entities = customer.value("entities"_L1);
        if (i % 5 == 2 && entities.size() > 0)
            balances.append(creditRow(u"entity_%1"_s.arg(i), 25, entities.at(0).value("id"_L1),
                                      JsonValue::null(), false));
        for (qsizetype b = 0; i % 4 == 1 && b < balances.size(); ++b) {
            JsonValue row = balances.at(b);
            if (row.value("feature_id"_L1).toString() != "ai_credits"_L1 ||
                row.value("customer_product_id"_L1).isNull())
                continue;
            const auto rollover = [](qint64 amount, qint64 expiresAt) {
                return JsonValue::object(
                    {{"granted"_L1, amount}, {"balance"_L1, amount}, {"expires_at"_L1, expiresAt}});
            };
            row.insert(u"rollovers"_s, JsonValue::array({rollover(5, Start + 2 * Day),
                                                         rollover(3, Start + 20 * Day)}));
            balances.replace(b, row);
        }
        customer.insert(u"balances"_s, balances);
        customers.replace(i, customer);
    }
    sandbox.insert(u"customers"_s, customers);
    organization.insert(u"test"_s, sandbox);
    organizations.replace(0, organization);
    demo.insert(u"organizations"_s, organizations);
    return demo;
}

quint32 seed()
{
    bool ok = false;
    const quint32 chosen = qEnvironmentVariable("MD_RANDOM_SEED").toUInt(&ok);
    return ok ? chosen : 20260314;
}

int operations()
{
    bool ok = false;
    const int chosen = qEnvironmentVariableIntValue("MD_RANDOM_OPS", &ok);
    return ok && chosen > 0 ? chosen : 3000;
}

} // namespace

class TestRandomOps final : public QObject
{
    Q_OBJECT

    std::atomic<qint64> m_now{Start};
    std::unique_ptr<test::TestDatabase> m_database;
    std::unique_ptr<engine::Engine> m_engine;
    std::optional<Model> m_model;
    std::unique_ptr<Runner> m_runner;

    // A fresh database with the workspace loaded, the clock at its start:
    // empty when ready, else what went wrong.
    QString begin()
    {
        m_runner.reset();
        m_engine.reset(); // before its database goes
        m_database = std::make_unique<test::TestDatabase>();
        if (!m_database->error().isEmpty())
            return m_database->error();
        m_now = Start;
        m_engine = std::make_unique<engine::Engine>(m_database->location(),
                                                    [this] { return m_now.load(); });
        const JsonValue loaded = workspace();
        auto catalogue = engine::PriceCatalogue::fromJson(Catalogue);
        if (auto opened = m_engine->open(); !opened)
            return opened.error().message;
        if (auto load = m_engine->loadWorkspace(loaded); !load)
            return load.error().message;
        if (!catalogue)
            return catalogue.error().message;
        m_engine->setCatalogue(std::make_shared<engine::PriceCatalogue>(catalogue.value()));
        auto key = m_engine->authenticate(Secret);
        auto created = m_engine->createKey(u"demo"_s, engine::Environment::Production, {u"*"_s},
                                           u"random live"_s);
        if (!key || !created)
            return u"no keys"_s;
        auto live = m_engine->authenticate(created.value().secret);
        auto products = engine::ApiOperations(*m_engine).listProducts(key.value());
        if (!live || !products)
            return u"no production key or products"_s;
        m_model = Model::of(loaded, Catalogue);
        for (const api::Product &product : products.value().list) {
            m_model->plans[product.id].insert(product.version, product.items);
            if (product.version >= m_model->newestProducts.value(product.id).version)
                m_model->newestProducts.insert(product.id, product);
        }
        m_runner = std::make_unique<Runner>(*m_engine, key.value(), live.value(), *m_model, m_now);
        m_runner->compareBalances();
        return m_runner->problems().join(u'\n');
    }

    // The report of a failed sequence: enough to read what happened and to
    // run it again.
    QString report(int sequence, const QList<Operation> &log, const QStringList &problems) const
    {
        const QString database = test::TestDatabase::usesPostgres() ? u"postgres"_s : u"sqlite"_s;
        QString text = u"\nsequence %1 of seed %2 on %3 broke %4 rule(s):\n"_s.arg(sequence)
                           .arg(seed())
                           .arg(database)
                           .arg(problems.size());
        for (const QString &problem : problems)
            text += u"  - "_s + problem + u'\n';
        text += u"its operations (%1 to %2 on its workspace; the clock at %3):\n"_s
                    .arg(sequence % SequencesPerWorkspace * SequenceLength + 1)
                    .arg((sequence % SequencesPerWorkspace + 1) * SequenceLength)
                    .arg(m_runner->now());
        for (const Operation &op : log)
            text += u"  #%1 %2\n"_s.arg(op.index).arg(op.describe());
        text += u"replay: MD_RANDOM_SEED=%1 MD_RANDOM_OPS=%2 MD_TEST_DATABASE=%3 tst_randomops\n"_s
                    .arg(seed())
                    .arg((sequence + 1) * SequenceLength)
                    .arg(database);
        return text;
    }

private Q_SLOTS:
    void randomSequences()
    {
        const int total = operations();
        QRandomGenerator random(seed());
        QElapsedTimer timer;
        timer.start();
        qint64 serial = 0;
        for (int sequence = 0; sequence * SequenceLength < total; ++sequence) {
            // A fresh workspace now and then keeps each operation's checks
            // (every balance, the whole ledger) from growing with the run.
            if (sequence % SequencesPerWorkspace == 0) {
                const QString problem = begin();
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
            OperationMaker maker(random, *m_model);
            QList<Operation> log;
            const auto run = [&](QList<Operation> ops) {
                const qsizetype first = log.size();
                log += ops;
                QList<Operation *> running;
                for (qsizetype i = first; i < log.size(); ++i) {
                    log[i].index = int(i);
                    running.append(&log[i]);
                }
                m_runner->run(running, maker);
                m_runner->compareBalances();
                return m_runner->problems().isEmpty();
            };
            bool sound = true;
            const int length = std::min(SequenceLength, total - sequence * SequenceLength);
            for (int done = 0; sound && done < length; ++done)
                sound = run(maker.next(m_runner->now(), serial));
            if (sound && run({{u"track_queue.drain"_s}})) {
                m_runner->compareLive();
                m_runner->verifyLedger();
                m_runner->checkAudit();
            }
            if (!m_runner->problems().isEmpty()) {
                qWarning().noquote() << report(sequence, log, m_runner->problems());
                QFAIL(qPrintable(m_runner->problems().first()));
            }
        }
        qInfo("%d operations, seed %u, on %s: %lld ms", total, seed(),
              test::TestDatabase::usesPostgres() ? "postgres" : "sqlite", qint64(timer.elapsed()));
    }

    void cleanupTestCase()
    {
        m_runner.reset();
        m_engine.reset(); // before its database goes
    }
};

QTEST_GUILESS_MAIN(TestRandomOps)
#include "tst_randomops.moc"
