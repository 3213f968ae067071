// Every admin form changes only what the user touched. For every product and
// reward of the demo workspace, and for billing controls with every kind of
// entry: the form
// opened and left as it is would send nothing; one field changed, Save
// changes that field of the stored record and nothing else, compared on the
// records as the server keeps them. Runs on EngineBackend and over HTTP.
#include "models/admin/ProductListModel.h"
#include "models/admin/RewardListModel.h"
#include "models/customers/ControlsSource.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/JsonEdit.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProductDialog.h"
#include "views/admin/RewardDialog.h"
#include "views/customers/BillingControlsDialog.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_roundtrip00000000000000000000000"_s;

template <typename T> api::Result<T> wait(backend::Reply<T> reply)
{
    if (!QTest::qWaitFor([&] { return reply.isFinished(); }, 20000))
        return api::ApiError::internal(u"no answer"_s);
    return reply.result();
}

// Review, then Save; true once the server took it.
template <typename Dialog> bool reviewAndSave(Dialog &dialog)
{
    if (!dialog.reviewButton()->isEnabled())
        return false;
    dialog.reviewButton()->click();
    QSignalSpy saved(&dialog, &Dialog::saved);
    dialog.saveButton()->click();
    return QTest::qWaitFor([&] { return saved.count() == 1; }, 20000);
}

} // namespace

class TestFormRoundTrip final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    // The newest version of every product.
    QList<api::Product> products()
    {
        QMap<QString, api::Product> newest;
        const auto all = wait(m_backend->listProducts());
        for (const api::Product &p : all.value().list)
            if (!newest.contains(p.id) || newest.value(p.id).version < p.version)
                newest.insert(p.id, p);
        return newest.values();
    }

    api::Product product(const QString &id)
    {
        for (const api::Product &p : products())
            if (p.id == id)
                return p;
        return {};
    }

    QList<models::Reward> rewards()
    {
        QList<models::Reward> list;
        const auto all = wait(m_backend->listRewards());
        for (const api::RewardEntry &entry : all.value().list)
            list.append(entry.reward);
        return list;
    }

    models::Reward reward(const QString &id)
    {
        for (const models::Reward &r : rewards())
            if (models::RewardEdit::id(r) == id)
                return r;
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        test::loadDemo(m_database.location(), Key, 20, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        QVERIFY(products().size() >= 3);
        QVERIFY(!rewards().isEmpty());
    }

    void productOpenedAndLeftSendsNothing()
    {
        models::ProductListModel model(m_backend.get());
        for (const api::Product &p : products()) {
            views::ProductDialog dialog(&model, p);
            QVERIFY2(dialog.request(), qPrintable(p.id + u": "_s + dialog.problemLabel()->text()));
            QVERIFY2(*dialog.request() == api::UpdateProductRequest(), qPrintable(p.id));
            QVERIFY(!dialog.reviewButton()->isEnabled());
        }
    }

    // The name alone: the same version, every item as it was (feature_type too).
    void productNameChangesTheNameOnly()
    {
        models::ProductListModel model(m_backend.get());
        for (const api::Product &before : products()) {
            views::ProductDialog dialog(&model, before);
            dialog.nameEdit()->setText(before.name + u" Plus"_s);
            QVERIFY2(reviewAndSave(dialog), qPrintable(before.id));
            api::Product expected = before;
            expected.name = before.name + u" Plus"_s;
            QCOMPARE(test::canonicalText(product(before.id)), test::canonicalText(expected));
        }
    }

    // One item's included usage: that field of that item, and the version
    // the engine adds when customers are on the old one; nothing else.
    void productItemCellChangesThatFieldOnly()
    {
        models::ProductListModel model(m_backend.get());
        int changed = 0;
        for (const api::Product &before : products()) {
            const auto item = std::find_if(before.items.cbegin(), before.items.cend(),
                                           [](const auto &i) { return i.includedUsage; });
            if (item == before.items.cend())
                continue;
            const int row = int(item - before.items.cbegin());
            const api::Decimal more = *item->includedUsage->plus(api::Decimal::fromInteger(7));
            views::ProductDialog dialog(&model, before);
            dialog.items()
                ->item(row, views::ProductDialog::IncludedColumn)
                ->setText(more.toString());
            QVERIFY2(reviewAndSave(dialog), qPrintable(before.id));
            const api::Product after = product(before.id);
            api::Product expected = before;
            expected.items[row].includedUsage = more;
            expected.version = after.version;
            expected.createdAt = after.createdAt;
            QCOMPARE(test::canonicalText(after), test::canonicalText(expected));
            ++changed;
        }
        QVERIFY(changed >= 2);
    }

    void rewardOpenedAndLeftSendsNothing()
    {
        models::RewardListModel model(m_backend.get());
        for (const models::Reward &r : rewards()) {
            views::RewardDialog dialog(&model, r);
            const QString id = models::RewardEdit::id(r);
            QVERIFY2(dialog.request(), qPrintable(id + u": "_s + dialog.problemLabel()->text()));
            api::UpdateRewardRequest nothing;
            nothing.rewardId = id;
            if (std::holds_alternative<api::CouponRecord>(r))
                nothing.coupon = api::CouponUpdate();
            else
                nothing.featureGrant = api::FeatureGrantUpdate();
            QVERIFY2(*dialog.request() == nothing, qPrintable(id));
            QVERIFY(!dialog.reviewButton()->isEnabled());
        }
    }

    void rewardNameChangesTheNameOnly()
    {
        models::RewardListModel model(m_backend.get());
        for (const models::Reward &before : rewards()) {
            const QString id = models::RewardEdit::id(before);
            views::RewardDialog dialog(&model, before);
            dialog.nameEdit()->setText(models::RewardEdit::name(before) + u" 2"_s);
            QVERIFY2(reviewAndSave(dialog), qPrintable(id));
            models::Reward expected = before;
            std::visit([&](auto &r) { r.name += u" 2"_s; }, expected);
            const models::Reward after = reward(id);
            QCOMPARE(std::visit([](const auto &r) { return test::canonicalText(r); }, after),
                     std::visit([](const auto &r) { return test::canonicalText(r); }, expected));
        }
    }

    // Controls with an entry of every kind.
    void controlsChangeOnlyWhatWasTouched()
    {
        const QString customer = wait(m_backend->listBalances({})).value().list.first().customerId;
        auto body = api::JsonValue::parse(uR"({"customer_id":"%1","billing_controls":{
                 "usageLimits":[{"featureId":"ai_credits","limit":500,"interval":"month","enabled":true}],
                 "spendLimits":[{"limitType":"absolute","overageLimit":20.5,"enabled":false}],
                 "usageAlerts":[{"featureId":"ai_credits","thresholdType":"usage_percentage",
                                 "threshold":80,"name":"Four fifths","enabled":true}],
                 "overageAllowed":[{"featureId":"ai_credits","enabled":true}]}})"_s.arg(customer)
                                              .toUtf8(),
                                          u"controls"_s);
        QVERIFY(body);
        auto set = api::decode<api::UpdateBillingControlsRequest>(body.value());
        QVERIFY2(set, qPrintable(set ? QString() : set.error().message));
        QVERIFY(wait(m_backend->updateBillingControls(set.value())));
        models::ControlsSource source(m_backend.get());
        const api::BillingControlsAnswer before = wait(source.read({customer, {}})).value();

        {
            views::BillingControlsDialog dialog(&source, before);
            QVERIFY(dialog.request());
            const api::UpdateBillingControlsRequest &r = *dialog.request();
            QVERIFY(!r.hasAutoTopups && !r.hasUsageLimits && !r.hasSpendLimits &&
                    !r.hasUsageAlerts && !r.hasOverageAllowed);
            QVERIFY(!dialog.reviewButton()->isEnabled());
        }

        views::BillingControlsDialog dialog(&source, before);
        dialog.usageLimits()->item(0, 1)->setText(u"650"_s);
        QVERIFY(dialog.request() && dialog.request()->hasUsageLimits);
        QVERIFY(!dialog.request()->hasAutoTopups && !dialog.request()->hasUsageAlerts);
        QVERIFY(reviewAndSave(dialog));
        const api::BillingControlsAnswer after = wait(source.read({customer, {}})).value();
        api::BillingControls expected = before.billingControls;
        expected.usageLimits[0].limit = api::Decimal::fromInteger(650);
        api::BillingControls stored = after.billingControls;
        expected.usageLimits[0].usage.reset(); // counted, not set
        stored.usageLimits[0].usage.reset();
        QCOMPARE(test::canonicalText(stored), test::canonicalText(expected));
    }
};

QTEST_MAIN(TestFormRoundTrip)
#include "tst_formroundtrip.moc"
