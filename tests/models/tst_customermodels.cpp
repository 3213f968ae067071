// The Customers page's models: the searchable paged list and one customer's
// per-feature balances tree, both checked by QAbstractItemModelTester.
#include "models/customers/CustomerBalancesModel.h"
#include "models/customers/CustomerListModel.h"
#include "tests/models/SmallBackend.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

using namespace md;
using namespace Qt::StringLiterals;

class TestCustomerModels final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

    static bool settle(models::CustomerListModel &model)
    {
        for (int guard = 0; guard < 50; ++guard) {
            if (!model.isLoading() && !model.canFetchMore({}))
                return true;
            if (!model.isLoading())
                model.fetchMore({});
            QSignalSpy changed(&model, &models::CustomerListModel::loadingChanged);
            if (model.isLoading() && !changed.wait(5000))
                return false;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale::c());
        m_backend = test::smallBackend(m_dir.filePath(u"customers.db"_s));
        QVERIFY(m_backend);
    }

    void listAndSearch()
    {
        models::CustomerListModel model(m_backend.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSearch(QString());
        QVERIFY(settle(model));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, models::CustomerListModel::EmailColumn).data().toString(),
                 u"ann@example.com"_s);
        model.setSearch(u"BOB"_s);
        QVERIFY(settle(model));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.customer(0).id, u"bob"_s);
        model.setSearch(u"nobody-at-all"_s);
        QVERIFY(settle(model));
        QCOMPARE(model.rowCount(), 0);
    }

    void balancesTree()
    {
        auto customer = m_backend->customer(u"ann"_s);
        customer.waitForFinished();
        QVERIFY(customer.result().ok());
        models::CustomerBalancesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCustomer(customer.result().value());
        QCOMPARE(model.rowCount(), 3); // ai_credits, api_calls, messages
        int apiCalls = -1;
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.index(row, 0).data().toString() == "api_calls"_L1)
                apiCalls = row;
        QVERIFY(apiCalls >= 0);
        const QModelIndex feature = model.index(apiCalls, 0);
        QCOMPARE(
            model.index(apiCalls, models::CustomerBalancesModel::RemainingColumn).data().toString(),
            u"750.50"_s);
        QCOMPARE(model.rowCount(feature), 1);
        QCOMPARE(
            model.index(0, models::CustomerBalancesModel::PlanColumn, feature).data().toString(),
            u"pro"_s);
        QCOMPARE(model.parent(model.index(0, 0, feature)), feature);
    }
};

QTEST_GUILESS_MAIN(TestCustomerModels)
#include "tst_customermodels.moc"
