// LedgerModel: a customer's ledger of one feature newest first, the selected
// balance's rows in bold (moving the mark keeps the rows), amounts with their
// sign, CSV with exact amounts, and an empty table when nothing is selected.
#include "models/balances/LedgerModel.h"
#include "models/common/PagedExport.h"
#include "tests/models/SmallBackend.h"
#include "tests/models/XlsxSheets.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFont>
#include <QSignalSpy>

using namespace md;
using namespace Qt::StringLiterals;
using models::LedgerModel;

class TestLedgerModel final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = test::smallBackend(m_dir.filePath(u"ledger.db"_s));
        QVERIFY(m_backend);
    }

    void showsOneFeatureAndMarksTheBalance()
    {
        LedgerModel model(m_backend.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.show(u"ann"_s, u"api_calls"_s, u"b_ann_pro"_s);
        QVERIFY(test::waitIdle(model));
        // b_ann_pro opened by the load; b_ann_old opened and expired with its plan.
        QCOMPARE(model.rowCount(), 3);
        QStringList balances;
        for (int row = 0; row < model.rowCount(); ++row) {
            balances.append(model.entry(row).balanceId);
            QCOMPARE(model.entry(row).featureId, u"api_calls"_s);
            const QString kind = model.index(row, LedgerModel::KindColumn).data().toString();
            QVERIFY2(kind == "Imported"_L1 || kind == "Expiry"_L1, qPrintable(kind));
            const bool bold = model.index(row, LedgerModel::AmountColumn)
                                  .data(Qt::FontRole)
                                  .value<QFont>()
                                  .bold();
            QCOMPARE(bold, model.entry(row).balanceId == "b_ann_pro"_L1);
        }
        balances.sort();
        QCOMPARE(balances, (QStringList{u"b_ann_old"_s, u"b_ann_old"_s, u"b_ann_pro"_s}));

        // Another balance of the same ledger: the rows stay, the mark moves.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.show(u"ann"_s, u"api_calls"_s, u"b_ann_old"_s);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.markedBalance(), u"b_ann_old"_s);
    }

    void amountsShowTheirSignAndStayExactInCsv()
    {
        LedgerModel model(m_backend.get());
        model.show(u"ann"_s, u"api_calls"_s, u"b_ann_pro"_s);
        QVERIFY(test::waitIdle(model));
        int pro = 0;
        while (model.entry(pro).balanceId != "b_ann_pro"_L1)
            ++pro;
        // 750.5 remaining plus two rollovers: what the row holds.
        const api::LedgerEntry &opening = model.entry(pro);
        QVERIFY(api::Decimal::fromInteger(750) < opening.amount);
        QVERIFY(model.index(pro, LedgerModel::AmountColumn)
                    .data()
                    .toString()
                    .startsWith(QLocale().positiveSign()));
        const QString line = LedgerModel::csvLine(opening);
        QVERIFY(line.contains(u","_s + opening.amount.toString() + u","_s));
        QVERIFY(line.endsWith(u"\r\n"_s));
        QCOMPARE(LedgerModel::csvHeader().count(u','), line.count(u','));

        const QString path = m_dir.filePath(u"ledger.csv"_s);
        models::PagedExport exporter(
            &model, LedgerModel::columns(),
            [&](int row) { return LedgerModel::cells(model.entry(row)); }, u"Ledger"_s);
        QSignalSpy finished(&exporter, &models::PagedExport::finished);
        QVERIFY(exporter.start(path).ok());
        QVERIFY(!exporter.start(path).ok()); // one at a time
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().first().toInt(), model.rowCount());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), model.rowCount() + 1);

        // The same ledger as a workbook: typed cells, written off the GUI thread.
        const QString book = m_dir.filePath(u"ledger.xlsx"_s);
        QVERIFY(exporter.start(book).ok());
        QVERIFY(finished.wait(5000));
        const QString sheet = test::xlsxPart(book, u"xl/worksheets/sheet1.xml"_s);
        QCOMPARE(sheet.count(u"<row "_s), model.rowCount() + 1);
        // Headed and worded as the console shows the ledger; CSV keeps the API's.
        QCOMPARE(test::xlsxCell(sheet, u"G1"_s)->value, u"Amount"_s);
        QCOMPARE(test::xlsxCell(sheet, u"C%1"_s.arg(pro + 2))->value,
                 LedgerModel::kindText(opening.kind));
        QVERIFY(LedgerModel::csvHeader().contains(u",amount,balance_after,"_s));
        const auto amount = test::xlsxCell(sheet, u"G%1"_s.arg(pro + 2));
        QCOMPARE(amount->type, QString()); // a number
        QCOMPARE(api::Decimal::parse(amount->value.toLatin1()), opening.amount);
        QVERIFY(test::xlsxPart(book, u"xl/workbook.xml"_s).contains(u"name=\"Ledger\""_s));
    }

    void nothingSelectedIsAnEmptyTable()
    {
        LedgerModel model(m_backend.get());
        model.show(u"ann"_s, u"messages"_s, u"b_ann_seat"_s);
        QVERIFY(test::waitIdle(model));
        QVERIFY(model.rowCount() > 0);
        model.show({}, {}, {});
        QVERIFY(test::waitIdle(model));
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.lastError());
    }

    void anUnknownCustomerIsAnErrorKept()
    {
        LedgerModel model(m_backend.get());
        QSignalSpy failed(&model, &LedgerModel::failed);
        model.show(u"nobody"_s, u"messages"_s, {});
        QVERIFY(failed.wait(5000));
        QCOMPARE(model.lastError()->status, 404);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLedgerModel)
#include "tst_ledgermodel.moc"
