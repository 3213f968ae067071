// The Excel exports' cells: amounts as numbers in one format, or as their
// exact digits where a spreadsheet number would round them; booleans and
// dates typed; words as the console says them; a frozen header of titles,
// fitted columns, the totals on a second sheet; nothing left behind by an
// abandoned workbook.
#include "models/balances/BalanceExport.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/balances/LedgerModel.h"
#include "models/common/Workbook.h"
#include "models/customers/CustomerListModel.h"
#include "models/operator/AuditLogModel.h"
#include "models/usage/UsageEventModel.h"
#include "tests/models/XlsxSheets.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::Decimal;
using models::Workbook;

namespace {

api::BalanceRow row(const QString &id, const char *remaining)
{
    api::BalanceRow r;
    r.id = id;
    r.customerId = u"ann"_s;
    r.featureId = u"credits"_s;
    r.includedGrant = *Decimal::parse("12.5");
    r.prepaidGrant = *Decimal::parse("0.000000001");
    r.remaining = *Decimal::parse(remaining);
    r.usage = Decimal::fromInteger(40);
    r.unlimited = id.endsWith(u'u');
    r.expiresAt = qint64(1767225600000); // 2026-01-01 00:00:00 UTC
    r.createdAt = 1764547200000;
    r.reset = api::Reset{}; // monthly
    return r;
}

} // namespace

class TestWorkbook final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void cellsAreTypedAndExact()
    {
        const QString path = m_dir.filePath(u"balances.xlsx"_s);
        auto book = Workbook::create(
            path, {{u"Balances"_s, models::BalanceExport::columns()},
                   {u"Totals"_s, {{u"key"_s, u"Feature"_s}, {u"remaining"_s, u"Remaining"_s}}}});
        QVERIFY(book);
        // Sheets take turns: the totals come before the rows in an export.
        book.value()->append(1, {u"credits"_s, *Decimal::parse("-7.25")});
        book.value()->append(1, {models::ExportWord{{}, u"Total"_s}, *Decimal::parse("-7.25")});
        for (const api::BalanceRow &r :
             {row(u"b1"_s, "-7.25"), row(u"b2u"_s, "123456789.123456789")})
            book.value()->append(0, models::BalanceExport::cells(r));
        QVERIFY(!QFile::exists(path)); // only once complete
        QVERIFY(book.value()->save());
        QVERIFY(QFile::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({u".meterdesk-*"_s}, QDir::Hidden | QDir::Files),
                 QStringList());

        const QString sheet = test::xlsxPart(path, u"xl/worksheets/sheet1.xml"_s);
        QVERIFY2(!sheet.isEmpty(), "unzip could not read the rows sheet");
        QVERIFY(sheet.contains(u"state=\"frozen\""_s) && sheet.contains(u"ySplit=\"1\""_s));
        QVERIFY(sheet.contains(u"<cols>"_s));
        const auto included = test::xlsxCell(sheet, u"F2"_s); // 12.5, a number
        QVERIFY(included);
        QCOMPARE(included->type, QString());
        QCOMPARE(Decimal::parse(included->value.toLatin1()), Decimal::parse("12.5"));
        const auto prepaid = test::xlsxCell(sheet, u"G2"_s); // nine decimals, still a number
        QCOMPARE(prepaid->type, QString());
        QCOMPARE(Decimal::parse(prepaid->value.toLatin1()), Decimal::parse("0.000000001"));
        QCOMPARE(test::xlsxCell(sheet, u"H2"_s)->value, u"-7.25"_s);
        const auto wide = test::xlsxCell(sheet, u"H3"_s); // 18 digits: its digits, as text
        QCOMPARE(wide->type, u"inlineStr"_s);
        QCOMPARE(wide->value, u"123456789.123456789"_s);
        QCOMPARE(test::xlsxCell(sheet, u"J2"_s)->type, u"b"_s);
        QCOMPARE(test::xlsxCell(sheet, u"J2"_s)->value, u"0"_s);
        QCOMPARE(test::xlsxCell(sheet, u"J3"_s)->value, u"1"_s);
        const auto expires = test::xlsxCell(sheet, u"M2"_s); // a date: days since 1900
        QCOMPARE(expires->type, QString());
        QCOMPARE(expires->value, u"46023"_s);
        QVERIFY(!test::xlsxCell(sheet, u"C2"_s)); // no entity: no cell

        const QString styles = test::xlsxPart(path, u"xl/styles.xml"_s);
        QVERIFY(styles.contains(u"formatCode=\"yyyy-mm-dd hh:mm:ss\""_s));
        const QString workbook = test::xlsxPart(path, u"xl/workbook.xml"_s);
        QVERIFY(workbook.contains(u"name=\"Balances\""_s) &&
                workbook.contains(u"name=\"Totals\""_s));
        const QString sums = test::xlsxPart(path, u"xl/worksheets/sheet2.xml"_s);
        QCOMPARE(test::xlsxCell(sums, u"A1"_s)->value, u"Feature"_s);
        QCOMPARE(test::xlsxCell(sums, u"A2"_s)->value, u"credits"_s);
        QCOMPARE(test::xlsxCell(sums, u"B2"_s)->value, u"-7.25"_s);
        QCOMPARE(test::xlsxCell(sums, u"A3"_s)->value, u"Total"_s);
    }

    // Issue 33: 12.5, 0.000000001 and -7.25 in one column were shown with
    // one, nine and two decimals. Every amount now has one format: at least
    // two decimals, as the console shows them, and every further one it
    // has, the places it lacks left blank so the decimal points line up.
    void amountsShareOneFormat()
    {
        const QString path = m_dir.filePath(u"formats.xlsx"_s);
        auto book = Workbook::create(path, {{u"Balances"_s, models::BalanceExport::columns()}});
        QVERIFY(book);
        for (const char *remaining : {"12.5", "0.000000001", "-7.25", "3"})
            book.value()->append(0, models::BalanceExport::cells(row(u"b"_s, remaining)));
        QVERIFY(book.value()->save());
        const QString sheet = test::xlsxPart(path, u"xl/worksheets/sheet1.xml"_s);
        const QString style = test::xlsxCell(sheet, u"H2"_s)->style;
        QVERIFY(!style.isEmpty());
        for (const QString &cell : {u"H3"_s, u"H4"_s, u"H5"_s, u"F2"_s, u"G2"_s, u"I2"_s})
            QCOMPARE(test::xlsxCell(sheet, cell)->style, style);
        QCOMPARE(Decimal::parse(test::xlsxCell(sheet, u"H3"_s)->value.toLatin1()),
                 Decimal::parse("0.000000001")); // the value itself, exact
        const QString styles = test::xlsxPart(path, u"xl/styles.xml"_s);
        QVERIFY2(styles.contains(u"formatCode=\"#,##0.00???????\""_s), qPrintable(styles));
        QVERIFY(!styles.contains(u"formatCode=\"#,##0.0\""_s));
        QVERIFY(!styles.contains(u"formatCode=\"#,##0.000000000\""_s));
    }

    // Issue 33: the sheets were headed "customer_id", "included_grant" and
    // said "month" where the console says "monthly". A workbook is for
    // people: the console's titles and words. CSV is for programs: the
    // API's field names and words, the same in every language.
    void sheetsSpeakTheConsolesWordsAndCsvTheApis()
    {
        const QString path = m_dir.filePath(u"words.xlsx"_s);
        auto book = Workbook::create(path, {{u"Balances"_s, models::BalanceExport::columns()}});
        QVERIFY(book);
        const api::BalanceRow monthly = row(u"b1"_s, "1");
        book.value()->append(0, models::BalanceExport::cells(monthly));
        QVERIFY(book.value()->save());
        const QString sheet = test::xlsxPart(path, u"xl/worksheets/sheet1.xml"_s);
        QCOMPARE(test::xlsxCell(sheet, u"A1"_s)->value, u"Balance id"_s);
        QCOMPARE(test::xlsxCell(sheet, u"B1"_s)->value, u"Customer"_s);
        QCOMPARE(test::xlsxCell(sheet, u"F1"_s)->value, u"Included"_s);
        QCOMPARE(test::xlsxCell(sheet, u"K1"_s)->value, u"Resets"_s);
        QCOMPARE(test::xlsxCell(sheet, u"K2"_s)->value, u"monthly"_s);
        QCOMPARE(test::xlsxCell(sheet, u"N2"_s)->value, u"active"_s);

        QVERIFY(models::BalanceExport::csvHeader().startsWith(
            u"id,customer_id,entity_id,feature_id,plan_id,included_grant,prepaid_grant,"_s));
        QVERIFY2(models::BalanceExport::csvLine(monthly).contains(u",month,"_s),
                 qPrintable(models::BalanceExport::csvLine(monthly)));
    }

    // Every export: its CSV names are the API's fields, its titles words.
    void everyExportIsTitledInWords()
    {
        const QList<models::ExportColumns> exports{
            models::BalanceExport::columns(),
            models::BalanceTotalsModel::columns(api::TotalsGroupBy::Plan),
            models::LedgerModel::columns(),
            models::AuditLogModel::columns(),
            models::CustomerListModel::columns(),
            models::UsageEventModel::columns()};
        const QRegularExpression wire(u"^[a-z_]+$"_s);
        for (const models::ExportColumns &columns : exports) {
            for (const models::ExportColumn &column : columns) {
                QVERIFY2(wire.match(column.name).hasMatch(), qPrintable(column.name));
                QVERIFY2(!column.title.isEmpty() && column.title.at(0).isUpper() &&
                             !column.title.contains(u'_'),
                         qPrintable(column.name + u" → "_s + column.title));
            }
        }
    }

    void fitsNumberCountsSignificantDigits()
    {
        QVERIFY(Workbook::fitsNumber(*Decimal::parse("999999999999999")));
        QVERIFY(!Workbook::fitsNumber(*Decimal::parse("9999999999999999")));
        QVERIFY(Workbook::fitsNumber(*Decimal::parse("0.000000001")));
        QVERIFY(Workbook::fitsNumber(*Decimal::parse("-123456.123456789")));
        QVERIFY(!Workbook::fitsNumber(*Decimal::parse("1234567.123456789")));
    }

    void anAbandonedWorkbookLeavesNothing()
    {
        const QString path = m_dir.filePath(u"abandoned.xlsx"_s);
        {
            auto book = Workbook::create(path, {{u"Balances"_s, models::BalanceExport::columns()}});
            QVERIFY(book);
            book.value()->append(0, models::BalanceExport::cells(row(u"b1"_s, "1")));
        }
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({u".meterdesk-*"_s}, QDir::Hidden | QDir::Files),
                 QStringList());
    }
};

QTEST_GUILESS_MAIN(TestWorkbook)
#include "tst_workbook.moc"
