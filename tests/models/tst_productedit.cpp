// The admin forms' models: what a product or reward form sends (only what
// changed, checked by the wire decoder with the field's path), the review's
// field-by-field changes, and the request that undoes a save.
#include "models/ProductEdit.h"
#include "models/RewardEdit.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::ProductEdit;
using models::ProductForm;

namespace {

api::Product pro()
{
    api::Product product;
    product.id = u"pro"_s;
    product.name = u"Pro"_s;
    product.group = u"plans"_s;
    api::ProductItem calls;
    calls.featureId = u"api_calls"_s;
    calls.includedUsage = api::Decimal::fromInteger(100000);
    calls.interval = api::ResetInterval::Month;
    calls.usageModel = api::UsageModel::PayPerUse;
    calls.billingUnits = api::Decimal::fromInteger(1);
    calls.resetUsageWhenEnabled = true;
    calls.intervalCount = 3;
    calls.rollover =
        api::RolloverRule{api::Decimal::fromInteger(500), 2, api::ResetInterval::Month};
    product.items = {calls};
    return product;
}

} // namespace

class TestProductEdit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anUntouchedFormSendsNothing()
    {
        auto request = ProductEdit::request(pro(), ProductForm::from(pro()));
        QVERIFY(request.ok());
        QVERIFY(ProductEdit::changes(pro(), request.value()).isEmpty());
    }

    void onlyWhatChangedIsSent()
    {
        ProductForm form = ProductForm::from(pro());
        form.name = u"Pro (2027)"_s;
        form.items[0].tiers = u"100000:0.002; inf:0.001"_s;
        auto request = ProductEdit::request(pro(), form);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        QCOMPARE(request.value().name, u"Pro (2027)"_s);
        QVERIFY(!request.value().group);
        QVERIFY(request.value().items);
        QCOMPARE(request.value().items->first().tiers->size(), 2);
        QCOMPARE(request.value().items->first().tiers->last().to, std::nullopt); // inf
        const auto changes = ProductEdit::changes(pro(), request.value());
        QCOMPARE(changes.size(), 2);
        QCOMPARE(changes.at(0), (models::FieldChange{u"Name"_s, u"Pro"_s, u"Pro (2027)"_s}));
        QCOMPARE(changes.at(1).field, u"Item 1"_s);
        QVERIFY(changes.at(1).after.contains(u"tiers 100000:0.002; inf:0.001"_s));
    }

    // The billing clock's fields: shown as typed, sent only when changed,
    // said in the review.
    void rolloverAndEveryAreEdited()
    {
        const ProductForm shown = ProductForm::from(pro());
        QCOMPARE(shown.items.at(0).rollover, u"500/2 month"_s);
        QCOMPARE(shown.items.at(0).every, u"3"_s);

        ProductForm form = shown;
        form.items[0].rollover = u"all/1 quarter"_s;
        auto request = ProductEdit::request(pro(), form);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        const api::ProductItem &item = request.value().items->first();
        QCOMPARE(item.rollover,
                 (api::RolloverRule{std::nullopt, 1, api::ResetInterval::Quarter})); // keeps all
        QCOMPARE(item.intervalCount, 3); // untouched, kept
        const auto changes = ProductEdit::changes(pro(), request.value());
        QCOMPARE(changes.size(), 1);
        QVERIFY(changes.at(0).before.contains(u"every 3 · rolls over 500/2 month"_s));
        QVERIFY(changes.at(0).after.contains(u"rolls over all/1 quarter"_s));

        form.items[0].rollover.clear(); // nothing carries over any more
        form.items[0].every = u"1"_s;
        request = ProductEdit::request(pro(), form);
        QVERIFY(request.ok());
        QCOMPARE(request.value().items->first().rollover, std::nullopt);
        QCOMPARE(request.value().items->first().intervalCount, 1);
        QVERIFY(!ProductEdit::changes(pro(), request.value()).at(0).after.contains(u"every"_s));
    }

    void problemsNameTheirPath_data()
    {
        QTest::addColumn<QString>("tiers");
        QTest::addColumn<QString>("included");
        QTest::addColumn<QString>("path");
        QTest::newRow("tiers not pairs") << u"10:1; 20"_s << u"1"_s << u"items[0].tiers"_s;
        QTest::newRow("tiers falling")
            << u"10:1; 5:1; inf:1"_s << u"1"_s << u"items[0].tiers[1].to"_s;
        QTest::newRow("included not a number")
            << QString() << u"many"_s << u"items[0].included_usage"_s;
        QTest::newRow("rollover not max/length interval")
            << u"rollover:500 for 2 months"_s << u"1"_s << u"items[0].rollover"_s;
        QTest::newRow("rollover max below 0")
            << u"rollover:-1/2 month"_s << u"1"_s << u"items[0].rollover.max"_s;
        QTest::newRow("rollover length 0")
            << u"rollover:all/0 month"_s << u"1"_s << u"items[0].rollover.length"_s;
        QTest::newRow("rollover unknown interval")
            << u"rollover:all/1 fortnight"_s << u"1"_s << u"items[0].rollover.duration"_s;
        QTest::newRow("every 0") << u"every:0"_s << u"1"_s << u"items[0].interval_count"_s;
        QTest::newRow("every not a number")
            << u"every:often"_s << u"1"_s << u"items[0].interval_count"_s;
        QTest::newRow("rollover on a one-off item")
            << u"interval:"_s << u"1"_s << u"items[0].rollover"_s;
    }
    // "tiers" names another field as "field:text" for the rows about it.
    void problemsNameTheirPath()
    {
        QFETCH(QString, tiers);
        QFETCH(QString, included);
        QFETCH(QString, path);
        ProductForm form = ProductForm::from(pro());
        ProductForm::Item &item = form.items[0];
        item.included = included;
        if (tiers.startsWith(u"rollover:"_s))
            item.rollover = tiers.mid(9);
        else if (tiers.startsWith(u"every:"_s))
            item.every = tiers.mid(6);
        else if (tiers.startsWith(u"interval:"_s))
            item.interval = tiers.mid(9);
        else
            item.tiers = tiers;
        auto request = ProductEdit::request(pro(), form);
        QVERIFY(!request.ok());
        QVERIFY2(request.error().message.startsWith(path), qPrintable(request.error().message));
    }

    void undoWritesThePreviousValuesBack()
    {
        api::Product after = pro();
        after.id = u"pro-2027"_s;
        after.name = u"Pro 2027"_s;
        after.items.first().includedUsage = api::Decimal::fromInteger(5);
        after.freeTrial = api::FreeTrial{};
        const api::UpdateProductRequest undo = ProductEdit::undo(pro(), after);
        QCOMPARE(undo.id, u"pro"_s);
        QCOMPARE(undo.name, u"Pro"_s);
        QCOMPARE(undo.items, pro().items);
        QVERIFY(undo.freeTrial && !*undo.freeTrial); // removed again
        QVERIFY(!undo.group);
    }

    void rewardFormsSendWhatChanged()
    {
        api::FeatureGrantRecord grant;
        grant.id = u"bonus"_s;
        grant.name = u"Bonus"_s;
        grant.promoCodes = {{u"BONUS"_s, 5}};
        const models::Reward before = grant;
        models::RewardForm form = models::RewardForm::from(before);
        form.codes.append({u"MORE"_s, 2, false});
        auto request = models::RewardEdit::request(before, form);
        QVERIFY(request.ok());
        QVERIFY(!request.value().featureGrant->name);
        QCOMPARE(request.value().featureGrant->promoCodes->size(), 2);
        const auto changes = models::RewardEdit::changes(before, request.value());
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.first().after, u"BONUS (max. 5), MORE (max. 2)"_s);
        form.codes.last().code.clear();
        QVERIFY(models::RewardEdit::request(before, form)
                    .error()
                    .message.startsWith(u"feature_grant.promo_codes[1].code"_s));
    }
};

QTEST_GUILESS_MAIN(TestProductEdit)
#include "tst_productedit.moc"
