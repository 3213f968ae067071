// Conformance, statements and revenue (docs/api.md, docs/billing.md,
// "Statements"): a customer on the priced legacy plan (29.00 a month, 0.50
// per 10 calls past 100) with 135 calls. Moving the sandbox's clock past its
// period's end closes the period into one statement of what the preview
// said (29.00 + 2.00, the usage line written by the reset), and the next
// period opens where it ended; moving it three periods on closes each
// missed one, with the fee and nothing for usage, so the periods follow
// each other without a hole. statements.get gives one back, an id of
// nothing is 404; revenue.summary adds the statements up by month,
// product and customer, as the test adds them up itself, and with
// include_open adds what the preview says, from figures kept as long as
// open_max_age_ms allows. Runs three ways:
// tests/conformance/CMakeLists.txt.
#include "services/api/BillingPeriod.h"
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::Decimal;

class TestStatementsConformance final : public ConformanceSuite
{
    Q_OBJECT

    QList<api::Statement> statementsOf(const QString &customer)
    {
        api::PageRequest request;
        request.customerId = customer;
        request.limit = 2; // pages of two: the cursor is walked too
        QList<api::Statement> all;
        for (int guard = 0; guard < 100; ++guard) {
            auto page = await(m_admin->listStatements(request));
            if (!page)
                qFatal("statements.list failed: %s", qPrintable(page.error().message));
            all += page.value().list;
            if (!page.value().hasMore)
                return all;
            request.startCursor = *page.value().nextCursor;
        }
        qFatal("statements.list did not end");
    }

    void advanceTo(qint64 to)
    {
        api::ClockAdvance advance;
        advance.to = to;
        auto moved = await(m_admin->advanceClock(advance));
        if (!moved)
            qFatal("clock.advance failed: %s", qPrintable(moved.error().message));
    }

private Q_SLOTS:
    void aPeriodClosesIntoOneStatement()
    {
        importOnPricedLegacy(u"biller"_s, "135");
        auto before = await(m_admin->chargesPreview({u"biller"_s}));
        QVERIFY(before.ok());
        QCOMPARE(before.value().total, dec("31"));
        QVERIFY(statementsOf(u"biller"_s).isEmpty()); // nothing closed yet

        advanceTo(before.value().periodEnd + 3'600'000);
        const QList<api::Statement> closed = statementsOf(u"biller"_s);
        QCOMPARE(closed.size(), 1);
        const api::Statement &statement = closed.first();
        QCOMPARE(statement.customerId, u"biller"_s);
        QCOMPARE(statement.periodStart, before.value().periodStart);
        QCOMPARE(statement.periodEnd, before.value().periodEnd);
        QCOMPARE(statement.currency, u"usd"_s);
        QCOMPARE(statement.lines.size(), 2);
        QCOMPARE(statement.lines.at(0).kind, api::ChargeKind::Fixed);
        QCOMPARE(statement.lines.at(0).amount, dec("29"));
        // The reset at the period's end billed 35 past the grant: 4 × 0.50.
        QCOMPARE(statement.lines.at(1).kind, api::ChargeKind::Usage);
        QCOMPARE(statement.lines.at(1).quantity, dec("35"));
        QCOMPARE(statement.lines.at(1).billableUnits, std::optional(dec("40")));
        QCOMPARE(statement.lines.at(1).amount, dec("2"));
        QCOMPARE(statement.total, dec("31"));
        QVERIFY(statement.closedAt >= statement.periodEnd);

        // The next period opens where that one ended: the fee, no usage yet.
        auto after = await(m_admin->chargesPreview({u"biller"_s}));
        QVERIFY(after.ok());
        QCOMPARE(after.value().periodStart, statement.periodEnd);
        QCOMPARE(after.value().total, dec("29"));

        auto again = await(m_admin->statement(statement.id));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().message));
        QCOMPARE(again.value(), statement);
    }

    void missedPeriodsCloseOneEachWithoutAHole()
    {
        const QList<api::Statement> first = statementsOf(u"biller"_s);
        QCOMPARE(first.size(), 1);
        // Three months on: three more periods end, each closed once.
        auto open = await(m_admin->chargesPreview({u"biller"_s}));
        QVERIFY(open.ok());
        qint64 end = open.value().periodEnd;
        for (int month = 0; month < 2; ++month)
            end = api::BillingPeriod::advance(api::ResetInterval::Month, end);
        advanceTo(end + 3'600'000);
        advanceTo(end + 7'200'000); // and again: nothing closes twice
        const QList<api::Statement> all = statementsOf(u"biller"_s);
        QCOMPARE(all.size(), 4);
        for (qsizetype i = 0; i + 1 < all.size(); ++i) {
            QCOMPARE(all.at(i).periodStart, all.at(i + 1).periodEnd); // newest first, no hole
            QCOMPARE(all.at(i).total, dec("29"));                     // the fee; no calls since
        }
        QCOMPARE(all.last(), first.first());
    }

    void anUnknownStatementIsNotFound()
    {
        expectError(await(m_admin->statement(u"stmt_0000000000000"_s)), 404,
                    u"statement_not_found"_s, u"stmt_0000000000000"_s);
        expectError(await(m_admin->statement(u"nothing"_s)), 404, u"statement_not_found"_s,
                    u"nothing"_s);
        api::PageRequest nobody;
        nobody.customerId = u"nobody"_s;
        expectError(await(m_admin->listStatements(nobody)), 404, u"customer_not_found"_s,
                    u"nobody"_s);
    }

    void revenueAddsTheStatementsUp()
    {
        // Every statement of the workspace, added up here by month.
        QList<api::Statement> all;
        api::PageRequest request;
        request.limit = 200;
        for (;;) {
            auto page = await(m_admin->listStatements(request));
            QVERIFY(page.ok());
            all += page.value().list;
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        QVERIFY(!all.isEmpty());
        qint64 from = std::numeric_limits<qint64>::max();
        qint64 to = 0;
        std::map<QString, Decimal> byMonth;
        Decimal total;
        Decimal biller;
        for (const api::Statement &s : std::as_const(all)) {
            const qint64 month =
                api::BillingPeriod::containing(api::ResetInterval::Month, 0, s.periodStart).first;
            from = std::min(from, month);
            to = std::max(to, api::BillingPeriod::advance(api::ResetInterval::Month, month));
            const QString key =
                QDateTime::fromMSecsSinceEpoch(month, Qt::UTC).date().toString(Qt::ISODate);
            byMonth[key] = byMonth[key].runningSum(s.total);
            total = total.runningSum(s.total);
            if (s.customerId == "biller"_L1)
                biller = biller.runningSum(s.total);
        }
        QCOMPARE(biller, dec("118")); // 31 + 3 × 29

        api::RevenueSummaryRequest ask;
        ask.from = from;
        ask.to = to;
        ask.groupBy = api::RevenueGroupBy::Month;
        auto months = await(m_admin->revenueSummary(ask));
        QVERIFY2(months.ok(), months.ok() ? "" : qPrintable(months.error().message));
        QCOMPARE(months.value().currency, u"usd"_s);
        QCOMPARE(months.value().total, total);
        for (const api::RevenueGroup &group : months.value().groups) {
            QCOMPARE(group.total, byMonth[group.key]); // months without any are 0
            QCOMPARE(group.fixed.runningSum(group.usage), group.total);
        }
        qsizetype monthsInRange = 0;
        for (qint64 m = from; m < to; m = api::BillingPeriod::advance(api::ResetInterval::Month, m))
            ++monthsInRange;
        QCOMPARE(months.value().groups.size(), monthsInRange); // every month, none twice

        ask.groupBy = api::RevenueGroupBy::Customer;
        auto customers = await(m_admin->revenueSummary(ask));
        QVERIFY(customers.ok());
        QCOMPARE(customers.value().total, total);
        bool found = false;
        for (const api::RevenueGroup &group : customers.value().groups)
            if (group.key == "biller"_L1) {
                found = true;
                QCOMPARE(group.total, dec("118"));
                QCOMPARE(group.usage, dec("2"));
                QCOMPARE(group.fixed, dec("116"));
            }
        QVERIFY(found);

        ask.groupBy = api::RevenueGroupBy::Product;
        auto products = await(m_admin->revenueSummary(ask));
        QVERIFY(products.ok());
        QCOMPARE(products.value().total, total);

        ask.to = ask.from; // an empty range is refused, naming the field
        expectError(await(m_admin->revenueSummary(ask)), 400, u"invalid_inputs"_s, u"to"_s);
    }

    void revenueSoFarIsThePreviewKeptForAsLongAsAsked()
    {
        importOnPricedLegacy(u"sofar"_s, "135");
        const auto preview = [&] { return await(m_admin->chargesPreview({u"sofar"_s})).value(); };
        const api::ChargesPreview first = preview();
        QCOMPARE(first.total, dec("31"));
        api::RevenueSummaryRequest ask;
        ask.from =
            api::BillingPeriod::containing(api::ResetInterval::Month, 0, first.periodStart).first;
        ask.to = api::BillingPeriod::advance(api::ResetInterval::Month, ask.from);
        ask.groupBy = api::RevenueGroupBy::Customer;
        QCOMPARE(await(m_admin->revenueSummary(ask)).value().openAsOf, std::nullopt);
        ask.includeOpen = true;
        const auto sofar = [&](qint64 maxAgeMs) {
            ask.openMaxAgeMs = maxAgeMs;
            auto summary = await(m_admin->revenueSummary(ask));
            if (!summary)
                qFatal("revenue.summary failed: %s", qPrintable(summary.error().message));
            for (const api::RevenueGroup &group : summary.value().groups)
                if (group.key == "sofar"_L1)
                    return std::pair(group.total, summary.value().openAsOf.value_or(-1));
            return std::pair(Decimal(), summary.value().openAsOf.value_or(-1));
        };
        const qint64 hour = api::RevenueSummaryRequest::MaxOpenAgeMs;
        const auto [worked, workedAt] = sofar(0);
        QCOMPARE(worked, first.total); // what the preview says, line for line
        QVERIFY(workedAt > 0);

        // 100 calls more: 235, 135 past the 100 included, 14 units: 36.00.
        api::TrackRequest more;
        more.customerId = u"sofar"_s;
        more.featureId = u"calls"_s;
        more.value = dec("100");
        more.overageBehavior = api::OverageBehavior::Overflow;
        QVERIFY(await(m_admin->track(more)).ok());
        QCOMPARE(preview().total, dec("36"));
        // Figures up to an hour old may be the kept ones, and say when.
        QCOMPARE(sofar(hour), std::pair(worked, workedAt));
        // Figures of now are worked out again, and kept.
        const auto [now, nowAt] = sofar(0);
        QCOMPARE(now, dec("36"));
        QVERIFY(nowAt >= workedAt);
        QCOMPARE(sofar(hour), std::pair(now, nowAt));

        ask.openMaxAgeMs = hour + 1; // past an hour is refused, naming the field
        expectError(await(m_admin->revenueSummary(ask)), 400, u"invalid_inputs"_s,
                    u"open_max_age_ms"_s);
    }
};

QTEST_MAIN(TestStatementsConformance)
#include "tst_conformance_statements.moc"
