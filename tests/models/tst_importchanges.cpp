// What billing.import does to one customer, as the wizard shows it: plans
// and balances projected before and after, the identity fields that change,
// and the outcome word of a first import and of a repeat.
#include "models/import/ImportChanges.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::ImportOutcome;

namespace {

api::Decimal number(qint64 units)
{
    return api::Decimal::fromInteger(units);
}

api::FlashedPlan flashed(const QString &plan, bool skipped = false, bool expired = false)
{
    api::FlashedPlan f;
    f.planId = plan;
    f.skipped = skipped;
    if (expired)
        f.expired = true;
    return f;
}

} // namespace

class TestImportChanges final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void changesProjectPlansAndBalances()
    {
        api::Customer before;
        before.id = u"c"_s;
        api::Subscription old;
        old.planId = u"basic"_s;
        before.subscriptions = {old};
        api::BalanceSummary calls;
        calls.featureId = u"api_calls"_s;
        calls.granted = number(100);
        calls.remaining = number(40);
        api::BalanceBreakdownRow basicRow;
        basicRow.planId = u"basic"_s;
        basicRow.includedGrant = number(100);
        basicRow.remaining = number(40);
        calls.breakdown = {basicRow};
        before.balances.insert(calls.featureId, calls);

        api::Product pro;
        pro.id = u"pro"_s;
        api::ProductItem item;
        item.featureId = u"api_calls"_s;
        item.includedUsage = number(1000);
        pro.items = {item};
        api::ImportCustomerRequest request;
        request.customerId = u"c"_s;
        api::Billable billable;
        billable.plan.planId = u"pro"_s;
        api::ImportBalance usage;
        usage.featureId = u"api_calls"_s;
        usage.usage = api::Decimal::parse(u"250.5"_s);
        billable.plan.balances = {usage};
        request.billables = {billable};
        api::ImportCustomerResponse response;
        response.flashed = {flashed(u"pro"_s), flashed(u"basic"_s, false, true)};

        const auto changes =
            models::ImportChanges::project(before, request, response, {{u"pro"_s, pro}});
        QCOMPARE(changes.plans.size(), 2);
        QCOMPARE(changes.plans.at(0).planId, u"basic"_s);
        QCOMPARE(changes.plans.at(0).after, api::PlanStatus::Expired);
        QCOMPARE(changes.plans.at(1).before, std::nullopt);
        QCOMPARE(changes.plans.at(1).after, api::PlanStatus::Active);
        QCOMPARE(changes.balances.size(), 1);
        const models::BalanceChange &balance = changes.balances.first();
        QCOMPARE(balance.grantedBefore, number(100));
        QCOMPARE(balance.remainingBefore, number(40));
        QCOMPARE(balance.grantedAfter, number(1000)); // basic's row goes, pro's comes
        QCOMPARE(balance.remainingAfter, api::Decimal::parse(u"749.5"_s));
        QCOMPARE(changes.summary(), u"basic expires, + pro (active)"_s);

        const auto classify = [](bool existed, const api::ImportCustomerResponse &answer) {
            return models::ImportChanges::classify(existed, answer, {});
        };
        QCOMPARE(classify(false, response), ImportOutcome::New);
        QCOMPARE(classify(true, response), ImportOutcome::Expired);
        response.flashed = {flashed(u"pro"_s, true)};
        QCOMPARE(classify(true, response), ImportOutcome::Unchanged);
        response.flashed.first().mismatch = true;
        QCOMPARE(classify(false, response), ImportOutcome::Mismatch);
        QCOMPARE(models::ImportChanges::mismatchInWords(response),
                 u"reported usage exceeds the plan's grant"_s);
        // Stripe said otherwise than the file: each field, both values.
        response.flashed.first().differences = {
            {u"billables[0].plan.status"_s, u"trialing"_s, u"active"_s},
            {u"billables[0].plan.quantity"_s, u"1"_s, u"3"_s}};
        QCOMPARE(models::ImportChanges::mismatchInWords(response),
                 u"Stripe says otherwise, and Stripe's is imported: status: the source says "
                 "trialing, Stripe active; quantity: the source says 1, Stripe 3"_s);
        response.flashed = {flashed(u"pro"_s)};
        QCOMPARE(classify(true, response), ImportOutcome::Updated);

        // The file says the plan in force was canceled: it ends as canceled.
        response.flashed = {flashed(u"basic"_s, false, true)};
        response.flashed.first().status = api::PlanStatus::Canceled;
        const auto canceled =
            models::ImportChanges::project(before, request, response, {{u"pro"_s, pro}});
        QCOMPARE(canceled.plans.at(0).after, api::PlanStatus::Canceled);
        QCOMPARE(canceled.summary(), u"basic is canceled"_s);
        QCOMPARE(canceled.balances.first().grantedAfter, number(0)); // its row goes
    }

    // Issue 51: an updated customer's name and email were overwritten
    // unannounced. Every identity field that changes is listed, before and
    // after; a repeat that changes nothing is unchanged, not updated.
    void identityFieldsAndRepeatsAreShown()
    {
        api::Customer before;
        before.id = u"c"_s;
        before.name = u"Old Name"_s;
        before.email = u"same@example.com"_s;
        before.createdAt = 1'700'000'000'000;
        before.processors.insert(u"stripe"_s, u"cus_1"_s);
        api::ImportCustomerRequest request;
        request.customerId = u"c"_s;
        request.customerData =
            api::CustomerData{u"New Name"_s, u"same@example.com"_s, u"fp_1"_s, 1'700'000'000'000};
        request.processors = {{api::Processor::Stripe, u"cus_other"_s},
                              {api::Processor::RevenueCat, u"rc_1"_s}};
        api::ImportCustomerResponse response;
        response.flashed = {flashed(u"pro"_s, true)};
        response.flashed.first().reason = u"already_active"_s;

        auto changes = models::ImportChanges::project(before, request, response, {});
        using models::IdentityChange;
        QCOMPARE(changes.identity.size(), 3); // not the email, the date, nor Stripe's id it keeps
        QCOMPARE(changes.identity.at(0).field, IdentityChange::Name);
        QCOMPARE(changes.identity.at(0).before, u"Old Name"_s);
        QCOMPARE(changes.identity.at(0).after, u"New Name"_s);
        QCOMPARE(changes.identity.at(1).field, IdentityChange::Fingerprint);
        QCOMPARE(changes.identity.at(1).before, QString());
        QCOMPARE(changes.identity.at(2).field, IdentityChange::RevenueCatId);
        QCOMPARE(changes.identity.at(2).after, u"rc_1"_s);
        QCOMPARE(changes.summary(), u"name changes, fingerprint changes, RevenueCat id changes"_s);
        QCOMPARE(models::ImportChanges::classify(true, response, changes), ImportOutcome::Updated);

        // The same row again: nothing to write, the plan already imported.
        before.name = u"New Name"_s;
        before.fingerprint = u"fp_1"_s;
        before.processors.insert(u"revenuecat"_s, u"rc_1"_s);
        changes = models::ImportChanges::project(before, request, response, {});
        QVERIFY(changes.identity.isEmpty());
        QCOMPARE(models::ImportChanges::classify(true, response, changes),
                 ImportOutcome::Unchanged);
        QCOMPARE(changes.summary(), u"already imported: nothing changes"_s);
        QCOMPARE(models::ImportChanges::unchangedWords(u"already_ended"_s),
                 u"unchanged: already ended"_s);
        // A customer with no plans, sent again as it is, is unchanged too.
        response.flashed.clear();
        changes = models::ImportChanges::project(before, request, response, {});
        QCOMPARE(models::ImportChanges::classify(true, response, changes),
                 ImportOutcome::Unchanged);
        QCOMPARE(changes.summary(), u"nothing changes"_s);

        // A new customer: every field it is given, nothing before.
        changes = models::ImportChanges::project(std::nullopt, request, response, {});
        QCOMPARE(changes.identity.size(), 6);
        QVERIFY(changes.summary().isEmpty()); // its plans say what is new
    }
};

QTEST_GUILESS_MAIN(TestImportChanges)
#include "tst_importchanges.moc"
