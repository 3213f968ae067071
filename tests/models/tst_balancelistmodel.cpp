// BalanceListModel: paging through the backend, empty pages followed, stale
// answers dropped, errors kept as values, display of exact amounts.
#include "models/balances/BalanceListModel.h"
#include "models/common/AmountFormat.h"
#include "services/embedded/EngineBackend.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"
#include "tests/models/SmallBackend.h"
#include "tests/models/WindowedRows.h"
#include "tests/support/StubBackend.h"

#include <QAbstractItemModelTester>
#include <QPromise>
#include <QSignalSpy>
#include <QtConcurrent/QtConcurrentRun>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceListModel;

namespace {

// Serves scripted pages, some empty with more behind them.
class ScriptedBackend final : public test::StubBackend
{
public:
    QList<api::ListBalancesResponse> pages;
    QList<api::ListBalancesRequest> requests;

    QFuture<api::Result<api::ListBalancesResponse>>
    listBalances(const api::ListBalancesRequest &request) override
    {
        requests.append(request);
        const qsizetype index = request.startCursor.isEmpty() ? 0 : request.startCursor.toInt();
        return QtConcurrent::run(
            [page = pages.value(index)] { return api::Result<api::ListBalancesResponse>(page); });
    }
};

// A table of `count` rows "r0", "r1", … in pages of two, the pages' starts
// known (balances.pages); counts the pages asked for. With holdCounts, the
// count is answered only by answerCounts().
class WindowBackend final : public test::StubBackend
{
public:
    qint64 count = 1000;
    int pagesAsked = 0;
    bool holdCounts = false;
    QList<std::shared_ptr<QPromise<api::Result<api::BalancePages>>>> heldCounts;

    QFuture<api::Result<api::ListBalancesResponse>>
    listBalances(const api::ListBalancesRequest &request) override
    {
        ++pagesAsked;
        const qint64 first =
            request.startCursor.isEmpty() ? 0 : 2 * request.startCursor.toLongLong();
        api::ListBalancesResponse page;
        for (qint64 i = first; i < std::min(count, first + request.limit); ++i) {
            api::BalanceRow r;
            r.id = u"r%1"_s.arg(i);
            r.customerId = u"c"_s;
            r.featureId = u"f"_s;
            page.list.append(r);
        }
        page.hasMore = first + request.limit < count;
        if (page.hasMore)
            page.nextCursor = QString::number(first / 2 + 1);
        return QtConcurrent::run([page] { return api::Result<api::ListBalancesResponse>(page); });
    }
    QFuture<api::Result<api::BalancePages>>
    balancePages(const api::BalancePagesRequest &request) override
    {
        api::BalancePages pages;
        pages.count = count;
        for (qint64 start = 0; start < count; start += request.pageSize)
            pages.cursors.append(start == 0 ? QString() : QString::number(start / 2));
        if (!holdCounts)
            return QtConcurrent::run([pages] { return api::Result<api::BalancePages>(pages); });
        auto promise = std::make_shared<QPromise<api::Result<api::BalancePages>>>();
        promise->start();
        promise->addResult(api::Result<api::BalancePages>(pages)); // unseen if cancelled
        heldCounts.append(promise);
        return promise->future();
    }

    void answerCounts()
    {
        for (const auto &promise : std::exchange(heldCounts, {}))
            promise->finish();
    }
};

api::BalanceRow row(const QString &id)
{
    api::BalanceRow r;
    r.id = id;
    r.customerId = u"c"_s;
    r.featureId = u"f"_s;
    return r;
}

} // namespace

class TestBalanceListModel final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_location;
    std::unique_ptr<embedded::EngineBackend> m_backend;

    // Fetches every page the way a view would, waiting on signals only, and
    // the answer about the table's size (Qt 6.4 asserts when an answer
    // outlives the model it was asked for).
    static bool waitComplete(BalanceListModel &model)
    {
        if (!QTest::qWaitFor([&] { return !model.isAskingPages(); }, 5000))
            return false;
        for (int guard = 0; guard < 100; ++guard) {
            if (!model.isLoading()) {
                if (!model.canFetchMore({}))
                    return model.lastError().has_value() ||
                           (!model.hasMore() && test::loadEveryRow(model));
                model.fetchMore({});
            }
            QSignalSpy settled(&model, &BalanceListModel::loadingChanged);
            if (!settled.wait(5000))
                return false;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale::c());
        m_location = m_dir.filePath(u"model.db"_s);
        // 10000 ms is the fixture's "now": the expiring balance is still active.
        m_backend = test::smallBackend(m_location);
        QVERIFY(m_backend);
    }

    void pagesArriveAndPassTheModelTester()
    {
        BalanceListModel model(m_backend.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        api::ListBalancesRequest request;
        request.limit = 2;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setRequest(request);
        QVERIFY(waitComplete(model));
        QTRY_VERIFY(model.isWindowed()); // the count came: every row is there
        QCOMPARE(model.rowCount(), 7);
        QVERIFY(inserted.count() >= 1);
        QVERIFY(!model.canFetchMore({}));
        QVERIFY(test::loadEveryRow(model));
        QCOMPARE(model.index(0, BalanceListModel::CustomerColumn).data().toString(), u"ann"_s);
    }

    // With the count known, any row can be shown at once, and only the
    // pages looked at lately are kept.
    void aWindowedTableReachesAnyRowAndDropsFarPages()
    {
        WindowBackend backend;
        BalanceListModel model(&backend);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        api::ListBalancesRequest request;
        request.limit = 2;
        model.setRequest(request);
        QTRY_VERIFY(model.isWindowed());
        QCOMPARE(model.rowCount(), 1000);
        QVERIFY(!model.balanceAt(999)); // the last row: asked for, not there yet
        QCOMPARE(model.index(999, BalanceListModel::CustomerColumn).data().toString(), u"…"_s);
        QTRY_VERIFY(model.isLoaded(999));
        QCOMPARE(model.balance(999).id, u"r999"_s);
        QVERIFY(backend.pagesAsked <= 3); // the first page, perhaps, and the last: none between

        for (int row = 0; row < 1000; row += 8) { // every fourth page
            (void)model.balanceAt(row);
            // qWaitFor looks again every few ms; QTRY_VERIFY waits 50 ms per miss.
            QVERIFY(QTest::qWaitFor([&] { return model.isLoaded(row); }));
            QCOMPARE(model.balance(row).id, u"r%1"_s.arg(row));
            QVERIFY(model.heldPages() <= BalanceListModel::MaxWindowPages);
        }
        QVERIFY(!model.isLoaded(2)); // dropped long ago, asked again when shown
        (void)model.balanceAt(2);
        QTRY_VERIFY(model.isLoaded(2));
        QCOMPARE(model.balance(2).id, u"r2"_s);
        QTRY_COMPARE(model.pagesInFlight(), 0); // no answer may outlive the model
    }

    // The count of a filter no longer shown is stopped, not waited for.
    void aNewFilterStopsTheOldCount()
    {
        WindowBackend backend;
        backend.holdCounts = true;
        BalanceListModel model(&backend);
        api::ListBalancesRequest request;
        request.limit = 2;
        model.setRequest(request);
        request.customerId = u"c"_s;
        model.setRequest(request);
        QCOMPARE(backend.heldCounts.size(), 2);
        QVERIFY(backend.heldCounts.first()->future().isCanceled());
        QVERIFY(!backend.heldCounts.last()->future().isCanceled());
        backend.answerCounts();
        QTRY_VERIFY(model.isWindowed());
        QCOMPARE(model.rowCount(), 1000);
        QTRY_VERIFY(!model.isAskingPages());
        QTRY_COMPARE(model.pagesInFlight(), 0);
    }

    void cellsShowExactAmountsAndStatus()
    {
        BalanceListModel model(m_backend.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        api::ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        model.setRequest(request);
        QVERIFY(waitComplete(model));
        int pro = -1;
        int old = -1;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.balance(r).id == "b_ann_pro"_L1)
                pro = r;
            if (model.balance(r).id == "b_ann_old"_L1)
                old = r;
        }
        QVERIFY(pro >= 0 && old >= 0);
        QCOMPARE(model.index(pro, BalanceListModel::RemainingColumn).data().toString(),
                 u"750.50"_s);
        QCOMPARE(model.index(pro, BalanceListModel::RemainingColumn)
                     .data(BalanceListModel::RawValueRole)
                     .toString(),
                 u"750.5"_s);
        QVERIFY(model.index(pro, BalanceListModel::RemainingColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"2"_s));
        QCOMPARE(model.index(pro, BalanceListModel::PlanColumn).data().toString(), u"pro"_s);
        QCOMPARE(model.index(old, BalanceListModel::StatusColumn).data().toString(), u"expired"_s);
        QVERIFY(
            model.index(old, BalanceListModel::StatusColumn).data(Qt::ForegroundRole).isValid());
        QVERIFY(
            !model.index(pro, BalanceListModel::StatusColumn).data(Qt::ForegroundRole).isValid());
        const auto alignment =
            model.index(pro, BalanceListModel::UsageColumn).data(Qt::TextAlignmentRole);
        QVERIFY(alignment.value<Qt::Alignment>() & Qt::AlignRight);
    }

    void errorsAreKeptAndRetryable()
    {
        BalanceListModel model(m_backend.get());
        QSignalSpy failed(&model, &BalanceListModel::failed);
        api::ListBalancesRequest request;
        request.customerId = u"nobody"_s;
        model.setRequest(request);
        QVERIFY(failed.wait(5000));
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.lastError());
        QCOMPARE(model.lastError()->code, u"customer_not_found"_s);
        QVERIFY(!model.canFetchMore({}));
        request.customerId = u"bob"_s;
        model.setRequest(request);
        QVERIFY(waitComplete(model));
        QVERIFY(!model.lastError());
        QCOMPARE(model.rowCount(), 2);
    }

    void emptyPagesWithMoreAreFollowed()
    {
        ScriptedBackend scripted;
        scripted.pages = {{{row(u"a"_s)}, true, u"1"_s},
                          {{}, true, u"2"_s},
                          {{}, true, u"3"_s},
                          {{row(u"b"_s), row(u"c"_s)}, false, std::nullopt}};
        BalanceListModel model(&scripted);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.refresh();
        QVERIFY(waitComplete(model));
        QCOMPARE(model.rowCount(), 3);
        // After the refresh: the first page, then each empty page's successor.
        QStringList cursors;
        for (const api::ListBalancesRequest &r :
             scripted.requests.mid(scripted.requests.size() - 4))
            cursors.append(r.startCursor);
        QCOMPARE(cursors, (QStringList{QString(), u"1"_s, u"2"_s, u"3"_s}));
    }

    // One feature's amounts show one number of decimals, the most any of its
    // rows needs (a later page's included); another feature keeps its own.
    void aFeatureShowsOneNumberOfDecimals()
    {
        const auto amounts = [](const QString &id, const QString &feature, const char *remaining) {
            api::BalanceRow r = row(id);
            r.featureId = feature;
            r.remaining = *api::Decimal::parse(remaining);
            return r;
        };
        ScriptedBackend scripted;
        scripted.pages = {
            {{amounts(u"a"_s, u"credits"_s, "60.68"), amounts(u"b"_s, u"calls"_s, "100")},
             true,
             u"1"_s},
            {{amounts(u"c"_s, u"credits"_s, "25.4328")}, false, std::nullopt}};
        BalanceListModel model(&scripted);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.refresh();
        QVERIFY(waitComplete(model));
        const auto shown = [&model](int r) {
            return model.index(r, BalanceListModel::RemainingColumn).data().toString();
        };
        QCOMPARE(shown(0), u"60.6800"_s);
        QCOMPARE(shown(2), u"25.4328"_s);
        QCOMPARE(shown(1), u"100.00"_s);
        QVERIFY(!changed.isEmpty()); // the first page was shown again
        QCOMPARE(model.index(0, BalanceListModel::RemainingColumn)
                     .data(BalanceListModel::RawValueRole)
                     .toString(),
                 u"60.68"_s);
    }

    void staleAnswersAreDropped()
    {
        ScriptedBackend scripted;
        scripted.pages = {{{row(u"x"_s)}, false, std::nullopt}};
        BalanceListModel model(&scripted);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.refresh();
        model.refresh(); // the first answer must not be appended as well
        QVERIFY(waitComplete(model));
        QCOMPARE(model.rowCount(), 1);
    }

    void storeGivesBackEveryField()
    {
        // Every row of the fixture, through the compact store and back.
        engine::Engine engine(m_location, [] { return qint64(10000); });
        QVERIFY(engine.open().ok());
        const engine::Scope scope{engine.organizations().value().first().pk,
                                  engine::Environment::Sandbox};
        api::ListBalancesRequest all;
        all.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        const auto rows = test::listBalances(engine, scope, all).value().list;
        QVERIFY(rows.size() >= 7);
        QVERIFY(std::any_of(rows.cbegin(), rows.cend(), [](const api::BalanceRow &row) {
            return row.reset && row.reset->rollover; // b_ann_pro's rule is kept too
        }));
        models::BalanceRowStore store;
        for (const api::BalanceRow &row : rows)
            store.append(row);
        store.append(rows.first()); // shared ids and prices are stored once, rows twice
        QCOMPARE(store.size(), rows.size() + 1);
        for (qsizetype i = 0; i < rows.size(); ++i)
            QCOMPARE(store.at(i), rows.at(i));
        QCOMPARE(store.at(rows.size()), rows.first());
    }

    void amountsFormatExactly_data()
    {
        QTest::addColumn<QString>("amount");
        QTest::addColumn<QLocale>("locale");
        QTest::addColumn<QString>("text");
        QTest::newRow("C") << u"1234.5"_s << QLocale::c() << u"1234.50"_s;
        QTest::newRow("US") << u"1234.5"_s << QLocale(QLocale::English, QLocale::UnitedStates)
                            << u"1,234.50"_s;
        QTest::newRow("German") << u"9007199254740991"_s
                                << QLocale(QLocale::German, QLocale::Germany)
                                << u"9.007.199.254.740.991,00"_s;
        QTest::newRow("nano kept") << u"-0.000000001"_s << QLocale::c() << u"-0.000000001"_s;
        QTest::newRow("small") << u"12"_s << QLocale::c() << u"12.00"_s;
    }
    void amountsFormatExactly()
    {
        QFETCH(QString, amount);
        QFETCH(QLocale, locale);
        QFETCH(QString, text);
        QCOMPARE(models::formatAmount(*api::Decimal::parse(amount), locale), text);
    }
};

QTEST_GUILESS_MAIN(TestBalanceListModel)
#include "tst_balancelistmodel.moc"
