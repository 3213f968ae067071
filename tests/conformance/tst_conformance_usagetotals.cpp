// Conformance, usage_events.totals (docs/api.md, "usage_events.totals"):
// every filter and grouping adds up, per UTC day, to what walking
// usage_events.list with the same filter gives; the largest groups are
// named, in order, and the rest summed as `other`; the days the range covers
// in part are named; refusals name what to fix. Runs every way:
// tests/conformance/CMakeLists.txt (data/usage-workspace.json).
#include "tests/conformance/ConformanceSuite.h"

#include <QDateTime>

#include <algorithm>

using namespace md;
using namespace md::test::conformance;
using api::UsageGroupBy;
using api::UsageTotalsRequest;

namespace {

const QString Key = u"sk_test_usage00000000000000000000000000"_s;
const QString ReadKey = u"sk_test_usageread0000000000000000000000"_s;
constexpr qint64 Day = 24 * 60 * 60 * 1000;

// Midnight UTC, 1 November 2026: the events fall on the days after it.
qint64 november()
{
    return QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
}

api::UsageBatchEvent featureEvent(const QString &customer, const QString &featureId,
                                  const char *value, qint64 at)
{
    api::TrackRequest request;
    request.customerId = customer;
    request.featureId = featureId;
    request.value = dec(value);
    request.timestamp = at;
    return {request.asCall(), std::nullopt};
}

api::UsageBatchEvent tokensEvent(const QString &customer, const QString &model, qint64 input,
                                 qint64 output, qint64 at)
{
    api::TrackTokensRequest call;
    call.customerId = customer;
    call.modelId = model;
    call.inputTokens = input;
    call.outputTokens = output;
    call.featureId = u"credits"_s;
    call.timestamp = at;
    return {call, std::nullopt};
}

std::optional<QString> keyOf(const api::UsageEvent &event, UsageGroupBy by)
{
    switch (by) {
    case UsageGroupBy::Feature:
        return event.featureId;
    case UsageGroupBy::Customer:
        return event.customerId;
    case UsageGroupBy::Model:
        return event.modelId;
    }
    return std::nullopt;
}

api::UsageFigures figuresOf(const api::UsageEvent &event)
{
    qint64 tokens = 0;
    for (const qint64 count : event.tokens)
        tokens += count;
    return {1, event.modelId ? event.value : api::Decimal(),
            event.modelId ? api::Decimal() : event.value, tokens};
}

// The oracle: the listed events added up per group and day, ordered and cut
// as the route says (largest cost, then units, then key; the rest summed).
api::UsageTotals addUp(const QList<api::UsageEvent> &events, const UsageTotalsRequest &request)
{
    QMap<std::optional<QString>, QMap<QDate, api::UsageFigures>> days;
    QMap<std::optional<QString>, api::UsageFigures> sizes;
    api::UsageTotals totals;
    for (const api::UsageEvent &event : events) {
        const auto key = keyOf(event, request.groupBy);
        const QDate day = QDateTime::fromMSecsSinceEpoch(event.timestamp, Qt::UTC).date();
        days[key][day] += figuresOf(event);
        sizes[key] += figuresOf(event);
        totals.total += figuresOf(event);
    }
    QList<std::optional<QString>> keys = sizes.keys();
    const auto size = [&](const std::optional<QString> &key) {
        return std::pair(sizes.value(key).cost, sizes.value(key).units);
    };
    std::stable_sort(keys.begin(), keys.end(),
                     [&](const auto &a, const auto &b) { return size(b) < size(a); });
    const auto groupOf = [&](const std::optional<QString> &key) {
        api::UsageGroup group{key, sizes.value(key), {}};
        const auto perDay = days.value(key);
        for (auto it = perDay.cbegin(); it != perDay.cend(); ++it)
            group.days.append({it.key(), it.value()});
        return group;
    };
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if (i < request.top) {
            totals.groups.append(groupOf(keys.at(i)));
            continue;
        }
        if (!totals.other)
            totals.other = api::UsageGroup{};
        totals.other->figures += sizes.value(keys.at(i));
        ++totals.otherGroups;
        for (auto it = days.value(keys.at(i)).cbegin(); it != days.value(keys.at(i)).cend(); ++it)
            days[std::optional<QString>(u"\x01other"_s)][it.key()] += it.value();
    }
    if (totals.other)
        for (const auto &[day, figures] : days.value(u"\x01other"_s).asKeyValueRange())
            totals.other->days.append({day, figures});
    return totals;
}

} // namespace

class TestUsageTotalsConformance final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    api::UsageTotals totals(const UsageTotalsRequest &request)
    {
        auto answer = await(m_backend->usageTotals(request));
        if (!answer)
            qFatal("usage_events.totals failed: %s", qPrintable(answer.error().message));
        return answer.value();
    }

    QList<api::UsageEvent> listed(const UsageTotalsRequest &request)
    {
        api::PageRequest page;
        page.customerId = request.customerId;
        page.featureId = request.featureId;
        page.modelId = request.modelId;
        page.from = request.from;
        page.to = request.to;
        page.limit = 7; // several pages
        QList<api::UsageEvent> events;
        for (;;) {
            auto answer = await(m_backend->listUsageEvents(page));
            if (!answer)
                qFatal("usage_events.list failed: %s", qPrintable(answer.error().message));
            events += answer.value().list;
            if (!answer.value().hasMore)
                return events;
            page.startCursor = *answer.value().nextCursor;
        }
    }

    api::ApiError refusal(const UsageTotalsRequest &request)
    {
        auto answer = await(m_backend->usageTotals(request));
        if (answer)
            qFatal("usage_events.totals was not refused");
        return answer.error();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = test::openWorkspace(
            m_database, m_server, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/usage-workspace.json"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::backendFor(m_database, m_server, Key);
        // Events on five days of November, of three features and two models,
        // some at a day's first and last millisecond.
        const qint64 start = november();
        api::UsageBatchRequest batch;
        batch.events = {
            featureEvent(u"cal"_s, u"calls"_s, "3", start),
            featureEvent(u"cal"_s, u"calls"_s, "2.5", start + Day - 1),
            featureEvent(u"lean"_s, u"calls"_s, "1", start + Day),
            featureEvent(u"cal"_s, u"seats"_s, "2", start + 2 * Day + 5),
            featureEvent(u"p1"_s, u"calls"_s, "0.125", start + 3 * Day),
            featureEvent(u"p2"_s, u"calls"_s, "0.125", start + 3 * Day),
            tokensEvent(u"tok"_s, u"acme/basic"_s, 1000, 200, start + Day + 7),
            tokensEvent(u"tok"_s, u"acme/basic"_s, 4000, 10, start + 4 * Day),
            tokensEvent(u"tok"_s, u"acme/full"_s, 300, 30, start + 4 * Day + 9),
        };
        auto answer = await(m_backend->usageBatch(batch));
        QVERIFY2(answer.ok(), answer.ok() ? "" : qPrintable(answer.error().message));
        for (const auto &result : answer.value().results)
            QVERIFY2(!result.error, result.error ? qPrintable(result.error->message) : "");
    }

    void addsUpWhatTheListShows_data()
    {
        QTest::addColumn<UsageTotalsRequest>("request");
        const auto by = [](UsageGroupBy groupBy, qint64 top = UsageTotalsRequest::DefaultTop) {
            UsageTotalsRequest request;
            request.groupBy = groupBy;
            request.top = top;
            return request;
        };
        QTest::newRow("by feature") << by(UsageGroupBy::Feature);
        QTest::newRow("by customer") << by(UsageGroupBy::Customer);
        QTest::newRow("by model, events of no model in the null group") << by(UsageGroupBy::Model);
        QTest::newRow("top 2 customers, the rest summed") << by(UsageGroupBy::Customer, 2);
        QTest::newRow("top 1 feature") << by(UsageGroupBy::Feature, 1);
        UsageTotalsRequest request = by(UsageGroupBy::Customer);
        request.featureId = u"calls"_s;
        QTest::newRow("one feature, by customer") << request;
        request = by(UsageGroupBy::Feature);
        request.customerId = u"cal"_s;
        QTest::newRow("one customer, by feature") << request;
        request = by(UsageGroupBy::Customer);
        request.modelId = u"acme/basic"_s;
        QTest::newRow("one model") << request;
        request = by(UsageGroupBy::Feature);
        request.from = november() + Day;
        request.to = november() + 3 * Day;
        QTest::newRow("two whole days") << request;
        request.from = november() + Day / 2;
        request.to = november() + 4 * Day + 8;
        QTest::newRow("days in part") << request;
        request.from = november() + 40 * Day;
        request.to.reset();
        QTest::newRow("nothing in range") << request;
    }

    void addsUpWhatTheListShows()
    {
        QFETCH(UsageTotalsRequest, request);
        const api::UsageTotals answer = totals(request);
        const api::UsageTotals expected = addUp(listed(request), request);
        QCOMPARE(answer.groups, expected.groups);
        QCOMPARE(answer.other.has_value(), expected.other.has_value());
        if (expected.other) {
            QCOMPARE(answer.other->figures, expected.other->figures);
            QCOMPARE(answer.other->days, expected.other->days);
            QCOMPARE(answer.otherGroups, expected.otherGroups);
        }
        QCOMPARE(answer.total, expected.total);
    }

    void sumsAreExactAndKeptApart()
    {
        UsageTotalsRequest request;
        request.groupBy = UsageGroupBy::Feature;
        const api::UsageTotals answer = totals(request);
        QCOMPARE(answer.total.events, 9);
        // Features' units are never turned into cost, nor the reverse.
        const auto calls = std::find_if(answer.groups.cbegin(), answer.groups.cend(),
                                        [](const auto &g) { return g.key == u"calls"_s; });
        QVERIFY(calls != answer.groups.cend());
        QCOMPARE(calls->figures.units, dec("6.75"));
        QVERIFY(calls->figures.cost.isZero());
        const auto credits = std::find_if(answer.groups.cbegin(), answer.groups.cend(),
                                          [](const auto &g) { return g.key == u"credits"_s; });
        QVERIFY(credits != answer.groups.cend());
        QVERIFY(credits->figures.units.isZero());
        QVERIFY(!credits->figures.cost.isZero());
        QCOMPARE(credits->figures.tokens, 5540);
        // The day's first and last millisecond are the same UTC day.
        QCOMPARE(calls->days.first().day, QDate(2026, 11, 1));
        QCOMPARE(calls->days.first().figures.units, dec("5.5"));
        QCOMPARE(calls->days.first().figures.events, 2);
    }

    void namesTheDaysCoveredInPart()
    {
        UsageTotalsRequest request;
        request.from = november() + Day / 2;
        request.to = november() + 3 * Day + 1;
        QCOMPARE(totals(request).partialDays,
                 (QList<QDate>{QDate(2026, 11, 1), QDate(2026, 11, 4)}));
        request.from = november();
        request.to = november() + 3 * Day;
        QVERIFY(totals(request).partialDays.isEmpty());
        // Up to now: today is not over.
        request.to.reset();
        const QDate today = QDateTime::currentDateTimeUtc().date();
        QCOMPARE(totals(request).partialDays, QList<QDate>{today});
    }

    void aReadKeyMayAsk()
    {
        auto reader = test::backendFor(m_database, m_server, ReadKey);
        auto answer = await(reader->usageTotals({}));
        QVERIFY2(answer.ok(), answer.ok() ? "" : qPrintable(answer.error().message));
        QCOMPARE(answer.value().total.events, 9);
    }

    void refusalsNameWhatToFix()
    {
        UsageTotalsRequest request;
        request.customerId = u"nobody"_s;
        api::ApiError error = refusal(request);
        QCOMPARE(error.status, 404);
        QCOMPARE(error.code, u"customer_not_found"_s);
        QVERIFY2(error.message.contains(u"nobody"_s), qPrintable(error.message));
        request = {};
        request.featureId = u"nothing"_s;
        error = refusal(request);
        QCOMPARE(error.status, 404);
        QCOMPARE(error.code, u"feature_not_found"_s);
    }

    void refusesWhatItDoesNotTakeOnTheWire()
    {
        if (!test::overHttp())
            QSKIP("the wire's own refusals: over HTTP only");
        const auto ask = [&](const QByteArray &body) {
            return test::rawRequest(m_server, u"/v1/meterdesk/usage_events.totals"_s,
                                    {{"Authorization", "Bearer " + Key.toUtf8()},
                                     {"Content-Type", "application/json"},
                                     {"x-api-version", "2.4.0"}},
                                    body);
        };
        for (const QByteArray &body :
             {QByteArray(R"({"limit": 5})"), QByteArray(R"({"group_by": "plan"})"),
              QByteArray(R"({"top": 0})"), QByteArray(R"({"top": 51})"),
              QByteArray(R"({"from": 10, "to": 5})")}) {
            const test::RawAnswer answer = ask(body);
            QCOMPARE(answer.status, 400);
            QCOMPARE(answer.json().value(u"code"_s).toString(), u"invalid_inputs"_s);
        }
        const test::RawAnswer fine = ask(R"({"group_by": "model", "top": 3})");
        QCOMPARE(fine.status, 200);
    }
};

QTEST_GUILESS_MAIN(TestUsageTotalsConformance)
#include "tst_conformance_usagetotals.moc"
