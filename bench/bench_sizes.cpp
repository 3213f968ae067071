// Every per-call path at three sizes of one organization (issue 35;
// docs/performance.md, "Flat at any size"): for each database given and each
// size, the demo generator makes a realistic workspace (customers with
// several balances, plans, rollovers, entities, billing controls, usage
// events and ledger rows), meterdesk-server serves it, and 8 keep-alive
// clients call each path on customers sampled across the organization.
// Printed per path and size: calls/s, p99, the server's own CPU per call
// (from /proc/PID/stat, so the clients' share of the two cores does not
// count) and its ratio to an authenticated no-op (whoami) in the same run;
// then each path's CPU per call at the largest size against the smallest,
// with the goal: at most 1.3x. Prints figures only; exits non-zero when a
// call fails.
#include "bench/BenchSupport.h"
#include "bench/Percentile.h"
#include "bench/ProcessCpu.h"
#include "services/api/JsonValue.h"
#include "tests/support/HttpClient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <csignal>
#include <functional>
#include <sys/prctl.h>
#include <thread>

using namespace md;
using bench::cpuSeconds;
using bench::databaseCpuSeconds;
using bench::fail;
using bench::percentile;
using namespace Qt::StringLiterals;

namespace {

QTextStream out(stdout);

// One call of a path: the route and its body for the i-th call.
struct Path
{
    QString name;
    std::function<std::pair<QByteArray, QByteArray>(qsizetype)> call;
    bool growsWithOrganization = false; // allowed to: totals, pages, exports
    QByteArray method = "POST";
};

struct Figure
{
    double perSecond = 0;
    double p99Ms = 0;
    double cpuUsPerCall = 0;
    double databaseUsPerCall = 0; // PostgreSQL's processes; 0 on SQLite (in the server)
};

// `database`: PostgreSQL's name of it, or empty on SQLite (whose work is
// the server's own CPU).
Figure measure(const Path &path, const QUrl &url, const QByteArray &key, qint64 pid, int clients,
               int calls, const QString &database)
{
    const bool postgres = !database.isEmpty();
    const double databaseBefore = postgres ? databaseCpuSeconds(database) : 0;
    QList<QList<double>> latencies(clients);
    std::vector<std::thread> threads;
    const double cpuBefore = cpuSeconds(pid);
    QElapsedTimer total;
    total.start();
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            test::HttpClient http(url, key);
            for (int i = c; i < calls; i += clients) {
                const auto [route, body] = path.call(i);
                QElapsedTimer one;
                one.start();
                const auto answer = path.method == "POST" ? http.post(route, body)
                                                          : http.send(path.method, route, {});
                latencies[c].append(double(one.nsecsElapsed()) / 1e6);
                if (answer.status < 200 || answer.status > 299)
                    fail(u"%1 answered %2: %3"_s.arg(path.name)
                             .arg(answer.status)
                             .arg(QString::fromUtf8(answer.body.left(300))));
            }
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    const double seconds = double(total.nsecsElapsed()) / 1e9;
    QList<double> all;
    for (const QList<double> &each : std::as_const(latencies))
        all += each;
    return {calls / seconds, percentile(all, 0.99), (cpuSeconds(pid) - cpuBefore) * 1e6 / calls,
            postgres ? (databaseCpuSeconds(database) - databaseBefore) * 1e6 / calls : 0};
}

api::JsonValue parsed(const test::HttpClient::Response &answer, const QString &what)
{
    if (answer.status != 200)
        fail(u"%1 answered %2: %3"_s.arg(what)
                 .arg(answer.status)
                 .arg(QString::fromUtf8(answer.body.left(300))));
    auto value = api::JsonValue::parse(answer.body, what);
    if (!value)
        fail(value.error().message);
    return value.value();
}

// Every customer id of the sandbox, page by page, and one balance id each
// for `sample` of them spread over the key order.
struct Sample
{
    QStringList customers;
    QStringList balances;
    QList<QByteArray> portalPages; // the path of a portal link, for some
};

Sample sampleOf(const QUrl &url, const QByteArray &key, int sample)
{
    test::HttpClient http(url, key);
    QStringList all;
    QString cursor;
    do {
        const api::JsonValue page =
            parsed(http.post("/v1/meterdesk/customers.list",
                             u"{\"limit\":200,\"start_cursor\":\"%1\"}"_s.arg(cursor).toUtf8()),
                   u"customers.list"_s);
        const api::JsonValue &list = page.value("list"_L1);
        for (qsizetype i = 0; i < list.size(); ++i)
            all.append(list.at(i).value("id"_L1).toString());
        cursor = page.value("next_cursor"_L1).toString();
    } while (!cursor.isEmpty());
    Sample chosen;
    for (int i = 0; i < sample; ++i) {
        const QString id = all.at(qsizetype(i) * all.size() / sample);
        const api::JsonValue balances =
            parsed(http.post("/v1/balances.list",
                             u"{\"customer_id\":\"%1\",\"limit\":1}"_s.arg(id).toUtf8()),
                   u"balances.list"_s);
        if (balances.value("list"_L1).size() == 0)
            continue;
        chosen.customers.append(id);
        chosen.balances.append(balances.value("list"_L1).at(0).value("id"_L1).toString());
        if (i % 10 == 0)
            chosen.portalPages.append(
                QUrl(parsed(http.post(u"/v1/customers/%1/billing_portal"_s.arg(id).toUtf8(), "{}"),
                            u"billing_portal"_s)
                         .value("url"_L1)
                         .toString())
                    .path()
                    .toUtf8());
    }
    return chosen;
}

QList<Path> pathsOf(const Sample &sample)
{
    const auto customer = [&sample](qsizetype i) {
        return sample.customers.at(i % sample.customers.size());
    };
    const auto body = [](const QString &text) { return text.toUtf8(); };
    const auto track = [=](const QString &extra) {
        return [=](qsizetype i) {
            return std::pair{
                QByteArray("/v1/balances.track_tokens"),
                body(u"{\"customer_id\":\"%1\",\"model_id\":\"openai/gpt-4o-mini\","
                     "\"input_tokens\":100,\"output_tokens\":10%2}"_s.arg(customer(i), extra))};
        };
    };
    const auto byCustomer = [=](const char *route, const QString &extra = {}) {
        return [=](qsizetype i) {
            return std::pair{QByteArray(route),
                             body(u"{\"customer_id\":\"%1\"%2}"_s.arg(customer(i), extra))};
        };
    };
    const auto fixed = [=](const char *route, const QString &json) {
        return [=](qsizetype) { return std::pair{QByteArray(route), body(json)}; };
    };
    return {
        {u"whoami (the no-op ceiling)"_s, fixed("/v1/meterdesk/whoami", u"{}"_s)},
        {u"track_tokens sync"_s, track({})},
        {u"track_tokens sync, feature_id"_s, track(u",\"feature_id\":\"ai_credits\""_s)},
        {u"track_tokens async"_s, track(u",\"async\":true"_s)},
        {u"track_tokens.price"_s,
         [=](qsizetype i) {
             return std::pair{QByteArray("/v1/meterdesk/track_tokens.price"), track({})(i).second};
         }},
        {u"balances.list by customer"_s, byCustomer("/v1/balances.list", u",\"limit\":10"_s)},
        {u"balances.list by feature"_s,
         fixed("/v1/balances.list", u"{\"feature_id\":\"api_calls\",\"limit\":50}"_s)},
        {u"balances.list by plan"_s,
         fixed("/v1/balances.list", u"{\"plan_id\":\"pro\",\"limit\":50}"_s)},
        {u"balances.list standalone"_s,
         fixed("/v1/balances.list", u"{\"plan_id\":null,\"limit\":50}"_s)},
        {u"customers.get"_s, byCustomer("/v1/meterdesk/customers.get")},
        {u"customers.list, search"_s,
         [=](qsizetype i) {
             // The customer's own id: one match among many similar names.
             return std::pair{QByteArray("/v1/meterdesk/customers.list"),
                              body(u"{\"search\":\"%1\",\"limit\":50}"_s.arg(customer(i)))};
         }},
        {u"ledger.list"_s, byCustomer("/v1/meterdesk/ledger.list", u",\"limit\":50"_s)},
        {u"usage_events.list"_s, byCustomer("/v1/meterdesk/usage_events.list", u",\"limit\":50"_s)},
        // The Usage chart of all time, stacked by model: whole days from the rollup.
        {u"usage_events.totals, by model"_s,
         fixed("/v1/meterdesk/usage_events.totals", u"{\"group_by\":\"model\",\"top\":6}"_s)},
        {u"customers.billing_controls"_s, byCustomer("/v1/meterdesk/customers.billing_controls")},
        // What a customer owes so far (docs/billing.md): its plans and rows only.
        {u"charges.preview"_s, byCustomer("/v1/meterdesk/charges.preview")},
        {u"balances.adjust"_s,
         [=](qsizetype i) {
             return std::pair{
                 QByteArray("/v1/meterdesk/balances.adjust"),
                 body(u"{\"balance_id\":\"%1\",\"amount\":1,\"reason\":\"bench\"}"_s.arg(
                     sample.balances.at(i % sample.balances.size())))};
         }},
        {u"billing_portal link"_s,
         [=](qsizetype i) {
             return std::pair{u"/v1/customers/%1/billing_portal"_s.arg(customer(i)).toUtf8(),
                              QByteArray("{}")};
         }},
        {u"billing portal page"_s,
         [=](qsizetype i) {
             return std::pair{sample.portalPages.at(i % sample.portalPages.size()), QByteArray()};
         },
         false, "GET"},
        {u"balances.totals (grows: whole organization)"_s,
         fixed("/v1/meterdesk/balances.totals", u"{\"group_by\":\"feature\"}"_s), true},
        {u"balances.pages (grows: whole organization)"_s,
         fixed("/v1/meterdesk/balances.pages", u"{\"page_size\":200}"_s), true},
    };
}

struct Options
{
    QString server;
    QList<qint64> sizes;
    int calls = 0;
    int clients = 0;
    int sample = 0;
};

// Makes the demo workspace of about `balances` rows at `location`; returns
// its test key.
QByteArray makeWorkspace(const Options &options, const QString &location, qint64 balances)
{
    QProcess demo;
    demo.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // The generator gives each customer 10 balances and adds a twentieth
    // of the customers in production.
    const qint64 customers = std::max<qint64>(1, qRound64(balances / 10.5));
    QElapsedTimer timer;
    timer.start();
    demo.start(options.server,
               {u"workspace"_s, u"demo"_s, u"--database"_s, location, u"--customers"_s,
                QString::number(customers), u"--balances-per-customer"_s, u"10"_s,
                // no months of statements for the sweep to close meanwhile
                u"--statement-months"_s, u"0"_s});
    if (!demo.waitForFinished(-1) || demo.exitCode() != 0)
        fail(u"workspace demo failed on "_s + location);
    const QString text = QString::fromUtf8(demo.readAllStandardOutput());
    const auto key = QRegularExpression(u"(sk_test_\\w+)"_s).match(text);
    if (!key.hasMatch())
        fail(u"workspace demo printed no key"_s);
    out << text.section(u'\n', 0, 0) << " (" << QString::number(timer.elapsed() / 1000.0, 'f', 1)
        << " s)" << Qt::endl;
    return key.captured(1).toLatin1();
}

using Table = QMap<QString, QMap<qint64, Figure>>;

void measureSize(const Options &options, const QString &location, qint64 size, Table &table,
                 QStringList &order)
{
    const QByteArray key = makeWorkspace(options, location, size);
    QProcess server;
    server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // Ends with the benchmark, even when it stops at a failed call.
    server.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    server.start(options.server,
                 {u"serve"_s, u"--database"_s, location, u"--listen"_s, u"127.0.0.1:0"_s});
    if (!server.waitForStarted() || !server.waitForReadyRead(60000))
        fail(u"meterdesk-server did not start"_s);
    const QUrl url(QString::fromUtf8(server.readLine()).trimmed().mid(13));
    const Sample sample = sampleOf(url, key, options.sample);
    const bool postgres = location.startsWith(u"postgresql:"_s);
    const QString database = postgres ? location.section(u'/', -1) : QString();
    out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
               .arg(u"path"_s, -46)
               .arg(u"calls/s"_s, 8)
               .arg(u"p99 ms"_s, 7)
               .arg(u"server CPU"_s, 11)
               .arg(postgres ? u"PG CPU"_s : QString(), 9)
               .arg(u"x whoami"_s, 9);
    double ceiling = 0;
    for (const Path &path : pathsOf(sample)) {
        // A whole-organization path takes seconds at the largest size: as
        // many calls as fill about two seconds, one per client at least.
        int calls = options.calls;
        if (path.growsWithOrganization) {
            const Figure probe = measure(path, url, key, server.processId(), 1, 1, database);
            calls = options.clients * int(std::clamp(2.0 / (probe.p99Ms / 1000 * options.clients),
                                                     1.0, double(options.calls / options.clients)));
        }
        const Figure figure =
            measure(path, url, key, server.processId(), options.clients, calls, database);
        const double total = figure.cpuUsPerCall + figure.databaseUsPerCall;
        if (ceiling == 0)
            ceiling = total;
        table[path.name][size] = figure;
        if (!order.contains(path.name))
            order.append(path.name);
        out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                   .arg(path.name, -46)
                   .arg(figure.perSecond, 8, 'f', 0)
                   .arg(figure.p99Ms, 7, 'f', 2)
                   .arg(QString::number(figure.cpuUsPerCall, 'f', 0) + u" us"_s, 11)
                   .arg(postgres ? QString::number(figure.databaseUsPerCall, 'f', 0) + u" us"_s
                                 : QString(),
                        9)
                   .arg(total / ceiling, 9, 'f', 1);
        out.flush();
    }
    server.terminate();
    server.waitForFinished(60000);
}

// CPU per call (the server's, plus PostgreSQL's own) at each size, and the
// largest against the smallest.
void summary(const Options &options, const Table &table, const QStringList &order)
{
    out << "\nCPU per call (server + database) by size of the workspace in balances; goal: at "
           "most 1.3x from the smallest to the largest for every per-call path\n";
    out << QStringLiteral("%1").arg(u"path"_s, -46);
    for (const qint64 size : options.sizes)
        out << QStringLiteral("%1").arg(size, 11);
    out << "   ratio\n";
    for (const QString &name : order) {
        out << QStringLiteral("%1").arg(name, -46);
        const auto total = [&](qint64 size) {
            const Figure f = table[name][size];
            return f.cpuUsPerCall + f.databaseUsPerCall;
        };
        for (const qint64 size : options.sizes)
            out << QStringLiteral("%1").arg(QString::number(total(size), 'f', 0) + u" us"_s, 11);
        const double ratio = total(options.sizes.last()) / total(options.sizes.first());
        const bool grows = name.contains(u"grows"_s);
        out << QStringLiteral("  %1x  %2\n")
                   .arg(ratio, 5, 'f', 2)
                   .arg(grows          ? u"(allowed to grow)"_s
                        : ratio <= 1.3 ? u"flat"_s
                                       : u"GROWS"_s);
    }
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption serverOption(u"server"_s, u"meterdesk-server binary."_s, u"PATH"_s);
    const QCommandLineOption postgresOption(
        u"postgres"_s,
        u"Also on PostgreSQL: a postgresql:// URL of a database to make others beside."_s,
        u"URL"_s);
    const QCommandLineOption sizesOption(u"sizes"_s, u"Balances per workspace, comma-separated."_s,
                                         u"N,N,N"_s, u"2000,200000,2000000"_s);
    const QCommandLineOption callsOption(u"calls"_s, u"Calls per path and size."_s, u"N"_s,
                                         u"4000"_s);
    const QCommandLineOption clientsOption(u"clients"_s, u"Concurrent clients."_s, u"N"_s, u"8"_s);
    const QCommandLineOption sampleOption(u"sample"_s, u"Customers called, spread over the keys."_s,
                                          u"N"_s, u"500"_s);
    const QCommandLineOption postgresOnlyOption(u"postgres-only"_s, u"Skip SQLite."_s);
    parser.addOptions({serverOption, postgresOption, postgresOnlyOption, sizesOption, callsOption,
                       clientsOption, sampleOption});
    parser.process(app);
    Options options{parser.value(serverOption),
                    {},
                    parser.value(callsOption).toInt(),
                    parser.value(clientsOption).toInt(),
                    parser.value(sampleOption).toInt()};
    for (const QString &size : parser.value(sizesOption).split(u','))
        options.sizes.append(size.toLongLong());
    if (options.server.isEmpty() || options.sizes.isEmpty())
        fail(u"give --server (and --sizes)"_s);

    QTemporaryDir scratch;
    QStringList databases;
    if (!parser.isSet(postgresOnlyOption))
        databases.append(u"SQLite"_s);
    if (parser.isSet(postgresOption))
        databases.append(u"PostgreSQL"_s);
    for (const QString &database : databases) {
        Table table;
        QStringList order;
        for (const qint64 size : std::as_const(options.sizes)) {
            out << "\n== " << database << ", about " << size << " balances\n";
            QString location = scratch.filePath(u"sizes-%1.db"_s.arg(size));
            if (database == "PostgreSQL"_L1) {
                const QString name = u"meterdesk_bench_sizes_%1"_s.arg(size);
                const QString url = parser.value(postgresOption);
                QProcess::execute(u"psql"_s,
                                  {u"-q"_s, url, u"-c"_s, u"DROP DATABASE IF EXISTS "_s + name});
                if (QProcess::execute(u"psql"_s,
                                      {u"-q"_s, url, u"-c"_s, u"CREATE DATABASE "_s + name}) != 0)
                    fail(u"cannot create "_s + name);
                location = url.section(u'/', 0, -2) + u'/' + name;
            }
            measureSize(options, location, size, table, order);
        }
        out << "\n== " << database;
        summary(options, table, order);
    }
    return 0;
}
