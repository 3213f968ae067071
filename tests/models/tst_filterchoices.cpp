// The Balances filter bar's choices: features and plans as the backend lists
// them (plan versions once), customer search, and failures reported rather
// than dropped.
#include "models/balances/FilterChoices.h"
#include "tests/support/StubBackend.h"

#include <QPromise>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using md::models::FilterChoices;

namespace {

class ChoicesBackend final : public md::test::StubBackend
{
public:
    bool failing = false;
    QString searched;

    md::backend::Reply<md::api::Page<md::api::FeatureInfo>> listFeatures() override
    {
        if (failing)
            return refused<md::api::Page<md::api::FeatureInfo>>();
        md::api::Page<md::api::FeatureInfo> page;
        page.list = {{u"credits"_s, u"AI credits"_s, u"credit_system"_s, {}, {}},
                     {u"seats"_s, u"Seats"_s, u"continuous_use"_s, {}, {}}};
        return QtFuture::makeReadyFuture(md::api::Result(page));
    }
    md::backend::Reply<md::api::Page<md::api::Product>> listProducts() override
    {
        if (failing)
            return refused<md::api::Page<md::api::Product>>();
        md::api::Page<md::api::Product> page;
        md::api::Product pro;
        pro.id = u"pro"_s;
        pro.name = u"Pro"_s;
        md::api::Product proV2 = pro;
        proV2.version = 2;
        md::api::Product free;
        free.id = u"free"_s;
        free.name = u"Free"_s;
        page.list = {pro, proV2, free};
        return QtFuture::makeReadyFuture(md::api::Result(page));
    }
    md::backend::Reply<md::api::Page<md::api::CustomerSummary>>
    listCustomers(const md::api::PageRequest &request) override
    {
        searched = request.search.value_or(QString());
        md::api::Page<md::api::CustomerSummary> page;
        md::api::CustomerSummary ann;
        ann.id = u"ann"_s;
        page.list = {ann};
        if (!holding)
            return QtFuture::makeReadyFuture(md::api::Result(page));
        auto promise =
            std::make_shared<QPromise<md::api::Result<md::api::Page<md::api::CustomerSummary>>>>();
        promise->start();
        held.append([promise, page] {
            promise->addResult(md::api::Result(page));
            promise->finish();
        });
        return promise->future();
    }
    // Searches answered only when the test says, in the order it says.
    bool holding = false;
    QList<std::function<void()>> held;

private:
    template <typename T> static md::backend::Reply<T> refused()
    {
        return QtFuture::makeReadyFuture(md::api::Result<T>(
            md::api::ApiError{503, md::api::ErrorCode::DatabaseUnavailable, u"down"_s}));
    }
};

} // namespace

class TestFilterChoices final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void featuresAndPlansAreListedOnce()
    {
        ChoicesBackend backend;
        FilterChoices choices(&backend);
        QSignalSpy features(&choices, &FilterChoices::featuresChanged);
        QSignalSpy plans(&choices, &FilterChoices::plansChanged);
        choices.reload();
        QTRY_COMPARE(features.count(), 1);
        QTRY_COMPARE(plans.count(), 1);
        QCOMPARE(choices.features(), (QList<FilterChoices::Choice>{{u"credits"_s, u"AI credits"_s},
                                                                   {u"seats"_s, u"Seats"_s}}));
        QCOMPARE(choices.plans(),
                 (QList<FilterChoices::Choice>{{u"pro"_s, u"Pro"_s}, {u"free"_s, u"Free"_s}}));
    }

    void failuresAreReportedAndKeepTheChoices()
    {
        ChoicesBackend backend;
        FilterChoices choices(&backend);
        QSignalSpy plans(&choices, &FilterChoices::plansChanged);
        choices.reload();
        QTRY_COMPARE(plans.count(), 1);
        backend.failing = true;
        QSignalSpy failed(&choices, &FilterChoices::failed);
        choices.reload();
        QTRY_COMPARE(failed.count(), 2); // features and plans, each in words
        QVERIFY(failed.at(0).at(0).toString().contains(u"down"_s));
        QCOMPARE(choices.plans().size(), 2); // what was shown stays
    }

    void customerSearchAnswersIds()
    {
        ChoicesBackend backend;
        FilterChoices choices(&backend);
        QSignalSpy found(&choices, &FilterChoices::customersFound);
        choices.searchCustomers(u"  an "_s);
        QTRY_COMPARE(found.count(), 1);
        QCOMPARE(backend.searched, u"an"_s);
        QCOMPARE(found.first().at(0).toString(), u"an"_s);
        const auto customers = found.first().at(1).value<QList<FilterChoices::Customer>>();
        QCOMPARE(customers.size(), 1);
        QCOMPARE(customers.first().id, u"ann"_s);
    }

    // Typing on: the answer for an older text is not shown.
    void onlyTheLatestSearchIsAnswered()
    {
        ChoicesBackend backend;
        FilterChoices choices(&backend);
        QSignalSpy found(&choices, &FilterChoices::customersFound);
        backend.holding = true;
        choices.searchCustomers(u"a"_s);
        choices.searchCustomers(u"an"_s);
        QCOMPARE(backend.held.size(), 2);
        backend.held.at(1)(); // the newer answer first, then the older
        backend.held.at(0)();
        QTRY_COMPARE(found.count(), 1);
        QCoreApplication::processEvents();
        QCOMPARE(found.count(), 1);
        QCOMPARE(found.first().at(0).toString(), u"an"_s);
    }
};

QTEST_GUILESS_MAIN(TestFilterChoices)
#include "tst_filterchoices.moc"
