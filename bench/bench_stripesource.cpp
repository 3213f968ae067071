// The import wizard's Stripe source (docs/processors.md, "Import from
// Stripe") on an account of --customers customers (5,000), one subscription
// each, in stripe-stateful-mock: the subscriptions read page by page
// (processors.subscriptions through EngineBackend, 100 a page) while a 5 ms
// timer on the GUI thread measures the longest gap between its ticks (the
// worst stall), then the prices matched and the import bodies built, on the
// GUI thread. The ceiling is the same pages read straight from the mock
// with the engine's Stripe client. Needs tests/compat's node_modules (the
// compat_npm_ci test installs them). Prints figures.
#include "bench/BenchSupport.h"
#include "models/import/StripePriceMapping.h"
#include "models/import/StripeSource.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/processors/StripeClient.h"
#include "tests/support/StripeMock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

using namespace md;
using namespace Qt::StringLiterals;

using bench::fail;

namespace {

QTextStream out(stdout);

QJsonObject create(const QString &kind, const QJsonObject &params)
{
    return {{u"create"_s, kind}, {u"params"_s, params}};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption(
        {u"customers"_s, u"Stripe customers, one subscription each."_s, u"N"_s, u"5000"_s});
    parser.addHelpOption();
    parser.process(app);
    const int customers = parser.value(u"customers"_s).toInt();

    QString problem;
    test::StripeMock *stripe = test::StripeMock::shared(&problem);
    if (!stripe)
        fail(problem);
    QJsonArray steps{
        create(u"products"_s, {{u"id"_s, u"prod_pro"_s}, {u"name"_s, u"Pro"_s}}),
        create(u"plans"_s, {{u"id"_s, u"plan_pro"_s},
                            {u"product"_s, u"prod_pro"_s},
                            {u"amount"_s, 2900},
                            {u"currency"_s, u"usd"_s},
                            {u"interval"_s, u"month"_s},
                            {u"metadata"_s, QJsonObject{{u"meterdesk_plan_id"_s, u"pro"_s}}}})};
    for (int i = 0; i < customers; ++i)
        steps.append(create(u"customers"_s, {{u"id"_s, u"cus_b%1"_s.arg(i)}}));
    for (int i = 0; i < customers; ++i)
        steps.append(create(u"subscriptions"_s,
                            {{u"customer"_s, u"cus_b%1"_s.arg(i)},
                             {u"items"_s, QJsonArray{QJsonObject{{u"plan"_s, u"plan_pro"_s}}}}}));
    QElapsedTimer seeding;
    seeding.start();
    problem = stripe->seed(steps);
    if (!problem.isEmpty())
        fail(problem);
    out << "seeded " << customers << " customers and subscriptions in " << seeding.elapsed()
        << " ms\n";
    qputenv("MD_STRIPE_API_BASE", stripe->url().toString().toUtf8());

    QTemporaryDir dir;
    const QString database = dir.filePath(u"bench.db"_s);
    embedded::EngineBackend backend(database);
    auto prepared = backend.prepare(true);
    prepared.waitForFinished();
    if (!prepared.result())
        fail(prepared.result().error().message);
    problem =
        test::StripeMock::connectTestKey(database, u"demo"_s, u"sk_test_meterdesk_bench_00001"_s);
    if (!problem.isEmpty())
        fail(problem);

    // The ceiling: the same pages, straight from the mock.
    engine::StripeClient::Options options;
    options.base = stripe->url();
    QElapsedTimer raw;
    raw.start();
    qsizetype listed = 0;
    QUrlQuery query;
    query.addQueryItem(u"status"_s, u"all"_s);
    auto pages =
        engine::StripeClient(u"sk_test_meterdesk_bench_00001"_s, options)
            .list(u"/v1/subscriptions"_s, query, std::nullopt, [&](const QJsonArray &page) {
                listed += page.size();
                return true;
            });
    const qint64 rawMs = raw.elapsed();
    if (!pages)
        fail(pages.error().message);
    const double ceiling = listed * 1000.0 / std::max<qint64>(1, rawMs);

    // The wizard's read, the GUI thread's ticks watched.
    models::StripeSource source(&backend);
    qint64 worst = 0;
    QElapsedTimer tick;
    QTimer heartbeat;
    heartbeat.setInterval(5);
    QObject::connect(&heartbeat, &QTimer::timeout,
                     [&] { worst = std::max(worst, tick.restart()); });
    QSignalSpy finished(&source, &models::StripeSource::finished);
    QSignalSpy failed(&source, &models::StripeSource::failed);
    QElapsedTimer reading;
    reading.start();
    tick.start();
    heartbeat.start();
    source.read();
    while (finished.isEmpty() && failed.isEmpty())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    const qint64 readMs = reading.elapsed();
    heartbeat.stop();
    if (!failed.isEmpty())
        fail(failed.first().first().toString());
    const qsizetype read = source.subscriptions().size();
    const double rate = read * 1000.0 / std::max<qint64>(1, readMs);

    QElapsedTimer mapping;
    mapping.start();
    const auto prices = models::StripePriceMapping::prices(
        source.subscriptions(), source.productNames(), {{u"pro"_s, u"Pro"_s}}, {});
    QHash<QString, QString> chosen;
    for (const models::StripePrice &price : prices)
        chosen.insert(price.priceId, price.plan);
    const auto bodies = models::StripePriceMapping::bodies(source.subscriptions(), chosen,
                                                           QDateTime::currentMSecsSinceEpoch());
    const qint64 mappingMs = mapping.elapsed();

    out << "read " << read << " subscriptions in " << readMs << " ms: " << qRound(rate)
        << "/s through processors.subscriptions (EngineBackend); ceiling " << qRound(ceiling)
        << "/s straight from the mock (" << listed << " in " << rawMs << " ms); ratio "
        << QString::number(rate / ceiling, 'f', 2) << "\n";
    out << "worst GUI stall while reading: " << worst << " ms (5 ms timer)\n";
    out << "prices matched and " << bodies.customers
        << " bodies built on the GUI thread: " << mappingMs << " ms\n";
    return read == customers ? 0 : 1;
}
