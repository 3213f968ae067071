// The admin forms' models: what a product or reward form sends (only what
// changed, checked by the wire decoder with the field's path), the review's
// field-by-field changes (items matched by feature), what Save will do to
// the versions, and the request that undoes a save.
#include "models/admin/ProductEdit.h"
#include "models/admin/RewardEdit.h"

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
        QCOMPARE(changes.at(1), (models::FieldChange{u"Item api_calls · tiers"_s, u"none"_s,
                                                     u"100000:0.002; inf:0.001"_s}));
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
        QCOMPARE(ProductEdit::changes(pro(), request.value()),
                 (QList<models::FieldChange>{
                     {u"Item api_calls · rollover"_s, u"500/2 month"_s, u"all/1 quarter"_s}}));

        form.items[0].rollover.clear(); // nothing carries over any more
        form.items[0].every = u"1"_s;
        request = ProductEdit::request(pro(), form);
        QVERIFY(request.ok());
        QCOMPARE(request.value().items->first().rollover, std::nullopt);
        QCOMPARE(request.value().items->first().intervalCount, 1);
        QCOMPARE(ProductEdit::changes(pro(), request.value()),
                 (QList<models::FieldChange>{
                     {u"Item api_calls · every"_s, u"3"_s, u"1"_s},
                     {u"Item api_calls · rollover"_s, u"500/2 month"_s, u"none"_s}}));
    }

    // Issue 51: storage_gb removed and messages added are said as that, not
    // as "Item 2: storage_gb → messages"; a tier change of another item is
    // a tier change.
    void itemsAreMatchedByFeature()
    {
        api::Product before = pro();
        api::ProductItem storage;
        storage.featureId = u"storage_gb"_s;
        storage.includedUsage = api::Decimal::fromInteger(100);
        storage.interval = api::ResetInterval::Month;
        before.items.append(storage);
        ProductForm form = ProductForm::from(before);
        form.items[0].tiers = u"1000:0.5; inf:0.25"_s;
        form.items.removeLast();
        ProductForm::Item messages;
        messages.featureId = u"messages"_s;
        messages.included = u"20000"_s;
        messages.interval = u"week"_s;
        form.items.append(messages);
        auto request = ProductEdit::request(before, form);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        QCOMPARE(ProductEdit::changes(before, request.value()),
                 (QList<models::FieldChange>{
                     {u"Item api_calls · tiers"_s, u"none"_s, u"1000:0.5; inf:0.25"_s},
                     {u"Item storage_gb"_s, u"storage_gb · 100 included · month"_s, u"removed"_s},
                     {u"Item messages"_s, u"none"_s, u"messages · 20000 included · week"_s}}));

        // The same items in another order: the order is the change.
        ProductForm swapped = ProductForm::from(before);
        swapped.items.swapItemsAt(0, 1);
        request = ProductEdit::request(before, swapped);
        QVERIFY(request.ok());
        QCOMPARE(ProductEdit::changes(before, request.value()),
                 (QList<models::FieldChange>{{u"Order of items"_s, u"api_calls, storage_gb"_s,
                                              u"storage_gb, api_calls"_s}}));
    }

    // A row with no feature and a price is a fixed price (docs/billing.md):
    // sent with feature_id null, named "fixed price" in the review.
    void aRowWithoutAFeatureIsAFixedPrice()
    {
        ProductForm form = ProductForm::from(pro());
        ProductForm::Item fee;
        fee.price = u"29"_s;
        fee.interval = u"month"_s;
        form.items.append(fee);
        auto request = ProductEdit::request(pro(), form);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        QCOMPARE(request.value().items->size(), 2);
        QVERIFY(request.value().items->last().featureId.isEmpty());
        QCOMPARE(request.value().items->last().price, api::Decimal::fromInteger(29));
        QCOMPARE(ProductEdit::changes(pro(), request.value()),
                 (QList<models::FieldChange>{{u"Item fixed price"_s, u"none"_s,
                                              u"fixed price · month · 29 × quantity"_s}}));
    }

    // Issue 51: the review says when Save makes a new version, from the
    // update's dry run: a version added has a created_at of its own.
    void versionNoteSaysWhatSaveDoes()
    {
        api::Product before = pro();
        before.createdAt = 1000;
        ProductForm form = ProductForm::from(before);
        form.items[0].included = u"200000"_s;
        const auto request = ProductEdit::request(before, form);
        QVERIFY(request.ok());
        api::Product added = before;
        added.version = 2;
        added.createdAt = 9000;
        QCOMPARE(ProductEdit::versionNote(before, request.value(), added),
                 u"Customers are on version 1 of pro, so Save makes version 2 with these items; "
                 "version 1 stays as it is for them."_s);
        QCOMPARE(ProductEdit::versionNote(before, request.value(), before),
                 u"No customer is on version 1 of pro, so Save changes its items in place."_s);
        api::UpdateProductRequest rename;
        rename.name = u"Pro (2027)"_s;
        QCOMPARE(ProductEdit::versionNote(before, rename, before), QString());
    }

    void problemsNameTheirPath_data()
    {
        QTest::addColumn<QString>("tiers");
        QTest::addColumn<QString>("included");
        QTest::addColumn<QString>("path");
        QTest::newRow("tiers not pairs") << u"10:1; 20"_s << u"1"_s << u"items[0].tiers"_s;
        QTest::newRow("tiers without a last inf")
            << u"100000:0.002"_s << u"1"_s << u"items[0].tiers"_s;
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
        form.codes.last().limit = 0; // no limit (docs/api.md, "Rewards"), never "max. 0"
        QCOMPARE(
            models::RewardEdit::changes(before, models::RewardEdit::request(before, form).value())
                .first()
                .after,
            u"BONUS (max. 5), MORE (unlimited)"_s);
        form.codes.last().code.clear();
        QVERIFY(models::RewardEdit::request(before, form)
                    .error()
                    .message.startsWith(u"feature_grant.promo_codes[1].code"_s));
    }
};

QTEST_GUILESS_MAIN(TestProductEdit)
#include "tst_productedit.moc"
