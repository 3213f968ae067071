// Usage of any feature over HTTP (docs/performance.md, "Usage in bulk"), on
// each database given, with meterdesk-server and lean keep-alive clients:
// balances.check against the authenticated no-op call (whoami), a single
// synchronous balances.track as the server's own CPU per call against a
// no-op call's plus one raw transaction's, and usage.batch of 100 events
// from 8 clients against the raw single-transaction ceiling. Every figure
// is printed beside its ceiling from the same run, as a ratio, with the
// server's CPU per call from /proc (the clients share the two cores).
// Afterwards every balance must equal its grant less exactly what was
// tracked, and the ledger's trial balance must be clean; exits non-zero if
// not, or if a call failed.
#include "bench/BenchServer.h"
#include "bench/BenchSupport.h"
#include "bench/Ceilings.h"
#include "services/api/TrackUsage.h"
#include "services/api/UsageBatch.h"
#include "services/api/WireCodec.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "tests/support/HttpClient.h"
#include "tests/trust/TrustWorkspace.h"

#include <QCommandLineParser>
#include <QProcess>

#include <atomic>
#include <thread>
#include <vector>

using namespace md;
using namespace Qt::StringLiterals;
using bench::CpuWatch;
using bench::fail;

namespace {

QTextStream out(stdout);

const QString Secret = u"sk_test_benchusage0000000000000000000"_s;
constexpr qint64 Granted = test::TrustGrant;

struct Options
{
    QString server;
    int customers = 0;
    int clients = 0;
    int calls = 0;   // single calls per measurement
    int batches = 0; // batches per measurement
    int batchSize = 0;
};

// How fast `clients` threads get through `each` calls apiece; `call(c, i)`
// runs on client c's thread with its own connection and says how many
// events the call carried.
struct Rate
{
    qint64 calls = 0;
    qint64 events = 0;
    double seconds = 0;
};

template <typename Call> Rate timed(const QUrl &url, int clients, int each, Call &&call)
{
    std::atomic<qint64> events{0};
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c)
        threads.emplace_back([&, c] {
            test::HttpClient http(url, Secret.toLatin1());
            for (int i = 0; i < each; ++i)
                events += call(http, c, i);
        });
    for (std::thread &thread : threads)
        thread.join();
    return {qint64(clients) * each, events, double(timer.nsecsElapsed()) / 1e9};
}

void row(const QString &name, double value, double ceiling, const QString &goal)
{
    out << QStringLiteral("%1 %2 %3 %4  %5\n")
               .arg(name, -44)
               .arg(value, 10, 'f', 0)
               .arg(ceiling, 10, 'f', 0)
               .arg(value / ceiling, 6, 'f', 2)
               .arg(goal);
    out.flush();
}

QByteArray trackBody(int customer)
{
    api::TrackRequest request;
    request.customerId = u"c%1"_s.arg(customer);
    request.featureId = u"credits"_s;
    request.overageBehavior = api::OverageBehavior::Overflow; // every call lands in full
    return api::toJsonText(request);
}

// The balances tracked: each call and event takes 1 from its customer.
class Tally
{
public:
    explicit Tally(int customers)
        : m_counts(std::size_t(customers))
    {}
    void add(int customer) { ++m_counts[std::size_t(customer)]; }
    qint64 of(int customer) const { return m_counts[std::size_t(customer)]; }

private:
    std::vector<std::atomic<qint64>> m_counts;
};

// Every customer's credits must be the grant less exactly its count.
qint64 wrongBalances(const QString &location, const Tally &tally, int customers)
{
    engine::Engine observer(location);
    if (auto opened = observer.open(); !opened)
        fail(opened.error().message);
    auto rows = observer.withConnection([](const QSqlDatabase &db) {
        return engine::queryRows(db,
                                 u"SELECT c.id, b.remaining FROM balances b JOIN customers c"
                                 " ON c.pk = b.customer_pk WHERE c.id LIKE 'c%'"_s,
                                 {});
    });
    if (!rows)
        fail(rows.error().message);
    qint64 wrong = customers - qint64(rows.value().size());
    for (const QVariantList &row : std::as_const(rows.value())) {
        const int customer = row.at(0).toString().mid(1).toInt();
        const auto expected = api::Decimal::fromInteger(Granted - tally.of(customer));
        if (api::Decimal::parse(row.at(1).toString()) != expected)
            ++wrong;
    }
    auto report = observer.withConnection([&](const QSqlDatabase &db) {
        return engine::LedgerVerifier::verify(db, observer.dialect());
    });
    if (!report)
        fail(report.error().message);
    out << "final balances: " << (customers - wrong) << " of " << customers
        << " customers exactly their grant less what was tracked; trial balance "
        << (report.value().balanced() ? u"clean"_s : report.value().differences.first()) << "\n";
    return wrong + report.value().differences.size();
}

void measure(const QString &location, const Options &options)
{
    const bool postgres = engine::Database::isPostgresUrl(location);
    const QString database = postgres ? QUrl(location).path().mid(1) : QString();
    {
        engine::Engine setup(location);
        if (auto opened = setup.open(); !opened)
            fail(opened.error().message);
        if (auto loaded =
                setup.loadWorkspace(test::fromQt(test::trustWorkspace(options.customers, Secret)));
            !loaded)
            fail(loaded.error().message);
    }
    out << "\n"
        << (postgres ? "PostgreSQL" : "SQLite") << ": " << options.customers << " customers, "
        << options.clients << " clients\n";
    const bench::RawFigures raw = bench::rawTransactions(location, 20000);
    out << "ceiling, raw transactions: " << qRound(raw.perSecond) << "/s, " << qRound(raw.cpuMicros)
        << " µs of CPU each\n";
    QProcess server;
    const QUrl url = bench::startServer(server, options.server, location, {u"--workers"_s, u"4"_s});
    const qint64 pid = server.processId();
    Tally tally(options.customers);
    const auto spread = [&](int c, int i) {
        return int((qint64(c) * 7919 + qint64(i) * 104729) % options.customers);
    };

    const CpuWatch noopCpu(pid, QString());
    const Rate noop = timed(url, options.clients, options.calls / options.clients,
                            [](test::HttpClient &http, int, int) {
                                if (http.post("/v1/meterdesk/whoami", "{}").status != 200)
                                    fail(u"whoami failed"_s);
                                return 1;
                            });
    const double noopRate = noop.calls / noop.seconds;
    const double noopMicros = noopCpu.serverMicros(noop.calls);
    out << "ceiling, HTTP: " << qRound(noopRate)
        << " authenticated no-op calls/s (whoami), server CPU " << qRound(noopMicros)
        << " µs each\n\n";
    out << QStringLiteral("%1 %2 %3 %4  %5\n")
               .arg(u"figure"_s, -44)
               .arg(u"per s"_s, 10)
               .arg(u"ceiling"_s, 10)
               .arg(u"ratio"_s, 6)
               .arg(u"goal"_s);

    const CpuWatch checkCpu(pid, database);
    const Rate checks = timed(url, options.clients, options.calls / options.clients,
                              [&](test::HttpClient &http, int c, int i) {
                                  api::CheckRequest request;
                                  request.customerId = u"c%1"_s.arg(spread(c, i));
                                  request.featureId = u"credits"_s;
                                  const auto answer = http.post("/v1/meterdesk/balances.check",
                                                                api::toJsonText(request));
                                  if (answer.status != 200 || !answer.body.contains("true"))
                                      fail(u"balances.check: %1"_s.arg(answer.status));
                                  return 1;
                              });
    row(u"balances.check, vs no-op calls"_s, checks.calls / checks.seconds, noopRate, u">= 0.8"_s);
    checkCpu.print(out, checks.calls);

    const CpuWatch trackCpu(pid, database);
    const Rate singles = timed(url, options.clients, options.calls / options.clients,
                               [&](test::HttpClient &http, int c, int i) {
                                   const int customer = spread(c, i);
                                   const auto answer = http.post("/v1/meterdesk/balances.track",
                                                                 trackBody(customer));
                                   if (answer.status != 200)
                                       fail(u"balances.track: %1 %2"_s.arg(answer.status)
                                                .arg(QString::fromUtf8(answer.body)));
                                   tally.add(customer);
                                   return 1;
                               });
    row(u"balances.track sync, vs raw transactions"_s, singles.calls / singles.seconds,
        raw.perSecond, u"(reported)"_s);
    trackCpu.print(out, singles.calls);
    trackCpu.printAgainst(out, singles.calls, noopMicros, raw.cpuMicros);

    // Each client's batches made before the clock starts: the clients
    // share the server's cores, so building JSON is kept out of the figure.
    const int perClient = options.batches / options.clients;
    std::vector<std::vector<QByteArray>> bodies(std::size_t(options.clients));
    for (int c = 0; c < options.clients; ++c)
        for (int b = 0; b < perClient; ++b) {
            api::UsageBatchRequest batch;
            for (int e = 0; e < options.batchSize; ++e) {
                const int customer = spread(c, b * options.batchSize + e);
                api::TrackRequest event;
                event.customerId = u"c%1"_s.arg(customer);
                event.featureId = u"credits"_s;
                event.overageBehavior = api::OverageBehavior::Overflow;
                batch.events.append(api::UsageBatchEvent{event.asCall(), std::nullopt});
                tally.add(customer);
            }
            bodies[std::size_t(c)].push_back(api::toJsonText(batch));
        }
    const CpuWatch batchCpu(pid, database);
    const Rate batched =
        timed(url, options.clients, perClient, [&](test::HttpClient &http, int c, int b) {
            const auto answer =
                http.post("/v1/meterdesk/usage.batch", bodies[std::size_t(c)][std::size_t(b)]);
            if (answer.status != 200 || answer.body.count("{\"status\":200,") != options.batchSize)
                fail(u"usage.batch: %1 %2"_s.arg(answer.status)
                         .arg(QString::fromUtf8(answer.body.left(300))));
            return options.batchSize;
        });
    const double eventsPerSecond = batched.events / batched.seconds;
    row(u"usage.batch of %1, events vs raw transactions"_s.arg(options.batchSize), eventsPerSecond,
        raw.perSecond, postgres ? u">= 3 and >= 30,000/s"_s : u">= 3 and >= 100,000/s"_s);
    batchCpu.print(out, batched.events);
    out << "  " << qRound(batched.calls / batched.seconds) << " batches/s\n";
    server.terminate();
    server.waitForFinished(60000);
    if (wrongBalances(location, tally, options.customers) != 0)
        std::exit(1);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption database(
        u"database"_s, u"SQLite file or postgresql:// URL; repeatable."_s, u"LOCATION"_s);
    const QCommandLineOption server(u"server"_s, u"meterdesk-server binary."_s, u"PATH"_s);
    const QCommandLineOption customers(u"customers"_s, u"Customers."_s, u"N"_s, u"200000"_s);
    const QCommandLineOption clients(u"clients"_s, u"Concurrent clients."_s, u"N"_s, u"8"_s);
    const QCommandLineOption calls(u"calls"_s, u"Single calls per measurement."_s, u"N"_s,
                                   u"24000"_s);
    const QCommandLineOption batches(u"batches"_s, u"Batches per measurement."_s, u"N"_s,
                                     u"4000"_s);
    const QCommandLineOption batchSize(u"batch-size"_s, u"Events per batch."_s, u"N"_s, u"100"_s);
    parser.addOptions({database, server, customers, clients, calls, batches, batchSize});
    parser.process(app);
    const Options options{parser.value(server),          parser.value(customers).toInt(),
                          parser.value(clients).toInt(), parser.value(calls).toInt(),
                          parser.value(batches).toInt(), parser.value(batchSize).toInt()};
    if (parser.values(database).isEmpty() || options.server.isEmpty())
        fail(u"give --database and --server"_s);
    for (const QString &location : parser.values(database))
        measure(location, options);
    return 0;
}
