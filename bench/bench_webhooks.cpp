// Webhooks (docs/api.md, "Webhooks"; docs/performance.md, "Webhooks"), on
// each database given: a meterdesk-server on a workspace of C customers,
// each with usage alerts spaced so that 1 % of calls cross one. 8 lean
// clients call balances.track_tokens sync over HTTP, first with no
// endpoint, then with one subscribed to every event (a receiver in this
// program answers 204): the rate with webhooks as a ratio of the rate
// without (goal >= 0.9), the server's CPU per call beside each. Then N
// deliveries waiting in the outbox are let go at once: how fast the
// server's senders drain them to the receiver (goal >= 1,000/s), beside
// the receiver's own rate for one keep-alive client posting the same body
// (the ceiling, measured in the same run). Afterwards every event must
// have been delivered exactly once. Prints figures only; exits non-zero
// when something is wrong.
#include "bench/BenchSupport.h"
#include "bench/LeanCalls.h"
#include "bench/ProcessCpu.h"
#include "services/api/WireCodec.h"
#include "services/engine/ApiOperations.h"
#include "services/engine/Engine.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/webhooks/WebhookOutbox.h"
#include "tests/engine/ScopeRoutes.h"
#include "tests/support/HttpClient.h"
#include "tests/support/WebhookReceiver.h"
#include "tests/trust/TrustWorkspace.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <thread>

using namespace md;
using namespace Qt::StringLiterals;
using bench::callBody;
using bench::calling;
using bench::fail;
using bench::Rate;

namespace {

QTextStream out(stdout);

struct Options
{
    QStringList databases;
    QString server;
    int customers = 2000;
    int clients = 8;
    double seconds = 10;
    int deliveries = 20000;
};

// The receiver on a thread of its own, with its own event loop.
class ReceiverThread final
{
public:
    ReceiverThread()
    {
        m_thread.reset(QThread::create([this] {
            test::WebhookReceiver receiver;
            receiver.setAnswer({204, {}, {}});
            if (!receiver.up())
                fail(u"the receiver cannot listen"_s);
            m_port = receiver.port();
            QEventLoop loop;
            m_ready = true;
            // Counted on this thread, read from the others.
            QTimer tick;
            QObject::connect(&tick, &QTimer::timeout, [&] {
                m_count = receiver.requests().size();
                if (m_stop)
                    loop.quit();
            });
            tick.start(5);
            loop.exec();
            QSet<QByteArray> ids;
            for (const auto &request : receiver.requests())
                ids.insert(request.id());
            m_duplicates = receiver.requests().size() - ids.size();
        }));
        m_thread->start();
        while (!m_ready)
            QThread::msleep(1);
    }
    ~ReceiverThread() { stop(); }
    void stop()
    {
        m_stop = true;
        m_thread->wait();
    }
    QByteArray url() const { return "http://127.0.0.1:" + QByteArray::number(m_port) + "/hooks"; }
    qsizetype count() const { return m_count; }
    qsizetype duplicates() const { return m_duplicates; }

private:
    std::unique_ptr<QThread> m_thread; // a Qt thread: the receiver needs its event loop
    std::atomic<bool> m_ready{false};
    std::atomic<bool> m_stop{false};
    std::atomic<qsizetype> m_count{0};
    qsizetype m_duplicates = 0;
    quint16 m_port = 0;
};

// Usage alerts on the credits of one customer in `stride` (every one of up
// to 2,000 customers; on a large workspace, 2,000 spread over it), spaced
// 100 / stride calls' worth apart from a random start: whichever customers
// the clients pick, 1 % of calls cross one.
void addAlerts(engine::Engine &engine, const engine::Scope &scope, int customers)
{
    engine::ApiOperations api(engine);
    api::TrackTokensRequest probe = api::decodeBody<api::TrackTokensRequest>(callBody(0)).value();
    const auto quote = api.priceCall(test::everyScope(scope), probe);
    if (!quote)
        fail(quote.error().message);
    const api::Decimal perCall = quote.value().value;
    const int stride = std::clamp(customers / 2000, 1, 100);
    const qint64 spacing = 100 / stride;
    for (int c = 0; c < customers; c += stride) {
        api::UpdateBillingControlsRequest request;
        request.customerId = u"c%1"_s.arg(c);
        request.hasUsageAlerts = true;
        const qint64 start = QRandomGenerator::global()->bounded(spacing);
        for (qint64 k = 0; k < 60; ++k) {
            api::UsageAlert alert;
            alert.featureId = u"credits"_s;
            alert.thresholdType = api::ThresholdType::Usage;
            alert.threshold =
                perCall
                    .mulDiv((start + spacing * k) * api::Decimal::One + api::Decimal::One / 2,
                            api::Decimal::One)
                    .value();
            request.billingControls.usageAlerts.append(alert);
        }
        if (auto set = api.updateBillingControls(test::everyScope(scope), request); !set)
            fail(set.error().message);
    }
}

qint64 count(engine::Engine &engine, const QString &sql)
{
    auto rows = engine::queryRows(engine.database().connection().value(), sql, {});
    if (!rows)
        fail(rows.error().message);
    return rows.value().first().first().toLongLong();
}

QByteArray post(const QUrl &server, const QByteArray &path, const QByteArray &body)
{
    test::HttpClient http(server, test::TrustKey.toLatin1());
    const auto answer = http.post(path, body);
    if (answer.status != 200)
        fail(u"%1: %2 %3"_s.arg(QString::fromLatin1(path))
                 .arg(answer.status)
                 .arg(QString::fromUtf8(answer.body)));
    return answer.body;
}

void measure(const QString &location, const Options &options)
{
    const bool postgres = engine::Database::isPostgresUrl(location);
    engine::Engine engine(location);
    if (!engine.open())
        fail(u"cannot open "_s + location);
    if (auto loaded = engine.loadWorkspace(test::fromQt(test::trustWorkspace(options.customers)));
        !loaded)
        fail(loaded.error().message);
    const engine::Scope scope = engine.authenticate(test::TrustKey).value().scope;
    addAlerts(engine, scope, options.customers);
    out << "\n"
        << (postgres ? "PostgreSQL" : "SQLite") << ": " << options.customers << " customers ("
        << options.customers << " balances) whose usage alerts fire on 1 % of calls, "
        << options.clients << " lean clients calling track_tokens sync over HTTP for "
        << options.seconds << " s" << Qt::endl;

    ReceiverThread receiver;
    QProcess server;
    server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    server.start(options.server,
                 {u"serve"_s, u"--database"_s, location, u"--listen"_s, u"127.0.0.1:0"_s,
                  u"--webhooks-allow-http"_s, u"--webhooks-allow-private"_s});
    if (!server.waitForStarted() || !server.waitForReadyRead(60000))
        fail(u"meterdesk-server did not start"_s);
    const QUrl url(QString::fromUtf8(server.readLine()).trimmed().mid(13));
    const qint64 pid = server.processId();

    const auto alerts = [&] { return count(engine, u"SELECT COUNT(*) FROM usage_alert_events"_s); };
    qint64 alertsBefore = alerts();
    const auto forSeconds = [&](const QElapsedTimer &t) {
        return t.elapsed() > options.seconds * 1000;
    };
    const Rate without = calling(url, pid, options.clients, options.customers, forSeconds);
    const qint64 alertsWithout = alerts() - alertsBefore;
    out << "  without webhooks: " << qRound(without.perSecond()) << " calls/s, server CPU "
        << qRound(without.cpuPerCallUs()) << " µs/call; " << alertsWithout << " alerts fired ("
        << QString::number(100.0 * alertsWithout / without.calls, 'f', 2) << " % of calls)"
        << Qt::endl;

    post(url, "/v1/meterdesk/webhook_endpoints.create",
         "{\"url\":\"" + receiver.url() + "\",\"events\":[\"*\"]}");
    alertsBefore = alerts();
    const Rate with = calling(url, pid, options.clients, options.customers, forSeconds);
    const qint64 alertsWith = alerts() - alertsBefore;
    out << "  with an endpoint hearing every event: " << qRound(with.perSecond()) << " calls/s ("
        << QString::number(with.perSecond() / without.perSecond(), 'f', 2)
        << " of the rate without, goal >= 0.9), server CPU " << qRound(with.cpuPerCallUs())
        << " µs/call with the senders'; " << alertsWith << " alerts fired" << Qt::endl;
    QElapsedTimer settle;
    settle.start();
    while (receiver.count() < alertsWith && settle.elapsed() < 60000)
        QThread::msleep(10);
    if (receiver.count() != alertsWith)
        fail(u"%1 alerts fired, %2 delivered"_s.arg(alertsWith).arg(receiver.count()));

    // The ceiling: one keep-alive client posting an event's body to the receiver.
    const QByteArray body = engine::WebhookOutbox::body(
        u"webhook_endpoint.test"_s, 0,
        api::JsonValue::object({{"endpoint_id"_L1, api::JsonValue::string(u"we_x"_s)}}));
    // The alerts' deliveries still on their way first: counted into the
    // drain below, they would end it before its own deliveries are recorded.
    QElapsedTimer settling;
    settling.start();
    while (count(engine, u"SELECT COUNT(*) FROM webhook_deliveries WHERE status <> 'succeeded'"_s) >
               0 &&
           settling.elapsed() < 60000)
        QThread::msleep(20);
    constexpr int CeilingPosts = 5000;
    QElapsedTimer ceilingTimer;
    ceilingTimer.start();
    {
        test::HttpClient direct(QUrl(QString::fromLatin1(receiver.url())), "x");
        for (int i = 0; i < CeilingPosts; ++i)
            if (direct.post("/hooks", body, {{"webhook-id", "msg_" + QByteArray::number(i)}})
                    .status != 204)
                fail(u"the receiver did not answer"_s);
    }
    const double ceiling = CeilingPosts / (double(ceilingTimer.nsecsElapsed()) / 1e9);
    const qsizetype before = receiver.count();

    // N deliveries for a second endpoint in one transaction: from its commit
    // on, the senders drain them.
    const QByteArray made =
        post(url, "/v1/meterdesk/webhook_endpoints.create",
             "{\"url\":\"" + receiver.url() + "\",\"events\":[\"balances.expired\"]}");
    const qint64 endpointPk = count(engine, u"SELECT MAX(pk) FROM webhook_endpoints"_s);
    if (api::decodeBody<api::WebhookEndpoint>(made).value().enabled != true)
        fail(u"the drain's endpoint is off"_s);
    const double cpuBefore = bench::cpuSeconds(pid);
    QElapsedTimer drain;
    {
        const QSqlDatabase db = engine.database().connection().value();
        engine::WriteTransaction transaction(db, engine.dialect());
        if (!transaction.begin())
            fail(u"begin failed"_s);
        engine::WebhookOutbox outbox(db, engine.dialect(), scope, 0);
        for (int i = 0; i < options.deliveries; ++i)
            if (auto added = outbox.addFor(
                    endpointPk, u"balances.expired"_s,
                    api::JsonValue::object({{"n"_L1, api::JsonValue::number(qint64(i))}}));
                !added)
                fail(added.error().message);
        if (!transaction.commit())
            fail(u"commit failed"_s);
        drain.start();
    }
    while (receiver.count() < before + options.deliveries && drain.elapsed() < 300000)
        QThread::msleep(2);
    const double drained = double(drain.nsecsElapsed()) / 1e9;
    const double cpu = bench::cpuSeconds(pid) - cpuBefore;
    if (receiver.count() < before + options.deliveries)
        fail(u"%1 of %2 deliveries arrived"_s.arg(receiver.count() - before)
                 .arg(options.deliveries));
    const double rate = options.deliveries / drained;
    out << "  outbox of " << options.deliveries << " deliveries drained in "
        << QString::number(drained, 'f', 2) << " s: " << qRound(rate)
        << " deliveries/s (goal >= 1000), server CPU " << qRound(cpu / options.deliveries * 1e6)
        << " µs/delivery; one client posting straight to the receiver: " << qRound(ceiling)
        << "/s (ratio " << QString::number(rate / ceiling, 'f', 2) << ")" << Qt::endl;

    server.terminate();
    server.waitForFinished(30000);
    receiver.stop();
    if (receiver.duplicates() != 0) // the ceiling's ids are distinct from the events' too
        fail(u"%1 events were delivered twice"_s.arg(receiver.duplicates()));
    const qint64 pending =
        count(engine, u"SELECT COUNT(*) FROM webhook_deliveries WHERE status <> 'succeeded'"_s);
    if (pending != 0)
        fail(u"%1 deliveries were not recorded as delivered"_s.arg(pending));
    out << "  every event delivered exactly once and recorded so" << Qt::endl;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption(
        {u"database"_s, u"A SQLite file or a postgresql:// URL (repeatable)."_s, u"location"_s});
    parser.addOption({u"server"_s, u"meterdesk-server to run."_s, u"path"_s});
    parser.addOption({u"customers"_s, u"Customers calling (2000)."_s, u"n"_s});
    parser.addOption({u"seconds"_s, u"How long each rate is measured (10)."_s, u"s"_s});
    parser.addOption({u"deliveries"_s, u"Deliveries drained at once (20000)."_s, u"n"_s});
    parser.addHelpOption();
    parser.process(app);
    Options options;
    options.databases = parser.values(u"database"_s);
    options.server = parser.value(u"server"_s);
    if (parser.isSet(u"customers"_s))
        options.customers = parser.value(u"customers"_s).toInt();
    if (parser.isSet(u"seconds"_s))
        options.seconds = parser.value(u"seconds"_s).toDouble();
    if (parser.isSet(u"deliveries"_s))
        options.deliveries = parser.value(u"deliveries"_s).toInt();
    if (options.databases.isEmpty() || options.server.isEmpty())
        fail(u"usage: bench_webhooks --database LOCATION [--database …] --server PATH"_s);
    for (const QString &location : std::as_const(options.databases))
        measure(location, options);
    return 0;
}
