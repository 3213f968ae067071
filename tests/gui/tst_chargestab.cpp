// Issue 54 in the console, as a finance user drives it (offscreen), on
// EngineBackend or on RemoteBackend to a local server (MD_GUI_BACKEND): a
// customer's Charges tab on the demo, whose customers start up to three
// months back. The first row is the open period so far, the rest its closed
// statements, newest first, one after another without a gap; each period's
// lines add up to its total; the chosen statement is written as a PDF and
// as a workbook.
#include "models/customers/ChargeLinesModel.h"
#include "models/customers/ChargePeriodsModel.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/Await.h"
#include "tests/support/TestDatabase.h"
#include "views/customers/CustomerChargesTab.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString Key = u"sk_test_charges0000000000000000000000000"_s;

} // namespace

class TestChargesTab final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;
    QString m_payer;            // a demo customer on a plan with a base fee
    qsizetype m_statements = 0; // its closed statements

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        QVERIFY2(!test::loadDemo(m_database.location(), Key, 30, &problem).isEmpty(),
                 qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        // A customer paying a base fee with months closed; the demo starts
        // three months back, so some customer has three.
        auto customers = await(m_backend->listCustomers({}));
        QVERIFY(customers.ok());
        qsizetype most = 0;
        for (const api::CustomerSummary &customer : customers.value().list) {
            auto preview = await(m_backend->chargesPreview({customer.id}));
            QVERIFY(preview.ok());
            api::PageRequest theirs;
            theirs.customerId = customer.id;
            auto statements = await(m_backend->listStatements(theirs));
            QVERIFY(statements.ok());
            most = std::max(most, statements.value().list.size());
            for (const api::ChargeLine &line : preview.value().lines)
                if (line.kind == api::ChargeKind::Fixed && !line.amount.isZero() &&
                    statements.value().list.size() >= 2 && m_payer.isEmpty()) {
                    m_payer = customer.id;
                    m_statements = statements.value().list.size();
                }
        }
        QVERIFY2(most >= 3, qPrintable(QString::number(most)));
        QVERIFY2(!m_payer.isEmpty(), "no demo customer pays a base fee");
    }

    void theOpenPeriodThenEveryStatement()
    {
        views::CustomerChargesTab tab(m_backend.get());
        QAbstractItemModelTester periods(tab.periods(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester lines(tab.lines(),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(tab.periods(), &models::ChargePeriodsModel::loaded);
        tab.setCustomer(m_payer);
        QVERIFY(loaded.wait(20000));
        // The open period, then every closed one.
        const int rows = tab.periods()->rowCount();
        QCOMPARE(rows, m_statements + 1);
        QVERIFY(!tab.periods()->period(0).closedAt);
        QCOMPARE(tab.periods()->index(0, models::ChargePeriodsModel::StateColumn).data().toString(),
                 u"open, so far"_s);
        for (int row = 0; row < rows; ++row) {
            const auto &period = tab.periods()->period(row);
            api::Decimal sum;
            for (const api::ChargeLine &line : period.lines)
                sum = sum.runningSum(line.amount);
            QCOMPARE(period.total, sum);
            QVERIFY(!period.total.isZero()); // the base fee, every month
            if (row > 0) {
                QVERIFY(period.closedAt);
                QCOMPARE(period.end, tab.periods()->period(row - 1).start); // no gap
            }
        }
        // The open period is shown first; a statement when chosen.
        QTRY_VERIFY(tab.summary()->text().contains(u"so far"_s));
        tab.periodTable()->selectRow(1);
        QVERIFY2(tab.summary()->text().contains(u"Statement for"_s),
                 qPrintable(tab.summary()->text()));
        QCOMPARE(tab.lines()->rowCount(), tab.periods()->period(1).lines.size());
        QVERIFY(tab.lines()
                    ->index(0, models::ChargeLinesModel::WhatColumn)
                    .data()
                    .toString()
                    .startsWith(u"Plan "_s));

        QTemporaryDir dir;
        QVERIFY(tab.exportTo(dir.filePath(u"statement.pdf"_s)));
        QVERIFY(tab.exportTo(dir.filePath(u"statement.xlsx"_s)));
        QFile pdf(dir.filePath(u"statement.pdf"_s));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QFile workbook(dir.filePath(u"statement.xlsx"_s));
        QVERIFY(workbook.open(QIODevice::ReadOnly));
        QVERIFY(workbook.read(2) == "PK"); // a zip, as every workbook is
    }

    void anotherCustomerReplacesTheRows()
    {
        views::CustomerChargesTab tab(m_backend.get());
        QSignalSpy loaded(tab.periods(), &models::ChargePeriodsModel::loaded);
        QSignalSpy failed(tab.periods(), &models::ChargePeriodsModel::failed);
        tab.setCustomer(m_payer);
        tab.setCustomer(u"nobody-here"_s); // the first answer is dropped
        QVERIFY(failed.wait(20000));
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(tab.periods()->rowCount(), 0);
        QVERIFY2(tab.summary()->text().contains(u"nobody-here"_s),
                 qPrintable(tab.summary()->text()));
    }
};

QTEST_MAIN(TestChargesTab)
#include "tst_chargestab.moc"
