// A mixed load held against meterdesk-server for a fixed time (60 s by
// default): clients list balances page by page, track tokens and dry-run
// customer imports, each picking its next call at random (50 / 40 / 10 %).
// Prints calls/s, p50 and p99 per kind, every error, and the server's resident
// memory sampled every five seconds, to show whether it stays flat. Exits
// non-zero on any error.
#include "bench/BenchSupport.h"
#include "bench/Percentile.h"
#include "services/engine/Engine.h"
#include "tests/support/HttpClient.h"
#include "tests/trust/TrustWorkspace.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTextStream>

#include <atomic>
#include <mutex>
#include <thread>

using namespace md;
using bench::percentile;
using namespace Qt::StringLiterals;

using bench::fail;
using bench::residentKiB;

namespace {

QTextStream out(stdout);

enum Kind { List, Track, DryRun, Kinds };
const char *const KindNames[Kinds] = {"balances.list (page of 50)", "balances.track_tokens",
                                      "billing.import dry run"};

struct ClientFigures
{
    QList<double> latenciesMs[Kinds];
    QStringList errors;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption database(u"database"_s, u"SQLite file or postgresql:// URL."_s,
                                      u"LOCATION"_s);
    const QCommandLineOption server(u"server"_s, u"meterdesk-server binary."_s, u"PATH"_s);
    const QCommandLineOption catalogue(u"catalogue"_s, u"Price catalogue with flat/one."_s,
                                       u"FILE"_s);
    const QCommandLineOption secondsOption(u"seconds"_s, u"How long to hold the load."_s, u"S"_s,
                                           u"60"_s);
    const QCommandLineOption clientsOption(u"clients"_s, u"Concurrent clients."_s, u"N"_s, u"8"_s);
    const QCommandLineOption customersOption(u"customers"_s, u"Customers."_s, u"N"_s, u"2000"_s);
    parser.addOptions({database, server, catalogue, secondsOption, clientsOption, customersOption});
    parser.process(app);
    const int seconds = parser.value(secondsOption).toInt();
    const int clients = parser.value(clientsOption).toInt();
    const int customers = parser.value(customersOption).toInt();
    if (parser.value(database).isEmpty() || parser.value(server).isEmpty() ||
        parser.value(catalogue).isEmpty())
        fail(u"give --database, --server and --catalogue"_s);
    if (const QString problem = test::loadTrustWorkspace(parser.value(database), customers);
        !problem.isEmpty())
        fail(problem);

    QProcess process;
    process.start(parser.value(server),
                  {u"serve"_s, u"--database"_s, parser.value(database), u"--listen"_s,
                   u"127.0.0.1:0"_s, u"--catalogue"_s, parser.value(catalogue)});
    if (!process.waitForStarted() || !process.waitForReadyRead(30000))
        fail(u"meterdesk-server did not start"_s);
    const QUrl url(QString::fromUtf8(process.readLine()).trimmed().mid(13));
    out << "workspace: " << customers << " customers on "
        << (engine::Database::isPostgresUrl(parser.value(database)) ? "PostgreSQL" : "SQLite")
        << ", " << clients << " clients for " << seconds << " s\n";
    out.flush();

    std::atomic<bool> stop = false;
    QList<ClientFigures> figures(clients);
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            QRandomGenerator random(quint32(c) + 1);
            test::HttpClient client(url, test::TrustKey.toLatin1());
            QByteArray cursor;
            for (int i = 0; !stop.load(); ++i) {
                const quint32 draw = random.bounded(10);
                const Kind kind = draw < 5 ? List : draw < 9 ? Track : DryRun;
                QByteArray path;
                QByteArray body;
                if (kind == List) {
                    path = "/v1/balances.list";
                    body = cursor.isEmpty()
                               ? QByteArray(R"({"limit":50})")
                               : QByteArray(R"({"limit":50,"start_cursor":")" + cursor + "\"}");
                } else if (kind == Track) {
                    path = "/v1/balances.track_tokens";
                    body = test::trackBody(u"c%1"_s.arg(random.bounded(customers)), 1, false);
                } else {
                    path = "/v1/billing.import";
                    QJsonObject request =
                        QJsonDocument::fromJson(test::importBody(u"new-%1-%2"_s.arg(c).arg(i)))
                            .object();
                    request.insert(u"dry_run"_s, true);
                    body = QJsonDocument(request).toJson(QJsonDocument::Compact);
                }
                QElapsedTimer timer;
                timer.start();
                const auto response = client.post(path, body);
                figures[c].latenciesMs[kind].append(double(timer.nsecsElapsed()) / 1e6);
                if (response.status != 200) {
                    figures[c].errors
                        << u"%1: %2 %3"_s.arg(QString::fromLatin1(path))
                               .arg(response.status)
                               .arg(QString::fromUtf8(response.body + response.error));
                    continue;
                }
                if (kind == List) {
                    const QJsonObject page = QJsonDocument::fromJson(response.body).object();
                    cursor = page.value(u"has_more"_s).toBool()
                                 ? page.value(u"next_cursor"_s).toString().toUtf8()
                                 : QByteArray();
                }
            }
        });
    }

    // Memory every five seconds while the load runs.
    QList<qint64> rss;
    QElapsedTimer held;
    held.start();
    while (held.elapsed() < qint64(seconds) * 1000) {
        std::this_thread::sleep_for(std::chrono::seconds(5)); // sampling, not synchronising
        rss.append(residentKiB(QString::number(process.processId())));
    }
    stop = true;
    for (std::thread &thread : threads)
        thread.join();
    const double elapsed = double(held.elapsed()) / 1000;
    process.terminate();
    process.waitForFinished(20000);

    out << QStringLiteral("%1 %2 %3 %4\n")
               .arg(u"call"_s, -30)
               .arg(u"calls/s"_s, 9)
               .arg(u"p50 ms"_s, 8)
               .arg(u"p99 ms"_s, 8);
    qint64 total = 0;
    QStringList errors;
    for (int kind = 0; kind < Kinds; ++kind) {
        QList<double> all;
        for (const ClientFigures &client : std::as_const(figures))
            all += client.latenciesMs[kind];
        total += all.size();
        out << QStringLiteral("%1 %2 %3 %4\n")
                   .arg(QString::fromLatin1(KindNames[kind]), -30)
                   .arg(double(all.size()) / elapsed, 9, 'f', 0)
                   .arg(percentile(all, 0.5), 8, 'f', 2)
                   .arg(percentile(all, 0.99), 8, 'f', 2);
    }
    for (const ClientFigures &client : std::as_const(figures))
        errors += client.errors;
    out << QStringLiteral("%1 %2\n").arg(u"all"_s, -30).arg(double(total) / elapsed, 9, 'f', 0);
    QStringList samples;
    for (qint64 kib : std::as_const(rss))
        samples << QString::number(double(kib) / 1024, 'f', 1);
    out << "server RSS MiB every 5 s: " << samples.join(u' ') << '\n';
    if (rss.size() >= 3)
        out << "growth from the 10 s sample to the last: "
            << QString::number(double(rss.last() - rss.at(1)) / 1024, 'f', 1) << " MiB\n";
    out << "errors: " << errors.size() << " of " << total << " calls\n";
    for (const QString &error : errors.mid(0, 10))
        out << "  " << error << '\n';
    return errors.isEmpty() ? 0 : 1;
}
