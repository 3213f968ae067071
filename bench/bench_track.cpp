// balances.track_tokens throughput: synchronous calls per second and p50/p99
// latency with 8 concurrent clients through EngineBackend and over loopback
// HTTP (meterdesk-server), then async calls accepted per second and how fast
// the queue drains. Each figure is printed as a ratio of a ceiling measured
// in the same run: the database's small write transactions per second (one
// commit is what a synchronous call cannot do without) for the engine, and
// the server's authenticated round trips per second (whoami: no database
// write) for HTTP. Afterwards it checks that every customer's balance equals
// what it started with minus exactly the expected sum. Prints figures only;
// exits non-zero if a call failed or a balance is off.
#include "bench/BenchSupport.h"
#include "bench/Percentile.h"
#include "services/api/WireCodec.h"
#include "services/backend/EngineBackend.h"
#include "services/engine/Engine.h"
#include "services/engine/Sql.h"
#include "services/engine/TokenPricing.h"
#include "services/remote/RemoteBackend.h"
#include "tests/support/HttpClient.h"
#include "tests/support/StubBackend.h"
#include "tests/trust/TrustWorkspace.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <thread>

using namespace md;
using bench::percentile;
using namespace Qt::StringLiterals;

using bench::fail;

namespace {

QTextStream out(stdout);

const QString Model = u"openai/gpt-4o-mini"_s;
const QString Markup = u"12.5"_s;
const qint64 Granted = test::TrustGrant;

api::TrackTokensRequest call(int customer, bool async)
{
    api::TrackTokensRequest request;
    request.customerId = u"c%1"_s.arg(customer);
    request.modelId = Model;
    request.inputTokens = 1234;
    request.outputTokens = 567;
    request.cacheReadTokens = 89;
    request.overageBehavior = api::OverageBehavior::Overflow; // every call lands in full
    request.async = async;
    return request;
}

// A lean keep-alive HTTP/1.1 client (tests/support/HttpClient), so the
// figures measure the server rather than the client (RemoteBackend's
// QNetworkAccessManager costs more CPU per call than the server does, on the
// same two cores).
class LeanClient final : public test::StubBackend
{
public:
    LeanClient(const QUrl &url, const QString &secret)
        : m_http(url, secret.toLatin1())
    {}

    backend::Reply<api::TrackTokensResponse>
    trackTokens(const api::TrackTokensRequest &request,
                const std::optional<QString> & = std::nullopt) override
    {
        const auto [status, answer, error] =
            m_http.post("/v1/balances.track_tokens", api::toJsonText(request));
        if (status == 0)
            fail(u"the server did not answer: "_s + QString::fromUtf8(error));
        api::Result<api::TrackTokensResponse> result = api::TrackTokensResponse();
        if (status == 204) {
            result.value().customerId = request.customerId;
            result.value().queued = true;
        } else if (status == 200) {
            result = api::decodeBody<api::TrackTokensResponse>(answer);
        } else {
            result = api::ApiError{status, u"http"_s, QString::fromUtf8(answer)};
        }
        return QtFuture::makeReadyFuture(std::move(result));
    }

private:
    test::HttpClient m_http;
};

struct Figures
{
    qint64 calls = 0;
    double seconds = 0;
    QList<double> latenciesMs;
};

// `clients` threads each make `perClient` timed calls: `start(c)`, run on
// client c's own thread, returns what makes call i there.
template <typename Start> Figures timed(int clients, int perClient, Start &&start)
{
    QList<QList<double>> latencies(clients);
    std::vector<std::thread> threads;
    QElapsedTimer total;
    total.start();
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            auto one = start(c);
            for (int i = 0; i < perClient; ++i) {
                QElapsedTimer timer;
                timer.start();
                one(i);
                latencies[c].append(double(timer.nsecsElapsed()) / 1e6);
            }
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    Figures figures;
    figures.seconds = double(total.nsecsElapsed()) / 1e9;
    for (const QList<double> &each : std::as_const(latencies))
        figures.latenciesMs += each;
    figures.calls = figures.latenciesMs.size();
    return figures;
}

// track_tokens through a backend per client from `make`, spread over the
// customers; counts calls per customer.
template <typename Make>
Figures run(int clients, int calls, int customers, bool async, QList<qint64> &perCustomer,
            Make &&make)
{
    QList<QList<qint64>> counts(clients, QList<qint64>(customers, 0));
    const Figures figures = timed(clients, calls / clients, [&](int c) {
        return [&, c, backend = std::shared_ptr<backend::BillingBackend>(make())](int i) {
            const int customer = (c * 7919 + i) % customers;
            auto future = backend->trackTokens(call(customer, async));
            future.waitForFinished();
            if (!future.result())
                fail(u"track_tokens failed: "_s + future.result().error().message);
            ++counts[c][customer];
        };
    });
    for (const QList<qint64> &each : std::as_const(counts))
        for (int k = 0; k < customers; ++k)
            perCustomer[k] += each.at(k);
    return figures;
}

// Ceiling of the engine: one small UPDATE committed per transaction, on a
// connection the engine opens (its journal and synchronous settings), from
// one thread, since writers queue on the database's one write lock anyway.
double commitsPerSecond(const QString &location, int commits)
{
    engine::Engine engine(location);
    if (auto opened = engine.open(); !opened)
        fail(opened.error().message);
    auto connection = engine.database().connection();
    if (!connection)
        fail(connection.error().message);
    QSqlDatabase db = connection.value();
    for (const QString &sql :
         {u"CREATE TABLE IF NOT EXISTS bench_ceiling (k INTEGER PRIMARY KEY, v BIGINT NOT NULL)"_s,
          u"INSERT INTO bench_ceiling VALUES (1, 0) ON CONFLICT DO NOTHING"_s})
        if (auto done = engine::runSql(db, sql); !done)
            fail(done.error().message);
    QSqlQuery update(db);
    update.prepare(u"UPDATE bench_ceiling SET v = v + 1 WHERE k = 1"_s);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < commits; ++i)
        if (!db.transaction() || !update.exec() || !db.commit())
            fail(u"ceiling transaction: "_s + db.lastError().text());
    return commits / (double(timer.nsecsElapsed()) / 1e9);
}

// Ceiling over HTTP: authenticated round trips that write nothing.
Figures roundTrips(int clients, int calls, const QUrl &url, const QString &secret)
{
    return timed(clients, calls / clients, [&](int) {
        return [http = std::make_shared<test::HttpClient>(url, secret.toLatin1())](int) {
            if (http->post("/v1/meterdesk/whoami", "{}").status != 200)
                fail(u"whoami failed"_s);
        };
    });
}

double perSecond(const Figures &figures)
{
    return double(figures.calls) / figures.seconds;
}

void print(const QString &name, const Figures &figures, double ceiling)
{
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(name, -36)
               .arg(perSecond(figures), 10, 'f', 0)
               .arg(percentile(figures.latenciesMs, 0.5), 8, 'f', 2)
               .arg(percentile(figures.latenciesMs, 0.99), 8, 'f', 2)
               .arg(perSecond(figures) / ceiling, 11, 'f', 2);
    out.flush();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption database(u"database"_s, u"SQLite file or postgresql:// URL."_s,
                                      u"LOCATION"_s);
    const QCommandLineOption server(u"server"_s, u"meterdesk-server binary."_s, u"PATH"_s);
    const QCommandLineOption callsOption(u"calls"_s, u"Calls per measurement."_s, u"N"_s,
                                         u"24000"_s);
    const QCommandLineOption asyncOption(u"async-calls"_s, u"Async calls accepted."_s, u"N"_s,
                                         u"100000"_s);
    const QCommandLineOption clientsOption(u"clients"_s, u"Concurrent clients."_s, u"N"_s, u"8"_s);
    const QCommandLineOption workersOption(u"workers"_s, u"meterdesk-server --workers."_s, u"N"_s,
                                           u"4"_s);
    const QCommandLineOption customersOption(u"customers"_s, u"Customers called."_s, u"N"_s,
                                             u"200"_s);
    const QCommandLineOption pathsOption(u"paths"_s, u"Paths to measure (profiling one)."_s,
                                         u"engine,remote,lean,async"_s,
                                         u"engine,remote,lean,async"_s);
    parser.addOptions({database, server, callsOption, asyncOption, clientsOption, workersOption,
                       customersOption, pathsOption});
    parser.process(app);
    const QString location = parser.value(database);
    const int calls = parser.value(callsOption).toInt();
    const int asyncCalls = parser.value(asyncOption).toInt();
    const int clients = parser.value(clientsOption).toInt();
    const int customers = parser.value(customersOption).toInt();
    if (location.isEmpty() || parser.value(server).isEmpty())
        fail(u"give --database and --server"_s);

    const QString secret = u"sk_test_benchtrack0000000000000000000"_s;
    QList<qint64> perCustomer(customers, 0);
    {
        engine::Engine setup(location);
        if (auto opened = setup.open(); !opened)
            fail(opened.error().message);
        if (auto loaded =
                setup.loadWorkspace(test::fromQt(test::trustWorkspace(customers, secret, Markup)));
            !loaded)
            fail(loaded.error().message);
    }
    out << "workspace: " << customers << " customers on "
        << (engine::Database::isPostgresUrl(location) ? "PostgreSQL" : "SQLite") << ", " << clients
        << " clients, model " << Model << " with a " << Markup << " % markup\n";
    const double commits = commitsPerSecond(location, calls / 4);
    out << "ceiling, engine: " << qRound(commits)
        << " small write transactions/s (one thread, the engine's connection settings)\n";
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(u"path"_s, -36)
               .arg(u"calls/s"_s, 10)
               .arg(u"p50 ms"_s, 8)
               .arg(u"p99 ms"_s, 8)
               .arg(u"x ceiling"_s, 11);

    const auto embedded = [&] {
        auto backend = std::make_unique<backend::EngineBackend>(location, engine::Clock(), secret);
        auto prepared = backend->prepare(false);
        prepared.waitForFinished();
        if (!prepared.result())
            fail(prepared.result().error().message);
        return backend;
    };
    const QStringList paths = parser.value(pathsOption).split(u',');
    if (paths.contains(u"engine"_s))
        print(u"sync, EngineBackend"_s,
              run(clients, calls, customers, false, perCustomer,
                  [&] { return std::unique_ptr<backend::BillingBackend>(embedded()); }),
              commits);

    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel); // the server's warnings
    process.start(parser.value(server),
                  {u"serve"_s, u"--database"_s, location, u"--listen"_s, u"127.0.0.1:0"_s,
                   u"--workers"_s, parser.value(workersOption)});
    if (!process.waitForStarted() || !process.waitForReadyRead(30000))
        fail(u"meterdesk-server did not start"_s);
    const QUrl url(QString::fromUtf8(process.readLine()).trimmed().mid(13));
    const auto remote = [&] {
        return std::unique_ptr<backend::BillingBackend>(
            std::make_unique<remote::RemoteBackend>(url, secret));
    };
    const auto lean = [&] {
        return std::unique_ptr<backend::BillingBackend>(std::make_unique<LeanClient>(url, secret));
    };
    const double trips = perSecond(roundTrips(clients, calls, url, secret));
    out << "ceiling, HTTP: " << qRound(trips)
        << " authenticated round trips/s (whoami, lean clients, no write)\n";
    if (paths.contains(u"remote"_s))
        print(u"sync, HTTP (RemoteBackend clients)"_s,
              run(clients, calls, customers, false, perCustomer, remote), trips);
    if (paths.contains(u"lean"_s))
        print(u"sync, HTTP (lean clients)"_s,
              run(clients, calls, customers, false, perCustomer, lean), trips);
    if (paths.contains(u"async"_s))
        print(u"async accepted, HTTP (lean clients)"_s,
              run(clients, asyncCalls, customers, true, perCustomer, lean), trips);

    // The server's worker drains the queue; watch it from here.
    engine::Engine observer(location);
    if (auto opened = observer.open(); !opened)
        fail(opened.error().message);
    const engine::Scope scope = observer.authenticate(secret).value().scope;
    QElapsedTimer draining;
    draining.start();
    qint64 pending = observer.trackQueue().counts(scope).value().pending;
    const qint64 queuedAtEnd = pending;
    while (pending > 0) {
        if (draining.elapsed() > 600'000)
            fail(u"the queue did not drain in 10 minutes"_s);
        QThread::msleep(20); // a benchmark watching a clock, not a test synchronising
        pending = observer.trackQueue().counts(scope).value().pending;
    }
    out << "async queue: " << queuedAtEnd << " still queued when accepting ended, drained in "
        << QString::number(double(draining.elapsed()) / 1000, 'f', 2) << " s\n";
    process.terminate();
    process.waitForFinished(20000);

    // Every call costs the same: the final balances must equal the start minus
    // count × cost, exactly.
    const engine::PriceCatalogue &catalogue = engine::PriceCatalogue::bundled();
    engine::CreditMarkups markups;
    markups.defaultMarkup = api::Decimal::parse(Markup);
    const api::TrackTokensRequest sample = call(0, false);
    auto priced = engine::TokenPricing::price(
        catalogue, Model,
        {sample.inputTokens, sample.outputTokens, *sample.cacheReadTokens, 0, 0, 0, 0}, markups);
    if (!priced)
        fail(priced.error().message);
    const auto failed = observer.trackQueue().counts(scope).value().failed;
    qint64 wrong = 0;
    qint64 total = 0;
    for (int c = 0; c < customers; ++c) {
        api::ListBalancesRequest request;
        request.customerId = u"c%1"_s.arg(c);
        const auto page = observer.listBalances(scope, request);
        const api::Decimal expected =
            api::Decimal::fromInteger(Granted)
                .minus(priced.value().value.mulDiv(perCustomer.at(c), 1).value())
                .value();
        if (!page || page.value().list.size() != 1 ||
            page.value().list.first().remaining != expected)
            ++wrong;
        total += perCustomer.at(c);
    }
    out << "final balances: " << total << " calls of " << priced.value().value.toString()
        << " each; " << (customers - wrong) << " of " << customers
        << " customers exactly as expected; " << failed << " queued calls failed\n";
    return wrong == 0 && failed == 0 ? 0 : 1;
}
