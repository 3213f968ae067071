// balances.list over loopback HTTP: pages of 200 rows per second and p50/p99
// latency for one client and for 4 concurrent clients (each walking pages
// with RemoteBackend, decoding every row), beside the same walk as direct
// engine calls. Builds its own workspace (default 10,000 x 100 rows) in a
// SQLite file and starts meterdesk-server on it. Prints figures only.
#include "bench/Percentile.h"
#include "services/engine/ApiOperations.h"
#include "services/engine/Engine.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "services/remote/RemoteBackend.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <thread>

using namespace md;
using bench::percentile;
using namespace Qt::StringLiterals;

namespace {

QTextStream out(stdout);

struct Run
{
    qsizetype pages = 0;
    double seconds = 0;
    QList<double> latenciesMs;
};

// Walks `pages` pages from a start offset of whole-workspace pages.
template <typename List> Run walk(int pages, const QString &startCursor, List &&list)
{
    Run run;
    api::ListBalancesRequest request;
    request.limit = 200;
    request.startCursor = startCursor;
    QElapsedTimer total;
    total.start();
    for (int i = 0; i < pages; ++i) {
        QElapsedTimer one;
        one.start();
        const api::Result<api::ListBalancesResponse> page = list(request);
        run.latenciesMs.append(double(one.nsecsElapsed()) / 1e6);
        if (!page) {
            QTextStream(stderr) << "list failed: " << page.error().message << Qt::endl;
            std::exit(1);
        }
        ++run.pages;
        if (!page.value().hasMore)
            request.startCursor.clear();
        else
            request.startCursor = *page.value().nextCursor;
    }
    run.seconds = double(total.nsecsElapsed()) / 1e9;
    return run;
}

void print(const char *name, const QList<Run> &runs, double directPagesPerSecond)
{
    QList<double> latencies;
    qsizetype pages = 0;
    double seconds = 0;
    for (const Run &run : runs) {
        latencies += run.latenciesMs;
        pages += run.pages;
        seconds = std::max(seconds, run.seconds);
    }
    const double rate = double(pages) / seconds;
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(QString::fromLatin1(name), -22)
               .arg(rate, 10, 'f', 0)
               .arg(percentile(latencies, 0.5), 9, 'f', 2)
               .arg(percentile(latencies, 0.99), 9, 'f', 2)
               .arg(directPagesPerSecond > 0 ? u"%1x"_s.arg(directPagesPerSecond / rate, 0, 'f', 2)
                                             : u"-"_s,
                    8);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption customers(u"customers"_s, u"Customers."_s, u"N"_s, u"10000"_s);
    const QCommandLineOption perCustomer(u"balances-per-customer"_s, u"Rows per customer."_s,
                                         u"N"_s, u"100"_s);
    const QCommandLineOption pages(u"pages"_s, u"Pages each client walks."_s, u"N"_s, u"2000"_s);
    const QCommandLineOption server(u"server"_s, u"meterdesk-server binary."_s, u"PATH"_s);
    parser.addOptions({customers, perCustomer, pages, server});
    parser.process(app);
    const int pageCount = parser.value(pages).toInt();

    QTemporaryDir dir;
    const QString location = dir.filePath(u"bench.db"_s);
    engine::Engine engine(location);
    if (!engine.open().ok())
        return 1;
    engine::DemoOptions options;
    options.statementMonths = 0; // nothing for the sweep to close meanwhile
    options.customers = parser.value(customers).toInt();
    options.liveCustomers = 0;
    options.balancesPerCustomer = parser.value(perCustomer).toInt();
    options.nowMs = QDateTime::currentMSecsSinceEpoch();
    auto loaded = engine.loadWorkspace(engine::DemoWorkspace::build(options));
    if (!loaded)
        return 1;
    auto key =
        engine.createKey(u"demo"_s, engine::Environment::Sandbox, {u"balances:read"_s}, u"bench"_s);
    auto context = engine.authenticate(key.value().secret).value();
    out << "workspace: " << loaded.value().balances << " balance rows (SQLite); " << pageCount
        << " pages of 200 per client\n";

    QProcess process;
    process.start(parser.value(server),
                  {u"serve"_s, u"--database"_s, location, u"--listen"_s, u"127.0.0.1:0"_s});
    if (!process.waitForStarted() || !process.waitForReadyRead(30000)) {
        QTextStream(stderr) << "meterdesk-server did not start" << Qt::endl;
        return 1;
    }
    const QUrl url(QString::fromUtf8(process.readLine()).trimmed().mid(13));

    // Clients start at different places so they do not read the same pages.
    QList<QString> starts;
    {
        api::ListBalancesRequest request;
        request.limit = 200;
        for (int client = 0; client < 4; ++client) {
            starts.append(request.startCursor);
            for (int i = 0; i < 1000; ++i) {
                auto page = engine::ApiOperations(engine).listBalances(context, request).value();
                request.startCursor = page.nextCursor.value_or(QString());
            }
        }
    }

    const auto direct = [&](const api::ListBalancesRequest &r) {
        return engine::ApiOperations(engine).listBalances(context, r);
    };
    const Run directRun = walk(pageCount, starts.at(0), direct);
    const double directRate = double(directRun.pages) / directRun.seconds;

    const auto overHttp = [&](int clients) {
        QList<Run> runs(clients);
        std::vector<std::thread> threads;
        for (int c = 0; c < clients; ++c) {
            threads.emplace_back([&, c] {
                remote::RemoteBackend backend(url, key.value().secret);
                runs[c] = walk(pageCount, starts.at(c), [&](const api::ListBalancesRequest &r) {
                    auto future = backend.listBalances(r);
                    future.waitForFinished();
                    return future.result();
                });
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        return runs;
    };

    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(u"path"_s, -22)
               .arg(u"pages/s"_s, 10)
               .arg(u"p50 ms"_s, 9)
               .arg(u"p99 ms"_s, 9)
               .arg(u"vs direct"_s, 8);
    print("engine, direct", {directRun}, 0);
    print("HTTP, 1 client", overHttp(1), directRate);
    print("HTTP, 4 clients", overHttp(4), directRate);
    out.flush();
    process.terminate();
    process.waitForFinished(20000);
    return 0;
}
