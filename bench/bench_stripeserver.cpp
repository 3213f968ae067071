// What reading Stripe costs meterdesk-server (docs/processors.md), on the
// demo workspace at about 2,000 and 200,000 balances, against
// stripe-stateful-mock holding 1,000 customers on "pro" (one subscription
// each). One client, one call at a time over loopback HTTP; the server's
// own CPU per call from /proc beside each rate, and each figure beside its
// ceiling from the same run:
// - processors.subscriptions (pages of 100) beside the same pages read
//   straight from the mock;
// - billing.import of a customer linked to its subscription (two Stripe
//   reads, then the write) beside the same import without a link;
// - processors.verify of every linked customer (one listing) beside that
//   listing straight from the mock, and of one customer (one read) beside
//   that read.
// Needs tests/compat's node_modules (the compat_npm_ci test installs them).
#include "bench/BenchServer.h"
#include "bench/BenchSupport.h"
#include "bench/ProcessCpu.h"
#include "services/engine/processors/StripeClient.h"
#include "tests/support/HttpClient.h"
#include "tests/support/StripeMock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextStream>

using namespace md;
using namespace Qt::StringLiterals;

using bench::fail;

namespace {

QTextStream out(stdout);
constexpr int Customers = 1000;
const QString StripeKey = u"sk_test_meterdesk_bench_00001"_s;

QJsonObject create(const QString &kind, const QJsonObject &params)
{
    return {{u"create"_s, kind}, {u"params"_s, params}};
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// The demo workspace of about `balances` rows; its test key.
QByteArray makeWorkspace(const QString &server, const QString &location, qint64 balances)
{
    QProcess demo;
    demo.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    demo.start(server, {u"workspace"_s, u"demo"_s, u"--database"_s, location, u"--customers"_s,
                        QString::number(std::max<qint64>(1, qRound64(balances / 10.5))),
                        u"--balances-per-customer"_s, u"10"_s, u"--statement-months"_s, u"0"_s});
    if (!demo.waitForFinished(-1) || demo.exitCode() != 0)
        fail(u"workspace demo failed"_s);
    const auto key = QRegularExpression(u"(sk_test_\\w+)"_s)
                         .match(QString::fromUtf8(demo.readAllStandardOutput()));
    if (!key.hasMatch())
        fail(u"workspace demo printed no key"_s);
    return key.captured(1).toLatin1();
}

struct Timed
{
    double perSecond = 0;
    double cpuMsPerCall = 0; // the server's
};

// `calls` calls of `call(i)` (which fails the bench on a bad answer).
template <typename F> Timed timed(qint64 pid, int calls, F call)
{
    const double cpu = bench::cpuSeconds(pid);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < calls; ++i)
        call(i);
    const qint64 ms = std::max<qint64>(1, timer.elapsed());
    return {calls * 1000.0 / ms, (bench::cpuSeconds(pid) - cpu) * 1000.0 / calls};
}

Timed straight(int calls, const std::function<void(int)> &call)
{
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < calls; ++i)
        call(i);
    return {calls * 1000.0 / std::max<qint64>(1, timer.elapsed()), 0};
}

void print(const QString &what, const Timed &figure, const QString &ceilingName,
           const Timed &ceiling)
{
    out << "  " << what << ": " << QString::number(figure.perSecond, 'f', 1) << "/s, server CPU "
        << QString::number(figure.cpuMsPerCall, 'f', 2) << " ms a call; ceiling (" << ceilingName
        << ") " << QString::number(ceiling.perSecond, 'f', 1) << "/s";
    if (ceiling.cpuMsPerCall > 0)
        out << ", server CPU " << QString::number(ceiling.cpuMsPerCall, 'f', 2) << " ms a call";
    out << "; ratio " << QString::number(figure.perSecond / ceiling.perSecond, 'f', 2) << Qt::endl;
}

test::HttpClient::Response ok(test::HttpClient::Response answer, const QString &what)
{
    if (answer.status != 200)
        fail(u"%1: HTTP %2 %3"_s.arg(what)
                 .arg(answer.status)
                 .arg(QString::fromUtf8(answer.body.left(300))));
    return answer;
}

void measure(const QString &server, const QUrl &stripe, qint64 balances)
{
    QTemporaryDir dir;
    const QString location = dir.filePath(u"bench.db"_s);
    QElapsedTimer made;
    made.start();
    const QByteArray key = makeWorkspace(server, location, balances);
    const QString problem = test::StripeMock::connectTestKey(location, u"demo"_s, StripeKey);
    if (!problem.isEmpty())
        fail(problem);
    out << "demo workspace of about " << balances << " balances made in "
        << QString::number(made.elapsed() / 1000.0, 'f', 1) << " s" << Qt::endl;
    QProcess process;
    const QUrl url =
        bench::startServer(process, server, location, {u"--stripe-api-base"_s, stripe.toString()});
    const qint64 pid = process.processId();
    test::HttpClient http(url, key);
    engine::StripeClient::Options options;
    options.base = stripe;
    const engine::StripeClient mock(StripeKey, options);

    // processors.subscriptions, 10 pages of 100.
    QStringList after{QString()};
    const auto page = timed(pid, Customers / 100, [&](int i) {
        QJsonObject body{{u"limit"_s, 100}};
        if (i > 0)
            body.insert(u"starting_after"_s, after.at(i));
        const auto answer = ok(http.post("/v1/meterdesk/processors.subscriptions", json(body)),
                               u"processors.subscriptions"_s);
        after.append(QJsonDocument::fromJson(answer.body)
                         .object()
                         .value("data"_L1)
                         .toArray()
                         .last()
                         .toObject()
                         .value("id"_L1)
                         .toString());
    });
    const auto rawPage = straight(Customers / 100, [&](int i) {
        QUrlQuery query;
        query.addQueryItem(u"limit"_s, u"100"_s);
        if (i > 0)
            query.addQueryItem(u"starting_after"_s, after.at(i));
        if (!mock.get(u"/v1/subscriptions"_s, query))
            fail(u"the mock's list failed"_s);
    });
    print(u"processors.subscriptions, a page of 100"_s, page, u"the page from the mock"_s, rawPage);

    // billing.import, linked and not.
    const auto linked = timed(pid, Customers, [&](int i) {
        ok(http.post(
               "/v1/billing.import",
               json({{u"customer_id"_s, u"stripe-%1"_s.arg(i)},
                     {u"billables"_s,
                      QJsonArray{QJsonObject{
                          {u"link"_s, QJsonObject{{u"subscription_id"_s, u"sub_k%1"_s.arg(i)}}},
                          {u"plan"_s, QJsonObject{{u"plan_id"_s, u"pro"_s}}}}}}})),
           u"billing.import, linked"_s);
    });
    const auto plain = timed(pid, Customers, [&](int i) {
        ok(http.post(
               "/v1/billing.import",
               json({{u"customer_id"_s, u"plain-%1"_s.arg(i)},
                     {u"billables"_s, QJsonArray{QJsonObject{
                                          {u"plan"_s, QJsonObject{{u"plan_id"_s, u"pro"_s}}}}}}})),
           u"billing.import"_s);
    });
    print(u"billing.import linked to Stripe"_s, linked, u"the same import, no link"_s, plain);

    // processors.verify: every linked customer (one listing), then one.
    const auto all = timed(pid, 3, [&](int) {
        const auto answer =
            ok(http.post("/v1/meterdesk/processors.verify", "{}"), u"processors.verify"_s);
        // The demo's own plans linked to subscriptions count too.
        if (QJsonDocument::fromJson(answer.body).object().value("checked"_L1).toInt() < Customers)
            fail(u"processors.verify checked fewer than the imports linked"_s);
    });
    const auto listing = straight(3, [&](int) {
        QUrlQuery query;
        query.addQueryItem(u"status"_s, u"all"_s);
        if (!mock.list(u"/v1/subscriptions"_s, query, std::nullopt,
                       [](const QJsonArray &) { return true; }))
            fail(u"the mock's listing failed"_s);
    });
    print(u"processors.verify of every linked customer"_s, all, u"listing them from the mock"_s,
          listing);
    const auto one = timed(pid, 200, [&](int i) {
        ok(http.post("/v1/meterdesk/processors.verify",
                     json({{u"customer_ids"_s, QJsonArray{u"stripe-%1"_s.arg(i)}}})),
           u"processors.verify, one"_s);
    });
    const auto read = straight(200, [&](int i) {
        if (!mock.get(u"/v1/subscriptions/sub_k%1"_s.arg(i)))
            fail(u"the mock's read failed"_s);
    });
    print(u"processors.verify of one customer"_s, one, u"its subscription from the mock"_s, read);
    process.terminate();
    process.waitForFinished(30000);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({u"server"_s, u"The meterdesk-server binary."_s, u"PATH"_s});
    parser.addHelpOption();
    parser.process(app);
    if (!parser.isSet(u"server"_s))
        fail(u"give --server PATH"_s);
    QString problem;
    test::StripeMock *stripe = test::StripeMock::shared(&problem);
    if (!stripe)
        fail(problem);
    QJsonArray steps{
        create(u"products"_s, {{u"id"_s, u"prod_k"_s}, {u"name"_s, u"Pro"_s}}),
        create(u"plans"_s, {{u"id"_s, u"plan_k"_s},
                            {u"product"_s, u"prod_k"_s},
                            {u"amount"_s, 2900},
                            {u"currency"_s, u"usd"_s},
                            {u"interval"_s, u"month"_s},
                            {u"metadata"_s, QJsonObject{{u"meterdesk_plan_id"_s, u"pro"_s}}}})};
    for (int i = 0; i < Customers; ++i)
        steps.append(create(u"customers"_s, {{u"id"_s, u"cus_k%1"_s.arg(i)}}));
    for (int i = 0; i < Customers; ++i)
        steps.append(create(u"subscriptions"_s,
                            {{u"id"_s, u"sub_k%1"_s.arg(i)},
                             {u"customer"_s, u"cus_k%1"_s.arg(i)},
                             {u"items"_s, QJsonArray{QJsonObject{{u"plan"_s, u"plan_k"_s}}}}}));
    problem = stripe->seed(steps);
    if (!problem.isEmpty())
        fail(problem);
    for (const qint64 balances : {2'000LL, 200'000LL}) {
        out << "== about " << balances << " balances" << Qt::endl;
        measure(parser.value(u"server"_s), stripe->url(), balances);
    }
    return 0;
}
