// Conformance, balances.track_tokens: exact deductions, pricing, caps, idempotency, async, two
// servers; pricing and usage events. Runs three ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

class TestTrackConformance final : public ConformanceSuite
{
    Q_OBJECT

private Q_SLOTS:
    void trackTokensDeductsExactly()
    {
        const engine::ModelPrice *price = m_catalogue.find(u"openai/gpt-4o-mini"_s);
        QVERIFY(price);
        // (1000 × input + 500 × output) / 1e6, then the fixture's openai markup of 10 %.
        const api::Decimal base = price->input.mulDiv(1000, 1)
                                      .value()
                                      .plus(price->output.mulDiv(500, 1).value())
                                      .value()
                                      .mulDiv(1, 1'000'000)
                                      .value();
        const api::Decimal expected = base.mulDiv(110, 100).value();
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 1000;
        call.outputTokens = 500;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, expected);
        QCOMPARE(tracked.value().deductions.size(), 1);
        QCOMPARE(tracked.value().deductions.first().balanceId, u"b_ann_topup"_s);
        QCOMPARE(tracked.value().deductions.first().value, expected);
        const api::Decimal remaining =
            api::Decimal::fromRaw(2575 * (api::Decimal::One / 100)).minus(expected).value();
        QCOMPARE(tracked.value().balance->remaining, remaining);
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        QCOMPARE(list(request).list.first().remaining, remaining);
    }

    void freeModelsRecordWithoutDeducting()
    {
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o"_s; // the fixture's model markup is -100
        call.inputTokens = 5000;
        call.outputTokens = 5000;
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        const api::Decimal before = list(request).list.first().remaining;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY(tracked.ok());
        QVERIFY(tracked.value().value.isZero());
        QVERIFY(tracked.value().deductions.isEmpty());
        QCOMPARE(list(request).list.first().remaining, before);
    }

    void capStopsAtZeroAndOverflowGoesNegative()
    {
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        const api::Decimal before = list(request).list.first().remaining;
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 1'000'000'000; // far more than is left
        call.outputTokens = 0;
        auto capped = await(m_backend->trackTokens(call));
        QVERIFY(capped.ok());
        QCOMPARE(capped.value().deductions.first().value, before); // only what fits
        QVERIFY(list(request).list.first().remaining.isZero());
        call.overageBehavior = api::OverageBehavior::Overflow;
        auto overflowed = await(m_backend->trackTokens(call));
        QVERIFY(overflowed.ok());
        QCOMPARE(list(request).list.first().remaining, overflowed.value().value.negated());
    }

    void aRepeatedIdempotencyKeyDeductsOnce()
    {
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 100000;
        call.overageBehavior = api::OverageBehavior::Overflow; // ann's credits ran out above
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        const api::Decimal before = list(request).list.first().remaining;
        auto first = await(m_backend->trackTokens(call, u"conformance-once"_s));
        QVERIFY(first.ok());
        auto again = await(m_backend->trackTokens(call, u"conformance-once"_s));
        QVERIFY(!again.ok());
        QCOMPARE(again.error().status, 409);
        QCOMPARE(again.error().code, u"duplicate_idempotency_key"_s);
        QCOMPARE(list(request).list.first().remaining, before.minus(first.value().value).value());
    }

    void trackErrors_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("feature");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown model")
            << u"ann"_s << u"openai/no-such-model"_s << QString() << 400 << u"invalid_request"_s;
        QTest::newRow("unknown customer")
            << u"zed"_s << u"openai/gpt-4o-mini"_s << QString() << 404 << u"customer_not_found"_s;
        QTest::newRow("unknown feature")
            << u"ann"_s << u"openai/gpt-4o-mini"_s << u"gold"_s << 404 << u"feature_not_found"_s;
        QTest::newRow("not a credit system")
            << u"ann"_s << u"openai/gpt-4o-mini"_s << u"api_calls"_s << 400 << u"invalid_request"_s;
    }
    void trackErrors()
    {
        QFETCH(QString, customer);
        QFETCH(QString, model);
        QFETCH(QString, feature);
        QFETCH(int, status);
        QFETCH(QString, code);
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = model;
        call.inputTokens = 10;
        if (!feature.isEmpty())
            call.featureId = feature;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY(!tracked.ok());
        QCOMPARE(tracked.error().status, status);
        QCOMPARE(tracked.error().code, code);
        QVERIFY(tracked.error().message.contains(customer) ||
                tracked.error().message.contains(model) ||
                tracked.error().message.contains(feature));
    }

    // Pricing vectors against data/pricing-catalogue.json and the markups of
    // data/pricing-workspace.json ("credits": model acme/full 50 %, provider
    // acme 20 %, default 5 %, acme/gift -100; "plain": none). Expected values
    // are worked by hand in the comments.
    void pricingVectors_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QList<qint64>>(
            "tokens"); // input, output, cache read, cache write, reasoning, audio in, audio out
        QTest::addColumn<QString>("value");
        // 1000×3 + 200×15 + 10000×0.3 + 400×3.75 + 100×20 + 10×40 + 10×80 = 13700 → 0.0137
        QTest::newRow("own pool prices, model markup")
            << u"pat"_s << u"acme/full"_s << QList<qint64>{1000, 200, 10000, 400, 100, 10, 10}
            << u"0.02055"_s; // × 1.5
        QTest::newRow("own pool prices, no markup")
            << u"quinn"_s << u"acme/full"_s << QList<qint64>{1000, 200, 10000, 400, 100, 10, 10}
            << u"0.0137"_s;
        // No cache/reasoning/audio prices: 1000×2.5 + 500×10 + 2000×2.5 + 300×10 + 100×2.5
        // + 50×10 = 16250 → 0.01625
        QTest::newRow("fallbacks, provider markup")
            << u"pat"_s << u"acme/basic"_s << QList<qint64>{1000, 500, 2000, 0, 300, 100, 50}
            << u"0.0195"_s; // × 1.2
        // Audio only: 1000×2.5 (input) + 1000×10 (output) = 12500 → 0.0125
        QTest::newRow("audio fallbacks, no markup")
            << u"quinn"_s << u"acme/basic"_s << QList<qint64>{0, 0, 0, 0, 0, 1000, 1000}
            << u"0.0125"_s;
        // Provider "router", model "vendor/model-x": 1,000,000 × 1 → 1, default markup 5 %.
        QTest::newRow("nested model id, default markup")
            << u"pat"_s << u"router/vendor/model-x"_s << QList<qint64>{1000000, 0, 0, 0, 0, 0, 0}
            << u"1.05"_s;
        QTest::newRow("nested model id, no markup")
            << u"quinn"_s << u"router/vendor/model-x"_s
            << QList<qint64>{1000000, 500000, 0, 0, 0, 0, 0} << u"2"_s;
        // One token at 1 $/M with 5 %: 0.00000105, exact to the nano-dollar.
        QTest::newRow("one token")
            << u"pat"_s << u"flat/one"_s << QList<qint64>{1, 0, 0, 0, 0, 0, 0} << u"0.00000105"_s;
        QTest::newRow("free model")
            << u"pat"_s << u"acme/gift"_s << QList<qint64>{5000, 5000, 0, 0, 0, 0, 0} << u"0"_s;
    }
    void pricingVectors()
    {
        QFETCH(QString, customer);
        QFETCH(QString, model);
        QFETCH(QList<qint64>, tokens);
        QFETCH(QString, value);
        api::TrackTokensRequest call = callFor(customer, model, tokens.at(0));
        call.outputTokens = tokens.at(1);
        call.cacheReadTokens = tokens.at(2);
        call.cacheWriteTokens = tokens.at(3);
        call.reasoningTokens = tokens.at(4);
        call.audioInputTokens = tokens.at(5);
        call.audioOutputTokens = tokens.at(6);
        const QString balance = customer == "pat"_L1 ? u"b_pat"_s : u"b_quinn"_s;
        const api::Decimal before = remainingOf(*m_pricing, balance, customer);
        auto tracked = await(m_pricing->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, dec(value.toLatin1().constData()));
        const api::Decimal deducted =
            before.minus(remainingOf(*m_pricing, balance, customer)).value();
        QCOMPARE(deducted, tracked.value().value);
        QCOMPARE(tracked.value().deductions.isEmpty(), tracked.value().value.isZero());
    }

    void deductionOrderAcrossRowsAndRollovers()
    {
        // 16 at 1 $/M: rollovers first, soonest expiry first (2, then 3), then the
        // resetting plan row (10), then the standalone row that expires (1 of 5);
        // the standalone row without expiry is untouched.
        auto tracked = await(m_pricing->trackTokens(callFor(u"rae"_s, u"flat/one"_s, 16'000'000)));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, dec("16"));
        QCOMPARE(tracked.value().deductions.size(), 2);
        QCOMPARE(tracked.value().deductions.at(0).balanceId, u"b_rae_plan"_s);
        QCOMPARE(tracked.value().deductions.at(0).value, dec("15"));
        QCOMPARE(tracked.value().deductions.at(0).planId, u"team"_s);
        QVERIFY(tracked.value().deductions.at(0).reset.has_value());
        QCOMPARE(tracked.value().deductions.at(1).balanceId, u"b_rae_pack"_s);
        QCOMPARE(tracked.value().deductions.at(1).value, dec("1"));
        QVERIFY(!tracked.value().deductions.at(1).planId);
        QCOMPARE(tracked.value().balance->remaining, dec("8"));
        QCOMPARE(remainingOf(*m_pricing, u"b_rae_pack"_s, u"rae"_s), dec("4"));
        QCOMPARE(remainingOf(*m_pricing, u"b_rae_old"_s, u"rae"_s), dec("4"));
        QCOMPARE(remainingOf(*m_pricing, u"b_rae_plan"_s, u"rae"_s), dec("0"));
    }

    void capAndOverflowAtTheBoundary_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<qint64>("tokens");
        QTest::addColumn<bool>("overflow");
        QTest::addColumn<QString>("deducted");
        QTest::addColumn<QString>("remaining");
        // Each customer holds 0.5 of "plain" (no markup); 1 token costs 0.000001.
        QTest::newRow("exactly what is left, cap")
            << u"vic"_s << qint64(500000) << false << u"0.5"_s << u"0"_s;
        QTest::newRow("one token more, cap")
            << u"uma"_s << qint64(500001) << false << u"0.5"_s << u"0"_s;
        QTest::newRow("one token more, overflow")
            << u"wes"_s << qint64(500001) << true << u"0.500001"_s << u"-0.000001"_s;
    }
    void capAndOverflowAtTheBoundary()
    {
        QFETCH(QString, customer);
        QFETCH(qint64, tokens);
        QFETCH(bool, overflow);
        QFETCH(QString, deducted);
        QFETCH(QString, remaining);
        api::TrackTokensRequest call = callFor(customer, u"flat/one"_s, tokens);
        if (overflow)
            call.overageBehavior = api::OverageBehavior::Overflow;
        auto tracked = await(m_pricing->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, api::Decimal::fromRaw(tokens * 1000)); // 1e-6 each
        QCOMPARE(tracked.value().deductions.size(), 1);
        QCOMPARE(tracked.value().deductions.first().value, dec(deducted.toLatin1().constData()));
        QCOMPARE(tracked.value().balance->remaining, dec(remaining.toLatin1().constData()));
        QCOMPARE(remainingOf(*m_pricing, u"b_"_s + customer, customer),
                 dec(remaining.toLatin1().constData()));
    }

    void autoDetectionFailures()
    {
        auto several = await(m_pricing->trackTokens(callFor(u"sam"_s, u"flat/one"_s, 10)));
        QCOMPARE(several.error().status, 400);
        QCOMPARE(several.error().code, u"invalid_request"_s);
        QVERIFY(several.error().message.contains(u"credits"_s));
        QVERIFY(several.error().message.contains(u"plain"_s));
        api::TrackTokensRequest named = callFor(u"sam"_s, u"flat/one"_s, 1'000'000);
        named.featureId = u"plain"_s; // naming one resolves it
        auto resolved = await(m_pricing->trackTokens(named));
        QVERIFY(resolved.ok());
        QCOMPARE(resolved.value().deductions.first().balanceId, u"b_sam_b"_s);
        auto none = await(m_pricing->trackTokens(callFor(u"tia"_s, u"flat/one"_s, 10)));
        QCOMPARE(none.error().status, 404);
        QCOMPARE(none.error().code, u"feature_not_found"_s);
        QVERIFY(none.error().message.contains(u"tia"_s));
    }

    void asyncCallsAreQueuedThenApplied()
    {
        api::TrackTokensRequest call = callFor(u"xena"_s, u"flat/one"_s, 1'000'000);
        call.async = true;
        auto queued = await(m_pricing->trackTokens(call, u"xena-async-1"_s));
        QVERIFY2(queued.ok(), queued.ok() ? "" : qPrintable(queued.error().message));
        QVERIFY(queued.value().queued);
        QVERIFY(queued.value().deductions.isEmpty());
        // The worker applies it shortly after: poll the balance, no fixed wait.
        QTRY_COMPARE_WITH_TIMEOUT(remainingOf(*m_pricing, u"b_xena"_s, u"xena"_s), dec("9"), 10000);
        // A repeated key is refused at once, queued or applied.
        auto again = await(m_pricing->trackTokens(call, u"xena-async-1"_s));
        QCOMPARE(again.error().status, 409);
        // What can be checked at once is: an unknown customer or model is not queued.
        api::TrackTokensRequest unknown = callFor(u"nobody"_s, u"flat/one"_s, 1);
        unknown.async = true;
        QCOMPARE(await(m_pricing->trackTokens(unknown)).error().code, u"customer_not_found"_s);
        unknown = callFor(u"xena"_s, u"flat/none"_s, 1);
        unknown.async = true;
        QCOMPARE(await(m_pricing->trackTokens(unknown)).error().status, 400);
        if (!overHttp())
            return;
        // On the wire: 204 and no body.
        const auto [status, json] = rawPost(
            u"/v1/balances.track_tokens"_s,
            {{"authorization", "Bearer " + PricingKey.toLatin1()},
             {"content-type", "application/json"}},
            R"({"customer_id":"xena","model_id":"flat/one","input_tokens":1000000,"output_tokens":0,"async":true})");
        QCOMPARE(status, 204);
        QVERIFY(json.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(remainingOf(*m_pricing, u"b_xena"_s, u"xena"_s), dec("8"), 10000);
    }

    void twoServersTrackOneCustomerWithoutLostUpdates()
    {
        if (!overHttp())
            QSKIP("about server processes");
        // Two meterdesk-server processes on one database, four clients each, all
        // charging quinn 1 a call; half of the calls are async (both servers'
        // queue workers apply them).
        test::ServerProcess second;
        const QString problem = second.start(m_database.location(), serverArguments());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const api::Decimal before = remainingOf(*m_pricing, u"b_quinn"_s, u"quinn"_s);
        constexpr int Clients = 8;
        constexpr int Calls = 25;
        std::atomic<int> failures = 0;
        std::vector<std::thread> threads;
        for (int c = 0; c < Clients; ++c) {
            threads.emplace_back([&, c] {
                remote::RemoteBackend::Options options;
                options.timeoutMs = 30000;
                if (mode() == "remote-tls"_L1)
                    options.caCertificates = testCa();
                remote::RemoteBackend client(c % 2 ? second.url() : m_server.url(), PricingKey,
                                             options);
                for (int i = 0; i < Calls; ++i) {
                    api::TrackTokensRequest call = callFor(u"quinn"_s, u"flat/one"_s, 1'000'000);
                    call.async = i % 2 == 1;
                    if (!await(client.trackTokens(call)).ok())
                        ++failures;
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(failures.load(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(remainingOf(*m_pricing, u"b_quinn"_s, u"quinn"_s),
                                  before.minus(api::Decimal::fromInteger(Clients * Calls)).value(),
                                  20000);
        QCOMPARE(second.stop(), 0);
    }

    void pricingACallRecordsNothing()
    {
        api::TrackTokensRequest call = callFor(u"pat"_s, u"acme/full"_s, 1000);
        call.outputTokens = 200;
        call.cacheReadTokens = 10000;
        const api::Decimal before = remainingOf(*m_pricing, u"b_pat"_s, u"pat"_s);
        auto quote = await(m_pricing->priceCall(call));
        QVERIFY2(quote.ok(), quote.ok() ? "" : qPrintable(quote.error().message));
        // (1000×3 + 200×15 + 10000×0.3) / 1e6 = 0.009, × 1.5 from the model markup.
        QCOMPARE(quote.value().baseCost, dec("0.009"));
        QCOMPARE(quote.value().markup, dec("50"));
        QCOMPARE(quote.value().markupSource, u"model"_s);
        QCOMPARE(quote.value().featureId, u"credits"_s);
        QCOMPARE(quote.value().value, dec("0.0135"));
        QCOMPARE(quote.value().pools.size(), 3);
        QCOMPARE(quote.value().pools.at(2).pricePerMillion, dec("0.3"));
        QCOMPARE(remainingOf(*m_pricing, u"b_pat"_s, u"pat"_s), before);
        call.customerId.clear(); // no customer: the catalogue price alone
        QCOMPARE(await(m_pricing->priceCall(call)).value().markupSource, u"none"_s);
        call.customerId = u"sam"_s; // two credit systems: the same error as tracking
        QCOMPARE(await(m_pricing->priceCall(call)).error().code, u"invalid_request"_s);
        auto models = await(m_pricing->listModels());
        QVERIFY(models.ok());
        const auto nested = std::find_if(
            models.value().list.cbegin(), models.value().list.cend(),
            [](const api::ModelInfo &model) { return model.id == "router/vendor/model-x"_L1; });
        QVERIFY(nested != models.value().list.cend());
        QCOMPARE(nested->output, dec("2"));
        QVERIFY(!nested->cacheRead);
    }

    void usageEventsFilter()
    {
        api::PageRequest request;
        request.customerId = u"pat"_s;
        request.modelId = u"acme/full"_s;
        auto events = await(m_pricing->listUsageEvents(request));
        QVERIFY2(events.ok(), events.ok() ? "" : qPrintable(events.error().message));
        QCOMPARE(events.value().list.size(), 1); // from pricingVectors
        QCOMPARE(events.value().list.first().value, dec("0.02055"));
        QCOMPARE(events.value().list.first().tokens.value(u"cache_read_tokens"_s), 10000);
        request.modelId.reset();
        request.featureId = u"credits"_s;
        QCOMPARE(await(m_pricing->listUsageEvents(request)).value().list.size(), 5);
        request.from = QDateTime::currentMSecsSinceEpoch() + 3'600'000; // nothing that late
        QVERIFY(await(m_pricing->listUsageEvents(request)).value().list.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTrackConformance)
#include "tst_conformance_track.moc"
